import Foundation
import Security
import Testing

// The Core Foundation names Security-framework code uses next to it: CFError accessors, CFGetTypeID dispatch, the
// …Ref spellings, CFBoolean constants (`kCFBooleanTrue!`), plus SecRandomCopyBytes and the shared web credentials.

@Suite struct CoreFoundationUseTests {
    init() { CompatEnvironment.isolated }

    @Test func cfErrorAccessorsOnSecurityErrors() throws {
        var error: Unmanaged<CFError>?
        let attributes: CFDictionaryRef =
            [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 7] as CFDictionary
        #expect(SecKeyCreateRandomKey(attributes, &error) == nil)
        let cfError: CFErrorRef = try #require(error?.takeRetainedValue())
        #expect(CFErrorGetCode(cfError) == CFIndex(errSecParam))
        #expect(CFErrorGetDomain(cfError) as String == NSOSStatusErrorDomain)
        #expect(CFErrorGetDomain(cfError) == kCFErrorDomainOSStatus)
        #expect((CFErrorCopyDescription(cfError) as String).isEmpty == false)
        let userInfo = CFErrorCopyUserInfo(cfError) as NSDictionary
        #expect(userInfo[kCFErrorLocalizedDescriptionKey!] as? String == CFErrorCopyDescription(cfError) as String)
        #expect(CFErrorCopyFailureReason(cfError) == nil)
        let swiftError = cfError as Error
        #expect((swiftError as NSError).code == Int(errSecParam))
        let made: CFError = CFErrorCreate(kCFAllocatorDefault, kCFErrorDomainOSStatus, CFIndex(errSecDecode), nil)
        #expect(CFErrorGetCode(made) == -26275)
    }

    @Test func typeIdentifiersTellObjectsApart() throws {
        let key = try #require(
            SecKeyCreateRandomKey(
                [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256] as CFDictionary, nil))
        let objects: [(CFTypeRef, CFTypeID)] = [
            (key, SecKeyGetTypeID()), (SecPolicyCreateBasicX509(), SecPolicyGetTypeID()),
            ("s" as CFString, CFStringGetTypeID()), (Data() as CFData, CFDataGetTypeID()),
            (kCFBooleanTrue, CFBooleanGetTypeID()), (NSNumber(value: 3), CFNumberGetTypeID()),
            ([:] as CFDictionary, CFDictionaryGetTypeID()), ([] as CFArray, CFArrayGetTypeID()),
            (Date() as CFDate, CFDateGetTypeID()), (kCFNull, CFNullGetTypeID()),
        ]
        for (object, expected) in objects { #expect(CFGetTypeID(object) == expected) }
        #expect(Set(objects.map(\.1)).count == objects.count, "every type has its own ID")
        #expect(CFCopyTypeIDDescription(SecKeyGetTypeID()) as String == "SecKey")
        #expect(CFBooleanGetValue(kCFBooleanTrue) && !CFBooleanGetValue(kCFBooleanFalse))
        #expect(CFEqual("a" as CFString, "a" as CFString) && !CFEqual(kCFBooleanTrue, kCFBooleanFalse))
    }

    @Test func refSpellingsAreTheSameTypes() throws {
        let policy: SecPolicyRef = SecPolicyCreateSSL(true, "example.com" as CFStringRef)
        let data: CFDataRef = Data([1, 2, 3]) as CFDataRef
        let number: CFNumberRef = 5 as NSNumber
        let flag: CFBooleanRef = kCFBooleanTrue!
        let array: CFArrayRef = [policy] as CFArrayRef
        let allocator: CFAllocatorRef? = kCFAllocatorDefault
        let date: CFDateRef = Date() as CFDateRef
        let typeRef: CFTypeRef = data
        #expect(CFDataGetLength(data) == 3 && number.intValue == 5 && flag.boolValue)
        #expect(CFArrayGetCount(array) == 1 && allocator == nil && CFGetTypeID(date) == CFDateGetTypeID())
        #expect(CFGetTypeID(typeRef) == CFDataGetTypeID())
        let accessControl: SecAccessControlRef? = SecAccessControlCreateWithFlags(
            allocator, kSecAttrAccessibleWhenUnlocked, [], nil)
        #expect(accessControl != nil)
    }

    @Test func randomBytesComeFromTheSystemGenerator() {
        var bytes = [UInt8](repeating: 0, count: 32)
        let status = SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes)
        #expect(status == errSecSuccess)
        var more = Data(count: 32)
        let moreStatus = more.withUnsafeMutableBytes { SecRandomCopyBytes(kSecRandomDefault, 32, $0.baseAddress!) }
        #expect(moreStatus == errSecSuccess)
        #expect(bytes != [UInt8](repeating: 0, count: 32) && Data(bytes) != more)
        var none = [UInt8](repeating: 7, count: 4)
        #expect(SecRandomCopyBytes(nil, 0, &none) == errSecSuccess && none == [7, 7, 7, 7])
        #expect(SecRandomCopyBytes(kSecRandomDefault, -1, &none) == errSecParam)
        // Exactly `count` bytes are written, straight into the caller's buffer: nothing past them changes.
        var framed = [UInt8](repeating: 0xA5, count: 80)
        #expect(SecRandomCopyBytes(kSecRandomDefault, 48, &framed) == errSecSuccess)
        #expect(framed[48...].allSatisfy { $0 == 0xA5 } && framed[..<48].contains { $0 != 0xA5 })
    }

    @Test func sharedWebCredentialsAnswerAsWhereTheyAreUnavailable() async {
        let added: CFError? = await withCheckedContinuation { continuation in
            SecAddSharedWebCredential("example.com" as CFString, "alice" as CFString, "pw" as CFString) { error in
                continuation.resume(returning: error)
            }
        }
        #expect(added.map { CFErrorGetCode($0) } == CFIndex(errSecParam))
        #expect(added.map { CFErrorGetDomain($0) as String } == NSOSStatusErrorDomain)
        let password = SecCreateSharedWebCredentialPassword() as String?
        let groups = password?.split(separator: "-") ?? []
        #expect(groups.count == 4 && groups.allSatisfy { $0.count == 3 })
        let characters = Set(password?.replacingOccurrences(of: "-", with: "") ?? "")
        #expect(characters.isSubset(of: Set("abcdefghkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")))
        let lower = characters.contains { $0.isLowercase }
        let upper = characters.contains { $0.isUppercase }
        let digit = characters.contains { $0.isNumber }
        #expect(lower && upper && digit)
        #expect(kSecSharedPassword as String == "spwd")
    }
}
