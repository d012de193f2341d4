import Foundation

/// A PKCS#12 password and its encodings.
///
/// The PKCS#12 KDF (MAC and PKCS#12 PBE) takes the password as a BMPString: UTF-16BE code units (with
/// surrogate pairs for characters outside the BMP) followed by two zero bytes (RFC 7292 appendix B.1).
/// PBES2/PBKDF2 and PBMAC1 take the UTF-8 bytes, as OpenSSL and Java do.
///
/// An empty (or absent) password has two encodings in the wild: OpenSSL writes `00 00` (the empty BMPString
/// with its terminator) while some producers, and macOS, use zero bytes. Readers try both, as OpenSSL does.
package struct PKCS12Password: Sendable {
    /// The UTF-8 bytes (PBES2, PBMAC1).
    let utf8: Data
    /// The BMP encodings to try for the PKCS#12 KDF, preferred first. Two entries only for an empty password.
    let bmpCandidates: [Data]

    /// Creates the encodings of `password`; `nil` means no password, treated as empty.
    package init(_ password: String?) {
        let text = password ?? ""
        utf8 = Data(text.utf8)
        var bmp = Data()
        bmp.reserveCapacity(text.utf16.count * 2 + 2)
        for unit in text.utf16 {
            bmp.append(UInt8(truncatingIfNeeded: unit >> 8))
            bmp.append(UInt8(truncatingIfNeeded: unit))
        }
        bmp.append(contentsOf: [0, 0])
        bmpCandidates = text.isEmpty ? [bmp, Data()] : [bmp]
    }

    /// Whether the password is empty (so more than one encoding must be tried).
    var isEmpty: Bool { utf8.isEmpty }
}
