// libFuzzer target for key import through Apple's API and OpenSecurity's: SecKeyCreateWithData with every key type,
// class and size attribute (PKCS#1, X9.63, and whatever else it accepts), and OpenSecurityKeys.importKey (PEM, DER:
// PKCS#1, SEC1, SPKI, PKCS#8, encrypted PKCS#8, legacy encrypted PEM) — what `security import` reads for keys.
// Built by `Fuzz/fuzz.sh keyimport` (it compiles the whole Security module).
//
// Asserted for every key accepted:
// - its external representation re-imports (same type and class) to a key with the same representation;
// - an EC key given as an uncompressed X9.63 point (plus scalar) represents itself as exactly those bytes;
// - SecKeyCopyAttributes' type and class agree with what was asked, the key has a size (a size attribute is not
//   checked against the data, as on Apple), and a private key's public half has the same type and size;
// - a failure is an error in the OSStatus domain with errSecParam/errSecDecode/errSecUnsupported* — never a crash.
import Foundation
import Security

nonisolated(unsafe) var keyTypes: [CFString] = []

func representation(_ key: SecKey) -> Data {
    guard let data = SecKeyCopyExternalRepresentation(key, nil) as Data? else {
        fatalError("an imported key has no external representation")
    }
    return data
}

func attribute(_ key: SecKey, _ name: CFString) -> Any? {
    (SecKeyCopyAttributes(key) as? [String: Any])?[name as String]
}

func sizeOf(_ key: SecKey) -> Int? {
    (attribute(key, kSecAttrKeySizeInBits) as? NSNumber)?.intValue ?? attribute(key, kSecAttrKeySizeInBits) as? Int
}

func typeOf(_ key: SecKey) -> String? {
    (attribute(key, kSecAttrKeyType) as? String) ?? (attribute(key, kSecAttrKeyType) as? NSString).map { $0 as String }
}

func classOf(_ key: SecKey) -> String? {
    (attribute(key, kSecAttrKeyClass) as? String)
        ?? (attribute(key, kSecAttrKeyClass) as? NSString).map { $0 as String }
}

/// Re-import of the representation gives the same key.
func checkRoundTrip(_ key: SecKey) {
    let data = representation(key)
    guard let type = typeOf(key), let keyClass = classOf(key) else { fatalError("a key without type or class") }
    let attributes = [kSecAttrKeyType as String: type, kSecAttrKeyClass as String: keyClass] as CFDictionary
    var error: Unmanaged<CFError>?
    guard let again = SecKeyCreateWithData(data as CFData, attributes, &error) else {
        fatalError("a key's own representation does not import: \(String(describing: error?.takeRetainedValue()))")
    }
    guard representation(again) == data, sizeOf(again) == sizeOf(key) else {
        fatalError("a key's representation is not stable across re-import")
    }
    if keyClass == (kSecAttrKeyClassPrivate as String) {
        guard let publicKey = SecKeyCopyPublicKey(key), typeOf(publicKey) == type, sizeOf(publicKey) == sizeOf(key),
            classOf(publicKey) == (kSecAttrKeyClassPublic as String)
        else { fatalError("a private key's public half differs in type or size") }
    }
}

