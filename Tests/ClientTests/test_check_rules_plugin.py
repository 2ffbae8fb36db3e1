"""The SwiftPM command plugin as an app's package uses it: Tests/Packages/PluginApp, copied to a
temporary directory with its dependency on this repository by path, runs `swift package
check-rules`; a rules file with an error fails (non-zero exit, the diagnostic printed), the fixed
file passes.

The first test runs the plugin with CHECK_RULES_TOOL naming the release archive's `rules` (the one
the other tests use), so that the plugin costs the package's resolution and the plugin's own
compilation, not a build of the tool. The second runs it cold, as an app's developer first does:
the plugin builds `rules` in the package's build directory (several minutes on two cores), so it
runs only when RULES_TEST_PLUGIN_COLD=1."""
import os
import shutil
import subprocess
import time

import pytest

from conftest import BINARY, REPO

FIXTURE = os.path.join(REPO, "Tests", "Packages", "PluginApp")
BAD_RULES = """{
  "rules": {
    "users": {
      "$uid": {
        ".read": "auth != null && auth.uid === $uid",
        ".write": "auth != null && auth.uid === $user",
        ".validate": "newData.hasChildren(['name'])"
      }
    }
  }
}
"""


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """The sample package in a temporary directory, depending on this repository by its absolute path,
    and its scratch directory (shared by the tests of this module)."""
    base = tmp_path_factory.mktemp("plugin-app")
    directory = base / "PluginApp"
    shutil.copytree(FIXTURE, directory, ignore=shutil.ignore_patterns(".build", ".swiftpm", "Package.resolved"))
    manifest = directory / "Package.swift"
    text = manifest.read_text()
    assert 'path: "../../.."' in text
    manifest.write_text(text.replace('path: "../../.."', f"path: {REPO!r}".replace("'", '"')))
    (base / "tmp").mkdir()
    return {"directory": directory, "scratch": base / "build", "tmp": base / "tmp"}


def check_rules(package, tool, *arguments):
    env = dict(os.environ, TMPDIR=str(package["tmp"]))
    env.pop("CHECK_RULES_TOOL", None)
    if tool:
        env["CHECK_RULES_TOOL"] = tool
    started = time.monotonic()
    result = subprocess.run(["swift", "package", "--package-path", str(package["directory"]), "--scratch-path", str(package["scratch"]),
                             "check-rules", *arguments],
                            capture_output=True, text=True, timeout=1800, env=env)
    return result, time.monotonic() - started


def fails_then_passes(package, tool):
    rules = package["directory"] / "database.rules.json"
    good = open(os.path.join(FIXTURE, "database.rules.json")).read()
    rules.write_text(BAD_RULES)
    failed, seconds = check_rules(package, tool)
    output = failed.stdout + failed.stderr
    assert failed.returncode != 0, output[-4000:]
    assert "database.rules.json:6:" in output and "error:" in output and "$user" in output, output[-4000:]
    assert "rules check found problems in PluginApp" in output, output[-4000:]
    print(f"swift package check-rules (tool {tool or 'built by the plugin'}), failing: {seconds:.0f} s")

    rules.write_text(good)
    passed, seconds = check_rules(package, tool)
    output = passed.stdout + passed.stderr
    assert passed.returncode == 0, output[-4000:]
    assert "error:" not in output, output[-4000:]
    print(f"swift package check-rules, passing: {seconds:.0f} s")

    # Arguments go to `rules check`: a path names what to check, options change how.
    (package["directory"] / "other.rules.json").write_text(BAD_RULES)
    try:
        only, _ = check_rules(package, tool, "--format", "json", "database.rules.json")
        assert only.returncode == 0, only.stdout[-2000:] + only.stderr[-2000:]
        assert only.stdout.lstrip().startswith(("{", "[")), only.stdout[:500]
        everything, _ = check_rules(package, tool)
        assert everything.returncode != 0 and "other.rules.json:6:" in everything.stdout + everything.stderr
    finally:
        (package["directory"] / "other.rules.json").unlink()


def test_check_rules_with_a_rules_tool_already_built(package, release_rules):
    fails_then_passes(package, release_rules["rules"])


def test_check_rules_builds_the_rules_tool_when_none_is_named(package):
    if os.environ.get("RULES_TEST_PLUGIN_COLD") != "1":
        pytest.skip("the plugin's own build of `rules` takes minutes: run with RULES_TEST_PLUGIN_COLD=1")
    fails_then_passes(package, None)
