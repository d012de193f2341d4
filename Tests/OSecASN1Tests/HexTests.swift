import Foundation
import Testing

@testable import OSecASN1

/// `HexEncoding` and `HexDecoding` are each other's inverse: lowercase out, either case in.
@Suite struct HexTests {
    @Test func encodesEveryByteAsTwoLowercaseDigits() {
        #expect(HexEncoding.lowercase([UInt8]()) == "")
        #expect(HexEncoding.lowercase([0x00, 0x0F, 0x10, 0xA5, 0xFF]) == "000f10a5ff")
        #expect(HexEncoding.lowercase(Data([0xDE, 0xAD, 0xBE, 0xEF])) == "deadbeef")
        let every = (0...255).map { UInt8($0) }
        let text = HexEncoding.lowercase(every)
        #expect(text.count == 512)
        #expect(text == every.map { String(format: "%02x", $0) }.joined())
    }

    @Test func decodingInvertsEncodingAndAcceptsEitherCase() {
        let every = Data((0...255).map { UInt8($0) })
        #expect(HexDecoding.data(HexEncoding.lowercase(every)) == every)
        #expect(HexDecoding.data(HexEncoding.lowercase(every).uppercased()) == every)
        #expect(HexDecoding.data("0") == nil)
        #expect(HexDecoding.data("0g") == nil)
    }
}
