import Foundation
import OSecASN1
import OSecCrypto

/// A password-based encryption scheme read from (or written to) an AlgorithmIdentifier.
///
/// Supported: the PKCS#12 PBE schemes of RFC 7292 appendix C (SHA-1 KDF with 3-key and 2-key 3DES,
/// RC2-128, RC2-40, RC4-128, RC4-40) and PBES2 (RFC 8018) with PBKDF2-HMAC-SHA-1/224/256/384/512 and
/// AES-128/192/256-CBC or DES-EDE3-CBC. Anything else is `.unsupportedAlgorithm` naming the OID.
enum PBEAlgorithm: Sendable, Hashable {
    /// PKCS#12 PBE: key and IV from the PKCS#12 KDF (SHA-1) over the BMP password.
    case pkcs12(PKCS12Cipher, salt: Data, iterations: Int)
    /// PBES2 with PBKDF2 over the UTF-8 password.
    case pbes2(prf: DigestAlgorithm, salt: Data, iterations: Int, cipher: BlockCipher, iv: Data)

    /// The ciphers of the PKCS#12 PBE family.
    enum PKCS12Cipher: Sendable, Hashable {
        case rc4x128, rc4x40, tripleDES3Key, tripleDES2Key, rc2x128, rc2x40

        var blockCipher: BlockCipher {
            switch self {
            case .rc4x128: .rc4(keyBytes: 16)
            case .rc4x40: .rc4(keyBytes: 5)
            case .tripleDES3Key: .desEDE3CBC
            case .tripleDES2Key: .desEDECBC
            case .rc2x128: .rc2CBC(effectiveKeyBits: 128)
            case .rc2x40: .rc2CBC(effectiveKeyBits: 40)
            }
        }

        var oid: ASN1ObjectIdentifier {
            switch self {
            case .rc4x128: PKCS12OID.pbeWithSHAAnd128BitRC4
            case .rc4x40: PKCS12OID.pbeWithSHAAnd40BitRC4
            case .tripleDES3Key: PKCS12OID.pbeWithSHAAnd3KeyTripleDESCBC
            case .tripleDES2Key: PKCS12OID.pbeWithSHAAnd2KeyTripleDESCBC
            case .rc2x128: PKCS12OID.pbeWithSHAAnd128BitRC2CBC
            case .rc2x40: PKCS12OID.pbeWithSHAAnd40BitRC2CBC
            }
        }

        init?(oid: ASN1ObjectIdentifier) {
            switch oid {
            case PKCS12OID.pbeWithSHAAnd128BitRC4: self = .rc4x128
            case PKCS12OID.pbeWithSHAAnd40BitRC4: self = .rc4x40
            case PKCS12OID.pbeWithSHAAnd3KeyTripleDESCBC: self = .tripleDES3Key
            case PKCS12OID.pbeWithSHAAnd2KeyTripleDESCBC: self = .tripleDES2Key
            case PKCS12OID.pbeWithSHAAnd128BitRC2CBC: self = .rc2x128
            case PKCS12OID.pbeWithSHAAnd40BitRC2CBC: self = .rc2x40
            default: return nil
            }
        }
    }

    /// Whether decryption uses the BMP password (PKCS#12 KDF) rather than UTF-8 (PBKDF2).
    var usesBMPPassword: Bool {
        if case .pkcs12 = self { return true }
        return false
    }

    /// KDF iterations one decryption with one password encoding costs: PKCS#12 PBE derives the key and, for block
    /// ciphers, the IV (two runs); PBES2 runs PBKDF2 once.
    var kdfCost: Int {
        switch self {
        case .pkcs12(let family, _, let iterations): family.blockCipher.ivSize > 0 ? 2 * iterations : iterations
        case .pbes2(_, _, let iterations, _, _): iterations
        }
    }

    // MARK: Crypto

    /// Decrypts with the given password encoding (BMP for PKCS#12 PBE, UTF-8 for PBES2).
    /// A padding failure throws ``PBEDecryptionFailure`` (wrong password or corrupt data).
    func decrypt(_ ciphertext: Data, passwordBytes: Data) throws -> Data {
        var (cipher, key, iv) = try deriveKeyAndIV(passwordBytes: passwordBytes)
        defer { key.resetBytes(in: 0..<key.count) }  // derived key material does not outlive the call
        // A ciphertext that is not a whole number of blocks is what a corrupt file gives; treat it like
        // bad padding.
        guard cipher.blockSize <= 1 || (!ciphertext.isEmpty && ciphertext.count % cipher.blockSize == 0) else {
            throw PBEDecryptionFailure()
        }
        let result: Result<Data, CryptoError> = Result { () throws(CryptoError) in
            try SymmetricCrypto.decrypt(cipher, key: key, iv: iv, ciphertext: ciphertext)
        }
        switch result {
        case .success(let plaintext): return plaintext
        case .failure(let error):
            if error.code == .decryptionFailed { throw PBEDecryptionFailure() }
            throw error
        }
    }

    /// Encrypts with the given password encoding.
    func encrypt(_ plaintext: Data, passwordBytes: Data) throws -> Data {
        var (cipher, key, iv) = try deriveKeyAndIV(passwordBytes: passwordBytes)
        defer { key.resetBytes(in: 0..<key.count) }
        return try SymmetricCrypto.encrypt(cipher, key: key, iv: iv, plaintext: plaintext)
    }

