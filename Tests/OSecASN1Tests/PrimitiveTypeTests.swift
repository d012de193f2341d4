import Testing

@testable import OSecASN1

@Suite struct PrimitiveTypeTests {
    @Test func booleans() throws {
        #expect(try true.derEncoded() == hex("0101ff"))
        #expect(try false.derEncoded() == hex("010100"))
        #expect(try Bool(derEncoded: hex("0101ff")) == true)
        #expect(try Bool(derEncoded: hex("010100")) == false)
        expectASN1Error(.invalidBoolean) { try Bool(derEncoded: hex("010101")) }
        #expect(try Bool(derEncoded: hex("010101"), rules: .basic) == true)
        expectASN1Error(.invalidBoolean) { try Bool(derEncoded: hex("0102ffff")) }
        expectASN1Error(.invalidBoolean) { try Bool(derEncoded: hex("0100")) }
        expectASN1Error(.unexpectedTag) { try Bool(derEncoded: hex("020100")) }
    }

    @Test func null() throws {
        #expect(try ASN1Null().derEncoded() == hex("0500"))
        _ = try ASN1Null(derEncoded: hex("0500"))
        expectASN1Error(.invalidNull) { try ASN1Null(derEncoded: hex("050100")) }
    }

    @Test(arguments: [
        (0, "020100"), (-1, "0201ff"), (127, "02017f"), (128, "02020080"), (-128, "020180"),
        (-129, "0202ff7f"), (256, "02020100"), (Int.max, "02087fffffffffffffff"), (Int.min, "02088000000000000000"),
    ])
    func integers(value: Int, encoding: String) throws {
        #expect(try value.derEncoded() == hex(encoding))
        #expect(try Int(derEncoded: hex(encoding)) == value)
        let big = try ASN1Integer(derEncoded: hex(encoding))
        #expect(Int(exactly: big) == value)
        #expect(big.isNegative == (value < 0))
    }

    @Test func nonMinimalIntegersRejectedInDER() throws {
        expectASN1Error(.invalidInteger) { try ASN1Integer(derEncoded: hex("02020001")) }
        expectASN1Error(.invalidInteger) { try ASN1Integer(derEncoded: hex("0202ff80")) }
        expectASN1Error(.invalidInteger) { try ASN1Integer(derEncoded: hex("0200")) }
        // The lenient option normalises to minimal form.
        #expect(try ASN1Integer(derEncoded: hex("0203000001"), rules: .basic).bytes == [1][...])
        #expect(try Int(derEncoded: hex("0202ff80"), rules: .basic) == -128)
    }

    @Test func twentyByteSerials() throws {
        let magnitude = hex("8f1e2d3c4b5a69788796a5b4c3d2e1f00112233f")
        let serial = ASN1Integer(unsignedMagnitude: magnitude)
        let (bytes, decoded) = try roundTrip(serial)
        #expect(bytes == hex("0215 00") + magnitude)
        #expect(decoded == serial)
        #expect(decoded.unsignedMagnitude.map(Array.init) == magnitude)
        #expect(Int(exactly: decoded) == nil)
        expectASN1Error(.invalidInteger) { try Int(derEncoded: bytes) }
        #expect(ASN1Integer(unsignedMagnitude: hex("000000")).bytes == [0][...])
        // A negative 20-byte value round-trips too.
        let negative = try ASN1Integer(derEncoded: hex("0214") + hex("80") + [UInt8](repeating: 1, count: 19))
        #expect(negative.isNegative && negative.unsignedMagnitude == nil)
        #expect(try negative.derEncoded() == hex("0214") + hex("80") + [UInt8](repeating: 1, count: 19))
    }

    @Test func enumerated() throws {
        let (bytes, decoded) = try roundTrip(ASN1Enumerated(rawValue: 5))
        #expect(bytes == hex("0a0105"))
        #expect(decoded.rawValue == 5)
    }

