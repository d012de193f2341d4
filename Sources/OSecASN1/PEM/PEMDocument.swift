/// One PEM document (RFC 7468): a type label, DER bytes, and optional RFC 1421 headers.
///
/// Parsing tolerates CRLF, text before, between and after documents, blank lines and whitespace
/// inside the base64. BEGIN/END labels must match. Serialization writes 64-column lines and `\n`.
package struct PEMDocument: Hashable, Sendable {
    /// The label, e.g. `CERTIFICATE` or `RSA PRIVATE KEY`.
    package var type: String
    /// The decoded body.
    package var derBytes: [UInt8]
    /// RFC 1421 headers such as `Proc-Type` and `DEK-Info` (legacy encrypted keys need them).
    package var headers: [String: String]

    /// Creates a document.
    package init(type: String, derBytes: [UInt8], headers: [String: String] = [:]) {
        self.type = type
        self.derBytes = derBytes
        self.headers = headers
    }

    /// Parses a string containing exactly one PEM document (surrounding text is ignored).
    package init(pemString: String) throws {
        let documents = try PEMDocument.parseMultiple(string: pemString)
        guard documents.count == 1, let document = documents.first else {
            throw ASN1Error(.invalidPEM, "expected one PEM document, found \(documents.count)")
        }
        self = document
    }

    /// Parses every PEM document in a bundle, in order. Text outside documents is ignored;
    /// an empty result means there were no BEGIN lines.
    package static func parseMultiple(string: String) throws -> [PEMDocument] {
        try parseMultiple(utf8: Array(string.utf8)[...])
    }

    /// Parses every PEM document in UTF-8 (or ASCII) bytes.
    package static func parseMultiple(utf8 text: ArraySlice<UInt8>) throws -> [PEMDocument] {
        var parser = PEMParser(text: text)
        return try parser.parseAll()
    }

    /// The PEM text: BEGIN line, headers (if any) and a blank line, 64-column base64, END line.
    package var pemString: String {
        var out = "-----BEGIN \(type)-----\n"
        if !headers.isEmpty {
            // RFC 1421 puts Proc-Type first and DEK-Info second.
            let order = ["Proc-Type": 0, "DEK-Info": 1]
            let names = headers.keys.sorted { (order[$0] ?? 2, $0) < (order[$1] ?? 2, $1) }
            for name in names { out += "\(name): \(headers[name] ?? "")\n" }
            out += "\n"
        }
        let encoded = Base64.encode(derBytes)
        var start = 0
        while start < encoded.count {
            let end = min(start + 64, encoded.count)
            out += String(decoding: encoded[start..<end], as: UTF8.self)
            out += "\n"
            start = end
        }
        out += "-----END \(type)-----\n"
        return out
    }
}

extension PEMDocument: CustomStringConvertible {
    package var description: String { "PEMDocument(\(type), \(derBytes.count) bytes)" }
}
