#!/usr/bin/env python3
"""Measures `rules serve` holding a real app's amount of data, imported from an emulator export.

The data is a blog app's (Benchmarks/make_export.py: posts with starCount, uid, stars; users with
score), the rules Benchmarks/data/database.rules.json (`.read: true`, writes for signed-in users,
`posts` indexed on starCount and uid, `users` on score). Figures:
  - the time from starting the process to its first answer (a shallow GET of the root) after
    `--import`, the resident memory then (VmRSS) and its peak (VmHWM), the bytes per leaf (RSS
    minus an empty server's RSS, divided by the leaves) and that memory over the JSON's size;
  - the latency (median and p90) of four queries on /posts, as a signed-in client (mock token:
    the rules decide every read);
  - one write under 1,000 streaming query listeners (`orderBy="starCount"&limitToLast=10`): a
    PUT that moves a post into the top 10, timed until every listener has the event, and the
    PUT's own latency;
  - the import's time and peak memory at 30 MB (and, with --big, 300 MB);
  - with --scaling, the latency of `orderBy="starCount"&limitToLast=10` at 10^4, 10^5 and 10^6 posts.
With --versus DIR, the same figures for another build's `rules`, alternating round by round
(--rounds, medians), side by side.

Usage (release build first):
    swift build -c release --product rules
    python3 Benchmarks/data_bench.py [--bin .build/release] [--posts 200000] [--scaling] [--big] [--workdir DIR]
    python3 Benchmarks/data_bench.py --bin .build/release --versus ../before/.build/release --rounds 3
Exports are generated into --workdir (a temporary directory unless given; a given one keeps
them for the next run). If the streaming listeners are refused, the fan-out falls back to
WebSocket query listens, which need the `websockets` package (.venv-e2e/bin/python has it).
Prints a Markdown table.
"""
import argparse
import asyncio
import atexit
import http.client
import json
import os
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RULES = os.path.join(HERE, "data", "database.rules.json")
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in Benchmarks/
import make_export  # noqa: E402
from server_bench import free_port, mock_token, raise_fd_limit  # noqa: E402

NS = "bench"
QUERIES = [
    ('orderBy="starCount"&limitToLast=5', {"orderBy": '"starCount"', "limitToLast": "5"}),
    ('orderBy="uid"&equalTo="u42"', {"orderBy": '"uid"', "equalTo": '"u42"'}),
    ('orderBy="starCount"&startAt=500&limitToFirst=10', {"orderBy": '"starCount"', "startAt": "500", "limitToFirst": "10"}),
    ('orderBy="$key"&limitToLast=5', {"orderBy": '"$key"', "limitToLast": "5"}),
]
TOP10 = {"orderBy": '"starCount"', "limitToLast": "10"}
SCALING_POSTS = [10_000, 100_000, 1_000_000]

LIVE = []  # servers to stop on exit


TOKEN = mock_token("alice")


def target(path, params=None):
    query = dict(params or {})
    query["ns"] = NS
    return path + "?" + urllib.parse.urlencode(query, quote_via=urllib.parse.quote)


