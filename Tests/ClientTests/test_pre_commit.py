"""The pre-commit hooks of .pre-commit-hooks.yaml as a project uses them: a sample git repository
whose .pre-commit-config.yaml names this repository (a clone of it at HEAD, with the working copy's
.pre-commit-hooks.yaml and its entry script) and the hooks rules-check and rules-test.
`pre-commit run --all-files` fails on a rules file with an error, printing the diagnostic, and
passes once the file is fixed. The hooks run the `rules` on PATH: here the build under test
($RULES_BINARY); without one they say how to install it."""
import os
import shutil
import subprocess
import sys

from conftest import BINARY, REPO

BAD_RULES = """{
  "rules": {
    "messages": {
      "$id": {
        ".read": "auth != null",
        ".write": "auth != null && newData.child('uid').val() == auth.uid &&"
      }
    }
  }
}
"""
GOOD_RULES = BAD_RULES.replace(" &&\"", "\"")
SPEC = """rules: database.rules.json
auth:
  alice: { uid: alice }
  anon: null
tests:
  - name: alice writes her own message
    data: {}
    steps:
      - as: alice
        set: /messages/m1
        value: { uid: alice, text: hi }
        expect: allow
      - as: anon
        read: /messages/m1
        expect: deny
"""


def git(cwd, *arguments):
    result = subprocess.run(["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid", "-c", "init.defaultBranch=main",
                             "-c", "advice.detachedHead=false", *arguments],
                            cwd=cwd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"git {' '.join(arguments)}: {result.stderr}"
    return result.stdout.strip()


HOOK_FILES = [".pre-commit-hooks.yaml", "Scripts/pre-commit-rules.sh"]


def make_project(tmp_path):
    """The hook repository (this repository at HEAD, with the hooks file and the hooks' entry
    script as they are in the working copy) and a project that uses it; returns the project."""
    hooks = tmp_path / "hooks"
    git(tmp_path, "clone", "--quiet", "--depth", "1", f"file://{REPO}", str(hooks))
    for name in HOOK_FILES:
        shutil.copy(os.path.join(REPO, name), hooks / name)  # the mode too: the script stays executable
    git(hooks, "add", *HOOK_FILES)
    if git(hooks, "status", "--porcelain"):
        git(hooks, "commit", "--quiet", "-m", "the working copy's hooks")
    rev = git(hooks, "rev-parse", "HEAD")

    app = tmp_path / "app"
    app.mkdir()
    git(app, "init", "--quiet")
    (app / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks}\n    rev: {rev}\n    hooks:\n      - id: rules-check\n      - id: rules-test\n")
    (app / "database.rules.json").write_text(BAD_RULES)
    (app / "rules.test.yaml").write_text(SPEC)
    git(app, "add", ".")
    return app


def pre_commit_run(app, env):
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
                          cwd=app, capture_output=True, text=True, timeout=300, env=env)


def test_pre_commit_run_fails_on_a_bad_rules_file_and_passes_once_it_is_fixed(tmp_path):
    app = make_project(tmp_path)

    # The hooks find `rules` on PATH.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(os.path.abspath(BINARY), bin_dir / "rules")
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", PRE_COMMIT_HOME=str(tmp_path / "pre-commit-cache"),
               PRE_COMMIT_COLOR="never", GIT_CONFIG_NOSYSTEM="1")

    failed = pre_commit_run(app, env)
    output = failed.stdout + failed.stderr
    assert failed.returncode == 1, output
    assert "rules check" in output and "Failed" in output, output
    assert "database.rules.json:6:" in output and "error:" in output, output

    (app / "database.rules.json").write_text(GOOD_RULES)
    git(app, "add", ".")
    passed = pre_commit_run(app, env)
    output = passed.stdout + passed.stderr
    assert passed.returncode == 0, output
    assert "Failed" not in output
    assert output.count("Passed") == 2, output


def test_without_rules_on_path_the_hooks_say_how_to_install_it(tmp_path):
    app = make_project(tmp_path)
    # PATH without any directory that holds a `rules`.
    path = os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep) if not os.access(os.path.join(d, "rules"), os.X_OK))
    env = dict(os.environ, PATH=path, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-cache"), PRE_COMMIT_COLOR="never",
               GIT_CONFIG_NOSYSTEM="1")
    failed = pre_commit_run(app, env)
    output = failed.stdout + failed.stderr
    assert failed.returncode == 1, output
    assert "Executable `rules` not found" not in output, output
    assert output.count("rules is not on PATH: install it from a release archive") == 2, output
    assert "swift build -c release" in output, output
