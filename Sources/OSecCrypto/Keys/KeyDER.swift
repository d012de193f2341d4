import OSecASN1

/// The key decoders' view of OSecASN1's DER parser (SubjectPublicKeyInfo, PKCS#8, SEC1, PBES parameters).
///
/// There is one DER reader in the project, OSecASN1's: ``parse(_:_:)`` parses a whole encoding under strict DER
/// rules (minimal lengths, no indefinite lengths, nesting bounded, nothing after the top node), and a `KeyDER`
/// is a cursor over one node's children that throws `CryptoError(.invalidKey)` instead of `ASN1Error`, so the
/// decoders read top to bottom as before.
struct KeyDER {
    private var children: ASN1NodeCollection.Iterator

    /// Parses `bytes` as exactly one DER node with `identifier` and returns a cursor over its children.
    static func parse(
        _ bytes: ArraySlice<UInt8>, _ identifier: ASN1Identifier = .sequence
    ) throws(CryptoError) -> KeyDER {
        try KeyDER(try node(bytes), identifier)
    }

    /// Parses `bytes` as exactly one primitive DER node with `identifier` and returns its content octets.
    static func primitive(
        _ bytes: ArraySlice<UInt8>, _ identifier: ASN1Identifier
    ) throws(CryptoError) -> ArraySlice<UInt8> {
        let node = try node(bytes)
        guard node.identifier == identifier, let content = node.primitiveContent else {
            throw malformed("expected \(identifier), got \(node.identifier)")
        }
        return content
    }

    /// Parses `bytes` as exactly one DER node (OSecASN1's parser), its errors as `CryptoError(.invalidKey)`.
    private static func node(_ bytes: ArraySlice<UInt8>) throws(CryptoError) -> ASN1Node {
        do {
            return try DER.parse(bytes)
        } catch {
            throw malformed("\(error)")
        }
    }

    /// A cursor over the children of `node`, which must be a constructed node with `identifier`.
    init(_ node: ASN1Node, _ identifier: ASN1Identifier = .sequence) throws(CryptoError) {
        guard node.identifier == identifier, let children = node.children else {
            throw Self.malformed("expected \(identifier), got \(node.identifier)")
        }
        self.children = children.makeIterator()
    }

    /// True when every child has been read.
    var isAtEnd: Bool { children.isAtEnd }

    /// The identifier of the next child, if any.
    var peekIdentifier: ASN1Identifier? { children.peekIdentifier() }

    /// Reads the next child.
    mutating func read() throws(CryptoError) -> ASN1Node {
        guard let node = children.next() else { throw Self.malformed("unexpected end of data") }
        return node
    }

    /// Reads the next child and checks its identifier.
    mutating func read(_ identifier: ASN1Identifier) throws(CryptoError) -> ASN1Node {
        let node = try read()
        guard node.identifier == identifier else {
            throw Self.malformed("expected \(identifier), got \(node.identifier)")
        }
        return node
    }

    /// Reads the next child if it has `identifier`.
    mutating func readIfPresent(_ identifier: ASN1Identifier) throws(CryptoError) -> ASN1Node? {
        peekIdentifier == identifier ? try read() : nil
    }

    /// Checks that every child has been read.
    func expectEnd() throws(CryptoError) {
        guard isAtEnd else { throw Self.malformed("trailing data") }
    }

    /// The content octets of a primitive node (empty for a constructed one, which no caller expects).
    static func content(_ node: ASN1Node) -> ArraySlice<UInt8> {
        node.primitiveContent ?? node.encodedBytes.suffix(0)
    }

    /// A non-negative INTEGER (an iteration count, a cost parameter), or nil when it does not fit in an `Int`.
    /// Throws when the node is not a minimal DER INTEGER or is negative.
    static func nonNegativeInteger(_ node: ASN1Node) throws(CryptoError) -> Int? {
        guard node.identifier == .integer, let integer = try? ASN1Integer(derEncoded: node) else {
            throw malformed("expected a minimal INTEGER")
        }
        guard !integer.isNegative else { throw malformed("negative INTEGER") }
        return Int(exactly: integer)
    }

    /// A small non-negative INTEGER (a version), or nil if it is not a minimal INTEGER, is negative or does not
    /// fit in an `Int`.
    static func smallInteger(_ node: ASN1Node) -> Int? {
        (try? nonNegativeInteger(node)) ?? nil
    }

    /// The payload of a BIT STRING with no unused bits.
    static func bitStringBytes(_ node: ASN1Node) throws(CryptoError) -> ArraySlice<UInt8> {
        guard node.identifier == .bitString, let bits = try? ASN1BitString(derEncoded: node), bits.paddingBits == 0
        else { throw malformed("bad BIT STRING") }
        return bits.bytes
    }

    static func malformed(_ reason: String) -> CryptoError {
        CryptoError(.invalidKey, "malformed DER: \(reason)")
    }
}

extension ASN1Identifier {
    /// `[0]` constructed: PKCS#8 attributes, SEC1 parameters.
    static let contextConstructed0 = ASN1Identifier.contextSpecific(0, constructed: true)
    /// `[1]` constructed: SEC1 publicKey.
    static let contextConstructed1 = ASN1Identifier.contextSpecific(1, constructed: true)
    /// `[1]` primitive: the OneAsymmetricKey (PKCS#8 v2) publicKey.
    static let contextPrimitive1 = ASN1Identifier.contextSpecific(1, constructed: false)
}

/// Object identifiers (DER content bytes) recognised by the key decoders.
enum KnownOID {
    static let rsaEncryption: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]
    static let ecPublicKey: [UInt8] = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]
    static let pbes2: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d]
    static let pbkdf2: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0c]
    static let scrypt: [UInt8] = [0x2b, 0x06, 0x01, 0x04, 0x01, 0xda, 0x47, 0x04, 0x0b]
}
