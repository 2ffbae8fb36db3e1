"""REST reference §14 items 8 and 9: listen() sees other clients' writes, in order, and is
cancelled when the rules stop allowing the read."""
import queue

import pytest
import requests
from firebase_admin import exceptions

from conftest import ref, wait_for

ROOMS = {"rules": {"rooms": {"$r": {".read": "data.child('public').val() === true || auth.uid === 'alice'",
                                    ".write": "auth != null"}}}}


def collect(reference):
    events = queue.Queue()
    registration = reference.listen(lambda e: events.put((e.event_type, e.path, e.data)))
    return registration, events


def take(events, n, timeout=5):
    return [events.get(timeout=timeout) for _ in range(n)]


def test_listen_sees_every_kind_of_write_in_order(serve, apps):
    serve(ROOMS)
    admin, alice = apps(), apps({"uid": "alice"})
    registration, events = collect(ref(alice, "rooms/r1"))
    try:
        assert take(events, 1) == [("put", "/", None)]
        key = ref(admin, "rooms/r1/msgs").push({"text": "hi"}).key
        ref(admin, "rooms/r1").update({"title": "x", "meta/n": 1})
        ref(admin, "rooms/r1/title").set("y")
        ref(admin, "rooms").set({"r1": {"title": "z"}})
        ref(admin, "rooms/r1").delete()
        assert take(events, 5) == [
            ("put", f"/msgs/{key}", {"text": "hi"}),
            ("patch", "/", {"title": "x", "meta/n": 1}),
            ("put", "/title", "y"),
            ("put", "/", {"title": "z"}),
            ("put", "/", None),
        ]
    finally:
        registration.close()


def test_listen_denied_raises(serve, apps):
    serve(ROOMS)
    bob = apps({"uid": "bob"})
    with pytest.raises(exceptions.UnauthenticatedError):
        ref(bob, "rooms/secret").listen(lambda e: None)


def test_losing_the_read_cancels_the_stream(serve, apps):
    server = serve(ROOMS)
    admin, bob = apps(), apps({"uid": "bob"})
    ref(admin, "rooms/open").set({"public": True, "title": "t"})
    registration, events = collect(ref(bob, "rooms/open"))
    try:
        assert take(events, 1) == [("put", "/", {"public": True, "title": "t"})]
        ref(admin, "rooms/open/public").set(False)
        ref(admin, "rooms/open/title").set("after")
        with pytest.raises(queue.Empty):
            events.get(timeout=1)
    finally:
        registration.close()
    # The raw stream shows the cancel event.
    ref(admin, "rooms/raw").set({"public": True})
    stream = requests.get(f"{server.url}/rooms/raw.json?ns=demo-test", headers={"Accept": "text/event-stream"}, stream=True, timeout=10)
    assert stream.headers["Content-Type"] == "text/event-stream; charset=utf-8"
    lines = stream.iter_lines(decode_unicode=True)
    assert next(lines) == "event: put"
    assert next(lines) == 'data: {"path":"/","data":{"public":true}}'
    ref(admin, "rooms/raw/public").set(False)
    rest = [line for line in lines if line]
    assert rest == ["event: cancel", "data: null"]
