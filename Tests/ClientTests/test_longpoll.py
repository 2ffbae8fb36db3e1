"""The long-polling transport (`/.lp`) that the JavaScript SDK uses in a browser after a failed
WebSocket or with `forceLongPolling()`, played by a client written from the protocol reference
(`longpoll.py`): the script answers, segments, held polls and packet numbers, the same data layer
as WebSocket (listen, set, push, transaction, onDisconnect), the upgrade to WebSocket with writes
in flight, and what happens when the server restarts or the client goes away."""
import base64
import json
import re
import socket
import threading
import time

import pytest
import requests

from conftest import Server, mock_token, wait_for
from longpoll import LongPoll, encode
from wire import Wire, node_hash

SIGNED_IN = {".read": "auth != null", ".write": "auth != null"}
RULES = {"rules": {
    "$other": SIGNED_IN,
    "open": {".read": True, ".write": True},
    "secret": {".read": False, ".write": False},
}}
OPEN = {"rules": {".read": True, ".write": True}}
ALICE = mock_token({"sub": "alice"})


def signed_in(client, token=ALICE):
    status, data = client.request("auth", {"cred": token})
    assert status == "ok", data
    return data


def test_the_start_answer_is_a_script_with_the_helpers_the_id_and_the_handshake(serve):
    server = serve(RULES)
    r = requests.get(f"{server.url}/.lp?start=t&ser=19947172&cb=12&v=5&p=1:1234567890:web:abcdef&ns=demo", timeout=5)
    assert r.status_code == 200
    assert r.headers["Content-Type"] == "application/javascript; charset=utf-8"
    assert r.headers["Cache-Control"] == "no-cache" and r.headers["X-Content-Type-Options"] == "nosniff"
    lines = r.text.splitlines()
    assert lines[0] == 'function pLPCommand(c,a1,a2,a3,a4){var f=parent.window["pLPCommand12"];if(f)f(c,a1,a2,a3,a4);}'
    assert lines[1] == 'function pRTLPCB(pN,data){var f=parent.window["pRTLPCB12"];if(f)f(pN,data);}'
    start = re.fullmatch(r"pLPCommand\('start','(\d+)','([A-Za-z0-9]+)'\);", lines[2])
    assert start, lines[2]
    packet = re.fullmatch(r"pRTLPCB\(0,(.*)\);", lines[3])
    hello = json.loads(packet.group(1))
    assert len(hello) == 1 and hello[0]["t"] == "c" and hello[0]["d"]["t"] == "h"
    h = hello[0]["d"]["d"]
    assert h["v"] == "5" and h["h"] == f"127.0.0.1:{server.port}" and abs(h["ts"] - time.time() * 1000) < 60_000
    # The session id is not guessable: a page cannot attach an upgrade socket to another's session.
    assert re.fullmatch(r"rules-serve-\d+-[A-Za-z0-9]{12}", h["s"]), h["s"]
    # The callback name goes into the script: digits only.
    bad = requests.get(f"{server.url}/.lp?start=t&ser=1&cb=1%22);alert(1);//&v=5&ns=demo", timeout=5)
    assert bad.status_code == 400 and "alert" not in bad.text
    assert requests.post(f"{server.url}/.lp?start=t&cb=1", timeout=5).status_code == 405


