import Foundation
import OSecTestSupport
import Security

/// A test PKI made with the openssl CLI once per process: a root CA, an intermediate ("WWDR"), an RSA leaf issued
/// by the intermediate (email SAN, subjectKeyIdentifier), an EC P-256 leaf issued by the root, and their PKCS#12
/// files for SecPKCS12Import.
final class CMSTestPKI: @unchecked Sendable {  // immutable after init
    static let shared: CMSTestPKI? = try? CMSTestPKI()
    static var available: Bool { OpenSSLCLI.isAvailable && shared != nil }

    let directory: TemporaryDirectory
    static let password = "cms-test"

    var rootPEM: String { directory.path("root.pem") }
    /// The root and the intermediate, for `openssl cms -verify -CAfile` of messages that do not carry the
    /// intermediate (openssl's `-certfile` only finds signer certificates when verifying).
    var bundlePEM: String { directory.path("bundle.pem") }
    var intermediatePEM: String { directory.path("intermediate.pem") }
    var rsaCertPEM: String { directory.path("rsa.pem") }
    var rsaKeyPEM: String { directory.path("rsa.key") }
    var ecCertPEM: String { directory.path("ec.pem") }
    var ecKeyPEM: String { directory.path("ec.key") }

    init() throws {
        directory = try TemporaryDirectory(prefix: "osec-cms-pki")
        func openssl(_ args: [String]) throws { try OpenSSLCLI.check(args) }
        let d = directory
        try d.write(
            "ca.ext",
            Data(
                """
                basicConstraints=critical,CA:TRUE
                keyUsage=critical,keyCertSign,cRLSign
                subjectKeyIdentifier=hash
                authorityKeyIdentifier=keyid

                """.utf8))
        try d.write(
            "leaf.ext",
            Data(
                """
                basicConstraints=critical,CA:FALSE
                keyUsage=critical,digitalSignature,keyEncipherment,keyAgreement
                extendedKeyUsage=emailProtection,codeSigning
                subjectKeyIdentifier=hash
                authorityKeyIdentifier=keyid
                subjectAltName=email:alice@example.com

                """.utf8))
        try openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", d.path("root.key"), "-out", rootPEM,
            "-days", "3650", "-subj", "/CN=CMS Test Root/O=OpenSecurity", "-addext",
            "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        try openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-keyout", d.path("intermediate.key"), "-out",
            d.path("intermediate.csr"), "-subj", "/CN=CMS Test WWDR/O=OpenSecurity",
        ])
        try openssl([
            "x509", "-req", "-in", d.path("intermediate.csr"), "-CA", rootPEM, "-CAkey", d.path("root.key"),
            "-CAcreateserial", "-out", intermediatePEM, "-days", "3000", "-extfile", d.path("ca.ext"),
        ])
        try openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-keyout", rsaKeyPEM, "-out", d.path("rsa.csr"), "-subj",
            "/CN=CMS RSA Signer/emailAddress=alice@example.com",
        ])
        try openssl([
            "x509", "-req", "-in", d.path("rsa.csr"), "-CA", intermediatePEM, "-CAkey", d.path("intermediate.key"),
            "-CAcreateserial", "-out", rsaCertPEM, "-days", "2000", "-extfile", d.path("leaf.ext"),
        ])
        try openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", d.path("ec.sec1")])
        try openssl(["pkcs8", "-topk8", "-nocrypt", "-in", d.path("ec.sec1"), "-out", ecKeyPEM])
        try openssl([
            "req", "-new", "-key", ecKeyPEM, "-out", d.path("ec.csr"), "-subj", "/CN=CMS EC Signer",
        ])
        try openssl([
            "x509", "-req", "-in", d.path("ec.csr"), "-CA", rootPEM, "-CAkey", d.path("root.key"),
            "-CAcreateserial", "-out", ecCertPEM, "-days", "2000", "-extfile", d.path("leaf.ext"),
        ])
        try openssl([
            "pkcs12", "-export", "-in", rsaCertPEM, "-inkey", rsaKeyPEM, "-out", d.path("rsa.p12"), "-passout",
            "pass:\(CMSTestPKI.password)",
        ])
        try openssl([
            "pkcs12", "-export", "-in", ecCertPEM, "-inkey", ecKeyPEM, "-out", d.path("ec.p12"), "-passout",
            "pass:\(CMSTestPKI.password)",
        ])
        try d.write("bundle.pem", try d.read("root.pem") + d.read("intermediate.pem"))
        try openssl(["x509", "-in", rootPEM, "-outform", "DER", "-out", d.path("root.der")])
        try openssl(["x509", "-in", intermediatePEM, "-outform", "DER", "-out", d.path("intermediate.der")])
        try openssl(["x509", "-in", rsaCertPEM, "-outform", "DER", "-out", d.path("rsa.der")])
        try openssl(["x509", "-in", ecCertPEM, "-outform", "DER", "-out", d.path("ec.der")])
    }

    func certificate(_ name: String) throws -> SecCertificate {
        let data = try directory.read("\(name).der")
        guard let certificate = SecCertificateCreateWithData(nil, data as NSData) else {
            throw CMSTestFailure("\(name).der does not decode")
        }
        return certificate
    }

    func identity(_ name: String) throws -> SecIdentity {
        var items: CFArray?
        let status = SecPKCS12Import(
            try directory.read("\(name).p12") as NSData,
            [kSecImportExportPassphrase as String: CMSTestPKI.password] as NSDictionary, &items)
        guard status == errSecSuccess, let first = (items as? [[String: Any]])?.first,
            let identity = first[kSecImportItemIdentity as String].map({ $0 as AnyObject }) as? SecIdentity
        else { throw CMSTestFailure("\(name).p12 import failed: \(status)") }
        return identity
    }
}

