// libFuzzer target for what a sync server returns: circle metadata rows, member rows and item rows (parsed as
// SyncServer reads them), and pulled batches applied to a real keychain (SyncEngine.apply(pulled:), the code a
// pull runs after the query). Built by `Fuzz/fuzz.sh sync`; no PostgreSQL needed: the rows are made from the input.
//
// The input is structured (FuzzSupport's FuzzInput). A pulled batch mixes raw rows (any blob), rows sealed with the
// circle key around any plaintext (what a buggy or newer member could push), rows sealed around a well-formed
// payload built from the input (class, attributes, secret, member, dates: reaches the conflict rule), and
// replays of rows sealed before. Asserted:
// - a server row is accepted only with the documented columns and bounds, and yields exactly their values;
// - a payload that decodes re-encodes to a payload that decodes to the same value;
// - a batch that throws leaves every row of every table of the keychain exactly as it was;
// - a batch that applies moves the cursor to its last sequence number and leaves every item of the batch known
//   at the highest version the batch carried for it, and a live item's secret is the one its winning row carried.
import Foundation
import OSecCrypto
import OSecKeychain
import OSecPostgres
import OSecSQLite
import OSecSync

let circleID = Data((0..<16).map { UInt8($0) })
let material = Data((0..<64).map { UInt8(255 - $0) })
let otherMembers = [Data(repeating: 0x01, count: 16), Data(repeating: 0xFE, count: 16), Data(count: 16)]
let itemIDs = (1...4).map { Data(repeating: UInt8($0), count: 16) }
let classes = ItemClass.all
let accessibilities: [Accessibility] = [
    .whenUnlocked, .afterFirstUnlock, .always, .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly,
]

func circleKey() -> CircleKey {
    guard let key = try? CircleKey(circleID: circleID, material: material) else { fatalError("circle key") }
    return key
}

/// The directory holding the pristine keychain, and the one each input works on.
nonisolated(unsafe) var baseDirectory = ""
nonisolated(unsafe) var pristine = ""
nonisolated(unsafe) var work = ""
/// Rows sealed while the pristine keychain was made (replayed by the input).
nonisolated(unsafe) var sealedRows: [SyncRow] = []

func fileNames(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { !$0.hasSuffix("-shm") }.sorted()
}

/// Copies the pristine keychain files into the work directory (0700 / 0600 as the store demands).
func resetWorkKeychain() {
    let fm = FileManager.default
    try? fm.removeItem(atPath: work)
    guard
        (try? fm.createDirectory(
            atPath: work, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])) != nil
    else { fatalError("work directory") }
    for name in fileNames(pristine) {
        guard let bytes = fm.contents(atPath: "\(pristine)/\(name)"),
            fm.createFile(atPath: "\(work)/\(name)", contents: bytes, attributes: [.posixPermissions: 0o600])
        else { fatalError("copying \(name)") }
    }
}

/// Every row of every table, in a canonical order: what "nothing changed" compares.
func snapshot(_ path: String) -> [String: [[SQLiteValue]]] {
    guard let db = try? Database(path: path, options: [.readOnly]) else { fatalError("snapshot open") }
    var result: [String: [[SQLiteValue]]] = [:]
    guard
        let tables = try? db.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", [],
            {
                $0.string(at: 0) ?? ""
            })
    else { fatalError("snapshot tables") }
    for table in tables {
        // In rowid order; a WITHOUT ROWID table in primary-key order (its scan order).
        let read = { (sql: String) in
            try? db.query(sql, []) { row in (0..<row.columnCount).map { row.value(at: $0) } }
        }
        guard let rows = read("SELECT * FROM \"\(table)\" ORDER BY rowid") ?? read("SELECT * FROM \"\(table)\"")
        else { fatalError("snapshot \(table)") }
        result[table] = rows
    }
    return result
}

func attributeValue(_ input: inout FuzzInput, _ kind: AttributeDescriptor.Kind) -> AttributeValue {
    switch input.byte() % 6 {
    case 0: return .string(String(decoding: input.lengthPrefixed(), as: UTF8.self))
    case 1: return .data(Data(input.lengthPrefixed()))
    case 2: return .integer(Int64(bitPattern: input.uint64()))
    case 3: return .double(Double(bitPattern: input.uint64()))
    case 4: return .date(Date(timeIntervalSinceReferenceDate: Double(Int16(bitPattern: input.uint16())) * 1000))
    default:
        // The kind the schema declares, with a short value (collisions on primary keys become likely).
        switch kind {
        case .number: return .integer(Int64(input.byte() % 4))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(input.byte())))
        default: return .string(["alice", "bob", "mail", ""][Int(input.byte() % 4)])
        }
    }
}

