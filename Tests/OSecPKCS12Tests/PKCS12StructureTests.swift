import Foundation
import OSecASN1
import OSecCrypto
import Testing

@testable import OSecPKCS12

/// Hand-built files: BER encodings, nested and ignored bags, limits, password encodings.
@Suite struct PKCS12StructureTests {
    static let fixtures = PKCS12Fixtures.shared

    // MARK: Builders for hand-made files

    static func bag(
        _ id: ASN1ObjectIdentifier, attributes: BagAttributes = BagAttributes(),
        value: (inout DER.Serializer) throws -> Void
    ) throws -> [UInt8] {
        var coder = DER.Serializer()
        try SafeBagValue.serialize(bagID: id, attributes: attributes, into: &coder, value: value)
        return coder.serializedBytes
    }

    static func certBag(_ der: Data, attributes: BagAttributes = BagAttributes()) throws -> [UInt8] {
        try bag(PKCS12OID.certBag, attributes: attributes) { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(PKCS12OID.x509Certificate)
                try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) {
                    try $0.serialize(ASN1OctetString([UInt8](der)))
                }
            }
        }
    }

    static func safeContents(_ bags: [[UInt8]]) -> [UInt8] {
        var coder = DER.Serializer()
        coder.appendConstructedNode(identifier: .sequence) { coder in for bag in bags { coder.appendRawBytes(bag) } }
        return coder.serializedBytes
    }

    static func dataContentInfo(_ content: [UInt8]) throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(PKCS12OID.data)
            try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) {
                try $0.serialize(ASN1OctetString(content))
            }
        }
        return coder.serializedBytes
    }

    /// A PFX with unencrypted safes and an optional MAC.
    static func pfx(safes: [[UInt8]], macPassword: String? = nil, macIterations: Int = 2048) throws -> Data {
        var authSafe = DER.Serializer()
        try authSafe.appendConstructedNode(identifier: .sequence) { coder in
            for safe in safes { coder.appendRawBytes(try dataContentInfo(safe)) }
        }
        var pfx = DER.Serializer()
        try pfx.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(3)
            coder.appendRawBytes(try dataContentInfo(authSafe.serializedBytes))
            if let macPassword {
                try PKCS12MAC.serializeMacData(
                    digest: .sha256, salt: Data(repeating: 7, count: 8), iterations: macIterations,
                    content: Data(authSafe.serializedBytes), bmpPassword: PKCS12Password(macPassword).bmpCandidates[0],
                    into: &coder)
            }
        }
        return Data(pfx.serializedBytes)
    }

    static func keyBag(_ leaf: PKCS12Fixtures.Leaf, attributes: BagAttributes = BagAttributes()) throws -> [UInt8] {
        let pkcs8 = try fixtures.privateKey(leaf).pkcs8DER
        return try bag(PKCS12OID.keyBag, attributes: attributes) { $0.appendRawBytes(pkcs8) }
    }

    // MARK: Tests

    @Test func nestedSafeContentsAndIgnoredBags() throws {
        let f = Self.fixtures
        let crl = try Self.bag(PKCS12OID.crlBag) { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(try ASN1ObjectIdentifier(dotted: "1.2.840.113549.1.9.23.1"))
                try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) {
                    try $0.serialize(ASN1OctetString([1, 2, 3]))
                }
            }
        }
        let secret = try Self.bag(PKCS12OID.secretBag) { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(try ASN1ObjectIdentifier(dotted: "1.2.3.4"))
                try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) {
                    try $0.serialize(ASN1OctetString([9]))
                }
            }
        }
        let unknown = try Self.bag(try ASN1ObjectIdentifier(dotted: "1.2.3.4.5")) { try $0.serialize(ASN1Null()) }
        let nested = try Self.bag(PKCS12OID.safeContentsBag) { coder in
            coder.appendRawBytes(
                Self.safeContents([
                    try Self.certBag(f.intermediateDER),
                    try Self.bag(PKCS12OID.safeContentsBag) {
                        $0.appendRawBytes(Self.safeContents([try Self.certBag(f.ecLeafDER)]))
                    },
                ]))
        }
        let file = try Self.pfx(
            safes: [
                Self.safeContents([crl, secret, unknown, nested, try Self.certBag(f.rootDER)]),
                Self.safeContents([try Self.keyBag(.ec, attributes: BagAttributes(friendlyName: "plain key"))]),
            ], macPassword: "pw")
        let (identities, contents) = try PKCS12File.identities(in: file, password: "pw")
        try #require(identities.count == 1)
        #expect(identities[0].chain == [f.ecLeafDER, f.intermediateDER, f.rootDER])
        #expect(identities[0].friendlyName == "plain key")
        #expect(identities[0].localKeyID == nil)
        // Falls back to SHA-1 of the public key bits (Apple's kSecImportItemKeyID).
        let info = try PKCS12CertificateInfo(der: f.ecLeafDER)
        #expect(identities[0].keyID == Digest.hash(.sha1, Data(info.publicKeyBits)))
        #expect(identities[0].keyID.count == 20)
        #expect(contents.allBags.count == 7)
        #expect(contents.integrity == .mac(digest: .sha256, iterations: 2048))
    }

    @Test func pairsByLocalKeyIDBeforePublicKey() throws {
        let f = Self.fixtures
        let id1 = Data([1, 1, 1])
        let id2 = Data([2, 2, 2])
        // Cert order reversed relative to keys; localKeyIDs decide.
        let file = try Self.pfx(safes: [
            Self.safeContents([
                try Self.certBag(f.rsaLeafDER, attributes: BagAttributes(friendlyName: "rsa cert", localKeyID: id2)),
                try Self.certBag(f.ecLeafDER, attributes: BagAttributes(localKeyID: id1)),
            ]),
            Self.safeContents([
                try Self.keyBag(.ec, attributes: BagAttributes(localKeyID: id1)),
                try Self.keyBag(.rsa, attributes: BagAttributes(localKeyID: id2)),
                // A key whose localKeyID points at the wrong certificate still pairs by public key.
                try Self.keyBag(.ec, attributes: BagAttributes(localKeyID: id2)),
            ]),
        ])
        let identities = try PKCS12File.identities(in: file, password: nil).identities
        #expect(identities.map(\.certificate) == [f.ecLeafDER, f.rsaLeafDER, f.ecLeafDER])
        #expect(identities[0].friendlyName == nil)
        // No friendlyName: the facade labels it with the subject summary
        // (PKCS12ImportTests.labelAndKeyFallbacksForECLeaf).
        #expect(identities[1].friendlyName == "rsa cert")  // the certificate's friendlyName
        #expect(identities[0].keyID == id1)
    }

    @Test func keyWithoutCertificateYieldsNoIdentity() throws {
        let file = try Self.pfx(safes: [Self.safeContents([try Self.keyBag(.rsa)])], macPassword: "")
        #expect(try PKCS12File.identities(in: file, password: "").identities.isEmpty)
        #expect(try PKCS12File.identities(in: file, password: nil).identities.isEmpty)
    }

    @Test func berIndefiniteLengthsAndConstructedOctetStrings() throws {
        // Re-encode an OpenSSL file as BER: indefinite-length PFX and ContentInfo, authSafe content split
        // into a constructed OCTET STRING of three segments. The MAC covers the concatenated octets.
        let f = Self.fixtures
        for args in [[String](), ["-legacy"]] {
            let der = try f.opensslExport(.rsa, args: args + ["-passout", "pass:pw"])
            let root = try DER.parse([UInt8](der))
            let ber: [UInt8] = try DER.sequence(root) { nodes in
                guard let version = nodes.next(), let authSafe = nodes.next(), let mac = nodes.next() else {
                    throw PKCS12Error.malformed("test input")
                }
                let content = try PKCS12Decoder.dataContent(ofContentInfo: authSafe, what: "test")
                let third = content.count / 3
                var out: [UInt8] = [0x30, 0x80] + version.encodedBytes
                out += [0x30, 0x80] + (try PKCS12OID.data.derEncoded()) + [0xA0, 0x80, 0x24, 0x80]
                for segment in [
                    content.prefix(third), content.dropFirst(third).prefix(third), content.dropFirst(2 * third),
                ] {
                    out += try ASN1OctetString(bytes: segment).derEncoded()
                }
                out += [0, 0, 0, 0, 0, 0]  // end the OCTET STRING, [0], ContentInfo
                out += mac.encodedBytes + [0, 0]
                return out
            }
            let identities = try PKCS12File.identities(in: Data(ber), password: "pw").identities
            #expect(identities.count == 1)
            #expect(identities.first?.chain.count == 3)
            #expect(throws: PKCS12Error(.authenticationFailed, "")) {
                _ = try PKCS12File.decode(Data(ber), password: "nope")
            }
        }
    }

    @Test func iterationCapIsEnforcedBeforeAnyKDF() throws {
        let f = Self.fixtures
        var authSafe = DER.Serializer()
        try authSafe.appendConstructedNode(identifier: .sequence) { coder in
            coder.appendRawBytes(try Self.dataContentInfo(Self.safeContents([try Self.certBag(f.rootDER)])))
        }
        // MacData claiming 2^31-1 iterations (the digest value is irrelevant: the cap must trip first).
        var pfx = DER.Serializer()
        try pfx.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(3)
            coder.appendRawBytes(try Self.dataContentInfo(authSafe.serializedBytes))
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.serialize(PKCS12OID.sha256)
                        try coder.serialize(ASN1Null())
                    }
                    try coder.serialize(ASN1OctetString([UInt8](repeating: 0, count: 32)))
                }
                try coder.serialize(ASN1OctetString([1, 2, 3, 4, 5, 6, 7, 8]))
                try coder.serialize(Int(Int32.max))
            }
        }
        // resourceLimit (not a MAC mismatch) shows the cap tripped before any of the 2^31-1 iterations ran; no clock.
        #expect(throws: PKCS12Error(.resourceLimit, "")) {
            _ = try PKCS12File.decode(Data(pfx.serializedBytes), password: "pw")
        }
        #expect(PKCS12Limits.maximumIterations == 10_000_000)
        // Same for a PBE iteration count inside an encrypted safe (file without MAC).
        let huge = PBEAlgorithm.pkcs12(.tripleDES3Key, salt: Data(count: 8), iterations: 50_000_000)
        var algorithm = DER.Serializer()
        try huge.serialize(into: &algorithm)
        #expect(throws: PKCS12Error(.resourceLimit, "")) {
            _ = try PBEAlgorithm(algorithmIdentifier: try DER.parse(algorithm.serializedBytes))
        }
    }

    @Test func bagCountAndNestingCaps() throws {
        let crl = try Self.bag(PKCS12OID.crlBag) { try $0.serialize(ASN1Null()) }
        let many = Self.safeContents(Array(repeating: crl, count: PKCS12Limits.maximumBagCount + 1))
        #expect(throws: PKCS12Error(.resourceLimit, "")) {
            _ = try PKCS12File.decode(try Self.pfx(safes: [many]), password: nil)
        }

        var inner = Self.safeContents([crl])
        for _ in 0..<(PKCS12Limits.maximumSafeContentsNesting + 1) {
            let wrapped = try Self.bag(PKCS12OID.safeContentsBag) { [inner] in $0.appendRawBytes(inner) }
            inner = Self.safeContents([wrapped])
        }
        #expect(throws: PKCS12Error(.resourceLimit, "")) {
            _ = try PKCS12File.decode(try Self.pfx(safes: [inner]), password: nil)
        }

        let oversized = Data(count: PKCS12Limits.maximumFileSize + 1)
        #expect(throws: PKCS12Error(.resourceLimit, "")) { _ = try PKCS12File.decode(oversized, password: nil) }
    }

    @Test func signedDataIntegrityModeIsUnsupportedWithOID() throws {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(3)
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(PKCS12OID.signedData)
                try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) {
                    try $0.serialize(ASN1Null())
                }
            }
        }
        do {
            _ = try PKCS12File.decode(Data(coder.serializedBytes), password: "x")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unsupportedAlgorithm)
            #expect(error.algorithmOID == "1.2.840.113549.1.7.2")
        }
    }

    @Test func passwordEncodings() {
        #expect(PKCS12Password("ab").bmpCandidates == [Data([0, 0x61, 0, 0x62, 0, 0])])
        #expect(PKCS12Password("").bmpCandidates == [Data([0, 0]), Data()])
        #expect(PKCS12Password(nil).bmpCandidates == [Data([0, 0]), Data()])
        // U+1F600 is a surrogate pair in UTF-16.
        #expect(PKCS12Password("é😀").bmpCandidates == [Data([0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00, 0, 0])])
        #expect(PKCS12Password("é").utf8 == Data([0xC3, 0xA9]))
    }

    @Test func zeroLengthEmptyPasswordEncodingIsAccepted() throws {
        // Some producers (macOS) MAC an empty password as zero bytes rather than 00 00.
        let f = Self.fixtures
        var authSafe = DER.Serializer()
        try authSafe.appendConstructedNode(identifier: .sequence) { coder in
            coder.appendRawBytes(try Self.dataContentInfo(Self.safeContents([try Self.certBag(f.rootDER)])))
        }
        var pfx = DER.Serializer()
        try pfx.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(3)
            coder.appendRawBytes(try Self.dataContentInfo(authSafe.serializedBytes))
            try PKCS12MAC.serializeMacData(
                digest: .sha1, salt: Data([1, 2, 3, 4, 5, 6, 7, 8]), iterations: 2048,
                content: Data(authSafe.serializedBytes),
                bmpPassword: Data(), into: &coder)
        }
        let contents = try PKCS12File.decode(Data(pfx.serializedBytes), password: "")
        #expect(contents.certificates.count == 1)
        #expect(throws: PKCS12Error(.authenticationFailed, "")) {
            _ = try PKCS12File.decode(Data(pfx.serializedBytes), password: "x")
        }
    }

    @Test func pbmac1IsVerified() throws {
        // RFC 9579 PBMAC1 (OpenSSL 3.0 cannot write it; built here): PBKDF2-HMAC-SHA256, HMAC-SHA256.
        let f = Self.fixtures
        var authSafe = DER.Serializer()
        try authSafe.appendConstructedNode(identifier: .sequence) { coder in
            coder.appendRawBytes(try Self.dataContentInfo(Self.safeContents([try Self.certBag(f.rootDER)])))
        }
        let content = Data(authSafe.serializedBytes)
        let kdf = PBKDF2Parameters(salt: Data(repeating: 3, count: 16), iterations: 1000, keyLength: 32, prf: .sha256)
        func file(password: String) throws -> Data {
            let key = try KDF.pbkdf2(
                password: Data(password.utf8), salt: kdf.salt, iterations: 1000, keyLength: 32, digest: .sha256)
            let mac = HMAC.authenticate(.sha256, key: key, data: content)
            var pfx = DER.Serializer()
            try pfx.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(3)
                coder.appendRawBytes(try Self.dataContentInfo(authSafe.serializedBytes))
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.appendConstructedNode(identifier: .sequence) { coder in
                            try coder.serialize(PKCS12OID.pbmac1)
                            try coder.appendConstructedNode(identifier: .sequence) { coder in
                                try kdf.serialize(into: &coder)
                                try coder.appendConstructedNode(identifier: .sequence) { coder in
                                    try coder.serialize(PKCS12OID.hmacWithSHA256)
                                    try coder.serialize(ASN1Null())
                                }
                            }
                        }
                        try coder.serialize(ASN1OctetString([UInt8](mac)))
                    }
                    try coder.serialize(ASN1OctetString([0, 0, 0, 0, 0, 0, 0, 0]))
                    try coder.serialize(1)
                }
            }
            return Data(pfx.serializedBytes)
        }
        let good = try file(password: "pbmac-pw")
        #expect(
            try PKCS12File.decode(good, password: "pbmac-pw").integrity == .pbmac1(digest: .sha256, iterations: 1000))
        #expect(throws: PKCS12Error(.authenticationFailed, "")) { _ = try PKCS12File.decode(good, password: "other") }
    }
}
