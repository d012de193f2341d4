internal import COpenSSL
internal import COpenSSLShims
import OSecASN1

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Largest key encoding accepted (a 16384-bit RSA private key is about 9.3 KiB of DER).
let maximumKeyEncodingSize = 64 * 1024

// MARK: - Apple's external formats (fast typed decoders)

extension AsymmetricKey {
    /// RSAPrivateKey (PKCS#1) DER. Uses `d2i_RSAPrivateKey` + `EVP_PKEY_assign` (≈ 4 µs for RSA-2048,
    /// 100× faster than the generic decoders), then cheap sanity checks: modulus 512...16384 bits and
    /// odd, exponent odd and > 1, p·q = n. `EVP_PKEY_check` (≈ 61 ms) is deliberately not run.
    package convenience init(rsaPrivateKeyPKCS1 der: Data) throws(CryptoError) {
        let pkey = try Self.decodeRSA(ArraySlice(der), isPrivate: true)
        try self.init(takingOwnershipOf: pkey, isPrivate: true)
    }

    /// RSAPublicKey (PKCS#1) DER, via `d2i_RSAPublicKey` + `EVP_PKEY_assign` with the same sanity checks.
    package convenience init(rsaPublicKeyPKCS1 der: Data) throws(CryptoError) {
        let pkey = try Self.decodeRSA(ArraySlice(der), isPrivate: false)
        try self.init(takingOwnershipOf: pkey, isPrivate: false)
    }

    /// EC public key from an uncompressed X9.63 point 04‖X‖Y (curve inferred from the length when nil).
    /// The point must lie on the curve. Built with `EVP_PKEY_fromdata` (no generic decoder).
    package convenience init(ecPublicKeyX963 bytes: Data, curve: ECCurve? = nil) throws(CryptoError) {
        guard let curve = curve ?? ECCurve(uncompressedPointLength: bytes.count) else {
            throw CryptoError(.invalidKey, "EC public key length \(bytes.count) matches no supported curve")
        }
        guard bytes.count == 1 + 2 * curve.fieldSize, bytes.first == 0x04 else {
            throw CryptoError(.invalidKey, "EC public key must be 04‖X‖Y with \(curve.fieldSize)-byte coordinates")
        }
        let pkey = try Self.decodeECPoint(ArraySlice(bytes), curve: curve)
        try self.init(takingOwnershipOf: pkey, isPrivate: false)
    }

    /// EC private key 04‖X‖Y‖K (curve inferred from the length when nil). The key is rejected unless
    /// K ∈ [1, n−1] and K·G equals the given (X, Y).
    package convenience init(ecPrivateKeyX963 bytes: Data, curve: ECCurve? = nil) throws(CryptoError) {
        let inferred = ECCurve.allCases.first(where: { 1 + 3 * $0.fieldSize == bytes.count })
        guard let curve = curve ?? inferred, bytes.count == 1 + 3 * curve.fieldSize, bytes.first == 0x04 else {
            throw CryptoError(.invalidKey, "EC private key must be 04‖X‖Y‖K with field-size coordinates")
        }
        let all = [UInt8](bytes)
        let pointLength = 1 + 2 * curve.fieldSize
        let pkey = try Self.decodeECPrivate(
            scalar: all[pointLength...], point: all[..<pointLength], curve: curve)
        try self.init(takingOwnershipOf: pkey, isPrivate: true)
    }

    /// EC private key from the bare scalar K (big-endian; leading zero bytes allowed). The public point
    /// is computed. Addition to the contract (needed for Wycheproof ECDH and raw-scalar imports).
    package convenience init(ecPrivateScalar scalar: Data, curve: ECCurve) throws(CryptoError) {
        let pkey = try Self.decodeECPrivate(scalar: ArraySlice(scalar), point: nil, curve: curve)
        try self.init(takingOwnershipOf: pkey, isPrivate: true)
    }
}

// MARK: - Other formats

extension AsymmetricKey {
    /// SubjectPublicKeyInfo DER (RSA or named-curve EC; compressed EC points accepted). The outer
    /// structure is parsed here so the fast typed decoders can be used for the key itself.
    package convenience init(subjectPublicKeyInfo der: Data) throws(CryptoError) {
        let pkey = try Self.decodeSPKI(Self.checkedBytes(der))
        try self.init(takingOwnershipOf: pkey, isPrivate: false)
    }

