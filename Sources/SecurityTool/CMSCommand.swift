import CommonCrypto
import Foundation
import OSecToolBase
import Security

/// `security cms -D|-S|-E|-C`: macOS's cmsutil. Decodes (`-D`) printing the content exactly as carried, signs
/// (`-S`) and envelopes (`-E`) with keychain identities and certificates. Exit status 0 on success, 1 on a
/// failure, 2 on a usage error. `-D` prints the content and exits 0 even when a signature does not verify;
/// `-h <level>` reports each signer's status first.
enum CMSCommand {
    static let command = ToolCommand(
        name: "cms",
        usage: """
            [-C|-D|-E|-S] [<options>]
              -C            create a CMS encrypted message (not supported here)
              -D            decode a CMS message
                -c content  use this detached content
                -n          suppress output of content
                -h num      display CMS message info (num = 0..2): signers, status
                -k keychain keychain to use
              -E            create a CMS enveloped message
                -r id,...   create envelope for these recipients (nickname or email address)
              -S            create a CMS signed message
                -G          include a signing time attribute
                -H hash     use hash (SHA1 default, SHA256)
                -N nick     use the identity named "nick" for signing
                -P          include a SMIMECapabilities attribute
                -T          do not include content in CMS message
                -Y nick     include an EncryptionKeyPreference attribute with cert (use "NONE" to omit)
                -Z hash     find the signing identity by its certificate's SHA-1 hash
              -i infile     use infile as source of data (default: stdin)
              -o outfile    use outfile as destination of data (default: stdout)
              -k keychain   keychain to use
              -u certusage  set type of certificate usage (accepted; the basic X.509 policy is used)
              -v            print debugging information
            """,
        help: "Encode or decode CMS messages.", run: run)

    static func run(_ arguments: [String]) -> Int32 {
        guard
            let options = CommandOptions.parse(
                arguments, valued: "icoNkuZerHYpdh", flags: "CDESnGPTsv")
        else { return ToolOutput.usageStatus }
        let modes = options.flags.intersection(["C", "D", "E", "S"])
        guard modes.count == 1, let mode = modes.first, options.operands.isEmpty else {
            return ToolOutput.usage("specify exactly one of -C, -D, -E, -S")
        }
        let input: Data
        do {
            input = try readInput(options.values["i"])
        } catch {
            ToolOutput.error("unable to read input: \(error.localizedDescription)")
            return 1
        }
        let result: Result<Data, Failure>
        switch mode {
        case "D": result = decode(input, options)
        case "S": result = sign(input, options)
        case "E": result = envelope(input, options)
        default: result = .failure(Failure("-C (EncryptedData with a bulk key) is not supported"))
        }
        switch result {
        case .success(let output):
            do {
                try writeOutput(output, to: options.values["o"])
            } catch {
                ToolOutput.error("unable to write output: \(error.localizedDescription)")
                return 1
            }
            return 0
        case .failure(let failure):
            ToolOutput.error(failure.message)
            return 1
        }
    }

    struct Failure: Error {
        let message: String
        init(_ message: String) { self.message = message }
        init(_ call: String, _ status: OSStatus) { message = "\(call): \(ToolOutput.message(status))" }
    }

