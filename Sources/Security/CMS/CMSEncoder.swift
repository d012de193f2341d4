import Foundation
import OSecASN1
import OSecCMS
import OSecCrypto
import OSecSystem
import OSecX509

/// Apple's `CMSEncoder`: collects signers, recipients, options and content, then writes one CMS message
/// (SignedData, EnvelopedData, or SignedData inside EnvelopedData when it has both).
///
/// Thread-safe: the state lives behind a mutex. Signing happens with each identity's `SecKey`; private keys never
/// leave it.
public final class CMSEncoder: NSObject, @unchecked Sendable {
    // @unchecked: all mutable state is inside `state` (a Mutex).
    struct State {
        var signers: [SecIdentity] = []
        var recipients: [SecCertificate] = []
        var detached = false
        /// The content octets of the eContentType OID; nil: id-data.
        var contentType: ASN1ObjectIdentifier? = nil
        var supportingCertificates: [SecCertificate] = []
        var chainMode = CMSCertificateChainMode.chain
        var attributes: CMSSignedAttributes = []
        var digest = DigestAlgorithm.sha1
        var content: [UInt8] = []
        /// Set once content was given: the configuration is then fixed (Apple: errSecParam).
        var started = false
        var encoded: Data? = nil
        /// Apple's code-signing attributes (`CMSEncoderSetAppleCodesigningHashAgility…`, `…SetAppleExpirationTime`).
        var hashAgility: [UInt8]? = nil
        var hashAgilityV2: [(DigestAlgorithm, [UInt8])]? = nil
        /// Seconds since 1970.
        var expirationTime: Int64? = nil
    }

    let state = LockedValue(State())

    override init() { super.init() }

    public override var description: String {
        "<CMSEncoder \(String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16))>"
    }
}

// MARK: - Configuration

/// Apple's `CMSEncoderCreate`.
public func CMSEncoderCreate(_ cmsEncoderOut: UnsafeMutablePointer<CMSEncoder?>) -> OSStatus {
    cmsEncoderOut.pointee = CMSEncoder()
    return errSecSuccess
}

/// Changes the configuration unless content was already given (Apple's errSecParam).
private func configure(_ encoder: CMSEncoder, _ body: (inout CMSEncoder.State) -> OSStatus) -> OSStatus {
    encoder.state.withLock { state in
        guard !state.started else { return errSecParam }
        return body(&state)
    }
}

/// The elements of a single object or an array of `T` (nil when any element is something else, or it is empty).
func cmsObjects<T>(_ value: CFTypeRef, _ type: T.Type) -> [T]? {
    if let single = value as? T { return [single] }
    guard let array = value as? NSArray, array.count > 0 else { return nil }
    var result: [T] = []
    for element in array {
        guard let item = element as? T else { return nil }
        result.append(item)
    }
    return result
}

/// Apple's `CMSEncoderAddSigners`: a `SecIdentity` or an array of them.
public func CMSEncoderAddSigners(_ cmsEncoder: CMSEncoder, _ signerOrArray: CFTypeRef) -> OSStatus {
    guard let identities = cmsObjects(signerOrArray, SecIdentity.self) else { return errSecParam }
    return configure(cmsEncoder) {
        $0.signers += identities
        return errSecSuccess
    }
}

/// Apple's `CMSEncoderCopySigners`: nil when none were added.
public func CMSEncoderCopySigners(_ cmsEncoder: CMSEncoder, _ signersOut: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    let signers = cmsEncoder.state.withLock { $0.signers }
    signersOut.pointee = signers.isEmpty ? nil : signers as NSArray
    return errSecSuccess
}

/// Apple's `CMSEncoderAddRecipients`: a `SecCertificate` or an array of them; the message is then encrypted.
public func CMSEncoderAddRecipients(_ cmsEncoder: CMSEncoder, _ recipientOrArray: CFTypeRef) -> OSStatus {
    guard let certificates = cmsObjects(recipientOrArray, SecCertificate.self) else { return errSecParam }
    return configure(cmsEncoder) {
        $0.recipients += certificates
        return errSecSuccess
    }
}

