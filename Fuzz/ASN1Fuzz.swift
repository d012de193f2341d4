// libFuzzer entry point for OSecASN1. Built by `Fuzz/fuzz.sh asn1`, which compiles the OSecASN1 sources as their
// own module with the same package name, so `package` declarations are visible. The pointer use is confined to
// this harness.
import OSecASN1

/// Walks every node and re-serializes, so lazy child iteration and the writer are exercised too.
private func exercise(_ node: ASN1Node) {
    if let children = node.children {
        for child in children { exercise(child) }
    } else {
        _ = try? ASN1ObjectIdentifier(derEncoded: node)
        _ = try? ASN1Integer(derEncoded: node)
        _ = try? ASN1BitString(derEncoded: node)
        _ = try? UTCTime(derEncoded: node)
        _ = try? GeneralizedTime(derEncoded: node)
        _ = try? ASN1BMPString(derEncoded: node).string
        _ = try? ASN1UniversalString(derEncoded: node).string
    }
    _ = try? ASN1OctetString(derEncoded: node)
    _ = try? ASN1UTF8String(derEncoded: node).string
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let strict = try? DER.parse(bytes) {
        exercise(strict)
        // Strict DER must re-encode to exactly the input.
        guard let reencoded = try? strict.derEncoded(), reencoded == bytes else {
            fatalError("DER round trip mismatch")
        }
    }
    if let lenient = try? DER.parse(bytes, rules: .basic) {
        exercise(lenient)
        // Re-encoding BER yields definite lengths that must parse again under BER.
        if let reencoded = try? lenient.derEncoded() {
            guard (try? DER.parse(reencoded, rules: .basic)) != nil else {
                fatalError("BER re-encoding does not parse")
            }
        }
    }
    if let documents = try? PEMDocument.parseMultiple(utf8: bytes[...]) {
        for document in documents {
            guard let again = try? PEMDocument(pemString: document.pemString), again == document else {
                fatalError("PEM round trip mismatch")
            }
        }
    }
    return 0
}
