import Foundation

/// A fresh directory under the system temporary directory, removed when the value is deinitialised.
///
/// Directories held by shared fixtures (static lets) are never deinitialised, so each name carries the
/// process id, and the first directory made with a prefix in a process removes those of processes that
/// have exited (`/proc/<pid>` gone): test runs leave nothing behind for long.
public final class TemporaryDirectory: @unchecked Sendable {  // immutable after init
    /// The directory.
    public let url: URL

    public init(prefix: String = "osec-test") throws {
        TemporaryDirectory.sweepLeftovers(prefix)
        let pid = ProcessInfo.processInfo.processIdentifier
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-pid\(pid)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    private static let swept = NSLock()
    nonisolated(unsafe) private static var sweptPrefixes: Set<String> = []  // guarded by `swept`

    /// Removes `<prefix>-pid<N>-…` directories whose process N no longer exists (once per prefix and process).
    private static func sweepLeftovers(_ prefix: String) {
        swept.lock()
        defer { swept.unlock() }
        guard sweptPrefixes.insert(prefix).inserted else { return }
        let files = FileManager.default
        let temporary = files.temporaryDirectory
        guard let names = try? files.contentsOfDirectory(atPath: temporary.path) else { return }
        let marker = prefix + "-pid"
        for name in names where name.hasPrefix(marker) {
            let rest = name.dropFirst(marker.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]) else { continue }
            if !files.fileExists(atPath: "/proc/\(pid)") {
                try? files.removeItem(at: temporary.appendingPathComponent(name, isDirectory: true))
            }
        }
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `data` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> String {
        let path = path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Reads `name`.
    public func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }
}
