import Foundation
import OSecASN1
import OSecCrypto
import OSecX509

/// A DER `OCSPResponse` (RFC 6960 §4.2.1) with a `BasicOCSPResponse`, as given to `SecTrustSetOCSPResponse`.
package struct OCSPResponse: Sendable {
    /// One `SingleResponse`.
    package struct Single: Sendable {
        /// The CertID hash algorithm (nil when not one we support).
        package let hashAlgorithm: DigestAlgorithm?
        /// Hash of the issuer's DER name.
        package let issuerNameHash: ArraySlice<UInt8>
        /// Hash of the issuer's public key BIT STRING contents.
        package let issuerKeyHash: ArraySlice<UInt8>
        /// The serial number the response is about.
        package let serialNumber: ArraySlice<UInt8>
        /// The certStatus: good, revoked or unknown (RFC 6960 §4.2.1).
        package enum Status: Sendable { case good, revoked, unknown }
        /// The certificate's status.
        package let status: Status
        /// thisUpdate, seconds since 1970.
        package let thisUpdate: Int64
        /// nextUpdate, seconds since 1970, if present.
        package let nextUpdate: Int64?
    }

    /// The signed ResponseData bytes.
    package let tbsBytes: ArraySlice<UInt8>
    /// The response's signature algorithm.
    package let signatureAlgorithm: SignatureAlgorithm
    /// The signature bits.
    package let signature: ArraySlice<UInt8>
    /// The SingleResponses.
    package let responses: [Single]
    /// Certificates included to help verify the signature (a delegated responder).
    package let certificates: [Certificate]
    /// Critical response extensions we do not process (then the response is unusable).
    package let unhandledCriticalExtensions: Bool

    static let basicType: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 48, 1, 1]
    static let nonce: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 48, 1, 2]

    /// Parses a DER OCSPResponse of the basic type (RFC 6960 §4.2.1); other types and unsuccessful statuses throw.
    package init(derEncoded bytes: [UInt8]) throws {
        let root = try DER.parse(bytes)
        guard var outer = root.children?.makeIterator(), let status = outer.next(), status.identifier == .enumerated,
            status.primitiveContent == [0]
        else { throw X509Error(.malformed, "OCSP response status is not successful") }
        guard let wrapper = outer.next(), wrapper.identifier == .contextSpecific(0, constructed: true),
            let responseBytes = wrapper.children?.first, var rb = responseBytes.children?.makeIterator()
        else { throw X509Error(.malformed, "OCSP response without responseBytes") }
        let type = try ASN1ObjectIdentifier(derEncoded: &rb)
        guard type == Self.basicType else { throw X509Error(.malformed, "not a basic OCSP response") }
        let inner = try ASN1OctetString(derEncoded: &rb).bytes
        let basic = try DER.parse(inner)
        guard var parts = basic.children?.makeIterator(), let tbs = parts.next(), let tbsChildren = tbs.children else {
            throw X509Error(.malformed, "malformed BasicOCSPResponse")
        }
        tbsBytes = tbs.encodedBytes
        signatureAlgorithm = SignatureAlgorithm(identifier: try AlgorithmIdentifier(derEncoded: &parts))
        signature = try ASN1BitString(derEncoded: &parts).bytes
        var certificates: [Certificate] = []
        if let certsNode = parts.next(), certsNode.identifier == .contextSpecific(0, constructed: true),
            let list = certsNode.children?.first?.children
        {
            for node in list { certificates.append(try Certificate(derEncoded: [UInt8](node.encodedBytes))) }
        }
        self.certificates = certificates

        var fields = tbsChildren.makeIterator()
        if fields.peekIdentifier() == .contextSpecific(0, constructed: true) { _ = fields.next() }  // version v1
        guard let responder = fields.next(), responder.identifier.tagClass == .contextSpecific else {
            throw X509Error(.malformed, "missing responderID")
        }
        guard let produced = fields.next(), produced.identifier == .generalizedTime else {
            throw X509Error(.malformed, "missing producedAt")
        }
        guard let list = fields.next(), let entries = list.children else {
            throw X509Error(.malformed, "missing responses")
        }
        var singles: [Single] = []
        for entry in entries {
            guard var items = entry.children?.makeIterator(), let certID = items.next(),
                var id = certID.children?.makeIterator()
            else { throw X509Error(.malformed, "malformed SingleResponse") }
            let hash = try AlgorithmIdentifier(derEncoded: &id)
            let nameHash = try ASN1OctetString(derEncoded: &id).bytes
            let keyHash = try ASN1OctetString(derEncoded: &id).bytes
            guard let serial = id.next(), serial.identifier == .integer, let serialBytes = serial.primitiveContent
            else {
                throw X509Error(.malformed, "malformed CertID serial")
            }
            guard let statusNode = items.next(), statusNode.identifier.tagClass == .contextSpecific else {
                throw X509Error(.malformed, "malformed certStatus")
            }
            let status: Single.Status
            switch statusNode.identifier.tagNumber {
            case 0: status = .good
            case 1: status = .revoked
            default: status = .unknown
            }
            guard let thisNode = items.next() else { throw X509Error(.malformed, "missing thisUpdate") }
            let thisUpdate = try X509Time(derEncoded: thisNode).secondsSinceEpoch
            var nextUpdate: Int64? = nil
            var criticalSingle = false
            while let extra = items.next() {
                if extra.identifier == .contextSpecific(0, constructed: true), let value = extra.children?.first {
                    nextUpdate = try X509Time(derEncoded: value).secondsSinceEpoch
                } else if extra.identifier == .contextSpecific(1, constructed: true), let value = extra.children?.first
                {
                    let extensions = try Extensions(derEncoded: value)
                    if extensions.all.contains(where: { $0.critical }) { criticalSingle = true }
                }
            }
            let digest: DigestAlgorithm?
            switch hash.oid {
            case X509OID.sha1: digest = .sha1
            case X509OID.sha256: digest = .sha256
            case X509OID.sha384: digest = .sha384
            case X509OID.sha512: digest = .sha512
            default: digest = nil
            }
            singles.append(
                Single(
                    hashAlgorithm: criticalSingle ? nil : digest, issuerNameHash: nameHash, issuerKeyHash: keyHash,
                    serialNumber: serialBytes, status: status, thisUpdate: thisUpdate, nextUpdate: nextUpdate))
        }
        responses = singles
        var unhandled = false
        if let node = fields.next(), node.identifier == .contextSpecific(1, constructed: true),
            let value = node.children?.first
        {
            unhandled = try Extensions(derEncoded: value).all.contains { $0.critical && $0.oid != Self.nonce }
        }
        unhandledCriticalExtensions = unhandled
    }

    /// The status of `certificate` issued by `issuer`, if this response covers it, is signed by the issuer or by a
    /// responder certificate the issuer delegated (EKU id-kp-OCSPSigning), and is current at `time`.
    package func status(of certificate: Certificate, issuer: CertificateInfo, at time: Int64) -> Single.Status? {
        guard !unhandledCriticalExtensions, let issuerKey = issuer.publicKey else { return nil }
        let nameBytes = Data(certificate.issuer.derBytes)
        let keyBytes = Data(issuer.certificate.publicKeyInfo.keyBytes)
        guard
            let single = responses.first(where: { single in
                guard let digest = single.hashAlgorithm, single.serialNumber.elementsEqual(certificate.serialNumber)
                else { return false }
                return Digest.hash(digest, nameBytes).elementsEqual(single.issuerNameHash)
                    && Digest.hash(digest, keyBytes).elementsEqual(single.issuerKeyHash)
            })
        else { return nil }
        guard single.thisUpdate <= time + 300,
            single.nextUpdate.map({ time <= $0 }) ?? (time - single.thisUpdate < 7 * 86_400)
        else { return nil }
        if SignatureCheck.verify(signatureAlgorithm, signature: signature, over: tbsBytes, with: issuerKey) {
            return single.status
        }
        for responder in certificates {
            let info = CertificateInfo.make(responder)
            guard info.extendedKeyUsage?.contains(X509OID.ocspSigning) == true,
                info.normalizedIssuer == issuer.normalizedSubject,
                responder.isValid(atSecondsSinceEpoch: time), info.isSigned(by: issuer), let key = info.publicKey,
                SignatureCheck.verify(signatureAlgorithm, signature: signature, over: tbsBytes, with: key)
            else { continue }
            return single.status
        }
        return nil
    }
}
