import Foundation
import OSecASN1
import OSecCrypto

/// Writes PKCS#12 files.
package enum PKCS12Builder {
    /// Salt length for PBE and MAC (OpenSSL uses 8; RFC 8018 recommends at least 8; we use 16 for PBES2).
    static let pkcs12SaltLength = 8
    static let pbes2SaltLength = 16

    /// Builds a PFX holding `identities` (each key shrouded, its certificate with friendlyName and
    /// localKeyId) and `certificates` (extra certificates, e.g. the chain), protected by `password`
    /// (`nil` = empty) according to `profile`.
    package static func export(
        identities: [PKCS12ExportIdentity], certificates: [Data], password: String?,
        profile: PKCS12ExportProfile = .modern
    ) throws(PKCS12Error) -> Data {
        try PKCS12File.mapErrors {
            try build(identities: identities, certificates: certificates, password: password, profile: profile)
        }
    }

    private static func build(
        identities: [PKCS12ExportIdentity], certificates: [Data], password: String?, profile: PKCS12ExportProfile
    ) throws -> Data {
        guard (1...PKCS12Limits.maximumIterations).contains(profile.iterations),
            (1...PKCS12Limits.maximumIterations).contains(profile.macIterations)
        else {
            throw PKCS12Error(.invalidParameter, "iteration counts must be in 1...\(PKCS12Limits.maximumIterations)")
        }
        guard !identities.isEmpty || !certificates.isEmpty else {
            throw PKCS12Error(.invalidParameter, "nothing to export")
        }
        let pass = PKCS12Password(password)
        let bmpPassword = pass.bmpCandidates[0]

        var certBags = DER.Serializer()
        var keyBags = DER.Serializer()
        try certBags.appendConstructedNode(identifier: .sequence) { coder in
            for identity in identities {
                let info = try PKCS12CertificateInfo(der: identity.certificate)
                let certKey = try AsymmetricKey(subjectPublicKeyInfo: Data(info.subjectPublicKeyInfo))
                guard identity.privateKey.isPrivate, identity.privateKey.isSamePublicKey(as: certKey) else {
                    throw PKCS12Error(.invalidParameter, "an identity's certificate does not match its private key")
                }
                try appendCertBag(identity.certificate, attributes: attributes(of: identity), into: &coder)
            }
            for certificate in certificates {
                _ = try PKCS12CertificateInfo(der: certificate)
                try appendCertBag(certificate, attributes: BagAttributes(), into: &coder)
            }
        }
        try keyBags.appendConstructedNode(identifier: .sequence) { coder in
            for identity in identities {
                var pkcs8 = try identity.privateKey.pkcs8DER
                defer { pkcs8.resetBytes(in: 0..<pkcs8.count) }
                let algorithm = try pbeAlgorithm(profile.keyEncryption, iterations: profile.iterations)
                let ciphertext = try algorithm.encrypt(
                    pkcs8, passwordBytes: algorithm.usesBMPPassword ? bmpPassword : pass.utf8)
                try SafeBagValue.serialize(
                    bagID: PKCS12OID.pkcs8ShroudedKeyBag, attributes: attributes(of: identity), into: &coder
                ) { coder in
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try algorithm.serialize(into: &coder)
                        try coder.serialize(ASN1OctetString([UInt8](ciphertext)))
                    }
                }
            }
        }

        // AuthenticatedSafe ::= SEQUENCE OF ContentInfo: [certificate safe, key safe].
        var authSafe = DER.Serializer()
        try authSafe.appendConstructedNode(identifier: .sequence) { coder in
            if !certificates.isEmpty || !identities.isEmpty {
                if let encryption = profile.certificateEncryption {
                    let algorithm = try pbeAlgorithm(encryption, iterations: profile.iterations)
                    let ciphertext = try algorithm.encrypt(
                        Data(certBags.serializedBytes),
                        passwordBytes: algorithm.usesBMPPassword ? bmpPassword : pass.utf8)
                    try appendEncryptedDataContentInfo(algorithm: algorithm, ciphertext: ciphertext, into: &coder)
                } else {
                    try appendDataContentInfo(certBags.serializedBytes, into: &coder)
                }
            }
            if !identities.isEmpty {
                try appendDataContentInfo(keyBags.serializedBytes, into: &coder)
            }
        }

        var pfx = DER.Serializer()
        try pfx.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(3)
            try appendDataContentInfo(authSafe.serializedBytes, into: &coder)
            if let digest = profile.macDigest {
                try PKCS12MAC.serializeMacData(
                    digest: digest, salt: try SecureRandom.bytes(pkcs12SaltLength), iterations: profile.macIterations,
                    content: Data(authSafe.serializedBytes), bmpPassword: bmpPassword, into: &coder)
            }
        }
        return Data(pfx.serializedBytes)
    }

    private static func attributes(of identity: PKCS12ExportIdentity) -> BagAttributes {
        BagAttributes(
            friendlyName: identity.friendlyName,
            localKeyID: identity.localKeyID ?? Digest.hash(.sha1, identity.certificate))
    }

    private static func pbeAlgorithm(
        _ encryption: PKCS12ExportProfile.Encryption, iterations: Int
    ) throws -> PBEAlgorithm {
        switch encryption {
        case .pbes2AES256CBC(let prf):
            return .pbes2(
                prf: prf, salt: try SecureRandom.bytes(pbes2SaltLength), iterations: iterations, cipher: .aes256CBC,
                iv: try SecureRandom.bytes(16))
        case .pbes2AES128CBC(let prf):
            return .pbes2(
                prf: prf, salt: try SecureRandom.bytes(pbes2SaltLength), iterations: iterations, cipher: .aes128CBC,
                iv: try SecureRandom.bytes(16))
        case .pkcs12TripleDES:
            return .pkcs12(.tripleDES3Key, salt: try SecureRandom.bytes(pkcs12SaltLength), iterations: iterations)
        case .pkcs12RC2x40:
            return .pkcs12(.rc2x40, salt: try SecureRandom.bytes(pkcs12SaltLength), iterations: iterations)
        }
    }

    private static func appendCertBag(_ der: Data, attributes: BagAttributes, into coder: inout DER.Serializer) throws {
        try SafeBagValue.serialize(bagID: PKCS12OID.certBag, attributes: attributes, into: &coder) { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(PKCS12OID.x509Certificate)
                try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) { coder in
                    try coder.serialize(ASN1OctetString([UInt8](der)))
                }
            }
        }
    }

    private static func appendDataContentInfo(_ content: [UInt8], into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(PKCS12OID.data)
            try coder.appendConstructedNode(identifier: .contextSpecific(0, constructed: true)) { coder in
                try coder.serialize(ASN1OctetString(content))
            }
        }
    }

    private static func appendEncryptedDataContentInfo(
        algorithm: PBEAlgorithm, ciphertext: Data, into coder: inout DER.Serializer
    ) throws {
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
    }
}
