"""A minimal Debian root without Swift (mmdebstrap or debootstrap, --variant=minbase) from the mirror
this machine's apt uses, kept in .build/debian-root/SUITE-minbase once complete.

`python3 Tests/ClientTests/debian_root.py` makes it ahead of the tests (Scripts/run-tests.sh does so
while the release archive builds); test_release_archive.py calls `debian_root()`, which waits for a
making already under way (a lock file) and returns the root, or raises `Unavailable` saying why
this machine cannot make one."""
import fcntl
import glob
import os
import re
import shutil
import subprocess
import sys
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROOTS = os.path.join(REPO, ".build", "debian-root")


class Unavailable(Exception):
    """This machine cannot make a Debian root (the message says why)."""


def apt_mirror():
    """The Debian mirror and suite this machine's apt uses (the first Debian entry that is not
    security or updates), from /etc/apt/sources.list and sources.list.d; None when there is none."""
    for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*")):
        try:
            with open(path) as f:
                text = f.read()
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


def debian_root():
    found = apt_mirror()
    if found is None:
        raise Unavailable("no Debian mirror in /etc/apt/sources.list*: cannot make a Debian root")
    mirror, suite = found
    root = os.path.join(ROOTS, f"{suite}-minbase")
    complete = os.path.join(root, ".complete")
    if os.path.exists(complete):
        return root
    if os.geteuid() != 0:
        raise Unavailable("making and entering a Debian root (mmdebstrap, chroot) needs root")
    tool = shutil.which("mmdebstrap") or shutil.which("debootstrap")
    if tool is None:
        raise Unavailable("neither mmdebstrap nor debootstrap is installed (apt-get install mmdebstrap)")
    os.makedirs(ROOTS, exist_ok=True)
    with open(os.path.join(ROOTS, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be making it: wait, then look again
        if os.path.exists(complete):
            return root
        try:
            urllib.request.urlopen(f"{mirror}/dists/{suite}/Release", timeout=15).close()
        except OSError as error:
            raise Unavailable(f"the Debian mirror {mirror} cannot be reached ({error}): cannot make a Debian root")
        partial = root + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        command = [tool, "--variant=minbase", suite, partial, mirror]
        made = subprocess.run(command, capture_output=True, text=True, timeout=1200)
        if made.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{made.stdout[-3000:]}{made.stderr[-3000:]}")
        open(os.path.join(partial, ".complete"), "w").close()
        shutil.rmtree(root, ignore_errors=True)
        os.rename(partial, root)
        return root


if __name__ == "__main__":
    try:
        print(debian_root())
    except Unavailable as reason:
        print(f"debian_root.py: no Debian root: {reason}", file=sys.stderr)
