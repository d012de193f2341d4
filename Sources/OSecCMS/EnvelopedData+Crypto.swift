import Foundation
import OSecASN1
import OSecCrypto
import OSecX509

/// A recipient's private key on the caller's side: RSA decryption (key transport) or ECDH (key agreement). The
/// key never leaves its owner; these closures run the one private-key operation each recipient type needs.
package struct CMSRecipientKey: Sendable {
    /// The recipient's certificate (matched against each RecipientInfo's identifier).
    package let certificate: Certificate
    /// RSA decryption of an encrypted content-encryption key; nil for EC keys.
    package let decrypt: (@Sendable (_ encryptedKey: [UInt8], _ padding: RSAEncryptionPadding) throws -> [UInt8])?
    /// ECDH with the originator's public key: the raw shared secret (the x coordinate); nil for RSA keys.
    package let agree: (@Sendable (_ originatorKey: AsymmetricKey) throws -> [UInt8])?

    /// A recipient key from its operations.
    package init(
        certificate: Certificate,
        decrypt: (@Sendable (_ encryptedKey: [UInt8], _ padding: RSAEncryptionPadding) throws -> [UInt8])?,
        agree: (@Sendable (_ originatorKey: AsymmetricKey) throws -> [UInt8])?
    ) {
        self.certificate = certificate
        self.decrypt = decrypt
        self.agree = agree
    }

    /// A recipient key over an in-memory private key (tests, the tool).
    package init(certificate: Certificate, privateKey: AsymmetricKey) {
        self.certificate = certificate
        if privateKey.curve == nil {
            decrypt = { [UInt8](try privateKey.decrypt(Data($0), padding: $1)) }
            agree = nil
        } else {
            decrypt = nil
            agree = { [UInt8](try privateKey.deriveSharedSecret(with: $0)) }
        }
    }
}

/// The content ciphers of EnvelopedData (AES-CBC, RFC 3565) and AuthEnvelopedData (AES-GCM, RFC 5084).
enum CMSContentCipher {
    static func cbc(_ oid: ASN1ObjectIdentifier) -> BlockCipher? {
        switch oid {
        case CMSOID.aes128CBC: .aes128CBC
        case CMSOID.aes192CBC: .aes192CBC
        case CMSOID.aes256CBC: .aes256CBC
        default: nil
        }
    }

    static func oid(_ cipher: BlockCipher) -> ASN1ObjectIdentifier {
        switch cipher {
        case .aes128CBC: CMSOID.aes128CBC
        case .aes192CBC: CMSOID.aes192CBC
        default: CMSOID.aes256CBC
        }
    }

    static func gcmKeySize(_ oid: ASN1ObjectIdentifier) -> Int? {
        switch oid {
        case CMSOID.aes128GCM: 16
        case CMSOID.aes192GCM: 24
        case CMSOID.aes256GCM: 32
        default: nil
        }
    }

    static func wrapKeySize(_ oid: ASN1ObjectIdentifier) -> Int? {
        switch oid {
        case CMSOID.aes128Wrap: 16
        case CMSOID.aes192Wrap: 24
        case CMSOID.aes256Wrap: 32
        default: nil
        }
    }

    static func wrapOID(keySize: Int) -> ASN1ObjectIdentifier {
        switch keySize {
        case 16: CMSOID.aes128Wrap
        case 24: CMSOID.aes192Wrap
        default: CMSOID.aes256Wrap
        }
    }

    /// The X9.63 KDF digest of a dhSinglePass-stdDH scheme (RFC 5753 §7.1.4).
    static func kdfDigest(_ oid: ASN1ObjectIdentifier) -> DigestAlgorithm? {
        switch oid {
        case CMSOID.ecdhStdSHA1KDF: .sha1
        case CMSOID.ecdhStdSHA224KDF: .sha224
        case CMSOID.ecdhStdSHA256KDF: .sha256
        case CMSOID.ecdhStdSHA384KDF: .sha384
        case CMSOID.ecdhStdSHA512KDF: .sha512
        default: nil
        }
    }
}

// MARK: - Decryption