    /// Runs each KDF exactly once: PKCS#12 PBE needs a key (ID 1) and, for block ciphers, an IV (ID 2);
    /// PBES2 needs one PBKDF2 run.
    private func deriveKeyAndIV(passwordBytes: Data) throws -> (BlockCipher, Data, Data) {
        switch self {
        case .pkcs12(let family, let salt, let iterations):
            let cipher = family.blockCipher
            let key = try KDF.pkcs12(
                password: passwordBytes, salt: salt, id: 1, iterations: iterations, keyLength: cipher.keySize,
                digest: .sha1)
            var iv = Data()
            if cipher.ivSize > 0 {
                iv = try KDF.pkcs12(
                    password: passwordBytes, salt: salt, id: 2, iterations: iterations, keyLength: cipher.ivSize,
                    digest: .sha1)
            }
            return (cipher, key, iv)
        case .pbes2(let prf, let salt, let iterations, let cipher, let iv):
            let key = try KDF.pbkdf2(
                password: passwordBytes, salt: salt, iterations: iterations, keyLength: cipher.keySize, digest: prf)
            return (cipher, key, iv)
        }
    }
}

/// Decryption produced bad padding: a wrong password, or corrupt ciphertext.
struct PBEDecryptionFailure: Error {}

// MARK: ASN1 helpers

extension PBEAlgorithm {
    /// Parses an AlgorithmIdentifier naming a password-based encryption scheme.
    init(algorithmIdentifier node: ASN1Node) throws {
        self = try DER.sequence(node) { nodes in
            let oid = try ASN1ObjectIdentifier(derEncoded: &nodes)
            if let family = PKCS12Cipher(oid: oid) {
                guard let paramsNode = nodes.next() else {
                    throw PKCS12Error.malformed("PKCS#12 PBE without parameters")
                }
                let (salt, iterations) = try DER.sequence(paramsNode) { params in
                    let salt = try ASN1OctetString(derEncoded: &params)
                    let iterations = try Int(derEncoded: &params)
                    return (Data(salt.bytes), iterations)
                }
                try checkIterations(iterations)
                return .pkcs12(family, salt: salt, iterations: iterations)
            }
            if oid == PKCS12OID.pbes2 {
                guard let paramsNode = nodes.next() else { throw PKCS12Error.malformed("PBES2 without parameters") }
                return try DER.sequence(paramsNode) { params in
                    guard let kdfNode = params.next(), let schemeNode = params.next() else {
                        throw PKCS12Error.malformed("PBES2 parameters incomplete")
                    }
                    let kdf = try PBKDF2Parameters(algorithmIdentifier: kdfNode)
                    let (cipher, iv) = try PBEAlgorithm.parseEncryptionScheme(schemeNode)
                    if let keyLength = kdf.keyLength, keyLength != cipher.keySize {
                        throw PKCS12Error.malformed("PBKDF2 key length \(keyLength) does not match the cipher")
                    }
                    return .pbes2(prf: kdf.prf, salt: kdf.salt, iterations: kdf.iterations, cipher: cipher, iv: iv)
                }
            }
            throw PKCS12Error.unsupported("encryption", oid: oid.dotted)
        }
    }

    private static func parseEncryptionScheme(_ node: ASN1Node) throws -> (BlockCipher, Data) {
        try DER.sequence(node) { nodes in
            let oid = try ASN1ObjectIdentifier(derEncoded: &nodes)
            let cipher: BlockCipher
            switch oid {
            case PKCS12OID.aes128CBC: cipher = .aes128CBC
            case PKCS12OID.aes192CBC: cipher = .aes192CBC
            case PKCS12OID.aes256CBC: cipher = .aes256CBC
            case PKCS12OID.desEDE3CBC: cipher = .desEDE3CBC
            default: throw PKCS12Error.unsupported("PBES2 encryption scheme", oid: oid.dotted)
            }
            let iv = try ASN1OctetString(derEncoded: &nodes)
            guard iv.bytes.count == cipher.ivSize else { throw PKCS12Error.malformed("PBES2 IV has the wrong length") }
            return (cipher, Data(iv.bytes))
        }
    }

    /// Appends the AlgorithmIdentifier.
    func serialize(into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            switch self {
            case .pkcs12(let family, let salt, let iterations):
                try coder.serialize(family.oid)
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(ASN1OctetString([UInt8](salt)))
                    try coder.serialize(iterations)
                }
            case .pbes2(let prf, let salt, let iterations, let cipher, let iv):
                try coder.serialize(PKCS12OID.pbes2)
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try PBKDF2Parameters(salt: salt, iterations: iterations, keyLength: nil, prf: prf)
                        .serialize(into: &coder)
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.serialize(try PBEAlgorithm.oid(of: cipher))
                        try coder.serialize(ASN1OctetString([UInt8](iv)))
                    }
                }
            }
        }
    }

    private static func oid(of cipher: BlockCipher) throws -> ASN1ObjectIdentifier {
        switch cipher {
        case .aes128CBC: PKCS12OID.aes128CBC
        case .aes192CBC: PKCS12OID.aes192CBC
        case .aes256CBC: PKCS12OID.aes256CBC
        case .desEDE3CBC: PKCS12OID.desEDE3CBC
        default: throw PKCS12Error(.invalidParameter, "cipher not usable with PBES2 here")
        }
    }
}
