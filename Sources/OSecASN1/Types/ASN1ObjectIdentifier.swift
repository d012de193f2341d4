/// An ASN.1 OBJECT IDENTIFIER.
///
/// Stored as its validated content octets, so decoding does not allocate and `==`/hashing compare
/// bytes (the encoding is canonical because non-minimal subidentifiers are rejected).
/// Arcs are bounded to `UInt` (64 bits).
package struct ASN1ObjectIdentifier: Hashable, Sendable {
    /// The content octets (base-128 subidentifiers).
    package let contentBytes: ArraySlice<UInt8>

    /// Creates an OID from arcs. Needs at least two arcs; the first is 0, 1 or 2 and, below 2,
    /// the second is below 40 (X.660).
    package init(arcs: [UInt]) throws {
        guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else {
            throw ASN1Error(.invalidObjectIdentifier, "invalid first arcs \(arcs.prefix(2))")
        }
        guard arcs[1] <= UInt.max - 80 else {
            throw ASN1Error(.invalidObjectIdentifier, "second arc too large")
        }
        var bytes: [UInt8] = []
        DER.appendBase128(arcs[0] * 40 + arcs[1], to: &bytes)
        for arc in arcs.dropFirst(2) { DER.appendBase128(arc, to: &bytes) }
        self.contentBytes = bytes[...]
    }

    /// Parses dotted notation such as `"1.2.840.113549.1.1.11"`.
    package init(dotted string: String) throws {
        var arcs: [UInt] = []
        for part in string.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                part.count == 1 || part.first != "0", let arc = UInt(part)
            else { throw ASN1Error(.invalidObjectIdentifier, "invalid dotted OID \"\(string)\"") }
            arcs.append(arc)
        }
        try self.init(arcs: arcs)
    }

    /// Validates content octets: non-empty, each subidentifier minimal (no leading 0x80),
    /// at most 64 bits, and the last octet terminates a subidentifier.
    package init(contentBytes bytes: ArraySlice<UInt8>) throws {
        guard let last = bytes.last else { throw ASN1Error(.invalidObjectIdentifier, "empty OBJECT IDENTIFIER") }
        guard last & 0x80 == 0 else { throw ASN1Error(.invalidObjectIdentifier, "truncated subidentifier") }
        var atStart = true
        var value: UInt = 0
        for byte in bytes {
            if atStart && byte == 0x80 {
                throw ASN1Error(.invalidObjectIdentifier, "non-minimal subidentifier")
            }
            guard value >> (UInt.bitWidth - 7) == 0 else {
                throw ASN1Error(.invalidObjectIdentifier, "subidentifier exceeds 64 bits")
            }
            value = (value << 7) | UInt(byte & 0x7F)
            atStart = byte & 0x80 == 0
            if atStart { value = 0 }
        }
        self.contentBytes = bytes
    }

    /// The arcs, e.g. `[1, 2, 840, 113549]`.
    package var arcs: [UInt] { ASN1ObjectIdentifier.decodeArcs(contentBytes) ?? [] }

    private static func decodeArcs(_ bytes: ArraySlice<UInt8>) -> [UInt]? {
        var arcs: [UInt] = []
        arcs.reserveCapacity(bytes.count + 1)
        var value: UInt = 0
        for byte in bytes {
            guard value >> (UInt.bitWidth - 7) == 0 else { return nil }
            value = (value << 7) | UInt(byte & 0x7F)
            guard byte & 0x80 == 0 else { continue }
            if arcs.isEmpty {
                // The first subidentifier packs two arcs: 40 * first + second, first in {0, 1, 2}.
                if value < 80 {
                    arcs.append(value / 40)
                    arcs.append(value % 40)
                } else {
                    arcs.append(2)
                    arcs.append(value - 80)
                }
            } else {
                arcs.append(value)
            }
            value = 0
        }
        return arcs
    }

    /// The dotted-decimal form.
    package var dotted: String { arcs.map(String.init).joined(separator: ".") }
}

extension ASN1ObjectIdentifier: DERImplicitlyTaggable {
    package static var defaultIdentifier: ASN1Identifier { .objectIdentifier }

    package init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        try self.init(contentBytes: node.primitiveContent(expecting: identifier))
    }

    package func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        coder.appendPrimitiveNode(identifier: identifier) { $0.append(contentsOf: contentBytes) }
    }
}

extension ASN1ObjectIdentifier: CustomStringConvertible {
    package var description: String { dotted }
}

extension ASN1ObjectIdentifier: ExpressibleByArrayLiteral {
    /// For literals in code only; traps on an invalid literal, never on input.
    package init(arrayLiteral elements: UInt...) {
        guard let oid = try? ASN1ObjectIdentifier(arcs: elements) else {
            preconditionFailure("invalid OID literal \(elements)")
        }
        self = oid
    }
}
