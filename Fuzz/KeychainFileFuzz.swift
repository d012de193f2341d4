// libFuzzer target for the keychain file itself: a real keychain (database, its WAL and the device-key file) is
// made once; each input picks one of two snapshots (checkpointed, or with committed pages still in the WAL),
// overwrites, flips or truncates bytes of its files, then opens it and reads every item. Built by
// `Fuzz/fuzz.sh keychainfile`.
//
// Asserted: opening and reading either fail with a code a damaged file may give (invalidKeychain, decode-type
// integrity failures, authFailed for a tampered wrapped key, io for SQLite's "malformed"), or return for each item
// exactly the secret it was stored with. A wrong secret — another item's, or bytes that were never stored — and
// every other error code (internal, param, …) are findings. An item may be missing (its page is gone), never
// changed.
import Foundation
import OSecKeychain

struct Expected {
    let itemClass: ItemClass
    let attributes: [String: AttributeValue]
    /// The secrets a read may return: the one stored, and for an item changed later in the WAL, the one before
    /// (a damaged WAL frame is ignored by SQLite: the older committed state is read, not a wrong one).
    var secrets: [Data]
}

nonisolated(unsafe) var baseDirectory = ""
/// Snapshot directories: [0] checkpointed, [1] with committed frames in the WAL.
nonisolated(unsafe) var snapshots: [String] = []
nonisolated(unsafe) var work = ""
nonisolated(unsafe) var expected: [Expected] = []
let fileName = "fuzz.keychain-db"
let fileSuffixes = ["", "-wal", ".devkey"]

let allowed: [KeychainStoreError.Code] = [.invalidKeychain, .integrityCheckFailed, .authFailed, .io, .noSuchKeychain]

func check(_ error: KeychainStoreError, _ step: String) {
    guard allowed.contains(error.code) else { fatalError("\(step) of a damaged keychain failed with \(error)") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func keychainFileFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let source = snapshots[Int(input.byte() & 1)]
    let fm = FileManager.default
    try? fm.removeItem(atPath: work)
    guard
        (try? fm.createDirectory(
            atPath: work, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])) != nil
    else { fatalError("work directory") }
    var files: [[UInt8]] = fileSuffixes.map { Array(fm.contents(atPath: "\(source)/\(fileName)\($0)") ?? Data()) }
    // Edits: (file, kind, offset, value); offsets wrap around the file's size.
    for _ in 0..<(1 + Int(input.byte() % 8)) {
        let which = Int(input.byte()) % files.count
        let kind = input.byte() % 8
        let offset = Int(input.uint32())
        guard !files[which].isEmpty else { continue }
        let at = offset % files[which].count
        switch kind {
        case 0: files[which][at] ^= input.byte() | 1  // flip bits
        case 1: files[which][at] = input.byte()  // set a byte
        case 2: files[which].removeSubrange(at...)  // truncate
        case 3:  // overwrite a run with input bytes
            let run = input.lengthPrefixed()
            for (index, byte) in run.enumerated() where at + index < files[which].count {
                files[which][at + index] = byte
            }
        case 4:  // copy a 4 KiB page over another (pages of a B-tree swapped, a WAL frame replayed)
            let from = (Int(input.uint16()) * 4096) % files[which].count
            let length = min(4096, files[which].count - max(at, from))
            if length > 0 { files[which].replaceSubrange(at..<at + length, with: files[which][from..<from + length]) }
        case 5: files[which] = []  // the file is empty (a crash before its first write)
        default: files[which][at] = 0  // zero a byte
        }
    }
    for (suffix, bytes) in zip(fileSuffixes, files) where !(suffix != "" && bytes.isEmpty) {
        guard
            fm.createFile(
                atPath: "\(work)/\(fileName)\(suffix)", contents: Data(bytes),
                attributes: [.posixPermissions: 0o600])
        else { fatalError("writing the damaged keychain") }
    }
    let store: KeychainStore
    do {
        store = try KeychainStore.open(at: "\(work)/\(fileName)")
    } catch {
        check(error, "opening")
        return 0
    }
    for item in expected {
        let found: [KeychainItem]
        do {
            found = try store.find(ItemQuery(itemClass: item.itemClass, attributes: item.attributes))
        } catch {
            check(error, "finding an item")
            continue
        }
        guard found.count <= 1 else { fatalError("two items with one primary key") }
        guard let sealed = found.first?.secret else { continue }
        do {
            let secret = try sealed.open()
            guard item.secrets.contains(secret) else { fatalError("a damaged keychain returned a wrong secret") }
        } catch {
            check(error, "opening a secret")
        }
    }
    return 0
}

