import Foundation

/// The message behind the last failing SecItem/SecKeychain call on this thread (our API beyond Apple's).
///
/// Apple's `SecItem…` functions return only an `OSStatus`; this tells *why*, e.g. "no private key with the
/// certificate's public key hash 3F…". Cleared by every successful call.
public func SecCopyLastErrorMessage() -> String? {
    SecItemDiagnostics.lastMessage
}

enum SecItemDiagnostics {
    private static let key = "org.opensecurity.lastErrorMessage"

    static var lastMessage: String? {
        get { Thread.current.threadDictionary[key] as? String }
        set { Thread.current.threadDictionary[key] = newValue }
    }

    /// Runs `body`, recording the failure message and returning the OSStatus (errSecSuccess on success).
    static func run(_ body: () throws -> Void) -> OSStatus {
        do {
            try body()
            lastMessage = nil
            return errSecSuccess
        } catch let error as SecError {
            lastMessage = error.message
            return error.status
        } catch {
            lastMessage = "\(error)"
            return errSecInternal
        }
    }
}
