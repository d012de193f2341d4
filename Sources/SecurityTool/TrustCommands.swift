import Foundation
import OSecToolBase
import Security

/// `verify-cert` and the trust settings commands (`add-trusted-cert`, `remove-trusted-cert`,
/// `dump-trust-settings`, `trust-settings-export`, `trust-settings-import`), after macOS security(1).
enum TrustCommands {
    // MARK: Certificates from files

    /// Every certificate in a file: DER, or PEM with one or more certificates.
    static func readCertificates(_ file: String) -> [SecCertificate]? {
        guard let contents = FileManager.default.contents(atPath: file) else { return nil }
        if let certificate = SecCertificateCreateWithData(nil, contents as NSData) { return [certificate] }
        guard let text = String(data: contents, encoding: .utf8), text.contains("-----BEGIN"),
            let certificates = try? OpenSecurityCertificates.certificates(fromPEM: text), !certificates.isEmpty
        else { return nil }
        return certificates
    }

    /// Every certificate of `files`, in order; nil, after `***Error reading cert from <file>` on standard error,
    /// when a file cannot be read or holds no certificate.
    static func readCertificates(files: [String]) -> [SecCertificate]? {
        var certificates: [SecCertificate] = []
        for file in files {
            guard let read = readCertificates(file) else {
                ToolOutput.standardError("***Error reading cert from \(file)")
                return nil
            }
            certificates += read
        }
        return certificates
    }

    /// macOS's `cssmErrorString` name of a trust failure (`CSSMERR_TP_NOT_TRUSTED`, …).
    static func cssmName(_ status: OSStatus) -> String {
        switch status {
        case -67843, -25318, -67612: return "CSSMERR_TP_NOT_TRUSTED"
        case -67818: return "CSSMERR_TP_CERT_EXPIRED"
        case -67819: return "CSSMERR_TP_CERT_NOT_VALID_YET"
        case -67602: return "CSSMERR_APPLETP_HOSTNAME_MISMATCH"
        case -67609: return "CSSMERR_APPLETP_INVALID_EXTENDED_KEY_USAGE"
        case -67608: return "CSSMERR_APPLETP_INVALID_KEY_USAGE"
        case -67820: return "CSSMERR_TP_CERT_REVOKED"
        case -67604: return "CSSMERR_APPLETP_NO_BASIC_CONSTRAINTS"
        case -67605: return "CSSMERR_APPLETP_INVALID_CA"
        case -67611: return "CSSMERR_APPLETP_PATH_LEN_CONSTRAINT"
        case -67603: return "CSSMERR_APPLETP_UNKNOWN_CRITICAL_EXTEN"
        case -67735: return "CSSMERR_CSP_UNSUPPORTED_KEY_SIZE"
        case -67815: return "CSSMERR_CSP_INVALID_DIGEST_ALGORITHM"
        case -67688: return "CSSMERR_TP_VERIFICATION_FAILURE"
        case -67623: return "CSSMERR_APPLETP_SMIME_EMAIL_ADDRS_NOT_FOUND"
        case -67635: return "CSSMERR_APPLETP_INCOMPLETE_REVOCATION_CHECK"
        case -67654: return "CSSMERR_APPLETP_TRUST_SETTING_DENY"
        default: return "CSSMERR_TP_INVALID_CERTIFICATE"
        }
    }

    /// macOS's `printErrorDetails` text for a failed check.
    static func checkText(_ check: String) -> String {
        let texts: [String: String] = [
            "SSLHostname": "Host name not found in Subject Alternative Name extension",
            "TemporalValidity": "Certificate has expired, or is not yet valid (check date)",
            "KeySize": "Certificate uses a key size which is considered too weak",
            "SignatureHashAlgorithms": "Certificate uses a signing algorithm which is considered too weak",
            "KeyUsage": "The Key Usage extension does not permit this use for the certificate",
            "ExtendedKeyUsage": "The Extended Key Usage extension does not permit this use for the certificate",
            "Revocation": "Certificate has been revoked and cannot be used",
            "AnchorTrusted": "The root of the certificate chain is not trusted",
            "MissingIntermediate": "Unable to find next certificate in the chain",
            "NonEmptySubject": "Certificate has no subject, and SAN is missing or not marked critical",
            "NameConstraints": "Certificate violates name constraints placed on issuing CA",
            "PolicyConstraints": "Certificate violates policy constraints placed on issuing CA",
            "ValidityPeriodMaximums": "Certificate exceeds maximum allowable validity period (normally 825 days)",
            "ServerAuthEKU": "The Extended Key Usage extension does not permit server authentication",
            "UnparseableExtension": "Unable to parse a standard extension (corrupt or invalid format detected)",
        ]
        return texts[check].map { "\($0) [\(check)]" } ?? "[\(check)]"
    }

