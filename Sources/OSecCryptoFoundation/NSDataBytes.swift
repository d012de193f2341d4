import Foundation
import OSecCrypto

// NSData (the facade's CFData) as crypto input and output, without copies. Here rather than in OSecCrypto because
// OSecCrypto builds on FoundationEssentials, which has no NSData: the `security` front end links the keychain stack
// without full Foundation (docs/security-tool.md, "Start-up cost").

extension CryptoOutput where Output == NSData {
    /// Output as `NSData` (what the facade returns as `CFData`), adopting OpenSSL's buffer.
    package static var nsData: CryptoOutput<NSData> {
        CryptoOutput { base, count in NSData(bytesNoCopy: base, length: count, freeWhenDone: true) }
    }
}

extension NSData: CryptoInput {
    package var cryptoByteCount: Int { length }
    package var cryptoData: Data { length > 0 ? Data(bytes: bytes, count: length) : Data() }

    package func withCryptoBytes<R>(
        _ body: (UnsafeRawPointer, Int) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        let count = length
        // `bytes` of an empty NSData is not guaranteed to point at anything: lend one byte that is never read.
        guard count > 0 else { return try Data().withCryptoBytes(body) }
        return try body(bytes, count)
    }
}