    static func readInput(_ path: String?) throws -> Data {
        guard let path else { return FileHandle.standardInput.readDataToEndOfFile() }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    static func writeOutput(_ data: Data, to path: String?) throws {
        guard let path else {
            ToolOutput.write(data)
            return
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    // MARK: -D

    static func decode(_ input: Data, _ options: CommandOptions) -> Result<Data, Failure> {
        var decoder: CMSDecoder?
        guard CMSDecoderCreate(&decoder) == errSecSuccess, let decoder else {
            return .failure(Failure("CMSDecoderCreate failed"))
        }
        if let keychain = options.values["k"] {
            // The named keychain's identities first for an enveloped message (the search list otherwise).
            let identities = keychainIdentities(keychain).map(\.identity)
            if !identities.isEmpty { OpenSecurityCMS.setDecryptionIdentities(decoder, identities as NSArray) }
        }
        let bytes = [UInt8](input)
        let update = bytes.isEmpty ? errSecUnknownFormat : CMSDecoderUpdateMessage(decoder, bytes, bytes.count)
        guard update == errSecSuccess else { return .failure(Failure("CMSDecoderUpdateMessage", update)) }
        let finalize = CMSDecoderFinalizeMessage(decoder)
        guard finalize == errSecSuccess else { return .failure(Failure("CMSDecoderFinalizeMessage", finalize)) }
        if let contentPath = options.values["c"] {
            guard let detached = try? Data(contentsOf: URL(fileURLWithPath: contentPath)) else {
                return .failure(Failure("unable to read detached content \(contentPath)"))
            }
            _ = CMSDecoderSetDetachedContent(decoder, detached as NSData)
        }
        var output = Data()
        if let levelText = options.values["h"] {
            guard let level = Int(levelText), (0...2).contains(level) else {
                return .failure(Failure("invalid -h level \(levelText)"))
            }
            output.append(Data(header(decoder, level: level).utf8))
        }
        if !options.flags.contains("n") {
            var content: CFData?
            _ = CMSDecoderCopyContent(decoder, &content)
            if let content { output.append(content as Data) }
        }
        return .success(output)
    }

    /// NSS cmsutil's `-h` report: the message type, the signers and each signer's verification status.
    static func header(_ decoder: CMSDecoder, level: Int) -> String {
        var encrypted = DarwinBoolean(false)
        _ = CMSDecoderIsContentEncrypted(decoder, &encrypted)
        var count = 0
        _ = CMSDecoderGetNumSigners(decoder, &count)
        var text = "SMIME: level=\(level); "
        if encrypted.boolValue { text += "type=envelopedData; " }
        guard count > 0 else { return text + "type=data;\n" }
        text += "type=signedData; nsigners=\(count);\n"
        for index in 0..<count {
            var certificate: SecCertificate?
            _ = CMSDecoderCopySignerCert(decoder, index, &certificate)
            let name = certificate.flatMap { SecCertificateCopySubjectSummary($0) as String? } ?? "(unknown)"
            var status = CMSSignerStatus.unsigned
            var verifyResult = errSecSuccess
            _ = CMSDecoderCopySignerStatus(
                decoder, index, SecPolicyCreateBasicX509(), true, &status, nil, &verifyResult)
            text += "\tsigner\(index).id=\"\(name)\"; signer\(index).status=\(statusName(status));"
            if level >= 1 {
                var email: CFString?
                _ = CMSDecoderCopySignerEmailAddress(decoder, index, &email)
                if let email { text += " signer\(index).email=\"\(email as String)\";" }
                var time: CFAbsoluteTime = 0
                if CMSDecoderCopySignerSigningTime(decoder, index, &time) == errSecSuccess {
                    let date = Date(timeIntervalSinceReferenceDate: time)
                    text += " signer\(index).signingTime=\"\(ISO8601DateFormatter().string(from: date))\";"
                }
            }
            if level >= 2 && verifyResult != errSecSuccess {
                text += " signer\(index).certificateStatus=\"\(ToolOutput.message(verifyResult))\";"
            }
            text += "\n"
        }
        return text
    }

    static func statusName(_ status: CMSSignerStatus) -> String {
        switch status {
        case .unsigned: "Unsigned"
        case .valid: "GoodSignature"
        case .needsDetachedContent: "NeedsDetachedContent"
        case .invalidSignature: "BadSignature"
        case .invalidCert: "SigningCertNotTrusted"
        case .invalidIndex: "InvalidIndex"
        }
    }

    // MARK: -S

    static func sign(_ input: Data, _ options: CommandOptions) -> Result<Data, Failure> {
        let identities = keychainIdentities(options.values["k"])
        let signer: FoundIdentity?
        if let hash = options.values["Z"] {
            signer = identities.first { sha1Hex($0.certificate) == hash.lowercased().filter { $0 != " " } }
        } else if let nick = options.values["N"] {
            signer = identities.first { matches($0.certificate, nick) }
        } else {
            return .failure(Failure("please indicate the nickname of a certificate to sign with (-N or -Z)"))
        }
        guard let signer else { return .failure(Failure("the signing identity was not found")) }
        var encoder: CMSEncoder?
        guard CMSEncoderCreate(&encoder) == errSecSuccess, let encoder else {
            return .failure(Failure("CMSEncoderCreate failed"))
        }
        var status = CMSEncoderAddSigners(encoder, signer.identity)
        guard status == errSecSuccess else { return .failure(Failure("CMSEncoderAddSigners", status)) }
        if let hash = options.values["H"] {
            switch hash.uppercased().replacingOccurrences(of: "-", with: "") {
            case "SHA1": status = CMSEncoderSetSignerAlgorithm(encoder, kCMSEncoderDigestAlgorithmSHA1)
            case "SHA256": status = CMSEncoderSetSignerAlgorithm(encoder, kCMSEncoderDigestAlgorithmSHA256)
            default: return .failure(Failure("unsupported hash \(hash) (SHA1 or SHA256)"))
            }
            guard status == errSecSuccess else { return .failure(Failure("CMSEncoderSetSignerAlgorithm", status)) }
        }
        var attributes: CMSSignedAttributes = []
        if options.flags.contains("G") { attributes.insert(.attrSigningTime) }
        if options.flags.contains("P") { attributes.insert(.attrSmimeCapabilities) }
        if let nick = options.values["Y"], nick != "NONE" {
            guard identities.contains(where: { matches($0.certificate, nick) }) else {
                return .failure(Failure("the encryption key preference certificate \(nick) was not found"))
            }
            attributes.insert(.attrSmimeEncryptionKeyPrefs)
        }
        _ = CMSEncoderAddSignedAttributes(encoder, attributes)
        if options.flags.contains("T") { _ = CMSEncoderSetHasDetachedContent(encoder, true) }
        return finish(encoder, input)
    }

    // MARK: -E

    static func envelope(_ input: Data, _ options: CommandOptions) -> Result<Data, Failure> {
        guard let list = options.values["r"] else {
            return .failure(Failure("please name at least one recipient with -r"))
        }
        let certificates = keychainCertificates(options.values["k"])
        var recipients: [SecCertificate] = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let certificate = certificates.first(where: { matches($0, name) }) else {
                return .failure(Failure("the recipient certificate \(name) was not found"))
            }
            recipients.append(certificate)
        }
        var encoder: CMSEncoder?
        guard CMSEncoderCreate(&encoder) == errSecSuccess, let encoder else {
            return .failure(Failure("CMSEncoderCreate failed"))
        }
        let status = CMSEncoderAddRecipients(encoder, recipients as NSArray)
        guard status == errSecSuccess else { return .failure(Failure("CMSEncoderAddRecipients", status)) }
        return finish(encoder, input)
    }

    static func finish(_ encoder: CMSEncoder, _ input: Data) -> Result<Data, Failure> {
        if !input.isEmpty {
            let bytes = [UInt8](input)
            let status = CMSEncoderUpdateContent(encoder, bytes, bytes.count)
            guard status == errSecSuccess else { return .failure(Failure("CMSEncoderUpdateContent", status)) }
        }
        var encoded: CFData?
        let status = CMSEncoderCopyEncodedContent(encoder, &encoded)
        guard status == errSecSuccess, let encoded else {
            return .failure(Failure("CMSEncoderCopyEncodedContent", status))
        }
        return .success(encoded as Data)
    }

    // MARK: Keychain look-ups

    typealias FoundIdentity = (identity: SecIdentity, certificate: SecCertificate)

    static func keychainIdentities(_ keychain: String?) -> [FoundIdentity] {
        var found: [FoundIdentity] = []
        for item in keychainItems(kSecClassIdentity, keychain) {
            guard let identity = item as? SecIdentity else { continue }
            var certificate: SecCertificate?
            guard SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess, let certificate else { continue }
            found.append((identity, certificate))
        }
        return found
    }

    static func keychainCertificates(_ keychain: String?) -> [SecCertificate] {
        keychainItems(kSecClassCertificate, keychain).compactMap { $0 as? SecCertificate }
    }

    static func keychainItems(_ itemClass: CFString, _ keychain: String?) -> [AnyObject] {
        let keychains = KeychainOperand.keychains(keychain.map { [$0] } ?? [])
        var items: [AnyObject] = []
        for (keychain, _) in keychains {
            let query: [String: Any] = [
                kSecClass as String: itemClass, kSecReturnRef as String: true,
                kSecMatchLimit as String: kSecMatchLimitAll,
            ]
            if case .success(let result) = KeychainOperand.copyMatching(query, in: keychain) {
                items += (result as? [AnyObject]) ?? []
            }
        }
        return items
    }

    /// Whether `certificate` is the one a nickname names: its subject summary (common name) or an email address.
    static func matches(_ certificate: SecCertificate, _ name: String) -> Bool {
        if (SecCertificateCopySubjectSummary(certificate) as String?) == name { return true }
        var emails: CFArray?
        _ = SecCertificateCopyEmailAddresses(certificate, &emails)
        return ((emails as? [String]) ?? []).contains { $0.caseInsensitiveCompare(name) == .orderedSame }
    }

    static func sha1Hex(_ certificate: SecCertificate) -> String {
        let bytes = [UInt8](SecCertificateCopyData(certificate) as Data)
        var digest = [UInt8](repeating: 0, count: Int(CC_SHA1_DIGEST_LENGTH))
        CC_SHA1(bytes, CC_LONG(bytes.count), &digest)
        return ItemPrinter.hex(Data(digest)).lowercased()
    }
}
