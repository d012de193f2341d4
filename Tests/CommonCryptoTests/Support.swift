import CommonCrypto
import Foundation
import OSecTestSupport

/// Data ⇄ CommonCrypto helpers for the tests (the tests may use unsafe pointers; the module may not).
enum CC {
    /// Runs CCCrypt and returns (status, output, dataOutMoved). `room` defaults to the one-shot need.
    static func crypt(
        _ op: Int, _ alg: Int, options: Int = 0, key: Data, iv: Data?, _ input: Data, room: Int? = nil
    ) -> (status: Int, output: Data, moved: Int) {
        let capacity = room ?? (input.count + 64)
        var output = Data(count: max(capacity, 1))
        var moved = 0
        let status = key.withUnsafeBytes { keyBytes in
            input.withUnsafeBytes { inBytes in
                output.withUnsafeMutableBytes { outBytes in
                    withIV(iv) { ivPointer in
                        CCCrypt(
                            CCOperation(op), CCAlgorithm(alg), CCOptions(options), keyBytes.baseAddress, key.count,
                            ivPointer, inBytes.baseAddress, input.count, outBytes.baseAddress, capacity, &moved)
                    }
                }
            }
        }
        return (Int(status), output.prefix(max(0, min(moved, capacity))), moved)
    }

    /// Calls `body` with a pointer to `iv`'s bytes, or nil.
    static func withIV<R>(_ iv: Data?, _ body: (UnsafeRawPointer?) -> R) -> R {
        guard let iv else { return body(nil) }
        return iv.withUnsafeBytes { body($0.baseAddress) }
    }

    /// Creates a cryptor with CCCryptorCreateWithMode; nil status is success.
    static func cryptor(
        _ op: Int, mode: Int, _ alg: Int, padding: Int = ccNoPadding, key: Data, iv: Data?,
        options: Int = kCCModeOptionCTR_BE
    ) -> (status: Int, cryptor: CCCryptorRef?) {
        var cryptor: CCCryptorRef?
        let status = key.withUnsafeBytes { keyBytes in
            withIV(iv) { ivPointer in
                CCCryptorCreateWithMode(
                    CCOperation(op), CCMode(mode), CCAlgorithm(alg), CCPadding(padding), ivPointer,
                    keyBytes.baseAddress, key.count, nil, 0, 0, CCModeOptions(options), &cryptor)
            }
        }
        return (Int(status), cryptor)
    }

    /// Feeds `input` in chunks of the given sizes (cycled), with exactly the room CCCryptorGetOutputLength
    /// announces, then finals; returns (status, output).
    static func stream(_ cryptor: CCCryptorRef, _ input: Data, chunks: [Int]) -> (status: Int, output: Data) {
        var output = Data()
        var offset = 0
        var index = 0
        while offset < input.count {
            let size = min(max(chunks[index % chunks.count], 1), input.count - offset)
            index += 1
            let room = CCCryptorGetOutputLength(cryptor, size, false)
            var buffer = Data(count: room + 1)
            var moved = -1
            let status = input.withUnsafeBytes { inBytes in
                buffer.withUnsafeMutableBytes { outBytes in
                    CCCryptorUpdate(
                        cryptor, inBytes.baseAddress?.advanced(by: offset), size, outBytes.baseAddress, room, &moved)
                }
            }
            guard status == CCCryptorStatus(kCCSuccess) else { return (Int(status), output) }
            guard moved == room else { return (-1, output) }
            output += buffer.prefix(moved)
            offset += size
        }
        let room = CCCryptorGetOutputLength(cryptor, 0, true)
        var buffer = Data(count: room + 1)
        var moved = -1
        let status = buffer.withUnsafeMutableBytes { CCCryptorFinal(cryptor, $0.baseAddress, room, &moved) }
        if status == CCCryptorStatus(kCCSuccess) { output += buffer.prefix(moved) }
        return (Int(status), output)
    }

    /// CC_<digest> one-shot on Data.
    static func digest(
        _ function: (UnsafeRawPointer?, CC_LONG, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?,
        length: Int32, _ data: Data
    ) -> Data {
        var out = [UInt8](repeating: 0, count: Int(length))
        _ = data.withUnsafeBytes { function($0.baseAddress, CC_LONG(data.count), &out) }
        return Data(out)
    }

    /// CCHmac on Data.
    static func hmac(_ alg: Int, key: Data, _ data: Data, length: Int) -> Data {
        var mac = [UInt8](repeating: 0, count: length)
        key.withUnsafeBytes { keyBytes in
            data.withUnsafeBytes { dataBytes in
                CCHmac(CCHmacAlgorithm(alg), keyBytes.baseAddress, key.count, dataBytes.baseAddress, data.count, &mac)
            }
        }
        return Data(mac)
    }
}

extension Data {
    /// Test vectors are written as hex; spaces are allowed.
    init(hex: String) { self = Hex.data(hex.replacingOccurrences(of: " ", with: "")) }

    /// Lower-case hex.
    var hex: String { Hex.encode(self) }
}