    /// PKCS#8 PrivateKeyInfo / OneAsymmetricKey DER (RSA or named-curve EC).
    package convenience init(pkcs8 der: Data) throws(CryptoError) {
        let pkey = try Self.decodePKCS8(Self.checkedBytes(der))
        try self.init(takingOwnershipOf: pkey, isPrivate: true)
    }

    /// SEC1 ECPrivateKey DER. The curve must be named in the structure; a public key inside it must match.
    package convenience init(sec1 der: Data) throws(CryptoError) {
        let pkey = try Self.decodeSEC1(Self.checkedBytes(der), curveHint: nil)
        try self.init(takingOwnershipOf: pkey, isPrivate: true)
    }

    /// Any DER key: PKCS#1 RSAPrivateKey / RSAPublicKey, SubjectPublicKeyInfo, PKCS#8 or SEC1, told apart by
    /// the shape of the outer SEQUENCE (so an SPKI is never mistaken for PKCS#1 or the other way round).
    package convenience init(der: Data) throws(CryptoError) {
        let bytes = try Self.checkedBytes(der)
        let (pkey, isPrivate) = try Self.decodeAnyDER(bytes)
        try self.init(takingOwnershipOf: pkey, isPrivate: isPrivate)
    }
}

// MARK: - Decoders (return an owned EVP_PKEY)

extension AsymmetricKey {
    static func checkedBytes(_ der: Data) throws(CryptoError) -> ArraySlice<UInt8> {
        guard !der.isEmpty else { throw CryptoError(.invalidKey, "empty key data") }
        guard der.count <= maximumKeyEncodingSize else { throw CryptoError(.invalidKey, "key data too large") }
        return ArraySlice(der)
    }

    static func decodeAnyDER(_ bytes: ArraySlice<UInt8>) throws(CryptoError) -> (OpaquePointer, Bool) {
        var seq = try KeyDER.parse(bytes)
        let first = try seq.read()
        let second = try seq.read()
        switch (first.identifier, second.identifier) {
        case (.sequence, .bitString):
            return (try decodeSPKI(bytes), false)
        case (.sequence, .octetString):
            throw CryptoError(.invalidKey, "encrypted PKCS#8 key: a passphrase is required")
        case (.integer, .sequence):
            return (try decodePKCS8(bytes), true)
        case (.integer, .octetString) where KeyDER.smallInteger(first) == 1:
            return (try decodeSEC1(bytes, curveHint: nil), true)
        case (.integer, .integer):
            if seq.isAtEnd { return (try decodeRSA(bytes, isPrivate: false), false) }
            return (try decodeRSA(bytes, isPrivate: true), true)
        default:
            throw CryptoError(.invalidKey, "unrecognised key encoding")
        }
    }

    static func decodeRSA(_ der: ArraySlice<UInt8>, isPrivate: Bool) throws(CryptoError) -> OpaquePointer {
        guard !der.isEmpty, der.count <= maximumKeyEncodingSize else {
            throw CryptoError(.invalidKey, "RSA key data empty or too large")
        }
        let what = isPrivate ? "RSA private key (PKCS#1)" : "RSA public key (PKCS#1)"
        var status: Int32 = 0
        let result = der.withUnsafeBytes { buffer -> UnsafeMutableRawPointer? in
            guard let base = buffer.baseAddress else { return nil }
            return isPrivate
                ? osec_rsa_private_from_pkcs1(base, buffer.count, &status)
                : osec_rsa_public_from_pkcs1(base, buffer.count, &status)
        }
        guard let result else { throw keyError(status, what) }
        return OpaquePointer(result)
    }

