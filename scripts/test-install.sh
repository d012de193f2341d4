#!/usr/bin/env bash
# The installed command, tested as a user gets it (scripts/test.sh runs this after the test suite):
#   scripts/test-install.sh [--no-build] [--jobs N]
# builds the Debian package once (scripts/install.sh --deb: release build, static Swift runtime), then
#   - its files are exactly those of `scripts/install.sh --prefix /usr` (staged with --destdir);
#   - extracted into a scratch root (dpkg-deb -x), the installed `security` runs with a PATH and LD_LIBRARY_PATH
#     that hold no Swift toolchain: version, a password round trip, an identity import (PKCS#12 made by the openssl
#     CLI) and verify-cert of a chain;
#   - both binaries (the `security` front end and the full tool it runs, libexec/opensecurity/security-tool) need
#     only libc, OpenSSL 3, SQLite 3, libpq and D-Bus (readelf NEEDED), and ldd lists nothing else than those and
#     what they load themselves (no Swift runtime, Foundation, ICU, libstdc++); the front end only libc and libm;
#   - `man -l` renders the installed page; the installed bash completion completes every command;
#   - dpkg installs, upgrades (a second package with a higher version) and removes it cleanly in a scratch root
#     (dpkg --root, dependencies not checked there: the real system's libraries are used).
set -euo pipefail
cd "$(dirname "$0")/.."
install_args=()
while [ $# -gt 0 ]; do
    case "$1" in
    --no-build) install_args+=(--no-build) ;;
    --jobs | -j) install_args+=(--jobs "$2"); shift ;;
    *) echo "test-install: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

fail() { echo "test-install: FAIL: $*" >&2; exit 1; }
pass() { echo "test-install: ok: $*"; }

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

deb="$(scripts/install.sh --deb "${install_args[@]}" | tail -1)"
[ -f "$deb" ] || fail "no package built ($deb)"
pass "built $deb"

# The package's files are the prefix install's.
scripts/install.sh --no-build --prefix /usr --destdir "$scratch/staged" >/dev/null
dpkg-deb -x "$deb" "$scratch/root"
(cd "$scratch/staged" && find . -type f -o -type l | sort) >"$scratch/staged.list"
(cd "$scratch/root" && find . -type f -o -type l | sort) >"$scratch/package.list"
diff -u "$scratch/staged.list" "$scratch/package.list" || fail "the package's files differ from the prefix install"
cmp "$scratch/staged/usr/bin/security" "$scratch/root/usr/bin/security" || fail "the binaries differ"
cmp "$scratch/staged/usr/libexec/opensecurity/security-tool" "$scratch/root/usr/libexec/opensecurity/security-tool" \
    || fail "the full tools differ"
pass "package files = prefix install ($(wc -l <"$scratch/package.list") files)"

control="$(dpkg-deb -f "$deb" Depends)"
for want in libc6 libsqlite3-0 libpq5 libdbus-1-3; do
    echo ", $control, " | grep -q ", $want[ ,(]" || echo ", $control," | grep -q ", $want," || fail "Depends lacks $want: $control"
done
echo "$control" | grep -Eq '(^|, )libssl3(t64)?($|,| )' || fail "Depends lacks libssl3: $control"
[ "$(echo "$control" | tr ',' '\n' | grep -c .)" -eq 5 ] || fail "Depends is not exactly five packages: $control"
pass "Depends: $control"

