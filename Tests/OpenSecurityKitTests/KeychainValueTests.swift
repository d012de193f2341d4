import Foundation
import OpenSecurityKit
import Security
import Testing

struct Token: Codable, Equatable, Sendable {
    var access: String
    var refresh: String?
    var expires: Date
    var scopes: [String]
}

/// An encoder that always fails.
struct FailingEncoder: KeychainValueEncoder {
    struct Failure: Error {}
    func encode<T: Encodable>(_ value: T) throws -> Data { throw Failure() }
}

@Suite struct KeychainCodableTests {
    let store: KitKeychain
    init() throws { store = try KitKeychain() }

    let token = Token(
        access: "at-123", refresh: nil, expires: Date(timeIntervalSince1970: 1_800_000_000), scopes: ["read", "write"])

    @Test func codableValuesRoundTripAsJSONByDefault() throws {
        let keychain = store.view()
        try keychain.set(token, forAccount: "alice")
        #expect(try keychain.value(Token.self, forAccount: "alice") == token)
        // Stored as JSON: the raw item decodes with a plain JSONDecoder.
        let raw = try #require(try keychain.data(forAccount: "alice"))
        #expect(try JSONDecoder().decode(Token.self, from: raw) == token)
        #expect(try keychain.value(Token.self, forAccount: "nobody") == nil)
    }

    @Test func theEncoderIsReplaceable() throws {
        let keychain = store.view()
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        try keychain.set(token, forAccount: "plist", encoder: encoder)
        let raw = try #require(try keychain.data(forAccount: "plist"))
        #expect(raw.starts(with: Data("bplist00".utf8)))
        #expect(try keychain.value(Token.self, forAccount: "plist", decoder: PropertyListDecoder()) == token)
        // Read with the wrong decoder: a decode error, not a crash.
        #expect(thrownStatus { try keychain.value(Token.self, forAccount: "plist") } == errSecDecode)
    }

    @Test func aValueOfAnotherTypeIsADecodeError() throws {
        let keychain = store.view()
        try keychain.set("not json", forAccount: "text")
        #expect(thrownStatus { try keychain.value(Token.self, forAccount: "text") } == errSecDecode)
        try keychain.set([1, 2, 3], forAccount: "numbers")
        #expect(try keychain.value([Int].self, forAccount: "numbers") == [1, 2, 3])
        #expect(thrownStatus { try keychain.value(Token.self, forAccount: "numbers") } == errSecDecode)
    }

    @Test func anEncoderFailureIsAParameterErrorAndWritesNothing() throws {
        let keychain = store.view()
        try keychain.set(token, forAccount: "kept")
        #expect(thrownStatus { try keychain.set(token, forAccount: "kept", encoder: FailingEncoder()) } == errSecParam)
        #expect(try keychain.value(Token.self, forAccount: "kept") == token)
    }

    @Test func asyncCodableCalls() async throws {
        let keychain = store.view()
        try await keychain.set(token, forAccount: "async")
        #expect(try await keychain.value(Token.self, forAccount: "async") == token)
    }
}

@Suite struct KeychainObjectTests {
    let store: KitKeychain
    init() throws { store = try KitKeychain() }

    @Test func objectsRoundTripByIdentifier() throws {
        let keychain = store.keychain
        let session: NSDictionary = [
            "token": "abc", "uid": 42, "created": Date(timeIntervalSinceReferenceDate: 7),
            "roles": ["admin", "user"], "blob": Data([1, 2, 3]), "nothing": NSNull(),
        ]
        try KeychainObjects.save(session, forIdentifier: "session", in: keychain)
        let read = try #require(try KeychainObjects.object(forIdentifier: "session", in: keychain) as? [String: Any])
        #expect(read["token"] as? String == "abc")
        #expect((read["uid"] as? NSNumber)?.intValue == 42)
        #expect(read["created"] as? Date == Date(timeIntervalSinceReferenceDate: 7))
        #expect(read["roles"] as? [String] == ["admin", "user"])
        #expect(read["blob"] as? Data == Data([1, 2, 3]))
        #expect(read["nothing"] is NSNull)
        #expect(try KeychainObjects.contains(identifier: "session", in: keychain))
        try KeychainObjects.update("replaced", forIdentifier: "session", in: keychain)
        #expect(try KeychainObjects.object(forIdentifier: "session", in: keychain) as? String == "replaced")
        #expect(try KeychainObjects.delete(identifier: "session", in: keychain))
        #expect(try KeychainObjects.object(forIdentifier: "session", in: keychain) == nil)
        #expect(try KeychainObjects.delete(identifier: "session", in: keychain) == false)
    }

