import Foundation

@testable import OSecKeychain

/// A fresh directory for one test, removed at the end.
final class TestDirectory {
    let url: URL
    var path: String { url.path }

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("osec-keychain-tests-\(UUID().uuidString)", isDirectory: true)
    }

    /// A keychain path inside a not-yet-existing subdirectory (so directory creation is exercised).
    func keychainPath(_ name: String = "test.keychain-db") -> String {
        url.appendingPathComponent("keychains").appendingPathComponent(name).path
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

let testPassword = Data("correct horse battery staple".utf8)

extension KeychainStore {
    /// A new password-protected keychain with cheap test KDF parameters (starts unlocked).
    static func makeTest(
        in dir: TestDirectory, name: String = "test.keychain-db",
        password: Data? = testPassword
    ) throws -> KeychainStore {
        try KeychainStore.create(at: dir.keychainPath(name), password: password, kdf: .testing)
    }
}

func genp(
    account: String, service: String, secret: String? = nil, label: String? = nil,
    accessibility: Accessibility = .whenUnlocked, group: String = "test.group"
) -> NewItem {
    var attributes: [String: AttributeValue] = ["acct": .string(account), "svce": .string(service)]
    if let label { attributes["labl"] = .string(label) }
    return NewItem(
        itemClass: .genericPassword, attributes: attributes, accessGroup: group,
        accessibility: accessibility, secret: secret.map { Data($0.utf8) })
}

/// Returns `true` when `needle` occurs in `haystack`.
func contains(_ haystack: Data, _ needle: Data) -> Bool {
    haystack.range(of: needle) != nil
}

/// Expects `body` to throw a `KeychainStoreError` with `code`.
func expectCode(_ code: KeychainStoreError.Code, _ body: () throws -> Void) -> Bool {
    do {
        try body()
        return false
    } catch let error as KeychainStoreError {
        return error.code == code
    } catch {
        return false
    }
}
