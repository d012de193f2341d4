import Foundation
import Testing

@testable import OSecASN1

/// Bytes from a hex string; spaces are ignored.
func hex(_ string: String) -> [UInt8] {
    let digits = Array(string.utf8.filter { $0 != UInt8(ascii: " ") })
    return stride(from: 0, to: digits.count, by: 2).map {
        UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
    }
}

func hexString(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// Asserts that `body` throws an `ASN1Error` with `code`.
func expectASN1Error<T>(
    _ code: ASN1Error.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) {
    do {
        let value = try body()
        Issue.record("expected \(code), got \(value)", sourceLocation: sourceLocation)
    } catch let error as ASN1Error {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
}

/// Encodes a value and decodes it again.
func roundTrip<T: DERImplicitlyTaggable>(_ value: T) throws -> (bytes: [UInt8], decoded: T) {
    let bytes = try value.derEncoded()
    return (bytes, try T(derEncoded: bytes))
}

enum Fixtures {
    static let caBundlePath = "/etc/ssl/certs/ca-certificates.crt"

    /// The DER certificates of the system bundle (empty if the file is missing).
    static let caCertificates: [[UInt8]] = {
        guard let text = try? String(contentsOfFile: caBundlePath, encoding: .utf8),
            let documents = try? PEMDocument.parseMultiple(string: text)
        else { return [] }
        return documents.map(\.derBytes)
    }()

    /// A small certificate-shaped structure with an EXPLICIT [0] version, OID, strings, times, BIT STRING.
    static let sample: [UInt8] = {
        var coder = DER.Serializer()
        try! coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(2, explicitlyTaggedWithTagNumber: 0)
                try coder.serialize(ASN1Integer(unsignedMagnitude: hex("00ff112233445566778899aabbccddeeff00112233")))
                try coder.serialize(ASN1ObjectIdentifier(dotted: "1.2.840.113549.1.1.11"))
                try coder.serialize(ASN1Null())
                try coder.serializeSetOf([ASN1UTF8String("b"), ASN1UTF8String("a")])
                try coder.serialize(UTCTime(secondsSinceEpoch: 1_700_000_000))
                try coder.serialize(GeneralizedTime(secondsSinceEpoch: 4_102_444_800))
                try coder.serialize(true)
            }
            try coder.serialize(ASN1BitString(bytes: hex("deadbeef")[...]))
        }
        return coder.serializedBytes
    }()
}
