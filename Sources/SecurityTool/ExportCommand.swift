import Foundation
import OSecSystem
import OSecToolBase
import Security

/// `security export [-k keychain] [-t type] [-f format] [-w] [-p] [-P passphrase] [-o outfile]`: certificates, keys
/// and identities out of a keychain in formats the `openssl` command reads.
///
/// Formats: `x509` (one certificate, DER or PEM with `-p`), `openssl` (keys: RSA PKCS#1 / EC SEC1 private keys,
/// SubjectPublicKeyInfo public keys), `pkcs8` (private keys; encrypted with `-w`), `pemseq` (everything, PEM), `pkcs12`
/// (identities and certificates, protected by the passphrase). Defaults as on macOS: `pemseq` for several items,
/// `openssl` for one key, `x509` for one certificate.
enum ExportCommand {
    static let command = ToolCommand(
        name: "export",
        usage: """
            [-k keychain] [-t type] [-f format] [-w] [-p] [-P passphrase] [-o outfile]
                -k  keychain to export items from (default: the search list)
                -t  type = certs|allKeys|pubKeys|privKeys|identities|all (default: all)
                -f  format = openssl|pkcs8|pkcs12|pemseq|x509 (openssh1|openssh2|bsafe|pkcs7 are not supported)
                    default: pemseq for several items, openssl for one key, x509 for one certificate
                -w  Private keys are wrapped (encrypted PKCS#8 under the passphrase)
                -p  PEM encode
                -P  Specify the wrapping passphrase on the command line, where other users can see it; without -P it
                    is asked for without echo on the terminal, or read from standard input
                -o  Specify output file (mode 0600); default is standard output
            """,
        help: "Export items from a keychain.", run: run)

    struct Failure: Error {
        let status: OSStatus
        let call: String
    }

    /// What the keychain holds that the type selects.
    struct Selection {
        var certificates: [SecCertificate] = []
        var privateKeys: [(key: SecKey, label: String?)] = []
        var publicKeys: [SecKey] = []
        var identities: [(identity: SecIdentity, label: String?)] = []

        var count: Int { certificates.count + privateKeys.count + publicKeys.count + identities.count }
    }

    static func run(_ arguments: [String]) -> Int32 {
        guard let options = CommandOptions.parse(arguments, valued: "ktfPo", flags: "wp") else { return 2 }
        guard options.operands.isEmpty else { return 2 }
        let type = options.values["t"] ?? "all"
        guard ["certs", "allKeys", "pubKeys", "privKeys", "identities", "all"].contains(type) else {
            return ToolOutput.usage("export: unknown type \(type)")
        }
        let keychains: [String] = options.values["k"].map { [$0] } ?? []
        if let name = keychains.first, KeychainOperand.existing(name, call: "SecKeychainOpen") == nil { return 1 }
        var passphrase = options.values["P"]
        let output: Data
        do {
            let selection = try select(type, in: keychains)
            guard selection.count > 0 else { throw Failure(status: errSecItemNotFound, call: "SecItemExport") }
            let format = options.values["f"] ?? defaultFormat(selection)
            output = try encode(
                selection, format: format, pem: options.flags.contains("p"),
                wrap: options.flags.contains("w"), passphrase: &passphrase)
        } catch let failure as Failure {
            return ToolOutput.fail(failure.call, failure.status)
        } catch {
            return ToolOutput.fail("SecItemExport", errSecInternal)
        }
        if let file = options.values["o"] {
            do {
                try POSIXFiles.writeDurably(output, to: file, mode: 0o600)
            } catch {
                ToolOutput.error("export: cannot write \(file): \(error)")
                return 1
            }
        } else {
            ToolOutput.write(output)
        }
        return 0
    }

    static func defaultFormat(_ selection: Selection) -> String {
        if selection.count == 1 && selection.certificates.count == 1 { return "x509" }
        if selection.count == 1 && selection.identities.isEmpty { return "openssl" }
        return "pemseq"
    }

    // MARK: Selecting

