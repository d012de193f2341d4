/// OpenSecurity's release, reported by `security --version` and `security version` (macOS's tool has neither, so
/// they collide with nothing), written into the man page, the completions and the Debian package
/// (`scripts/install.sh` asks the built tool). CHANGELOG.md's newest section carries the same version.
enum ToolVersion {
    /// The release (semantic versioning).
    static let version = "0.1.0"
    /// The release's date (the man page's date).
    static let date = "2026-12-07"

    /// `security version`: `security (OpenSecurity) <version>`.
    static let command = ToolCommand(name: "version", usage: "", help: "Show the version of OpenSecurity.") { _ in
        print(line)
        return 0
    }

    static var line: String { "security (OpenSecurity) \(version)" }
}