/// A well-formed payload built from the input.
func payload(_ input: inout FuzzInput, member: Data) -> SyncPayload {
    let itemClass = input.pick(classes)
    let mdat = Date(timeIntervalSinceReferenceDate: Double(input.uint16()))
    guard !input.bool() else {
        return SyncPayload(member: member, modificationDate: mdat, itemClass: itemClass, record: nil)
    }
    var attributes: [String: AttributeValue] = [:]
    for _ in 0..<Int(input.byte() % 5) {
        let descriptor = input.pick(itemClass.attributes)
        attributes[descriptor.key] = attributeValue(&input, descriptor.kind)
    }
    let secret: Data? = input.bool() ? Data(input.lengthPrefixed()) : nil
    let record = SyncRecord(
        itemClass: itemClass, attributes: attributes, accessGroup: input.pick(["", "group.a", "team.b"]),
        accessibility: input.pick(accessibilities), creationDate: Date(timeIntervalSinceReferenceDate: 1000),
        modificationDate: mdat, secret: secret)
    return SyncPayload(member: member, modificationDate: mdat, itemClass: itemClass, record: record)
}

func pgValue(_ input: inout FuzzInput) -> PGValue {
    switch input.byte() % 6 {
    case 0: return .null
    case 1: return .bytes(Data(input.lengthPrefixed()))
    case 2: return .text(String(decoding: input.lengthPrefixed(), as: UTF8.self))
    case 3: return .integer(Int64(bitPattern: input.uint64()))
    case 4: return .integer(Int64(input.byte() % 32) == 31 ? 1 << Int64(input.byte() % 40) : Int64(input.byte() % 20))
    default: return .bool(input.bool())
    }
}

/// Circle, member and item rows as the server could return them.
func fuzzServerRows(_ input: inout FuzzInput) {
    let key = circleKey()
    let row = (0..<Int(input.byte() % 8)).map { _ in pgValue(&input) }
    if let circle = try? ServerCircle(row: row) {
        guard row.count == 6, circle.circleID.count == 16, circle.circleID == row[0].bytesValue,
            circle.salt == row[1].bytesValue, circle.keyCheck == row[5].bytesValue,
            UInt64(exactly: row[2].integerValue ?? -1) == circle.parameters.n,
            (1 << 10...1 << 20).contains(circle.parameters.n), circle.parameters.n & (circle.parameters.n - 1) == 0,
            (1...16).contains(circle.parameters.r), (1...4).contains(circle.parameters.p)
        else { fatalError("a circle row outside the documented bounds was accepted") }
    }
    if let item = try? SyncRow(serverRow: row) {
        guard row.count == 5, item.itemID == row[0].bytesValue, item.version == row[1].integerValue,
            item.seq == row[2].integerValue, item.isTombstone == row[3].boolValue, item.blob == row[4].bytesValue
        else { fatalError("an item row was read wrongly") }
    }
    // Member rows: the info opens only when sealed with the circle key for that member.
    var memberRow = row
    let host = String(decoding: input.lengthPrefixed(), as: UTF8.self)
    let sealedHost = input.bool()
    if sealedHost, let member = row.first?.bytesValue, memberRow.count > 1,
        let info = try? SyncServer.sealInfo(host, member: member, key: key)
    {
        memberRow[1] = .bytes(info)
    }
    let member = ServerMember(row: memberRow, key: key)
    if sealedHost, row.first?.bytesValue != nil, memberRow.count > 1 {
        guard member.hostName == host else { fatalError("a sealed member info opened wrongly") }
    }
}

