import Foundation
import Security
import Synchronization
import Testing

/// One SecKey shared by many threads: every operation runs on an OpenSSL context of its own (the crypto layer
/// reuses contexts, one caller at a time), so results are the same as on one thread.
@Suite struct SecKeyConcurrencyTests {
    static let threads = 8
    static let iterations = 24

    /// Runs `body(thread, iteration)` on `threads` threads at once (real threads, not a pool capped at the core
    /// count) and returns the failures they reported.
    static func onThreads(_ body: @escaping @Sendable (Int, Int) -> String?) -> [String] {
        let failures = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let start = DispatchSemaphore(value: 0)
        for thread in 0..<threads {
            Thread {
                start.wait()
                for iteration in 0..<iterations {
                    if let failure = body(thread, iteration) {
                        failures.withLock { $0.append("thread \(thread), iteration \(iteration): \(failure)") }
                    }
                }
                done.signal()
            }.start()
        }
        for _ in 0..<threads { start.signal() }  // release them together
        for _ in 0..<threads { done.wait() }
        return failures.withLock { $0 }
    }

    @Test func eightThreadsSigningAndVerifyingWithOneRSAKeyGetCorrectResults() throws {
        let key = KeyFixtures.rsa2048
        let publicKey = KeyFixtures.publicKey(key)
        let message = Data("shared key, many threads".utf8)
        // PKCS#1 v1.5 is deterministic: every thread must produce exactly this signature.
        let reference = try #require(
            SecKeyCreateSignature(key, .rsaSignatureMessagePKCS1v15SHA256, message as CFData, nil) as Data?)
        let secret = Data(repeating: 0x42, count: 32)
        let failures = Self.onThreads { thread, iteration in
            let input = message + Data([UInt8(thread), UInt8(iteration)])
            var error: Unmanaged<CFError>?
            guard
                let pkcs1 = SecKeyCreateSignature(key, .rsaSignatureMessagePKCS1v15SHA256, message as CFData, &error)
                    as Data?
            else { return "PKCS#1 signing failed: \(String(describing: error?.takeRetainedValue()))" }
            guard pkcs1 == reference else { return "PKCS#1 v1.5 signature differs from the single-thread one" }
            guard let pss = SecKeyCreateSignature(key, .rsaSignatureMessagePSSSHA256, input as CFData, &error) else {
                return "PSS signing failed"
            }
            guard SecKeyVerifySignature(publicKey, .rsaSignatureMessagePSSSHA256, input as CFData, pss, &error) else {
                return "own PSS signature does not verify"
            }
            var tampered = pss as Data
            tampered[thread] ^= 0x01
            var mismatch: Unmanaged<CFError>?
            if SecKeyVerifySignature(
                publicKey, .rsaSignatureMessagePSSSHA256, input as CFData, tampered as CFData, &mismatch)
            {
                return "tampered PSS signature verified"
            }
            guard mismatch?.takeRetainedValue().code == Int(errSecVerifyFailed) else {
                return "tampered signature did not give errSecVerifyFailed"
            }
            guard
                SecKeyVerifySignature(
                    publicKey, .rsaSignatureMessagePKCS1v15SHA256, message as CFData, reference as CFData, &error)
            else { return "PKCS#1 signature does not verify after a failed verification" }
            guard
                let ciphertext = SecKeyCreateEncryptedData(
                    publicKey, .rsaEncryptionOAEPSHA256, secret as CFData, &error),
                let plaintext = SecKeyCreateDecryptedData(key, .rsaEncryptionOAEPSHA256, ciphertext, &error),
                plaintext as Data == secret
            else { return "OAEP round trip failed" }
            return nil
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test func eightThreadsSigningAndVerifyingWithOneECKeyGetCorrectResults() throws {
        let key = KeyFixtures.p256
        let publicKey = KeyFixtures.publicKey(key)
        let failures = Self.onThreads { thread, iteration in
            let message = Data("thread \(thread) message \(iteration)".utf8)
            var error: Unmanaged<CFError>?
            guard
                let der = SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message as CFData, &error),
                let raw = SecKeyCreateSignature(key, .ecdsaSignatureMessageRFC4754SHA256, message as CFData, &error)
            else { return "signing failed: \(String(describing: error?.takeRetainedValue()))" }
            guard SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message as CFData, der, &error),
                SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageRFC4754SHA256, message as CFData, raw, &error)
            else { return "own signature does not verify" }
            let other = Data("another message".utf8) as CFData
            var mismatch: Unmanaged<CFError>?
            if SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, other, der, &mismatch) {
                return "signature verified over another message"
            }
            _ = mismatch?.takeRetainedValue()
            // A signature that is not DER at all is a failed verification, also for the next caller's context.
            var garbage: Unmanaged<CFError>?
            if SecKeyVerifySignature(
                publicKey, .ecdsaSignatureMessageX962SHA256, message as CFData, Data([0x30, 0x03, 0x02]) as CFData,
                &garbage)
            {
                return "malformed signature verified"
            }
            guard garbage?.takeRetainedValue().code == Int(errSecVerifyFailed) else {
                return "malformed signature did not give errSecVerifyFailed"
            }
            return nil
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
