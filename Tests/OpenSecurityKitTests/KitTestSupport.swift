import Foundation
import OSecTestSupport
import OpenSecurityKit
import Security
import Testing

/// Keys shared by the kit's tests (RSA generation is slow: once per test process).
enum KitKeys {
    static let rsa: SecKey = generate(kSecAttrKeyTypeRSA, 2048)
    static let otherRSA: SecKey = generate(kSecAttrKeyTypeRSA, 2048)
    static let rsa1024: SecKey = generate(kSecAttrKeyTypeRSA, 1024)
    static let p256: SecKey = generate(kSecAttrKeyTypeECSECPrimeRandom, 256)
    static let otherP256: SecKey = generate(kSecAttrKeyTypeECSECPrimeRandom, 256)

    static func generate(_ type: CFString, _ bits: Int) -> SecKey {
        let attributes: [String: Any] = [kSecAttrKeyType as String: type, kSecAttrKeySizeInBits as String: bits]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
            preconditionFailure("fixture key generation failed: \(String(describing: error?.takeRetainedValue()))")
        }
        return key
    }

    static func publicKey(_ key: SecKey) -> SecKey {
        guard let publicKey = SecKeyCopyPublicKey(key) else { preconditionFailure("no public key") }
        return publicKey
    }

    /// The key as PEM (PKCS#8 for private keys, SubjectPublicKeyInfo for public ones), for the openssl CLI.
    static func pem(_ key: SecKey) throws -> String {
        try OpenSecurityKeys.pemRepresentation(of: key)
    }
}

/// A fresh keychain file per test, used through `Keychain(keychain:)` (`kSecUseKeychain`), so tests never touch
/// the user's keychain and run in parallel.
final class KitKeychain: @unchecked Sendable {  // immutable after init
    let directory: TemporaryDirectory
    let keychain: SecKeychain

    init(password: String? = nil) throws {
        directory = try TemporaryDirectory(prefix: "osec-kit")
        let path = directory.path("kit.keychain-db")
        var created: SecKeychain?
        let status: OSStatus
        if let password {
            status = SecKeychainCreate(path, UInt32(password.utf8.count), password, false, nil, &created)
        } else {
            status = SecKeychainCreate(path, 0, nil, false, nil, &created)
        }
        guard status == errSecSuccess, let created else { throw SecurityKitError(status) }
        keychain = created
    }

    /// A view of `service` in this keychain.
    func view(_ service: String = "kit.tests") -> Keychain { Keychain(service: service, keychain: keychain) }

    /// Adds a raw generic password the way other Apple-platform code would.
    func addRaw(_ attributes: [String: Any]) -> OSStatus {
        var item = attributes
        item[kSecClass as String] = kSecClassGenericPassword
        item[kSecUseKeychain as String] = keychain
        return SecItemAdd(item as CFDictionary, nil)
    }
}

/// The status of the SecurityKitError `body` throws (nil when it throws nothing, or another error).
func thrownStatus<T>(_ body: () throws -> T) -> OSStatus? {
    do {
        _ = try body()
        return nil
    } catch let error as SecurityKitError {
        return error.status
    } catch {
        return nil
    }
}

/// The status of the SecurityKitError an async `body` throws.
func thrownStatus<T>(_ body: () async throws -> T) async -> OSStatus? {
    do {
        _ = try await body()
        return nil
    } catch let error as SecurityKitError {
        return error.status
    } catch {
        return nil
    }
}

/// Paths of the repository's own files (scripts, fixtures).
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}

/// Runs a program (python3) with arguments and stdin, collecting status and output.
enum Program {
    typealias Result = OpenSSLCLI.Result

    static func isAvailable(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    static func run(_ path: String, _ arguments: [String], stdin: Data? = nil) throws -> Result {
        try OpenSSLCLI.run(program: path, args: arguments, stdin: stdin)
    }
}

extension Data {
    /// Lowercase hex.
    var hex: String { map { String(format: "%02x", $0) }.joined() }

    /// A copy with bit `bit` of byte `index` flipped.
    func flipping(_ index: Int, bit: Int = 0) -> Data {
        var copy = self
        copy[copy.startIndex + index] ^= UInt8(1 << bit)
        return copy
    }
}
