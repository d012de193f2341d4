import Foundation
import OSecCrypto
import OSecCryptoFoundation

/// The throwing core behind Apple's SecKey functions. Apple-shaped wrappers (nil + CFError, OSStatus) sit in
/// `SecKeyAPI.swift` and `SecKeyLegacyAPI.swift`.
enum SecKeyOperations {
    /// Resolves `algorithm` for `key` and `operation`, or throws Apple's "algorithm not supported by the key".
    static func spec(
        _ key: SecKey, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm
    ) throws -> SecKeyAlgorithmSpec {
        guard let asymmetric = key.asymmetric, let spec = SecKeyAlgorithmSpec.lookup(algorithm),
            spec.supports(operation), (spec.family == .rsa) == key.isRSA,
            SecKeyAlgorithmSpec.needsPrivateKey(operation) == asymmetric.isPrivate
        else {
            throw SecError.param("\(algorithm.name): algorithm not supported by the key \(key)")
        }
        return spec
    }

    static func isSupported(_ key: SecKey, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm) -> Bool {
        (try? spec(key, operation, algorithm)) != nil
    }

    private static func checkInputLength(_ spec: SecKeyAlgorithmSpec, _ input: some CryptoInput) throws {
        if let required = spec.requiredInputLength, input.cryptoByteCount != required {
            throw SecError.param(
                "\(spec.algorithm.name): input is \(input.cryptoByteCount) bytes, digest must be \(required) bytes")
        }
    }

    static func sign(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ input: Data) throws -> Data {
        try sign(key, algorithm, input, as: .data)
    }

    /// Signs `input` (read in place: a `CFData` is never converted to `Data`) into `output`'s container.
    static func sign<Output>(
        _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ input: some CryptoInput, as output: CryptoOutput<Output>
    ) throws -> Output {
        let spec = try spec(key, .sign, algorithm)
        guard case .signature(let scheme) = spec.kind else {
            throw SecError.param("\(algorithm.name): not a signature algorithm")
        }
        try checkInputLength(spec, input)
        let asymmetric = try key.key
        if case .rsaRaw = scheme, input.cryptoByteCount != asymmetric.blockSize {
            throw SecError.param(
                "\(algorithm.name): input must be \(asymmetric.blockSize) bytes (the modulus size), "
                    + "got \(input.cryptoByteCount)")
        }
        do {
            return try asymmetric.sign(input, scheme: scheme, as: output)
        } catch {
            throw translate(error, algorithm)
        }
    }

    static func verify(
        _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ input: some CryptoInput, _ signature: some CryptoInput
    ) throws {
        let spec = try spec(key, .verify, algorithm)
        guard case .signature(let scheme) = spec.kind else {
            throw SecError.param("\(algorithm.name): not a signature algorithm")
        }
        try checkInputLength(spec, input)
        let asymmetric = try key.key
        let valid: Bool
        do {
            valid = try asymmetric.verify(signature, for: input, scheme: scheme)
        } catch  where error.code == .invalidParameter {
            // A signature of the wrong shape (e.g. RFC 4754 of the wrong length) is a failed verification.
            valid = false
        } catch {
            throw translate(error, algorithm)
        }
        guard valid else {
            let what = key.isRSA ? "RSA signature verification failed, no match" : "ECDSA signature verification failed"
            throw SecError(errSecVerifyFailed, "\(algorithm.name): \(what)")
        }
    }

