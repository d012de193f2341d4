#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A keychain item class (`genp`, `inet`, `cert`, `keys`) and its attribute schema.
///
/// Each class is one SQL table (named by ``code``) with one column per attribute in ``attributes``,
/// plus the engine's own columns (row id, persistent ref, `agrp`, `pdmn`, `sync`, `cdat`, `mdat`, the
/// sealed secret). The primary-key attributes plus `agrp` and `sync` form a UNIQUE constraint: Apple's
/// uniqueness rule. The attribute lists follow Apple's data-protection schema (`SecItemSchema.c`); the
/// engine knows nothing about what the attributes mean.
package struct ItemClass: Sendable, CustomStringConvertible {
    // One reference-counted box, so passing an ItemClass around costs one retain.
    private final class Storage: Sendable {
        let code: String
        let codeBytes: Data
        let attributes: [AttributeDescriptor]
        let indexedAttributes: [String]
        let ordinal: Int
        let byKey: [String: Int]
        let primaryKeyIndices: [Int]

        init(code: String, attributes: [AttributeDescriptor], indexedAttributes: [String], ordinal: Int) {
            var map: [String: Int] = [:]
            for (index, descriptor) in attributes.enumerated() { map[descriptor.key] = index }
            self.code = code
            self.codeBytes = Data(code.utf8)
            self.attributes = attributes
            self.indexedAttributes = indexedAttributes
            self.ordinal = ordinal
            self.byKey = map
            self.primaryKeyIndices = attributes.indices.filter { attributes[$0].isPrimaryKey }
        }
    }

    private let storage: Storage

    /// The 4-character class code, also the table name.
    package var code: String { storage.code }
    /// The class code as ASCII bytes (bound into secrets' associated data).
    var codeBytes: Data { storage.codeBytes }
    /// Every attribute the class stores, class-specific first, then the ones common to all classes.
    package var attributes: [AttributeDescriptor] { storage.attributes }
    /// Attributes (besides the unique key) that get their own index because queries often use them alone.
    package var indexedAttributes: [String] { storage.indexedAttributes }
    /// Position in ``all``; lets per-class tables be arrays instead of dictionaries.
    var ordinal: Int { storage.ordinal }

    private init(ordinal: Int, code: String, attributes specific: [AttributeDescriptor], indexed: [String]) {
        let all = specific + ItemClass.commonAttributes
        precondition(all.count <= 64, "the string-attribute bitmask has 64 bits")
        storage = Storage(code: code, attributes: all, indexedAttributes: indexed, ordinal: ordinal)
    }

    /// The class with this code, or `nil`.
    package init?(code: String) {
        guard let found = ItemClass.all.first(where: { $0.code == code }) else { return nil }
        self = found
    }

    /// The descriptor for `key`, or `nil` when the class has no such attribute.
    package func descriptor(for key: String) -> AttributeDescriptor? {
        storage.byKey[key].map { storage.attributes[$0] }
    }

    /// The position of `key` in ``attributes``.
    func index(of key: String) -> Int? { storage.byKey[key] }

    /// The primary-key attribute keys (without the engine's `agrp` and `sync`, which are always part of it).
    package var primaryKey: [String] { attributes.filter(\.isPrimaryKey).map(\.key) }

    /// The positions in ``attributes`` of the primary-key attributes, in attribute order: the values a sealed
    /// secret is bound to (with `agrp`, `sync` and the row's identity, see ``SecretBinding``).
    var primaryKeyIndices: [Int] { storage.primaryKeyIndices }

    package var description: String { code }

    /// All stored classes.
    package static let all: [ItemClass] = [.genericPassword, .internetPassword, .certificate, .key]

    // MARK: Schemas
    // The order of `attributes` is part of the file format (bit i of a row's `strs` mask is attribute i):
    // append only, at the very end, with a migration adding the column.

    /// Attributes every class has (besides agrp/pdmn/sync/cdat/mdat, which are engine fields).
    static let commonAttributes: [AttributeDescriptor] = [
        .init("vwht", .bytes, primaryKey: true), .init("tkid", .bytes, primaryKey: true),
        .init("musr", .bytes, primaryKey: true), .init("ggrp", .bytes, primaryKey: true),
        .init("tomb", .number), .init("accc", .bytes), .init("sha1", .bytes),
    ]

    private static let passwordCommon: [AttributeDescriptor] = [
        .init("desc", .bytes), .init("icmt", .bytes), .init("labl", .bytes), .init("alis", .bytes),
        .init("prot", .bytes), .init("crtr", .number), .init("type", .number), .init("scrp", .number),
        .init("invi", .number), .init("nega", .number), .init("cusi", .number),
    ]

    /// `genp`: unique on acct, svce.
    package static let genericPassword = ItemClass(
        ordinal: 0, code: "genp",
        attributes: [
            .init("acct", .bytes, primaryKey: true), .init("svce", .bytes, primaryKey: true),
            .init("gena", .bytes),
        ] + passwordCommon,
        indexed: ["svce"])

    /// `inet`: unique on acct, sdmn, srvr, ptcl, atyp, port, path.
    package static let internetPassword = ItemClass(
        ordinal: 1, code: "inet",
        attributes: [
            .init("acct", .bytes, primaryKey: true), .init("sdmn", .bytes, primaryKey: true),
            .init("srvr", .bytes, primaryKey: true), .init("ptcl", .number, primaryKey: true),
            .init("atyp", .bytes, primaryKey: true), .init("port", .number, primaryKey: true),
            .init("path", .bytes, primaryKey: true),
        ] + passwordCommon,
        indexed: ["srvr"])

    /// `cert`: unique on ctyp, issr, slnr.
    package static let certificate = ItemClass(
        ordinal: 2, code: "cert",
        attributes: [
            .init("issr", .bytes, primaryKey: true), .init("slnr", .bytes, primaryKey: true),
            .init("ctyp", .number, primaryKey: true), .init("cenc", .number),
            .init("labl", .bytes), .init("alis", .bytes), .init("subj", .bytes),
            .init("skid", .bytes), .init("pkhh", .bytes),
        ],
        indexed: ["pkhh", "subj", "skid", "labl"])

    /// `keys`: unique on kcls, klbl, atag, crtr, type, bsiz, esiz, sdat, edat.
    package static let key = ItemClass(
        ordinal: 3, code: "keys",
        attributes: [
            .init("klbl", .bytes, primaryKey: true), .init("atag", .bytes, primaryKey: true),
            .init("kcls", .number, primaryKey: true), .init("crtr", .number, primaryKey: true),
            .init("type", .number, primaryKey: true), .init("bsiz", .number, primaryKey: true),
            .init("esiz", .number, primaryKey: true), .init("sdat", .date, primaryKey: true),
            .init("edat", .date, primaryKey: true),
            .init("labl", .bytes), .init("alis", .bytes), .init("perm", .number), .init("priv", .number),
            .init("modi", .number),
        ]
            + ["sens", "asen", "extr", "next", "encr", "decr", "drve", "sign", "vrfy", "snrc", "vyrc", "wrap", "unwp"]
            .map { AttributeDescriptor($0, .number) },
        indexed: ["atag", "labl"])
}

extension ItemClass: Hashable {
    package static func == (lhs: ItemClass, rhs: ItemClass) -> Bool {
        lhs.storage === rhs.storage || lhs.code == rhs.code
    }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
