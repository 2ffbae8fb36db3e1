"""The npm packages (Scripts/build-npm-packages.py, run by Scripts/build-release.sh) as a project
installs them: a fresh npm project installs the main package, swift-database-rules, and this
platform's package from the packed .tgz files with the network off (`npm install --offline`, an
empty cache) and runs `npx rules check` and `npx rules test` on the bundled examples, with a PATH
that reaches node and npm but no Swift toolchain. What they print is what the archive's binary
prints. The launcher passes on the exit status and signals, and says in one line what to do when
no platform package is installed.

Skipped, saying so, where npm is not installed (.ci/run installs Debian's npm)."""
import json
import os
import re
import shutil
import signal
import subprocess
import tarfile
import time

import pytest

from conftest import BINARY, REPO, toolchain_free_path, untimed

BAD_RULES = '{"rules": {".read": "auth != null", ".write": "auth.uid === $nobody"}}\n'
TOOLS = ["node", "npm", "npx", "sh", "ldd"]


@pytest.fixture(scope="module")
def npm_project(release_packages, tmp_path_factory):
    """A fresh npm project with both packages installed offline from their files, and the
    environment to run npm in (PATH without Swift)."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("npm is not installed (apt-get install npm; .ci/run does)")
    if not release_packages["npm"]:
        pytest.skip("Scripts/build-release.sh wrote no npm packages (npm was missing when it ran)")
    main, platform_package = release_packages["npm"]
    work = tmp_path_factory.mktemp("npm")
    project = work / "app"
    project.mkdir()
    (project / "package.json").write_text(json.dumps({"name": "app", "version": "1.0.0", "private": True}))
    shutil.copytree(os.path.join(REPO, "rules-examples"), project / "rules-examples")
    (project / "bad").mkdir()
    (project / "bad" / "database.rules.json").write_text(BAD_RULES)
    env = {"PATH": toolchain_free_path(str(work / "bin"), TOOLS), "HOME": str(work / "home"), "LANG": "C.UTF-8",
           "TMPDIR": str(work), "npm_config_cache": str(work / "npm-cache"), "npm_config_offline": "true",
           "npm_config_update_notifier": "false"}
    installed = subprocess.run(["npm", "install", "--offline", "--no-audit", "--no-fund", main, platform_package],
                               cwd=project, env=env, capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return project, env


def npx(project, env, *arguments):
    return subprocess.run(["npx", "--offline", "rules", *arguments], cwd=project, env=env, capture_output=True, text=True, timeout=300)


def test_the_packages_are_named_and_versioned_as_the_binary(release_packages):
    version = release_packages["version"]
    assert subprocess.run([BINARY, "--version"], capture_output=True, text=True).stdout.strip() == version
    main, platform_package = release_packages["npm"] if release_packages["npm"] else pytest.skip("no npm packages were built")
    assert os.path.basename(main) == f"swift-database-rules-{version}.tgz"
    assert re.fullmatch(rf"swift-database-rules-(linux|darwin)-(x64|arm64)-{re.escape(version)}\.tgz", os.path.basename(platform_package))
    for package in (main, platform_package):
        digest = open(package + ".sha256").read().split()
        assert digest[1] == os.path.basename(package)
    with tarfile.open(main) as tar:
        manifest = json.load(tar.extractfile("package/package.json"))
        names = tar.getnames()
    assert manifest["bin"] == {"rules": "bin/rules.js"} and "package/bin/rules.js" in names
    assert manifest["optionalDependencies"] == {f"@swift-database-rules/{p}": version
                                                for p in ("linux-x64", "linux-arm64", "darwin-arm64", "darwin-x64")}
    with tarfile.open(platform_package) as tar:
        manifest = json.load(tar.extractfile("package/package.json"))
        binary = tar.getmember("package/bin/rules")
        names = tar.getnames()
    assert manifest["version"] == version and manifest["os"] and manifest["cpu"]
    assert binary.mode & 0o111, oct(binary.mode)
    assert "package/bin/lib/libz3.so.4" in names, names


def test_npx_rules_checks_and_tests_the_examples_without_swift(npm_project):
    project, env = npm_project
    assert shutil.which("swift", path=env["PATH"]) is None
    installed = project / "node_modules" / "@swift-database-rules"
    (platform_dir,) = list(installed.iterdir())
    binary = platform_dir / "bin" / "rules"
    ldd = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, env=env)
    assert ldd.returncode == 0 and "not found" not in ldd.stdout, ldd.stdout
    assert not re.search(r"libswift|Foundation|libdispatch", ldd.stdout), ldd.stdout
    assert f"libz3.so.4 => {platform_dir}/bin/lib/libz3.so.4" in ldd.stdout, ldd.stdout

    for arguments in (["check", "--strict", "rules-examples"], ["test", "rules-examples"], ["check", "bad/database.rules.json"]):
        through_npm = npx(project, env, *arguments)
        direct = subprocess.run([BINARY, *arguments], cwd=project, capture_output=True, text=True, timeout=300,
                                env={"PATH": os.environ["PATH"], "LANG": "C.UTF-8"})
        assert through_npm.returncode == direct.returncode, through_npm.stdout + through_npm.stderr
        assert untimed(through_npm.stdout) == untimed(direct.stdout)
        assert untimed(through_npm.stderr) == untimed(direct.stderr)
    assert npx(project, env, "check", "--strict", "rules-examples").returncode == 0
    failed = npx(project, env, "check", "bad/database.rules.json")
    assert failed.returncode == 1 and "error:" in failed.stdout, failed.stdout
    passed = npx(project, env, "test", "rules-examples")
    assert passed.returncode == 0 and re.search(r"\d+ passed, 0 failed", passed.stdout), passed.stdout
    assert npx(project, env, "--no-such-option").returncode == 64


def test_the_launcher_passes_signals_on(npm_project):
    project, env = npm_project
    launcher = project / "node_modules" / ".bin" / "rules"
    # Ctrl-C stops a watch loop with status 0; SIGTERM ends the binary, and the launcher with it.
    for sent, expected in ((signal.SIGINT, 0), (signal.SIGTERM, -signal.SIGTERM)):
        process = subprocess.Popen([str(launcher), "check", "--watch", "rules-examples"], cwd=project, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            first = process.stdout.readline()  # the first run's report: the binary is running
            assert first, "rules check --watch printed nothing"
            time.sleep(0.5)
            process.send_signal(sent)
            output = process.communicate(timeout=30)[0]
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        assert process.returncode == expected, (sent, process.returncode, first + output)


def test_without_the_platform_package_the_launcher_says_what_to_do(npm_project):
    project, env = npm_project
    installed = project / "node_modules" / "@swift-database-rules"
    hidden = project / "hidden-platform-packages"
    os.rename(installed, hidden)
    try:
        result = npx(project, env, "--version")
    finally:
        os.rename(hidden, installed)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert re.fullmatch(r"rules: the package @swift-database-rules/\S+, which holds the binary for \S+ \S+, is not installed: "
                        r"install again without --omit=optional.*", lines[0]), lines[0]
