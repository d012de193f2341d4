import Testing

@testable import OSecASN1

/// `ASN1Header` reads a node's identifier and length with the parser's own rules (it is how the project finds where
/// a node ends without parsing it), and `ASN1Node.contentBytes` gives any node's content octets.
@Suite struct HeaderTests {
    @Test func readsShortAndLongFormHeadersAndIgnoresWhatFollows() throws {
        let short = try ASN1Header(reading: hex("30 03 02 01 05 ff ff")[...])
        #expect(short.identifier == .sequence)
        #expect(short.headerLength == 2 && short.contentLength == 3 && short.encodedLength == 5)

        let content = [UInt8](repeating: 0x61, count: 200)
        let long = try ASN1Header(reading: (hex("04 81 c8") + content + [0x00])[...])
        #expect(long.identifier == .octetString)
        #expect(long.headerLength == 3 && long.contentLength == 200 && long.encodedLength == 203)

        let twoOctets = try ASN1Header(reading: (hex("04 82 01 00") + [UInt8](repeating: 0, count: 256))[...])
        #expect(twoOctets.headerLength == 4 && twoOctets.contentLength == 256)

        let highTag = try ASN1Header(reading: hex("9f 81 00 01 aa")[...])
        #expect(highTag.identifier == ASN1Identifier(tagNumber: 128, tagClass: .contextSpecific, constructed: false))
        #expect(highTag.headerLength == 4 && highTag.contentLength == 1)
    }

    @Test func keepsIndicesOfTheOriginalBuffer() throws {
        let buffer = hex("ff ff 30 01 05")
        let header = try ASN1Header(reading: buffer[2...])
        #expect(header.headerLength == 2 && header.encodedLength == 3)
    }

    @Test func rejectsWhatTheParserRejects() {
        // Non-minimal lengths: long form for a short length, a leading zero length octet.
        expectASN1Error(.invalidLength) { try ASN1Header(reading: hex("30 81 03 02 01 05")[...]) }
        expectASN1Error(.invalidLength) {
            try ASN1Header(reading: (hex("04 82 00 c8") + [UInt8](repeating: 0, count: 200))[...])
        }
        expectASN1Error(.invalidLength) { try ASN1Header(reading: hex("30 ff 00")[...]) }
        // A declared length longer than the bytes at hand, truncated headers.
        expectASN1Error(.truncatedField) { try ASN1Header(reading: hex("30 04 02 01 05")[...]) }
        expectASN1Error(.truncatedField) { try ASN1Header(reading: hex("30 84 ff ff ff ff")[...]) }
        expectASN1Error(.truncatedField) { try ASN1Header(reading: hex("30 82 01")[...]) }
        expectASN1Error(.truncatedField) { try ASN1Header(reading: hex("30")[...]) }
        expectASN1Error(.truncatedField) { try ASN1Header(reading: [UInt8]()[...]) }
        // Identifiers: end-of-contents / universal 0, high-tag-number form for a low tag, a leading zero group.
        expectASN1Error(.invalidIdentifier) { try ASN1Header(reading: hex("00 00")[...]) }
        expectASN1Error(.invalidIdentifier) { try ASN1Header(reading: hex("9f 1e 01 aa")[...]) }
        expectASN1Error(.invalidIdentifier) { try ASN1Header(reading: hex("9f 80 81 00 01 aa")[...]) }
        // Indefinite lengths: never in DER; in BER only on constructed nodes.
        expectASN1Error(.invalidLength) { try ASN1Header(reading: hex("30 80 02 01 05 00 00")[...]) }
        expectASN1Error(.invalidLength) { try ASN1Header(reading: hex("04 80 61 00 00")[...], rules: .basic) }
    }

    @Test func berAllowsWhatDERForbids() throws {
        let indefinite = try ASN1Header(reading: hex("30 80 02 01 05 00 00")[...], rules: .basic)
        #expect(indefinite.headerLength == 2 && indefinite.contentLength == nil && indefinite.encodedLength == nil)
        let nonMinimal = try ASN1Header(reading: hex("30 81 03 02 01 05")[...], rules: .basic)
        #expect(nonMinimal.headerLength == 3 && nonMinimal.contentLength == 3)
    }

    @Test func agreesWithTheParserOnWhereANodeEnds() throws {
        let encodings = [
            hex("30 0a 02 01 05 30 05 04 03 61 62 63"), hex("05 00"), hex("9f 81 00 01 aa"),
            hex("a0 03 02 01 01"), hex("04 81 80") + [UInt8](repeating: 7, count: 128),
        ]
        for encoding in encodings {
            let node = try DER.parse(encoding)
            let header = try ASN1Header(reading: (encoding + [0x30, 0x00])[...])
            #expect(header.identifier == node.identifier)
            #expect(header.encodedLength == node.encodedBytes.count)
            #expect(Array(node.contentBytes) == Array(encoding.dropFirst(header.headerLength)))
        }
    }

    @Test func contentBytesOfConstructedNodes() throws {
        let sequence = try DER.parse(hex("30 06 02 01 05 02 01 06"))
        #expect(Array(sequence.contentBytes) == hex("02 01 05 02 01 06"))
        #expect(sequence.contentBytes.startIndex == 2)
        let empty = try DER.parse(hex("30 00"))
        #expect(empty.contentBytes.isEmpty)
        let primitive = try DER.parse(hex("04 03 61 62 63"))
        #expect(Array(primitive.contentBytes) == hex("61 62 63"))
        // BER indefinite length: the content stops before the end-of-contents octets.
        let indefinite = try DER.parse(hex("30 80 02 01 05 00 00"), rules: .basic)
        #expect(Array(indefinite.contentBytes) == hex("02 01 05"))
    }
}
