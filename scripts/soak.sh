#!/usr/bin/env bash
# A bounded soak (issue 26): the long-lived processes run together against loops of short-lived clients on
# loopback for MINUTES, and their file descriptors, threads and resident memory are sampled every interval.
#   scripts/soak.sh MINUTES [interval seconds=60]
#
# Long-lived processes (sampled):
#   agent  `security keychain-agent`: clients unlock, read and lock a password keychain through it in a loop;
#   tls    TLSLoad: a TLSListener and rounds of 8 concurrent TLSConnection clients × 20 requests, without end;
#   sync   `security sync-agent` on one keychain of a circle (only when PostgreSQL can be started with
#          scripts/pg-test-server.sh): a client loop changes 16 passwords of a second member and syncs it.
# Descriptors and threads are sampled as the least of five reads 0.2 s apart (a connection in flight is not growth).
# The first third of the samples is the warm-up. The soak fails when any later sample's resident memory is more than
# 10 % + 4 MiB above the warm-up's maximum (allocator noise), or when the final third's resting level of descriptors
# or threads (the least of its samples) is above the warm-up's maximum (a leak raises every later sample). A
# long-lived process that dies, or a client loop that fails, fails it too. Uses the debug build (`swift build` first).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:?usage: scripts/soak.sh MINUTES [interval seconds]}"
interval="${2:-60}"
bin="$(swift build --show-bin-path)"
for tool in security TLSLoad SyncStress; do
    [ -x "$bin/$tool" ] || { echo "soak: $bin/$tool missing; run swift build first" >&2; exit 2; }
done

