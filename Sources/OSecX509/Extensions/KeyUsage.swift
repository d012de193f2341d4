import OSecASN1

/// `keyUsage` (RFC 5280 §4.2.1.3). Bit 0 (digitalSignature) is the most significant bit of the first octet.
package struct KeyUsage: OptionSet, Hashable, Sendable {
    /// Bit n of the BIT STRING is bit n here (digitalSignature = 1).
    package let rawValue: UInt16
    /// Usages from their bits.
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// digitalSignature (0).
    package static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    /// nonRepudiation / contentCommitment (1).
    package static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    /// keyEncipherment (2).
    package static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    /// dataEncipherment (3).
    package static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    /// keyAgreement (4).
    package static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    /// keyCertSign (5): the key verifies certificate signatures.
    package static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    /// cRLSign (6): the key verifies CRL signatures.
    package static let cRLSign = KeyUsage(rawValue: 1 << 6)
    /// encipherOnly (7), meaningful with keyAgreement.
    package static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    /// decipherOnly (8), meaningful with keyAgreement.
    package static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    /// OpenSSL's names, in bit order.
    package static let names: [(KeyUsage, String)] = [
        (.digitalSignature, "Digital Signature"), (.nonRepudiation, "Non Repudiation"),
        (.keyEncipherment, "Key Encipherment"), (.dataEncipherment, "Data Encipherment"),
        (.keyAgreement, "Key Agreement"), (.keyCertSign, "Certificate Sign"), (.cRLSign, "CRL Sign"),
        (.encipherOnly, "Encipher Only"), (.decipherOnly, "Decipher Only"),
    ]

    /// Decodes the BIT STRING; one with no bit set throws (RFC 5280 §4.2.1.3).
    package init(derEncoded node: ASN1Node) throws {
        // Lenient on trailing zero bits (common in the wild); bits beyond decipherOnly are ignored.
        guard node.identifier == .bitString, case .primitive(let content) = node.content, let unused = content.first,
            unused < 8, content.count > 1 || unused == 0
        else { throw X509Error(.malformed, "keyUsage is not a BIT STRING") }
        var value: UInt16 = 0
        for (offset, byte) in content.dropFirst().prefix(2).enumerated() {
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 { value |= 1 << (offset * 8 + bit) }
        }
        // RFC 5280 §4.2.1.3: when present, at least one bit MUST be set.
        guard value != 0 else { throw X509Error(.malformed, "keyUsage with no bits set") }
        self.rawValue = value
    }

    /// DER: minimal BIT STRING with trailing zero bits removed.
    package func encodedValue() -> [UInt8] {
        var first: UInt8 = 0
        for bit in 0..<8 where rawValue & (1 << bit) != 0 { first |= 0x80 >> bit }
        var bytes: [UInt8] = [first]
        if rawValue & 0x100 != 0 { bytes.append(0x80) }
        while bytes.last == 0 { bytes.removeLast() }
        var unused = 0
        if let last = bytes.last { unused = last.trailingZeroBitCount }
        return [0x03, UInt8(bytes.count + 1), UInt8(unused)] + bytes
    }
}
