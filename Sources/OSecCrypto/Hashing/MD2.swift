// MD2 (RFC 1319), written here from the RFC: the one primitive of this package that does not come from
// OpenSSL, because OpenSSL 3 is built without it and Apple's CommonCrypto still declares `CC_MD2`. MD2 is
// broken (preimages and collisions in its compression function); it protects nothing and exists only so that
// code reading old data (MD2-signed certificates, legacy checksums) gets the digest it expects.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// MD2 (RFC 1319): 16-byte blocks, 16-byte digest.
package enum MD2 {
    /// Digest length in bytes.
    package static let outputSize = 16
    /// Block length in bytes.
    package static let blockSize = 16

    /// The permutation S of RFC 1319 §3.2, built from the digits of pi.
    private static let substitution: [UInt8] = [
        41, 46, 67, 201, 162, 216, 124, 1, 61, 54, 84, 161, 236, 240, 6, 19,
        98, 167, 5, 243, 192, 199, 115, 140, 152, 147, 43, 217, 188, 76, 130, 202,
        30, 155, 87, 60, 253, 212, 224, 22, 103, 66, 111, 24, 138, 23, 229, 18,
        190, 78, 196, 214, 218, 158, 222, 73, 160, 251, 245, 142, 187, 47, 238, 122,
        169, 104, 121, 145, 21, 178, 7, 63, 148, 194, 16, 137, 11, 34, 95, 33,
        128, 127, 93, 154, 90, 144, 50, 39, 53, 62, 204, 231, 191, 247, 151, 3,
        255, 25, 48, 179, 72, 165, 181, 209, 215, 94, 146, 42, 172, 86, 170, 198,
        79, 184, 56, 210, 150, 164, 125, 182, 118, 252, 107, 226, 156, 116, 4, 241,
        69, 157, 112, 89, 100, 113, 135, 32, 134, 91, 207, 101, 230, 45, 168, 2,
        27, 96, 37, 173, 174, 176, 185, 246, 28, 70, 97, 105, 52, 64, 126, 15,
        85, 71, 163, 35, 221, 81, 175, 58, 195, 92, 249, 206, 186, 197, 234, 38,
        44, 83, 13, 110, 133, 40, 132, 9, 211, 223, 205, 244, 65, 129, 77, 82,
        106, 220, 55, 200, 108, 193, 171, 250, 36, 225, 123, 8, 12, 189, 177, 74,
        120, 136, 149, 139, 227, 99, 232, 109, 233, 203, 213, 254, 59, 0, 29, 57,
        242, 239, 183, 14, 102, 88, 208, 228, 166, 119, 114, 248, 235, 117, 75, 10,
        49, 68, 80, 180, 143, 237, 31, 26, 219, 153, 141, 51, 159, 17, 131, 20,
    ]

    /// Hashes `count` bytes at `bytes` (nil only when `count` is 0). Returns the 16-byte digest, or nil for a
    /// negative count or a nil buffer with bytes to read.
    package static func hash(bytes: UnsafeRawPointer?, count: Int) -> [UInt8]? {
        guard count >= 0, bytes != nil || count == 0 else { return nil }
        var context = Context()
        context.update(bytes: bytes, count: count)
        return [UInt8](context.finalize())
    }

    /// An incremental MD2: a trivial value type (no references, so it may be written over uninitialised
    /// memory, and copying it copies the state).
    package struct Context: Sendable {
        /// X[0..<16] of RFC 1319 §3.4: the running digest.
        package private(set) var state = SIMD16<UInt8>()
        /// C of §3.2: the running checksum.
        package private(set) var checksum = SIMD16<UInt8>()
        /// The bytes of the block being filled (`pendingCount` of them are valid).
        package private(set) var pending = SIMD16<UInt8>()
        /// How many bytes of `pending` are filled (0...15 between calls).
        package private(set) var pendingCount = 0

        /// Starts a new MD2 computation.
        package init() {}

        /// Feeds `count` bytes at `bytes` (nil or a non-positive count: nothing).
        package mutating func update(bytes: UnsafeRawPointer?, count: Int) {
            guard let bytes, count > 0 else { return }
            for index in 0..<count {
                pending[pendingCount] = bytes.load(fromByteOffset: index, as: UInt8.self)
                pendingCount += 1
                if pendingCount == MD2.blockSize {
                    absorb(pending)
                    pendingCount = 0
                }
            }
        }

        /// The digest of everything fed so far (the context itself is unchanged).
        package func finalize() -> Data {
            var copy = self
            // §3.1: pad with i bytes of value i, 1 <= i <= 16, to a whole block.
            let padLength = MD2.blockSize - pendingCount
            let padding = [UInt8](repeating: UInt8(padLength), count: padLength)
            padding.withUnsafeBytes { copy.update(bytes: $0.baseAddress, count: padLength) }
            // §3.2: then the checksum as the last block (absorbed without updating the checksum further).
            copy.compress(copy.checksum)
            return Data((0..<16).map { copy.state[$0] })
        }

        /// One 16-byte block of the (padded) message: the checksum step of §3.2, then the compression of §3.4.
        private mutating func absorb(_ block: SIMD16<UInt8>) {
            var last = checksum[15]
            for j in 0..<16 {
                checksum[j] ^= MD2.substitution[Int(block[j] ^ last)]
                last = checksum[j]
            }
            compress(block)
        }

        /// §3.4: X = state ‖ block ‖ state⊕block, 18 rounds of substitution, the first 16 bytes kept.
        private mutating func compress(_ block: SIMD16<UInt8>) {
            var x = [UInt8](repeating: 0, count: 48)
            for j in 0..<16 {
                x[j] = state[j]
                x[16 + j] = block[j]
                x[32 + j] = state[j] ^ block[j]
            }
            var t: UInt8 = 0
            for round in 0..<18 {
                for k in 0..<48 {
                    x[k] ^= MD2.substitution[Int(t)]
                    t = x[k]
                }
                t = t &+ UInt8(round)
            }
            for j in 0..<16 { state[j] = x[j] }
        }
    }
}
