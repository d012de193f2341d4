/// An arbitrary-size ASN.1 INTEGER, kept as minimal big-endian two's complement bytes.
///
/// Serial numbers and RSA moduli use this directly; convert with `Int(exactly:)` when the value fits.
package struct ASN1Integer: Hashable, Sendable {
    /// Minimal big-endian two's complement content octets (never empty).
    package let bytes: ArraySlice<UInt8>

    /// Creates an integer from two's complement content octets, which must be minimal.
    package init(twosComplementBytes bytes: ArraySlice<UInt8>) throws {
        try ASN1Integer.validate(bytes, allowsNonMinimal: false)
        self.bytes = bytes
    }

    /// Creates a non-negative integer from an unsigned big-endian magnitude (e.g. a serial number).
    package init(unsignedMagnitude magnitude: some Collection<UInt8>) {
        var trimmed = Array(magnitude.drop(while: { $0 == 0 }))
        if trimmed.first.map({ $0 & 0x80 != 0 }) ?? true { trimmed.insert(0, at: 0) }
        self.bytes = trimmed[...]
    }

    /// Creates an integer from a machine integer.
    package init(_ value: Int) {
        var out: [UInt8] = []
        var shift = Int.bitWidth - 8
        // Skip redundant sign octets, keeping the sign bit in the first remaining octet.
        while shift > 0 {
            let octet = UInt8(truncatingIfNeeded: value >> shift)
            let nextTop = UInt8(truncatingIfNeeded: value >> (shift - 8)) & 0x80
            if (octet == 0x00 && nextTop == 0) || (octet == 0xFF && nextTop != 0) { shift -= 8 } else { break }
        }
        while shift >= 0 {
            out.append(UInt8(truncatingIfNeeded: value >> shift))
            shift -= 8
        }
        self.bytes = out[...]
    }

    private init(unchecked bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// Whether the value is below zero.
    package var isNegative: Bool { (bytes.first ?? 0) & 0x80 != 0 }

    /// The magnitude of a non-negative value without the sign octet, or `nil` if negative.
    package var unsignedMagnitude: ArraySlice<UInt8>? {
        guard !isNegative else { return nil }
        return bytes.count > 1 && bytes.first == 0 ? bytes.dropFirst() : bytes
    }

    static func validate(_ bytes: ArraySlice<UInt8>, allowsNonMinimal: Bool) throws {
        guard let first = bytes.first else { throw ASN1Error(.invalidInteger, "INTEGER has no content") }
        guard !allowsNonMinimal, bytes.count > 1 else { return }
        let second = bytes[bytes.startIndex + 1]
        if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
            throw ASN1Error(.invalidInteger, "non-minimal INTEGER encoding")
        }
    }

    /// Decodes content octets under the given rules, normalising to minimal form.
    static func decode(_ bytes: ArraySlice<UInt8>, rules: EncodingRules) throws -> ASN1Integer {
        try validate(bytes, allowsNonMinimal: rules.allowsNonMinimalIntegers)
        var minimal = bytes
        while minimal.count > 1 {
            let first = minimal[minimal.startIndex]
            let secondTop = minimal[minimal.startIndex + 1] & 0x80
            guard (first == 0x00 && secondTop == 0) || (first == 0xFF && secondTop != 0) else { break }
            minimal = minimal.dropFirst()
        }
        return ASN1Integer(unchecked: minimal)
    }
}

extension ASN1Integer: DERImplicitlyTaggable {
    package static var defaultIdentifier: ASN1Identifier { .integer }

    package init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try ASN1Integer.decode(node.primitiveContent(expecting: identifier), rules: node.rules)
    }

    package func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        coder.appendPrimitiveNode(identifier: identifier) { $0.append(contentsOf: bytes) }
    }
}

extension Int {
    /// The value of an ASN.1 INTEGER, or `nil` if it does not fit.
    package init?(exactly integer: ASN1Integer) {
        guard integer.bytes.count <= MemoryLayout<Int>.size else { return nil }
        var value = integer.isNegative ? -1 : 0
        for byte in integer.bytes { value = (value << 8) | Int(byte) }
        self = value
    }
}

/// `Int` decodes INTEGER fields that must fit a machine word (versions, counts).
extension Int: DERImplicitlyTaggable {
    package static var defaultIdentifier: ASN1Identifier { .integer }

    package init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        let integer = try ASN1Integer(derEncoded: node, withIdentifier: identifier)
        guard let value = Int(exactly: integer) else {
            throw ASN1Error(.invalidInteger, "INTEGER does not fit in Int")
        }
        self = value
    }

    package func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try ASN1Integer(self).serialize(into: &coder, withIdentifier: identifier)
    }
}

extension ASN1Integer: CustomStringConvertible {
    package var description: String {
        if let value = Int(exactly: self) { return String(value) }
        return (isNegative ? "-0x" : "0x")
            + bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }
}
