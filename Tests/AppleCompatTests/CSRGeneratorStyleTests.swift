import Foundation
import Security
import Testing

// In the style of a CSR generator: a permanent key pair generated under application tags, the public key bits
// read back from the keychain with kSecReturnData, a PKCS#10 CertificationRequestInfo built by hand in DER and
// signed with SecKeyCreateSignature; the request is checked with SecKeyVerifySignature and by `openssl req -verify`.

enum CSRStyle {
    static let ecPublicKeyOID: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    static let prime256v1OID: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    static let ecdsaWithSHA256: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]
    static let commonNameOID: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x03]

    static func tlv(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] { [tag] + derLength(body.count) + body }

    static func certificationRequestInfo(commonName: String, publicKeyBits: Data) -> [UInt8] {
        let version = tlv(0x02, [0x00])
        let cn = tlv(0x30, commonNameOID + tlv(0x0C, [UInt8](commonName.utf8)))
        let subject = tlv(0x30, tlv(0x31, cn))
        let algorithm = tlv(0x30, ecPublicKeyOID + prime256v1OID)
        let spki = tlv(0x30, algorithm + tlv(0x03, [0x00] + [UInt8](publicKeyBits)))
        let attributes = tlv(0xA0, [])
        return tlv(0x30, version + subject + spki + attributes)
    }

    static func request(info: [UInt8], signature: Data) -> Data {
        Data(tlv(0x30, info + ecdsaWithSHA256 + tlv(0x03, [0x00] + [UInt8](signature))))
    }
}

@Suite struct CSRGeneratorStyleTests {
    init() { CompatEnvironment.isolated }

    static let hasOpenSSL = FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")

    @Test func requestFromAPermanentKeyPairVerifies() throws {
        let tagPrivate = CompatEnvironment.service("csr.private")
        let tagPublic = CompatEnvironment.service("csr.public")
        let accessControl = try #require(
            SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleAfterFirstUnlock, [], nil))
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true,
                kSecAttrApplicationTag as String: tagPrivate.data(using: .utf8)!,
                kSecAttrAccessControl as String: accessControl,
            ],
            kSecPublicKeyAttrs as String: [
                kSecAttrIsPermanent as String: true,
                kSecAttrApplicationTag as String: tagPublic.data(using: .utf8)!,
            ],
        ]
        var error: Unmanaged<CFError>?
        guard let privateKey = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else {
            throw error!.takeRetainedValue() as Error
        }
        // The public key bits, as CSR generators fetch them.
        let query: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tagPublic.data(using: .utf8)!,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecReturnData as String: true,
        ]
        var publicKeyBits: CFTypeRef?
        #expect(SecItemCopyMatching(query as CFDictionary, &publicKeyBits) == errSecSuccess)
        let bits = try #require(publicKeyBits as? Data)
        #expect(bits == SecKeyCopyExternalRepresentation(SecKeyCopyPublicKey(privateKey)!, nil) as Data?)
        // The private key is stored with its access control.
        let privateQuery: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tagPrivate.data(using: .utf8)!,
            kSecReturnAttributes as String: true, kSecReturnRef as String: true,
        ]
        var stored: CFTypeRef?
        #expect(SecItemCopyMatching(privateQuery as CFDictionary, &stored) == errSecSuccess)
        let storedAttributes = try #require(stored as? [String: Any])
        #expect(storedAttributes[kSecAttrAccessControl as String] as? SecAccessControl == accessControl)
        #expect(CFGetTypeID(storedAttributes[kSecValueRef as String] as AnyObject) == SecKeyGetTypeID())

        let info = CSRStyle.certificationRequestInfo(commonName: "csr.example", publicKeyBits: bits)
        guard
            let signature = SecKeyCreateSignature(
                privateKey, .ecdsaSignatureMessageX962SHA256, Data(info) as CFData, &error)
                as Data?
        else { throw error!.takeRetainedValue() as Error }
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        #expect(
            SecKeyVerifySignature(
                publicKey, .ecdsaSignatureMessageX962SHA256, Data(info) as CFData, signature as CFData, nil))
        let csr = CSRStyle.request(info: info, signature: signature)
        #expect(csr.first == 0x30)

        if CSRGeneratorStyleTests.hasOpenSSL {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("csr-\(UUID().uuidString).der")
            try csr.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = ["req", "-verify", "-noout", "-inform", "DER", "-in", file.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "openssl accepts the request's signature")
        }
        for tag in [tagPrivate, tagPublic] {
            let delete: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag.data(using: .utf8)!,
            ]
            #expect(SecItemDelete(delete as CFDictionary) == errSecSuccess)
        }
    }
}
