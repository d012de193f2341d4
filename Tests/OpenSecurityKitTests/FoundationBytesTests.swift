import Foundation
import Testing

@testable import OpenSecurityKit

/// The bulk copies out of `NSData` that replace Foundation's byte-by-byte bridging: same bytes, every kind of
/// value.
@Suite struct FoundationBytesTests {
    private let bytes: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    @Test func arrayAndDataCopyEveryByte() {
        let object = NSData(bytes: bytes, length: bytes.count)
        #expect(FoundationBytes.array(object) == bytes)
        #expect(FoundationBytes.data(object) == Data(bytes))
        #expect(FoundationBytes.array(NSData()).isEmpty)
    }

    @Test func valuesOfEveryKindAreReadAsBytes() {
        #expect(FoundationBytes.data(from: Data(bytes)) == Data(bytes))
        #expect(FoundationBytes.data(from: NSData(bytes: bytes, length: bytes.count)) == Data(bytes))
        #expect(FoundationBytes.data(from: NSMutableData(bytes: bytes, length: 3)) == Data(bytes.prefix(3)))
        let object: AnyObject = Data(bytes) as NSData
        #expect(FoundationBytes.data(from: object) == Data(bytes))
        #expect(FoundationBytes.data(from: "text") == nil)
        #expect(FoundationBytes.data(from: NSNumber(value: 1)) == nil)
        #expect(FoundationBytes.data(from: nil) == nil)
    }
}
