extension DER {
    /// Appends DER encodings into a byte array. Lengths are always minimal.
    ///
    /// Constructed nodes are written through a closure; the length is patched in afterwards.
    package struct Serializer: Sendable {
        /// The bytes written so far.
        package private(set) var serializedBytes: [UInt8]

        /// Creates an empty serializer, optionally reserving space for the expected output size.
        package init(reservingCapacity capacity: Int = 0) {
            serializedBytes = []
            serializedBytes.reserveCapacity(capacity)
        }

        /// Appends a primitive node whose content octets are written by `body`.
        package mutating func appendPrimitiveNode(
            identifier: ASN1Identifier, _ body: (inout [UInt8]) throws -> Void
        ) rethrows {
            identifier.withConstructed(false).encode(into: &serializedBytes)
            try withPatchedLength { try body(&$0.serializedBytes) }
        }

        /// Appends a constructed node whose children are written by `body`.
        package mutating func appendConstructedNode(
            identifier: ASN1Identifier, _ body: (inout Serializer) throws -> Void
        ) rethrows {
            identifier.withConstructed(true).encode(into: &serializedBytes)
            try withPatchedLength { try body(&$0) }
        }

        /// Appends already-encoded bytes verbatim (e.g. a node's `encodedBytes`).
        package mutating func appendRawBytes<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
            serializedBytes.append(contentsOf: bytes)
        }

        /// Appends a value with its default encoding.
        package mutating func serialize<T: DERSerializable>(_ value: T) throws {
            try value.serialize(into: &self)
        }

        /// Appends a value under an IMPLICIT tag.
        package mutating func serialize<T: DERImplicitlyTaggable>(
            _ value: T, withIdentifier identifier: ASN1Identifier
        ) throws {
            try value.serialize(into: &self, withIdentifier: identifier)
        }

        /// Appends a value wrapped in an EXPLICIT `[tagNumber]` tag.
        package mutating func serialize<T: DERSerializable>(
            _ value: T, explicitlyTaggedWithTagNumber tagNumber: UInt,
            tagClass: ASN1Identifier.TagClass = .contextSpecific
        ) throws {
            try appendConstructedNode(
                identifier: ASN1Identifier(tagNumber: tagNumber, tagClass: tagClass, constructed: true)
            ) { try $0.serialize(value) }
        }

        /// Appends an OPTIONAL value if present.
        package mutating func serializeOptional<T: DERSerializable>(_ value: T?) throws {
            if let value { try serialize(value) }
        }

        /// Appends an OPTIONAL value under an IMPLICIT tag if present.
        package mutating func serializeOptionalImplicitlyTagged<T: DERImplicitlyTaggable>(
            _ value: T?, withIdentifier identifier: ASN1Identifier
        ) throws {
            if let value { try value.serialize(into: &self, withIdentifier: identifier) }
        }

        /// Appends a SEQUENCE OF.
        package mutating func serializeSequenceOf<Elements: Sequence>(
            _ elements: Elements, identifier: ASN1Identifier = .sequence
        ) throws where Elements.Element: DERSerializable {
            try appendConstructedNode(identifier: identifier) { coder in
                for element in elements { try coder.serialize(element) }
            }
        }

        /// Appends a SET OF with elements sorted by encoding, as DER requires (X.690 §11.6).
        package mutating func serializeSetOf<Elements: Sequence>(
            _ elements: Elements, identifier: ASN1Identifier = .set
        ) throws where Elements.Element: DERSerializable {
            var encodings: [[UInt8]] = []
            for element in elements { encodings.append(try element.derEncoded()) }
            encodings.sort { $0.lexicographicallyPrecedes($1) }
            appendConstructedNode(identifier: identifier) { coder in
                for encoding in encodings { coder.serializedBytes.append(contentsOf: encoding) }
            }
        }

        /// Writes a length placeholder, runs `body`, then patches in the minimal length.
        private mutating func withPatchedLength(_ body: (inout Serializer) throws -> Void) rethrows {
            let lengthIndex = serializedBytes.count
            serializedBytes.append(0)
            try body(&self)
            let length = serializedBytes.count - lengthIndex - 1
            if length < 0x80 {
                serializedBytes[lengthIndex] = UInt8(truncatingIfNeeded: length)
                return
            }
            var lengthBytes: [UInt8] = []
            var rest = length
            while rest > 0 {
                lengthBytes.append(UInt8(truncatingIfNeeded: rest))
                rest >>= 8
            }
            serializedBytes[lengthIndex] = 0x80 | UInt8(truncatingIfNeeded: lengthBytes.count)
            serializedBytes.insert(contentsOf: lengthBytes.reversed(), at: lengthIndex + 1)
        }
    }
}

extension ASN1Node: DERParseable, DERSerializable {
    /// An `ANY` field: the node itself.
    package init(derEncoded node: ASN1Node) throws { self = node }

    /// Re-encodes the node tree with minimal definite lengths.
    ///
    /// For a node parsed as DER this reproduces `encodedBytes` exactly; for BER input it converts
    /// indefinite and non-minimal lengths to DER form (constructed strings stay constructed).
    /// To copy the original bytes verbatim, use ``DER/Serializer/appendRawBytes(_:)`` with `encodedBytes`.
    package func serialize(into coder: inout DER.Serializer) throws {
        switch content {
        case .primitive(let bytes):
            coder.appendPrimitiveNode(identifier: identifier) { $0.append(contentsOf: bytes) }
        case .constructed(let children):
            try coder.appendConstructedNode(identifier: identifier) { coder in
                for child in children { try child.serialize(into: &coder) }
            }
        }
    }
}
