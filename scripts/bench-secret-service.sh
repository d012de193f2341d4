#!/usr/bin/env bash
# Benchmarks the Secret Service provider (`security secret-service`) against gnome-keyring-daemon in the same run:
# the `secret-service` suite of opensecurity-bench (Sources/Benchmarks/SecretServiceBenchmarks.swift), which starts
# each provider on its own private session bus and reports ours, gnome-keyring's and the ratio.
# Usage: scripts/bench-secret-service.sh [opensecurity-bench options, e.g. --rounds 5 --seconds 2]
# Needs: dbus-daemon, secret-tool, python3-secretstorage, gnome-keyring (apt-get install gnome-keyring).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product security-tool  # the full tool the `security` front end runs
swift build -c release --product security
swift build -c release --product opensecurity-bench
exec .build/release/opensecurity-bench --suite secret-service "$@"
