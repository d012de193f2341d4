#!/usr/bin/env bash
# A throwaway PostgreSQL server for the sync tests and the sync benchmark.
#   scripts/pg-test-server.sh start DIR [PORT] [--durable] [--owner PID]
#                                                           initdb, start it with a Unix socket (no TCP), print the
#                                                           libpq connection string; with --owner, a watcher
#                                                           destroys the server once process PID is gone (a test
#                                                           process killed before its clean-up leaves nothing)
#   scripts/pg-test-server.sh stop DIR                      stop it (fast shutdown) and leave DIR for the caller
#   scripts/pg-test-server.sh restart DIR                   start the stopped server of DIR again
#   scripts/pg-test-server.sh destroy DIR                   stop it and remove its data and DIR
# PostgreSQL refuses to run as root: when run as root, the server runs as the dedicated user `osecpg` (created
# here with useradd when missing), with its data and socket in a fresh directory under /tmp that it owns (DIR,
# maybe inside a root-only temporary directory, holds only the bookkeeping). Trust authentication over the socket
# only; fsync is off unless --durable.
# Whatever the caller's directory (a clone in a 0700 home or `mktemp -d` that osecpg cannot enter), the server's
# tools start from the server's own directory, and only the connection string goes to standard output: the
# tools' warnings and errors go to logs (shown on standard error when a step fails), never into the value the
# caller parses.
# The server and the watcher keep none of the caller's file descriptors beyond 0-2: Foundation's Process learns
# that a child exited from a socket the child inherits, and a daemon holding it would make the caller wait forever.
set -euo pipefail

# Closes every file descriptor above 2 of the current shell (call it in a subshell: the script's own fd 255 is
# among them).
close_inherited_fds() {
    local fd
    for fd in /proc/self/fd/*; do
        fd="${fd##*/}"
        [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-" 2>/dev/null
    done
    return 0
}

# Runs "$@" with every file descriptor above 2 closed.
without_inherited_fds() {
    (
        close_inherited_fds
        "$@"
    )
}

bindir() {
    local dir
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        [ -x "$dir/initdb" ] && { echo "$dir"; return; }
    done
    command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return; }
    echo "pg-test-server: PostgreSQL server binaries not found (apt-get install postgresql)" >&2
    exit 1
}

# Runs "$@" as the server's user from HOME (the server's own directory, which that user owns): PostgreSQL's tools
# change back to their starting directory and warn on stderr when they cannot, so they must not start from the
# caller's directory, which the server's user may not be allowed to enter.
as_server_user() {
    local home="$1"
    shift
    if [ "$(id -u)" -eq 0 ]; then
        id osecpg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin osecpg
        (cd "$home" && exec setpriv --reuid=osecpg --regid="$(id -g osecpg)" --init-groups -- "$@")
    else
        (cd "$home" && exec "$@")
    fi
}

command="${1:-}"
dir="${2:-}"
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|restart|destroy DIR [PORT] [--durable] [--owner PID]" >&2; exit 2; }
bin="$(bindir)"
# Only start creates DIR: a destroy after the caller's own (the watcher's) must not leave an empty DIR behind.
if [ "$command" = start ]; then mkdir -p "$dir"; fi
if [ ! -d "$dir" ]; then
    case "$command" in stop | destroy) exit 0 ;; *) echo "$0: no server directory $dir" >&2; exit 1 ;; esac
fi
dir="$(cd "$dir" && pwd)"

case "$command" in
start)
    port=5432
    fsync=off
    owner=""
    shift 2
    while [ $# -gt 0 ]; do
        case "$1" in
        --durable) fsync=on ;;
        --owner) owner="${2:?--owner needs a process id}"; shift ;;
        *) port="$1" ;;
        esac
        shift
    done
    home="$(mktemp -d /tmp/osec-pg.XXXXXX)"
    if [ "$(id -u)" -eq 0 ]; then
        id osecpg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin osecpg
        chown osecpg "$home"
    fi
    echo "$home" >"$dir/home"
    echo "$port" >"$dir/port"
    echo "$fsync" >"$dir/fsync"
    as_server_user "$home" "$bin/initdb" -D "$home/data" -U osec --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    "$0" restart "$dir"
    if [ -n "$owner" ]; then
        # The watcher: polls the owner every 2 s, then destroys the server (a no-op when the owner already did).
        # One background process that closes the fds and becomes the watcher: nothing of this script stays behind
        # holding the caller's descriptors.
        script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
        (
            close_inherited_fds
            exec setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 2; done; exec "$2" destroy "$3"' \
                pg-test-server-watch "$owner" "$script" "$dir"
        ) </dev/null >/dev/null 2>&1 &
    fi
    ;;
restart)
    home="$(cat "$dir/home")"
    port="$(cat "$dir/port")"
    fsync="$(cat "$dir/fsync")"
    without_inherited_fds as_server_user "$home" "$bin/pg_ctl" -D "$home/data" -l "$home/server.log" -w -t 60 \
        -o "-c listen_addresses='' -c unix_socket_directories='$home' -p $port -c fsync=$fsync -c max_connections=200" \
        start </dev/null >"$dir/pg_ctl.log" 2>&1 || { cat "$dir/pg_ctl.log" "$home/server.log" >&2; exit 1; }
    echo "host=$home port=$port user=osec dbname=postgres"
    ;;
stop | destroy)
    [ -f "$dir/home" ] || exit 0
    home="$(cat "$dir/home")"
    [ -d "$home/data" ] && without_inherited_fds as_server_user "$home" "$bin/pg_ctl" -D "$home/data" -m fast -w -t 60 stop \
        </dev/null >/dev/null 2>&1 || true
    if [ "$command" = destroy ]; then
        case "$home" in /tmp/osec-pg.*) rm -rf "$home" ;; esac
        rm -rf "$dir"
    fi
    ;;
*)
    echo "usage: $0 start|stop|restart|destroy DIR [PORT] [--durable] [--owner PID]" >&2
    exit 2
    ;;
esac
