#!/usr/bin/env bash
# Builds the test suites under a sanitizer and runs them (issue 26).
#   scripts/sanitize.sh address [swift test --filter REGEX]
#   scripts/sanitize.sh thread  [swift test --filter REGEX]
#
# Each sanitizer builds into its own scratch path (.build-sanitize-address, .build-sanitize-thread), so the normal
# .build is not disturbed; -j 1 (see CONTRIBUTING). With no filter, `thread` runs the concurrency suites (the
# keychain's multi-connection and multi-process tests, SecKey from many threads, the SQLite layer, the TLS load
# test, the sync acceptance tests when PostgreSQL is available) and `address` runs everything; pass `.` to run
# every suite under ThreadSanitizer too.
#
# A finding fails the run (exit 1): any "WARNING: ThreadSanitizer" or "ERROR: AddressSanitizer" report in the
# output. Suppressions (scripts/sanitizer-suppressions/<sanitizer>.txt) are only for blind spots of the sanitizer,
# each with a comment saying why; a lock the sanitizer cannot see through is replaced with one it understands
# (see docs/fuzzing.md, "Sanitizers").
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizer="${1:-}"
case "$sanitizer" in
address) default_filter="" ;;
thread)
    default_filter="SecKeyConcurrencyTests|ConcurrencyTests|DatabaseTests|SchemaMigrationTests|LoadTests"
    default_filter+="|KeychainOneLinerTests|SyncAcceptanceTests|SecurityToolAgentTests"
    default_filter+="|SocketReactorTests"
    ;;
*)
    echo "usage: scripts/sanitize.sh address|thread [test filter]" >&2
    exit 2
    ;;
esac
filter="${2-$default_filter}"
scratch=".build-sanitize-$sanitizer"
suppressions="$(pwd)/scripts/sanitizer-suppressions/$sanitizer.txt"

# Crash reports from the sanitizer, not from Swift's backtracer (which trips ASan while it reads memory).
export SWIFT_BACKTRACE=enable=no
case "$sanitizer" in
address)
    # Leak checking is off: Swift's lazily initialized globals and the test runner's caches are reported as leaks
    # at exit (a blind spot); memory growth is what scripts/soak.sh measures.
    export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:halt_on_error=0:suppressions=$suppressions"
    ;;
thread)
    export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:history_size=4:suppressions=$suppressions"
    ;;
esac

swift build --build-tests -j 1 --sanitize="$sanitizer" --scratch-path "$scratch"
log="$scratch/sanitize.log"
args=(--skip-build --sanitize="$sanitizer" --scratch-path "$scratch")
[ -n "$filter" ] && args+=(--filter "$filter")
# Both sanitizer runtimes turn mlock/mlockall into no-ops (sanitizer_common's interceptors: their shadow memory must
# stay pageable), so the agent built with either holds no locked memory: the test that checks VmLck is a property of
# the real build, not of this one.
args+=(--skip theAgentsMemoryIsLockedAndItCannotBeDumped)
# The TLS load test requires TLSLoad's resident size to stay within 4 MiB from round 2 to round 4. Under
# AddressSanitizer every freed chunk first goes to its quarantine (up to 256 MiB), so the resident size grows with
# the quarantine, not with the program (measured: +5.8 MiB, no table of the test growing). That test runs on its
# own, below, with the quarantine off (quarantine_size_mb=0): every other check of ASan still applies to it, and the
# rest of the suite keeps the quarantine's use-after-free detection.
rss_test="everyRequestIsAnsweredWithoutDescriptorOrMemoryGrowth"
[ "$sanitizer" = address ] && args+=(--skip "$rss_test")
set +e
swift test "${args[@]}" 2>&1 | tee "$log"
status="${PIPESTATUS[0]}"
selected=true
[ -n "$filter" ] && ! echo "TLSTests.LoadTests/$rss_test()" | grep -Eq "$filter" && selected=false
if [ "$sanitizer" = address ] && [ "$status" -eq 0 ] && [ "$selected" = true ]; then
    ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=0" swift test --skip-build --sanitize="$sanitizer" \
        --scratch-path "$scratch" --filter "$rss_test" 2>&1 | tee -a "$log"
    status="${PIPESTATUS[0]}"
fi
set -e
reports="$(grep -cE "WARNING: ThreadSanitizer|ERROR: AddressSanitizer" "$log" || true)"
echo "sanitize: $sanitizer, filter '${filter:-<all>}': tests exit $status, $reports sanitizer report(s); log $log"
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ]
