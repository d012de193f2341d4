import Foundation
import OSecCrypto

/// OpenSecurity's key import and export beyond Apple's `SecKeyCreateWithData`: PEM and DER in the formats OpenSSL
/// and servers write.
///
/// Apple's public API reads only its own external representations (PKCS#1, X9.63; macOS's `SecItemImport` is
/// left out, see the differences page). Keys from `openssl genrsa`, `openssl pkey`, Java or a server's PEM file go
/// through here:
///
/// ```swift
/// let privateKey = try OpenSecurityKeys.importKey(pem: pemText, passphrase: "secret")
/// let publicPEM = try OpenSecurityKeys.pemRepresentation(of: SecKeyCopyPublicKey(privateKey)!)
/// ```
///
/// Errors are `NSError`s in `NSOSStatusErrorDomain` whose description says what is wrong: errSecDecode (not a
/// key, malformed, a key type Apple's SecKey does not have), errSecPassphraseRequired (encrypted, no passphrase
/// given), errSecAuthFailed (wrong passphrase), errSecParam (a format that does not fit the key).
public enum OpenSecurityKeys {
    /// Reads an RSA or EC key, public or private, from PEM text or DER bytes.
    ///
    /// PEM blocks: `RSA PRIVATE KEY`, `RSA PUBLIC KEY`, `PUBLIC KEY`, `PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`,
    /// `EC PRIVATE KEY` (the first key block is used; `EC PARAMETERS` and certificates are skipped), including
    /// OpenSSL's legacy encryption (`Proc-Type: 4,ENCRYPTED`, `openssl genrsa -des3`). DER: PKCS#1
    /// RSAPrivateKey / RSAPublicKey, SubjectPublicKeyInfo, PKCS#8, encrypted PKCS#8 (PBES2 or PKCS#12 PBE),
    /// SEC1 ECPrivateKey, and Apple's X9.63 EC representations (`04‖X‖Y`, `04‖X‖Y‖K`).
    ///
    /// - Parameters:
    ///   - data: PEM text (UTF-8) or DER.
    ///   - passphrase: the password of an encrypted key; ignored for a key that is not encrypted.
    public static func importKey(_ data: Data, passphrase: String? = nil) throws -> SecKey {
        let key: AsymmetricKey
        do {
            key = try decode(data, passphrase: passphrase.map { Data($0.utf8) })
        } catch {
            throw status(error, passphraseGiven: passphrase != nil).nsError
        }
        guard let secKey = SecKey.wrapping(key) else {
            throw SecError.decode("the key is Ed25519, which Apple's SecKey does not have").nsError
        }
        return secKey
    }

    /// ``importKey(_:passphrase:)`` for PEM text.
    public static func importKey(pem: String, passphrase: String? = nil) throws -> SecKey {
        try importKey(Data(pem.utf8), passphrase: passphrase)
    }

    /// The key as PEM: `PUBLIC KEY` (SubjectPublicKeyInfo) for a public key; `PRIVATE KEY` (PKCS#8) for a private
    /// key, or `ENCRYPTED PRIVATE KEY` (PBES2: PBKDF2-HMAC-SHA256, AES-256-CBC) with a passphrase.
    public static func pemRepresentation(of key: SecKey, passphrase: String? = nil) throws -> String {
        do {
            let asymmetric = try key.key
            if asymmetric.isPrivate {
                return try asymmetric.pem(.pkcs8, passphrase: passphrase.map { Data($0.utf8) })
            }
            guard passphrase == nil else { throw SecError.param("a public key is not encrypted") }
            return try asymmetric.pem(.spki)
        } catch let error as SecError {
            throw error.nsError
        } catch {
            throw SecError(errSecInternal, "key export failed: \(error)").nsError
        }
    }

    /// The encodings ``exportKey(_:format:pem:passphrase:)`` writes.
    public enum ExportFormat: Sendable {
        /// What `openssl` writes by default: PKCS#1 `RSAPrivateKey` for an RSA private key, SEC1 `ECPrivateKey`
        /// for an EC private key, SubjectPublicKeyInfo for a public key (macOS `security export -f openssl`).
        case openssl
        /// PKCS#8 `PrivateKeyInfo` for a private key (`EncryptedPrivateKeyInfo` with a passphrase: PBES2 with
        /// PBKDF2-HMAC-SHA256 and AES-256-CBC), SubjectPublicKeyInfo for a public key (`-f pkcs8`).
        case pkcs8
    }

