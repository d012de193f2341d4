import Foundation
import OSecASN1
import OSecX509

// macOS's SecCertificateCopyValues and the description functions (Security/SecCertificate.h).
//
// The result is macOS's shape: a dictionary keyed by the `kSecOID…` strings; each value a property dictionary with
// `kSecPropertyKeyType`, `kSecPropertyKeyLabel`, `kSecPropertyKeyLocalizedLabel` and `kSecPropertyKeyValue`.
// Sections (`kSecPropertyTypeSection`) hold arrays of such properties: a name's attributes (labelled with the
// attribute's OID, as macOS does: `kSecOIDCommonName`, …), an extension's fields. The validity dates are numbers
// (`CFAbsoluteTime`), as on macOS. Extensions without a decoder of their own are a section with "Critical" and
// "Data" (the extension's DER value).

enum CertificateValues {
    static func property(_ type: CFString, _ label: String, _ value: Any) -> [String: Any] {
        [
            kSecPropertyKeyType as String: type as String, kSecPropertyKeyLabel as String: label,
            kSecPropertyKeyLocalizedLabel as String: label, kSecPropertyKeyValue as String: value,
        ]
    }

    /// A name's attributes, each labelled with its OID (macOS's legacy property shape).
    static func name(_ name: DistinguishedName) -> [[String: Any]] {
        name.attributes.map { attribute in
            if let text = attribute.stringValue {
                return property(kSecPropertyTypeString, attribute.type.dotted, text)
            }
            return property(kSecPropertyTypeData, attribute.type.dotted, Data(attribute.valueEncoding))
        }
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02X", $0) }.joined(separator: " ")
    }

    static func generalName(_ general: GeneralName) -> [String: Any] {
        switch general {
        case .dnsName(let dns): return property(kSecPropertyTypeString, "DNS Name", dns)
        case .rfc822Name(let email): return property(kSecPropertyTypeString, "Email Address", email)
        case .uniformResourceIdentifier(let uri): return property(kSecPropertyTypeURL, "URI", uri)
        case .ipAddress(let bytes):
            let text: String
            if bytes.count == 4 {
                text = bytes.map(String.init).joined(separator: ".")
            } else if bytes.count == 16 {
                let words = Array(bytes)
                text = stride(from: 0, to: 16, by: 2).map { index in
                    String(format: "%X", UInt16(words[index]) << 8 | UInt16(words[index + 1]))
                }.joined(separator: ":")
            } else {
                // Not an address (a certificate may carry anything here): its bytes.
                text = hex(bytes)
            }
            return property(kSecPropertyTypeString, "IP Address", text)
        case .directoryName(let directory): return property(kSecPropertyTypeSection, "Directory Name", name(directory))
        case .registeredID(let oid): return property(kSecPropertyTypeString, "Registered ID", oid.dotted)
        case .otherName(let type, let encoded):
            return property(kSecPropertyTypeData, type.dotted, Data(encoded))
        case .x400Address(let bytes): return property(kSecPropertyTypeData, "X.400 Address", Data(bytes))
        case .ediPartyName(let bytes): return property(kSecPropertyTypeData, "EDI Party Name", Data(bytes))
        }
    }

    static let extensionNames: [String: String] = [
        "2.5.29.14": "Subject Key Identifier", "2.5.29.15": "Key Usage", "2.5.29.17": "Subject Alternative Name",
        "2.5.29.18": "Issuer Alternative Name", "2.5.29.19": "Basic Constraints", "2.5.29.30": "Name Constraints",
        "2.5.29.31": "CRL Distribution Points", "2.5.29.32": "Certificate Policies", "2.5.29.33": "Policy Mappings",
        "2.5.29.35": "Authority Key Identifier", "2.5.29.36": "Policy Constraints", "2.5.29.37": "Extended Key Usage",
        "1.3.6.1.5.5.7.1.1": "Authority Information Access",
    ]

    static func yesNo(_ value: Bool) -> String { value ? "Yes" : "No" }

