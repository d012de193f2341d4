import Foundation
import Synchronization

/// The message behind the last failing SecItem/SecKeychain call on this thread (our API beyond Apple's).
///
/// Apple's `SecItem…` functions return only an `OSStatus`; this tells *why*, e.g. "no private key with the
/// certificate's public key hash 3F…". Cleared by every successful call.
public func SecCopyLastErrorMessage() -> String? {
    SecItemDiagnostics.lastMessage
}

enum SecItemDiagnostics {
    private static let key = "org.opensecurity.lastErrorMessage"
    /// How many threads hold a message. Successful calls clear their thread's message, and reaching the
    /// thread dictionary costs about a microsecond on Linux, so they skip it while no thread holds one. (A thread
    /// that exits holding a message leaves the count up; calls then merely take the slower path.)
    private static let threadsWithMessage = Atomic<Int>(0)

    static var lastMessage: String? {
        get {
            guard threadsWithMessage.load(ordering: .acquiring) > 0 else { return nil }
            return Thread.current.threadDictionary[key] as? String
        }
        set {
            if newValue == nil && threadsWithMessage.load(ordering: .acquiring) == 0 { return }
            let dictionary = Thread.current.threadDictionary
            let had = dictionary[key] != nil
            dictionary[key] = newValue
            switch (had, newValue != nil) {
            case (false, true): threadsWithMessage.add(1, ordering: .releasing)
            case (true, false): threadsWithMessage.subtract(1, ordering: .releasing)
            default: break
            }
        }
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
