import Foundation

/// One byte that C functions can point at when a Swift buffer is empty (some OpenSSL calls reject NULL).
/// `nonisolated(unsafe)`: written once during lazy initialisation, then only ever read (OpenSSL never
/// writes through input pointers).
nonisolated(unsafe) private let emptyByte: UnsafeMutableRawPointer = {
    let pointer = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
    pointer.storeBytes(of: 0, as: UInt8.self)
    return pointer
}()

extension Data {
    /// Lends the bytes as a non-NULL pointer and a count (typed-throws wrapper around `withUnsafeBytes`).
    func withBytes<R>(
        _ body: (UnsafeRawPointer, Int) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        let result: Result<R, CryptoError> = withUnsafeBytes { buffer in
            let base = buffer.baseAddress ?? UnsafeRawPointer(emptyByte)
            return Result { () throws(CryptoError) -> R in try body(base, buffer.count) }
        }
        return try result.get()
    }

    /// Creates `capacity` bytes, lets `body` fill them and return how many it wrote, and trims to that.
    /// The capacity is always at least one byte so the pointer is never NULL.
    static func filling(
        capacity: Int, _ body: (UnsafeMutableRawPointer) throws(CryptoError) -> Int
    ) throws(CryptoError) -> Data {
        var data = Data(count: Swift.max(capacity, 1))
        let result: Result<Int, CryptoError> = data.withUnsafeMutableBytes { buffer in
            Result { () throws(CryptoError) -> Int in
                guard let base = buffer.baseAddress else { throw CryptoError(.internalError, "allocation failed") }
                return try body(base)
            }
        }
        let used = try result.get()
        guard used >= 0, used <= capacity else { throw CryptoError(.internalError, "output size out of range") }
        if used < data.count { data.removeSubrange(used...) }
        return data
    }

    /// Overwrites the bytes with zeros (for temporaries that held secrets).
    mutating func zeroize() {
        let count = self.count
        guard count > 0 else { return }
        resetBytes(in: startIndex..<(startIndex + count))
    }
}