    static func resultName(_ result: SecTrustResultType) -> String {
        switch result {
        case .invalid: return "kSecTrustResultInvalid"
        case .proceed: return "kSecTrustResultProceed"
        case .confirm: return "kSecTrustResultConfirm"
        case .deny: return "kSecTrustResultDeny"
        case .unspecified: return "kSecTrustResultUnspecified"
        case .recoverableTrustFailure: return "kSecTrustResultRecoverableTrustFailure"
        case .fatalTrustFailure: return "kSecTrustResultFatalTrustFailure"
        case .otherError: return "kSecTrustResultOtherError"
        }
    }

    // MARK: verify-cert

    static let verifyCommand = ToolCommand(
        name: "verify-cert",
        usage: """
            [<options>]
                -c certFile         Certificate to verify. Can be specified multiple times, leaf first.
                -r rootCertFile     Root Certificate. Can be specified multiple times.
                -p policy           Verify Policy (basic, ssl, ssl-client, ssl-server); default is basic.
                -C                  Set client policy (SSL) rather than the default server policy.
                -k keychain         Keychain. Can be called multiple times (its certificates help build the chain).
                -n, -N              No keychain search list.
                -d date             Set date and optional time for evaluation (YYYY-MM-DD[-hh:mm:ss], UTC).
                -L                  Use local certificates only (always: nothing is fetched).
                -l                  Leaf cert is a CA (accepted).
                -s sslHost          SSL host name for ssl policy.
                -e emailAddress     Email address for smime policy (not available).
                -R revCheckOption   Perform revocation checking (ocsp, crl, require, offline).
                -P                  Output the certificate chain in PEM format.
                -t                  Output the certificate chain in text format.
                -q                  Quiet.
                -v                  Verbose: the chain and each certificate's errors.
                --json              One JSON document with the verdict, the chain and the failures.
            """,
        help: "Verify certificate(s).", run: verify)