allowed=" libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1 \
libssl.so.3 libcrypto.so.3 libsqlite3.so.0 libpq.so.5 libdbus-1.so.3 "
# Everything ldd may list: the allowed libraries and their own dependencies, nothing of Swift's.
libs_of() { ldd "$1" | awk '$2 == "=>" {print $1} $1 ~ /^\// {print $1}' | sed 's|.*/||' | sort -u; }
{
    for lib in libssl.so.3 libcrypto.so.3 libsqlite3.so.0 libpq.so.5 libdbus-1.so.3; do
        path="$(PATH="$PATH:/sbin:/usr/sbin" ldconfig -p | awk -v s="$lib" '$1 == s && !found {print $NF; found = 1}')"
        [ -n "$path" ] && libs_of "$path"
        echo "$lib"
    done
    echo "$allowed" | tr ' ' '\n'
} | sort -u >"$scratch/closure"
for tool in "$scratch/root/usr/bin/security" "$scratch/root/usr/libexec/opensecurity/security-tool"; do
    # Direct dependencies.
    for soname in $(readelf -d "$tool" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        case "$allowed" in *" $soname "*) ;; *) fail "$tool needs $soname" ;; esac
        # libpq and libdbus (with the dozens of libraries they load) are opened on first use, never at start-up.
        case "$soname" in libpq.so.* | libdbus-1.so.*) fail "$tool loads $soname at start-up" ;; esac
    done
    libs_of "$tool" >"$scratch/ldd"
    extra="$(comm -23 "$scratch/ldd" "$scratch/closure")"
    [ -z "$extra" ] || fail "ldd $tool lists libraries beyond the allowed ones and theirs: $extra"
    if ldd "$tool" | grep -Eiq 'swift|Foundation|icu|dispatch|BlocksRuntime|stdc\+\+|gcc_s'; then
        fail "ldd lists a Swift runtime or C++ library: $(ldd "$tool")"
    fi
    if readelf -d "$tool" | grep -Eq 'RUNPATH|RPATH'; then fail "$tool has a RUNPATH"; fi
done
pass "ldd (front end and full tool): only libc, libssl3, libsqlite3, libpq, libdbus-1 and what they load"
# The front end opens no keychain (the keychain agent answers its reads): it loads neither OpenSSL nor SQLite.
for soname in $(readelf -d "$scratch/root/usr/bin/security" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    case "$soname" in libc.so.* | libm.so.* | ld-linux*) ;; *) fail "the front end needs $soname" ;; esac
done
pass "the front end needs only libc and libm"

# The installed tool, with no Swift toolchain reachable.
home="$scratch/home"
mkdir -p "$home" "$scratch/run"
chmod 0700 "$home" "$scratch/run"
# The keychain agent a password read starts lives in $scratch/run: it exits when the scratch directory goes.
run() {
    env -i PATH="$scratch/root/usr/bin:/usr/bin:/bin" LD_LIBRARY_PATH="" HOME="$home" XDG_RUNTIME_DIR="$scratch/run" \
        LANG=C "$@"
}
run sh -c 'command -v swift' >/dev/null 2>&1 && fail "a swift toolchain is on the test PATH"
[ "$(run security --version)" = "security (OpenSecurity) $(dpkg-deb -f "$deb" Version)" ] || fail "version"
run security add-generic-password -a alice -s installed -w 's3cret!' || fail "add-generic-password"
[ "$(run security find-generic-password -a alice -s installed -w)" = 's3cret!' ] || fail "password round trip"
pass "password round trip in $home/.local/share/opensecurity"
# That read (by the full tool: no agent ran) started the keychain agent (libexec/opensecurity/security-tool
# keychain-agent); it answers the next one, the front end's.
for _ in $(seq 50); do run security keychain-agent -l >/dev/null 2>&1 && break; sleep 0.1; done
run security keychain-agent -l >/dev/null 2>&1 || fail "the password read did not start the keychain agent"
[ "$(run security find-generic-password -a alice -s installed -w)" = 's3cret!' ] || fail "read through the agent"
run security keychain-agent -l --json | grep -q '"readsAnswered" *: *[1-9]' || fail "the agent answered no read"
run security keychain-agent -s
pass "the keychain agent answers password reads"

pki="$scratch/pki"
mkdir -p "$pki"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$pki/ca.key" -out "$pki/ca.pem" \
    -days 30 -subj "/CN=Install Test CA" -addext basicConstraints=critical,CA:TRUE \
    -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$pki/leaf.key" -out "$pki/leaf.csr" \
    -subj "/CN=install.example" 2>/dev/null
printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:install.example\n' \
    >"$pki/leaf.ext"
openssl x509 -req -in "$pki/leaf.csr" -CA "$pki/ca.pem" -CAkey "$pki/ca.key" -CAcreateserial -days 10 \
    -extfile "$pki/leaf.ext" -out "$pki/leaf.pem" 2>/dev/null
openssl pkcs12 -export -inkey "$pki/leaf.key" -in "$pki/leaf.pem" -name installed -passout pass:pw \
    -out "$pki/leaf.p12"
