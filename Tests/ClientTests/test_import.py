"""`rules serve --import`: a large export is read as a stream with progress on the terminal, a
malformed one loads nothing and names the byte, and with `--data` an import killed with SIGKILL at
any moment leaves either all of the previous data or all of the import, never a part."""
import json
import os
import re
import signal
import subprocess
import tempfile
import threading
import time

from conftest import BINARY, Server

OPEN = {"rules": {".read": True, ".write": True}}
PROJECT = ["--project", "demo-test"]
NAMESPACE = "demo-test-default-rtdb"


def write_export(directory, items):
    """An export with `items` records in the default namespace and a second namespace; returns
    the main file's size."""
    folder = os.path.join(directory, "database_export")
    os.makedirs(folder)
    path = os.path.join(folder, f"{NAMESPACE}.json")
    with open(path, "w") as f:
        f.write('{"marker": "import", "items": {')
        batch = []
        for n in range(items):
            batch.append(f'"item{n:07d}": {{"title": "Item number {n} with some text", "n": {n}, '
                         f'"tags": ["alpha", "beta"], "meta": {{".value": {n % 97}, ".priority": {n}}}}}')
            if len(batch) == 5000:
                f.write(",".join(batch) + ",")
                batch = []
        batch.append('"last": {"done": true}')
        f.write(",".join(batch) + "}}")
    with open(os.path.join(folder, "other.json"), "w") as f:
        json.dump({"from": "import"}, f)
    return os.path.getsize(path)