def test_connect_listen_set_get_and_a_write_from_another_client(serve):
    server = serve(RULES)
    lp = LongPoll(server.port)
    assert lp.request("s", {"c": {"sdk.js.12-18-0": 1}}) == ("ok", {})
    assert lp.request("q", {"p": "/rooms/r1", "h": ""}) == ("permission_denied", "Permission denied")
    auth = signed_in(lp)
    assert auth["auth"]["uid"] == "alice"
    assert lp.request("q", {"p": "/rooms/r1", "h": ""}) == ("ok", {})
    assert lp.request("p", {"p": "/rooms/r1/title", "d": "hello"}) == ("ok", {})
    assert lp.value_at("/rooms/r1") == {"title": "hello"}
    # A write's events reach the client before its `ok`, as on WebSocket.
    i = lp.arrivals.index(("reply", 4))
    assert ("push", "d") in lp.arrivals[:i]
    other = Wire(server.port)
    signed_in(other, mock_token({"sub": "bob"}))
    assert other.request("p", {"p": "/rooms/r1/by", "d": "bob"})[0] == "ok"
    assert wait_for(lambda: lp.value_at("/rooms/r1") == {"title": "hello", "by": "bob"})
    assert lp.request("g", {"p": "/rooms", "q": {}}) == ("ok", {"r1": {"title": "hello", "by": "bob"}})
    assert lp.request("p", {"p": "/secret/x", "d": 1})[0] == "permission_denied"
    # Packet numbers ran 0, 1, 2… without a gap, each processed once.
    assert lp.packet_log == list(range(len(lp.packet_log)))
    # Each request is logged with the transport that carried it.
    logged = [entry for entry in server.requests_logged() if entry.get("method") == "p"]
    assert {entry["transport"] for entry in logged} == {"lp", "ws"}
    lp.close()
    other.close()


def test_push_fan_out_update_and_a_transaction_with_a_stale_retry(serve):
    server = serve(RULES)
    lp = LongPoll(server.port)
    signed_in(lp)
    assert lp.request("q", {"p": "/posts", "h": ""}) == ("ok", {})
    update = {"posts/p1": {"title": "t"}, "user-posts/alice/p1": {"title": "t"}}
    assert lp.request("m", {"p": "/", "d": update}) == ("ok", {})
    assert wait_for(lambda: lp.value_at("/posts/p1") == {"title": "t"})
    # A transaction: compare-and-set on the hash the client holds.
    stale = node_hash(0)
    assert lp.request("p", {"p": "/open/n", "d": 1, "h": node_hash(None)}) == ("ok", {})
    status, data = lp.request("p", {"p": "/open/n", "d": 2, "h": stale})
    assert status == "datastale", data
    assert lp.request("p", {"p": "/open/n", "d": 2, "h": node_hash(1)}) == ("ok", {})
    assert lp.request("g", {"p": "/open/n", "q": {}}) == ("ok", 2)
    retry = [e for e in server.requests_logged() if e.get("transport") == "lp" and e.get("verdict") == "stale"]
    assert len(retry) == 1, server.requests_logged()
    lp.close()


def test_a_message_of_many_segments_reaches_another_client(serve):
    server = serve(RULES)
    lp = LongPoll(server.port)
    signed_in(lp)
    reader = Wire(server.port)
    signed_in(reader, mock_token({"sub": "bob"}))
    assert reader.request("q", {"p": "/big", "h": ""}) == ("ok", {})
    body = {"a": "x" * 30_000, "b": "é" * 15_000}  # about 80 KB of base64
    t0 = time.time()
    assert lp.request("p", {"p": "/big", "d": body}, timeout=20) == ("ok", {})
    segments = sum(1 for q in lp.requests_made if "&seg0=" in q)
    assert segments >= 40, segments
    assert wait_for(lambda: reader.value_at("/big") == body, timeout=10)
    assert time.time() - t0 < 10
    lp.close()
    reader.close()


def test_segments_arrive_in_any_order_and_a_repeat_is_ignored(serve):
    server = serve(OPEN)
    id_, pw = raw_session(server)
    text = json.dumps({"t": "d", "d": {"r": 1, "a": "p", "b": {"p": "/a", "d": "y" * 4000}}})
    data = encode(text)
    pieces = [data[i:i + 1840] for i in range(0, len(data), 1840)]
    assert len(pieces) == 3
    base = f"{server.url}/.lp?id={id_}&pw={pw}&ns=demo"
    answers = []

    def send(seg):
        answers.append(requests.get(f"{base}&ser={seg}&seg0={seg}&ts0=3&d0={pieces[seg]}", timeout=30).text)

    threads = []
    for seg in (2, 0, 0, 1):
        threads.append(threading.Thread(target=send, args=(seg,), daemon=True))
        threads[-1].start()
        time.sleep(0.1)
        if seg != 1:
            # Segment 1 is missing: nothing yet.
            assert server.rest("GET", "/a.json", ns="demo").json() is None
    assert wait_for(lambda: server.rest("GET", "/a.json", ns="demo").json() == "y" * 4000)
    for thread in threads:
        thread.join()
    # One reply, in one packet, on the request held last.
    assert answers.count('pRTLPCB(1,[{"t":"d","d":{"r":1,"b":{"s":"ok","d":{}}}}]);\n') == 1, answers


