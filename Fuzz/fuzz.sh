#!/usr/bin/env bash
# Builds one libFuzzer target and runs it on a seed corpus; `all` runs every target in turn.
#   Fuzz/fuzz.sh TARGET [seconds=60] [extra libFuzzer flags...]
#   Fuzz/fuzz.sh all [seconds=60]        (prints executions, coverage and crashes per target)
#   Fuzz/fuzz.sh build TARGET            (builds only)
#
# Targets (docs/fuzzing.md says what each asserts): asn1 (DER/BER + PEM, Fuzz/ASN1Fuzz.swift), x509 (certificates,
# CSRs, PEM chains, Fuzz/X509Fuzz.swift), pkcs12 (PKCS#12 import, Fuzz/PKCS12Fuzz.swift), cms (CMS messages,
# Fuzz/CMSFuzz.swift), agent (keychain agent
# requests, Fuzz/AgentFuzz.swift), sync (rows and circle metadata pulled from PostgreSQL, Fuzz/SyncFuzz.swift),
# keychainfile (a real keychain's pages, WAL and device key mutated, Fuzz/KeychainFileFuzz.swift), tls (what a TLS
# peer sends: ClientHello with SNI/ALPN, certificate chains, Fuzz/TLSFuzz.swift), keyimport (SecKeyCreateWithData,
# PEM/PKCS#8/encrypted PKCS#8, SecItemImport, Fuzz/KeyImportFuzz.swift), secitem (SecItem dictionaries on a temporary
# keychain, Fuzz/SecItemFuzz.swift), secretservice (Secret Service method calls without a bus,
# Fuzz/SecretServiceFuzz.swift).
# The modules a target needs are compiled one by one in layer order, each instrumented with
# -sanitize=fuzzer,address, because their sources `import` each other by module name; they are shared between
# targets in .build-fuzz/modules and rebuilt when a source changed. C modules: the system libraries (COpenSSL,
# CLibSSL, CSQLite, CLibPQ) come from their Sources/X/module.modulemap; the shim targets (COpenSSLShims,
# CTLSShims, CSystemShims) get a generated module map (SwiftPM normally writes one) and their C file is compiled
# with the same sanitizers. The pkcs12 target is built with PKCS12_FUZZING, which lowers the KDF iteration cap
# (see PKCS12Limits) so mutated counts stay cheap, and the keyimport target's OSecCrypto with KDF_FUZZING (the
# PBKDF2 iteration and scrypt work caps of KDF, for encrypted PKCS#8); their modules live apart in
# .build-fuzz/modules-<target>.
# Output: .build-fuzz/<target>-fuzz, corpus in .build-fuzz/corpus-<target>, crashes in .build-fuzz/artifacts-<target>/.
# Needs the fuzzer runtime that ships with the Swift toolchain (libclang_rt.fuzzer-*.a).
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(asn1 x509 pkcs12 cms agent sync keychainfile tls keyimport secitem)
all_targets+=(secretservice)
keychain_modules=(OSecASN1 OSecLocks OSecCrypto OSecSQLite OSecSystem OSecKeychainAgent OSecKeychainPaths OSecKeychain)
security_modules=("${keychain_modules[@]}" OSecX509 OSecPKCS12 OSecTrust OSecTLSCore OSecPostgres OSecSync OSecCMS)
security_modules+=(OSecCryptoFoundation Security)

if [ "${1:-}" = all ]; then
    seconds="${2:-60}"
    summary=()
    for t in "${all_targets[@]}"; do
        log=".build-fuzz/$t.log"
        mkdir -p .build-fuzz
        set +e
        "$0" "$t" "$seconds" > "$log" 2>&1
        rc=$?
        set -e
        execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)"
        cov="$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')"
        crashes="$(find ".build-fuzz/artifacts-$t" -type f 2>/dev/null | wc -l)"
        summary+=("$(printf '%-13s exit %-3s executions %-10s coverage %-6s crashes %s' "$t" "$rc" "${execs:-0}" \
            "${cov:-0}" "$crashes")")
    done
    printf '%s\n' "${summary[@]}"
    exit 0
fi

build_only=false
if [ "${1:-}" = build ]; then
    build_only=true
    shift
