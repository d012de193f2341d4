import Foundation
import OSecASN1

// macOS's SecItemImport / SecItemExport (Security/SecImportExport.h) with Apple's Swift signatures: certificates
// (DER, PEM), RSA and EC keys (PKCS#1, SEC1, SubjectPublicKeyInfo, PKCS#8, encrypted PKCS#8, OpenSSL's legacy
// encrypted PEM), PEM sequences of them, and PKCS#12 — the formats `security import` / `security export` handle.
// OpenSSH, PKCS#7, Netscape sequences and raw symmetric keys give errSecUnsupportedFormat.

/// Apple's `SecExternalFormat`.
public enum SecExternalFormat: UInt32, @unchecked Sendable {
    case formatUnknown = 0
    case formatOpenSSL = 1
    case formatSSH = 2
    case formatBSAFE = 3
    case formatRawKey = 4
    case formatWrappedPKCS8 = 5
    case formatWrappedOpenSSL = 6
    case formatWrappedSSH = 7
    case formatWrappedLSH = 8
    case formatX509Cert = 9
    case formatPEMSequence = 10
    case formatPKCS7 = 11
    case formatPKCS12 = 12
    case formatNetscapeCertSequence = 13
    case formatSSHv2 = 14
}

/// Apple's `SecExternalItemType`.
public enum SecExternalItemType: UInt32, @unchecked Sendable {
    case itemTypeUnknown = 0
    case itemTypePrivateKey = 1
    case itemTypePublicKey = 2
    case itemTypeSessionKey = 3
    case itemTypeCertificate = 4
    case itemTypeAggregate = 5
}

/// Apple's `SecItemImportExportFlags`.
public struct SecItemImportExportFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Exported data is PEM text; imported data may be.
    public static var pemArmour: SecItemImportExportFlags { SecItemImportExportFlags(rawValue: 1) }
}

/// Apple's `SecKeyImportExportFlags`.
public struct SecKeyImportExportFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Import at most one key.
    public static var importOnlyOne: SecKeyImportExportFlags { SecKeyImportExportFlags(rawValue: 1) }
    /// Ask the user for the passphrase (no prompt exists here: the passphrase must be given).
    public static var securePassphrase: SecKeyImportExportFlags { SecKeyImportExportFlags(rawValue: 2) }
    /// Imported private keys get no access control.
    public static var noAccessControl: SecKeyImportExportFlags { SecKeyImportExportFlags(rawValue: 4) }
}

/// Apple's `SEC_KEY_IMPORT_EXPORT_PARAMS_VERSION`.
public var SEC_KEY_IMPORT_EXPORT_PARAMS_VERSION: Int32 { 0 }

/// CSSM's key-usage bits (`CSSM_KEYUSE`).
public typealias CSSM_KEYUSE = UInt32
/// CSSM's key attribute bits (`CSSM_KEYATTR_FLAGS`).
public typealias CSSM_KEYATTR_FLAGS = UInt32

/// Apple's `SecItemImportExportKeyParameters`: the passphrase (a CFString or CFData) for encrypted keys and
/// PKCS#12, and settings of macOS's passphrase panel (no panel exists here).
public struct SecItemImportExportKeyParameters {
    public var version: UInt32
    public var flags: SecKeyImportExportFlags
    public var passphrase: Unmanaged<CFTypeRef>?
    public var alertTitle: Unmanaged<CFString>?
    public var alertPrompt: Unmanaged<CFString>?
    public var accessRef: Unmanaged<SecAccess>?
    public var keyUsage: Unmanaged<CFArray>?
    public var keyAttributes: Unmanaged<CFArray>?

    public init() {
        version = 0
        flags = []
    }

    public init(
        version: UInt32, flags: SecKeyImportExportFlags, passphrase: Unmanaged<CFTypeRef>?,
        alertTitle: Unmanaged<CFString>?, alertPrompt: Unmanaged<CFString>?, accessRef: Unmanaged<SecAccess>?,
        keyUsage: Unmanaged<CFArray>?, keyAttributes: Unmanaged<CFArray>?
    ) {
        self.version = version
        self.flags = flags
        self.passphrase = passphrase
        self.alertTitle = alertTitle
        self.alertPrompt = alertPrompt
        self.accessRef = accessRef
        self.keyUsage = keyUsage
        self.keyAttributes = keyAttributes
    }
}

