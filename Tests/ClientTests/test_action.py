"""The GitHub Action (action.yml) without GitHub: its shell steps run as the runner would run them
(inputs and step outputs substituted into their env, GITHUB_OUTPUT and GITHUB_PATH files), with
the release archive served from a file:// URL in place of the project's releases. The install
step unpacks and checks the archive, the check step writes the SARIF report and keeps the exit
status, and the last step fails the job exactly when `rules check` failed; empty `paths` and `args`
work, an empty `version` builds the archive from the action's checkout (Scripts/build-release.sh),
and an archive whose checksum does not match or cannot be fetched is refused. The upload step (a
`uses:` of github/codeql-action/upload-sarif) is only checked to be there."""
import json
import os
import re
import shutil
import subprocess

import pytest
import yaml

from conftest import REPO

BAD_RULES = '{"rules": {".read": "auth != null", ".write": "auth.uid === $nobody"}}\n'
GOOD_RULES = '{"rules": {".read": "auth != null", ".write": false}}\n'


def load_action():
    with open(os.path.join(REPO, "action.yml")) as f:
        return yaml.safe_load(f)


def run_action(tmp_path, inputs, workspace):
    """Runs the composite action's steps; returns (outputs of each step by id, exit status of the
    job, the log)."""
    action = load_action()
    values = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    values.update(inputs)
    outputs = {}
    temp = tmp_path / "runner-temp"
    temp.mkdir(exist_ok=True)
    path_file = tmp_path / "github-path"
    path_file.touch()
    log = []

    def evaluate(text):
        def one(match):
            expression = match.group(1).strip()
            if m := re.fullmatch(r"inputs\.([\w-]+)", expression):
                return values[m.group(1)]
            if m := re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression):
                return outputs.get(m.group(1), {}).get(m.group(2), "")
            return {"github.action_path": REPO, "runner.temp": str(temp)}[expression]
        return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))

    for index, step in enumerate(action["runs"]["steps"]):
        if "uses" in step:
            assert step["uses"].startswith("github/codeql-action/upload-sarif@")
            assert step["with"]["sarif_file"] == "${{ steps.check.outputs.sarif-file }}"
            continue
        output_file = tmp_path / f"output-{index}"
        output_file.touch()
        env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"), "GITHUB_OUTPUT": str(output_file),
               "GITHUB_PATH": str(path_file), "GITHUB_WORKSPACE": str(workspace), "TMPDIR": str(temp)}
        env.update({key: evaluate(value) for key, value in step.get("env", {}).items()})
        cwd = workspace / evaluate(step.get("working-directory", "."))
        result = subprocess.run(["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", step["run"]],
                                cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
        log.append(result.stdout + result.stderr)
        outputs[step.get("id", str(index))] = dict(line.split("=", 1) for line in output_file.read_text().splitlines() if "=" in line)
        if result.returncode != 0:
            return outputs, result.returncode, "".join(log)
    return outputs, 0, "".join(log)


def test_the_action_checks_writes_sarif_and_fails_the_job_on_errors(tmp_path, release_rules):
    workspace = tmp_path / "workspace"
    (workspace / "database").mkdir(parents=True)
    rules = workspace / "database" / "database.rules.json"
    rules.write_text(BAD_RULES)
    inputs = {"version": "0.0.0-test", "archive-url": "file://" + release_rules["archive"], "paths": "database", "args": "--strict"}

    outputs, status, log = run_action(tmp_path, inputs, workspace)
    assert status == 1, log
    assert "::error::rules check failed (exit status 1)" in log, log
    assert outputs["check"]["exit-code"] == "1", outputs
    assert os.path.basename(outputs["install"]["rules"]) == "rules"
    assert os.path.dirname(outputs["install"]["rules"]) in (tmp_path / "github-path").read_text()
    sarif = json.load(open(outputs["check"]["sarif-file"]))
    results = sarif["runs"][0]["results"]
    assert results and any(r["level"] == "error" for r in results), results
    assert "database/database.rules.json" in json.dumps(results)
    assert "::error file=database/database.rules.json" in log, log  # the log's annotations

    rules.write_text(GOOD_RULES)
    outputs, status, log = run_action(tmp_path, inputs, workspace)
    assert status == 0, log
    assert outputs["check"]["exit-code"] == "0"
    assert json.load(open(outputs["check"]["sarif-file"]))["runs"][0]["results"] == []


def test_the_action_refuses_an_archive_that_does_not_match_its_checksum(tmp_path, release_rules):
    archive = tmp_path / os.path.basename(release_rules["archive"])
    archive.write_bytes(open(release_rules["archive"], "rb").read() + b"\0")
    (tmp_path / (archive.name + ".sha256")).write_text(open(release_rules["archive"] + ".sha256").read())
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    outputs, status, log = run_action(tmp_path, {"version": "0.0.0-test", "archive-url": f"file://{archive}"}, workspace)
    assert status != 0 and "does not match" in log, log


def test_the_action_runs_with_empty_paths_and_args(tmp_path, release_rules):
    # Empty inputs (the defaults): `rules check` finds the rules file through firebase.json.
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "firebase.json").write_text('{"database": {"rules": "database.rules.json"}}\n')
    (workspace / "database.rules.json").write_text(BAD_RULES)
    inputs = {"version": "0.0.0-test", "archive-url": "file://" + release_rules["archive"], "paths": "", "args": ""}
    outputs, status, log = run_action(tmp_path, inputs, workspace)
    assert status == 1, log
    assert "unbound variable" not in log, log
    assert outputs["check"]["exit-code"] == "1", log
    assert "::error file=database.rules.json" in log, log


