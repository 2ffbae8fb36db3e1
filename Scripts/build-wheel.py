#!/usr/bin/env python3
"""Makes the Python wheel of `rules` (Scripts/build-release.sh runs this after the archive):

    python3 Scripts/build-wheel.py STAGE VERSION OUTDIR

STAGE is the archive's directory (rules, lib/, the licences). Writes
OUTDIR/swift_database_rules-VERSION-py3-none-manylinux_X_Y_ARCH.whl and its .sha256, and prints
the wheel's path. The wheel holds the package swift_database_rules (Packaging/python: a module whose
`main` execs the binary) with bin/rules and bin/lib/ (libz3.so.4, found through the binary's RUNPATH
$ORIGIN/lib), and the console script `rules`. It is for any Python 3 (`py3-none`: no Python code
is compiled against an interpreter) on Linux with this machine's architecture and a glibc at least
as new as this machine's (manylinux_X_Y, PEP 600: the binary is linked against this glibc).

Written with zipfile alone (no network, no build backend): METADATA, WHEEL, entry_points.txt and a
RECORD with each file's sha256. The same inputs give the same wheel: every entry has the date of
$SOURCE_DATE_EPOCH (Scripts/build-release.sh sets the commit's), else 1980-01-01."""
import base64
import hashlib
import os
import platform
import stat
import sys
import time
import zipfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE_SOURCE = os.path.join(REPO, "Packaging", "python", "swift_database_rules")
DISTRIBUTION = "swift_database_rules"  # the project's name normalised for file names (PEP 427)
HOMEPAGE = "https://github.com/swift-database-rules/swift-database-rules"


def fail(message):
    sys.exit(f"build-wheel.py: {message}")


def platform_tag():
    """manylinux_X_Y_ARCH from this machine's glibc and architecture (PEP 600)."""
    if platform.system() != "Linux":
        fail(f"wheels are made on Linux only (this is {platform.system()})")
    libc, libc_version = platform.libc_ver()
    if libc != "glibc" or not libc_version:
        fail(f"no glibc found ({libc or 'unknown libc'}): a manylinux wheel needs one")
    major, minor = libc_version.split(".")[:2]
    arch = {"amd64": "x86_64", "arm64": "aarch64"}.get(platform.machine(), platform.machine())
    return f"manylinux_{major}_{minor}_{arch}"


def metadata(version):
    readme = open(os.path.join(REPO, "Packaging", "python", "README.md")).read()
    return (f"Metadata-Version: 2.1\nName: swift-database-rules\nVersion: {version}\n"
            "Summary: rules: check, test and serve Firebase Realtime Database security rules (a native binary)\n"
            f"Home-page: {HOMEPAGE}\nProject-URL: Source, {HOMEPAGE}\n"
            "Keywords: firebase,realtime-database,security-rules,linter\n"
            "Classifier: Environment :: Console\nClassifier: Operating System :: POSIX :: Linux\n"
            "Classifier: Topic :: Software Development :: Quality Assurance\n"
            "Requires-Python: >=3.7\nDescription-Content-Type: text/markdown\n\n" + readme)


def main():
    if len(sys.argv) != 4:
        fail("usage: python3 Scripts/build-wheel.py STAGE VERSION OUTDIR")
    stage, version, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
    if not os.access(os.path.join(stage, "rules"), os.X_OK):
        fail(f"{stage}/rules is missing or not executable")
    # PEP 440 and the file name: a version like 0.1.0-beta.1 would need normalising first.
    if not all(part.isdigit() for part in version.split(".")):
        fail(f"the version {version} is not of the form N.N.N that the wheel's name and PEP 440 take as is")
    tag = f"py3-none-{platform_tag()}"
    dist_info = f"{DISTRIBUTION}-{version}.dist-info"
    wheel_path = os.path.join(outdir, f"{DISTRIBUTION}-{version}-{tag}.whl")
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    date = time.gmtime(max(epoch, 315532800))[:6]  # a zip cannot date a file before 1980

    # (path in the wheel, bytes, executable)
    entries = []
    for name in sorted(os.listdir(PACKAGE_SOURCE)):
        if name.endswith(".py"):
            entries.append((f"{DISTRIBUTION}/{name}", open(os.path.join(PACKAGE_SOURCE, name), "rb").read(), False))
    entries.append((f"{DISTRIBUTION}/bin/rules", open(os.path.join(stage, "rules"), "rb").read(), True))
    lib = os.path.join(stage, "lib")
    for name in sorted(os.listdir(lib)) if os.path.isdir(lib) else []:
        entries.append((f"{DISTRIBUTION}/bin/lib/{name}", open(os.path.join(lib, name), "rb").read(), name.endswith(".so") or ".so." in name))
    for name in ("LICENSE", "LICENSE.txt", "LICENSE.md"):
        if os.path.isfile(os.path.join(stage, name)):
            entries.append((f"{dist_info}/licenses/{name}", open(os.path.join(stage, name), "rb").read(), False))
    entries.append((f"{dist_info}/METADATA", metadata(version).encode(), False))
    entries.append((f"{dist_info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: swift-database-rules build-wheel.py\nRoot-Is-Purelib: false\nTag: {tag}\n".encode(), False))
    entries.append((f"{dist_info}/entry_points.txt", f"[console_scripts]\nrules = {DISTRIBUTION}:main\n".encode(), False))
    entries.append((f"{dist_info}/top_level.txt", f"{DISTRIBUTION}\n".encode(), False))

    def digest(data):
        return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    record = "".join(f"{path},{digest(data)},{len(data)}\n" for path, data, _ in entries) + f"{dist_info}/RECORD,,\n"
    entries.append((f"{dist_info}/RECORD", record.encode(), False))

    os.makedirs(outdir, exist_ok=True)
    with zipfile.ZipFile(wheel_path + ".partial", "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as wheel:
        for path, data, executable in entries:
            info = zipfile.ZipInfo(path, date_time=date)
            info.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix: pip reads the mode from external_attr
            wheel.writestr(info, data)
    os.replace(wheel_path + ".partial", wheel_path)
    with open(wheel_path + ".sha256", "w") as f:
        f.write(f"{hashlib.sha256(open(wheel_path, 'rb').read()).hexdigest()}  {os.path.basename(wheel_path)}\n")
    print(wheel_path)


if __name__ == "__main__":
    main()