/// Apple's `SecKeyImportExportParameters` (the legacy form, for `SecKeychainItemImport` / `…Export`).
public struct SecKeyImportExportParameters {
    public var version: UInt32
    public var flags: SecKeyImportExportFlags
    public var passphrase: Unmanaged<CFTypeRef>?
    public var alertTitle: Unmanaged<CFString>
    public var alertPrompt: Unmanaged<CFString>
    public var accessRef: Unmanaged<SecAccess>?
    public var keyUsage: CSSM_KEYUSE
    public var keyAttributes: CSSM_KEYATTR_FLAGS

    public init(
        version: UInt32, flags: SecKeyImportExportFlags, passphrase: Unmanaged<CFTypeRef>?,
        alertTitle: Unmanaged<CFString>, alertPrompt: Unmanaged<CFString>, accessRef: Unmanaged<SecAccess>?,
        keyUsage: CSSM_KEYUSE, keyAttributes: CSSM_KEYATTR_FLAGS
    ) {
        self.version = version
        self.flags = flags
        self.passphrase = passphrase
        self.alertTitle = alertTitle
        self.alertPrompt = alertPrompt
        self.accessRef = accessRef
        self.keyUsage = keyUsage
        self.keyAttributes = keyAttributes
    }
}

/// The engine behind SecItemImport and SecItemExport.
enum ImportExport {
    /// One decoded item.
    enum Item {
        case certificate(SecCertificate)
        case key(SecKey)
        case identity(SecIdentity)

        var object: AnyObject {
            switch self {
            case .certificate(let certificate): certificate
            case .key(let key): key
            case .identity(let identity): identity
            }
        }

        var type: SecExternalItemType {
            switch self {
            case .certificate: return .itemTypeCertificate
            case .identity: return .itemTypeAggregate
            case .key(let key):
                if key.symmetric != nil { return .itemTypeSessionKey }
                return ImportExport.isPrivate(key) ? .itemTypePrivateKey : .itemTypePublicKey
            }
        }
    }

    static func isPrivate(_ key: SecKey) -> Bool { key.asymmetric?.isPrivate ?? false }

    /// The passphrase of key parameters: a CFString, or CFData holding UTF-8.
    static func passphrase(_ parameters: SecItemImportExportKeyParameters?) throws -> String? {
        guard let value = parameters?.passphrase?.takeUnretainedValue() else { return nil }
        if let text = value as? String { return text }
        if let data = value as? Data {
            guard let text = String(data: data, encoding: .utf8) else {
                throw SecError.param("the passphrase data is not UTF-8")
            }
            return text
        }
        throw SecError.param("the passphrase must be a CFString or CFData")
    }

    static func required(_ passphrase: String?) throws -> String {
        guard let passphrase else {
            // macOS would show its passphrase panel (kSecKeySecurePassphrase); there is none here.
            throw SecError(errSecPassphraseRequired, "a passphrase is needed (keyParams.passphrase)")
        }
        return passphrase
    }

    // MARK: Guessing

    /// The format and type a file name extension names (Apple's table), or nil.
    static func guess(fileNameOrExtension name: String) -> (SecExternalFormat, SecExternalItemType)? {
        let ext = name.contains(".") ? (name as NSString).pathExtension.lowercased() : name.lowercased()
        switch ext {
        case "p12", "pfx": return (.formatPKCS12, .itemTypeAggregate)
        case "cer", "crt", "der": return (.formatX509Cert, .itemTypeCertificate)
        case "p7b", "p7c", "p7r", "p7m", "p7s": return (.formatPKCS7, .itemTypeAggregate)
        case "pem": return (.formatPEMSequence, .itemTypeUnknown)
        case "p8": return (.formatWrappedPKCS8, .itemTypePrivateKey)
        case "pub": return (.formatOpenSSL, .itemTypePublicKey)
        case "key": return (.formatOpenSSL, .itemTypeUnknown)
        default: return nil
        }
    }

    /// Whether `data` is PEM text.
    static func isPEM(_ data: Data) -> Bool {
        guard let text = String(data: data, encoding: .utf8) else { return false }
        return text.contains("-----BEGIN ")
    }

    /// An EncryptedPrivateKeyInfo: SEQUENCE { SEQUENCE (algorithm), OCTET STRING }.
    static func isEncryptedPKCS8(_ der: Data) -> Bool {
        let bytes = [UInt8](der.prefix(16))
        guard bytes.count > 4, bytes[0] == 0x30 else { return false }
        var offset = 1
        if bytes[1] & 0x80 != 0 { offset += Int(bytes[1] & 0x7F) }
        offset += 1
        return offset < bytes.count && bytes[offset] == 0x30
    }