    static func encrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: Data) throws -> Data {
        try encrypt(key, algorithm, plaintext, as: .data)
    }

    /// Encrypts `plaintext` (read in place) into `output`'s container.
    static func encrypt<Output>(
        _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: some CryptoInput, as output: CryptoOutput<Output>
    ) throws -> Output {
        let spec = try spec(key, .encrypt, algorithm)
        switch spec.kind {
        case .rsaEncryption(let padding):
            let k = try key.key.blockSize
            let count = plaintext.cryptoByteCount
            switch padding {
            case .none:
                guard count <= k else {
                    throw SecError.param(
                        "\(algorithm.name): plaintext is longer than the key's block size (\(k) bytes)")
                }
            case .pkcs1:
                guard count <= k - 11 else {
                    throw SecError.param("\(algorithm.name): plaintext is \(count) bytes, at most \(k - 11) fit")
                }
            case .oaep(let h):
                let limit = k - 2 * h.outputSize - 2
                guard count <= limit else {
                    throw SecError.param(
                        "\(algorithm.name): plaintext is \(count) bytes, at most \(max(limit, 0)) fit")
                }
            }
            do {
                // Raw RSA left-pads a short plaintext with zeros to the block size (in the crypto layer).
                return try key.key.encrypt(plaintext, padding: padding, label: Data(), as: output)
            } catch {
                throw translate(error, algorithm)
            }
        case .ecies(let kdf, let variableIV):
            let sealed = try SecKeyHybrid.eciesEncrypt(key, plaintext.cryptoData, kdf: kdf, variableIV: variableIV)
            return try copy(sealed, into: output)
        case .rsaHybrid(let h):
            return try copy(try SecKeyHybrid.rsaEncrypt(key, plaintext.cryptoData, oaep: h), into: output)
        default:
            throw SecError.param("\(algorithm.name): not an encryption algorithm")
        }
    }

    static func decrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: Data) throws -> Data {
        try decrypt(key, algorithm, ciphertext, as: .data)
    }

    /// Decrypts `ciphertext` (read in place) into `output`'s container.
    static func decrypt<Output>(
        _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: some CryptoInput, as output: CryptoOutput<Output>
    ) throws -> Output {
        let spec = try spec(key, .decrypt, algorithm)
        switch spec.kind {
        case .rsaEncryption(let padding):
            let count = ciphertext.cryptoByteCount
            let k = try key.key.blockSize
            guard count == k else {
                throw SecError.param("\(algorithm.name): ciphertext must be \(k) bytes, got \(count)")
            }
            do {
                return try key.key.decrypt(ciphertext, padding: padding, label: Data(), as: output)
            } catch {
                throw SecError.param("\(algorithm.name): decryption failed")
            }
        case .ecies(let kdf, let variableIV):
            let opened = try SecKeyHybrid.eciesDecrypt(key, ciphertext.cryptoData, kdf: kdf, variableIV: variableIV)
            return try copy(opened, into: output)
        case .rsaHybrid(let h):
            return try copy(try SecKeyHybrid.rsaDecrypt(key, ciphertext.cryptoData, oaep: h), into: output)
        default:
            throw SecError.param("\(algorithm.name): not an encryption algorithm")
        }
    }

    /// A hybrid scheme's `Data` result in the caller's container.
    private static func copy<Output>(_ data: Data, into output: CryptoOutput<Output>) throws -> Output {
        do {
            return try output.copying(data)
        } catch {
            throw SecError(errSecAllocate, "cannot allocate \(data.count) bytes")
        }
    }

    static func keyExchange(
        _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ peer: SecKey, requestedSize: Int?, sharedInfo: Data?
    ) throws -> Data {
        let spec = try spec(key, .keyExchange, algorithm)
        guard case .keyExchange(let kdf) = spec.kind else {
            throw SecError.param("\(algorithm.name): not a key exchange algorithm")
        }
        guard try peer.key.algorithm == key.key.algorithm else {
            throw SecError.param("\(algorithm.name): the peer key is not a public key on the same curve")
        }
        let secret: Data
        do {
            secret = try key.key.deriveSharedSecret(with: peer.key.publicKey)
        } catch {
            throw SecError.param("\(algorithm.name): key exchange failed: \(error)")
        }
        guard let kdf else { return secret }
        guard let size = requestedSize else {
            throw SecError.param("\(algorithm.name): kSecKeyKeyExchangeParameterRequestedSize is missing")
        }
        guard size > 0 else { throw SecError.param("\(algorithm.name): requested size must be positive") }
        do {
            return try KDF.x963(sharedSecret: secret, sharedInfo: sharedInfo ?? Data(), keyLength: size, digest: kdf)
        } catch {
            throw SecError.param("\(algorithm.name): key derivation failed: \(error)")
        }
    }

    /// Maps a crypto-layer failure during an operation to Apple's code for it (errSecParam for bad input).
    static func translate(_ error: any Error, _ algorithm: SecKeyAlgorithm) -> SecError {
        SecError(translating: error, context: algorithm.name)
    }
}
