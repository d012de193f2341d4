import Foundation
import OSecASN1
import OSecCrypto
import OSecX509

/// OpenSecurity's certificate API beyond Apple's: PEM bundles, CSRs, and building or issuing certificates.
///
/// Everything here is an addition (Apple's Security framework has no equivalent on iOS/macOS); Apple's own
/// names live in `SecCertificate.swift` and `SecIdentity.swift`. Errors are `NSError`s in `NSOSStatusErrorDomain`
/// (`errSecParam` for bad input, `errSecDecode` for undecodable data, `errSecInternal` for crypto failures).
///
/// ```swift
/// let chain = try OpenSecurityCertificates.certificates(fromPEM: serverReply)          // [SecCertificate]
/// let csr = try OpenSecurityCertificates.createCertificateSigningRequest(
///     subject: [("C", "US"), ("O", "Example"), ("CN", "www.example.com")], privateKey: key,
///     extensions: .init(alternativeNames: [.dns("www.example.com")]))
/// ```
public enum OpenSecurityCertificates {
    /// A subjectAltName / issuerAltName entry.
    public enum AlternativeName: Hashable, Sendable {
        case dns(String)
        case email(String)
        case uri(String)
        /// Textual IPv4 (`192.0.2.1`) or IPv6 (`2001:db8::1`) address.
        case ipAddress(String)
    }

