import Foundation
import OSecKeychain
import OSecX509

/// How certificates become keychain items and back (reference §2.2 / §2.4).
enum SecItemCertificates {
    /// Apple's derived attributes for a certificate item, in the engine's value types.
    static func attributes(of certificate: SecCertificate) -> [String: AttributeValue] {
        var result: [String: AttributeValue] = [:]
        for (name, value) in certificate.keychainAttributes() {
            guard let descriptor = ItemClass.certificate.descriptor(for: name),
                let normalized = AttributeValue(caller: value, kind: descriptor.kind)
            else { continue }
            result[name] = normalized
        }
        return result
    }

    /// The certificate for an add: `kSecValueRef` (a SecCertificate) or `kSecValueData` (DER).
    static func certificate(for query: SecItemQuery) throws -> SecCertificate {
        if let ref = query.valueRef {
            guard let certificate = ref as? SecCertificate else {
                throw SecError.param("kSecValueRef for kSecClassCertificate must be a SecCertificate")
            }
            return certificate
        }
        guard let data = query.valueData else {
            throw SecError.param("a certificate item needs kSecValueRef (a SecCertificate) or kSecValueData (DER)")
        }
        guard let certificate = SecCertificateCreateWithData(nil, data as NSData) else {
            throw SecError(errSecDecode, "kSecValueData is not a DER X.509 certificate")
        }
        return certificate
    }

    static func certificate(fromStored data: Data, reference: SecItemReference) throws -> SecCertificate {
        guard let certificate = try? Certificate(derEncoded: [UInt8](data)) else {
            throw SecError(errSecDecode, "the stored certificate does not decode")
        }
        return SecCertificate(certificate, keychainReference: reference)
    }

    /// Apple normalizes `kSecAttrIssuer`/`kSecAttrSubject` given as a full DER Name (outer SEQUENCE) to the
    /// stored contents form.
    static func normalizeNameAttributes(_ attributes: inout [String: AttributeValue]) {
        for key in ["issr", "subj"] {
            guard case .data(let bytes)? = attributes[key], bytes.first == 0x30,
                let normalized = SecCertificate.normalizedNameContents(fromDER: bytes)
            else { continue }
            attributes[key] = .data(normalized)
        }
    }
}

extension SecIdentity {
    /// An identity's persistent reference is `idnt` + its certificate's UUID.
    var keychainReference: SecItemReference? {
        certificate.keychainReference.map {
            SecItemReference(
                keychainPath: $0.keychainPath,
                persistentRef: SecPersistentRef.identityCode + $0.persistentRef.dropFirst(4))
        }
    }
}