    /// The PKCS#12 PFX shape: SEQUENCE { INTEGER 3, SEQUENCE (authSafe) … }.
    static func looksLikePKCS12(_ der: Data) -> Bool {
        let bytes = [UInt8](der.prefix(24))
        guard bytes.count > 6, bytes[0] == 0x30 else { return false }
        var offset = 1
        if bytes[1] & 0x80 != 0 { offset += Int(bytes[1] & 0x7F) }
        offset += 1
        return offset + 2 < bytes.count && bytes[offset] == 0x02 && bytes[offset + 1] == 0x01
            && bytes[offset + 2] == 0x03
    }

    // MARK: Import

    /// A key from DER or PEM text (`passphrase` for encrypted ones). A wrong passphrase stays errSecAuthFailed;
    /// anything that is not a key is errSecUnknownFormat.
    static func key(_ data: Data, passphrase: String?) throws -> SecKey {
        do {
            return try OpenSecurityKeys.importKey(data, passphrase: passphrase)
        } catch {
            let error = error as NSError
            if error.domain == NSOSStatusErrorDomain, error.code == Int(errSecAuthFailed) {
                throw SecError(errSecAuthFailed, "the passphrase does not decrypt the key")
            }
            if error.domain == NSOSStatusErrorDomain, error.code == Int(errSecPassphraseRequired) {
                throw SecError(errSecPassphraseRequired, "the key is encrypted: a passphrase is needed")
            }
            throw SecError(errSecUnknownFormat, "the data is not a key in a format SecItemImport reads")
        }
    }

