import OSecASN1

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the `security` tool shows a password: one implementation for the tool and its front end, so that
/// `find-generic-password -w` prints the same bytes whichever process answers.
package enum PasswordText {
    /// What `-w` prints (before the newline): the password itself, or its lowercase hexadecimal form when it is not
    /// printable text (not UTF-8, or holding a control character).
    package static func forStandardOutput(_ data: Data) -> String {
        isPrintable(data) ? String(decoding: data, as: UTF8.self) : HexEncoding.lowercase(data)
    }

    /// Whether `data` is UTF-8 text without control characters (C0 controls and DEL).
    package static func isPrintable(_ data: Data) -> Bool {
        guard let text = String(data: data, encoding: .utf8) else { return false }
        return !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
