#!/usr/bin/env bash
# Installs the `security` command for people who only want the tool.
#   scripts/install.sh [--prefix DIR] [--destdir DIR] [--deb] [--jobs N] [--no-build]
#     --prefix DIR   where the files go (default /usr/local):
#                      DIR/bin/security                              the command (its front end)
#                      DIR/libexec/opensecurity/security-tool        the full tool the front end runs
#                      DIR/share/man/man1/security.1.gz              security(1)
#                      DIR/share/bash-completion/completions/security bash completion
#                      DIR/share/zsh/site-functions/_security        zsh completion (vendor-completions for /usr)
#                      DIR/share/doc/opensecurity/{copyright,changelog.gz}
#     --destdir DIR  stage the files under DIR (DIR/PREFIX/…), for packagers
#     --deb          instead, build .build/deb/opensecurity_<version>_<arch>.deb (dpkg-deb) from the same files installed
#                    with prefix /usr, and print its path
#     --jobs N       build jobs (swift build -j N)
#     --no-build     use the release binary already built
# `security` is a small front end that answers `find-*-password -w` and `--version` itself (it links only
# FoundationEssentials and the keychain store, so it starts at a fraction of the full tool's cost) and replaces itself
# with the full tool for every other command line (docs/security-tool.md, "Start-up cost").
# Each binary is a release build with the Swift runtime and Foundation linked statically (--static-swift-stdlib)
# and libstdc++/libgcc linked statically too: it runs without a Swift toolchain. Its dynamic dependencies are only
# the C library (libc6), OpenSSL 3 (libssl3), SQLite 3 (libsqlite3-0), D-Bus (libdbus-1-3, loaded with dlopen when
# `security secret-service` first connects) and libpq (libpq5, loaded with dlopen when the keychain sync first
# connects); the script checks the binary's NEEDED entries against that list and derives the package's Depends from
# them, libdbus and libpq with dpkg -S.
# The man page and the completions are printed by the built full tool (`security-tool _generate man|bash|zsh`) from
# its own command table, so they cannot drift from `security help`.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

prefix=/usr/local
destdir=""
deb=0
jobs=()
build=1
while [ $# -gt 0 ]; do
    case "$1" in
    --prefix) prefix="${2:?--prefix needs a directory}"; shift ;;
    --prefix=*) prefix="${1#--prefix=}" ;;
    --destdir) destdir="${2:?--destdir needs a directory}"; shift ;;
    --destdir=*) destdir="${1#--destdir=}" ;;
    --deb) deb=1 ;;
    --jobs | -j) jobs=(-j "${2:?--jobs needs a number}"); shift ;;
    --no-build) build=0 ;;
    -h | --help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$prefix" in /*) ;; *) echo "install.sh: --prefix must be an absolute path" >&2; exit 2 ;; esac

# The libraries the binary may need, by soname (the allowed list of issue 25; libm/libdl/libpthread/ld-linux are
# libc6's).
allowed_sonames="libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1
libssl.so.3 libcrypto.so.3 libsqlite3.so.0 libpq.so.5 libdbus-1.so.3"

# A directory holding only libstdc++.a: searched first, it makes the runtime's -lstdc++ link statically (ld takes the
# first directory with the library, and prefers .so only within one directory).
static_cxx_dir() {
    local archive dir
    archive="$(g++ -print-file-name=libstdc++.a 2>/dev/null || true)"
    if [ ! -f "$archive" ]; then
        archive="$(ls /usr/lib/gcc/*/*/libstdc++.a 2>/dev/null | sort -V | tail -1)"
    fi
    [ -f "$archive" ] || { echo "install.sh: libstdc++.a not found (apt-get install libstdc++-12-dev)" >&2; exit 1; }
    dir="$root/.build/install-static-cxx"
    mkdir -p "$dir"
    ln -sf "$archive" "$dir/libstdc++.a"
    echo "$dir"
}

build_flags() {
    local cxx
    cxx="$(static_cxx_dir)"
    # No RUNPATH ($ORIGIN, which SwiftPM adds by default): the installed binary finds its libraries in the system's
    # directories only, without first probing a dozen paths under its own bin directory for each of them.
    echo "-c release --static-swift-stdlib --disable-local-rpath -Xlinker -L$cxx"
    echo "-Xswiftc -Xclang-linker -Xswiftc -static-libgcc"
}

# shellcheck disable=SC2046
flags=$(build_flags | tr '\n' ' ')
if [ "$build" -eq 1 ]; then
    for product in security-tool security; do
        # shellcheck disable=SC2086
        swift build $flags --product "$product" "${jobs[@]}"
    done
fi
# shellcheck disable=SC2086
bin_dir="$(swift build $flags --show-bin-path)"
bin="$bin_dir/security"
tool_bin="$bin_dir/security-tool"
for file in "$bin" "$tool_bin"; do
    [ -x "$file" ] || { echo "install.sh: $file was not built" >&2; exit 1; }
done