/// A pulled batch, applied to a fresh copy of the keychain.
func fuzzPull(_ input: inout FuzzInput) {
    let key = circleKey()
    resetWorkKeychain()
    let path = "\(work)/sync.keychain-db"
    guard let store = try? KeychainStore.open(at: path),
        let settings = try? SyncSettings(url: "postgresql://fuzz.invalid/db", circle: "fuzz"),
        let engine = try? SyncEngine.offline(store: store, settings: settings, key: key)
    else { fatalError("opening the work keychain") }
    var rows: [SyncRow] = []
    var winners: [Data: (version: Int64, payload: SyncPayload)] = [:]
    for _ in 0..<(1 + Int(input.byte() % 6)) {
        let kind = input.byte() % 4
        let itemID = input.byte() & 0x80 != 0 ? Data(input.bytes(16)) : itemIDs[Int(input.byte() % 4)]
        let version = Int64(Int8(bitPattern: input.byte()))
        let seq = Int64(input.uint16())
        switch kind {
        case 0:  // raw row
            rows.append(
                SyncRow(
                    itemID: itemID, version: version, seq: seq, isTombstone: input.bool(),
                    blob: Data(input.lengthPrefixed())))
        case 1:  // any plaintext, sealed with the circle key
            let plain = Data(input.lengthPrefixed())
            let tombstone = input.bool()
            if let decoded = try? SyncPayload(decoding: plain) {
                guard let again = try? SyncPayload(decoding: decoded.encoded()), again == decoded else {
                    fatalError("a decoded payload does not survive re-encoding")
                }
            }
            guard
                let row = try? SyncRow.seal(
                    plaintext: plain, itemID: itemID, version: version, tombstone: tombstone, key: key)
            else { fatalError("sealing") }
            rows.append(SyncRow(itemID: itemID, version: version, seq: seq, isTombstone: tombstone, blob: row.blob))
        case 2:  // a well-formed payload from some member
            let member = input.bool() ? engine.member : input.pick(otherMembers)
            let value = payload(&input, member: member)
            guard let row = try? SyncRow.seal(value, itemID: itemID, version: version, key: key) else {
                fatalError("sealing")
            }
            rows.append(
                SyncRow(itemID: itemID, version: version, seq: seq, isTombstone: row.isTombstone, blob: row.blob))
            // The row that sets the item is the first one with a version above every earlier one.
            if version
                > max(
                    rows.dropLast().filter { $0.itemID == itemID }.map(\.version).max() ?? .min,
                    (try? store.syncItemState(itemID))??.version ?? .min)
            {
                winners[itemID] = (version, value)
            }
        default:  // a replayed row, perhaps with another sequence number or flag
            guard !sealedRows.isEmpty else { continue }
            let old = sealedRows[Int(input.byte()) % sealedRows.count]
            rows.append(
                SyncRow(
                    itemID: old.itemID, version: old.version, seq: seq,
                    isTombstone: input.byte() == 0x55 ? !old.isTombstone : old.isTombstone, blob: old.blob))
        }
    }
    let conflictsBefore = (try? store.syncConflicts().count) ?? -1
    let before = snapshot(path)
    do {
        try engine.apply(pulled: rows)
    } catch {
        guard snapshot(path) == before else { fatalError("a failed pull changed the keychain: \(error)") }
        return
    }
    guard let cursor = try? store.syncState("cursor"), cursor.count == 8,
        Int64(bitPattern: cursor.reduce(0) { $0 << 8 | UInt64($1) }) == rows.last?.seq
    else { fatalError("the cursor is not the batch's last sequence number") }
    var highest: [Data: Int64] = [:]
    for row in rows { highest[row.itemID] = max(highest[row.itemID] ?? .min, row.version) }
    for (itemID, version) in highest {
        guard let state = try? store.syncItemState(itemID), state.version == version else {
            fatalError("item \(itemID.hexString) is not at version \(version) after the pull")
        }
    }
    // Without conflicts, a live item holds exactly the secret its last row carried.
    guard (try? store.syncConflicts().count) == conflictsBefore else { return }
    for (itemID, winner) in winners where winner.version == highest[itemID] {
        guard let record = winner.payload.record,
            let state = try? store.syncItemState(itemID), state.version == highest[itemID],
            let ref = state.persistentRef,
            !state.hasPendingChange
        else { continue }
        guard let local = try? store.record(ref), local.secret == record.secret else {
            fatalError("item \(itemID.hexString) holds another secret than its row")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func syncFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    if input.byte() & 1 == 0 { fuzzServerRows(&input) } else { fuzzPull(&input) }
    return 0
}

/// Makes the pristine keychain: synchronizable and local items, some pending, one item already synced (known to
/// the ledger at version 2); and with OSEC_FUZZ_SEEDS, seeds made of real payload encodings and rows.
@_cdecl("LLVMFuzzerInitialize")
public func syncFuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    // On tmpfs when there is one: the store fsyncs every commit, which on a disk would bound the run to ~10/s.
    let temporary = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
    let base = temporary + "osec-syncfuzz-\(getpid())"
    baseDirectory = base
    atexit { try? FileManager.default.removeItem(atPath: baseDirectory) }
    pristine = base + "/pristine"
    work = base + "/work"
    try? FileManager.default.createDirectory(
        atPath: pristine, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let key = circleKey()
    var seedPayloads: [SyncPayload] = []
    do {
        let store = try KeychainStore.create(at: pristine + "/sync.keychain-db", password: nil, kdf: .testing)
        let mail: [String: AttributeValue] = ["acct": .string("alice"), "svce": .string("mail")]
        _ = try store.add(
            NewItem(itemClass: .genericPassword, attributes: mail, isSynchronizable: true, secret: Data("s1".utf8)))
        _ = try store.add(
            NewItem(itemClass: .genericPassword, attributes: ["acct": .string("bob")], secret: Data("local".utf8)))
        _ = try store.add(
            NewItem(
                itemClass: .internetPassword, attributes: ["srvr": .string("example.com")],
                isSynchronizable: true, secret: Data("web".utf8)))
        let settings = try SyncSettings(url: "postgresql://fuzz.invalid/db", circle: "fuzz")
        let engine = try SyncEngine.offline(store: store, settings: settings, key: key)
        // The ledger learns item 1 (versions 1 and 2) and item 2 (a tombstone) from "another member".
        let remote = SyncRecord(
            itemClass: .genericPassword, attributes: ["acct": .string("carol"), "svce": .string("mail")],
            accessGroup: "", accessibility: .whenUnlocked, creationDate: Date(timeIntervalSinceReferenceDate: 5),
            modificationDate: Date(timeIntervalSinceReferenceDate: 10), secret: Data("remote".utf8))
        let first = SyncPayload(
            member: otherMembers[0], modificationDate: remote.modificationDate, itemClass: .genericPassword,
            record: remote)
        var changed = remote
        changed.secret = Data("remote2".utf8)
        changed.modificationDate = Date(timeIntervalSinceReferenceDate: 20)
        let second = SyncPayload(
            member: otherMembers[0], modificationDate: changed.modificationDate, itemClass: .genericPassword,
            record: changed)
        let gone = SyncPayload(
            member: otherMembers[1], modificationDate: Date(timeIntervalSinceReferenceDate: 30),
            itemClass: .internetPassword, record: nil)
        let batch = [
            try SyncRow.seal(first, itemID: itemIDs[0], version: 1, key: key),
            try SyncRow.seal(second, itemID: itemIDs[0], version: 2, key: key),
            try SyncRow.seal(gone, itemID: itemIDs[1], version: 1, key: key),
        ].enumerated().map {
            SyncRow(
                itemID: $1.itemID, version: $1.version, seq: Int64($0 + 1), isTombstone: $1.isTombstone,
                blob: $1.blob)
        }
        try engine.apply(pulled: batch)
        sealedRows = batch
        seedPayloads = [first, second, gone]
        // Our own pending changes, as they would be pushed.
        for entry in try store.claimSyncChanges(limit: 10, lease: 0) {
            let own = SyncPayload(
                member: engine.member, modificationDate: entry.record?.modificationDate ?? Date(),
                itemClass: entry.itemClass, record: entry.record)
            seedPayloads.append(own)
            sealedRows.append(try SyncRow.seal(own, itemID: entry.itemID, version: entry.baseVersion + 1, key: key))
        }
        try store.releaseSyncClaims(sealedRows.suffix(from: 3).map(\.itemID))
    } catch {
        fatalError("making the pristine keychain: \(error)")
    }
    guard Seeds.directory != nil else { return 0 }
    // Seeds: pulls of each real payload encoding (sealed raw), the replay of each sealed row, and server rows.
    for (index, value) in seedPayloads.enumerated() {
        var out = FuzzOutput()
        out.byte(1)  // pull
        out.byte(0)  // one row
        out.byte(1)  // sealed plaintext
        out.byte(0)  // an item id from the pool:
        out.byte(UInt8(index % 4))
        out.byte(UInt8(index % 3 + 1))  // version
        out.uint16(UInt16(10 + index))  // seq
        out.lengthPrefixed(Array(value.encoded()))
        out.byte(value.isTombstone ? 1 : 0)
        Seeds.write("payload-\(index)", out.bytes)
    }
    for index in sealedRows.indices {
        var out = FuzzOutput()
        out.byte(1)
        out.byte(1)  // two rows
        for _ in 0..<2 {
            out.byte(3)  // replay
            out.byte(0)
            out.byte(1)
            out.byte(1)
            out.uint16(UInt16(20 + index))
            out.byte(UInt8(index))
            out.byte(0)
        }
        Seeds.write("replay-\(index)", out.bytes)
    }
    var circle = FuzzOutput()
    circle.byte(0)
    circle.byte(6)
    circle.byte(1)
    circle.lengthPrefixed(Array(circleID))
    circle.byte(1)
    circle.lengthPrefixed(Array(repeating: 7, count: 16))
    circle.byte(3)
    circle.uint64(1 << 17)
    circle.byte(3)
    circle.uint64(8)
    circle.byte(3)
    circle.uint64(1)
    circle.byte(1)
    circle.lengthPrefixed(Array(key.keyCheck))
    circle.lengthPrefixed(Array("host.example".utf8))
    circle.byte(1)
    Seeds.write("circle", circle.bytes)
    return 0
}
