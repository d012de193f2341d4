import Foundation
import OSecPostgres
import OSecSync
import Testing

/// The rows a server returns, read without a server (the parsers the sync fuzz target drives): every column is
/// checked, a short or mistyped row is refused or read as unknown, never trusted and never a trap.
@Suite struct ServerRowTests {
    let key: CircleKey

    init() throws {
        key = try CircleKey(circleID: Data(repeating: 7, count: 16), material: Data(repeating: 9, count: 64))
    }

    @Test func aCircleRowIsReadOnlyWithEveryColumnInBounds() throws {
        let good: [PGValue] = [
            .bytes(Data(repeating: 1, count: 16)), .bytes(Data(repeating: 2, count: 16)), .integer(1 << 17),
            .integer(8), .integer(1), .bytes(Data(repeating: 3, count: 32)),
        ]
        let circle = try ServerCircle(row: good)
        #expect(circle.parameters.n == 1 << 17 && circle.parameters.r == 8 && circle.parameters.p == 1)
        var shortID = good
        shortID[0] = .bytes(Data(repeating: 1, count: 15))
        var hugeN = good
        hugeN[2] = .integer(1 << 30)
        var negativeR = good
        negativeR[3] = .integer(-8)
        var textSalt = good
        textSalt[1] = .text("salt")
        for row in [shortID, hugeN, negativeR, textSalt, Array(good.dropLast()), good + [.null], []] {
            #expect(throws: SyncError.self) { try ServerCircle(row: row) }
        }
    }

    @Test func anItemRowNeedsFiveColumnsOfTheRightTypes() throws {
        let good: [PGValue] = [
            .bytes(Data(repeating: 1, count: 16)), .integer(2), .integer(3), .bool(false), .bytes(Data([1, 2])),
        ]
        let row = try SyncRow(serverRow: good)
        #expect(row.version == 2 && row.seq == 3 && !row.isTombstone && row.blob == Data([1, 2]))
        var textVersion = good
        textVersion[1] = .text("2")
        for bad in [textVersion, Array(good.prefix(4)), good + [.null], [PGValue.null]] {
            #expect(throws: SyncError.self) { try SyncRow(serverRow: bad) }
        }
    }

    /// A member row with fewer columns than asked for was indexed past its end (a trap); it is listed as unknown.
    @Test func aShortMemberRowIsListedAsUnknownNotATrap() throws {
        let member = Data(repeating: 4, count: 16)
        let info = try SyncServer.sealInfo("host.example", member: member, key: key)
        #expect(ServerMember(row: [.bytes(member), .bytes(info), .integer(0)], key: key).hostName == "host.example")
        for row: [PGValue] in [
            [], [.bytes(member)], [.bytes(member), .bytes(info)], [.null, .text("x"), .bool(true)],
        ] {
            let listed = ServerMember(row: row, key: key)
            #expect(listed.hostName == (row.count == 2 ? "host.example" : "?"))
        }
        // Info sealed for another member does not open for this one.
        #expect(ServerMember(row: [.bytes(Data(count: 16)), .bytes(info), .integer(0)], key: key).hostName == "?")
    }
}
