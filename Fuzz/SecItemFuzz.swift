// libFuzzer target for SecItem query and attribute dictionaries (structured fuzzing): each input is a short
// program of SecItemAdd / SecItemCopyMatching / SecItemUpdate / SecItemDelete calls whose dictionaries are built
// from the input — any of Apple's keys or a random one, any value type (strings, data, numbers, booleans, dates,
// arrays, nested dictionaries, SecKey / SecCertificate / SecKeychain objects, huge strings), on a temporary default
// keychain and a second one named by kSecUseKeychain. Built by `Fuzz/fuzz.sh secitem`.
//
// Asserted:
// - every call returns a status (never traps), and a result only on success;
// - a password added from a plain dictionary (class, account, service, data) is found again with its data;
// - after a successful SecItemDelete, the same query finds nothing;
// - after every input the store is consistent: every item of every class listed by kSecMatchLimitAll has a
//   persistent ref that finds exactly that item, and deleting everything leaves nothing behind.
import Foundation
import Security

nonisolated(unsafe) var fixtures: Fixtures?

final class Fixtures {
    let keychain: SecKeychain
    let key: SecKey
    let certificate: SecCertificate?
    let classes: [Any]
    let keys: [String]
    let words = ["alice", "bob", "mail", "", "example.com", "group.a", "x"]

    init(keychain: SecKeychain, key: SecKey, certificate: SecCertificate?) {
        self.keychain = keychain
        self.key = key
        self.certificate = certificate
        classes = [
            kSecClassGenericPassword, kSecClassInternetPassword, kSecClassKey, kSecClassCertificate,
            kSecClassIdentity, "nope", 7,
        ]
        keys = [
            kSecAttrAccount, kSecAttrService, kSecAttrServer, kSecAttrPort, kSecAttrProtocol, kSecAttrLabel,
            kSecAttrAccessGroup, kSecAttrAccessible, kSecAttrSynchronizable, kSecAttrComment, kSecAttrGeneric,
            kSecAttrCreationDate, kSecAttrModificationDate, kSecAttrDescription, kSecAttrType, kSecAttrCreator,
            kSecAttrIsInvisible, kSecAttrIsNegative, kSecAttrPath, kSecAttrSecurityDomain, kSecAttrAuthenticationType,
            kSecAttrKeyType, kSecAttrKeyClass, kSecAttrApplicationTag, kSecAttrApplicationLabel,
            kSecAttrKeySizeInBits, kSecAttrIsPermanent, kSecAttrCanSign, kSecAttrSubject, kSecAttrIssuer,
            kSecAttrSerialNumber, kSecAttrAccessControl, kSecValueData, kSecValueRef, kSecValuePersistentRef,
            kSecReturnData, kSecReturnAttributes, kSecReturnRef, kSecReturnPersistentRef, kSecMatchLimit,
            kSecMatchItemList, kSecMatchCaseInsensitive, kSecMatchSearchList, kSecMatchSubjectContains,
            kSecMatchValidOnDate, kSecMatchTrustedOnly, kSecMatchIssuers, kSecMatchPolicy, kSecUseKeychain,
            kSecUseDataProtectionKeychain, kSecAttrSynchronizableAny, kSecMatchLimitAll, kSecMatchLimitOne,
            kSecUseAuthenticationUI,
        ].map { $0 as String }
    }

    /// A value of any type, nested up to `depth`.
    func value(_ input: inout FuzzInput, depth: Int = 0) -> Any {
        switch input.byte() % 16 {
        case 0, 1: return input.pick(words)
        case 2: return String(decoding: input.lengthPrefixed(), as: UTF8.self)
        case 3: return Data(input.lengthPrefixed())
        case 4: return Int(Int32(bitPattern: input.uint32()))
        case 5: return input.bool()
        case 6: return Date(timeIntervalSinceReferenceDate: Double(Int32(bitPattern: input.uint32())))
        case 7: return Double(bitPattern: input.uint64())
        case 8: return depth < 2 ? (0..<Int(input.byte() % 4)).map { _ in value(&input, depth: depth + 1) } : "a"
        case 9:
            guard depth < 2 else { return 1 }
            return dictionary(&input, depth: depth + 1)
        case 10: return input.pick([key as Any, keychain] + (certificate.map { [$0] } ?? []))
        case 11: return input.pick(classes)
        case 12: return input.pick(keys)  // a constant's value (kSecMatchLimitAll, kSecAttrAccessible…)
        case 13: return String(repeating: "w", count: Int(input.uint16()) * 4)  // huge
        case 14: return NSNull()
        default: return UInt64(input.uint64())
        }
    }

