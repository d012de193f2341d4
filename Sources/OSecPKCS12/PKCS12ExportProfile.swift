import OSecCrypto

/// How an exported file is protected.
package struct PKCS12ExportProfile: Sendable, Hashable {
    /// A password-based encryption choice for a safe or key.
    package enum Encryption: Sendable, Hashable {
        /// PBES2: PBKDF2 with HMAC-`prf`, then AES-256-CBC (OpenSSL 3's and Java's default).
        case pbes2AES256CBC(prf: DigestAlgorithm)
        /// PBES2: PBKDF2 with HMAC-`prf`, then AES-128-CBC.
        case pbes2AES128CBC(prf: DigestAlgorithm)
        /// PKCS#12 PBE with SHA-1 and 3-key triple DES (legacy, widely readable).
        case pkcs12TripleDES
        /// PKCS#12 PBE with SHA-1 and 40-bit RC2 (legacy; certificates only by convention).
        case pkcs12RC2x40
    }

    /// Encryption of the certificate safe; `nil` leaves certificates unencrypted.
    package var certificateEncryption: Encryption?
    /// Encryption of the private keys (always shrouded).
    package var keyEncryption: Encryption
    /// MAC digest; `nil` writes no MAC (not recommended: only decryption then checks the password).
    package var macDigest: DigestAlgorithm?
    /// KDF iterations for encryption.
    package var iterations: Int
    /// KDF iterations for the MAC.
    package var macIterations: Int

    package init(
        certificateEncryption: Encryption?, keyEncryption: Encryption, macDigest: DigestAlgorithm?,
        iterations: Int, macIterations: Int
    ) {
        self.certificateEncryption = certificateEncryption
        self.keyEncryption = keyEncryption
        self.macDigest = macDigest
        self.iterations = iterations
        self.macIterations = macIterations
    }

    /// Default iteration count (OpenSSL 3's default; Java 17 reads it fine).
    package static let defaultIterations = 2048

    /// PBES2/AES-256-CBC with PBKDF2-HMAC-SHA-256 for certificates and keys, HMAC-SHA-256 MAC, 2048
    /// iterations: what `openssl pkcs12 -export` writes by default.
    package static let modern = PKCS12ExportProfile(
        certificateEncryption: .pbes2AES256CBC(prf: .sha256), keyEncryption: .pbes2AES256CBC(prf: .sha256),
        macDigest: .sha256, iterations: defaultIterations, macIterations: defaultIterations)

    /// Certificates RC2-40, keys 3DES, SHA-1 MAC: `openssl pkcs12 -export -legacy`, for old importers
    /// (Windows before 2019, macOS before 10.15, Java before 8u301).
    package static let legacy = PKCS12ExportProfile(
        certificateEncryption: .pkcs12RC2x40, keyEncryption: .pkcs12TripleDES, macDigest: .sha1,
        iterations: defaultIterations, macIterations: defaultIterations)

    /// Like ``legacy`` but certificates with 3DES (`-descert`), for importers without RC2.
    package static let legacyTripleDES = PKCS12ExportProfile(
        certificateEncryption: .pkcs12TripleDES, keyEncryption: .pkcs12TripleDES, macDigest: .sha1,
        iterations: defaultIterations, macIterations: defaultIterations)
}
