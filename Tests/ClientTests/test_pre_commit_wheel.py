"""pre-commit with `rules` installed from the wheel (Scripts/build-wheel.py) into the hook's own
environment, the way a project uses the PyPI package, offline: a `repo: local` hook of
`language: python` whose additional_dependencies name the wheel file, with PIP_NO_INDEX=1 (pip
reads no index) and PIP_NO_BUILD_ISOLATION=0 (the hook repository's placeholder setup.py, which
pre-commit installs too, is built with the setuptools of the hook's environment instead of one
downloaded). `pre-commit run --all-files` fails on a bad rules file, printing the diagnostic, and
passes once it is fixed; no `rules` and no Swift toolchain is on PATH."""
import os
import shutil
import subprocess
import sys

import pytest

from conftest import toolchain_free_path
from test_pre_commit import BAD_RULES, GOOD_RULES, git

CONFIG = """repos:
  - repo: local
    hooks:
      - id: rules-check
        name: rules check
        language: python
        entry: rules check
        additional_dependencies: ["{wheel}"]
        files: rules\\.jsonc?$
"""


@pytest.fixture(scope="module")
def wheel(release_packages):
    if not release_packages["wheel"]:
        pytest.skip("Scripts/build-release.sh wrote no wheel (it makes one on Linux only)")
    return release_packages["wheel"][0]


def test_a_python_hook_from_the_wheel_blocks_a_bad_rules_file(wheel, tmp_path):
    app = tmp_path / "app"
    app.mkdir()
    git(app, "init", "--quiet")
    (app / ".pre-commit-config.yaml").write_text(CONFIG.format(wheel=wheel))
    (app / "database.rules.json").write_text(BAD_RULES)
    git(app, "add", ".")

    path = toolchain_free_path(str(tmp_path / "bin"), ["git", "sh"])
    assert shutil.which("rules", path=path) is None
    env = {"PATH": path, "HOME": str(tmp_path / "home"), "LANG": "C.UTF-8", "TMPDIR": str(tmp_path),
           "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-cache"), "PRE_COMMIT_COLOR": "never", "GIT_CONFIG_NOSYSTEM": "1",
           "PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PIP_CONFIG_FILE": os.devnull, "VIRTUALENV_NO_PERIODIC_UPDATE": "1"}

    def pre_commit_run():
        result = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
                                cwd=app, capture_output=True, text=True, timeout=600, env=env)
        return result.returncode, result.stdout + result.stderr

    status, output = pre_commit_run()
    assert status == 1, output
    assert "rules check" in output and "Failed" in output, output
    assert "database.rules.json:6:" in output and "error:" in output, output

    (app / "database.rules.json").write_text(GOOD_RULES)
    git(app, "add", ".")
    status, output = pre_commit_run()
    assert status == 0 and "Passed" in output and "Failed" not in output, output
