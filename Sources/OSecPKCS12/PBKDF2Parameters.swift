import Foundation
import OSecASN1
import OSecCrypto

/// PBKDF2-params (RFC 8018 appendix A.2), also used by PBMAC1.
struct PBKDF2Parameters: Sendable, Hashable {
    var salt: Data
    var iterations: Int
    var keyLength: Int?
    var prf: DigestAlgorithm

    init(salt: Data, iterations: Int, keyLength: Int?, prf: DigestAlgorithm) {
        self.salt = salt
        self.iterations = iterations
        self.keyLength = keyLength
        self.prf = prf
    }

    /// Parses `AlgorithmIdentifier { id-PBKDF2, PBKDF2-params }`.
    init(algorithmIdentifier node: ASN1Node) throws {
        self = try DER.sequence(node) { nodes in
            let oid = try ASN1ObjectIdentifier(derEncoded: &nodes)
            guard oid == PKCS12OID.pbkdf2 else { throw PKCS12Error.unsupported("key derivation", oid: oid.dotted) }
            guard let paramsNode = nodes.next() else { throw PKCS12Error.malformed("PBKDF2 without parameters") }
            return try DER.sequence(paramsNode) { params in
                guard params.peekIdentifier()?.hasSameTag(as: .octetString) == true else {
                    throw PKCS12Error(.unsupportedAlgorithm, "PBKDF2 salt from another source is not supported")
                }
                let salt = try ASN1OctetString(derEncoded: &params)
                let iterations = try Int(derEncoded: &params)
                try checkIterations(iterations)
                var keyLength: Int? = nil
                if params.peekIdentifier()?.hasSameTag(as: .integer) == true {
                    keyLength = try Int(derEncoded: &params)
                    guard let length = keyLength, (1...64).contains(length) else {
                        throw PKCS12Error.malformed("PBKDF2 key length out of range")
                    }
                }
                var prf = DigestAlgorithm.sha1  // DEFAULT algid-hmacWithSHA1
                if let prfNode = params.next() {
                    prf = try DER.sequence(prfNode) { prfNodes in
                        let prfOID = try ASN1ObjectIdentifier(derEncoded: &prfNodes)
                        if let next = prfNodes.next() { _ = try ASN1Null(derEncoded: next) }
                        switch prfOID {
                        case PKCS12OID.hmacWithSHA1: return .sha1
                        case PKCS12OID.hmacWithSHA224: return .sha224
                        case PKCS12OID.hmacWithSHA256: return .sha256
                        case PKCS12OID.hmacWithSHA384: return .sha384
                        case PKCS12OID.hmacWithSHA512: return .sha512
                        default: throw PKCS12Error.unsupported("PBKDF2 PRF", oid: prfOID.dotted)
                        }
                    }
                }
                return PBKDF2Parameters(
                    salt: Data(salt.bytes), iterations: iterations, keyLength: keyLength, prf: prf)
            }
        }
    }

    /// Appends `AlgorithmIdentifier { id-PBKDF2, PBKDF2-params }`.
    func serialize(into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(PKCS12OID.pbkdf2)
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(ASN1OctetString([UInt8](salt)))
                try coder.serialize(iterations)
                if let keyLength { try coder.serialize(keyLength) }
                if prf != .sha1 {  // DEFAULT hmacWithSHA1 is omitted (DER)
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.serialize(PBKDF2Parameters.hmacOID(prf))
                        try coder.serialize(ASN1Null())
                    }
                }
            }
        }
    }

    static func hmacOID(_ digest: DigestAlgorithm) -> ASN1ObjectIdentifier {
        switch digest {
        case .sha1, .md5: PKCS12OID.hmacWithSHA1
        case .sha224: PKCS12OID.hmacWithSHA224
        case .sha256: PKCS12OID.hmacWithSHA256
        case .sha384: PKCS12OID.hmacWithSHA384
        case .sha512: PKCS12OID.hmacWithSHA512
        }
    }
}

/// Throws `.resourceLimit` above ``PKCS12Limits/maximumIterations`` and `.malformed` below 1.
func checkIterations(_ iterations: Int) throws {
    guard iterations >= 1 else { throw PKCS12Error.malformed("iteration count must be at least 1") }
    guard iterations <= PKCS12Limits.maximumIterations else {
        throw PKCS12Error(.resourceLimit, "iteration count \(iterations) above \(PKCS12Limits.maximumIterations)")
    }
}
