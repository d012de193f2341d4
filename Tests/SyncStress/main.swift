// SyncStress: one "machine" of the sync acceptance tests (each invocation is a separate process with its own
// keychain). The circle comes from the keychain (after `join`) or from OPENSECURITY_SYNC_* in the environment.
//
//   SyncStress join <keychain> <url> <circle> <passphrase>   join (or create) the circle
//   SyncStress set <keychain> <account> <value>              add or update the synchronizable password <account>
//   SyncStress delete <keychain> <account>                   delete it
//   SyncStress dump <keychain>                               print "<account>=<value>" for every synchronizable
//                                                            password of service "synctest", sorted
//   SyncStress sync <keychain>                               push and pull everything (exit 0, else the status)
//   SyncStress plant <keychain> <prefix> <count>             add <count> passwords with planted attributes/secrets
//   SyncStress churn <keychain> <prefix>                     until killed: set <prefix>-<i> = v<i>, printing
//                                                            "committed <i>" after each add returned; the
//                                                            background sync thread pushes meanwhile
//   SyncStress add-identity <keychain> <p12> <password>      import a PKCS#12 and add its identity, synchronizable
//   SyncStress identity <keychain>                           print the subject summary of each synchronizable identity
//   SyncStress local <keychain> <account> <value>            add a password that is not synchronizable
//   SyncStress count <keychain>                              print the number of synchronizable passwords (any service)
import Foundation
import Security

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String, _ status: OSStatus = errSecInternal) -> Never {
    FileHandle.standardError.write(Data("SyncStress: \(message)\n".utf8))
    exit(Int32(UInt32(bitPattern: status) & 0xFF))
}

func keychain(_ path: String) -> SecKeychain {
    var keychain: SecKeychain?
    if !FileManager.default.fileExists(atPath: path) {
        guard SecKeychainCreate(path, 0, nil, false, nil, &keychain) == errSecSuccess, let keychain else {
            fail("cannot create \(path)")
        }
        return keychain
    }
    guard SecKeychainOpen(path, &keychain) == errSecSuccess, let keychain else { fail("cannot open \(path)") }
    return keychain
}

func set(_ kc: SecKeychain, _ account: String, _ value: String) -> OSStatus {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "synctest",
        kSecAttrAccount as String: account, kSecAttrSynchronizable as String: true, kSecUseKeychain as String: kc,
    ]
    let update: [String: Any] = [kSecValueData as String: Data(value.utf8)]
    let status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
    guard status == errSecItemNotFound else { return status }
    var add = query
    add[kSecValueData as String] = Data(value.utf8)
    add[kSecAttrLabel as String] = "label of \(account)"
    return SecItemAdd(add as CFDictionary, nil)
}

func runSync(_ kc: SecKeychain) {
    do { try OpenSecuritySync.syncNow(keychain: kc) } catch {
        let nsError = error as NSError
        fail("sync: \(nsError.localizedDescription)", OSStatus(truncatingIfNeeded: nsError.code))
    }
}

let args = Array(CommandLine.arguments.dropFirst())
switch args.first {
case "join" where args.count == 5:
    do {
        try OpenSecuritySync.join(
            url: args[2], circle: args[3], passphrase: Data(args[4].utf8), keychain: keychain(args[1]))
    } catch {
        let nsError = error as NSError
        fail("join: \(nsError.localizedDescription)", OSStatus(truncatingIfNeeded: nsError.code))
    }
case "set" where args.count == 4:
    let status = set(keychain(args[1]), args[2], args[3])
    guard status == errSecSuccess else { fail("set: \(status)", status) }
case "local" where args.count == 4:
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "synctest",
        kSecAttrAccount as String: args[2], kSecValueData as String: Data(args[3].utf8),
        kSecUseKeychain as String: keychain(args[1]),
    ]
    let status = SecItemAdd(query as CFDictionary, nil)
    guard status == errSecSuccess else { fail("local: \(status)", status) }
