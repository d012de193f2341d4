#!/usr/bin/env bash
# Builds the DocC documentation of every module that has a catalog (Sources/<Module>/Docs.docc) from the debug build's
# modules, and fails on any DocC warning (a broken symbol link, a malformed article).
#   scripts/docs.sh [OUTPUT-DIR]     (default: .build/docs; open OUTPUT-DIR/<Module>.doccarchive)
# Needs a debug build first (`swift build`), which scripts/test.sh has just done.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/docs}"
modules=.build/debug/Modules
[ -d "$modules" ] || { echo "docs: build first (swift build)" >&2; exit 1; }
triple="$(swiftc -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"
mkdir -p "$out"
status=0
for catalog in Sources/*/Docs.docc; do
    module="$(basename "$(dirname "$catalog")")"
    # Library products document their public API; internal layers their package-level API.
    level=package
    case "$module" in Security | CommonCrypto | LocalAuthentication | OpenSecurity*) level=public ;; esac
    graphs="$(mktemp -d)"
    flags=(-I "$modules")
    for c in Sources/C*/; do flags+=(-I "$c" -I "$c/include"); done
    # System libraries found through pkg-config (libpq's headers are in /usr/include/postgresql).
    for include in $(pkg-config --cflags-only-I libpq 2>/dev/null); do flags+=(-Xcc "$include"); done
    for map in .build/debug/*.build/module.modulemap; do
        [ -f "$map" ] && flags+=(-Xcc "-fmodule-map-file=$map")
    done
    swift symbolgraph-extract -module-name "$module" "${flags[@]}" -target "$triple" -output-dir "$graphs" \
        -minimum-access-level "$level"
    if ! docc convert "$catalog" --additional-symbol-graph-dir "$graphs" --output-path "$out/$module.doccarchive" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.opensecurity.$module" \
        --warnings-as-errors > "$graphs/log" 2>&1; then
        cat "$graphs/log" >&2
        echo "docs: $module has DocC warnings (above)" >&2
        status=1
    fi
    rm -rf "$graphs"
done
[ "$status" -eq 0 ] && echo "docs: every catalog builds without warnings ($out)"
exit "$status"
