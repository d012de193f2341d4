import Foundation
import OSecASN1

@testable import OSecX509

/// Renders our parsed model the way OpenSSL 3.0's text printers do, so `openssl` output can be compared field by field.
enum OpenSSLFormat {
    /// OBJ_nid2sn short names for name attributes (OpenSSL 3.0 objects table).
    static let shortNames: [String: String] = [
        "2.5.4.3": "CN", "2.5.4.4": "SN", "2.5.4.5": "serialNumber", "2.5.4.6": "C", "2.5.4.7": "L", "2.5.4.8": "ST",
        "2.5.4.9": "street", "2.5.4.10": "O", "2.5.4.11": "OU", "2.5.4.12": "title", "2.5.4.13": "description",
        "2.5.4.15": "businessCategory", "2.5.4.17": "postalCode", "2.5.4.41": "name", "2.5.4.42": "GN",
        "2.5.4.43": "initials", "2.5.4.44": "generationQualifier", "2.5.4.46": "dnQualifier", "2.5.4.65": "pseudonym",
        "2.5.4.97": "organizationIdentifier", "2.5.4.16": "postalAddress", "2.5.4.18": "postOfficeBox",
        "2.5.4.20": "telephoneNumber", "2.5.4.45": "x500UniqueIdentifier", "2.5.4.54": "dmdName",
        "2.5.4.72": "role", "2.5.4.14": "searchGuide", "2.5.4.26": "registeredAddress",
        "1.2.840.113549.1.9.1": "emailAddress", "1.2.840.113549.1.9.2": "unstructuredName",
        "1.2.840.113549.1.9.8": "unstructuredAddress",
        "0.9.2342.19200300.100.1.25": "DC", "0.9.2342.19200300.100.1.1": "UID",
        "1.3.6.1.4.1.311.60.2.1.1": "jurisdictionL", "1.3.6.1.4.1.311.60.2.1.2": "jurisdictionST",
        "1.3.6.1.4.1.311.60.2.1.3": "jurisdictionC",
    ]

    // MARK: X509_NAME_oneline / X509_NAME_print (the `-text` Subject/Issuer lines)

