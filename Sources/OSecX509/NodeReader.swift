import OSecASN1

/// A concrete (non-generic) cursor over the children of a constructed node, used on the certificate parse
/// hot path instead of the generic `DER.sequence` closures: calls into OSecASN1's generic helpers are not
/// specialized across the module boundary, and the extra generic and ARC traffic doubled parse time.
struct NodeReader {
    private var iterator: ASN1NodeCollection.Iterator

    /// Opens a constructed node whose identifier must be `identifier`.
    init(_ node: ASN1Node, _ identifier: ASN1Identifier = .sequence, _ what: @autoclosure () -> String) throws {
        guard node.identifier == identifier, case .constructed(let children) = node.content else {
            throw X509Error(.malformed, "\(what()) is not the expected constructed type")
        }
        iterator = children.makeIterator()
    }

    /// The next child, or an error naming the missing field.
    mutating func next(_ what: @autoclosure () -> String) throws -> ASN1Node {
        guard let node = iterator.next() else { throw X509Error(.malformed, "missing \(what())") }
        return node
    }

    /// The next child if it has exactly `identifier`.
    mutating func next(ifIdentifier identifier: ASN1Identifier) -> ASN1Node? {
        guard iterator.peekIdentifier() == identifier else { return nil }
        return iterator.next()
    }

    var isAtEnd: Bool { iterator.isAtEnd }

    /// Throws unless every child was consumed.
    func finish(_ what: @autoclosure () -> String) throws {
        guard iterator.isAtEnd else { throw X509Error(.malformed, "unexpected trailing fields in \(what())") }
    }

    // MARK: Primitive decoders (DER)

    static func primitive(
        _ node: ASN1Node, _ identifier: ASN1Identifier, _ what: @autoclosure () -> String
    ) throws -> ArraySlice<UInt8> {
        guard node.identifier == identifier, case .primitive(let bytes) = node.content else {
            throw X509Error(.malformed, "\(what()) has the wrong type")
        }
        return bytes
    }

    static func oid(_ node: ASN1Node) throws -> ASN1ObjectIdentifier {
        try ASN1ObjectIdentifier(contentBytes: primitive(node, .objectIdentifier, "OBJECT IDENTIFIER"))
    }

    /// A BIT STRING payload that must have no unused bits.
    static func octetAlignedBitString(_ node: ASN1Node, _ what: @autoclosure () -> String) throws -> ArraySlice<UInt8> {
        let content = try primitive(node, .bitString, what())
        guard content.first == 0 else { throw X509Error(.malformed, "\(what()) has unused bits or no content") }
        return content.dropFirst()
    }
}
