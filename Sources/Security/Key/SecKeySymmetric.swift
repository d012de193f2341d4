import Foundation
import OSecCrypto

/// A macOS symmetric `SecKey`'s content: the algorithm, the secret bytes and the CSSM attributes Apple's
/// `SecKeyCopyAttributes` reports (usage, extractability, permanence, labels).
struct SymmetricKeyMaterial: Sendable {
    let algorithm: SymmetricKeyAlgorithm
    /// The secret key bytes (never logged; stored only in the encrypted keychain).
    let bytes: Data
    let usage: SymmetricKeyUsage
    let isExtractable: Bool
    let isPermanent: Bool
    /// `kSecAttrApplicationLabel` (Apple's `kSecKeyLabel`), when the key was given one.
    let applicationLabel: Data?

    var bitSize: Int { bytes.count * 8 }

    /// The same key stored in a keychain (permanent).
    func permanent(applicationLabel: Data?) -> SymmetricKeyMaterial {
        SymmetricKeyMaterial(
            algorithm: algorithm, bytes: bytes, usage: usage, isExtractable: isExtractable, isPermanent: true,
            applicationLabel: applicationLabel ?? self.applicationLabel)
    }
}

/// The symmetric algorithms of macOS's `kSecAttrKeyType…` values and the key sizes Apple's CSP accepts for each.
enum SymmetricKeyAlgorithm: Sendable, Equatable, CaseIterable {
    case aes, des, tripleDES, rc2, rc4, cast

    /// From a `kSecAttrKeyType` value; nil for RSA/EC and unknown values.
    init?(keyType: String) {
        guard let match = Self.allCases.first(where: { $0.keyType == keyType }) else { return nil }
        self = match
    }

    /// Apple's `kSecAttrKeyType…` value (CSSM algorithm number).
    var keyType: String {
        switch self {
        case .aes: kSecAttrKeyTypeAES as String
        case .des: kSecAttrKeyTypeDES as String
        case .tripleDES: kSecAttrKeyType3DES as String
        case .rc2: kSecAttrKeyTypeRC2 as String
        case .rc4: kSecAttrKeyTypeRC4 as String
        case .cast: kSecAttrKeyTypeCAST as String
        }
    }

    var name: String {
        switch self {
        case .aes: "AES"
        case .des: "DES"
        case .tripleDES: "3DES"
        case .rc2: "RC2"
        case .rc4: "RC4"
        case .cast: "CAST"
        }
    }

    /// Key sizes in bits Apple's CSP generates and imports: AES 128/192/256; DES 64 and three-key 3DES 192
    /// (parity bits included); RC2 8…1024, RC4 8…2048, CAST 40…128 in whole bytes.
    func allows(bits: Int) -> Bool {
        guard bits > 0, bits % 8 == 0 else { return false }
        switch self {
        case .aes: return [128, 192, 256].contains(bits)
        case .des: return bits == 64
        case .tripleDES: return bits == 192
        case .rc2: return (8...1024).contains(bits)
        case .rc4: return (8...2048).contains(bits)
        case .cast: return (40...128).contains(bits)
        }
    }

    /// The size generated when `kSecAttrKeySizeInBits` is absent: Apple's 128, except for DES and 3DES, whose
    /// only size it is not (Apple's CSP would reject 128 for them; the one size they have is used instead).
    var defaultBits: Int {
        switch self {
        case .des: 64
        case .tripleDES: 192
        default: 128
        }
    }

    /// `SecKeyGetBlockSize` for a key of this algorithm: Apple's CDSA answer (AES 16, DES and 3DES 8, the rest 16).
    var blockSize: Int {
        switch self {
        case .des, .tripleDES: 8
        default: 16
        }
    }

    /// Random key bytes from OpenSSL (DES and 3DES with odd parity, as Apple's CSP generates them).
    func randomKey(bits: Int) throws -> Data {
        switch self {
        case .des: try SymmetricKeyGeneration.randomKey(.desCBC)
        case .tripleDES: try SymmetricKeyGeneration.randomKey(.desEDE3CBC)
        default: try SecureRandom.bytes(bits / 8)
        }
    }
}

