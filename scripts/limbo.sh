#!/usr/bin/env bash
# The full x509-limbo conformance run, separate from the tests: builds limbo-harness in release mode, runs it on
# the suite given (default: the public half carried in Tests/Vectors) and scores the results.
# Usage: scripts/limbo.sh [SUITE.json] [--list-failures]
set -euo pipefail
cd "$(dirname "$0")/.."
suite="${1:-Tests/Vectors/x509-limbo/limbo-public.json}"
shift || true
swift build -c release --product limbo-harness
results="$(mktemp)"
trap 'rm -f "$results"' EXIT
.build/release/limbo-harness < "$suite" > "$results"
python3 scripts/limbo-score.py "$suite" "$results" "$@"
