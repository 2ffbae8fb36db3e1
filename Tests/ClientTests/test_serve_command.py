"""`rules serve` as a command: the rules file reloaded when it changes (and kept when the new one
does not compile), firebase.json, and the flags that are not available yet."""
import json
import os
import re
import subprocess
import tempfile
import time

from conftest import BINARY, Server, wait_for


def test_the_rules_file_is_reloaded_and_broken_rules_keep_the_old_ones(serve):
    server = serve({"rules": {".read": True}})
    assert server.rest("GET", "/a.json").status_code == 200
    time.sleep(1.1)  # file times have a one-second resolution on some systems
    with open(server.rules_path, "w") as f:
        f.write(json.dumps({"rules": {".read": False}}) + "\n")
    assert wait_for(lambda: server.rest("GET", "/a.json").status_code == 401)
    assert wait_for(lambda: any("rules reloaded" in line for line in server.log))
    time.sleep(1.1)
    with open(server.rules_path, "w") as f:
        f.write('{"rules": {".read": "auth.uid == $nope"}}\n')
    assert wait_for(lambda: any("do not compile" in line for line in server.log))
    assert any(re.search(r"database\.rules\.json:1:\d+: error: Unknown variable '\$nope'", line) for line in server.log)
    assert server.rest("GET", "/a.json").status_code == 401  # the previous rules stay in force


