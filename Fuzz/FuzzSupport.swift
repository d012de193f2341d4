// Shared by the structured fuzz targets (compiled into each by Fuzz/fuzz.sh): a reader that turns the fuzzer's
// bytes into values, and the seed-writing helpers. Past the end of the input every read yields zeros, so any
// byte string is a valid input.
import Foundation

struct FuzzInput {
    let bytes: [UInt8]
    var index = 0

    init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    mutating func uint16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }

    mutating func uint32() -> UInt32 { UInt32(uint16()) << 16 | UInt32(uint16()) }

    mutating func uint64() -> UInt64 { UInt64(uint32()) << 32 | UInt64(uint32()) }

    /// `count` bytes (fewer at the end of the input).
    mutating func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, index + max(0, count))
        defer { index = max(index, end) }
        return index < end ? Array(bytes[index..<end]) : []
    }

    /// A length (one byte, or two when the first is 0xFF) and that many bytes.
    mutating func lengthPrefixed() -> [UInt8] {
        var length = Int(byte())
        if length == 0xFF { length = Int(uint16()) }
        return bytes(length)
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(byte()) % choices.count] }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] { bytes(bytes.count - index) }
}

/// Writes the encodings the project produces into OSEC_FUZZ_SEEDS (set by fuzz.sh when the corpus is empty).
enum Seeds {
    static var directory: String? { ProcessInfo.processInfo.environment["OSEC_FUZZ_SEEDS"] }

    static func write(_ name: String, _ bytes: [UInt8]) {
        guard let directory else { return }
        _ = FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data(bytes))
    }
}

/// Encodes values the way FuzzInput reads them (for building seeds).
struct FuzzOutput {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func uint16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }

    mutating func uint64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
    }

    mutating func lengthPrefixed(_ value: [UInt8]) {
        if value.count >= 0xFF {
            bytes.append(0xFF)
            uint16(UInt16(clamping: value.count))
            bytes += value.prefix(0xFFFF)
        } else {
            bytes.append(UInt8(value.count))
            bytes += value
        }
    }
}
