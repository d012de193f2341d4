import Foundation
import OSecCrypto
import OSecKeychain
import OSecSystem

/// The sync of one keychain with its circle: push the outbox, pull past the last seen sequence number, apply
/// remote changes with the keychain's uniqueness rules and the conflict rule.
///
/// One engine per keychain and process; its methods are serialized by a lock, and several processes on one
/// machine may run engines on the same keychain at once (the outbox is claimed in SQLite transactions, so a
/// change is pushed by one of them only).
package final class SyncEngine: @unchecked Sendable {  // sendable: mutable state guarded by `lock`
    /// The keychain.
    package let store: KeychainStore
    /// Server and circle.
    package let settings: SyncSettings
    /// The circle key (the tests seal and open rows with it).
    package let key: CircleKey
    /// This keychain's member id in the circle.
    package let member: Data
    private let lock = NSRecursiveLock()
    private var server: SyncServer?
    private var listening = false
    /// Copies of `key` for parallel sealing and opening (see ``parallelMap(_:_:)``).
    private var keyCopies: [CircleKey] = []
    private let keyCopiesLock = NSLock()

    /// Outbox entries pushed per statement (one round trip, one server transaction).
    static let pushBatch = 500
    /// Rows pulled per request (and applied per local transaction), at most.
    static let pullBatch = 5000
    /// Rows of the first request of a pull; each later request asks for this many more, up to `pullBatch`.
    static let firstPullBatch = 500
    /// Rows sealed or opened per worker at least: below this, a second thread costs more than it saves.
    static let parallelGrain = 256
    /// How long a claim on outbox entries lasts if its process neither finishes nor dies.
    static let claimLease: TimeInterval = 60
    /// Push/pull rounds one ``sync()`` makes at most (each conflict costs a round).
    static let maximumRounds = 16
    /// How long a losing change is kept for `sync-status`.
    package static let conflictRetention: TimeInterval = 30 * 24 * 3600

    // sync_state keys
    static let memberKey = "member"
    static let circleKey = "circle"
    static let cursorKey = "cursor"
    static let lastPushKey = "last_push"
    static let lastPullKey = "last_pull"

    private init(store: KeychainStore, settings: SyncSettings, key: CircleKey, member: Data, server: SyncServer?) {
        self.store = store
        self.settings = settings
        self.key = key
        self.member = member
        self.server = server
    }

    // MARK: Joining

    /// Joins the circle (creating it when it does not exist yet, with `parameters`), stores the settings and
    /// the circle key in the keychain, and enqueues every synchronizable item for the first push.
    /// - Throws: `authFailed` when the circle exists and `passphrase` is not its passphrase (nothing is stored).
    package static func join(
        store: KeychainStore, settings: SyncSettings, passphrase: Data,
        parameters: CircleKey.Parameters = .default
    ) throws(SyncError) -> SyncEngine {
        let server = try SyncServer(url: settings.url)
        let key = try circleKey(server: server, settings: settings, passphrase: passphrase, parameters: parameters)
        let stored = StoredCircle(
            url: settings.url, circle: settings.circle, circleID: key.circleID.hexString,
            key: key.material.hexString)
        try stored.save(store)
        let member = try adopt(store: store, circleID: key.circleID)
        try server.register(member: member, hostName: POSIXProcesses.hostName, key: key)
        return SyncEngine(store: store, settings: settings, key: key, member: member, server: server)
    }

    /// The engine for the circle the environment names (`OPENSECURITY_SYNC_URL`, `…_CIRCLE`,
    /// `…_PASSPHRASE_FILE`), joining it implicitly; else the circle the keychain joined; else `nil`.
    package static func configured(
        store: KeychainStore, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(SyncError) -> SyncEngine? {
        if let (settings, passphrase) = try SyncSettings.fromEnvironment(environment) {
            if let stored = try StoredCircle.load(store), stored.url == settings.url, stored.circle == settings.circle {
                // Same circle as joined: the passphrase must still be right, but scrypt is not needed to know it.
                let engine = try fromStored(store: store, stored: stored)
                if engine.key.matches(
                    keyCheck: try engine.connected().circle(named: settings.circle)?.keyCheck ?? Data())
                {
                    return engine
                }
            }
            return try join(store: store, settings: settings, passphrase: passphrase)
        }
        guard let stored = try StoredCircle.load(store) else { return nil }
        return try fromStored(store: store, stored: stored)
    }

    /// An engine on `store` for the circle of `key` that has no server: only ``apply(pulled:)`` is meaningful (the
    /// fuzz harness feeds it what a hostile server could return). The ledger is adopted as in `join`.
    package static func offline(
        store: KeychainStore, settings: SyncSettings, key: CircleKey
    ) throws(SyncError) -> SyncEngine {
        let member = try adopt(store: store, circleID: key.circleID)
        return SyncEngine(store: store, settings: settings, key: key, member: member, server: nil)
    }

    /// `true` when the keychain joined a circle, or the environment names one.
    package static func isConfigured(
        store: KeychainStore, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        if (try? SyncSettings.fromEnvironment(environment)) != nil { return true }
        return ((try? store.syncState(circleKey)) ?? nil) != nil
    }

    private static func fromStored(store: KeychainStore, stored: StoredCircle) throws(SyncError) -> SyncEngine {
        guard let circleID = Data(hexString: stored.circleID), circleID.count == 16,
            let material = Data(hexString: stored.key)
        else { throw SyncError(.keychain, "the stored circle settings are malformed") }
        let key = try CircleKey(circleID: circleID, material: material)
        let member = try adopt(store: store, circleID: circleID)
        return SyncEngine(
            store: store, settings: try SyncSettings(url: stored.url, circle: stored.circle), key: key,
            member: member, server: nil)
    }

    /// Looks the circle up (creating it when missing) and derives and checks the key.
    private static func circleKey(
        server: SyncServer, settings: SyncSettings, passphrase: Data, parameters: CircleKey.Parameters
    ) throws(SyncError) -> CircleKey {
        var circle = try server.circle(named: settings.circle)
        if circle == nil {
            let (created, key) = try server.createCircle(
                named: settings.circle, passphrase: passphrase, parameters: parameters)
            if let key { return key }
            circle = created
        }
        guard let circle else { throw SyncError(.internal, "no circle") }
        let key = try CircleKey.derive(
            passphrase: passphrase, salt: circle.salt, parameters: circle.parameters, circleID: circle.circleID)
        guard key.matches(keyCheck: circle.keyCheck) else {
            throw SyncError(.authFailed, "wrong passphrase for sync circle \"\(settings.circle)\"")
        }
        return key
    }

    /// Makes the ledger belong to `circleID` (a different circle than before: the ledger starts over) and
    /// returns this keychain's member id.
    private static func adopt(store: KeychainStore, circleID: Data) throws(SyncError) -> Data {
        try keychain {
            if let current = try store.syncState(circleKey), current == circleID,
                let member = try store.syncState(memberKey), member.count == 16
            {
                return member
            }
            if try store.syncState(circleKey) != nil { try store.resetSyncLedger() }
            let member = try SecureRandom.bytes(16)
            try store.setSyncState([circleKey: circleID, memberKey: member])
            _ = try store.enqueueUnsyncedItems()
            return member
        }
    }

    /// Leaves the circle: the member is removed from the server (when reachable), the settings, the key and the
    /// ledger are removed from the keychain. Items stay; nothing arrives or leaves afterwards.
    package func leave() throws(SyncError) {
        lock.lock()
        defer { lock.unlock() }
        try? connected().remove(member: member, circleID: key.circleID)
        try StoredCircle.remove(store)
        try SyncEngine.keychain { try store.resetSyncLedger() }
        server = nil
    }

    // MARK: Syncing

    /// A full sync: pushes every pending change and pulls everything new, until nothing is left to push (each
    /// conflict costs one more round). Returns only when both are done.
    /// - Throws: `serverUnavailable`, `tamperedRow` / `replayedRow` (nothing of the bad batch is applied),
    ///   `keychain` (e.g. a locked keychain: its changes stay in the outbox).
    package func sync() throws(SyncError) {
        lock.lock()
        defer { lock.unlock() }
        do throws(SyncError) {
            let server = try connected()
            for _ in 0..<SyncEngine.maximumRounds {
                let rejected = try push(server)
                try pull(server)
                if rejected == 0, try SyncEngine.keychain({ try store.pendingSyncChangeCount() }) == 0 {
                    try? server.touch(member: member, circleID: key.circleID)
                    return
                }
            }
            throw SyncError(.internal, "sync did not settle after \(SyncEngine.maximumRounds) rounds")
        } catch {
            if error.code == .serverUnavailable { self.server = nil }
            throw error
        }
    }

    /// Pushes the outbox once, without pulling (the benchmark's push measurement). Returns the number of rows the
    /// server refused (version conflicts, left for the next ``sync()``).
    package func pushPending() throws(SyncError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        do throws(SyncError) {
            return try push(try connected())
        } catch {
            if error.code == .serverUnavailable { self.server = nil }
            throw error
        }
    }

    /// Waits up to `timeout` for another member's change (LISTEN/NOTIFY); `true` when one was announced.
    package func waitForRemoteChange(timeout: Duration) throws(SyncError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        do throws(SyncError) {
            let server = try connected()
            if !listening {
                try server.listen()
                listening = true
            }
            return try server.waitForChange(circleID: key.circleID, timeout: timeout)
        } catch {
            if error.code == .serverUnavailable { self.server = nil }
            throw error
        }
    }

    /// The open server connection, made when needed.
    func connected() throws(SyncError) -> SyncServer {
        if let server, server.isConnected { return server }
        listening = false
        let fresh = try SyncServer(url: settings.url)
        server = fresh
        return fresh
    }

    /// Pushes the outbox; returns the number of rows the server refused (version conflicts).
    ///
    /// Pipelined, one batch in flight at a time: a batch is sealed and sent on a thread of its own while this one
    /// claims the next batch from the outbox and records the batch before, so the sealing, the server's work and
    /// the round trip overlap the local bookkeeping instead of adding to it. The connection serves one statement
    /// at a time: a batch goes out once the one before was answered. A batch that was not answered (or not
    /// sealed) is released, nothing of it recorded; one the server stored but that this process could not record
    /// is acknowledged by the next pull, as after a crash between push and commit.
    private func push(_ server: SyncServer) throws(SyncError) -> Int {
        var rejected = 0
        var refusedBefore = Set<Data>()
        var flight: PushFlight?  // the batch being sealed and sent, not yet answered
        do throws(SyncError) {
            while true {
                let entries = try SyncEngine.keychain {
                    try store.claimSyncChanges(
                        limit: SyncEngine.pushBatch, lease: SyncEngine.claimLease, sparing: flight?.entries.first?.claim
                    )
                }.filter { !refusedBefore.contains($0.itemID) }
                if entries.isEmpty { break }
                let answered = flight
                flight = nil
                let accepted: Set<Data>?
                do {
                    accepted = try answered.map { (batch) throws(SyncError) in try answer(batch) }
                } catch {
                    try? store.releaseSyncClaims(entries.map(\.itemID))
                    throw error
                }
                flight = PushFlight(entries: entries) { [self] () throws(SyncError) in
                    try server.push(try seal(entries), circleID: key.circleID)
                }
                if let answered, let accepted {
                    rejected += try record(answered.entries, accepted: accepted, refusedBefore: &refusedBefore)
                }
            }
            if let last = flight {
                flight = nil
                rejected += try record(last.entries, accepted: try answer(last), refusedBefore: &refusedBefore)
            }
            return rejected
        } catch {
            // A batch still on its way is landed: recorded when the server took it, released when not.
            if let flight, let accepted = try? answer(flight) {
                var ignored = Set<Data>()
                _ = try? record(flight.entries, accepted: accepted, refusedBefore: &ignored)
            }
            throw error
        }
    }

    /// The server's answer to a pushed batch; when its statement failed, the batch's claims are released.
    private func answer(_ flight: PushFlight) throws(SyncError) -> Set<Data> {
        do {
            return try flight.answer()
        } catch {
            try? store.releaseSyncClaims(flight.entries.map(\.itemID))
            throw error
        }
    }

    /// Records the server's answer to one pushed batch: accepted entries are completed (the item is now at base + 1),
    /// refused ones released and remembered so that this push does not send them again. Returns the refused count.
    private func record(
        _ entries: [SyncOutboxEntry], accepted: Set<Data>, refusedBefore: inout Set<Data>
    ) throws(SyncError) -> Int {
        var done: [(SyncOutboxEntry, Int64)] = []
        done.reserveCapacity(accepted.count)
        var refused: [Data] = []
        for entry in entries {
            if accepted.contains(entry.itemID) {
                done.append((entry, entry.baseVersion + 1))
            } else {
                refused.append(entry.itemID)
            }
        }
        if !done.isEmpty {
            try SyncEngine.keychain {
                try store.completeSyncPushes(done, settingState: [SyncEngine.lastPushKey: SyncEngine.now()])
            }
        }
        if !refused.isEmpty { try SyncEngine.keychain { try store.releaseSyncClaims(refused) } }
        refusedBefore.formUnion(refused)
        return refused.count
    }

    /// Pulls and applies everything past the cursor. While a page is applied, the next one is already fetched and
    /// opened on another thread, so the server's work, the transfer and the decryption overlap the local apply (the
    /// connection serves one statement at a time; the page that follows a failed apply is waited for and dropped).
    private func pull(_ server: SyncServer) throws(SyncError) {
        let cursor = SyncEngine.int64(try SyncEngine.keychain { try store.syncState(SyncEngine.cursorKey) }) ?? 0
        let circleID = key.circleID
        // Pages grow from `firstPullBatch` to `pullBatch` rows: the first page is fetched and opened while nothing
        // else can run, so it is kept small; each later page is opened while the one before is applied. Applying a
        // row takes about as long as opening one, so pages grow slowly (by `firstPullBatch`): a page twice the size
        // of the one before would keep the applying thread waiting for it, and the last page, applied with nothing
        // to overlap, would be large.
        var limit = SyncEngine.firstPullBatch
        var page = try prepared(try server.pull(circleID: circleID, after: cursor, limit: limit))
        while let last = page.rows.last {
            let full = page.rows.count >= limit
            limit = min(limit + SyncEngine.firstPullBatch, SyncEngine.pullBatch)
            let nextLimit = limit
            let forecast = full ? rowIDForecast(after: page) : nil
            let next =
                !full
                ? nil
                : PageFetch { [self] () throws(SyncError) in
                    try prepared(
                        try server.pull(circleID: circleID, after: last.seq, limit: nextLimit), presealing: forecast)
                }
            do {
                try apply(page)
            } catch {
                _ = next?.result()
                throw error
            }
            let applied = Retired(page)
            page = try next?.result().get() ?? OpenedPage(rows: [], payloads: [], items: [])
            // Freeing a page of thousands of rows, records and prepared items takes milliseconds: done on another
            // thread, off the applying one.
            DispatchQueue.global(qos: .utility).async { applied.drop() }
        }
        try? store.setSyncState([SyncEngine.lastPullKey: SyncEngine.now()])
    }

    /// Applies one pulled batch (in sequence order) in one local transaction and moves the cursor to its last
    /// row. Every row of the batch must open before any is applied: a bad row changes nothing locally.
    ///
    /// Rows are opened in parallel where it pays. Consecutive rows of items this keychain has never seen are added
    /// together (one batched add, one row-id lookup, one file check); a row whose item collides with a local item
    /// on the primary key falls back to the one-row path, which applies the conflict rule. The outcome is the one
    /// of applying the rows one by one, in order.
    package func apply(pulled rows: [SyncRow]) throws(SyncError) {
        try apply(try prepared(rows))
    }

    /// A pulled page opened, with the local rows of its records prepared (the work that needs no transaction),
    /// in parallel where it pays. With a `forecast` of the row ids its new items will get, their secrets are also
    /// sealed for those rows now (``KeychainStore/preseal(_:rowID:)``), so that the apply only writes them; an
    /// item that gets another row id is sealed again when it is added.
    private func prepared(
        _ rows: [SyncRow], presealing forecast: KeychainStore.RowIDForecast? = nil
    ) throws(SyncError) -> OpenedPage {
        let store = self.store
        let opened = try parallelMap(rows) { (row, key) throws(SyncError) in
            let payload = try row.open(with: key)
            return (payload, payload.record.flatMap { SyncTransaction.prepare($0, in: store) })
        }
        var items = opened.map(\.1)
        if var forecast {
            var plan: [PresealPlan] = []
            for (index, item) in items.enumerated() {
                guard let item, let rowID = forecast.take(item.itemClass) else { continue }
                plan.append(PresealPlan(index: index, item: item, rowID: rowID))
            }
            let sealed = try parallelMap(plan) { (entry, _) throws(SyncError) in
                var item = entry.item
                store.preseal(&item, rowID: entry.rowID)
                return item
            }
            for (entry, item) in zip(plan, sealed) { items[entry.index] = item }
        }
        return OpenedPage(rows: rows, payloads: opened.map(\.0), items: items)
    }

    /// The row ids the new items of the page after `page` are expected to get: those after the ones `page`'s new
    /// items take when it is applied, forecast from the keychain as it is before that (read on the applying
    /// thread, between transactions; a wrong forecast only costs a second seal). `nil` if it cannot be read.
    private func rowIDForecast(after page: OpenedPage) -> KeychainStore.RowIDForecast? {
        guard var forecast = try? store.rowIDForecast() else { return nil }
        for case let item? in page.items { _ = forecast.take(item.itemClass) }
        return forecast
    }

    /// ``apply(pulled:)`` of a page already opened and prepared.
    private func apply(_ page: OpenedPage) throws(SyncError) {
        let rows = page.rows
        let opened = page.payloads
        guard let lastRow = rows.last else { return }
        let last = lastRow.seq
        do {
            try store.withSyncTransaction { transaction in
                // An item id the ledger does not know at the start of the page, and that no earlier row of the page
                // names, has no state: only the item's own row can create it. Its state is not looked up.
                let known = try transaction.knownItemIDs(rows.map(\.itemID))
                var named = Set<Data>(minimumCapacity: rows.count)
                var fresh: [FreshRow] = []
                var freshIDs = Set<Data>()
                func flushFresh() throws {
                    try addFresh(transaction, fresh)
                    fresh.removeAll(keepingCapacity: true)
                    freshIDs.removeAll(keepingCapacity: true)
                }
                for (index, (row, payload)) in zip(rows, opened).enumerated() {
                    let mayHaveState = known.contains(row.itemID) || !named.insert(row.itemID).inserted
                    // The item's earlier row still waits in the batch of new items: add them first, so this row
                    // finds the item it changes (otherwise both rows would add an item, and the first one would
                    // stay behind, unlinked, whenever the later version has another primary key).
                    if freshIDs.contains(row.itemID) { try flushFresh() }
                    var state = mayHaveState ? try transaction.state(row.itemID) : nil
                    if state == nil, let record = payload.record {
                        fresh.append(
                            FreshRow(
                                row: row, payload: payload, record: record,
                                prepared: page.items[index]))
                        freshIDs.insert(row.itemID)
                        continue
                    }
                    if !fresh.isEmpty {
                        try flushFresh()
                        if mayHaveState {  // a collision among them may have changed it
                            state = try transaction.state(row.itemID)
                        }
                    }
                    try apply(transaction, row, payload, state: state)
                }
                if !fresh.isEmpty { try flushFresh() }
                try store.setSyncState([SyncEngine.cursorKey: SyncEngine.data(last)])
            }
        } catch {
            if let inner = error.underlying as? SyncError { throw inner }
            throw SyncError(.keychain, "applying remote changes failed: \(error.reason)", underlying: error)
        }
    }

    /// Adds remote items new to this keychain in one batch; those that collide with a local item on the primary
    /// key then take the one-row path (the conflict rule), in order.
    private func addFresh(_ transaction: SyncTransaction, _ fresh: [FreshRow]) throws {
        let stored = try transaction.putNew(
            fresh.map {
                (
                    itemID: $0.row.itemID, record: $0.record, version: $0.row.version, member: $0.payload.member,
                    prepared: $0.prepared
                )
            })
        for (entry, added) in zip(fresh, stored) where !added {
            try applyRemote(transaction, entry.row, entry.payload)
        }
    }

    // MARK: Sealing and opening in parallel

    /// The outbox entries sealed as rows (version = base + 1), in order; in parallel for large batches.
    private func seal(_ entries: [SyncOutboxEntry]) throws(SyncError) -> [SyncRow] {
        let member = self.member
        return try parallelMap(entries) { (entry, key) throws(SyncError) in
            let payload = SyncPayload(
                member: member, modificationDate: entry.record?.modificationDate ?? entry.deletionDate ?? Date(),
                itemClass: entry.itemClass, record: entry.record)
            return try SyncRow.seal(payload, itemID: entry.itemID, version: entry.baseVersion + 1, key: key)
        }
    }

    /// `transform` of every element, in order, spread over the machine's cores in contiguous chunks of at least
    /// ``parallelGrain`` elements; each worker has its own copy of the circle key (a key's cipher contexts are
    /// used under a lock). The error of the earliest failing element is thrown.
    private func parallelMap<T: Sendable, R: Sendable>(
        _ elements: [T], _ transform: @Sendable (T, CircleKey) throws(SyncError) -> R
    ) throws(SyncError) -> [R] {
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, elements.count / SyncEngine.parallelGrain)
        if workers < 2 {
            var out: [R] = []
            out.reserveCapacity(elements.count)
            for element in elements { out.append(try transform(element, key)) }
            return out
        }
        let keys = try workerKeys(workers)
        let chunk = (elements.count + workers - 1) / workers
        let results = ChunkResults<R>(count: workers)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let range = (worker * chunk)..<min(elements.count, (worker + 1) * chunk)
            var out: [R] = []
            out.reserveCapacity(range.count)
            do throws(SyncError) {
                for index in range { out.append(try transform(elements[index], keys[worker])) }
                results.set(worker, .success(out))
            } catch {
                results.set(worker, .failure(error))
            }
        }
        var out: [R] = []
        out.reserveCapacity(elements.count)
        for result in results.take() {
            switch result {
            case .success(let part): out.append(contentsOf: part)
            case .failure(let error): throw error
            case nil: throw SyncError(.internal, "a worker produced nothing")
            }
        }
        return out
    }

    /// Copies of the circle key for parallel workers (the first is the engine's own), made once. A pull opens the
    /// next page on another thread while this one opens or applies, so the copies are kept under a lock (two
    /// workers sharing a copy is safe: a key's cipher contexts are used under its own lock).
    private func workerKeys(_ count: Int) throws(SyncError) -> [CircleKey] {
        keyCopiesLock.lock()
        defer { keyCopiesLock.unlock() }
        while keyCopies.count + 1 < count {
            keyCopies.append(try CircleKey(circleID: key.circleID, material: key.material))
        }
        return [key] + keyCopies.prefix(count - 1)
    }

    // MARK: Applying remote changes

    private func apply(
        _ transaction: SyncTransaction, _ row: SyncRow, _ remote: SyncPayload, state: SyncItemState?
    ) throws {
        if let state {
            if row.version < state.version {
                throw SyncError(
                    .replayedRow,
                    "the server offered item \(row.itemID.hexString) at version \(row.version), older than version "
                        + "\(state.version) seen before: a replayed or rolled-back row")
            }
            if row.version == state.version { return }  // already known (our own push, or seen before)
            guard state.itemClass == remote.itemClass else {
                throw SyncError(.tamperedRow, "item \(row.itemID.hexString) changed its class")
            }
        }
        guard let state, state.hasPendingChange else {
            try applyRemote(transaction, row, remote)
            return
        }
        // A local change waits for the same item: the later modification wins, ties by member id.
        let localRecord = try state.persistentRef.flatMap { (ref) throws(KeychainStoreError) in
            try transaction.record(ref)
        }
        let localDate = localRecord?.modificationDate ?? state.modificationDate
        let localMember = state.member ?? member
        if remote.member == localMember && remote.modificationDate == localDate {
            // Our own change: pushed before, its acknowledgement lost (a crash between push and commit).
            try transaction.acknowledge(row.itemID, version: row.version)
            try transaction.dropPendingChange(row.itemID)
            return
        }
        if SyncPayload.isLater((remote.modificationDate, remote.member), than: (localDate, localMember)) {
            let loser = SyncPayload(
                member: localMember, modificationDate: localDate, itemClass: state.itemClass, record: localRecord)
            try transaction.dropPendingChange(row.itemID)
            try applyRemote(transaction, row, remote)
            try transaction.logConflict(
                row.itemID, winner: remote.member, loser: nil, loserDate: localDate,
                loserBlob: try? SyncRow.seal(loser, itemID: row.itemID, version: row.version, key: key).blob,
                keep: SyncEngine.conflictRetention)
        } else {
            try transaction.rebase(row.itemID, onto: row.version)
            try transaction.logConflict(
                row.itemID, winner: nil, loser: remote.member, loserDate: remote.modificationDate, loserBlob: row.blob,
                keep: SyncEngine.conflictRetention)
        }
    }

    /// Writes a remote change locally; a remote item that collides with another local item on the primary key is a
    /// conflict (the same rule decides), never a duplicate.
    private func applyRemote(_ transaction: SyncTransaction, _ row: SyncRow, _ remote: SyncPayload) throws {
        guard let record = remote.record else {
            try transaction.remove(
                row.itemID, itemClass: remote.itemClass, version: row.version, member: remote.member,
                deletionDate: remote.modificationDate)
            return
        }
        var collided = false
        do {
            try transaction.put(row.itemID, record, version: row.version, member: remote.member)
        } catch {
            guard error.code == .duplicateItem else { throw error }
            collided = true
        }
        if collided { try resolveCollision(transaction, row, remote, record) }
    }

    /// A remote item collides with another local item on the primary key: the conflict rule picks the survivor.
    private func resolveCollision(
        _ transaction: SyncTransaction, _ row: SyncRow, _ remote: SyncPayload, _ record: SyncRecord
    ) throws {
        guard let other = try transaction.collidingItem(record) else {
            throw SyncError(.internal, "item \(row.itemID.hexString) collides with an item that cannot be found")
        }
        var otherState: SyncItemState?
        if let id = other.itemID { otherState = try transaction.state(id) }
        let otherDate = try transaction.record(other.ref)?.modificationDate ?? .distantPast
        let otherMember = otherState?.member ?? member
        if SyncPayload.isLater((remote.modificationDate, remote.member), than: (otherDate, otherMember)) {
            try transaction.retire(other.ref, itemID: other.itemID)
            try transaction.put(row.itemID, record, version: row.version, member: remote.member)
            try transaction.logConflict(
                other.itemID ?? row.itemID, winner: remote.member, loser: otherState?.member, loserDate: otherDate,
                loserBlob: nil, keep: SyncEngine.conflictRetention)
        } else {
            // The local item stays; the remote one is known (at this version) but has no local row.
            try transaction.remove(
                row.itemID, itemClass: remote.itemClass, version: row.version, member: remote.member,
                deletionDate: remote.modificationDate)
            try transaction.logConflict(
                row.itemID, winner: otherState?.member, loser: remote.member, loserDate: remote.modificationDate,
                loserBlob: row.blob, keep: SyncEngine.conflictRetention)
        }
    }

    // MARK: Status

    /// What `sync-status` shows.
    package func status() throws(SyncError) -> SyncStatus {
        lock.lock()
        defer { lock.unlock() }
        let members = (try? connected().members(key: key)) ?? []
        return try SyncEngine.keychain {
            let counts = try store.syncItemCount()
            return SyncStatus(
                url: settings.redactedURL, circle: settings.circle, circleID: key.circleID.hexString,
                member: member.hexString, members: members, serverReachable: server != nil,
                lastPush: SyncEngine.date(try store.syncState(SyncEngine.lastPushKey)),
                lastPull: SyncEngine.date(try store.syncState(SyncEngine.lastPullKey)),
                pendingChanges: try store.pendingSyncChangeCount(), items: counts.live, tombstones: counts.tombstones,
                conflicts: try store.syncConflicts())
        }
    }

    // MARK: Helpers

    static func keychain<R>(_ body: () throws -> R) throws(SyncError) -> R {
        try SyncError.converting(body) { error in
            guard let error = error as? KeychainStoreError else {
                return SyncError(.internal, "unexpected error: \(error)")
            }
            return error.underlying as? SyncError ?? SyncError(.keychain, error.reason, underlying: error)
        }
    }

    static func now() -> Data { data(Int64(Date().timeIntervalSince1970 * 1000)) }

    static func data(_ value: Int64) -> Data {
        var out = Data()
        out.appendUInt64(UInt64(bitPattern: value))
        return out
    }

    static func int64(_ data: Data?) -> Int64? {
        guard let data, data.count == 8 else { return nil }
        return Int64(bitPattern: data.reduce(0) { $0 << 8 | UInt64($1) })
    }

    static func date(_ data: Data?) -> Date? {
        int64(data).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}