/// Apple's `CMSEncoderCopyRecipients`: nil when none were added.
public func CMSEncoderCopyRecipients(
    _ cmsEncoder: CMSEncoder, _ recipientsOut: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    let recipients = cmsEncoder.state.withLock { $0.recipients }
    recipientsOut.pointee = recipients.isEmpty ? nil : recipients as NSArray
    return errSecSuccess
}

/// Apple's `CMSEncoderSetHasDetachedContent`: the signed message leaves the content out.
public func CMSEncoderSetHasDetachedContent(_ cmsEncoder: CMSEncoder, _ detachedContent: Bool) -> OSStatus {
    configure(cmsEncoder) {
        $0.detached = detachedContent
        return errSecSuccess
    }
}

/// Apple's `CMSEncoderGetHasDetachedContent`.
public func CMSEncoderGetHasDetachedContent(
    _ cmsEncoder: CMSEncoder, _ detachedContentOut: UnsafeMutablePointer<DarwinBoolean>
) -> OSStatus {
    detachedContentOut.pointee = DarwinBoolean(cmsEncoder.state.withLock { $0.detached })
    return errSecSuccess
}

/// An OID given as Apple's API takes one: a `CFString` in dotted form ("1.2.840.113549.1.7.1") or a `CFData` of
/// the OID's content octets (no tag or length).
func cmsObjectIdentifier(_ value: CFTypeRef) -> ASN1ObjectIdentifier? {
    if let string = value as? NSString { return try? ASN1ObjectIdentifier(dotted: string as String) }
    if let data = value as? NSData {
        let bytes = data.byteArray
        // A full DER encoding (tag 06) is accepted too when it parses as exactly one OID.
        if bytes.first == 0x06, let full = try? ASN1ObjectIdentifier(derEncoded: DER.parse(bytes)) { return full }
        return try? ASN1ObjectIdentifier(contentBytes: bytes[...])
    }
    return nil
}

/// Apple's `CMSEncoderSetEncapsulatedContentTypeOID`: eContentType as a dotted `CFString` or a `CFData` of the
/// OID's content octets. Anything else, or a malformed OID, is errSecParam.
public func CMSEncoderSetEncapsulatedContentTypeOID(_ cmsEncoder: CMSEncoder, _ eContentTypeOID: CFTypeRef) -> OSStatus
{
    guard let oid = cmsObjectIdentifier(eContentTypeOID) else { return errSecParam }
    return configure(cmsEncoder) {
        $0.contentType = oid
        return errSecSuccess
    }
}

/// Apple's `CMSEncoderCopyEncapsulatedContentType`: the OID's content octets, nil when not set (id-data).
public func CMSEncoderCopyEncapsulatedContentType(
    _ cmsEncoder: CMSEncoder, _ eContentTypeOut: UnsafeMutablePointer<CFData?>
) -> OSStatus {
    let oid = cmsEncoder.state.withLock { $0.contentType }
    eContentTypeOut.pointee = oid.map { Data($0.contentBytes) as NSData }
    return errSecSuccess
}

/// Apple's `CMSEncoderAddSupportingCerts`: extra certificates for the message (a certificate or an array).
public func CMSEncoderAddSupportingCerts(_ cmsEncoder: CMSEncoder, _ certOrArray: CFTypeRef) -> OSStatus {
    guard let certificates = cmsObjects(certOrArray, SecCertificate.self) else { return errSecParam }
    return configure(cmsEncoder) {
        $0.supportingCertificates += certificates
        return errSecSuccess
    }
}

/// Apple's `CMSEncoderCopySupportingCerts`: nil when none were added.
public func CMSEncoderCopySupportingCerts(
    _ cmsEncoder: CMSEncoder, _ certsOut: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    let certificates = cmsEncoder.state.withLock { $0.supportingCertificates }
    certsOut.pointee = certificates.isEmpty ? nil : certificates as NSArray
    return errSecSuccess
}

