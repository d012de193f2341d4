#!/usr/bin/env bash
# The main job: install what is missing, build, and run the end-to-end demonstration.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product security-tool  # the full tool the `security` front end runs
swift build -c release --product security
.build/release/security demo