    @Test func updateOfAMissingObjectIsItemNotFound() {
        #expect(
            thrownStatus { try KeychainObjects.update("x", forIdentifier: "missing", in: store.keychain) }
                == errSecItemNotFound)
    }

    @Test func theItemIsTheTutorialHelpersItem() throws {
        // The widely copied getKeychainQuery: helper: genp, service = account = identifier, after first unlock,
        // data = NSKeyedArchiver archive.
        let archive = try NSKeyedArchiver.archivedData(withRootObject: "device-uuid-1", requiringSecureCoding: false)
        #expect(
            store.addRaw([
                kSecAttrService as String: "com.example.uuid", kSecAttrAccount as String: "com.example.uuid",
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock, kSecValueData as String: archive,
            ]) == errSecSuccess)
        #expect(
            try KeychainObjects.object(forIdentifier: "com.example.uuid", in: store.keychain) as? String
                == "device-uuid-1")
        try KeychainObjects.save(["k": "v"] as NSDictionary, forIdentifier: "mine", in: store.keychain)
        let item = try #require(try Keychain(service: "mine", keychain: store.keychain).items().first)
        #expect(item.account == "mine")
        #expect(item.accessibility == .afterFirstUnlock)
    }

    @Test func anArchiveWrittenOnApplePlatformsIsRead() throws {
        // The XML form of what NSKeyedArchiver writes on iOS for an NSDictionary of a string, a number, a date,
        // an NSUUID and a mutable array (class chains as Apple's Foundation names them).
        let data = try #require(Data(base64Encoded: AppleArchiveFixture.dictionaryArchive))
        #expect(
            store.addRaw([
                kSecAttrService as String: "apple", kSecAttrAccount as String: "apple", kSecValueData as String: data,
            ]) == errSecSuccess)
        let object = try #require(
            try KeychainObjects.object(forIdentifier: "apple", in: store.keychain) as? [String: Any])
        #expect(object["user"] as? String == "alice")
        #expect((object["count"] as? NSNumber)?.intValue == 3)
        #expect(object["when"] as? Date == Date(timeIntervalSinceReferenceDate: 600_000_000))
        #expect(object["id"] as? UUID == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(object["tags"] as? [String] == ["a", "b"])
    }

    @Test func typedObjectsDecodeWithSecureCoding() throws {
        try KeychainObjects.save(["a": "b"] as NSDictionary, forIdentifier: "typed", in: store.keychain)
        let dictionary = try KeychainObjects.object(
            ofClass: NSDictionary.self, forIdentifier: "typed", in: store.keychain)
        #expect(dictionary?["a"] as? String == "b")
        #expect(
            thrownStatus {
                try KeychainObjects.object(ofClass: NSDate.self, forIdentifier: "typed", in: store.keychain)
            }
                == errSecDecode)
    }

    @Test func malformedArchivesAreDecodeErrorsNotCrashes() throws {
        let cases: [(String, Data)] = [
            ("not a plist", Data("hello".utf8)),
            (
                "plist, not an archive",
                try PropertyListSerialization.data(
                    fromPropertyList: ["a": 1], format: .binary, options: 0)
            ),
            ("unknown class", Data(AppleArchiveFixture.unknownClassXML.utf8)),
            ("dangling reference", Data(AppleArchiveFixture.danglingReferenceXML.utf8)),
            ("self reference", Data(AppleArchiveFixture.cycleXML.utf8)),
            ("empty", Data()),
        ]
        for (index, (name, data)) in cases.enumerated() {
            let identifier = "bad\(index)"
            #expect(
                store.addRaw([
                    kSecAttrService as String: identifier, kSecAttrAccount as String: identifier,
                    kSecValueData as String: data,
                ]) == errSecSuccess)
            #expect(
                thrownStatus { try KeychainObjects.object(forIdentifier: identifier, in: store.keychain) }
                    == errSecDecode, "\(name)")
            #expect(
                thrownStatus {
                    try KeychainObjects.object(
                        ofClass: NSDictionary.self, forIdentifier: identifier, in: store.keychain)
                } == errSecDecode, "\(name), typed")
        }
    }

    @Test func everyTruncationOfAnArchiveIsAnErrorOrAValue() throws {
        let archive = try NSKeyedArchiver.archivedData(
            withRootObject: ["k": ["a", "b"], "n": 1] as NSDictionary, requiringSecureCoding: false)
        for length in stride(from: 0, to: archive.count, by: 7) {
            let identifier = "cut\(length)"
            #expect(
                store.addRaw([
                    kSecAttrService as String: identifier, kSecAttrAccount as String: identifier,
                    kSecValueData as String: archive.prefix(length),
                ]) == errSecSuccess)
            #expect(
                thrownStatus { try KeychainObjects.object(forIdentifier: identifier, in: store.keychain) }
                    == errSecDecode)
        }
    }
}

