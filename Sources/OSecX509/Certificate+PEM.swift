import Foundation
import OSecASN1

extension Certificate {
    /// The PEM label.
    package static let pemLabel = "CERTIFICATE"

    /// Parses exactly one `CERTIFICATE` PEM document (surrounding text ignored).
    package init(pemEncoded string: String) throws(X509Error) {
        let certificates = try Certificate.certificates(fromPEM: string)
        guard certificates.count == 1, let first = certificates.first else {
            throw X509Error(.invalidPEM, "expected one certificate, found \(certificates.count)")
        }
        self = first
    }

    /// Parses every `CERTIFICATE` (or legacy `X509 CERTIFICATE`) block of a PEM bundle, in order:
    /// the "server replied with a PEM chain" call. Other block types (keys, CRLs) are skipped;
    /// a malformed certificate block fails the whole call.
    package static func certificates(fromPEM string: String) throws(X509Error) -> [Certificate] {
        try certificates(fromPEMBytes: Array(string.utf8)[...])
    }

    /// As ``certificates(fromPEM:)`` for UTF-8 bytes.
    package static func certificates(fromPEMBytes bytes: ArraySlice<UInt8>) throws(X509Error) -> [Certificate] {
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(utf8: bytes)
        } catch {
            throw X509Error(.invalidPEM, "malformed PEM", underlying: error)
        }
        var result: [Certificate] = []
        for document in documents where document.type == pemLabel || document.type == "X509 CERTIFICATE" {
            result.append(try Certificate(derEncoded: document.derBytes))
        }
        return result
    }

    /// The PEM text (64-column base64 lines, `\n` line ends).
    package var pemString: String { PEMDocument(type: Certificate.pemLabel, derBytes: derBytes).pemString }
}
