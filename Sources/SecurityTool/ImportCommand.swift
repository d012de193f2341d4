import Foundation
import OSecASN1
import OSecToolBase
import Security

/// `security import inputfile [-k keychain] [-t type] [-f format] [-w] [-x] [-P passphrase] [-a name value]…
/// [-A | -T appPath]`: PKCS#12 files, certificates (DER or PEM), private and public keys (PKCS#1, PKCS#8 encrypted or
/// not, SEC1, SubjectPublicKeyInfo; DER or PEM, legacy encrypted PEM) and PEM bundles, into a keychain.
enum ImportCommand {
    static let command = ToolCommand(
        name: "import",
        usage: """
            inputfile [-k keychain] [-t type] [-f format] [-w] [-P passphrase] [-a attrName attrValue]
                [-A|-T appPath] [-x]
                -k  Target keychain to import into
                -t  Type = pub|priv|session|cert|agg
                -f  Format = openssl|pkcs8|pkcs12|x509|pemseq
                    (bsafe|raw|pkcs7|openssh1|openssh2|netscape are accepted names, not supported formats)
                -w  Private keys are wrapped (a passphrase is needed)
                -x  Make imported private keys non-extractable (export refuses them)
                -P  Specify the passphrase on the command line, where other users can see it; without -P the
                    passphrase is asked for without echo on the terminal, or read from standard input
                -a  Specify name and value of extended attribute (accepted; not stored)
                -A  Allow any application to access the imported key without warning (accepted; no effect on Linux)
                -T  Specify an application which may access the imported key (accepted; no effect on Linux)
            """,
        help: "Import items into a keychain.", run: run)

    /// A piece of the input file.
    enum Piece {
        case certificate(SecCertificate)
        /// A key, and whether it needed the passphrase.
        case key(SecKey)
    }

    /// Why an import failed: an OSStatus for `security: SecKeychainItemImport: <message>`.
    struct Failure: Error {
        let status: OSStatus
    }

    static func run(_ arguments: [String]) -> Int32 {
        // -a takes two values (name and value): take them out before the usual parsing.
        var remaining: [String] = []
        var index = 0
        while index < arguments.count {
            if arguments[index] == "-a" {
                guard index + 2 < arguments.count else { return 2 }
                index += 3
                continue
            }
            remaining.append(arguments[index])
            index += 1
        }
        guard let options = CommandOptions.parse(remaining, valued: "ktfPT", flags: "wxA") else { return 2 }
        guard options.operands.count == 1, let file = options.operands.first else { return 2 }
        guard let contents = FileManager.default.contents(atPath: file) else {
            ToolOutput.error("import: cannot read \(file)")
            return 1
        }
        guard let keychain = KeychainOperand.existing(optional: options.values["k"], call: "SecKeychainOpen") else {
            return 1
        }
        let format = options.values["f"] ?? guessFormat(file, contents)
        let type = options.values["t"]
        if let type, !["pub", "priv", "session", "cert", "agg"].contains(type) {
            return ToolOutput.usage("import: unknown item type \(type) (pub, priv, session, cert, agg)")
        }
        var passphrase = options.values["P"]
        let counts: Counts
        do {
            switch format {
            case "pkcs12":
                counts = try importPKCS12(contents, passphrase: &passphrase, keychain: keychain, type: type)
            case "x509", "pemseq", "openssl", "pkcs8", "bsafe":
                let pieces = try decode(contents, format: format, passphrase: &passphrase)
                counts = try add(pieces, keychain: keychain, type: type, extractable: !options.flags.contains("x"))
            case "raw", "pkcs7", "openssh1", "openssh2", "netscape":
                throw Failure(status: errSecUnsupportedFormat)
            default:
                return ToolOutput.usage("import: unknown format \(format)")
            }
        } catch let failure as Failure {
            _ = ToolOutput.fail("SecKeychainItemImport", failure.status)
            return 1
        } catch {
            _ = ToolOutput.fail("SecKeychainItemImport", errSecInternal)
            return 1
        }
        counts.report()
        return 0
    }

    struct Counts {
        var identities = 0
        var keys = 0
        var certificates = 0

        func report() {
            if identities > 0 { print("\(identities) \(identities == 1 ? "identity" : "identities") imported.") }
            if keys > 0 { print("\(keys) \(keys == 1 ? "key" : "keys") imported.") }
            if certificates > 0 {
                print("\(certificates) \(certificates == 1 ? "certificate" : "certificates") imported.")
            }
        }
    }

