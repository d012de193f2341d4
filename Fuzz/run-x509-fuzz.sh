#!/usr/bin/env bash
# Builds the OSecX509 libFuzzer target and runs it.
#   Fuzz/run-x509-fuzz.sh [seconds=60] [extra libFuzzer flags...]
#
# OSecX509 depends on OSecCrypto (OpenSSL), so the modules are compiled separately, each instrumented with
# -sanitize=fuzzer,address: OSecASN1, the COpenSSLShims C file (clang, ASan), OSecCrypto (with -I for the
# COpenSSL system-library module map and a generated COpenSSLShims module map), OSecX509, then the harness
# Fuzz/X509Fuzz.swift, linked against libcrypto. The harness only drives parse paths (no OpenSSL calls).
# Output: .build-fuzz/x509-fuzz, corpus in .build-fuzz/corpus-x509, crashes in .build-fuzz/artifacts-x509/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
swiftc="${SWIFTC:-swiftc}"
clang="${CLANG:-$(dirname "$(command -v "$swiftc")")/clang}"
out=.build-fuzz
mods="$out/x509-modules"
export SWIFT_BACKTRACE=enable=no
mkdir -p "$out/corpus-x509" "$out/artifacts-x509" "$mods/shims"

flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name OpenSecurity -wmo)

# C shims + a module map for them (SwiftPM generates this one in a normal build).
"$clang" -c -O1 -g -fsanitize=address -I Sources/COpenSSLShims/include Sources/COpenSSLShims/shims.c -o "$mods/shims.o"
cat > "$mods/shims/module.modulemap" <<MAP
module COpenSSLShims {
    header "$PWD/Sources/COpenSSLShims/include/COpenSSLShims.h"
    export *
}
MAP

build_module() {  # name, sources..., extra flags after --
    local name="$1"; shift
    local sources=() extra=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do sources+=("$1"); shift; done
    [ $# -gt 0 ] && shift && extra=("$@")
    "$swiftc" "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$mods/$name.swiftmodule" \
        -c "${sources[@]}" -o "$mods/$name.o" -I "$mods" "${extra[@]}"
}

build_module OSecASN1 Sources/OSecASN1/*.swift
build_module OSecCrypto $(find Sources/OSecCrypto -name '*.swift') -- -I Sources/COpenSSL -I "$mods/shims"
build_module OSecX509 $(find Sources/OSecX509 -name '*.swift') -- -I Sources/COpenSSL -I "$mods/shims"

"$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name OpenSecurity \
    -module-name X509Fuzz Fuzz/X509Fuzz.swift "$mods"/OSecASN1.o "$mods"/OSecCrypto.o "$mods"/OSecX509.o "$mods"/shims.o \
    -I "$mods" -I Sources/COpenSSL -I "$mods/shims" -lcrypto -o "$out/x509-fuzz"

# Seed corpus: DER certificates from the system bundle, a PEM chain, and a DER CSR made by openssl.
bundle=/etc/ssl/certs/ca-certificates.crt
if [ -r "$bundle" ] && [ -z "$(ls -A "$out/corpus-x509")" ]; then
    awk -v dir="$out/corpus-x509" '
        /-----BEGIN CERTIFICATE-----/ { n++; file = sprintf("%s/cert-%03d.pem", dir, n) }
        n > 0 && n <= 12 { print > file }
        /-----END CERTIFICATE-----/ { close(file) }' "$bundle"
    for pem in "$out"/corpus-x509/cert-*.pem; do
        openssl x509 -in "$pem" -outform DER -out "${pem%.pem}.der"
    done
    cat "$out"/corpus-x509/cert-00[1-3].pem > "$out/corpus-x509/chain.pem"
    rm -f "$out"/corpus-x509/cert-*.pem
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout /dev/null -subj '/C=US/O=Fuzz/CN=fuzz.example' \
        -addext 'subjectAltName=DNS:fuzz.example,IP:10.0.0.1,email:a@b.c' -outform DER -out "$out/corpus-x509/csr.der" 2>/dev/null || true
fi

"$out/x509-fuzz" "$out/corpus-x509" -max_total_time="$seconds" -max_len=8192 \
    -artifact_prefix="$out/artifacts-x509/" -print_final_stats=1 "$@"
