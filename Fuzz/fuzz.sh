#!/usr/bin/env bash
# Builds one libFuzzer target and runs it on a seed corpus.
#   Fuzz/fuzz.sh asn1|x509|pkcs12|cms [seconds=60] [extra libFuzzer flags...]
#
# Targets: asn1 (DER/BER + PEM, Fuzz/ASN1Fuzz.swift), x509 (certificates, CSRs, PEM chains, Fuzz/X509Fuzz.swift),
# pkcs12 (PKCS#12 import, Fuzz/PKCS12Fuzz.swift), cms (CMS messages, Fuzz/CMSFuzz.swift).
# The modules a target needs are compiled one by one in layer order, each instrumented with
# -sanitize=fuzzer,address, because their sources `import` each other by module name. OSecCrypto's C modules:
# COpenSSL comes from Sources/COpenSSL/module.modulemap; COpenSSLShims gets a generated module map (SwiftPM
# normally writes one) pointing at Sources/COpenSSLShims/include. The pkcs12 target is built with PKCS12_FUZZING,
# which lowers the KDF iteration cap (see PKCS12Limits) so mutated counts stay cheap.
# Output: .build-fuzz/<target>-fuzz, corpus in .build-fuzz/corpus-<target>, crashes in .build-fuzz/artifacts-<target>/.
# Needs the fuzzer runtime that ships with the Swift toolchain (libclang_rt.fuzzer-*.a).
set -euo pipefail
cd "$(dirname "$0")/.."

target="${1:-}"
case "$target" in
asn1) modules=(OSecASN1); harness=Fuzz/ASN1Fuzz.swift; max_len=8192 ;;
x509) modules=(OSecASN1 OSecCrypto OSecX509); harness=Fuzz/X509Fuzz.swift; max_len=8192 ;;
pkcs12) modules=(OSecASN1 OSecCrypto OSecX509 OSecPKCS12); harness=Fuzz/PKCS12Fuzz.swift; max_len=16384 ;;
cms) modules=(OSecASN1 OSecCrypto OSecX509 OSecCMS); harness=Fuzz/CMSFuzz.swift; max_len=16384 ;;
*)
    echo "usage: Fuzz/fuzz.sh asn1|x509|pkcs12|cms [seconds] [libFuzzer flags...]" >&2
    exit 2
    ;;
esac
shift
seconds="${1:-60}"
shift || true

swiftc="${SWIFTC:-swiftc}"
clang="${CLANG:-$(dirname "$(command -v "$swiftc")")/clang}"
out=.build-fuzz
mods="$out/$target-modules"
corpus="$out/corpus-$target"
artifacts="$out/artifacts-$target"
# Let libFuzzer/ASan report crashes; the Swift backtracer otherwise trips ASan while reading memory.
export SWIFT_BACKTRACE=enable=no
mkdir -p "$mods" "$corpus" "$artifacts"
root="$(pwd)"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name OpenSecurity -I "$mods")
c_flags=(-I Sources/COpenSSL -Xcc -fmodule-map-file="$mods/module.modulemap")

cat > "$mods/module.modulemap" <<MAP
module COpenSSLShims {
    header "$root/Sources/COpenSSLShims/include/COpenSSLShims.h"
    export *
}
MAP

objects=()
link=()
for module in "${modules[@]}"; do
    extra=()
    [ "$module" = OSecASN1 ] || extra=("${c_flags[@]}")
    [ "$target" = pkcs12 ] && [ "$module" = OSecPKCS12 ] && extra+=(-D PKCS12_FUZZING)
    # shellcheck disable=SC2046
    "$swiftc" "${flags[@]}" -module-name "$module" -wmo -emit-module -emit-module-path "$mods/$module.swiftmodule" \
        "${extra[@]}" -c $(find "Sources/$module" -name '*.swift' | sort) -o "$mods/$module.o"
    objects+=("$mods/$module.o")
done
if [ "${#modules[@]}" -gt 1 ]; then
    "$clang" -c -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/COpenSSLShims/include \
        Sources/COpenSSLShims/shims.c -o "$mods/shims.o"
    objects+=("$mods/shims.o")
    link=("${c_flags[@]}" -lcrypto)
fi
"$swiftc" "${flags[@]}" -module-name "${target^^}Fuzz" "$harness" "${objects[@]}" "${link[@]}" -o "$out/$target-fuzz"

