"""REST reference §14 items 14 and 15: protocol edges (as curl sends them), tokens and
namespaces."""
import json

import pytest
from firebase_admin import exceptions

from conftest import mock_token, ref

OPEN = {"rules": {".read": True, ".write": True}}


def test_print_shallow_and_paths(serve):
    server = serve(OPEN)
    put = server.rest("PUT", "/a.json", body={"b": {"c": 1}, "d": "x"}, print="silent")
    assert put.status_code == 204 and put.content == b""
    pretty = server.rest("GET", "/a.json", print="pretty")
    assert pretty.text == '{\n  "b" : {\n    "c" : 1\n  },\n  "d" : "x"\n}\n'
    assert server.rest("GET", "/a.json", shallow="true").json() == {"b": True, "d": True}
    assert server.rest("GET", "/a/d.json", shallow="true").json() == "x"
    mixed = server.rest("GET", "/a.json", shallow="true", orderBy='"$key"')
    assert mixed.status_code == 400
    bad = server.rest("GET", "/a.b.json")
    assert bad.status_code == 400 and bad.json() == {"error": "Invalid path: Invalid token in path"}
    assert server.rest("GET", "/a%2Fb.json").status_code == 400
    assert server.rest("GET", "/a/b/.json").json() == {"c": 1}
    assert server.rest("GET", "/a").status_code == 404


def test_bodies_and_query_strings(serve):
    server = serve({"rules": {".read": True, ".write": True, "s": {".indexOn": ".value"}}})
    bad = server.rest("PUT", "/x.json", raw="{not json")
    assert bad.status_code == 400 and bad.json()["error"] == "Invalid data; couldn't parse JSON object, array, or value."
    no_order = server.rest("GET", "/x.json", startAt="1")
    assert no_order.status_code == 400
    assert no_order.json() == {"error": "orderBy must be defined when other query parameters are defined"}
    server.rest("PUT", "/s.json", body={"k1": "a b+c", "k2": "a b c", "k3": "zzz"})
    plus = server.rest("GET", "/s.json", orderBy="%22$value%22", startAt="%22a%20b+c%22", endAt="%22a%20b+c%22")
    assert plus.json() == {"k1": "a b+c"}
    assert server.rest("GET", "/s.json", orderBy="%22$value%22", limitToFirst="0").json() == {}


def test_priorities_and_method_override(serve):
    server = serve(OPEN)
    server.rest("PUT", "/p.json", body={"x": {".value": 1, ".priority": 5}, "y": 2, ".priority": "top"})
    assert server.rest("GET", "/p.json").json() == {"x": 1, "y": 2}
    exported = server.rest("GET", "/p.json", format="export").json()
    assert exported == {"x": {".value": 1, ".priority": 5}, "y": 2, ".priority": "top"}
    server.rest("PUT", "/p/y/.priority.json", body=7)
    assert server.rest("GET", "/p/y.json", format="export").json() == {".value": 2, ".priority": 7}
    deleted = server.rest("POST", "/p.json", headers={"X-HTTP-Method-Override": "DELETE"})
    assert deleted.status_code == 200
    assert server.rest("GET", "/p.json").json() is None


TOKENS = {"rules": {"who": {"$uid": {".read": "auth.uid === $uid && auth.token.role === 'editor'",
                                      ".write": "auth.uid === $uid && auth.provider === 'password'"}}}}


def test_unsigned_mock_tokens(serve):
    server = serve(TOKENS)
    token = mock_token({"sub": "alice", "user_id": "alice", "role": "editor",
                        "firebase": {"sign_in_provider": "password", "identities": {}}})
    assert server.rest("PUT", "/who/alice.json", body=1, auth=token).status_code == 200
    assert server.rest("GET", "/who/alice.json", auth=token).json() == 1
    assert server.rest("GET", "/who/alice.json", token=token).json() == 1
    assert server.rest("PUT", "/who/bob.json", body=1, token=token).status_code == 401
    viewer = mock_token({"sub": "alice", "role": "viewer"})
    assert server.rest("GET", "/who/alice.json", token=viewer).status_code == 401
    garbage = server.rest("GET", "/who/alice.json", token="garbage")
    assert garbage.status_code == 401 and garbage.json() == {"error": "Could not parse auth token."}
    impersonate = server.rest("GET", "/who/bob.json", token=token, auth_variable_override=json.dumps({"uid": "bob"}))
    assert impersonate.status_code == 401


def test_namespaces_are_separate(serve, apps):
    server = serve(OPEN)
    a = apps(url=f"http://127.0.0.1:{server.port}/?ns=a")
    b = apps(url=f"http://127.0.0.1:{server.port}/?ns=b")
    ref(a, "x").set("in a")
    ref(b, "x").set("in b")
    assert ref(a, "x").get() == "in a" and ref(b, "x").get() == "in b"
    rules = server.rest("PUT", "/.settings/rules.json", token="owner", ns="b",
                        raw='{"rules": {".read": false, /* closed */ ".write": false}}')
    assert rules.status_code == 200
    bob_b = apps({"uid": "bob"}, url=f"http://127.0.0.1:{server.port}/?ns=b")
    bob_a = apps({"uid": "bob"}, url=f"http://127.0.0.1:{server.port}/?ns=a")
    with pytest.raises(exceptions.UnauthenticatedError):
        ref(bob_b, "x").get()
    assert ref(bob_a, "x").get() == "in a"
    strict = server.rest("GET", "/.settings/rules.json", token="owner", ns="b", format="strict")
    assert strict.json() == {"rules": {".read": False, ".write": False}}
    assert "/* closed */" in server.rest("GET", "/.settings/rules.json", token="owner", ns="b").text
    broken = server.rest("PUT", "/.settings/rules.json", token="owner", ns="b", raw='{"rules": {".read": "auth.uid == $x"}}')
    assert broken.status_code == 400 and "1:" in broken.json()["error"]
    names = server.rest("GET", "/.inspect/databases.json", token="owner").json()
    assert {"a", "b"} <= {n["name"] for n in names}
    assert all(n["lastRequest"] > 0 for n in names if n["name"] in ("a", "b"))
