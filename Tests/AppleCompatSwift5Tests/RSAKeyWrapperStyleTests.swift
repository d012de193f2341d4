import Foundation
import Testing

// Swift 5 code in the style of Heimdall and CryptorRSA (BlueRSA), with Security coming in through Foundation as on
// Apple platforms: a permanent tagged key pair from the legacy SecKeyGeneratePair, the public key's PKCS#1 bytes
// read back from the keychain with kSecReturnData and wrapped in an X.509 SubjectPublicKeyInfo by hand, a peer's
// X.509 key imported with its header stripped through SecKeyCreateWithData, OAEP/AES-GCM hybrid encryption,
// SecKeyGetBlockSize-sized C-buffer encryption, and an identity assembled from a certificate and its key with
// SecIdentityCreate.

private enum WrapperStyleError: Error {
    case generation(OSStatus)
    case notFound(OSStatus)
    case crypto(Error)
}

private enum X509Wrapping {
    /// DER length octets for `count`.
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var octets: [UInt8] = []
        var value = count
        while value > 0 {
            octets.insert(UInt8(value & 0xFF), at: 0)
            value >>= 8
        }
        return [0x80 | UInt8(octets.count)] + octets
    }

    /// SEQUENCE { rsaEncryption AlgorithmIdentifier, BIT STRING { 0x00, PKCS#1 } } — what Heimdall's export builds.
    static func wrap(pkcs1: Data) -> Data {
        let algorithm: [UInt8] = [
            0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00,
        ]
        let bitString: [UInt8] = [0x03] + length(pkcs1.count + 1) + [0x00] + [UInt8](pkcs1)
        let body = algorithm + bitString
        return Data([0x30] + length(body.count) + body)
    }

    /// The BIT STRING's content after the AlgorithmIdentifier — what CryptorRSA's header stripping returns.
    static func strip(spki: Data) -> Data? {
        let bytes = [UInt8](spki)
        var index = 0
        func skipHeader(expecting tag: UInt8) -> Int? {
            guard index + 1 < bytes.count, bytes[index] == tag else { return nil }
            index += 1
            let first = Int(bytes[index])
            index += 1
            if first < 0x80 { return first }
            var value = 0
            for _ in 0..<(first & 0x7F) {
                guard index < bytes.count else { return nil }
                value = value << 8 | Int(bytes[index])
                index += 1
            }
            return value
        }
        guard skipHeader(expecting: 0x30) != nil, let algorithmLength = skipHeader(expecting: 0x30) else { return nil }
        index += algorithmLength
        guard skipHeader(expecting: 0x03) != nil, index < bytes.count, bytes[index] == 0 else { return nil }
        return Data(bytes[(index + 1)...])
    }
}

private func keyTag(_ name: String) -> Data {
    Data(Swift5Environment.service(name).utf8)
}

@Suite struct RSAKeyWrapperStyleTests {
    init() { Swift5Environment.isolate() }

