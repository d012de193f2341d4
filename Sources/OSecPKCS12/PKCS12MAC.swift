import Foundation
import OSecASN1
import OSecCrypto

/// The integrity check of a password-integrity PFX: `MacData` (RFC 7292 §4) or PBMAC1 (RFC 9579).
enum PKCS12MAC: Sendable, Hashable {
    /// HMAC with a key from the PKCS#12 KDF (ID 3) over the BMP password.
    case hmac(DigestAlgorithm, salt: Data, iterations: Int, expected: Data)
    /// PBMAC1: HMAC with a key from PBKDF2 over the UTF-8 password (RFC 9579).
    case pbmac1(PBKDF2Parameters, hmac: DigestAlgorithm, expected: Data)

    /// Parses `MacData ::= SEQUENCE { mac DigestInfo, macSalt OCTET STRING, iterations INTEGER DEFAULT 1 }`.
    init(macData node: ASN1Node) throws {
        self = try DER.sequence(node) { nodes in
            guard let digestInfo = nodes.next() else { throw PKCS12Error.malformed("MacData without DigestInfo") }
            let salt = try ASN1OctetString(derEncoded: &nodes)
            var iterations = 1
            if nodes.peekIdentifier()?.hasSameTag(as: .integer) == true {
                iterations = try Int(derEncoded: &nodes)
            }
            return try DER.sequence(digestInfo) { info in
                guard let algorithm = info.next() else { throw PKCS12Error.malformed("DigestInfo without algorithm") }
                let digest = try ASN1OctetString(derEncoded: &info)
                let expected = Data(digest.bytes)
                return try DER.sequence(algorithm) { alg in
                    let oid = try ASN1ObjectIdentifier(derEncoded: &alg)
                    if oid == PKCS12OID.pbmac1 {
                        guard let params = alg.next() else { throw PKCS12Error.malformed("PBMAC1 without parameters") }
                        return try PKCS12MAC.parsePBMAC1(params, expected: expected)
                    }
                    if let next = alg.next() { _ = try ASN1Null(derEncoded: next) }
                    let digestAlgorithm: DigestAlgorithm
                    switch oid {
                    case PKCS12OID.sha1: digestAlgorithm = .sha1
                    case PKCS12OID.sha224: digestAlgorithm = .sha224
                    case PKCS12OID.sha256: digestAlgorithm = .sha256
                    case PKCS12OID.sha384: digestAlgorithm = .sha384
                    case PKCS12OID.sha512: digestAlgorithm = .sha512
                    default: throw PKCS12Error.unsupported("MAC digest", oid: oid.dotted)
                    }
                    guard expected.count == digestAlgorithm.outputSize else {
                        throw PKCS12Error.malformed("MAC has the wrong length for its digest")
                    }
                    try checkIterations(iterations)
                    return .hmac(digestAlgorithm, salt: Data(salt.bytes), iterations: iterations, expected: expected)
                }
            }
        }
    }

    /// `PBMAC1-params ::= SEQUENCE { keyDerivationFunc AlgorithmIdentifier, messageAuthScheme AlgorithmIdentifier }`.
    private static func parsePBMAC1(_ node: ASN1Node, expected: Data) throws -> PKCS12MAC {
        try DER.sequence(node) { nodes in
            guard let kdfNode = nodes.next(), let schemeNode = nodes.next() else {
                throw PKCS12Error.malformed("PBMAC1 parameters incomplete")
            }
            let kdf = try PBKDF2Parameters(algorithmIdentifier: kdfNode)
            let hmac = try DER.sequence(schemeNode) { scheme in
                let oid = try ASN1ObjectIdentifier(derEncoded: &scheme)
                if let next = scheme.next() { _ = try ASN1Null(derEncoded: next) }
                switch oid {
                case PKCS12OID.hmacWithSHA1: return DigestAlgorithm.sha1
                case PKCS12OID.hmacWithSHA224: return .sha224
                case PKCS12OID.hmacWithSHA256: return .sha256
                case PKCS12OID.hmacWithSHA384: return .sha384
                case PKCS12OID.hmacWithSHA512: return .sha512
                default: throw PKCS12Error.unsupported("PBMAC1 message authentication", oid: oid.dotted)
                }
            }
            // RFC 9579 §6.1.1: the key length must be present.
            guard kdf.keyLength != nil else { throw PKCS12Error.malformed("PBMAC1 PBKDF2 without key length") }
            return .pbmac1(kdf, hmac: hmac, expected: expected)
        }
    }

    /// KDF iterations one verification with one password encoding costs.
    var kdfCost: Int {
        switch self {
        case .hmac(_, _, let iterations, _): iterations
        case .pbmac1(let kdf, _, _): kdf.iterations
        }
    }

    /// The digest used by the MAC, for reporting.
    var digest: DigestAlgorithm {
        switch self {
        case .hmac(let digest, _, _, _): digest
        case .pbmac1(_, let hmac, _): hmac
        }
    }

    /// Verifies the MAC over `content` and returns the BMP password encoding that matched (the
    /// UTF-8 bytes for PBMAC1), or `nil` if no encoding of `password` matches. Runs one KDF per
    /// candidate encoding (one for any non-empty password).
    func verify(content: Data, password: PKCS12Password, budget: PKCS12KDFBudget) throws -> Data? {
        switch self {
        case .hmac(let digest, let salt, let iterations, let expected):
            for candidate in password.bmpCandidates {
                try budget.charge(iterations, for: "the MAC key derivation")
                let key = try KDF.pkcs12(
                    password: candidate, salt: salt, id: 3, iterations: iterations, keyLength: digest.outputSize,
                    digest: digest)
                let mac = try HMAC.authenticateOrThrow(digest, key: key, data: content)
                if ConstantTime.equals(mac, expected) { return candidate }
            }
            return nil
        case .pbmac1(let kdf, let hmac, let expected):
            try budget.charge(kdf.iterations, for: "the PBMAC1 key derivation")
            let key = try KDF.pbkdf2(
                password: password.utf8, salt: kdf.salt, iterations: kdf.iterations,
                keyLength: kdf.keyLength ?? hmac.outputSize, digest: kdf.prf)
            let mac = try HMAC.authenticateOrThrow(hmac, key: key, data: content)
            return ConstantTime.equals(mac, expected) ? password.utf8 : nil
        }
    }

    /// Computes a MAC of the given kind and appends the MacData structure.
    static func serializeMacData(
        digest: DigestAlgorithm, salt: Data, iterations: Int, content: Data, bmpPassword: Data,
        into coder: inout DER.Serializer
    ) throws {
        let key = try KDF.pkcs12(
            password: bmpPassword, salt: salt, id: 3, iterations: iterations, keyLength: digest.outputSize,
            digest: digest)
        let mac = try HMAC.authenticateOrThrow(digest, key: key, data: content)
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(PKCS12MAC.digestOID(digest))
                    try coder.serialize(ASN1Null())
                }
                try coder.serialize(ASN1OctetString([UInt8](mac)))
            }
            try coder.serialize(ASN1OctetString([UInt8](salt)))
            try coder.serialize(iterations)
        }
    }

    static func digestOID(_ digest: DigestAlgorithm) -> ASN1ObjectIdentifier {
        switch digest {
        case .sha1, .md5: PKCS12OID.sha1
        case .sha224: PKCS12OID.sha224
        case .sha256: PKCS12OID.sha256
        case .sha384: PKCS12OID.sha384
        case .sha512: PKCS12OID.sha512
        }
    }
}
