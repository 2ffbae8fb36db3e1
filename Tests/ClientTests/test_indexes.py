"""Indexed queries on a collection large enough to be indexed (2,000 children): REST reads and an
SDK-shaped WebSocket query listen, followed through writes, select what a scan computed here
selects (the database's order: values, ties by key)."""
import json
import random
import time


from conftest import ref
from wire import Wire

RULES = {"rules": {".read": True, ".write": True,
                   "posts": {".indexOn": ["starCount", "uid"]}, "scores": {".indexOn": ".value"}}}


def kind(v):
    if v is None:
        return (0,)
    if v is False:
        return (1,)
    if v is True:
        return (2,)
    if isinstance(v, (int, float)):
        return (3, v)
    if isinstance(v, str):
        return (4, v.encode())
    return (5,)


def ordered(children, field):
    """Keys in the query order (keys here are not integers: they order by their bytes)."""
    def value(key):
        child = children[key]
        return child.get(field) if field and isinstance(child, dict) else (None if field else child)
    return sorted(children, key=lambda k: (kind(value(k)), k.encode()))


def posts(n, seed):
    rng = random.Random(seed)
    out = {}
    for i in range(n):
        post = {"uid": f"u{rng.randrange(50)}", "title": f"post {i}"}
        r = rng.random()
        if r < 0.9:
            post["starCount"] = rng.randrange(30)
        elif r < 0.95:
            post["starCount"] = f"s{rng.randrange(5)}"
        out[f"p{i:05d}"] = post
    return out


def rest_query(server, path, **params):
    encoded = {k: json.dumps(v) for k, v in params.items()}
    reply = server.rest("GET", path, token="owner", **encoded)
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_indexed_rest_queries_equal_the_scan_through_writes(serve):
    server = serve(RULES)
    data = posts(2000, 1)
    assert server.rest("PUT", "/posts.json", token="owner", body=data).status_code == 200
    rng = random.Random(2)
    for step in range(30):
        top = ordered(data, "starCount")
        assert list(rest_query(server, "/posts.json", orderBy="starCount", limitToLast=5)) == sorted(top[-5:])
        assert set(rest_query(server, "/posts.json", orderBy="starCount", startAt=10, endAt=12)) == {
            k for k in data if isinstance(data[k].get("starCount"), int) and 10 <= data[k]["starCount"] <= 12}
        assert set(rest_query(server, "/posts.json", orderBy="uid", equalTo="u7")) == {k for k in data if data[k].get("uid") == "u7"}
        first = ordered(data, "starCount")[:10]
        assert set(rest_query(server, "/posts.json", orderBy="starCount", limitToFirst=10)) == set(first)
        assert list(rest_query(server, "/posts.json", orderBy="$key", limitToLast=3)) == sorted(data)[-3:]
        # One write: a new score, a removal, or a multi-path update of two children.
        key = f"p{rng.randrange(2100):05d}"
        r = rng.random()
        if r < 0.5:
            value = {"uid": f"u{rng.randrange(50)}", "starCount": rng.randrange(40)}
            assert server.rest("PUT", f"/posts/{key}.json", token="owner", body=value).status_code == 200
            data[key] = value
        elif r < 0.7:
            assert server.rest("DELETE", f"/posts/{key}.json", token="owner").status_code == 200
            data.pop(key, None)
        else:
            other = f"p{rng.randrange(2000):05d}"
            if other == key:
                continue
            body = {f"{key}/starCount": rng.randrange(40), f"{other}/uid": "u7"}
            assert server.rest("PATCH", "/posts.json", token="owner", body=body).status_code == 200
            data.setdefault(key, {})["starCount"] = body[f"{key}/starCount"]
            data.setdefault(other, {})["uid"] = "u7"


def test_a_query_listen_follows_its_selection_through_writes(serve):
    server = serve(RULES)
    data = posts(2000, 3)
    assert server.rest("PUT", "/posts.json", token="owner", ns="demo", body=data).status_code == 200
    wire = Wire(server.port)
    assert wire.request("s", {"c": {"sdk.js.10-0-0": 1}})[0] == "ok"
    status, body = wire.request("q", {"p": "/posts", "q": {"i": "starCount", "l": 5, "vf": "r"}, "t": 1, "h": ""})
    assert (status, body) == ("ok", {})

    def top():
        return {k: data[k] for k in ordered(data, "starCount")[-5:]}

    assert wire.value_at("/posts", tag=1) == top()
    rng = random.Random(4)
    for step in range(20):
        key = f"p{rng.randrange(2000):05d}"
        value = {"uid": "u1", "starCount": rng.choice([rng.randrange(30), "s9", 1000 + step])}
        assert server.rest("PUT", f"/posts/{key}.json", token="owner", ns="demo", body=value).status_code == 200
        data[key] = value
        expected = top()
        deadline = time.time() + 5
        while wire.value_at("/posts", tag=1) != expected and time.time() < deadline:
            time.sleep(0.01)
        assert wire.value_at("/posts", tag=1) == expected, f"step {step}"
    wire.close()


def test_the_admin_sdk_reads_an_indexed_value_order(serve, apps):
    serve(RULES)
    admin = apps()
    scores = {f"k{i:04d}": (i * 37) % 101 for i in range(500)}
    ref(admin, "scores").set(scores)
    got = ref(admin, "scores").order_by_value().limit_to_last(4).get()
    expected = sorted(scores, key=lambda k: (scores[k], k))[-4:]
    assert list(got) == expected
    got = ref(admin, "scores").order_by_value().start_at(50).end_at(50).get()
    assert sorted(got) == sorted(k for k in scores if scores[k] == 50)