    @Test func legacyPairPublicBitsExportAsX509AndImportBack() throws {
        let publicTag = keyTag("heimdall.public")
        let privateTag = keyTag("heimdall.private")
        let parameters: [String: AnyObject] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
            kSecAttrKeySizeInBits as String: 2048 as NSNumber,
            kSecPublicKeyAttrs as String: [
                kSecAttrIsPermanent as String: kCFBooleanTrue!, kSecAttrApplicationTag as String: publicTag,
            ] as NSDictionary,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: kCFBooleanTrue!, kSecAttrApplicationTag as String: privateTag,
            ] as NSDictionary,
        ]
        var publicKey: SecKey?
        var privateKey: SecKey?
        let status = SecKeyGeneratePair(parameters as CFDictionary, &publicKey, &privateKey)
        guard status == errSecSuccess, let publicKey = publicKey, let privateKey = privateKey else {
            throw WrapperStyleError.generation(status)
        }
        #expect(SecKeyGetBlockSize(publicKey) == 256)

        // The public key's bits, as stored: PKCS#1 RSAPublicKey.
        let query: [String: AnyObject] = [
            kSecClass as String: kSecClassKey,
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
            kSecAttrApplicationTag as String: publicTag as NSData,
            kSecReturnData as String: kCFBooleanTrue,
        ]
        var result: AnyObject?
        let found = SecItemCopyMatching(query as CFDictionary, &result)
        guard found == errSecSuccess, let pkcs1 = result as? Data else { throw WrapperStyleError.notFound(found) }
        #expect(pkcs1 == SecKeyCopyExternalRepresentation(publicKey, nil) as Data?)

        // Export as X.509, strip again on the receiving side, import with SecKeyCreateWithData.
        let x509 = X509Wrapping.wrap(pkcs1: pkcs1)
        let stripped = try #require(X509Wrapping.strip(spki: x509))
        #expect(stripped == pkcs1)
        let importAttributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ]
        var error: Unmanaged<CFError>?
        guard let imported = SecKeyCreateWithData(stripped as CFData, importAttributes as CFDictionary, &error) else {
            throw WrapperStyleError.crypto(error!.takeRetainedValue() as Error)
        }
        #expect(imported == publicKey)

        // The peer encrypts for us with the imported key through the C-buffer API; we decrypt.
        let message = [UInt8]("a session key of thirty-two bytes".utf8.prefix(32))
        var cipher = [UInt8](repeating: 0, count: SecKeyGetBlockSize(imported))
        var cipherLength = cipher.count
        #expect(SecKeyEncrypt(imported, .PKCS1, message, message.count, &cipher, &cipherLength) == errSecSuccess)
        var plain = [UInt8](repeating: 0, count: SecKeyGetBlockSize(privateKey))
        var plainLength = plain.count
        #expect(SecKeyDecrypt(privateKey, .PKCS1, cipher, cipherLength, &plain, &plainLength) == errSecSuccess)
        #expect(Array(plain[0..<plainLength]) == message)

        for tag in [publicTag, privateTag] {
            let delete: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag]
            #expect(SecItemDelete(delete as CFDictionary) == errSecSuccess)
        }
    }

    @Test func cryptorStyleHybridEncryptionWithTheImportedKey() throws {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048,
        ]
        var error: Unmanaged<CFError>?
        guard let privateKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error),
            let publicKey = SecKeyCopyPublicKey(privateKey),
            let pkcs1 = SecKeyCopyExternalRepresentation(publicKey, &error) as Data?
        else { throw WrapperStyleError.crypto(error!.takeRetainedValue() as Error) }
        let peerKey = try #require(
            SecKeyCreateWithData(
                pkcs1 as CFData,
                [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPublic] as CFDictionary,
                &error))
        let algorithm: SecKeyAlgorithm = .rsaEncryptionOAEPSHA1AESGCM
        #expect(SecKeyIsAlgorithmSupported(peerKey, .encrypt, algorithm))
        let plaintext = Data(repeating: 0x5A, count: 1000)  // longer than one RSA block: the hybrid scheme
        guard let encrypted = SecKeyCreateEncryptedData(peerKey, algorithm, plaintext as CFData, &error) as Data?
        else { throw WrapperStyleError.crypto(error!.takeRetainedValue() as Error) }
        guard let decrypted = SecKeyCreateDecryptedData(privateKey, algorithm, encrypted as CFData, &error) as Data?
        else { throw WrapperStyleError.crypto(error!.takeRetainedValue() as Error) }
        #expect(decrypted == plaintext)

        // A tampered ciphertext is refused with a CFError, not garbage.
        var tampered = encrypted
        tampered[tampered.count - 1] ^= 0x01
        #expect(SecKeyCreateDecryptedData(privateKey, algorithm, tampered as CFData, &error) == nil)
        let failure = try #require(error?.takeRetainedValue())
        #expect(CFErrorGetCode(failure) != 0)
    }

    @Test func identityCreatedFromCertificateAndItsPrivateKey() throws {
        let directory = NSTemporaryDirectory() + "osec-identity-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory + "/key.pem",
            "-outform", "DER", "-out", directory + "/cert.der", "-subj", "/CN=identity", "-days", "2",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let der = try Data(contentsOf: URL(fileURLWithPath: directory + "/cert.der"))
        let certificate = try #require(SecCertificateCreateWithData(nil, der as CFData))
        let pem = try String(contentsOfFile: directory + "/key.pem", encoding: .utf8)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let pkcs8 = try #require(Data(base64Encoded: body))
        // PKCS#8 carries PKCS#1 RSAPrivateKey at a fixed offset for RSA (26-byte header): SecKey takes PKCS#1.
        let pkcs1 = pkcs8.dropFirst(26)
        var error: Unmanaged<CFError>?
        let privateKey = try #require(
            SecKeyCreateWithData(
                Data(pkcs1) as CFData,
                [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPrivate] as CFDictionary,
                &error))

        let identity = try #require(SecIdentityCreate(nil, certificate, privateKey))
        #expect(CFGetTypeID(identity) == SecIdentityGetTypeID())
        var copiedCertificate: SecCertificate?
        var copiedKey: SecKey?
        #expect(SecIdentityCopyCertificate(identity, &copiedCertificate) == errSecSuccess)
        #expect(SecIdentityCopyPrivateKey(identity, &copiedKey) == errSecSuccess)
        #expect(copiedCertificate == certificate && copiedKey == privateKey)

        // Another key is not this certificate's: no identity.
        let other = try #require(
            SecKeyCreateRandomKey(
                [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048] as CFDictionary, &error))
        #expect(SecIdentityCreate(kCFAllocatorDefault, certificate, other) == nil)
    }
}

/// CupertinoJWT-style: a P-256 private key from its `04 || x || y || d` bytes, errors thrown as the CFError itself.
private func ecPrivateKey(from keyData: Data) throws -> SecKey {
    var error: Unmanaged<CFError>? = nil
    guard
        let privateKey = SecKeyCreateWithData(
            keyData as CFData,
            [
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
                kSecAttrKeySizeInBits: 256,
            ] as CFDictionary, &error)
    else { throw error!.takeRetainedValue() }
    return privateKey
}

@Suite struct ECKeyDataStyleTests {
    @Test func rawPrivateKeyBytesSignAndBadBytesThrowTheCFError() throws {
        var error: Unmanaged<CFError>?
        let generated = try #require(
            SecKeyCreateRandomKey(
                [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256] as CFDictionary,
                &error))
        let raw = try #require(SecKeyCopyExternalRepresentation(generated, &error) as Data?)
        #expect(raw.count == 97)
        let key = try ecPrivateKey(from: raw)
        let message = Data("header.payload".utf8)
        let signature = try #require(
            SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message as CFData, &error) as Data?)
        let publicKey = try #require(SecKeyCopyPublicKey(generated))
        #expect(
            SecKeyVerifySignature(
                publicKey, .ecdsaSignatureMessageX962SHA256, message as CFData,
                signature as CFData, &error))
        do {
            _ = try ecPrivateKey(from: raw.dropLast())
            Issue.record("truncated key data was accepted")
        } catch let failure as CFError {
            #expect(CFErrorGetDomain(failure) as String == NSOSStatusErrorDomain)
            #expect(CFErrorGetCode(failure) == Int(errSecParam) || CFErrorGetCode(failure) == Int(errSecDecode))
        }
    }
}
