"""The SDKs' WebSocket protocol (`/.ws`): the transcripts captured from the JavaScript SDK
(protocol reference §16) replayed by a client written for the tests, and the behaviour the
official SDKs rely on. Answers are compared modulo timestamps, session ids and push ids, and
pushes by their effect on the client's cache."""
import json
import threading
import time

from conftest import mock_token, wait_for
from wire import Wire, node_hash

SIGNED_IN = {".read": "auth != null", ".write": "auth != null"}
RULES = {"rules": {
    "$other": SIGNED_IN,
    "items": {**SIGNED_IN, ".indexOn": "owner"}, "scores": {**SIGNED_IN, ".indexOn": ".value"},
    "dinos": {**SIGNED_IN, ".indexOn": "height"},
    "secret": {".read": False, ".write": False},
    "revokeme": {".read": "data.val() !== 'closed'"},
}}


def test_hello_comes_first(serve):
    server = serve(RULES)
    wire = Wire(server.port)
    h = wire.hello["d"]
    assert wire.hello["t"] == "c" and h["t"] == "h"
    assert isinstance(h["d"]["ts"], int) and abs(h["d"]["ts"] - time.time() * 1000) < 60_000
    assert h["d"]["v"] == "5" and h["d"]["h"] == f"127.0.0.1:{server.port}" and h["d"]["s"]
    assert wire.request("s", {"c": {"sdk.node.12-18-0": 1}})[0] == "ok"
    wire.send_raw(json.dumps({"t": "c", "d": {"t": "p", "d": {}}}))
    assert wire.wait_push(lambda a, b: a == "control" and b == {"t": "o", "d": {}})
    wire.send_raw("0")  # the clients' keepalive: ignored
    assert wire.request("s", {})[0] == "ok"
    wire.close()


def test_transcript_16_1_set_get_onvalue_without_token(serve):
    server = serve(RULES)
    wire = Wire(server.port)
    assert wire.request("s", {"c": {"sdk.node.12-18-0": 1}}) == ("ok", {})
    # No token: auth == null, and the rules want a signed-in user.
    assert wire.request("q", {"p": "/rooms/r1", "h": ""}) == ("permission_denied", "Permission denied")
    server.rest("PUT", "/.settings/rules.json", token="owner", ns="demo", raw=json.dumps({"rules": {".read": True, ".write": True}}))
    assert wire.request("q", {"p": "/rooms/r1", "h": ""}) == ("ok", {})
    assert wire.wait_push(lambda a, b: a == "d" and b["p"].strip("/") == "rooms/r1" and b["d"] is None)
    assert wire.request("p", {"p": "/rooms/r1/title", "d": "hello"})[0] == "ok"
    assert wire.value_at("/rooms/r1") == {"title": "hello"}
    assert wire.request("g", {"p": "/rooms", "q": {}}) == ("ok", {"r1": {"title": "hello"}})
    wire.close()