    /// By extension, else by content.
    static func guessFormat(_ file: String, _ contents: Data) -> String {
        switch (file as NSString).pathExtension.lowercased() {
        case "p12", "pfx": return "pkcs12"
        case "crt", "cer", "der": return "x509"
        default:
            if let text = String(data: contents, encoding: .utf8), text.contains("-----BEGIN") { return "pemseq" }
            if SecCertificateCreateWithData(nil, contents as NSData) != nil { return "x509" }
            if (try? OpenSecurityKeys.importKey(contents)) != nil || isEncryptedPKCS8(contents) { return "openssl" }
            return "pkcs12"
        }
    }

    /// An EncryptedPrivateKeyInfo: SEQUENCE { SEQUENCE (algorithm), OCTET STRING }.
    static func isEncryptedPKCS8(_ der: Data) -> Bool {
        let bytes = [UInt8](der.prefix(16))
        guard bytes.count > 4, bytes[0] == 0x30 else { return false }
        var offset = 1
        if bytes[1] & 0x80 != 0 { offset += Int(bytes[1] & 0x7F) }
        offset += 1
        return offset < bytes.count && bytes[offset] == 0x30
    }

    /// The passphrase: `-P`, else asked for (terminal without echo, or a line of standard input).
    static func obtainPassphrase(_ passphrase: inout String?) throws -> String {
        if let passphrase { return passphrase }
        switch Prompt.secret("Enter passphrase: ") {
        case .secret(let typed):
            passphrase = typed
            return typed
        case .endOfInput, .failed:
            throw Failure(status: errSecPassphraseRequired)
        }
    }

    // MARK: PKCS#12

    static func importPKCS12(
        _ contents: Data, passphrase: inout String?, keychain: SecKeychain?, type: String?
    ) throws -> Counts {
        let secret = try obtainPassphrase(&passphrase)
        var items: CFArray?
        let status = SecPKCS12Import(
            contents as NSData, [kSecImportExportPassphrase as String: secret] as NSDictionary, &items)
        guard status == errSecSuccess, let entries = items as? [[String: Any]] else {
            // macOS's import engine reports a wrong password as a failed PKCS#12 MAC check.
            throw Failure(
                status: status == errSecAuthFailed
                    ? errSecPkcs12VerifyFailure : status == errSecSuccess ? errSecDecode : status)
        }
        var counts = Counts()
        var target: [String: Any] = [:]
        if let keychain { target[kSecUseKeychain as String] = keychain }
        for entry in entries {
            if let identity = entry[kSecImportItemIdentity as String].map({ $0 as AnyObject }) as? SecIdentity,
                type == nil || type == "agg" || type == "priv"
            {
                var query = target
                query[kSecValueRef as String] = identity
                if let label = entry[kSecImportItemLabel as String] as? String {
                    query[kSecAttrLabel as String] = label
                }
                let added = SecItemAdd(query as CFDictionary, nil)
                guard added == errSecSuccess else { throw Failure(status: added) }
                counts.identities += 1
            }
            guard type == nil || type == "agg" || type == "cert" else { continue }
            let chain = (entry[kSecImportItemCertChain as String] as? [AnyObject] ?? []).compactMap {
                $0 as? SecCertificate
            }
            let others = entry[kSecImportItemIdentity as String] == nil ? chain : Array(chain.dropFirst())
            for certificate in others {
                var query = target
                query[kSecValueRef as String] = certificate
                let added = SecItemAdd(query as CFDictionary, nil)
                if added == errSecSuccess {
                    counts.certificates += 1
                } else if added != errSecDuplicateItem {
                    throw Failure(status: added)
                }
            }
        }
        return counts
    }

    // MARK: Certificates and keys

