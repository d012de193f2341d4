import Foundation
import OSecKeychainPaths
import OSecSystem
import OSecTestSupport
import Testing

@testable import OSecKeychain

/// The keychain-location rules the facade, the tool and its front end share (``KeychainLocations``).
@Suite struct KeychainLocationsTests {
    @Test func operandsAreNamesInTheDefaultKeychainsDirectoryOrPaths() {
        let home = "/home/u/.local/share/opensecurity/keychains/login.keychain-db"
        let directory = "/home/u/.local/share/opensecurity/keychains/"
        #expect(KeychainLocations.operandPath("build", defaultKeychainPath: home) == directory + "build.keychain-db")
        #expect(
            KeychainLocations.operandPath("build.keychain", defaultKeychainPath: home) == directory
                + "build.keychain-db")
        #expect(
            KeychainLocations.operandPath("build.keychain-db", defaultKeychainPath: home)
                == directory + "build.keychain-db")
        #expect(KeychainLocations.operandPath("./x", defaultKeychainPath: home) == "./x")
        #expect(KeychainLocations.operandPath("/abs/k.db", defaultKeychainPath: home) == "/abs/k.db")
        #expect(KeychainLocations.operandPath("k", defaultKeychainPath: "/login.keychain-db") == "/k.keychain-db")
        #expect(KeychainLocations.operandPath("k", defaultKeychainPath: "login.keychain-db") == "k.keychain-db")
    }

    /// The rules of `NSString.deletingLastPathComponent`, which the tool used before.
    @Test func parentDirectoryFollowsFoundation() {
        let cases: [(String, String)] = [
            ("/a/b", "/a"), ("/a/b/", "/a"), ("/a", "/"), ("/", "/"), ("a", ""), ("a/b", "a"), ("", ""),
            ("a//b", "a"), ("/a/b//", "/a"),
        ]
        for (path, parent) in cases { #expect(POSIXFiles.parentDirectory(of: path) == parent, "\(path)") }
    }

    @Test func preferencesReadXMLAndBinaryPropertyListsAndIgnoreWrongTypes() throws {
        let directory = try TemporaryDirectory(prefix: "osec-locations")
        let xml = directory.path("prefs.plist")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>SearchList</key><array><string>/k/a.keychain-db</string><string>/k/b.keychain-db</string></array>
            <key>DefaultKeychain</key><integer>3</integer>
            <key>LoginKeychain</key><string>/k/login.keychain-db</string>
            <key>Other</key><true/>
            </dict></plist>
            """.utf8
        ).write(to: URL(fileURLWithPath: xml))
        let read = KeychainLocations.Preferences.read(at: xml)
        #expect(read.searchList == ["/k/a.keychain-db", "/k/b.keychain-db"])
        #expect(read.defaultKeychain == nil)  // not a string: not set
        #expect(read.loginKeychain == "/k/login.keychain-db")

        let binary = directory.path("binary.plist")
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        try encoder.encode(["DefaultKeychain": "/k/d.keychain-db"]).write(to: URL(fileURLWithPath: binary))
        #expect(KeychainLocations.Preferences.read(at: binary).defaultKeychain == "/k/d.keychain-db")

        let missing = KeychainLocations.Preferences.read(at: directory.path("none.plist"))
        #expect(missing.searchList == nil && missing.defaultKeychain == nil && missing.loginKeychain == nil)
        try Data("not a plist".utf8).write(to: URL(fileURLWithPath: directory.path("bad.plist")))
        #expect(KeychainLocations.Preferences.read(at: directory.path("bad.plist")).searchList == nil)
    }
}