/// Apple's `CMSEncoderAddSignedAttributes`: adds to the optional signed attributes.
public func CMSEncoderAddSignedAttributes(_ cmsEncoder: CMSEncoder, _ signedAttributes: CMSSignedAttributes) -> OSStatus
{
    configure(cmsEncoder) {
        $0.attributes.formUnion(signedAttributes)
        return errSecSuccess
    }
}

/// Apple's `CMSEncoderSetCertificateChainMode`.
public func CMSEncoderSetCertificateChainMode(
    _ cmsEncoder: CMSEncoder, _ chainMode: CMSCertificateChainMode
) -> OSStatus {
    configure(cmsEncoder) {
        $0.chainMode = chainMode
        return errSecSuccess
    }
}

/// Apple's `CMSEncoderGetCertificateChainMode`.
public func CMSEncoderGetCertificateChainMode(
    _ cmsEncoder: CMSEncoder, _ chainModeOut: UnsafeMutablePointer<CMSCertificateChainMode>
) -> OSStatus {
    chainModeOut.pointee = cmsEncoder.state.withLock { $0.chainMode }
    return errSecSuccess
}

/// Apple's `CMSEncoderSetSignerAlgorithm`: `kCMSEncoderDigestAlgorithmSHA1` (the default) or
/// `kCMSEncoderDigestAlgorithmSHA256`; any other string is errSecParam.
public func CMSEncoderSetSignerAlgorithm(_ cmsEncoder: CMSEncoder, _ digestAlgorithm: CFString) -> OSStatus {
    let digest: DigestAlgorithm
    if digestAlgorithm.isEqual(kCMSEncoderDigestAlgorithmSHA1) {
        digest = .sha1
    } else if digestAlgorithm.isEqual(kCMSEncoderDigestAlgorithmSHA256) {
        digest = .sha256
    } else {
        return errSecParam
    }
    return configure(cmsEncoder) {
        $0.digest = digest
        return errSecSuccess
    }
}

// MARK: - Encoding

/// Apple's `CMSEncoderUpdateContent`: appends content bytes. The configuration is fixed from here on.
public func CMSEncoderUpdateContent(
    _ cmsEncoder: CMSEncoder, _ content: UnsafeRawPointer, _ contentLen: Int
) -> OSStatus {
    guard contentLen >= 0 else { return errSecParam }
    let bytes = contentLen == 0 ? Data() : Data(bytes: content, count: contentLen)
    return cmsEncoder.state.withLock { state in
        guard state.encoded == nil else { return errSecParam }
        guard state.content.count + bytes.count <= CMSLimits.maximumMessageSize else { return errSecAllocate }
        state.started = true
        state.content.append(contentsOf: bytes)
        return errSecSuccess
    }
}

/// Apple's `CMSEncoderCopyEncodedContent`: finishes the message. Without signers and recipients the result is a
/// certificates-only SignedData when supporting certificates were added, else errSecParam.
public func CMSEncoderCopyEncodedContent(
    _ cmsEncoder: CMSEncoder, _ encodedContentOut: UnsafeMutablePointer<CFData?>
) -> OSStatus {
    let snapshot = cmsEncoder.state.withLock { state -> CMSEncoder.State in
        state.started = true
        return state
    }
    if let encoded = snapshot.encoded {
        encodedContentOut.pointee = encoded as NSData
        return errSecSuccess
    }
    do {
        let encoded = Data(try CMSEncoding.encode(snapshot))
        cmsEncoder.state.withLock { $0.encoded = encoded }
        encodedContentOut.pointee = encoded as NSData
        return errSecSuccess
    } catch {
        return SecError(translating: error, context: "CMSEncoderCopyEncodedContent").status
    }
}

