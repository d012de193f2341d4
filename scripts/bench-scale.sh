#!/usr/bin/env bash
# Runs the scaling suites of opensecurity-bench in release mode, one JSON file per suite under docs/bench-scale/,
# and redraws their charts and the scaling section of docs/benchmarks.md.
#   scripts/bench-scale.sh                    every scaling suite
#   scripts/bench-scale.sh scale-keychain …   only the named ones
# Each suite is bounded in time and removes what it creates. Commit docs/bench-scale/ and docs/benchmarks.md after.
set -euo pipefail
cd "$(dirname "$0")/.."
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(scale-keychain scale-sync scale-trust scale-tls)
swift build -c release --product opensecurity-bench
swift build -c release --product security-tool  # the full tool the `security` front end runs
swift build -c release --product security
mkdir -p docs/bench-scale
for suite in "${suites[@]}"; do
    .build/release/opensecurity-bench --suite "$suite" --json "docs/bench-scale/$suite.json"
done
python3 scripts/bench-scale-chart.py docs/bench-scale/*.json --markdown docs/benchmarks.md
