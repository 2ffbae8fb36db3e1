"""A small client of the Realtime Database WebSocket protocol (v5), written for these tests:
it speaks the framing, numbers requests, keeps pushes and replies apart, and keeps a cache of
what the server pushed, as an SDK would."""
import base64
import hashlib
import json
import queue
import struct
import threading

from websockets.sync.client import connect

PIECE = 16384


class Wire:
    def __init__(self, port, ns="demo", host="127.0.0.1"):
        self.ws = connect(f"ws://{host}:{port}/.ws?v=5&ns={ns}", max_size=None).__enter__()
        self.r = 0
        self.replies = {}
        self.pushes = []
        self.arrivals = []  # ("reply", r) or ("push", action), in the order received
        self.cache = {}
        self.cond = threading.Condition()
        self.closed = False
        self.hello = json.loads(self.ws.recv(timeout=5))
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        try:
            for message in messages(self.ws):
                with self.cond:
                    self._take(message)
                    self.cond.notify_all()
        except Exception:  # noqa: BLE001 - the socket closed
            with self.cond:
                self.closed = True
                self.cond.notify_all()

    def _take(self, message):
        assert message["t"] in ("c", "d")
        d = message["d"]
        if message["t"] == "c":
            self.pushes.append(("control", d))
        elif "r" in d:
            self.replies[d["r"]] = d["b"]
            self.arrivals.append(("reply", d["r"]))
        else:
            self.pushes.append((d["a"], d["b"]))
            self.arrivals.append(("push", d["a"]))
            if d["a"] in ("d", "m"):
                self._apply(d["a"], d["b"])

    def _apply(self, action, body):
        tree = self.cache.setdefault(body.get("t"), {"root": None})
        keys = [k for k in body["p"].split("/") if k]
        if action == "d":
            set_at(tree, keys, body["d"])
        elif action == "m":
            for rel, value in body["d"].items():
                set_at(tree, keys + [k for k in rel.split("/") if k], value)

    def value_at(self, path, tag=None):
        """What the pushes so far say is at `path` (for a tag: in that query's view)."""
        with self.cond:
            node = self.cache.get(tag, {"root": None})["root"]
            for key in [k for k in path.split("/") if k]:
                if not isinstance(node, dict):
                    return None
                node = node.get(key)
            return node

    def send_raw(self, text):
        send_message(self.ws, text)

    def send(self, action, body):
        self.r += 1
        self.send_raw(json.dumps({"t": "d", "d": {"r": self.r, "a": action, "b": body}}, separators=(",", ":"), ensure_ascii=False))
        return self.r

    def reply(self, r, timeout=5):
        with self.cond:
            self.cond.wait_for(lambda: r in self.replies or self.closed, timeout=timeout)
            if r not in self.replies:
                raise AssertionError(f"no reply to request {r} (closed: {self.closed})")
            return self.replies[r]

    def request(self, action, body, timeout=5):
        """Sends a request and returns (status, data) of its reply."""
        reply = self.reply(self.send(action, body), timeout)
        return reply["s"], reply.get("d")

    def wait_push(self, predicate, timeout=5):
        with self.cond:
            ok = self.cond.wait_for(lambda: any(predicate(a, b) for a, b in self.pushes), timeout=timeout)
            return ok

    def wait_closed(self, timeout=5):
        with self.cond:
            return self.cond.wait_for(lambda: self.closed, timeout=timeout)

    def close(self):
        self.ws.close()
        self.wait_closed()


def send_message(ws, text):
    """Sends one message, in pieces of at most PIECE characters after a count if it is long."""
    if len(text) <= PIECE:
        ws.send(text)
        return
    pieces = [text[i:i + PIECE] for i in range(0, len(text), PIECE)]
    ws.send(str(len(pieces)))
    for piece in pieces:
        ws.send(piece)


def messages(ws):
    """The messages a socket receives, their pieces joined (a frame holding a count announces
    that many pieces); ends with an exception when the socket closes."""
    pending, pieces = 0, []
    while True:
        frame = ws.recv()
        if pending:
            pieces.append(frame)
            if len(pieces) < pending:
                continue
            frame, pending, pieces = "".join(pieces), 0, []
        elif len(frame) <= 6 and frame.strip().isdigit():
            pending = int(frame)
            assert pending > 0, "the server sent a zero frame count"
            continue
        yield json.loads(frame)


def set_at(tree, keys, value):
    """Sets `value` at `keys` in a nested-dict tree (None deletes; empty objects vanish)."""
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if not k.startswith(".") or k == ".value"}
        if ".value" in value:
            value = value[".value"]
    if not keys:
        tree["root"] = value
        return
    if not isinstance(tree["root"], dict):
        tree["root"] = {}
    node = tree["root"]
    for key in keys[:-1]:
        if not isinstance(node.get(key), dict):
            node[key] = {}
        node = node[key]
    if value is None:
        node.pop(keys[-1], None)
    else:
        node[keys[-1]] = value


def normal(path):
    return "/" + path.strip("/")


def node_hash(value, priority=None):
    """The SDKs' node hash (protocol reference §10) of a JSON value without priorities."""
    def leaf_text(v):
        if isinstance(v, bool):
            return "boolean:" + ("true" if v else "false")
        if isinstance(v, (int, float)):
            return "number:" + struct.pack(">d", float(v)).hex()
        return "string:" + v

    def b64sha1(text):
        return base64.b64encode(hashlib.sha1(text.encode()).digest()).decode()

    if value is None:
        return ""
    if not isinstance(value, dict):
        return b64sha1(leaf_text(value))
    def key_order(k):
        try:
            n = int(k)
            if -2**31 <= n < 2**31 and str(n) == k:
                return (0, n, k)
        except ValueError:
            pass
        return (1, 0, k)
    body = ""
    for k in sorted(value, key=key_order):
        h = node_hash(value[k])
        if h:
            body += ":" + k + ":" + h
    return b64sha1(body) if body else ""
