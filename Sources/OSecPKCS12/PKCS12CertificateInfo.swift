import Foundation
import OSecASN1
import OSecCrypto

/// The few fields of an X.509 certificate that PKCS#12 import needs: names for chain building,
/// the public key for pairing, and a display summary for the label.
///
/// A deliberately small reader (OSecX509 does the full parse); it only walks the TBSCertificate.
struct PKCS12CertificateInfo: Sendable {
    /// The certificate DER.
    let der: Data
    /// Encoded issuer Name (used for issuer/subject matching).
    let issuer: ArraySlice<UInt8>
    /// Encoded subject Name.
    let subject: ArraySlice<UInt8>
    /// Encoded SubjectPublicKeyInfo.
    let subjectPublicKeyInfo: ArraySlice<UInt8>
    /// The subjectPublicKey BIT STRING content (RSAPublicKey DER, or the EC point).
    let publicKeyBits: ArraySlice<UInt8>

    init(der: Data) throws {
        self.der = der
        let bytes = [UInt8](der)
        // Certificates should be DER; accept BER leniencies rather than reject an otherwise usable file.
        let root = try DER.parse(bytes[...], rules: .basic)
        (issuer, subject, subjectPublicKeyInfo, publicKeyBits) = try DER.sequence(root) { certificate in
            guard let tbs = certificate.next() else { throw PKCS12Error.malformed("certificate is empty") }
            certificate.skipRemaining()
            return try DER.sequence(tbs) { fields in
                if fields.peekIdentifier() == .contextSpecific(0, constructed: true) { _ = fields.next() }  // version
                guard fields.next() != nil,  // serialNumber
                    fields.next() != nil,  // signature
                    let issuer = fields.next(),
                    fields.next() != nil,  // validity
                    let subject = fields.next(),
                    let spki = fields.next()
                else { throw PKCS12Error.malformed("TBSCertificate is incomplete") }
                fields.skipRemaining()
                guard issuer.identifier == .sequence, subject.identifier == .sequence else {
                    throw PKCS12Error.malformed("certificate names are not SEQUENCEs")
                }
                let keyBits = try DER.sequence(spki) { parts in
                    guard parts.next() != nil, let bits = parts.next() else {
                        throw PKCS12Error.malformed("SubjectPublicKeyInfo is incomplete")
                    }
                    let content = try bits.primitiveContent(expecting: .bitString)
                    guard content.first == 0 else { throw PKCS12Error.malformed("public key has unused bits") }
                    return content.dropFirst()
                }
                return (issuer.encodedBytes, subject.encodedBytes, spki.encodedBytes, keyBits)
            }
        }
    }

    /// Whether the certificate is self-issued (subject equals issuer).
    var isSelfIssued: Bool { issuer == subject }

    /// SHA-1 of the subjectPublicKey bits: Apple's key identifier (`klbl`, kSecImportItemKeyID).
    var publicKeyHash: Data { Digest.hash(.sha1, Data(publicKeyBits)) }

    /// A display name in the spirit of `SecCertificateCopySubjectSummary`: the subject's commonName
    /// values (later first), else organizationalUnitName, else organizationName, else emailAddress.
    var subjectSummary: String? {
        PKCS12CertificateInfo.summary(ofName: subject)
    }

    static func summary(ofName name: ArraySlice<UInt8>) -> String? {
        // Attribute types in rank order: CN, OU, O, emailAddress.
        let ranked: [ASN1ObjectIdentifier] = [[2, 5, 4, 3], [2, 5, 4, 11], [2, 5, 4, 10], [1, 2, 840, 113549, 1, 9, 1]]
        guard let node = try? DER.parse(name, rules: .basic) else { return nil }
        var values: [(ASN1ObjectIdentifier, String)] = []
        _ = try? DER.sequence(node) { rdns in
            while let rdn = rdns.next() {
                try DER.set(rdn) { attributes in
                    while let attribute = attributes.next() {
                        try DER.sequence(attribute) { fields in
                            let type = try ASN1ObjectIdentifier(derEncoded: &fields)
                            guard let value = fields.next() else { return }
                            fields.skipRemaining()
                            if let text = directoryString(value) { values.append((type, text)) }
                        }
                    }
                }
            }
        }
        for type in ranked {
            let matching = values.filter { $0.0 == type }.map(\.1)
            if !matching.isEmpty { return matching.reversed().joined(separator: ", ") }
        }
        return values.last?.1
    }

    private static func directoryString(_ node: ASN1Node) -> String? {
        guard let content = node.primitiveContent, node.identifier.tagClass == .universal else { return nil }
        switch node.identifier.tagNumber {
        case ASN1Identifier.bmpString.tagNumber: return try? ASN1BMPString(contentBytes: content).string
        case ASN1Identifier.universalString.tagNumber: return try? ASN1UniversalString(contentBytes: content).string
        case ASN1Identifier.utf8String.tagNumber, ASN1Identifier.printableString.tagNumber,
            ASN1Identifier.ia5String.tagNumber, ASN1Identifier.teletexString.tagNumber,
            ASN1Identifier.visibleString.tagNumber:
            return String(decoding: content, as: UTF8.self)
        default: return nil
        }
    }
}
