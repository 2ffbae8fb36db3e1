"""REST reference §14 item 2: CRUD round-trip as admin, with the real firebase-admin SDK."""
from conftest import ref

OPEN = {"rules": {".read": True, ".write": True}}


def test_set_get_update_push_delete(serve, apps):
    serve(OPEN)
    admin = apps()
    users = ref(admin, "users")
    users.set({"alice": {"name": "Alice", "since": 1830, "temp": "x"}, "bob": {"name": "Bob"}})
    assert users.get() == {"alice": {"name": "Alice", "since": 1830, "temp": "x"}, "bob": {"name": "Bob"}}
    users.update({"alice/temp": None, "alice/since": 1840, "bob/since": 1946})
    assert users.get() == {"alice": {"name": "Alice", "since": 1840}, "bob": {"name": "Bob", "since": 1946}}
    users.child("alice").update({"temp": None})
    assert ref(admin, "users/alice").get() == {"name": "Alice", "since": 1840}
    users.delete()
    assert users.get() is None
    assert ref(admin, "nothing/here").get() is None


def test_push_ids_are_twenty_characters_in_creation_order(serve, apps):
    serve(OPEN)
    admin = apps()
    msgs = ref(admin, "msgs")
    empty = msgs.push()
    assert len(empty.key) == 20
    assert empty.get() == ""
    keys = [msgs.push({"n": i}).key for i in range(20)]
    assert keys == sorted(keys)
    assert all(len(k) == 20 for k in keys)
    stored = msgs.get()
    assert [stored[k]["n"] for k in keys] == list(range(20))


def test_arrays_and_non_ascii(serve, apps):
    serve(OPEN)
    admin = apps()
    ref(admin, "a").set([1, 2, 3])
    assert ref(admin, "a").get() == [1, 2, 3]
    ref(admin, "b").set({"0": "a", "2": "c"})
    assert ref(admin, "b").get() == ["a", None, "c"]
    ref(admin, "c").set({"0": "a", "5": "f"})
    assert ref(admin, "c").get() == {"0": "a", "5": "f"}
    ref(admin, "é ü/ключ").set({"naïve": "héllo €", "emoji": "🙂"})
    assert ref(admin, "é ü/ключ").get() == {"naïve": "héllo €", "emoji": "🙂"}
    assert ref(admin, "é ü").get() == {"ключ": {"naïve": "héllo €", "emoji": "🙂"}}
