"""Load: 8 writers (4 over REST, 4 over the WebSocket protocol, pipelined) and 100 listeners
(50 streaming, 50 WebSocket listens) for LOAD_OPERATIONS operations. The final tree must equal
the replay of the acknowledged writes, in each writer's order, and every listener's last value
must equal the final tree at its location.

The test suite runs 20,000 operations (about a minute on the debug build); the full run is
    LOAD_OPERATIONS=100000 bash Tests/ClientTests/run.sh Tests/ClientTests/test_load.py -s
(RULES_BINARY=.build-release/release/rules for the release build), which prints its rate."""
import copy
import json
import os
import random
import threading
import time

import requests

from conftest import wait_for
from wire import Wire, set_at

OPERATIONS = int(os.environ.get("LOAD_OPERATIONS", "20000"))
KEYS = 40


def get_at(tree, keys):
    node = tree
    for key in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def normalized(value):
    """Objects without empty members, as the server stores them (empty objects vanish)."""
    if isinstance(value, dict):
        out = {k: normalized(v) for k, v in value.items()}
        out = {k: v for k, v in out.items() if v is not None}
        return out or None
    return value


class Model:
    """What one writer's acknowledged operations make of its subtree, replayed in order."""

    def __init__(self):
        self.tree = {"root": None}

    def apply(self, op):
        kind, base, body = op
        if kind == "set":
            set_at(self.tree, base, body)
        else:
            for rel, value in body.items():
                set_at(self.tree, base + rel.split("/"), value)


def operation(rng, writer, i):
    base = ["load", f"w{writer}"]
    r = rng.random()
    if r < 0.5:
        return ("set", base + [f"k{rng.randrange(KEYS)}"], {"i": i, "v": rng.randrange(1000)})
    if r < 0.85:
        a, b = rng.sample(range(KEYS), 2)
        return ("update", base, {f"k{a}/i": i, f"k{b}": {"i": i, "pair": a}})
    return ("set", base + [f"k{rng.randrange(KEYS)}"], None)


class RestWriter(threading.Thread):
    def __init__(self, url, writer, count):
        super().__init__(daemon=True)
        self.url, self.writer, self.count = url, writer, count
        self.model = Model()
        self.error = None

    def run(self):
        rng = random.Random(self.writer)
        session = requests.Session()
        try:
            for i in range(self.count):
                op = operation(rng, self.writer, i)
                kind, keys, body = op
                path = "/".join(keys)
                if kind == "set":
                    r = session.put(f"{self.url}/{path}.json?print=silent", data=json.dumps(body), timeout=30)
                else:
                    r = session.patch(f"{self.url}/{path}.json?print=silent", data=json.dumps(body), timeout=30)
                assert r.status_code in (200, 204), r.text
                self.model.apply(op)
        except Exception as error:  # noqa: BLE001 - reported by the test
            self.error = error


class WireWriter(threading.Thread):
    """Pipelines up to `window` requests on one connection; the server applies them in order."""

    def __init__(self, port, writer, count, window=64):
        super().__init__(daemon=True)
        self.wire = Wire(port, ns="default")
        self.writer, self.count, self.window = writer, count, window
        self.model = Model()
        self.error = None

    def run(self):
        rng = random.Random(self.writer)
        sent = []
        try:
            for i in range(self.count):
                op = operation(rng, self.writer, i)
                kind, keys, body = op
                path = "/" + "/".join(keys)
                r = self.wire.send("p" if kind == "set" else "m", {"p": path, "d": body})
                sent.append((r, op))
                if len(sent) >= self.window:
                    self.settle(sent[: self.window // 2])
                    sent = sent[self.window // 2:]
            self.settle(sent)
        except Exception as error:  # noqa: BLE001 - reported by the test
            self.error = error

    def settle(self, batch):
        for r, op in batch:
            reply = self.wire.reply(r, timeout=60)
            assert reply["s"] == "ok", reply
            self.model.apply(op)


class SseListener(threading.Thread):
    def __init__(self, url, keys):
        super().__init__(daemon=True)
        self.keys = keys
        self.tree = {"root": None}
        self.lock = threading.Lock()
        self.response = requests.get(f"{url}/{'/'.join(keys)}.json", headers={"Accept": "text/event-stream"},
                                     stream=True, timeout=600)
        self.events = 0

    def run(self):
        event = None
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event in ("put", "patch"):
                    data = json.loads(line[6:])
                    keys = [k for k in data["path"].split("/") if k]
                    with self.lock:
                        if event == "put":
                            set_at(self.tree, keys, data["data"])
                        else:
                            for rel, value in data["data"].items():
                                set_at(self.tree, keys + [k for k in rel.split("/") if k], value)
                        self.events += 1
        except Exception:  # noqa: BLE001 - closed at the end of the test
            pass

    def value(self):
        with self.lock:
            return copy.deepcopy(self.tree["root"])


def test_writers_and_listeners_under_load(serve):
    server = serve({"rules": {".read": True, ".write": True}})
    rng = random.Random(7)
    locations = [["load"]] + [["load", f"w{w}"] for w in range(8)]
    locations += [["load", f"w{rng.randrange(8)}", f"k{rng.randrange(KEYS)}"] for _ in range(91)]
    sse = [SseListener(server.url, keys) for keys in locations[:50]]
    for listener in sse:
        listener.start()
    wires = [Wire(server.port, ns="default") for _ in range(10)]
    ws_listens = []
    for i, keys in enumerate(locations[50:]):
        wire = wires[i % len(wires)]
        status, _ = wire.request("q", {"p": "/" + "/".join(keys), "h": ""})
        assert status == "ok"
        ws_listens.append((wire, keys))

    per_writer = OPERATIONS // 8
    writers = [RestWriter(server.url, w, per_writer) for w in range(4)]
    writers += [WireWriter(server.port, w, per_writer) for w in range(4, 8)]
    started = time.time()
    for w in writers:
        w.start()
    for w in writers:
        w.join(timeout=1800)
        assert not w.is_alive(), "a writer did not finish"
        assert w.error is None, repr(w.error)
    elapsed = time.time() - started

    final = server.rest("GET", "/load.json").json()
    expected = {}
    for w in writers:
        subtree = normalized(get_at(w.model.tree["root"], ["load", f"w{w.writer}"]))
        if subtree is not None:
            expected[f"w{w.writer}"] = subtree
    assert final == (expected or None)

    def listeners_caught_up():
        for listener in sse:
            if normalized(listener.value()) != normalized(get_at({"load": final}, listener.keys)):
                return False
        for wire, keys in ws_listens:
            if normalized(wire.value_at("/" + "/".join(keys))) != normalized(get_at({"load": final}, keys)):
                return False
        return True

    assert wait_for(listeners_caught_up, timeout=120)
    for listener in sse:
        listener.response.close()
    for wire in wires + [w.wire for w in writers if isinstance(w, WireWriter)]:
        wire.close()
    print(f"\n{OPERATIONS} operations by 8 writers with 100 listeners in {elapsed:.1f} s "
          f"({OPERATIONS / elapsed:.0f} operations/s); {sum(l.events for l in sse)} streaming events")
