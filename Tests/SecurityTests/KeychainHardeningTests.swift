import Foundation
import OSecASN1
import OSecCrypto
import OSecSQLite
import OSecTestSupport
import Security
import Testing

/// Issue 12 items 2, 4, 6 and 7 through Apple's API: tampered rows, a locked identity add, deleted items on disk,
/// a PKCS#12 file of many encrypted bags.
@Suite struct KeychainHardeningTests {
    func genericPassword(_ kc: TestKeychain, _ service: String, _ account: String) -> (OSStatus, Data?) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(
            kc.q([
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account, kSecReturnData as String: true,
            ]), &result)
        return (status, result as? Data)
    }

    func addPassword(_ kc: TestKeychain, _ service: String, _ account: String, _ secret: String) -> OSStatus {
        SecItemAdd(
            kc.q([
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account, kSecValueData as String: Data(secret.utf8),
            ]), nil)
    }

    // MARK: Item 2

    @Test func tamperedRowsGiveErrSecDecodeNeverAnotherItemsSecret() throws {
        let kc = try TestKeychain()
        #expect(addPassword(kc, "bank.example", "alice", "bank-password") == errSecSuccess)
        #expect(addPassword(kc, "evil.example", "alice", "evil-password") == errSecSuccess)
        let raw = try Database(path: kc.path)
        let rows = try raw.query("SELECT id, persistref, secret FROM genp ORDER BY id") {
            ($0.int64(at: 0), $0.data(at: 1) ?? Data(), $0.data(at: 2) ?? Data())
        }
        try #require(rows.count == 2)
        let (bank, evil) = (rows[0], rows[1])
        try raw.transaction {
            try raw.run("UPDATE genp SET persistref = randomblob(16) WHERE id = ?", [.integer(bank.0)])
            try raw.run(
                "UPDATE genp SET persistref = ?, secret = ? WHERE id = ?",
                [.blob(bank.1), .blob(bank.2), .integer(evil.0)])
            try raw.run(
                "UPDATE genp SET persistref = ?, secret = ? WHERE id = ?",
                [.blob(evil.1), .blob(evil.2), .integer(bank.0)])
        }
        let swapped = genericPassword(kc, "evil.example", "alice")
        #expect(swapped.0 == errSecDecode && swapped.1 == nil, "\(swapped)")
        #expect(SecCopyLastErrorMessage()?.isEmpty == false)
        // Put the swap back, then move the bank's row to the attacker's service instead.
        try raw.transaction {
            try raw.run("UPDATE genp SET persistref = randomblob(16) WHERE id = ?", [.integer(bank.0)])
            try raw.run(
                "UPDATE genp SET persistref = ?, secret = ? WHERE id = ?",
                [.blob(evil.1), .blob(evil.2), .integer(evil.0)])
            try raw.run(
                "UPDATE genp SET persistref = ?, secret = ? WHERE id = ?",
                [.blob(bank.1), .blob(bank.2), .integer(bank.0)])
        }
        #expect(genericPassword(kc, "bank.example", "alice").1 == Data("bank-password".utf8))
        try raw.run("DELETE FROM genp WHERE id = ?", [.integer(evil.0)])
        try raw.run("UPDATE genp SET svce = CAST('evil.example' AS BLOB) WHERE id = ?", [.integer(bank.0)])
        let moved = genericPassword(kc, "evil.example", "alice")
        #expect(moved.0 == errSecDecode && moved.1 == nil, "\(moved)")
        // Attributes-and-data results fail the same way (no dictionary with another item's v_Data).
        var result: CFTypeRef?
        let all = kc.q([
            kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true, kSecReturnData as String: true,
        ])
        #expect(SecItemCopyMatching(all, &result) == errSecDecode && result == nil)
    }

    // MARK: Item 6

    @Test func aLockedKeychainStoresNoPartOfAnIdentity() throws {
        let kc = try TestKeychain(password: "identity-pw")
        let key = KeyFixtures.generate(kSecAttrKeyTypeECSECPrimeRandom, 256)
        let certificate = try TestPKI.issue(cn: "locked.example", for: key, serial: 61)
        let identity = try OpenSecurityCertificates.createIdentity(certificate: certificate, privateKey: key)
        #expect(SecKeychainLock(kc.keychain) == errSecSuccess)
        #expect(SecItemAdd(kc.q([kSecValueRef as String: identity]), nil) == errSecInteractionNotAllowed)
        for itemClass in [kSecClassCertificate, kSecClassKey, kSecClassIdentity] {
            #expect(
                SecItemCopyMatching(
                    kc.q([kSecClass as String: itemClass, kSecMatchLimit as String: kSecMatchLimitAll]), nil)
                    == errSecItemNotFound, "\(itemClass) was stored")
        }
        #expect(SecKeychainUnlock(kc.keychain, 11, "identity-pw", true) == errSecSuccess)
        #expect(SecItemAdd(kc.q([kSecValueRef as String: identity]), nil) == errSecSuccess)
        var found: CFTypeRef?
        #expect(
            SecItemCopyMatching(kc.q([kSecClass as String: kSecClassIdentity, kSecReturnRef as String: true]), &found)
                == errSecSuccess)
        #expect(found is SecIdentity)
    }

    // MARK: Item 7

    @Test func secItemDeleteLeavesNoTraceInTheDatabaseWALOrSharedMemory() throws {
        let kc = try TestKeychain()
        let tag = UUID().uuidString
        for n in 0..<10 { #expect(addPassword(kc, "filler", "f\(n)", "filler") == errSecSuccess) }
        #expect(
            SecItemAdd(
                kc.q([
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "SERVICE-\(tag)",
                    kSecAttrAccount as String: "ACCOUNT-\(tag)", kSecAttrGeneric as String: Data("GENERIC-\(tag)".utf8),
                    kSecValueData as String: Data("SECRET-\(tag)".utf8),
                ]), nil) == errSecSuccess)
        let sealed = try #require(
            try Database(path: kc.path).scalar(
                "SELECT secret FROM genp WHERE svce = CAST(? AS BLOB)", [.text("SERVICE-\(tag)")]
            ).blobValue)
        #expect(
            SecItemDelete(
                kc.q([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "SERVICE-\(tag)"]))
                == errSecSuccess)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: kc.path + suffix) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: kc.path + suffix))
            for marker in [
                Data("SERVICE-\(tag)".utf8), Data("ACCOUNT-\(tag)".utf8), Data("GENERIC-\(tag)".utf8), sealed,
            ] {
                #expect(bytes.range(of: marker) == nil, "\(suffix.isEmpty ? "database" : suffix) keeps deleted bytes")
            }
        }
    }

    // MARK: Item 4

    /// A PFX without MAC whose one plain safe holds `count` copies of a PBES2-encrypted private key (PBKDF2-SHA256,
    /// `iterations`; one salt and IV, so the file is made with a single KDF run but costs `count` to open).
    static func manyEncryptedKeys(count: Int, iterations: Int) throws -> Data {
        let oid = { (dotted: String) in try ASN1ObjectIdentifier(dotted: dotted) }
        let salt = Data(repeating: 0x5A, count: 16)
        let iv = Data(repeating: 0x17, count: 16)
        var keyInfo = DER.Serializer()  // a PrivateKeyInfo shape: version, algorithm, key octets
        try keyInfo.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(0)
            try coder.appendConstructedNode(identifier: .sequence) { try $0.serialize(try oid("1.2.840.10045.2.1")) }
            try coder.serialize(ASN1OctetString([UInt8](repeating: 1, count: 32)))
        }
        let key = try KDF.pbkdf2(
            password: Data("pw".utf8), salt: salt, iterations: iterations, keyLength: 32, digest: .sha256)
        let ciphertext = try SymmetricCrypto.encrypt(
            .aes256CBC, key: key, iv: iv, plaintext: Data(keyInfo.serializedBytes))
        var bag = DER.Serializer()
        try bag.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(try oid("1.2.840.113549.1.12.10.1.2"))  // pkcs8ShroudedKeyBag
            try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) { coder in
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.serialize(try oid("1.2.840.113549.1.5.13"))  // PBES2
                        try coder.appendConstructedNode(identifier: .sequence) { coder in
                            try coder.appendConstructedNode(identifier: .sequence) { coder in
                                try coder.serialize(try oid("1.2.840.113549.1.5.12"))  // PBKDF2
                                try coder.appendConstructedNode(identifier: .sequence) { coder in
                                    try coder.serialize(ASN1OctetString([UInt8](salt)))
                                    try coder.serialize(iterations)
                                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                                        try coder.serialize(try oid("1.2.840.113549.2.9"))  // hmacWithSHA256
                                        try coder.serialize(ASN1Null())
                                    }
                                }
                            }
                            try coder.appendConstructedNode(identifier: .sequence) { coder in
                                try coder.serialize(try oid("2.16.840.1.101.3.4.1.42"))  // aes256-CBC
                                try coder.serialize(ASN1OctetString([UInt8](iv)))
                            }
                        }
                    }
                    try coder.serialize(ASN1OctetString([UInt8](ciphertext)))
                }
            }
        }
        func dataContentInfo(_ content: [UInt8]) throws -> [UInt8] {
            var coder = DER.Serializer()
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(try oid("1.2.840.113549.1.7.1"))
                try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) {
                    try $0.serialize(ASN1OctetString(content))
                }
            }
            return coder.serializedBytes
        }
        var safe = DER.Serializer()
        safe.appendConstructedNode(identifier: .sequence) { coder in
            for _ in 0..<count { coder.appendRawBytes(bag.serializedBytes) }
        }
        var authSafe = DER.Serializer()
        try authSafe.appendConstructedNode(identifier: .sequence) {
            $0.appendRawBytes(try dataContentInfo(safe.serializedBytes))
        }
        var pfx = DER.Serializer()
        try pfx.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(3)
            coder.appendRawBytes(try dataContentInfo(authSafe.serializedBytes))
        }
        return Data(pfx.serializedBytes)
    }

    /// 1,000 encrypted keys at NSS's 600,000 iterations: 600 million KDF iterations (minutes of CPU) in 1 MB.
    @Test(.timeLimit(.minutes(1))) func aPKCS12FileOfManyEncryptedBagsIsRefusedBeforeItsKDFsRun() throws {
        let file = try Self.manyEncryptedKeys(count: 1_000, iterations: 600_000)
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: "pw"] as CFDictionary
        #expect(SecPKCS12Import(file as CFData, options, &items) == errSecDecode)
        #expect(items == nil)
    }
}
