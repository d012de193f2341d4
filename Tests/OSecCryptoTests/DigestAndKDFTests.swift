import Foundation
import OSecTestSupport
import Testing

@testable import OSecCrypto

@Suite struct DigestAndKDFTests {
    private let abc = Data("abc".utf8)

    @Test func digestKnownAnswers() {
        let expected: [(DigestAlgorithm, String)] = [
            (.md5, "900150983cd24fb0d6963f7d28e17f72"),
            (.sha1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
            (.sha224, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
            (.sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                .sha384,
                "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
            ),
            (
                .sha512,
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                    + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
            ),
        ]
        for (algorithm, hex) in expected {
            #expect(Hex.encode(Digest.hash(algorithm, abc)) == hex, "\(algorithm)")
            #expect(Digest.hash(algorithm, abc).count == algorithm.outputSize)
            var context = DigestContext(algorithm)
            context.update(Data("a".utf8))
            let copy = context  // value semantics: the copy must not see later updates
            context.update(Data("bc".utf8))
            #expect(Hex.encode(context.finalize()) == hex)
            #expect(copy.finalize() == Digest.hash(algorithm, Data("a".utf8)))
        }
    }

    @Test func hmacRFC4231TestCase2() {
        let key = Data("Jefe".utf8)
        let data = Data("what do ya want for nothing?".utf8)
        #expect(
            Hex.encode(HMAC.authenticate(.sha256, key: key, data: data))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            Hex.encode(HMAC.authenticate(.sha512, key: key, data: data))
                == "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
                + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        )
        #expect(HMAC.authenticate(.sha256, key: Data(), data: Data()).count == 32)
    }

    @Test func pbkdf2RFC6070() throws {
        let password = Data("password".utf8)
        let salt = Data("salt".utf8)
        for (iterations, hex) in [
            (1, "0c60c80f961f0e71f3a9b524af6012062fe037a6"),
            (2, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
            (4096, "4b007901b765489abead49d926f721d065a429c1"),
        ] {
            let key = try KDF.pbkdf2(
                password: password, salt: salt, iterations: iterations, keyLength: 20, digest: .sha1)
            #expect(Hex.encode(key) == hex)
        }
        let long = try KDF.pbkdf2(
            password: Data("passwordPASSWORDpassword".utf8), salt: Data("saltSALTsaltSALTsaltSALTsaltSALTsalt".utf8),
            iterations: 4096, keyLength: 25, digest: .sha1)
        #expect(Hex.encode(long) == "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038")
    }

    @Test func scryptRFC7914() throws {
        let first = try KDF.scrypt(password: Data(), salt: Data(), n: 16, r: 1, p: 1, keyLength: 64)
        #expect(
            Hex.encode(first)
                == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
                + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"
        )
        let second = try KDF.scrypt(
            password: Data("password".utf8), salt: Data("NaCl".utf8), n: 1024, r: 8, p: 16, keyLength: 64)
        #expect(
            Hex.encode(second)
                == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
                + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
        )
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try KDF.scrypt(password: Data(), salt: Data(), n: 15, r: 1, p: 1, keyLength: 16)
        }
        #expect(throws: CryptoError(.resourceLimit, "")) {
            try KDF.scrypt(password: Data(), salt: Data(), n: 1 << 30, r: 8, p: 1, keyLength: 16)
        }
    }

    @Test func pkcs12KDFKnownAnswerAndCLI() throws {
        // BouncyCastle / OpenSSL evpkdf_pkcs12.txt vector: password "smeg" as BMPString with trailing zeros.
        let password = Hex.data("0073006d006500670000")
        let salt = Hex.data("0a58cf64530d823f")
        let key = try KDF.pkcs12(password: password, salt: salt, id: 1, iterations: 1, keyLength: 24, digest: .sha1)
        #expect(Hex.encode(key) == "8aaae6297b6cb04642ab5b077851284eb7128f1a2a7fbca3")
        let mac = try KDF.pkcs12(
            password: password, salt: salt, id: 3, iterations: 2048, keyLength: 20, digest: .sha256)
        let cli = try OpenSSLCLI.check([
            "kdf", "-keylen", "20", "-kdfopt", "digest:SHA256", "-kdfopt", "hexpass:0073006d006500670000",
            "-kdfopt", "hexsalt:0a58cf64530d823f", "-kdfopt", "iter:2048", "-kdfopt", "id:3", "PKCS12KDF",
        ])
        #expect(
            cli.stdoutText.replacingOccurrences(of: ":", with: "").lowercased()
                .trimmingCharacters(in: .whitespacesAndNewlines) == Hex.encode(mac))
    }

    @Test func x963KDFKnownAnswerAndCLI() throws {
        // NIST CAVS ANSI X9.63 SHA-256 vector (as in OpenSSL's evpkdf_x963.txt).
        let key = try KDF.x963(
            sharedSecret: Hex.data("96c05619d56c328ab95fe84b18264b08725b85e33fd34f08"),
            sharedInfo: Data(), keyLength: 16, digest: .sha256)
        #expect(Hex.encode(key) == "443024c3dae66b95e6f5670601558f71")
        let secret = "22518b10e70f2a3f243810ae3254139efbee04aa57c7af7d"
        let info = "75eef81aa3041e33b80971203d2c0c52"
        let ours = try KDF.x963(
            sharedSecret: Hex.data(secret), sharedInfo: Hex.data(info), keyLength: 48, digest: .sha384)
        let cli = try OpenSSLCLI.check([
            "kdf", "-keylen", "48", "-kdfopt", "digest:SHA384", "-kdfopt", "hexsecret:\(secret)",
            "-kdfopt", "hexinfo:\(info)", "X963KDF",
        ])
        #expect(
            cli.stdoutText.replacingOccurrences(of: ":", with: "").lowercased()
                .trimmingCharacters(in: .whitespacesAndNewlines) == Hex.encode(ours))
    }

    @Test func kdfLimits() {
        #expect(throws: CryptoError(.resourceLimit, "")) {
            try KDF.pbkdf2(
                password: Data(), salt: Data(), iterations: KDF.maximumDirectIterations + 1, keyLength: 16,
                digest: .sha256)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try KDF.pbkdf2(password: Data(), salt: Data(), iterations: 0, keyLength: 16, digest: .sha256)
        }
        #expect(throws: CryptoError(.resourceLimit, "")) {
            try KDF.pkcs12(password: Data(), salt: Data(), id: 1, iterations: Int.max, keyLength: 16, digest: .sha256)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try KDF.x963(sharedSecret: Data([1]), sharedInfo: Data(), keyLength: 0, digest: .sha256)
        }
    }

    @Test func randomBytes() throws {
        let a = try SecureRandom.bytes(32)
        let b = try SecureRandom.bytes(32)
        #expect(a.count == 32 && b.count == 32)
        #expect(a != b)
        #expect(try SecureRandom.bytes(0).isEmpty)
        #expect(throws: CryptoError(.invalidParameter, "")) { try SecureRandom.bytes(-1) }
        #expect(ConstantTime.equals(a, a) && !ConstantTime.equals(a, b) && !ConstantTime.equals(a, a.prefix(31)))
    }

    /// The pooled bytes for nonces and ids: every length up to the pool's limit and beyond it, across refills of
    /// the 4 KiB pool and from eight threads at once, never hands out the same bytes twice.
    @Test func publicRandomBytesNeverRepeat() throws {
        #expect(try SecureRandom.publicBytes(0).isEmpty)
        #expect(throws: CryptoError(.invalidParameter, "")) { try SecureRandom.publicBytes(-1) }
        for count in [1, 12, 16, 63, 64, 65, 4096, 5000] {
            #expect(try SecureRandom.publicBytes(count).count == count)
        }
        let draws = LockedDraws()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var mine: [Data] = []
            for _ in 0..<2_000 { if let nonce = try? SecureRandom.publicBytes(12) { mine.append(nonce) } }
            draws.add(mine)
        }
        let all = draws.all
        #expect(all.count == 16_000, "every draw succeeded")
        #expect(Set(all).count == all.count, "no nonce came out twice (12 bytes: a repeat would be a pool bug)")
        // Not stuck on one value (the draws span about 47 refills of the pool).
        let distinctFirstBytes = Set(all.prefix(1_000).map { $0.first ?? 0 })
        #expect(distinctFirstBytes.count > 200)
    }
}

/// Draws collected from several threads.
private final class LockedDraws: @unchecked Sendable {  // sendable: guarded by `lock`
    private let lock = NSLock()
    private var draws: [Data] = []
    func add(_ more: [Data]) { lock.withLock { draws += more } }
    var all: [Data] { lock.withLock { draws } }
}
