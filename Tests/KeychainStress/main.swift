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
//   KeychainStress get <keychain> <service> <account>  print "found <password>" or "status <OSStatus>"
//   KeychainStress try-add <keychain> <service> <account> <password>
//                                                       add a generic password, print "status <OSStatus>"
//   KeychainStress recreate <keychain>                  delete the keychain and create a new one (no password) there
//   KeychainStress fixture <directory>                  write the migration fixture: two keychains (one without and
//                                                       one with the password "fixture-password") holding every kind
//                                                       of item, and manifest.json with what each must read back
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
case "get" where args.count == 4:
    var keychain: SecKeychain?
    var status = SecKeychainOpen(args[1], &keychain)
    var result: CFTypeRef?
    if status == errSecSuccess, let keychain {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: args[2],
            kSecAttrAccount as String: args[3], kSecReturnData as String: true, kSecUseKeychain as String: keychain,
        ]
        status = SecItemCopyMatching(query as CFDictionary, &result)
    }
    if status == errSecSuccess, let data = result as? Data {
        say("found \(String(decoding: data, as: UTF8.self))")
    } else {
        say("status \(status)")
    }
case "try-add" where args.count == 5:
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: args[2],
        kSecAttrAccount as String: args[3], kSecValueData as String: Data(args[4].utf8),
        kSecUseKeychain as String: open(args[1]),
    ]
    say("status \(SecItemAdd(query as CFDictionary, nil))")
case "recreate" where args.count == 2:
    let status = SecKeychainDelete(open(args[1]))
    guard status == errSecSuccess else { fail("delete: \(status) \(SecCopyLastErrorMessage() ?? "")") }
    var created: SecKeychain?
    let createStatus = SecKeychainCreate(args[1], 0, nil, false, nil, &created)
    guard createStatus == errSecSuccess else { fail("create: \(createStatus) \(SecCopyLastErrorMessage() ?? "")") }
case "fixture" where args.count == 2:
    writeFixture(in: args[1])
default:
    fail("usage: KeychainStress add|add-forever|set|delete|resolve|get|try-add|recreate|fixture …")
}

/// The keychains `Tests/Vectors/keychain-v1/` holds: written once by the code of an older schema version, then
/// opened by today's code in the migration tests. Every item kind, every protection class, a synchronizable item
/// and an item without a secret.
func writeFixture(in directory: String) {
    var manifest: [String: Any] = [:]
    for (name, password) in [("v1-device", nil), ("v1-password", "fixture-password")] as [(String, String?)] {
        let path = directory + "/" + name + ".keychain-db"
        var created: SecKeychain?
        let status =
            password.map { SecKeychainCreate(path, UInt32($0.utf8.count), $0, false, nil, &created) }
            ?? SecKeychainCreate(path, 0, nil, false, nil, &created)
        guard status == errSecSuccess, let keychain = created else { fail("create \(path): \(status)") }
        func add(_ attributes: [String: Any]) {
            var q = attributes
            q[kSecUseKeychain as String] = keychain
            let status = SecItemAdd(q as CFDictionary, nil)
            guard status == errSecSuccess else {
                fail("add \(attributes): \(status) \(SecCopyLastErrorMessage() ?? "")")
            }
        }
        let genp = kSecClassGenericPassword as String
        for (service, account, secret, accessible, sync) in [
            ("bank.example", "alice", "bank-password", nil, false),
            ("evil.example", "mallory", "evil-password", nil, false),
            ("always.example", "carol", "always-password", kSecAttrAccessibleAlways as String, false),
            ("afu.example", "dave", "afu-password", kSecAttrAccessibleAfterFirstUnlock as String, false),
            ("sync.example", "erin", "sync-password", nil, true),
        ] as [(String, String, String, String?, Bool)] {
            var q: [String: Any] = [
                kSecClass as String: genp, kSecAttrService as String: service, kSecAttrAccount as String: account,
                kSecAttrGeneric as String: Data("gena-\(account)".utf8), kSecAttrLabel as String: "label \(service)",
                kSecValueData as String: Data(secret.utf8),
            ]
            if let accessible { q[kSecAttrAccessible as String] = accessible }
            if sync { q[kSecAttrSynchronizable as String] = true }
            add(q)
        }
        add([kSecClass as String: genp, kSecAttrService as String: "nosecret.example", kSecAttrAccount as String: "x"])
        add([
            kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "bank.example",
            kSecAttrAccount as String: "alice", kSecAttrProtocol as String: kSecAttrProtocolHTTPS,
            kSecAttrPort as String: 443, kSecAttrPath as String: "/login",
            kSecValueData as String: Data("inet-password".utf8),
        ])
        var error: Unmanaged<CFError>?
        let keyAttributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]
        guard let tagged = SecKeyCreateRandomKey(keyAttributes as CFDictionary, &error),
            let identityKey = SecKeyCreateRandomKey(keyAttributes as CFDictionary, &error),
            let taggedData = SecKeyCopyExternalRepresentation(tagged, nil) as Data?,
            let identityKeyData = SecKeyCopyExternalRepresentation(identityKey, nil) as Data?
        else { fail("key generation") }
        add([
            kSecClass as String: kSecClassKey, kSecValueRef as String: tagged,
            kSecAttrApplicationTag as String: Data("fixture.tag".utf8),
        ])
        let now = Date()
        guard
            let certificate = try? OpenSecurityCertificates.createSelfSignedCertificate(
                subject: [("CN", "fixture.example")], privateKey: identityKey,
                notBefore: now.addingTimeInterval(-86400),
                notAfter: now.addingTimeInterval(86400 * 365 * 50)),
            let identity = try? OpenSecurityCertificates.createIdentity(
                certificate: certificate, privateKey: identityKey)
        else { fail("certificate") }
        add([kSecValueRef as String: identity])
        manifest[name] = [
            "password": password.map { $0 as Any } ?? NSNull(),
            "taggedKey": taggedData.base64EncodedString(),
            "identityKey": identityKeyData.base64EncodedString(),
            "certificate": (SecCertificateCopyData(certificate) as Data).base64EncodedString(),
        ]
    }
    guard let json = try? JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys])
    else { fail("manifest") }
    guard FileManager.default.createFile(atPath: directory + "/manifest.json", contents: json) else {
        fail("cannot write manifest.json")
    }
}
