// CommonKeyDerivation.h: PBKDF2 (RFC 8018) and the round-count calibration.
import Foundation
import OSecCrypto

/// Selects the key derivation function (`uint32_t`); only `kCCPBKDF2` exists.
public typealias CCPBKDFAlgorithm = UInt32

/// Selects the pseudo-random function of PBKDF2 (`uint32_t`).
public typealias CCPseudoRandomAlgorithm = UInt32

/// PBKDF2 (PKCS #5 v2, RFC 8018 §5.2).
public let kCCPBKDF2: Int = 2

/// PBKDF2 with HMAC-SHA-1.
public let kCCPRFHmacAlgSHA1: Int = 1
/// PBKDF2 with HMAC-SHA-224.
public let kCCPRFHmacAlgSHA224: Int = 2
/// PBKDF2 with HMAC-SHA-256.
public let kCCPRFHmacAlgSHA256: Int = 3
/// PBKDF2 with HMAC-SHA-384.
public let kCCPRFHmacAlgSHA384: Int = 4
/// PBKDF2 with HMAC-SHA-512.
public let kCCPRFHmacAlgSHA512: Int = 5

/// The hash of a PBKDF2 pseudo-random function selector.
private func prfDigest(_ prf: CCPseudoRandomAlgorithm) -> DigestAlgorithm? {
    switch Int(prf) {
    case kCCPRFHmacAlgSHA1: .sha1
    case kCCPRFHmacAlgSHA224: .sha224
    case kCCPRFHmacAlgSHA256: .sha256
    case kCCPRFHmacAlgSHA384: .sha384
    case kCCPRFHmacAlgSHA512: .sha512
    default: nil
    }
}

/// Derives `derivedKeyLen` bytes into `derivedKey` from `passwordLen` bytes of password and `saltLen` bytes of
/// salt with PBKDF2 over HMAC-`prf`, iterated `rounds` times. The password bytes are used as they are (no
/// normalisation). Returns `kCCSuccess` (0) or `kCCParamError`: for an algorithm other than `kCCPBKDF2`, an
/// unknown `prf`, zero rounds, a nil password or output, an empty output, or a nil salt with a non-zero length
/// (an empty salt may be nil), as Apple's does. Rounds above `Int32.max` or more than 1 MiB of output are
/// refused with `kCCParamError` (OpenSSL takes `int` counts).
@discardableResult
public func CCKeyDerivationPBKDF(
    _ algorithm: CCPBKDFAlgorithm, _ password: UnsafePointer<CChar>!, _ passwordLen: Int,
    _ salt: UnsafePointer<UInt8>!, _ saltLen: Int, _ prf: CCPseudoRandomAlgorithm, _ rounds: UInt32,
    _ derivedKey: UnsafeMutablePointer<UInt8>!, _ derivedKeyLen: Int
) -> Int32 {
    let paramError = Int32(kCCParamError)
    guard Int(algorithm) == kCCPBKDF2, let digest = prfDigest(prf), rounds > 0, let password, let derivedKey,
        derivedKeyLen > 0, passwordLen >= 0, saltLen >= 0, salt != nil || saltLen == 0
    else { return paramError }
    var passwordBytes = Data(bytes: password, count: passwordLen)
    defer { passwordBytes.resetBytes(in: 0..<passwordBytes.count) }
    let saltBytes = salt.map { Data(bytes: $0, count: saltLen) } ?? Data()
    guard
        var key = try? KDF.pbkdf2(
            password: passwordBytes, salt: saltBytes, iterations: Int(rounds), keyLength: derivedKeyLen,
            digest: digest)
    else { return paramError }
    key.copyBytes(to: derivedKey, count: derivedKeyLen)
    key.resetBytes(in: 0..<key.count)
    return Int32(kCCSuccess)
}

/// The PBKDF2 round count that takes about `msec` milliseconds here for the given lengths and `prf`, measured
/// by timing 100,000 rounds, as Apple's does; at least 10,000. Returns `UInt32.max` for an algorithm other than
/// `kCCPBKDF2`, an unknown `prf`, an empty derived key or a salt longer than 132 bytes.
public func CCCalibratePBKDF(
    _ algorithm: CCPBKDFAlgorithm, _ passwordLen: Int, _ saltLen: Int, _ prf: CCPseudoRandomAlgorithm,
    _ derivedKeyLen: Int, _ msec: UInt32
) -> UInt32 {
    /// Rounds timed for the estimate (Apple's `ROUNDMEASURE`).
    let measuredRounds = 100_000
    /// Fewest rounds returned (Apple's safety net).
    let minimumRounds: UInt32 = 10_000
    /// Longest salt taken (Apple's limit: 128 + 4 bytes of PBKDF2 workspace).
    let maximumSalt = 132
    guard Int(algorithm) == kCCPBKDF2, let digest = prfDigest(prf), derivedKeyLen > 0,
        derivedKeyLen <= KDF.maximumKeyLength, saltLen >= 0, saltLen <= maximumSalt, passwordLen >= 0
    else { return .max }
    let password = Data(repeating: UInt8(ascii: "a"), count: max(passwordLen, 1))
    let salt = Data((0..<saltLen).map { UInt8(truncatingIfNeeded: $0) })
    var elapsedMilliseconds = 0.0
    for _ in 0..<5 where elapsedMilliseconds == 0 {
        let start = DispatchTime.now().uptimeNanoseconds
        guard
            (try? KDF.pbkdf2(
                password: password, salt: salt, iterations: measuredRounds, keyLength: derivedKeyLen, digest: digest))
                != nil
        else { return .max }
        elapsedMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
    guard elapsedMilliseconds > 0 else { return minimumRounds }
    let rounds = Double(msec) * Double(measuredRounds) / elapsedMilliseconds
    return rounds >= Double(UInt32.max) ? UInt32.max - 1 : max(minimumRounds, UInt32(rounds))
}
