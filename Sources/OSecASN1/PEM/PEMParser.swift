/// Line-oriented PEM scanner behind ``PEMDocument/parseMultiple(string:)``.
struct PEMParser {
    private let text: ArraySlice<UInt8>
    private var position: Int

    init(text: ArraySlice<UInt8>) {
        self.text = text
        self.position = text.startIndex
    }

    private static let beginPrefix = Array("-----BEGIN ".utf8)
    private static let endPrefix = Array("-----END ".utf8)
    private static let dashes = Array("-----".utf8)

    /// The next line without its terminator and surrounding spaces/tabs/CR, or `nil` at the end.
    private mutating func nextLine() -> ArraySlice<UInt8>? {
        guard position < text.endIndex else { return nil }
        let rest = text[position...]
        let lineEnd = rest.firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
        position = lineEnd < text.endIndex ? lineEnd + 1 : lineEnd
        var line = text[rest.startIndex..<lineEnd]
        while let first = line.first, PEMParser.isSpace(first) { line = line.dropFirst() }
        while let last = line.last, PEMParser.isSpace(last) { line = line.dropLast() }
        return line
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// The label of an encapsulation boundary line with the given prefix, if the line is one.
    private static func label(of line: ArraySlice<UInt8>, prefix: [UInt8]) -> ArraySlice<UInt8>? {
        guard line.count >= prefix.count + dashes.count, line.starts(with: prefix), line.suffix(5).elementsEqual(dashes)
        else { return nil }
        return line.dropFirst(prefix.count).dropLast(dashes.count)
    }

    mutating func parseAll() throws -> [PEMDocument] {
        var documents: [PEMDocument] = []
        while let line = nextLine() {
            if let label = PEMParser.label(of: line, prefix: PEMParser.beginPrefix) {
                documents.append(try parseDocument(label: label))
            } else if PEMParser.label(of: line, prefix: PEMParser.endPrefix) != nil {
                throw ASN1Error(.invalidPEM, "END line without a BEGIN line")
            }
        }
        return documents
    }

    private mutating func parseDocument(label: ArraySlice<UInt8>) throws -> PEMDocument {
        guard !label.isEmpty, label.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), label.first != UInt8(ascii: "-"),
            label.last != UInt8(ascii: "-")
        else { throw ASN1Error(.invalidPEM, "invalid PEM label") }
        var headers: [String: String] = [:]
        var base64: [UInt8] = []
        var lastHeader: String? = nil
        var inHeaders = false
        var isFirstLine = true
        while let line = nextLine() {
            if let endLabel = PEMParser.label(of: line, prefix: PEMParser.endPrefix) {
                guard endLabel.elementsEqual(label) else {
                    throw ASN1Error(.invalidPEM, "END label does not match BEGIN label")
                }
                guard !inHeaders else { throw ASN1Error(.invalidPEM, "PEM headers not followed by a blank line") }
                let der = try Base64.decode(base64[...])
                guard !der.isEmpty else { throw ASN1Error(.invalidPEM, "empty PEM body") }
                return PEMDocument(type: String(decoding: label, as: UTF8.self), derBytes: der, headers: headers)
            }
            if PEMParser.label(of: line, prefix: PEMParser.beginPrefix) != nil {
                throw ASN1Error(.invalidPEM, "BEGIN line inside a PEM document")
            }
            defer { isFirstLine = false }
            if isFirstLine, line.contains(UInt8(ascii: ":")) { inHeaders = true }
            if inHeaders {
                if line.isEmpty {
                    inHeaders = false
                } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                    let nameBytes = line[..<colon]
                    let valueBytes = line[(colon + 1)...].drop(while: PEMParser.isSpace)
                    // RFC 1421 header names are printable tokens; values are printable ASCII.
                    guard !nameBytes.isEmpty, nameBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
                        valueBytes.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 })
                    else { throw ASN1Error(.invalidPEM, "malformed PEM header") }
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    let value = String(decoding: valueBytes, as: UTF8.self)
                    guard headers[name] == nil else { throw ASN1Error(.invalidPEM, "duplicate PEM header") }
                    headers[name] = value
                    lastHeader = name
                } else if let name = lastHeader, line.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }) {
                    // Continuation line (leading whitespace was trimmed by nextLine()).
                    headers[name, default: ""] += String(decoding: line, as: UTF8.self)
                } else {
                    throw ASN1Error(.invalidPEM, "malformed PEM header")
                }
                continue
            }
            base64.append(contentsOf: line)
        }
        throw ASN1Error(.invalidPEM, "missing END line")
    }
}
