import CommonCrypto
import Foundation
import Security

/// `import` (PKCS#12 files and certificates), `find-certificate` and `find-identity`, after macOS security(1).
enum CertificateCommands {
    // MARK: import

    /// `security import file [-k keychain] [-f pkcs12|x509|pemseq] [-P passphrase]`: a PKCS#12 file adds its
    /// identity and its other certificates; a certificate file (DER, or PEM with one or more certificates) adds
    /// the certificates. Access-control options (-T, -A, -x) are accepted and have no effect here.
    static func importItems(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse("import", arguments, valued: "kftPT", flags: "wxA") else { return 2 }
        guard let file = options.operands.first else { return ToolOutput.usage("import", "an input file is required") }
        guard let contents = FileManager.default.contents(atPath: file) else {
            ToolOutput.error("import: cannot read \(file)")
            return 1
        }
        let keychain = options.values["k"].flatMap(KeychainOperand.open)
        let format = options.values["f"] ?? guessFormat(file, contents)
        var target: [String: Any] = [:]
        if let keychain { target[kSecUseKeychain as String] = keychain }
        switch format {
        case "pkcs12":
            var items: CFArray?
            let passphrase = options.values["P"] ?? ""
            let status = SecPKCS12Import(
                contents as NSData, [kSecImportExportPassphrase as String: passphrase] as NSDictionary, &items)
            guard status == errSecSuccess, let entries = items as? [[String: Any]] else {
                return ToolOutput.fail("SecKeychainItemImport", status == errSecSuccess ? errSecDecode : status)
            }
            var identities = 0
            var certificates = 0
            for entry in entries {
                guard let identity = entry[kSecImportItemIdentity as String].map({ $0 as AnyObject }) as? SecIdentity
                else { continue }
                var query = target
                query[kSecValueRef as String] = identity
                if let label = entry[kSecImportItemLabel as String] as? String {
                    query[kSecAttrLabel as String] = label
                }
                let added = SecItemAdd(query as CFDictionary, nil)
                guard added == errSecSuccess else { return ToolOutput.fail("SecKeychainItemImport", added) }
                identities += 1
                let chain = (entry[kSecImportItemCertChain as String] as? [AnyObject] ?? []).compactMap {
                    $0 as? SecCertificate
                }
                for certificate in chain.dropFirst() {
                    var certificateQuery = target
                    certificateQuery[kSecValueRef as String] = certificate
                    let status = SecItemAdd(certificateQuery as CFDictionary, nil)
                    if status == errSecSuccess {
                        certificates += 1
                    } else if status != errSecDuplicateItem {
                        return ToolOutput.fail("SecKeychainItemImport", status)
                    }
                }
            }
            if identities > 0 { print("\(identities) \(identities == 1 ? "identity" : "identities") imported.") }
            if certificates > 0 {
                print("\(certificates) \(certificates == 1 ? "certificate" : "certificates") imported.")
            }
            return 0
        case "x509", "pemseq":
            let certificates: [SecCertificate]
            if let pem = String(data: contents, encoding: .utf8), pem.contains("-----BEGIN") {
                certificates = (try? OpenSecurityCertificates.certificates(fromPEM: pem)) ?? []
            } else {
                certificates = SecCertificateCreateWithData(nil, contents as NSData).map { [$0] } ?? []
            }
            guard !certificates.isEmpty else { return ToolOutput.fail("SecKeychainItemImport", errSecUnknownFormat) }
            for certificate in certificates {
                var query = target
                query[kSecValueRef as String] = certificate
                let status = SecItemAdd(query as CFDictionary, nil)
                guard status == errSecSuccess else { return ToolOutput.fail("SecKeychainItemImport", status) }
            }
            print("\(certificates.count) \(certificates.count == 1 ? "certificate" : "certificates") imported.")
            return 0
        default:
            ToolOutput.error("import: format \(format) is not supported (pkcs12, x509 and pemseq are)")
            return ToolOutput.exitCode(errSecUnimplemented)
        }
    }

