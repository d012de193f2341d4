import Foundation
import OSecSQLite
import Testing

@testable import OSecKeychain

/// The associated data a secret is sealed with is part of the file format: every keychain written so far must
/// keep opening. These tests spell the version-2 layout out byte by byte (independently of the encoder), so a
/// faster encoder can never change it unnoticed, and check that a row decoded by a find gives the same bytes.
@Suite struct AssociatedDataLayoutTests {
    let dir = TestDirectory()

    static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (width - 1 - $0))) }
    }

    /// prefix ‖ class code ‖ row id (8) ‖ uuid ‖ class letter ‖ sync ‖ len(agrp) (4) ‖ agrp ‖ primary key values.
    static func expectedAAD(
        prefix: [UInt8], rowID: UInt64, uuid: [UInt8], classLetter: Character, sync: UInt8, group: String,
        primaryKey: [UInt8]
    ) -> Data {
        var bytes = prefix + Array("genp".utf8) + bigEndian(rowID, width: 8) + uuid
        bytes += [UInt8(ascii: classLetter.unicodeScalars.first ?? "?"), sync]
        bytes += bigEndian(UInt64(group.utf8.count), width: 4) + Array(group.utf8) + primaryKey
        return Data(bytes)
    }

    /// genp's primary key: acct, svce, then vwht, tkid, musr, ggrp (bytes columns: 'b' ‖ length ‖ bytes).
    static func genpPrimaryKey(account: String, service: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [account, service, "", "", "", ""] {
            bytes += [UInt8(ascii: "b")] + bigEndian(UInt64(value.utf8.count), width: 4) + Array(value.utf8)
        }
        return bytes
    }

    @Test func bindingEncodesEveryValueKindAsDocumented() {
        var bytes: [UInt8] = []
        BindingEncoding.append(.null, kind: .bytes, to: &bytes)
        BindingEncoding.append(.integer(-2), kind: .number, to: &bytes)
        BindingEncoding.append(.real(443), kind: .number, to: &bytes)  // integral REAL encodes as INTEGER
        BindingEncoding.append(.real(0.5), kind: .number, to: &bytes)
        BindingEncoding.append(.text("hé"), kind: .bytes, to: &bytes)  // text in a bytes column: its UTF-8
        BindingEncoding.append(.text("x"), kind: .number, to: &bytes)
        BindingEncoding.append(.blob(Data([1, 2])), kind: .bytes, to: &bytes)
        var expected: [UInt8] = [UInt8(ascii: "n")]
        expected += [UInt8(ascii: "i")] + Self.bigEndian(UInt64(bitPattern: -2), width: 8)
        expected += [UInt8(ascii: "i")] + Self.bigEndian(443, width: 8)
        expected += [UInt8(ascii: "r")] + Self.bigEndian((0.5 as Double).bitPattern, width: 8)
        expected += [UInt8(ascii: "b")] + Self.bigEndian(3, width: 4) + Array("hé".utf8)
        expected += [UInt8(ascii: "t")] + Self.bigEndian(1, width: 4) + [UInt8(ascii: "x")]
        expected += [UInt8(ascii: "b")] + Self.bigEndian(2, width: 4) + [1, 2]
        #expect(bytes == expected)
    }

    @Test func sealedAndFoundSecretsUseTheDocumentedAssociatedData() throws {
        let store = try KeychainStore.create(at: dir.keychainPath(), password: nil, kdf: .testing)
        let added = try store.add(genp(account: "alice", service: "bank.example", secret: "pw"))
        let uuid = Array(added.persistentRef.uuid)
        let expected = Self.expectedAAD(
            prefix: store.keyRing.itemAADPrefix, rowID: UInt64(added.rowID), uuid: uuid,
            classLetter: Character(added.accessibility.protectionClass.rawValue), sync: 0, group: added.accessGroup,
            primaryKey: Self.genpPrimaryKey(account: "alice", service: "bank.example"))
        #expect(try #require(added.secret).associatedData == expected)
        // Decoded from the row (both projections), the same bytes; and the secret opens with them.
        for withAttributes in [false, true] {
            store.cachesFinds = false
            var query = ItemQuery(
                itemClass: .genericPassword, attributes: ["acct": .string("alice"), "svce": .string("bank.example")],
                limit: 1)
            query.includesAttributes = withAttributes
            let found = try #require(try store.find(query).first?.secret)
            #expect(found.associatedData == expected)
            #expect(try found.open() == Data("pw".utf8))
        }
    }
}
