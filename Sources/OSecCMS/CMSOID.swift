import OSecASN1
import OSecX509

/// Object identifiers of RFC 5652 (CMS), RFC 8551 (S/MIME attributes) and the algorithms CMS names.
/// Where OSecX509 already names an identifier, the constant here is that one (one source for each arc).
package enum CMSOID {
    /// id-data (1.2.840.113549.1.7.1).
    package static let data: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
    /// id-signedData (1.2.840.113549.1.7.2).
    package static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 2]
    /// id-envelopedData (1.2.840.113549.1.7.3).
    package static let envelopedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 3]
    /// id-digestedData (1.2.840.113549.1.7.5).
    package static let digestedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 5]
    /// id-encryptedData (1.2.840.113549.1.7.6).
    package static let encryptedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 6]
    /// id-ct-authEnvelopedData (RFC 5083).
    package static let authEnvelopedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 16, 1, 23]

    // MARK: Attributes

    /// id-contentType.
    package static let contentType: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 3]
    /// id-messageDigest.
    package static let messageDigest: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 4]
    /// id-signingTime.
    package static let signingTime: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 5]
    /// smimeCapabilities (RFC 8551 §2.5.2).
    package static let smimeCapabilities: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 15]
    /// id-aa-encrypKeyPref (RFC 8551 §2.5.3).
    package static let encryptionKeyPreference: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 16, 2, 11]
    /// Microsoft's encryption key preference (1.3.6.1.4.1.311.16.4).
    package static let microsoftEncryptionKeyPreference: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 311, 16, 4]
    /// Apple's code-signing hash agility attribute (1.2.840.113635.100.9.1): an OCTET STRING (a property list).
    package static let appleHashAgility: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 9, 1]
    /// Apple's hash agility attribute, version 2 (1.2.840.113635.100.9.2): one value per digest,
    /// `SEQUENCE { digestAlgorithm OBJECT IDENTIFIER, digest OCTET STRING }`.
    package static let appleHashAgilityV2: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 9, 2]
    /// Apple's expiration time attribute (1.2.840.113635.100.9.3): a Time, as signing-time.
    package static let appleExpirationTime: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 9, 3]

    // MARK: Algorithms

    /// rsaEncryption: PKCS#1 v1.5 signatures (with the SignerInfo's digest) and key transport.
    package static let rsaEncryption: ASN1ObjectIdentifier = X509OID.rsaEncryption
    /// id-RSAES-OAEP (RFC 3560).
    package static let rsaesOAEP: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 7]
    /// id-RSASSA-PSS.
    package static let rsassaPSS: ASN1ObjectIdentifier = X509OID.rsassaPSS
    /// id-mgf1.
    package static let mgf1: ASN1ObjectIdentifier = X509OID.mgf1
    /// id-ecPublicKey (some signers name the key type, not the signature algorithm).
    package static let ecPublicKey: ASN1ObjectIdentifier = X509OID.ecPublicKey
    /// ecdsa-with-SHA1.
    package static let ecdsaWithSHA1: ASN1ObjectIdentifier = X509OID.ecdsaWithSHA1
    /// ecdsa-with-SHA224.
    package static let ecdsaWithSHA224: ASN1ObjectIdentifier = X509OID.ecdsaWithSHA224
    /// ecdsa-with-SHA256.
    package static let ecdsaWithSHA256: ASN1ObjectIdentifier = X509OID.ecdsaWithSHA256
    /// ecdsa-with-SHA384.
    package static let ecdsaWithSHA384: ASN1ObjectIdentifier = X509OID.ecdsaWithSHA384
    /// ecdsa-with-SHA512.
    package static let ecdsaWithSHA512: ASN1ObjectIdentifier = X509OID.ecdsaWithSHA512
    /// id-sha1.
    package static let sha1: ASN1ObjectIdentifier = X509OID.sha1
    /// id-sha224.
    package static let sha224: ASN1ObjectIdentifier = X509OID.sha224
    /// id-sha256.
    package static let sha256: ASN1ObjectIdentifier = X509OID.sha256
    /// id-sha384.
    package static let sha384: ASN1ObjectIdentifier = X509OID.sha384
    /// id-sha512.
    package static let sha512: ASN1ObjectIdentifier = X509OID.sha512
    /// id-aes128-CBC.
    package static let aes128CBC: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 2]
    /// id-aes192-CBC.
    package static let aes192CBC: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 22]
    /// id-aes256-CBC.
    package static let aes256CBC: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 42]
    /// id-aes128-GCM (RFC 5084).
    package static let aes128GCM: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 6]
    /// id-aes192-GCM.
    package static let aes192GCM: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 26]
    /// id-aes256-GCM.
    package static let aes256GCM: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 46]
    /// id-aes128-wrap (RFC 3394).
    package static let aes128Wrap: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 5]
    /// id-aes192-wrap.
    package static let aes192Wrap: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 25]
    /// id-aes256-wrap.
    package static let aes256Wrap: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 45]
    /// dhSinglePass-stdDH-sha1kdf-scheme (SEC 1 / RFC 5753).
    package static let ecdhStdSHA1KDF: ASN1ObjectIdentifier = [1, 3, 133, 16, 840, 63, 0, 2]
    /// dhSinglePass-stdDH-sha224kdf-scheme.
    package static let ecdhStdSHA224KDF: ASN1ObjectIdentifier = [1, 3, 132, 1, 11, 0]
    /// dhSinglePass-stdDH-sha256kdf-scheme.
    package static let ecdhStdSHA256KDF: ASN1ObjectIdentifier = [1, 3, 132, 1, 11, 1]
    /// dhSinglePass-stdDH-sha384kdf-scheme.
    package static let ecdhStdSHA384KDF: ASN1ObjectIdentifier = [1, 3, 132, 1, 11, 2]
    /// dhSinglePass-stdDH-sha512kdf-scheme.
    package static let ecdhStdSHA512KDF: ASN1ObjectIdentifier = [1, 3, 132, 1, 11, 3]
    /// DES-EDE3-CBC (announced in S/MIME capabilities only).
    package static let desEDE3CBC: ASN1ObjectIdentifier = [1, 2, 840, 113549, 3, 7]
}