fi
target="${1:-}"
case "$target" in
asn1) modules=(OSecASN1); harness=Fuzz/ASN1Fuzz.swift; max_len=8192 ;;
x509) modules=(OSecASN1 OSecLocks OSecCrypto OSecX509); harness=Fuzz/X509Fuzz.swift; max_len=8192 ;;
pkcs12) modules=(OSecASN1 OSecLocks OSecCrypto OSecX509 OSecPKCS12); harness=Fuzz/PKCS12Fuzz.swift; max_len=16384 ;;
cms) modules=(OSecASN1 OSecLocks OSecCrypto OSecX509 OSecCMS); harness=Fuzz/CMSFuzz.swift; max_len=16384 ;;
agent) modules=(OSecLocks OSecSystem OSecKeychainAgent); harness=Fuzz/AgentFuzz.swift; max_len=16384 ;;
sync) modules=("${keychain_modules[@]}" OSecPostgres OSecSync); harness=Fuzz/SyncFuzz.swift; max_len=16384 ;;
keychainfile) modules=("${keychain_modules[@]}"); harness=Fuzz/KeychainFileFuzz.swift; max_len=4096 ;;
tls) modules=(OSecASN1 OSecLocks OSecCrypto OSecX509 OSecTLSCore); harness=Fuzz/TLSFuzz.swift; max_len=16384 ;;
keyimport) modules=("${security_modules[@]}"); harness=Fuzz/KeyImportFuzz.swift; max_len=8192 ;;
secitem) modules=("${security_modules[@]}"); harness=Fuzz/SecItemFuzz.swift; max_len=2048 ;;
secretservice)
    modules=("${keychain_modules[@]}" OSecDBus OSecSecretService)
    harness=Fuzz/SecretServiceFuzz.swift
    max_len=4096
    ;;
*)
    echo "usage: Fuzz/fuzz.sh [build] ${all_targets[*]// /|} [seconds] [libFuzzer flags...] | all [seconds]" >&2
    exit 2
    ;;
esac
shift
seconds="${1:-60}"
shift || true

swiftc="${SWIFTC:-swiftc}"
clang="${CLANG:-$(dirname "$(command -v "$swiftc")")/clang}"
out=.build-fuzz
mods="$out/modules"
# Targets built with lowered resource caps (below) keep their modules apart.
case "$target" in pkcs12 | keyimport) mods="$out/modules-$target" ;; esac
corpus="$out/corpus-$target"
artifacts="$out/artifacts-$target"
# Let libFuzzer/ASan report crashes; the Swift backtracer otherwise trips ASan while reading memory.
export SWIFT_BACKTRACE=enable=no
mkdir -p "$mods" "$corpus" "$artifacts"
root="$(pwd)"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name OpenSecurity -I "$mods")
c_flags=(-I Sources/COpenSSL -I Sources/CLibSSL -I Sources/CSQLite -I Sources/CLibPQ
    -Xcc -fmodule-map-file="$mods/module.modulemap")
for include in $(pkg-config --cflags-only-I libpq libssl sqlite3 2>/dev/null); do c_flags+=(-Xcc "$include"); done

cat > "$mods/module.modulemap.new" <<MAP
module COpenSSLShims {
    header "$root/Sources/COpenSSLShims/include/COpenSSLShims.h"
    export *
}
module CTLSShims {
    header "$root/Sources/CTLSShims/include/CTLSShims.h"
    export *
}
module CSystemShims {
    header "$root/Sources/CSystemShims/include/system_shims.h"
    export *
}
module CLibPQLoader {
    header "$root/Sources/CLibPQLoader/include/libpq_loader.h"
    export *
}
module CDBusLoader {
    header "$root/Sources/CDBusLoader/include/dbus_loader.h"
    export *
}
MAP
if cmp -s "$mods/module.modulemap.new" "$mods/module.modulemap"; then
    rm "$mods/module.modulemap.new"
else
    mv "$mods/module.modulemap.new" "$mods/module.modulemap"
fi

