/// OpenSecurity's release, reported by `security --version` and `security version` (macOS's tool has neither, so
/// they collide with nothing), written into the man page, the completions and the Debian package
/// (`scripts/install.sh` asks the built tool). CHANGELOG.md's newest section carries the same version.
package enum Release {
    /// The release (semantic versioning).
    package static let version = "0.1.0"
    /// The release's date (the man page's date).
    package static let date = "2026-12-07"
    /// What `security --version` and `security version` print: `security (OpenSecurity) <version>`.
    package static var versionLine: String { "security (OpenSecurity) \(version)" }
}
