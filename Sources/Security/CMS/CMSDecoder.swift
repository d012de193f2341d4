import Foundation
import OSecASN1
import OSecCMS
import OSecSystem
import OSecX509

/// Apple's `CMSDecoder`: takes a CMS message in pieces, decodes it at `CMSDecoderFinalizeMessage` (decrypting an
/// enveloped message with a keychain identity) and answers questions about its signers and content.
///
/// Thread-safe: the state lives behind a mutex.
public final class CMSDecoder: NSObject, @unchecked Sendable {
    // @unchecked: all mutable state is inside `state` (a Mutex).
    struct State {
        var bytes: [UInt8] = []
        var finalized = false
        var detachedContent: [UInt8]? = nil
        /// Identities tried before the keychain's for an enveloped message (``OpenSecurityCMS``).
        var decryptionIdentities: [SecIdentity] = []
        /// The decoded message (after FinalizeMessage).
        var decoded: CMSDecoded? = nil
    }

    let state = LockedValue(State())

    override init() { super.init() }

    public override var description: String {
        "<CMSDecoder \(String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16))>"
    }

    /// The decoded message, or nil before a successful `CMSDecoderFinalizeMessage`.
    var decoded: CMSDecoded? { state.withLock { $0.decoded } }
}

/// What a finished decoder knows.
struct CMSDecoded: Sendable {
    /// The SignedData, if the message (or its decrypted content) is one.
    var signedData: SignedData?
    /// The innermost content octets (nil for a detached signature).
    var content: [UInt8]?
    /// The innermost content type.
    var contentType: ASN1ObjectIdentifier
    /// Whether the message was encrypted.
    var encrypted: Bool
}

/// Apple's `CMSDecoderCreate`.
public func CMSDecoderCreate(_ cmsDecoderOut: UnsafeMutablePointer<CMSDecoder?>) -> OSStatus {
    cmsDecoderOut.pointee = CMSDecoder()
    return errSecSuccess
}

/// Apple's `CMSDecoderUpdateMessage`: appends message bytes. A first byte that cannot start a ContentInfo (a
/// SEQUENCE), or more bytes than `CMSLimits.maximumMessageSize`, is errSecUnknownFormat; after
/// FinalizeMessage, errSecParam.
public func CMSDecoderUpdateMessage(
    _ cmsDecoder: CMSDecoder, _ msgBytes: UnsafeRawPointer, _ msgBytesLen: Int
) -> OSStatus {
    guard msgBytesLen >= 0 else { return errSecParam }
    let bytes = msgBytesLen == 0 ? Data() : Data(bytes: msgBytes, count: msgBytesLen)
    return cmsDecoder.state.withLock { state in
        guard !state.finalized else { return errSecParam }
        guard state.bytes.count + bytes.count <= CMSLimits.maximumMessageSize else { return errSecUnknownFormat }
        if state.bytes.isEmpty, let first = bytes.first, first != 0x30 { return errSecUnknownFormat }
        state.bytes.append(contentsOf: bytes)
        return errSecSuccess
    }
}

/// Apple's `CMSDecoderFinalizeMessage`: decodes the message. Malformed or unsupported input is
/// errSecUnknownFormat; an enveloped message for which no keychain identity is a recipient is errSecItemNotFound.
public func CMSDecoderFinalizeMessage(_ cmsDecoder: CMSDecoder) -> OSStatus {
    let input: ([UInt8], [SecIdentity])? = cmsDecoder.state.withLock { state in
        guard !state.finalized else { return nil }
        state.finalized = true
        return (state.bytes, state.decryptionIdentities)
    }
    guard let (bytes, identities) = input else { return errSecParam }
    do {
        let decoded = try CMSDecoding.decode(bytes, identities: identities)
        cmsDecoder.state.withLock {
            $0.decoded = decoded
            $0.bytes = []
        }
        return errSecSuccess
    } catch {
        return SecError(translating: error, context: "CMSDecoderFinalizeMessage").status
    }
}