# Seed corpus, made once.
bundle=/etc/ssl/certs/ca-certificates.crt
if [ -z "$(ls -A "$corpus")" ]; then
    case "$target" in
    asn1 | x509)
        # DER certificates from the system bundle (and a PEM file or chain).
        if [ -r "$bundle" ]; then
            awk -v dir="$corpus" '
                /-----BEGIN CERTIFICATE-----/ { n++; file = sprintf("%s/cert-%03d.pem", dir, n) }
                n > 0 && n <= 12 { print > file }
                /-----END CERTIFICATE-----/ { close(file) }' "$bundle"
            for pem in "$corpus"/cert-*.pem; do
                openssl x509 -in "$pem" -outform DER -out "${pem%.pem}.der"
            done
            cat "$corpus"/cert-00[1-3].pem > "$corpus/chain.pem"
            rm -f "$corpus"/cert-*.pem
        fi
        if [ "$target" = asn1 ]; then
            printf '\x30\x80\x02\x01\x01\x24\x80\x04\x01\x61\x00\x00\x00\x00' > "$corpus/ber-indefinite"
        else
            openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout /dev/null \
                -subj '/C=US/O=Fuzz/CN=fuzz.example' -addext 'subjectAltName=DNS:fuzz.example,IP:10.0.0.1,email:a@b.c' \
                -outform DER -out "$corpus/csr.der" 2>/dev/null || true
            # Keys for the key decoders: P-256 and RSA-1024 as PKCS#8, SPKI, SEC1 and PKCS#1.
            openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -outform DER -out "$corpus/p256.p8" \
                2>/dev/null || true
            openssl pkey -inform DER -in "$corpus/p256.p8" -pubout -outform DER -out "$corpus/p256.spki" 2>/dev/null || true
            openssl ec -inform DER -in "$corpus/p256.p8" -outform DER -out "$corpus/p256.sec1" 2>/dev/null || true
            openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -outform DER -out "$corpus/rsa.p8" \
                2>/dev/null || true
            openssl pkey -inform DER -in "$corpus/rsa.p8" -pubout -outform DER -out "$corpus/rsa.spki" 2>/dev/null || true
            openssl rsa -inform DER -in "$corpus/rsa.p8" -traditional -outform DER -out "$corpus/rsa.pkcs1" \
                2>/dev/null || true
        fi
        ;;
    pkcs12)
        # Small .p12 files from the openssl CLI in several flavours, 1 KDF iteration so runs are cheap.
        seeds="$(mktemp -d)"
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$seeds/k.pem" -out "$seeds/c.pem" \
            -subj "/CN=Fuzz Seed" -days 1 2>/dev/null
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$seeds/ca.key" \
            -out "$seeds/ca.pem" -subj "/CN=Fuzz CA" -days 1 2>/dev/null
        n=0
        for args in "" "-legacy" "-nomac" "-descert" "-keypbe NONE -certpbe NONE" "-keypbe NONE -certpbe NONE -nomac" \
            "-macalg sha512 -keypbe AES-128-CBC -certpbe DES-EDE3-CBC" "-keypbe PBE-SHA1-2DES -certpbe PBE-SHA1-RC2-128" \
            "-keypbe PBE-SHA1-RC4-128 -certpbe PBE-SHA1-RC4-40" "-name seed"; do
            n=$((n + 1))
            # shellcheck disable=SC2086
            openssl pkcs12 -export -provider legacy -provider default -in "$seeds/c.pem" -inkey "$seeds/k.pem" \
                -certfile "$seeds/ca.pem" -iter 1 -nomaciter -passout pass:fuzz $args -out "$corpus/seed-$n.p12" \
                2>/dev/null || true
        done
        openssl pkcs12 -export -in "$seeds/c.pem" -inkey "$seeds/k.pem" -iter 1 -nomaciter -passout pass: \
            -out "$corpus/seed-empty.p12"
        rm -rf "$seeds"
        ;;
    cms)
        # Signed (DER and -stream BER, RSA and EC, attached and detached) and enveloped messages from the openssl CLI.
        seeds="$(mktemp -d)"
        printf 'fuzz content\n' > "$seeds/content"
        openssl req -x509 -newkey rsa:1024 -nodes -keyout "$seeds/r.key" -out "$seeds/r.pem" -subj "/CN=Fuzz RSA" \
            -days 1 2>/dev/null
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$seeds/e.key" \
            -out "$seeds/e.pem" -subj "/CN=Fuzz EC" -days 1 2>/dev/null
        n=0
        for args in "-nodetach" "-nodetach -stream" "-noattr -nodetach" "" "-nodetach -md sha512"; do
            for who in r e; do
                n=$((n + 1))
                # shellcheck disable=SC2086
                openssl cms -sign -binary -in "$seeds/content" -signer "$seeds/$who.pem" -inkey "$seeds/$who.key" \
                    -outform DER $args -out "$corpus/signed-$n.der" 2>/dev/null || true
            done
        done
        for args in "-aes256" "-aes-256-gcm" "-aes128 -stream"; do
            for who in r e; do
                n=$((n + 1))
                # shellcheck disable=SC2086
                openssl cms -encrypt -binary -in "$seeds/content" $args -recip "$seeds/$who.pem" -outform DER \
                    -out "$corpus/enveloped-$n.der" 2>/dev/null || true
            done
        done
        rm -rf "$seeds"
        ;;
    esac
fi

timeout_flag=()
[ "$target" = pkcs12 ] && timeout_flag=(-timeout=20)
"$out/$target-fuzz" "$corpus" -max_total_time="$seconds" -max_len="$max_len" "${timeout_flag[@]}" \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