    /// The items of `data` and the format they were in.
    static func decode(
        _ data: Data, format: SecExternalFormat, passphrase: String?
    ) throws -> (items: [Item], format: SecExternalFormat) {
        switch format {
        case .formatSSH, .formatWrappedSSH, .formatWrappedLSH, .formatSSHv2, .formatPKCS7,
            .formatNetscapeCertSequence, .formatRawKey:
            throw SecError(errSecUnsupportedFormat, "SecItemImport does not read format \(format)")
        case .formatPKCS12:
            return (try pkcs12(data, passphrase: passphrase), .formatPKCS12)
        case .formatUnknown, .formatPEMSequence, .formatX509Cert, .formatOpenSSL, .formatBSAFE,
            .formatWrappedPKCS8, .formatWrappedOpenSSL:
            break
        }
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN ") {
            var items: [Item] = []
            var formats: [SecExternalFormat] = []
            for block in PEMTextBlocks.split(text) {
                if PEMTextBlocks.certificateLabels.contains(block.label) {
                    guard let certificate = try? OpenSecurityCertificates.certificates(fromPEM: block.text).first
                    else { throw SecError(errSecUnknownFormat, "a CERTIFICATE block does not hold a certificate") }
                    items.append(.certificate(certificate))
                    formats.append(.formatX509Cert)
                } else if PEMTextBlocks.keyLabels.contains(block.label) {
                    let encrypted = block.label == "ENCRYPTED PRIVATE KEY"
                    let legacy = block.text.contains("Proc-Type: 4,ENCRYPTED")
                    let secret = encrypted || legacy ? try required(passphrase) : nil
                    items.append(.key(try key(Data(block.text.utf8), passphrase: secret)))
                    formats.append(encrypted ? .formatWrappedPKCS8 : legacy ? .formatWrappedOpenSSL : .formatOpenSSL)
                }
            }
            guard !items.isEmpty else { throw SecError(errSecUnknownFormat, "the PEM text holds no item") }
            return (items, items.count == 1 ? formats[0] : .formatPEMSequence)
        }
        if format == .formatPEMSequence { throw SecError(errSecUnknownFormat, "the data is not PEM text") }
        if format == .formatUnknown || format == .formatX509Cert,
            let certificate = SecCertificateCreateWithData(nil, data as NSData)
        {
            return ([.certificate(certificate)], .formatX509Cert)
        }
        if format == .formatX509Cert { throw SecError(errSecUnknownFormat, "the data is not a DER certificate") }
        if isEncryptedPKCS8(data), (try? OpenSecurityKeys.importKey(data)) == nil {
            if format == .formatUnknown, looksLikePKCS12(data) {
                return (try pkcs12(data, passphrase: passphrase), .formatPKCS12)
            }
            return ([.key(try key(data, passphrase: try required(passphrase)))], .formatWrappedPKCS8)
        }
        if let key = try? OpenSecurityKeys.importKey(data) { return ([.key(key)], .formatOpenSSL) }
        if format == .formatUnknown, looksLikePKCS12(data) {
            return (try pkcs12(data, passphrase: passphrase), .formatPKCS12)
        }
        throw SecError(errSecUnknownFormat, "the data is not a certificate, key or PKCS#12 that SecItemImport reads")
    }

    /// A PKCS#12's identities and the certificates not part of one.
    static func pkcs12(_ data: Data, passphrase: String?) throws -> [Item] {
        let secret = try required(passphrase)
        var found: CFArray?
        let status = SecPKCS12Import(
            data as NSData, [kSecImportExportPassphrase as String: secret] as NSDictionary, &found)
        guard status == errSecSuccess, let entries = found as? [[String: Any]] else {
            // macOS's import engine reports a wrong password as a failed PKCS#12 MAC check.
            throw SecError(status == errSecAuthFailed ? errSecPkcs12VerifyFailure : status, "PKCS#12 import failed")
        }
        var items: [Item] = []
        for entry in entries {
            let identity = entry[kSecImportItemIdentity as String].map { $0 as AnyObject } as? SecIdentity
            if let identity { items.append(.identity(identity)) }
            let chain = (entry[kSecImportItemCertChain as String] as? [AnyObject] ?? []).compactMap {
                $0 as? SecCertificate
            }
            for certificate in identity == nil ? chain : Array(chain.dropFirst()) {
                items.append(.certificate(certificate))
            }
        }
        return items
    }

    /// Adds imported items to `keychain` (a duplicate certificate is not an error: macOS keeps the one stored).
    static func store(_ items: [Item], in keychain: SecKeychain) throws {
        for item in items {
            var query: [String: Any] = [kSecUseKeychain as String: keychain, kSecValueRef as String: item.object]
            if case .key(let key) = item {
                query[kSecAttrLabel as String] = isPrivate(key) ? "Imported Private Key" : "Imported Public Key"
            }
            let status = SecItemAdd(query as CFDictionary, nil)
            guard status == errSecSuccess || (status == errSecDuplicateItem && item.type == .itemTypeCertificate)
            else { throw SecError(status, "adding an imported item to the keychain failed") }
        }
    }

    // MARK: Export

    static func items(_ object: CFTypeRef) throws -> [Item] {
        func one(_ value: AnyObject) throws -> Item {
            if let certificate = value as? SecCertificate { return .certificate(certificate) }
            if let key = value as? SecKey { return .key(key) }
            if let identity = value as? SecIdentity { return .identity(identity) }
            throw SecError.param("SecItemExport exports SecCertificate, SecKey and SecIdentity objects")
        }
        if let array = object as? NSArray {
            guard array.count > 0 else { throw SecError.param("SecItemExport: the array is empty") }
            return try array.map { try one($0 as AnyObject) }
        }
        return [try one(object)]
    }

    static func encode(
        _ items: [Item], format: SecExternalFormat, pem: Bool, passphrase: String?
    ) throws -> Data {
        var format = format
        if format == .formatUnknown {
            switch items.count == 1 ? items[0] : nil {
            case .certificate: format = .formatX509Cert
            case .key(let key): format = key.symmetric != nil ? .formatRawKey : .formatOpenSSL
            case .identity: format = .formatPKCS12
            case nil: format = .formatPEMSequence
            }
        }
        switch format {
        case .formatX509Cert:
            guard items.count == 1, case .certificate(let certificate) = items[0] else {
                throw SecError(errSecUnsupportedFormat, "formatX509Cert exports one certificate")
            }
            return pem
                ? Data(OpenSecurityCertificates.pemRepresentation(of: certificate).utf8)
                : SecCertificateCopyData(certificate) as Data
        case .formatOpenSSL, .formatBSAFE, .formatWrappedPKCS8:
            guard items.count == 1, case .key(let key) = items[0] else {
                throw SecError(errSecUnsupportedFormat, "key formats export one key")
            }
            let wrapped = format == .formatWrappedPKCS8
            if wrapped && !isPrivate(key) {
                throw SecError(errSecUnsupportedFormat, "formatWrappedPKCS8 exports a private key")
            }
            return try exportKey(
                key, format: format == .formatOpenSSL ? .openssl : .pkcs8, pem: pem,
                passphrase: wrapped ? try required(passphrase) : nil)
        case .formatPEMSequence:
            var text = Data()
            for item in items {
                switch item {
                case .certificate(let certificate):
                    text += Data(OpenSecurityCertificates.pemRepresentation(of: certificate).utf8)
                case .key(let key):
                    text += try exportKey(key, format: .openssl, pem: true, passphrase: nil)
                case .identity(let identity):
                    text += Data(OpenSecurityCertificates.pemRepresentation(of: identity.certificate).utf8)
                    text += try exportKey(identity.privateKey, format: .openssl, pem: true, passphrase: nil)
                }
            }
            return text
        case .formatPKCS12:
            let secret = try required(passphrase)
            var identities: [SecIdentity] = []
            var certificates: [SecCertificate] = []
            for item in items {
                switch item {
                case .identity(let identity): identities.append(identity)
                case .certificate(let certificate): certificates.append(certificate)
                case .key: throw SecError(errSecUnsupportedFormat, "PKCS#12 exports identities and certificates")
                }
            }
            do {
                let data = try OpenSecurityPKCS12.export(
                    identities: identities, certificates: certificates, passphrase: secret)
                guard pem else { return data }
                return Data(
                    ("-----BEGIN PKCS12-----\n" + data.base64EncodedString(options: .lineLength64Characters)
                        + "\n-----END PKCS12-----\n").utf8)
            } catch {
                throw SecError(translating: error)
            }
        case .formatRawKey:
            // A symmetric key's own bytes (macOS's default format for session keys), when it is extractable.
            guard items.count == 1, case .key(let key) = items[0], let symmetric = key.symmetric else {
                throw SecError(errSecUnsupportedFormat, "formatRawKey exports one symmetric key")
            }
            guard symmetric.isExtractable else {
                throw SecError(errSecDataNotAvailable, "the key is not extractable")
            }
            guard !pem else { throw SecError(errSecUnsupportedFormat, "raw keys have no PEM form") }
            return symmetric.bytes
        case .formatWrappedOpenSSL, .formatSSH, .formatWrappedSSH, .formatWrappedLSH, .formatSSHv2,
            .formatPKCS7, .formatNetscapeCertSequence, .formatUnknown:
            throw SecError(errSecUnsupportedFormat, "SecItemExport does not write format \(format)")
        }
    }

    static func exportKey(
        _ key: SecKey, format: OpenSecurityKeys.ExportFormat, pem: Bool, passphrase: String?
    ) throws -> Data {
        if let symmetric = key.symmetric {
            throw SecError(errSecUnsupportedFormat, "a \(symmetric.algorithm.name) key is exported with formatRawKey")
        }
        do {
            return try OpenSecurityKeys.exportKey(key, format: format, pem: pem, passphrase: passphrase)
        } catch {
            throw SecError(translating: error)
        }
    }
}