/// The CSSM key usage bits of a symmetric key (`kSecAttrCan…`).
struct SymmetricKeyUsage: OptionSet, Sendable {
    let rawValue: UInt8
    static let encrypt = SymmetricKeyUsage(rawValue: 1 << 0)
    static let decrypt = SymmetricKeyUsage(rawValue: 1 << 1)
    static let wrap = SymmetricKeyUsage(rawValue: 1 << 2)
    static let unwrap = SymmetricKeyUsage(rawValue: 1 << 3)
    static let sign = SymmetricKeyUsage(rawValue: 1 << 4)
    static let verify = SymmetricKeyUsage(rawValue: 1 << 5)
    static let derive = SymmetricKeyUsage(rawValue: 1 << 6)

    /// Apple's default for a session key when no `kSecAttrCan…` is true: every use but derive.
    static let sessionDefault: SymmetricKeyUsage = [.encrypt, .decrypt, .wrap, .unwrap, .sign, .verify]

    /// The usage `parameters` ask for (`kSecAttrCanEncrypt/Decrypt/Wrap/Unwrap` true); the default when none is.
    init(parameters: AttributeDictionary) throws {
        var usage: SymmetricKeyUsage = []
        if try parameters.bool(kSecAttrCanEncrypt) == true { usage.insert(.encrypt) }
        if try parameters.bool(kSecAttrCanDecrypt) == true { usage.insert(.decrypt) }
        if try parameters.bool(kSecAttrCanWrap) == true { usage.insert(.wrap) }
        if try parameters.bool(kSecAttrCanUnwrap) == true { usage.insert(.unwrap) }
        self = usage.isEmpty ? .sessionDefault : usage
    }

    init(rawValue: UInt8) { self.rawValue = rawValue }
}

/// macOS's symmetric-key functions, by the rules of Apple's SecKey.cpp.
enum SecKeySymmetric {
    /// Largest PBKDF2 round count `SecKeyDeriveFromPassword` runs (Apple reads it as a 32-bit number).
    static let maximumRounds = Int(UInt32.max)

    /// The symmetric algorithm `parameters` name: `kSecAttrKeyType` (AES when absent or not a symmetric type,
    /// as Apple's parameter reader falls back).
    static func algorithm(_ parameters: AttributeDictionary) throws -> SymmetricKeyAlgorithm {
        guard let type = try parameters.string(kSecAttrKeyType) else { return .aes }
        return SymmetricKeyAlgorithm(keyType: type) ?? .aes
    }

    /// True when `parameters` ask for an RSA/EC key (`kSecAttrKeyType` RSA, EC or ECDSA), which
    /// `SecKeyCreateFromData` imports as Apple's CSP does.
    static func namesAsymmetricType(_ parameters: AttributeDictionary) -> Bool {
        guard let type = try? parameters.string(kSecAttrKeyType) else { return false }
        return [kSecAttrKeyTypeRSA, kSecAttrKeyTypeEC, kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyTypeECDSA]
            .contains { $0 as String == type }
    }

    /// Apple's checks of a CFString-valued parameter: present and not a string is errSecParam.
    private static func label(_ parameters: AttributeDictionary, _ key: CFString) throws -> String? {
        guard let raw = parameters[key] else { return nil }
        guard let value = AttributeDictionary.stringValue(raw) else {
            throw SecError.param("\(key): expected a string")
        }
        return value
    }

    private static func flag(_ parameters: AttributeDictionary, _ key: CFString, default value: Bool) throws -> Bool {
        guard let raw = parameters[key] else { return value }
        guard let flag = raw as? Bool ?? (raw as? NSNumber)?.boolValue else {
            throw SecError.param("\(key): expected a CFBoolean")
        }
        return flag
    }

