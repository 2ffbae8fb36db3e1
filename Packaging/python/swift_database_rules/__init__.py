"""`rules`, the checker, test runner, access model and local server for Firebase Realtime Database
security rules (https://github.com/swift-database-rules/swift-database-rules), as a native binary.

The wheel holds the binary (bin/rules, with bin/lib/ beside it: the libraries it loads through its
RUNPATH, $ORIGIN/lib); the `rules` console script runs it in place of the Python process."""
import os
import sys

__all__ = ["binary", "main"]


def binary():
    """The path of the `rules` binary inside the package."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "rules")


def main():
    path = binary()
    if not os.access(path, os.X_OK):
        sys.stderr.write(f"rules: {path} is missing or not executable: reinstall the package (pip install --force-reinstall swift-database-rules)\n")
        return 1
    # exec: the binary takes this process's place (its pid, streams, signals and exit status).
    os.execv(path, ["rules", *sys.argv[1:]])
