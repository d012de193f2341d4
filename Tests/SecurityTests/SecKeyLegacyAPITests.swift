import Foundation
import Security
import Testing

@Suite struct SecKeyLegacyAPITests {
    let plaintext = Array("legacy buffer API".utf8)

    func encrypt(_ key: SecKey, _ padding: SecPadding, _ input: [UInt8]) -> (OSStatus, [UInt8]) {
        var out = [UInt8](repeating: 0, count: 512)
        var outLength = out.count
        let status = SecKeyEncrypt(key, padding, input, input.count, &out, &outLength)
        return (status, Array(out.prefix(outLength)))
    }

    func decrypt(_ key: SecKey, _ padding: SecPadding, _ input: [UInt8], capacity: Int = 512) -> (OSStatus, [UInt8]) {
        var out = [UInt8](repeating: 0, count: capacity)
        var outLength = out.count
        let status = SecKeyDecrypt(key, padding, input, input.count, &out, &outLength)
        return (status, Array(out.prefix(outLength)))
    }

    @Test(arguments: [SecPadding.PKCS1, .OAEP, []])
    func encryptDecryptRoundTrip(padding: SecPadding) {
        let pub = KeyFixtures.publicKey(KeyFixtures.rsa2048)
        let (s1, ct) = encrypt(pub, padding, plaintext)
        #expect(s1 == errSecSuccess)
        #expect(ct.count == 256)
        let (s2, pt) = decrypt(KeyFixtures.rsa2048, padding, ct)
        #expect(s2 == errSecSuccess)
        #expect(pt == plaintext, "no-padding decrypt strips the leading zeros")
    }

    @Test func outputBufferTooSmallIsErrSecParam() {
        let pub = KeyFixtures.publicKey(KeyFixtures.rsa2048)
        var out = [UInt8](repeating: 0, count: 100)
        var outLength = out.count
        #expect(SecKeyEncrypt(pub, .PKCS1, plaintext, plaintext.count, &out, &outLength) == errSecParam)
    }

    @Test func oversizedPlaintextIsErrSecParam() {
        let pub = KeyFixtures.publicKey(KeyFixtures.rsa2048)
        #expect(encrypt(pub, .PKCS1, [UInt8](repeating: 1, count: 246)).0 == errSecParam)
        #expect(encrypt(pub, .OAEP, [UInt8](repeating: 1, count: 215)).0 == errSecParam)
        #expect(encrypt(pub, .OAEP, [UInt8](repeating: 1, count: 214)).0 == errSecSuccess)
        #expect(encrypt(pub, .PKCS1SHA256, plaintext).0 == errSecParam)
    }

    @Test func rawSignVerifyWithDigestPaddings() {
        let digest = [UInt8](repeating: 0x5A, count: 32)
        let pub = KeyFixtures.publicKey(KeyFixtures.rsa2048)
        var sig = [UInt8](repeating: 0, count: 256)
        var sigLength = sig.count
        #expect(
            SecKeyRawSign(KeyFixtures.rsa2048, .PKCS1SHA256, digest, digest.count, &sig, &sigLength) == errSecSuccess)
        #expect(sigLength == 256)
        #expect(SecKeyRawVerify(pub, .PKCS1SHA256, digest, digest.count, sig, sigLength) == errSecSuccess)
        var other = digest
        other[0] ^= 1
        #expect(
            SecKeyRawVerify(pub, .PKCS1SHA256, other, other.count, sig, sigLength) == errSSLCrypto,
            "Apple returns errSSLCrypto on mismatch")
        // Same signature as the algorithm API's digest variant (PKCS#1 v1.5 is deterministic).
        var error: Unmanaged<CFError>?
        let modern =
            SecKeyCreateSignature(
                KeyFixtures.rsa2048, .rsaSignatureDigestPKCS1v15SHA256, Data(digest) as CFData, &error) as Data?
        #expect(modern == Data(sig))
    }

    @Test func rawSignWithECKeys() {
        let digest = [UInt8](repeating: 0x33, count: 32)
        let pub = KeyFixtures.publicKey(KeyFixtures.p256)
        var sig = [UInt8](repeating: 0, count: 128)
        var sigLength = sig.count
        #expect(SecKeyRawSign(KeyFixtures.p256, .PKCS1, digest, digest.count, &sig, &sigLength) == errSecSuccess)
        #expect(sig.first == 0x30, "X9.62 DER signature")
        #expect(SecKeyRawVerify(pub, .PKCS1, digest, digest.count, sig, sigLength) == errSecSuccess)
        sigLength = sig.count
        #expect(SecKeyRawSign(KeyFixtures.p256, .sigRaw, digest, digest.count, &sig, &sigLength) == errSecSuccess)
        #expect(sigLength == 64, "RFC 4754 r‖s")
        #expect(SecKeyRawVerify(pub, .sigRaw, digest, digest.count, sig, sigLength) == errSecSuccess)
    }
}
