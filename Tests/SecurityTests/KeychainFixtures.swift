import Foundation
import OSecTestSupport
import Security

/// A fresh keychain file per test, targeted with `kSecUseKeychain`, so tests never touch the user's
/// real keychain and can run in parallel.
final class TestKeychain: @unchecked Sendable {  // immutable after init
    let directory: TemporaryDirectory
    let path: String
    let keychain: SecKeychain

    /// - Parameter subdirectory: create the keychain inside a directory that does not exist yet (the
    ///   keychain creates it, mode 0700).
    init(password: String? = nil, subdirectory: String? = nil) throws {
        directory = try TemporaryDirectory(prefix: "osec-keychain")
        path = directory.path((subdirectory.map { $0 + "/" } ?? "") + "test.keychain-db")
        var created: SecKeychain?
        let status: OSStatus
        if let password {
            status = SecKeychainCreate(path, UInt32(password.utf8.count), password, false, nil, &created)
        } else {
            status = SecKeychainCreate(path, 0, nil, false, nil, &created)
        }
        guard status == errSecSuccess, let created else { throw TestKeychainError(status: status) }
        keychain = created
    }

    /// `query` plus `kSecUseKeychain`.
    func q(_ query: [String: Any]) -> CFDictionary {
        var q = query
        q[kSecUseKeychain as String] = keychain
        return q as CFDictionary
    }

    struct TestKeychainError: Error { let status: OSStatus }
}

enum KeychainTestSetup {
    /// Points the default keychain at a temporary file for the whole test process (never the real one).
    static let isolateDefaultKeychain: Void = {
        let dir = NSTemporaryDirectory() + "osec-default-\(getpid())-\(UUID().uuidString)"
        setenv("OPENSECURITY_KEYCHAIN", dir + "/login.keychain-db", 1)
        setenv("XDG_DATA_HOME", dir, 1)
        // The user preferences (search list, default keychain) too: a stale file in the real ~/.config must not
        // decide which keychains the process searches.
        setenv("XDG_CONFIG_HOME", dir + "/config", 1)
    }()
}
