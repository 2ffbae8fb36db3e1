#!/usr/bin/env python3
"""Measures `rules serve` on loopback, next to a bare Hummingbird route, in one run.

Figures: rules-checked GET and PUT throughput and p99 latency (wrk), the same for the bare
route, the time from start to accepting connections, the time for one write to reach 1,000
streaming listeners, the server's memory with 1,000 idle streams, and write throughput with
durable storage (`--data`) next to the same writes in memory.

Usage (release build first):
    swift build -c release --product rules && swift build -c release --product BareServer
    python3 Benchmarks/server_bench.py [--bin .build/release] [--seconds 10] [--listeners 1000] [--durable-only]
Needs wrk (Debian: apt-get install wrk) and, for the WebSocket figures, the `websockets` package
(the end-to-end tests' virtual environment has it: run the script with .venv-e2e/bin/python).
Prints a Markdown table.
"""
import argparse
import asyncio
import base64
import json
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = os.path.join(ROOT, "rules-examples", "blog", "database.rules.json")


def mock_token(uid):
    def seg(obj):
        return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")
    return seg({"alg": "none", "type": "JWT"}) + "." + seg({"sub": uid, "iat": 0}) + "."


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def wait_for_port(port, timeout=10.0):
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.05):
                return time.perf_counter() - start
        except OSError:
            time.sleep(0.0005)
    raise RuntimeError(f"nothing listens on {port}")


def start(argv):
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=raise_fd_limit)
    return proc


def request(port, method, path, body=None, token="owner"):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req) as r:
        return r.status, r.read()


