"""The release archive (Scripts/build-release.sh) on a Debian system without a Swift toolchain: a
minimal Debian root made with mmdebstrap (or debootstrap) from the mirror this machine's apt uses,
entered with chroot. There, `rules check` on a real rules file prints what the development build
prints, and ldd shows that the binary loads no Swift library, nor PCRE2 or SQLite (they are linked
statically). The root is cached in .build/debian-root, so only the first run downloads it.

Skipped, saying why, where no root can be made: not root, no mmdebstrap or debootstrap, or the
mirror cannot be reached."""
import glob
import os
import re
import shutil
import subprocess
import tarfile
import urllib.request

import pytest

from conftest import BINARY, REPO

# A real rules file with warnings: the output has locations, source lines and carets.
CORPUS_FILE = os.path.join(REPO, "Tests", "Data", "corpus", "firechat", "rules.json")
ROOTS = os.path.join(REPO, ".build", "debian-root")
# What the binary may still load: glibc and the C++ runtime (every Debian system has them).
SYSTEM_LIBRARIES = re.compile(r"^(linux-vdso|ld-linux[-\w]*|libc|libm|libdl|libpthread|librt|libutil|libstdc\+\+|libgcc_s)\.so")
CLEAN_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": "/root", "LANG": "C.UTF-8"}


def apt_mirror():
    """The Debian mirror and suite this machine's apt uses (the first Debian entry that is not
    security or updates), from /etc/apt/sources.list and sources.list.d."""
    files = ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*"))
    for path in files:
        try:
            text = open(path).read()
        except OSError:
            continue
        if path.endswith(".sources"):  # deb822 paragraphs
            for paragraph in re.split(r"\n\s*\n", text):
                fields = dict(re.findall(r"^(\w[\w-]*):\s*(.*)$", paragraph, re.MULTILINE))
                for uri in fields.get("URIs", "").split():
                    for suite in fields.get("Suites", "").split():
                        if uri.rstrip("/").endswith("/debian") and "-" not in suite:
                            return uri.rstrip("/"), suite
        else:
            for line in text.splitlines():
                words = re.sub(r"\[[^]]*\]", "", line.split("#")[0]).split()
                if len(words) >= 3 and words[0] == "deb" and words[1].rstrip("/").endswith("/debian") and "-" not in words[2]:
                    return words[1].rstrip("/"), words[2]
    return None


@pytest.fixture(scope="module")
def debian_root():
    """A minimal Debian root (--variant=minbase), made once and kept in .build/debian-root."""
    found = apt_mirror()
    if found is None:
        pytest.skip("no Debian mirror in /etc/apt/sources.list*: cannot make a Debian root")
    mirror, suite = found
    root = os.path.join(ROOTS, f"{suite}-minbase")
    if os.path.exists(os.path.join(root, ".complete")):
        return root
    if os.geteuid() != 0:
        pytest.skip("making and entering a Debian root (mmdebstrap, chroot) needs root")
    tool = shutil.which("mmdebstrap") or shutil.which("debootstrap")
    if tool is None:
        pytest.skip("neither mmdebstrap nor debootstrap is installed (apt-get install mmdebstrap)")
    try:
        urllib.request.urlopen(f"{mirror}/dists/{suite}/Release", timeout=15).close()
    except OSError as error:
        pytest.skip(f"the Debian mirror {mirror} cannot be reached ({error}): cannot make a Debian root")
    partial = root + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(ROOTS, exist_ok=True)
    command = [tool, "--variant=minbase", suite, partial, mirror]
    made = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    assert made.returncode == 0, f"{' '.join(command)} failed:\n{made.stdout[-3000:]}{made.stderr[-3000:]}"
    open(os.path.join(partial, ".complete"), "w").close()
    shutil.rmtree(root, ignore_errors=True)
    os.rename(partial, root)
    return root


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
        assert released.stdout == developed.stdout
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
    unexpected = [line for line in lines if not SYSTEM_LIBRARIES.match(os.path.basename(line.split()[0]))]
    assert unexpected == [], ldd.stdout

    # The archive's NEEDED.txt names what the binary loads (ldd adds the loader and the vDSO).
    needed = open(os.path.join(opt, top, "NEEDED.txt")).read().split()
    assert needed and all(any(line.startswith(name) for line in lines) for name in needed), (needed, ldd.stdout)
