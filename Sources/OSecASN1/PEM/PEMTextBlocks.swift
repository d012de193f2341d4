#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// PEM text cut into its blocks without decoding them: what an importer needs when it routes each block by its label
/// to a parser that takes PEM text (a legacy encrypted key's `Proc-Type`/`DEK-Info` headers stay in the text).
package enum PEMTextBlocks {
    /// Labels of certificate blocks.
    package static let certificateLabels: Set = ["CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"]
    /// Labels of the key blocks OpenSSL writes (PKCS#1, SPKI, PKCS#8 plain and encrypted, SEC1).
    package static let keyLabels: Set = [
        "RSA PRIVATE KEY", "RSA PUBLIC KEY", "PUBLIC KEY", "PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "EC PRIVATE KEY",
    ]

    /// Every closed block of `text`, in order: its label and its whole text, BEGIN to END line. Text outside blocks
    /// and a block without its END line are skipped.
    package static func split(_ text: String) -> [(label: String, text: String)] {
        var blocks: [(String, String)] = []
        var current: [Substring] = []
        var label: String?
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let trimmed = line.trimmingSpaces()
            if label == nil, trimmed.hasPrefix("-----BEGIN "), trimmed.hasSuffix("-----") {
                label = String(trimmed.dropFirst(11).dropLast(5))
                current = [line]
            } else if let open = label {
                current.append(line)
                if trimmed == "-----END \(open)-----" {
                    blocks.append((open, current.joined(separator: "\n") + "\n"))
                    label = nil
                }
            }
        }
        return blocks
    }
}
