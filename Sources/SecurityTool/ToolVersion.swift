import OSecToolBase

/// `security --version` and `security version` (the release is ``Release``, shared with the front end).
enum ToolVersion {
    /// The release (semantic versioning).
    static let version = Release.version
    /// The release's date (the man page's date).
    static let date = Release.date

    /// `security version`: `security (OpenSecurity) <version>`.
    static let command = ToolCommand(name: "version", usage: "", help: "Show the version of OpenSecurity.") { _ in
        print(line)
        return 0
    }

    static var line: String { Release.versionLine }
}
