import Foundation
import OSecASN1

/// One x509-limbo testcase (upstream's `limbo-schema.json`), with its certificates decoded to DER.
package struct LimboTestcase: Sendable {
    /// `namespace::name`.
    package let id: String
    /// `SERVER` (the leaf is a TLS server certificate) or `CLIENT`.
    package let isClient: Bool
    /// Anchors; PEM blocks that do not decode are left out.
    package let trustedCertificates: [Data]
    /// Untrusted intermediates; PEM blocks that do not decode are left out.
    package let intermediates: [Data]
    /// The peer (leaf) certificate, nil when its PEM does not decode.
    package let peerCertificate: Data?
    /// The validation time (nil: now).
    package let validationTime: Date?
    /// `SERVER`: the name the peer must prove.
    package let expectedPeerName: LimboPeerName?
    /// `CLIENT`: the names the peer must carry.
    package let expectedPeerNames: [LimboPeerName]
    /// Extended key usage names (`serverAuth`, `codeSigning`, …) the leaf must allow.
    package let extendedKeyUsage: [String]
    /// Key usage names (`digitalSignature`, …) the leaf must allow.
    package let keyUsage: [String]
    /// Signature algorithms the chain may use (no mapping: such cases are skipped).
    package let signatureAlgorithms: [String]
    /// The most intermediates (limbo's `max_chain_depth`).
    package let maxChainDepth: Int?
    /// PEM CRLs to check revocation against.
    package let crls: [String]
    /// Feature tags (`rfc5280-incompatible-with-webpki`, `pedantic-…`).
    package let features: [String]
    /// `SUCCESS` or `FAILURE`.
    package let expectsSuccess: Bool

    /// Decodes a testcase object; nil without an id.
    package init?(json: [String: Any]) {
        guard let id = json["id"] as? String else { return nil }
        self.id = id
        isClient = (json["validation_kind"] as? String) == "CLIENT"
        trustedCertificates = ((json["trusted_certs"] as? [String]) ?? []).compactMap(LimboTestcase.der)
        intermediates = ((json["untrusted_intermediates"] as? [String]) ?? []).compactMap(LimboTestcase.der)
        peerCertificate = (json["peer_certificate"] as? String).flatMap(LimboTestcase.der)
        validationTime = (json["validation_time"] as? String).flatMap(LimboTestcase.date)
        expectedPeerName = LimboPeerName(json: json["expected_peer_name"])
        expectedPeerNames = ((json["expected_peer_names"] as? [Any]) ?? []).compactMap(LimboPeerName.init(json:))
        extendedKeyUsage = (json["extended_key_usage"] as? [String]) ?? []
        keyUsage = (json["key_usage"] as? [String]) ?? []
        signatureAlgorithms = (json["signature_algorithms"] as? [String]) ?? []
        maxChainDepth = json["max_chain_depth"] as? Int
        crls = (json["crls"] as? [String]) ?? []
        features = (json["features"] as? [String]) ?? []
        expectsSuccess = (json["expected_result"] as? String) == "SUCCESS"
    }

    /// Every testcase of a suite file (`{"version": 1, "testcases": [...]}`); nil when it is not one.
    package static func suite(_ data: Data) -> [LimboTestcase]? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let testcases = object["testcases"] as? [[String: Any]]
        else { return nil }
        return testcases.compactMap(LimboTestcase.init(json:))
    }

    private static func der(_ pem: String) -> Data? {
        guard let document = try? PEMDocument(pemString: pem), document.type == "CERTIFICATE" else { return nil }
        return Data(document.derBytes)
    }

    private static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

/// A limbo peer name: `DNS`, `IP` or `RFC822`.
package struct LimboPeerName: Sendable, Hashable {
    /// `DNS`, `IP` or `RFC822`.
    package let kind: String
    /// The name.
    package let value: String

    init?(json: Any?) {
        guard let object = json as? [String: Any], let kind = object["kind"] as? String,
            let value = object["value"] as? String
        else { return nil }
        self.kind = kind
        self.value = value
    }
}
