"""Hostile and careless clients over HTTP and WebSocket: each gets an error (or its connection
closed), the server's memory stays bounded, other clients go on, and no data is lost."""
import contextlib
import json
import os
import resource
import select
import socket
import time

from websockets.sync.client import connect

from conftest import Server, wait_for
from wire import Wire

OPEN = {"rules": {".read": True, ".write": True}}
MB = 1024 * 1024


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def raw_http(port, data, read=True, timeout=30):
    """Sends bytes on a new connection, half-closes it, and returns what the server answers."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        chunks = []
        while read:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def status_of(response):
    return int(response.split(b" ", 2)[1]) if response.startswith(b"HTTP/1.1 ") else None


def seed(server):
    assert server.rest("PUT", "/keep.json", {"safe": True, "n": 1}).status_code == 200


def intact(server):
    return server.rest("GET", "/keep.json").json() == {"safe": True, "n": 1}


def test_hostile_http_requests_get_errors_and_lose_nothing(serve):
    server = serve(OPEN)
    seed(server)
    port = server.port

    # A body shorter than its Content-Length, then the client stops sending.
    truncated = raw_http(port, b'PUT /t.json HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"a": 1')
    assert status_of(truncated) in (None, 400), truncated[:200]
    assert server.rest("GET", "/t.json").json() is None

    # Invalid UTF-8 in a string.
    r = server.rest("PUT", "/u.json", raw=b'"\xff\xfe"')
    assert r.status_code == 400 and "error" in r.json(), r.text

    # 100,000 nested arrays.
    r = server.rest("PUT", "/n.json", raw="[" * 100_000 + "]" * 100_000)
    assert r.status_code == 400 and ("nesting deeper than" in r.json()["error"] or "too deep" in r.json()["error"]), r.text

    # 10^6 keys in one PATCH.
    body = "{" + ",".join(f'"{i}":0' for i in range(1_000_000)) + "}"
    r = server.rest("PATCH", "/many.json", raw=body)
    assert r.status_code == 400 and "paths" in r.json()["error"], r.text[:300]
    assert server.rest("GET", "/many.json", shallow="true").json() is None

    # A path of 10,000 segments, to read and to write.
    deep = "/".join(["a"] * 10_000)
    for method in ("GET", "PUT"):
        r = server.rest(method, f"/{deep}.json", body=1)
        assert r.status_code == 400 and r.json()["error"] == "Invalid path: Invalid token in path", r.text[:300]
        assert "is too deep" in r.headers["X-Rules-Explanation"], r.headers

    # Header floods: too many headers, and one huge header.
    many = b"GET /keep.json HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(20_000)) + b"\r\n"
    assert status_of(raw_http(port, many)) in (None, 400, 431)
    huge = b"GET /keep.json HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * (4 * MB) + b"\r\n\r\n"
    assert status_of(raw_http(port, huge)) in (None, 400, 431)

    # Garbage instead of HTTP.
    assert status_of(raw_http(port, os.urandom(4096).replace(b"\n", b"."))) in (None, 400)

    assert intact(server)
    assert server.proc.poll() is None


def test_hostile_websocket_messages_close_that_connection_and_lose_nothing(serve):
    server = serve(OPEN)
    seed(server)
    ns = "default"

    def fresh():
        return Wire(server.port, ns=ns)

    # A message announced in 5 pieces of which only 2 arrive, then the client goes away.
    w = fresh()
    w.send_raw("5")
    w.send_raw('{"t":"d","d":{"r":1,"a":"p","b":{"p":"/half",')
    w.send_raw('"d":1}}}')
    w.close()

    # Invalid UTF-8 in a text frame: the WebSocket layer closes the connection.
    with connect(f"ws://127.0.0.1:{server.port}/.ws?v=5&ns={ns}") as ws:
        ws.recv(timeout=5)
        ws.socket.sendall(bytes([0x81, 0x84, 0, 0, 0, 0]) + b"\xff\xfe\xfd\xfc")
        try:
            while True:
                ws.recv(timeout=5)
        except Exception:  # noqa: BLE001 - closed, as expected
            pass

    # 100,000 nested arrays as a value.
    w = fresh()
    status, data = w.request("p", {"p": "/n", "d": None}, timeout=10)
    w.send_raw('{"t":"d","d":{"r":99,"a":"p","b":{"p":"/n","d":' + "[" * 100_000 + "]" * 100_000 + "}}}")
    assert w.wait_closed(timeout=20) or w.reply(99, timeout=10)["s"] != "ok"
    w.ws.close()

    # 10^6 keys in one merge.
    w = fresh()
    merge = "{" + ",".join(f'"{i}":0' for i in range(1_000_000)) + "}"
    w.send_raw('{"t":"d","d":{"r":1,"a":"m","b":{"p":"/many","d":' + merge + "}}}")
    reply = w.reply(1, timeout=60)
    assert reply["s"] != "ok" and "paths" in reply["d"], reply
    w.close()

    # A path of 10,000 segments.
    w = fresh()
    status, data = w.request("p", {"p": "/" + "/".join(["a"] * 10_000), "d": 1}, timeout=20)
    assert status == "invalid_data" and data == "Invalid path: Invalid token in path", (status, data)
    w.close()

    assert intact(server)
    assert server.rest("GET", "/many.json", shallow="true").json() is None
    assert server.proc.poll() is None


def test_a_listener_that_reads_nothing_is_cut_off_and_memory_stays_bounded(serve):
    server = serve(OPEN)
    seed(server)
    pid = server.proc.pid
    # An SSE listener that never reads, with a small receive buffer.
    sse = socket.socket()
    sse.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sse.connect(("127.0.0.1", server.port))
    sse.sendall(b"GET /big.json HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    # A WebSocket client that listens and never reads (its library stops reading once a few
    # messages wait).
    ws = contextlib.ExitStack()
    listener = ws.enter_context(connect(f"ws://127.0.0.1:{server.port}/.ws?v=5&ns=default", max_queue=1, max_size=None))
    listener.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    listener.send(json.dumps({"t": "d", "d": {"r": 1, "a": "q", "b": {"p": "/big", "h": ""}}}))
    time.sleep(0.5)
    baseline = rss_bytes(pid)
    peak = baseline
    value = "x" * MB
    for i in range(100):  # 100 MB written where both listen, each write replacing the last
        r = server.rest("PUT", "/big.json", raw=json.dumps(f"{i}:{value}"))
        assert r.status_code == 200
        peak = max(peak, rss_bytes(pid))
    # Both were cut off: the server closed their connections.
    sse.setblocking(False)
    closed = False
    deadline = time.time() + 10
    while time.time() < deadline and not closed:
        ready, _, _ = select.select([sse], [], [], 0.5)
        if ready:
            try:
                closed = sse.recv(MB) == b""
            except ConnectionResetError:
                closed = True
    assert closed, "the streaming listener was not cut off"
    assert wait_for(lambda: any("reads too slowly" in line for line in server.log), timeout=10)
    sse.close()
    ws.close()
    # Without the cap, the server would hold about 100 MB per listener; with it, at most its
    # 16 MB queue each, plus the data and what the kernel buffers.
    assert peak - baseline < 120 * MB, f"RSS grew by {(peak - baseline) / MB:.0f} MB"
    assert intact(server)
    assert server.rest("GET", "/big.json").json().startswith("99:")


def test_a_client_that_opens_ten_thousand_silent_connections_is_shed():
    # This process holds the client ends, the server the others: each needs 10,000 descriptors.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    count = min(10_000, hard - 500)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 500), hard))
    server = Server(OPEN, ["--idle-timeout", "2", "--max-connections", str(count + 100)])
    try:
        seed(server)
        baseline = rss_bytes(server.proc.pid)
        sockets = []
        for _ in range(count):
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", server.port))
            sockets.append(s)
        peak = rss_bytes(server.proc.pid)
        # The silent ones are closed after the idle timeout, and a normal client is served.
        assert wait_for(lambda: intact(server), timeout=30)
        # All are closed within about 10 s here; the bound is generous for a loaded machine.
        closed = 0
        deadline = time.time() + 120
        pending = list(sockets)
        while pending and time.time() < deadline:
            _, _, _ = select.select([], [], [], 0.2)
            still = []
            for s in pending:
                try:
                    if s.recv(1) == b"":
                        closed += 1
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    closed += 1
                    continue
                still.append(s)
            pending = still
            peak = max(peak, rss_bytes(server.proc.pid))
        for s in sockets:
            s.close()
        assert count >= 5_000, f"only {count} descriptors are available for the test"
        assert closed >= count * 0.95, f"only {closed} of {count} silent connections were closed"
        assert peak - baseline < 200 * MB
        assert server.rest("GET", "/keep.json").status_code == 200
    finally:
        server.stop()