class ImportRun:
    """`rules serve --data DATA --import EXPORT`, its standard error collected line by line."""

    def __init__(self, data, export, rules):
        self.proc = subprocess.Popen(
            [os.path.abspath(BINARY), "serve", rules, "--port", "0", "--data", data, "--import", export, *PROJECT],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.lines = []
        self.imported = threading.Event()
        self.listening = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stderr:
            self.lines.append(line)
            if line.startswith("rules serve: imported "):
                self.imported.set()
            if "listening on http://" in line:
                self.listening.set()

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.reader.join(timeout=10)


def state(server, items):
    """'previous', 'import', or a description of a mixture."""
    tree = server.rest("GET", "/.json", shallow="true").json() or {}
    other = server.rest("GET", "/.json", ns="other").json()
    if sorted(tree) == ["before", "marker"] and other is None:
        assert server.rest("GET", "/before.json").json() == {"acked": "yes", "n": 1}
        assert server.rest("GET", "/marker.json").json() == "previous"
        return "previous"
    if sorted(tree) == ["items", "marker"] and other == {"from": "import"}:
        assert server.rest("GET", "/marker.json").json() == "import"
        keys = server.rest("GET", "/items.json", shallow="true").json()
        assert len(keys) == items + 1, f"{len(keys)} items of {items + 1}"
        assert server.rest("GET", f"/items/item{items - 1:07d}.json", format="export").json() == {
            "title": f"Item number {items - 1} with some text", "n": items - 1, "tags": {"0": "alpha", "1": "beta"},
            "meta": {".value": (items - 1) % 97, ".priority": items - 1}}
        return "import"
    return f"a mixture: root {sorted(tree)}, other namespace {other!r}"


def test_an_import_killed_with_sigkill_is_all_or_nothing():
    items = 120_000
    with tempfile.TemporaryDirectory(prefix="rules-serve-import-") as work:
        export = os.path.join(work, "export")
        size = write_export(export, items)
        assert size > 15_000_000, size
        rules = os.path.join(work, "open.rules.json")
        with open(rules, "w") as f:
            json.dump(OPEN, f)

        # How long a whole import takes, and what it prints.
        calibration = os.path.join(work, "calibration")
        started = time.time()
        run = ImportRun(calibration, export, rules)
        try:
            assert run.listening.wait(timeout=600), "".join(run.lines)
            full = time.time() - started
        finally:
            run.kill()
        # Progress is printed only for a file read for over a second (`ImportProgressPrinterTests`
        # has the rule on a clock of its own): a fast build, with the file in the page cache, may
        # print none.
        progress = [line for line in run.lines if line.startswith("rules serve: importing ")]
        done = [line for line in run.lines if line.startswith(f"rules serve: imported {NAMESPACE}.json: ")]
        if progress:
            assert re.match(rf"rules serve: importing {NAMESPACE}\.json: [\d.]+ MB of {round(size / 1e6)} MB \(\d+ %\)$", progress[0].rstrip()), progress[0]
            assert len(done) == 1 and f", {items * 5 + 2} leaves in " in done[0], "".join(run.lines)
        else:
            assert full < 3, f"an import of {full:.1f} s printed no progress: " + "".join(run.lines)

        outcomes = []
        # Killed while the file is read (at fractions of the whole time), right after it is read
        # (while storage writes it), and once the server listens (the import is stored then).
        for moment in [0.2, 0.6, "imported", "listening"]:
            data = os.path.join(work, f"data-{moment}")
            server = Server(OPEN, ["--data", data, *PROJECT])
            try:
                assert server.rest("PUT", "/before.json", {"acked": "yes", "n": 1}).status_code == 200
                assert server.rest("PUT", "/marker.json", "previous").status_code == 200
            finally:
                server.stop()
            run = ImportRun(data, export, rules)
            try:
                if moment == "imported":
                    # The server prints that line only for an import that took over a second
                    # (`ImportProgressPrinter`); a faster one (the release build, the file in the
                    # page cache) is killed as soon as it listens instead.
                    deadline = time.time() + 600
                    while not (run.imported.is_set() or run.listening.is_set()) and time.time() < deadline:
                        time.sleep(0.005)
                    assert run.imported.is_set() or run.listening.is_set(), "".join(run.lines)
                elif moment == "listening":
                    assert run.listening.wait(timeout=600), "".join(run.lines)
                else:
                    run.listening.wait(timeout=moment * full)
            finally:
                run.kill()
            restarted = Server(OPEN, ["--data", data, *PROJECT])
            try:
                outcome = state(restarted, items)
            finally:
                restarted.stop()
            assert outcome in ("previous", "import"), f"killed at {moment}: {outcome}"
            outcomes.append(outcome)
        assert outcomes[0] == "previous" and outcomes[-1] == "import", outcomes


def test_a_malformed_export_loads_nothing_and_names_the_byte():
    with tempfile.TemporaryDirectory(prefix="rules-serve-import-") as work:
        folder = os.path.join(work, "export", "database_export")
        os.makedirs(folder)
        text = '{"a": {' + ",".join(f'"k{n}": {n}' for n in range(300_000)) + ', "broken" 1}}'
        offset = text.index('"broken" 1') + len('"broken" ')
        with open(os.path.join(folder, f"{NAMESPACE}.json"), "w") as f:
            f.write(text)
        with open(os.path.join(folder, "fine.json"), "w") as f:
            f.write('{"ok": true}')
        data = os.path.join(work, "data")
        server = Server(OPEN, ["--data", data, *PROJECT])
        try:
            assert server.rest("PUT", "/kept.json", "yes").status_code == 200
        finally:
            server.stop()
        result = subprocess.run([BINARY, "serve", "--port", "0", "--data", data, "--import", os.path.join(work, "export"), *PROJECT],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 2
        assert f"{NAMESPACE}.json: Invalid JSON at byte {offset}: expected ':' after the key." in result.stderr, result.stderr
        server = Server(OPEN, ["--data", data, *PROJECT])
        try:
            assert server.rest("GET", "/.json").json() == {"kept": "yes"}
            assert server.rest("GET", "/.json", ns="fine").json() is None
        finally:
            server.stop()


def test_a_string_past_the_limit_is_refused_without_being_held():
    """A 200 MB string in an export is refused with its length, and the import never holds it:
    the process's peak memory stays far below the string's size."""
    with tempfile.TemporaryDirectory(prefix="rules-serve-import-") as work:
        folder = os.path.join(work, "export", "database_export")
        os.makedirs(folder)
        piece = "word " * 200_000
        length = 200 * len(piece)
        with open(os.path.join(folder, f"{NAMESPACE}.json"), "w") as f:
            f.write('{"post": {"body": "')
            for _ in range(200):
                f.write(piece)
            f.write('"}}')
        # A fresh Python process waits for the server, so its children's peak memory is the
        # server's alone.
        probe = ("import resource, subprocess, sys\n"
                 "r = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=300)\n"
                 "print(r.returncode)\n"
                 "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
                 "sys.stdout.write(r.stderr)\n")
        result = subprocess.run(
            ["python3", "-c", probe, os.path.abspath(BINARY), "serve", "--port", "0", "--import", os.path.join(work, "export"), *PROJECT],
            capture_output=True, text=True, timeout=400)
        code, peak_kib, stderr = result.stdout.split("\n", 2)
        assert code == "2", result.stdout
        assert f"String at /post/body is too long: {length} bytes (the limit is 10485760)." in stderr, stderr
        assert int(peak_kib) < 150 * 1024, f"peak RSS {int(peak_kib) // 1024} MB while refusing a 200 MB string"