def test_firebase_json_names_the_rules_file():
    with tempfile.TemporaryDirectory(prefix="rules-serve-test-") as project:
        with open(os.path.join(project, "firebase.json"), "w") as f:
            json.dump({"database": {"rules": "db.rules.json"}}, f)
        with open(os.path.join(project, "db.rules.json"), "w") as f:
            json.dump({"rules": {"open": {".read": True}}}, f)
        proc = subprocess.Popen([os.path.abspath(BINARY), "serve", "--port", "0"], cwd=project,
                                stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        try:
            banner = "".join(proc.stderr.readline() for _ in range(2))
            assert "db.rules.json, for every namespace" in banner
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def test_a_missing_import_is_refused_clearly():
    missing = subprocess.run([BINARY, "serve", "--port", "0", "--import", "/nonexistent-export"], capture_output=True, text=True, timeout=30)
    assert missing.returncode == 2 and "/nonexistent-export/database_export: no such directory" in missing.stderr


def test_an_emulator_export_loads_and_exports_again_on_exit():
    with tempfile.TemporaryDirectory(prefix="rules-serve-test-") as work:
        source, target = os.path.join(work, "in"), os.path.join(work, "out")
        os.makedirs(os.path.join(source, "database_export"))
        # The layout and format the Firebase emulator writes: one file per namespace, priorities kept.
        exported = {"users": {"alice": {".value": "Alice", ".priority": 1}}, "list": {"0": "a", "1": "b"}, ".priority": "top"}
        with open(os.path.join(source, "database_export", "demo-default-rtdb.json"), "w") as f:
            json.dump(exported, f)
        with open(os.path.join(source, "database_export", "empty.json"), "w") as f:
            f.write("null")
        rules = os.path.join(work, "open.rules.json")
        with open(rules, "w") as f:
            json.dump({"rules": {".read": True, ".write": True}}, f)
        proc = subprocess.Popen([os.path.abspath(BINARY), "serve", rules, "--port", "0", "--import", source, "--export-on-exit", target],
                                stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        try:
            first = proc.stderr.readline()
            port = int(re.search(r"127\.0\.0\.1:(\d+)", first).group(1))
            import requests
            base = f"http://127.0.0.1:{port}"
            assert requests.get(f"{base}/.json?ns=demo-default-rtdb&format=export").json() == exported
            assert requests.get(f"{base}/users/alice.json?ns=demo-default-rtdb").json() == "Alice"
            assert requests.get(f"{base}/list.json?ns=demo-default-rtdb").json() == ["a", "b"]
            requests.put(f"{base}/new.json?ns=second", data='"value"')
        finally:
            proc.terminate()
            proc.wait(timeout=20)
        assert proc.returncode == 0
        files = sorted(os.listdir(os.path.join(target, "database_export")))
        assert files == ["demo-default-rtdb.json", "empty.json", "second.json"]
        with open(os.path.join(target, "database_export", "demo-default-rtdb.json")) as f:
            assert json.load(f) == exported
        with open(os.path.join(target, "database_export", "second.json")) as f:
            assert json.load(f) == {"new": "value"}


def test_without_rules_everything_is_open_with_a_warning():
    with tempfile.TemporaryDirectory(prefix="rules-serve-test-") as empty:
        proc = subprocess.Popen([os.path.abspath(BINARY), "serve", "--port", "0"], cwd=empty,
                                stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        try:
            # The banner's lines up to the warning (which follows the entries).
            banner = ""
            for _ in range(30):
                banner += proc.stderr.readline()
                if banner.rstrip("\n").splitlines()[-1:] and banner.rstrip("\n").splitlines()[-1].startswith("warning:"):
                    break
            assert "open rules (everything allowed)" in banner
            assert "warning: no rules file given" in banner
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def test_a_port_in_use_is_a_clear_error_and_a_prompt_exit(serve):
    server = serve({"rules": {".read": True}})
    started = time.time()
    taken = subprocess.run([BINARY, "serve", "--port", str(server.port)], capture_output=True, text=True, timeout=20)
    assert taken.returncode != 0
    assert f"rules serve: cannot listen on 127.0.0.1:{server.port}: address already in use" in taken.stderr, taken.stderr
    assert time.time() - started < 10


def test_sigint_with_a_stream_open_exits_promptly_and_in_flight_writes_are_kept():
    import requests
    import signal
    with tempfile.TemporaryDirectory(prefix="rules-serve-test-") as work:
        rules = os.path.join(work, "open.rules.json")
        with open(rules, "w") as f:
            json.dump({"rules": {".read": True, ".write": True}}, f)
        data = os.path.join(work, "data")
        proc = subprocess.Popen([os.path.abspath(BINARY), "serve", rules, "--port", "0", "--data", data],
                                stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        try:
            port = int(re.search(r"127\.0\.0\.1:(\d+)", proc.stderr.readline()).group(1))
            base = f"http://127.0.0.1:{port}"
            assert requests.put(f"{base}/kept.json", data="1", timeout=10).status_code == 200
            stream = requests.get(f"{base}/.json", headers={"Accept": "text/event-stream"}, stream=True, timeout=10)
            lines = stream.iter_lines()
            assert next(lines).startswith(b"event: put")
            started = time.time()
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=5)
            assert time.time() - started < 5
            assert proc.returncode == 0
            stream.close()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        # SIGTERM too, and the data written before is on disk.
        proc = subprocess.Popen([os.path.abspath(BINARY), "serve", rules, "--port", "0", "--data", data],
                                stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        try:
            port = int(re.search(r"127\.0\.0\.1:(\d+)", proc.stderr.readline()).group(1))
            base = f"http://127.0.0.1:{port}"
            assert requests.get(f"{base}/kept.json", timeout=10).json() == 1
            stream = requests.get(f"{base}/.json", headers={"Accept": "text/event-stream"}, stream=True, timeout=10)
            assert next(stream.iter_lines()).startswith(b"event: put")
            proc.terminate()
            proc.wait(timeout=5)
            stream.close()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_listening_on_a_non_loopback_address_warns_that_owner_is_the_administrator():
    with tempfile.TemporaryDirectory(prefix="rules-serve-test-") as empty:
        proc = subprocess.Popen([os.path.abspath(BINARY), "serve", "--port", "0", "--host", "0.0.0.0"], cwd=empty,
                                stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        try:
            banner = "".join(proc.stderr.readline() for _ in range(11))
            assert "warning: listening on 0.0.0.0, not a loopback address" in banner, banner
            assert "Bearer owner" in banner
            assert "can be the administrator by sending Host: localhost" in banner
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    quiet = Server({"rules": {".read": True}})
    try:
        assert wait_for(lambda: len(quiet.log) >= 5)
        assert not any("not a loopback address" in line for line in quiet.log)
    finally:
        quiet.stop()


def test_allow_host_takes_a_name_without_a_port():
    bad = subprocess.run([BINARY, "serve", "--port", "0", "--allow-host", "dev.lan:9000"], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2 and "--allow-host takes a host name without a port" in bad.stderr
