import Foundation

/// Executables of this package that tests run as separate processes (`security`, `KeychainStress`).
public enum BuiltExecutable {
    /// The executable `name` built next to the test bundle, else in `.build/debug`; nil when it was not built.
    public static func path(_ name: String) -> String? {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
                .path,
            repository.appendingPathComponent(".build/debug/\(name)").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
