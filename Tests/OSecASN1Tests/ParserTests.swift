import Testing

@testable import OSecASN1

@Suite struct ParserTests {
    @Test func parsesNestedStructureWithExactSlices() throws {
        let bytes = hex("30 0a 02 01 05 30 05 04 03 61 62 63")
        let root = try DER.parse(bytes)
        #expect(root.identifier == .sequence)
        #expect(root.encodedBytes.startIndex == 0 && root.encodedBytes.count == 12)
        let children = Array(root.children!)
        #expect(children.count == 2)
        #expect(children[0].identifier == .integer)
        #expect(Array(children[0].primitiveContent!) == [5])
        #expect(children[1].encodedBytes.startIndex == 5)
        let inner = Array(children[1].children!)
        #expect(inner.count == 1)
        #expect(inner[0].primitiveContent!.startIndex == 9)
        #expect(inner[0].depth == 3)
    }

    @Test func keepsIndicesOfTheOriginalBuffer() throws {
        let buffer = hex("ffff 30 03 02 01 07 ffff")
        let root = try DER.parse(buffer[2..<7])
        #expect(root.encodedBytes.startIndex == 2)
        #expect(Array(buffer[root.children!.first!.encodedBytes.indices]) == hex("020107"))
    }

    @Test func highTagNumbers() throws {
        let node = try DER.parse(hex("9f 81 00 01 aa"))
        #expect(node.identifier == ASN1Identifier(tagNumber: 128, tagClass: .contextSpecific, constructed: false))
        var coder = DER.Serializer()
        try coder.serialize(node)
        #expect(coder.serializedBytes == hex("9f 81 00 01 aa"))
        expectASN1Error(.invalidIdentifier) { try DER.parse(hex("9f 80 81 00 01 aa")) }  // leading zero group
        expectASN1Error(.invalidIdentifier) { try DER.parse(hex("9f 1e 01 aa")) }  // should be low form
        expectASN1Error(.invalidIdentifier) { try DER.parse(hex("9f ff ff ff ff 7f 01 aa")) }
        expectASN1Error(.truncatedField) { try DER.parse(hex("9f 81")) }
    }

    @Test func longFormLengths() throws {
        let content = [UInt8](repeating: 0x41, count: 300)
        let bytes = hex("04 82 01 2c") + content
        let node = try DER.parse(bytes)
        #expect(node.primitiveContent!.count == 300)
        expectASN1Error(.invalidLength) { try DER.parse(hex("04 81 05") + content.prefix(5)) }
        expectASN1Error(.invalidLength) { try DER.parse(hex("04 82 00 05") + content.prefix(5)) }
        expectASN1Error(.invalidLength) { try DER.parse(hex("04 ff 05")) }
        #expect(try DER.parse(hex("04 81 05") + content.prefix(5), rules: .basic).primitiveContent!.count == 5)
        #expect(try DER.parse(hex("04 82 00 05") + content.prefix(5), rules: .basic).primitiveContent!.count == 5)
    }

    @Test func serializerPatchesLongLengths() throws {
        for size in [0, 1, 127, 128, 255, 256, 65_535, 65_536] {
            var coder = DER.Serializer()
            try coder.serialize(ASN1OctetString([UInt8](repeating: 7, count: size)))
            let node = try DER.parse(coder.serializedBytes)
            #expect(node.primitiveContent!.count == size)
        }
    }

    @Test func indefiniteLengthOnlyWithBER() throws {
        let bytes = hex("30 80 02 01 01 30 80 05 00 00 00 00 00")
        expectASN1Error(.invalidLength) { try DER.parse(bytes) }
        let node = try DER.parse(bytes, rules: .basic)
        #expect(node.encodedBytes.count == bytes.count)
        let children = Array(node.children!)
        #expect(children.count == 2)
        #expect(Array(children[1].children!).count == 1)
        // Re-encoding converts to definite lengths.
        var coder = DER.Serializer()
        try coder.serialize(node)
        #expect(coder.serializedBytes == hex("30 07 02 01 01 30 02 05 00"))
        // Missing end-of-contents, and indefinite primitive, are rejected.
        expectASN1Error(.truncatedField) { try DER.parse(hex("30 80 02 01 01"), rules: .basic) }
        expectASN1Error(.invalidLength) { try DER.parse(hex("04 80 00 00"), rules: .basic) }
        expectASN1Error(.invalidIdentifier) { try DER.parse(hex("30 02 00 00")) }
        // Found by the fuzzer: universal tag 0 with an indefinite length must be rejected as well.
        expectASN1Error(.invalidIdentifier) {
            try DER.parse(hex("30 80 02 01 03 20 80 04 01 61 00 00 00 00"), rules: .basic)
        }
    }

