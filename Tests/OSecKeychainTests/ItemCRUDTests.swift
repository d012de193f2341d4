import Foundation
import Testing

@testable import OSecKeychain

@Suite struct ItemCRUDTests {
    let dir = TestDirectory()

    @Test func addFindUpdateDeleteGenericPassword() throws {
        let store = try KeychainStore.makeTest(in: dir)
        let added = try store.add(genp(account: "alice", service: "mail", secret: "s3cret", label: "Mail"))
        #expect(added.persistentRef.data.count == 20)
        #expect(added.persistentRef.data.prefix(4) == Data("genp".utf8))
        #expect(added.attributes["acct"] == .string("alice"))
        #expect(added.attributes["tkid"] == .data(Data()))  // omitted primary-key attribute → default

        let found = try store.find(ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("mail")]))
        #expect(found.count == 1)
        let item = try #require(found.first)
        #expect(item.attributes["acct"] == .string("alice"))
        #expect(item.attributes["labl"] == .string("Mail"))
        #expect(item.attributes["desc"] == nil)
        #expect(item.accessGroup == "test.group")
        #expect(item.accessibility == .whenUnlocked)
        #expect(item.isSynchronizable == false)
        #expect(item.rowID == added.rowID)
        #expect(try item.secret?.open() == Data("s3cret".utf8))

        Thread.sleep(forTimeInterval: 0.01)
        let updated = try store.update(
            ItemQuery(persistentRef: item.persistentRef),
            with: ItemChanges(
                attributes: ["labl": .data(Data("L2".utf8))],
                secret: Data("n3w".utf8)))
        #expect(updated == 1)
        let after = try #require(try store.find(persistentRef: item.persistentRef))
        #expect(after.rowID == item.rowID)
        #expect(after.persistentRef == item.persistentRef)
        #expect(after.attributes["labl"] == .data(Data("L2".utf8)))
        #expect(after.attributes["acct"] == .string("alice"))
        #expect(after.creationDate == item.creationDate)
        #expect(after.modificationDate > item.modificationDate)
        #expect(try after.secret?.open() == Data("n3w".utf8))

        #expect(try store.delete(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("alice")])) == 1)
        #expect(try store.find(persistentRef: item.persistentRef) == nil)
        #expect(try store.delete(ItemQuery(itemClass: .genericPassword)) == 0)
    }

    @Test func uniquenessPerClassIncludingDefaults() throws {
        let store = try KeychainStore.makeTest(in: dir)
        // genp: acct + svce (+ agrp, sync). Omitted acct counts as empty.
        _ = try store.add(NewItem(itemClass: .genericPassword, attributes: ["svce": .string("s")]))
        #expect(
            expectCode(.duplicateItem) {
                _ = try store.add(
                    NewItem(itemClass: .genericPassword, attributes: ["svce": .string("s"), "acct": .data(Data())]))
            })
        // Same bytes as String or Data collide (bytes-exact matching).
        _ = try store.add(genp(account: "a", service: "s"))
        #expect(
            expectCode(.duplicateItem) {
                _ = try store.add(
                    NewItem(
                        itemClass: .genericPassword,
                        attributes: ["acct": .data(Data("a".utf8)), "svce": .string("s")],
                        accessGroup: "test.group"))
            })
        // Non-key attributes do not matter; agrp and sync do.
        _ = try store.add(genp(account: "a", service: "s", group: "other.group"))
        _ = try store.add(
            NewItem(
                itemClass: .genericPassword, attributes: ["acct": .string("a"), "svce": .string("s")],
                accessGroup: "test.group", isSynchronizable: true))
        #expect(expectCode(.duplicateItem) { _ = try store.add(genp(account: "a", service: "s", label: "different")) })

        // inet: acct, sdmn, srvr, ptcl, atyp, port, path.
        let inet: [String: AttributeValue] = [
            "srvr": .string("example.com"), "ptcl": .string("htps"), "port": .integer(443),
            "acct": .string("bob"),
        ]
        _ = try store.add(NewItem(itemClass: .internetPassword, attributes: inet, secret: Data("pw".utf8)))
        #expect(
            expectCode(.duplicateItem) { _ = try store.add(NewItem(itemClass: .internetPassword, attributes: inet)) })
        var other = inet
        other["port"] = .integer(8443)
        _ = try store.add(NewItem(itemClass: .internetPassword, attributes: other))
        #expect(
            try store.find(ItemQuery(itemClass: .internetPassword, attributes: ["ptcl": .string("htps")])).count == 2)
        #expect(try store.find(ItemQuery(itemClass: .internetPassword, attributes: ["port": .integer(443)])).count == 1)
        #expect(try store.find(ItemQuery(itemClass: .internetPassword, attributes: ["port": .double(443)])).count == 1)

        // cert: ctyp, issr, slnr.
        let cert: [String: AttributeValue] = [
            "ctyp": .integer(3), "issr": .data(Data([0x30, 1])), "slnr": .data(Data([1])),
            "subj": .data(Data([0x30, 2])), "pkhh": .data(Data(repeating: 7, count: 20)),
        ]
        let c = try store.add(NewItem(itemClass: .certificate, attributes: cert, secret: Data([0x30, 0x82])))
        #expect(c.accessibility == .always)  // Apple's default for certificates
        var sameKey = cert
        sameKey["subj"] = .data(Data([0x30, 3]))
        #expect(expectCode(.duplicateItem) { _ = try store.add(NewItem(itemClass: .certificate, attributes: sameKey)) })
        var otherSerial = cert
        otherSerial["slnr"] = .data(Data([2]))
        _ = try store.add(NewItem(itemClass: .certificate, attributes: otherSerial))

        // keys: kcls, klbl, atag, crtr, type, bsiz, esiz, sdat, edat.
        let key: [String: AttributeValue] = [
            "kcls": .integer(1), "klbl": .data(Data(repeating: 7, count: 20)),
            "type": .integer(73), "bsiz": .integer(256), "priv": .integer(1),
            "sdat": .date(Date(timeIntervalSinceReferenceDate: 0)),
        ]
        _ = try store.add(NewItem(itemClass: .key, attributes: key, secret: Data(repeating: 9, count: 32)))
        var sameKeyOtherUsage = key
        sameKeyOtherUsage["sign"] = .integer(1)
        #expect(
            expectCode(.duplicateItem) { _ = try store.add(NewItem(itemClass: .key, attributes: sameKeyOtherUsage)) })
        var publicKey = key
        publicKey["kcls"] = .integer(0)
        publicKey["priv"] = .integer(0)
        _ = try store.add(NewItem(itemClass: .key, attributes: publicKey))
        // The identity join the facade will do: cert.pkhh == keys.klbl.
        let pkhh = try #require(try store.find(ItemQuery(itemClass: .certificate, limit: 1)).first?.attributes["pkhh"])
        let keys = try store.find(ItemQuery(itemClass: .key, attributes: ["klbl": pkhh, "priv": .integer(1)]))
        #expect(keys.count == 1)
        #expect(keys.first?.attributes["sdat"] == .date(Date(timeIntervalSinceReferenceDate: 0)))
    }

    @Test func updateThatCollidesIsRejectedAndChangesNothing() throws {
        let store = try KeychainStore.makeTest(in: dir)
        _ = try store.add(genp(account: "a", service: "s"))
        let b = try store.add(genp(account: "b", service: "s"))
        #expect(
            expectCode(.duplicateItem) {
                _ = try store.update(
                    ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("b")]),
                    with: ItemChanges(attributes: ["acct": .string("a")]))
            })
        #expect(try store.find(persistentRef: b.persistentRef)?.attributes["acct"] == .string("b"))
        // An update of several rows is all or nothing.
        #expect(
            expectCode(.duplicateItem) {
                _ = try store.update(
                    ItemQuery(itemClass: .genericPassword), with: ItemChanges(attributes: ["acct": .string("z")]))
            })
        #expect(try store.find(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("z")])).isEmpty)
        #expect(
            try store.update(
                ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("none")]),
                with: ItemChanges(attributes: ["labl": .string("x")])) == 0)
    }

    @Test func queriesByGroupsSyncAccessibilityRowsAndLimit() throws {
        let store = try KeychainStore.makeTest(in: dir)
        var refs: [PersistentRef] = []
        for n in 0..<10 {
            let item = try store.add(
                genp(
                    account: "u\(n)", service: "svc", accessibility: n % 2 == 0 ? .whenUnlocked : .always,
                    group: n < 5 ? "g1" : "g2"))
            refs.append(item.persistentRef)
        }
        let base = ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("svc")])
        #expect(try store.find(base).count == 10)
        var q = base
        q.limit = 3
        #expect(try store.find(q).map { $0.attributes["acct"] } == [.string("u0"), .string("u1"), .string("u2")])
        q = base
        q.accessGroups = ["g2"]
        #expect(try store.find(q).count == 5)
        q.accessGroups = []
        #expect(try store.find(q).isEmpty)
        q = base
        q.accessibility = .always
        #expect(try store.find(q).count == 5)
        q = base
        q.isSynchronizable = true
        #expect(try store.find(q).isEmpty)
        q = base
        q.persistentRefs = [refs[3], refs[7]]
        let two = try store.find(q)
        #expect(two.map(\.persistentRef) == [refs[3], refs[7]])
        q = ItemQuery(itemClass: .genericPassword, rowIDs: two.map(\.rowID))
        #expect(try store.find(q).count == 2)
        // Persistent refs round-trip through their 20-byte form.
        let parsed = try PersistentRef(data: refs[4].data)
        #expect(try store.find(persistentRef: parsed)?.attributes["acct"] == .string("u4"))
        #expect(expectCode(.param) { _ = try PersistentRef(data: Data("genp".utf8) + Data(repeating: 0, count: 3)) })
        #expect(expectCode(.param) { _ = try PersistentRef(data: Data("nope".utf8) + Data(repeating: 0, count: 16)) })
        #expect(
            expectCode(.param) {
                _ = try store.find(ItemQuery(itemClass: .key, persistentRefs: [refs[0]]))
            })
        // Delete by group removes exactly those.
        #expect(try store.delete(ItemQuery(itemClass: .genericPassword, accessGroups: ["g1"])) == 5)
        #expect(try store.find(base).count == 5)
    }

    @Test func unknownAttributesAndWrongTypesAreRejected() throws {
        let store = try KeychainStore.makeTest(in: dir)
        #expect(
            expectCode(.noSuchAttribute) {
                _ = try store.add(NewItem(itemClass: .internetPassword, attributes: ["svce": .string("x")]))
            })
        #expect(
            expectCode(.noSuchAttribute) {
                _ = try store.find(ItemQuery(itemClass: .certificate, attributes: ["acct": .string("x")]))
            })
        #expect(
            expectCode(.param) {
                _ = try store.add(NewItem(itemClass: .key, attributes: ["bsiz": .date(Date())]))
            })
        #expect(
            expectCode(.param) {
                _ = try store.add(NewItem(itemClass: .genericPassword, attributes: ["acct": .integer(1)]))
            })
        #expect(Accessibility(rawValue: "zz") == nil)
        #expect(Accessibility(rawValue: "cku")?.protectionClass == .afterFirstUnlock)
    }

    @Test func addManyIsAtomic() throws {
        let store = try KeychainStore.makeTest(in: dir)
        let items = try store.add(contentsOf: [genp(account: "1", service: "s"), genp(account: "2", service: "s")])
        #expect(items.count == 2)
        #expect(
            expectCode(.duplicateItem) {
                _ = try store.add(contentsOf: [genp(account: "3", service: "s"), genp(account: "1", service: "s")])
            })
        #expect(try store.find(ItemQuery(itemClass: .genericPassword)).count == 2)
    }

    @Test func accessibilityChangeReSealsSecret() throws {
        let store = try KeychainStore.makeTest(in: dir)
        let item = try store.add(genp(account: "a", service: "s", secret: "pw", accessibility: .whenUnlocked))
        _ = try store.update(ItemQuery(persistentRef: item.persistentRef), with: ItemChanges(accessibility: .always))
        try store.lock()
        let after = try #require(try store.find(persistentRef: item.persistentRef))
        #expect(after.accessibility == .always)
        #expect(try after.secret?.open() == Data("pw".utf8))
    }
}