    /// By extension, else by content: PEM text is a certificate sequence, other DER a PKCS#12 file unless it parses
    /// as a certificate.
    private static func guessFormat(_ file: String, _ contents: Data) -> String {
        switch (file as NSString).pathExtension.lowercased() {
        case "p12", "pfx": return "pkcs12"
        case "pem", "crt", "cer", "der": return "x509"
        default:
            if String(data: contents, encoding: .utf8)?.contains("-----BEGIN") == true { return "x509" }
            return SecCertificateCreateWithData(nil, contents as NSData) != nil ? "x509" : "pkcs12"
        }
    }

    // MARK: find-certificate

    /// `security find-certificate [-a] [-c name] [-e email] [-p] [-Z] [keychain...]`.
    static func findCertificate(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse("find-certificate", arguments, valued: "ce", flags: "apZm") else {
            return 2
        }
        var found: [(SecCertificate, [String: Any], String)] = []
        for (keychain, path) in keychains(options.operands) {
            var query: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecReturnRef as String: true,
                kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
            ]
            if let keychain { query[kSecUseKeychain as String] = keychain }
            if let email = options.values["e"] { query[kSecMatchEmailAddressIfPresent as String] = email }
            var result: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { continue }
            for item in (result as? [[String: Any]]) ?? [] {
                guard let certificate = item[kSecValueRef as String].map({ $0 as AnyObject }) as? SecCertificate else {
                    continue
                }
                if let email = options.values["e"] {
                    var addresses: CFArray?
                    _ = SecCertificateCopyEmailAddresses(certificate, &addresses)
                    guard
                        ((addresses as? [String]) ?? []).contains(where: {
                            $0.caseInsensitiveCompare(email) == .orderedSame
                        })
                    else { continue }
                }
                if let name = options.values["c"] {
                    let summary = (SecCertificateCopySubjectSummary(certificate) as String?) ?? ""
                    let label = item[kSecAttrLabel as String] as? String ?? ""
                    guard summary.contains(name) || label.contains(name) else { continue }
                }
                found.append((certificate, item, path))
            }
        }
        guard !found.isEmpty else { return ToolOutput.fail("SecKeychainSearchCopyNext", errSecItemNotFound) }
        for (certificate, attributes, path) in options.flags.contains("a") ? found : [found[0]] {
            let der = (SecCertificateCopyData(certificate) as Data)
            if options.flags.contains("Z") {
                print("SHA-256 hash: \(ItemPrinter.hex(sha256(der)))")
                print("SHA-1 hash: \(ItemPrinter.hex(sha1(der)))")
            }
            if options.flags.contains("p") {
                print(OpenSecurityCertificates.pemRepresentation(of: certificate), terminator: "")
            } else {
                print(describe(attributes, certificate: certificate, keychainPath: path), terminator: "")
            }
        }
        return 0
    }

    /// security(1)'s certificate listing: keychain, `version: 256`, the class code and the certificate attributes.
    static func describe(_ attributes: [String: Any], certificate: SecCertificate, keychainPath: String) -> String {
        var addresses: CFArray?
        _ = SecCertificateCopyEmailAddresses(certificate, &addresses)
        let alias = ((addresses as? [String]) ?? []).first ?? attributes[kSecAttrLabel as String]
        let rows: [(String, String, Any?)] = [
            ("alis", "blob", alias), ("cenc", "uint32", attributes["cenc"]), ("ctyp", "uint32", attributes["ctyp"]),
            ("hpky", "blob", attributes["pkhh"]), ("issu", "blob", attributes["issr"]),
            ("labl", "blob", attributes["labl"]),
            ("skid", "blob", attributes["skid"]), ("snbr", "blob", attributes["slnr"]),
            ("subj", "blob", attributes["subj"]),
        ]
        var text = "keychain: \"\(keychainPath)\"\nversion: 256\nclass: 0x80001000 \nattributes:\n"
        for (name, type, value) in rows {
            let rendered = type == "uint32" ? numberValue(value) : ItemPrinter.value(value, type: type)
            text += "    \"\(name)\"<\(type)>=\(rendered)\n"
        }
        return text
    }

    private static func numberValue(_ value: Any?) -> String {
        guard let number = (value as? NSNumber)?.uint32Value else { return "<NULL>" }
        return String(format: "0x%08X ", number)
    }

    // MARK: find-identity

    /// `security find-identity [-p policy] [-s string] [-v] [keychain...]`: identities with their certificate's
    /// SHA-1 and name; "valid" ones pass a trust evaluation under the policy (basic, ssl-client, ssl-server).
    static func findIdentity(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse("find-identity", arguments, valued: "ps", flags: "v") else { return 2 }
        let policyName = options.values["p"] ?? "basic"
        let policy: SecPolicy
        let title: String
        switch policyName {
        case "basic": (policy, title) = (SecPolicyCreateBasicX509(), "X.509 Basic")
        case "ssl-client":
            (policy, title) = (SecPolicyCreateSSL(false, options.values["s"] as CFString?), "SSL (client)")
        case "ssl-server":
            (policy, title) = (SecPolicyCreateSSL(true, options.values["s"] as CFString?), "SSL (server)")
        default:
            return ToolOutput.usage(
                "find-identity", "policy \(policyName) is not supported (basic, ssl-client, ssl-server)")
        }
        var all: [(hash: String, name: String, valid: Bool, reason: String)] = []
        for (keychain, _) in keychains(options.operands) {
            var query: [String: Any] = [
                kSecClass as String: kSecClassIdentity, kSecReturnRef as String: true,
                kSecMatchLimit as String: kSecMatchLimitAll,
            ]
            if let keychain { query[kSecUseKeychain as String] = keychain }
            var result: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { continue }
            for item in (result as? [AnyObject]) ?? [] {
                guard let identity = item as? SecIdentity else { continue }
                var certificate: SecCertificate?
                guard SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess, let certificate else {
                    continue
                }
                let name = (SecCertificateCopySubjectSummary(certificate) as String?) ?? ""
                if policyName == "basic", let wanted = options.values["s"], !name.contains(wanted) { continue }
                var trust: SecTrust?
                _ = SecTrustCreateWithCertificates(certificate, policy, &trust)
                var error: CFError?
                let valid = trust.map { SecTrustEvaluateWithError($0, &error) } ?? false
                let reason = error.map { "(\($0.localizedDescription))" } ?? ""
                all.append(
                    (
                        ItemPrinter.hex(sha1(SecCertificateCopyData(certificate) as Data)), name, valid,
                        reason
                    ))
            }
        }
        let valid = all.filter(\.valid)
        func list(_ entries: [(hash: String, name: String, valid: Bool, reason: String)], reasons: Bool) {
            for (index, entry) in entries.enumerated() {
                let suffix = reasons && !entry.valid && !entry.reason.isEmpty ? " \(entry.reason)" : ""
                print("  \(index + 1)) \(entry.hash) \"\(entry.name)\"\(suffix)")
            }
        }
        if options.flags.contains("v") {
            list(valid, reasons: false)
            print("     \(valid.count) valid identities found")
            return 0
        }
        print("\nPolicy: \(title)\n  Matching identities")
        list(all, reasons: true)
        print("     \(all.count) identities found\n\n  Valid identities only")
        list(valid, reasons: false)
        print("     \(valid.count) valid identities found")
        return 0
    }

    // MARK: Shared

    /// The keychains named by the operands (with their paths), or the default keychain.
    private static func keychains(_ operands: [String]) -> [(SecKeychain?, String)] {
        if operands.isEmpty { return [(nil, KeychainOperand.defaultKeychainPath())] }
        return operands.map { (KeychainOperand.open($0), KeychainOperand.path(for: $0)) }
    }
}

// MARK: Certificate hashes, with CommonCrypto as macOS's security(1) computes them

extension CertificateCommands {
    /// SHA-256 of `data` (CC_SHA256).
    fileprivate static func sha256(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var digest = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
        CC_SHA256(bytes, CC_LONG(bytes.count), &digest)
        return Data(digest)
    }

    /// SHA-1 of `data` (CC_SHA1), the hash `find-certificate -Z` and `find-identity` print.
    fileprivate static func sha1(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var digest = [UInt8](repeating: 0, count: Int(CC_SHA1_DIGEST_LENGTH))
        CC_SHA1(bytes, CC_LONG(bytes.count), &digest)
        return Data(digest)
    }
}
