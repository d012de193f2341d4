#!/usr/bin/env bash
# Builds the PKCS#12 import libFuzzer target and runs it.
#   Fuzz/run-pkcs12-fuzz.sh [seconds=60] [extra libFuzzer flags...]
# Output: .build-fuzz/pkcs12-fuzz, corpus in .build-fuzz/corpus-pkcs12, crashes in .build-fuzz/artifacts-pkcs12/.
#
# The modules are compiled one by one (OSecASN1, then OSecCrypto with its C shims, OSecX509, then OSecPKCS12), each
# instrumented with -sanitize=fuzzer,address, because their sources `import` each other by module name.
# OSecCrypto's C modules: COpenSSL comes from Sources/COpenSSL/module.modulemap; COpenSSLShims gets a
# generated module map (SwiftPM normally writes one) pointing at Sources/COpenSSLShims/include.
# PKCS12_FUZZING lowers the KDF iteration cap (see PKCS12Limits) so mutated counts stay cheap.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
swiftc="${SWIFTC:-swiftc}"
clang="${CLANG:-$(dirname "$(command -v "$swiftc")")/clang}"
out=.build-fuzz
mods="$out/pkcs12-modules"
mkdir -p "$mods" "$out/corpus-pkcs12" "$out/artifacts-pkcs12"
root="$(pwd)"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name OpenSecurity -I "$mods")

cat > "$mods/module.modulemap" <<MAP
module COpenSSLShims {
    header "$root/Sources/COpenSSLShims/include/COpenSSLShims.h"
    export *
}
MAP

"$clang" -c -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/COpenSSLShims/include \
    Sources/COpenSSLShims/shims.c -o "$mods/shims.o"

"$swiftc" "${flags[@]}" -module-name OSecASN1 -wmo -emit-module -emit-module-path "$mods/OSecASN1.swiftmodule" \
    -c Sources/OSecASN1/*.swift -o "$mods/OSecASN1.o"
"$swiftc" "${flags[@]}" -module-name OSecCrypto -wmo -emit-module -emit-module-path "$mods/OSecCrypto.swiftmodule" \
    -I Sources/COpenSSL -Xcc -fmodule-map-file="$mods/module.modulemap" \
    -c $(find Sources/OSecCrypto -name '*.swift') -o "$mods/OSecCrypto.o"
"$swiftc" "${flags[@]}" -module-name OSecX509 -wmo -emit-module -emit-module-path "$mods/OSecX509.swiftmodule" \
    -I Sources/COpenSSL -Xcc -fmodule-map-file="$mods/module.modulemap" \
    -c $(find Sources/OSecX509 -name '*.swift') -o "$mods/OSecX509.o"
"$swiftc" "${flags[@]}" -module-name OSecPKCS12 -wmo -emit-module -emit-module-path "$mods/OSecPKCS12.swiftmodule" \
    -D PKCS12_FUZZING -I Sources/COpenSSL -Xcc -fmodule-map-file="$mods/module.modulemap" \
    -c Sources/OSecPKCS12/*.swift -o "$mods/OSecPKCS12.o"
"$swiftc" "${flags[@]}" -module-name PKCS12Fuzz -I Sources/COpenSSL -Xcc -fmodule-map-file="$mods/module.modulemap" \
    Fuzz/PKCS12Fuzz.swift "$mods/OSecASN1.o" "$mods/OSecCrypto.o" "$mods/OSecX509.o" "$mods/OSecPKCS12.o" "$mods/shims.o" \
    -lcrypto -o "$out/pkcs12-fuzz"

# Seed corpus: small .p12 files from the openssl CLI in several flavours, 1 KDF iteration so runs are cheap.
if [ -z "$(ls -A "$out/corpus-pkcs12")" ]; then
    seeds="$(mktemp -d)"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$seeds/k.pem" -out "$seeds/c.pem" \
        -subj "/CN=Fuzz Seed" -days 1 2>/dev/null
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$seeds/ca.key" -out "$seeds/ca.pem" \
        -subj "/CN=Fuzz CA" -days 1 2>/dev/null
    n=0
    for args in "" "-legacy" "-nomac" "-descert" "-keypbe NONE -certpbe NONE" "-keypbe NONE -certpbe NONE -nomac" \
        "-macalg sha512 -keypbe AES-128-CBC -certpbe DES-EDE3-CBC" "-keypbe PBE-SHA1-2DES -certpbe PBE-SHA1-RC2-128" \
        "-keypbe PBE-SHA1-RC4-128 -certpbe PBE-SHA1-RC4-40" "-name seed"; do
        n=$((n + 1))
        # shellcheck disable=SC2086
        openssl pkcs12 -export -provider legacy -provider default -in "$seeds/c.pem" -inkey "$seeds/k.pem" \
            -certfile "$seeds/ca.pem" -iter 1 -nomaciter -passout pass:fuzz $args -out "$out/corpus-pkcs12/seed-$n.p12" \
            2>/dev/null || true
    done
    openssl pkcs12 -export -in "$seeds/c.pem" -inkey "$seeds/k.pem" -iter 1 -nomaciter -passout pass: \
        -out "$out/corpus-pkcs12/seed-empty.p12"
    rm -rf "$seeds"
fi

"$out/pkcs12-fuzz" "$out/corpus-pkcs12" -max_total_time="$seconds" -max_len=16384 -timeout=20 \
    -artifact_prefix="$out/artifacts-pkcs12/" -print_final_stats=1 "$@"
