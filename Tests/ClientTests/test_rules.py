"""REST reference §14 items 3, 4 and 7: rules decide every request made with an override;
the administrator bypasses them; denials change nothing."""
import pytest
from firebase_admin import db, exceptions

from conftest import ref, wait_for

USERS = {"rules": {"users": {"$uid": {".read": "auth != null", ".write": "$uid === auth.uid"}}}}


def test_allow_and_deny_by_override(serve, apps):
    server = serve(USERS)
    admin, alice, anonymous = apps(), apps({"uid": "alice"}), apps(None)
    ref(alice, "users/alice").set({"name": "Alice"})
    ref(admin, "users/bob").set({"name": "Bob"})
    with pytest.raises(exceptions.UnauthenticatedError) as denied:
        ref(alice, "users/bob").set({"name": "Mallory"})
    assert str(denied.value) == "Permission denied"
    assert ref(admin, "users/bob").get() == {"name": "Bob"}
    with pytest.raises(exceptions.UnauthenticatedError):
        ref(anonymous, "users/alice").get()
    assert ref(alice, "users/bob").get() == {"name": "Bob"}
    ref(admin, "anywhere").set(1)
    assert ref(admin, "anywhere").get() == 1


def test_a_denial_names_the_deciding_rule(serve):
    server = serve(USERS)
    reply = server.rest("PUT", "/users/bob.json", body="x", token="owner",
                        auth_variable_override='{"uid":"alice"}')
    assert reply.status_code == 401
    assert reply.text == '{\n  "error" : "Permission denied"\n}\n'
    why = reply.headers["X-Rules-Explanation"]
    assert "/users/$uid/.write" in why and "database.rules.json:1:" in why and "$uid = bob" in why
    # The log line is written before the answer, but read from the server's stderr by a thread.
    assert wait_for(lambda: any(r["verdict"] == "denied" for r in server.requests_logged()))
    logged = [r for r in server.requests_logged() if r["verdict"] == "denied"]
    assert logged and logged[-1]["path"] == "/users/bob" and logged[-1]["uid"] == "alice"
    assert "/users/$uid/.write" in logged[-1]["rule"]


VALIDATE = {"rules": {"n": {".read": True, ".write": "auth != null",
                            ".validate": "newData.isNumber() && newData.val() >= 0"},
                      "m": {".write": True, ".validate": "newData.isString()"}}}


def test_validate_and_admin_bypass(serve, apps):
    serve(VALIDATE)
    admin, alice = apps(), apps({"uid": "alice"})
    for bad in ("x", -1):
        with pytest.raises(exceptions.UnauthenticatedError):
            ref(alice, "n").set(bad)
    ref(alice, "n").set(3)
    assert ref(admin, "n").get() == 3
    ref(admin, "n").set("x")
    assert ref(admin, "n").get() == "x"
    ref(alice, "n").set(5)
    with pytest.raises(exceptions.UnauthenticatedError):
        ref(alice, "/").update({"n": 6, "m": 7})
    assert ref(admin, "/").get() == {"n": 5}


def test_transaction_meets_rules(serve, apps):
    serve(USERS)
    admin, bob = apps(), apps({"uid": "bob"})
    ref(admin, "users/alice/n").set(1)
    with pytest.raises(exceptions.UnauthenticatedError):
        ref(bob, "users/alice/n").transaction(lambda n: (n or 0) + 1)
    assert ref(admin, "users/alice/n").get() == 1


def test_a_412_never_reveals_data_to_a_caller_who_cannot_read(serve):
    server = serve({"rules": {"secret": {".write": True}, "open": {".read": True, ".write": True}}})
    server.rest("PUT", "/secret.json", body="hidden", token="owner")
    reply = server.rest("PUT", "/secret.json", body="x", headers={"if-match": "bogus"})
    assert reply.status_code == 401
    assert "hidden" not in reply.text
    assert server.rest("GET", "/secret.json", token="owner").json() == "hidden"
    server.rest("PUT", "/open.json", body="visible", token="owner")
    reply = server.rest("PUT", "/open.json", body="x", headers={"if-match": "bogus"})
    assert reply.status_code == 412 and reply.json() == "visible" and reply.headers["ETag"]
