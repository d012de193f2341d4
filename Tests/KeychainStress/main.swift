// KeychainStress: the other process in the keychain reliability tests.
//
//   KeychainStress add <keychain> <prefix> <count>     add <count> generic passwords, print "added <i>" after each
//                                                       success (flushed), then read each back; exit 0 if all match
//   KeychainStress add-forever <keychain> <prefix>      add until killed, printing "added <i>" after each success
//   KeychainStress set <keychain> <account> <value>     set the "stress" password of <account> (update, else add)
//   KeychainStress delete <keychain> <account>          delete the "stress" password of <account>
//   KeychainStress resolve <keychain> <hex-persistent-ref>
//                                                       print the class of the item and, for identities/certificates,
//                                                       the certificate's subject summary
import Foundation
import Security

/// Writes a line straight to the pipe (no buffering: a killed process must not lose reported lines).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("KeychainStress: \(message)\n".utf8))
    exit(1)
}

func open(_ path: String) -> SecKeychain {
    var keychain: SecKeychain?
    guard SecKeychainOpen(path, &keychain) == errSecSuccess, let keychain else { fail("cannot open \(path)") }
    return keychain
}

func add(_ keychain: SecKeychain, _ prefix: String, _ i: Int) -> OSStatus {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "stress",
        kSecAttrAccount as String: "\(prefix)-\(i)", kSecValueData as String: Data("secret-\(prefix)-\(i)".utf8),
        kSecUseKeychain as String: keychain,
    ]
    return SecItemAdd(query as CFDictionary, nil)
}

let args = Array(CommandLine.arguments.dropFirst())
switch args.first {
case "add" where args.count == 4:
    let keychain = open(args[1])
    guard let count = Int(args[3]) else { fail("bad count") }
    for i in 0..<count {
        let status = add(keychain, args[2], i)
        guard status == errSecSuccess else { fail("add \(i): \(status) \(SecCopyLastErrorMessage() ?? "")") }
        say("added \(i)")
        var result: CFTypeRef?
        let read: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "stress",
            kSecAttrAccount as String: "\(args[2])-\(i)", kSecReturnData as String: true,
            kSecUseKeychain as String: keychain,
        ]
        let readStatus = SecItemCopyMatching(read as CFDictionary, &result)
        guard readStatus == errSecSuccess, result as? Data == Data("secret-\(args[2])-\(i)".utf8) else {
            fail("read \(i): \(readStatus)")
        }
    }
case "add-forever" where args.count == 3:
    let keychain = open(args[1])
    var i = 0
    while true {
        let status = add(keychain, args[2], i)
        guard status == errSecSuccess else { fail("add \(i): \(status) \(SecCopyLastErrorMessage() ?? "")") }
        say("added \(i)")
        i += 1
    }
case "set" where args.count == 4:
    let keychain = open(args[1])
    let match: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "stress",
        kSecAttrAccount as String: args[2], kSecUseKeychain as String: keychain,
    ]
    let value = Data(args[3].utf8)
    var status = SecItemUpdate(match as CFDictionary, [kSecValueData as String: value] as CFDictionary)
    if status == errSecItemNotFound {
        var add = match
        add[kSecValueData as String] = value
        status = SecItemAdd(add as CFDictionary, nil)
    }
    guard status == errSecSuccess else { fail("set: \(status) \(SecCopyLastErrorMessage() ?? "")") }
case "delete" where args.count == 3:
    let keychain = open(args[1])
    let match: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "stress",
        kSecAttrAccount as String: args[2], kSecUseKeychain as String: keychain,
    ]
    let status = SecItemDelete(match as CFDictionary)
    guard status == errSecSuccess else { fail("delete: \(status) \(SecCopyLastErrorMessage() ?? "")") }
case "resolve" where args.count == 3:
    let keychain = open(args[1])
    var bytes: [UInt8] = []
    var hex = Substring(args[2])
    while hex.count >= 2, let b = UInt8(hex.prefix(2), radix: 16) {
        bytes.append(b)
        hex = hex.dropFirst(2)
    }
    var result: CFTypeRef?
    let query: [String: Any] = [
        kSecValuePersistentRef as String: Data(bytes), kSecReturnRef as String: true,
        kSecUseKeychain as String: keychain,
    ]
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    guard status == errSecSuccess else { fail("resolve: \(status) \(SecCopyLastErrorMessage() ?? "")") }
    if let identity = result as? SecIdentity {
        var certificate: SecCertificate?
        var key: SecKey?
        guard SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess, let certificate,
            SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess, key != nil
        else { fail("identity parts") }
        say("identity \(SecCertificateCopySubjectSummary(certificate) ?? "")")
    } else if let certificate = result as? SecCertificate {
        say("certificate \(SecCertificateCopySubjectSummary(certificate) ?? "")")
    } else if result is SecKey {
        say("key")
    } else {
        say("other")
    }
default:
    fail("usage: KeychainStress add|add-forever|set|delete|resolve …")
}
