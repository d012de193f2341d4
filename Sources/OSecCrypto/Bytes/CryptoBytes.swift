internal import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Bytes the crypto layer reads in place: `Data`, `[UInt8]`, `ArraySlice<UInt8>` and `NSData` (the facade's
/// `CFData`; that conformance is in OSecCryptoFoundation, as this module builds on FoundationEssentials).
/// Operations take `some CryptoInput`, so an input is lent to OpenSSL as it is and never copied just to be read
/// (on Linux, Foundation's `NSData` → `Data` bridging copies byte by byte).
package protocol CryptoInput {
    /// The number of bytes.
    var cryptoByteCount: Int { get }

    /// Lends the bytes as a non-NULL pointer (also when empty: some OpenSSL calls reject NULL) and a count for
    /// the duration of `body`.
    func withCryptoBytes<R>(_ body: (UnsafeRawPointer, Int) throws(CryptoError) -> R) throws(CryptoError) -> R

    /// The bytes as `Data`: the value itself for `Data`, one bulk copy otherwise (never Foundation's bridging).
    var cryptoData: Data { get }
}

/// How an operation hands back its output: as `Data`, or as `NSData` for the facade's `CFData` results. Both
/// adopt the buffer OpenSSL wrote into, so no copy follows (bridging `Data` to `NSData` would copy it).
package struct CryptoOutput<Output> {
    /// Takes ownership of `count` bytes at `base`, which `malloc` allocated (released with `free`).
    let adopt: (UnsafeMutableRawPointer, Int) -> Output

    /// An output made by `adopt` (which owns the `malloc`ed bytes from then on).
    package init(adopt: @escaping (UnsafeMutableRawPointer, Int) -> Output) { self.adopt = adopt }

    /// Allocates `capacity` bytes, lets `body` fill them and return how many it wrote, and adopts that many.
    /// The capacity is always at least one byte so the pointer is never NULL. The buffer is not zero-filled
    /// first (for a 1 MiB AES-GCM output that memset alone cost 7% of the operation); only the bytes `body`
    /// reports as written become the output.
    func filling(
        capacity: Int, _ body: (UnsafeMutableRawPointer) throws(CryptoError) -> Int
    ) throws(CryptoError) -> Output {
        guard let base = malloc(Swift.max(capacity, 1)) else {
            throw CryptoError(.resourceLimit, "cannot allocate \(capacity) bytes")
        }
        let used: Int
        do {
            used = try body(base)
        } catch {
            free(base)
            throw error
        }
        guard used >= 0, used <= capacity else {
            free(base)
            throw CryptoError(.internalError, "output size out of range")
        }
        return adopt(base, used)
    }

    /// `data`'s bytes in this container (one copy; for results computed as `Data` first).
    package func copying(_ data: Data) throws(CryptoError) -> Output {
        try filling(capacity: data.count) { (out) throws(CryptoError) in
            data.copyBytes(to: out.assumingMemoryBound(to: UInt8.self), count: data.count)
            return data.count
        }
    }
}

extension CryptoOutput where Output == Data {
    /// Output as `Data`.
    package static var data: CryptoOutput<Data> {
        CryptoOutput { base, count in
            guard count > 0 else {
                free(base)
                return Data()
            }
            return Data(bytesNoCopy: base, count: count, deallocator: .free)
        }
    }
}

/// One byte that C functions can point at when a buffer is empty (some OpenSSL calls reject NULL).
/// `nonisolated(unsafe)`: written once during lazy initialisation, then only ever read (OpenSSL never
/// writes through input pointers).
nonisolated(unsafe) private let emptyByte: UnsafeMutableRawPointer = {
    let pointer = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
    pointer.storeBytes(of: 0, as: UInt8.self)
    return pointer
}()

/// Runs `body` on the bytes of `buffer` (an empty buffer lends a pointer to one byte that is never read), keeping
/// its typed error: the one implementation of `withCryptoBytes` for the contiguous inputs.
@inline(__always)
private func lendCryptoBytes<R>(
    _ buffer: UnsafeRawBufferPointer, _ body: (UnsafeRawPointer, Int) throws(CryptoError) -> R
) -> Result<R, CryptoError> {
    let base = buffer.baseAddress ?? UnsafeRawPointer(emptyByte)
    return Result { () throws(CryptoError) -> R in try body(base, buffer.count) }
}

extension Data: CryptoInput {
    package var cryptoByteCount: Int { count }
    package var cryptoData: Data { self }

    package func withCryptoBytes<R>(
        _ body: (UnsafeRawPointer, Int) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        try withUnsafeBytes { lendCryptoBytes($0, body) }.get()
    }
}

extension Array: CryptoInput where Element == UInt8 {
    package var cryptoByteCount: Int { count }
    package var cryptoData: Data { Data(self) }

    package func withCryptoBytes<R>(
        _ body: (UnsafeRawPointer, Int) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        try self[...].withCryptoBytes(body)
    }
}

extension ArraySlice: CryptoInput where Element == UInt8 {
    package var cryptoByteCount: Int { count }
    package var cryptoData: Data { Data(self) }

    package func withCryptoBytes<R>(
        _ body: (UnsafeRawPointer, Int) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        try withUnsafeBytes { lendCryptoBytes($0, body) }.get()
    }
}

extension Data {
    /// Lends the bytes as a non-NULL pointer and a count (typed-throws wrapper around `withUnsafeBytes`).
    func withBytes<R>(
        _ body: (UnsafeRawPointer, Int) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        try withCryptoBytes(body)
    }

    /// Creates `capacity` bytes, lets `body` fill them and return how many it wrote, and trims to that
    /// (``CryptoOutput/filling(capacity:_:)`` with `Data` output).
    static func filling(
        capacity: Int, _ body: (UnsafeMutableRawPointer) throws(CryptoError) -> Int
    ) throws(CryptoError) -> Data {
        try CryptoOutput.data.filling(capacity: capacity, body)
    }

    /// Overwrites the bytes with zeros (for temporaries that held secrets).
    mutating func zeroize() {
        let count = self.count
        guard count > 0 else { return }
        resetBytes(in: startIndex..<(startIndex + count))
    }
}
