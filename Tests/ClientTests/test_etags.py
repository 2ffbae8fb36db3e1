"""REST reference §14 items 5 and 6: ETags, conditional writes and transactions under contention."""
import threading

from firebase_admin import db

from conftest import ref, wait_for

OPEN = {"rules": {".read": True, ".write": True}}


def test_etag_primitives(serve, apps):
    server = serve(OPEN)
    admin, other = apps(), apps()
    node = ref(admin, "doc")
    node.set({"v": 1})
    value, etag = node.get(etag=True)
    assert value == {"v": 1} and isinstance(etag, str) and len(etag) == 28
    assert node.get_if_changed(etag) == (False, None, None)
    ref(other, "doc/v").set(2)
    changed, new_value, new_etag = node.get_if_changed(etag)
    assert changed and new_value == {"v": 2} and new_etag != etag
    assert node.set_if_unchanged("bogus", {"v": 3}) == (False, {"v": 2}, new_etag)
    ok, written, after = node.set_if_unchanged(new_etag, {"v": 3})
    assert ok and written == {"v": 3} and after not in (new_etag, etag)
    assert node.get() == {"v": 3}


def test_if_match_null_etag_creates_only_when_absent(serve):
    server = serve(OPEN)
    first = server.rest("PUT", "/once.json", body=1, headers={"if-match": "null_etag"})
    assert first.status_code == 200 and first.headers["ETag"] == "YPVfR2bXt/lcDjiQZ8pOkAd3qkQ="
    second = server.rest("PUT", "/once.json", body=2, headers={"if-match": "null_etag"})
    assert second.status_code == 412 and second.json() == 1
    # Logged as a retry, not an error.
    assert wait_for(lambda: [r["verdict"] for r in server.requests_logged() if r["status"] == 412] == ["stale"])
    assert second.headers["ETag"] == "YPVfR2bXt/lcDjiQZ8pOkAd3qkQ="
    deleted = server.rest("DELETE", "/once.json", headers={"X-Firebase-ETag": "true"})
    assert deleted.headers["ETag"] == "null_etag"


def run_transactions(app_list, path, each=25):
    """Each app runs `each` increments; a transaction the SDK gives up on after its 25 tries
    (TransactionAbortedError) is run again, and counted. Returns (other errors, aborts)."""
    errors = []
    aborts = []

    def work(app):
        try:
            for _ in range(each):
                while True:
                    try:
                        ref(app, path).transaction(lambda n: (n or 0) + 1)
                        break
                    except db.TransactionAbortedError:
                        aborts.append(1)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(app,)) for app in app_list]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"{len(aborts)} transactions gave up after 25 tries and were run again")
    return errors


def test_eight_threads_of_transactions_end_at_exactly_200(serve, apps):
    serve({"rules": {"counter": {".read": "auth != null", ".write": "auth != null"}}})
    admin = apps()
    mixed = [apps() for _ in range(4)] + [apps({"uid": f"u{i}"}) for i in range(4)]
    assert run_transactions(mixed, "counter") == []
    assert ref(admin, "counter").get() == 200


def test_transactions_validated_by_the_rules_end_at_200(serve, apps):
    serve({"rules": {"counter": {".read": True, ".write": "auth.uid === 'alice'",
                                 ".validate": "newData.val() === (data.exists() ? data.val() : 0) + 1"}}})
    admin = apps()
    alices = [apps({"uid": "alice"}) for _ in range(8)]
    assert run_transactions(alices, "counter") == []
    assert ref(admin, "counter").get() == 200
