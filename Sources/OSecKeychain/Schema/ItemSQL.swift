import OSecSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// SQL text and value conversion for item rows. Statement texts depend only on the class and on *which*
/// conditions are present (never on values), so the connection's statement cache serves repeated queries.
///
/// `bytes` attributes are compared and stored through `CAST(? AS BLOB)`, so a string can be bound as
/// TEXT (no copy into `Data`) and still compares byte-exactly with BLOB values.
enum ItemSQL {
    /// Engine columns selected before the attribute columns, in this order.
    static let engineColumns = ["id", "persistref", "agrp", "pdmn", "sync", "cdat", "mdat", "strs", "secret"]
    /// The 1-based INSERT parameters of the row id and of the sealed secret (their places in ``engineColumns``).
    static let rowIDParameter = (engineColumns.firstIndex(of: "id") ?? 0) + 1
    static let secretParameter = (engineColumns.firstIndex(of: "secret") ?? 0) + 1
    static let firstAttributeColumn: Int32 = 9

    /// Per-class SQL, indexed by ``ItemClass/ordinal``.
    private struct ClassSQL {
        let selectAll: String
        let selectEngine: String
        let insert: String
        /// `"key" = ?` or `"key" = CAST(? AS BLOB)` per attribute index.
        let conditions: [String]
    }

    private static let perClass: [ClassSQL] = ItemClass.all.map { c in
        let attributeColumns = c.attributes.map { "\"\($0.key)\"" }
        let placeholders = c.attributes.map(placeholder(for:))
        let insertColumns = engineColumns + attributeColumns
        let insertValues = Array(repeating: "?", count: engineColumns.count) + placeholders
        // Without the attributes, a find still reads the primary-key columns: the secret is bound to them.
        let primaryKeyColumns = c.primaryKeyIndices.map { attributeColumns[$0] }
        // `SELECT *` reads the columns in table order, which is engineColumns + attributes (see
        // KeychainSchema.createTable; migrations only append). It keeps the SQL text short, which matters
        // because the statement cache hashes it on every lookup.
        return ClassSQL(
            selectAll: "SELECT * FROM \"\(c.code)\"",
            selectEngine: "SELECT \((engineColumns + primaryKeyColumns).joined(separator: ", ")) FROM \"\(c.code)\"",
            insert:
                "INSERT INTO \"\(c.code)\" (\(insertColumns.joined(separator: ", "))) VALUES "
                + "(\(insertValues.joined(separator: ", ")))",
            conditions: zip(attributeColumns, placeholders).map { "\($0) = \($1)" })
    }

    /// The parameter placeholder for an attribute's column.
    static func placeholder(for descriptor: AttributeDescriptor) -> String {
        descriptor.kind == .bytes ? "CAST(? AS BLOB)" : "?"
    }

    /// `SELECT <engine columns>, <attribute columns> FROM <class table>`, or without the attributes
    /// `SELECT <engine columns>, <primary-key columns> FROM <class table>`.
    static func selectPrefix(_ itemClass: ItemClass, withAttributes: Bool) -> String {
        withAttributes ? perClass[itemClass.ordinal].selectAll : perClass[itemClass.ordinal].selectEngine
    }

    /// The INSERT of every column of the class, the row id included (it is bound into the sealed secret, so it is
    /// chosen before the row is written). Bindings: ``engineColumns`` order, then the attributes.
    static func insert(_ itemClass: ItemClass) -> String { perClass[itemClass.ordinal].insert }

    // MARK: Values

    /// Converts an attribute value to its column value; `isString` tells whether a `bytes` attribute was a string.
    static func columnValue(
        _ value: AttributeValue, for descriptor: AttributeDescriptor
    )
        throws(KeychainStoreError) -> (value: SQLiteValue, isString: Bool)
    {
        switch (descriptor.kind, value) {
        case (.bytes, .string(let s)): return (.text(s), true)  // CAST(? AS BLOB) in the SQL
        case (.bytes, .data(let d)): return (.blob(d), false)
        case (.number, .integer(let i)): return (.integer(i), false)
        case (.number, .double(let d)): return (.real(d), false)
        case (.number, .string(let s)): return (.text(s), false)
        case (.date, .date(let d)): return (.real(d.timeIntervalSinceReferenceDate), false)
        default:
            throw KeychainStoreError(.param, "wrong value type for attribute \(descriptor.key)")
        }
    }