/// Apple's `CMSEncodeContent`: the one-shot form (signers and recipients as for the encoder; either may be nil).
public func CMSEncodeContent(
    _ signers: CFTypeRef?, _ recipients: CFTypeRef?, _ eContentTypeOID: CFTypeRef?, _ detachedContent: Bool,
    _ signedAttributes: CMSSignedAttributes, _ content: UnsafeRawPointer, _ contentLen: Int,
    _ encodedContentOut: UnsafeMutablePointer<CFData?>?
) -> OSStatus {
    let encoder = CMSEncoder()
    if let signers {
        let status = CMSEncoderAddSigners(encoder, signers)
        guard status == errSecSuccess else { return status }
    }
    if let recipients {
        let status = CMSEncoderAddRecipients(encoder, recipients)
        guard status == errSecSuccess else { return status }
    }
    if let eContentTypeOID {
        let status = CMSEncoderSetEncapsulatedContentTypeOID(encoder, eContentTypeOID)
        guard status == errSecSuccess else { return status }
    }
    _ = CMSEncoderSetHasDetachedContent(encoder, detachedContent)
    _ = CMSEncoderAddSignedAttributes(encoder, signedAttributes)
    let update = CMSEncoderUpdateContent(encoder, content, contentLen)
    guard update == errSecSuccess else { return update }
    var encoded: CFData?
    let status = CMSEncoderCopyEncodedContent(encoder, &encoded)
    guard status == errSecSuccess else { return status }
    encodedContentOut?.pointee = encoded
    return errSecSuccess
}

/// Apple's `CMSEncoderCopySignerTimestamp`: we never request RFC 3161 timestamps, so there is none
/// (errSecTimestampMissing), and errSecParam for an index without a signer.
public func CMSEncoderCopySignerTimestamp(
    _ cmsEncoder: CMSEncoder, _ signerIndex: Int, _ timestamp: UnsafeMutablePointer<CFAbsoluteTime>
) -> OSStatus {
    let count = cmsEncoder.state.withLock { $0.signers.count }
    return (0..<count).contains(signerIndex) ? errSecTimestampMissing : errSecParam
}

/// Apple's `CMSEncoderCopySignerTimestampWithPolicy`: as `CMSEncoderCopySignerTimestamp`.
public func CMSEncoderCopySignerTimestampWithPolicy(
    _ cmsEncoder: CMSEncoder, _ timeStampPolicy: CFTypeRef?, _ signerIndex: Int,
    _ timestamp: UnsafeMutablePointer<CFAbsoluteTime>
) -> OSStatus {
    CMSEncoderCopySignerTimestamp(cmsEncoder, signerIndex, timestamp)
}

// MARK: - Apple's code-signing attributes and NSS accessors

/// Apple's `CMSEncoderSetAppleCodesigningHashAgility`: the hash agility attribute's value (a property list's
/// bytes), written as a signed attribute of every signer (it adds `.attrAppleCodesigningHashAgility`).
public func CMSEncoderSetAppleCodesigningHashAgility(
    _ cmsEncoder: CMSEncoder, _ hashAgilityAttrValue: CFData
) -> OSStatus {
    let value = [UInt8]((hashAgilityAttrValue as NSData).swiftData)
    return configure(cmsEncoder) {
        $0.hashAgility = value
        $0.attributes.insert(.attrAppleCodesigningHashAgility)
        return errSecSuccess
    }
}

/// The digests of Apple's hash agility V2 dictionaries, by their `SECOidTag` numbers.
enum CMSOidTag {
    static let digests: [(tag: Int, digest: DigestAlgorithm)] = [
        (4, .sha1), (191, .sha224), (192, .sha256), (193, .sha384), (194, .sha512),
    ]
}

