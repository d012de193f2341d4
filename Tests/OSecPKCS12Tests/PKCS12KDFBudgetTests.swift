import Foundation
import OSecASN1
import OSecCrypto
import Testing

@testable import OSecPKCS12

/// Issue 12 item 4: the KDF work of one file is bounded as a whole, not only per KDF.
@Suite struct PKCS12KDFBudgetTests {
    typealias Build = PKCS12StructureTests

    static let password = "pw"

    /// A shrouded-key bag (PBES2, PBKDF2-HMAC-SHA256 with `iterations`, AES-256-CBC) holding the EC fixture key.
    /// Every call with the same iterations makes the same bag (fixed salt and IV), so a file of many is cheap to make.
    static func shroudedKeyBag(iterations: Int) throws -> [UInt8] {
        let algorithm = PBEAlgorithm.pbes2(
            prf: .sha256, salt: Data(repeating: 3, count: 16), iterations: iterations, cipher: .aes256CBC,
            iv: Data(repeating: 4, count: 16))
        let pkcs8 = try PKCS12StructureTests.fixtures.privateKey(.ec).pkcs8DER
        let ciphertext = try algorithm.encrypt(Data(pkcs8), passwordBytes: Data(password.utf8))
        return try Build.bag(PKCS12OID.pkcs8ShroudedKeyBag) { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try algorithm.serialize(into: &coder)
                try coder.serialize(ASN1OctetString([UInt8](ciphertext)))
            }
        }
    }

    /// An `encryptedData` ContentInfo: `safeContents` encrypted with PKCS#12 PBE 3DES (`iterations`).
    static func encryptedSafe(_ safeContents: [UInt8], iterations: Int) throws -> [UInt8] {
        let algorithm = PBEAlgorithm.pkcs12(.tripleDES3Key, salt: Data(repeating: 5, count: 8), iterations: iterations)
        let ciphertext = try algorithm.encrypt(
            Data(safeContents), passwordBytes: PKCS12Password(password).bmpCandidates[0])
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(PKCS12OID.encryptedData)
            try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) { coder in
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(0)
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.serialize(PKCS12OID.data)
                        try algorithm.serialize(into: &coder)
                        coder.appendPrimitiveNode(identifier: .contextSpecific(0, constructed: false)) {
                            $0.append(contentsOf: ciphertext)
                        }
                    }
                }
            }
        }
        return coder.serializedBytes
    }

    /// A PFX (no MAC) from ready-made ContentInfos.
    static func pfx(contentInfos: [[UInt8]]) throws -> Data {
        var authSafe = DER.Serializer()
        authSafe.appendConstructedNode(identifier: .sequence) { coder in
            for info in contentInfos { coder.appendRawBytes(info) }
        }
        var pfx = DER.Serializer()
        try pfx.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(3)
            coder.appendRawBytes(try Build.dataContentInfo(authSafe.serializedBytes))
        }
        return Data(pfx.serializedBytes)
    }

    func isResourceLimit(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch let error as PKCS12Error {
            return error.code == .resourceLimit
        } catch {
            return false
        }
    }

    @Test func theBudgetIsFarAboveRealFiles() {
        // NSS and GnuTLS write 600,000 iterations per KDF; a file with a MAC, two encrypted safes (PBE: key + IV)
        // and ten shrouded keys stays within it.
        #expect(PKCS12Limits.maximumTotalIterations == 30_000_000)
        #expect(600_000 * (1 + 2 * 2 + 10) < PKCS12Limits.maximumTotalIterations)
        #expect(PKCS12Limits.maximumTotalIterations >= 3 * PKCS12Limits.maximumIterations)
    }

    /// 1,000 shrouded keys at 600,000 iterations declare 600 million iterations: refused before any KDF runs.
    @Test(.timeLimit(.minutes(1))) func aFileOfManyEncryptedBagsIsRefusedBeforeAnyKDFRuns() throws {
        let bag = try Self.shroudedKeyBag(iterations: 600_000)
        let file = try Build.pfx(safes: [Build.safeContents(Array(repeating: bag, count: 1_000))])
        #expect(isResourceLimit { _ = try PKCS12File.decode(file, password: Self.password) })
    }

    @Test func theBudgetCountsEveryDecryptionAndPasswordEncoding() throws {
        let bag = try Self.shroudedKeyBag(iterations: 1_000)
        let file = try Build.pfx(safes: [Build.safeContents(Array(repeating: bag, count: 20))])
        // 20 PBKDF2 runs of 1,000.
        #expect(try PKCS12File.decode(file, password: Self.password, kdfIterationLimit: 20_000).allBags.count == 20)
        #expect(isResourceLimit { _ = try PKCS12File.decode(file, password: Self.password, kdfIterationLimit: 19_999) })
    }

    /// Bags inside an encrypted safe are invisible until it is decrypted: they are charged as they are opened.
    @Test func keysInsideAnEncryptedSafeAreChargedWhenDecrypted() throws {
        let bag = try Self.shroudedKeyBag(iterations: 1_000)
        let inner = Build.safeContents(Array(repeating: bag, count: 30))
        let file = try Self.pfx(contentInfos: [try Self.encryptedSafe(inner, iterations: 500)])
        // The safe costs 2 × 500 (PKCS#12 PBE: key and IV), then 30 keys × 1,000.
        #expect(try PKCS12File.decode(file, password: Self.password, kdfIterationLimit: 31_000).allBags.count == 30)
        #expect(isResourceLimit { _ = try PKCS12File.decode(file, password: Self.password, kdfIterationLimit: 10_000) })
    }

    @Test func theMACIsChargedPerPasswordEncoding() throws {
        let file = try Build.pfx(safes: [Build.safeContents([])], macPassword: "", macIterations: 5_000)
        // An empty password tries two encodings (00 00 and none): the matching one may be the second.
        #expect(throws: Never.self) { _ = try PKCS12File.decode(file, password: "", kdfIterationLimit: 10_000) }
        #expect(isResourceLimit { _ = try PKCS12File.decode(file, password: "", kdfIterationLimit: 4_999) })
    }
}
