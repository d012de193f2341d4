#!/usr/bin/env bash
# The test command: install what is missing (including the openssl and keytool peers), build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-test-peers
swift build --build-tests
swift test --skip-build
