"""A small client of the Realtime Database long-polling transport (`/.lp`), written for these
tests from the protocol reference: it plays what the JavaScript SDK does in a browser (every
request a script whose answer calls `pLPCommand`/`pRTLPCB`), without a browser.

- `start=t` gives the long-polling id and password, and packet 0 (the handshake).
- One poll is always open; data goes out as web-safe base64 segments (`seg`, `ts`, `d`) of at
  most 1,840 characters on a second request beside it.
- Packets are processed strictly by number, as the SDK does; a missing number stalls it.
- `upgrade()` moves to WebSocket as the SDK does: `/.ws?s=<session>`, the server's `a`, two
  pings answered, the client's `a` on the socket, `n` on long polling; from then on it sends on
  the socket, and data that arrives on the socket is held until the server's long-polling `n`.

It keeps the same cache and reply book as `wire.Wire`, so the same assertions read both."""
import base64
import json
import queue
import random
import re
import threading
import time

import requests
from websockets.sync.client import connect

from wire import Wire, messages, send_message

SEGMENT = 1840
URL_BUDGET = 1870

START = re.compile(r"^pLPCommand\('start','([^']*)','([^']*)'\);$")
PACKET = re.compile(r"^pRTLPCB\((\d+),(.*)\);$")
CLOSE = re.compile(r"^pLPCommand\('close'(?:,(\d+))?\);$")


def encode(text):
    """JSON text as the SDK sends it: UTF-8, web-safe base64 with `.` for padding."""
    return base64.urlsafe_b64encode(text.encode()).decode().replace("=", ".")