    @Test func constructedOctetStringConcatenatedOnlyWithBER() throws {
        let bytes = hex("24 80 04 02 61 62 24 03 04 01 63 00 00")
        expectASN1Error(.invalidLength) { try ASN1OctetString(derEncoded: bytes) }
        let definite = hex("24 09 04 02 61 62 24 03 04 01 63")
        expectASN1Error(.invalidEncoding) { try ASN1OctetString(derEncoded: definite) }
        #expect(try ASN1OctetString(derEncoded: bytes, rules: .basic).bytes == hex("616263")[...])
        #expect(try ASN1OctetString(derEncoded: definite, rules: .basic).bytes == hex("616263")[...])
        #expect(try ASN1UTF8String(derEncoded: hex("2c 06 0c 01 61 0c 01 62"), rules: .basic).string == "ab")
        // Segments must carry the string's own tag.
        expectASN1Error(.unexpectedTag) { try ASN1OctetString(derEncoded: hex("24 03 02 01 00"), rules: .basic) }
    }

    @Test func trailingBytesAreRejected() {
        expectASN1Error(.trailingBytes) { try DER.parse(hex("05 00 00")) }
        expectASN1Error(.trailingBytes) { try DER.parse(hex("30 00 30 00")) }
        // Inside a definite-length parent, the child must end exactly at the parent's end.
        expectASN1Error(.truncatedField) { try DER.parse(hex("30 03 02 02 01")) }
    }

    @Test func emptyInputIsRejected() {
        expectASN1Error(.truncatedField) { try DER.parse([UInt8]()) }
    }

    @Test func depthBombIsRejected() throws {
        func nested(_ depth: Int) -> [UInt8] {
            var bytes: [UInt8] = [0x05, 0x00]
            for _ in 1..<depth {
                var coder = DER.Serializer()
                coder.appendConstructedNode(identifier: .sequence) { $0.appendRawBytes(bytes) }
                bytes = coder.serializedBytes
            }
            return bytes
        }
        #expect(try DER.parse(nested(DER.maximumNestingDepth)).depth == 1)
        expectASN1Error(.tooDeeplyNested) { try DER.parse(nested(DER.maximumNestingDepth + 1)) }
        // Indefinite-length bomb: 100,000 nested "30 80" headers.
        let bomb: [UInt8] = (0..<200_000).map { $0 % 2 == 0 ? 0x30 : 0x80 }
        expectASN1Error(.tooDeeplyNested) { try DER.parse(bomb, rules: .basic) }
    }

    @Test func hugeDeclaredLengthsFailWithoutAllocating() {
        expectASN1Error(.truncatedField) { try DER.parse(hex("04 84 ff ff ff ff 00")) }
        expectASN1Error(.truncatedField) { try DER.parse(hex("04 88 7f ff ff ff ff ff ff ff 00"), rules: .basic) }
        expectASN1Error(.invalidLength) { try DER.parse(hex("04 89 01 00 00 00 00 00 00 00 00"), rules: .basic) }
        expectASN1Error(.invalidLength) { try DER.parse(hex("04 88 ff ff ff ff ff ff ff ff"), rules: .basic) }
    }

    @Test func everyPrefixOfANestedEncodingThrows() throws {
        for encoding in [Fixtures.sample] + Fixtures.caCertificates.prefix(3) {
            _ = try DER.parse(encoding)
            for length in 0..<encoding.count {
                #expect(throws: ASN1Error.self) { try DER.parse(encoding[0..<length]) }
                #expect(throws: ASN1Error.self) { try DER.parse(encoding[0..<length], rules: .basic) }
            }
        }
    }

    @Test func singleByteCorruptionsNeverCrash() throws {
        var outcomes = (parsed: 0, rejected: 0)
        let encoding = Fixtures.caCertificates.first ?? Fixtures.sample
        for index in encoding.indices {
            for value: UInt8 in [0x00, 0x01, 0x7f, 0x80, 0x81, 0xff, encoding[index] ^ 0x20] {
                var corrupted = encoding
                corrupted[index] = value
                for rules in [EncodingRules.distinguished, .basic] {
                    if let node = try? DER.parse(corrupted, rules: rules) {
                        outcomes.parsed += 1
                        _ = try? node.derEncoded()
                    } else {
                        outcomes.rejected += 1
                    }
                }
            }
        }
        #expect(outcomes.rejected > 0)
        #expect(outcomes.parsed > 0)
    }

    @Test func errorsCompareByCode() {
        #expect(ASN1Error(.invalidLength, "a") == ASN1Error(.invalidLength, "b"))
        #expect(ASN1Error(.invalidLength, "a") != ASN1Error(.truncatedField, "a"))
    }
}
