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
    /// The capacity is always at least one byte so the pointer is never NULL. The buffer is not zero-filled
    /// first (for a 1 MiB AES-GCM output that memset alone cost 7% of the operation); only the bytes `body`
    /// reports as written become the Data.
    static func filling(
        capacity: Int, _ body: (UnsafeMutableRawPointer) throws(CryptoError) -> Int
    ) throws(CryptoError) -> Data {
        let size = Swift.max(capacity, 1)
        let base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        let used: Int
        do {
            used = try body(base)
        } catch {
            base.deallocate()
            throw error
        }
        guard used >= 0, used <= capacity else {
            base.deallocate()
            throw CryptoError(.internalError, "output size out of range")
        }
        return Data(bytesNoCopy: base, count: used, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    /// Overwrites the bytes with zeros (for temporaries that held secrets).
    mutating func zeroize() {
        let count = self.count
        guard count > 0 else { return }
        resetBytes(in: startIndex..<(startIndex + count))
    }
}
