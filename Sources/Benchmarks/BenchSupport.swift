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
    /// `--suite NAME`: run only the suites whose name contains NAME (others are not even set up).
    var suites: [String] = []
    /// `--json FILE`: where to write every result row and the machine description (see `BenchReport`).
    var jsonPath: String?

    static func parse(_ args: ArraySlice<String>) -> BenchOptions {
        var options = BenchOptions()
        var it = args.makeIterator()
        while let arg = it.next() {
            switch arg {
            case "--seconds": options.seconds = it.next().flatMap(Double.init) ?? options.seconds
            case "--rounds": options.rounds = it.next().flatMap(Int.init) ?? options.rounds
            case "--only": if let name = it.next() { options.only.append(name.lowercased()) }
            case "--suite": if let name = it.next() { options.suites.append(name.lowercased()) }
            case "--json":
                guard let path = it.next() else { usage("--json needs a file name") }
                options.jsonPath = path
            case "--quick":
                options.seconds = 0.3
                options.rounds = 1
            default:
                usage("unknown option \(arg)")
            }
        }
        return options
    }

    private static func usage(_ message: String) -> Never {
        FileHandle.standardError.write(
            Data(
                ("\(message)\nusage: opensecurity-bench [--seconds S] [--rounds N] [--suite NAME]... [--only NAME]... "
                    + "[--quick] [--json FILE]\n").utf8))
        exit(2)
    }

    /// Whether the suite is set up at all (`--suite`).
    func runsSuite(_ name: String) -> Bool {
        suites.isEmpty || suites.contains { name.lowercased().contains($0) }
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
    /// The suite the row belongs to (`BenchSuite.name`).
    var suite = ""
    /// Every round's figure, in the order they ran (the best is `ours` / `openssl`; a failure is negative).
    var oursRounds: [Double] = []
    var opensslRounds: [Double] = []
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

    /// Runs both sides `rounds` times, alternating and swapping which side goes first every round (so neither
    /// always gets the warmer caches or the quieter moment), and keeps each side's best round.
    func run(_ options: BenchOptions) -> BenchResult {
        var oursRounds: [Double] = []
        var opensslRounds: [Double] = []
        for round in 0..<max(options.rounds, 1) {
            if round % 2 == 0 {
                oursRounds.append(ours(options.seconds))
                opensslRounds.append(openssl(options.seconds))
            } else {
                opensslRounds.append(openssl(options.seconds))
                oursRounds.append(ours(options.seconds))
            }
        }
        var result = BenchResult(
            name: name, unit: unit, ours: Self.best(oursRounds), openssl: Self.best(opensslRounds),
            opensslLabel: opensslLabel)
        result.oursRounds = oursRounds
        result.opensslRounds = opensslRounds
        return result
    }

    /// The best round that succeeded, or -1 when none did. A row that can run only once (the keychain's add and
    /// delete rows) reports -1 for the rounds after its first; every round stays in the JSON report.
    private static func best(_ rounds: [Double]) -> Double {
        rounds.filter { $0 > 0 }.max() ?? -1
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
    /// Writes one line straight to standard output (unbuffered, so a piped run shows each row as it finishes).
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func printHeader() {
        line(
            pad("benchmark", 58) + pad("ours", 16, right: true) + pad("OpenSSL", 16, right: true)
                + pad("ratio", 9, right: true) + "  OpenSSL entry point")
        line(String(repeating: "-", count: 120))
    }

    static func print(_ r: BenchResult) {
        line(
            pad(r.name, 58) + pad(format(r.ours, r.unit), 16, right: true)
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