work="$(mktemp -d /tmp/osec-soak.XXXXXX)"
chmod 700 "$work"
pids=()
loops=()
pg=""
cleanup() {
    "${sec:-false}" keychain-agent -s > /dev/null 2>&1 || true
    for pid in "${loops[@]}" "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -n "$pg" ] && scripts/pg-test-server.sh destroy "$work/pg" > /dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
export HOME="$work/home" XDG_RUNTIME_DIR="$work/run" XDG_DATA_HOME="$work/data"
export OPENSECURITY_KEYCHAIN="$work/data/login.keychain-db"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" "$XDG_DATA_HOME"
chmod 700 "$HOME" "$XDG_RUNTIME_DIR" "$XDG_DATA_HOME"
sec="$bin/security"
names=()
fail() {
    echo "soak: FAIL: $*" >&2
    exit 1
}

# The keychain agent and its clients. The agent exits after 10 s with nothing unlocked and no request (by design),
# and on a loaded machine one `security` process can take longer than that. A login session keeps its login keychain
# unlocked, so its agent stays up for the whole session: the soak does the same, timing-independently. It creates
# a session keychain with no timeout and unlocks it, which starts the agent on demand (detached, as for a user), and
# samples that agent, whose pid `keychain-agent -l` prints.
"$sec" create-keychain -p session "$work/session.keychain-db" > /dev/null
"$sec" set-keychain-settings "$work/session.keychain-db" # no timeout, no lock on sleep
"$sec" unlock-keychain -p session "$work/session.keychain-db" > /dev/null
agent="$("$sec" keychain-agent -l | awk 'NR == 1 && $1 == "keychain" && $2 == "agent" { print $3 }')"
[ -n "$agent" ] && kill -0 "$agent" 2> /dev/null || fail "the keychain agent did not start"
pids+=("$agent")
names+=(agent)
: > "$work/agent.log"
# Session traffic besides the client loop below: a listing every 2 s.
(
    while true; do
        "$sec" keychain-agent -l > /dev/null 2>&1 || { echo "list" >&2; exit 1; }
        sleep 2
    done
) 2> "$work/listing-clients.log" &
loops+=($!)

"$sec" create-keychain -p soak "$work/agent.keychain-db" > /dev/null
(
    i=0
    while true; do
        i=$((i + 1))
        "$sec" unlock-keychain -p soak "$work/agent.keychain-db" > /dev/null 2>&1 || { echo "unlock $i" >&2; exit 1; }
        "$sec" add-generic-password -U -a "a$((i % 8))" -s soak -w "v$i" "$work/agent.keychain-db" > /dev/null 2>&1 \
            || { echo "add $i" >&2; exit 1; }
        "$sec" find-generic-password -a "a$((i % 8))" -s soak -w "$work/agent.keychain-db" > /dev/null 2>&1 \
            || { echo "find $i" >&2; exit 1; }
        "$sec" keychain-agent -l > /dev/null 2>&1 || { echo "list $i" >&2; exit 1; }
        "$sec" lock-keychain "$work/agent.keychain-db" > /dev/null 2>&1 || { echo "lock $i" >&2; exit 1; }
    done
) 2> "$work/agent-clients.log" &
loops+=($!)

# The TLS listener and its clients (one process; it prints a JSON line per round).
(
    cd "$work"
    ext="basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth"
    printf "%b\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n" "$ext" > server.ext
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.pem \
        -subj "/CN=Soak Root" -days 2 -addext basicConstraints=critical,CA:TRUE \
        -addext keyUsage=critical,keyCertSign,cRLSign 2> /dev/null
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout server.key -out server.csr \
        -subj /CN=localhost 2> /dev/null
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -set_serial 7 -days 2 -extfile server.ext \
        -out server.pem 2> /dev/null
    openssl pkcs12 -export -in server.pem -inkey server.key -certfile ca.pem -passout pass:soak -out server.p12
)
"$bin/TLSLoad" --p12 "$work/server.p12" --password soak --ca "$work/ca.pem" --clients 8 --requests 20 \
    --rounds 100000000 > "$work/tls.log" 2>&1 &
pids+=($!)
names+=(tls)

# Sync, when a PostgreSQL server can be started.
if url="$(scripts/pg-test-server.sh start "$work/pg" 2> "$work/pg.log")" && [ -n "$url" ]; then
    pg=yes
    "$bin/SyncStress" join "$work/m1.keychain-db" "$url" soak soak-passphrase > /dev/null
    "$bin/SyncStress" join "$work/m2.keychain-db" "$url" soak soak-passphrase > /dev/null
    OPENSECURITY_KEYCHAIN="$work/m1.keychain-db" "$sec" sync-agent "$work/m1.keychain-db" > "$work/sync.log" 2>&1 &
    pids+=($!)
    names+=(sync)
    (
        i=0
        while true; do
            i=$((i + 1))
            "$bin/SyncStress" set "$work/m2.keychain-db" "acct-$((i % 16))" "v$i" > /dev/null \
                || { echo "set $i" >&2; exit 1; }
            "$bin/SyncStress" sync "$work/m2.keychain-db" > /dev/null || { echo "sync $i" >&2; exit 1; }
            sleep 0.2
        done
    ) 2> "$work/sync-clients.log" &
    loops+=($!)
else
    echo "soak: PostgreSQL not available (scripts/pg-test-server.sh): sync is not soaked" >&2
fi

sample() { # pid -> "fds threads rss_kb"
    # Descriptors and threads are the least of five reads 0.2 s apart: a connection or a worker in flight at the
    # moment of one read is not growth, a leaked descriptor or thread is there at every read.
    local pid="$1" fds="" threads="" rss="" f t
    for _ in 1 2 3 4 5; do
        [ -d "/proc/$pid" ] || { echo "dead"; return; }
        f="$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2> /dev/null | wc -l)"
        t="$(awk '/^Threads:/ {print $2}' "/proc/$pid/status" 2> /dev/null)"
        rss="$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2> /dev/null)"
        [ -n "$t" ] && [ -n "$rss" ] || { echo "dead"; return; }
        [ -z "$fds" ] || [ "$f" -lt "$fds" ] && fds="$f"
        [ -z "$threads" ] || [ "$t" -lt "$threads" ] && threads="$t"
        sleep 0.2
    done
    echo "$fds $threads $rss"
}

declare -A base rest
samples=$((minutes * 60 / interval))
[ "$samples" -ge 3 ] || fail "MINUTES × 60 / interval must give at least three samples"
# The first third of the samples (at least one) is the warm-up.
warmup=$((samples / 3 > 0 ? samples / 3 : 1))
status=0
printf '%-8s %-7s %6s %8s %10s\n' sample process fds threads rss_kib
for n in $(seq 1 "$samples"); do
    sleep "$interval"
    for loop in "${loops[@]}"; do
        kill -0 "$loop" 2> /dev/null || fail "a client loop stopped: $(cat "$work"/*-clients.log)"
    done
    for index in "${!pids[@]}"; do
        name="${names[$index]}"
        read -r fds threads rss <<< "$(sample "${pids[$index]}")"
        [ "$fds" = dead ] && fail "$name exited: $(tail -5 "$work/$name.log")"
        printf '%-8s %-7s %6s %8s %10s\n' "$n" "$name" "$fds" "$threads" "$rss"
        if [ "$n" -le "$warmup" ]; then
            # The warm-up's maxima (pools and caches fill up lazily under load) are the baseline.
            read -r bfds bthreads brss <<< "${base[$name]:-0 0 0}"
            base[$name]="$((fds > bfds ? fds : bfds)) $((threads > bthreads ? threads : bthreads)) $((rss > brss ? rss : brss))"
            continue
        fi
        read -r bfds bthreads brss <<< "${base[$name]}"
        # Memory: every later sample against the warm-up's maximum (allocator noise allowed).
        if [ "$rss" -gt $((brss * 110 / 100 + 4096)) ]; then
            echo "soak: $name grew after warm-up: rss $brss→$rss KiB" >&2
            status=1
        fi
        # Descriptors and threads: the resting level of the final third of the samples (their least) against the
        # warm-up's maximum. A leaked descriptor or thread raises every later sample; connections and workers in
        # flight (TLSLoad always has eight clients mid-round) raise single samples and are not growth.
        if [ "$n" -gt $((samples - samples / 3)) ]; then
            read -r lfds lthreads <<< "${rest[$name]:-999999 999999}"
            rest[$name]="$((fds < lfds ? fds : lfds)) $((threads < lthreads ? threads : lthreads))"
        fi
    done
done
for name in "${names[@]}"; do
    read -r bfds bthreads brss <<< "${base[$name]}"
    read -r lfds lthreads <<< "${rest[$name]}"
    echo "soak: $name: warm-up maxima fds $bfds, threads $bthreads; final third at rest fds $lfds, threads $lthreads"
    if [ "$lfds" -gt "$bfds" ] || [ "$lthreads" -gt "$bthreads" ]; then
        echo "soak: $name grew after warm-up: fds $bfds→$lfds, threads $bthreads→$lthreads at rest" >&2
        status=1
    fi
done
rounds="$(grep -c '"round"' "$work/tls.log" 2> /dev/null || true)"
# A round in which a request went unanswered or the server failed a connection fails the soak.
bad="$(awk -F'[:,]' '/"round"/ { if ($4 != $6 || $8 != 0) n++ } END { print n + 0 }' "$work/tls.log")"
[ "$bad" -eq 0 ] || { echo "soak: $bad TLS round(s) with unanswered requests or server failures" >&2; status=1; }
echo "soak: $minutes min, TLS rounds completed: ${rounds:-0}; $([ "$status" -eq 0 ] && echo flat || echo GREW)"
exit "$status"
