import Foundation
import OpenSecurityTLS
import Security

/// The TLS part of `security demo`: a local TLS server with a server identity that requires client
/// certificates, and clients that present the identity imported from a PKCS#12 file, no certificate, or a
/// certificate from another CA (OpenSecurityTLS over loopback; Apple's SSLContext API works the same way).
extension Demo {
    static func tls() throws {
        step("TLS: a local server requiring client certificates; a client with an identity from a .p12 file")
        let ec: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]
        var error: Unmanaged<CFError>?
        func key() throws -> SecKey {
            try unwrap(SecKeyCreateRandomKey(ec as CFDictionary, &error), error, "SecKeyCreateRandomKey")
        }
        let now = Date()
        func authority(_ name: String) throws -> (SecIdentity, SecCertificate) {
            let caKey = try key()
            var extensions = OpenSecurityCertificates.Extensions()
            extensions.isCertificateAuthority = true
            extensions.keyUsage = [.keyCertSign, .cRLSign]
            let ca = try OpenSecurityCertificates.createSelfSignedCertificate(
                subject: [("CN", name)], privateKey: caKey, notBefore: now.addingTimeInterval(-3600),
                notAfter: now.addingTimeInterval(86400 * 30), extensions: extensions)
            return (try OpenSecurityCertificates.createIdentity(certificate: ca, privateKey: caKey), ca)
        }
        func leaf(_ name: String, server: Bool, issuer: SecIdentity) throws -> SecIdentity {
            let leafKey = try key()
            var extensions = OpenSecurityCertificates.Extensions()
            extensions.extendedKeyUsage = [
                server
                    ? OpenSecurityCertificates.ExtendedKeyUsage.serverAuth
                    : OpenSecurityCertificates.ExtendedKeyUsage.clientAuth
            ]
            if server { extensions.alternativeNames = [.dns("localhost")] }
            let request = try OpenSecurityCertificates.createCertificateSigningRequest(
                subject: [("CN", name)], privateKey: leafKey, extensions: extensions)
            let certificate = try OpenSecurityCertificates.issueCertificate(
                fromRequest: request.der, issuer: issuer, notBefore: now.addingTimeInterval(-60),
                notAfter: now.addingTimeInterval(86400 * 7))
            return try OpenSecurityCertificates.createIdentity(certificate: certificate, privateKey: leafKey)
        }
        let (caIdentity, ca) = try authority("Demo TLS Root CA")
        let (otherIdentity, _) = try authority("Some Other CA")
        let serverIdentity = try leaf("localhost", server: true, issuer: caIdentity)
        let stranger = try leaf("stranger.example", server: false, issuer: otherIdentity)

        // The client's identity travels as a PKCS#12 file, the way a CA or an MDM hands it out.
        let directory = NSTemporaryDirectory() + "opensecurity-demo-tls-\(getpid())"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let p12Path = directory + "/client.p12"
        let p12 = try OpenSecurityPKCS12.export(
            identities: [try leaf("client.demo.example", server: false, issuer: caIdentity)], certificates: [ca],
            passphrase: "client p12", friendlyNames: ["Demo TLS client"])
        guard FileManager.default.createFile(atPath: p12Path, contents: p12, attributes: [.posixPermissions: 0o600])
        else { throw DemoFailure(description: "cannot write \(p12Path)") }
        var items: CFArray?
        let imported = SecPKCS12Import(
            (FileManager.default.contents(atPath: p12Path) ?? Data()) as CFData,
            [kSecImportExportPassphrase as String: "client p12"] as CFDictionary, &items)
        guard imported == errSecSuccess,
            let clientIdentity = (items as? [[String: Any]])?.first?[kSecImportItemIdentity as String] as? SecIdentity
        else { throw DemoFailure(description: "SecPKCS12Import of client.p12 failed: \(imported)") }
        print("client identity imported from client.p12 (\(p12.count) bytes): \(clientIdentity)")

        var serverConfiguration = TLSConfiguration()
        serverConfiguration.identity = serverIdentity
        serverConfiguration.clientAuthentication = .required
        serverConfiguration.trustAnchors = [ca]
        serverConfiguration.applicationProtocols = ["demo/1"]
        serverConfiguration.handshakeTimeout = .seconds(10)
        let listener = try TLSListener(configuration: serverConfiguration)
        defer { listener.close() }
        print(
            "server: 127.0.0.1:\(listener.port), certificate \"localhost\" from Demo TLS Root CA, "
                + "client certificates required"
        )

        let cases: [(String, SecIdentity?, Bool)] = [
            ("the identity from client.p12", clientIdentity, true), ("no certificate", nil, false),
            ("a certificate from another CA", stranger, false),
        ]
        for (label, identity, expected) in cases {
            var client = TLSConfiguration()
            client.identity = identity
            client.trustAnchors = [ca]
            client.serverName = "localhost"
            client.applicationProtocols = ["demo/1"]
            client.handshakeTimeout = .seconds(10)
            let port = listener.port
            let configuration = client
            guard
                let outcome = blocking({ () async -> (server: String, client: String, accepted: Bool) in
                    async let served = serveOne(listener)
                    let answer = await talk(port: port, configuration)
                    let server = await served
                    return (server.0, answer, server.1)
                })
            else { throw DemoFailure(description: "the TLS exchange did not finish") }
            print("client presenting \(label):")
            print("  server: \(outcome.server)")
            print("  client: \(outcome.client)")
            guard outcome.accepted == expected else {
                throw DemoFailure(description: "the server's verdict for \(label) was wrong")
            }
        }
    }

    /// Accepts one connection and answers one message; describes the verdict.
    static func serveOne(_ listener: TLSListener) async -> (String, Bool) {
        do {
            let connection = try await listener.accept()
            let request = try await connection.read()
            let trust = await connection.peerTrust
            let subject = trust.flatMap { SecTrustGetCertificateAtIndex($0, 0) }.flatMap {
                SecCertificateCopySubjectSummary($0) as String?
            }
            try await connection.write(Data("hello, \(subject ?? "?")".utf8))
            let version = await connection.protocolVersion
            let alpn = await connection.negotiatedApplicationProtocol ?? "none"
            await connection.close()
            return (
                "accepted \"\(subject ?? "?")\" (\(version == .tlsProtocol13 ? "TLS 1.3" : "TLS 1.2"), ALPN \(alpn)); "
                    + "request \"\(String(decoding: request, as: UTF8.self))\"", true
            )
        } catch let error as TLSError {
            return ("refused: \(error)", false)
        } catch {
            return ("refused: \(error)", false)
        }
    }

    /// Connects, sends a message, reads the answer; describes the outcome.
    static func talk(port: UInt16, _ configuration: TLSConfiguration) async -> String {
        do {
            let connection = try await TLSConnection.connect(
                host: "127.0.0.1", port: port, configuration: configuration)
            try await connection.write(Data("ping".utf8))
            let reply = try await connection.read()
            await connection.close()
            return "got \"\(String(decoding: reply, as: UTF8.self))\""
        } catch let error as TLSError {
            return "failed: \(error)"
        } catch {
            return "failed: \(error)"
        }
    }

    /// Runs `body` on the cooperative pool and waits for it (the demo is a plain command-line program).
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T? {
        let box = DemoResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value
    }
}

/// A result handed from a task to the waiting thread.
final class DemoResultBox<T>: @unchecked Sendable {  // written once before the semaphore is signalled, read after
    var value: T?
}
