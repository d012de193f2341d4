import CommonCrypto
import Foundation
import Security

/// Signs Apple Wallet passes: `manifest.json` (the SHA-1 of every file of the pass) and `signature`, a detached
/// CMS SignedData over the manifest with SHA-256, the signing time, and the pass certificate with Apple's WWDR
/// intermediate — what Wallet checks, and what `openssl smime -verify -binary -content manifest.json` verifies.
///
/// ```swift
/// let signer = PassSigner(identity: passIdentity, intermediate: wwdrCertificate)
/// try signer.signPass(at: URL(fileURLWithPath: "Event.pass"))   // writes manifest.json and signature
/// ```
///
/// The private key stays in the identity's `SecKey` (a keychain or a PKCS#12 import).
public struct PassSigner: @unchecked Sendable {
    // @unchecked: SecIdentity and SecCertificate are immutable, thread-safe objects.
    /// The pass type certificate with its private key.
    public let identity: SecIdentity
    /// Apple's WWDR intermediate certificate that issued the pass certificate.
    public let intermediate: SecCertificate

    /// A signer from the pass identity and the WWDR intermediate.
    public init(identity: SecIdentity, intermediate: SecCertificate) {
        self.identity = identity
        self.intermediate = intermediate
    }

    /// A signer from a PKCS#12 file (the pass certificate exported with its key) and the WWDR intermediate in DER.
    ///
    /// - Throws: errSecAuthFailed for a wrong password, errSecDecode for a file or certificate that does not
    ///   decode, errSecItemNotFound when the file has no identity.
    public init(pkcs12: Data, password: String, intermediateDER: Data) throws(SecurityKitError) {
        var items: CFArray?
        let status = SecPKCS12Import(
            pkcs12 as NSData, [kSecImportExportPassphrase as String: password] as NSDictionary, &items)
        guard status == errSecSuccess else { throw SecurityKitError(status, reason: "SecPKCS12Import") }
        guard let first = (items as? [[String: Any]])?.first,
            let identity = first[kSecImportItemIdentity as String].map({ $0 as AnyObject }) as? SecIdentity
        else { throw SecurityKitError(errSecItemNotFound, reason: "the PKCS#12 file holds no identity") }
        guard let intermediate = SecCertificateCreateWithData(nil, intermediateDER as NSData) else {
            throw SecurityKitError(errSecDecode, reason: "the intermediate is not a DER certificate")
        }
        self.init(identity: identity, intermediate: intermediate)
    }

    /// The detached signature (DER) of `manifest`: SHA-256, signing time, the pass certificate and the intermediate.
    public func signature(forManifest manifest: Data) throws(SecurityKitError) -> Data {
        var encoder: CMSEncoder?
        try check(CMSEncoderCreate(&encoder), "CMSEncoderCreate")
        guard let encoder else { throw SecurityKitError(errSecAllocate, reason: "CMSEncoderCreate") }
        try check(CMSEncoderAddSigners(encoder, identity), "CMSEncoderAddSigners")
        try check(CMSEncoderAddSupportingCerts(encoder, intermediate), "CMSEncoderAddSupportingCerts")
        try check(CMSEncoderSetSignerAlgorithm(encoder, kCMSEncoderDigestAlgorithmSHA256), "SetSignerAlgorithm")
        try check(CMSEncoderAddSignedAttributes(encoder, .attrSigningTime), "CMSEncoderAddSignedAttributes")
        try check(CMSEncoderSetCertificateChainMode(encoder, .signerOnly), "SetCertificateChainMode")
        try check(CMSEncoderSetHasDetachedContent(encoder, true), "CMSEncoderSetHasDetachedContent")
        let bytes = [UInt8](manifest)
        if !bytes.isEmpty { try check(CMSEncoderUpdateContent(encoder, bytes, bytes.count), "UpdateContent") }
        var encoded: CFData?
        try check(CMSEncoderCopyEncodedContent(encoder, &encoded), "CMSEncoderCopyEncodedContent")
        guard let encoded else { throw SecurityKitError(errSecInternal, reason: "no encoded content") }
        return encoded as Data
    }

    /// The manifest of the pass directory: a JSON object from every file's relative path (with `/`) to the
    /// lowercase hex SHA-1 of its bytes, `manifest.json` and `signature` left out, keys sorted.
    public static func manifest(forPassAt directory: URL) throws(SecurityKitError) -> Data {
        var entries: [String: String] = [:]
        let root = directory.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: root) else {
            throw SecurityKitError(errSecParam, reason: "\(root) is not a directory")
        }
        while let relative = enumerator.nextObject() as? String {
            guard relative != "manifest.json", relative != "signature" else { continue }
            let path = (root as NSString).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw SecurityKitError(errSecIO, reason: "cannot read \(relative)")
            }
            entries[relative] = sha1Hex(contents)
        }
        do {
            return try JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys, .prettyPrinted])
        } catch {
            throw SecurityKitError(errSecInternal, reason: "manifest does not encode: \(error)")
        }
    }

    /// Writes `manifest.json` and `signature` into the pass directory (replacing earlier ones).
    public func signPass(at directory: URL) throws(SecurityKitError) {
        let manifest = try Self.manifest(forPassAt: directory)
        let signature = try signature(forManifest: manifest)
        do {
            try manifest.write(to: directory.appendingPathComponent("manifest.json"), options: .atomic)
            try signature.write(to: directory.appendingPathComponent("signature"), options: .atomic)
        } catch {
            throw SecurityKitError(errSecIO, reason: "cannot write the pass files: \(error.localizedDescription)")
        }
    }

    private static func sha1Hex(_ data: Data) -> String {
        let bytes = [UInt8](data)
        var digest = [UInt8](repeating: 0, count: Int(CC_SHA1_DIGEST_LENGTH))
        CC_SHA1(bytes, CC_LONG(bytes.count), &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}

/// Throws unless `status` is errSecSuccess.
func check(_ status: OSStatus, _ call: String) throws(SecurityKitError) {
    guard status == errSecSuccess else { throw SecurityKitError(status, reason: call) }
}
