import Foundation
import Security

/// The legacy App Store receipt: an Apple-signed CMS SignedData carrying the receipt payload (an ASN.1 set of
/// receipt fields). Reads the payload and the signer's certificate, and judges the signature against the anchors
/// given (Apple's root CA certificate, as the receipt-validation guide says).
///
/// ```swift
/// let receipt = try AppStoreReceipt(data: receiptBytes)
/// guard receipt.signerStatus(anchors: [appleRootCA]) == .valid else { … }
/// parse(receipt.payload)
/// ```
public struct AppStoreReceipt: @unchecked Sendable {
    // @unchecked: the decoder is only read after FinalizeMessage; SecCertificate is immutable.
    private let decoder: CMSDecoder
    /// The receipt payload (the signed content).
    public let payload: Data
    /// The certificate of the (first) signer, when the receipt carries it.
    public let signerCertificate: SecCertificate?
    /// Every certificate in the receipt.
    public let certificates: [SecCertificate]

    /// Decodes a receipt (DER or BER).
    ///
    /// - Throws: errSecUnknownFormat for bytes that are not a signed CMS message, errSecDecode when it has no
    ///   content or no signer.
    public init(data: Data) throws(SecurityKitError) {
        var decoder: CMSDecoder?
        try check(CMSDecoderCreate(&decoder), "CMSDecoderCreate")
        guard let decoder else { throw SecurityKitError(errSecAllocate, reason: "CMSDecoderCreate") }
        let bytes = [UInt8](data)
        guard !bytes.isEmpty else { throw SecurityKitError(errSecUnknownFormat, reason: "empty receipt") }
        try check(CMSDecoderUpdateMessage(decoder, bytes, bytes.count), "CMSDecoderUpdateMessage")
        try check(CMSDecoderFinalizeMessage(decoder), "CMSDecoderFinalizeMessage")
        var signers = 0
        try check(CMSDecoderGetNumSigners(decoder, &signers), "CMSDecoderGetNumSigners")
        guard signers > 0 else { throw SecurityKitError(errSecDecode, reason: "the receipt is not signed") }
        var content: CFData?
        try check(CMSDecoderCopyContent(decoder, &content), "CMSDecoderCopyContent")
        guard let content else { throw SecurityKitError(errSecDecode, reason: "the receipt has no payload") }
        var certificate: SecCertificate?
        _ = CMSDecoderCopySignerCert(decoder, 0, &certificate)
        var all: CFArray?
        _ = CMSDecoderCopyAllCerts(decoder, &all)
        self.decoder = decoder
        self.payload = content as Data
        self.signerCertificate = certificate
        self.certificates = (all as? [AnyObject])?.compactMap { $0 as? SecCertificate } ?? []
    }

    /// The status of the first signer: the signature over the payload, and the signer's chain (the receipt's
    /// certificates) built to one of `anchors` only, at `date` (now when nil). `.valid`, `.invalidSignature`, or
    /// `.invalidCert` when the signature verifies but the chain does not reach an anchor.
    public func signerStatus(anchors: [SecCertificate], date: Date? = nil) -> CMSSignerStatus {
        var status = CMSSignerStatus.unsigned
        var trust: SecTrust?
        guard
            CMSDecoderCopySignerStatus(decoder, 0, SecPolicyCreateBasicX509(), false, &status, &trust, nil)
                == errSecSuccess
        else { return .invalidSignature }
        guard status == .valid, let trust else { return status }
        _ = SecTrustSetAnchorCertificates(trust, anchors as NSArray)
        if let date { _ = SecTrustSetVerifyDate(trust, date as NSDate) }
        return SecTrustEvaluateWithError(trust, nil) ? .valid : .invalidCert
    }
}