/// Apple's `SecItemImport` (macOS): the certificates, keys and identities of `importedData`.
///
/// The format and item type come from `inputFormat` / `itemType` when they are given and not unknown, else from
/// `fileNameOrExtension` (`.p12`, `.pfx`, `.cer`, `.crt`, `.der`, `.pem`, `.p8`, …), else from the content; on
/// return both say what was found (a single item's own format and type, `formatPEMSequence` and
/// `itemTypeAggregate` for several). Encrypted keys and PKCS#12 take `keyParams.passphrase`
/// (errSecPassphraseRequired without one). With `importKeychain` the items are added to that keychain. `outItems`
/// gets `SecCertificate`, `SecKey` and `SecIdentity` objects.
public func SecItemImport(
    _ importedData: CFData, _ fileNameOrExtension: CFString?, _ inputFormat: UnsafeMutablePointer<SecExternalFormat>?,
    _ itemType: UnsafeMutablePointer<SecExternalItemType>?, _ flags: SecItemImportExportFlags,
    _ keyParams: UnsafePointer<SecItemImportExportKeyParameters>?, _ importKeychain: SecKeychain?,
    _ outItems: UnsafeMutablePointer<CFArray?>?
) -> OSStatus {
    outItems?.pointee = nil
    return withOSStatus {
        let data = importedData as Data
        let parameters = keyParams?.pointee
        var format = inputFormat?.pointee ?? .formatUnknown
        if format == .formatUnknown, let name = fileNameOrExtension as String?,
            let guessed = ImportExport.guess(fileNameOrExtension: name)?.0,
            [.formatPKCS12, .formatX509Cert, .formatPKCS7].contains(guessed)
        {
            // The other names (.pem, .key, .p8, .pub) say less than the content does: it decides.
            format = guessed
        }
        let decoded = try ImportExport.decode(data, format: format, passphrase: try ImportExport.passphrase(parameters))
        var items = decoded.items
        if let wanted = itemType?.pointee, wanted != .itemTypeUnknown, wanted != .itemTypeAggregate {
            let matching = items.filter { $0.type == wanted || ($0.type == .itemTypeAggregate) }
            guard !matching.isEmpty else {
                throw SecError(errSecUnknownFormat, "the data holds no item of type \(wanted)")
            }
            items = matching
        }
        if parameters?.flags.contains(.importOnlyOne) == true {
            let keys = items.filter { if case .key = $0 { true } else { false } }
            if keys.count > 1 { throw SecError(errSecMultiplePrivKeys, "more than one key with importOnlyOne") }
        }
        if let importKeychain { try ImportExport.store(items, in: importKeychain) }
        inputFormat?.pointee = decoded.format
        itemType?.pointee = items.count == 1 ? items[0].type : .itemTypeAggregate
        outItems?.pointee = items.map(\.object) as NSArray
    }
}

