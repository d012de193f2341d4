import Foundation
import OSecCrypto

// Apple's shared web credentials (Security/SecSharedCredential.h): passwords shared with Safari for the domains in
// an app's associated-domains entitlement. Linux has no such store and no entitlements, so these functions answer
// as Apple's own implementation does on a platform without shared web credentials (SecSharedCredential.c built
// without SHAREDWEBCREDENTIALS): the completion handler runs asynchronously on a global queue with an
// errSecParam error "SharedWebCredentials not supported on this platform". Password generation works.

/// Apple's `kSecSharedPassword`: the password key of the dictionaries `SecRequestSharedWebCredential` delivers.
nonisolated(unsafe) public let kSecSharedPassword: CFString = "spwd"

/// Apple's `SecAddSharedWebCredential`: the handler is called with errSecParam (no shared credential store here).
public func SecAddSharedWebCredential(
    _ fqdn: CFString, _ account: CFString, _ password: CFString?,
    _ completionHandler: @escaping (CFError?) -> Void
) {
    let handler = SharedCredentialHandler(completionHandler)
    DispatchQueue.global().async { handler.body(SharedWebPassword.unavailable) }
}

/// Apple's deprecated `SecRequestSharedWebCredential`: the handler is called with no credentials and errSecParam.
@available(*, deprecated, message: "Use ASAuthorizationController to make an ASAuthorizationPasswordRequest")
public func SecRequestSharedWebCredential(
    _ fqdn: CFString?, _ account: CFString?, _ completionHandler: @escaping (CFArray?, CFError?) -> Void
) {
    let handler = SharedCredentialHandler(completionHandler)
    DispatchQueue.global().async { handler.body(nil, SharedWebPassword.unavailable) }
}

/// Apple's `SecCreateSharedWebCredentialPassword`: a random password in Safari's format, four groups of three
/// characters joined by hyphens (`xxx-xxx-xxx-xxx`), from Apple's alphabet without look-alike characters, with at
/// least one lowercase letter, one uppercase letter and one digit. Random bytes come from OpenSSL.
public func SecCreateSharedWebCredentialPassword() -> CFString? {
    SharedWebPassword.generate().map { NSString(string: $0) }
}

/// Carries a caller's completion handler to the queue that calls it (the handler is not required to be Sendable,
/// as in Apple's signature; it is called exactly once, from one thread).
private final class SharedCredentialHandler<Body>: @unchecked Sendable {
    let body: Body
    init(_ body: Body) { self.body = body }
}

enum SharedWebPassword {
    /// Apple's error where shared web credentials do not exist.
    static var unavailable: CFError {
        SecError.param("SharedWebCredentials not supported on this platform").nsError
    }

    static let alphabet = Array("abcdefghkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    static let lowercase = Set("abcdefghkmnopqrstuvwxyz")
    static let uppercase = Set("ABCDEFGHJKLMNPQRSTUVWXYZ")
    static let digits = Set("3456789")
    static let groups = 4
    static let groupSize = 3
    /// Attempts before giving up (each attempt fails the character-class rule with probability < 0.3).
    static let attempts = 64

    static func generate() -> String? {
        // Rejection sampling: bytes at or above the largest multiple of the alphabet size are discarded, so every
        // character is equally likely.
        let limit = 256 - 256 % alphabet.count
        for _ in 0..<attempts {
            var characters: [Character] = []
            while characters.count < groups * groupSize {
                guard let random = try? SecureRandom.bytes(32) else { return nil }
                for byte in random where Int(byte) < limit && characters.count < groups * groupSize {
                    characters.append(alphabet[Int(byte) % alphabet.count])
                }
            }
            guard characters.contains(where: lowercase.contains), characters.contains(where: uppercase.contains),
                characters.contains(where: digits.contains)
            else { continue }
            return stride(from: 0, to: characters.count, by: groupSize).map {
                String(characters[$0..<($0 + groupSize)])
            }.joined(separator: "-")
        }
        return nil
    }
}
