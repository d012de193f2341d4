import Foundation

/// A fresh directory under the system temporary directory, removed when the value is deinitialised.
public final class TemporaryDirectory: @unchecked Sendable {  // immutable after init
    /// The directory.
    public let url: URL

    public init(prefix: String = "osec-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
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