/// The results of parallel workers, one slot per worker.
private final class ChunkResults<R: Sendable>: @unchecked Sendable {  // sendable: guarded by `lock`
    private let lock = NSLock()
    private var slots: [Result<[R], SyncError>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ worker: Int, _ result: Result<[R], SyncError>) { lock.withLock { slots[worker] = result } }

    func take() -> [Result<[R], SyncError>?] { lock.withLock { slots } }
}

/// A pulled page with its rows opened (`payloads[i]` is the payload of `rows[i]`) and the local rows of their
/// records prepared (`items[i]`; `nil` for a tombstone, or a record that does not make a valid item).
private struct OpenedPage: Sendable {
    let rows: [SyncRow]
    let payloads: [SyncPayload]
    let items: [KeychainStore.PreparedItem?]
}

/// An applied page on its way to being freed on another thread: the box is its last owner once the pull moves on.
private final class Retired: @unchecked Sendable {  // sendable: the page is only touched by `drop()`, once
    private var page: OpenedPage?
    init(_ page: OpenedPage) { self.page = page }
    func drop() { page = nil }
}

/// A new item of a pulled page, to be sealed ahead for the row id it is expected to get.
private struct PresealPlan: Sendable {
    let index: Int
    let item: KeychainStore.PreparedItem
    let rowID: Int64
}

