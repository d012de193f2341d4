import Foundation
import Security

/// A two-level chain made with the openssl command, as a pinning library's test fixtures are: an EC P-256 root and
/// an RSA-2048 leaf for "pinned.example", plus an unrelated self-signed certificate.
struct PinningChain: @unchecked Sendable {
    let root: SecCertificate
    let leaf: SecCertificate
    let stranger: SecCertificate
    let leafDER: Data
    let rootDER: Data
    let host = "pinned.example"

    static let shared: PinningChain? = try? PinningChain()

    private init() throws {
        let directory = NSTemporaryDirectory() + "osec-pinning-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func openssl(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["openssl"] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        let path = { (name: String) in directory + "/" + name }
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            path("root.key"), "-out", path("root.pem"), "-subj", "/CN=Pinning Test Root", "-days", "30",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        try openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("leaf.key"), "-out", path("leaf.csr"), "-subj",
            "/CN=pinned.example",
        ])
        try String("subjectAltName=DNS:pinned.example\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n")
            .write(toFile: path("leaf.ext"), atomically: true, encoding: .utf8)
        try openssl([
            "x509", "-req", "-in", path("leaf.csr"), "-CA", path("root.pem"), "-CAkey", path("root.key"),
            "-CAcreateserial", "-days", "20", "-extfile", path("leaf.ext"), "-outform", "DER", "-out", path("leaf.der"),
        ])
        try openssl(["x509", "-in", path("root.pem"), "-outform", "DER", "-out", path("root.der")])
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            path("stranger.key"), "-outform", "DER", "-out", path("stranger.der"), "-subj", "/CN=pinned.example",
            "-days", "30", "-addext", "subjectAltName=DNS:pinned.example",
        ])
        leafDER = try Data(contentsOf: URL(fileURLWithPath: path("leaf.der")))
        rootDER = try Data(contentsOf: URL(fileURLWithPath: path("root.der")))
        let strangerDER = try Data(contentsOf: URL(fileURLWithPath: path("stranger.der")))
        // The Alamofire/TrustKit shape: `Data(contentsOf:) as CFData` into SecCertificateCreateWithData(nil, …).
        guard let leaf = SecCertificateCreateWithData(nil, leafDER as CFData),
            let root = SecCertificateCreateWithData(nil, rootDER as CFData),
            let stranger = SecCertificateCreateWithData(nil, strangerDER as CFData)
        else { throw CocoaError(.fileReadCorruptFile) }
        (self.leaf, self.root, self.stranger) = (leaf, root, stranger)
    }

    /// A server trust as a URLSession challenge hands it over: the presented chain and an SSL policy for the host.
    func serverTrust(presenting certificates: [SecCertificate]? = nil, host: String? = nil) -> SecTrust? {
        var trust: SecTrust?
        let policy = SecPolicyCreateSSL(true, (host ?? self.host) as CFString)
        guard
            SecTrustCreateWithCertificates((certificates ?? [leaf, root]) as CFArray, policy, &trust)
                == errSecSuccess
        else { return nil }
        return trust
    }
}
