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


def raw_http(port, data, read=True, timeout=30, half_close=True):
    """Sends bytes on a new connection, half-closes it (unless told not to), and returns what the
    server answers."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        if half_close:
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
    truncated = raw_http(port, b'PUT /t.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"a": 1')
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
    many = b"GET /keep.json HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(20_000)) + b"\r\n"
    assert status_of(raw_http(port, many)) in (None, 400, 431)
    huge = b"GET /keep.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"y" * (4 * MB) + b"\r\n\r\n"
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
    sse.sendall(b"GET /big.json HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
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
    # Without the cap, the server would hold about 100 MB per listener (200 MB for the two);
    # with it, at most its 16 MB queue each, plus the data, what the kernel buffers, and what
    # malloc keeps of the freed 1 MB values and bodies (between 90 and 125 MB measured).
    assert peak - baseline < 150 * MB, f"RSS grew by {(peak - baseline) / MB:.0f} MB"
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


def raw_exchange(port, head, timeout=10):
    """Sends a request head (with Connection: close) and returns the whole answer."""
    return raw_http(port, head, timeout=timeout, half_close=False)


def test_a_host_name_that_is_not_loopback_or_allowed_is_refused_on_every_door(serve):
    server = serve(OPEN, ["--allow-host", "dev.lan"])
    seed(server)
    for host, allowed in [("evil.example", False), (f"evil.example:{server.port}", False), ("localhost.evil.example", False),
                          ("dev.lan", True), (f"localhost:{server.port}", True), ("app.localhost", True),
                          ("10.0.2.2:9000", True), ("[::1]", True)]:
        r = server.rest("GET", "/keep.json", headers={"Host": host})
        assert r.status_code == (200 if allowed else 403), (host, r.status_code, r.text)
        if not allowed:
            assert "--allow-host" in r.json()["error"]
    stream = raw_exchange(server.port, b"GET /keep.json HTTP/1.1\r\nHost: evil.example\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n")
    assert status_of(stream) == 403, stream[:200]
    upgrade = raw_exchange(server.port, b"GET /.ws?v=5&ns=default HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    assert status_of(upgrade) == 403, upgrade[:200]


def test_the_administrator_is_refused_from_pages_not_on_this_machine(serve):
    server = serve({"rules": {".read": True, "public": {".write": True}}})
    evil = {"Origin": "https://evil.example"}
    r = server.rest("PUT", "/x.json", 1, token="owner", headers=evil)
    assert r.status_code == 401 and "Administrator credentials" in r.json()["error"], r.text
    assert server.rest("GET", "/x.json", headers=evil, auth="owner").status_code == 401
    assert server.rest("GET", "/x.json", headers={"Sec-Fetch-Site": "cross-site"}, access_token="owner").status_code == 401
    # The settings door too: a foreign page cannot replace the rules.
    r = server.rest("PUT", "/.settings/rules.json", raw='{"rules": {".read": true, ".write": true}}', token="owner", headers=evil)
    assert r.status_code == 401, r.text
    assert server.rest("PUT", "/y.json", 1).status_code == 401  # the rules are unchanged
    # From a page on this machine (browser-based rules-unit-testing), and without a page, owner works.
    assert server.rest("PUT", "/x.json", 2, token="owner", headers={"Origin": "http://localhost:9876"}).status_code == 200
    assert server.rest("PUT", "/x.json", 3, token="owner", headers={"Origin": "http://127.0.0.1:5173"}).status_code == 200
    assert server.rest("PUT", "/x.json", 4, token="owner").status_code == 200
    # Anyone from any page may do what the rules allow, and read the answer.
    r = server.rest("PUT", "/public/a.json", 5, headers={"Origin": "http://192.168.1.20:3000"})
    assert r.status_code == 200
    assert r.headers["Access-Control-Allow-Origin"] == "http://192.168.1.20:3000" and "Origin" in r.headers["Vary"]
    assert r.headers["Access-Control-Expose-Headers"] == "ETag, X-Rules-Explanation"

    # WebSocket: the upgrade's Origin decides whether auth with owner is accepted.
    def auth(origin):
        with connect(f"ws://127.0.0.1:{server.port}/.ws?v=5&ns=default", origin=origin) as ws:
            ws.recv(timeout=5)
            ws.send(json.dumps({"t": "d", "d": {"r": 1, "a": "auth", "b": {"cred": "owner"}}}))
            while True:
                message = json.loads(ws.recv(timeout=5))
                if message.get("t") == "d" and message["d"].get("r") == 1:
                    return message["d"]["b"]
    refused = auth("https://evil.example")
    assert refused["s"] == "invalid_token" and "Administrator credentials" in refused["d"], refused
    assert auth("http://localhost:9876")["s"] == "ok"
    assert auth(None)["s"] == "ok"


def test_every_answer_exposes_etag_and_the_explanation_to_pages(serve):
    server = serve({"rules": {".read": True, "a": {".write": "newData.val() === 1"}}})
    origin = {"Origin": "http://localhost:3000"}
    denied = server.rest("PUT", "/a.json", 2, headers=origin)
    assert denied.status_code == 401 and denied.headers["X-Rules-Explanation"]
    for r in (denied, server.rest("GET", "/a.json", headers=origin), server.rest("GET", "/nope"),
              server.rest("OPTIONS", "/a.json", headers=origin)):
        assert r.headers["Access-Control-Expose-Headers"] == "ETag, X-Rules-Explanation", (r.status_code, r.headers)
    assert denied.headers["Access-Control-Allow-Origin"] == "http://localhost:3000"
    assert server.rest("GET", "/a.json").headers["Access-Control-Allow-Origin"] == "*"
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"GET /a.json HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nOrigin: http://localhost:3000\r\n\r\n")
        stream = b""
        while b"\r\n\r\n" not in stream:
            chunk = s.recv(65536)
            if not chunk:
                break
            stream += chunk
    head = stream.split(b"\r\n\r\n")[0].decode()
    assert "Access-Control-Allow-Origin: http://localhost:3000" in head and "Access-Control-Expose-Headers: ETag, X-Rules-Explanation" in head, head


def test_bodies_over_the_in_flight_budget_get_503_and_are_not_buffered(serve):
    server = serve(OPEN)
    seed(server)
    # Two clients announce 250 MB bodies (500 MB of the 512 MB budget) and send them slowly.
    holders = []
    for i in range(2):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        s.sendall(b"PUT /big%d.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n\"" % (i, 250 * MB))
        holders.append(s)
    try:
        time.sleep(1)  # both are reserved once the server has read their heads
        answer = raw_exchange(server.port, b"PUT /third.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n\"x" % (250 * MB),
                              timeout=3)
        assert status_of(answer) == 503, answer[:300]
        assert b"Retry-After:" in answer and b"too many request bodies" in answer, answer[:400]
        # Small writes still go through, and memory did not grow by the announced bodies.
        assert server.rest("PUT", "/small.json", {"ok": True}).status_code == 200
        assert rss_bytes(server.proc.pid) < 400 * MB
    finally:
        for s in holders:
            s.close()
    assert intact(server)


def test_an_oversized_request_head_gets_431():
    server = Server(OPEN)
    try:
        huge = b"GET /keep.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"y" * (4 * MB) + b"\r\n\r\n"
        answer = raw_http(server.port, huge)
        assert status_of(answer) == 431, answer[:200]
        many = b"GET /keep.json HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(20_000)) + b"\r\n"
        assert status_of(raw_http(server.port, many)) == 431
        assert server.proc.poll() is None
    finally:
        server.stop()


def test_a_slow_request_head_is_closed_at_the_header_deadline_whatever_the_idle_timeout():
    server = Server(OPEN, ["--header-timeout", "1", "--idle-timeout", "600"])
    try:
        started = time.time()
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as slow, \
                socket.create_connection(("127.0.0.1", server.port), timeout=20) as silent:
            slow.sendall(b"GET /keep.json HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            assert slow.recv(100) == b""
            assert silent.recv(100) == b""
        assert time.time() - started < 15
        # A kept-alive connection between requests waits for the idle timeout, not the deadline;
        # a later request's head must still arrive within the deadline.
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as kept:
            kept.sendall(b"GET /keep.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert b"200 OK" in kept.recv(65536)
            time.sleep(2)
            kept.sendall(b"GET /keep.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert b"200 OK" in kept.recv(65536)
            kept.sendall(b"GET /keep.json HTTP/1.1\r\n")
            assert kept.recv(100) == b""
    finally:
        server.stop()


def test_silent_connections_at_the_connection_limit_do_not_keep_a_normal_client_waiting():
    server = Server(OPEN, ["--max-connections", "100"])
    try:
        seed(server)
        sockets = []
        for _ in range(300):
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", server.port))
            sockets.append(s)
        started = time.time()
        assert server.rest("GET", "/keep.json").json() == {"safe": True, "n": 1}
        assert time.time() - started < 8
        for s in sockets:
            s.close()
    finally:
        server.stop()


def test_invalid_utf8_in_a_websocket_text_frame_closes_with_1007(serve):
    server = serve(OPEN)
    with connect(f"ws://127.0.0.1:{server.port}/.ws?v=5&ns=default") as ws:
        ws.recv(timeout=5)
        ws.socket.sendall(bytes([0x81, 0x84, 0, 0, 0, 0]) + b"\xff\xfe\xfd\xfc")
        try:
            while True:
                ws.recv(timeout=5)
        except Exception:  # noqa: BLE001 - closed, as expected
            pass
        assert ws.close_code == 1007, ws.close_code
    assert wait_for(lambda: any("closing the connection" in line and "UTF-8" in line for line in server.log)), server.log[-5:]
    assert server.proc.poll() is None