/// Apple's `SecItemExport` (macOS): `secItemOrArray` (a SecCertificate, SecKey or SecIdentity, or an array) in
/// `outputFormat` (`formatUnknown`: X.509 DER for one certificate, OpenSSL for one key, PKCS#12 for one identity,
/// a PEM sequence for several). `.pemArmour` gives PEM text. PKCS#12 and `formatWrappedPKCS8` need
/// `keyParams.passphrase`.
public func SecItemExport(
    _ secItemOrArray: CFTypeRef, _ outputFormat: SecExternalFormat, _ flags: SecItemImportExportFlags,
    _ keyParams: UnsafePointer<SecItemImportExportKeyParameters>?, _ exportedData: UnsafeMutablePointer<CFData?>
) -> OSStatus {
    exportedData.pointee = nil
    return withOSStatus {
        let items = try ImportExport.items(secItemOrArray)
        let passphrase = try ImportExport.passphrase(keyParams?.pointee)
        let data = try ImportExport.encode(
            items, format: outputFormat, pem: flags.contains(.pemArmour), passphrase: passphrase)
        exportedData.pointee = data as NSData
    }
}

extension SecItemImportExportKeyParameters {
    /// The modern parameters of legacy ones.
    init(_ legacy: SecKeyImportExportParameters) {
        self.init(
            version: legacy.version, flags: legacy.flags, passphrase: legacy.passphrase,
            alertTitle: legacy.alertTitle, alertPrompt: legacy.alertPrompt, accessRef: legacy.accessRef,
            keyUsage: nil, keyAttributes: nil)
    }
}

/// Apple's `SecKeychainItemImport` (macOS, the legacy form of `SecItemImport`).
public func SecKeychainItemImport(
    _ importedData: CFData, _ fileNameOrExtension: CFString?, _ inputFormat: UnsafeMutablePointer<SecExternalFormat>?,
    _ itemType: UnsafeMutablePointer<SecExternalItemType>?, _ flags: SecItemImportExportFlags,
    _ keyParams: UnsafePointer<SecKeyImportExportParameters>?, _ importKeychain: SecKeychain?,
    _ outItems: UnsafeMutablePointer<CFArray?>?
) -> OSStatus {
    guard let legacy = keyParams?.pointee else {
        return SecItemImport(
            importedData, fileNameOrExtension, inputFormat, itemType, flags, nil, importKeychain, outItems)
    }
    var parameters = SecItemImportExportKeyParameters(legacy)
    return SecItemImport(
        importedData, fileNameOrExtension, inputFormat, itemType, flags, &parameters, importKeychain, outItems)
}

/// Apple's `SecKeychainItemExport` (macOS, the legacy form of `SecItemExport`).
public func SecKeychainItemExport(
    _ keychainItemOrArray: CFTypeRef, _ outputFormat: SecExternalFormat, _ flags: SecItemImportExportFlags,
    _ keyParams: UnsafePointer<SecKeyImportExportParameters>?, _ exportedData: UnsafeMutablePointer<CFData?>
) -> OSStatus {
    guard let legacy = keyParams?.pointee else {
        return SecItemExport(keychainItemOrArray, outputFormat, flags, nil, exportedData)
    }
    var parameters = SecItemImportExportKeyParameters(legacy)
    return SecItemExport(keychainItemOrArray, outputFormat, flags, &parameters, exportedData)
}