def wrk(url, seconds, script=None, connections=64):
    argv = ["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if script:
        argv += ["-s", script]
    out = subprocess.run(argv + [url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, float(p99.group(1)) * scale, int(non2xx.group(1)) if non2xx else 0


async def fan_out(port, listeners, token):
    """Opens `listeners` streams, writes once, returns (ms to the last delivery, all delivered)."""
    path = f"/posts/p1.json?auth={token}"
    head = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n").encode()
    streams = []
    for _ in range(listeners):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(head)
        streams.append((reader, writer))

    async def until(reader, marker):
        buf = b""
        while marker not in buf:
            chunk = await reader.read(65536)
            if not chunk:
                raise RuntimeError("stream closed")
            buf += chunk

    await asyncio.gather(*(until(r, b"event: put") for r, _ in streams))
    return streams, until


async def measure_fan_out(port, listeners, token, rss_of):
    streams, until = await fan_out(port, listeners, token)
    rss = rss_of()
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    done = []

    async def one(reader):
        await until(reader, b"/title")
        done.append(time.perf_counter())

    waiters = [asyncio.create_task(one(r)) for r, _ in streams]
    await loop.run_in_executor(None, request, port, "PUT", "/posts/p1/title.json?print=silent", "fan-out")
    await asyncio.wait_for(asyncio.gather(*waiters), timeout=30)
    for _, w in streams:
        w.close()
    return (max(done) - started) * 1000, len(done), rss


async def ws_writes(port, token, connections, writes):
    """`connections` WebSocket clients each send `writes` rules-checked sets, pipelined;
    returns writes per second until the last `ok`."""
    import websockets
    clients = []
    for i in range(connections):
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/.ws?v=5&ns=default", max_size=None)
        await ws.recv()  # hello
        await ws.send(json.dumps({"t": "d", "d": {"r": 1, "a": "auth", "b": {"cred": token}}}))
        await ws.recv()
        clients.append(ws)

    async def run(ws):
        for r in range(2, writes + 2):
            await ws.send(json.dumps({"t": "d", "d": {"r": r, "a": "p", "b": {"p": "/users/alice/username", "d": f"w{r}"}}}))
        seen = 0
        while seen < writes:
            message = json.loads(await ws.recv())
            if "r" in message["d"]:
                assert message["d"]["b"]["s"] == "ok", message
                seen += 1

    started = time.perf_counter()
    await asyncio.gather(*(run(ws) for ws in clients))
    elapsed = time.perf_counter() - started
    for ws in clients:
        await ws.close()
    return connections * writes / elapsed


async def ws_fan_out(port, token, listeners):
    """`listeners` WebSocket clients listen on /posts/p1; one REST write; ms to the last push."""
    import websockets
    clients = []
    for i in range(listeners):
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/.ws?v=5&ns=default", max_size=None)
        await ws.recv()
        await ws.send(json.dumps({"t": "d", "d": {"r": 1, "a": "auth", "b": {"cred": token}}}))
        await ws.send(json.dumps({"t": "d", "d": {"r": 2, "a": "q", "b": {"p": "/posts/p1", "h": ""}}}))
        clients.append(ws)

    async def until_ok(ws):
        while True:
            message = json.loads(await ws.recv())
            if message["d"].get("r") == 2:
                return

    await asyncio.gather(*(until_ok(ws) for ws in clients))
    done = []

    async def until_push(ws):
        while True:
            message = json.loads(await ws.recv())
            if message["d"].get("a") == "d" and "/title" in message["d"]["b"]["p"]:
                done.append(time.perf_counter())
                return

    waiters = [asyncio.create_task(until_push(ws)) for ws in clients]
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    await loop.run_in_executor(None, request, port, "PUT", "/posts/p1/title.json?print=silent", "ws fan-out")
    await asyncio.wait_for(asyncio.gather(*waiters), timeout=30)
    for ws in clients:
        await ws.close()
    return (max(done) - started) * 1000, len(done)


def durable_rows(rules_bin, seconds, token, put_lua):
    """The same writes in memory and with `--data`, in one run: PUT over 64 and over 1
    connection (wrk), and pipelined WebSocket sets. Returns table rows."""
    figures = {}
    for durable in (False, True):
        with tempfile.TemporaryDirectory() as data:
            port = free_port()
            argv = [rules_bin, "serve", RULES, "--port", str(port), "--log", "quiet", "--no-coverage"]
            proc = start(argv + (["--data", data] if durable else []))
            wait_for_port(port)
            post = {"uid": "bob", "author": "Bob", "title": "Hello", "body": "b", "starCount": 0}
            request(port, "PUT", "/.json", {"posts": {"p1": post}, "users": {"alice": {"username": "alice"}}})
            url = f"http://127.0.0.1:{port}/users/alice/username.json?auth={token}&print=silent"
            many = wrk(url, seconds, put_lua)
            one = wrk(url, seconds, put_lua, connections=1)
            try:
                ws_rate = asyncio.run(ws_writes(port, token, 4, 2000))
            except ImportError:
                ws_rate = None
            size = sum(os.path.getsize(os.path.join(data, f)) for f in os.listdir(data)) if durable else 0
            proc.terminate(); proc.wait()
            figures[durable] = (many, one, ws_rate, size)

    def compare(name, memory, durable, unit):
        return (name, f"in memory {memory:,.0f} {unit}; `--data` {durable:,.0f} {unit}: **{durable / memory * 100:.0f} %**", "–")

    (m_many, m_one, m_ws, _), (d_many, d_one, d_ws, size) = figures[False], figures[True]
    rows = [
        compare("PUT, rules checked, 64 connections (`--no-coverage`)", m_many[0], d_many[0], "req/s"),
        ("PUT p99 latency, 64 connections", f"in memory {m_many[1]:.2f} ms; `--data` {d_many[1]:.2f} ms", "–"),
        compare("PUT, rules checked, 1 connection (one write at a time)", m_one[0], d_one[0], "req/s"),
        ("PUT p99 latency, 1 connection", f"in memory {m_one[1]:.2f} ms; `--data` {d_one[1]:.2f} ms", "–"),
    ]
    if m_ws is not None:
        rows.append(compare("WebSocket sets, 4 connections × 2,000 pipelined", m_ws, d_ws, "writes/s"))
    rows.append(("`--data` directory after these writes (compacted log + WAL)", f"{size / 1024 / 1024:.1f} MB", "–"))
    return rows


def core_figures(rules_bin, seconds, listeners, token, put_lua, coverage=False):
    """GET and PUT through the rules (coverage off unless asked) and one write to `listeners` streams."""
    port = free_port()
    proc = start([rules_bin, "serve", RULES, "--port", str(port), "--log", "quiet"] + ([] if coverage else ["--no-coverage"]))
    try:
        wait_for_port(port)
        post = {"uid": "bob", "author": "Bob", "title": "Hello", "body": "b", "starCount": 0}
        request(port, "PUT", "/.json", {"posts": {"p1": post}, "users": {"alice": {"username": "alice"}}})
        get = wrk(f"http://127.0.0.1:{port}/posts/p1.json?auth={token}", seconds)
        put = wrk(f"http://127.0.0.1:{port}/users/alice/username.json?auth={token}&print=silent", seconds, put_lua)
        ms, delivered, _ = asyncio.run(measure_fan_out(port, listeners, token, lambda: rss_mb(proc.pid)))
        return get, put, ms, delivered
    finally:
        proc.terminate(); proc.wait()


def versus(before_bin, after_bin, args, token):
    """The same figures for two builds, alternating round by round, medians side by side."""
    with tempfile.TemporaryDirectory() as tmp:
        put_lua = os.path.join(tmp, "put.lua")
        with open(put_lua, "w") as f:
            f.write('wrk.method = "PUT"\nwrk.body = "\\"alice2\\""\nwrk.headers["Content-Type"] = "application/json"\n')
        runs = {"before": [], "after": []}
        for _ in range(args.rounds):
            for name, binary in (("before", before_bin), ("after", after_bin)):
                runs[name].append(core_figures(binary, args.seconds, args.listeners, token, put_lua, coverage=args.coverage))

    def median(name, index):
        return statistics.median(r[index][0] if index < 2 else r[index] for r in runs[name])

    print(f"wrk -t2 -c64 -d{args.seconds}s on loopback, {args.rounds} alternating rounds (median), "
          f"server and wrk on the same {os.cpu_count()} cores\n")
    print("| measure | before | after | after / before |\n| --- | --- | --- | --- |")
    mode = "coverage on (the default)" if args.coverage else "`--no-coverage`"
    for label, index, unit in ((f"GET, rules checked, {mode}", 0, "req/s"), (f"PUT, rules checked, {mode}", 1, "req/s"),
                               (f"one write to {args.listeners} streaming listeners", 2, "ms")):
        b, a = median("before", index), median("after", index)
        fmt = (lambda v: f"{v:,.0f} {unit}") if unit == "req/s" else (lambda v: f"{v:.1f} {unit}")
        print(f"| {label} | {fmt(b)} | {fmt(a)} | {a / b:.2f} |")
    return 0


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--listeners", type=int, default=1000)
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--durable-only", action="store_true", help="only the in-memory versus --data write figures")
    parser.add_argument("--versus", metavar="DIR", help="another build's directory (e.g. of an earlier commit): GET, PUT and "
                        "the fan-out to --listeners streams measured for both builds, alternating, in one run")
    parser.add_argument("--rounds", type=int, default=3, help="with --versus: rounds of both builds (median reported)")
    parser.add_argument("--coverage", action="store_true", help="with --versus: measure with coverage on (the default configuration)")
    args = parser.parse_args()
    raise_fd_limit()
    rules_bin, bare_bin = os.path.join(args.bin, "rules"), os.path.join(args.bin, "BareServer")
    token = mock_token("alice")
    rows = []
    if args.versus:
        return versus(os.path.join(args.versus, "rules"), rules_bin, args, token)
    if args.durable_only:
        with tempfile.TemporaryDirectory() as tmp:
            put_lua = os.path.join(tmp, "put.lua")
            with open(put_lua, "w") as f:
                f.write('wrk.method = "PUT"\nwrk.body = "\\"alice2\\""\nwrk.headers["Content-Type"] = "application/json"\n')
            rows = durable_rows(rules_bin, args.seconds, token, put_lua)
        print(f"wrk -t2 -d{args.seconds}s on loopback, server and wrk on the same {os.cpu_count()} cores\n")
        print("| measure | figure | target |\n| --- | --- | --- |")
        for name, figure, target in rows:
            print(f"| {name} | {figure} | {target} |")
        return

    # Start-up: from spawning the process to accepting a connection.
    times = []
    for _ in range(args.starts):
        port = free_port()
        proc = start([rules_bin, "serve", RULES, "--port", str(port), "--log", "quiet"])
        times.append(wait_for_port(port) * 1000)
        proc.terminate(); proc.wait()
    rows.append(("start to accepting connections", f"{statistics.median(times):.1f} ms (median of {args.starts}; min {min(times):.1f})", "≤ 200 ms"))

    with tempfile.TemporaryDirectory() as tmp:
        put_lua = os.path.join(tmp, "put.lua")
        with open(put_lua, "w") as f:
            f.write('wrk.method = "PUT"\nwrk.body = "\\"alice2\\""\nwrk.headers["Content-Type"] = "application/json"\n')

        bare_port = free_port()
        bare = start([bare_bin, str(bare_port)])
        wait_for_port(bare_port)
        bare_get = wrk(f"http://127.0.0.1:{bare_port}/posts/p1.json", args.seconds)
        bare_put = wrk(f"http://127.0.0.1:{bare_port}/users/alice/username.json", args.seconds, put_lua)
        bare.terminate(); bare.wait()

        results = {}
        for coverage in (False, True):
            port = free_port()
            argv = [rules_bin, "serve", RULES, "--port", str(port), "--log", "quiet"] + ([] if coverage else ["--no-coverage"])
            proc = start(argv)
            wait_for_port(port)
            post = {"uid": "bob", "author": "Bob", "title": "Hello", "body": "b", "starCount": 0}
            request(port, "PUT", "/.json", {"posts": {"p1": post}, "users": {"alice": {"username": "alice"}}})
            get = wrk(f"http://127.0.0.1:{port}/posts/p1.json?auth={token}", args.seconds)
            put = wrk(f"http://127.0.0.1:{port}/users/alice/username.json?auth={token}&print=silent", args.seconds, put_lua)
            results[coverage] = (get, put)
            if not coverage:
                ms, delivered, idle_rss = asyncio.run(measure_fan_out(port, args.listeners, token, lambda: rss_mb(proc.pid)))
                try:
                    ws_rate = asyncio.run(ws_writes(port, token, 4, 2000))
                    ws_ms, ws_delivered = asyncio.run(ws_fan_out(port, token, args.listeners))
                except ImportError:
                    ws_rate = None
            proc.terminate(); proc.wait()
        durable = durable_rows(rules_bin, args.seconds, token, put_lua)

    def row(name, mine, bare, target):
        (rps, p99, errors), (brps, bp99, _) = mine, bare
        note = f" ({errors} non-2xx)" if errors else ""
        return (name, f"{rps:,.0f} req/s, p99 {p99:.2f} ms{note}; bare route {brps:,.0f} req/s, p99 {bp99:.2f} ms: **{rps / brps * 100:.0f} %**", target)

    rows.append(row("GET, rules checked (blog `.read`, mock token), coverage off", results[False][0], bare_get, "≥ 50 % of bare"))
    rows.append(row("PUT, rules checked (blog `.write` + `.validate`), coverage off", results[False][1], bare_put, "≥ 30 % of bare"))
    rows.append(row("GET, coverage on (the default)", results[True][0], bare_get, "–"))
    rows.append(row("PUT, coverage on (the default)", results[True][1], bare_put, "–"))
    rows.append((f"one write to {args.listeners} streaming listeners", f"{ms:.1f} ms to the last ({delivered} delivered)", "≤ 100 ms"))
    rows.append((f"RSS with {args.listeners} idle streams", f"{idle_rss:.0f} MB", "≤ 150 MB"))
    if ws_rate is not None:
        rows.append(("WebSocket writes, rules checked (4 connections × 2,000 pipelined sets of `/users/alice/username`), `--no-coverage`", f"{ws_rate:,.0f} writes/s", "–"))
        rows.append((f"one write to {args.listeners} WebSocket listeners", f"{ws_ms:.1f} ms to the last ({ws_delivered} delivered)", "–"))
    rows += durable

    print(f"wrk -t2 -c64 -d{args.seconds}s on loopback, server and wrk on the same {os.cpu_count()} cores\n")
    print("| measure | figure | target |\n| --- | --- | --- |")
    for name, figure, target in rows:
        print(f"| {name} | {figure} | {target} |")


if __name__ == "__main__":
    sys.exit(main())
