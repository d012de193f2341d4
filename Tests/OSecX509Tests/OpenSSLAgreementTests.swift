import Foundation
import OSecASN1
import Testing

@testable import OSecX509

/// Every certificate of the system CA bundle and of the x509-limbo / bettertls corpora is parsed here and
/// compared field by field with the real `openssl` CLI (OpenSSL 3.0): subject, issuer, serial, validity,
/// subjectAltName, keyUsage and extKeyUsage. One `openssl storeutl -r <dir>` process per corpus keeps it fast.
@Suite(.enabled(if: X509TestData.hasOpenSSL, "needs the openssl CLI"))
struct OpenSSLAgreementTests {
    struct OpenSSLRecord {
        var subject: String?
        var issuer: String?
        var serial: String?
        var notBefore: String?
        var notAfter: String?
        var extensions: [String: String] = [:]
    }

    struct Tally: CustomStringConvertible {
        var compared = 0
        var agreements = 0
        var bothRejected = 0
        var weRejectOnly: [String] = []
        var disagreements: [String] = []
        /// Extensions that neither we nor OpenSSL could decode (counted inside `agreements`).
        var extensionsBothRejected = 0
        var description: String {
            "compared \(compared), agree \(agreements) (of which \(extensionsBothRejected) extensions undecodable "
                + "by both),"
                + " both rejected \(bothRejected), only we reject \(weRejectOnly.count),"
                + " disagreements \(disagreements.count)"
        }
    }

