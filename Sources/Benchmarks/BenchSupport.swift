import Foundation

/// Scratch directories for benchmark fixtures (keychains, DER and .p12 files), removed when the run ends.
enum BenchScratch {
    nonisolated(unsafe) private static var directories: [String] = []

    /// A new empty directory under the system temporary directory (the benchmark is single-threaded).
    static func directory(_ name: String) -> String {
        let path =
            NSTemporaryDirectory()
            + "osec-bench-\(name)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        directories.append(path)
        return path
    }

    static func removeAll() {
        for path in directories { try? FileManager.default.removeItem(atPath: path) }
        directories.removeAll()
    }
}

struct BenchOptions {
    var seconds = 1.0
    var rounds = 3
    var only: [String] = []

    static func parse(_ args: ArraySlice<String>) -> BenchOptions {
        var options = BenchOptions()
        var it = args.makeIterator()
        while let arg = it.next() {
            switch arg {
            case "--seconds": options.seconds = it.next().flatMap(Double.init) ?? options.seconds
            case "--rounds": options.rounds = it.next().flatMap(Int.init) ?? options.rounds
            case "--only": if let name = it.next() { options.only.append(name.lowercased()) }
            case "--quick":
                options.seconds = 0.3
                options.rounds = 1
            default:
                FileHandle.standardError.write(Data("unknown option \(arg)\n".utf8))
                exit(2)
            }
        }
        return options
    }

    func selects(_ name: String) -> Bool {
        only.isEmpty || only.contains { name.lowercased().contains($0) }
    }
}

/// One line of the report: our figure, OpenSSL's, and the ratio (ours / OpenSSL; > 1 means we are faster).
struct BenchResult {
    let name: String
    let unit: String
    let ours: Double
    let openssl: Double
    let opensslLabel: String
    var ratio: Double { openssl > 0 ? ours / openssl : .nan }
}

struct BenchRow {
    let name: String
    let unit: String
    let opensslLabel: String
    /// Runs our operation for about `seconds`, returning units per second.
    let ours: (Double) -> Double
    /// Runs OpenSSL's baseline for about `seconds`, returning units per second.
    let openssl: (Double) -> Double

    func run(_ options: BenchOptions) -> BenchResult {
        var bestOurs = 0.0
        var bestOpenSSL = 0.0
        for _ in 0..<max(options.rounds, 1) {
            bestOurs = max(bestOurs, ours(options.seconds))
            bestOpenSSL = max(bestOpenSSL, openssl(options.seconds))
        }
        return BenchResult(name: name, unit: unit, ours: bestOurs, openssl: bestOpenSSL, opensslLabel: opensslLabel)
    }
}

struct BenchSuite: Sendable {
    let name: String
    let rows: @Sendable () -> [BenchRow]
}

/// Calls `body` in batches until `seconds` have passed; returns calls per second.
func measure(_ seconds: Double, _ body: () throws -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    var count = 0
    var elapsed = 0.0
    do {
        while elapsed < seconds {
            for _ in 0..<8 { try body() }
            count += 8
            elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
    } catch {
        FileHandle.standardError.write(Data("benchmark operation failed: \(error)\n".utf8))
        return -1
    }
    return Double(count) / elapsed
}

enum BenchTable {
    static func printHeader() {
        Swift.print(
            pad("benchmark", 44) + pad("ours", 16, right: true) + pad("OpenSSL", 16, right: true)
                + pad("ratio", 9, right: true) + "  OpenSSL entry point")
        Swift.print(String(repeating: "-", count: 120))
    }

    static func print(_ r: BenchResult) {
        Swift.print(
            pad(r.name, 44) + pad(format(r.ours, r.unit), 16, right: true)
                + pad(format(r.openssl, r.unit), 16, right: true)
                + pad(String(format: "%.2f×", r.ratio), 9, right: true) + "  " + r.opensslLabel)
    }

    static func format(_ value: Double, _ unit: String) -> String {
        if value < 0 { return "failed" }
        if unit == "B/s" { return String(format: "%.0f MB/s", value / 1e6) }
        if value >= 10_000 { return String(format: "%.0f %@", value, unit) }
        return String(format: "%.1f %@", value, unit)
    }

    static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        guard s.count < width else { return s + " " }
        let fill = String(repeating: " ", count: width - s.count)
        return right ? fill + s : s + fill
    }
}

/// Runs the openssl CLI (for fixtures), quietly; throws unless it exits with 0.
func runOpenSSLCommand(_ args: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = args
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchFailure() }
}
