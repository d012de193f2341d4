import Foundation
import OSecSystem
import Testing

/// Secrets in locked memory: ``SecureBytes`` keeps a value's bytes in mlock'ed chunks shared by small secrets and
/// gives them back (zeroed) when released.
struct SecureBytesTests {
    @Test func keepsTheBytesAndCopiesThemOut() throws {
        for length in [0, 1, 16, 31, 32, 33, 100, SecureBytes.largeThreshold + 1, 70_000] {
            let bytes = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
            let secure = try SecureBytes(bytes)
            #expect(secure.count == length)
            #expect(secure.copy() == bytes)
            #expect(secure.withTemporaryCopy { $0 } == bytes)
        }
    }

    @Test func manySmallSecretsShareChunksAndStayApart() throws {
        var values: [(Data, SecureBytes)] = []
        for index in 0..<2_000 {
            let bytes = Data((0..<(1 + index % 48)).map { _ in UInt8(truncatingIfNeeded: index) })
            values.append((bytes, try SecureBytes(bytes)))
        }
        for (bytes, secure) in values { #expect(secure.copy() == bytes) }
        // Freeing every other one and allocating again reuses the slots without touching the neighbours.
        for index in stride(from: 0, to: values.count, by: 2) {
            values[index] = (Data([0xAA]), try SecureBytes(Data([0xAA])))
        }
        for (bytes, secure) in values { #expect(secure.copy() == bytes) }
    }
}