# A module is rebuilt when one of its sources, or a module built before it, is newer than its object.
objects=()
link=()
shims=()
built=()
for module in "${modules[@]}"; do
    object="$mods/$module.o"
    stale=false
    [ -f "$object" ] || stale=true
    [ "$stale" = false ] && [ -n "$(find "Sources/$module" -newer "$object" -print -quit)" ] && stale=true
    for previous in "${built[@]}"; do
        [ "$stale" = false ] && [ "$mods/$previous.swiftmodule" -nt "$object" ] && stale=true
    done
    if [ "$stale" = true ]; then
        extra=()
        [ "$target" = pkcs12 ] && [ "$module" = OSecPKCS12 ] && extra+=(-D PKCS12_FUZZING)
        [ "$target" = keyimport ] && [ "$module" = OSecCrypto ] && extra+=(-D KDF_FUZZING)
        # The secretservice harness makes DBusMethodCall values, whose initializer is internal.
        [ "$module" = OSecDBus ] && extra+=(-enable-testing)
        echo "fuzz.sh: compiling $module" >&2
        # shellcheck disable=SC2046
        "$swiftc" "${flags[@]}" "${c_flags[@]}" -module-name "$module" -wmo -emit-module \
            -emit-module-path "$mods/$module.swiftmodule" "${extra[@]}" \
            -c $(find "Sources/$module" -name '*.swift' | sort) -o "$object"
        # swiftc leaves an output it would write byte for byte unchanged untouched: mark the object as made now, or
        # the module stays "stale" and is compiled again on every run.
        touch "$object"
    fi
    built+=("$module")
    objects+=("$object")
    case "$module" in
    OSecCrypto) shims+=(COpenSSLShims:shims.c); link+=(-lcrypto) ;;
    OSecSystem) shims+=(CSystemShims:system_shims.c) ;;
    OSecTLSCore) shims+=(CTLSShims:shims.c); link+=(-lssl -lcrypto) ;;
    OSecSQLite) link+=(-lsqlite3) ;;
    # libpq and libdbus are opened with dlopen on first use, through the loader targets (as in the package).
    OSecPostgres) shims+=(CLibPQLoader:libpq_loader.c); link+=(-ldl) ;;
    OSecDBus) shims+=(CDBusLoader:dbus_loader.c); link+=(-ldl) ;;
    esac
done
for shim in "${shims[@]}"; do
    name="${shim%%:*}"
    object="$mods/$name.o"
    if [ ! -f "$object" ] || [ -n "$(find "Sources/$name" -newer "$object" -print -quit)" ]; then
        "$clang" -c -O1 -g -fsanitize=fuzzer-no-link,address -I "Sources/$name/include" -I Sources/COpenSSL \
            "Sources/$name/${shim#*:}" -o "$object"
    fi
    objects+=("$object")
done
# The structured targets share Fuzz/FuzzSupport.swift (input reader, seed writer).
harnesses=("$harness")
case "$target" in
asn1 | x509 | pkcs12 | cms) ;;
*) harnesses+=(Fuzz/FuzzSupport.swift) ;;
esac
"$swiftc" "${flags[@]}" "${c_flags[@]}" -module-name "${target^^}Fuzz" "${harnesses[@]}" "${objects[@]}" "${link[@]}" \
    -o "$out/$target-fuzz"
[ "$build_only" = true ] && exit 0

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

# The newer targets make their own seeds from the project's own valid outputs (a real keychain, sealed sync rows,
# our TLS client's ClientHello, keys SecKeyCopyExternalRepresentation wrote…): with OSEC_FUZZ_SEEDS set, the
# harness writes them into that directory in LLVMFuzzerInitialize, before libFuzzer reads the corpus.
case "$target" in
asn1 | x509 | pkcs12 | cms) ;;
*) [ -z "$(ls -A "$corpus")" ] && export OSEC_FUZZ_SEEDS="$corpus" ;;
esac

# LeakSanitizer reports the storage of the harnesses' Swift globals (lazily initialized, seen as unreachable) as
# leaks at every exit: a blind spot, so leak detection is off for the structured targets; memory growth per input
# is caught by -malloc_limit_mb/-rss_limit_mb here and by scripts/soak.sh.
case "$target" in
asn1 | x509 | pkcs12 | cms | agent) ;;
*) export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ;;
esac

# A unit slower than 1 s is reported (a finding); 10 s is a hang. Every allocation above 512 MiB is a finding.
timeout_flag=(-timeout=10)
[ "$target" = pkcs12 ] && timeout_flag=(-timeout=20)
# Inputs of past findings (Fuzz/regressions/TARGET, each fixed and covered by a test) are read with the corpus on
# every run, so a regression shows at once.
regressions=()
[ -d "Fuzz/regressions/$target" ] && regressions=("Fuzz/regressions/$target")
"$out/$target-fuzz" "$corpus" "${regressions[@]}" -max_total_time="$seconds" -max_len="$max_len" "${timeout_flag[@]}" \
    -report_slow_units=1 -malloc_limit_mb=512 -rss_limit_mb=4096 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
