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


def test_unavailable_flags_fail_clearly():
    for flag in ("--data", "--import", "--export-on-exit"):
        result = subprocess.run([BINARY, "serve", "--port", "0", flag, "somewhere"], capture_output=True, text=True, timeout=30)
        assert result.returncode == 2
        assert f"{flag} is not available in this version" in result.stderr


def test_without_rules_everything_is_open_with_a_warning():
    with tempfile.TemporaryDirectory(prefix="rules-serve-test-") as empty:
        proc = subprocess.Popen([os.path.abspath(BINARY), "serve", "--port", "0"], cwd=empty,
                                stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        try:
            banner = "".join(proc.stderr.readline() for _ in range(6))
            assert "open rules (everything allowed)" in banner
            assert "warning: no rules file given" in banner
        finally:
            proc.terminate()
            proc.wait(timeout=10)