/// Makes the keychain: items of each class with distinct secrets; snapshot 0 after a clean close (everything in
/// the database file), snapshot 1 copied while the store is open after more writes (pages in the WAL).
@_cdecl("LLVMFuzzerInitialize")
public func keychainFileFuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    let fm = FileManager.default
    let temporary = fm.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
    baseDirectory = temporary + "osec-keychainfilefuzz-\(getpid())"
    atexit { try? FileManager.default.removeItem(atPath: baseDirectory) }
    snapshots = [baseDirectory + "/snapshot0", baseDirectory + "/snapshot1"]
    work = baseDirectory + "/work"
    let live = baseDirectory + "/live"
    for directory in snapshots + [live] {
        try? fm.createDirectory(
            atPath: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
    }
    func add(_ store: KeychainStore, _ item: Expected, accessibility: Accessibility? = nil) throws {
        _ = try store.add(
            NewItem(
                itemClass: item.itemClass, attributes: item.attributes, accessibility: accessibility,
                secret: item.secrets[0]))
        expected.append(item)
    }
    func copy(to directory: String) {
        for suffix in fileSuffixes {
            guard let bytes = fm.contents(atPath: "\(live)/\(fileName)\(suffix)") else { continue }
            _ = fm.createFile(
                atPath: "\(directory)/\(fileName)\(suffix)", contents: bytes,
                attributes: [.posixPermissions: 0o600])
        }
    }
    do {
        var store: KeychainStore? = try KeychainStore.create(at: "\(live)/\(fileName)", password: nil, kdf: .testing)
        guard let first = store else { fatalError("store") }
        for index in 0..<6 {
            try add(
                first,
                Expected(
                    itemClass: .genericPassword,
                    attributes: ["acct": .string("user\(index)"), "svce": .string("service")],
                    secrets: [Data("secret number \(index) ".utf8) + Data(repeating: UInt8(index), count: 40 * index)]),
                accessibility: index % 2 == 0 ? .whenUnlocked : .always)
        }
        try add(
            first,
            Expected(
                itemClass: .internetPassword,
                attributes: ["srvr": .string("example.com"), "acct": .string("user0"), "port": .integer(443)],
                secrets: [Data("web password".utf8)]))
        store = nil  // closes: everything checkpointed into the database file
        copy(to: snapshots[0])
        let second = try KeychainStore.open(at: "\(live)/\(fileName)")
        try add(
            second,
            Expected(
                itemClass: .genericPassword, attributes: ["acct": .string("late"), "svce": .string("wal")],
                secrets: [Data("only in the WAL".utf8)]))
        _ = try second.update(
            ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("user1")]),
            with: ItemChanges(secret: Data("changed in the WAL".utf8)))
        copy(to: snapshots[1])
        // Snapshot 0 predates these two writes: there the WAL-only item is missing (allowed) and user1 has its
        // old secret; both secrets are right for user1.
        if let index = expected.firstIndex(where: { $0.attributes["acct"] == .string("user1") }) {
            expected[index].secrets.append(Data("changed in the WAL".utf8))
        }
        withExtendedLifetime(second) {}
    } catch {
        fatalError("making the keychain: \(error)")
    }
    guard Seeds.directory != nil else { return 0 }
    // Seeds: one small edit in each file of each snapshot (the fuzzer finds the rest).
    for snapshot in 0..<2 {
        for file in 0..<fileSuffixes.count {
            var out = FuzzOutput()
            out.byte(UInt8(snapshot))
            out.byte(0)  // one edit
            out.byte(UInt8(file))
            out.byte(0)  // flip
            out.uint16(0)
            out.uint16(UInt16(100 + file * 37))
            out.byte(0x20)
            Seeds.write("edit-\(snapshot)-\(file)", out.bytes)
        }
    }
    return 0
}
