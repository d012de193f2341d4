import Foundation
import OSecSQLite

extension KeychainStore {
    /// Adds one item in its own IMMEDIATE transaction; returns it as stored (row id, persistent ref, dates).
    /// - Throws: `duplicateItem` on a uniqueness collision, `noSuchAttribute` / `param` for bad attributes,
    ///   `interactionNotAllowed` when the secret's protection class key is locked away.
    package func add(_ item: NewItem) throws(KeychainStoreError) -> KeychainItem {
        let added = try add(contentsOf: [item])
        guard let first = added.first else { throw KeychainStoreError(.internal, "add returned nothing") }
        return first
    }

    /// Adds several items atomically (all or none) in one IMMEDIATE transaction.
    package func add(contentsOf items: [NewItem]) throws(KeychainStoreError) -> [KeychainItem] {
        let now = Date()
        // Validate and seal before taking the write lock.
        var rows: [(item: NewItem, uuid: Data, sealed: Data?, attributes: ItemAttributes, bindings: [SQLiteValue])] = []
        rows.reserveCapacity(items.count)
        for item in items {
            let uuid = try PasswordKDF.randomBytes(PersistentRef.uuidLength)
            let sealed = try item.secret.map { (secret) throws(KeychainStoreError) in
                try keyRing.sealSecret(
                    secret,
                    binding: SecretBinding(
                        itemClass: item.itemClass, uuid: uuid, protectionClass: item.accessibility.protectionClass))
            }
            let (bindings, stored) = try insertBindings(item, uuid: uuid, sealed: sealed, now: now)
            rows.append((item, uuid, sealed, stored, bindings))
        }
        let rowIDs = try KeychainStore.mapErrors {
            try db.transaction(.immediate) {
                try rows.map { row in
                    let itemClass = row.item.itemClass
                    try db.withStatement(keyed: insertStatements, itemClass.ordinal, sql: { ItemSQL.insert(itemClass) })
                    {
                        try $0.bind(row.bindings)
                        try $0.run()
                    }
                    let rowID = db.lastInsertRowID
                    if row.item.isSynchronizable {  // the outbox entry commits with the item
                        try syncLedger.recordChanges(db, itemClass: itemClass, uuids: [row.uuid])
                    }
                    return rowID
                }
            }
        }
        syncLedger.flush()
        var result: [KeychainItem] = []
        result.reserveCapacity(rows.count)
        for (row, rowID) in zip(rows, rowIDs) {
            let binding = SecretBinding(
                itemClass: row.item.itemClass, uuid: row.uuid,
                protectionClass: row.item.accessibility.protectionClass)
            result.append(
                KeychainItem(
                    itemClass: row.item.itemClass, rowID: rowID,
                    persistentRef: try PersistentRef(itemClass: row.item.itemClass, uuid: row.uuid),
                    attributes: row.attributes, accessGroup: row.item.accessGroup,
                    accessibility: row.item.accessibility, isSynchronizable: row.item.isSynchronizable,
                    creationDate: now, modificationDate: now,
                    secret: row.sealed.map { SealedSecret(blob: $0, binding: binding, keyRing: keyRing) }))
        }
        return result
    }

