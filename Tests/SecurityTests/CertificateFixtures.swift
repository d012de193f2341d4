import Foundation

@testable import Security

/// Certificates built through OpenSecurity's extras API at fixed dates, shared by the SecCertificate tests.
enum CertificateFixtures {
    static let notBefore = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01
    static let notAfter = Date(timeIntervalSince1970: 2_019_686_400)  // 2034-01-01

    static let rootKey = KeyFixtures.p384
    static let root: SecCertificate = {
        try! OpenSecurityCertificates.createSelfSignedCertificate(
            subject: [("C", "us"), ("O", "OpenSecurity  Tests"), ("CN", "Test Root CA")], privateKey: rootKey,
            notBefore: notBefore, notAfter: notAfter, serialNumber: Data([0x01]),
            extensions: .init(isCertificateAuthority: true, keyUsage: [.keyCertSign, .cRLSign]))
    }()

    static let rootIdentity: SecIdentity = {
        try! OpenSecurityCertificates.createIdentity(certificate: root, privateKey: rootKey)
    }()

    static func leaf(
        subject: [(String, String)], key: SecKey = KeyFixtures.p256, serial: Data = Data([0x80, 0x01]),
        names: [OpenSecurityCertificates.AlternativeName]? = nil
    ) throws -> SecCertificate {
        try OpenSecurityCertificates.issueCertificate(
            subject: subject, publicKey: KeyFixtures.publicKey(key), issuerCertificate: root, issuerPrivateKey: rootKey,
            notBefore: notBefore, notAfter: notAfter, serialNumber: serial,
            extensions: .init(
                isCertificateAuthority: false, keyUsage: [.digitalSignature],
                extendedKeyUsage: [OpenSecurityCertificates.ExtendedKeyUsage.serverAuth],
                alternativeNames: names))
    }

    static func shell(_ command: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static var hasOpenSSL: Bool { (try? shell("command -v openssl").status) == 0 }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("osec-seccert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