    private static func items(
        _ itemClass: CFString, _ extra: [String: Any], in operands: [String]
    ) throws -> [[String: Any]] {
        var all: [[String: Any]] = []
        var query: [String: Any] = [
            kSecClass as String: itemClass, kSecReturnRef as String: true, kSecReturnAttributes as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        query.merge(extra) { _, new in new }
        for (keychain, _) in KeychainOperand.keychains(operands) {
            switch KeychainOperand.copyMatching(query, in: keychain) {
            case .success(let result): all += (result as? [[String: Any]]) ?? []
            case .failure(let error): throw Failure(status: error.status, call: "SecKeychainSearchCopyNext")
            }
        }
        return all
    }

    static func select(_ type: String, in operands: [String]) throws -> Selection {
        var selection = Selection()
        if type == "certs" || type == "all" {
            selection.certificates = try items(kSecClassCertificate, [:], in: operands).compactMap {
                $0[kSecValueRef as String].map { $0 as AnyObject } as? SecCertificate
            }
        }
        if type == "privKeys" || type == "allKeys" || type == "all" {
            for item in try items(kSecClassKey, [kSecAttrKeyClass as String: kSecAttrKeyClassPrivate], in: operands) {
                guard let key = item[kSecValueRef as String].map({ $0 as AnyObject }) else { continue }
                if (item[kSecAttrIsExtractable as String] as? NSNumber)?.boolValue == false {
                    throw Failure(status: errSecKeyIsSensitive, call: "SecItemExport")
                }
                // A SecKey's reference (a CFType on Apple platforms) comes back as the SecKey object.
                guard let secKey = Optional(key as AnyObject) as? SecKey else { continue }
                selection.privateKeys.append((secKey, item[kSecAttrLabel as String] as? String))
            }
        }
        if type == "pubKeys" || type == "allKeys" || type == "all" {
            selection.publicKeys = try items(
                kSecClassKey, [kSecAttrKeyClass as String: kSecAttrKeyClassPublic], in: operands
            )
            .compactMap { $0[kSecValueRef as String].map { $0 as AnyObject } as? SecKey }
        }
        if type == "identities" {
            for item in try items(kSecClassIdentity, [:], in: operands) {
                guard let identity = item[kSecValueRef as String].map({ $0 as AnyObject }) as? SecIdentity else {
                    continue
                }
                selection.identities.append((identity, item[kSecAttrLabel as String] as? String))
            }
        }
        return selection
    }

    // MARK: Encoding

    /// A key in `format` (`openssl`: PKCS#1 / SEC1 / SubjectPublicKeyInfo; `pkcs8`), encrypted PKCS#8 when
    /// `wrapping` is given.
    static func keyData(
        _ key: SecKey, format: OpenSecurityKeys.ExportFormat, pem: Bool, wrapping: String?
    ) throws
        -> Data
    {
        do {
            return try OpenSecurityKeys.exportKey(
                key, format: format, pem: pem, passphrase: ImportCommand.isPrivate(key) ? wrapping : nil)
        } catch {
            throw Failure(status: errSecInternal, call: "SecItemExport")
        }
    }

    static func passphrase(_ given: inout String?) throws -> String {
        if let given { return given }
        switch Prompt.secret("Enter passphrase: ", retype: "Verify passphrase: ") {
        case .secret(let typed):
            given = typed
            return typed
        case .endOfInput, .failed:
            throw Failure(status: errSecPassphraseRequired, call: "SecItemExport")
        }
    }

    static func encode(
        _ selection: Selection, format: String, pem: Bool, wrap: Bool, passphrase: inout String?
    ) throws -> Data {
        let wrapping = wrap ? try Self.passphrase(&passphrase) : nil
        switch format {
        case "x509":
            guard selection.count == 1,
                let certificate = selection.certificates.first
                    ?? selection.identities.first.flatMap({
                        var certificate: SecCertificate?
                        _ = SecIdentityCopyCertificate($0.identity, &certificate)
                        return certificate
                    })
            else { throw Failure(status: errSecUnsupportedFormat, call: "SecItemExport") }
            if pem { return Data(OpenSecurityCertificates.pemRepresentation(of: certificate).utf8) }
            return SecCertificateCopyData(certificate) as Data
        case "openssl", "pkcs8":
            let keys = selection.privateKeys.map(\.key) + selection.publicKeys
            guard selection.certificates.isEmpty, selection.identities.isEmpty, keys.count == 1, let key = keys.first
            else {
                throw Failure(status: errSecUnsupportedFormat, call: "SecItemExport")
            }
            return try keyData(key, format: format == "pkcs8" ? .pkcs8 : .openssl, pem: pem, wrapping: wrapping)
        case "pemseq":
            var text = Data()
            for certificate in selection.certificates {
                text += Data(OpenSecurityCertificates.pemRepresentation(of: certificate).utf8)
            }
            for (identity, _) in selection.identities {
                var certificate: SecCertificate?
                var key: SecKey?
                _ = SecIdentityCopyCertificate(identity, &certificate)
                _ = SecIdentityCopyPrivateKey(identity, &key)
                if let certificate { text += Data(OpenSecurityCertificates.pemRepresentation(of: certificate).utf8) }
                if let key { text += try keyData(key, format: .openssl, pem: true, wrapping: wrapping) }
            }
            for key in selection.privateKeys.map(\.key) + selection.publicKeys {
                text += try keyData(key, format: .openssl, pem: true, wrapping: wrapping)
            }
            return text
        case "pkcs12":
            let secret = try Self.passphrase(&passphrase)
            var identities = selection.identities
            // Private keys with a certificate in the selection travel as identities.
            for (key, label) in selection.privateKeys {
                for certificate in selection.certificates {
                    var identity: SecIdentity?
                    if SecIdentityCreateWithCertificate(nil, certificate, &identity) == errSecSuccess, let identity,
                        identityMatches(identity, key)
                    {
                        identities.append((identity, label))
                    }
                }
            }
            let identityCertificates = identities.compactMap { entry -> Data? in
                var certificate: SecCertificate?
                _ = SecIdentityCopyCertificate(entry.identity, &certificate)
                return certificate.map { SecCertificateCopyData($0) as Data }
            }
            let others = selection.certificates.filter {
                !identityCertificates.contains(SecCertificateCopyData($0) as Data)
            }
            guard !identities.isEmpty || !others.isEmpty else {
                throw Failure(status: errSecUnsupportedFormat, call: "SecItemExport")
            }
            do {
                return try OpenSecurityPKCS12.export(
                    identities: identities.map(\.identity), certificates: others, passphrase: secret,
                    friendlyNames: identities.map(\.label))
            } catch {
                throw Failure(status: OSStatus(truncatingIfNeeded: (error as NSError).code), call: "SecItemExport")
            }
        case "openssh1", "openssh2", "bsafe", "pkcs7", "raw", "netscape":
            throw Failure(status: errSecUnsupportedFormat, call: "SecItemExport")
        default:
            throw Failure(status: errSecUnknownFormat, call: "SecItemExport")
        }
    }

    private static func identityMatches(_ identity: SecIdentity, _ key: SecKey) -> Bool {
        var own: SecKey?
        _ = SecIdentityCopyPrivateKey(identity, &own)
        guard let own, let a = SecKeyCopyPublicKey(own), let b = SecKeyCopyPublicKey(key) else { return false }
        return (SecKeyCopyExternalRepresentation(a, nil) as Data?)
            == (SecKeyCopyExternalRepresentation(b, nil) as Data?)
    }
}
