#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AsymmetricKey {
    /// Imports the first key block of a PEM document: `RSA PRIVATE KEY`, `RSA PUBLIC KEY`, `PUBLIC KEY`,
    /// `PRIVATE KEY`, `ENCRYPTED PRIVATE KEY` or `EC PRIVATE KEY` (other blocks such as `EC PARAMETERS`
    /// are skipped). Legacy OpenSSL encryption (`Proc-Type: 4,ENCRYPTED` + `DEK-Info`) is supported for
    /// the RSA and EC private key blocks. A missing or wrong passphrase throws `.authenticationFailed`.
    package convenience init(pem: String, passphrase: Data? = nil) throws(CryptoError) {
        let (pkey, isPrivate) = try Self.decodePEM(pem, passphrase: passphrase)
        try self.init(takingOwnershipOf: pkey, isPrivate: isPrivate)
    }

    /// Like ``init(pem:passphrase:)`` for PEM text given as bytes (UTF-8 / ASCII).
    package convenience init(pemBytes: Data, passphrase: Data? = nil) throws(CryptoError) {
        guard let text = String(data: pemBytes, encoding: .utf8) else {
            throw CryptoError(.invalidKey, "PEM data is not UTF-8 text")
        }
        try self.init(pem: text, passphrase: passphrase)
    }

    /// PEM text in `format`. With a passphrase the key is written as `ENCRYPTED PRIVATE KEY` (PBES2,
    /// PBKDF2-HMAC-SHA256, AES-256-CBC, ``defaultPKCS8Iterations``) whatever `format` says.
    package func pem(_ format: KeyPEMFormat, passphrase: Data? = nil) throws(CryptoError) -> String {
        if let passphrase {
            return PEMBlock.format(label: "ENCRYPTED PRIVATE KEY", der: try encryptedPKCS8DER(passphrase: passphrase))
        }
        switch format {
        case .pkcs1:
            return PEMBlock.format(label: isPrivate ? "RSA PRIVATE KEY" : "RSA PUBLIC KEY", der: try rsaPKCS1DER)
        case .spki:
            return PEMBlock.format(label: "PUBLIC KEY", der: try subjectPublicKeyInfoDER)
        case .pkcs8:
            return PEMBlock.format(label: "PRIVATE KEY", der: try pkcs8DER)
        case .sec1:
            return PEMBlock.format(label: "EC PRIVATE KEY", der: try sec1DER)
        }
    }

    private static func decodePEM(_ text: String, passphrase: Data?) throws(CryptoError) -> (OpaquePointer, Bool) {
        let keyLabels: Set = [
            "RSA PRIVATE KEY", "RSA PUBLIC KEY", "PUBLIC KEY", "PRIVATE KEY",
            "ENCRYPTED PRIVATE KEY", "EC PRIVATE KEY",
        ]
        guard let block = try PEMBlock.parseAll(text).first(where: { keyLabels.contains($0.label) }) else {
            throw CryptoError(.invalidKey, "no PEM key block found")
        }
        var der = block.der
        defer { der.zeroize() }
        if block.headers["Proc-Type"]?.hasPrefix("4,ENCRYPTED") == true {
            guard let passphrase else {
                throw CryptoError(.authenticationFailed, "encrypted PEM key: passphrase required")
            }
            var plain = try LegacyPEMEncryption.decrypt(der, dekInfo: block.headers["DEK-Info"], passphrase: passphrase)
            defer { plain.zeroize() }
            do {
                return try decodeLabelled(block.label, ArraySlice(plain))
            } catch {
                // The padding check passes for ~1/256 wrong passphrases; the DER then fails to decode.
                throw CryptoError(.authenticationFailed, "wrong passphrase (decrypted key does not decode)")
            }
        }
        if block.label == "ENCRYPTED PRIVATE KEY" {
            guard let passphrase else {
                throw CryptoError(.authenticationFailed, "encrypted PKCS#8 key: passphrase required")
            }
            var plain = try EncryptedPKCS8.decrypt(der, passphrase: passphrase)
            defer { plain.zeroize() }
            return (try decodePKCS8(ArraySlice(plain)), true)
        }
        return try decodeLabelled(block.label, try checkedBytes(der))
    }

    private static func decodeLabelled(
        _ label: String, _ der: ArraySlice<UInt8>
    ) throws(CryptoError) -> (OpaquePointer, Bool) {
        switch label {
        case "RSA PRIVATE KEY": return (try decodeRSA(der, isPrivate: true), true)
        case "RSA PUBLIC KEY": return (try decodeRSA(der, isPrivate: false), false)
        case "PUBLIC KEY": return (try decodeSPKI(der), false)
        case "PRIVATE KEY": return (try decodePKCS8(der), true)
        case "EC PRIVATE KEY": return (try decodeSEC1(der, curveHint: nil), true)
        default: throw CryptoError(.invalidKey, "unsupported PEM label \(label)")
        }
    }
}

extension AsymmetricKey {
    /// Encrypted PKCS#8 (EncryptedPrivateKeyInfo) DER: PBES2 (PBKDF2 or scrypt) or PBES1 / PKCS#12 PBE
    /// schemes, including legacy ciphers (decrypted with the private legacy-provider context). The
    /// iteration count is checked against ``KDF/maximumIterations`` before any work. Wrong passphrase →
    /// `.authenticationFailed`.
    package convenience init(encryptedPKCS8 der: Data, passphrase: Data) throws(CryptoError) {
        _ = try Self.checkedBytes(der)
        var plain = try EncryptedPKCS8.decrypt(der, passphrase: passphrase)
        defer { plain.zeroize() }
        let pkey = try Self.decodePKCS8(ArraySlice(plain))
        try self.init(takingOwnershipOf: pkey, isPrivate: true)
    }
}
