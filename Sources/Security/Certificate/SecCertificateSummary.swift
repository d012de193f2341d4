import Foundation
import OSecX509

/// Apple's subject-summary and name helpers (`SecCertificate.c`: obtainSummaryFromX501Name,
/// SecCertificateCopySubjectSummary, SecCertificateCopyRFC822Names, SecCertificateCopyDNSNames).
enum SecCertificateSummary {
    /// Apple's ranking: none < any other printable attribute < O < OU < CN.
    enum Rank: Int, Comparable {
        case none = 0
        case printable
        case organization
        case organizationalUnit
        case commonName
        static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Walks a Name: keeps every value of the most significant type, joined `"<later>, <earlier>"`;
    /// `description` attributes are collected separately (and also count as printable).
    static func nameSummary(_ name: DistinguishedName) -> (summary: String?, rank: Rank, description: String?) {
        var summary: String? = nil
        var rank = Rank.none
        var description: String? = nil
        for attribute in name.attributes {
            let type = attribute.type
            let attributeRank: Rank
            var string: String? = nil
            if type == X509OID.commonName {
                attributeRank = .commonName
            } else if type == X509OID.organizationalUnitName {
                attributeRank = .organizationalUnit
            } else if type == X509OID.organizationName {
                attributeRank = .organization
            } else if type == X509OID.description {
                guard let value = attribute.stringValue else { continue }
                string = value
                description = description.map { "\(value), \($0)" } ?? value
                attributeRank = .printable
            } else {
                attributeRank = .printable
            }
            guard rank <= attributeRank, let value = string ?? attribute.stringValue else { continue }
            if rank == attributeRank, let existing = summary {
                summary = "\(value), \(existing)"
            } else {
                summary = value
                rank = attributeRank
            }
        }
        return (summary, rank, description)
    }

    static func summary(of certificate: Certificate) -> String? {
        let (summary, rank, description) = nameSummary(certificate.subject)
        if rank == .commonName, let summary {
            if let description { return "\(summary) (\(description))" }
            return summary
        }
        if let email = emailAddresses(certificate).first { return email }
        if let dns = dnsNames(certificate).first { return dns }
        return summary
    }

    /// subjectAltName rfc822Names, then subject emailAddress values.
    static func emailAddresses(_ certificate: Certificate) -> [String] {
        var result: [String] = []
        if let names = try? certificate.extensions.subjectAlternativeNames {
            for case .rfc822Name(let email) in names { result.append(email) }
        }
        result.append(contentsOf: certificate.subject.values(of: X509OID.emailAddress))
        return result
    }

    /// subjectAltName dNSNames, else the common names that look like DNS names.
    static func dnsNames(_ certificate: Certificate) -> [String] {
        var result: [String] = []
        if let names = try? certificate.extensions.subjectAlternativeNames {
            for case .dnsName(let dns) in names { result.append(dns) }
        }
        if result.isEmpty {
            result = certificate.subject.commonNames.filter(looksLikeDNSName)
        }
        return result
    }

    /// A conservative hostname shape check: labels of letters, digits, `-`, `_` and a leading `*`, with a dot.
    static func looksLikeDNSName(_ name: String) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        for (index, label) in labels.enumerated() {
            if label.isEmpty { return index == labels.count - 1 && labels.count > 2 }  // trailing dot
            if label == "*" && index == 0 { continue }
            guard label.count <= 63, label.first != "-", label.last != "-",
                label.unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
                })
            else { return false }
        }
        return true
    }
}
