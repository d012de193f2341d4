#!/usr/bin/env bash
# Benchmarks the Secret Service provider (`security secret-service`) against gnome-keyring-daemon, in the same run,
# each on its own private session bus (dbus-daemon with a configuration in a temporary directory):
#   - a `secret-tool lookup` process (start, open a session, search, get the secret), median of LOOKUPS runs;
#   - SearchItems + GetSecrets over 1,000 items in one collection (Python secretstorage's connection, DH session),
#     median of ROUNDS runs.
# Prints one row per measurement: ours, gnome-keyring's, and the ratio gnome-keyring ÷ ours (above 1: we are faster).
# Usage: scripts/bench-secret-service.sh [path/to/security]   (default: .build/release/security, else debug)
# Needs: dbus-daemon, secret-tool, python3-secretstorage, gnome-keyring (apt-get install gnome-keyring).
set -euo pipefail
cd "$(dirname "$0")/.."
security=${1:-}
if [ -z "$security" ]; then
    security=.build/release/security
    [ -x "$security" ] || security=.build/debug/security
fi
security=$(readlink -f "$security")
LOOKUPS=${LOOKUPS:-30}
ROUNDS=${ROUNDS:-10}
for tool in dbus-daemon secret-tool gnome-keyring-daemon /usr/bin/python3; do
    command -v "$tool" >/dev/null || { echo "bench-secret-service: needs $tool" >&2; exit 1; }
done

work=$(mktemp -d /tmp/osec-ss-bench.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# start_bus NAME: a private session bus in $work/NAME; prints nothing, sets BUS_DIR.
start_bus() {
    BUS_DIR=$work/$1
    mkdir -p "$BUS_DIR/home" "$BUS_DIR/run" "$BUS_DIR/keychains"
    chmod 700 "$BUS_DIR" "$BUS_DIR/home" "$BUS_DIR/run" "$BUS_DIR/keychains"
    cat >"$BUS_DIR/session.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=$BUS_DIR/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
<allow own="*"/></policy></busconfig>
EOF
    dbus-daemon --config-file="$BUS_DIR/session.conf" --nofork --nopidfile 2>/dev/null &
    pids+=($!)
    for _ in $(seq 100); do [ -S "$BUS_DIR/bus" ] && break; sleep 0.05; done
    export DBUS_SESSION_BUS_ADDRESS=unix:path=$BUS_DIR/bus HOME=$BUS_DIR/home XDG_RUNTIME_DIR=$BUS_DIR/run
    export XDG_DATA_HOME=$BUS_DIR/home/.local/share OPENSECURITY_KEYCHAIN=$BUS_DIR/keychains/login.keychain-db
    export OPENSECURITY_KEYCHAIN_AGENT=off
}

wait_for_provider() {
    for _ in $(seq 200); do
        gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
            --method org.freedesktop.DBus.NameHasOwner org.freedesktop.secrets 2>/dev/null | grep -q true && return
        sleep 0.05
    done
    echo "bench-secret-service: the provider did not start" >&2
    exit 1
}

# measure: prints "<lookup ms> <search+getsecrets ms>" for the provider on the current bus.
measure() {
    /usr/bin/python3 - "$LOOKUPS" "$ROUNDS" <<'EOF'
import statistics, subprocess, sys, time
import secretstorage
from secretstorage.util import DBusAddressWrapper, open_session
lookups, rounds = int(sys.argv[1]), int(sys.argv[2])
conn = secretstorage.dbus_init()
col = secretstorage.get_default_collection(conn)
if col.is_locked():
    col.unlock()
for i in range(1000):
    col.create_item('bench %d' % i, {'bench': 'yes', 'n': str(i)}, ('secret-%d' % i).encode())
service = DBusAddressWrapper('/org/freedesktop/secrets', 'org.freedesktop.Secret.Service', conn)
session = open_session(conn)
times = []
for _ in range(rounds):
    start = time.perf_counter()
    unlocked, locked = service.call('SearchItems', 'a{ss}', {'bench': 'yes'})
    secrets, = service.call('GetSecrets', 'aoo', unlocked, session.object_path)
    times.append(time.perf_counter() - start)
    assert len(secrets) == 1000, len(secrets)
bulk = statistics.median(times) * 1000
times = []
for _ in range(lookups):
    start = time.perf_counter()
    out = subprocess.run(['secret-tool', 'lookup', 'bench', 'yes', 'n', '500'], capture_output=True, check=True)
    times.append(time.perf_counter() - start)
    assert out.stdout == b'secret-500', out
print('%.2f %.2f' % (statistics.median(times) * 1000, bulk))
EOF
}

start_bus ours
"$security" secret-service >/dev/null 2>&1 &
pids+=($!)
wait_for_provider
read -r ours_lookup ours_bulk < <(measure)

start_bus gnome
# Headless gnome-keyring: the login keyring is created and unlocked with a password from standard input.
printf 'bench-password' | gnome-keyring-daemon --unlock --components=secrets --daemonize >"$BUS_DIR/gkr.env" 2>/dev/null
wait_for_provider
gkr_pid=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.GetConnectionUnixProcessID org.freedesktop.secrets | sed 's/.*uint32 //' | tr -dc '0-9')
pids+=("$gkr_pid")
read -r gnome_lookup gnome_bulk < <(measure)

printf '%-44s %12s %16s %8s\n' "Secret Service operation" "ours (ms)" "gnome-keyring" "ratio"
printf '%-44s %12s %16s %8.2f\n' "secret-tool lookup (process, median of $LOOKUPS)" "$ours_lookup" "$gnome_lookup" \
    "$(echo "$gnome_lookup / $ours_lookup" | bc -l)"
printf '%-44s %12s %16s %8.2f\n' "SearchItems + GetSecrets, 1,000 items" "$ours_bulk" "$gnome_bulk" \
    "$(echo "$gnome_bulk / $ours_bulk" | bc -l)"
echo "security: $security"