def test_transcript_16_2_token_queries_updates_big_write_ondisconnect_transaction(serve):
    server = serve(RULES)
    server.rest("PUT", "/.json", token="owner", ns="demo", body={
        "items": {"a": {"owner": "alice"}, "b": {"owner": "bob"}},
        "scores": {"x": 5, "y": 11, "z": 12, "w": 30, "v": 10},
        "dinos": {"a": {"height": 3}, "b": {"height": 3}, "c": {"height": 5}, "d": {"height": 7}, "e": {"height": 2}},
        "users": {"alice": 1, "bob": 2, "zed": 3},
        "posts": {"p1": {"stars": 1}, "p2": {"x": 1}},
    })
    token = mock_token({"sub": "alice", "user_id": "alice", "email": "a@x.io"})
    wire = Wire(server.port)
    assert wire.request("s", {"c": {"sdk.node.12-18-0": 1}})[0] == "ok"
    assert wire.request("auth", {"cred": token})[0] == "ok"
    assert wire.request("q", {"p": "/items", "q": {"sp": "alice", "sin": True, "ep": "alice", "ein": True, "i": "owner"}, "t": 1, "h": ""}) == ("ok", {})
    assert wire.value_at("/items", tag=1) == {"a": {"owner": "alice"}}
    assert wire.request("q", {"p": "/scores", "q": {"sp": 10, "sn": "[MAX_NAME]", "sin": False, "l": 3, "vf": "r", "i": ".value"}, "t": 2, "h": ""}) == ("ok", {})
    assert wire.value_at("/scores", tag=2) == {"y": 11, "z": 12, "w": 30}
    assert wire.request("q", {"p": "/dinos", "q": {"sp": 3, "sn": "b", "sin": True, "ep": 7, "en": "[MIN_NAME]", "ein": False, "l": 2, "vf": "l", "i": "height"}, "t": 3, "h": ""}) == ("ok", {})
    assert wire.value_at("/dinos", tag=3) == {"b": {"height": 3}, "c": {"height": 5}}
    assert wire.request("q", {"p": "/users", "q": {"sp": "a", "sin": True, "ep": "m", "ein": True, "i": ".key"}, "t": 4, "h": ""}) == ("ok", {})
    assert wire.value_at("/users", tag=4) == {"alice": 1, "bob": 2}
    assert wire.request("q", {"p": "/plain", "h": ""}) == ("ok", {})
    before = int(time.time() * 1000)
    status, _ = wire.request("m", {"p": "/posts", "d": {"p1/title": "x", "p1/stars": {".sv": {"increment": 1}}, "p1/at": {".sv": "timestamp"}, "p2": None}})
    assert status == "ok"
    posts = server.rest("GET", "/posts.json", token="owner", ns="demo").json()
    assert posts["p1"]["stars"] == 2 and posts["p1"]["title"] == "x" and "p2" not in posts
    assert before - 1 <= posts["p1"]["at"] <= int(time.time() * 1000) + 1
    assert wire.request("p", {"p": "/msgs/-P7A2Dukyxj8LIjTJPxd", "d": {"at": {".sv": "timestamp"}, "text": "hi"}})[0] == "ok"
    assert wire.request("p", {"p": "/prio/a", "d": {".value": "v", ".priority": 5}})[0] == "ok"
    assert server.rest("GET", "/prio/a.json", token="owner", ns="demo", format="export").json() == {".value": "v", ".priority": 5}
    big = "x" * 40000
    r = wire.send("p", {"p": "/big", "d": big})  # 40,054 characters: a count frame and three pieces
    assert wire.reply(r)["s"] == "ok"
    assert server.rest("GET", "/big.json", token="owner", ns="demo").json() == big
    assert wire.request("o", {"p": "/presence/alice", "d": True})[0] == "ok"
    assert wire.request("om", {"p": "/presence", "d": {"bob": None, "c/d": 1}})[0] == "ok"
    assert wire.request("oc", {"p": "/presence/alice", "d": None})[0] == "ok"
    assert wire.request("o", {"p": "/presence/zed", "d": None})[0] == "ok"
    server.rest("PUT", "/presence.json", token="owner", ns="demo", body={"bob": 1, "zed": 2})
    assert wire.request("q", {"p": "/counter", "h": ""})[0] == "ok"
    assert wire.request("p", {"p": "/counter", "d": 1, "h": ""})[0] == "ok"
    assert wire.request("n", {"p": "/counter"})[0] == "ok"
    assert wire.request("n", {"p": "/items", "q": {"sp": "alice", "sin": True, "ep": "alice", "ein": True, "i": "owner"}, "t": 1})[0] == "ok"
    server.rest("PUT", "/items/c.json", token="owner", ns="demo", body={"owner": "alice"})
    time.sleep(0.2)
    assert wire.value_at("/items", tag=1) == {"a": {"owner": "alice"}}  # unlistened: nothing more
    wire.close()
    # onDisconnect ran on close: /presence/alice was cancelled, the update and the removal ran.
    deadline = time.time() + 5
    while time.time() < deadline and server.rest("GET", "/presence.json", token="owner", ns="demo").json() != {"c": {"d": 1}}:
        time.sleep(0.05)
    assert server.rest("GET", "/presence.json", token="owner", ns="demo").json() == {"c": {"d": 1}}