extension EnvelopedData {
    /// Decrypts the content with the first of `keys` that one of the RecipientInfos names: RSA key transport
    /// (PKCS#1 v1.5 or OAEP) or ECDH ephemeral-static key agreement (X9.63 KDF, AES key wrap); AES-CBC content, or
    /// AES-GCM for AuthEnvelopedData. Returns the content type and the content.
    package func decrypt(with keys: [CMSRecipientKey]) throws(CMSError) -> (ASN1ObjectIdentifier, [UInt8]) {
        guard let encryptedContent else { throw CMSError.malformed("the encrypted content is detached") }
        var matched = false
        for info in recipientInfos {
            let node = try CMSError.decoding("RecipientInfo") { try DER.parse(info, rules: .basic) }
            for key in keys {
                guard let contentKey = try contentEncryptionKey(node, key) else { continue }
                matched = true
                if let content = try? decryptContent(contentKey, encryptedContent) {
                    return (contentType, content)
                }
            }
        }
        guard matched else { throw CMSError(.noMatchingRecipient, "no key offered is a recipient of the message") }
        throw CMSError(.decryptionFailed, "the content does not decrypt")
    }

    /// The CEK from one RecipientInfo with `key`, nil when the RecipientInfo does not name `key`'s certificate or
    /// is a kind we do not read (KEK, password, other).
    private func contentEncryptionKey(_ node: ASN1Node, _ key: CMSRecipientKey) throws(CMSError) -> [UInt8]? {
        if node.identifier.hasSameTag(as: .sequence) {
            return try keyTransport(node, key)
        }
        if node.identifier.tagClass == .contextSpecific && node.identifier.tagNumber == 1 {
            return try keyAgreement(node, key)
        }
        return nil
    }

    /// KeyTransRecipientInfo (RFC 5652 §6.2.1).
    private func keyTransport(_ node: ASN1Node, _ key: CMSRecipientKey) throws(CMSError) -> [UInt8]? {
        let (identifier, algorithm, encryptedKey) = try CMSError.decoding("KeyTransRecipientInfo") {
            try DER.sequence(node) { nodes in
                _ = try Int(derEncoded: &nodes, withIdentifier: .integer)
                guard let rid = nodes.next(), let algorithmNode = nodes.next() else {
                    throw CMSError.malformed("KeyTransRecipientInfo is incomplete")
                }
                let identifier = try SignerIdentifier(derEncoded: rid)
                let algorithm = try AlgorithmIdentifier(derEncoded: algorithmNode)
                let encrypted = try ASN1OctetString(derEncoded: &nodes, withIdentifier: .octetString)
                return (identifier, algorithm, [UInt8](encrypted.bytes))
            }
        }
        guard identifier.matches(key.certificate), let decrypt = key.decrypt else { return nil }
        let padding = try Self.transportPadding(algorithm)
        do {
            return try decrypt(encryptedKey, padding)
        } catch {
            throw CMSError(.decryptionFailed, "the content-encryption key does not decrypt", underlying: error)
        }
    }

    /// rsaEncryption (PKCS#1 v1.5) or id-RSAES-OAEP with MGF1 over the same digest and an empty label.
    static func transportPadding(_ algorithm: AlgorithmIdentifier) throws(CMSError) -> RSAEncryptionPadding {
        if algorithm.oid == CMSOID.rsaEncryption { return .pkcs1 }
        guard algorithm.oid == CMSOID.rsaesOAEP else {
            throw CMSError(.unsupportedAlgorithm, "unsupported key transport \(algorithm.oid.dotted)")
        }
        guard let parameters = algorithm.parameters, !parameters.elementsEqual([0x05, 0x00]) else {
            return .oaep(.sha1)
        }
        return try CMSError.decoding("RSAES-OAEP parameters") {
            try DER.sequence(try DER.parse(parameters, rules: .basic)) { nodes in
                let hash =
                    try DER.optionalExplicitlyTagged(&nodes, tagNumber: 0) {
                        try CMSDigest.digest(try AlgorithmIdentifier(derEncoded: $0))
                    } ?? .sha1
                let mgfHash =
                    try DER.optionalExplicitlyTagged(&nodes, tagNumber: 1) { node -> DigestAlgorithm in
                        let mgf = try AlgorithmIdentifier(derEncoded: node)
                        guard mgf.oid == CMSOID.mgf1, let inner = mgf.parameters else {
                            throw CMSError(.unsupportedAlgorithm, "OAEP mask generation is not MGF1")
                        }
                        return try CMSDigest.digest(
                            try AlgorithmIdentifier(derEncoded: try DER.parse(inner, rules: .basic)))
                    } ?? .sha1
                guard nodes.isAtEnd else { throw CMSError(.unsupportedAlgorithm, "OAEP with a label") }
                guard hash == mgfHash else { throw CMSError(.unsupportedAlgorithm, "OAEP with different digests") }
                return .oaep(hash)
            }
        }
    }

