import Foundation

/// A temporary default keychain for the test process (set before first use, never the user's keychain).
enum Swift5Environment {
    private static let once: Void = {
        let directory = NSTemporaryDirectory() + "osec-compat5-\(getpid())-\(UUID().uuidString)"
        if ProcessInfo.processInfo.environment["OPENSECURITY_KEYCHAIN"] == nil {
            setenv("OPENSECURITY_KEYCHAIN", directory + "/login.keychain-db", 1)
            setenv("XDG_DATA_HOME", directory, 1)
            // The user preferences (search list, default keychain) too: a stale file in the real ~/.config must not
            // decide which keychains the process searches.
            setenv("XDG_CONFIG_HOME", directory + "/config", 1)
        }
    }()

    static func isolate() { once }

    static func service(_ name: String) -> String { "compat5.\(name).\(UUID().uuidString)" }
}