    func dictionary(_ input: inout FuzzInput, depth: Int = 0) -> [String: Any] {
        var result: [String: Any] = [:]
        if depth == 0, input.byte() % 8 != 7 { result[kSecClass as String] = input.pick(classes) }
        for _ in 0..<Int(input.byte() % 8) {
            let key =
                input.byte() % 16 == 15 ? String(decoding: input.lengthPrefixed(), as: UTF8.self) : input.pick(keys)
            result[key] = value(&input, depth: depth)
        }
        if depth == 0, input.byte() % 4 == 0 { result[kSecUseKeychain as String] = keychain }
        return result
    }
}

func copyMatching(_ query: [String: Any]) -> (OSStatus, CFTypeRef?) {
    var result: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    guard status == errSecSuccess || result == nil else { fatalError("a failed CopyMatching returned a result") }
    return (status, result)
}

/// Every class's items are listed, found again by persistent ref, then deleted; nothing may remain.
func checkConsistentAndEmpty(_ fixtures: Fixtures) {
    for keychain in [nil, fixtures.keychain] as [SecKeychain?] {
        for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassKey, kSecClassCertificate] {
            var query: [String: Any] = [
                kSecClass as String: itemClass, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnPersistentRef as String: true, kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            ]
            if let keychain { query[kSecUseKeychain as String] = keychain }
            let (status, result) = copyMatching(query)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                fatalError("listing \(itemClass) failed with \(status)")
            }
            for ref in (result as? [Data]) ?? [] {
                var byRef: [String: Any] = [
                    kSecValuePersistentRef as String: ref, kSecReturnPersistentRef as String: true,
                ]
                if let keychain { byRef[kSecUseKeychain as String] = keychain }
                let (found, again) = copyMatching(byRef)
                guard found == errSecSuccess, again as? Data == ref else {
                    var withAny = byRef
                    withAny[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny
                    withAny[kSecReturnAttributes as String] = true
                    let (anyStatus, attributes) = copyMatching(withAny)
                    fatalError(
                        "a listed item is not found by its persistent ref (\(found)); with sync any: \(anyStatus) "
                            + "\(String(describing: attributes))")
                }
            }
            query.removeValue(forKey: kSecMatchLimit as String)
            query.removeValue(forKey: kSecReturnPersistentRef as String)
            let deleted = SecItemDelete(query as CFDictionary)
            guard deleted == errSecSuccess || deleted == errSecItemNotFound else {
                fatalError("deleting every \(itemClass) failed with \(deleted)")
            }
            query[kSecMatchLimit as String] = kSecMatchLimitAll
            guard copyMatching(query).0 == errSecItemNotFound else { fatalError("items remain after deleting all") }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func secItemFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let fixtures else { fatalError("no fixtures") }
    var input = FuzzInput(data, size)
    for _ in 0..<(1 + Int(input.byte() % 6)) {
        let operation = input.byte() % 5
        let query = fixtures.dictionary(&input)
        switch operation {
        case 0:
            var result: CFTypeRef?
            let status =
                input.bool() ? SecItemAdd(query as CFDictionary, &result) : SecItemAdd(query as CFDictionary, nil)
            guard status == errSecSuccess || result == nil else { fatalError("a failed add returned a result") }
        case 1:
            _ = copyMatching(query)
        case 2:
            let changes = fixtures.dictionary(&input, depth: 1)
            _ = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
        case 3:
            // With a match limit or an item list a delete may remove only some matches; otherwise all of them.
            let partial = [kSecMatchLimit, kSecMatchItemList, kSecUseItemList].contains { query[$0 as String] != nil }
            if SecItemDelete(query as CFDictionary) == errSecSuccess, !partial {
                var again = query
                for key in [kSecReturnData, kSecReturnAttributes, kSecReturnRef, kSecReturnPersistentRef] {
                    again.removeValue(forKey: key as String)
                }
                guard copyMatching(again).0 != errSecSuccess else { fatalError("a deleted item is still found") }
            }
        default:
            // A plain password: must be found again with its data.
            let account = String(decoding: input.lengthPrefixed(), as: UTF8.self)
            let secret = Data(input.lengthPrefixed())
            let base: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                kSecAttrService as String: "fuzz.plain", kSecUseKeychain as String: fixtures.keychain,
            ]
            let status = SecItemAdd(base.merging([kSecValueData as String: secret]) { $1 } as CFDictionary, nil)
            guard status == errSecSuccess || status == errSecDuplicateItem else {
                fatalError("adding a plain password failed with \(status)")
            }
            let (found, result) = copyMatching(
                base.merging([kSecReturnData as String: true, kSecMatchLimit as String: kSecMatchLimitAll]) { $1 })
            guard found == errSecSuccess, let all = result as? [Data], !all.isEmpty else {
                fatalError("a plain password just added is not found (\(found))")
            }
            if status == errSecSuccess, !all.contains(secret) { fatalError("a plain password lost its data") }
        }
    }
    checkConsistentAndEmpty(fixtures)
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func secItemFuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    let temporary = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
    let directory = temporary + "osec-secitemfuzz-\(getpid())"
    try? FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    setenv("OPENSECURITY_KEYCHAIN", directory + "/login.keychain-db", 1)
    setenv("XDG_DATA_HOME", directory, 1)
    var created: SecKeychain?
    let parameters =
        [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256]
        as CFDictionary
    guard SecKeychainCreate(directory + "/second.keychain-db", 0, nil, false, nil, &created) == errSecSuccess,
        let keychain = created, let key = SecKeyCreateRandomKey(parameters, nil)
    else { fatalError("making the fuzz keychains") }
    let bundle = (try? Data(contentsOf: URL(fileURLWithPath: "/etc/ssl/certs/ca-certificates.crt"))) ?? Data()
    let certificate = (try? OpenSecurityCertificates.certificates(fromPEM: String(decoding: bundle, as: UTF8.self)))?
        .first
    fixtures = Fixtures(keychain: keychain, key: key, certificate: certificate)
    guard Seeds.directory != nil else { return 0 }
    // Seeds: programs written with the encoder for a few typical calls (add / find / update / delete of each
    // class); the fuzzer grows them.
    for operation in UInt8(0)..<5 {
        for classIndex in UInt8(0)..<4 {
            var out = FuzzOutput()
            out.byte(3)  // four operations
            for op in [UInt8(0), operation, 1, 3] {
                out.byte(op)
                out.byte(0)  // a class
                out.byte(classIndex)
                out.byte(3)  // three entries: account, data, return data
                out.byte(0)
                out.byte(0)  // kSecAttrAccount
                out.byte(0)
                out.byte(0)  // "alice"
                out.byte(0)
                out.byte(32)  // kSecValueData
                out.byte(3)
                out.lengthPrefixed(Array("password".utf8))
                out.byte(0)
                out.byte(35)  // kSecReturnData
                out.byte(5)
                out.byte(1)
                out.byte(1)  // no kSecUseKeychain
                if op == 2 { out.byte(0) }  // empty changes
                if op == 4 {
                    out.lengthPrefixed(Array("carol".utf8))
                    out.lengthPrefixed(Array("pw".utf8))
                }
            }
            Seeds.write("program-\(operation)-\(classIndex)", out.bytes)
        }
    }
    return 0
}