/// Apple's `CMSDecoderSetDetachedContent`: the content a detached signature covers.
public func CMSDecoderSetDetachedContent(_ cmsDecoder: CMSDecoder, _ detachedContent: CFData) -> OSStatus {
    let bytes = detachedContent.byteArray
    cmsDecoder.state.withLock { $0.detachedContent = bytes }
    return errSecSuccess
}

/// Apple's `CMSDecoderCopyDetachedContent`: nil when none was set.
public func CMSDecoderCopyDetachedContent(
    _ cmsDecoder: CMSDecoder, _ detachedContentOut: UnsafeMutablePointer<CFData?>
) -> OSStatus {
    detachedContentOut.pointee = cmsDecoder.state.withLock { $0.detachedContent.map { Data($0) as NSData } }
    return errSecSuccess
}

/// Apple's deprecated `CMSDecoderSetSearchKeychain`: accepted and ignored (the default keychain search list is
/// always used; see docs/differences-from-apple.md).
public func CMSDecoderSetSearchKeychain(_ cmsDecoder: CMSDecoder, _ keychainOrArray: CFTypeRef) -> OSStatus {
    errSecSuccess
}

/// The decoded message, or errSecParam before FinalizeMessage (as Apple).
private func finished(_ decoder: CMSDecoder) throws -> CMSDecoded {
    guard let decoded = decoder.decoded else { throw SecError.param("the message has not been finalized") }
    return decoded
}

/// Apple's `CMSDecoderGetNumSigners`: 0 for an unsigned message.
public func CMSDecoderGetNumSigners(_ cmsDecoder: CMSDecoder, _ numSignersOut: UnsafeMutablePointer<Int>) -> OSStatus {
    withOSStatus {
        numSignersOut.pointee = try finished(cmsDecoder).signedData?.signers.count ?? 0
    }
}

/// Apple's `CMSDecoderCopySignerStatus`: checks signer `signerIndex`'s signature over the content (or the detached
/// content) and, with `evaluateSecTrust`, its certificate with a `SecTrust` of `policyOrArray` (a `SecPolicy` or
/// an array of them) over the message's certificates. Reports `.invalidIndex` for an index without a signer.
/// `certVerifyResultCodeOut` gets errSecSuccess or the trust evaluation's OSStatus.
public func CMSDecoderCopySignerStatus(
    _ cmsDecoder: CMSDecoder, _ signerIndex: Int, _ policyOrArray: CFTypeRef, _ evaluateSecTrust: Bool,
    _ signerStatusOut: UnsafeMutablePointer<CMSSignerStatus>?, _ secTrustOut: UnsafeMutablePointer<SecTrust?>?,
    _ certVerifyResultCodeOut: UnsafeMutablePointer<OSStatus>?
) -> OSStatus {
    guard let decoded = cmsDecoder.decoded else { return errSecParam }
    guard let policies = trustPolicies(policyOrArray) else { return errSecParam }
    let detached = cmsDecoder.state.withLock { $0.detachedContent }
    let report = CMSDecoding.signerStatus(
        decoded, index: signerIndex, policies: policies, evaluate: evaluateSecTrust, detachedContent: detached)
    signerStatusOut?.pointee = report.status
    secTrustOut?.pointee = report.trust
    certVerifyResultCodeOut?.pointee = report.certificateResult
    return errSecSuccess
}

/// Apple's `CMSDecoderCopySignerEmailAddress`: the signer certificate's first rfc822Name subjectAltName, else its
/// subject emailAddress; nil when it has neither.
public func CMSDecoderCopySignerEmailAddress(
    _ cmsDecoder: CMSDecoder, _ signerIndex: Int, _ signerEmailAddressOut: UnsafeMutablePointer<CFString?>
) -> OSStatus {
    withOSStatus {
        let certificate = try CMSDecoding.signerCertificate(try finished(cmsDecoder), signerIndex)
        signerEmailAddressOut.pointee = CMSDecoding.emailAddress(certificate).map { $0 as NSString }
    }
}