    /// KeyAgreeRecipientInfo (RFC 5652 §6.2.2) with ECDH ephemeral-static (RFC 5753).
    private func keyAgreement(_ node: ASN1Node, _ key: CMSRecipientKey) throws(CMSError) -> [UInt8]? {
        guard let agree = key.agree, let curve = try? key.certificate.publicKeyInfo.makeKey().curve else { return nil }
        struct Parsed {
            var originatorPoint: [UInt8] = []
            var ukm: [UInt8]?
            var scheme: AlgorithmIdentifier?
            var encryptedKey: [UInt8]?
        }
        let parsed = try CMSError.decoding("KeyAgreeRecipientInfo") { () throws -> Parsed in
            var parsed = Parsed()
            try DER.sequence(node, identifier: .contextSpecific(1, constructed: true)) { nodes in
                _ = try Int(derEncoded: &nodes, withIdentifier: .integer)
                guard let originator = nodes.next() else { throw CMSError.malformed("no originator") }
                parsed.originatorPoint = try DER.explicitlyTagged(originator, tagNumber: 0) { choice in
                    try DER.sequence(choice, identifier: .contextSpecific(1, constructed: true)) { inner in
                        guard inner.next() != nil else { throw CMSError.malformed("no originator algorithm") }
                        return [UInt8](try ASN1BitString(derEncoded: &inner, withIdentifier: .bitString).bytes)
                    }
                }
                parsed.ukm = try DER.optionalExplicitlyTagged(&nodes, tagNumber: 1) {
                    [UInt8](try ASN1OctetString(derEncoded: $0).bytes)
                }
                guard let schemeNode = nodes.next(), let keys = nodes.next() else {
                    throw CMSError.malformed("KeyAgreeRecipientInfo is incomplete")
                }
                parsed.scheme = try AlgorithmIdentifier(derEncoded: schemeNode)
                try DER.sequence(keys) { entries in
                    while let entry = entries.next() {
                        try DER.sequence(entry) { fields in
                            guard let rid = fields.next() else { throw CMSError.malformed("no recipient id") }
                            let encrypted = [UInt8](
                                try ASN1OctetString(derEncoded: &fields, withIdentifier: .octetString).bytes)
                            if try Self.keyAgreeIdentifier(rid).matches(key.certificate) {
                                parsed.encryptedKey = encrypted
                            }
                        }
                    }
                }
            }
            return parsed
        }
        guard let encryptedKey = parsed.encryptedKey, let scheme = parsed.scheme else { return nil }
        guard let digest = CMSContentCipher.kdfDigest(scheme.oid), let wrapParameters = scheme.parameters else {
            throw CMSError(.unsupportedAlgorithm, "unsupported key agreement \(scheme.oid.dotted)")
        }
        let wrap = try CMSError.decoding("key wrap algorithm") {
            try AlgorithmIdentifier(derEncoded: try DER.parse(wrapParameters, rules: .basic))
        }
        guard let wrapKeySize = CMSContentCipher.wrapKeySize(wrap.oid) else {
            throw CMSError(.unsupportedAlgorithm, "unsupported key wrap \(wrap.oid.dotted)")
        }
        do {
            let originator = try AsymmetricKey(ecPublicKeyX963: Data(parsed.originatorPoint), curve: curve)
            let secret = try agree(originator)
            let kek = try Self.keyEncryptionKey(
                secret, wrap: wrap, keySize: wrapKeySize, ukm: parsed.ukm, digest: digest)
            return [UInt8](try AESKeyWrap.unwrap(Data(encryptedKey), kek: Data(kek)))
        } catch {
            throw CMSError(.decryptionFailed, "the key agreement does not yield the content key", underlying: error)
        }
    }

    /// KeyAgreeRecipientIdentifier: issuerAndSerialNumber, or rKeyId [0] IMPLICIT RecipientKeyIdentifier.
    static func keyAgreeIdentifier(_ node: ASN1Node) throws -> SignerIdentifier {
        guard node.identifier.tagClass == .contextSpecific, node.identifier.tagNumber == 0 else {
            return try SignerIdentifier(derEncoded: node)
        }
        return try DER.sequence(node, identifier: .contextSpecific(0, constructed: true)) { fields in
            let identifier = try ASN1OctetString(derEncoded: &fields, withIdentifier: .octetString)
            fields.skipRemaining()
            return .subjectKeyIdentifier(identifier.bytes)
        }
    }

