"""The release archive (Scripts/build-release.sh) on a Debian system without a Swift toolchain: a
minimal Debian root made with mmdebstrap (or debootstrap) from the mirror this machine's apt uses
(debian_root.py), entered with chroot. There, `rules check` on a real rules file prints what the development build
prints, and ldd shows that the binary loads no Swift library, nor PCRE2 or SQLite (they are linked
statically). The root is cached in .build/debian-root, so only the first run downloads it.

Skipped, saying why, where no root can be made: not root, no mmdebstrap or debootstrap, or the
mirror cannot be reached."""
import json
import os
import re
import shutil
import subprocess
import tarfile

import pytest

from conftest import BINARY, REPO
from debian_root import Unavailable, debian_root as made_root

# A real rules file with warnings: the output has locations, source lines and carets.
CORPUS_FILE = os.path.join(REPO, "Tests", "Data", "corpus", "firechat", "rules.json")
# What the binary may still load: glibc and the C++ runtime (every Debian system has them).
SYSTEM_LIBRARIES = re.compile(r"^(linux-vdso|ld-linux[-\w]*|libc|libm|libdl|libpthread|librt|libutil|libstdc\+\+|libgcc_s)\.so")
CLEAN_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": "/root", "LANG": "C.UTF-8"}


@pytest.fixture(scope="module")
def debian_root():
    try:
        return made_root()
    except Unavailable as reason:
        pytest.skip(str(reason))


def in_root(root, script):
    """Runs a shell script inside the root: chroot, in new mount and process namespaces with its
    own /proc where unshare allows that, else plain chroot."""
    enter = ["chroot", root, "/bin/sh", "-c", script]
    if shutil.which("unshare"):
        namespaced = ["unshare", "--mount", "--pid", "--fork", f"--mount-proc={root}/proc", *enter]
        result = subprocess.run(namespaced, capture_output=True, text=True, timeout=120, env=CLEAN_ENV)
        if not result.stderr.startswith("unshare:"):
            return result
    return subprocess.run(enter, capture_output=True, text=True, timeout=120, env=CLEAN_ENV)


def test_the_release_archive_runs_on_debian_without_a_swift_toolchain(debian_root, release_rules, tmp_path):
    root = debian_root
    # The root has no Swift: no compiler, no runtime library anywhere.
    assert in_root(root, "command -v swift swiftc").stdout == ""
    swift_libraries = [name for _, _, names in os.walk(root) for name in names if name.startswith("libswift")]
    assert swift_libraries == [], swift_libraries

    # The archive unpacked inside it (afresh each run), and a real rules file beside it.
    opt = os.path.join(root, "opt", "rules-release")
    shutil.rmtree(opt, ignore_errors=True)
    os.makedirs(opt)
    with tarfile.open(release_rules["archive"]) as tar:
        tar.extractall(opt, filter="tar")
    (top,) = os.listdir(opt)
    binary = f"/opt/rules-release/{top}/rules"
    work = os.path.join(root, "work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "firechat"))
    shutil.copy(CORPUS_FILE, os.path.join(work, "firechat", "rules.json"))
    # The same file for the development build, at the same relative path.
    os.makedirs(tmp_path / "firechat")
    shutil.copy(CORPUS_FILE, tmp_path / "firechat" / "rules.json")

    for arguments in (["check", "firechat/rules.json"], ["check", "--format", "sarif", "--source-root", ".", "firechat/rules.json"]):
        released = in_root(root, f"cd /work && exec {binary} {' '.join(arguments)}")
        developed = subprocess.run([BINARY, *arguments], cwd=tmp_path, capture_output=True, text=True, timeout=60, env=CLEAN_ENV)
        assert released.stderr == developed.stderr
        # SARIF names the source root by its absolute address: /work inside the root.
        assert released.stdout == developed.stdout.replace(f"file://{tmp_path}/", "file:///work/")
        assert released.returncode == developed.returncode

    version = in_root(root, f"exec {binary} --version")
    assert version.returncode == 0 and re.fullmatch(r"[0-9A-Za-z.+-]+\n", version.stdout), version

    ldd = in_root(root, f"ldd {binary}")
    assert ldd.returncode == 0, ldd.stderr
    print(f"ldd inside the Debian root:\n{ldd.stdout}")
    lines = [line.strip() for line in ldd.stdout.splitlines() if line.strip()]
    assert not [line for line in lines if "not found" in line], ldd.stdout
    assert not [line for line in lines if re.search(r"libswift|Foundation|libdispatch|BlocksRuntime", line)], ldd.stdout
    assert not [line for line in lines if re.search(r"libpcre2|libsqlite3", line)], ldd.stdout
    # Z3, the access model's solver, comes in the archive's lib/ (the binary's RUNPATH is $ORIGIN/lib).
    bundled = [line for line in lines if line.startswith("libz3.so")]
    assert bundled and all(f"=> /opt/rules-release/{top}/lib/" in line for line in bundled), ldd.stdout
    unexpected = [line for line in lines if not SYSTEM_LIBRARIES.match(os.path.basename(line.split()[0])) and line not in bundled]
    assert unexpected == [], ldd.stdout

    # The solver runs there: rules access proves and finds cells on the real file.
    access = in_root(root, f"cd /work && exec {binary} access --format json firechat/rules.json")
    assert access.returncode == 0, access.stderr
    model = json.loads(access.stdout)
    assert model["solver"]["checks"] > 0 and {c["verdict"] for c in model["cells"]} & {"allowed", "never"}, access.stdout[:2000]

    # The archive's NEEDED.txt names what the binary loads (ldd adds the loader and the vDSO).
    needed = open(os.path.join(opt, top, "NEEDED.txt")).read().split()
    loaded = {os.path.basename(line.split()[0]) for line in lines}
    assert needed and set(needed) <= loaded, (needed, ldd.stdout)
