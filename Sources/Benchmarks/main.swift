// opensecurity-bench: throughput of OpenSecurity next to OpenSSL's own figure, measured in the same run.
//
// Usage: swift run -c release opensecurity-bench [--seconds S] [--rounds N] [--suite NAME]... [--only NAME]...
//        [--json FILE]
// Each row runs ours and OpenSSL's baseline alternately for `rounds` rounds of `seconds` each and keeps the best
// round of each (the machine is shared and noisy; the best round is the least disturbed one). `--json FILE` also
// writes every row and a description of the machine; scripts/bench-chart.py draws docs/benchmarks.svg from it.
import Foundation

ScaleSyncMember.serveIfRequested()  // a member process of --suite scale-sync
var options = BenchOptions.parse(CommandLine.arguments.dropFirst())
var report = BenchReport(options: options, machine: BenchMachine.current())
BenchTable.line("OpenSecurity benchmark — \(options.rounds) rounds × \(options.seconds) s per side, best round kept")
BenchTable.line(
    "\(report.machine.cpu), \(report.machine.cores) cores; \(report.machine.openssl); \(report.machine.swift)")
BenchTable.line("")
BenchTable.printHeader()
var scaleReport = ScaleReport(machine: report.machine)
for suite in ScaleSuites.all where options.runsScaleSuite(suite.name) {
    BenchTable.line("scaling suite \(suite.name)")
    for point in suite.run(options) {
        BenchTable.line(
            "  \(point.series) @ \(Int(point.x)) \(point.xLabel): \(BenchTable.format(point.value, point.unit))")
        scaleReport.points.append(point)
    }
}
for suite in BenchSuites.all where !options.onlyScale && options.runsSuite(suite.name) {
    for row in suite.rows() where options.selects(suite.name) || options.selects(row.name) {
        var result = row.run(options)
        result.suite = suite.name
        BenchTable.print(result)
        report.append(result)
    }
}
SyncBenchmarks.finish()
BenchScratch.removeAll()
if let path = options.jsonPath {
    do {
        if options.onlyScale {
            try scaleReport.write(to: path)
            BenchTable.line("\nwrote \(scaleReport.points.count) scaling points to \(path)")
        } else {
            try report.write(to: path)
            BenchTable.line("\nwrote \(report.rows.count) rows to \(path)")
        }
    } catch {
        FileHandle.standardError.write(Data("cannot write \(path): \(error)\n".utf8))
        exit(1)
    }
}
