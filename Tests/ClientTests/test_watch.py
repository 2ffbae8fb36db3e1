"""`rules check --watch` and `rules test --watch`: a file edited between two runs, and the second
run showing what changed; Ctrl-C (SIGINT) stopping the loop cleanly."""
import os
import signal
import subprocess
import tempfile
import time

from conftest import BINARY

GOOD_RULES = '{"rules": {"users": {"$uid": {".read": "auth != null && auth.uid == $uid", ".write": false}}}}\n'
SPEC = """rules: database.rules.json
auth:
  alice: { uid: alice }
tests:
  - name: alice reads her own record
    as: alice
    read: /users/alice
    expect: allow
"""


def first_run(proc):
    """The output of the first run, up to the `Watching N files` line."""
    lines = []
    deadline = time.time() + 60
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("Watching ") or time.time() > deadline:
            break
    return "".join(lines)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def watch(args, cwd, edit):
    """Runs a watch for two runs, editing between them; returns both outputs and the status."""
    proc = subprocess.Popen([BINARY, *args, "--watch", "--watch-runs", "2", "--color", "never"],
                            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        before = first_run(proc)
        edit()
        after, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return before, after, proc.returncode, err


def test_check_watch_shows_the_finding_fixed_and_the_new_one():
    with tempfile.TemporaryDirectory(prefix="rules-watch-") as tmp:
        path = os.path.join(tmp, "database.rules.json")
        write(path, GOOD_RULES.replace("auth.uid == $uid", "auth.uid == $userId"))
        before, after, status, err = watch(["check", "database.rules.json"], tmp,
                                           lambda: write(path, GOOD_RULES.replace("auth != null", "auth != nul")))
        assert "[unknown-variable]" in before, before
        assert "Watching 1 file for changes" in before, before
        assert "Re-ran after a change to database.rules.json." in after, after
        fixed = [l for l in after.splitlines() if l.startswith("fixed: ")]
        new = [l for l in after.splitlines() if l.startswith("new: ")]
        assert len(fixed) == 1 and "Unknown variable '$userId'" in fixed[0] and fixed[0].startswith("fixed: database.rules.json:1:"), after
        assert len(new) == 1 and new[0].startswith("new: database.rules.json:1:") and "'nul'" in new[0], after
        assert after.rstrip().endswith("in 1 file."), after
        assert "\x1b[2J" not in after  # not a terminal: the screen is not cleared
        assert status == 1, err


def test_test_watch_shows_a_test_that_now_passes():
    with tempfile.TemporaryDirectory(prefix="rules-watch-") as tmp:
        rules = os.path.join(tmp, "database.rules.json")
        write(rules, GOOD_RULES.replace("auth.uid == $uid", "auth.uid == 'nobody'"))
        write(os.path.join(tmp, "users.test.yaml"), SPEC)
        before, after, status, err = watch(["test", "users.test.yaml"], tmp, lambda: write(rules, GOOD_RULES))
        assert "0 passed, 1 failed" in before, before
        assert "fixed: users.test.yaml:" in after and "alice reads her own record" in after, after
        assert after.rstrip().endswith("1 passed, 0 failed"), after
        assert status == 0, err


def test_ctrl_c_stops_watching_cleanly():
    with tempfile.TemporaryDirectory(prefix="rules-watch-") as tmp:
        write(os.path.join(tmp, "database.rules.json"), GOOD_RULES)
        proc = subprocess.Popen([BINARY, "check", "database.rules.json", "--watch"], cwd=tmp,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            first_run(proc)
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert "Stopped watching." in out, (out, err)
        assert proc.returncode == 0, err


def test_check_watch_reads_the_configuration_again():
    with tempfile.TemporaryDirectory(prefix="rules-watch-") as tmp:
        write(os.path.join(tmp, "database.rules.json"), '{"rules": {"notes": {"$id": {".write": "auth != null"}}}}\n')
        config = os.path.join(tmp, ".database-rules.yaml")
        write(config, "lints:\n  public-read: warning\n")
        before, after, status, err = watch(["check", "database.rules.json"], tmp,
                                           lambda: write(config, "lints:\n  unvalidated-write: off\n"))
        assert "[unvalidated-write]" in before, before
        assert "Watching 2 files for changes" in before, before
        fixed = [l for l in after.splitlines() if l.startswith("fixed: ")]
        assert any("[unvalidated-write]" in l for l in fixed), after
        assert "[unvalidated-write]" not in "".join(l for l in after.splitlines() if l.startswith("new: ")), after
