#!/usr/bin/env bash
# The test command: install what is missing (including the openssl and keytool peers), check the source rules,
# build with the build-time rules enforced, run every test.
#   - --explicit-target-dependency-import-check error: a target may not import a package target it does not
#     declare (scripts/check-rules.py also requires direct declaration);
#   - -warnings-as-errors for Swift, and any C compiler warning in our own targets fails the build;
#   - every DocC catalog builds without warnings (scripts/docs.sh);
#   - the concurrency suites run again under ThreadSanitizer (scripts/sanitize.sh thread: a second build in its own
#     scratch path; see docs/fuzzing.md for its cost). Only an explicit OSEC_SKIP_TSAN=1 skips that step.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-test-peers
scripts/check.sh
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
swift build --build-tests --explicit-target-dependency-import-check error -Xswiftc -warnings-as-errors 2>&1 \
    | tee "$log"
if grep -E "^$(pwd)/(Sources|Tests)/.*: warning:" "$log"; then
    echo "test: the build has warnings in our own targets (above)" >&2
    exit 1
fi
scripts/docs.sh
# Coverage of Apple's headers (API/<Module>/*.txt) by the modules just built; fails on a missing or mistyped
# declaration that is not marked "left out".
scripts/api-coverage.py --no-build
swift test --skip-build
# The installed command (separate step, one release build): the .deb of scripts/install.sh, extracted into a
# scratch root and run with no Swift toolchain; its libraries, man page, completions and dpkg install/remove.
scripts/test-install.sh
# Last: the concurrency suites under ThreadSanitizer (~12-14 min on an idle 2-core machine; docs/fuzzing.md).
if [ "${OSEC_SKIP_TSAN:-}" = 1 ]; then
    echo "test: the ThreadSanitizer run of the concurrency suites is skipped (OSEC_SKIP_TSAN=1)" >&2
else
    scripts/sanitize.sh thread
fi