/// Apple's `CMSDecoderCopySignerCert`: the certificate signer `signerIndex` names (errSecParam for a bad index,
/// errSecItemNotFound when the message does not carry it).
public func CMSDecoderCopySignerCert(
    _ cmsDecoder: CMSDecoder, _ signerIndex: Int, _ signerCertOut: UnsafeMutablePointer<SecCertificate?>
) -> OSStatus {
    withOSStatus {
        signerCertOut.pointee = SecCertificate(try CMSDecoding.signerCertificate(try finished(cmsDecoder), signerIndex))
    }
}

/// Apple's `CMSDecoderIsContentEncrypted`.
public func CMSDecoderIsContentEncrypted(
    _ cmsDecoder: CMSDecoder, _ isEncryptedOut: UnsafeMutablePointer<DarwinBoolean>
) -> OSStatus {
    withOSStatus { isEncryptedOut.pointee = DarwinBoolean(try finished(cmsDecoder).encrypted) }
}

/// Apple's `CMSDecoderCopyEncapsulatedContentType`: the innermost content type's OID content octets.
public func CMSDecoderCopyEncapsulatedContentType(
    _ cmsDecoder: CMSDecoder, _ eContentTypeOut: UnsafeMutablePointer<CFData?>
) -> OSStatus {
    withOSStatus { eContentTypeOut.pointee = Data(try finished(cmsDecoder).contentType.contentBytes) as NSData }
}

/// Apple's `CMSDecoderCopyAllCerts`: every certificate in the message, nil when there are none.
public func CMSDecoderCopyAllCerts(_ cmsDecoder: CMSDecoder, _ certsOut: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    withOSStatus {
        let certificates = try finished(cmsDecoder).signedData?.certificates ?? []
        certsOut.pointee = certificates.isEmpty ? nil : certificates.map { SecCertificate($0) } as NSArray
    }
}

/// Apple's `CMSDecoderCopyContent`: the content, nil for a detached signature.
public func CMSDecoderCopyContent(_ cmsDecoder: CMSDecoder, _ contentOut: UnsafeMutablePointer<CFData?>) -> OSStatus {
    withOSStatus { contentOut.pointee = try finished(cmsDecoder).content.map { Data($0) as NSData } }
}

/// Apple's `CMSDecoderCopySignerSigningTime`: errSecSigningTimeMissing when the signer has no signing-time attribute.
public func CMSDecoderCopySignerSigningTime(
    _ cmsDecoder: CMSDecoder, _ signerIndex: Int, _ signingTime: UnsafeMutablePointer<CFAbsoluteTime>
) -> OSStatus {
    withOSStatus {
        let signer = try CMSDecoding.signer(try finished(cmsDecoder), signerIndex)
        guard let seconds = try? signer.signingTime() else {
            throw SecError(errSecSigningTimeMissing, "the signer has no signing time")
        }
        signingTime.pointee = Double(seconds) - Date.timeIntervalBetween1970AndReferenceDate
    }
}

/// Apple's `CMSDecoderCopySignerTimestamp`: RFC 3161 timestamps are not read here (errSecTimestampMissing).
public func CMSDecoderCopySignerTimestamp(
    _ cmsDecoder: CMSDecoder, _ signerIndex: Int, _ timestamp: UnsafeMutablePointer<CFAbsoluteTime>
) -> OSStatus {
    withOSStatus {
        _ = try CMSDecoding.signer(try finished(cmsDecoder), signerIndex)
        throw SecError(errSecTimestampMissing, "timestamps are not read")
    }
}

/// Apple's `CMSDecoderCopySignerTimestampWithPolicy`: as `CMSDecoderCopySignerTimestamp`.
public func CMSDecoderCopySignerTimestampWithPolicy(
    _ cmsDecoder: CMSDecoder, _ timeStampPolicy: CFTypeRef?, _ signerIndex: Int,
    _ timestamp: UnsafeMutablePointer<CFAbsoluteTime>
) -> OSStatus {
    CMSDecoderCopySignerTimestamp(cmsDecoder, signerIndex, timestamp)
}

/// Apple's `CMSDecoderCopySignerTimestampCertificates`: nil (no timestamps are read).
public func CMSDecoderCopySignerTimestampCertificates(
    _ cmsDecoder: CMSDecoder, _ signerIndex: Int, _ certificateRefs: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    withOSStatus {
        _ = try CMSDecoding.signer(try finished(cmsDecoder), signerIndex)
        certificateRefs.pointee = nil
    }
}