def test_bad_data_ends_the_session_and_polls_for_it_are_told_to_close(serve):
    server = serve(OPEN)
    lp = LongPoll(server.port)
    lp.outgoing.put(None)
    base = f"{server.url}/.lp?id={lp.id}&pw={lp.pw}&ns=demo"
    r = requests.get(f"{base}&ser=1&seg0=0&ts0=1&d0=!!!notbase64", timeout=5)
    assert r.status_code == 200 and r.text == "pLPCommand('close');\n"
    assert wait_for(lambda: lp.closed)
    # An unknown session, a wrong password: close, so the SDK starts a new session.
    assert requests.get(f"{server.url}/.lp?id={lp.id}&pw={lp.pw}&ser=2&ns=demo", timeout=5).text == "pLPCommand('close');\n"
    other = LongPoll(server.port)
    assert requests.get(f"{server.url}/.lp?id={other.id}&pw=wrong&ser=2&ns=demo", timeout=5).text == "pLPCommand('close');\n"
    assert other.request("p", {"p": "/still", "d": 1}) == ("ok", {})
    other.close()
    # Not JSON inside good base64: closed, with the reason in the log.
    third = LongPoll(server.port)
    third.outgoing.put(None)
    junk = encode("{not json")
    assert requests.get(f"{server.url}/.lp?id={third.id}&pw={third.pw}&ser=3&seg0=0&ts0=1&d0={junk}&ns=demo", timeout=5).text == "pLPCommand('close');\n"
    assert wait_for(lambda: any("malformed message: not JSON" in line for line in server.log))


def raw_session(server):
    """A session started by hand (no poller, no sender): its id and password."""
    r = requests.get(f"{server.url}/.lp?start=t&ser=1&cb=3&v=5&ns=demo", timeout=5)
    start = re.search(r"pLPCommand\('start','(\d+)','([A-Za-z0-9]+)'\);", r.text)
    return start.group(1), start.group(2)


def test_a_newer_request_releases_the_held_one_and_an_idle_poll_is_answered_after_the_hold(serve):
    server = serve(OPEN, ["--long-poll-hold", "0.5"])
    id_, pw = raw_session(server)
    base = f"{server.url}/.lp?id={id_}&pw={pw}&ns=demo"
    t0 = time.time()
    r = requests.get(f"{base}&ser=100", timeout=5)
    assert r.text == "" and 0.3 < time.time() - t0 < 3  # held, then answered empty
    held = {}
    thread = threading.Thread(target=lambda: held.setdefault("r", requests.get(f"{base}&ser=101", timeout=10)))
    thread.start()
    time.sleep(0.2)
    # A newer request: the held one is answered at once (nothing to send: empty).
    t0 = time.time()
    newer = threading.Thread(target=lambda: held.setdefault("newer", requests.get(f"{base}&ser=102", timeout=10)))
    newer.start()
    thread.join()
    assert held["r"].text == "" and time.time() - t0 < 0.3
    # Data for the session goes on the held request at once, as packet 1.
    seg = encode(json.dumps({"t": "d", "d": {"r": 1, "a": "s", "b": {}}}))
    data = requests.get(f"{base}&ser=103&seg0=0&ts0=1&d0={seg}", timeout=10)
    newer.join()
    assert held["newer"].text == ""  # released by the data request
    assert data.text == 'pRTLPCB(1,[{"t":"d","d":{"r":1,"b":{"s":"ok","d":{}}}}]);\n'


