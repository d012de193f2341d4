import Foundation

/// One point of a scaling curve: how one figure of one operation changes with the size of the work
/// (items in a keychain, members of a circle, certificates in a pool, concurrent connections).
///
/// Scaling suites have no C baseline: their points draw curves (`scripts/bench-chart.py --scale`), next to the
/// same-run ratio tables of the ordinary suites.
struct ScalePoint: Codable, Sendable {
    /// The scaling suite (`scale-keychain`, `scale-sync`, `scale-trust`, `scale-tls`).
    var suite: String
    /// The curve the point belongs to, e.g. "add", "find by primary key", "file size".
    var series: String
    /// What grows along the x axis, e.g. "items", "members", "connections".
    var xLabel: String
    var x: Double
    /// The figure and its unit, e.g. 12_345 "op/s", 3.2 "MiB", 0.8 "ms (p99)".
    var value: Double
    var unit: String
    /// A sentence on what the figure means or why it grows (optional; shown under the chart).
    var note: String?
}

/// A scaling suite: bounded in time, cleans up after itself, returns its points. Scaling suites run only when
/// asked for by name (`--suite scale-keychain`, or `--suite scale` for all of them), never in a default run.
struct ScaleSuite: Sendable {
    let name: String
    let run: @Sendable (BenchOptions) -> [ScalePoint]
}

/// Every scaling suite. Each suite adds its own line here.
enum ScaleSuites {
    static let all: [ScaleSuite] = [
        ScaleTrustBenchmarks.suite,
        ScaleTLSBenchmarks.suite,
        ScaleKeychainBenchmarks.suite,
        ScaleSyncBenchmarks.suite,
    ]
}

/// What `--json FILE` writes for a run of scaling suites: the machine and every point.
struct ScaleReport: Codable {
    var tool = "opensecurity-bench"
    var machine: BenchMachine
    var points: [ScalePoint] = []

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

extension BenchOptions {
    /// Whether a scaling suite was asked for by name (they never run by default).
    func runsScaleSuite(_ name: String) -> Bool {
        suites.contains { name.lowercased().contains($0) && $0.hasPrefix("scale") }
    }

    /// Whether the run asks only for scaling suites (then the ordinary suites are skipped).
    var onlyScale: Bool { !suites.isEmpty && suites.allSatisfy { $0.hasPrefix("scale") } }
}