case "delete" where args.count == 3:
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "synctest",
        kSecAttrAccount as String: args[2], kSecAttrSynchronizable as String: true,
        kSecUseKeychain as String: keychain(args[1]),
    ]
    let status = SecItemDelete(query as CFDictionary)
    guard status == errSecSuccess else { fail("delete: \(status)", status) }
case "dump" where args.count == 2:
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "synctest",
        kSecAttrSynchronizable as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
        kSecReturnAttributes as String: true, kSecReturnData as String: true,
        kSecUseKeychain as String: keychain(args[1]),
    ]
    var result: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    guard status == errSecSuccess || status == errSecItemNotFound else { fail("dump: \(status)", status) }
    let items = (result as? [[String: Any]]) ?? []
    let lines = items.map { item in
        "\(item[kSecAttrAccount as String] as? String ?? "?")="
            + String(decoding: item[kSecValueData as String] as? Data ?? Data(), as: UTF8.self)
    }
    for line in lines.sorted() { say(line) }
case "count" where args.count == 2:
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrSynchronizable as String: true,
        kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
        kSecUseKeychain as String: keychain(args[1]),
    ]
    var result: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    guard status == errSecSuccess || status == errSecItemNotFound else { fail("count: \(status)", status) }
    say("\((result as? [Any])?.count ?? 0)")
case "sync" where args.count == 2:
    runSync(keychain(args[1]))
case "plant" where args.count == 4:
    let kc = keychain(args[1])
    guard let count = Int(args[3]) else { fail("bad count") }
    for i in 0..<count {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "\(args[2])-service-\(i)",
            kSecAttrAccount as String: "\(args[2])-account-\(i)", kSecAttrLabel as String: "\(args[2])-label-\(i)",
            kSecAttrComment as String: "\(args[2])-comment-\(i)",
            kSecValueData as String: Data("\(args[2])-secret-\(i)".utf8), kSecAttrSynchronizable as String: true,
            kSecUseKeychain as String: kc,
        ]
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else { fail("plant \(i): \(status)", status) }
    }
case "churn" where args.count == 3:
    let kc = keychain(args[1])
    var i = 0
    while true {
        let status = set(kc, "\(args[2])-\(i)", "v\(i)")
        guard status == errSecSuccess else { fail("churn \(i): \(status)", status) }
        say("committed \(i)")
        i += 1
        Thread.sleep(forTimeInterval: 0.01)
    }
case "add-identity" where args.count == 4:
    let kc = keychain(args[1])
    guard let p12 = FileManager.default.contents(atPath: args[2]) else { fail("cannot read \(args[2])") }
    var items: CFArray?
    let options: [String: Any] = [kSecImportExportPassphrase as String: args[3]]
    let importStatus = SecPKCS12Import(p12 as CFData, options as CFDictionary, &items)
    guard importStatus == errSecSuccess, let first = (items as? [[String: Any]])?.first,
        let identity = first[kSecImportItemIdentity as String]
    else { fail("import: \(importStatus)", importStatus) }
    let add: [String: Any] = [
        kSecValueRef as String: identity as AnyObject, kSecAttrSynchronizable as String: true,
        kSecUseKeychain as String: kc,
    ]
    let status = SecItemAdd(add as CFDictionary, nil)
    guard status == errSecSuccess else { fail("add identity: \(status)", status) }
case "identity" where args.count == 2:
    let query: [String: Any] = [
        kSecClass as String: kSecClassIdentity, kSecAttrSynchronizable as String: true,
        kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnRef as String: true,
        kSecUseKeychain as String: keychain(args[1]),
    ]
    var result: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    guard status == errSecSuccess || status == errSecItemNotFound else { fail("identity: \(status)", status) }
    for object in (result as? [AnyObject]) ?? [] {
        guard let identity = object as? SecIdentity else { continue }
        var certificate: SecCertificate?
        guard SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess, let certificate else { continue }
        var key: SecKey?
        let keyStatus = SecIdentityCopyPrivateKey(identity, &key)
        say("\(SecCertificateCopySubjectSummary(certificate) as String? ?? "?") key=\(keyStatus == errSecSuccess)")
    }
default:
    fail("usage: see Tests/SyncStress/main.swift", errSecParam)
}
exit(0)
