import Foundation
import OSecPostgres
import Testing

/// Statement parameters in PostgreSQL's binary format, written into one buffer per statement: every kind of value,
/// empty ones (which must not become NULL) and NULL itself come back from the server as they were sent.
@Suite(.serialized, .enabled(if: PGTestServer.isAvailable, "needs PostgreSQL's server binaries"))
struct PGParameterTests {
    @Test func everyKindOfParameterRoundTripsThroughTheServer() throws {
        let db = try PGTestServer.shared().connect()
        let blob = Data((0..<300).map { UInt8($0 % 256) })
        let row = try #require(
            try db.execute(
                """
                SELECT $1::bytea, $2::bytea, $3::text, $4::text, $5::bigint, $6::bool, $7::bytea IS NULL,
                    $8::bigint, $9::text
                """,
                [
                    .bytes(blob), .bytes(Data()), .text("grüße"), .text(""), .integer(-1 << 40), .bool(true), .null,
                    .integer(Int64.min), .text("last"),
                ]
            ).rows.first)
        #expect(
            row == [
                .bytes(blob), .bytes(Data()), .text("grüße"), .text(""), .integer(-1 << 40), .bool(true), .bool(true),
                .integer(Int64.min), .text("last"),
            ])
    }

    @Test func arraysOfEveryElementTypeRoundTripElementByElement() throws {
        let db = try PGTestServer.shared().connect()
        let blobs = [Data([1, 2, 3]), Data(), Data(repeating: 0xFF, count: 1000), Data([0])]
        let numbers: [Int64] = [0, -1, Int64.max, Int64.min, 42]
        let flags = [true, false, false, true]
        let unnested = try db.execute(
            "SELECT b, ord FROM unnest($1::bytea[]) WITH ORDINALITY AS t(b, ord) ORDER BY ord", [.bytesArray(blobs)]
        ).rows.map { $0[0] }
        #expect(unnested == blobs.map(PGValue.bytes))
        let integers = try db.execute(
            "SELECT n FROM unnest($1::bigint[]) WITH ORDINALITY AS t(n, ord) ORDER BY ord", [.integerArray(numbers)]
        ).rows.map { $0[0] }
        #expect(integers == numbers.map(PGValue.integer))
        let booleans = try db.execute(
            "SELECT f FROM unnest($1::boolean[]) WITH ORDINALITY AS t(f, ord) ORDER BY ord", [.boolArray(flags)]
        ).rows.map { $0[0] }
        #expect(booleans == flags.map(PGValue.bool))
        // Empty arrays of every type, next to other parameters.
        let empty = try #require(
            try db.execute(
                """
                SELECT cardinality($1::bytea[]), cardinality($2::bigint[]), cardinality($3::boolean[]), $4::text
                """, [.bytesArray([]), .integerArray([]), .boolArray([]), .text("after")]
            ).rows.first)
        #expect(empty == [.integer(0), .integer(0), .integer(0), .text("after")])
    }
}
