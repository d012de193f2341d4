import Foundation
import Testing

@testable import OSecASN1

@Suite struct PEMTests {
    static let der = Array(0..<100).map { UInt8($0) }

    @Test func emitsSixtyFourColumnLinesAndParsesBack() throws {
        let document = PEMDocument(type: "CERTIFICATE", derBytes: Self.der)
        let text = document.pemString
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "-----BEGIN CERTIFICATE-----")
        #expect(lines[1].count == 64)
        #expect(lines[2].count == 64)
        #expect(lines[3].count == 8)
        #expect(lines[4] == "-----END CERTIFICATE-----")
        #expect(text.hasSuffix("-----\n"))
        #expect(try PEMDocument(pemString: text) == document)
    }

    @Test func bundlesWithCRLFLeadingTextAndMixedTypes() throws {
        let cert = PEMDocument(type: "CERTIFICATE", derBytes: Self.der).pemString
        let key = PEMDocument(type: "PRIVATE KEY", derBytes: [1, 2, 3]).pemString
        var bundle =
            "Bag Attributes\n    friendlyName: test\nsubject=/CN=x\n" + cert + "\n\n  trailing words\n" + key + "end\n"
        bundle = bundle.replacingOccurrences(of: "\n", with: "\r\n")
        // Whitespace inside base64 and an indented body line are tolerated.
        bundle = bundle.replacingOccurrences(of: "AAECAwQF", with: "AAEC AwQF\t")
        let documents = try PEMDocument.parseMultiple(string: bundle)
        #expect(documents.map(\.type) == ["CERTIFICATE", "PRIVATE KEY"])
        #expect(documents[0].derBytes == Self.der)
        #expect(documents[1].derBytes == [1, 2, 3])
        expectASN1Error(.invalidPEM) { try PEMDocument(pemString: bundle) }  // two documents
        expectASN1Error(.invalidPEM) { try PEMDocument(pemString: "no pem here") }
        #expect(try PEMDocument.parseMultiple(string: "nothing").isEmpty)
    }

    @Test func legacyHeadersAreKept() throws {
        let text = """
            -----BEGIN RSA PRIVATE KEY-----
            Proc-Type: 4,ENCRYPTED
            DEK-Info: AES-256-CBC,0123456789ABCDEF0123456789ABCDEF

            AQID
            -----END RSA PRIVATE KEY-----
            """
        let document = try PEMDocument(pemString: text)
        #expect(
            document.headers == [
                "Proc-Type": "4,ENCRYPTED", "DEK-Info": "AES-256-CBC,0123456789ABCDEF0123456789ABCDEF",
            ])
        #expect(document.derBytes == [1, 2, 3])
        #expect(document.pemString == text + "\n")
        expectASN1Error(.invalidPEM) {
            try PEMDocument(pemString: "-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\nAQID\n-----END X-----\n")
        }
    }

    @Test(arguments: [
        "-----BEGIN CERTIFICATE-----\nAQID\n-----END PRIVATE KEY-----\n",  // mismatched labels
        "-----BEGIN CERTIFICATE-----\nAQID\n",  // no END
        "-----BEGIN CERTIFICATE-----\nAQ!D\n-----END CERTIFICATE-----\n",  // bad character
        "-----BEGIN CERTIFICATE-----\nAQI\n-----END CERTIFICATE-----\n",  // bad length
        "-----BEGIN CERTIFICATE-----\nAQ==AQID\n-----END CERTIFICATE-----\n",  // data after padding
        "-----BEGIN CERTIFICATE-----\nA===\n-----END CERTIFICATE-----\n",  // too much padding
        "-----BEGIN CERTIFICATE-----\n\n-----END CERTIFICATE-----\n",  // empty
        "-----BEGIN CERTIFICATE-----\nAQID\n-----BEGIN CERTIFICATE-----\nAQID\n-----END CERTIFICATE-----\n",
        "-----END CERTIFICATE-----\n",
        "-----BEGIN -----\nAQID\n-----END -----\n",
        "-----BEGIN X-----\nbad name: 1\n\nAQID\n-----END X-----\n",  // space in header name (fuzzer)
        "-----BEGIN X-----\nName: caf\u{E9}\n\nAQID\n-----END X-----\n",  // non-ASCII header value
    ])
    func malformedPEMIsRejected(text: String) {
        expectASN1Error(.invalidPEM) { try PEMDocument.parseMultiple(string: text) }
    }

    @Test func paddingVariants() throws {
        #expect(try PEMDocument(pemString: "-----BEGIN A-----\nAQ==\n-----END A-----").derBytes == [1])
        #expect(try PEMDocument(pemString: "-----BEGIN A-----\nAQI=\n-----END A-----").derBytes == [1, 2])
        for count in 0..<10 {
            let bytes = (0..<count).map { UInt8($0 * 37 & 0xff) }
            #expect(try Base64.decode(Base64.encode(bytes)[...]) == bytes)
        }
    }

    @Test func opensslGeneratedPEMParses() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("osec-asn1-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.currentDirectoryURL = directory
        process.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=x",
            "-keyout", "k.pem", "-out", "c.pem",
        ]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let cert = try PEMDocument(
            pemString: String(contentsOf: directory.appendingPathComponent("c.pem"), encoding: .utf8))
        let key = try PEMDocument(
            pemString: String(contentsOf: directory.appendingPathComponent("k.pem"), encoding: .utf8))
        #expect(cert.type == "CERTIFICATE")
        #expect(key.type == "PRIVATE KEY")
        for document in [cert, key] {
            let node = try DER.parse(document.derBytes)
            #expect(try node.derEncoded() == document.derBytes)
        }
        // The certificate's validity is a UTCTime pair and its subject a PrintableString/UTF8String "x".
        let tbs = try #require(DER.parse(cert.derBytes).children?.first)
        let fields = Array(try #require(tbs.children))
        let validity = Array(try #require(fields[4].children))
        let notBefore = try UTCTime(derEncoded: validity[0])
        #expect(abs(notBefore.secondsSinceEpoch - Int64(Date().timeIntervalSince1970)) < 3600)
    }
}