// MARK: - Apple's code-signing attributes and NSS accessors

/// Apple's `CMSDecoderCopySignerAppleCodesigningHashAgility`: the signer's hash agility value, nil when it has
/// none (errSecParam for a signer index out of range or an unsigned message).
public func CMSDecoderCopySignerAppleCodesigningHashAgility(
    _ cmsDecoder: CMSDecoder, _ signerIndex: Int, _ hashAgilityAttrValue: UnsafeMutablePointer<CFData?>
) -> OSStatus {
    withOSStatus {
        hashAgilityAttrValue.pointee = nil
        let signer = try CMSDecoding.signer(try finished(cmsDecoder), signerIndex)
        hashAgilityAttrValue.pointee = try signer.appleHashAgility().map { Data($0) as NSData }
    }
}

/// Apple's `CMSDecoderCopySignerAppleCodesigningHashAgilityV2`: the signer's hash agility V2 values as a
/// dictionary from the digest's `SECOidTag` (CFNumber) to the digest (CFData), nil when it has none.
public func CMSDecoderCopySignerAppleCodesigningHashAgilityV2(
    _ cmsDecoder: CMSDecoder, _ signerIndex: Int, _ hashAgilityAttrValues: UnsafeMutablePointer<CFDictionary?>
) -> OSStatus {
    withOSStatus {
        hashAgilityAttrValues.pointee = nil
        let signer = try CMSDecoding.signer(try finished(cmsDecoder), signerIndex)
        guard let values = try signer.appleHashAgilityV2() else { return }
        let result = NSMutableDictionary()
        for (oid, digest) in values {
            guard let tag = CMSOidTag.digests.first(where: { CMSDigest.oid($0.digest) == oid })?.tag else { continue }
            result[NSNumber(value: tag)] = Data(digest) as NSData
        }
        hashAgilityAttrValues.pointee = result
    }
}

/// Apple's `CMSDecoderCopySignerAppleExpirationTime`: the signer's expiration time; errSecParam when it has none
/// (or for a signer index out of range).
public func CMSDecoderCopySignerAppleExpirationTime(
    _ cmsDecoder: CMSDecoder, _ signerIndex: Int, _ expirationTime: UnsafeMutablePointer<CFAbsoluteTime>
) -> OSStatus {
    withOSStatus {
        let signer = try CMSDecoding.signer(try finished(cmsDecoder), signerIndex)
        guard let seconds = try signer.appleExpirationTime() else {
            throw SecError.param("the signer has no expiration time")
        }
        expirationTime.pointee = Double(seconds) - Date.timeIntervalBetween1970AndReferenceDate
    }
}

/// Apple's deprecated `CMSDecoderGetCmsMessage`: an opaque handle of the decoded message after
/// `CMSDecoderFinalizeMessage` (no public function takes it), nil before.
public func CMSDecoderGetCmsMessage(
    _ cmsDecoder: CMSDecoder, _ cmsMessage: UnsafeMutablePointer<SecCmsMessageRef?>
) -> OSStatus {
    cmsMessage.pointee = cmsDecoder.decoded == nil ? nil : CMSHandles.decoders.insert(cmsDecoder)
    return errSecSuccess
}

/// Apple's deprecated `CMSDecoderGetDecoder`: an opaque handle of the decoder while a message is being fed in
/// (after `CMSDecoderUpdateMessage`, before `CMSDecoderFinalizeMessage`), nil otherwise, as Apple's decoder is
/// released at finalization.
public func CMSDecoderGetDecoder(
    _ cmsDecoder: CMSDecoder, _ decoderOut: UnsafeMutablePointer<SecCmsDecoderRef?>
) -> OSStatus {
    let decoding = cmsDecoder.state.withLock { !$0.bytes.isEmpty && !$0.finalized }
    decoderOut.pointee = decoding ? CMSHandles.decoders.insert(cmsDecoder) : nil
    return errSecSuccess
}
