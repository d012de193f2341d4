import Foundation
import OSecASN1

/// An RFC 5280 `GeneralName`.
package enum GeneralName: Hashable, Sendable {
    /// `[0] otherName`, kept raw: the type OID and the full encoding of the `[0]` node.
    case otherName(typeID: ASN1ObjectIdentifier, encoded: ArraySlice<UInt8>)
    /// `[1] rfc822Name` (an email address).
    case rfc822Name(String)
    /// `[2] dNSName`.
    case dnsName(String)
    /// `[3] x400Address`, raw encoding.
    case x400Address(ArraySlice<UInt8>)
    /// `[4] directoryName`.
    case directoryName(DistinguishedName)
    /// `[5] ediPartyName`, raw encoding.
    case ediPartyName(ArraySlice<UInt8>)
    /// `[6] uniformResourceIdentifier`.
    case uniformResourceIdentifier(String)
    /// `[7] iPAddress`: 4 or 16 octets (or 8/32 with a mask inside name constraints).
    case ipAddress(ArraySlice<UInt8>)
    /// `[8] registeredID`.
    case registeredID(ASN1ObjectIdentifier)

    /// Decodes one context-tagged GeneralName; IA5String names must be 7-bit ASCII without NUL.
    package init(derEncoded node: ASN1Node) throws {
        let identifier = node.identifier
        guard identifier.tagClass == .contextSpecific else {
            throw X509Error(.malformed, "GeneralName is not context-tagged")
        }
        switch identifier.tagNumber {
        case 0:
            guard identifier.isConstructed, let children = node.children else {
                throw X509Error(.malformed, "otherName must be constructed")
            }
            var nodes = children.makeIterator()
            let typeID = try ASN1ObjectIdentifier(derEncoded: &nodes)
            guard let value = nodes.next(), value.identifier == .contextSpecific(0, constructed: true),
                value.children?.first != nil, nodes.next() == nil
            else { throw X509Error(.malformed, "malformed otherName") }
            self = .otherName(typeID: typeID, encoded: node.encodedBytes)
        case 1: self = .rfc822Name(try GeneralName.ia5(node))
        case 2: self = .dnsName(try GeneralName.ia5(node))
        case 3:
            guard identifier.isConstructed else { throw X509Error(.malformed, "x400Address must be constructed") }
            self = .x400Address(node.encodedBytes)
        case 4:
            guard identifier.isConstructed, let children = node.children else {
                throw X509Error(.malformed, "directoryName must be constructed")
            }
            var nodes = children.makeIterator()
            guard let inner = nodes.next(), nodes.next() == nil else {
                throw X509Error(.malformed, "malformed directoryName")
            }
            self = .directoryName(try DistinguishedName(derEncoded: inner))
        case 5:
            guard identifier.isConstructed else { throw X509Error(.malformed, "ediPartyName must be constructed") }
            self = .ediPartyName(node.encodedBytes)
        case 6: self = .uniformResourceIdentifier(try GeneralName.ia5(node))
        case 7:
            guard case .primitive(let bytes) = node.content else {
                throw X509Error(.malformed, "iPAddress must be primitive")
            }
            self = .ipAddress(bytes)
        case 8:
            guard case .primitive(let bytes) = node.content else {
                throw X509Error(.malformed, "registeredID must be primitive")
            }
            self = .registeredID(try ASN1ObjectIdentifier(contentBytes: bytes))
        default:
            throw X509Error(.malformed, "unknown GeneralName tag \(identifier.tagNumber)")
        }
    }

    private static func ia5(_ node: ASN1Node) throws -> String {
        guard case .primitive(let bytes) = node.content else {
            throw X509Error(.malformed, "IA5String name must be primitive")
        }
        // IA5 is 7-bit; an embedded NUL is rejected too (the classic "www.bank.com\0.evil.com" confusion).
        guard bytes.allSatisfy({ $0 < 0x80 && $0 != 0 }) else {
            throw X509Error(.malformed, "invalid octet in an IA5String name")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func serialize(into coder: inout DER.Serializer) throws {
        switch self {
        case .otherName(_, let encoded), .x400Address(let encoded), .ediPartyName(let encoded):
            coder.appendRawBytes(encoded)
        case .rfc822Name(let value): GeneralName.appendIA5(value, tag: 1, into: &coder)
        case .dnsName(let value): GeneralName.appendIA5(value, tag: 2, into: &coder)
        case .uniformResourceIdentifier(let value): GeneralName.appendIA5(value, tag: 6, into: &coder)
        case .directoryName(let name):
            coder.appendConstructedNode(identifier: .contextSpecific(4, constructed: true)) {
                $0.appendRawBytes(name.derBytes)
            }
        case .ipAddress(let bytes):
            coder.appendPrimitiveNode(identifier: .contextSpecific(7, constructed: false)) {
                $0.append(contentsOf: bytes)
            }
        case .registeredID(let oid):
            try coder.serialize(oid, withIdentifier: .contextSpecific(8, constructed: false))
        }
    }

    private static func appendIA5(_ value: String, tag: UInt, into coder: inout DER.Serializer) {
        coder.appendPrimitiveNode(identifier: .contextSpecific(tag, constructed: false)) {
            $0.append(contentsOf: value.utf8)
        }
    }

    /// Decodes `GeneralNames` (SEQUENCE SIZE (1..MAX) OF GeneralName) from the children of a node.
    static func decodeList(_ children: ASN1NodeCollection?) throws -> [GeneralName] {
        guard let children else { throw X509Error(.malformed, "GeneralNames must be constructed") }
        var names: [GeneralName] = []
        for child in children { names.append(try GeneralName(derEncoded: child)) }
        guard !names.isEmpty else { throw X509Error(.malformed, "empty GeneralNames") }
        return names
    }

    static func encodeList(
        _ names: [GeneralName], identifier: ASN1Identifier = .sequence, into coder: inout DER.Serializer
    ) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            for name in names { try name.serialize(into: &coder) }
        }
    }

    /// An IP address name from its textual form (`192.0.2.1`, `2001:db8::1`).
    package static func ipAddress(_ text: String) -> GeneralName? {
        guard let bytes = IPAddressText.parse(text) else { return nil }
        return .ipAddress(bytes[...])
    }
}

