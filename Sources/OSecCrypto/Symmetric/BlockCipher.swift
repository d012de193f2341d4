internal import COpenSSL

/// Symmetric ciphers for `SymmetricCrypto`.
package enum BlockCipher: Sendable, Hashable {
    case aes128CBC, aes192CBC, aes256CBC
    case aes128CTR, aes192CTR, aes256CTR
    /// Three-key triple DES, CBC.
    case desEDE3CBC
    /// Two-key triple DES, CBC.
    case desEDECBC
    /// Single DES, CBC (legacy provider; only for reading old encrypted PEM files). Added to the contract.
    case desCBC
    /// RC2-CBC with the given effective key bits; the key is `effectiveKeyBits / 8` bytes (legacy provider).
    case rc2CBC(effectiveKeyBits: Int)
    /// RC4 with a key of `keyBytes` bytes (legacy provider, for old PKCS#12 PBE).
    case rc4(keyBytes: Int)

    /// Key length in bytes.
    package var keySize: Int {
        switch self {
        case .aes128CBC, .aes128CTR: 16
        case .aes192CBC, .aes192CTR: 24
        case .aes256CBC, .aes256CTR: 32
        case .desEDE3CBC: 24
        case .desEDECBC: 16
        case .desCBC: 8
        case .rc2CBC(let bits): bits / 8
        case .rc4(let bytes): bytes
        }
    }

    /// IV length in bytes (0 for RC4).
    package var ivSize: Int {
        switch self {
        case .aes128CBC, .aes192CBC, .aes256CBC, .aes128CTR, .aes192CTR, .aes256CTR: 16
        case .desEDE3CBC, .desEDECBC, .desCBC, .rc2CBC: 8
        case .rc4: 0
        }
    }

    /// Block length in bytes (1 for the stream modes CTR and RC4).
    package var blockSize: Int {
        switch self {
        case .aes128CBC, .aes192CBC, .aes256CBC: 16
        case .aes128CTR, .aes192CTR, .aes256CTR, .rc4: 1
        case .desEDE3CBC, .desEDECBC, .desCBC, .rc2CBC: 8
        }
    }

    /// True when the cipher comes from OpenSSL's legacy provider.
    var isLegacy: Bool {
        switch self {
        case .desCBC, .rc2CBC, .rc4: true
        default: false
        }
    }

    /// The EVP_CIPHER, fetched once per process.
    func fetched() throws(CryptoError) -> OpaquePointer {
        switch self {
        case .aes128CBC: try FetchedCiphers.aes128CBC.get()
        case .aes192CBC: try FetchedCiphers.aes192CBC.get()
        case .aes256CBC: try FetchedCiphers.aes256CBC.get()
        case .aes128CTR: try FetchedCiphers.aes128CTR.get()
        case .aes192CTR: try FetchedCiphers.aes192CTR.get()
        case .aes256CTR: try FetchedCiphers.aes256CTR.get()
        case .desEDE3CBC: try FetchedCiphers.desEDE3CBC.get()
        case .desEDECBC: try FetchedCiphers.desEDECBC.get()
        case .desCBC: try legacy(FetchedCiphers.desCBC)
        case .rc2CBC: try legacy(FetchedCiphers.rc2CBC)
        case .rc4: try legacy(FetchedCiphers.rc4)
        }
    }

    private func legacy(_ cipher: FetchedAlgorithm) throws(CryptoError) -> OpaquePointer {
        _ = try LegacyLibraryContext.shared.get()  // explains a missing legacy provider by name
        return try cipher.get()
    }
}

/// Process-wide fetched EVP_CIPHER objects.
enum FetchedCiphers {
    static let aes128CBC = fetch("AES-128-CBC")
    static let aes192CBC = fetch("AES-192-CBC")
    static let aes256CBC = fetch("AES-256-CBC")
    static let aes128CTR = fetch("AES-128-CTR")
    static let aes192CTR = fetch("AES-192-CTR")
    static let aes256CTR = fetch("AES-256-CTR")
    static let aes128GCM = fetch("AES-128-GCM")
    static let aes192GCM = fetch("AES-192-GCM")
    static let aes256GCM = fetch("AES-256-GCM")
    static let desEDE3CBC = fetch("DES-EDE3-CBC")
    static let desEDECBC = fetch("DES-EDE-CBC")
    static let desCBC = LegacyLibraryContext.shared.fetchCipher("DES-CBC")
    static let rc2CBC = LegacyLibraryContext.shared.fetchCipher("RC2-CBC")
    static let rc4 = LegacyLibraryContext.shared.fetchCipher("RC4")

    private static func fetch(_ name: String) -> FetchedAlgorithm {
        FetchedAlgorithm(name: name, raw: EVP_CIPHER_fetch(nil, name, nil))
    }
}
