import CommonCrypto
import Foundation
import OSecToolBase
import Security

/// `find-certificate`, `find-identity`, `add-certificates`, `delete-certificate` and `delete-identity`, after
/// macOS security(1).
enum CertificateCommands {
    // MARK: find-certificate

    static let findCertificateCommand = ToolCommand(
        name: "find-certificate",
        usage: """
            [-a] [-c name] [-e emailAddress] [-m] [-p] [-Z] [--json] [keychain...]
                -a  Find all matching certificates, not just the first one
                -c  Match on "name" when searching (optional)
                -e  Match on "emailAddress" when searching (optional)
                -m  Show the email addresses in the certificate
                -p  Output certificate in pem format
                -Z  Print SHA-256 (and SHA-1) hash of the certificate
            If no keychains are specified to search, the default search list is used.
            """,
        help: "Find a certificate item.", run: findCertificate)

    /// One certificate found in a keychain.
    struct FoundCertificate {
        let certificate: SecCertificate
        let attributes: [String: Any]
        let keychain: SecKeychain
        let keychainPath: String
    }

    /// Certificates of the keychains matching `name` (case-insensitive, in the subject summary or label) and
    /// `email`.
    static func certificates(
        in operands: [String], name: String? = nil, email: String? = nil
    ) -> [FoundCertificate] {
        var found: [FoundCertificate] = []
        for (keychain, path) in KeychainOperand.keychains(operands) {
            let query: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecReturnRef as String: true,
                kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecUseKeychain as String: keychain,
            ]
            var result: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { continue }
            for item in (result as? [[String: Any]]) ?? [] {
                guard let certificate = item[kSecValueRef as String].map({ $0 as AnyObject }) as? SecCertificate else {
                    continue
                }
                if let email {
                    guard
                        emailAddresses(certificate).contains(where: { $0.caseInsensitiveCompare(email) == .orderedSame }
                        )
                    else { continue }
                }
                if let name {
                    let summary = (SecCertificateCopySubjectSummary(certificate) as String?) ?? ""
                    let label = item[kSecAttrLabel as String] as? String ?? ""
                    guard
                        summary.range(of: name, options: .caseInsensitive) != nil
                            || label.range(of: name, options: .caseInsensitive) != nil
                    else { continue }
                }
                found.append(
                    FoundCertificate(certificate: certificate, attributes: item, keychain: keychain, keychainPath: path)
                )
            }
        }
        return found
    }

    static func emailAddresses(_ certificate: SecCertificate) -> [String] {
        var addresses: CFArray?
        _ = SecCertificateCopyEmailAddresses(certificate, &addresses)
        return (addresses as? [String]) ?? []
    }

    /// `security find-certificate [-a] [-c name] [-e email] [-m] [-p] [-Z] [keychain...]`.
    static func findCertificate(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "ce", flags: "apZm", jsonLetter: "j") else {
            return 2
        }
        let found = certificates(in: options.operands, name: options.values["c"], email: options.values["e"])
        guard !found.isEmpty else {
            if options.flags.contains("a") && !options.json { return 0 }
            if options.json { JSONOutput.print(["certificates": [Any]()]) }
            return ToolOutput.fail("SecKeychainSearchCopyNext", errSecItemNotFound)
        }
        let selected = options.flags.contains("a") ? found : [found[0]]
        if options.json {
            JSONOutput.print(["certificates": selected.map(json)])
            return 0
        }
        for entry in selected {
            let (certificate, attributes, path) = (entry.certificate, entry.attributes, entry.keychainPath)
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
            if options.flags.contains("m") {
                print("email addresses: \(emailAddresses(certificate).joined(separator: ", "))")
            }
        }
        return 0
    }

    static func json(_ entry: FoundCertificate) -> [String: Any] {
        var document = ItemPrinter.json(entry.attributes, kind: .certificate, keychainPath: entry.keychainPath)
        let der = SecCertificateCopyData(entry.certificate) as Data
        document["subject"] = (SecCertificateCopySubjectSummary(entry.certificate) as String?) as Any
        document["emailAddresses"] = emailAddresses(entry.certificate)
        document["sha1"] = ItemPrinter.hex(sha1(der))
        document["sha256"] = ItemPrinter.hex(sha256(der))
        document["der"] = der
        return document
    }

    /// security(1)'s certificate listing: keychain, `version: 256`, the class code and the certificate attributes.
    static func describe(_ attributes: [String: Any], certificate: SecCertificate, keychainPath: String) -> String {
        var all = attributes
        all["alis"] = emailAddresses(certificate).first ?? attributes[kSecAttrLabel as String]
        return ItemPrinter.describe(all, kind: .certificate, keychainPath: keychainPath)
    }

    // MARK: find-identity

    static let findIdentityCommand = ToolCommand(
        name: "find-identity",
        usage: """
            [-p policy] [-s string] [-v] [--json] [keychain...]
                -p  Specify policy to evaluate (multiple -p options are allowed)
                    Supported policies: basic, ssl-client, ssl-server
                -s  Specify optional policy-specific string (e.g. a DNS hostname for SSL)
                -v  Show valid identities only (default is to show all identities)
            If no keychains are specified to search, the default search list is used.
            """,
        help: "Find an identity (certificate + private key).", run: findIdentity)

    /// `security find-identity [-p policy] [-s string] [-v] [keychain...]`: identities with their certificate's
    /// SHA-1 and name; "valid" ones pass a trust evaluation under the policy (basic, ssl-client, ssl-server).
    static func findIdentity(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "ps", flags: "v", jsonLetter: "j") else { return 2 }
        let policyNames = options.allValues["p"] ?? ["basic"]
        var documents: [[String: Any]] = []
        for policyName in policyNames {
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
                    "find-identity: policy \(policyName) is not supported (basic, ssl-client, ssl-server)")
            }
            let all = identities(options, policy: policy, policyName: policyName)
            if options.json {
                documents.append([
                    "policy": title,
                    "identities": all.map {
                        ["sha1": $0.hash, "name": $0.name, "valid": $0.valid, "error": $0.reason as Any]
                    },
                ])
                continue
            }
            report(all, title: title, validOnly: options.flags.contains("v"))
        }
        if options.json { JSONOutput.print(["policies": documents]) }
        return 0
    }

    typealias IdentityRow = (hash: String, name: String, valid: Bool, reason: String?)

    private static func identities(_ options: CommandOptions, policy: SecPolicy, policyName: String) -> [IdentityRow] {
        var all: [IdentityRow] = []
        for (keychain, _) in KeychainOperand.keychains(options.operands) {
            let query: [String: Any] = [
                kSecClass as String: kSecClassIdentity, kSecReturnRef as String: true,
                kSecMatchLimit as String: kSecMatchLimitAll, kSecUseKeychain as String: keychain,
            ]
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
                let reason = error.map { TrustCommands.cssmName(OSStatus(truncatingIfNeeded: $0.code)) }
                all.append(
                    (
                        ItemPrinter.hex(sha1(SecCertificateCopyData(certificate) as Data)), name, valid,
                        reason
                    ))
            }
        }
        return all
    }

    private static func report(_ all: [IdentityRow], title: String, validOnly: Bool) {
        let valid = all.filter(\.valid)
        func list(_ entries: [IdentityRow], reasons: Bool) {
            for (index, entry) in entries.enumerated() {
                let suffix = reasons && !entry.valid ? entry.reason.map { " (\($0))" } ?? "" : ""
                print("  \(index + 1)) \(entry.hash) \"\(entry.name)\"\(suffix)")
            }
        }
        if validOnly {
            list(valid, reasons: false)
            print("     \(valid.count) valid identities found")
            return
        }
        print("\nPolicy: \(title)\n  Matching identities")
        list(all, reasons: true)
        print("     \(all.count) identities found\n\n  Valid identities only")
        list(valid, reasons: false)
        print("     \(valid.count) valid identities found")
    }

    // MARK: add-certificates

    static let addCertificatesCommand = ToolCommand(
        name: "add-certificates",
        usage: """
            [-k keychain] file...
            If no keychain is specified, the certificates are added to the default keychain.
            """,
        help: "Add certificates to a keychain.", run: addCertificates)

    static func addCertificates(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "k", flags: "") else { return 2 }
        guard !options.operands.isEmpty, options.values["k"] != "" else { return 2 }
        guard let keychain = KeychainOperand.existing(optional: options.values["k"], call: "SecKeychainOpen") else {
            return KeychainOperand.missingStatus
        }
        var result: Int32 = 0
        for file in options.operands {
            guard let contents = FileManager.default.contents(atPath: file) else {
                ToolOutput.error("\(file): cannot read the file")
                result = 1
                continue
            }
            let certificate =
                SecCertificateCreateWithData(nil, contents as NSData)
                ?? String(data: contents, encoding: .utf8).flatMap {
                    try? OpenSecurityCertificates.certificates(fromPEM: $0).first
                }
            guard let certificate else {
                _ = ToolOutput.fail("SecCertificateCreateFromData", errSecUnknownFormat)
                result = 1
                continue
            }
            var query: [String: Any] = [kSecValueRef as String: certificate]
            if let keychain { query[kSecUseKeychain as String] = keychain }
            let status = SecItemAdd(query as CFDictionary, nil)
            if status == errSecDuplicateItem {
                ToolOutput.error("\(file): already in \(options.values["k"] ?? "default keychain")")
                result = 1
            } else if status != errSecSuccess {
                _ = ToolOutput.fail("SecCertificateAddToKeychain", status)
                result = 1
            }
        }
        return result
    }

    // MARK: delete-certificate, delete-identity

    static let deleteCertificateCommand = deleteCommand(identity: false)
    static let deleteIdentityCommand = deleteCommand(identity: true)

    /// `delete-certificate`, or `delete-identity`, which also deletes the certificate's private key.
    private static func deleteCommand(identity: Bool) -> ToolCommand {
        let noun = identity ? "identity" : "certificate"
        return ToolCommand(
            name: "delete-\(noun)",
            usage: """
                [-c name] [-Z hash] [-t] [keychain...]
                    -c  Specify \(noun) to delete by its common name
                    -Z  Specify \(noun) to delete by its SHA-256 (or SHA-1) hash value
                    -t  Also delete user trust settings for this \(identity ? "identity certificate" : "certificate")
                The \(noun) to be deleted must be uniquely specified either by a string found in its common name, or
                by its SHA-256 (or SHA-1) hash.\(identity ? " The certificate and its private key are deleted." : "")
                """,
            help: identity
                ? "Delete an identity (certificate + private key) from a keychain."
                : "Delete a certificate from a keychain."
        ) { deleteMatching($0, identity: identity) }
    }

    static func deleteMatching(_ arguments: [String], identity: Bool) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "cZ", flags: "t") else { return 2 }
        let name = options.values["c"]
        let hash = options.values["Z"]?.replacingOccurrences(of: ":", with: "").uppercased()
        guard name != nil || hash != nil else { return 2 }
        var matches = certificates(in: options.operands, name: name)
        if let hash {
            matches = matches.filter {
                let der = SecCertificateCopyData($0.certificate) as Data
                return ItemPrinter.hex(sha1(der)) == hash
                    || ItemPrinter.hex(sha256(der)) == hash
            }
        }
        var identities: [(FoundCertificate, SecIdentity)] = []
        if identity {
            for match in matches {
                var found: SecIdentity?
                if SecIdentityCreateWithCertificate(match.keychain, match.certificate, &found) == errSecSuccess,
                    let found
                {
                    identities.append((match, found))
                }
            }
        }
        let count = identity ? identities.count : matches.count
        let what = identity ? "identity" : "certificate"
        guard count > 0 else {
            ToolOutput.error("Unable to delete \(what) matching \"\(name ?? hash ?? "")\"")
            return ToolOutput.exitCode(errSecItemNotFound)
        }
        guard count == 1 else {
            ToolOutput.error("\"\(name ?? hash ?? "")\" is ambiguous, matches more than one \(what)")
            return 1
        }
        let target = identity ? identities[0].0 : matches[0]
        var query: [String: Any] = [kSecUseKeychain as String: target.keychain]
        if identity {
            query[kSecClass as String] = kSecClassIdentity
            query[kSecValueRef as String] = identities[0].1
        } else {
            query[kSecClass as String] = kSecClassCertificate
            query[kSecValueRef as String] = target.certificate
        }
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess else { return ToolOutput.fail("SecKeychainItemDelete", status) }
        if options.flags.contains("t") {
            let removed = SecTrustSettingsRemoveTrustSettings(target.certificate, .user)
            if removed != errSecSuccess && removed != errSecItemNotFound {
                return ToolOutput.fail("SecTrustSettingsRemoveTrustSettings", removed)
            }
        }
        return 0
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