    static func decodeECPoint(_ point: ArraySlice<UInt8>, curve: ECCurve) throws(CryptoError) -> OpaquePointer {
        // Checked here because OpenSSL also accepts hybrid (06/07) encodings and reads lengths leniently.
        let fieldSize = curve.fieldSize
        switch point.first {
        case 0x04 where point.count == 1 + 2 * fieldSize: break
        case 0x02 where point.count == 1 + fieldSize, 0x03 where point.count == 1 + fieldSize: break
        default: throw CryptoError(.invalidKey, "EC point encoding does not match the curve")
        }
        var status: Int32 = 0
        let result = point.withUnsafeBytes { buffer -> UnsafeMutableRawPointer? in
            guard let base = buffer.baseAddress else { return nil }
            return osec_ec_public_from_point(curve.shimIndex, base, buffer.count, &status)
        }
        guard let result else { throw keyError(status, "EC public key") }
        return OpaquePointer(result)
    }

    static func decodeECPrivate(
        scalar: ArraySlice<UInt8>, point: ArraySlice<UInt8>?, curve: ECCurve
    ) throws(CryptoError) -> OpaquePointer {
        let digits = scalar.drop(while: { $0 == 0 })
        guard !digits.isEmpty, digits.count <= curve.fieldSize else {
            throw CryptoError(.invalidKey, "EC private scalar out of range")
        }
        if let point {
            guard point.count == 1 + 2 * curve.fieldSize, point.first == 0x04 else {
                throw CryptoError(.invalidKey, "EC public point encoding does not match the curve")
            }
        }
        var status: Int32 = 0
        let result = digits.withUnsafeBytes { scalarBuffer -> UnsafeMutableRawPointer? in
            guard let scalarBase = scalarBuffer.baseAddress else { return nil }
            guard let point else {
                return osec_ec_private_from_scalar(curve.shimIndex, scalarBase, scalarBuffer.count, nil, 0, &status)
            }
            return point.withUnsafeBytes { pointBuffer -> UnsafeMutableRawPointer? in
                guard let pointBase = pointBuffer.baseAddress else { return nil }
                return osec_ec_private_from_scalar(
                    curve.shimIndex, scalarBase, scalarBuffer.count, pointBase, pointBuffer.count, &status)
            }
        }
        guard let result else { throw keyError(status, "EC private key") }
        return OpaquePointer(result)
    }

    static func decodeSPKI(_ bytes: ArraySlice<UInt8>) throws(CryptoError) -> OpaquePointer {
        var spki = try KeyDER.parse(bytes)
        var algorithm = try KeyDER(try spki.read(.sequence))
        let keyBits = try KeyDER.bitStringBytes(try spki.read(.bitString))
        try spki.expectEnd()
        let oid = KeyDER.content(try algorithm.read(.objectIdentifier))
        if oid.elementsEqual(KnownOID.rsaEncryption) {
            try readNullParameters(&algorithm)
            return try decodeRSA(keyBits, isPrivate: false)
        }
        if oid.elementsEqual(KnownOID.ecPublicKey) {
            let curve = try readNamedCurve(&algorithm)
            return try decodeECPoint(keyBits, curve: curve)
        }
        if oid.elementsEqual(Ed25519.oidContent) {
            try algorithm.expectEnd()  // RFC 8410 §3: parameters MUST be absent
            return try decodeEd25519(keyBits, isPrivate: false)
        }
        throw CryptoError(.unsupportedAlgorithm, "SubjectPublicKeyInfo algorithm is not RSA, EC or Ed25519")
    }

    static func decodePKCS8(_ bytes: ArraySlice<UInt8>) throws(CryptoError) -> OpaquePointer {
        var info = try KeyDER.parse(bytes)
        let version = KeyDER.smallInteger(try info.read(.integer))
        guard version == 0 || version == 1 else { throw CryptoError(.invalidKey, "unsupported PKCS#8 version") }
        var algorithm = try KeyDER(try info.read(.sequence))
        let privateKey = KeyDER.content(try info.read(.octetString))
        _ = try info.readIfPresent(.contextConstructed0)  // attributes
        _ = try info.readIfPresent(.contextPrimitive1)  // publicKey (v2, implicit BIT STRING)
        try info.expectEnd()
        let oid = KeyDER.content(try algorithm.read(.objectIdentifier))
        if oid.elementsEqual(KnownOID.rsaEncryption) {
            try readNullParameters(&algorithm)
            return try decodeRSA(privateKey, isPrivate: true)
        }
        if oid.elementsEqual(KnownOID.ecPublicKey) {
            let curve = try readNamedCurve(&algorithm)
            return try decodeSEC1(privateKey, curveHint: curve)
        }
        if oid.elementsEqual(Ed25519.oidContent) {
            try algorithm.expectEnd()  // RFC 8410 §3: parameters MUST be absent
            // RFC 8410 §7: the privateKey OCTET STRING holds a CurvePrivateKey, itself an OCTET STRING.
            return try decodeEd25519(try KeyDER.primitive(privateKey, .octetString), isPrivate: true)
        }
        throw CryptoError(.unsupportedAlgorithm, "PKCS#8 key algorithm is not RSA, EC or Ed25519")
    }

