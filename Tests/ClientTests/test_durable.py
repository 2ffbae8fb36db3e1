"""`rules serve --data`: acknowledged writes survive SIGKILL at any moment, multi-path updates are
never half applied, a restart restores namespaces and uploaded rules, and `--export` writes the
stored data in the emulator's layout."""
import json
import os
import random
import signal
import subprocess
import tempfile
import threading
import time

import requests

from conftest import BINARY, Server, wait_for
from wire import Wire

OPEN = {"rules": {".read": True, ".write": True}}


class Writer(threading.Thread):
    """Writes numbered values on its own connection, one at a time, and remembers what was
    acknowledged and what was in flight when the server died."""

    def __init__(self, url, name, start, acked=None):
        super().__init__(daemon=True)
        self.url, self.name, self.n = url, name, start
        self.acked = dict(acked or {"single": 0, "pair": 0})
        self.in_flight = {}
        self.session = requests.Session()
        self.count = 0

    def run(self):
        while True:
            self.n += 1
            kind = "pair" if self.n % 2 else "single"
            self.in_flight[kind] = self.n
            try:
                if kind == "single":
                    r = self.session.put(f"{self.url}/crash/single/{self.name}.json", data=json.dumps(self.n), timeout=10)
                else:
                    body = {f"crash/pairs/{self.name}/a": self.n, f"crash/pairs/{self.name}/b": self.n,
                            f"crash/pairs/{self.name}/log/n{self.n}": True}
                    r = self.session.patch(f"{self.url}/.json", data=json.dumps(body), timeout=10)
            except requests.RequestException:
                return
            if r.status_code != 200:
                return
            self.acked[kind] = self.n
            self.count += 1


class WireWriter(threading.Thread):
    """The same over the WebSocket protocol: a set, then wait for its `ok`."""

    def __init__(self, port, name, start, acked=None):
        super().__init__(daemon=True)
        self.wire = Wire(port, ns="demo-test-default-rtdb")
        self.name, self.n = name, start
        self.acked = dict(acked or {"single": 0})
        self.in_flight = {}
        self.count = 0

    def run(self):
        while True:
            self.n += 1
            self.in_flight["single"] = self.n
            try:
                status, _ = self.wire.request("p", {"p": f"/crash/single/{self.name}", "d": self.n}, timeout=10)
            except Exception:  # noqa: BLE001 - the server died
                return
            if status != "ok":
                return
            self.acked["single"] = self.n
            self.count += 1


def check_survivors(server, writers):
    tree = server.rest("GET", "/crash.json").json() or {}
    for w in writers:
        stored = (tree.get("single") or {}).get(w.name)
        allowed = {w.acked["single"], w.in_flight.get("single", w.acked["single"])}
        assert (stored or 0) in allowed, (w.name, stored, w.acked, w.in_flight)
        if "pair" in w.acked:
            pair = (tree.get("pairs") or {}).get(w.name) or {}
            # Never half applied: both members, and the log entry, come from the same update.
            assert pair.get("a") == pair.get("b"), (w.name, pair)
            allowed = {w.acked["pair"], w.in_flight.get("pair", w.acked["pair"])}
            assert (pair.get("a") or 0) in allowed, (w.name, pair, w.acked, w.in_flight)
            if pair.get("a"):
                assert (pair.get("log") or {}).get(f"n{pair['a']}") is True
    return tree


def test_acknowledged_writes_survive_sigkill_at_random_moments():
    rng = random.Random(20261124)
    with tempfile.TemporaryDirectory(prefix="rules-serve-data-") as data:
        attempted = {}
        total = 0
        for cycle in range(6):
            server = Server(OPEN, ["--data", data, "--project", "demo-test"])
            try:
                tree = server.rest("GET", "/crash.json").json() or {}
                single, pairs = tree.get("single") or {}, tree.get("pairs") or {}
                writers = [
                    Writer(server.url, f"rest{i}", attempted.get(f"rest{i}", 0),
                           {"single": single.get(f"rest{i}", 0), "pair": (pairs.get(f"rest{i}") or {}).get("a", 0)})
                    for i in range(4)]
                writers.append(WireWriter(server.port, "ws0", attempted.get("ws0", 0), {"single": single.get("ws0", 0)}))
                for w in writers:
                    w.start()
                time.sleep(rng.uniform(0.3, 1.2))
                server.proc.send_signal(signal.SIGKILL)
                server.proc.wait(timeout=10)
                for w in writers:
                    w.join(timeout=15)
                    assert not w.is_alive()
                total += sum(w.count for w in writers)
            finally:
                server.stop()
            restarted = Server(OPEN, ["--data", data, "--project", "demo-test"])
            try:
                check_survivors(restarted, writers)
            finally:
                restarted.stop()
            for w in writers:
                attempted[w.name] = w.n
        assert total > 200, f"only {total} writes were acknowledged over the cycles"


