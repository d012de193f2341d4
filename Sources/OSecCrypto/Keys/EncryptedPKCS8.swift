internal import COpenSSL
import OSecASN1

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decryption of EncryptedPrivateKeyInfo (RFC 5958) through OpenSSL, after checking the KDF cost.
enum EncryptedPKCS8 {
    /// Returns the decrypted PrivateKeyInfo DER.
    static func decrypt(_ der: Data, passphrase: Data) throws(CryptoError) -> Data {
        guard !der.isEmpty, der.count <= maximumKeyEncodingSize else {
            throw CryptoError(.invalidKey, "encrypted key data empty or too large")
        }
        guard passphrase.count <= Int(Int32.max) else { throw CryptoError(.invalidParameter, "passphrase too long") }
        try checkCost(ArraySlice(der))
        let context = try? LegacyLibraryContext.shared.get()  // nil: only default-provider ciphers work
        return try der.withBytes { (bytes, count) throws(CryptoError) in
            var cursor: UnsafePointer<UInt8>? = bytes.assumingMemoryBound(to: UInt8.self)
            guard let sig = d2i_X509_SIG(nil, &cursor, count) else {
                throw CryptoError.openSSL(.invalidKey, "encrypted PKCS#8 does not decode")
            }
            defer { X509_SIG_free(sig) }
            let info: OpaquePointer? = try passphrase.withBytes { (pass, passCount) throws(CryptoError) in
                PKCS8_decrypt_ex(sig, pass.assumingMemoryBound(to: CChar.self), Int32(passCount), context, nil)
            }
            guard let info else {
                let errors = OpenSSLErrorQueue.drain()
                if errors.contains(where: { $0.contains("unsupported") || $0.contains("unknown") }) {
                    throw CryptoError(
                        .unsupportedAlgorithm, "encrypted PKCS#8 uses an unsupported algorithm",
                        openSSLErrors: errors)
                }
                throw CryptoError(
                    .authenticationFailed, "wrong passphrase for encrypted PKCS#8 key", openSSLErrors: errors)
            }
            defer { PKCS8_PRIV_KEY_INFO_free(info) }
            return try AsymmetricKey.encode("i2d_PKCS8_PRIV_KEY_INFO") { out in i2d_PKCS8_PRIV_KEY_INFO(info, out) }
        }
    }

    /// Rejects iteration counts above ``KDF/maximumIterations`` (OpenSSL has no cap) and oversized scrypt.
    private static func checkCost(_ der: ArraySlice<UInt8>) throws(CryptoError) {
        var outer = try KeyDER.parse(der)
        var algorithm = try KeyDER(try outer.read(.sequence))
        let oid = KeyDER.content(try algorithm.read(.objectIdentifier))
        guard let parametersNode = try algorithm.readIfPresent(.sequence) else { return }
        var params = try KeyDER(parametersNode)
        if oid.elementsEqual(KnownOID.pbes2) {
            var kdf = try KeyDER(try params.read(.sequence))
            let kdfOID = KeyDER.content(try kdf.read(.objectIdentifier))
            var kdfParams = try KeyDER(try kdf.read(.sequence))
            _ = try kdfParams.read()  // salt
            if kdfOID.elementsEqual(KnownOID.pbkdf2) {
                try checkIterations(try kdfParams.read(.integer))
            } else if kdfOID.elementsEqual(KnownOID.scrypt) {
                guard let n = try KeyDER.nonNegativeInteger(try kdfParams.read(.integer)),
                    let r = try KeyDER.nonNegativeInteger(try kdfParams.read(.integer)),
                    let p = try KeyDER.nonNegativeInteger(try kdfParams.read(.integer)),
                    n.multipliedReportingOverflow(by: r).overflow == false,
                    UInt64(n * r).multipliedReportingOverflow(by: UInt64(p)).overflow == false,
                    UInt64(n * r) * UInt64(p) <= KDF.maximumScryptWork
                else { throw CryptoError(.resourceLimit, "scrypt parameters exceed the work limit") }
            }
        } else if params.peekIdentifier == .octetString {
            // PBES1 / PKCS#12 PBE: SEQUENCE { salt OCTET STRING, iterations INTEGER }
            _ = try params.read()
            try checkIterations(try params.read(.integer))
        }
    }

    private static func checkIterations(_ node: ASN1Node) throws(CryptoError) {
        guard let iterations = try KeyDER.nonNegativeInteger(node), iterations <= KDF.maximumIterations else {
            throw CryptoError(.resourceLimit, "encrypted key iteration count above \(KDF.maximumIterations)")
        }
    }
}
