#!/usr/bin/env bash
# Builds the OSecASN1 libFuzzer target and runs it.
#   Fuzz/run-fuzz.sh [seconds=60] [extra libFuzzer flags...]
# Output: .build-fuzz/asn1-fuzz, corpus in .build-fuzz/corpus-asn1, crashes in .build-fuzz/artifacts/.
# Needs the fuzzer runtime that ships with the Swift toolchain (libclang_rt.fuzzer-*.a).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
swiftc="${SWIFTC:-swiftc}"
out=.build-fuzz
# Let libFuzzer/ASan report crashes; the Swift backtracer otherwise trips ASan while reading memory.
export SWIFT_BACKTRACE=enable=no
mkdir -p "$out/corpus-asn1" "$out/artifacts"

"$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g \
    -module-name OSecASN1Fuzz -package-name OpenSecurity \
    Sources/OSecASN1/*.swift Fuzz/ASN1Fuzz.swift \
    -o "$out/asn1-fuzz"

# Seed corpus: a few DER certificates from the system bundle, plus one PEM file and small BER samples.
bundle=/etc/ssl/certs/ca-certificates.crt
if [ -r "$bundle" ] && [ -z "$(ls -A "$out/corpus-asn1")" ]; then
    awk -v dir="$out/corpus-asn1" '
        /-----BEGIN CERTIFICATE-----/ { n++; file = sprintf("%s/cert-%03d.pem", dir, n) }
        n > 0 && n <= 8 { print > file }
        /-----END CERTIFICATE-----/ { close(file) }' "$bundle"
    for pem in "$out"/corpus-asn1/cert-*.pem; do
        openssl x509 -in "$pem" -outform DER -out "${pem%.pem}.der"
    done
    rm -f "$out"/corpus-asn1/cert-00[2-8].pem
    printf '\x30\x80\x02\x01\x01\x24\x80\x04\x01\x61\x00\x00\x00\x00' > "$out/corpus-asn1/ber-indefinite"
fi

"$out/asn1-fuzz" "$out/corpus-asn1" -max_total_time="$seconds" -max_len=8192 \
    -artifact_prefix="$out/artifacts/" -print_final_stats=1 "$@"