    /// Finds items matching `query` (ordered by row id, at most `query.limit`). Never decrypts: open
    /// secrets with ``SealedSecret/open()``. Works while locked.
    package func find(_ query: ItemQuery) throws(KeychainStoreError) -> [KeychainItem] {
        if let limit = query.limit, limit <= 0 { return [] }
        var (shape, bindings) = try ItemSQL.shapeAndBindings(query)
        let withAttributes = query.includesAttributes
        if let limit = query.limit { bindings.append(.integer(Int64(limit))) }
        let findShape = FindShape(query: shape, withAttributes: withAttributes, hasLimit: query.limit != nil)
        let itemClass = query.itemClass
        let keyRing = self.keyRing
        return try KeychainStore.mapErrors {
            try db.withLock {
                // The token is read before the SELECT, so a commit landing in between only costs a miss.
                // Inside a transaction on this connection its own uncommitted writes are visible to the
                // SELECT but not yet in the token: no cache then.
                let token = cachesFinds && db.isAutocommit ? db.commitToken() : nil
                if token == nil && findResults.count > 0 { findResults.removeAll() }
                let key = FindResultCache.Key(shape: findShape, bindings: bindings)
                if let token, let cached = findResults.lookup(key, token: token) { return cached }
                var items: [KeychainItem] = []
                try db.forEachRow(keyed: findStatements, findShape, sql: { FindSQL.text(for: findShape) }, bindings) {
                    row in
                    items.append(
                        try ItemSQL.decodeRow(
                            row, itemClass: itemClass, keyRing: keyRing, withAttributes: withAttributes))
                }
                if items.count > 1 { items.sort { $0.rowID < $1.rowID } }
                if token != nil { findResults.insert(items, for: key) }
                return items
            }
        }
    }

    /// Finds the item a persistent ref points to, or `nil`.
    package func find(persistentRef: PersistentRef) throws(KeychainStoreError) -> KeychainItem? {
        try find(ItemQuery(persistentRef: persistentRef)).first
    }

    /// Updates every item matching `query` in place (row id, persistent ref and `cdat` kept, `mdat`
    /// refreshed) in one IMMEDIATE transaction. Returns the number of items updated (0 = none matched).
    /// - Throws: `duplicateItem` when the change makes an item collide with another (nothing is updated);
    ///   `interactionNotAllowed` when a secret must be (re)sealed and its class key is locked away.
    package func update(_ query: ItemQuery, with changes: ItemChanges) throws(KeychainStoreError) -> Int {
        let itemClass = query.itemClass
        let (clause, bindings) = try ItemSQL.whereClause(query)
        let changed = try ItemSQL.validated(changes.attributes, of: itemClass)
        var setValues: [SQLiteValue] = []
        var assignments: [String] = []
        var changedStrings: UInt64 = 0  // bits of bytes attributes now given as strings
        var changedBytes: UInt64 = 0  // bits of every bytes attribute being set
        for (index, descriptor, value) in changed {
            let (column, isString) = try ItemSQL.columnValue(value, for: descriptor)
            assignments.append("\"\(descriptor.key)\" = \(ItemSQL.placeholder(for: descriptor))")
            setValues.append(column)
            if descriptor.kind == .bytes { changedBytes |= 1 << UInt64(index) }
            if isString { changedStrings |= 1 << UInt64(index) }
        }
        if let group = changes.accessGroup {
            assignments.append("agrp = ?")
            setValues.append(.text(group))
        }
        if let accessibility = changes.accessibility {
            assignments.append("pdmn = ?")
            setValues.append(.text(accessibility.rawValue))
        }
        if let sync = changes.isSynchronizable {
            assignments.append("sync = ?")
            setValues.append(.integer(sync ? 1 : 0))
        }
        assignments += ["strs = ?", "secret = ?", "mdat = ?"]
        let updateSQL = "UPDATE \"\(itemClass.code)\" SET \(assignments.joined(separator: ", ")) WHERE id = ?"
        let selectSQL = "SELECT id, persistref, pdmn, strs, secret FROM \"\(itemClass.code)\"" + clause
        let now = Date().timeIntervalSinceReferenceDate
        let keyRing = self.keyRing

        let updated = try KeychainStore.mapErrors {
            try db.transaction(.immediate) {
                let targets = try db.query(selectSQL, bindings) { row in
                    (
                        id: row.int64(at: 0), uuid: row.data(at: 1) ?? Data(), pdmn: row.string(at: 2) ?? "",
                        strs: UInt64(bitPattern: row.int64(at: 3)), secret: row.data(at: 4)
                    )
                }
                for target in targets {
                    guard let oldAccessibility = Accessibility(rawValue: target.pdmn) else {
                        throw KeychainStoreError(.invalidKeychain, "malformed pdmn in row \(target.id)")
                    }
                    let newClass = (changes.accessibility ?? oldAccessibility).protectionClass
                    let newBinding = SecretBinding(itemClass: itemClass, uuid: target.uuid, protectionClass: newClass)
                    var secret = target.secret
                    if let replacement = changes.secret {
                        secret = try keyRing.sealSecret(replacement, binding: newBinding)
                    } else if let blob = target.secret, newClass != oldAccessibility.protectionClass {
                        let oldBinding = SecretBinding(
                            itemClass: itemClass, uuid: target.uuid,
                            protectionClass: oldAccessibility.protectionClass)
                        var plain = try keyRing.openSecret(blob, binding: oldBinding)
                        defer { plain.resetBytes(in: 0..<plain.count) }
                        secret = try keyRing.sealSecret(plain, binding: newBinding)
                    }
                    let strings = (target.strs & ~changedBytes) | changedStrings
                    try db.run(
                        updateSQL,
                        setValues + [
                            .integer(Int64(bitPattern: strings)),
                            secret.map(SQLiteValue.blob) ?? .null,
                            .real(now),
                            .integer(target.id),
                        ])
                }
                if query.isSynchronizable != false || changes.isSynchronizable == true {
                    try syncLedger.recordChanges(db, itemClass: itemClass, uuids: targets.map(\.uuid))
                }
                return targets.count
            }
        }
        syncLedger.flush()
        return updated
    }

