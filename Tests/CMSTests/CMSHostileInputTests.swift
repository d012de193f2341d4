import Foundation
import OSecASN1
import OSecCMS
import Security
import Testing

/// Malformed, mis-tagged, truncated, oversized and deeply nested messages: a clear error, never a crash.
struct CMSHostileInputTests {
    /// DER header + content for a constructed or primitive node.
    static func node(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8]
        if content.count < 0x80 {
            length = [UInt8(content.count)]
        } else {
            var bytes: [UInt8] = []
            var rest = content.count
            while rest > 0 {
                bytes.insert(UInt8(rest & 0xFF), at: 0)
                rest >>= 8
            }
            length = [0x80 | UInt8(bytes.count)] + bytes
        }
        return [tag] + length + content
    }

    static let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    static let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]

    /// A SignedData ContentInfo around `signerInfos` (the SET's elements).
    static func signedData(signerInfos: [[UInt8]]) -> [UInt8] {
        let encapsulated = node(0x30, dataOID + node(0xA0, node(0x04, Array("x".utf8))))
        let body = node(0x02, [1]) + node(0x31, []) + encapsulated + node(0x31, signerInfos.flatMap { $0 })
        return node(0x30, signedDataOID + node(0xA0, node(0x30, body)))
    }

    static func decoderStatus(_ bytes: [UInt8]) -> OSStatus { CMS.decode(Data(bytes)).1 }

    @Test func emptyAndGarbageAreUnknownFormat() {
        #expect(Self.decoderStatus([]) == errSecUnknownFormat)
        #expect(Self.decoderStatus([0x04, 0x01, 0x00]) == errSecUnknownFormat)
        #expect(Self.decoderStatus(Array("not a CMS message".utf8)) == errSecUnknownFormat)
    }

    @Test func truncatedMessagesAreUnknownFormat() {
        let message = Self.signedData(signerInfos: [])
        for length in [1, 2, 5, message.count / 2, message.count - 1] {
            #expect(Self.decoderStatus(Array(message.prefix(length))) == errSecUnknownFormat, "length \(length)")
        }
        #expect(Self.decoderStatus(message) == errSecSuccess)
    }

    @Test func misTaggedFieldsAreUnknownFormat() {
        var message = Self.signedData(signerInfos: [])
        // The [0] EXPLICIT content tag replaced by [1].
        if let index = message.firstIndex(of: 0xA0) { message[index] = 0xA1 }
        #expect(Self.decoderStatus(message) == errSecUnknownFormat)
        // An unknown content type.
        var unknown = Self.signedData(signerInfos: [])
        unknown[12] = 0x09  // 1.2.840.113549.1.7.9
        #expect(Self.decoderStatus(unknown) == errSecUnknownFormat)
        // A SignerInfo that is an INTEGER.
        #expect(Self.decoderStatus(Self.signedData(signerInfos: [Self.node(0x02, [1])])) == errSecUnknownFormat)
    }

    @Test func deeplyNestedInputIsRefused() {
        var nested: [UInt8] = [0x05, 0x00]
        for _ in 0..<200 { nested = [0x30, 0x80] + nested + [0x00, 0x00] }
        #expect(Self.decoderStatus(nested) == errSecUnknownFormat)
        #expect(throws: CMSError.self) { try CMSMessage.parse(nested) }
    }

    @Test func tooManySignersIsAResourceLimit() throws {
        let signer = Self.node(0x30, Self.node(0x02, [1]))
        let message = Self.signedData(signerInfos: Array(repeating: signer, count: CMSLimits.maximumSignerCount + 1))
        do {
            _ = try CMSMessage.parse(message)
            Issue.record("parsed a message with too many signers")
        } catch {
            #expect(error.code == .resourceLimit)
        }
        #expect(Self.decoderStatus(message) == errSecUnknownFormat)
    }

    @Test func oversizedInputIsRefusedBeforeParsing() {
        let big = [UInt8](repeating: 0x30, count: CMSLimits.maximumMessageSize + 1)
        do {
            _ = try CMSMessage.parse(big)
            Issue.record("parsed an oversized message")
        } catch {
            #expect(error.code == .resourceLimit)
        }
        var decoder: CMSDecoder?
        _ = CMSDecoderCreate(&decoder)
        if let decoder {
            #expect(CMSDecoderUpdateMessage(decoder, big, big.count) == errSecUnknownFormat)
        }
    }

    @Test func callsBeforeFinalizeAreParameterErrors() throws {
        var decoder: CMSDecoder?
        _ = CMSDecoderCreate(&decoder)
        let fresh = try #require(decoder)
        var count = 0
        #expect(CMSDecoderGetNumSigners(fresh, &count) == errSecParam)
        var content: CFData?
        #expect(CMSDecoderCopyContent(fresh, &content) == errSecParam)
        var status = CMSSignerStatus.valid
        #expect(
            CMSDecoderCopySignerStatus(fresh, 0, SecPolicyCreateBasicX509(), false, &status, nil, nil) == errSecParam)
    }

    @Test func anUnsignedSignedDataReportsNoSigners() throws {
        let decoder = try #require(CMS.decode(Data(Self.signedData(signerInfos: []))).0)
        var count = -1
        #expect(CMSDecoderGetNumSigners(decoder, &count) == errSecSuccess)
        #expect(count == 0)
        #expect(CMS.status(decoder) == .unsigned)
        var content: CFData?
        #expect(CMSDecoderCopyContent(decoder, &content) == errSecSuccess)
        #expect((content as Data?) == Data("x".utf8))
    }

    @Test func encoderRejectsBadParameters() throws {
        var encoder: CMSEncoder?
        _ = CMSEncoderCreate(&encoder)
        let fresh = try #require(encoder)
        #expect(CMSEncoderAddSigners(fresh, "not an identity" as NSString) == errSecParam)
        #expect(CMSEncoderAddRecipients(fresh, NSArray()) == errSecParam)
        #expect(CMSEncoderSetSignerAlgorithm(fresh, "md5" as NSString) == errSecParam)
        var encoded: CFData?
        #expect(CMSEncoderCopyEncodedContent(fresh, &encoded) == errSecParam)
        var mode = CMSCertificateChainMode.none
        #expect(CMSEncoderGetCertificateChainMode(fresh, &mode) == errSecSuccess)
        #expect(mode == .chain)
    }
}