func checkFailure(_ error: Unmanaged<CFError>?) {
    guard let error = error?.takeRetainedValue() else { fatalError("a failed import without an error") }
    let allowed: Set<Int> = [
        Int(errSecParam), Int(errSecDecode), Int(errSecUnsupportedFormat),
        Int(errSecUnsupportedKeySize), Int(errSecUnimplemented),
    ]
    guard CFErrorGetDomain(error) as String == NSOSStatusErrorDomain, allowed.contains(CFErrorGetCode(error)) else {
        fatalError("unexpected import error \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func keyImportFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let mode = input.byte()
    if mode & 1 == 0 {
        // SecKeyCreateWithData with attributes from the input.
        var attributes: [String: Any] = [:]
        let typeChoice = input.byte()
        if typeChoice % 8 != 7 { attributes[kSecAttrKeyType as String] = keyTypes[Int(typeChoice) % keyTypes.count] }
        let classChoice = input.byte() % 5
        let classes: [Any] = [kSecAttrKeyClassPublic, kSecAttrKeyClassPrivate, kSecAttrKeyClassSymmetric, "x", 1]
        if classChoice < 5 { attributes[kSecAttrKeyClass as String] = classes[Int(classChoice)] }
        let sizeChoice = input.byte()
        let requestedSize: Int? =
            sizeChoice & 0x80 == 0 ? nil : [256, 384, 521, 1024, 2048, 3072, 4096, 0, 255][Int(sizeChoice) % 9]
        if let requestedSize { attributes[kSecAttrKeySizeInBits as String] = requestedSize }
        let keyData = Data(input.rest())
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateWithData(keyData as CFData, attributes as CFDictionary, &error) else {
            checkFailure(error)
            return 0
        }
        // kSecAttrKeySizeInBits is not checked against the data: as on Apple, the size comes from the key (the curve
        // from the data's length), so a key imported "as 521 bits" from a P-256 point is a 256-bit key.
        guard let bits = sizeOf(key), bits > 0, requestedSize.map({ _ in true }) ?? true else {
            fatalError("an imported key without a size")
        }
        guard classOf(key) == (attributes[kSecAttrKeyClass as String] as? String) else {
            fatalError("a key imported with another class than asked")
        }
        let ecTypes = [kSecAttrKeyTypeEC as String, kSecAttrKeyTypeECSECPrimeRandom as String]
        if ecTypes.contains(typeOf(key) ?? ""), keyData.first == 0x04 {
            guard representation(key) == keyData else { fatalError("an X9.63 key does not represent as itself") }
        }
        checkRoundTrip(key)
    } else {
        // OpenSecurityKeys.importKey: PEM or DER, perhaps encrypted (passphrase "fuzz" or none).
        let passphrase: String? = mode & 2 == 0 ? nil : "fuzz"
        let keyData = Data(input.rest())
        guard let key = try? OpenSecurityKeys.importKey(keyData, passphrase: passphrase) else { return 0 }
        checkRoundTrip(key)
        guard let pem = try? OpenSecurityKeys.pemRepresentation(of: key),
            let again = try? OpenSecurityKeys.importKey(pem: pem),
            representation(again) == representation(key)
        else { fatalError("an imported key does not survive PEM export and import") }
    }
    return 0
}

/// Seeds from the project's own outputs: random keys of every type and size, written by
/// SecKeyCopyExternalRepresentation and by OpenSecurityKeys.exportKey in each format, PEM and DER, encrypted too.
@_cdecl("LLVMFuzzerInitialize")
public func keyImportFuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    keyTypes = [kSecAttrKeyTypeRSA, kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyTypeEC, "42" as CFString]
    guard Seeds.directory != nil else { return 0 }
    let specs: [(CFString, Int)] = [
        (kSecAttrKeyTypeECSECPrimeRandom, 256), (kSecAttrKeyTypeECSECPrimeRandom, 384),
        (kSecAttrKeyTypeECSECPrimeRandom, 521), (kSecAttrKeyTypeRSA, 1024), (kSecAttrKeyTypeRSA, 2048),
    ]
    for (index, (type, bits)) in specs.enumerated() {
        let parameters = [kSecAttrKeyType as String: type, kSecAttrKeySizeInBits as String: bits] as CFDictionary
        guard let key = SecKeyCreateRandomKey(parameters, nil), let publicKey = SecKeyCopyPublicKey(key) else {
            fatalError("making seed keys")
        }
        let typeIndex: UInt8 = type == kSecAttrKeyTypeRSA ? 0 : 1
        for (name, k, classIndex) in [("private", key, UInt8(1)), ("public", publicKey, UInt8(0))] {
            let sizeIndex = UInt8([256, 384, 521, 1024, 2048].firstIndex(of: bits) ?? 0)
            Seeds.write(
                "apple-\(index)-\(name)",
                [0, typeIndex, classIndex, 0x80 | sizeIndex] + Array(representation(k)))
            for format in [OpenSecurityKeys.ExportFormat.openssl, .pkcs8] {
                for pem in [false, true] {
                    if let der = try? OpenSecurityKeys.exportKey(k, format: format, pem: pem) {
                        Seeds.write("export-\(index)-\(name)-\(format)-\(pem)", [1] + Array(der))
                    }
                }
            }
            if classIndex == 1, index == 0 || index == 3,
                let encrypted = try? OpenSecurityKeys.exportKey(k, format: .pkcs8, pem: true, passphrase: "fuzz")
            {
                Seeds.write("encrypted-\(index)", [3] + Array(encrypted))
            }
        }
    }
    return 0
}