/// Small helpers over the CMS API for tests.
enum CMS {
    /// Signs `content` with the encoder; `configure` adjusts it first.
    static func sign(
        _ content: Data, signers: [SecIdentity], configure: (CMSEncoder) -> Void = { _ in }
    ) throws -> Data {
        var encoder: CMSEncoder?
        try expect(CMSEncoderCreate(&encoder))
        guard let encoder else { throw CMSTestFailure("no encoder") }
        try expect(CMSEncoderAddSigners(encoder, signers as NSArray))
        configure(encoder)
        let bytes = [UInt8](content)
        try expect(CMSEncoderUpdateContent(encoder, bytes, bytes.count))
        var encoded: CFData?
        try expect(CMSEncoderCopyEncodedContent(encoder, &encoded))
        return (encoded ?? NSData()) as Data
    }

    /// A finalized decoder for `message`, or the failing status.
    static func decode(_ message: Data) -> (CMSDecoder?, OSStatus) {
        var decoder: CMSDecoder?
        _ = CMSDecoderCreate(&decoder)
        guard let decoder else { return (nil, errSecAllocate) }
        let bytes = [UInt8](message)
        if !bytes.isEmpty {
            let status = CMSDecoderUpdateMessage(decoder, bytes, bytes.count)
            guard status == errSecSuccess else { return (nil, status) }
        }
        let status = CMSDecoderFinalizeMessage(decoder)
        return status == errSecSuccess ? (decoder, status) : (nil, status)
    }

    /// Signer `index`'s status without trust evaluation, and with trust evaluated against `anchors`.
    static func status(_ decoder: CMSDecoder, _ index: Int = 0) -> CMSSignerStatus {
        var status = CMSSignerStatus.unsigned
        _ = CMSDecoderCopySignerStatus(decoder, index, SecPolicyCreateBasicX509(), false, &status, nil, nil)
        return status
    }

    static func expect(_ status: OSStatus) throws {
        guard status == errSecSuccess else { throw CMSTestFailure("OSStatus \(status)") }
    }
}

/// A failed test fixture step.
struct CMSTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
