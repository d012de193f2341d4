/// A minimal DER TLV reader for the outer structures of key encodings (SPKI, PKCS#8, SEC1, PBES
/// parameters). OSecCrypto sits below the OSecASN1 module and must not import it; this reader only
/// needs single-byte tags and definite lengths. Every length is checked before slicing.
struct DERReader {
    /// One decoded TLV.
    struct Node {
        let tag: UInt8
        /// The value bytes.
        let content: ArraySlice<UInt8>
        /// Tag, length and value.
        let encoded: ArraySlice<UInt8>
    }

    /// Universal tags used here.
    enum Tag {
        static let integer: UInt8 = 0x02
        static let bitString: UInt8 = 0x03
        static let octetString: UInt8 = 0x04
        static let null: UInt8 = 0x05
        static let oid: UInt8 = 0x06
        static let sequence: UInt8 = 0x30
    }

    private var remaining: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { remaining = bytes }

    /// True when every byte has been consumed.
    var isAtEnd: Bool { remaining.isEmpty }

    /// The tag of the next node, if any.
    var peekTag: UInt8? { remaining.first }

    /// Reads the next node.
    mutating func read() throws(CryptoError) -> Node {
        var cursor = remaining
        guard let tag = cursor.popFirst() else { throw Self.error("unexpected end of data") }
        guard tag & 0x1f != 0x1f else { throw Self.error("multi-byte tags are not supported") }
        guard let first = cursor.popFirst() else { throw Self.error("truncated length") }
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7f)
            // DER: long form only for lengths ≥ 128, no leading zero bytes, at most 4 length bytes here.
            guard (1...4).contains(count), cursor.count >= count else { throw Self.error("bad length") }
            for _ in 0..<count {
                guard let byte = cursor.popFirst() else { throw Self.error("truncated length") }
                length = (length << 8) | Int(byte)
            }
            guard length >= 0x80, length >> (8 * (count - 1)) != 0 else { throw Self.error("non-minimal length") }
        }
        guard cursor.count >= length else { throw Self.error("truncated value") }
        let content = cursor.prefix(length)
        let original = remaining
        remaining = cursor.dropFirst(length)
        return Node(tag: tag, content: content, encoded: original[original.startIndex..<content.endIndex])
    }

    /// Reads the next node and checks its tag.
    mutating func read(_ tag: UInt8) throws(CryptoError) -> Node {
        let node = try read()
        guard node.tag == tag else { throw Self.error("unexpected tag 0x\(String(tag, radix: 16)) expected") }
        return node
    }

    /// Reads the next node if it has `tag`.
    mutating func readIfPresent(_ tag: UInt8) throws(CryptoError) -> Node? {
        peekTag == tag ? try read() : nil
    }

    /// Checks the reader is exhausted.
    func expectEnd() throws(CryptoError) {
        guard isAtEnd else { throw Self.error("trailing data") }
    }

    /// Parses `bytes` as exactly one node with `tag` and returns a reader over its content.
    static func single(_ bytes: ArraySlice<UInt8>, _ tag: UInt8) throws(CryptoError) -> DERReader {
        var outer = DERReader(bytes)
        let node = try outer.read(tag)
        try outer.expectEnd()
        return DERReader(node.content)
    }

    /// A small non-negative INTEGER (e.g. a version or an iteration count), or nil if it is negative
    /// or does not fit in 62 bits.
    static func smallInteger(_ node: Node) -> Int? {
        guard node.tag == Tag.integer, let first = node.content.first, first & 0x80 == 0 else { return nil }
        let digits = node.content.drop(while: { $0 == 0 })
        guard digits.count <= 7 else { return nil }
        return digits.reduce(0) { ($0 << 8) | Int($1) }
    }

    /// The payload of a BIT STRING with no unused bits.
    static func bitStringBytes(_ node: Node) throws(CryptoError) -> ArraySlice<UInt8> {
        guard node.tag == Tag.bitString, node.content.first == 0 else { throw error("bad BIT STRING") }
        return node.content.dropFirst()
    }

    static func error(_ reason: String) -> CryptoError {
        CryptoError(.invalidKey, "malformed DER: \(reason)")
    }
}

/// Object identifiers (DER content bytes) recognised by the key decoders.
enum KnownOID {
    static let rsaEncryption: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]
    static let ecPublicKey: [UInt8] = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]
    static let pbes2: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d]
    static let pbkdf2: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0c]
    static let scrypt: [UInt8] = [0x2b, 0x06, 0x01, 0x04, 0x01, 0xda, 0x47, 0x04, 0x0b]
}