/// A row of a page whose item this keychain has never seen, waiting for the batched add.
private struct FreshRow {
    let row: SyncRow
    let payload: SyncPayload
    let record: SyncRecord
    let prepared: KeychainStore.PreparedItem?
}

/// Work running on a thread of its own (a pull's next page, a pushed batch), its result waited for once ready.
private final class BackgroundWork<Value: Sendable>: @unchecked Sendable {  // sendable: see `outcome`
    /// Written once by the work's thread, before `done` signals; read only after waiting for `done`.
    private var outcome: Result<Value, SyncError>?
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () throws(SyncError) -> Value) {
        let thread = Thread { [self] in
            do throws(SyncError) {
                outcome = .success(try work())
            } catch {
                outcome = .failure(error)
            }
            done.signal()
        }
        thread.start()
    }

    /// The value (or the error of the work), once ready; a second call returns at once.
    func result() -> Result<Value, SyncError> {
        done.wait()
        done.signal()
        return outcome ?? .failure(SyncError(.internal, "background work ended without a result"))
    }
}

/// One page of a pull, fetched, opened and prepared on a thread of its own.
private typealias PageFetch = BackgroundWork<OpenedPage>

/// One pushed batch, sealed and sent on a thread of its own (see `SyncEngine.push`).
private final class PushFlight: Sendable {
    let entries: [SyncOutboxEntry]
    private let work: BackgroundWork<Set<Data>>

    init(entries: [SyncOutboxEntry], work: @escaping @Sendable () throws(SyncError) -> Set<Data>) {
        self.entries = entries
        self.work = BackgroundWork(work)
    }

    /// The ids the server stored, once it answered, or the error of sealing or sending the batch.
    func answer() throws(SyncError) -> Set<Data> { try work.result().get() }
}
