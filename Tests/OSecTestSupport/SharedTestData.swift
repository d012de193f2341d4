import Foundation

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
    public static func decode(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// Decodes hex text, returning empty data if malformed (test vectors are trusted).
    public static func data(_ text: String) -> Data { decode(text) ?? Data() }

    /// Lower-case hex of `data`.
    public static func encode(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }
}
