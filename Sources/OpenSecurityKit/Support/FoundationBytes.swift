import Foundation

/// Copies out of `NSData` (the `CFData` that the Security API returns) in one bulk copy.
///
/// On Linux, Foundation bridges `NSData` to `Data` (`as Data`, `as? Data`, `Data(referencing:)`) through NSData's
/// collection conformance, one byte at a time: with Swift 6.3's Foundation about 0.2 µs a byte, 50 µs for one
/// RSA-2048 block, more than the RSA-OAEP encryption that produced it. `getBytes(_:length:)` copies the same bytes
/// in well under a microsecond. Every `CFData` result in this module goes through here.
enum FoundationBytes {
    /// The bytes of `data` as an array.
    static func array(_ data: NSData) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: data.length)
        data.getBytes(&bytes, length: bytes.count)
        return bytes
    }

    /// The bytes of `data` as Swift `Data`.
    static func data(_ data: NSData) -> Data {
        Data(array(data))
    }

    /// A value as Swift `Data` when it is bytes: `Data` itself, or `NSData`/`CFData` copied in bulk; nil otherwise.
    static func data(from value: Any?) -> Data? {
        guard let value else { return nil }
        if type(of: value) == Data.self, let data = value as? Data { return data }
        if let object = value as? NSData { return data(object) }
        return value as? Data
    }
}