/// Keyed archives in the forms Apple's Foundation writes them (XML property lists with CF$UID references).
enum AppleArchiveFixture {
    static func archive(objects: String, root: Int = 1) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
        <key>$archiver</key><string>NSKeyedArchiver</string>
        <key>$objects</key><array><string>$null</string>\(objects)</array>
        <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>\(root)</integer></dict></dict>
        <key>$version</key><integer>100000</integer>
        </dict></plist>
        """
    }

    static func uid(_ index: Int) -> String { "<dict><key>CF$UID</key><integer>\(index)</integer></dict>" }

    static func classInfo(_ names: [String]) -> String {
        "<dict><key>$classes</key><array>" + names.map { "<string>\($0)</string>" }.joined()
            + "</array><key>$classname</key><string>\(names[0])</string></dict>"
    }

    /// {user: "alice", count: 3, when: NSDate(600000000), id: NSUUID, tags: NSMutableArray ["a", "b"]}.
    static var dictionaryXML: String {
        let keys = ["user", "count", "when", "id", "tags"]
        // 1 dictionary, 2-6 keys, 7 "alice", 8 3, 9 date, 10 uuid, 11 array, 12 "a", 13 "b",
        // 14 NSDictionary class, 15 NSDate class, 16 NSUUID class, 17 NSMutableArray class.
        let dictionary =
            "<dict><key>$class</key>\(uid(14))<key>NS.keys</key><array>" + (2...6).map(uid).joined()
            + "</array><key>NS.objects</key><array>" + (7...11).map(uid).joined() + "</array></dict>"
        let uuidBytes = Data([
            0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F,
        ]).base64EncodedString()
        let objects =
            dictionary + keys.map { "<string>\($0)</string>" }.joined() + "<string>alice</string>"
            + "<integer>3</integer>"
            + "<dict><key>$class</key>\(uid(15))<key>NS.time</key><real>600000000</real></dict>"
            + "<dict><key>$class</key>\(uid(16))<key>NS.uuidbytes</key><data>\(uuidBytes)</data></dict>"
            + "<dict><key>$class</key>\(uid(17))<key>NS.objects</key><array>\(uid(12))\(uid(13))</array></dict>"
            + "<string>a</string><string>b</string>" + classInfo(["NSDictionary", "NSObject"])
            + classInfo(["NSDate", "NSObject"]) + classInfo(["NSUUID", "NSObject"])
            + classInfo(["NSMutableArray", "NSArray", "NSObject"])
        return archive(objects: objects)
    }

    /// ``dictionaryXML`` converted to the binary property list apps store.
    static var dictionaryArchive: String {
        guard let plist = try? PropertyListSerialization.propertyList(from: Data(dictionaryXML.utf8), format: nil),
            let binary = try? PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        else { return "" }
        return binary.base64EncodedString()
    }

    static var unknownClassXML: String {
        archive(
            objects: "<dict><key>$class</key>\(uid(2))<key>name</key>\(uid(3))</dict>"
                + classInfo(["MyApp.User", "NSObject"]) + "<string>alice</string>")
    }

    static var danglingReferenceXML: String {
        archive(
            objects: "<dict><key>$class</key>\(uid(2))<key>NS.objects</key><array>\(uid(40))</array></dict>"
                + classInfo(["NSArray", "NSObject"]))
    }

    static var cycleXML: String {
        archive(
            objects: "<dict><key>$class</key>\(uid(2))<key>NS.objects</key><array>\(uid(1))</array></dict>"
                + classInfo(["NSArray", "NSObject"]))
    }
}
