import Foundation

/// The test process's keychain: a temporary default keychain (never the user's), set before first use, as the
/// code under test uses the default keychain the way Apple-platform code does.
enum CompatEnvironment {
    static let isolated: Void = {
        let directory = NSTemporaryDirectory() + "osec-compat-\(getpid())-\(UUID().uuidString)"
        if ProcessInfo.processInfo.environment["OPENSECURITY_KEYCHAIN"] == nil {
            setenv("OPENSECURITY_KEYCHAIN", directory + "/login.keychain-db", 1)
            setenv("XDG_DATA_HOME", directory, 1)
            // The user preferences (search list, default keychain) too: a stale file in the real ~/.config must not
            // decide which keychains the process searches.
            setenv("XDG_CONFIG_HOME", directory + "/config", 1)
        }
    }()

    /// A service name no other test uses (tests run in parallel on one default keychain).
    static func service(_ name: String) -> String {
        "compat.\(name).\(UUID().uuidString)"
    }
}
