import CommonCrypto
import Foundation
import OpenSSLBaseline

/// CommonCrypto's one-shot functions (what Apple-platform code calls) next to the same EVP calls in C.
enum CommonCryptoBenchmarks {
    static let mebibyte = 1 << 20

    /// Both sides hash and encrypt the same bytes (0x5a) in memory that has been written.
    static func rows() -> [BenchRow] {
        [
            digestRow(64, unit: "op/s"), digestRow(mebibyte, unit: "B/s"),
            hmacRow(64, unit: "op/s"), hmacRow(mebibyte, unit: "B/s"),
            cbcRow(keyLength: 16), cbcRow(keyLength: 32),
        ]
    }

    /// Bytes per second from calls per second, for the 1 MiB rows.
    private static func scaled(_ rate: Double, _ length: Int, _ unit: String) -> Double {
        unit == "B/s" && rate > 0 ? rate * Double(length) : rate
    }

    private static func label(_ length: Int) -> String { length == mebibyte ? "1 MiB" : "\(length) B" }

    static func digestRow(_ length: Int, unit: String) -> BenchRow {
        let input = [UInt8](repeating: 0x5a, count: length)
        var digest = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
        return BenchRow(
            name: "[CommonCrypto] CC_SHA256 \(label(length))", unit: unit, opensslLabel: "EVP_Digest",
            ours: { seconds in
                scaled(measure(seconds) { CC_SHA256(input, CC_LONG(length), &digest) }, length, unit)
            },
            openssl: { scaled(osec_baseline_cc_sha256(Int32(length), $0), length, unit) })
    }

    static func hmacRow(_ length: Int, unit: String) -> BenchRow {
        let input = [UInt8](repeating: 0x5a, count: length)
        let key = [UInt8](repeating: 5, count: 32)
        var mac = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
        return BenchRow(
            name: "[CommonCrypto] CCHmac SHA-256 \(label(length))", unit: unit,
            opensslLabel: "EVP_MAC (template dup, init, update, final)",
            ours: { seconds in
                scaled(
                    measure(seconds) {
                        CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), key, key.count, input, length, &mac)
                    }, length, unit)
            },
            openssl: { scaled(osec_baseline_cc_hmac_sha256(Int32(length), $0), length, unit) })
    }

    static func cbcRow(keyLength: Int) -> BenchRow {
        let length = mebibyte
        let input = [UInt8](repeating: 0x5a, count: length)
        let key = [UInt8](repeating: 9, count: keyLength)
        let iv = [UInt8](repeating: 3, count: kCCBlockSizeAES128)
        var output = [UInt8](repeating: 0, count: length + kCCBlockSizeAES128)
        let room = output.count
        return BenchRow(
            name: "[CommonCrypto] CCCrypt AES-\(keyLength * 8)-CBC 1 MiB", unit: "B/s",
            opensslLabel: "EVP_EncryptInit_ex2/Update/Final_ex",
            ours: { seconds in
                let rate = measure(seconds) {
                    var moved = 0
                    let status = CCCrypt(
                        CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding), key,
                        keyLength, iv, input, length, &output, room, &moved)
                    if status != kCCSuccess { throw BenchFailure() }
                }
                return scaled(rate, length, "B/s")
            },
            openssl: { scaled(osec_baseline_cc_aes_cbc(Int32(keyLength), Int32(length), $0), length, "B/s") })
    }
}
