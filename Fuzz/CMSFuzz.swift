// libFuzzer target for CMS decoding: CMSMessage.parse (DER and BER ContentInfo, SignedData, EnvelopedData,
// AuthEnvelopedData), signer verification with and without detached content, the signed attributes' accessors and
// re-encoding as DER. Built by `Fuzz/fuzz.sh cms`.
import Foundation
import OSecCMS

@_cdecl("LLVMFuzzerTestOneInput")
public func cmsFuzzTestOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](Data(bytes: start, count: count))
    do {
        switch try CMSMessage.parse(bytes) {
        case .signedData(let signed):
            for index in signed.signers.indices {
                _ = signed.verify(signerAt: index)
                _ = signed.verify(signerAt: index, detachedContent: [0x61])
                let signer = signed.signers[index]
                _ = try? signer.signingTime()
                _ = try? signer.messageDigestAttribute()
                _ = try? signer.contentTypeAttribute()
            }
            _ = try? signed.contentInfoDER()
        case .envelopedData(let enveloped), .authEnvelopedData(let enveloped):
            _ = try? enveloped.decrypt(with: [])
        case .data(let content):
            _ = content.count
        }
    } catch {
        // Every error must be a CMSError with a known code; anything else is a bug.
        switch error.code {
        case .malformed, .unsupportedAlgorithm, .resourceLimit: break
        default: fatalError("unexpected CMS error: \(error)")
        }
    }
    return 0
}