    /// One extension as a section.
    static func extensionValue(_ ext: Extension, _ certificate: Certificate) -> [String: Any] {
        let oid = ext.oid.dotted
        var fields: [[String: Any]] = [property(kSecPropertyTypeString, "Critical", yesNo(ext.critical))]
        let extensions = certificate.extensions
        switch oid {
        case "2.5.29.19":
            if let constraints = try? extensions.basicConstraints {
                fields.append(
                    property(kSecPropertyTypeString, "Certificate Authority", yesNo(constraints.isCertificateAuthority))
                )
                if let length = constraints.pathLengthConstraint {
                    fields.append(property(kSecPropertyTypeString, "Path Length Constraint", String(length)))
                }
            }
        case "2.5.29.17":
            fields += ((try? extensions.subjectAlternativeNames) ?? []).map(generalName)
        case "2.5.29.18":
            fields += ((try? extensions.issuerAlternativeNames) ?? []).map(generalName)
        case "2.5.29.14":
            if let identifier = try? extensions.subjectKeyIdentifier {
                fields.append(property(kSecPropertyTypeData, "Key Identifier", Data(identifier)))
            }
        case "2.5.29.37":
            for usage in (try? extensions.extendedKeyUsage)?.usages ?? [] {
                fields.append(property(kSecPropertyTypeString, "Purpose", usage.dotted))
            }
        case "2.5.29.15":
            fields.append(property(kSecPropertyTypeNumber, "Usage", NSNumber(value: keyUsage(certificate).rawValue)))
        default:
            fields.append(property(kSecPropertyTypeData, "Data", Data(ext.value)))
        }
        return property(kSecPropertyTypeSection, extensionNames[oid] ?? oid, fields)
    }

    static func keyUsage(_ certificate: Certificate) -> SecKeyUsage {
        guard let usage = try? certificate.extensions.keyUsage else { return [] }
        var bits = SecKeyUsage(rawValue: UInt32(usage.rawValue))
        if certificate.extensions[oid: X509OID.keyUsage]?.critical == true { bits.insert(.critical) }
        return bits
    }

    static func algorithm(_ oid: ASN1ObjectIdentifier, parameters: ArraySlice<UInt8>?, label: String) -> [String: Any] {
        var fields = [property(kSecPropertyTypeString, "Algorithm", oid.dotted)]
        if let parameters, !parameters.isEmpty {
            fields.append(property(kSecPropertyTypeData, "Parameters", Data(parameters)))
        }
        return property(kSecPropertyTypeSection, label, fields)
    }

