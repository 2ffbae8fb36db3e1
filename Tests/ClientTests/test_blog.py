"""REST reference §14 items 12 and 13: the blog's double star with increment, and server
timestamps."""
import os
import threading
import time

import pytest
from firebase_admin import db, exceptions

from conftest import REPO, ref

POST = {"uid": "bob", "author": "Bob", "title": "Hello", "body": "b", "starCount": 0}


@pytest.fixture
def blog(serve, apps):
    with open(os.path.join(REPO, "rules-examples", "blog", "database.rules.json")) as f:
        serve(f.read())
    admin = apps()
    ref(admin, "/").set({"posts": {"p1": POST}, "user-posts": {"bob": {"p1": POST}}})
    return admin


def star(uid, delta=1):
    value = True if delta > 0 else None
    return {f"posts/p1/stars/{uid}": value,
            "posts/p1/starCount": {".sv": {"increment": delta}},
            f"user-posts/bob/p1/starCount": {".sv": {"increment": delta}}}


def counters(admin):
    return ref(admin, "posts/p1/starCount").get(), ref(admin, "user-posts/bob/p1/starCount").get()


def test_the_second_star_is_denied_and_moves_no_counter(blog, apps):
    alice = apps({"uid": "alice"})
    ref(alice, "/").update(star("alice"))
    assert counters(blog) == (1, 1)
    with pytest.raises(exceptions.UnauthenticatedError):
        ref(alice, "/").update(star("alice"))
    assert counters(blog) == (1, 1)
    ref(alice, "/").update(star("alice", -1))
    assert counters(blog) == (0, 0)
    assert ref(blog, "posts/p1/stars").get() is None


def test_two_users_starring_at_once_end_at_two(blog, apps):
    users = [apps({"uid": "alice"}), apps({"uid": "carol"})]
    errors = []

    def go(app, uid):
        try:
            ref(app, "/").update(star(uid))
        except Exception as error:  # noqa: BLE001
            errors.append(error)

    threads = [threading.Thread(target=go, args=(app, uid)) for app, uid in zip(users, ["alice", "carol"])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert counters(blog) == (2, 2)


def test_server_timestamp(serve, apps):
    server = serve({"rules": {"t": {".read": True, ".write": True, ".validate": "newData.val() === now"}}})
    admin, user = apps(), apps({"uid": "u"})
    events = []
    registration = ref(admin, "t").listen(lambda e: events.append(e.data))
    try:
        with pytest.raises(exceptions.UnauthenticatedError):
            ref(user, "t").set(12345)
        before = int(time.time() * 1000)
        ref(user, "t").set({".sv": "timestamp"})
        after = int(time.time() * 1000)
        stored = ref(admin, "t").get()
        assert isinstance(stored, int) and before - 1 <= stored <= after + 1
        deadline = time.time() + 5
        while time.time() < deadline and stored not in events:
            time.sleep(0.02)
        assert stored in events
        assert all(not isinstance(e, dict) for e in events)
    finally:
        registration.close()
    with pytest.raises(exceptions.InvalidArgumentError):
        ref(user, "t").set({".sv": "bogus"})