def test_ondisconnect_runs_when_the_disconnect_frame_says_the_client_left(serve):
    server = serve(RULES)
    lp = LongPoll(server.port)
    signed_in(lp)
    assert lp.request("o", {"p": "/presence/alice", "d": "gone"}) == ("ok", {})
    frame = requests.get(f"{server.url}/.lp?dframe=t&id={lp.id}&pw={lp.pw}&ns=demo", timeout=5)
    assert frame.headers["Content-Type"].startswith("text/html")
    assert f'fetch("/.lp?disconn=t&id={lp.id}&pw={lp.pw}&ns=demo",{{keepalive:true' in frame.text
    assert 'addEventListener("pagehide",gone)' in frame.text
    t0 = time.time()
    lp.go_offline()
    assert wait_for(lambda: server.rest("GET", "/presence/alice.json", token="owner", ns="demo").json() == "gone", timeout=2)
    assert time.time() - t0 < 1.5
    # Once: a second disconn changes nothing.
    server.rest("PUT", "/presence/alice.json", "back", token="owner", ns="demo")
    requests.get(f"{server.url}/.lp?disconn=t&id={lp.id}&pw={lp.pw}&ns=demo", timeout=5)
    time.sleep(0.3)
    assert server.rest("GET", "/presence/alice.json", token="owner", ns="demo").json() == "back"


def test_a_client_that_stops_polling_is_gone_after_the_idle_time(serve):
    server = serve(RULES, ["--long-poll-hold", "0.5", "--long-poll-idle", "2"])
    lp = LongPoll(server.port)
    signed_in(lp)
    assert lp.request("o", {"p": "/presence/alice", "d": "idle"}) == ("ok", {})
    lp.outgoing.put(None)
    lp.lp_closed = True  # stops polling, without a word (a closed laptop lid)
    assert wait_for(lambda: server.rest("GET", "/presence/alice.json", token="owner", ns="demo").json() == "idle", timeout=8)
    assert wait_for(lambda: any("the client is gone (no request for 2 s)" in line for line in server.log))


def test_the_upgrade_to_websocket_loses_reorders_and_repeats_nothing(serve):
    server = serve(RULES)
    lp = LongPoll(server.port)
    signed_in(lp)
    assert lp.request("q", {"p": "/seq", "h": ""}) == ("ok", {})
    sent = []

    def in_flight():
        # Writes on long polling while the switch starts; they are answered on either transport.
        for i in range(10):
            sent.append(lp.send("p", {"p": "/seq/v", "d": i}))

    lp.upgrade(before_switch=in_flight)
    # Writes on the socket at once: they may reach the server before the long-polling `n`.
    for i in range(10, 30):
        sent.append(lp.send("p", {"p": "/seq/v", "d": i}))
    assert lp.wait_upgraded(), (lp.rx_socket, lp.lp_closed)
    assert [lp.reply(r)["s"] for r in sent] == ["ok"] * 30
    assert lp.value_at("/seq/v") == 29
    # Applied by the server in the order sent: each write's event, in order, once.
    values = [b["d"] for a, b in lp.pushes if a == "d" and b["p"] == "/seq/v"]
    assert values == list(range(30)), values
    # The server's log has them in order too, the later ones over WebSocket.
    logged = [e for e in server.requests_logged() if e.get("method") == "p" and e.get("path") == "/seq/v"]
    assert len(logged) == 30 and logged[-1]["transport"] == "ws"
    # After the switch: pushes come on the socket; long polling has stopped.
    polls = len(lp.requests_made)
    other = Wire(server.port)
    signed_in(other, mock_token({"sub": "bob"}))
    other.request("p", {"p": "/seq/v", "d": "later"})
    assert wait_for(lambda: lp.value_at("/seq/v") == "later")
    time.sleep(0.3)
    assert len(lp.requests_made) == polls
    # The disconnect frame removed after the switch is ignored: the session lives on the socket.
    requests.get(f"{server.url}/.lp?disconn=t&id={lp.id}&pw={lp.pw}&ns=demo", timeout=5)
    assert lp.request("p", {"p": "/seq/v", "d": "still"}) == ("ok", {})
    # onDisconnect runs when the socket closes.
    assert lp.request("o", {"p": "/seq/v", "d": "closed"}) == ("ok", {})
    lp.socket.close()
    assert wait_for(lambda: server.rest("GET", "/seq/v.json", token="owner", ns="demo").json() == "closed")
    other.close()