def test_the_action_expands_its_arrays_so_that_empty_ones_work_under_set_u_in_older_bash():
    # Before bash 4.4, "${a[@]}" of an empty array is an unbound variable under `set -u`; the
    # bash here is newer, so the guard ${a[@]+"${a[@]}"} is checked on every expansion instead.
    for step in load_action()["runs"]["steps"]:
        script = "\n".join(line for line in step.get("run", "").splitlines() if not line.lstrip().startswith("#"))
        for match in re.finditer(r'"\$\{(\w+)\[@\]\}"', script):
            name = match.group(1)
            guard = "${" + name + "[@]+"
            assert script[:match.start()].endswith(guard), f"unguarded array expansion of {name}: {script}"


def test_the_action_refuses_an_archive_without_its_checksum(tmp_path, release_rules):
    archive = tmp_path / os.path.basename(release_rules["archive"])
    archive.write_bytes(open(release_rules["archive"], "rb").read())
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    outputs, status, log = run_action(tmp_path, {"version": "0.0.0-test", "archive-url": f"file://{archive}"}, workspace)
    assert status != 0, log
    assert f"::error::cannot download the checksum file://{archive}.sha256" in log, log
    assert "rules" not in outputs.get("install", {}), outputs


def test_the_action_builds_the_archive_from_its_checkout_when_no_version_is_given(tmp_path, release_rules):
    # version empty (the default): Scripts/build-release.sh of the action's checkout, here this
    # repository, whose release build the suite's archive came from (so the build is up to date and
    # this runs in a minute or two: the stripping, the archive and the packages).
    if shutil.which("swift") is None:
        pytest.skip("no Swift toolchain on PATH: an empty version builds the archive with one")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "database.rules.json").write_text(BAD_RULES)
    outputs, status, log = run_action(tmp_path, {"version": "", "paths": "database.rules.json"}, workspace)
    assert "Building the release archive from" in log, log
    assert status == 1 and outputs["check"]["exit-code"] == "1", log
    built = outputs["install"]["rules"]
    assert built.startswith(str(tmp_path / "runner-temp" / "rules-dist")), built
    assert os.path.basename(os.path.dirname(built)) == os.path.basename(release_rules["directory"])
    # The Action needs the archive alone: no npm packages, no wheel (RULES_RELEASE_ARCHIVE_ONLY).
    dist = os.listdir(tmp_path / "runner-temp" / "rules-dist")
    assert not [name for name in dist if name.endswith((".whl", ".tgz"))], dist
    version = subprocess.run([built, "--version"], capture_output=True, text=True).stdout
    assert version == subprocess.run([release_rules["rules"], "--version"], capture_output=True, text=True).stdout
