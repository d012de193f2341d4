import Foundation
import OpenSSLBaseline

/// The machine a run happened on, recorded with the figures (ratios are only comparable within one run, and
/// only meaningful with the machine named).
struct BenchMachine: Codable {
    /// `model name` of /proc/cpuinfo.
    var cpu: String
    /// Processors the process may use.
    var cores: Int
    /// `PRETTY_NAME` of /etc/os-release and the kernel release.
    var os: String
    /// OpenSSL's own version text.
    var openssl: String
    /// The first line of `swift --version`, or the compiler version this binary was built with.
    var swift: String
    /// `release` or `debug` (only release figures mean anything).
    var build: String
    /// The 1-, 5- and 15-minute load averages when the run started (the machine may be shared).
    var loadAverageAtStart: String
    /// When the run started (ISO 8601, UTC).
    var date: String

    static func current() -> BenchMachine {
        let cpu =
            read("/proc/cpuinfo")?.split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let release =
            read("/etc/os-release")?.split(separator: "\n")
            .first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            ?? "Linux"
        let kernel = read("/proc/sys/kernel/osrelease")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let load = read("/proc/loadavg")?.split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return BenchMachine(
            cpu: cpu, cores: ProcessInfo.processInfo.activeProcessorCount,
            os: kernel.isEmpty ? release : "\(release), kernel \(kernel)", openssl: opensslVersionText,
            swift: swiftVersion(), build: build, loadAverageAtStart: load, date: formatter.string(from: Date()))
    }

    private static func read(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }

    /// `swift --version` when a toolchain is on PATH (the usual way to run the benchmark), else the compiler
    /// version this binary was built with.
    private static func swiftVersion() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) != nil {
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            if process.terminationStatus == 0,
                let line = String(decoding: output, as: UTF8.self).split(separator: "\n").first
            {
                return line.trimmingCharacters(in: .whitespaces)
            }
        }
        #if compiler(>=6.3)
        return "Swift 6.3 or later (compiler of this binary)"
        #elseif compiler(>=6.2)
        return "Swift 6.2 (compiler of this binary)"
        #elseif compiler(>=6.1)
        return "Swift 6.1 (compiler of this binary)"
        #else
        return "Swift 6.0 (compiler of this binary)"
        #endif
    }
}

/// What `--json FILE` writes: the settings, the machine and every row. `scripts/bench-chart.py` turns it into
/// docs/benchmarks.svg and the table of docs/benchmarks.md.
struct BenchReport: Codable {
    struct Row: Codable {
        var suite: String
        var operation: String
        var unit: String
        /// Our best round (units per second); null when the operation failed.
        var ours: Double?
        /// OpenSSL's best round (units per second); null when the baseline failed.
        var baseline: Double?
        /// The OpenSSL entry point the baseline calls.
        var baselineLabel: String
        /// ours ÷ baseline (> 1: we are faster); null when either side failed.
        var ratio: Double?
        var rounds: Int
        var oursRounds: [Double]
        var baselineRounds: [Double]
    }

    var tool = "opensecurity-bench"
    var secondsPerRound: Double
    var rounds: Int
    /// The `--only` filters of the run (empty: every suite).
    var only: [String]
    var machine: BenchMachine
    var rows: [Row] = []

    init(options: BenchOptions, machine: BenchMachine) {
        secondsPerRound = options.seconds
        rounds = max(options.rounds, 1)
        only = options.only
        self.machine = machine
    }

    mutating func append(_ result: BenchResult) {
        func figure(_ value: Double) -> Double? { value > 0 && value.isFinite ? value : nil }
        let ours = figure(result.ours)
        let baseline = figure(result.openssl)
        var ratio: Double?
        if let ours, let baseline { ratio = ours / baseline }
        rows.append(
            Row(
                suite: result.suite, operation: result.name, unit: result.unit, ours: ours, baseline: baseline,
                baselineLabel: result.opensslLabel, ratio: ratio, rounds: result.oursRounds.count,
                oursRounds: result.oursRounds, baselineRounds: result.opensslRounds))
    }

    /// Writes the report as pretty-printed JSON with sorted keys (stable diffs when it is committed).
    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