def test_transcript_16_3_owner_denial_revocation_debug_get(serve):
    server = serve(RULES)
    server.rest("PUT", "/.json", token="owner", ns="demo", body={"revokeme": "v1", "dinos": {"a": {"height": 3}, "b": {"height": 1}, "c": {"height": 2}}})
    alice = Wire(server.port)
    assert alice.request("auth", {"cred": mock_token({"sub": "alice"})})[0] == "ok"
    r = alice.send("p", {"p": "/secret/x", "d": 1})
    assert alice.reply(r) == {"s": "permission_denied", "d": "Permission denied"}
    debug = [b["msg"] for a, b in alice.pushes if a == "sd"]
    assert debug and "/secret/.write" in debug[-1] and "database.rules.json:" in debug[-1]
    # The explanation arrives just before the denial it explains.
    assert alice.arrivals[alice.arrivals.index(("reply", r)) - 1] == ("push", "sd")
    assert alice.request("q", {"p": "/secret", "h": ""}) == ("permission_denied", "Permission denied")
    assert alice.request("q", {"p": "/revokeme", "h": ""}) == ("ok", {})
    assert alice.value_at("/revokeme") == "v1"
    owner = Wire(server.port)
    assert owner.request("gauth", {"cred": "owner"})[0] == "ok"
    assert owner.request("p", {"p": "/revokeme", "d": "closed"})[0] == "ok"
    assert alice.wait_push(lambda a, b: a == "c" and b["p"] == "/revokeme")
    assert alice.request("p", {"p": "/secret/t", "d": 1, "h": ""}) == ("permission_denied", "Permission denied")
    assert alice.request("g", {"p": "/dinos", "q": {"l": 2, "vf": "l", "i": "height"}}) == ("ok", {"b": {"height": 1}, "c": {"height": 2}})
    alice.close()
    owner.close()


def test_listens_see_writes_from_other_connections_and_from_rest(serve):
    server = serve({"rules": {".read": True, ".write": True, "q": {".indexOn": "n"}}})
    a, b = Wire(server.port), Wire(server.port)
    assert a.request("q", {"p": "/room", "h": ""})[0] == "ok"
    assert a.request("q", {"p": "/q", "q": {"i": "n", "l": 2, "vf": "l"}, "t": 7, "h": ""})[0] == "ok"
    assert b.request("p", {"p": "/room/title", "d": "from ws"})[0] == "ok"
    assert a.wait_push(lambda x, y: a.value_at("/room") == {"title": "from ws"})
    server.rest("PATCH", "/room.json", ns="demo", body={"title": "from rest", "n": 1})
    assert a.wait_push(lambda x, y: a.value_at("/room") == {"title": "from rest", "n": 1})
    server.rest("PUT", "/q.json", ns="demo", body={"a": {"n": 3}, "b": {"n": 1}, "c": {"n": 2}})
    assert a.wait_push(lambda x, y: a.value_at("/q", tag=7) == {"b": {"n": 1}, "c": {"n": 2}})
    assert all(y.get("t") == 7 for x, y in a.pushes if x in ("d", "m") and y["p"].strip("/").startswith("q"))
    # A REST stream sees WebSocket writes too.
    import requests
    stream = requests.get(f"{server.url}/room.json?ns=demo", headers={"Accept": "text/event-stream"}, stream=True, timeout=10)
    lines = stream.iter_lines(decode_unicode=True)
    assert next(lines) == "event: put"
    next(lines)
    assert b.request("p", {"p": "/room/n", "d": 2})[0] == "ok"
    assert [next(lines) for _ in range(3)] == ["", "event: put", 'data: {"path":"/n","data":2}']
    stream.close()
    a.close()
    b.close()


def test_a_writer_sees_its_own_event_before_its_ok(serve):
    server = serve({"rules": {".read": True, ".write": True}})
    wire = Wire(server.port)
    assert wire.request("q", {"p": "/x", "h": ""})[0] == "ok"
    r = wire.send("p", {"p": "/x/y", "d": 5})
    wire.reply(r)
    assert wire.arrivals[wire.arrivals.index(("reply", r)) - 1] == ("push", "d")
    assert wire.value_at("/x") == {"y": 5}
    wire.close()


def test_revocation_after_a_rules_change(serve):
    server = serve({"rules": {".read": True, ".write": True}})
    wire = Wire(server.port)
    assert wire.request("q", {"p": "/a", "h": ""})[0] == "ok"
    server.rest("PUT", "/.settings/rules.json", token="owner", ns="demo", raw='{"rules": {".read": false}}')
    assert wire.wait_push(lambda a, b: a == "c" and b["p"] == "/a")
    wire.close()


