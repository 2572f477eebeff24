"""Runs every command of the documentation's checked blocks and compares what they print with
what the block shows, so neither a command nor a figure in the docs can rot.

A fenced block opened with ```console checked holds commands on lines starting with "$ "; the
lines after a command, up to the next command, are the output it shows, and they must be what
the command prints (standard output and standard error together, trailing spaces aside):

- a line that is only "…" stands for any number of lines, none included;
- a "…" inside a line stands for any text on that line (a path's scratch directory, say);
- without a "…" line first (last), the shown lines start (end) the output;
- a command that shows no lines makes no claim about its output.

A block whose output depends on the machine (timings, this host's sensors, free space) says so
in its fence, ```console checked varies: its commands must still exit as documented, but their
output is not compared. A block opened with ```sh checked holds a command on every line that is
not blank and not a comment, with no output shown. A line ending in a backslash continues on
the next. A command must exit 0, or N when its line ends with the comment "# exit status N".

The blocks of one file run in order in one scratch directory (a block may use what an earlier
one wrote), with `headroom` on PATH, HOME and the XDG directories inside the scratch directory,
and `examples` and `Tests` linked to the repository's. Each command may take 60 s. Files are
checked three at a time (--jobs N), each in its own scratch directory.

Usage: python3 scripts/doc_checks.py [--show] [--jobs N] HEADROOM-BINARY FILE.md...
  --show    prints the whole output of a command whose output differs (to mend the docs)
  --jobs N  checks N files at once (default 3)
"""

import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

FENCE = re.compile(r"^```(console|sh) checked( varies)?\s*$")
STATUS = re.compile(r"#\s*exit status (\d+)\s*$")
ELISION = "…"
TIME_LIMIT = 60
# Files checked at once.
JOBS = 3


@dataclass
class Command:
    """One documented command: where it is, what it runs, how it must end, what it shows."""

    line: int
    text: str
    status: int
    compares_output: bool
    shown: list = field(default_factory=list)


def commands(path):
    """Every checked command in `path`, with the output lines its block shows for it."""
    found = []
    kind = None
    varies = False
    pending = None
    current = None  # the block's latest command, to which output lines belong
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            line = line.rstrip("\n")
            if kind is None:
                match = FENCE.match(line)
                if match:
                    kind, varies = match.group(1), bool(match.group(2))
                    current = None
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
                if kind == "console" and current:
                    current.shown.append(line)
                continue
            if text.endswith("\\"):
                pending = (start, text)
                continue
            pending = None
            status = STATUS.search(text)
            current = Command(start, text, int(status.group(1)) if status else 0,
                              compares_output=kind == "console" and not varies)
            found.append(current)
    if kind is not None:
        sys.exit(f"{path}: a checked block is not closed")
    for command in found:
        # Blank lines between a block's last output line and its fence are not output.
        while command.shown and not command.shown[-1].strip():
            command.shown.pop()
    return found


def line_pattern(shown):
    """A shown line as a regular expression: "…" inside it stands for any text."""
    return re.compile(".*".join(re.escape(part) for part in shown.rstrip().split(ELISION)) + r"\Z")


def mismatch(shown, printed):
    """None when `printed` (lines) is what `shown` (lines) shows, else the first shown line
    that could not be found where it must be, with why."""
    segments = [[]]
    for line in shown:
        if line.strip() == ELISION:
            segments.append([])
        else:
            segments[-1].append(line_pattern(line))
    anchored_start = not shown or shown[0].strip() != ELISION
    anchored_end = not shown or shown[-1].strip() != ELISION
    printed = [line.rstrip() for line in printed]
    while printed and not printed[-1]:
        printed.pop()

    def fits(segment, at):
        return at + len(segment) <= len(printed) and all(
            pattern.match(printed[at + offset]) for offset, pattern in enumerate(segment))

    def place(index, at):
        """Whether segments[index:] fit in printed[at:], each in order (backtracking)."""
        if index == len(segments):
            return not anchored_end or at == len(printed)
        segment = segments[index]
        last = index == len(segments) - 1
        if index == 0 and anchored_start:
            starts = [0]
        elif last and anchored_end:
            starts = [len(printed) - len(segment)]
        else:
            starts = range(at, len(printed) - len(segment) + 1)
        for start in starts:
            if start >= at and fits(segment, start) and place(index + 1, start + len(segment)):
                return True
        return False

    if place(0, 0):
        return None
    # Say which shown line is the first that cannot be matched in order.
    at = 0
    for line in (line for line in shown if line.strip() != ELISION):
        pattern = line_pattern(line)
        while at < len(printed) and not pattern.match(printed[at]):
            at += 1
        if at == len(printed):
            return f"not printed (in this order): {line!r}"
        at += 1
    return "the shown lines are printed, but not where the block shows them " \
           "(first or last lines, or lines between elisions)"


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
    environment.pop("NO_COLOR", None)
    return directory, environment


def check_file(path, headroom, repository, show):
    """Runs `path`'s checked commands in a scratch directory of its own; returns the lines to
    print and the counts (commands, those compared, failures)."""
    lines = []
    failures = total = compared = 0
    checked = commands(path)
    if not checked:
        return lines, total, compared, failures
    directory, environment = scratch(headroom, repository)
    for command in checked:
        total += 1
        started = time.monotonic()
        try:
            result = subprocess.run(
                ["bash", "-o", "pipefail", "-c", command.text], cwd=directory,
                env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True, timeout=TIME_LIMIT)
            status, output = result.returncode, result.stdout
        except subprocess.TimeoutExpired:
            status, output = None, f"(still running after {TIME_LIMIT} s)"
        seconds = time.monotonic() - started
        first_line = command.text.splitlines()[0]
        where = f"{path}:{command.line}"
        if status != command.status:
            failures += 1
            lines.append(f"FAIL {where}: exit {status}, expected {command.status}: {first_line}")
            lines += [f"     | {text}" for text in output.splitlines()[-15:]]
            continue
        if command.compares_output and command.shown:
            compared += 1
            why = mismatch(command.shown, output.splitlines())
            if why:
                failures += 1
                lines.append(f"FAIL {where}: the output differs from the block's: {why}: "
                             f"{first_line}")
                printed = output.splitlines()
                lines += [f"     | {text}" for text in (printed if show else printed[:15])]
                continue
        lines.append(f"ok   {where} ({seconds:.1f} s) {first_line}")
    return lines, total, compared, failures


def main():
    arguments = sys.argv[1:]
    show = "--show" in arguments
    arguments = [argument for argument in arguments if argument != "--show"]
    jobs = JOBS
    if "--jobs" in arguments:
        at = arguments.index("--jobs")
        jobs = int(arguments[at + 1])
        del arguments[at:at + 2]
    if len(arguments) < 2:
        sys.exit("usage: doc_checks.py [--show] [--jobs N] HEADROOM-BINARY FILE.md...")
    headroom, files = arguments[0], arguments[1:]
    repository = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    failures = total = compared = 0
    # The files are independent (a scratch directory each) and most of their time is spent
    # waiting (runs of so many real seconds), so several run at once; their lines are printed
    # in the files' order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = pool.map(lambda path: check_file(path, headroom, repository, show), files)
        for lines, file_total, file_compared, file_failures in results:
            for line in lines:
                print(line, flush=True)
            total += file_total
            compared += file_compared
            failures += file_failures
    print(f"{total - failures} of {total} documented commands ran as documented "
          f"({compared} with their output compared)")
    sys.exit(1 if failures or total == 0 else 0)


if __name__ == "__main__":
    main()
