"""The Python wheel (Scripts/build-wheel.py, run by Scripts/build-release.sh) as pip installs it: a
fresh virtual environment installs it with `pip install --no-index` (no network, nothing else
needed) and its `rules` console script checks the bundled examples and a bad rules file with a
PATH that reaches no Swift toolchain, printing what the archive's binary prints. The wheel's
RECORD matches its files, and its tag names this machine's glibc and architecture."""
import base64
import csv
import hashlib
import io
import os
import platform
import re
import subprocess
import sys
import zipfile

import pytest

from conftest import BINARY, REPO, toolchain_free_path, untimed

BAD_RULES = '{"rules": {".read": "auth != null", ".write": "auth.uid === $nobody"}}\n'


@pytest.fixture(scope="module")
def wheel(release_packages):
    if not release_packages["wheel"]:
        pytest.skip("Scripts/build-release.sh wrote no wheel (it makes one on Linux only)")
    (path,) = release_packages["wheel"]
    return path


def test_the_wheel_is_tagged_for_this_machine_and_its_record_matches(wheel, release_packages):
    version = release_packages["version"]
    libc, libc_version = platform.libc_ver()
    major, minor = libc_version.split(".")[:2]
    assert os.path.basename(wheel) == f"swift_database_rules-{version}-py3-none-manylinux_{major}_{minor}_{platform.machine()}.whl"
    assert open(wheel + ".sha256").read().split() == [hashlib.sha256(open(wheel, "rb").read()).hexdigest(), os.path.basename(wheel)]
    with zipfile.ZipFile(wheel) as archive:
        dist_info = f"swift_database_rules-{version}.dist-info"
        record = list(csv.reader(io.StringIO(archive.read(f"{dist_info}/RECORD").decode())))
        assert sorted(row[0] for row in record) == sorted(archive.namelist())
        for path, digest, size in record:
            if path.endswith("/RECORD"):
                assert digest == "" and size == ""
                continue
            data = archive.read(path)
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode(), path
            assert int(size) == len(data), path
        wheel_file = archive.read(f"{dist_info}/WHEEL").decode()
        assert "Root-Is-Purelib: false" in wheel_file and f"Tag: py3-none-manylinux_{major}_{minor}_{platform.machine()}" in wheel_file
        assert f"Version: {version}\n" in archive.read(f"{dist_info}/METADATA").decode()
        assert "rules = swift_database_rules:main" in archive.read(f"{dist_info}/entry_points.txt").decode()
        binary = archive.getinfo("swift_database_rules/bin/rules")
        assert (binary.external_attr >> 16) & 0o111
        assert "swift_database_rules/bin/lib/libz3.so.4" in archive.namelist()


def test_pip_installs_the_wheel_offline_and_rules_runs_without_swift(wheel, tmp_path):
    venv = tmp_path / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PIP_NO_CACHE_DIR": "1", "TMPDIR": str(tmp_path)}
    installed = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--no-index", wheel],
                               capture_output=True, text=True, timeout=600, env=env)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    work = tmp_path / "work"
    work.mkdir()
    (work / "bad.rules.json").write_text(BAD_RULES)
    examples = os.path.join(REPO, "rules-examples")
    # Only the environment's bin directory (the console script and its Python) and sh: no Swift.
    path = f"{venv / 'bin'}{os.pathsep}{toolchain_free_path(str(tmp_path / 'bin'), ['sh', 'ldd'])}"
    clean = {"PATH": path, "HOME": str(tmp_path), "LANG": "C.UTF-8", "TMPDIR": str(tmp_path)}
    assert not [d for d in path.split(os.pathsep) if os.path.exists(os.path.join(d, "swift"))]

    package = subprocess.run([str(venv / "bin" / "python"), "-c", "import swift_database_rules; print(swift_database_rules.binary())"],
                             capture_output=True, text=True, env=clean)
    binary = package.stdout.strip()
    ldd = subprocess.run(["ldd", binary], capture_output=True, text=True, env=clean)
    assert "not found" not in ldd.stdout and not re.search(r"libswift|Foundation|libdispatch", ldd.stdout), ldd.stdout
    assert f"libz3.so.4 => {os.path.dirname(binary)}/lib/libz3.so.4" in ldd.stdout, ldd.stdout

    for arguments, status in ((["check", "--strict", examples], 0), (["check", "bad.rules.json"], 1), (["test", examples], 0)):
        released = subprocess.run(["rules", *arguments], cwd=work, capture_output=True, text=True, timeout=300, env=clean)
        direct = subprocess.run([BINARY, *arguments], cwd=work, capture_output=True, text=True, timeout=300,
                                env={"PATH": os.environ["PATH"], "LANG": "C.UTF-8"})
        assert released.returncode == status, released.stdout + released.stderr
        assert (untimed(released.stdout), untimed(released.stderr)) == (untimed(direct.stdout), untimed(direct.stderr))
    version = subprocess.run(["rules", "--version"], capture_output=True, text=True, env=clean)
    as_module = subprocess.run(["python", "-m", "swift_database_rules", "--version"], capture_output=True, text=True, env=clean)
    assert version.returncode == 0 and version.stdout == as_module.stdout != ""
