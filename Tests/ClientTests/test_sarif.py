"""`rules check --format sarif` read by its real consumers: the official SARIF 2.1.0 schema (with
format checks on) and sarif-tools; and the same file checked from two working directories."""
import json
import os
import subprocess
import tempfile
import urllib.parse

import jsonschema
import pytest
from sarif import loader

from conftest import BINARY, REPO

SCHEMA = os.path.join(REPO, "Tests", "Data", "schemas", "sarif-schema-2.1.0.json")

# Errors (an unknown variable, a bad method), and lints on a file that compiles.
BROKEN = """{
  "rules": {
    "posts": {
      "$postId": {
        ".write": "auth.uid == $userId",
        ".validate": "newData.child('title').isStrin()"
      }
    }
  }
}
"""
LINTED = """{
  "rules": {
    ".read": true,
    "posts": {
      "$postId": {
        ".write": "auth != null",
        ".validate": "(!data.exists() || data.child('owner').val() == auth.uid) && newData.child('owner').val() == auth.uid"
      }
    },
    "users": {
      ".write": "auth != null",
      "$uid": {".write": "auth.uid == $uid", ".validate": "newData.isString()"}
    }
  }
}
"""


@pytest.fixture
def repo():
    with tempfile.TemporaryDirectory(prefix="rules-sarif-") as d:
        os.makedirs(os.path.join(d, ".git"))
        os.makedirs(os.path.join(d, "app", "rules"))
        for name, text in (("broken.rules.json", BROKEN), ("database.rules.json", LINTED)):
            with open(os.path.join(d, "app", "rules", name), "w") as f:
                f.write(text)
        yield d


def check(cwd, *paths, status=1):
    run = subprocess.run([os.path.abspath(BINARY), "check", *paths, "--format", "sarif"], cwd=cwd, capture_output=True, text=True, timeout=60)
    assert run.returncode == status, run.stderr
    return run.stdout


def validate(text):
    with open(SCHEMA) as f:
        schema = json.load(f)
    doc = json.loads(text)
    # Every format the validator knows is checked (uri, uri-reference, date-time...), not only Draft 4's.
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])
    return doc


def test_sarif_validates_against_the_official_schema(repo):
    doc = validate(check(repo, "app/rules/broken.rules.json", "app/rules/database.rules.json"))
    run = doc["runs"][0]
    levels = [r["level"] for r in run["results"]]
    assert "error" in levels and "warning" in levels
    driver = run["tool"]["driver"]
    assert driver["version"] and driver["semanticVersion"]
    for rule in driver["rules"]:
        url = urllib.parse.urlparse(rule["helpUri"])
        assert url.scheme == "https" and url.netloc and url.fragment == rule["id"], rule["helpUri"]
    severities = {r["id"]: r["properties"].get("security-severity") for r in driver["rules"]}
    assert float(severities["public-write"]) >= 9.0
    assert float(severities["authorization-in-validate"]) >= 7.0
    assert severities["query-without-index"] is None
    ids = {r["ruleId"] for r in run["results"]}
    assert {"unknown-variable", "public-read", "authorization-in-validate", "weaker-ancestor-grant"} <= ids


def test_same_uris_and_fingerprints_from_every_working_directory(repo):
    # Warnings only: exit status 0.
    top = check(repo, "app/rules/database.rules.json", status=0)
    inner = check(os.path.join(repo, "app", "rules"), "database.rules.json", status=0)
    assert top == inner
    def identities(text):
        run = json.loads(text)["runs"][0]
        return run["originalUriBaseIds"], [
            (r["locations"][0]["physicalLocation"]["artifactLocation"], r["partialFingerprints"]) for r in run["results"]
        ]
    base, results = identities(top)
    assert base == {"%SRCROOT%": {"uri": "file://" + repo + "/"}}
    assert results and all(a == {"uri": "app/rules/database.rules.json", "uriBaseId": "%SRCROOT%"} for a, _ in results)
    assert len({json.dumps(p) for _, p in results}) == len(results)
    # The root is the checked file's repository, whatever the working directory: from "/" and
    # from inside another repository, the URIs and fingerprints are the same byte for byte.
    path = os.path.join(repo, "app", "rules", "database.rules.json")
    assert identities(check("/", path, status=0)) == identities(top)
    with tempfile.TemporaryDirectory(prefix="rules-sarif-other-") as other:
        os.makedirs(os.path.join(other, ".git"))
        assert identities(check(other, path, status=0)) == identities(top)
        # With the root given explicitly, the output is the same as from inside; a file outside
        # the given root gets an absolute file URI and no base.
        explicit = subprocess.run(
            [os.path.abspath(BINARY), "check", path, "--format", "sarif", "--source-root", repo],
            cwd="/", capture_output=True, text=True, timeout=60,
        ).stdout
        assert identities(explicit) == identities(top)
        elsewhere = subprocess.run(
            [os.path.abspath(BINARY), "check", path, "--format", "sarif", "--source-root", other],
            cwd=other, capture_output=True, text=True, timeout=60,
        ).stdout
    outside = json.loads(elsewhere)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert outside["uri"].startswith("file:///") and outside["uri"].endswith("/app/rules/database.rules.json")
    assert "uriBaseId" not in outside


def test_sarif_tools_reads_it(repo, tmp_path):
    out = tmp_path / "rules.sarif"
    out.write_text(check(repo, "app/rules/broken.rules.json", "app/rules/database.rules.json"))
    data = loader.load_sarif_file(str(out))
    assert data.get_result_count() == len(json.loads(out.read_text())["runs"][0]["results"])
    records = data.get_records()
    assert sum(1 for r in records if r["Severity"] == "error") >= 2
    assert {r["Location"] for r in records} == {"app/rules/broken.rules.json", "app/rules/database.rules.json"}
    summary = subprocess.run([os.path.join(os.path.dirname(os.sys.executable), "sarif"), "summary", str(out)], capture_output=True, text=True, timeout=60)
    assert summary.returncode == 0, summary.stderr
    assert "error" in summary.stdout.lower()