    /// The key in `format`, as DER or (`pem`) as PEM text in UTF-8.
    ///
    /// - Parameters:
    ///   - key: an RSA or EC key, public or private.
    ///   - format: ``ExportFormat/openssl`` or ``ExportFormat/pkcs8``.
    ///   - pem: PEM text instead of DER.
    ///   - passphrase: encrypts a private key (PKCS#8 only: with ``ExportFormat/openssl`` a passphrase selects
    ///     encrypted PKCS#8, as macOS's `security export -w` does). A public key is never encrypted.
    /// - Throws: an `NSError` in `NSOSStatusErrorDomain`: errSecParam for a passphrase on a public key.
    public static func exportKey(
        _ key: SecKey, format: ExportFormat, pem: Bool, passphrase: String? = nil
    ) throws
        -> Data
    {
        let asymmetric: AsymmetricKey
        do { asymmetric = try key.key } catch { throw error.nsError }
        let secret = passphrase.map { Data($0.utf8) }
        do {
            guard asymmetric.isPrivate else {
                guard secret == nil else { throw SecError.param("a public key is not encrypted") }
                return pem ? Data(try asymmetric.pem(.spki).utf8) : try asymmetric.subjectPublicKeyInfoDER
            }
            if format == .pkcs8 || secret != nil {
                if pem { return Data(try asymmetric.pem(.pkcs8, passphrase: secret).utf8) }
                return try secret.map { try asymmetric.encryptedPKCS8DER(passphrase: $0) } ?? asymmetric.pkcs8DER
            }
            let isRSA = asymmetric.algorithm == .rsa
            if pem { return Data(try asymmetric.pem(isRSA ? .pkcs1 : .sec1).utf8) }
            return isRSA ? try asymmetric.rsaPKCS1DER : try asymmetric.sec1DER
        } catch {
            throw SecError(translating: error, context: "key export").nsError
        }
    }

    /// The DER SubjectPublicKeyInfo of a key's public half (what X.509 certificates, Java's
    /// `X509EncodedKeySpec` and `openssl pkey -pubin -inform DER` use; Apple's own export is PKCS#1).
    public static func subjectPublicKeyInfo(of key: SecKey) throws -> Data {
        do {
            return try key.key.publicKey.subjectPublicKeyInfoDER
        } catch {
            throw SecError(errSecInternal, "key export failed: \(error)").nsError
        }
    }

    private static func decode(_ data: Data, passphrase: Data?) throws(CryptoError) -> AsymmetricKey {
        let text = data.prefix(64).drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if text.starts(with: Data("-----BEGIN".utf8)) {
            return try AsymmetricKey(pemBytes: data, passphrase: passphrase)
        }
        if data.first == 0x04, let key = try? x963(data) { return key }
        let original: CryptoError
        do {
            return try AsymmetricKey(der: data)
        } catch {
            original = error
        }
        // Perhaps an EncryptedPrivateKeyInfo: decrypt it (no passphrase = try the empty one, as PKCS#12 does).
        let encrypted: CryptoError
        do {
            return try AsymmetricKey(encryptedPKCS8: data, passphrase: passphrase ?? Data())
        } catch {
            encrypted = error
        }
        throw encrypted.code == .authenticationFailed ? encrypted : original
    }

    /// Apple's EC external representations (curve from the length).
    private static func x963(_ data: Data) throws(CryptoError) -> AsymmetricKey {
        if ECCurve(uncompressedPointLength: data.count) != nil { return try AsymmetricKey(ecPublicKeyX963: data) }
        return try AsymmetricKey(ecPrivateKeyX963: data)
    }

    private static func status(_ error: CryptoError, passphraseGiven: Bool) -> SecError {
        switch error.code {
        case .authenticationFailed where passphraseGiven:
            return SecError(errSecAuthFailed, "wrong passphrase for the encrypted key")
        case .authenticationFailed:
            return SecError(errSecPassphraseRequired, "the key is encrypted: a passphrase is required")
        case .unsupportedAlgorithm: return SecError.decode("unsupported key algorithm: \(error.reason)")
        case .resourceLimit: return SecError.decode("key import limit exceeded: \(error.reason)")
        case .invalidParameter: return SecError.param("cannot import the key: \(error.reason)")
        default: return SecError.decode("not a key in a supported format: \(error.reason)")
        }
    }
}
