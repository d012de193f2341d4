#!/usr/bin/env bash
# The source rules, checked without building (scripts/test.sh runs this first; CI runs scripts/test.sh):
#   - scripts/check-rules.py: unsafe code and C only in the wrapper layers, layer order of Package.swift, every
#     import declared, no line over 120 columns;
#   - swift-format lint --strict with the repository's .swift-format (formatting drift, semicolons, ...).
# The build-time rules (undeclared imports, warnings) are enforced by the build command in scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
python3 scripts/check-rules.py || status=1
if ! swift format lint --strict --recursive --parallel Sources Tests Fuzz Package.swift; then
    echo "check: formatting differs from .swift-format; run: swift format -i -r Sources Tests Fuzz Package.swift" >&2
    status=1
fi
[ "$status" -eq 0 ] && echo "check: source rules hold"
exit "$status"
