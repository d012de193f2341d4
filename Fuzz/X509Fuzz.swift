// libFuzzer entry point for the X.509 parse paths: DER certificates (strict and Apple's prefix mode), CSRs,
// PEM bundles, plus every lazily decoded extension, and the crypto layer's key decoders (SPKI, PKCS#8, SEC1,
// PKCS#1, all read with OSecASN1's parser before OpenSSL sees the key). Built by `Fuzz/fuzz.sh x509`, which
// compiles OSecASN1, OSecCrypto (+ the COpenSSLShims C file) and OSecX509 as separate instrumented modules and
// links this harness. Signature checks (which go into OpenSSL) are deliberately not fuzzed here; the pointer use is
// confined to this file.
import Foundation
import OSecASN1
import OSecCrypto
import OSecX509

private func exercise(_ cert: Certificate, input: [UInt8]) {
    // Lossless parsing: a certificate we accept must re-encode to exactly the input.
    guard let reencoded = try? cert.reencoded(), reencoded == input else {
        fatalError("certificate re-encoding mismatch")
    }
    _ = cert.subject.rfc4514String
    _ = cert.issuer.normalizedDERBytes
    _ = cert.subject.normalizedContentBytes
    _ = try? cert.signatureAlgorithm.kind
    _ = cert.publicKeyInfo.kind
    _ = try? cert.publicKeyInfo.makeKey()
    let e = cert.extensions
    _ = try? e.basicConstraints
    _ = try? e.keyUsage
    _ = try? e.extendedKeyUsage
    _ = (try? e.subjectAlternativeNames)?.map(\.description)
    _ = (try? e.issuerAlternativeNames)?.map(\.description)
    _ = try? e.subjectKeyIdentifier
    _ = try? e.authorityKeyIdentifier
    _ = try? e.nameConstraints
    _ = try? e.certificatePolicies
    _ = try? e.policyMappings
    _ = try? e.policyConstraints
    _ = try? e.inhibitAnyPolicy
    _ = try? e.crlDistributionPoints
    _ = try? e.authorityInformationAccess
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let cert = try? Certificate(derEncoded: bytes) { exercise(cert, input: bytes) }
    if let cert = try? Certificate(derEncodedPrefixOf: bytes) { exercise(cert, input: cert.derBytes) }
    if let csr = try? CertificateSigningRequest(derEncoded: bytes) {
        _ = csr.subject.rfc4514String
        _ = try? csr.requestedExtensions.subjectAlternativeNames
        _ = try? csr.signatureAlgorithm.kind
    }
    if let name = try? DistinguishedName(derEncoded: bytes) {
        _ = name.rfc4514String
        _ = name.normalizedDERBytes
    }
    if let certs = try? Certificate.certificates(fromPEMBytes: bytes[...]) {
        for cert in certs { exercise(cert, input: cert.derBytes) }
    }
    let data = Data(bytes)
    _ = try? AsymmetricKey(der: data)  // PKCS#1, SPKI, PKCS#8 or SEC1, told apart by shape
    _ = try? AsymmetricKey(subjectPublicKeyInfo: data)
    _ = try? AsymmetricKey(pkcs8: data)
    _ = try? AsymmetricKey(sec1: data)
    return 0
}