    /// The value stored for an omitted primary-key attribute.
    static func defaultValue(for descriptor: AttributeDescriptor) -> SQLiteValue {
        switch descriptor.kind {
        case .bytes: .blob(Data())
        case .number: .integer(0)
        case .date: .real(0)
        }
    }

    /// The attribute value an omitted primary-key attribute reads back as.
    static func defaultAttribute(for descriptor: AttributeDescriptor) -> AttributeValue {
        switch descriptor.kind {
        case .bytes: .data(Data())
        case .number: .integer(0)
        case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
        }
    }

    /// Validates `attributes` against the class; returns them with their attribute index, in index order.
    static func validated(
        _ attributes: [String: AttributeValue], of itemClass: ItemClass
    )
        throws(KeychainStoreError) -> [(index: Int, descriptor: AttributeDescriptor, value: AttributeValue)]
    {
        var result: [(index: Int, descriptor: AttributeDescriptor, value: AttributeValue)] = []
        result.reserveCapacity(attributes.count)
        for (key, value) in attributes {
            guard let index = itemClass.index(of: key) else {
                throw KeychainStoreError(.noSuchAttribute, "class \(itemClass.code) has no attribute \(key)")
            }
            result.append((index, itemClass.attributes[index], value))
        }
        if result.count > 1 { result.sort { $0.index < $1.index } }
        return result
    }

    // MARK: WHERE clauses

    /// Which conditions a query has (not their values): the key of the SQL-text cache.
    struct QueryShape: Hashable, Sendable {
        var ordinal = 0
        var attributeMask: UInt64 = 0
        var groupCount = -1
        var hasAccessibility = false
        var hasSync = false
        var refCount = -1
        var rowIDCount = -1
    }

    /// The shape of `query` and its bindings, in the order ``whereClause(_:)`` places the conditions.
    static func shapeAndBindings(_ query: ItemQuery) throws(KeychainStoreError) -> (QueryShape, [SQLiteValue]) {
        var shape = QueryShape(ordinal: query.itemClass.ordinal)
        var bindings: [SQLiteValue] = []
        // attributes, groups, accessibility, sync, refs, row ids, and the LIMIT a find appends: one allocation.
        bindings.reserveCapacity(
            query.attributes.count + (query.accessGroups?.count ?? 0) + (query.persistentRefs?.count ?? 0)
                + (query.rowIDs?.count ?? 0) + 3)
        for (index, descriptor, value) in try validated(query.attributes, of: query.itemClass) {
            shape.attributeMask |= 1 << UInt64(index)
            bindings.append(try columnValue(value, for: descriptor).value)
        }
        if let groups = query.accessGroups {
            shape.groupCount = groups.count
            for group in groups { bindings.append(.text(group)) }
        }
        if let accessibility = query.accessibility {
            shape.hasAccessibility = true
            bindings.append(.text(accessibility.rawValue))
        }
        if let sync = query.isSynchronizable {
            shape.hasSync = true
            bindings.append(.integer(sync ? 1 : 0))
        }
        if let refs = query.persistentRefs {
            guard refs.allSatisfy({ $0.itemClass == query.itemClass }) else {
                throw KeychainStoreError(.param, "persistent ref of another class in a \(query.itemClass.code) query")
            }
            shape.refCount = refs.count
            for ref in refs { bindings.append(.blob(ref.uuid)) }
        }
        if let rowIDs = query.rowIDs {
            shape.rowIDCount = rowIDs.count
            for id in rowIDs { bindings.append(.integer(id)) }
        }
        return (shape, bindings)
    }

    /// The WHERE clause (with leading space, or empty) for a query shape.
    static func whereClause(_ shape: QueryShape) -> String {
        let conditions = perClass[shape.ordinal].conditions
        var parts: [String] = []
        for index in conditions.indices where shape.attributeMask & (1 << UInt64(index)) != 0 {
            parts.append(conditions[index])
        }
        if shape.groupCount >= 0 { parts.append(inList("agrp", shape.groupCount)) }
        if shape.hasAccessibility { parts.append("pdmn = ?") }
        if shape.hasSync { parts.append("sync = ?") }
        if shape.refCount >= 0 { parts.append(inList("persistref", shape.refCount)) }
        if shape.rowIDCount >= 0 { parts.append(inList("id", shape.rowIDCount)) }
        return parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND ")
    }

