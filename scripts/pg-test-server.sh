#!/usr/bin/env bash
# A throwaway PostgreSQL server for the sync tests and the sync benchmark.
#   scripts/pg-test-server.sh start DIR [PORT] [--durable]   initdb in DIR/data, start it with a Unix socket in DIR
#                                                           (no TCP), print the libpq connection string
#   scripts/pg-test-server.sh stop DIR                      stop it (fast shutdown) and leave DIR for the caller
#   scripts/pg-test-server.sh restart DIR                   start the existing DIR/data again
# PostgreSQL refuses to run as root: when run as root, the server runs as the dedicated user `osecpg` (created
# here with useradd when missing). Trust authentication over the socket only; fsync is off unless --durable.
set -euo pipefail

bindir() {
    local dir
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        [ -x "$dir/initdb" ] && { echo "$dir"; return; }
    done
    command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return; }
    echo "pg-test-server: PostgreSQL server binaries not found (apt-get install postgresql)" >&2
    exit 1
}

as_server_user() {
    if [ "$(id -u)" -eq 0 ]; then
        id osecpg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin osecpg
        setpriv --reuid=osecpg --regid="$(id -g osecpg)" --init-groups -- "$@"
    else
        "$@"
    fi
}

command="${1:-}"
dir="${2:-}"
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|restart DIR [PORT] [--durable]" >&2; exit 2; }
bin="$(bindir)"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

case "$command" in
start | restart)
    port="${3:-5432}"
    fsync=off
    for arg in "$@"; do [ "$arg" = "--durable" ] && fsync=on; done
    [ "$port" = "--durable" ] && port=5432
    if [ "$(id -u)" -eq 0 ]; then
        id osecpg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin osecpg
        chown osecpg "$dir"
        chmod 0755 "$dir"
    fi
    if [ "$command" = start ]; then
        as_server_user "$bin/initdb" -D "$dir/data" -U osec --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
        echo "$port" >"$dir/port"
        echo "$fsync" >"$dir/fsync"
    else
        port="$(cat "$dir/port")"
        fsync="$(cat "$dir/fsync")"
    fi
    as_server_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses='' -c unix_socket_directories='$dir' -p $port -c fsync=$fsync -c max_connections=200" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "host=$dir port=$port user=osec dbname=postgres"
    ;;
stop)
    [ -d "$dir/data" ] || exit 0
    as_server_user "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 || true
    ;;
*)
    echo "usage: $0 start|stop|restart DIR [PORT] [--durable]" >&2
    exit 2
    ;;
esac
