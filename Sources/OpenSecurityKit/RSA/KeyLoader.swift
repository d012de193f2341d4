import Foundation
import Security

/// Loading keys the way the transport-encryption guides do: the server's public key from its certificate, your
/// private key from a `.p12` and its password, or either from a PEM/DER key file.
///
/// ```swift
/// let serverKey = try KeyLoader.publicKey(certificateAt: URL(fileURLWithPath: "public_key.der"))
/// let mine = try KeyLoader.identity(pkcs12At: URL(fileURLWithPath: "private_key.p12"), password: "secret")
/// let key = try KeyLoader.key(pem: pemText)                    // "-----BEGIN PUBLIC KEY-----" …
/// ```
///
/// Every failure is a ``SecurityKitError`` whose ``SecurityKitError/reason`` says what was wrong with the input:
/// errSecDecode (not a certificate / key / PKCS#12 file), errSecAuthFailed (wrong password),
/// errSecPassphraseRequired (an encrypted key without a passphrase), errSecItemNotFound (a `.p12` without a
/// private key), errSecIO (the file cannot be read).
public enum KeyLoader {
    /// Largest file read (certificates, keys and `.p12` files are a few KiB; this refuses a wrong path to a big
    /// file before reading it).
    public static let maximumFileSize = 1 << 20

    // MARK: Certificates

    /// A certificate from DER or PEM bytes (`-----BEGIN CERTIFICATE-----`; the first certificate of a chain).
    public static func certificate(_ data: Data) throws(SecurityKitError) -> SecCertificate {
        if let certificate = SecCertificateCreateWithData(nil, data as CFData) { return certificate }
        if let first = try? OpenSecurityCertificates.certificates(fromPEMData: data).first { return first }
        throw SecurityKitError(errSecDecode, reason: "the data is neither a DER nor a PEM X.509 certificate")
    }

    /// The public key of a certificate (DER or PEM), taken through `SecTrust` as the guides do
    /// (`SecTrustCreateWithCertificates`, then `SecTrustCopyKey`).
    ///
    /// - Parameters:
    ///   - data: the certificate, DER (`.der`, `.cer`) or PEM (`.pem`, `.crt`).
    ///   - policy: when given, the certificate must also be trusted under it (`SecTrustEvaluateWithError`), e.g.
    ///     `SecPolicyCreateBasicX509()` with `anchors`; without one the key is taken as is, as the guides do — the
    ///     certificate is then only as trustworthy as the file you shipped.
    ///   - anchors: the trusted roots for `policy` (nil: the system's).
    public static func publicKey(
        certificate data: Data, evaluatingTrustWith policy: SecPolicy? = nil, anchors: [SecCertificate]? = nil
    ) throws(SecurityKitError) -> SecKey {
        try publicKey(of: try certificate(data), evaluatingTrustWith: policy, anchors: anchors)
    }

    /// ``publicKey(certificate:evaluatingTrustWith:anchors:)`` for a certificate file.
    public static func publicKey(
        certificateAt url: URL, evaluatingTrustWith policy: SecPolicy? = nil, anchors: [SecCertificate]? = nil
    ) throws(SecurityKitError) -> SecKey {
        try publicKey(certificate: try read(url), evaluatingTrustWith: policy, anchors: anchors)
    }

    /// The public key of `certificate`, through `SecTrust`
    /// (see ``publicKey(certificate:evaluatingTrustWith:anchors:)``).
    public static func publicKey(
        of certificate: SecCertificate, evaluatingTrustWith policy: SecPolicy? = nil,
        anchors: [SecCertificate]? = nil
    ) throws(SecurityKitError) -> SecKey {
        var trust: SecTrust?
        let status = SecTrustCreateWithCertificates(certificate, policy ?? SecPolicyCreateBasicX509(), &trust)
        guard status == errSecSuccess, let trust else {
            throw SecurityKitError(status, reason: "SecTrustCreateWithCertificates failed for the certificate")
        }
        if policy != nil {
            if let anchors {
                try SecurityKitError.check(
                    SecTrustSetAnchorCertificates(trust, anchors as CFArray), "SecTrustSetAnchorCertificates failed")
            }
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else {
                throw SecurityKitError.from(
                    error.map { $0 as Error } ?? SecurityKitError(errSecNotTrusted), "the certificate is not trusted")
            }
        }
        guard let key = SecTrustCopyKey(trust) else {
            throw SecurityKitError(
                errSecUnimplemented, reason: "the certificate's public key is not an RSA or EC key SecKey supports")
        }
        return key
    }

    // MARK: PKCS#12

