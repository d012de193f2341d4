import Foundation
import Security
import Synchronization
import Testing

/// Keychain event callbacks, SecKeyGeneratePairAsync and the CSSM symmetric-key functions' answers (more in
/// SecKeySymmetricTests).
@Suite(.serialized)
struct MacKeychainEventAndKeyTests {
    static let seen = Mutex<[SecKeychainEvent]>([])
    /// The keychain whose events the test records: callbacks see every event of the process, and other suites
    /// lock and unlock their own keychains meanwhile.
    static let watched = Mutex<String>("")

    @Test func callbacksSeeAddUpdateDeleteLockAndUnlock() throws {
        let keychain = try TestKeychain(password: "events")
        let callback: SecKeychainCallback = { event, info, _ in
            let keychain = info.pointee.keychain.takeUnretainedValue().description
            guard keychain == MacKeychainEventAndKeyTests.watched.withLock({ $0 }) else { return errSecSuccess }
            MacKeychainEventAndKeyTests.seen.withLock { $0.append(event) }
            return errSecSuccess
        }
        Self.seen.withLock { $0 = [] }
        Self.watched.withLock { $0 = keychain.keychain.description }
        #expect(SecKeychainAddCallback(callback, [.addEventMask, .deleteEventMask, .lockEventMask], nil) == noErr)
        var item: SecKeychainItem?
        #expect(
            SecKeychainAddGenericPassword(keychain.keychain, 9, "svc.event", 1, "a", 2, "pw", &item) == errSecSuccess)
        #expect(SecKeychainItemModifyContent(try #require(item), nil, 3, "new") == errSecSuccess)
        #expect(SecKeychainItemDelete(try #require(item)) == errSecSuccess)
        #expect(SecKeychainLock(keychain.keychain) == errSecSuccess)
        #expect(SecKeychainUnlock(keychain.keychain, 6, "events", true) == errSecSuccess)
        #expect(SecKeychainRemoveCallback(callback) == errSecSuccess)
        // The update and unlock events were not asked for.
        #expect(Self.seen.withLock { $0 } == [.addEvent, .deleteEvent, .lockEvent])
        #expect(SecKeychainRemoveCallback(callback) == errSecInvalidCallback)
    }

    @Test func generatePairAsyncDeliversOnTheQueue() async throws {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]
        let queue = DispatchQueue(label: "pair")
        let result: (Bool, Bool) = await withCheckedContinuation { continuation in
            SecKeyGeneratePairAsync(attributes as CFDictionary, queue) { publicKey, privateKey, error in
                continuation.resume(returning: (publicKey != nil && privateKey != nil, error == nil))
            }
        }
        #expect(result == (true, true))
        let failed: Bool = await withCheckedContinuation { continuation in
            let bad: [String: Any] = [kSecAttrKeyType as String: "nonsense"]
            SecKeyGeneratePairAsync(bad as CFDictionary, queue) { publicKey, _, error in
                continuation.resume(returning: publicKey == nil && error != nil)
            }
        }
        #expect(failed)
    }

    @Test func symmetricKeysGenerateAndWrappingAnswersUnimplemented() throws {
        var error: Unmanaged<CFError>?
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeAES, kSecAttrKeySizeInBits as String: 128,
        ]
        let symmetric = try #require(SecKeyGenerateSymmetric(parameters as CFDictionary, &error))
        #expect(error == nil)
        #expect(SecKeyGetBlockSize(symmetric) == 16)
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]
        let key = try #require(SecKeyCreateRandomKey(attributes as CFDictionary, nil))
        #expect(SecKeyWrapSymmetric(key, key, [:] as CFDictionary, &error) == nil)
        #expect((error?.takeRetainedValue()).map { CFErrorGetCode($0) } == Int(errSecUnimplemented))
        #expect(SecKeySizes.secp256r1 == .secAES256 && SecKeySizes.secRSAMax.rawValue == 4096)
    }
}