    static func decodeSEC1(_ bytes: ArraySlice<UInt8>, curveHint: ECCurve?) throws(CryptoError) -> OpaquePointer {
        var key = try KeyDER.parse(bytes)
        guard KeyDER.smallInteger(try key.read(.integer)) == 1 else {
            throw CryptoError(.invalidKey, "unsupported ECPrivateKey version")
        }
        let scalar = KeyDER.content(try key.read(.octetString))
        var curve = curveHint
        if let parameters = try key.readIfPresent(.contextConstructed0) {
            var reader = try KeyDER(parameters, .contextConstructed0)
            let named = try readNamedCurve(&reader)
            guard curveHint == nil || curveHint == named else {
                throw CryptoError(.invalidKey, "ECPrivateKey curve differs from the algorithm's curve")
            }
            curve = named
        }
        var point: ArraySlice<UInt8>?
        if let publicKey = try key.readIfPresent(.contextConstructed1) {
            var reader = try KeyDER(publicKey, .contextConstructed1)
            point = try KeyDER.bitStringBytes(try reader.read())
            try reader.expectEnd()
        }
        try key.expectEnd()
        guard let curve else { throw CryptoError(.invalidKey, "ECPrivateKey does not name its curve") }
        guard scalar.count <= curve.fieldSize else { throw CryptoError(.invalidKey, "EC private scalar too long") }
        return try decodeECPrivate(scalar: scalar, point: point, curve: curve)
    }

    /// Reads the optional NULL parameters of rsaEncryption and checks nothing follows.
    private static func readNullParameters(_ algorithm: inout KeyDER) throws(CryptoError) {
        if let parameters = try algorithm.readIfPresent(.null), !KeyDER.content(parameters).isEmpty {
            throw CryptoError(.invalidKey, "rsaEncryption parameters must be NULL")
        }
        try algorithm.expectEnd()
    }

    /// Reads a namedCurve OID (explicit parameters are rejected) and checks nothing follows.
    private static func readNamedCurve(_ reader: inout KeyDER) throws(CryptoError) -> ECCurve {
        guard let oid = try reader.readIfPresent(.objectIdentifier) else {
            throw CryptoError(.invalidKey, "EC key must use a named curve (explicit parameters are not supported)")
        }
        try reader.expectEnd()
        guard let curve = ECCurve(oidContent: KeyDER.content(oid)) else {
            throw CryptoError(.unsupportedAlgorithm, "EC curve is not P-256, P-384 or P-521")
        }
        return curve
    }

    /// Maps a shim status to an error (draining the OpenSSL queue).
    static func keyError(_ status: Int32, _ what: String) -> CryptoError {
        let reason: String
        switch Int(status) {
        case OSEC_KEY_TRAILING: reason = "trailing data after the key"
        case OSEC_KEY_RSA_SIZE: reason = "RSA modulus must be odd and 512...16384 bits"
        case OSEC_KEY_RSA_EXPONENT: reason = "RSA public exponent must be odd, > 1 and < n"
        case OSEC_KEY_RSA_PRIVATE: reason = "RSA private components are inconsistent"
        case OSEC_KEY_EC_POINT: reason = "EC public point is not on the curve"
        case OSEC_KEY_EC_SCALAR: reason = "EC private scalar out of range"
        case OSEC_KEY_EC_MISMATCH: reason = "EC public point does not match the private scalar"
        case OSEC_KEY_INTERNAL: return CryptoError.failed("\(what) import")
        default: reason = "does not decode"
        }
        return CryptoError.openSSL(.invalidKey, "\(what): \(reason)")
    }
}
