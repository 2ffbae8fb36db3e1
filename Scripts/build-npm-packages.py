#!/usr/bin/env python3
"""Makes the npm packages of `rules` the way esbuild ships its binary (Scripts/build-release.sh
runs this after the archive):

    python3 Scripts/build-npm-packages.py STAGE VERSION OUTDIR

STAGE is the archive's directory (rules, lib/, the licences). Writes into OUTDIR, with `npm pack`:

- swift-database-rules-VERSION.tgz, the main package: the `rules` command, a launcher
  (Packaging/npm/swift-database-rules/bin/rules.js) that runs the binary of the platform package
  that is installed, and one optional dependency per platform, each at VERSION;
- swift-database-rules-PLATFORM-VERSION.tgz, the platform package of this machine
  (@swift-database-rules/PLATFORM, PLATFORM one of linux-x64, linux-arm64, darwin-arm64, darwin-x64,
  with the `os`, `cpu` (and on Linux `libc`) fields that make npm install it only there): bin/rules
  and bin/lib/ (libz3.so.4, found through the binary's RUNPATH $ORIGIN/lib). On macOS the universal
  binary makes both darwin packages.

Each with its .sha256. Prints the paths of the packages it wrote, one a line. The packages'
contents do not depend on the machine or the time: npm pack gives every file the same date."""
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE = os.path.join(REPO, "Packaging", "npm", "swift-database-rules")
NAME = "swift-database-rules"
SCOPE = "@swift-database-rules"
HOMEPAGE = "https://github.com/swift-database-rules/swift-database-rules"
# npm's names for the platforms there are builds for: (process.platform, process.arch).
PLATFORMS = {"linux-x64": ("linux", "x64"), "linux-arm64": ("linux", "arm64"),
             "darwin-arm64": ("darwin", "arm64"), "darwin-x64": ("darwin", "x64")}
# No "license": the repository has no licence file yet (add one before publishing).
COMMON = {"homepage": HOMEPAGE,
          "repository": {"type": "git", "url": f"git+{HOMEPAGE}.git"},
          "keywords": ["firebase", "realtime-database", "security-rules", "linter"]}


def fail(message):
    sys.exit(f"build-npm-packages.py: {message}")


def this_machine():
    """The platform packages that this machine's build makes."""
    system, machine = platform.system(), platform.machine()
    if system == "Linux":
        arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine)
        if arch is None:
            fail(f"no npm platform package for Linux on {machine}")
        return [f"linux-{arch}"]
    if system == "Darwin":
        return ["darwin-arm64", "darwin-x64"]  # the universal binary serves both
    fail(f"no npm platform package for {system}")


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=2)
        f.write("\n")


def licence(stage, directory):
    for name in ("LICENSE", "LICENSE.txt", "LICENSE.md"):
        if os.path.isfile(os.path.join(stage, name)):
            shutil.copy(os.path.join(stage, name), os.path.join(directory, name))


def main_package(stage, version, directory):
    shutil.copytree(TEMPLATE, directory)
    licence(stage, directory)
    write_json(os.path.join(directory, "package.json"), {
        "name": NAME, "version": version,
        "description": "rules: check, test and serve Firebase Realtime Database security rules (a native binary)",
        **COMMON,
        "bin": {"rules": "bin/rules.js"},
        "files": ["bin/rules.js", "README.md", "LICENSE*"],
        "engines": {"node": ">=16"},
        "optionalDependencies": {f"{SCOPE}/{p}": version for p in PLATFORMS},
    })


def platform_package(stage, version, name, directory):
    os_name, cpu = PLATFORMS[name]
    bin_dir = os.path.join(directory, "bin")
    os.makedirs(bin_dir)
    shutil.copy2(os.path.join(stage, "rules"), os.path.join(bin_dir, "rules"))
    if os.path.isdir(os.path.join(stage, "lib")):
        shutil.copytree(os.path.join(stage, "lib"), os.path.join(bin_dir, "lib"))
    licence(stage, directory)
    manifest = {
        "name": f"{SCOPE}/{name}", "version": version,
        "description": f"The {os_name} {cpu} binary of swift-database-rules' `rules` (install swift-database-rules, not this)",
        **COMMON,
        "os": [os_name], "cpu": [cpu],
        "files": ["bin/", "LICENSE*", "README.md"],
        "preferUnplugged": True,
    }
    if os_name == "linux":
        manifest["libc"] = ["glibc"]
    write_json(os.path.join(directory, "package.json"), manifest)
    with open(os.path.join(directory, "README.md"), "w") as f:
        f.write(f"# {SCOPE}/{name}\n\nThe `rules` binary of [swift-database-rules]({HOMEPAGE}) for {os_name} {cpu}. "
                f"Install `{NAME}`, which runs it: npm picks this package on {os_name} {cpu}.\n")


def pack(directory, outdir):
    # npm pack prints the file name it wrote (scope@x/y-1.0.0 becomes x-y-1.0.0.tgz) as its last line.
    result = subprocess.run(["npm", "pack", "--silent", "--pack-destination", outdir], cwd=directory,
                            capture_output=True, text=True, env=dict(os.environ, npm_config_update_notifier="false"))
    if result.returncode != 0:
        fail(f"npm pack in {directory} failed:\n{result.stdout}{result.stderr}")
    path = os.path.join(outdir, result.stdout.strip().splitlines()[-1])
    if not os.path.isfile(path):
        fail(f"npm pack did not write {path}")
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    with open(path + ".sha256", "w") as f:
        f.write(f"{digest}  {os.path.basename(path)}\n")
    return path


def main():
    if len(sys.argv) != 4:
        fail("usage: python3 Scripts/build-npm-packages.py STAGE VERSION OUTDIR")
    stage, version, outdir = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
    if not os.access(os.path.join(stage, "rules"), os.X_OK):
        fail(f"{stage}/rules is missing or not executable")
    if shutil.which("npm") is None:
        fail("npm is not on PATH (apt-get install npm)")
    with tempfile.TemporaryDirectory(prefix="npm-packages-") as work:
        main_dir = os.path.join(work, NAME)
        main_package(stage, version, main_dir)
        written = [pack(main_dir, outdir)]
        for name in this_machine():
            directory = os.path.join(work, name)
            platform_package(stage, version, name, directory)
            written.append(pack(directory, outdir))
    print("\n".join(written))


if __name__ == "__main__":
    main()