    /// Parses `openssl storeutl -text -r` output into one record per file (nil = OpenSSL could not load it).
    static func parseStoreutl(_ output: String, count: Int) -> [OpenSSLRecord?] {
        var records = [OpenSSLRecord?](repeating: nil, count: count)
        var current: Int? = nil
        var record = OpenSSLRecord()
        var hasCert = false
        var pendingSerial = false
        var currentExtension: String? = nil
        func flush() {
            if let current, hasCert { records[current] = record }
        }
        for rawLine in output.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if let range = line.range(of: ": Name: "), line.first?.isNumber == true {
                flush()
                let path = line[range.upperBound...]
                let file = path.split(separator: "/").last.map(String.init) ?? ""
                current = Int(file.replacingOccurrences(of: ".pem", with: ""))
                record = OpenSSLRecord()
                hasCert = false
                currentExtension = nil
                continue
            }
            if line == "Certificate:" {
                hasCert = true
                continue
            }
            if pendingSerial {
                pendingSerial = false
                let hex = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ":", with: "")
                let trimmed = hex.drop(while: { $0 == "0" })
                record.serial = (record.serial ?? "") + (trimmed.isEmpty ? "0" : String(trimmed))
                continue
            }
            if line.hasPrefix("        Serial Number:") {
                let rest = line.dropFirst("        Serial Number:".count).trimmingCharacters(in: .whitespaces)
                if let open = rest.firstIndex(of: "("), !rest.hasPrefix("(Negative)") {
                    let inner = rest[rest.index(after: open)...].dropLast()
                    let negative = inner.hasPrefix("-")
                    let hex = inner.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "0x", with: "")
                    record.serial = (negative ? "-" : "") + hex
                } else {
                    record.serial = rest.hasPrefix("(Negative)") ? "-" : ""
                    pendingSerial = true
                }
                continue
            }
            if line.hasPrefix("        Issuer:") {
                record.issuer = String(line.dropFirst(15)).trimmingCharacters(in: .whitespaces)
                continue
            }
            if line.hasPrefix("        Subject:") {
                record.subject = String(line.dropFirst(16)).trimmingCharacters(in: .whitespaces)
                continue
            }
            if line.hasPrefix("            Not Before:") {
                record.notBefore = String(line.dropFirst(24))
                continue
            }
            if line.hasPrefix("            Not After :") {
                record.notAfter = String(line.dropFirst(24))
                continue
            }
            if line.hasPrefix("            "), !line.hasPrefix("             ") {
                let header = line.trimmingCharacters(in: .whitespaces)
                currentExtension = nil
                for name in ["X509v3 Subject Alternative Name", "X509v3 Key Usage", "X509v3 Extended Key Usage"]
                where header.hasPrefix(name + ":") {
                    currentExtension = name
                    record.extensions[name] = nil
                }
                continue
            }
            if let name = currentExtension, line.hasPrefix("                ") {
                let value = String(line.dropFirst(16))
                record.extensions[name] = record.extensions[name].map { $0 + "\n" + value } ?? value
                continue
            }
            if !line.hasPrefix("                ") { currentExtension = nil }
        }
        flush()
        return records
    }

    /// Runs the comparison over PEM certificates; returns the tally.
    func compare(_ pems: [(pem: String, id: String)], label: String) throws -> Tally {
        let directory = try X509TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, item) in pems.enumerated() {
            try item.pem.write(
                to: directory.appendingPathComponent(String(format: "%06d.pem", index)), atomically: false,
                encoding: .utf8)
        }
        let (_, output) = try X509TestData.shell(
            "cd '\(directory.path)' && openssl storeutl -noout -text -certs -r . 2>/dev/null")
        let records = OpenSSLAgreementTests.parseStoreutl(output, count: pems.count)
        var tally = Tally()
        var extensionBothRejected = 0
        for (index, item) in pems.enumerated() {
            tally.compared += 1
            let der = X509TestData.pemToDER(item.pem)
            let ours = try? Certificate(derEncoded: der)
            guard let record = records[index] else {
                if ours == nil {
                    tally.bothRejected += 1
                } else {
                    tally.disagreements.append("\(item.id): OpenSSL rejects, we accept")
                }
                continue
            }
            guard let cert = ours else {
                tally.weRejectOnly.append(item.id)
                continue
            }
            var problems: [String] = []
            func check(_ field: String, _ mine: String?, _ theirs: String?) {
                if mine != theirs { problems.append("\(field): ours=\(mine ?? "nil") openssl=\(theirs ?? "nil")") }
            }
            /// When our typed decoder rejects an extension, OpenSSL must have failed too: its text printer then falls
            /// back to ASN1_STRING_print of the raw extnValue (non-printables as '.'), which we reproduce.
            func checkExtension(_ field: String, _ oid: ASN1ObjectIdentifier, _ mine: String?, _ opensslName: String) {
                let theirs = record.extensions[opensslName]
                guard mine == "<error>", let raw = cert.extensions[oid: oid]?.value else {
                    return check(field, mine, theirs)
                }
                let dump = String(
                    raw.map { byte -> Character in
                        (byte > 0x7E || (byte < 0x20 && byte != 0x0A && byte != 0x0D))
                            ? "." : Character(Unicode.Scalar(byte))
                    })
                let firstLine = dump.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
                if theirs?.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) == firstLine
                {
                    extensionBothRejected += 1
                } else {
                    check(field, mine, theirs)
                }
            }
            if (try? cert.reencoded()) != der { problems.append("re-encoding differs") }
            check("subject", OpenSSLFormat.compat(cert.subject), record.subject)
            check("issuer", OpenSSLFormat.compat(cert.issuer), record.issuer)
            check("serial", OpenSSLFormat.serial(cert.serialNumber), record.serial)
            check("notBefore", OpenSSLFormat.time(cert.notBefore), record.notBefore)
            check("notAfter", OpenSSLFormat.time(cert.notAfter), record.notAfter)
            let san =
                (try? cert.extensions.subjectAlternativeNames).map {
                    $0?.map(OpenSSLFormat.generalName).joined(separator: ", ")
                } ?? "<error>"
            checkExtension("subjectAltName", X509OID.subjectAltName, san, "X509v3 Subject Alternative Name")
            let ku = (try? cert.extensions.keyUsage).map { $0.map(OpenSSLFormat.keyUsage) } ?? "<error>"
            checkExtension("keyUsage", X509OID.keyUsage, ku, "X509v3 Key Usage")
            let eku = (try? cert.extensions.extendedKeyUsage).map { $0.map(OpenSSLFormat.eku) } ?? "<error>"
            checkExtension("extKeyUsage", X509OID.extKeyUsage, eku, "X509v3 Extended Key Usage")
            if problems.isEmpty {
                tally.agreements += 1
            } else {
                tally.disagreements.append("\(item.id) #\(index): " + problems.joined(separator: "; "))
            }
        }
        tally.extensionsBothRejected = extensionBothRejected
        print("OPENSSL-AGREEMENT \(label): \(tally)")
        for line in tally.disagreements.prefix(20) { print("  DISAGREE \(line)") }
        return tally
    }

    @Test func caBundleAgreesWithOpenSSL() throws {
        let certs = try X509TestData.caBundleCertificates().map { (pem: $0.pem, id: "ca-bundle") }
        let tally = try compare(certs, label: "ca-certificates.crt")
        #expect(tally.compared == certs.count)
        #expect(tally.agreements == certs.count, "\(tally.disagreements.joined(separator: "\n"))")
    }

    @Test func limboAgreesWithOpenSSL() throws {
        let certs = try X509TestData.limboCertificates("limbo-public.json")
        let tally = try compare(certs, label: "limbo-public.json")
        #expect(tally.disagreements == [])
        // Deliberately malformed certificates we reject although OpenSSL loads them (category: duplicate extensions,
        // RFC 5280 §4.2 — OpenSSL parses them and only fails verification).
        #expect(tally.weRejectOnly == ["rfc5280::duplicate-extensions"])
        #expect(tally.agreements + tally.bothRejected + tally.weRejectOnly.count == certs.count)
    }

    @Test func betterTLSAgreesWithOpenSSL() throws {
        let certs = try X509TestData.limboCertificates("bettertls-public.json")
        let tally = try compare(certs, label: "bettertls-public.json")
        #expect(tally.disagreements == [])
        #expect(tally.weRejectOnly == [])
        #expect(tally.agreements == certs.count)
    }

    /// `-nameopt RFC2253` per certificate (one shell loop): checks attribute order, multi-valued RDNs, escaping and
    /// string decoding (BMPString, T61String, UTF8String) of every CA bundle name, and our RFC 4514 string where the
    /// attribute types are the RFC 4514 ones.
    @Test func caBundleRFC2253NamesAgree() throws {
        let certs = try X509TestData.caBundleCertificates()
        let directory = try X509TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, item) in certs.enumerated() {
            try item.pem.write(
                to: directory.appendingPathComponent(String(format: "%06d.pem", index)), atomically: false,
                encoding: .utf8)
        }
        let (_, output) = try X509TestData.shell(
            "cd '\(directory.path)' && for f in *.pem; do openssl x509 -in \"$f\" -noout -subject -issuer -nameopt "
                + "RFC2253 || echo 'subject=ERR'; done"
        )
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 * certs.count)
        var agreements = 0
        var rfc4514Checked = 0
        for (index, item) in certs.enumerated() where 2 * index + 1 < lines.count {
            let cert = try Certificate(derEncoded: item.der)
            let subject = String(lines[2 * index].dropFirst("subject=".count))
            let issuer = String(lines[2 * index + 1].dropFirst("issuer=".count))
            #expect(OpenSSLFormat.rfc2253(cert.subject) == subject)
            #expect(OpenSSLFormat.rfc2253(cert.issuer) == issuer)
            if OpenSSLFormat.rfc2253(cert.subject) == subject && OpenSSLFormat.rfc2253(cert.issuer) == issuer {
                agreements += 1
            }
            let simple = cert.subject.attributes.allSatisfy {
                AttributeTypeAndValue.shortNames[$0.type] != nil
                    && ($0.stringValue ?? "\u{80}").unicodeScalars.allSatisfy { $0.isASCII }
            }
            if simple {
                #expect(cert.subject.rfc4514String == subject)
                rfc4514Checked += 1
            }
        }
        print(
            "OPENSSL-RFC2253 ca-certificates.crt: \(certs.count) certs, \(agreements) agree; RFC 4514 strings "
                + "checked: \(rfc4514Checked)"
        )
        #expect(agreements == certs.count)
    }
}
