// opensecurity-bench: throughput of OpenSecurity next to OpenSSL's own figure, measured in the same run.
//
// Usage: swift run -c release opensecurity-bench [--seconds S] [--rounds N] [--only NAME]
// Each row runs ours and OpenSSL's baseline alternately for `rounds` rounds of `seconds` each and keeps the best
// round of each (the machine is shared and noisy; the best round is the least disturbed one).
import Foundation

var options = BenchOptions.parse(CommandLine.arguments.dropFirst())
print("OpenSecurity benchmark — \(options.rounds) rounds × \(options.seconds) s per side, best round kept")
print("")
BenchTable.printHeader()
for suite in BenchSuites.all {
    for row in suite.rows() where options.selects(suite.name) || options.selects(row.name) {
        BenchTable.print(row.run(options))
    }
}
SyncBenchmarks.finish()
BenchScratch.removeAll()