    /// RFC 5280 keyUsage bits (§4.2.1.3), for building certificates and for the usages a trust evaluation
    /// requires (`OpenSecurityTrust.setRequiredKeyUsage`).
    public struct KeyUsage: OptionSet, Hashable, Sendable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
        public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
        /// X.509's newer name of `nonRepudiation`.
        public static let contentCommitment = nonRepudiation
        public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
        public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
        public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
        public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
        public static let cRLSign = KeyUsage(rawValue: 1 << 6)
        public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
        public static let decipherOnly = KeyUsage(rawValue: 1 << 8)
    }

    /// Well-known extended key usage OIDs (dotted strings).
    public enum ExtendedKeyUsage {
        public static let serverAuth = "1.3.6.1.5.5.7.3.1"
        public static let clientAuth = "1.3.6.1.5.5.7.3.2"
        public static let codeSigning = "1.3.6.1.5.5.7.3.3"
        public static let emailProtection = "1.3.6.1.5.5.7.3.4"
        public static let timeStamping = "1.3.6.1.5.5.7.3.8"
        public static let ocspSigning = "1.3.6.1.5.5.7.3.9"
        public static let any = "2.5.29.37.0"
    }

    /// The extensions to request (CSR) or to put in a certificate. `nil` fields are omitted.
    public struct Extensions: Sendable {
        /// basicConstraints (critical): `true` for a CA.
        public var isCertificateAuthority: Bool?
        /// basicConstraints pathLenConstraint (CA only).
        public var pathLengthConstraint: Int?
        /// keyUsage (critical).
        public var keyUsage: KeyUsage?
        /// extKeyUsage OIDs (dotted strings, see ``ExtendedKeyUsage``).
        public var extendedKeyUsage: [String]?
        /// subjectAltName (critical only when the subject is empty).
        public var alternativeNames: [AlternativeName]?
        /// nameConstraints permitted / excluded subtrees (critical). DNS/email/URI names are domains, IP addresses
        /// are `address/prefix` (e.g. `10.0.0.0/8`).
        public var permittedSubtrees: [AlternativeName]?
        public var excludedSubtrees: [AlternativeName]?

        public init(
            isCertificateAuthority: Bool? = nil, pathLengthConstraint: Int? = nil, keyUsage: KeyUsage? = nil,
            extendedKeyUsage: [String]? = nil, alternativeNames: [AlternativeName]? = nil,
            permittedSubtrees: [AlternativeName]? = nil, excludedSubtrees: [AlternativeName]? = nil
        ) {
            self.isCertificateAuthority = isCertificateAuthority
            self.pathLengthConstraint = pathLengthConstraint
            self.keyUsage = keyUsage
            self.extendedKeyUsage = extendedKeyUsage
            self.alternativeNames = alternativeNames
            self.permittedSubtrees = permittedSubtrees
            self.excludedSubtrees = excludedSubtrees
        }
    }

    // MARK: PEM

    /// Every certificate of a PEM text (a server's chain, a CA bundle), in order. Non-certificate blocks are skipped;
    /// a malformed certificate block fails the call (errSecDecode).
    public static func certificates(fromPEM pem: String) throws -> [SecCertificate] {
        try certificates(fromPEMData: Data(pem.utf8))
    }

    /// As ``certificates(fromPEM:)`` for UTF-8 data.
    public static func certificates(fromPEMData data: Data) throws -> [SecCertificate] {
        do {
            return try Certificate.certificates(fromPEMBytes: [UInt8](data)[...]).map(SecCertificate.init)
        } catch {
            throw SecError.decode("cannot read PEM certificates: \(error)").nsError
        }
    }

    /// The certificate as PEM (`-----BEGIN CERTIFICATE-----`, 64-column lines, `\n` line ends).
    public static func pemRepresentation(of certificate: SecCertificate) -> String {
        certificate.certificate.pemString
    }

    // MARK: CSR

    /// Creates a PKCS#10 request for `privateKey`'s key pair, signed with it (RSA: PKCS#1 v1.5 SHA-256;
    /// EC: ECDSA with SHA-256/384/512 by curve). `subject` lists attributes most significant first, as
    /// `(type, value)` with types `C`, `ST`, `L`, `O`, `OU`, `CN`, `emailAddress`, `DC`, `UID`, `serialNumber`,
    /// `street`, `title`, `GN`, `SN` or a dotted OID. Returns the DER and the PEM text.
    public static func createCertificateSigningRequest(
        subject: [(String, String)], privateKey: SecKey, extensions: Extensions = Extensions()
    ) throws -> (der: Data, pem: String) {
        try facade {
            let name = try makeName(subject)
            let list = try makeBuilderExtensions(extensions, subject: name)
            let request = try CertificateSigningRequest.create(
                subject: name, extensions: list, privateKey: privateKey.key)
            return (Data(request.derBytes), request.pemString)
        }
    }

    /// Whether `request` (DER or PEM) is a well-formed CSR whose signature verifies under its own public key.
    public static func verifyCertificateSigningRequest(_ request: Data) -> Bool {
        (try? parseRequest(request))?.isSignatureValid ?? false
    }

    // MARK: Certificates

    /// A self-signed certificate for `privateKey`'s key pair (issuer = subject), valid from `notBefore` to `notAfter`.
    /// `serialNumber` is the unsigned big-endian value (random 16 bytes when nil). SKI and AKI are added.
    public static func createSelfSignedCertificate(
        subject: [(String, String)], privateKey: SecKey, notBefore: Date, notAfter: Date,
        serialNumber: Data? = nil, extensions: Extensions = Extensions()
    ) throws -> SecCertificate {
        try facade {
            var builder = try makeBuilder(
                subject: makeName(subject), publicKey: SubjectPublicKeyInfo(privateKey.key), notBefore: notBefore,
                notAfter: notAfter, serialNumber: serialNumber)
            try apply(extensions, to: &builder)
            return SecCertificate(try builder.selfSigned(with: privateKey.key))
        }
    }

    /// A certificate for `publicKey`, issued by `issuerCertificate` and signed with `issuerPrivateKey`.
    public static func issueCertificate(
        subject: [(String, String)], publicKey: SecKey, issuerCertificate: SecCertificate, issuerPrivateKey: SecKey,
        notBefore: Date, notAfter: Date, serialNumber: Data? = nil, extensions: Extensions = Extensions()
    ) throws -> SecCertificate {
        try facade {
            var builder = try makeBuilder(
                subject: makeName(subject), publicKey: SubjectPublicKeyInfo(publicKey.key), notBefore: notBefore,
                notAfter: notAfter, serialNumber: serialNumber)
            try apply(extensions, to: &builder)
            return SecCertificate(
                try builder.issued(by: issuerCertificate.certificate, issuerKey: issuerPrivateKey.key))
        }
    }

    /// A certificate for `publicKey`, issued by the certificate and private key of `issuer`.
    public static func issueCertificate(
        subject: [(String, String)], publicKey: SecKey, issuer: SecIdentity, notBefore: Date, notAfter: Date,
        serialNumber: Data? = nil, extensions: Extensions = Extensions()
    ) throws -> SecCertificate {
        try issueCertificate(
            subject: subject, publicKey: publicKey, issuerCertificate: issuer.certificate,
            issuerPrivateKey: issuer.privateKey,
            notBefore: notBefore, notAfter: notAfter, serialNumber: serialNumber, extensions: extensions)
    }

    /// A certificate for the subject and key of a CSR (DER or PEM), issued by `issuer`. The CSR signature must verify
    /// (errSecVerifyFailed otherwise). With `extensions` nil the CSR's requested extensions are copied; otherwise
    /// `extensions` replaces them. SKI and AKI are always added.
    public static func issueCertificate(
        fromRequest request: Data, issuer: SecIdentity, notBefore: Date, notAfter: Date, serialNumber: Data? = nil,
        extensions: Extensions? = nil
    ) throws -> SecCertificate {
        try issueCertificate(
            fromRequest: request, issuerCertificate: issuer.certificate, issuerPrivateKey: issuer.privateKey,
            notBefore: notBefore, notAfter: notAfter, serialNumber: serialNumber, extensions: extensions)
    }

    /// As ``issueCertificate(fromRequest:issuer:notBefore:notAfter:serialNumber:extensions:)`` with the issuer given
    /// as a certificate and its private key.
    public static func issueCertificate(
        fromRequest request: Data, issuerCertificate: SecCertificate, issuerPrivateKey: SecKey, notBefore: Date,
        notAfter: Date, serialNumber: Data? = nil, extensions: Extensions? = nil
    ) throws -> SecCertificate {
        try facade {
            let csr = try parseRequest(request)
            guard csr.isSignatureValid else { throw SecError(errSecVerifyFailed, "the CSR signature does not verify") }
            guard notBefore <= notAfter else { throw SecError.param("notBefore is after notAfter") }
            var builder = try CertificateBuilder(request: csr, notBefore: time(notBefore), notAfter: time(notAfter))
            if let serialNumber { builder.serialNumber = try serial(serialNumber) }
            if let extensions {
                builder.basicConstraints = nil
                builder.keyUsage = nil
                builder.extendedKeyUsage = nil
                builder.subjectAlternativeNames = nil
                builder.nameConstraints = nil
                builder.additionalExtensions = []
                try apply(extensions, to: &builder)
            }
            return SecCertificate(
                try builder.issued(by: issuerCertificate.certificate, issuerKey: issuerPrivateKey.key))
        }
    }

    /// Creates an identity from a certificate and its private key; throws errSecParam if they do not match.
    public static func createIdentity(certificate: SecCertificate, privateKey: SecKey) throws -> SecIdentity {
        do {
            return try SecIdentity(certificate: certificate, privateKey: privateKey)
        } catch let error as SecError {
            throw error.nsError
        }
    }

    // MARK: Internals

    private static func facade<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as NSError where error.domain == NSOSStatusErrorDomain {
            throw error
        } catch {
            throw SecError(translating: error).nsError
        }
    }

    static let attributeTypes: [String: ASN1ObjectIdentifier] = [
        "C": X509OID.countryName, "ST": X509OID.stateOrProvinceName, "L": X509OID.localityName,
        "O": X509OID.organizationName, "OU": X509OID.organizationalUnitName, "CN": X509OID.commonName,
        "EMAILADDRESS": X509OID.emailAddress, "E": X509OID.emailAddress, "DC": X509OID.domainComponent,
        "UID": X509OID.userID, "SERIALNUMBER": X509OID.serialNumber, "STREET": X509OID.streetAddress,
        "TITLE": X509OID.title, "GN": X509OID.givenName, "SN": X509OID.surname,
    ]

    static func makeName(_ subject: [(String, String)]) throws -> DistinguishedName {
        var pairs: [(ASN1ObjectIdentifier, String)] = []
        for (type, value) in subject {
            if let oid = attributeTypes[type.uppercased()] {
                pairs.append((oid, value))
            } else if let oid = try? ASN1ObjectIdentifier(dotted: type) {
                pairs.append((oid, value))
            } else {
                throw SecError.param("unknown name attribute type \(type)")
            }
        }
        do {
            return try DistinguishedName(pairs)
        } catch {
            throw SecError.param("invalid name value: \(error)")
        }
    }

    static func generalName(_ name: AlternativeName, constraint: Bool = false) throws -> GeneralName {
        switch name {
        case .dns(let value): return .dnsName(value)
        case .email(let value): return .rfc822Name(value)
        case .uri(let value): return .uniformResourceIdentifier(value)
        case .ipAddress(let text):
            if constraint {
                let parts = text.split(separator: "/")
                guard parts.count == 2, let address = IPAddressText.parse(String(parts[0])), let prefix = Int(parts[1]),
                    prefix >= 0, prefix <= address.count * 8
                else { throw SecError.param("IP name constraint must be address/prefix: \(text)") }
                var mask = [UInt8](repeating: 0, count: address.count)
                for bit in 0..<prefix { mask[bit / 8] |= 0x80 >> UInt8(bit % 8) }
                return .ipAddress((address + mask)[...])
            }
            guard let name = GeneralName.ipAddress(text) else { throw SecError.param("invalid IP address \(text)") }
            return name
        }
    }

    static func time(_ date: Date) throws -> X509Time {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard let whole = Int64(exactly: seconds) else { throw SecError.param("date out of range") }
        return X509Time(secondsSinceEpoch: whole)
    }

    static func serial(_ data: Data) throws -> [UInt8] {
        guard !data.isEmpty, data.count <= 20 else { throw SecError.param("serial number must be 1…20 bytes") }
        return Array(ASN1Integer(unsignedMagnitude: [UInt8](data)).bytes)
    }

    static func makeBuilder(
        subject: DistinguishedName, publicKey: SubjectPublicKeyInfo, notBefore: Date, notAfter: Date,
        serialNumber: Data?
    ) throws -> CertificateBuilder {
        guard notBefore <= notAfter else { throw SecError.param("notBefore is after notAfter") }
        return try CertificateBuilder(
            subject: subject, publicKey: publicKey, notBefore: time(notBefore), notAfter: time(notAfter),
            serialNumber: serialNumber.map(serial))
    }

    static func apply(_ extensions: Extensions, to builder: inout CertificateBuilder) throws {
        if let ca = extensions.isCertificateAuthority {
            builder.basicConstraints = BasicConstraints(
                isCertificateAuthority: ca, pathLengthConstraint: extensions.pathLengthConstraint)
        }
        if let usage = extensions.keyUsage { builder.keyUsage = OSecX509.KeyUsage(rawValue: usage.rawValue) }
        if let eku = extensions.extendedKeyUsage {
            builder.extendedKeyUsage = try eku.map { oid in
                guard let parsed = try? ASN1ObjectIdentifier(dotted: oid) else {
                    throw SecError.param("invalid OID \(oid)")
                }
                return parsed
            }
        }
        if let names = extensions.alternativeNames {
            builder.subjectAlternativeNames = try names.map { try generalName($0) }
        }
        if extensions.permittedSubtrees != nil || extensions.excludedSubtrees != nil {
            builder.nameConstraints = NameConstraints(
                permittedSubtrees: try extensions.permittedSubtrees?.map { try generalName($0, constraint: true) },
                excludedSubtrees: try extensions.excludedSubtrees?.map { try generalName($0, constraint: true) })
        }
    }

    /// The typed extensions as a raw list for a CSR's extensionRequest (no SKI/AKI).
    static func makeBuilderExtensions(
        _ extensions: Extensions, subject: DistinguishedName
    ) throws -> [OSecX509.Extension] {
        var builder = try CertificateBuilder(
            subject: subject, publicKey: SubjectPublicKeyInfo(derEncoded: emptySPKI),
            notBefore: X509Time(secondsSinceEpoch: 0),
            notAfter: X509Time(secondsSinceEpoch: 0), serialNumber: [1])
        builder.includesSubjectKeyIdentifier = false
        builder.includesAuthorityKeyIdentifier = false
        try apply(extensions, to: &builder)
        return try builder.extensions(issuerKeyID: [])
    }

    /// A syntactically valid placeholder SPKI (only used to reuse the builder's extension encoder).
    private static let emptySPKI: [UInt8] = [
        0x30, 0x0B, 0x30, 0x06, 0x06, 0x04, 0x2B, 0x06, 0x01, 0x01, 0x03, 0x01, 0x00,
    ]

    static func parseRequest(_ data: Data) throws -> CertificateSigningRequest {
        let bytes = [UInt8](data)
        if bytes.first == 0x30 { return try CertificateSigningRequest(derEncoded: bytes) }
        return try CertificateSigningRequest(pemEncoded: String(decoding: bytes, as: UTF8.self))
    }
}