    /// Every value, keyed by OID.
    static func all(_ secCertificate: SecCertificate) -> [String: Any] {
        let certificate = secCertificate.certificate
        var values: [String: Any] = [:]
        values[kSecOIDX509V1SubjectName as String] = property(
            kSecPropertyTypeSection, "Subject Name", name(certificate.subject))
        values[kSecOIDX509V1IssuerName as String] = property(
            kSecPropertyTypeSection, "Issuer Name", name(certificate.issuer))
        values[kSecOIDX509V1SubjectNameStd as String] = property(
            kSecPropertyTypeData, "Normalized Subject Name", Data(certificate.subject.normalizedDERBytes))
        values[kSecOIDX509V1IssuerNameStd as String] = property(
            kSecPropertyTypeData, "Normalized Issuer Name", Data(certificate.issuer.normalizedDERBytes))
        values[kSecOIDX509V1Version as String] = property(
            kSecPropertyTypeString, "Version", String(certificate.version.rawValue + 1))
        values[kSecOIDX509V1SerialNumber as String] = property(
            kSecPropertyTypeString, "Serial Number", hex(certificate.serialNumber))
        values[kSecOIDX509V1SignatureAlgorithm as String] = algorithm(
            certificate.signatureAlgorithm.oid, parameters: nil, label: "Signature Algorithm")
        values[kSecOIDX509V1SubjectPublicKeyAlgorithm as String] = algorithm(
            certificate.publicKeyInfo.algorithm.oid, parameters: certificate.publicKeyInfo.algorithm.parameters,
            label: "Public Key Algorithm")
        values[kSecOIDX509V1SubjectPublicKey as String] = property(
            kSecPropertyTypeData, "Public Key Data", Data(certificate.publicKeyInfo.keyBytes))
        values[kSecOIDX509V1Signature as String] = property(
            kSecPropertyTypeData, "Signature", Data(certificate.signature))
        if let unique = certificate.subjectUniqueID {
            values[kSecOIDX509V1CertificateSubjectUniqueId as String] = property(
                kSecPropertyTypeData, "Subject Unique ID", Data(unique))
        }
        if let unique = certificate.issuerUniqueID {
            values[kSecOIDX509V1CertificateIssuerUniqueId as String] = property(
                kSecPropertyTypeData, "Issuer Unique ID", Data(unique))
        }
        let epoch = Date(timeIntervalSinceReferenceDate: 0).timeIntervalSince1970
        values[kSecOIDX509V1ValidityNotBefore as String] = property(
            kSecPropertyTypeNumber, "Not Valid Before",
            NSNumber(value: Double(certificate.notBefore.secondsSinceEpoch) - epoch))
        values[kSecOIDX509V1ValidityNotAfter as String] = property(
            kSecPropertyTypeNumber, "Not Valid After",
            NSNumber(value: Double(certificate.notAfter.secondsSinceEpoch) - epoch))
        let commonNames = certificate.subject.commonNames
        if !commonNames.isEmpty {
            values[kSecOIDCommonName as String] = property(kSecPropertyTypeArray, "CN", commonNames)
        }
        let names = (try? certificate.extensions.subjectAlternativeNames) ?? []
        let dns = names.compactMap { if case .dnsName(let name) = $0 { name } else { nil } }
        if !dns.isEmpty { values["DNSNAMES"] = property(kSecPropertyTypeArray, "DNS", dns) }
        var emails: CFArray?
        _ = SecCertificateCopyEmailAddresses(secCertificate, &emails)
        if let emails = emails as? [String], !emails.isEmpty {
            values[kSecOIDEmailAddress as String] = property(kSecPropertyTypeArray, "Email Addresses", emails)
        }
        for ext in certificate.extensions.all {
            values[ext.oid.dotted] = extensionValue(ext, certificate)
        }
        if (try? certificate.extensions.keyUsage) != nil {
            // macOS gives the key usage as SecKeyUsage bits under the extension's OID.
            values[kSecOIDKeyUsage as String] = property(
                kSecPropertyTypeNumber, "Key Usage", NSNumber(value: keyUsage(certificate).rawValue))
        }
        return values
    }
}

/// Apple's `SecCertificateCopyValues` (macOS): the certificate's fields and extensions keyed by `kSecOID…`
/// (only those of `keys` when given; errSecParam when `keys` holds something other than strings).
public func SecCertificateCopyValues(
    _ certificate: SecCertificate, _ keys: CFArray?, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFDictionary? {
    error?.pointee = nil
    var values = CertificateValues.all(certificate)
    if let keys {
        let wanted = (keys as NSArray).compactMap { $0 as? String }
        guard wanted.count == (keys as NSArray).count else {
            error?.pointee = Unmanaged.passRetained(
                SecError.param("SecCertificateCopyValues: keys must be kSecOID… strings").nsError as CFError)
            return nil
        }
        values = values.filter { wanted.contains($0.key) }
    }
    return values as NSDictionary
}

/// Apple's `SecCertificateCopyLongDescription` (macOS): the subject summary (what Keychain Access lists).
public func SecCertificateCopyLongDescription(
    _ alloc: CFAllocator?, _ certificate: SecCertificate, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFString? {
    error?.pointee = nil
    return SecCertificateCopySubjectSummary(certificate)
}

/// Apple's `SecCertificateCopyShortDescription` (macOS): the subject summary.
public func SecCertificateCopyShortDescription(
    _ alloc: CFAllocator?, _ certificate: SecCertificate, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFString? {
    error?.pointee = nil
    return SecCertificateCopySubjectSummary(certificate)
}
