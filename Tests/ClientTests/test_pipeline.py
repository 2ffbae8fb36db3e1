"""The database core as every door reaches it: priority writes and compare-and-set decided inside
the namespace, listens that survive token refreshes, onDisconnect operations decided for the
identity the connection has when it closes."""
import threading

from conftest import mock_token, wait_for
from wire import Wire, node_hash

OPEN = {"rules": {".read": True, ".write": True}}


def test_priority_writes_racing_increments_lose_no_increment(serve):
    server = serve(OPEN)
    server.rest("PUT", "/counter.json", ns="demo", body=0)
    acknowledged = []
    errors = []

    def increments(n):
        done = 0
        for _ in range(n):
            r = server.rest("PATCH", "/.json", ns="demo", raw='{"counter": {".sv": {"increment": 1}}}')
            if r.status_code == 200:
                done += 1
            else:
                errors.append(r.text)
        acknowledged.append(done)

    def priorities(n):
        for i in range(n):
            r = server.rest("PUT", "/counter/.priority.json", ns="demo", body=i)
            if r.status_code != 200:
                errors.append(r.text)

    threads = [threading.Thread(target=increments, args=(150,)) for _ in range(3)]
    threads += [threading.Thread(target=priorities, args=(150,)) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert server.rest("GET", "/counter.json", ns="demo").json() == sum(acknowledged) == 450


PIN_RULES = {"rules": {
    "pin": {".read": False, ".write": "newData.val() === 'never'"},
    "guess": {".read": True, ".write": "newData.val() === root.child('pin').val()"},
}}


def test_compare_and_set_tells_nothing_about_data_the_caller_may_not_read(serve):
    server = serve(PIN_RULES)
    server.rest("PUT", "/pin.json", token="owner", ns="demo", body="4821")
    wire = Wire(server.port)
    answers = set()
    for guess in ["0000", "4821", "1234"]:
        answers.add(wire.request("p", {"p": "/pin", "d": "x", "h": node_hash(guess)}))
    assert answers == {("permission_denied", "Permission denied")}
    explanations = {b["msg"] for a, b in wire.pushes if a == "sd"}
    assert len(explanations) == 1, explanations  # the same whatever the guess
    wire.close()
    # Over REST, the same: 401, one explanation for every guess.
    seen = set()
    for guess in ["0000", "4821"]:
        etag = node_hash(guess)
        r = server.rest("PUT", "/pin.json", ns="demo", body="x", headers={"if-match": etag})
        assert r.status_code == 401
        seen.add(r.headers.get("X-Rules-Explanation"))
    assert len(seen) == 1, seen
    assert server.rest("GET", "/pin.json", token="owner", ns="demo").json() == "4821"


def test_a_token_refresh_keeps_every_listen_and_misses_no_write(serve):
    server = serve({"rules": {"n": {".read": "auth != null", ".write": "auth != null"}}})
    listener = Wire(server.port)
    assert listener.request("auth", {"cred": mock_token({"sub": "alice", "iat": 0})})[0] == "ok"
    assert listener.request("q", {"p": "/n", "h": ""})[0] == "ok"
    writer = Wire(server.port)
    assert writer.request("auth", {"cred": mock_token({"sub": "bob"})})[0] == "ok"
    stop = threading.Event()

    def refresh():
        i = 0
        while not stop.is_set():
            i += 1
            listener.request("auth", {"cred": mock_token({"sub": "alice", "iat": i})})

    refresher = threading.Thread(target=refresh)
    refresher.start()
    for i in range(1, 301):
        assert writer.request("p", {"p": "/n", "d": i})[0] == "ok"
    stop.set()
    refresher.join()
    assert wait_for(lambda: listener.value_at("/n") == 300)
    seen = [b["d"] for a, b in listener.pushes if a == "d" and b["p"].strip("/") == "n"]
    assert [v for v in seen if v is not None] == list(range(1, 301))
    listener.close()
    writer.close()


def test_on_disconnect_runs_as_the_identity_the_connection_has_when_it_closes(serve):
    server = serve({"rules": {"locked": {".read": True, ".write": False}, "open": {".read": True, ".write": True}}})
    wire = Wire(server.port)
    assert wire.request("auth", {"cred": "owner"})[0] == "ok"
    assert wire.request("o", {"p": "/locked", "d": "written as the owner"})[0] == "ok"
    assert wire.request("o", {"p": "/open", "d": "anyone may"})[0] == "ok"
    assert wire.request("unauth", {})[0] == "ok"
    wire.close()
    assert wait_for(lambda: server.rest("GET", "/open.json", ns="demo").json() == "anyone may")
    assert server.rest("GET", "/locked.json", ns="demo").json() is None
    assert wait_for(lambda: any(r.get("method") == "onDisconnect" and r.get("verdict") == "denied"
                                for r in server.requests_logged()))


def test_a_denial_explained_to_a_client_hides_what_it_may_not_read(serve):
    server = serve(PIN_RULES)
    server.rest("PUT", "/pin.json", token="owner", ns="demo", body="4821")
    r = server.rest("PUT", "/guess.json", ns="demo", body="0000")
    assert r.status_code == 401
    why = r.headers.get("X-Rules-Explanation", "")
    assert "4821" not in why and "<unreadable>" in why, why
    wire = Wire(server.port)
    assert wire.request("p", {"p": "/guess", "d": "0000"})[0] == "permission_denied"
    assert wire.wait_push(lambda a, b: a == "sd")
    sd = [b["msg"] for a, b in wire.pushes if a == "sd"]
    assert all("4821" not in m for m in sd), sd
    wire.close()
    # The server's own log keeps the whole explanation.
    assert wait_for(lambda: any("4821" in line for line in server.log))


def test_an_empty_update_path_and_an_overflowing_increment_are_refused_and_change_nothing(serve):
    server = serve(OPEN)
    server.rest("PUT", "/a.json", ns="demo", body={"keep": 1, "n": 1.7e308})
    r = server.rest("PATCH", "/a.json", ns="demo", raw='{"": {"replaced": true}}')
    assert r.status_code == 400, r.text
    r = server.rest("PATCH", "/a.json", ns="demo", raw='{"n": {".sv": {"increment": 1.7e308}}}')
    assert r.status_code == 400 and "overflow" in r.text, r.text
    assert server.rest("GET", "/a.json", ns="demo").json() == {"keep": 1, "n": 1.7e308}