    /// `SecKeyGenerateSymmetric`: a random key of the parameters' type and size, stored in the keychain when
    /// `kSecAttrIsPermanent` is true (with `kSecAttrLabel`, `kSecAttrApplicationLabel`, `kSecAttrApplicationTag`;
    /// missing labels default to the creation date, as on macOS).
    static func generate(_ parameters: AttributeDictionary) throws -> SecKey {
        var keychain: SecKeychain?
        if let raw = parameters[kSecUseKeychain] {
            guard let given = raw as? SecKeychain else {
                throw SecError.param("kSecUseKeychain: expected a SecKeychain")
            }
            keychain = given
        }
        let isPermanent = try flag(parameters, kSecAttrIsPermanent, default: false)
        let isExtractable = try flag(parameters, kSecAttrIsExtractable, default: true)
        if let access = parameters[kSecAttrAccess], !(access is SecAccess) {
            throw SecError.param("kSecAttrAccess: expected a SecAccess")
        }
        let dateLabel = Date().description
        let label = try self.label(parameters, kSecAttrLabel) ?? dateLabel
        let applicationLabel = try self.label(parameters, kSecAttrApplicationLabel) ?? dateLabel
        let tag = try self.label(parameters, kSecAttrApplicationTag)

        let algorithm = try algorithm(parameters)
        let bits = try parameters.int(kSecAttrKeySizeInBits) ?? algorithm.defaultBits
        guard algorithm.allows(bits: bits) else {
            throw SecError(errSecInvalidAttributeKeyLength, "\(bits) bits is not a \(algorithm.name) key size")
        }
        let material = SymmetricKeyMaterial(
            algorithm: algorithm, bytes: try algorithm.randomKey(bits: bits),
            usage: try SymmetricKeyUsage(parameters: parameters), isExtractable: isExtractable,
            isPermanent: false, applicationLabel: nil)
        guard isPermanent else { return SecKey(symmetric: material) }
        return try store(
            material, label: label, applicationLabel: Data(applicationLabel.utf8), tag: tag, keychain: keychain)
    }

