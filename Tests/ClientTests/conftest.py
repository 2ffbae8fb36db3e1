"""Starts `rules serve` for the end-to-end tests and makes firebase-admin apps that talk to it."""
import base64
import json
import os
import re
import subprocess
import tempfile
import threading
import time
import uuid

import firebase_admin
import pytest
import requests
from firebase_admin import db

BINARY = os.environ.get("RULES_BINARY", ".build/debug/rules")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Server:
    """One `rules serve` process on a free port, with its rules in a temporary file."""

    def __init__(self, rules, args=()):
        self.dir = tempfile.TemporaryDirectory(prefix="rules-serve-test-")
        self.rules_path = os.path.join(self.dir.name, "database.rules.json")
        with open(self.rules_path, "w") as f:
            f.write(rules if isinstance(rules, str) else json.dumps(rules))
        self.proc = subprocess.Popen(
            [BINARY, "serve", self.rules_path, "--port", "0", "--log", "json", "--keep-alive", "0.5", *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.log = []
        first = self.proc.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", first)
        if not match:
            self.proc.kill()
            self.proc.wait()
            self.dir.cleanup()
            raise RuntimeError(f"rules serve did not start: {first}{self.proc.stderr.read()}")
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        self.reader = threading.Thread(target=self._read_log, daemon=True)
        self.reader.start()

    def _read_log(self):
        for line in self.proc.stderr:
            self.log.append(line)

    def requests_logged(self):
        return [json.loads(line) for line in self.log if line.startswith("{")]

    def rest(self, method, path, body=None, token=None, headers=None, raw=None, ns=None, **params):
        """A raw REST request (as curl would send it)."""
        h = dict(headers or {})
        if token:
            h["Authorization"] = f"Bearer {token}"
        if ns:
            params["ns"] = ns
        data = raw if raw is not None else (None if body is None else json.dumps(body))
        query = "&".join(f"{k}={v}" for k, v in params.items())
        url = f"{self.url}{path}" + (f"?{query}" if query else "")
        return requests.request(method, url, data=data, headers=h, timeout=10)

    def stop(self):
        if self.proc.poll() is not None:
            # It ended before the test stopped it: what it said is the clue (shown with the failure).
            tail = "".join(line for line in self.log[-400:] if not line.startswith("{"))
            print(f"rules serve exited by itself with status {self.proc.returncode}:\n{tail}")
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.dir.cleanup()


@pytest.fixture
def serve():
    servers = []

    def start(rules, args=()):
        server = Server(rules, args)
        servers.append(server)
        os.environ["FIREBASE_DATABASE_EMULATOR_HOST"] = f"127.0.0.1:{server.port}"
        return server

    yield start
    for server in servers:
        server.stop()
    os.environ.pop("FIREBASE_DATABASE_EMULATOR_HOST", None)


@pytest.fixture
def apps():
    """Makes firebase-admin apps: `apps(override=...)`; every app is deleted afterwards."""
    made = []

    def make(override="admin", url="https://demo-test.firebaseio.com"):
        options = {"databaseURL": url}
        if override != "admin":
            options["databaseAuthVariableOverride"] = override
        app = firebase_admin.initialize_app(options=options, name=f"app-{uuid.uuid4().hex}")
        made.append(app)
        return app

    yield make
    for app in made:
        firebase_admin.delete_app(app)


def ref(app, path="/"):
    return db.reference(path, app=app)


def mock_token(claims):
    """An unsigned token as the emulator suite's tools make it (alg none, empty signature)."""
    def seg(obj):
        return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")
    payload = {"iat": 0, "exp": 3600, "auth_time": 0, "aud": "demo-test",
               "iss": "https://securetoken.google.com/demo-test",
               "firebase": {"sign_in_provider": "custom", "identities": {}}}
    payload.update(claims)
    return seg({"alg": "none", "type": "JWT"}) + "." + seg(payload) + "."


def wait_for(predicate, timeout=5.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def release_archive():
    """The release archive of `rules` (Scripts/build-release.sh): $RULES_RELEASE_ARCHIVE (which
    Scripts/run-tests.sh sets), else the newest one in .build/dist; None when there is none."""
    import glob
    import platform
    named = os.environ.get("RULES_RELEASE_ARCHIVE")
    if named:
        if not os.path.isfile(named):
            raise RuntimeError(f"RULES_RELEASE_ARCHIVE names {named}, which is not a file")
        return named
    found = glob.glob(os.path.join(REPO, ".build", "dist", f"rules-*-linux-{platform.machine()}.tar.gz"))
    return max(found, key=os.path.getmtime) if found else None


@pytest.fixture(scope="session")
def release_rules():
    """The `rules` binary of the release archive, unpacked into a temporary directory; the test is
    skipped when no archive has been built."""
    import tarfile
    archive = release_archive()
    if archive is None:
        pytest.skip("no release archive: build one with `bash Scripts/build-release.sh .build/dist` "
                    "(Scripts/run-tests.sh does) or name it in RULES_RELEASE_ARCHIVE")
    with tempfile.TemporaryDirectory(prefix="rules-release-") as directory:
        with tarfile.open(archive) as tar:
            tar.extractall(directory, filter="tar")
        (top,) = os.listdir(directory)
        yield {"archive": archive, "directory": os.path.join(directory, top),
               "rules": os.path.join(directory, top, "rules")}


@pytest.fixture(scope="session")
def release_packages():
    """The npm packages and the wheel that Scripts/build-release.sh wrote beside the release
    archive, from its manifest ($RULES_RELEASE_MANIFEST, which Scripts/run-tests.sh sets, else the
    one beside the archive): {"version", "directory", "npm": [main, platform], "wheel": [path]}
    with absolute paths. The test is skipped when no archive has been built."""
    named = os.environ.get("RULES_RELEASE_MANIFEST")
    if not named:
        archive = release_archive()
        if archive is None:
            pytest.skip("no release archive, so no packages: build them with `bash Scripts/build-release.sh .build/dist` "
                        "(Scripts/run-tests.sh does) or name the manifest in RULES_RELEASE_MANIFEST")
        named = archive[:-len(".tar.gz")] + ".manifest.json"
    if not os.path.isfile(named):
        raise RuntimeError(f"{named} is missing: Scripts/build-release.sh writes it beside the archive")
    with open(named) as f:
        manifest = json.load(f)
    directory = os.path.dirname(os.path.abspath(named))
    return {"version": manifest["version"], "directory": directory,
            "npm": [os.path.join(directory, name) for name in manifest["npm"]],
            "wheel": [os.path.join(directory, name) for name in manifest["wheel"]]}


def toolchain_free_path(directory, tools):
    """A PATH of one directory, `directory`, holding links to the given tools (found on this PATH)
    and nothing else: no Swift toolchain is reachable through it, whatever directory holds swift
    here. Returns the PATH."""
    import shutil
    os.makedirs(directory, exist_ok=True)
    for tool in tools:
        found = shutil.which(tool)
        if found is None:
            raise RuntimeError(f"{tool} is not on PATH")
        os.symlink(os.path.realpath(found), os.path.join(directory, tool))
    assert shutil.which("swift", path=directory) is None and shutil.which("swiftc", path=directory) is None
    return directory


def untimed(report):
    """A report without its timings (`rules test` prints each test's, "(0.6 ms)"), so that two runs
    compare equal."""
    return re.sub(r"\(?\b\d+(\.\d+)? ?(ms|s|µs)\b\)?", "(time)", report)
