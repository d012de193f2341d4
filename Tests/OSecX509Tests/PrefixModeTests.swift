import Testing

@testable import OSecX509

/// `Certificate(derEncodedPrefixOf:)` (Apple's `SecCertificateCreateWithData`, which ignores bytes after the
/// certificate) finds where the certificate ends with OSecASN1's header reader, so it is exactly as strict about
/// the outer header as the full parser is about every other one.
@Suite struct PrefixModeTests {
    static func certificate() throws -> Certificate { try X509TestPKI.root(key: X509TestPKI.p256Key) }

    @Test func anythingAfterTheCertificateIsIgnored() throws {
        let cert = try Self.certificate()
        for trailer: [UInt8] in [[], [0x00], [0x30, 0x00], [0xff, 0xff, 0xff], cert.derBytes] {
            let parsed = try Certificate(derEncodedPrefixOf: cert.derBytes + trailer)
            #expect(parsed == cert)
            #expect(parsed.derBytes == cert.derBytes)
        }
    }

    @Test func anOuterHeaderThatIsNotDERIsMalformed() throws {
        let der = try Self.certificate().derBytes
        // The root's encoding is over 255 bytes (an 0x82 length) and under 65,536.
        #expect(der[1] == 0x82)
        let content = Array(der.dropFirst(4))
        let variants: [(String, [UInt8])] = [
            ("length with a leading zero octet", [0x30, 0x83, 0x00, der[2], der[3]] + content),
            ("indefinite length", [0x30, 0x80] + content + [0x00, 0x00]),
            ("length one longer than the bytes", [0x30, 0x82, der[2], der[3] &+ 1] + content),
            ("reserved length octet", [0x30, 0xff] + content),
            ("not a SEQUENCE", [0x31] + der.dropFirst()),
            ("high-tag-number form for SEQUENCE", [0x3f, 0x10] + der.dropFirst()),
            ("empty", []),
            ("identifier only", [0x30]),
        ]
        for (what, bytes) in variants {
            #expect(throws: X509Error(.malformed, ""), "\(what)") { try Certificate(derEncodedPrefixOf: bytes) }
        }
    }
}