def test_namespaces_and_uploaded_rules_survive_a_restart_and_export_writes_the_emulator_layout():
    with tempfile.TemporaryDirectory(prefix="rules-serve-data-") as data:
        server = Server(OPEN, ["--data", data])
        try:
            assert server.rest("PUT", "/a.json", {"b": {".value": 1, ".priority": 2}}, ns="one").status_code == 200
            assert server.rest("PUT", "/x.json", [1, 2], ns="two").status_code == 200
            uploaded = '{"rules": {".read": "auth != null", ".write": false}}'
            r = server.rest("PUT", "/.settings/rules.json", raw=uploaded, token="owner", ns="two")
            assert r.status_code == 200, r.text
        finally:
            server.stop()
        server = Server(OPEN, ["--data", data])
        try:
            r = server.rest("GET", "/.json", ns="one", format="export")
            assert r.json() == {"a": {"b": {".value": 1, ".priority": 2}}}
            denied = server.rest("GET", "/x.json", ns="two")
            assert denied.status_code == 401  # the uploaded rules, named after their namespace
            assert "uploaded rules (namespace two):1:" in denied.headers["X-Rules-Explanation"], denied.headers
            # The banner says which namespaces run uploaded rules.
            assert wait_for(lambda: any("uploaded rules:    two (" in line for line in server.log)), server.log[:12]
            assert server.rest("GET", "/x.json", ns="two", token="owner").json() == [1, 2]
            assert server.rest("GET", "/.settings/rules.json", ns="two", token="owner").text == uploaded
        finally:
            server.stop()
        with tempfile.TemporaryDirectory(prefix="rules-serve-export-") as out:
            result = subprocess.run([BINARY, "serve", "--data", data, "--export", out], capture_output=True, text=True, timeout=60)
            assert result.returncode == 0, result.stderr
            files = sorted(os.listdir(os.path.join(out, "database_export")))
            assert files == ["one.json", "two.json"]
            with open(os.path.join(out, "database_export", "one.json")) as f:
                assert json.load(f) == {"a": {"b": {".value": 1, ".priority": 2}}}


def test_a_data_directory_is_used_by_one_server_at_a_time():
    with tempfile.TemporaryDirectory(prefix="rules-serve-data-") as data:
        server = Server(OPEN, ["--data", data])
        try:
            second = subprocess.run([BINARY, "serve", "--port", "0", "--data", data], capture_output=True, text=True, timeout=30)
            assert second.returncode == 2
            assert "is in use by another server" in second.stderr
            assert server.rest("PUT", "/still.json", "fine").status_code == 200
        finally:
            server.stop()


def test_sigterm_finishes_writes_and_exports_with_data():
    with tempfile.TemporaryDirectory(prefix="rules-serve-data-") as data, \
            tempfile.TemporaryDirectory(prefix="rules-serve-export-") as out:
        server = Server(OPEN, ["--data", data, "--export-on-exit", out])
        try:
            writers = [Writer(server.url, f"t{i}", 0) for i in range(3)]
            for w in writers:
                w.start()
            time.sleep(0.5)
            server.proc.send_signal(signal.SIGTERM)
            assert server.proc.wait(timeout=20) == 0
            for w in writers:
                w.join(timeout=15)
        finally:
            server.stop()
        with open(os.path.join(out, "database_export", "default.json")) as f:
            exported = json.load(f)
        restarted = Server(OPEN, ["--data", data])
        try:
            assert restarted.rest("GET", "/.json", format="export").json() == exported
            check_survivors(restarted, writers)
        finally:
            restarted.stop()