def test_auth_by_owner_authvar_noauth_and_bad_tokens(serve):
    server = serve({"rules": {"u": {"$uid": {".read": "auth.uid === $uid", ".write": "auth == null || auth.uid === $uid"}}}})
    wire = Wire(server.port)
    assert wire.request("gauth", {"cred": "owner", "authvar": {"uid": "bob"}})[0] == "ok"
    assert wire.request("p", {"p": "/u/bob", "d": 1})[0] == "ok"
    assert wire.request("p", {"p": "/u/carl", "d": 1})[0] == "permission_denied"
    assert wire.request("gauth", {"cred": "owner", "noauth": True})[0] == "ok"
    assert wire.request("p", {"p": "/u/carl", "d": 1})[0] == "ok"
    assert wire.request("q", {"p": "/u/carl", "h": ""})[0] == "permission_denied"
    assert wire.request("auth", {"cred": "garbage"}) == ("invalid_token", "Could not parse auth token.")
    assert wire.request("auth", {"cred": mock_token({"sub": "carl"})})[0] == "ok"
    assert wire.request("q", {"p": "/u/carl", "h": ""})[0] == "ok"
    assert wire.request("unauth", {})[0] == "ok"
    assert wire.wait_push(lambda a, b: a == "c" and b["p"] == "/u/carl")
    wire.close()


def test_racing_compare_and_set_loses_no_update(serve):
    server = serve({"rules": {".read": True, ".write": True}})
    results = []

    def incrementer(times):
        wire = Wire(server.port)
        assert wire.request("q", {"p": "/counter", "h": ""})[0] == "ok"
        done = 0
        while done < times:
            current = wire.value_at("/counter")
            status, _ = wire.request("p", {"p": "/counter", "d": (current or 0) + 1, "h": node_hash(current)})
            if status == "ok":
                done += 1
            else:
                assert status == "datastale"
                time.sleep(0.001)
        wire.close()
        results.append(done)

    threads = [threading.Thread(target=incrementer, args=(50,)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [50, 50]
    assert server.rest("GET", "/counter.json", ns="demo").json() == 100


def test_a_stale_hash_stores_nothing(serve):
    server = serve({"rules": {".read": True, ".write": True}})
    server.rest("PUT", "/n.json", ns="demo", body=5)
    wire = Wire(server.port)
    assert wire.request("p", {"p": "/n", "d": 1, "h": ""}) == ("datastale", "Transaction hash does not match")
    assert server.rest("GET", "/n.json", ns="demo").json() == 5
    # A transaction's retry, not an error.
    assert wait_for(lambda: any(r["verdict"] == "stale" and r["method"] == "p" for r in server.requests_logged()))
    assert not [r for r in server.requests_logged() if r["verdict"] == "error"]
    assert wire.request("p", {"p": "/n", "d": 6, "h": "w28swksk9+tXf5jEdS9R5oSFAv8="})[0] == "ok"
    assert server.rest("GET", "/n.json", ns="demo").json() == 6
    wire.close()


def test_bad_clients_are_closed_and_others_keep_working(serve):
    server = serve({"rules": {".read": True, ".write": True}})
    healthy = Wire(server.port)
    assert healthy.request("q", {"p": "/ok", "h": ""})[0] == "ok"
    for bad in ["{not json", json.dumps({"t": "d", "d": {"r": 1, "a": "explode", "b": {}}}), json.dumps({"t": "x", "d": {}})]:
        victim = Wire(server.port)
        victim.send_raw(bad)
        assert victim.wait_closed(), bad
    huge = Wire(server.port)
    huge.send_raw("2000")  # announces 2,000 pieces of 16,384 characters: over the message limit
    try:
        for _ in range(1100):
            huge.ws.send("y" * 16384)
    except Exception:  # noqa: BLE001 - the server closed the socket
        pass
    assert huge.wait_closed(10)
    reasons = "".join(server.log)
    assert "unknown action" in reasons and "not JSON" in reasons and "over the" in reasons
    assert healthy.request("p", {"p": "/ok/still", "d": True})[0] == "ok"
    assert healthy.value_at("/ok") == {"still": True}
    healthy.close()


def test_denials_over_the_socket_are_explained_in_the_request_log(serve):
    server = serve(RULES)
    wire = Wire(server.port)
    assert wire.request("p", {"p": "/secret/x", "d": 1})[0] == "permission_denied"
    listed = server.rest("GET", "/.inspect/requests.json", token="owner").json()["requests"]
    denied = [r for r in listed if r["transport"] == "ws" and r["verdict"] == "denied"]
    assert [(r["method"], r["path"], r["ns"], r["explained"]) for r in denied] == [("p", "/secret/x", "demo", True)]
    detail = server.rest("GET", f"/.inspect/requests/{denied[0]['id']}.json", token="owner").json()
    explanation = detail["explanation"]
    deciding = explanation["evaluations"][explanation["decisive"]]
    assert deciding["rulePath"] == "/secret/.write" and deciding["result"] == "false"
    assert deciding["file"] == server.rules_path and deciding["line"] == 1
    wire.close()