    static func oneline(_ name: DistinguishedName) -> String {
        var out = ""
        for attribute in name.attributes {
            out += "/" + (shortNames[attribute.type.dotted] ?? attribute.type.dotted) + "="
            let q = Array(attribute.valueContent)
            var doit = [true, true, true, true]
            // GeneralString (27) of 4-byte chars: print only the low octet of each if the others are zero.
            if attribute.valueTag == ASN1Identifier(tagNumber: 27, tagClass: .universal, constructed: false),
                q.count % 4 == 0
            {
                var nonZero = [false, false, false, false]
                for (j, byte) in q.enumerated() where byte != 0 { nonZero[j & 3] = true }
                if nonZero[0] || nonZero[1] || nonZero[2] {
                    doit = [true, true, true, true]
                } else {
                    doit = [false, false, false, true]
                }
            }
            for (j, byte) in q.enumerated() where doit[j & 3] {
                if byte < 0x20 || byte > 0x7E {
                    out += "\\x" + String(format: "%02X", byte)
                } else {
                    if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "+") { out += "\\" }
                    out.unicodeScalars.append(Unicode.Scalar(byte))
                }
            }
        }
        return out
    }

    /// X509_NAME_print (XN_FLAG_COMPAT): the oneline form with `/XX=` (1–2 uppercase letters) turned into `, XX=`.
    static func compat(_ name: DistinguishedName) -> String {
        let b = Array(oneline(name).utf8)
        guard !b.isEmpty else { return "" }
        var out: [UInt8] = []
        var s = 1
        var c = 1
        func isUpper(_ i: Int) -> Bool { i < b.count && b[i] >= 0x41 && b[i] <= 0x5A }
        func at(_ i: Int) -> UInt8 { i < b.count ? b[i] : 0 }
        while true {
            let atEnd = s >= b.count
            if atEnd
                || (b[s] == UInt8(ascii: "/") && isUpper(s + 1)
                    && (at(s + 2) == UInt8(ascii: "=") || (isUpper(s + 2) && at(s + 3) == UInt8(ascii: "="))))
            {
                out += b[c..<min(s, b.count)]
                c = s + 1
                if !atEnd { out += Array(", ".utf8) }
            }
            if atEnd { break }
            s += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: RFC 2253 (`-nameopt RFC2253`)

    static func rfc2253(_ name: DistinguishedName) -> String {
        name.rdns.reversed().map { rdn in
            rdn.attributes.map { attribute -> String in
                let key = shortNames[attribute.type.dotted] ?? attribute.type.dotted
                guard shortNames[attribute.type.dotted] != nil, attribute.isString || attribute.valueTag.tagNumber == 27
                else {
                    return key + "=#" + attribute.valueEncoding.map { String(format: "%02X", $0) }.joined()
                }
                return key + "=" + escape2253(attribute)
            }.joined(separator: "+")
        }.joined(separator: ",")
    }

    private static func escape2253(_ attribute: AttributeTypeAndValue) -> String {
        // UTF8_CONVERT then ESC_2253 | ESC_CTRL | ESC_MSB: every octet ≥ 0x80 of the UTF-8 form as \XX.
        let utf8: [UInt8]
        if attribute.valueTag.tagNumber == 20 {  // T61String: octets as Latin-1 code points
            utf8 = Array(String(String.UnicodeScalarView(attribute.valueContent.map { Unicode.Scalar($0) })).utf8)
        } else {
            utf8 = Array((attribute.stringValue ?? "").utf8)
        }
        var out = ""
        for (index, byte) in utf8.enumerated() {
            let isFirst = index == 0
            let isLast = index == utf8.count - 1
            if byte >= 0x80 || byte < 0x20 || byte == 0x7F {
                out += "\\" + String(format: "%02X", byte)
            } else if ",+\"\\<>;".utf8.contains(byte) || (isFirst && (byte == UInt8(ascii: "#") || byte == 0x20))
                || (isLast && byte == 0x20)
            {
                out += "\\" + String(UnicodeScalar(byte))
            } else {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }

    // MARK: Times, serials, extensions

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// ASN1_TIME_print: `May  5 09:37:37 2011 GMT`.
    static func time(_ time: X509Time) -> String {
        guard let dt = try? ASN1DateTime(secondsSinceEpoch: time.secondsSinceEpoch) else { return "?" }
        return String(
            format: "%@ %2d %02d:%02d:%02d %d GMT", months[dt.month - 1], dt.day, dt.hours, dt.minutes, dt.seconds,
            dt.year)
    }

    /// Serial as (negative, lowercase magnitude hex without leading zeros).
    static func serial(_ content: ArraySlice<UInt8>) -> String {
        let bytes = Array(content)
        let negative = (bytes.first ?? 0) & 0x80 != 0
        var magnitude = bytes
        if negative {
            // two's complement negate
            var carry = 1
            for i in stride(from: magnitude.count - 1, through: 0, by: -1) {
                let value = Int(~magnitude[i]) + carry
                magnitude[i] = UInt8(value & 0xFF)
                carry = value >> 8
            }
        }
        let hex = magnitude.map { String(format: "%02x", $0) }.joined().drop(while: { $0 == "0" })
        return (negative ? "-" : "") + (hex.isEmpty ? "0" : String(hex))
    }

    static func asn1StringPrint(_ string: String) -> String {
        String(
            string.utf8.map { byte -> Character in
                (byte > 0x7E || (byte < 0x20 && byte != 0x0A && byte != 0x0D)) ? "." : Character(Unicode.Scalar(byte))
            })
    }

    static func generalName(_ name: GeneralName) -> String {
        switch name {
        case .otherName: return "othername:<unsupported>"
        case .rfc822Name(let value): return "email:" + asn1StringPrint(value)
        case .dnsName(let value): return "DNS:" + asn1StringPrint(value)
        case .uniformResourceIdentifier(let value): return "URI:" + asn1StringPrint(value)
        case .x400Address: return "X400Name:<unsupported>"
        case .ediPartyName: return "EdiPartyName:<unsupported>"
        case .directoryName(let dn): return "DirName:" + oneline(dn)
        case .ipAddress(let bytes):
            if bytes.count == 4 { return "IP Address:" + bytes.map { String($0) }.joined(separator: ".") }
            if bytes.count == 16 {
                let b = Array(bytes)
                return "IP Address:"
                    + stride(from: 0, to: 16, by: 2).map { String(format: "%X", Int(b[$0]) << 8 | Int(b[$0 + 1])) }
                    .joined(separator: ":")
            }
            return "IP Address:<invalid length=\(bytes.count)>"
        case .registeredID(let oid): return "Registered ID:" + oid.dotted
        }
    }

    static let ekuNames: [String: String] = [
        "1.3.6.1.5.5.7.3.1": "TLS Web Server Authentication", "1.3.6.1.5.5.7.3.2": "TLS Web Client Authentication",
        "1.3.6.1.5.5.7.3.3": "Code Signing", "1.3.6.1.5.5.7.3.4": "E-mail Protection",
        "1.3.6.1.5.5.7.3.5": "IPSec End System", "1.3.6.1.5.5.7.3.6": "IPSec Tunnel", "1.3.6.1.5.5.7.3.7": "IPSec User",
        "1.3.6.1.5.5.7.3.8": "Time Stamping", "1.3.6.1.5.5.7.3.9": "OCSP Signing",
        "2.5.29.37.0": "Any Extended Key Usage",
        "1.3.6.1.4.1.311.10.3.3": "Microsoft Server Gated Crypto",
        "2.16.840.1.113730.4.1": "Netscape Server Gated Crypto",
        "1.3.6.1.4.1.311.20.2.2": "Microsoft Smartcard Login",
        "1.3.6.1.4.1.311.10.3.4": "Microsoft Encrypted File System",
        "1.3.6.1.4.1.311.2.1.21": "Microsoft Individual Code Signing",
        "1.3.6.1.4.1.311.2.1.22": "Microsoft Commercial Code Signing",
        "1.3.6.1.4.1.311.10.3.1": "Microsoft Trust List Signing", "1.3.6.1.5.5.7.3.17": "ipsec Internet Key Exchange",
        "1.3.6.1.5.5.8.2.2": "ipsec Internet Key Exchange",
    ]

    static func eku(_ usage: ExtendedKeyUsage) -> String {
        usage.usages.map { ekuNames[$0.dotted] ?? $0.dotted }.joined(separator: ", ")
    }

    static func keyUsage(_ usage: KeyUsage) -> String {
        KeyUsage.names.filter { usage.contains($0.0) }.map(\.1).joined(separator: ", ")
    }
}