/// Apple's `CMSEncoderSetAppleCodesigningHashAgilityV2`: a dictionary from a digest's `SECOidTag` (a CFNumber:
/// 4 SHA-1, 191 SHA-224, 192 SHA-256, 193 SHA-384, 194 SHA-512) to that digest (CFData); anything else is
/// errSecParam.
public func CMSEncoderSetAppleCodesigningHashAgilityV2(
    _ cmsEncoder: CMSEncoder, _ hashAgilityV2AttrValues: CFDictionary
) -> OSStatus {
    var entries: [(Int, DigestAlgorithm, [UInt8])] = []
    for (key, value) in hashAgilityV2AttrValues as NSDictionary {
        guard let tag = AttributeDictionary.intValue(key),
            let digest = CMSOidTag.digests.first(where: { $0.tag == tag })?.digest,
            let bytes = AttributeDictionary.dataValue(value)
        else { return errSecParam }
        entries.append((tag, digest, [UInt8](bytes)))
    }
    let values = entries.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
    return configure(cmsEncoder) {
        $0.hashAgilityV2 = values
        $0.attributes.insert(.attrAppleCodesigningHashAgilityV2)
        return errSecSuccess
    }
}

/// Apple's `CMSEncoderSetAppleExpirationTime`: the expiration time attribute (it adds `.attrAppleExpirationTime`).
public func CMSEncoderSetAppleExpirationTime(_ cmsEncoder: CMSEncoder, _ time: CFAbsoluteTime) -> OSStatus {
    let seconds = (time + Date.timeIntervalBetween1970AndReferenceDate).rounded(.down)
    guard seconds.isFinite, let value = Int64(exactly: seconds) else { return errSecParam }
    return configure(cmsEncoder) {
        $0.expirationTime = value
        $0.attributes.insert(.attrAppleExpirationTime)
        return errSecSuccess
    }
}

/// Apple's deprecated `CMSEncoderSetEncapsulatedContentType`: the eContentType as a `SecAsn1Oid` (the OID's
/// content octets), as `CMSEncoderSetEncapsulatedContentTypeOID` with a CFData.
public func CMSEncoderSetEncapsulatedContentType(
    _ cmsEncoder: CMSEncoder, _ eContentType: UnsafePointer<SecAsn1Oid>
) -> OSStatus {
    let oid = eContentType.pointee
    guard oid.Length > 0, let bytes = oid.Data else { return errSecParam }
    return CMSEncoderSetEncapsulatedContentTypeOID(
        cmsEncoder, Foundation.Data(bytes: bytes, count: oid.Length) as NSData)
}

/// The handles `CMSEncoderGetCmsMessage`/`GetEncoder` and `CMSDecoderGetCmsMessage`/`GetDecoder` give out:
/// opaque tokens for the encoder or decoder (Apple's are NSS objects no public function takes).
enum CMSHandles {
    static let encoders = OpaqueHandleTable<CMSEncoder>(tag: 0x4D)
    static let decoders = OpaqueHandleTable<CMSDecoder>(tag: 0x4E)
}

/// The message handle of an encoder with signers or recipients; from then on its configuration is fixed, as
/// Apple's encoder leaves its initial state (errSecParam when there is neither signer nor recipient).
private func cmsEncoderHandle(_ encoder: CMSEncoder, _ out: UnsafeMutablePointer<OpaquePointer?>) -> OSStatus {
    let ready = encoder.state.withLock { state -> Bool in
        guard !state.signers.isEmpty || !state.recipients.isEmpty else { return false }
        state.started = true
        return true
    }
    guard ready else { return errSecParam }
    out.pointee = CMSHandles.encoders.insert(encoder)
    return errSecSuccess
}

/// Apple's deprecated `CMSEncoderGetCmsMessage`: an opaque handle of the message being built (no public function
/// takes it); the encoder's configuration is fixed from then on.
public func CMSEncoderGetCmsMessage(
    _ cmsEncoder: CMSEncoder, _ cmsMessage: UnsafeMutablePointer<SecCmsMessageRef?>
) -> OSStatus {
    cmsEncoderHandle(cmsEncoder, cmsMessage)
}

/// Apple's deprecated `CMSEncoderGetEncoder`: an opaque handle of the encoder (as `CMSEncoderGetCmsMessage`).
public func CMSEncoderGetEncoder(
    _ cmsEncoder: CMSEncoder, _ encoderOut: UnsafeMutablePointer<SecCmsEncoderRef?>
) -> OSStatus {
    cmsEncoderHandle(cmsEncoder, encoderOut)
}
