import OSecASN1

/// Object identifiers used by the X.509 layer, decoded once.
package enum X509OID {
    // MARK: Signature and key algorithms
    /// `1.2.840.113549.1.1.1`: RSA public keys (RFC 8017).
    package static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 1]
    /// `1.2.840.113549.1.1.5`: RSASSA-PKCS1-v1_5 with SHA-1.
    package static let sha1WithRSAEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 5]
    /// `1.2.840.113549.1.1.14`: RSASSA-PKCS1-v1_5 with SHA-224.
    package static let sha224WithRSAEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 14]
    /// `1.2.840.113549.1.1.11`: RSASSA-PKCS1-v1_5 with SHA-256.
    package static let sha256WithRSAEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 11]
    /// `1.2.840.113549.1.1.12`: RSASSA-PKCS1-v1_5 with SHA-384.
    package static let sha384WithRSAEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 12]
    /// `1.2.840.113549.1.1.13`: RSASSA-PKCS1-v1_5 with SHA-512.
    package static let sha512WithRSAEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 13]
    /// `1.2.840.113549.1.1.4`: RSASSA-PKCS1-v1_5 with MD5 (refused by trust evaluation).
    package static let md5WithRSAEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 4]
    /// `1.2.840.113549.1.1.10`: RSASSA-PSS (RFC 4055).
    package static let rsassaPSS: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 10]
    /// `1.2.840.113549.1.1.8`: MGF1 mask generation (RFC 8017).
    package static let mgf1: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 8]
    /// `1.2.840.10045.2.1`: elliptic-curve public keys (RFC 5480).
    package static let ecPublicKey: ASN1ObjectIdentifier = [1, 2, 840, 10045, 2, 1]
    /// `1.2.840.10045.4.1`: ECDSA with SHA-1.
    package static let ecdsaWithSHA1: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 1]
    /// `1.2.840.10045.4.3.1`: ECDSA with SHA-224.
    package static let ecdsaWithSHA224: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 1]
    /// `1.2.840.10045.4.3.2`: ECDSA with SHA-256.
    package static let ecdsaWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]
    /// `1.2.840.10045.4.3.3`: ECDSA with SHA-384.
    package static let ecdsaWithSHA384: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 3]
    /// `1.2.840.10045.4.3.4`: ECDSA with SHA-512.
    package static let ecdsaWithSHA512: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 4]
    /// `1.3.101.112`: Ed25519 keys and signatures (RFC 8410).
    package static let ed25519: ASN1ObjectIdentifier = [1, 3, 101, 112]
    /// `1.3.101.113`: Ed448 keys and signatures (RFC 8410).
    package static let ed448: ASN1ObjectIdentifier = [1, 3, 101, 113]
    /// `1.3.14.3.2.26`: the SHA-1 digest.
    package static let sha1: ASN1ObjectIdentifier = [1, 3, 14, 3, 2, 26]
    /// `2.16.840.1.101.3.4.2.4`: the SHA-224 digest.
    package static let sha224: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 4]
    /// `2.16.840.1.101.3.4.2.1`: the SHA-256 digest.
    package static let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    /// `2.16.840.1.101.3.4.2.2`: the SHA-384 digest.
    package static let sha384: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 2]
    /// `2.16.840.1.101.3.4.2.3`: the SHA-512 digest.
    package static let sha512: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 3]
    /// `1.2.840.10045.3.1.7`: the NIST P-256 curve (secp256r1).
    package static let p256: ASN1ObjectIdentifier = [1, 2, 840, 10045, 3, 1, 7]
    /// `1.3.132.0.34`: the NIST P-384 curve (secp384r1).
    package static let p384: ASN1ObjectIdentifier = [1, 3, 132, 0, 34]
    /// `1.3.132.0.35`: the NIST P-521 curve (secp521r1).
    package static let p521: ASN1ObjectIdentifier = [1, 3, 132, 0, 35]

    // MARK: Extensions (RFC 5280 §4.2)
    /// `2.5.29.14`: extension, RFC 5280 §4.2.1.2.
    package static let subjectKeyIdentifier: ASN1ObjectIdentifier = [2, 5, 29, 14]
    /// `2.5.29.15`: extension, §4.2.1.3.
    package static let keyUsage: ASN1ObjectIdentifier = [2, 5, 29, 15]
    /// `2.5.29.17`: extension, §4.2.1.6.
    package static let subjectAltName: ASN1ObjectIdentifier = [2, 5, 29, 17]
    /// `2.5.29.18`: extension, §4.2.1.7.
    package static let issuerAltName: ASN1ObjectIdentifier = [2, 5, 29, 18]
    /// `2.5.29.19`: extension, §4.2.1.9.
    package static let basicConstraints: ASN1ObjectIdentifier = [2, 5, 29, 19]
    /// `2.5.29.30`: extension, §4.2.1.10.
    package static let nameConstraints: ASN1ObjectIdentifier = [2, 5, 29, 30]
    /// `2.5.29.31`: extension, §4.2.1.13.
    package static let crlDistributionPoints: ASN1ObjectIdentifier = [2, 5, 29, 31]
    /// `2.5.29.32`: extension, §4.2.1.4.
    package static let certificatePolicies: ASN1ObjectIdentifier = [2, 5, 29, 32]
    /// `2.5.29.33`: extension, §4.2.1.5.
    package static let policyMappings: ASN1ObjectIdentifier = [2, 5, 29, 33]
    /// `2.5.29.35`: extension, §4.2.1.1.
    package static let authorityKeyIdentifier: ASN1ObjectIdentifier = [2, 5, 29, 35]
    /// `2.5.29.36`: extension, §4.2.1.11.
    package static let policyConstraints: ASN1ObjectIdentifier = [2, 5, 29, 36]
    /// `2.5.29.37`: extension, §4.2.1.12.
    package static let extKeyUsage: ASN1ObjectIdentifier = [2, 5, 29, 37]
    /// `2.5.29.54`: extension, §4.2.1.14.
    package static let inhibitAnyPolicy: ASN1ObjectIdentifier = [2, 5, 29, 54]
    /// `1.3.6.1.5.5.7.1.1`: extension, §4.2.2.1.
    package static let authorityInfoAccess: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 1, 1]
    /// `2.5.29.32.0`: the special policy anyPolicy (§4.2.1.4).
    package static let anyPolicy: ASN1ObjectIdentifier = [2, 5, 29, 32, 0]

    // MARK: Extended key usages
    /// `2.5.29.37.0`: any purpose (§4.2.1.12).
    package static let anyExtendedKeyUsage: ASN1ObjectIdentifier = [2, 5, 29, 37, 0]
    /// `1.3.6.1.5.5.7.3.1`: TLS server authentication.
    package static let serverAuth: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 1]
    /// `1.3.6.1.5.5.7.3.2`: TLS client authentication.
    package static let clientAuth: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 2]
    /// `1.3.6.1.5.5.7.3.3`: code signing.
    package static let codeSigning: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 3]
    /// `1.3.6.1.5.5.7.3.4`: email protection (S/MIME).
    package static let emailProtection: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 4]
    /// `1.3.6.1.5.5.7.3.8`: time stamping.
    package static let timeStamping: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 8]
    /// `1.3.6.1.5.5.7.3.9`: OCSP response signing.
    package static let ocspSigning: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 3, 9]

    // MARK: Access methods, qualifiers
    /// `1.3.6.1.5.5.7.48.1`: the OCSP access method (authorityInfoAccess).
    package static let ocsp: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 48, 1]
    /// `1.3.6.1.5.5.7.48.2`: the caIssuers access method (authorityInfoAccess).
    package static let caIssuers: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 48, 2]
    /// `1.3.6.1.5.5.7.2.1`: the CPS pointer policy qualifier.
    package static let cpsQualifier: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 2, 1]
    /// `1.3.6.1.5.5.7.2.2`: the user notice policy qualifier.
    package static let userNoticeQualifier: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 2, 2]

    // MARK: PKCS#9 / PKCS#10
    /// `1.2.840.113549.1.9.14`: the extensionRequest CSR attribute (PKCS#9).
    package static let pkcs9ExtensionRequest: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 14]
    /// `1.2.840.113549.1.9.7`: the challengePassword CSR attribute (PKCS#9).
    package static let pkcs9ChallengePassword: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 7]

    // MARK: Name attributes
    /// `2.5.4.3`: the commonName name attribute (X.520).
    package static let commonName: ASN1ObjectIdentifier = [2, 5, 4, 3]
    /// `2.5.4.4`: the surname name attribute (X.520).
    package static let surname: ASN1ObjectIdentifier = [2, 5, 4, 4]
    /// `2.5.4.5`: the serialNumber name attribute (X.520).
    package static let serialNumber: ASN1ObjectIdentifier = [2, 5, 4, 5]
    /// `2.5.4.6`: the countryName name attribute (X.520).
    package static let countryName: ASN1ObjectIdentifier = [2, 5, 4, 6]
    /// `2.5.4.7`: the localityName name attribute (X.520).
    package static let localityName: ASN1ObjectIdentifier = [2, 5, 4, 7]
    /// `2.5.4.8`: the stateOrProvinceName name attribute (X.520).
    package static let stateOrProvinceName: ASN1ObjectIdentifier = [2, 5, 4, 8]
    /// `2.5.4.9`: the streetAddress name attribute (X.520).
    package static let streetAddress: ASN1ObjectIdentifier = [2, 5, 4, 9]
    /// `2.5.4.10`: the organizationName name attribute (X.520).
    package static let organizationName: ASN1ObjectIdentifier = [2, 5, 4, 10]
    /// `2.5.4.11`: the organizationalUnitName name attribute (X.520).
    package static let organizationalUnitName: ASN1ObjectIdentifier = [2, 5, 4, 11]
    /// `2.5.4.12`: the title name attribute (X.520).
    package static let title: ASN1ObjectIdentifier = [2, 5, 4, 12]
    /// `2.5.4.13`: the description name attribute (X.520).
    package static let description: ASN1ObjectIdentifier = [2, 5, 4, 13]
    /// `2.5.4.17`: the postalCode name attribute (X.520).
    package static let postalCode: ASN1ObjectIdentifier = [2, 5, 4, 17]
    /// `2.5.4.42`: the givenName name attribute (X.520).
    package static let givenName: ASN1ObjectIdentifier = [2, 5, 4, 42]
    /// `2.5.4.43`: the initials name attribute (X.520).
    package static let initials: ASN1ObjectIdentifier = [2, 5, 4, 43]
    /// `2.5.4.44`: the generationQualifier name attribute (X.520).
    package static let generationQualifier: ASN1ObjectIdentifier = [2, 5, 4, 44]
    /// `2.5.4.46`: the dnQualifier name attribute (X.520).
    package static let dnQualifier: ASN1ObjectIdentifier = [2, 5, 4, 46]
    /// `2.5.4.65`: the pseudonym name attribute (X.520).
    package static let pseudonym: ASN1ObjectIdentifier = [2, 5, 4, 65]
    /// `2.5.4.97`: the organizationIdentifier name attribute (X.520).
    package static let organizationIdentifier: ASN1ObjectIdentifier = [2, 5, 4, 97]
    /// `1.2.840.113549.1.9.1`: the PKCS#9 emailAddress name attribute.
    package static let emailAddress: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 1]
    /// `0.9.2342.19200300.100.1.25`: the domainComponent name attribute (RFC 4519).
    package static let domainComponent: ASN1ObjectIdentifier = [0, 9, 2342, 19200300, 100, 1, 25]
    /// `0.9.2342.19200300.100.1.1`: the userID (uid) name attribute (RFC 4519).
    package static let userID: ASN1ObjectIdentifier = [0, 9, 2342, 19200300, 100, 1, 1]
    /// `1.3.6.1.4.1.311.60.2.1.3`: the EV jurisdictionCountryName attribute.
    package static let jurisdictionCountry: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 311, 60, 2, 1, 3]
    /// `1.3.6.1.4.1.311.60.2.1.2`: the EV jurisdictionStateOrProvinceName attribute.
    package static let jurisdictionStateOrProvince: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 311, 60, 2, 1, 2]
    /// `1.3.6.1.4.1.311.60.2.1.1`: the EV jurisdictionLocalityName attribute.
    package static let jurisdictionLocality: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 311, 60, 2, 1, 1]
    /// `2.5.4.15`: the businessCategory name attribute (X.520).
    package static let businessCategory: ASN1ObjectIdentifier = [2, 5, 4, 15]
}