def call(port, method, path, body=None, token="owner", timeout=60.0):
    """One request on a new connection; returns (status, body bytes)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body).encode(),
                     headers={"Authorization": f"Bearer {token}"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def memory_mb(pid):
    """(VmRSS, VmHWM) in MB."""
    found = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key = line.split(":", 1)[0]
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(line.split()[1]) / 1024
    return found.get("VmRSS", 0.0), found.get("VmHWM", 0.0)


_help_cache = {}


def serve_flags(binary):
    """The options of `rules serve` this build has (an earlier build may lack some)."""
    if binary not in _help_cache:
        out = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True, timeout=60)
        _help_cache[binary] = out.stdout + out.stderr
    return _help_cache[binary]


class Server:
    """`rules serve` on a free port, ready once a shallow GET of the root answers."""

    def __init__(self, binary, export_dir, timeout, listeners=0):
        if not os.access(binary, os.X_OK):
            raise RuntimeError(f"{binary}: no such executable (build it first)")
        flags = serve_flags(binary)
        if "--import" not in flags:
            raise RuntimeError(f"{binary}: `rules serve` has no --import option")
        self.port = free_port()
        argv = [binary, "serve", RULES, "--port", str(self.port), "--no-coverage"]
        if "--log" in flags:
            argv += ["--log", "quiet"]
        if listeners and "--limit" in flags:
            # One client opens every listener: allow it more than the per-client default.
            argv += ["--limit", f"max-long-lived-per-client={listeners + 100}"]
        if export_dir:
            argv += ["--import", export_dir]
        self.argv = argv
        self.log = tempfile.TemporaryFile()
        started = time.perf_counter()
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=self.log, preexec_fn=raise_fd_limit)
        LIVE.append(self)
        try:
            self.ready = self._wait_ready(started, timeout)
        except BaseException:
            self.stop()
            raise

    def _wait_ready(self, started, timeout):
        path = target("/.json", {"shallow": "true"})
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"`{shlex.join(self.argv)}` exited with {self.proc.returncode}:\n{self.output()}")
            elapsed = time.perf_counter() - started
            if elapsed > timeout:
                raise RuntimeError(f"`{shlex.join(self.argv)}` did not answer within {timeout:.0f} s (--start-timeout)")
            try:
                status, body = call(self.port, "GET", path, timeout=5)
                if status == 200:
                    return time.perf_counter() - started
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.005)

    def output(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-2000:]

    def memory(self):
        return memory_mb(self.proc.pid)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self in LIVE:
            LIVE.remove(self)
        self.log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def stop_all():
    for server in list(LIVE):
        try:
            server.stop()
        except Exception:
            pass


class Export:
    def __init__(self, directory, posts, users, size, leaves):
        self.directory, self.posts, self.users, self.size, self.leaves = directory, posts, users, size, leaves

    def describe(self):
        return f"{self.posts:,} posts, {self.users:,} users: {self.size / 1e6:.1f} MB of JSON, {self.leaves:,} leaves"


def export_for(workdir, posts, users, seed):
    """The export of `posts` posts, generated once per work directory."""
    directory = os.path.join(workdir, f"export-p{posts}-u{users}-s{seed}")
    meta = os.path.join(directory, "meta.json")
    if os.path.exists(meta):
        with open(meta) as f:
            m = json.load(f)
        return Export(directory, posts, users, m["bytes"], m["leaves"])
    started = time.perf_counter()
    print(f"generating {posts:,} posts into {directory} ...", file=sys.stderr, flush=True)
    _, size, leaves = make_export.write_export(directory, posts, users, NS, seed)
    with open(meta, "w") as f:
        json.dump({"bytes": size, "leaves": leaves}, f)
    print(f"  {size / 1e6:.1f} MB, {leaves:,} leaves in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return Export(directory, posts, users, size, leaves)


def posts_for_mb(workdir, megabytes, users, seed):
    """Posts that make an export of about `megabytes` MB (measured on a small export)."""
    sample = export_for(workdir, 10_000, users, seed)
    users_bytes = users * 60
    per_post = (sample.size - users_bytes) / sample.posts
    return max(1_000, round((megabytes * 1e6 - users_bytes) / per_post / 1000) * 1000)


def latency(port, params, requests, warmups, timeout):
    """(median ms, p90 ms, children in the answer) of a GET of /posts as the signed-in client,
    over one kept-alive connection."""
    path = target("/posts.json", params)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    times, count = [], 0
    try:
        for i in range(warmups + requests):
            started = time.perf_counter()
            conn.request("GET", path, headers={"Authorization": f"Bearer {TOKEN}"})
            response = conn.getresponse()
            body = response.read()
            elapsed = (time.perf_counter() - started) * 1000
            if response.status != 200:
                raise RuntimeError(f"GET {path}: {response.status} {body[:300]!r}")
            if i >= warmups:
                times.append(elapsed)
            count = len(json.loads(body) or {})
    finally:
        conn.close()
    p90 = statistics.quantiles(times, n=10, method="inclusive")[-1] if len(times) > 1 else times[0]
    return statistics.median(times), p90, count


class EventStream:
    """One streaming listen over a raw connection: the response head, then server-sent events
    (the body may be chunked)."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.raw, self.body, self.chunked = b"", b"", False

    async def _read(self):
        chunk = await self.reader.read(65536)
        if not chunk:
            raise RuntimeError("the server closed the stream")
        self.raw += chunk

    async def head(self):
        while b"\r\n\r\n" not in self.raw:
            await self._read()
        head, self.raw = self.raw.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
        self.chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        self._decode()
        return status

    def _decode(self):
        if not self.chunked:
            self.body += self.raw
            self.raw = b""
            return
        while True:
            end = self.raw.find(b"\r\n")
            if end < 0:
                return
            size = int(self.raw[:end].split(b";")[0], 16)
            if len(self.raw) < end + 2 + size + 2:
                return
            self.body += self.raw[end + 2:end + 2 + size]
            self.raw = self.raw[end + 4 + size:]

    async def error_body(self):
        try:
            await asyncio.wait_for(self._read(), 2)
        except (asyncio.TimeoutError, RuntimeError):
            pass
        self._decode()
        return self.body[:300].decode(errors="replace")

    async def event(self):
        while b"\n\n" not in self.body:
            await self._read()
            self._decode()
        text, self.body = self.body.split(b"\n\n", 1)
        return text

    async def until(self, marker):
        while True:
            if marker in await self.event():
                return