extension GeneralName: CustomStringConvertible {
    /// OpenSSL's `-ext subjectAltName` rendering (`DNS:`, `email:`, `URI:`, `IP Address:`, `DirName:`, …).
    package var description: String {
        switch self {
        case .otherName(let typeID, _): return "othername: \(typeID.dotted)"
        case .rfc822Name(let value): return "email:\(value)"
        case .dnsName(let value): return "DNS:\(value)"
        case .x400Address: return "X400Name:<unsupported>"
        case .directoryName(let name): return "DirName:\(name.rfc4514String)"
        case .ediPartyName: return "EdiPartyName:<unsupported>"
        case .uniformResourceIdentifier(let value): return "URI:\(value)"
        case .ipAddress(let bytes): return "IP Address:\(IPAddressText.format(bytes))"
        case .registeredID(let oid): return "Registered ID:\(oid.dotted)"
        }
    }
}

/// IPv4/IPv6 text conversion without Foundation or libc.
package enum IPAddressText {
    /// Dotted quad for 4 octets, RFC 5952-ish uppercase-free hex groups for 16 (OpenSSL prints uncompressed uppercase
    /// groups; see `opensslFormat(_:)`), hex otherwise.
    package static func format(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.count == 4 { return bytes.map { String($0) }.joined(separator: ".") }
        if bytes.count == 16 {
            var groups: [String] = []
            var index = bytes.startIndex
            while index < bytes.endIndex {
                groups.append(String(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]), radix: 16))
                index += 2
            }
            return groups.joined(separator: ":")
        }
        return bytes.map { hexByte($0) }.joined()
    }

    /// Parses IPv4 dotted-quad or IPv6 (with `::` compression and an optional trailing IPv4).
    package static func parse(_ text: String) -> [UInt8]? {
        if !text.contains(":") { return parseIPv4(Substring(text)) }
        var head: [UInt16] = []
        var tail: [UInt16] = []
        var compressed = false
        var tailV4: [UInt8] = []
        let parts = text.components(separatedBy: "::")
        guard parts.count <= 2 else { return nil }
        func groups(_ part: String, allowV4: Bool) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            let items = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, item) in items.enumerated() {
                if allowV4 && index == items.count - 1 && item.contains(".") {
                    guard let v4 = parseIPv4(item) else { return nil }
                    tailV4 = v4
                    continue
                }
                guard (1...4).contains(item.count), let value = UInt16(item, radix: 16) else { return nil }
                result.append(value)
            }
            return result
        }
        if parts.count == 2 {
            compressed = true
            guard let h = groups(parts[0], allowV4: false), let t = groups(parts[1], allowV4: true) else { return nil }
            head = h
            tail = t
        } else {
            guard let h = groups(parts[0], allowV4: true) else { return nil }
            head = h
        }
        let total = head.count + tail.count + tailV4.count / 2
        guard compressed ? total < 8 : total == 8 else { return nil }
        let all = head + [UInt16](repeating: 0, count: 8 - total) + tail
        var bytes: [UInt8] = []
        for group in all {
            bytes.append(UInt8(group >> 8))
            bytes.append(UInt8(group & 0xFF))
        }
        return bytes + tailV4
    }

    private static func parseIPv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt8(part)
            else {
                return nil
            }
            bytes.append(value)
        }
        return bytes
    }
}