    /// Deletes every item matching `query` (its limit is ignored) in one IMMEDIATE transaction.
    /// Returns the number deleted (0 = none matched). Works while locked.
    package func delete(_ query: ItemQuery) throws(KeychainStoreError) -> Int {
        let (clause, bindings) = try ItemSQL.whereClause(query)
        let sql = "DELETE FROM \"\(query.itemClass.code)\"" + clause
        let deleted = try KeychainStore.mapErrors {
            try db.transaction(.immediate) {
                let synchronizable =
                    query.isSynchronizable == false
                    ? []
                    : try syncLedger.synchronizableRows(
                        db, itemClass: query.itemClass, clause: clause, bindings: bindings)
                try db.run(sql, bindings)
                let count = db.changes
                try syncLedger.recordChanges(db, itemClass: query.itemClass, uuids: synchronizable)
                return count
            }
        }
        syncLedger.flush()
        return deleted
    }

    /// The INSERT bindings for `item` and the attributes as they will read back.
    private func insertBindings(
        _ item: NewItem, uuid: Data, sealed: Data?, now: Date
    )
        throws(KeychainStoreError) -> ([SQLiteValue], ItemAttributes)
    {
        let itemClass = item.itemClass
        var columns = [SQLiteValue](repeating: .null, count: itemClass.attributes.count)
        var given = [AttributeValue?](repeating: nil, count: itemClass.attributes.count)
        var strings: UInt64 = 0
        for (index, descriptor, value) in try ItemSQL.validated(item.attributes, of: itemClass) {
            let (column, isString) = try ItemSQL.columnValue(value, for: descriptor)
            columns[index] = column
            given[index] = value
            if isString { strings |= 1 << UInt64(index) }
        }
        var stored = ItemAttributes(reservingCapacity: item.attributes.count + 6)
        for (index, descriptor) in itemClass.attributes.enumerated() {
            if let value = given[index] {
                stored.appendUnique(descriptor.key, value)
            } else if descriptor.isPrimaryKey {
                columns[index] = ItemSQL.defaultValue(for: descriptor)
                stored.appendUnique(descriptor.key, ItemSQL.defaultAttribute(for: descriptor))
            }
        }
        let timestamp = now.timeIntervalSinceReferenceDate
        let engine: [SQLiteValue] = [
            .blob(uuid), .text(item.accessGroup), .text(item.accessibility.rawValue),
            .integer(item.isSynchronizable ? 1 : 0), .real(timestamp), .real(timestamp),
            .integer(Int64(bitPattern: strings)),
            sealed.map(SQLiteValue.blob) ?? .null,
        ]
        return (engine + columns, stored)
    }
}