async def open_streams(port, listeners, timeout):
    """Opens the query listens; returns the streams once each has its first event, or raises
    with the server's answer when a listen is refused."""
    head = (f"GET {target('/posts.json', TOP10)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            f"Authorization: Bearer {TOKEN}\r\n\r\n").encode()
    streams = []
    try:
        for _ in range(listeners):
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
            writer.write(head)
            streams.append(EventStream(reader, writer))
        answered = []

        async def head(stream):
            status = await stream.head()
            answered.append(status)
            return status

        try:
            statuses = await asyncio.wait_for(asyncio.gather(*(head(s) for s in streams)), timeout)
        except asyncio.TimeoutError:
            raise RuntimeError(f"only {len(answered)} of {listeners} streaming query listens answered within "
                               f"{timeout:.0f} s (--timeout; fewer --listeners?)") from None
        refused = [(i, st) for i, st in enumerate(statuses) if st != 200]
        if refused:
            i, status = refused[0]
            detail = await streams[i].error_body()
            raise ListenRefused(f"{len(refused)} of {listeners} streaming query listens refused: {status} {detail}")
        try:
            await asyncio.wait_for(asyncio.gather(*(s.event() for s in streams)), timeout)
        except asyncio.TimeoutError:
            raise RuntimeError(f"the {listeners} streaming query listens did not all get their first event "
                               f"within {timeout:.0f} s (--timeout)") from None
        return streams
    except BaseException:
        for s in streams:
            s.writer.close()
        raise


class ListenRefused(Exception):
    pass


def put_star(port, post_id, count, timeout):
    """The write: the post's starCount, as the signed-in client; returns its latency in ms."""
    started = time.perf_counter()
    status, body = call(port, "PUT", target(f"/posts/{post_id}/starCount.json", {"print": "silent"}), count, TOKEN, timeout)
    if status not in (200, 204):
        raise RuntimeError(f"PUT /posts/{post_id}/starCount: {status} {body[:300]!r}")
    return (time.perf_counter() - started) * 1000


def choose_write(port, timeout):
    """A post outside the top 10 by starCount, and a count that takes it to the top."""
    status, body = call(port, "GET", target("/posts.json", TOP10), timeout=timeout)
    top = json.loads(body)
    status, body = call(port, "GET", target("/posts.json", {"orderBy": '"$key"', "limitToFirst": "20"}), timeout=timeout)
    candidates = [k for k in json.loads(body) if k not in top]
    return candidates[0], max(v["starCount"] for v in top.values()) + 1


async def stream_fan_out(server, listeners, timeout):
    """(ms from the PUT to the last listener's event, the PUT's ms, delivered, RSS MB with the listeners)."""
    streams = await open_streams(server.port, listeners, timeout)
    try:
        rss, _ = server.memory()
        post_id, count = choose_write(server.port, timeout)
        done = []

        async def one(stream):
            await stream.until(post_id.encode())
            done.append(time.perf_counter())

        waiters = [asyncio.create_task(one(s)) for s in streams]
        put_ms, last_ms = await timed_write(server, post_id, count, waiters, done, timeout)
        return last_ms, put_ms, len(done), rss
    finally:
        for s in streams:
            s.writer.close()


async def timed_write(server, post_id, count, waiters, done, timeout):
    """Makes the write that moves `post_id` into the top 10 and waits until every waiter has seen
    it (each appends its arrival time to `done`); returns the PUT's own latency and the time to
    the last arrival, in ms."""
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    put_ms = await loop.run_in_executor(None, put_star, server.port, post_id, count, timeout)
    try:
        await asyncio.wait_for(asyncio.gather(*waiters), timeout)
    except asyncio.TimeoutError:
        raise RuntimeError(f"{len(done)} of {len(waiters)} query listeners got the write within {timeout:.0f} s "
                           "(--timeout)") from None
    return put_ms, (max(done) - started) * 1000


async def websocket_fan_out(server, listeners, timeout):
    """The same with WebSocket query listens (the SDKs' protocol)."""
    import websockets
    clients = []
    query = {"i": "starCount", "l": 10, "vf": "r"}
    try:
        for _ in range(listeners):
            ws = await asyncio.wait_for(websockets.connect(f"ws://127.0.0.1:{server.port}/.ws?v=5&ns={NS}", max_size=None), timeout)
            clients.append(ws)
            await ws.recv()
            await ws.send(json.dumps({"t": "d", "d": {"r": 1, "a": "auth", "b": {"cred": TOKEN}}}))
            await ws.send(json.dumps({"t": "d", "d": {"r": 2, "a": "q", "b": {"p": "/posts", "h": "", "q": query, "t": 1}}}))

        async def until_ok(ws):
            while True:
                message = json.loads(await ws.recv())
                d = message.get("d", {})
                if d.get("r") == 2:
                    if d["b"].get("s") != "ok":
                        raise ListenRefused(f"WebSocket query listen refused: {d['b']}")
                    return

        await asyncio.wait_for(asyncio.gather(*(until_ok(ws) for ws in clients)), timeout)
        rss, _ = server.memory()
        post_id, count = choose_write(server.port, timeout)
        done = []

        async def until_push(ws):
            while True:
                if post_id in await ws.recv():
                    done.append(time.perf_counter())
                    return

        waiters = [asyncio.create_task(until_push(ws)) for ws in clients]
        put_ms, last_ms = await timed_write(server, post_id, count, waiters, done, timeout)
        return last_ms, put_ms, len(done), rss
    finally:
        for ws in clients:
            await ws.close()


class Figures:
    """Measured figures in order: key -> (label, value, unit)."""

    def __init__(self):
        self.items = {}
        self.notes = []

    def add(self, key, label, value, unit):
        self.items[key] = (label, value, unit)


def fmt(value, unit):
    if value is None:
        return "–"
    if isinstance(value, str):
        return value
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "ms":
        return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"
    if unit == "MB":
        return f"{value:,.0f} MB" if value >= 100 else f"{value:.1f} MB"
    if unit == "B":
        return f"{value:,.0f} B"
    if unit == "x":
        return f"{value:.2f}×"
    return f"{value:,.0f}{' ' + unit if unit else ''}"


def measure_build(binary, args, main_export, scaling_exports, size_exports):
    """Every figure for one build."""
    f = Figures()
    timeout = args.timeout
    with Server(binary, None, args.start_timeout) as empty:
        empty_rss, _ = empty.memory()
        f.add("empty-ready", "start to ready, no data", empty.ready, "s")
        f.add("empty-rss", "RSS, no data", empty_rss, "MB")

    e = main_export
    with Server(binary, e.directory, args.start_timeout, listeners=args.listeners) as server:
        rss, hwm = server.memory()
        f.add("ready", f"start to ready after `--import` ({e.size / 1e6:.0f} MB)", server.ready, "s")
        f.add("rss", "RSS after the import (VmRSS)", rss, "MB")
        f.add("hwm", "peak RSS during the import (VmHWM)", hwm, "MB")
        f.add("per-leaf", f"bytes per leaf: (RSS − RSS with no data) / {e.leaves:,} leaves", (rss - empty_rss) * 1048576 / e.leaves, "B")
        f.add("ratio", "(RSS − RSS with no data) / JSON size", (rss - empty_rss) * 1048576 / e.size, "x")
        for i, (text, params) in enumerate(QUERIES):
            median, p90, count = latency(server.port, params, args.requests, args.warmups, timeout)
            f.add(f"q{i}", f"`{text}` ({count} children), median", median, "ms")
            f.add(f"q{i}-p90", f"`{text}`, p90", p90, "ms")
        if args.listeners:
            how = "streaming"
            try:
                if args.websocket:
                    raise ListenRefused("")
                result = asyncio.run(stream_fan_out(server, args.listeners, timeout))
            except RuntimeError as failure:
                # A build too slow for the fan-out: the other figures still count.
                f.notes.append(f"{binary}: fan-out not measured: {failure}")
                result = None
            except ListenRefused as refusal:
                if str(refusal):
                    f.notes.append(str(refusal) + "; measured with WebSocket query listens instead")
                how = "WebSocket"
                try:
                    result = asyncio.run(websocket_fan_out(server, args.listeners, timeout))
                except ImportError:
                    f.notes.append("no `websockets` package for the WebSocket fallback: run with .venv-e2e/bin/python")
                    result = None
            if result:
                ms, put_ms, delivered, with_rss = result
                n = args.listeners
                f.add("fan-out", f"PUT into the top 10 → the event at all {n:,} {how} query listeners ({delivered:,} delivered)", ms, "ms")
                f.add("fan-put", f"that PUT's own latency, under {n:,} query listeners", put_ms, "ms")
                f.add("fan-rss", f"RSS with {n:,} query listeners open", with_rss, "MB")

    for e in size_exports:
        with Server(binary, e.directory, args.start_timeout) as server:
            rss, hwm = server.memory()
            mb = f"{e.size / 1e6:.0f} MB ({e.posts:,} posts, {e.leaves:,} leaves)"
            f.add(f"size-{e.posts}-ready", f"{mb}: start to ready", server.ready, "s")
            f.add(f"size-{e.posts}-hwm", f"{mb}: peak RSS (VmHWM)", hwm, "MB")
            f.add(f"size-{e.posts}-rss", f"{mb}: RSS after the import", rss, "MB")

    for e in scaling_exports:
        with Server(binary, e.directory, args.start_timeout) as server:
            median, p90, count = latency(server.port, TOP10, args.requests, args.warmups, timeout)
            f.add(f"scale-{e.posts}", f"`orderBy=\"starCount\"&limitToLast=10` at {e.posts:,} posts, median", median, "ms")
            f.add(f"scale-{e.posts}-p90", f"`orderBy=\"starCount\"&limitToLast=10` at {e.posts:,} posts, p90", p90, "ms")
    return f


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"), help="the build directory holding `rules`")
    parser.add_argument("--posts", type=int, default=200_000, help="posts in the main export (default 200000)")
    parser.add_argument("--users", type=int, default=5_000, help="users in every export (default 5000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--requests", type=int, default=20, help="timed requests per query (default 20)")
    parser.add_argument("--warmups", type=int, default=2, help="untimed requests before them (default 2)")
    parser.add_argument("--listeners", type=int, default=1000, help="query listeners for the fan-out (0: skip it)")
    parser.add_argument("--websocket", action="store_true", help="fan-out to WebSocket query listens (the SDKs' protocol) "
                        "instead of streaming ones")
    parser.add_argument("--scaling", action="store_true", help="the top-10 query at 10^4, 10^5 and 10^6 posts")
    parser.add_argument("--scaling-posts", default=None, metavar="N,N,...", help="other sizes for --scaling")
    parser.add_argument("--big", action="store_true", help="also import a 300 MB export (slow)")
    parser.add_argument("--sizes-mb", default=None, metavar="MB,...", help="the import sizes measured (default 30, with --big 30,300; 0: none)")
    parser.add_argument("--workdir", metavar="DIR", help="where exports are generated and kept (default: a temporary directory)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds for each request or fan-out (default 120)")
    parser.add_argument("--start-timeout", type=float, default=1800.0, help="seconds a server may take to be ready (default 1800)")
    parser.add_argument("--versus", metavar="DIR", help="another build's directory: every figure for both builds, alternating")
    parser.add_argument("--rounds", type=int, default=3, help="with --versus: rounds of both builds (median reported)")
    args = parser.parse_args()
    raise_fd_limit()
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(130))
    atexit.register(stop_all)

    temporary = None
    if args.workdir:
        os.makedirs(args.workdir, exist_ok=True)
        workdir = args.workdir
    else:
        temporary = tempfile.TemporaryDirectory(prefix="data-bench-")
        workdir = temporary.name
    try:
        main_export = export_for(workdir, args.posts, args.users, args.seed)
        if args.sizes_mb is not None:
            sizes = [float(s) for s in args.sizes_mb.split(",") if float(s) > 0]
        else:
            sizes = [30, 300] if args.big else [30]
        size_exports = [export_for(workdir, posts_for_mb(workdir, mb, args.users, args.seed), args.users, args.seed) for mb in sizes]
        scaling = [int(s) for s in args.scaling_posts.split(",")] if args.scaling_posts else SCALING_POSTS
        scaling_exports = [export_for(workdir, n, args.users, args.seed) for n in scaling] if args.scaling else []

        after_bin = os.path.join(args.bin, "rules")
        builds = [("before", os.path.join(args.versus, "rules")), ("after", after_bin)] if args.versus else [("this", after_bin)]
        rounds = args.rounds if args.versus else 1
        runs = {name: [] for name, _ in builds}
        for r in range(rounds):
            for name, binary in builds:
                print(f"round {r + 1}/{rounds}: {binary}", file=sys.stderr, flush=True)
                runs[name].append(measure_build(binary, args, main_export, scaling_exports, size_exports))
    except RuntimeError as error:
        print(f"data_bench.py: {error}", file=sys.stderr)
        return 1
    finally:
        stop_all()
        if temporary:
            temporary.cleanup()

    print(f"`{shlex.join(['python3', 'Benchmarks/data_bench.py'] + sys.argv[1:])}`\n")
    print(f"Main export: {main_export.describe()}; rules {os.path.relpath(RULES, ROOT)}; "
          f"queries as a signed-in client (mock token), {args.requests} requests after {args.warmups} warm-ups, "
          f"one connection; server and client on the same {os.cpu_count()} cores.\n")
    first = runs[builds[0][0]][0]
    keys = list(first.items)
    if args.versus:
        print(f"{rounds} alternating rounds (median); before: {builds[0][1]}, after: {builds[1][1]}\n")
        print("| measure | before | after | after / before |\n| --- | --- | --- | --- |")
        for key in keys:
            label, _, unit = first.items[key]
            medians = []
            for name, _ in builds:
                values = [run.items[key][1] for run in runs[name] if key in run.items]
                medians.append(statistics.median(values) if values else None)
            b, a = medians
            ratio = f"{a / b:.2f}" if a is not None and b else "–"
            print(f"| {label} | {fmt(b, unit)} | {fmt(a, unit)} | {ratio} |")
    else:
        print("| measure | figure |\n| --- | --- |")
        for key in keys:
            label, value, unit = first.items[key]
            print(f"| {label} | {fmt(value, unit)} |")
    notes = {note for run in runs.values() for f in run for note in f.notes}
    if notes:
        print()
        for note in sorted(notes):
            print(f"- {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
