import Foundation
import OSecASN1
import OSecCrypto

/// Locates the test vectors this repository carries under `Tests/Vectors/` (copied unchanged from upstream, with
/// their licences; see each folder's README). Tests read only these, so a fresh clone passes on its own.
public enum TestVectors {
    /// `<package root>/Tests/Vectors`.
    public static var directory: URL {
        // This file is <root>/Tests/OSecTestSupport/TestVectors.swift.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors", isDirectory: true)
    }

    /// The Wycheproof vector directory.
    public static var wycheproofDirectory: URL {
        directory.appendingPathComponent("wycheproof", isDirectory: true)
    }

    /// Names of all Wycheproof JSON files present.
    public static func wycheproofFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: wycheproofDirectory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    /// The x509-limbo directory (`limbo-public.json`, `bettertls-public.json`).
    public static var limboDirectory: URL {
        directory.appendingPathComponent("x509-limbo", isDirectory: true)
    }

    /// A file of the x509-limbo directory.
    public static func limboFile(_ name: String) -> URL {
        limboDirectory.appendingPathComponent(name)
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
