internal import CLibSSL
import Foundation

/// Owns one parsed X509 (d2i_X509 of DER we were given). Immutable; shared between connections by reference
/// counting inside libssl.
///
/// `@unchecked Sendable`: the X509 is never mutated after parsing, and OpenSSL documents X509 objects as safe for
/// concurrent read-only use (the cached extension state is computed under the object's lock).
final class TLSCertificate: @unchecked Sendable {
    let raw: OpaquePointer

    /// Parses `der` (exactly one certificate; trailing bytes are rejected).
    init(der: Data) throws(TLSError) {
        let parsed: OpaquePointer? = der.withUnsafeBytes { buffer -> OpaquePointer? in
            guard let base = buffer.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let x509 = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            guard let end = cursor, end == base + buffer.count else {
                X509_free(x509)
                return nil
            }
            return x509
        }
        guard let parsed else { throw TLSError.failed("d2i_X509", .badConfiguration) }
        raw = parsed
    }

    deinit { X509_free(raw) }

    /// The DER encoding of `x509` (i2d_X509), or nil when OpenSSL cannot encode it.
    static func derBytes(of x509: OpaquePointer) -> Data? {
        let length = i2d_X509(x509, nil)
        guard length > 0 else {
            TLSErrorQueue.clear()
            return nil
        }
        var data = Data(count: Int(length))
        let written = data.withUnsafeMutableBytes { buffer -> Int32 in
            guard let base = buffer.bindMemory(to: UInt8.self).baseAddress else { return -1 }
            var cursor: UnsafeMutablePointer<UInt8>? = base
            return i2d_X509(x509, &cursor)
        }
        guard written == length else {
            TLSErrorQueue.clear()
            return nil
        }
        return data
    }
}

/// A certificate chain and the private key for its leaf, ready to be installed on connections.
///
/// The private key is the caller's own key object: ``init(certificateChain:privateKeyHandle:)`` takes the
/// EVP_PKEY that OSecCrypto's key already owns (lent for the duration of the call) and keeps a reference to that
/// same object (EVP_PKEY_up_ref), so handshake signatures are made with the key the identity holds; no key bytes
/// are exported or copied.
///
/// `@unchecked Sendable`: immutable after init; libssl only reads the certificates and uses the key for signing,
/// which EVP_PKEY supports concurrently.
package final class TLSCredential: @unchecked Sendable {
    let leaf: TLSCertificate
    let intermediates: [TLSCertificate]
    let privateKey: OpaquePointer
    /// A STACK_OF(X509) of the intermediates (libssl copies it per connection).
    let chainStack: OpaquePointer
    /// The DER of the leaf.
    package let leafDER: Data
    /// SHA-256 of the leaf: servers derive their session ID context from it, so sessions resume only under the
    /// certificate they were made with; clients key their sessions with it, so a session made with one client
    /// certificate is never offered by a connection presenting another (or none).
    package let sessionContextSeed: [UInt8]
    /// This credential's SSL_CTX for each side, made on first use.
    private let contexts = LockedState<(client: TLSContext?, server: TLSContext?)>((nil, nil))

    /// - Parameters:
    ///   - certificateChain: DER certificates, leaf first, then the intermediates to send.
    ///   - privateKeyHandle: the EVP_PKEY of the leaf's private key, lent by its owner for this call.
    package init(certificateChain: [Data], privateKeyHandle: OpaquePointer) throws(TLSError) {
        guard let leafDER = certificateChain.first else {
            throw TLSError(.badConfiguration, "a certificate chain needs at least the leaf")
        }
        let leaf = try TLSCertificate(der: leafDER)
        let fingerprint = try TLSDigest.sha256(leafDER)
        var intermediates: [TLSCertificate] = []
        for der in certificateChain.dropFirst() { intermediates.append(try TLSCertificate(der: der)) }
        guard X509_check_private_key(leaf.raw, privateKeyHandle) == 1 else {
            throw TLSError.failed("the private key does not match the certificate", .badConfiguration)
        }
        guard EVP_PKEY_up_ref(privateKeyHandle) == 1 else { throw TLSError.failed("EVP_PKEY_up_ref") }
        guard let stack = OPENSSL_sk_new_null() else {
            EVP_PKEY_free(privateKeyHandle)
            throw TLSError.failed("OPENSSL_sk_new_null")
        }
        for certificate in intermediates {
            guard X509_up_ref(certificate.raw) == 1, OPENSSL_sk_push(stack, UnsafeRawPointer(certificate.raw)) > 0
            else {
                TLSCredential.freeStack(stack)
                EVP_PKEY_free(privateKeyHandle)
                throw TLSError.failed("OPENSSL_sk_push")
            }
        }
        self.leaf = leaf
        self.intermediates = intermediates
        self.privateKey = privateKeyHandle
        self.chainStack = stack
        self.leafDER = leafDER
        self.sessionContextSeed = fingerprint
    }

    deinit {
        TLSCredential.freeStack(chainStack)
        EVP_PKEY_free(privateKey)
    }

    /// Frees a STACK_OF(X509) and the references it holds.
    static func freeStack(_ stack: OpaquePointer) {
        while OPENSSL_sk_num(stack) > 0 {
            if let element = OPENSSL_sk_pop(stack) { X509_free(OpaquePointer(element)) }
        }
        OPENSSL_sk_free(stack)
    }

    /// The SSL_CTX of `side` with this credential installed (SSL objects made from it inherit the certificate).
    func context(server: Bool) throws(TLSError) -> OpaquePointer {
        let context = contexts.withLock { contexts -> TLSContext in
            if server, let existing = contexts.server { return existing }
            if !server, let existing = contexts.client { return existing }
            let made = TLSContext(server: server, credential: self)
            if server { contexts.server = made } else { contexts.client = made }
            return made
        }
        return try context.get()
    }

    /// Sessions in libssl's cache of this credential's server context (0 before it is made).
    var serverSessionCount: Int { contexts.withLock { $0.server?.sessionCount ?? 0 } }

    /// Installs the chain and key on `ssl` (SSL_use_cert_and_key; libssl takes its own references).
    func install(on ssl: OpaquePointer) throws(TLSError) {
        guard SSL_use_cert_and_key(ssl, leaf.raw, privateKey, chainStack, 1) == 1 else {
            throw TLSError.failed("SSL_use_cert_and_key", .badConfiguration)
        }
    }
}
