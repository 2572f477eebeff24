"""Runs every command of the documentation's checked blocks, so the docs cannot rot.

A fenced block opened with ```console checked holds commands on lines starting with "$ "
(other lines are sample output, shown to the reader and not compared); one opened with
```sh checked holds a command on every line that is not blank and not a comment. A line
ending in a backslash continues on the next. A command must exit 0, or N when its line ends
with the comment "# exit status N".

The blocks of one file run in order in one scratch directory (a block may use what an earlier
one wrote), with `headroom` on PATH, HOME and the XDG directories inside the scratch directory,
and `examples` and `Tests` linked to the repository's. Each command may take 60 s.

Usage: python3 scripts/doc_checks.py HEADROOM-BINARY FILE.md...
"""

import os
import re
import subprocess
import sys
import tempfile
import time

FENCE = re.compile(r"^```(console|sh) checked\s*$")
STATUS = re.compile(r"#\s*exit status (\d+)\s*$")
TIME_LIMIT = 60


def commands(path):
    """(line number, command, expected status) of every checked command in `path`."""
    found = []
    kind = None
    pending = None
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            line = line.rstrip("\n")
            if kind is None:
                match = FENCE.match(line)
                kind = match.group(1) if match else None
                continue
            if line.startswith("```"):
                if pending:
                    sys.exit(f"{path}:{pending[0]}: a command continues past its block's end")
                kind = None
                continue
            if pending:
                text = pending[1] + "\n" + line
                start = pending[0]
            elif kind == "console" and line.startswith("$ "):
                text, start = line[2:], number
            elif kind == "sh" and line.strip() and not line.lstrip().startswith("#"):
                text, start = line, number
            else:
                continue
            if text.endswith("\\"):
                pending = (start, text)
                continue
            pending = None
            status = STATUS.search(text)
            found.append((start, text, int(status.group(1)) if status else 0))
    if kind is not None:
        sys.exit(f"{path}: a checked block is not closed")
    return found


def scratch(headroom, repository):
    """A scratch directory set up as the module docstring says, and the environment."""
    directory = tempfile.mkdtemp(prefix="headroom-docs.")
    bin_directory = os.path.join(directory, ".bin")
    os.mkdir(bin_directory)
    os.symlink(os.path.abspath(headroom), os.path.join(bin_directory, "headroom"))
    for name in ("examples", "Tests"):
        os.symlink(os.path.join(repository, name), os.path.join(directory, name))
    environment = dict(os.environ)
    environment.update(
        PATH=bin_directory + os.pathsep + environment.get("PATH", ""),
        HOME=directory,
        XDG_DATA_HOME=os.path.join(directory, ".local/share"),
        XDG_STATE_HOME=os.path.join(directory, ".local/state"),
        XDG_CONFIG_HOME=os.path.join(directory, ".config"),
        XDG_CACHE_HOME=os.path.join(directory, ".cache"),
    )
    return directory, environment


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: doc_checks.py HEADROOM-BINARY FILE.md...")
    headroom, files = sys.argv[1], sys.argv[2:]
    repository = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    failures = 0
    total = 0
    for path in files:
        checked = commands(path)
        if not checked:
            continue
        directory, environment = scratch(headroom, repository)
        for line, command, expected in checked:
            total += 1
            started = time.monotonic()
            try:
                result = subprocess.run(
                    ["bash", "-o", "pipefail", "-c", command], cwd=directory, env=environment,
                    stdin=subprocess.DEVNULL, capture_output=True, text=True,
                    timeout=TIME_LIMIT)
                status, output = result.returncode, result.stdout + result.stderr
            except subprocess.TimeoutExpired:
                status, output = None, f"(still running after {TIME_LIMIT} s)"
            seconds = time.monotonic() - started
            first_line = command.splitlines()[0]
            if status == expected:
                print(f"ok   {path}:{line} ({seconds:.1f} s) {first_line}")
                continue
            failures += 1
            print(f"FAIL {path}:{line}: exit {status}, expected {expected}: {first_line}")
            for text in output.splitlines()[-15:]:
                print(f"     | {text}")
    print(f"{total - failures} of {total} documented commands ran as documented")
    sys.exit(1 if failures or total == 0 else 0)


if __name__ == "__main__":
    main()
