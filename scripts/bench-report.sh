#!/usr/bin/env bash
# Runs opensecurity-bench in release mode and regenerates docs/benchmarks.json, docs/benchmarks.svg and the
# figures section of docs/benchmarks.md from it. Extra arguments go to opensecurity-bench (e.g. --suite seckey,
# --rounds 5 --seconds 1). Regenerate and commit the three files whenever a benchmark-related change lands.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product opensecurity-bench
swift build -c release --product security-tool  # the full tool the `security` front end runs
swift build -c release --product security  # the tool suite starts it as a process
.build/release/opensecurity-bench --json docs/benchmarks.json "$@"
python3 scripts/bench-chart.py docs/benchmarks.json --svg docs/benchmarks.svg --markdown docs/benchmarks.md