    /// The KEK: X9.63 KDF over the shared secret with ECC-CMS-SharedInfo (RFC 5753 §7.2).
    static func keyEncryptionKey(
        _ secret: [UInt8], wrap: AlgorithmIdentifier, keySize: Int, ukm: [UInt8]?, digest: DigestAlgorithm
    ) throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(wrap)
            if let ukm { try coder.serialize(ASN1OctetString(ukm), explicitlyTaggedWithTagNumber: 0) }
            let bits = UInt32(keySize * 8)
            let length = [UInt8(bits >> 24), UInt8((bits >> 16) & 0xFF), UInt8((bits >> 8) & 0xFF), UInt8(bits & 0xFF)]
            try coder.serialize(ASN1OctetString(length), explicitlyTaggedWithTagNumber: 2)
        }
        return [UInt8](
            try KDF.x963(
                sharedSecret: Data(secret), sharedInfo: Data(coder.serializedBytes), keyLength: keySize, digest: digest)
        )
    }

    private func decryptContent(_ key: [UInt8], _ ciphertext: [UInt8]) throws -> [UInt8] {
        let algorithm = contentEncryptionAlgorithm
        guard let parameters = algorithm.parameters else { throw CMSError.malformed("content cipher without IV") }
        if authenticated {
            guard let size = CMSContentCipher.gcmKeySize(algorithm.oid), key.count == size, let mac else {
                throw CMSError(.unsupportedAlgorithm, "unsupported authenticated cipher \(algorithm.oid.dotted)")
            }
            let (nonce, tagLength) = try DER.sequence(try DER.parse(parameters, rules: .basic)) { nodes in
                let nonce = try ASN1OctetString(derEncoded: &nodes, withIdentifier: .octetString)
                let tagLength = nodes.isAtEnd ? 12 : try Int(derEncoded: &nodes, withIdentifier: .integer)
                return ([UInt8](nonce.bytes), tagLength)
            }
            guard mac.count == tagLength else { throw CMSError.malformed("GCM tag length mismatch") }
            let aad = authenticatedAttributesDER ?? []
            return [UInt8](
                try AESGCM.open(
                    key: Data(key), nonce: Data(nonce), ciphertext: Data(ciphertext), tag: Data(mac), aad: Data(aad)))
        }
        guard let cipher = CMSContentCipher.cbc(algorithm.oid), key.count == cipher.keySize else {
            throw CMSError(.unsupportedAlgorithm, "unsupported content cipher \(algorithm.oid.dotted)")
        }
        let iv = try ASN1OctetString(derEncoded: try DER.parse(parameters, rules: .basic)).bytes
        return [UInt8](try SymmetricCrypto.decrypt(cipher, key: Data(key), iv: Data(iv), ciphertext: Data(ciphertext)))
    }
}

// MARK: - Encryption