    static func verify(_ arguments: [String]) -> Int32 {
        guard !arguments.isEmpty else { return 2 }
        guard
            let options = CommandOptions.parse(
                arguments, valued: "crpkesdR", flags: "CLlNnPqtv", jsonLetter: "j")
        else { return 2 }
        guard options.operands.isEmpty else {
            ToolOutput.error("verify-cert: evaluating a URL's certificates is not supported (no network access)")
            return 2
        }
        let quiet = options.flags.contains("q") || options.json
        guard var certificates = readCertificates(files: options.allValues["c"] ?? []),
            let roots = readCertificates(files: options.allValues["r"] ?? [])
        else { return 1 }
        if certificates.isEmpty {
            guard !roots.isEmpty else {
                ToolOutput.standardError("***No certs specified.")
                return 2
            }
            guard roots.count == 1 else {
                ToolOutput.standardError("***Multiple roots and no certs not allowed.")
                return 2
            }
            certificates = roots
        }
        var date: Date?
        if let text = options.values["d"] {
            guard let parsed = parseDate(text) else {
                ToolOutput.standardError("Date processing error")
                return 2
            }
            date = parsed
        }
        guard let policy = policy(options) else { return 2 }
        var policies: [SecPolicy] = [policy]
        if let option = options.values["R"] {
            let flags: CFOptionFlags
            switch option.lowercased() {
            case "ocsp": flags = kSecRevocationOCSPMethod
            case "crl": flags = kSecRevocationCRLMethod
            case "require": flags = kSecRevocationUseAnyAvailableMethod | kSecRevocationRequirePositiveResponse
            case "offline": flags = kSecRevocationUseAnyAvailableMethod | kSecRevocationNetworkAccessDisabled
            default: return ToolOutput.usage("verify-cert: unknown revocation option \(option)")
            }
            if let revocation = SecPolicyCreateRevocation(flags) { policies.append(revocation) }
        }
        // Intermediates from the keychains named with -k.
        var intermediates: [SecCertificate] = []
        for name in options.allValues["k"] ?? [] {
            guard let keychain = KeychainOperand.existing(name, call: "SecKeychainOpen") else { return 1 }
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecReturnRef as String: true,
                kSecMatchLimit as String: kSecMatchLimitAll, kSecUseKeychain as String: keychain,
            ]
            if SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess {
                intermediates += ((result as? [AnyObject]) ?? []).compactMap { $0 as? SecCertificate }
            }
        }
        var trust: SecTrust?
        let created = SecTrustCreateWithCertificates(
            (certificates + intermediates) as NSArray, policies as NSArray, &trust)
        guard created == errSecSuccess, let trust else {
            return ToolOutput.fail("SecTrustCreateWithCertificates", created)
        }
        if !roots.isEmpty { _ = SecTrustSetAnchorCertificates(trust, roots as NSArray) }
        if let date { _ = SecTrustSetVerifyDate(trust, date as NSDate) }
        var error: CFError?
        _ = SecTrustEvaluateWithError(trust, &error)
        var result = SecTrustResultType.invalid
        _ = SecTrustGetTrustResult(trust, &result)
        let trusted = result == .unspecified || result == .proceed
        let chain = (SecTrustCopyCertificateChain(trust) as? [AnyObject] ?? []).compactMap { $0 as? SecCertificate }
        let details = failures(trust)
        if options.json {
            JSONOutput.print(
                json(trusted: trusted, result: result, error: error, chain: chain, details: details))
            return trusted ? 0 : 1
        }
        if !trusted && !quiet {
            if result == .deny {
                ToolOutput.standardError("SecTrustEvaluate result: kSecTrustResultDeny")
            } else {
                ToolOutput.standardError(
                    "Cert Verify Result: \(cssmName(OSStatus(truncatingIfNeeded: error?.code ?? -67843)))")
            }
            // Which certificate failed which check (macOS says this with -v only).
            if let underlying = error?.userInfo[NSUnderlyingErrorKey] as? NSError {
                for line in underlying.localizedDescription.split(separator: "\n") {
                    ToolOutput.standardError(String(line))
                }
            }
        }
        if trusted && !quiet { print("...certificate verification successful.") }
        if options.flags.contains("P") || options.flags.contains("t") || options.flags.contains("v") {
            print("---\nCertificate chain")
            for (index, certificate) in chain.enumerated() {
                print(" \(index): \(summary(certificate))")
                if options.flags.contains("P") {
                    print(OpenSecurityCertificates.pemRepresentation(of: certificate), terminator: "")
                }
            }
        }
        if options.flags.contains("v"), details.contains(where: { !$0.checks.isEmpty }) {
            print("---\nCertificate errors")
            for detail in details {
                print(" \(detail.index): \(detail.subject)")
                for check in detail.checks { print("    \(checkText(check))") }
            }
        }
        return trusted ? 0 : 1
    }

    static func summary(_ certificate: SecCertificate) -> String {
        (SecCertificateCopySubjectSummary(certificate) as String?) ?? ""
    }

    /// Each chain certificate's failed checks, from `SecTrustCopyResult`'s details.
    static func failures(_ trust: SecTrust) -> [(index: Int, subject: String, checks: [String])] {
        let chain = (SecTrustCopyCertificateChain(trust) as? [AnyObject] ?? []).compactMap { $0 as? SecCertificate }
        let result = SecTrustCopyResult(trust) as? [String: Any] ?? [:]
        let details = result[kSecTrustResultDetails as String] as? [[String: Any]] ?? []
        return details.enumerated().map { index, entry in
            let checks = entry.keys.filter { $0 != "StatusCodes" }.sorted()
            return (index, index < chain.count ? summary(chain[index]) : "", checks)
        }
    }

    private static func json(
        trusted: Bool, result: SecTrustResultType, error: CFError?, chain: [SecCertificate],
        details: [(index: Int, subject: String, checks: [String])]
    ) -> [String: Any] {
        var document: [String: Any] = [
            "trusted": trusted, "result": resultName(result),
            "chain": chain.map { certificate -> [String: Any] in
                ["subject": summary(certificate), "der": SecCertificateCopyData(certificate) as Data]
            },
            "failures": details.flatMap { detail in
                detail.checks.map { ["certificate": detail.index, "subject": detail.subject, "check": $0] }
            },
        ]
        if let error {
            document["status"] = error.code
            document["error"] = error.localizedDescription
            if result != .deny { document["cssmError"] = cssmName(OSStatus(truncatingIfNeeded: error.code)) }
        }
        return document
    }

    /// `YYYY-MM-DD` or `YYYY-MM-DD-hh:mm:ss`, UTC.
    static func parseDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd-HH:mm:ss", "yyyy-MM-dd"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    private static func policy(_ options: CommandOptions) -> SecPolicy? {
        let host = options.values["s"] as CFString?
        switch options.values["p"] ?? "basic" {
        case "basic": return SecPolicyCreateBasicX509()
        case "ssl": return SecPolicyCreateSSL(!options.flags.contains("C"), host)
        case "ssl-server": return SecPolicyCreateSSL(true, host)
        case "ssl-client": return SecPolicyCreateSSL(false, host)
        case let name:
            ToolOutput.error("verify-cert: policy \(name) is not supported (basic, ssl, ssl-client, ssl-server)")
            return nil
        }
    }

    // MARK: add-trusted-cert, remove-trusted-cert

    static let addTrustedCommand = ToolCommand(
        name: "add-trusted-cert",
        usage: """
            [-d] [-r resultType] [-p policy] [-s policyString] [-e allowedError] [-u keyUsage] [-k keychain] certFile
                -d                  Add to admin cert store; default is user
                -r resultType       resultType = trustRoot|trustAsRoot|deny|unspecified;
                                          default is trustRoot (trustAsRoot for a certificate that is not a root)
                -p policy           Specify policy constraint (basic, ssl, ssl-client, ssl-server);
                                          may be given several times
                -s policyString     Specify policy-specific string (an SSL host name)
                -e allowedError     Specify allowed error, an integer
                -u keyUsage         Specify key usage, an integer
                -k keychain         Specify keychain to which cert is added
                certFile            Certificate (DER or PEM)
            """,
        help: "Add trusted certificate(s).", run: addTrusted)

    static func addTrusted(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "rpseukaioD", flags: "dD") else { return 2 }
        guard options.operands.count == 1 else { return 2 }
        if options.flags.contains("D") || options.values["i"] != nil || options.values["o"] != nil
            || options.values["a"] != nil
        {
            ToolOutput.error("add-trusted-cert: -D, -i, -o and -a are not supported")
            return 2
        }
        guard let certificate = readCertificates(files: options.operands)?.first else { return 1 }
        let selfSigned = isSelfSigned(certificate)
        let result: SecTrustSettingsResult
        switch options.values["r"] {
        case nil: result = selfSigned ? .trustRoot : .trustAsRoot
        case "trustRoot": result = .trustRoot
        case "trustAsRoot": result = .trustAsRoot
        case "deny": result = .deny
        case "unspecified": result = .unspecified
        case let other?: return ToolOutput.usage("add-trusted-cert: unknown resultType \(other)")
        }
        var base: [String: Any] = [:]
        // The default (no -r) is not written, as macOS leaves kSecTrustSettingsResult out for trustRoot.
        if options.values["r"] != nil || result != .trustRoot {
            base[kSecTrustSettingsResult as String] = NSNumber(value: result.rawValue)
        }
        if let string = options.values["s"] { base[kSecTrustSettingsPolicyString as String] = string }
        if let text = options.values["e"] {
            guard let value = Int32(text) else { return ToolOutput.usage("add-trusted-cert: -e needs an integer") }
            base[kSecTrustSettingsAllowedError as String] = NSNumber(value: value)
        }
        if let text = options.values["u"] {
            guard let value = Int64(text) else { return ToolOutput.usage("add-trusted-cert: -u needs an integer") }
            base[kSecTrustSettingsKeyUsage as String] = NSNumber(value: value)
        }
        var settings: [[String: Any]] = []
        for name in options.allValues["p"] ?? [] {
            let policy: SecPolicy
            switch name {
            case "basic": policy = SecPolicyCreateBasicX509()
            case "ssl", "ssl-server": policy = SecPolicyCreateSSL(true, nil)
            case "ssl-client": policy = SecPolicyCreateSSL(false, nil)
            default:
                return ToolOutput.usage("add-trusted-cert: policy \(name) is not supported (basic, ssl, ssl-client)")
            }
            var entry = base
            entry[kSecTrustSettingsPolicy as String] = policy
            settings.append(entry)
        }
        if settings.isEmpty && !base.isEmpty { settings = [base] }
        if let name = options.values["k"] {
            guard let keychain = KeychainOperand.existing(name, call: "SecKeychainOpen") else { return 1 }
            let query: [String: Any] = [kSecValueRef as String: certificate, kSecUseKeychain as String: keychain]
            let status = SecItemAdd(query as CFDictionary, nil)
            if status != errSecSuccess && status != errSecDuplicateItem {
                _ = ToolOutput.fail("SecCertificateAddToKeychain", status)
                return 1
            }
        }
        let domain: SecTrustSettingsDomain = options.flags.contains("d") ? .admin : .user
        let status = SecTrustSettingsSetTrustSettings(certificate, domain, settings.isEmpty ? nil : settings as NSArray)
        guard status == errSecSuccess else {
            _ = ToolOutput.fail("SecTrustSettingsSetTrustSettings", status)
            return 1
        }
        return 0
    }

    static func isSelfSigned(_ certificate: SecCertificate) -> Bool {
        var issuer: CFData?
        var subject: CFData?
        issuer = SecCertificateCopyNormalizedIssuerSequence(certificate)
        subject = SecCertificateCopyNormalizedSubjectSequence(certificate)
        return issuer.map { $0 as Data } == subject.map { $0 as Data }
    }

    static let removeTrustedCommand = ToolCommand(
        name: "remove-trusted-cert",
        usage: """
            [-d] certFile
                -d                  Remove from admin cert store; default is user
                certFile            Certificate (DER or PEM)
            """,
        help: "Remove trusted certificate(s).", run: removeTrusted)

    static func removeTrusted(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "", flags: "dD") else { return 2 }
        guard options.operands.count == 1 else { return 2 }
        guard let certificate = readCertificates(files: options.operands)?.first else { return 1 }
        let status = SecTrustSettingsRemoveTrustSettings(certificate, options.flags.contains("d") ? .admin : .user)
        guard status == errSecSuccess else {
            _ = ToolOutput.fail("SecTrustSettingsRemoveTrustSettings", status)
            return 1
        }
        return 0
    }

    // MARK: dump-trust-settings

    static let dumpSettingsCommand = ToolCommand(
        name: "dump-trust-settings",
        usage: """
            [-s] [-d] [--json]
                -s                  Display trusted system certs; default is user
                -d                  Display trusted admin certs; default is user
            """,
        help: "Display Trust Settings.", run: dumpSettings)

    static func dumpSettings(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "", flags: "sd", jsonLetter: "j") else { return 2 }
        guard options.operands.isEmpty else { return 2 }
        let domain: SecTrustSettingsDomain =
            options.flags.contains("s") ? .system : options.flags.contains("d") ? .admin : .user
        var list: CFArray?
        let status = SecTrustSettingsCopyCertificates(domain, &list)
        guard status == errSecSuccess else {
            if options.json && status == errSecNoTrustSettings {
                JSONOutput.print(["certificates": [Any]()])
                return 0
            }
            _ = ToolOutput.fail("SecTrustSettingsCopyCertificates", status)
            return 1
        }
        let certificates = ((list as? [AnyObject]) ?? []).compactMap { $0 as? SecCertificate }
        var documents: [[String: Any]] = []
        if !options.json { print("Number of trusted certs = \(certificates.count)") }
        var result: Int32 = 0
        for (index, certificate) in certificates.enumerated() {
            var settings: CFArray?
            let copied = SecTrustSettingsCopyTrustSettings(certificate, domain, &settings)
            let entries = (settings as? [[String: Any]]) ?? []
            if options.json {
                documents.append([
                    "subject": summary(certificate), "der": SecCertificateCopyData(certificate) as Data,
                    "trustSettings": entries.map(jsonSetting),
                ])
                continue
            }
            print("Cert \(index): \(summary(certificate))")
            guard copied == errSecSuccess else {
                _ = ToolOutput.fail("SecTrustSettingsCopyTrustSettings", copied)
                result = 1
                continue
            }
            print("   Number of trust settings : \(entries.count)")
            for (settingIndex, entry) in entries.enumerated() {
                print("   Trust Setting \(settingIndex):")
                for (label, value) in settingLines(entry) {
                    print("      " + label.padding(toLength: 22, withPad: " ", startingAt: 0) + ": " + value)
                }
            }
        }
        if options.json { JSONOutput.print(["certificates": documents]) }
        return result
    }

    private static func policyName(_ entry: [String: Any]) -> String? {
        guard let policy = entry[kSecTrustSettingsPolicy as String].map({ $0 as AnyObject }) as? SecPolicy else {
            return nil
        }
        let oid = (SecPolicyCopyProperties(policy) as? [String: Any])?[kSecPolicyOid as String] as? String
        let names = [
            String(kSecPolicyAppleSSL): "SSL", String(kSecPolicyAppleX509Basic): "Apple X509 Basic",
            String(kSecPolicyAppleRevocation): "Revocation",
        ]
        return oid.map { names[$0] ?? $0 }
    }

    private static func resultTypeName(_ raw: NSNumber?) -> String? {
        guard let raw else { return nil }
        switch SecTrustSettingsResult(rawValue: raw.uint32Value) {
        case .trustRoot: return "kSecTrustSettingsResultTrustRoot"
        case .trustAsRoot: return "kSecTrustSettingsResultTrustAsRoot"
        case .deny: return "kSecTrustSettingsResultDeny"
        case .unspecified: return "kSecTrustSettingsResultUnspecified"
        case .invalid, nil: return "kSecTrustSettingsResultInvalid"
        }
    }

    private static func settingLines(_ entry: [String: Any]) -> [(String, String)] {
        var lines: [(String, String)] = []
        if let name = policyName(entry) { lines.append(("Policy OID", name)) }
        if let string = entry[kSecTrustSettingsPolicyString as String] as? String {
            lines.append(("Policy String", string))
        }
        if let error = entry[kSecTrustSettingsAllowedError as String] as? NSNumber {
            lines.append(("Allowed Error", cssmName(error.int32Value)))
        }
        if let result = resultTypeName(entry[kSecTrustSettingsResult as String] as? NSNumber) {
            lines.append(("Result Type", result))
        }
        if let usage = entry[kSecTrustSettingsKeyUsage as String] as? NSNumber {
            lines.append(("Key Usage", String(format: "0x%08X", usage.uint32Value)))
        }
        return lines
    }

    private static func jsonSetting(_ entry: [String: Any]) -> [String: Any] {
        var document: [String: Any] = [:]
        if let name = policyName(entry) { document["policy"] = name }
        if let policyName = entry[kSecTrustSettingsPolicyName as String] as? String {
            document["policyName"] = policyName
        }
        if let string = entry[kSecTrustSettingsPolicyString as String] as? String { document["policyString"] = string }
        if let error = entry[kSecTrustSettingsAllowedError as String] as? NSNumber { document["allowedError"] = error }
        if let result = resultTypeName(entry[kSecTrustSettingsResult as String] as? NSNumber) {
            document["result"] = result
        }
        if let usage = entry[kSecTrustSettingsKeyUsage as String] as? NSNumber { document["keyUsage"] = usage }
        return document
    }

    // MARK: trust-settings-export, trust-settings-import

    static let exportSettingsCommand = ToolCommand(
        name: "trust-settings-export",
        usage: """
            [-s] [-d] settings_file
                -s                  Export system trust settings; default is user
                -d                  Export admin trust settings; default is user
            """,
        help: "Export trust settings.", run: exportSettings)

    static func exportSettings(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "", flags: "sd") else { return 2 }
        guard options.operands.count == 1 else { return 2 }
        let domain: SecTrustSettingsDomain =
            options.flags.contains("s") ? .system : options.flags.contains("d") ? .admin : .user
        var data: CFData?
        let status = SecTrustSettingsCreateExternalRepresentation(domain, &data)
        guard status == errSecSuccess, let data else {
            _ = ToolOutput.fail("SecTrustSettingsCreateExternalRepresentation", status)
            return 1
        }
        guard FileManager.default.createFile(atPath: options.operands[0], contents: data as Data) else {
            ToolOutput.error("cannot write \(options.operands[0])")
            return 1
        }
        return 0
    }

    static let importSettingsCommand = ToolCommand(
        name: "trust-settings-import",
        usage: """
            [-d] settings_file
                -d                  Import admin trust settings; default is user
            """,
        help: "Import trust settings.", run: importSettings)

    static func importSettings(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "", flags: "d") else { return 2 }
        guard options.operands.count == 1 else { return 2 }
        guard let contents = FileManager.default.contents(atPath: options.operands[0]) else {
            ToolOutput.error("cannot read \(options.operands[0])")
            return 1
        }
        let status = SecTrustSettingsImportExternalRepresentation(
            options.flags.contains("d") ? .admin : .user, contents as NSData)
        guard status == errSecSuccess else {
            _ = ToolOutput.fail("SecTrustSettingsImportExternalRepresentation", status)
            return 1
        }
        return 0
    }
}