@Suite struct ItemDecodingTests {
    let dir = TestDirectory()

    @Test func stringAndDataTypesArePreservedAndMatchEachOther() throws {
        let store = try KeychainStore.makeTest(in: dir)
        _ = try store.add(
            NewItem(
                itemClass: .genericPassword,
                attributes: [
                    "acct": .string("a"), "svce": .data(Data("s".utf8)),
                    "gena": .data(Data([0, 1])), "labl": .string("L"),
                    "crtr": .integer(0x6170_706C), "invi": .integer(1),
                ]))
        let item = try #require(
            try store.find(
                ItemQuery(
                    itemClass: .genericPassword,
                    attributes: [
                        "acct": .data(Data("a".utf8)),
                        "svce": .string("s"),
                    ])
            ).first)
        #expect(item.attributes["acct"] == .string("a"))
        #expect(item.attributes["svce"] == .data(Data("s".utf8)))
        #expect(item.attributes["gena"] == .data(Data([0, 1])))
        #expect(item.attributes["labl"] == .string("L"))
        #expect(item.attributes["crtr"] == .integer(0x6170_706C))
        _ = try store.update(
            ItemQuery(persistentRef: item.persistentRef),
            with: ItemChanges(attributes: ["acct": .data(Data("a".utf8)), "svce": .string("s")]))
        let after = try #require(try store.find(persistentRef: item.persistentRef))
        #expect(after.attributes["acct"] == .data(Data("a".utf8)))
        #expect(after.attributes["svce"] == .string("s"))
        #expect(after.attributes["labl"] == .string("L"))

        var secretOnly = ItemQuery(persistentRef: item.persistentRef)
        secretOnly.includesAttributes = false
        let bare = try #require(try store.find(secretOnly).first)
        #expect(bare.attributes.isEmpty)
        #expect(bare.persistentRef == item.persistentRef)
    }
}