run security import "$pki/leaf.p12" -f pkcs12 -P pw >/dev/null || fail "import of the identity"
run security find-identity | grep 'install.example' >/dev/null || fail "the imported identity is not found"
pass "identity import"
run security verify-cert -c "$pki/leaf.pem" -r "$pki/ca.pem" -p ssl -s install.example >/dev/null \
    || fail "verify-cert of a good chain"
if run security verify-cert -c "$pki/leaf.pem" -p ssl -s install.example -q 2>/dev/null; then
    fail "verify-cert accepted a chain without its root"
fi
pass "verify-cert"

# libpq is loaded when the sync first connects: an unreachable server gives libpq's own message (exit 53,
# errSecNotAvailable), not a failure to load the library.
printf 'pw' >"$scratch/passphrase"
set +e
sync_error="$(run OPENSECURITY_SYNC_URL="host=$scratch/no-server port=1 dbname=none" OPENSECURITY_SYNC_CIRCLE=c \
    OPENSECURITY_SYNC_PASSPHRASE_FILE="$scratch/passphrase" security sync-now 2>&1)"
sync_status=$?
set -e
[ "$sync_status" -eq 53 ] || fail "sync-now against no server exited $sync_status: $sync_error"
case "$sync_error" in *"cannot load libpq"*) fail "libpq was not loaded: $sync_error" ;; esac
pass "libpq loads on first use"

MANPAGER=cat MANWIDTH=100 LC_ALL=C man --warnings -l "$scratch/root/usr/share/man/man1/security.1.gz" \
    >"$scratch/man.txt" 2>"$scratch/man.err" || fail "man -l"
[ ! -s "$scratch/man.err" ] || fail "man -l warnings: $(cat "$scratch/man.err")"
grep -q 'security verify-cert' "$scratch/man.txt" || fail "the man page lacks verify-cert"
pass "man -l renders the page"

names="$(run security help | awk '{print $1}' | sort | tr '\n' ' ')"
completed="$(bash --norc -c "source '$scratch/root/usr/share/bash-completion/completions/security'
COMP_WORDS=(security ''); COMP_CWORD=1; _security; printf '%s\n' \"\${COMPREPLY[@]}\"" | sort | tr '\n' ' ')"
[ "$names" = "$completed" ] || fail "bash completes [$completed], the commands are [$names]"
zsh_file="$(find "$scratch/root" -name _security)"
[ -n "$zsh_file" ] && grep -q '^#compdef security' "$zsh_file" || fail "no zsh completion"
pass "completions"

# dpkg: install, upgrade, remove in a scratch root.
droot="$scratch/dpkg-root"
mkdir -p "$droot/var/lib/dpkg/info" "$droot/var/lib/dpkg/updates" "$droot/usr"
touch "$droot/var/lib/dpkg/status" "$droot/var/lib/dpkg/available"
# dpkg's complaints about the dependencies it may not check here go to a log, shown when a step fails.
dpkg_root() {
    dpkg --root="$droot" --force-depends --force-not-root --log=/dev/null "$@" >>"$scratch/dpkg.log" 2>&1 \
        || { cat "$scratch/dpkg.log" >&2; return 1; }
}
dpkg_root -i "$deb" >/dev/null || fail "dpkg -i"
[ -x "$droot/usr/bin/security" ] || fail "dpkg -i installed no binary"
# The upgrade: the same package with a higher version.
up="$scratch/up"
dpkg-deb -R "$deb" "$up"
sed -i 's/^Version: \(.*\)$/Version: \1+test1/' "$up/DEBIAN/control"
dpkg-deb --root-owner-group -Znone --build "$up" "$scratch/upgrade.deb" >/dev/null
dpkg_root -i "$scratch/upgrade.deb" >/dev/null || fail "dpkg -i (upgrade)"
dpkg-query --admindir="$droot/var/lib/dpkg" -W -f '${Version}' opensecurity | grep -q '+test1$' || fail "upgrade"
dpkg_root -r opensecurity >/dev/null || fail "dpkg -r"
left="$(cd "$droot" && find . -type f ! -path './var/lib/dpkg/*')"
[ -z "$left" ] || fail "files left after removal: $left"
pass "dpkg install, upgrade, remove"
echo "test-install: all checks passed"
