#!/usr/bin/env bash
# Installs the system packages OpenSecurity needs, when they are missing (Debian/Ubuntu).
#   libssl-dev, libsqlite3-dev: the C libraries we link (OpenSSL 3, SQLite 3)
#   openssl: the CLI, used as an interoperability peer by the tests
#   publicsuffix: the Public Suffix List (wildcard certificates may not cover a public suffix)
#   default-jdk-headless: Java's keytool, a PKCS#12 peer for the tests
#   libpq-dev: PostgreSQL's client library (the keychain's sync); postgresql: the server the sync tests start
#   zsh, man-db: the tests complete with the generated zsh completion and render the man page (man -l)
set -euo pipefail

needed=()
for pkg in libssl-dev libsqlite3-dev libpq-dev openssl pkg-config publicsuffix ca-certificates; do
    dpkg -s "$pkg" >/dev/null 2>&1 || needed+=("$pkg")
done
if [ "${1:-}" = "--with-test-peers" ] && ! command -v keytool >/dev/null 2>&1; then
    needed+=(default-jdk-headless)
fi
if [ "${1:-}" = "--with-test-peers" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    needed+=(postgresql)
fi
# The Secret Service provider: libdbus-1-dev to build it; a bus daemon and the clients its tests drive (gdbus is in
# libglib2.0-bin).
dpkg -s libdbus-1-dev >/dev/null 2>&1 || needed+=(libdbus-1-dev)
if [ "${1:-}" = "--with-test-peers" ]; then
    for pkg in dbus-daemon dbus-bin libsecret-tools python3-secretstorage python3-keyring libglib2.0-bin; do
        dpkg -s "$pkg" >/dev/null 2>&1 || needed+=("$pkg")
    done
    for pkg in zsh man-db; do dpkg -s "$pkg" >/dev/null 2>&1 || needed+=("$pkg"); done
fi
[ ${#needed[@]} -eq 0 ] && exit 0

echo "Installing missing system packages: ${needed[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${needed[@]}"