    /// The identity of a `.p12` / `.pfx` file (`SecPKCS12Import`): private key, certificate and chain.
    ///
    /// - Throws: errSecAuthFailed for a wrong password, errSecDecode for a file that is not PKCS#12 (or uses an
    ///   algorithm not supported), errSecItemNotFound for a file without a private key and its certificate.
    public static func identity(pkcs12 data: Data, password: String) throws(SecurityKitError) -> LoadedIdentity {
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: password] as CFDictionary
        let status = SecPKCS12Import(data as CFData, options, &items)
        switch status {
        case errSecSuccess: break
        case errSecAuthFailed, errSecPkcs12VerifyFailure:
            throw SecurityKitError(errSecAuthFailed, reason: "wrong password for the PKCS#12 file")
        case errSecDecode:
            throw SecurityKitError(errSecDecode, reason: "the data is not a PKCS#12 file this library can read")
        default:
            throw SecurityKitError(status, reason: "SecPKCS12Import failed")
        }
        guard let first = (items as? [Any])?.first as? [String: Any],
            let identity = first[kSecImportItemIdentity as String] as? SecIdentity
        else {
            throw SecurityKitError(
                errSecItemNotFound, reason: "the PKCS#12 file holds no private key with its certificate")
        }
        var certificate: SecCertificate?
        var privateKey: SecKey?
        try SecurityKitError.check(
            SecIdentityCopyCertificate(identity, &certificate), "SecIdentityCopyCertificate failed")
        try SecurityKitError.check(SecIdentityCopyPrivateKey(identity, &privateKey), "SecIdentityCopyPrivateKey failed")
        guard let certificate, let privateKey, let publicKey = SecKeyCopyPublicKey(privateKey) else {
            throw SecurityKitError(errSecInternal, reason: "the imported identity is incomplete")
        }
        let chain = (first[kSecImportItemCertChain as String] as? [Any])?.compactMap(asCertificate) ?? [certificate]
        return LoadedIdentity(
            identity: identity, privateKey: privateKey, publicKey: publicKey, certificate: certificate,
            chain: chain, label: first[kSecImportItemLabel as String] as? String)
    }

    /// ``identity(pkcs12:password:)`` for a `.p12` / `.pfx` file.
    public static func identity(pkcs12At url: URL, password: String) throws(SecurityKitError) -> LoadedIdentity {
        try identity(pkcs12: try read(url), password: password)
    }

    // MARK: Key files

    /// An RSA or EC key from PEM or DER, in every format the library reads (PKCS#1, SubjectPublicKeyInfo,
    /// PKCS#8, encrypted PKCS#8, SEC1, OpenSSL's legacy encrypted PEM of `genrsa -des3`, Apple's X9.63); see
    /// `OpenSecurityKeys.importKey(_:passphrase:)`.
    public static func key(_ data: Data, passphrase: String? = nil) throws(SecurityKitError) -> SecKey {
        do {
            return try OpenSecurityKeys.importKey(data, passphrase: passphrase)
        } catch {
            throw SecurityKitError.from(error, "cannot load the key")
        }
    }

    /// ``key(_:passphrase:)`` for PEM text.
    public static func key(pem: String, passphrase: String? = nil) throws(SecurityKitError) -> SecKey {
        try key(Data(pem.utf8), passphrase: passphrase)
    }

    /// ``key(_:passphrase:)`` for a key file.
    public static func key(contentsOf url: URL, passphrase: String? = nil) throws(SecurityKitError) -> SecKey {
        try key(try read(url), passphrase: passphrase)
    }

    // MARK: Helpers

    static func read(_ url: URL) throws(SecurityKitError) -> Data {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
        if let size, size > maximumFileSize {
            throw SecurityKitError(
                errSecDataTooLarge, reason: "\(url.path) is \(size) bytes; key files are at most \(maximumFileSize)")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw SecurityKitError(errSecIO, reason: "cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    private static func asCertificate(_ value: Any) -> SecCertificate? { value as? SecCertificate }
}

/// A private key with its certificate, as loaded from a `.p12` file.
public struct LoadedIdentity: Sendable {
    /// The identity (`kSecImportItemIdentity`).
    public let identity: SecIdentity
    /// Its private key (`SecIdentityCopyPrivateKey`).
    public let privateKey: SecKey
    /// The private key's public half.
    public let publicKey: SecKey
    /// Its certificate (`SecIdentityCopyCertificate`).
    public let certificate: SecCertificate
    /// The certificate chain in the file, leaf first (`kSecImportItemCertChain`).
    public let chain: [SecCertificate]
    /// The friendly name (`-name` of `openssl pkcs12 -export`), else the certificate's subject summary.
    public let label: String?
}
