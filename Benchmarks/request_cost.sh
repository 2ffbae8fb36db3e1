#!/usr/bin/env bash
# What one request costs the server: its CPU time and its context switches, from the kernel's
# counters for the server's process (`perf stat -e task-clock,context-switches -p PID`) while wrk
# sends the same request for a few seconds. Steadier than requests per second on a machine whose
# load moves: a thread hop shows as a context switch whatever else runs.
#
#   bash Benchmarks/request_cost.sh RULES_BINARY get|put [--no-coverage] [SECONDS]
#   bash Benchmarks/request_cost.sh BARE_SERVER_BINARY get|put --bare [SECONDS]
#
# The requests are server_bench.py's: GET /posts/p1 and PUT /users/alice/username as alice (an
# unsigned mock token) on the blog rules; the bare route (BareServer) gets the same paths. Needs
# wrk and perf (Debian: wrk, linux-perf). Prints one line.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
binary=$1 kind=$2 mode=${3:-coverage} seconds=${4:-6}
case "$kind" in get|put) ;; *) echo "request_cost.sh: the request is get or put, not '$kind'" >&2; exit 2 ;; esac
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
token=$(python3 -c '
import base64, json
seg = lambda o: base64.urlsafe_b64encode(json.dumps(o, separators=(",", ":")).encode()).decode().rstrip("=")
print(seg({"alg": "none", "type": "JWT"}) + "." + seg({"sub": "alice", "iat": 0}) + ".")')
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
if [ "$mode" = --bare ]; then
    "$binary" "$port" >/dev/null 2>&1 &
    query="" silent=""
else
    flags=()
    [ "$mode" = --no-coverage ] && flags+=(--no-coverage)
    "$binary" serve rules-examples/blog/database.rules.json --port "$port" --log quiet "${flags[@]}" >/dev/null 2>&1 &
    query="?auth=$token" silent="&print=silent"
fi
server=$!
python3 -c "
import socket, sys, time
for _ in range(200):
    try: socket.create_connection(('127.0.0.1', $port), timeout=0.05).close(); sys.exit(0)
    except OSError: time.sleep(0.05)
sys.exit('nothing listens on $port')"
printf 'wrk.method = "PUT"\nwrk.body = "\\"alice2\\""\nwrk.headers["Content-Type"] = "application/json"\n' > "$work/put.lua"
perf stat -e task-clock,context-switches -p "$server" -o "$work/stat" -- sleep "$seconds" &
counting=$!
if [ "$kind" = get ]; then
    wrk -t2 -c64 -d"${seconds}s" "http://127.0.0.1:$port/posts/p1.json$query" > "$work/wrk"
else
    wrk -t2 -c64 -d"${seconds}s" -s "$work/put.lua" "http://127.0.0.1:$port/users/alice/username.json$query$silent" > "$work/wrk"
fi
wait "$counting"
python3 - "$work" "$kind" "$mode" <<'PY'
import re, sys
work, kind, mode = sys.argv[1:]
wrk = open(f"{work}/wrk").read()
stat = open(f"{work}/stat").read()
requests = int(re.search(r"(\d+) requests in", wrk).group(1))
rate = float(re.search(r"Requests/sec:\s+([\d.]+)", wrk).group(1))
cpu_ms = float(re.search(r"([\d,.]+) msec task-clock", stat).group(1).replace(",", ""))
switches = int(re.search(r"([\d,]+)\s+context-switches", stat).group(1).replace(",", ""))
print(f"{kind} ({mode}): {rate:,.0f} req/s, {cpu_ms * 1000 / requests:.1f} µs of CPU and {switches / requests:.2f} context switches per request")
PY
