"""Namespace names are database names, never file paths: `?ns=` outside the rule is a 400, an
export writes only inside its folder, and nothing a client sends breaks a line of the log."""
import json
import os
import re
import subprocess
import tempfile

import pytest
import requests

from conftest import BINARY

OPEN = {"rules": {".read": True, ".write": True}}


def start(work, *args, log="text"):
    rules = os.path.join(work, "open.rules.json")
    with open(rules, "w") as f:
        json.dump(OPEN, f)
    proc = subprocess.Popen([os.path.abspath(BINARY), "serve", rules, "--port", "0", "--log", log, *args],
                            cwd=work, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    first = proc.stderr.readline()
    match = re.search(r"127\.0\.0\.1:(\d+)", first)
    if not match:
        proc.kill()
        raise RuntimeError(f"rules serve did not start: {first}")
    return proc, f"http://127.0.0.1:{match.group(1)}"


def stop(proc):
    proc.terminate()
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err


@pytest.mark.parametrize("ns", ["../../package", "..%2F..%2Fpackage", "0/x", "Upper", "a.b", "a%0ab", "-a", "a" * 64])
def test_a_namespace_that_is_not_a_database_name_is_a_400(serve, ns):
    server = serve(OPEN)
    for method, body in (("GET", None), ("PUT", '"x"'), ("PATCH", '{"a": 1}'), ("DELETE", None)):
        r = requests.request(method, f"{server.url}/a.json?ns={ns}", data=body, timeout=10)
        assert r.status_code == 400, (method, ns, r.text)
        assert r.json()["error"].startswith("Invalid namespace "), r.text
        assert "lowercase letters (a-z), digits and hyphens" in r.json()["error"]


def test_a_client_cannot_make_the_export_write_outside_its_folder():
    with tempfile.TemporaryDirectory(prefix="rules-serve-test-") as work:
        with open(os.path.join(work, "package.json"), "w") as f:
            f.write('{"name": "mine"}')
        target = os.path.join(work, "out")
        proc, base = start(work, "--export-on-exit", target)
        try:
            assert requests.put(f"{base}/name.json?ns=../../package", data='"pwned"', timeout=10).status_code == 400
            assert requests.put(f"{base}/name.json?ns=..%2fpackage", data='"pwned"', timeout=10).status_code == 400
            assert requests.put(f"{base}/y.json?ns=0/x", data='1', timeout=10).status_code == 400
            assert requests.put(f"{base}/kept.json?ns=good-one", data='"yes"', timeout=10).status_code == 200
            assert requests.put(f"{base}/kept.json", data='"default"', timeout=10).status_code == 200
        finally:
            err = stop(proc)
        assert proc.returncode == 0, err
        with open(os.path.join(work, "package.json")) as f:
            assert json.load(f) == {"name": "mine"}
        assert sorted(os.listdir(work)) == ["open.rules.json", "out", "package.json"]
        assert sorted(os.listdir(os.path.join(target, "database_export"))) == ["default.json", "good-one.json"]
        with open(os.path.join(target, "database_export", "good-one.json")) as f:
            assert json.load(f) == {"kept": "yes"}


def test_an_import_file_whose_name_is_not_a_namespace_is_refused():
    with tempfile.TemporaryDirectory(prefix="rules-serve-test-") as work:
        os.makedirs(os.path.join(work, "in", "database_export"))
        for name in ("good.json", "Bad.json"):
            with open(os.path.join(work, "in", "database_export", name), "w") as f:
                f.write('{"a": 1}')
        run = subprocess.run([os.path.abspath(BINARY), "serve", "--port", "0", "--import", os.path.join(work, "in")],
                             cwd=work, capture_output=True, text=True, timeout=30)
        assert run.returncode == 2
        assert 'Bad.json: "Bad" is not a namespace name' in run.stderr


def test_a_namespace_cannot_forge_a_line_of_the_log():
    with tempfile.TemporaryDirectory(prefix="rules-serve-test-") as work:
        proc, base = start(work)
        try:
            forged = "x%0ADENY%20PUT%20default/admin%20(owner)%20200%200.1%20ms"
            assert requests.get(f"{base}/a.json?ns={forged}", timeout=10).status_code == 400
            assert requests.get(f"{base}/a.json?ns=a%1B[2J%0D", timeout=10).status_code == 400
        finally:
            err = stop(proc)
        lines = err.splitlines()
        assert not any(line.startswith("DENY PUT default/admin") for line in lines), err
        assert "\x1b" not in err
        assert any("Invalid namespace" in line and "\\n" in line for line in lines), err


def test_reads_of_new_names_make_no_namespace(serve):
    server = serve(OPEN)
    for i in range(20):
        r = server.rest("GET", "/.json", ns=f"probe-{i}")
        assert r.status_code == 200 and r.json() is None
    assert server.rest("PUT", "/a.json", body=1, ns="written").status_code == 200
    names = [d["name"] for d in server.rest("GET", "/.inspect/databases.json", token="owner").json()]
    assert names == ["written"]
