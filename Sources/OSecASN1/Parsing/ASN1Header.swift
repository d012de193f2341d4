/// The identifier and length octets of one node, read without parsing its content.
///
/// The same reader as the full parser (``DER/parse(_:rules:)``): identical identifier and length rules, the
/// declared length checked against the bytes at hand. For callers that only need to know where a node ends
/// (the first certificate of a buffer with trailing bytes) or where its content starts.
package struct ASN1Header: Sendable, Hashable {
    /// The node's identifier.
    package let identifier: ASN1Identifier
    /// The number of identifier and length octets.
    package let headerLength: Int
    /// The number of content octets, or nil for an indefinite length (BER only, constructed nodes only).
    package let contentLength: Int?

    /// Reads the header at the start of `bytes`; the content must fit in `bytes` (anything may follow it).
    package init(reading bytes: ArraySlice<UInt8>, rules: EncodingRules = .distinguished) throws {
        let parser = ASN1Parser(headersOf: bytes, rules: rules)
        var cursor = bytes.startIndex
        let (identifier, length) = try parser.readHeader(&cursor, limit: bytes.endIndex)
        self.identifier = identifier
        self.headerLength = cursor - bytes.startIndex
        self.contentLength = length
    }

    /// Identifier, length and content octets together (nil for an indefinite length).
    package var encodedLength: Int? { contentLength.map { headerLength + $0 } }
}

extension ASN1Node {
    /// The content octets as encoded, for primitive and constructed nodes alike (without end-of-contents
    /// octets for an indefinite length).
    package var contentBytes: ArraySlice<UInt8> {
        if case .primitive(let bytes) = content { return bytes }
        // The node was parsed under `rules`, so its header reads again; the fallback is never taken.
        guard let header = try? ASN1Header(reading: encodedBytes, rules: rules) else { return encodedBytes.suffix(0) }
        let start = encodedBytes.startIndex + header.headerLength
        let end = header.contentLength.map { start + $0 } ?? encodedBytes.endIndex - 2
        return encodedBytes[start..<end]
    }
}