    static func decode(_ contents: Data, format: String, passphrase: inout String?) throws -> [Piece] {
        if let text = String(data: contents, encoding: .utf8), text.contains("-----BEGIN") {
            var pieces: [Piece] = []
            for block in PEMTextBlocks.split(text) {
                if PEMTextBlocks.certificateLabels.contains(block.label) {
                    guard let certificate = try? OpenSecurityCertificates.certificates(fromPEM: block.text).first else {
                        throw Failure(status: errSecUnknownFormat)
                    }
                    pieces.append(.certificate(certificate))
                } else if PEMTextBlocks.keyLabels.contains(block.label) {
                    let encrypted =
                        block.label == "ENCRYPTED PRIVATE KEY" || block.text.contains("Proc-Type: 4,ENCRYPTED")
                    let secret = encrypted ? try obtainPassphrase(&passphrase) : nil
                    do {
                        pieces.append(.key(try OpenSecurityKeys.importKey(pem: block.text, passphrase: secret)))
                    } catch {
                        throw Failure(status: importStatus(error))
                    }
                }
            }
            guard !pieces.isEmpty else { throw Failure(status: errSecUnknownFormat) }
            return pieces
        }
        if let certificate = SecCertificateCreateWithData(nil, contents as NSData) {
            return [.certificate(certificate)]
        }
        if let key = try? OpenSecurityKeys.importKey(contents) { return [.key(key)] }
        guard isEncryptedPKCS8(contents) else { throw Failure(status: errSecUnknownFormat) }
        let secret = try obtainPassphrase(&passphrase)
        do {
            return [.key(try OpenSecurityKeys.importKey(contents, passphrase: secret))]
        } catch {
            throw Failure(status: importStatus(error))
        }
    }

    /// A wrong passphrase stays errSecAuthFailed; anything else that is not a key is errSecUnknownFormat.
    static func importStatus(_ error: any Error) -> OSStatus {
        let error = error as NSError
        return error.domain == NSOSStatusErrorDomain && error.code == Int(errSecAuthFailed)
            ? errSecAuthFailed : errSecUnknownFormat
    }

    /// Whether `key` is a private key (its `kSecAttrKeyClass`).
    static func isPrivate(_ key: SecKey) -> Bool {
        let attributes = SecKeyCopyAttributes(key) as? [String: Any] ?? [:]
        return (attributes[kSecAttrKeyClass as String] as? String) == (kSecAttrKeyClassPrivate as String)
    }

    static func add(_ pieces: [Piece], keychain: SecKeychain?, type: String?, extractable: Bool) throws -> Counts {
        var counts = Counts()
        let certificates = pieces.compactMap { if case .certificate(let c) = $0 { c } else { nil } }
        let keys = pieces.compactMap { if case .key(let k) = $0 { k } else { nil } }
        var target: [String: Any] = [:]
        if let keychain { target[kSecUseKeychain as String] = keychain }
        var paired: Set<Int> = []
        for key in keys {
            let isPrivateKey = Self.isPrivate(key)
            let wanted =
                type == nil || type == "agg" || (type == "priv" && isPrivateKey) || (type == "pub" && !isPrivateKey)
            guard wanted else { continue }
            var query = target
            query[kSecValueRef as String] = key
            query[kSecAttrLabel as String] = isPrivateKey ? "Imported Private Key" : "Imported Public Key"
            if isPrivateKey && !extractable { query[kSecAttrIsExtractable as String] = false }
            // A private key with its certificate in the same file is an identity.
            let own = SecKeyCopyPublicKey(key).flatMap { SecKeyCopyExternalRepresentation($0, nil) as Data? }
            let match = certificates.firstIndex { certificate in
                guard let certificateKey = SecCertificateCopyKey(certificate),
                    let external = SecKeyCopyExternalRepresentation(certificateKey, nil) as Data?, let own
                else { return false }
                return external == own
            }
            if isPrivateKey, let match {
                query[kSecAttrLabel as String] = SecCertificateCopySubjectSummary(certificates[match])
            }
            let status = SecItemAdd(query as CFDictionary, nil)
            guard status == errSecSuccess else { throw Failure(status: status) }
            if isPrivateKey, let match {
                paired.insert(match)
                var certificateQuery = target
                certificateQuery[kSecValueRef as String] = certificates[match]
                let added = SecItemAdd(certificateQuery as CFDictionary, nil)
                guard added == errSecSuccess || added == errSecDuplicateItem else { throw Failure(status: added) }
                counts.identities += 1
            } else {
                counts.keys += 1
            }
        }
        guard type == nil || type == "agg" || type == "cert" else { return counts }
        for (index, certificate) in certificates.enumerated() where !paired.contains(index) {
            var query = target
            query[kSecValueRef as String] = certificate
            let status = SecItemAdd(query as CFDictionary, nil)
            guard status == errSecSuccess else { throw Failure(status: status) }
            counts.certificates += 1
        }
        return counts
    }
}
