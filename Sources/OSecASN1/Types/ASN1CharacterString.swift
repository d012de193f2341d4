/// Shared behaviour of the ASN.1 character string types.
///
/// Each conformer stores the validated content octets (a slice of the input for DER) and decodes
/// them to a `String` on demand. Under BER rules, constructed strings are concatenated first.
package protocol ASN1CharacterString: DERImplicitlyTaggable, Hashable, Sendable, CustomStringConvertible {
    /// The validated content octets.
    var bytes: ArraySlice<UInt8> { get }
    /// Wraps octets that have already been validated.
    init(validatedBytes: ArraySlice<UInt8>)
    /// Throws ``ASN1Error/Code/invalidString`` unless `bytes` is a valid encoding for this type.
    static func validate(_ bytes: ArraySlice<UInt8>) throws
    /// Decodes validated octets.
    static func decode(_ bytes: ArraySlice<UInt8>) -> String
    /// Encodes a string; throws if a character is outside the type's alphabet.
    static func encode(_ string: String) throws -> [UInt8]
}

extension ASN1CharacterString {
    /// Creates a value from content octets, validating them.
    package init(contentBytes: ArraySlice<UInt8>) throws {
        try Self.validate(contentBytes)
        self.init(validatedBytes: contentBytes)
    }

    /// Creates a value from a string; throws if a character is outside the type's alphabet.
    package init(_ string: String) throws {
        self.init(validatedBytes: try Self.encode(string)[...])
    }

    /// The decoded text.
    package var string: String { Self.decode(bytes) }

    package var description: String { string }

    package init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        try self.init(contentBytes: node.stringContent(expecting: identifier, segmentTag: Self.defaultIdentifier))
    }

    package func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        coder.appendPrimitiveNode(identifier: identifier) { $0.append(contentsOf: bytes) }
    }
}

/// Helpers for single-octet alphabets (PrintableString, IA5String, ...).
enum ASN1SingleOctetAlphabet {
    static func validate(_ bytes: ArraySlice<UInt8>, name: String, allowed: (UInt8) -> Bool) throws {
        for byte in bytes where !allowed(byte) {
            throw ASN1Error(.invalidString, "\(name) contains disallowed octet 0x\(String(byte, radix: 16))")
        }
    }

    static func encode(_ string: String, name: String, allowed: (UInt8) -> Bool) throws -> [UInt8] {
        let bytes = Array(string.utf8)
        try validate(bytes[...], name: name, allowed: allowed)
        return bytes
    }

    /// Decodes octets that are all below 0x80 (ASCII is valid UTF-8).
    static func decodeASCII(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