    @Test func bitStrings() throws {
        let bits = try ASN1BitString(bytes: hex("a0")[...], paddingBits: 5)
        let (bytes, decoded) = try roundTrip(bits)
        #expect(bytes == hex("030205a0"))
        #expect(decoded == bits)
        #expect(try ASN1BitString(derEncoded: hex("030100")).bytes.isEmpty)
        expectASN1Error(.invalidBitString) { try ASN1BitString(derEncoded: hex("030205a1")) }  // unused bit set
        #expect(try ASN1BitString(derEncoded: hex("030205a1"), rules: .basic).paddingBits == 5)
        expectASN1Error(.invalidBitString) { try ASN1BitString(derEncoded: hex("030208ff")) }
        expectASN1Error(.invalidBitString) { try ASN1BitString(derEncoded: hex("030101")) }  // empty with padding
        expectASN1Error(.invalidBitString) { try ASN1BitString(derEncoded: hex("0300")) }
        // BER constructed: only the last segment may have unused bits.
        let constructed = hex("23 80 03 02 00 ff 03 02 04 f0 00 00")
        let joined = try ASN1BitString(derEncoded: constructed, rules: .basic)
        #expect(joined.bytes == hex("fff0")[...] && joined.paddingBits == 4)
        expectASN1Error(.invalidBitString) {
            try ASN1BitString(derEncoded: hex("23 08 03 02 04 f0 03 02 00 ff"), rules: .basic)
        }
    }

    @Test func octetStrings() throws {
        let (bytes, decoded) = try roundTrip(ASN1OctetString(hex("0102")))
        #expect(bytes == hex("04020102"))
        #expect(decoded.bytes == hex("0102")[...])
    }

    @Test(arguments: [
        ("1.2.840.113549.1.1.11", "06092a864886f70d01010b"),
        ("2.5.4.3", "0603550403"),
        ("2.999", "06028837"),
        ("2.999.3", "0603883703"),
        ("0.0", "060100"),
        ("1.39", "06014f"),
        ("1.2.18446744073709551615", "060b2a81ffffffffffffffff7f"),
    ])
    func objectIdentifiers(dotted: String, encoding: String) throws {
        let oid = try ASN1ObjectIdentifier(dotted: dotted)
        #expect(try oid.derEncoded() == hex(encoding))
        let decoded = try ASN1ObjectIdentifier(derEncoded: hex(encoding))
        #expect(decoded == oid)
        #expect(decoded.description == dotted)
        #expect(decoded.hashValue == oid.hashValue)
    }

    @Test func invalidObjectIdentifiers() {
        expectASN1Error(.invalidObjectIdentifier) { try ASN1ObjectIdentifier(derEncoded: hex("0600")) }
        // non-minimal
        expectASN1Error(.invalidObjectIdentifier) { try ASN1ObjectIdentifier(derEncoded: hex("0603 2a 80 01")) }
        // non-minimal first
        expectASN1Error(.invalidObjectIdentifier) { try ASN1ObjectIdentifier(derEncoded: hex("0602 80 2a")) }
        // truncated
        expectASN1Error(.invalidObjectIdentifier) { try ASN1ObjectIdentifier(derEncoded: hex("0602 2a 86")) }
        expectASN1Error(.invalidObjectIdentifier) {
            try ASN1ObjectIdentifier(derEncoded: hex("060b 2a 82 ff ff ff ff ff ff ff ff 7f"))  // > 64 bits
        }
        for text in ["1", "3.1", "1.40", "1..2", "1.2.", "01.2", "1.2.a", "", "1.2.99999999999999999999999"] {
            expectASN1Error(.invalidObjectIdentifier) { try ASN1ObjectIdentifier(dotted: text) }
        }
        let literal: ASN1ObjectIdentifier = [1, 2, 840]
        #expect(literal.arcs == [1, 2, 840])
    }

    @Test func implicitAndExplicitTagging() throws {
        var coder = DER.Serializer()
        try coder.serialize(ASN1OctetString(hex("aa")), withIdentifier: .contextSpecific(1, constructed: false))
        try coder.serialize(5, explicitlyTaggedWithTagNumber: 2)
        #expect(coder.serializedBytes == hex("8101aa a2030201 05"))
        let implicit = try ASN1OctetString(
            derEncoded: DER.parse(hex("8101aa")), withIdentifier: .contextSpecific(1, constructed: false))
        #expect(implicit.bytes == hex("aa")[...])
        let explicit = try DER.explicitlyTagged(DER.parse(hex("a203020105")), tagNumber: 2) { try Int(derEncoded: $0) }
        #expect(explicit == 5)
        expectASN1Error(.unexpectedTag) {
            try DER.explicitlyTagged(DER.parse(hex("a303020105")), tagNumber: 2) { try Int(derEncoded: $0) }
        }
        // Explicit tags must wrap exactly one element.
        expectASN1Error(.invalidASN1Object) {
            try DER.explicitlyTagged(DER.parse(hex("a20602010502010a")), tagNumber: 2) { try Int(derEncoded: $0) }
        }
    }
}