    /// The WHERE clause and bindings for `query` (uncached; for writes).
    static func whereClause(_ query: ItemQuery) throws(KeychainStoreError) -> (sql: String, bindings: [SQLiteValue]) {
        let (shape, bindings) = try shapeAndBindings(query)
        return (whereClause(shape), bindings)
    }

    private static func inList(_ column: String, _ count: Int) -> String {
        count == 0 ? "0" : "\(column) IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))"
    }

    // MARK: Rows

    /// Decodes the current row of a statement built from ``selectPrefix(_:withAttributes:)``.
    /// Hot path of every find: reads columns with their storage class directly, allocation-light.
    static func decodeRow(
        _ row: Statement, itemClass: ItemClass, keyRing: KeyRing,
        withAttributes: Bool
    ) throws(KeychainStoreError) -> KeychainItem {
        guard let uuid = row.data(at: 1), uuid.count == PersistentRef.uuidLength,
            let agrp = row.string(at: 2), let pdmnText = row.string(at: 3),
            let accessibility = Accessibility(rawValue: pdmnText)
        else {
            throw KeychainStoreError(.invalidKeychain, "malformed \(itemClass.code) row")
        }
        var attributes = ItemAttributes()
        if withAttributes {
            attributes = ItemAttributes(reservingCapacity: 12)
            let stringMask = UInt64(bitPattern: row.int64(at: 7))
            var column = firstAttributeColumn
            var bit: UInt64 = 1
            for descriptor in itemClass.attributes {
                defer {
                    column += 1
                    bit &<<= 1
                }
                let value: AttributeValue
                switch row.columnType(at: column) {
                case .null:
                    continue
                case .blob:
                    if stringMask & bit != 0 {
                        value = .string(row.string(at: column) ?? "")
                    } else {
                        value = .data(row.data(at: column) ?? Data())
                    }
                case .integer:
                    let number = row.int64(at: column)
                    value =
                        descriptor.kind == .date
                        ? .date(Date(timeIntervalSinceReferenceDate: Double(number))) : .integer(number)
                case .real:
                    let number = row.double(at: column)
                    value =
                        descriptor.kind == .date ? .date(Date(timeIntervalSinceReferenceDate: number)) : .double(number)
                case .text:
                    let text = row.string(at: column) ?? ""
                    value = descriptor.kind == .bytes && stringMask & bit == 0 ? .data(Data(text.utf8)) : .string(text)
                }
                attributes.appendUnique(descriptor.key, value)
            }
        }
        let rowID = row.int64(at: 0)
        let isSynchronizable = row.int64(at: 4) != 0
        var secret: SealedSecret?
        if let blob = row.data(at: 8) {
            // The associated data straight from the columns (no per-value copies): this runs on every find miss.
            let protectionClass = accessibility.protectionClass
            var aad: [UInt8] = []
            aad.reserveCapacity(160)
            SecretBinding.appendHeader(
                prefix: keyRing.itemAADPrefix, itemClass: itemClass, rowID: rowID, uuid: uuid,
                protectionClass: protectionClass, isSynchronizable: isSynchronizable, accessGroup: agrp, to: &aad)
            for (position, index) in itemClass.primaryKeyIndices.enumerated() {
                BindingEncoding.appendColumn(
                    row, at: firstAttributeColumn + Int32(withAttributes ? index : position),
                    kind: itemClass.attributes[index].kind, to: &aad)
            }
            secret = SealedSecret(
                blob: blob, itemClass: itemClass, rowID: rowID, protectionClass: protectionClass, keyRing: keyRing,
                associatedData: Data(aad))
        }
        return KeychainItem(
            itemClass: itemClass, rowID: rowID,
            persistentRef: PersistentRef(itemClass: itemClass, validatedUUID: uuid), attributes: attributes,
            accessGroup: agrp, accessibility: accessibility, isSynchronizable: isSynchronizable,
            creationDate: Date(timeIntervalSinceReferenceDate: row.double(at: 5)),
            modificationDate: Date(timeIntervalSinceReferenceDate: row.double(at: 6)),
            secret: secret)
    }
}
