import OSecSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// - Throws: as ``add(_:)``; when one item fails, none is stored.
    package func add(contentsOf items: [NewItem]) throws(KeychainStoreError) -> [KeychainItem] {
        try add(contentsOf: items, skippingDuplicates: false).compactMap { $0 }
    }

    /// Adds several items in one IMMEDIATE transaction, all or none, except that with `skippingDuplicates` an item
    /// whose primary key is already taken is left out (its result is `nil`) instead of failing the whole add. An
    /// identity (certificate + private key) is added this way: either part may exist already, but a locked
    /// keychain or any other failure stores neither.
    package func add(
        contentsOf items: [NewItem], skippingDuplicates: Bool
    ) throws(KeychainStoreError) -> [KeychainItem?] {
        // Validate before taking the write lock; seal inside it (the row id is bound into the seal).
        try add(prepared: try prepare(items), skippingDuplicates: skippingDuplicates)
    }

    /// An item validated and bound for ``add(prepared:skippingDuplicates:)``: made before the write lock is taken,
    /// on any thread (a pull prepares the next page's items while the current page is applied).
    package struct PreparedItem: Sendable {
        fileprivate var insert: PreparedInsert

        /// The item's class.
        package var itemClass: ItemClass { insert.item.itemClass }
    }

    /// Validates `items` against their classes and binds them for insertion; each gets its persistent-ref UUID
    /// now. Touches neither the database nor the keys (it only checks that a secret's class key is there).
    /// - Throws: `noSuchAttribute` / `param` for an attribute the class lacks or a value of the wrong type;
    ///   `interactionNotAllowed` for a secret whose class key is locked away.
    package func prepare(_ items: [NewItem]) throws(KeychainStoreError) -> [PreparedItem] {
        let now = Date()
        var prepared: [PreparedItem] = []
        prepared.reserveCapacity(items.count)
        for item in items {
            let uuid = try PersistentRef.newUUID(at: now)
            if item.secret != nil { try keyRing.requireKey(item.accessibility.protectionClass) }
            prepared.append(PreparedItem(insert: try prepareInsert(item, uuid: uuid, now: now)))
        }
        return prepared
    }

    /// ``add(contentsOf:skippingDuplicates:)`` of items prepared with ``prepare(_:)``.
    package func add(
        prepared: [PreparedItem], skippingDuplicates: Bool
    ) throws(KeychainStoreError) -> [KeychainItem?] {
        let inserted = try insert(prepared, skippingDuplicates: skippingDuplicates)
        let keyRing = self.keyRing
        var result: [KeychainItem?] = []
        result.reserveCapacity(prepared.count)
        for (item, stored) in zip(prepared, inserted) {
            guard let stored else {
                result.append(nil)
                continue
            }
            let row = item.insert
            let itemClass = row.item.itemClass
            result.append(
                KeychainItem(
                    itemClass: itemClass, rowID: stored.rowID,
                    persistentRef: try PersistentRef(itemClass: itemClass, uuid: row.uuid),
                    attributes: row.attributes, accessGroup: row.item.accessGroup,
                    accessibility: row.item.accessibility, isSynchronizable: row.item.isSynchronizable,
                    creationDate: row.item.dates?.created ?? row.now,
                    modificationDate: row.item.dates?.modified ?? row.now,
                    secret: stored.sealed.map {
                        SealedSecret(blob: $0, binding: row.binding(rowID: stored.rowID), keyRing: keyRing)
                    }))
        }
        return result
    }

    /// ``add(prepared:skippingDuplicates:)`` for a caller that needs to know only what was stored (a pulled page's
    /// new items): the persistent-ref UUID of each stored item, `nil` for a duplicate left out. No
    /// ``KeychainItem`` is built.
    package func addReturningUUIDs(
        prepared: [PreparedItem], skippingDuplicates: Bool
    ) throws(KeychainStoreError) -> [Data?] {
        let inserted = try insert(prepared, skippingDuplicates: skippingDuplicates)
        return zip(prepared, inserted).map { item, stored in stored == nil ? nil : item.insert.uuid }
    }

    /// Writes the rows of `prepared` in one transaction: each gets its row id, its secret is sealed for that row
    /// (or its ``preseal(_:rowID:)`` seal used, when made for the row id it gets), and a synchronizable item its
    /// outbox entry. Returns each item's row id and sealed secret, `nil` for a duplicate left out.
    private func insert(
        _ prepared: [PreparedItem], skippingDuplicates: Bool
    ) throws(KeychainStoreError) -> [(rowID: Int64, sealed: Data?)?] {
        // Checked again: the keychain may have been locked since the items were prepared.
        for item in prepared where item.insert.item.secret != nil {
            try keyRing.requireKey(item.insert.item.accessibility.protectionClass)
        }
        let keyRing = self.keyRing
        let inserted = try writeTransaction("add an item") { () throws -> [(rowID: Int64, sealed: Data?)?] in
            var nextRowID: [Int: Int64] = [:]
            var results: [(rowID: Int64, sealed: Data?)?] = []
            results.reserveCapacity(prepared.count)
            for index in prepared.indices {
                let itemClass = prepared[index].itemClass
                let rowID = try nextRowID[itemClass.ordinal] ?? firstFreeRowID(itemClass)
                let sealed: Data?
                if let presealed = prepared[index].insert.presealed, presealed.rowID == rowID {
                    sealed = presealed.blob
                } else {
                    let row = prepared[index].insert
                    sealed = try row.item.secret.map { (secret) throws(KeychainStoreError) in
                        try keyRing.sealSecret(secret, binding: row.binding(rowID: rowID))
                    }
                }
                do {
                    try db.withStatement(keyed: insertStatements, itemClass.ordinal, sql: { ItemSQL.insert(itemClass) })
                    {
                        // The prepared bindings as they are (no copy), then the two filled in here.
                        try $0.bind(prepared[index].insert.bindings)
                        try $0.bind(rowID, at: Int32(ItemSQL.rowIDParameter))
                        if let sealed { try $0.bind(sealed, at: Int32(ItemSQL.secretParameter)) }
                        try $0.run()
                    }
                } catch let error as SQLiteError where skippingDuplicates && error.isUniqueViolation {
                    results.append(nil)  // a failed statement leaves the transaction open; the others go on
                    continue
                }
                if prepared[index].insert.item.isSynchronizable {  // the outbox entry commits with the item
                    try syncLedger.recordChanges(db, itemClass: itemClass, uuids: [prepared[index].insert.uuid])
                }
                nextRowID[itemClass.ordinal] = rowID + 1
                results.append((rowID, sealed))
            }
            return results
        }
        syncLedger.flush()
        return inserted
    }

    /// Row ids the next added items of each class are expected to get, for sealing their secrets ahead of the
    /// write transaction (``preseal(_:rowID:)``). A forecast only: the add checks each one.
    package struct RowIDForecast: Sendable {
        /// The next row id by ``ItemClass`` ordinal.
        fileprivate var next: [Int: Int64]

        /// The row id the next item of `itemClass` is expected to get; the forecast moves past it.
        package mutating func take(_ itemClass: ItemClass) -> Int64? {
            guard let rowID = next[itemClass.ordinal], rowID < Int64.max else { return nil }
            next[itemClass.ordinal] = rowID + 1
            return rowID
        }
    }

    /// The forecast for the keychain as it is now: each class's largest row id + 1, as the next add would choose
    /// (read outside any transaction, so another writer may move it; the add then seals again).
    package func rowIDForecast() throws(KeychainStoreError) -> RowIDForecast {
        try KeychainStore.mapErrors {
            var next: [Int: Int64] = [:]
            for itemClass in ItemClass.all {
                let largest = try db.scalar("SELECT max(id) FROM \"\(itemClass.code)\"").integerValue ?? 0
                if largest < Int64.max { next[itemClass.ordinal] = largest + 1 }
            }
            return RowIDForecast(next: next)
        }
    }

    /// Seals `item`'s secret now (on any thread) for row id `rowID`, the one it is expected to get, so that the
    /// add does not seal it inside the write transaction. An item that gets another row id is sealed again there;
    /// a seal is bound to its row (the row id is part of the associated data), so one made for another row is never
    /// stored. Leaves the item as it is when its class key is not at hand.
    package func preseal(_ item: inout PreparedItem, rowID: Int64) {
        let row = item.insert
        guard let secret = row.item.secret,
            let blob = try? keyRing.sealSecret(secret, binding: row.binding(rowID: rowID))
        else { return }
        item.insert.presealed = (rowID, blob)
    }

    /// The row id the next item of `itemClass` gets: SQLite's own choice (largest + 1), made explicit because the
    /// secret is sealed for it before the row is written. Called inside the write transaction.
    private func firstFreeRowID(_ itemClass: ItemClass) throws -> Int64 {
        let largest = try db.scalar("SELECT max(id) FROM \"\(itemClass.code)\"").integerValue ?? 0
        guard largest < Int64.max else { throw KeychainStoreError(.internal, "row ids of \(itemClass.code) exhausted") }
        return largest + 1
    }

    /// Finds items matching `query` (ordered by row id, at most `query.limit`). Never decrypts: open
    /// secrets with ``SealedSecret/open()``. Works while locked.
    package func find(_ query: ItemQuery) throws(KeychainStoreError) -> [KeychainItem] {
        try find(query, cached: true, ordered: true)
    }

    /// ``find(_:)``; without `cached` the find-result cache is neither asked nor filled (a one-off read of many
    /// items, such as the sync's read of a claimed batch, would only evict what callers look up again), and
    /// without `ordered` the items come in whatever order SQLite yields them (the caller files them by ref).
    func find(_ query: ItemQuery, cached: Bool, ordered: Bool) throws(KeychainStoreError) -> [KeychainItem] {
        if let limit = query.limit, limit <= 0 { return [] }
        let (shape, bindings) = try ItemSQL.shapeAndBindings(query)
        let withAttributes = query.includesAttributes
        // The limit is applied after ordering by row id (insertion order), not as an SQL LIMIT: without ORDER BY
        // SQLite's LIMIT keeps whichever rows the chosen index yields first (e.g. by access group), and one item
        // asked for among several must be the first added, as Apple's keychain answers.
        let findShape = FindShape(query: shape, withAttributes: withAttributes, hasLimit: false)
        let itemClass = query.itemClass
        let keyRing = self.keyRing
        return try KeychainStore.mapErrors {
            try db.withLock {
                // The token is read before the SELECT, so a commit landing in between only costs a miss.
                // Inside a transaction on this connection its own uncommitted writes are visible to the
                // SELECT but not yet in the token: no cache then.
                let token = cached && cachesFinds && db.isAutocommit ? db.commitToken() : nil
                if token == nil && (cached || !db.isAutocommit) && findResults.count > 0 { findResults.removeAll() }
                let key = FindResultCache.Key(shape: findShape, bindings: bindings)
                // The cache holds every match (its key has no limit); the limit is applied to what it returns.
                func limited(_ items: [KeychainItem]) -> [KeychainItem] {
                    guard let limit = query.limit, items.count > limit else { return items }
                    return Array(items.prefix(limit))
                }
                if let token, let cached = findResults.lookup(key, token: token) { return limited(cached) }
                var items: [KeychainItem] = []
                try db.forEachRow(keyed: findStatements, findShape, sql: { FindSQL.text(for: findShape) }, bindings) {
                    row in
                    items.append(
                        try ItemSQL.decodeRow(
                            row, itemClass: itemClass, keyRing: keyRing, withAttributes: withAttributes))
                }
                if ordered && items.count > 1 { items.sort { $0.rowID < $1.rowID } }
                if token != nil { findResults.insert(items, for: key) }
                return limited(items)
            }
        }
    }

    /// Finds the item a persistent ref points to, or `nil`.
    package func find(persistentRef: PersistentRef) throws(KeychainStoreError) -> KeychainItem? {
        try find(ItemQuery(persistentRef: persistentRef)).first
    }

    /// Updates every item matching `query` in place (row id, persistent ref and `cdat` kept, `mdat`
    /// refreshed) in one IMMEDIATE transaction. Returns the number of items updated (0 = none matched).
    ///
    /// A secret is re-sealed whenever what it is bound to changes (a primary-key attribute, `agrp`, `sync` or the
    /// protection class), so it stays bound to its item.
    /// - Throws: `duplicateItem` when the change makes an item collide with another (nothing is updated);
    ///   `interactionNotAllowed` when a secret must be (re)sealed and its class key is locked away;
    ///   `integrityCheckFailed` when a secret to re-seal does not belong to its row (tampered).
    package func update(_ query: ItemQuery, with changes: ItemChanges) throws(KeychainStoreError) -> Int {
        let itemClass = query.itemClass
        let (clause, bindings) = try ItemSQL.whereClause(query)
        let changed = try ItemSQL.validated(changes.attributes, of: itemClass)
        var setValues: [SQLiteValue] = []
        var assignments: [String] = []
        var changedStrings: UInt64 = 0  // bits of bytes attributes now given as strings
        var changedBytes: UInt64 = 0  // bits of every bytes attribute being set
        var newColumnValues: [Int: SQLiteValue] = [:]  // by attribute index
        for (index, descriptor, value) in changed {
            let (column, isString) = try ItemSQL.columnValue(value, for: descriptor)
            assignments.append("\"\(descriptor.key)\" = \(ItemSQL.placeholder(for: descriptor))")
            setValues.append(column)
            newColumnValues[index] = column
            if descriptor.kind == .bytes { changedBytes |= 1 << UInt64(index) }
            if isString { changedStrings |= 1 << UInt64(index) }
        }
        if changes.replacesItem {
            // Every attribute not given goes back to what an add without it stores.
            for (index, descriptor) in itemClass.attributes.enumerated() where newColumnValues[index] == nil {
                let column = descriptor.isPrimaryKey ? ItemSQL.defaultValue(for: descriptor) : SQLiteValue.null
                assignments.append("\"\(descriptor.key)\" = ?")
                setValues.append(column)
                newColumnValues[index] = column
            }
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
        let primaryKeyColumns = itemClass.primaryKeyIndices.map { "\"\(itemClass.attributes[$0].key)\"" }
        let selectSQL =
            "SELECT id, persistref, pdmn, strs, secret, agrp, sync, \(primaryKeyColumns.joined(separator: ", ")) FROM "
            + "\"\(itemClass.code)\"" + clause
        let now = Date().timeIntervalSinceReferenceDate
        let keyRing = self.keyRing

        let updated = try writeTransaction("update an item") {
            let targets = try db.query(selectSQL, bindings) { row in
                (
                    id: row.int64(at: 0), uuid: row.data(at: 1) ?? Data(), pdmn: row.string(at: 2) ?? "",
                    strs: UInt64(bitPattern: row.int64(at: 3)), secret: row.data(at: 4),
                    agrp: row.string(at: 5) ?? "", sync: row.int64(at: 6) != 0,
                    primaryKey: itemClass.primaryKeyIndices.indices.map { row.value(at: 7 + Int32($0)) }
                )
            }
            for target in targets {
                guard let oldAccessibility = Accessibility(rawValue: target.pdmn) else {
                    throw KeychainStoreError(.invalidKeychain, "malformed pdmn in row \(target.id)")
                }
                let newBinding = SecretBinding(
                    itemClass: itemClass, rowID: target.id, uuid: target.uuid,
                    protectionClass: (changes.accessibility ?? oldAccessibility).protectionClass,
                    accessGroup: changes.accessGroup ?? target.agrp,
                    isSynchronizable: changes.isSynchronizable ?? target.sync,
                    primaryKey: BindingEncoding.primaryKey(itemClass) { position, index in
                        newColumnValues[index] ?? target.primaryKey[position]
                    })
                var secret = target.secret
                if let replacement = changes.secret {
                    secret = try keyRing.sealSecret(replacement, binding: newBinding)
                } else if changes.replacesItem {
                    secret = nil
                } else if let blob = target.secret {
                    let oldBinding = SecretBinding(
                        itemClass: itemClass, rowID: target.id, uuid: target.uuid,
                        protectionClass: oldAccessibility.protectionClass, accessGroup: target.agrp,
                        isSynchronizable: target.sync,
                        primaryKey: BindingEncoding.primaryKey(itemClass) { position, _ in target.primaryKey[position] }
                    )
                    if !newBinding.isSameBinding(as: oldBinding) {
                        var plain = try keyRing.openSecret(blob, binding: oldBinding)
                        defer { plain.resetBytes(in: 0..<plain.count) }
                        secret = try keyRing.sealSecret(plain, binding: newBinding)
                    }
                }
                let strings = changes.replacesItem ? changedStrings : (target.strs & ~changedBytes) | changedStrings
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
        syncLedger.flush()
        return updated
    }

    /// Deletes every item matching `query` (its limit is ignored) in one IMMEDIATE transaction.
    /// Returns the number deleted (0 = none matched). Works while locked.
    ///
    /// Deleted rows do not stay readable on disk: the connection runs with `secure_delete` (freed space in the
    /// database is zeroed), and after a delete the WAL is checkpointed into the database and truncated, so the
    /// frames that held the rows are gone too (best effort: when another connection keeps reading the WAL for
    /// longer than `scrubWait`, the frames go at a later checkpoint).
    package func delete(_ query: ItemQuery) throws(KeychainStoreError) -> Int {
        let (clause, bindings) = try ItemSQL.whereClause(query)
        let sql = "DELETE FROM \"\(query.itemClass.code)\"" + clause
        let deleted = try writeTransaction("delete an item") {
            let synchronizable =
                query.isSynchronizable == false
                ? []
                : try syncLedger.synchronizableRows(db, itemClass: query.itemClass, clause: clause, bindings: bindings)
            try db.run(sql, bindings)
            let count = db.changes
            try syncLedger.recordChanges(db, itemClass: query.itemClass, uuids: synchronizable)
            return count
        }
        syncLedger.flush()
        if deleted > 0 { scrubDeletedContent() }
        return deleted
    }

    /// How long the checkpoint after a delete waits for other connections at most.
    static var scrubWait: Duration { .milliseconds(200) }

    /// Moves every WAL frame into the database (where `secure_delete` has zeroed the deleted rows) and truncates
    /// the WAL to zero bytes (`wal_checkpoint(TRUNCATE)`).
    func scrubDeletedContent() {
        _ = try? db.checkpoint(.truncate, waitingAtMost: KeychainStore.scrubWait)
    }

    /// An item validated and turned into INSERT bindings (row id and secret filled in inside the transaction).
    fileprivate struct PreparedInsert: Sendable {
        let item: NewItem
        let uuid: Data
        /// When it was prepared: an item without dates of its own is created and modified then.
        let now: Date
        var bindings: [SQLiteValue]
        let attributes: ItemAttributes
        let primaryKey: Data
        /// The secret sealed ahead of the transaction for the row id it was expected to get.
        var presealed: (rowID: Int64, blob: Data)?

        func binding(rowID: Int64) -> SecretBinding {
            SecretBinding(
                itemClass: item.itemClass, rowID: rowID, uuid: uuid,
                protectionClass: item.accessibility.protectionClass, accessGroup: item.accessGroup,
                isSynchronizable: item.isSynchronizable, primaryKey: primaryKey)
        }
    }

    /// The INSERT bindings for `item` (``ItemSQL/engineColumns`` then the attributes; `id` and `secret` are set
    /// later) and the attributes as they will read back.
    private func prepareInsert(_ item: NewItem, uuid: Data, now: Date) throws(KeychainStoreError) -> PreparedInsert {
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
            .null,  // id, chosen in the transaction
            .blob(uuid), .text(item.accessGroup), .text(item.accessibility.rawValue),
            .integer(item.isSynchronizable ? 1 : 0),
            .real(item.dates?.created.timeIntervalSinceReferenceDate ?? timestamp),
            .real(item.dates?.modified.timeIntervalSinceReferenceDate ?? timestamp),
            .integer(Int64(bitPattern: strings)),
            .null,  // secret, sealed in the transaction
        ]
        return PreparedInsert(
            item: item, uuid: uuid, now: now, bindings: engine + columns, attributes: stored,
            primaryKey: BindingEncoding.primaryKey(itemClass) { _, index in columns[index] })
    }
}

extension SecretBinding {
    /// Whether `other` seals to the same associated data (re-sealing is needed otherwise).
    func isSameBinding(as other: SecretBinding) -> Bool {
        rowID == other.rowID && uuid == other.uuid && protectionClass == other.protectionClass
            && accessGroup == other.accessGroup && isSynchronizable == other.isSynchronizable
            && primaryKey == other.primaryKey && itemClass == other.itemClass
    }
}