def test_an_upgrade_socket_for_an_unknown_session_is_reset(serve):
    from websockets.sync.client import connect
    server = serve(OPEN)
    with connect(f"ws://127.0.0.1:{server.port}/.ws?v=5&s=rules-serve-1-nosuchsession&ns=demo") as ws:
        assert json.loads(ws.recv(timeout=5)) == {"t": "c", "d": {"t": "r", "d": f"127.0.0.1:{server.port}"}}
    # A second socket for a session that has one already is reset too; the first one works on.
    lp = LongPoll(server.port)
    lp.upgrade()
    with connect(f"ws://127.0.0.1:{server.port}/.ws?v=5&s={lp.session}&ns=demo") as ws:
        assert json.loads(ws.recv(timeout=5))["d"]["t"] == "r"
    assert lp.wait_upgraded()
    assert lp.request("p", {"p": "/x", "d": 1}) == ("ok", {})
    lp.socket.close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_restart_of_the_server_under_a_connected_client():
    port = free_port()
    server = Server(OPEN, ["--port", str(port)])
    try:
        lp = LongPoll(port)
        assert lp.request("p", {"p": "/before", "d": 1}) == ("ok", {})
        id_, pw = lp.id, lp.pw
        t0 = time.time()
        server.stop()
        # The held poll was answered with close at shutdown (or the connection dropped).
        assert wait_for(lambda: lp.closed, timeout=5)
        assert time.time() - t0 < 4
        server = Server(OPEN, ["--port", str(port)])
        # The old session's poll gets close: the helpers of the start answer are still in the
        # SDK's iframe, so this body runs and the SDK starts anew.
        r = requests.get(f"http://127.0.0.1:{port}/.lp?id={id_}&pw={pw}&ser=5&ns=demo", timeout=5)
        assert r.status_code == 200 and r.text == "pLPCommand('close');\n"
        again = LongPoll(port)
        assert again.request("p", {"p": "/after", "d": 2}) == ("ok", {})
        again.close()
    finally:
        server.stop()


def test_shutdown_answers_a_held_poll_with_close_at_once(serve):
    server = serve(OPEN)
    lp = LongPoll(server.port)
    time.sleep(0.3)
    t0 = time.time()
    server.proc.terminate()
    server.proc.wait(timeout=10)
    assert time.time() - t0 < 3
    assert wait_for(lambda: lp.closed, timeout=3)


def test_owner_is_refused_from_a_page_of_another_site_and_allowed_from_this_machine(serve):
    server = serve(RULES)
    foreign = LongPoll(server.port, headers={"Referer": "https://evil.example/", "Sec-Fetch-Site": "cross-site"})
    status, data = foreign.request("auth", {"cred": "owner"})
    assert status == "invalid_token" and "owner" in data
    foreign.close()
    local = LongPoll(server.port, headers={"Referer": "http://localhost:5173/", "Sec-Fetch-Site": "cross-site"})
    assert local.request("auth", {"cred": "owner"})[0] == "ok"
    assert local.request("p", {"p": "/secret/x", "d": 1}) == ("ok", {})
    local.close()
    # No referrer from a cross-site page: refused (fail closed).
    hidden = LongPoll(server.port, headers={"Sec-Fetch-Site": "cross-site"})
    assert hidden.request("auth", {"cred": "owner"})[0] == "invalid_token"
    hidden.close()


def test_sessions_are_bounded(serve):
    # One client here opens them all: its own share (100 by default) is raised to the total.
    server = serve(OPEN, ["--limit", "max-long-poll-sessions-per-client=1000"])
    # The limit is 1,000; each session holds no connection between polls.
    made = []
    for i in range(1000):
        r = requests.get(f"{server.url}/.lp?start=t&ser={i}&cb=1&v=5&ns=demo", timeout=5)
        assert r.status_code == 200, (i, r.text)
        made.append(r)
    refused = requests.get(f"{server.url}/.lp?start=t&ser=x&cb=1&v=5&ns=demo", timeout=5)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "1"
    assert wait_for(lambda: any("as many long-polling sessions as it may (1000)" in line for line in server.log))
    # Other transports are not affected.
    assert server.rest("PUT", "/ok.json", 1, ns="demo").status_code == 200