class LongPoll(Wire):
    def __init__(self, port, ns="demo", host="127.0.0.1", cb=None, headers=None, hold_polls=True):
        self.base = f"http://{host}:{port}/.lp"
        self.port, self.host, self.ns = port, host, ns
        self.http = requests.Session()
        self.headers = dict(headers or {})
        self.cb = cb if cb is not None else random.randint(1, 99)
        self.r = 0
        self.replies, self.pushes, self.arrivals, self.cache = {}, [], [], {}
        self.cond = threading.Condition()
        self.closed = False          # the whole connection (long polling and any socket)
        self.lp_closed = False       # the long-polling transport
        self.close_after = None      # close long polling once this packet is processed
        self.packets = {}
        self.next_packet = 0
        self.packet_log = []         # numbers in the order processed
        self.seg = 0
        self.ser = random.randint(0, 10**8)
        self.outgoing = queue.Queue()
        self.socket = None           # the upgrade socket
        self.rx_socket = False       # data is taken from the socket (after the server's `n`)
        self.tx_socket = False       # data is sent on the socket (after the client's `a`)
        self.socket_buffer = []
        self.requests_made = []
        body = self._get({"start": "t", "ser": random.randint(0, 10**8), "cb": self.cb, "v": 5, "ns": ns})
        lines = [line for line in body.splitlines() if line]
        assert lines[0].startswith("function pLPCommand(") and f'parent.window["pLPCommand{self.cb}"]' in lines[0], body
        assert lines[1].startswith("function pRTLPCB(") and f'parent.window["pRTLPCB{self.cb}"]' in lines[1], body
        match = START.match(lines[2])
        assert match, body
        self.id, self.pw = match.group(1), match.group(2)
        self._run(lines[3:])
        with self.cond:
            assert self.hello_message is not None, body
        self.hello = self.hello_message
        self.session = self.hello["d"]["d"]["s"]
        self.poller = threading.Thread(target=self._poll, daemon=True)
        self.poller.start()
        self.sender = threading.Thread(target=self._send_loop, daemon=True)
        self.sender.start()

    hello_message = None

    # -- HTTP

    def _get(self, params, timeout=40):
        query = "&".join(f"{k}={v}" for k, v in params.items())
        self.requests_made.append(query)
        response = self.http.get(f"{self.base}?{query}", headers=self.headers, timeout=timeout)
        assert response.status_code == 200, (response.status_code, response.text)
        assert response.headers["Content-Type"].startswith("application/javascript"), response.headers
        return response.text

    def _params(self, **extra):
        self.ser += 1
        return {"id": self.id, "pw": self.pw, "ser": self.ser, "ns": self.ns, **extra}

    def _poll(self):
        try:
            while not self.lp_closed and not self.closed:
                body = self._get(self._params())
                self._run(body.splitlines())
        except Exception:  # noqa: BLE001 - the server went away
            self._lost()

    def _send_loop(self):
        """Sends queued segments on a request beside the poll, as many as fit one URL."""
        try:
            while True:
                first = self.outgoing.get()
                if first is None:
                    return
                batch = [first]
                size = len(first[2]) + 30
                while True:
                    try:
                        nxt = self.outgoing.queue[0]
                    except IndexError:
                        break
                    if size + len(nxt[2]) + 30 > URL_BUDGET:
                        break
                    batch.append(self.outgoing.get())
                    size += len(nxt[2]) + 30
                extra = {}
                for i, (seg, ts, data) in enumerate(batch):
                    extra[f"seg{i}"], extra[f"ts{i}"], extra[f"d{i}"] = seg, ts, data
                body = self._get(self._params(**extra))
                self._run(body.splitlines())
        except Exception:  # noqa: BLE001
            self._lost()

    def _lost(self):
        with self.cond:
            if not self.rx_socket:
                self.closed = True
            self.lp_closed = True
            self.cond.notify_all()

    # -- server to client

    def _run(self, lines):
        """Runs one answer's statements, as the browser runs the script."""
        with self.cond:
            for line in lines:
                if not line:
                    continue
                packet = PACKET.match(line)
                close = CLOSE.match(line)
                if packet:
                    number = int(packet.group(1))
                    if number >= self.next_packet:
                        self.packets[number] = json.loads(packet.group(2))
                elif close:
                    if close.group(1) and int(close.group(1)) > 0:
                        self.close_after = int(close.group(1))
                    else:
                        self.lp_closed = True
                        if not self.rx_socket:
                            self.closed = True
                elif not line.startswith("function ") and not line.startswith("/*"):
                    raise AssertionError(f"unexpected statement: {line}")
            while self.next_packet in self.packets:
                number = self.next_packet
                self.packet_log.append(number)
                for message in self.packets.pop(number):
                    self._receive_lp(message)
                self.next_packet += 1
                if self.close_after is not None and number >= self.close_after:
                    self.lp_closed = True
            self.cond.notify_all()

    def _receive_lp(self, message):
        if message["t"] == "c" and message["d"]["t"] == "h" and self.hello_message is None:
            self.hello_message = message
            return
        if message["t"] == "c" and message["d"]["t"] == "n":
            # The server's end of transmission: the socket is the receiving side now.
            self.rx_socket = True
            for held in self.socket_buffer:
                self._take(held)
            self.socket_buffer = []
            return
        self._take(message)

    # -- client to server

    def send_raw(self, text):
        if self.tx_socket:
            send_message(self.socket, text)
            return
        self._send_lp(text)

    def _send_lp(self, text):
        data = encode(text)
        pieces = [data[i:i + SEGMENT] for i in range(0, len(data), SEGMENT)] or [""]
        with self.cond:
            for piece in pieces:
                self.outgoing.put((self.seg, len(pieces), piece))
                self.seg += 1

    # -- the upgrade

    def upgrade(self, before_switch=None, timeout=5):
        """Moves to WebSocket as the SDK does. `before_switch` runs once the socket is healthy,
        before the client's `a` (to put writes in flight during the switch)."""
        socket = connect(f"ws://{self.host}:{self.port}/.ws?v=5&s={self.session}&ns={self.ns}", max_size=None).__enter__()
        first = json.loads(socket.recv(timeout=timeout))
        assert first == {"t": "c", "d": {"t": "a", "d": {}}}, first
        for _ in range(2):
            socket.send(json.dumps({"t": "c", "d": {"t": "p", "d": {}}}))
            assert json.loads(socket.recv(timeout=timeout)) == {"t": "c", "d": {"t": "o", "d": {}}}
        self.socket = socket
        threading.Thread(target=self._read_socket, daemon=True).start()
        if before_switch:
            before_switch()
        socket.send(json.dumps({"t": "c", "d": {"t": "a", "d": {}}}))
        with self.cond:
            self.tx_socket = True
            self._send_lp(json.dumps({"t": "c", "d": {"t": "n", "d": {}}}, separators=(",", ":")))

    def _read_socket(self):
        try:
            for message in messages(self.socket):
                with self.cond:
                    if self.rx_socket or message["t"] == "c":
                        if message["t"] == "d" or message["d"]["t"] != "o":
                            self._take(message)
                    else:
                        self.socket_buffer.append(message)
                    self.cond.notify_all()
        except Exception:  # noqa: BLE001 - the socket closed
            with self.cond:
                self.closed = True
                self.cond.notify_all()

    def wait_upgraded(self, timeout=5):
        with self.cond:
            return self.cond.wait_for(lambda: self.rx_socket and self.lp_closed, timeout=timeout)

    # -- the end

    def go_offline(self):
        """What the SDK's disconnect frame does when it is removed: `disconn`."""
        self.outgoing.put(None)
        with self.cond:
            self.lp_closed = True
        requests.get(f"{self.base}?disconn=t&id={self.id}&pw={self.pw}&ns={self.ns}", timeout=10)
        if self.socket:
            self.socket.close()

    def close(self):
        self.go_offline()
        with self.cond:
            self.closed = True
            self.cond.notify_all()
