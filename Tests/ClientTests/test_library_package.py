"""The library as a server author gets it: an app that depends on `DatabaseRules` alone, by path
(`Tests/Packages/LibraryOnlyApp`), builds from a cold start without any of the server's, the
tool's or the test runner's dependencies, and runs; a target of the same package that names the
library's internals (the VM, the snapshot table) does not compile."""
import os
import re
import subprocess
import tempfile
import time

import pytest

from conftest import REPO

FIXTURE = os.path.join(REPO, "Tests", "Packages", "LibraryOnlyApp")
# Modules that only the server, the command-line tool or the test runner need.
NOT_FOR_THE_LIBRARY = ("NIO", "Hummingbird", "GRDB", "Crypto", "ArgumentParser", "Yams", "Logging", "ServiceLifecycle")


@pytest.fixture(scope="module")
def scratch():
    with tempfile.TemporaryDirectory(prefix="library-only-app-") as directory:
        yield directory


def swift_build(scratch, product):
    env = dict(os.environ, TMPDIR=os.path.join(scratch, "tmp"))
    os.makedirs(env["TMPDIR"], exist_ok=True)
    return subprocess.run(["swift", "build", "--package-path", FIXTURE, "--scratch-path", os.path.join(scratch, "build"), "--product", product],
                          capture_output=True, text=True, timeout=1200, env=env)


def test_an_app_that_uses_only_the_library_builds_without_the_servers_dependencies_and_runs(scratch):
    started = time.monotonic()
    result = swift_build(scratch, "App")
    seconds = time.monotonic() - started
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    compiled = set(re.findall(r"Compiling (\w+) ", result.stdout))
    assert {"RulesSyntax", "RulesCompiler", "RulesRuntime", "DatabaseRules", "App"} <= compiled, compiled
    assert not [m for m in compiled if m.startswith(NOT_FOR_THE_LIBRARY)], compiled
    steps = max(int(n) for n in re.findall(r"^\[\d+/(\d+)\]", result.stdout, re.MULTILINE))
    print(f"cold build of a library-only app: {steps} steps, {seconds:.0f} s")
    run = subprocess.run([os.path.join(scratch, "build", "debug", "App")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.splitlines() == [
        "first: true count: 1",
        "second: false auth.uid === $uid was false: 'bob' === 'alice'",
        "stale compare-and-set: stale hash now: true",
        "push key: 20",
        "read: true",
    ], run.stdout


def test_an_app_cannot_name_the_librarys_internals(scratch):
    result = swift_build(scratch, "Forbidden")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "cannot find type 'VM' in scope" in output, output[-3000:]
    assert "cannot find type 'SnapshotTable' in scope" in output, output[-3000:]