    /// Adds `material` to `keychain` (the default one when nil) and returns the keychain's SecKey for it.
    private static func store(
        _ material: SymmetricKeyMaterial, label: String, applicationLabel: Data, tag: String?, keychain: SecKeychain?
    ) throws -> SecKey {
        let stored = SecKey(symmetric: material.permanent(applicationLabel: applicationLabel))
        var attributes: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecValueRef as String: stored,
            kSecAttrLabel as String: label,
            kSecAttrApplicationLabel as String: applicationLabel,
            kSecReturnRef as String: true,
        ]
        if let tag { attributes[kSecAttrApplicationTag as String] = Data(tag.utf8) }
        if let keychain { attributes[kSecUseKeychain as String] = keychain }
        var result: CFTypeRef?
        let status = SecItemAdd(attributes as NSDictionary, &result)
        guard status == errSecSuccess else { throw SecError(status, "the key could not be added to the keychain") }
        guard let key = result as? SecKey else { throw SecError(errSecInternal, "the keychain returned no key") }
        return key
    }

    /// `SecKeyCreateFromData`: a key from raw bytes. Symmetric types take the bytes as the key (their count is
    /// the size); RSA and EC types import Apple's external formats, public when `kSecAttrKeyClass` says so.
    static func create(_ parameters: AttributeDictionary, _ data: Data) throws -> SecKey {
        guard !data.isEmpty else { throw SecError(errSecUnsupportedKeySize, "the key data is empty") }
        if namesAsymmetricType(parameters) {
            var asymmetric = parameters
            if !asymmetric.contains(kSecAttrKeyClass) { asymmetric.set(kSecAttrKeyClass, kSecAttrKeyClassPrivate) }
            do {
                return try SecKeyGeneration.create(data, asymmetric)
            } catch {
                // macOS's raw import also takes the DER forms of OpenSSL (SubjectPublicKeyInfo, PKCS#8, SEC1), when
                // they hold a key of the type and class asked for.
                let wantsRSA = try asymmetric.string(kSecAttrKeyType) == kSecAttrKeyTypeRSA as String
                let wantsPrivate = try asymmetric.string(kSecAttrKeyClass) == kSecAttrKeyClassPrivate as String
                guard let key = try? OpenSecurityKeys.importKey(data), key.isRSA == wantsRSA,
                    key.asymmetric?.isPrivate == wantsPrivate
                else { throw error }
                return key
            }
        }
        let algorithm = try algorithm(parameters)
        guard algorithm.allows(bits: data.count * 8) else {
            throw SecError(errSecUnsupportedKeySize, "\(data.count) bytes is not a \(algorithm.name) key size")
        }
        return SecKey(
            symmetric: SymmetricKeyMaterial(
                algorithm: algorithm, bytes: data, usage: try SymmetricKeyUsage(parameters: parameters),
                isExtractable: true, isPermanent: false, applicationLabel: nil))
    }

    /// `SecKeyDeriveFromPassword`: PBKDF2 (OpenSSL) of the password's UTF-8 bytes with `kSecAttrSalt` (required:
    /// errSecMissingAlgorithmParms), `kSecAttrRounds` (33,333 when absent or 0), `kSecAttrPRF` (HMAC-SHA256 when
    /// absent; another value is errSecInvalidAlgorithmParms) and `kSecAttrKeySizeInBits` (128 when absent), then
    /// `SecKeyCreateFromData` of the derived bytes with the same parameters.
    static func derive(_ password: String, _ parameters: AttributeDictionary) throws -> SecKey {
        guard let raw = parameters[kSecAttrSalt] else {
            throw SecError(errSecMissingAlgorithmParms, "kSecAttrSalt is required")
        }
        guard let salt = AttributeDictionary.dataValue(raw) else { throw SecError.param("kSecAttrSalt: expected data") }
        let bits = try parameters.int(kSecAttrKeySizeInBits) ?? 128
        guard bits >= 8, bits / 8 <= KDF.maximumKeyLength else {
            throw SecError(errSecUnsupportedKeySize, "\(bits) bits is not a key size")
        }
        let digest: DigestAlgorithm
        switch try parameters.string(kSecAttrPRF) ?? (kSecAttrPRFHmacAlgSHA256 as String) {
        case kSecAttrPRFHmacAlgSHA1: digest = .sha1
        case kSecAttrPRFHmacAlgSHA224: digest = .sha224
        case kSecAttrPRFHmacAlgSHA256: digest = .sha256
        case kSecAttrPRFHmacAlgSHA384: digest = .sha384
        case kSecAttrPRFHmacAlgSHA512: digest = .sha512
        case let other: throw SecError(errSecInvalidAlgorithmParms, "kSecAttrPRF \(other) is not a PBKDF2 PRF")
        }
        var rounds = try parameters.int(kSecAttrRounds) ?? 0
        if rounds == 0 { rounds = 33_333 }  // Apple's fixed default, so the same key comes back every time
        guard rounds > 0, rounds <= maximumRounds, rounds <= KDF.maximumDirectIterations else {
            throw SecError(errSecInvalidAlgorithmParms, "kSecAttrRounds \(rounds) is out of range")
        }
        let derived: Data
        do {
            derived = try KDF.pbkdf2(
                password: Data(password.utf8), salt: salt, iterations: rounds, keyLength: bits / 8, digest: digest)
        } catch {
            throw SecError(errSecInternalError, "PBKDF2 failed: \(error)")
        }
        return try create(parameters, derived)
    }

    /// `SecKeyCopyAttributes` of a symmetric key: Apple's CDSA dictionary (sizes, flags, uses), with the
    /// key class and type (which iOS reports for every key).
    static func attributes(of key: SymmetricKeyMaterial) -> [String: Any] {
        func flag(_ value: Bool) -> Any { value ? CFConstants.true : CFConstants.false }
        var attributes: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrKeyClass as String: kSecAttrKeyClassSymmetric,
            kSecAttrKeyType as String: NSString(string: key.algorithm.keyType),
            kSecAttrKeySizeInBits as String: NSNumber(value: key.bitSize),
            kSecAttrEffectiveKeySize as String: NSNumber(value: key.bitSize),
            kSecAttrIsPermanent as String: flag(key.isPermanent),
            kSecAttrIsPrivate as String: flag(key.isPermanent),
            kSecAttrIsModifiable as String: flag(key.isPermanent),
            kSecAttrIsSensitive as String: flag(!key.isExtractable),
            kSecAttrWasAlwaysSensitive as String: flag(!key.isExtractable),
            kSecAttrIsExtractable as String: flag(key.isExtractable),
            kSecAttrWasNeverExtractable as String: flag(!key.isExtractable),
            kSecAttrCanEncrypt as String: flag(key.usage.contains(.encrypt)),
            kSecAttrCanDecrypt as String: flag(key.usage.contains(.decrypt)),
            kSecAttrCanSign as String: flag(key.usage.contains(.sign)),
            kSecAttrCanVerify as String: flag(key.usage.contains(.verify)),
            kSecAttrCanSignRecover as String: CFConstants.false,
            kSecAttrCanVerifyRecover as String: CFConstants.false,
            kSecAttrCanWrap as String: flag(key.usage.contains(.wrap)),
            kSecAttrCanUnwrap as String: flag(key.usage.contains(.unwrap)),
            kSecAttrCanDerive as String: flag(key.usage.contains(.derive)),
        ]
        if let label = key.applicationLabel { attributes[kSecAttrApplicationLabel as String] = label }
        return attributes
    }
}
