/// One parsed node in the flat, depth-first node table.
struct ASN1NodeRecord: Sendable {
    var identifier: ASN1Identifier
    var depth: Int
    var encodedStart: Int
    var contentStart: Int
    var contentEnd: Int
    var encodedEnd: Int
    /// Index one past this node's last descendant in the node table.
    var subtreeEnd: Int
}

/// Parses BER/DER into a flat depth-first table of ``ASN1NodeRecord``s.
///
/// Every length is checked against the remaining input before use, so a huge declared length
/// fails without allocating. Recursion is bounded by ``DER/maximumNestingDepth``.
struct ASN1Parser {
    let bytes: ArraySlice<UInt8>
    let rules: EncodingRules
    var records: [ASN1NodeRecord] = []

    init(bytes: ArraySlice<UInt8>, rules: EncodingRules) {
        self.bytes = bytes
        self.rules = rules
        // A typical certificate has about one node per ten bytes.
        records.reserveCapacity(bytes.count / 10 + 4)
    }

    /// A parser that only reads headers (``readHeader(_:limit:)``): no node table.
    init(headersOf bytes: ArraySlice<UInt8>, rules: EncodingRules) {
        self.bytes = bytes
        self.rules = rules
    }

    /// Parses exactly one node spanning all of `bytes`.
    mutating func parseSingleNode() throws {
        let end = try parseNode(at: bytes.startIndex, limit: bytes.endIndex, depth: 1)
        guard end == bytes.endIndex else {
            throw ASN1Error(.trailingBytes, "\(bytes.endIndex - end) bytes after the top-level node")
        }
    }

    /// Parses one node starting at `position`, not reading past `limit`. Returns the end of its encoding.
    private mutating func parseNode(at position: Int, limit: Int, depth: Int) throws -> Int {
        guard depth <= DER.maximumNestingDepth else {
            throw ASN1Error(.tooDeeplyNested, "nesting deeper than \(DER.maximumNestingDepth)")
        }
        var cursor = position
        let (identifier, definiteLength) = try readHeader(&cursor, limit: limit)
        guard let length = definiteLength else {
            // Indefinite length (readHeader allowed it: the rules permit it and the node is constructed).
            let recordIndex = records.count
            records.append(
                ASN1NodeRecord(
                    identifier: identifier, depth: depth, encodedStart: position, contentStart: cursor,
                    contentEnd: cursor, encodedEnd: cursor, subtreeEnd: recordIndex + 1))
            while true {
                guard limit - cursor >= 2 else {
                    throw ASN1Error(.truncatedField, "missing end-of-contents octets")
                }
                if bytes[cursor] == 0 && bytes[cursor + 1] == 0 { break }
                cursor = try parseNode(at: cursor, limit: limit, depth: depth + 1)
            }
            records[recordIndex].contentEnd = cursor
            records[recordIndex].encodedEnd = cursor + 2
            records[recordIndex].subtreeEnd = records.count
            return cursor + 2
        }
        let contentEnd = cursor + length  // cannot overflow: length <= limit - cursor
        let recordIndex = records.count
        records.append(
            ASN1NodeRecord(
                identifier: identifier, depth: depth, encodedStart: position, contentStart: cursor,
                contentEnd: contentEnd, encodedEnd: contentEnd, subtreeEnd: recordIndex + 1))
        if identifier.isConstructed {
            while cursor < contentEnd {
                cursor = try parseNode(at: cursor, limit: contentEnd, depth: depth + 1)
            }
            records[recordIndex].subtreeEnd = records.count
        }
        return contentEnd
    }

    /// Reads one node's identifier and length octets at `cursor` (advancing it past them), not reading at or past
    /// `limit`; a nil length means indefinite. Everything about a header the rules decide is checked here: the
    /// identifier's and the length's encoding, universal tag 0 (end-of-contents, consumed by the indefinite-length
    /// loop), indefinite lengths (allowed by the rules, constructed nodes only) and a definite length that does
    /// not fit before `limit`. The full parser and ``ASN1Header`` both read headers through it.
    func readHeader(_ cursor: inout Int, limit: Int) throws -> (identifier: ASN1Identifier, length: Int?) {
        let identifier = try readIdentifier(&cursor, limit: limit)
        guard identifier.tagNumber != 0 || identifier.tagClass != .universal else {
            throw ASN1Error(.invalidIdentifier, "unexpected end-of-contents / universal tag 0")
        }
        let length = try readLength(&cursor, limit: limit)
        if length == nil {
            guard rules.allowsIndefiniteLength else {
                throw ASN1Error(.invalidLength, "indefinite length is not allowed by these encoding rules")
            }
            guard identifier.isConstructed else {
                throw ASN1Error(.invalidLength, "indefinite length on a primitive node")
            }
        }
        return (identifier, length)
    }

    /// Reads the identifier octets at `cursor` (advancing it), not reading at or past `limit`.
    private func readIdentifier(_ cursor: inout Int, limit: Int) throws -> ASN1Identifier {
        guard cursor < limit else { throw ASN1Error(.truncatedField, "missing identifier") }
        let first = bytes[cursor]
        cursor += 1
        let constructed = first & 0x20 != 0
        let tagClass = ASN1Identifier.TagClass(topBits: first >> 6)
        guard first & 0x1F == 0x1F else {
            return ASN1Identifier(tagNumber: UInt(first & 0x1F), tagClass: tagClass, constructed: constructed)
        }
        // High-tag-number form: base-128, at most 4 groups (tag numbers below 2^28).
        var number: UInt = 0
        var groups = 0
        while true {
            guard cursor < limit else { throw ASN1Error(.truncatedField, "truncated high tag number") }
            let byte = bytes[cursor]
            cursor += 1
            if groups == 0 && byte == 0x80 {
                throw ASN1Error(.invalidIdentifier, "high tag number with leading zero group")
            }
            groups += 1
            guard groups <= 4 else { throw ASN1Error(.invalidIdentifier, "tag number too large") }
            number = (number << 7) | UInt(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        guard number >= 31 else {
            throw ASN1Error(.invalidIdentifier, "high-tag-number form used for tag \(number)")
        }
        return ASN1Identifier(tagNumber: number, tagClass: tagClass, constructed: constructed)
    }

    /// Reads a length; `nil` means indefinite. The result never exceeds `limit - cursor`.
    private func readLength(_ cursor: inout Int, limit: Int) throws -> Int? {
        guard cursor < limit else { throw ASN1Error(.truncatedField, "missing length") }
        let first = bytes[cursor]
        cursor += 1
        var length: Int
        if first < 0x80 {
            length = Int(first)
        } else if first == 0x80 {
            return nil
        } else if first == 0xFF {
            throw ASN1Error(.invalidLength, "reserved length octet 0xFF")
        } else {
            let count = Int(first & 0x7F)
            guard limit - cursor >= count else { throw ASN1Error(.truncatedField, "truncated length") }
            length = 0
            for index in cursor..<(cursor + count) {
                guard length <= (Int.max >> 8) else {
                    throw ASN1Error(.invalidLength, "length does not fit in Int")
                }
                length = (length << 8) | Int(bytes[index])
            }
            if !rules.allowsNonMinimalLengths {
                guard bytes[cursor] != 0, length >= 0x80 else {
                    throw ASN1Error(.invalidLength, "non-minimal length encoding")
                }
            }
            cursor += count
        }
        guard length <= limit - cursor else {
            throw ASN1Error(.truncatedField, "declared length \(length) exceeds the \(limit - cursor) bytes available")
        }
        return length
    }
}
