import Foundation
import OSecCrypto

/// Locates the shared test data directory (`<package root>/../shared`, or `$OSEC_SHARED_DIR`).
public enum SharedTestData {
    /// The shared directory.
    public static var sharedDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["OSEC_SHARED_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        // This file is <root>/Tests/OSecTestSupport/SharedTestData.swift.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared", isDirectory: true)
    }

    /// The Wycheproof vector directory.
    public static var wycheproofDirectory: URL {
        sharedDirectory.appendingPathComponent("testdata/wycheproof", isDirectory: true)
    }

    /// Names of all Wycheproof JSON files present.
    public static func wycheproofFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: wycheproofDirectory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
    }
}

/// Hex helpers for test vectors.
public enum Hex {
    /// Decodes hex text (no separators); nil if malformed.
    public static func decode(_ text: String) -> Data? { HexDecoding.data(text) }

    /// Decodes hex text, returning empty data if malformed (test vectors are trusted).
    public static func data(_ text: String) -> Data { decode(text) ?? Data() }

    /// Lower-case hex of `data`.
    public static func encode(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
}