/// Builds an EnvelopedData (RFC 5652 §6) in DER: AES-CBC content encryption, RSA recipients by key transport
/// (PKCS#1 v1.5 unless OAEP is asked for), EC recipients by ECDH ephemeral-static with the X9.63 KDF (SHA-256) and
/// AES key wrap (RFC 5753).
package struct EnvelopedDataBuilder: Sendable {
    /// The recipients' certificates.
    package var recipients: [Certificate] = []
    /// The content cipher (AES-256-CBC unless set).
    package var contentCipher: BlockCipher = .aes256CBC
    /// RSA key transport padding: `.pkcs1` or `.oaep(digest)`.
    package var rsaPadding: RSAEncryptionPadding = .pkcs1

    /// A builder with no recipients.
    package init() {}

    /// The EnvelopedData ContentInfo of `content` (of `contentType`).
    package func build(content: [UInt8], contentType: ASN1ObjectIdentifier = CMSOID.data) throws(CMSError) -> [UInt8] {
        guard !recipients.isEmpty, recipients.count <= CMSLimits.maximumRecipientCount else {
            throw CMSError(
                .invalidParameter, "an enveloped message needs 1…\(CMSLimits.maximumRecipientCount) recipients")
        }
        return try CMSError.converting({ () throws -> [UInt8] in
            let key = try SecureRandom.bytes(contentCipher.keySize)
            let iv = try SecureRandom.bytes(contentCipher.ivSize)
            let encrypted = try SymmetricCrypto.encrypt(contentCipher, key: key, iv: iv, plaintext: Data(content))
            var infos: [[UInt8]] = []
            var allTransport = true
            for certificate in recipients {
                let recipientKey = try certificate.publicKeyInfo.makeKey()
                if recipientKey.curve == nil {
                    infos.append(try keyTransport(certificate, recipientKey, [UInt8](key)))
                } else {
                    allTransport = false
                    infos.append(try keyAgreement(certificate, recipientKey, [UInt8](key)))
                }
            }
            var coder = DER.Serializer()
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(allTransport ? 0 : 2)
                let sorted = infos.sorted { $0.lexicographicallyPrecedes($1) }
                coder.appendConstructedNode(identifier: .set) { coder in
                    for info in sorted { coder.appendRawBytes(info) }
                }
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(contentType)
                    try coder.serialize(
                        AlgorithmIdentifier(
                            oid: CMSContentCipher.oid(contentCipher),
                            parameters: try ASN1OctetString([UInt8](iv)).derEncoded()[...]))
                    try coder.serialize(
                        ASN1OctetString([UInt8](encrypted)), withIdentifier: .contextSpecific(0, constructed: false))
                }
            }
            return try CMSMessage.contentInfo(CMSOID.envelopedData, coder.serializedBytes)
        }) { CMSError(.invalidParameter, "the message does not encrypt", underlying: $0) }
    }

    private func keyTransport(_ certificate: Certificate, _ key: AsymmetricKey, _ cek: [UInt8]) throws -> [UInt8] {
        let encrypted = try key.encrypt(Data(cek), padding: rsaPadding)
        let algorithm: AlgorithmIdentifier
        switch rsaPadding {
        case .oaep(let digest) where digest != .sha1:
            var parameters = DER.Serializer()
            try parameters.appendConstructedNode(identifier: .sequence) { coder in
                let hash = CMSDigest.identifier(digest)
                try coder.serialize(hash, explicitlyTaggedWithTagNumber: 0)
                try coder.serialize(
                    AlgorithmIdentifier(oid: CMSOID.mgf1, parameters: try hash.derEncoded()[...]),
                    explicitlyTaggedWithTagNumber: 1)
            }
            algorithm = AlgorithmIdentifier(oid: CMSOID.rsaesOAEP, parameters: parameters.serializedBytes[...])
        case .oaep:
            algorithm = AlgorithmIdentifier(oid: CMSOID.rsaesOAEP, parameters: [0x30, 0x00])
        default:
            algorithm = AlgorithmIdentifier(oid: CMSOID.rsaEncryption, parameters: [0x05, 0x00])
        }
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(0)
            try SignerIdentifier(certificate, useSubjectKeyIdentifier: false).serialize(into: &coder)
            try coder.serialize(algorithm)
            try coder.serialize(ASN1OctetString([UInt8](encrypted)))
        }
        return coder.serializedBytes
    }

    private func keyAgreement(_ certificate: Certificate, _ key: AsymmetricKey, _ cek: [UInt8]) throws -> [UInt8] {
        guard let curve = key.curve else { throw CMSError(.invalidParameter, "not an EC key") }
        let ephemeral = try AsymmetricKey.generateEC(curve)
        let secret = try ephemeral.deriveSharedSecret(with: key)
        let wrapSize = cek.count
        let wrap = AlgorithmIdentifier(oid: CMSContentCipher.wrapOID(keySize: wrapSize))
        let kek = try EnvelopedData.keyEncryptionKey(
            [UInt8](secret), wrap: wrap, keySize: wrapSize, ukm: nil, digest: .sha256)
        let wrapped = try AESKeyWrap.wrap(Data(cek), kek: Data(kek))
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .contextSpecific(1, constructed: true)) { coder in
            try coder.serialize(3)
            try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) { coder in
                try coder.appendConstructedNode(identifier: .contextSpecific(1, constructed: true)) { coder in
                    try coder.serialize(AlgorithmIdentifier(oid: CMSOID.ecPublicKey))
                    try coder.serialize(
                        try ASN1BitString(bytes: [UInt8](try ephemeral.publicKey.x963Representation)[...]))
                }
            }
            try coder.serialize(
                AlgorithmIdentifier(oid: CMSOID.ecdhStdSHA256KDF, parameters: try wrap.derEncoded()[...]))
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try SignerIdentifier(certificate, useSubjectKeyIdentifier: false).serialize(into: &coder)
                    try coder.serialize(ASN1OctetString([UInt8](wrapped)))
                }
            }
        }
        return coder.serializedBytes
    }
}
