internal import COpenSSL
internal import COpenSSLShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Key derivation functions.
package enum KDF {
    /// Largest iteration count accepted from a file (PKCS#12, encrypted PKCS#8, …). Attacker-supplied files
    /// choose the count, so without a cap one file could pin a CPU for hours; 10 million
    /// PBKDF2-HMAC-SHA256 iterations take about 9 s here. Parsers check this before calling a KDF.
    #if KDF_FUZZING
    // Fuzz builds (`Fuzz/fuzz.sh keyimport`) cap the work low so inputs that mutate a count upwards stay fast (the
    // fuzzer reports any input slower than 1 s); the code paths are the same. See also PKCS12_FUZZING.
    package static let maximumIterations = 4096
    #else
    package static let maximumIterations = 10_000_000
    #endif
    /// Largest iteration count the KDF functions themselves accept (OpenSSL takes an `int`). Callers that
    /// pass counts read from untrusted input must apply ``maximumIterations`` first.
    package static let maximumDirectIterations = Int(Int32.max)
    /// Largest derived key length, in bytes.
    package static let maximumKeyLength = 1 << 20
    /// Largest scrypt memory use (128·r·(N + p + 2) bytes): 1 GiB.
    package static let maximumScryptMemory: UInt64 = 1 << 30
    /// Largest scrypt work factor N·r·p.
    #if KDF_FUZZING
    package static let maximumScryptWork: UInt64 = 1 << 14
    #else
    package static let maximumScryptWork: UInt64 = 1 << 27
    #endif

    /// PBKDF2 (RFC 8018) with HMAC-`digest` (PKCS5_PBKDF2_HMAC).
    package static func pbkdf2(
        password: Data, salt: Data, iterations: Int, keyLength: Int, digest: DigestAlgorithm
    ) throws(CryptoError) -> Data {
        try checkIterations(iterations)
        try checkKeyLength(keyLength)
        try checkInputLength(password, "password")
        try checkInputLength(salt, "salt")
        let md = try digest.fetched()
        return try password.withBytes { (pass, passCount) throws(CryptoError) in
            try salt.withBytes { (saltBytes, saltCount) throws(CryptoError) in
                try Data.filling(capacity: keyLength) { (out) throws(CryptoError) in
                    try ossl(
                        PKCS5_PBKDF2_HMAC(
                            pass.assumingMemoryBound(to: CChar.self), Int32(passCount),
                            saltBytes.assumingMemoryBound(to: UInt8.self), Int32(saltCount),
                            Int32(iterations), md, Int32(keyLength), out.assumingMemoryBound(to: UInt8.self)),
                        "PKCS5_PBKDF2_HMAC")
                    return keyLength
                }
            }
        }
    }

    /// scrypt (RFC 7914). `n` must be a power of two > 1; memory and work are capped
    /// (``maximumScryptMemory``, ``maximumScryptWork``) and exceeding a cap throws `.resourceLimit`.
    package static func scrypt(
        password: Data, salt: Data, n: UInt64, r: UInt32, p: UInt32, keyLength: Int
    ) throws(CryptoError) -> Data {
        guard n > 1, n & (n - 1) == 0, r > 0, p > 0 else {
            throw CryptoError(.invalidParameter, "scrypt needs N a power of two > 1 and r, p ≥ 1")
        }
        try checkKeyLength(keyLength)
        // Memory: B = 128·r·p, V = 128·r·N, XY = 256·r (+ slack); computed without overflow.
        let (nPlus, o1) = n.addingReportingOverflow(UInt64(p) + 2)
        let (memory, o2) = (UInt64(128) * UInt64(r)).multipliedReportingOverflow(by: nPlus)
        let (nr, o3) = n.multipliedReportingOverflow(by: UInt64(r))
        let (work, o4) = nr.multipliedReportingOverflow(by: UInt64(p))
        guard !o1, !o2, !o3, !o4, memory <= maximumScryptMemory, work <= maximumScryptWork else {
            throw CryptoError(.resourceLimit, "scrypt parameters exceed the memory or work limit")
        }
        return try password.withBytes { (pass, passCount) throws(CryptoError) in
            try salt.withBytes { (saltBytes, saltCount) throws(CryptoError) in
                try Data.filling(capacity: keyLength) { (out) throws(CryptoError) in
                    try ossl(
                        EVP_PBE_scrypt(
                            pass.assumingMemoryBound(to: CChar.self), passCount,
                            saltBytes.assumingMemoryBound(to: UInt8.self), saltCount,
                            n, UInt64(r), UInt64(p), maximumScryptMemory + (1 << 20),
                            out.assumingMemoryBound(to: UInt8.self), keyLength),
                        "EVP_PBE_scrypt")
                    return keyLength
                }
            }
        }
    }

    /// RFC 7292 appendix B KDF (OpenSSL's PKCS12KDF). `password` is already BMP-encoded with the two
    /// trailing zero bytes (or empty). `id`: 1 = key, 2 = IV, 3 = MAC key.
    package static func pkcs12(
        password: Data, salt: Data, id: UInt8, iterations: Int, keyLength: Int, digest: DigestAlgorithm
    ) throws(CryptoError) -> Data {
        try checkIterations(iterations)
        try checkKeyLength(keyLength)
        let kdf = try FetchedKDFs.pkcs12.get()
        return try password.withBytes { (pass, passCount) throws(CryptoError) in
            try salt.withBytes { (saltBytes, saltCount) throws(CryptoError) in
                try Data.filling(capacity: keyLength) { (out) throws(CryptoError) in
                    try ossl(
                        osec_kdf_pkcs12(
                            UnsafeRawPointer(kdf), digest.openSSLName, pass, passCount, saltBytes, saltCount,
                            Int32(iterations), Int32(id), out, keyLength),
                        "PKCS12KDF")
                    return keyLength
                }
            }
        }
    }

    /// ANSI X9.63 KDF (OpenSSL's X963KDF), as used by ECIES.
    package static func x963(
        sharedSecret: Data, sharedInfo: Data, keyLength: Int, digest: DigestAlgorithm
    ) throws(CryptoError) -> Data {
        try checkKeyLength(keyLength)
        guard !sharedSecret.isEmpty else { throw CryptoError(.invalidParameter, "X9.63 KDF needs a shared secret") }
        let kdf = try FetchedKDFs.x963.get()
        return try sharedSecret.withBytes { (secret, secretCount) throws(CryptoError) in
            try sharedInfo.withBytes { (info, infoCount) throws(CryptoError) in
                try Data.filling(capacity: keyLength) { (out) throws(CryptoError) in
                    try ossl(
                        osec_kdf_x963(
                            UnsafeRawPointer(kdf), digest.openSSLName, secret, secretCount, info, infoCount,
                            out, keyLength),
                        "X963KDF")
                    return keyLength
                }
            }
        }
    }

    // MARK: Checks

    private static func checkIterations(_ iterations: Int) throws(CryptoError) {
        guard iterations >= 1 else { throw CryptoError(.invalidParameter, "iteration count must be at least 1") }
        guard iterations <= maximumDirectIterations else {
            throw CryptoError(.resourceLimit, "iteration count above \(maximumDirectIterations)")
        }
    }

    private static func checkKeyLength(_ keyLength: Int) throws(CryptoError) {
        guard keyLength >= 1 else { throw CryptoError(.invalidParameter, "derived key length must be at least 1") }
        guard keyLength <= maximumKeyLength else {
            throw CryptoError(.resourceLimit, "derived key length above \(maximumKeyLength)")
        }
    }

    private static func checkInputLength(_ data: Data, _ what: String) throws(CryptoError) {
        guard data.count <= Int(Int32.max) else { throw CryptoError(.resourceLimit, "\(what) too long") }
    }
}

/// Process-wide fetched EVP_KDF objects.
private enum FetchedKDFs {
    static let pkcs12 = FetchedAlgorithm(name: "PKCS12KDF", raw: EVP_KDF_fetch(nil, "PKCS12KDF", nil))
    static let x963 = FetchedAlgorithm(name: "X963KDF", raw: EVP_KDF_fetch(nil, "X963KDF", nil))
}
