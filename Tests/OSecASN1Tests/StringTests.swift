import Testing

@testable import OSecASN1

@Suite struct StringTests {
    @Test func utf8() throws {
        let (bytes, decoded) = try roundTrip(ASN1UTF8String("Zürich ✓"))
        #expect(bytes.first == 0x0c)
        #expect(decoded.string == "Zürich ✓")
        expectASN1Error(.invalidString) { try ASN1UTF8String(derEncoded: hex("0c02c328")) }
    }

    @Test func printable() throws {
        #expect(try roundTrip(ASN1PrintableString("Example CA (1), Inc.")).decoded.string == "Example CA (1), Inc.")
        expectASN1Error(.invalidString) { try ASN1PrintableString("a*b") }
        expectASN1Error(.invalidString) { try ASN1PrintableString("a@b") }
        expectASN1Error(.invalidString) { try ASN1PrintableString(derEncoded: hex("1301 26")) }  // '&'
    }

    @Test func ia5VisibleNumeric() throws {
        #expect(try roundTrip(ASN1IA5String("a@b.example")).decoded.string == "a@b.example")
        expectASN1Error(.invalidString) { try ASN1IA5String(derEncoded: hex("1601 80")) }
        #expect(try roundTrip(ASN1VisibleString("hello ~")).decoded.string == "hello ~")
        expectASN1Error(.invalidString) { try ASN1VisibleString(derEncoded: hex("1a01 0a")) }
        #expect(try roundTrip(ASN1NumericString("12 34")).decoded.string == "12 34")
        expectASN1Error(.invalidString) { try ASN1NumericString("12a") }
    }

    @Test func bmp() throws {
        let (bytes, decoded) = try roundTrip(ASN1BMPString("Aé€😀"))
        #expect(bytes == hex("1e0a 0041 00e9 20ac d83d de00"))
        #expect(decoded.string == "Aé€😀")
        expectASN1Error(.invalidString) { try ASN1BMPString(derEncoded: hex("1e03 004100")) }
        expectASN1Error(.invalidString) { try ASN1BMPString(derEncoded: hex("1e02 d83d")) }
    }

    @Test func universal() throws {
        let (bytes, decoded) = try roundTrip(ASN1UniversalString("A😀"))
        #expect(bytes == hex("1c08 00000041 0001f600"))
        #expect(decoded.string == "A😀")
        expectASN1Error(.invalidString) { try ASN1UniversalString(derEncoded: hex("1c03 000041")) }
        expectASN1Error(.invalidString) { try ASN1UniversalString(derEncoded: hex("1c04 0000d800")) }
        expectASN1Error(.invalidString) { try ASN1UniversalString(derEncoded: hex("1c04 00110000")) }
    }

    @Test func teletexIsLatin1() throws {
        #expect(try ASN1TeletexString(derEncoded: hex("1403 41e9ff")).string == "Aéÿ")
        #expect(try ASN1TeletexString("Aé").derEncoded() == hex("1402 41e9"))
        expectASN1Error(.invalidString) { try ASN1TeletexString("€") }
    }

    @Test func wrongTagIsRejected() {
        expectASN1Error(.unexpectedTag) { try ASN1UTF8String(derEncoded: hex("1301 41")) }
    }
}
