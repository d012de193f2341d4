import OSecASN1

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One `-----BEGIN label-----` … `-----END label-----` block: its RFC 1421 headers and decoded body.
struct PEMBlock {
    let label: String
    let headers: [String: String]
    let der: Data

    /// Largest PEM text accepted.
    static let maximumTextSize = 256 * 1024

    /// All well-formed blocks in `text`, in order.
    static func parseAll(_ text: String) throws(CryptoError) -> [PEMBlock] {
        guard text.utf8.count <= maximumTextSize else { throw CryptoError(.invalidKey, "PEM text too large") }
        var blocks: [PEMBlock] = []
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { String($0.trimmingSpaces()) }[...]
        while let line = lines.popFirst() {
            guard line.hasPrefix("-----BEGIN "), line.hasSuffix("-----"), line.count > 16 else { continue }
            let label = String(line.dropFirst(11).dropLast(5))
            var headers: [String: String] = [:]
            var body = ""
            var inHeaders = true
            var closed = false
            while let next = lines.popFirst() {
                if next == "-----END \(label)-----" {
                    closed = true
                    break
                }
                if inHeaders, let colon = next.firstIndex(of: ":") {
                    let name = String(next[..<colon].trimmingSpaces())
                    headers[name] = String(next[next.index(after: colon)...].trimmingSpaces())
                    continue
                }
                if next.isEmpty {
                    inHeaders = false
                    continue
                }
                inHeaders = false
                body += next
            }
            guard closed else { throw CryptoError(.invalidKey, "PEM block \(label) is not terminated") }
            guard let der = Data(base64Encoded: body), !der.isEmpty else {
                throw CryptoError(.invalidKey, "PEM block \(label) has invalid base64")
            }
            blocks.append(PEMBlock(label: label, headers: headers, der: der))
        }
        return blocks
    }

    /// Formats DER as PEM with 64-column base64 lines.
    static func format(label: String, der: Data) -> String {
        let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(base64)\n-----END \(label)-----\n"
    }
}
