#!/usr/bin/env python3
"""Soak test of `rules serve`: hostile clients of every shape at once, for minutes, while a
legitimate local client does what an app does through the SDKs' doors (REST reads and writes, a
WebSocket that listens, sets and gets). Reports the legitimate client's p50/p99 latency, the
server's peak RSS, and the acknowledged writes lost (must be 0).

The hostile shapes (each one a red-team finding; see docs/limits.md):
- a flood of WebSocket upgrades without end, each held open (one client's share);
- streams under a new forged `Origin` each time (other sites, then pages claiming this machine);
- long-polling starts from ten origins of one site and from forged sites;
- request bodies trickled a byte at a time and never finished;
- one WebSocket holding many unindexed query listens on a large location, with writes under it;
- denied wide writes (hundreds of thousands of children).

Usage:
  python3 Benchmarks/soak.py [--binary .build/release/rules] [--seconds 600] [--json]
Needs `requests` and `websockets` (Tests/ClientTests/requirements.txt). Exits 1 when an
acknowledged write is lost or the legitimate client got an error."""
import argparse
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

import warnings

import requests
from websockets.sync.client import connect

warnings.simplefilter("ignore", DeprecationWarning)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
OPEN = {"rules": {
    "public": {".read": True, ".write": True, "$k": {".validate": "newData.isString()"}},
    ".read": True, ".write": True,
}}


def rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class Server:
    def __init__(self, binary, args):
        self.dir = tempfile.TemporaryDirectory(prefix="rules-soak-")
        path = os.path.join(self.dir.name, "database.rules.json")
        with open(path, "w") as f:
            json.dump(OPEN, f)
        self.proc = subprocess.Popen(
            [binary, "serve", path, "--port", "0", "--log", "quiet", "--no-coverage", *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        first = self.proc.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", first)
        if not match:
            self.proc.kill()
            raise SystemExit(f"rules serve did not start: {first}{self.proc.stderr.read()}")
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Soak:
    def __init__(self, server, seconds):
        self.server = server
        self.until = time.monotonic() + seconds
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.latencies = []          # the legitimate client's operations, seconds
        self.errors = []             # what went wrong for the legitimate client
        self.acknowledged = {}       # path -> value the server acknowledged
        self.hostile = {}            # shape -> operations attempted
        self.retried = 0             # requests sent again after their idle connection was closed
        self.peak = rss(server.proc.pid)

    def running(self):
        return not self.stop.is_set() and time.monotonic() < self.until

    def count(self, shape, n=1):
        with self.lock:
            self.hostile[shape] = self.hostile.get(shape, 0) + n

    def timed(self, what, call):
        started = time.monotonic()
        try:
            try:
                result = call()
            except requests.ConnectionError:
                # A kept-alive connection the server closed to make room (the oldest idle one
                # goes first when every place is taken): sent again on a new connection, as
                # browsers do. Counted, and the latency includes it.
                with self.lock:
                    self.retried += 1
                result = call()
        except Exception as error:  # noqa: BLE001 - every failure is reported
            with self.lock:
                self.errors.append(f"{what}: {error!r}"[:300])
            return None
        with self.lock:
            self.latencies.append(time.monotonic() - started)
        return result

    # --- the legitimate client (this machine's app) ---

    def legit_rest(self):
        session = requests.Session()
        headers = {"Origin": "http://localhost:3000"}
        n = 0
        while self.running():
            n += 1
            path = f"/app/rest/{n % 500}"
            r = self.timed("REST PUT", lambda: session.put(f"{self.server.url}{path}.json", json={"n": n}, headers=headers, timeout=30))
            if r is not None:
                with self.lock:
                    if r.status_code == 200:
                        self.acknowledged[path] = {"n": n}
                    else:
                        self.errors.append(f"REST PUT {path}: {r.status_code} {r.text[:200]}")
            r = self.timed("REST GET", lambda: session.get(f"{self.server.url}{path}.json", headers=headers, timeout=30))
            if r is not None and r.status_code != 200:
                with self.lock:
                    self.errors.append(f"REST GET {path}: {r.status_code}")
            time.sleep(0.02)

    def legit_websocket(self):
        r = 0
        while self.running():
            try:
                ws = connect(f"ws://127.0.0.1:{self.server.port}/.ws?v=5&ns=default", origin="http://localhost:3000", open_timeout=30, max_size=None)
            except Exception as error:  # noqa: BLE001
                self.errors.append(f"WebSocket connect: {error!r}"[:300])
                time.sleep(1)
                continue
            try:
                ws.recv(timeout=30)  # the handshake
                r += 1
                ws.send(json.dumps({"t": "d", "d": {"r": r, "a": "q", "b": {"p": "/app/ws", "h": ""}}}))
                n = 0
                while self.running():
                    n += 1
                    r += 1
                    path = f"/app/ws/{n % 200}"
                    started = time.monotonic()
                    ws.send(json.dumps({"t": "d", "d": {"r": r, "a": "p", "b": {"p": path, "d": n}}}))
                    ok = self.await_reply(ws, r)
                    with self.lock:
                        self.latencies.append(time.monotonic() - started)
                        if ok:
                            self.acknowledged[path] = n
                        else:
                            self.errors.append(f"WebSocket set {path}: no ok")
                    time.sleep(0.02)
            except Exception as error:  # noqa: BLE001
                self.errors.append(f"WebSocket: {error!r}"[:300])
            finally:
                ws.close()

    @staticmethod
    def await_reply(ws, r):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=30))
            d = message.get("d", {})
            if message.get("t") == "d" and d.get("r") == r:
                return d.get("b", {}).get("s") == "ok"
        return False

    # --- the hostile shapes ---

    def websocket_flood(self):
        held = []
        while self.running():
            try:
                held.append(connect(f"ws://127.0.0.1:{self.server.port}/.ws?v=5&ns=default", open_timeout=5))
            except Exception:  # noqa: BLE001 - refusals are expected
                time.sleep(0.2)
            self.count("WebSocket upgrades")
            if len(held) > 300:
                for ws in held[:100]:
                    ws.close()
                del held[:100]
        for ws in held:
            ws.close()

    def forged_streams(self):
        held = []
        i = 0
        while self.running():
            i += 1
            origin = f"https://s{i}.forged{i}.example" if i % 2 else f"http://localhost:{10000 + i % 50000}"
            try:
                held.append(requests.get(f"{self.server.url}/a.json", headers={"Origin": origin, "Accept": "text/event-stream"}, stream=True, timeout=5))
            except Exception:  # noqa: BLE001
                pass
            self.count("forged-origin streams")
            if len(held) > 400:
                for r in held[:200]:
                    r.close()
                del held[:200]
            time.sleep(0.01)
        for r in held:
            r.close()

    def long_poll_flood(self):
        i = 0
        while self.running():
            i += 1
            referer = f"https://a{i % 10}.evil.example/" if i % 2 else f"https://s{i}.forged{i}.example/"
            try:
                requests.get(f"{self.server.url}/.lp?start=t&ser=1&cb={i % 1000}&v=5&ns=default", headers={"Referer": referer}, timeout=5)
            except Exception:  # noqa: BLE001
                pass
            self.count("long-polling starts")
            time.sleep(0.01)

    def trickled_bodies(self):
        held = []
        while self.running():
            try:
                s = socket.create_connection(("127.0.0.1", self.server.port), timeout=5)
                s.sendall(f"PUT /up.json HTTP/1.1\r\nHost: 127.0.0.1:{self.server.port}\r\nContent-Length: 1000000\r\n\r\n[".encode())
                held.append(s)
            except OSError:
                pass
            self.count("trickled bodies")
            for s in held:
                try:
                    s.send(b"1,")
                except OSError:
                    pass
            held = [s for s in held if s.fileno() != -1]
            if len(held) > 200:
                for s in held[:100]:
                    s.close()
                del held[:100]
            time.sleep(0.2)
        for s in held:
            s.close()

    def query_listeners(self, children, listens):
        body = {f"k{i:05d}": {"v": i} for i in range(children)}
        requests.put(f"{self.server.url}/items.json?ns=big", json=body, timeout=300)
        ws = connect(f"ws://127.0.0.1:{self.server.port}/.ws?v=5&ns=big", open_timeout=30, max_size=None, origin="https://listens.example")
        ws.recv(timeout=30)
        for i in range(listens):
            ws.send(json.dumps({"t": "d", "d": {"r": i + 1, "a": "q", "b": {"p": "/items", "q": {"i": "v", "sp": i, "l": 5, "vf": "l"}, "t": i + 1, "h": ""}}}))
        reader = threading.Thread(target=lambda: self.drain(ws), daemon=True)
        reader.start()
        n = 0
        while self.running():
            n += 1
            try:
                requests.put(f"{self.server.url}/items/k{random.randrange(children):05d}/v.json?ns=big", json=-n, timeout=60)
            except Exception:  # noqa: BLE001
                pass
            self.count("writes under query listeners")
            time.sleep(0.1)
        ws.close()

    def drain(self, ws):
        try:
            while self.running():
                ws.recv(timeout=5)
        except Exception:  # noqa: BLE001
            pass

    def denied_wide_writes(self, children):
        body = ("{" + ",".join(f'"k{i:07d}":{i}' for i in range(children)) + "}").encode()
        while self.running():
            try:
                requests.put(f"{self.server.url}/public.json", data=body, timeout=300)
            except Exception:  # noqa: BLE001
                pass
            self.count("denied wide writes")
            time.sleep(1)

    def watch_memory(self):
        while self.running():
            self.peak = max(self.peak, rss(self.server.proc.pid))
            time.sleep(0.05)

    def lost_writes(self):
        """The acknowledged writes whose value the server no longer has."""
        lost = []
        for path, value in sorted(self.acknowledged.items()):
            r = requests.get(f"{self.server.url}{path}.json", timeout=30)
            if r.json() != value:
                lost.append((path, value, r.text[:100]))
        return lost


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "release", "rules"))
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--max-connections", type=int, default=512)
    parser.add_argument("--children", type=int, default=25_000, help="children under the query listeners")
    parser.add_argument("--listens", type=int, default=1_500, help="unindexed query listens")
    parser.add_argument("--denied-children", type=int, default=200_000, help="children of each denied write")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args()

    server = Server(options.binary, ["--max-connections", str(options.max_connections)])
    soak = Soak(server, options.seconds)
    base = rss(server.proc.pid)
    workers = [
        threading.Thread(target=soak.watch_memory),
        threading.Thread(target=soak.websocket_flood),
        threading.Thread(target=soak.forged_streams),
        threading.Thread(target=soak.long_poll_flood),
        threading.Thread(target=soak.trickled_bodies),
        threading.Thread(target=soak.query_listeners, args=(options.children, options.listens)),
        threading.Thread(target=soak.denied_wide_writes, args=(options.denied_children,)),
        threading.Thread(target=soak.legit_rest),
        threading.Thread(target=soak.legit_websocket),
    ]
    for worker in workers:
        worker.daemon = True
        worker.start()
    try:
        while soak.running():
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    soak.stop.set()
    for worker in workers:
        worker.join(timeout=60)
    lost = soak.lost_writes()
    server.stop()
    latencies = sorted(soak.latencies)

    def quantile(q):
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")

    figures = {
        "seconds": options.seconds,
        "legit_operations": len(latencies),
        "legit_p50_ms": round(quantile(0.50) * 1000, 1),
        "legit_p99_ms": round(quantile(0.99) * 1000, 1),
        "legit_max_ms": round((latencies[-1] if latencies else float("nan")) * 1000, 1),
        "legit_errors": len(soak.errors),
        "legit_retried_after_idle_close": soak.retried,
        "peak_rss_mb": round(soak.peak / 1e6, 1),
        "start_rss_mb": round(base / 1e6, 1),
        "acknowledged_writes": len(soak.acknowledged),
        "acknowledged_writes_lost": len(lost),
        "hostile": soak.hostile,
    }
    if options.json:
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
        for error in soak.errors[:10]:
            print("error:", error)
        for path, value, got in lost[:10]:
            print(f"lost: {path} = {value!r}, read {got}")
    return 1 if lost or soak.errors else 0


if __name__ == "__main__":
    sys.exit(main())