# The binaries' direct dependencies must be the allowed ones.
needed=""
for file in "$bin" "$tool_bin"; do
    for soname in $(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        case " $(echo $allowed_sonames) " in
        *" $soname "*) ;;
        *) echo "install.sh: $file needs $soname, which is not among the allowed libraries" >&2; exit 1 ;;
        esac
        case " $needed " in *" $soname "*) ;; *) needed="${needed:+$needed }$soname" ;; esac
    done
done

version="$("$bin" --version | awk '{print $NF}')"

# Installs the files under $1 (the staging root) for prefix $2.
install_files() {
    local stage="$1" prefix="$2" zsh_dir doc
    local base="$stage$prefix"
    zsh_dir="$base/share/zsh/site-functions"
    [ "$prefix" = /usr ] && zsh_dir="$base/share/zsh/vendor-completions"
    doc="$base/share/doc/opensecurity"
    install -d -m 0755 "$base/bin" "$base/libexec/opensecurity" "$base/share/man/man1" \
        "$base/share/bash-completion/completions" "$zsh_dir" "$doc"
    # Stripped: the symbol table and debug information are a third of the file and nothing the tool needs.
    install -m 0755 "$bin" "$base/bin/security"
    install -m 0755 "$tool_bin" "$base/libexec/opensecurity/security-tool"
    strip --strip-all "$base/bin/security" "$base/libexec/opensecurity/security-tool"
    "$tool_bin" _generate man | gzip -9n >"$base/share/man/man1/security.1.gz"
    chmod 0644 "$base/share/man/man1/security.1.gz"
    "$tool_bin" _generate bash >"$base/share/bash-completion/completions/security"
    "$tool_bin" _generate zsh >"$zsh_dir/_security"
    chmod 0644 "$base/share/bash-completion/completions/security" "$zsh_dir/_security"
    # D-Bus activation of the Secret Service provider (clients start `security secret-service` on demand) and its
    # systemd user unit. The activation file has its own name: gnome-keyring's package owns
    # org.freedesktop.secrets.service, and the session bus goes by the Name= line inside, not the file name.
    install -d -m 0755 "$base/share/dbus-1/services" "$base/lib/systemd/user"
    sed "s|@BINDIR@|$prefix/bin|g" scripts/dbus/org.freedesktop.secrets.service \
        >"$base/share/dbus-1/services/org.opensecurity.secrets.service"
    sed "s|@BINDIR@|$prefix/bin|g" scripts/dbus/opensecurity-secret-service.service \
        >"$base/lib/systemd/user/opensecurity-secret-service.service"
    chmod 0644 "$base/share/dbus-1/services/org.opensecurity.secrets.service" \
        "$base/lib/systemd/user/opensecurity-secret-service.service"
    install -m 0644 LICENSE "$doc/copyright"
    gzip -9n <CHANGELOG.md >"$doc/changelog.gz"
    chmod 0644 "$doc/changelog.gz"
}

if [ "$deb" -eq 0 ]; then
    install_files "$destdir" "$prefix"
    echo "installed security $version under ${destdir}${prefix}"
    exit 0
fi

# --deb: the package's files are exactly the prefix install with prefix /usr.
command -v dpkg-deb >/dev/null || { echo "install.sh: dpkg-deb not found" >&2; exit 1; }
arch="$(dpkg --print-architecture)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
chmod 0755 "$stage"
install_files "$stage" /usr
# Depends: the Debian package of each needed library (dpkg -S of the file the dynamic linker finds), once each,
# and of the libraries the tool loads on first use (libpq.so.5, for the keychain sync: CLibPQLoader; libdbus-1.so.3,
# for the Secret Service: CDBusLoader).
loaded_on_use="libpq.so.5 libdbus-1.so.3"
depends=""
for soname in $needed $loaded_on_use; do
    path="$(ldd "$tool_bin" | awk -v s="$soname" '$1 == s && $3 ~ /^\// && !found {print $3; found = 1}')"
    [ -n "$path" ] || path="$(PATH="$PATH:/sbin:/usr/sbin" ldconfig -p | awk -v s="$soname" '$1 == s && !found {print $NF; found = 1}')"
    package="$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null)" || {
        echo "install.sh: no Debian package owns $path ($soname)" >&2
        exit 1
    }
    package="${package%%:*}"
    case ", $depends, " in *", $package, "*) ;; *) depends="${depends:+$depends, }$package" ;; esac
done
install -d -m 0755 "$stage/DEBIAN"
size="$(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
cat >"$stage/DEBIAN/control" <<EOF
Package: opensecurity
Version: $version
Architecture: $arch
Maintainer: OpenSecurity contributors <opensecurity@users.noreply.github.com>
Installed-Size: $size
Depends: $depends
Section: utils
Priority: optional
Description: security command: keychains, certificates, trust and sync on Linux
 OpenSecurity's security(1): macOS's keychain, certificate, identity and trust
 command for Linux (passwords, keys, PKCS#12 import and export, verify-cert,
 trust settings, keychain sync on PostgreSQL). The Swift runtime is linked
 statically: no Swift toolchain is needed.
EOF
mkdir -p .build/deb
package=".build/deb/opensecurity_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" >/dev/null
echo "$root/$package"
