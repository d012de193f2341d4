import Foundation

/// A fresh directory under the system temp dir, removed when the value is deallocated.
final class TemporaryDirectory {
    let url: URL
    var path: String { url.path }

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("osec-sqlite-tests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
