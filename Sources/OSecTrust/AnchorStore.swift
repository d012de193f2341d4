import Foundation
import OSecX509

/// A set of trust anchors, indexed by normalized subject.
///
/// An anchor is its name and key (RFC 5280 §6.1.1 (d)): a chain certificate with the same subject and public key
/// as an anchor ends the path there, whether or not the bytes are identical.
package struct AnchorStore: Sendable {
    /// The anchors, duplicates (same DER) removed, in the order given.
    package let anchors: [CertificateInfo]
    /// Whether this is ``system`` (identified by flag rather than by its ~150 members in evaluation caches).
    package private(set) var isSystem = false
    private let bySubject: [ByteKey: [Int]]

    /// A store of these certificates (decoded through the shared ``CertificateInfo`` cache).
    package init(_ certificates: [Certificate]) {
        self.init(infos: certificates.map(CertificateInfo.make))
    }

    /// A store of already decoded certificates.
    package init(infos: [CertificateInfo]) {
        // Equal certificates have equal subjects: a duplicate is looked for only among the anchors of its name, so
        // a bundle of n roots costs n lookups, not n² comparisons.
        var unique: [CertificateInfo] = []
        var index: [ByteKey: [Int]] = [:]
        for info in infos {
            let sameName = index[info.normalizedSubject] ?? []
            guard !sameName.contains(where: { unique[$0] === info || unique[$0].certificate == info.certificate })
            else { continue }
            index[info.normalizedSubject, default: []].append(unique.count)
            unique.append(info)
        }
        anchors = unique
        bySubject = index
    }

    /// No anchors.
    package static let empty = AnchorStore(infos: [])

    /// Whether the store has no anchor.
    package var isEmpty: Bool { anchors.isEmpty }
    /// The anchors as certificates.
    package var certificates: [Certificate] { anchors.map(\.certificate) }

    /// Anchors whose subject is `name` (normalized).
    package func anchors(named name: ByteKey) -> [CertificateInfo] {
        (bySubject[name] ?? []).map { anchors[$0] }
    }

    /// The anchor with the same subject and key as `info`, if any.
    package func anchor(matching info: CertificateInfo) -> CertificateInfo? {
        anchors(named: info.normalizedSubject).first { $0 === info || $0.spkiBytes == info.spkiBytes }
    }

    // MARK: System trust store

    /// Distribution bundle paths tried in order (Debian/Ubuntu, Fedora/RHEL, openSUSE, Alpine/Arch, older RHEL).
    package static let systemBundlePaths = [
        "/etc/ssl/certs/ca-certificates.crt",
        "/etc/pki/tls/certs/ca-bundle.crt",
        "/etc/ssl/ca-bundle.pem",
        "/etc/ssl/cert.pem",
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
    ]

    /// The system anchors: the first readable bundle of ``systemBundlePaths``, loaded once on first use.
    /// Certificates that fail to parse are skipped.
    package static let system: AnchorStore = {
        for path in systemBundlePaths {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let certificates = loadPEMBundle([UInt8](data))
            if !certificates.isEmpty {
                var store = AnchorStore(certificates)
                store.isSystem = true
                return store
            }
        }
        return .empty
    }()

    /// Every parseable certificate of a PEM bundle (one bad block does not lose the others).
    package static func loadPEMBundle(_ bytes: [UInt8]) -> [Certificate] {
        if let all = try? Certificate.certificates(fromPEMBytes: bytes[...]) { return all }
        var result: [Certificate] = []
        let text = String(decoding: bytes, as: UTF8.self)
        let end = "-----END CERTIFICATE-----"
        for block in text.components(separatedBy: end) where block.contains("-----BEGIN CERTIFICATE-----") {
            if let certificate = try? Certificate(pemEncoded: block + end) { result.append(certificate) }
        }
        return result
    }
}
