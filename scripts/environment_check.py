"""Checks that no library module reads the environment.

The command line reads the environment (where the person model and the calibrated profiles
are, `$CREDENTIALS_DIRECTORY`, ...) and gives the libraries what it found, as it gives them
their clocks. A read anywhere else fails this check, naming the file and line, unless the file
is listed below with its reason. Comments are not reads.
Usage: python3 scripts/environment_check.py [--self-test]
"""

import re
import sys
from pathlib import Path

from allowed_places import report

REPO = Path(__file__).resolve().parent.parent
READ = re.compile(
    r"processInfo\.environment|ProcessFacts\.environment|\bgetenv\(|\bsetenv\(|\benviron\b")

# file (under Sources/) → why it may read the environment itself.
ALLOWED = {
    "HeadroomC/TraceDescriptor.swift": "the traced-launch protocol hands libheadroom its pipe in"
    " the environment",
    "HeadroomC/Estimate.swift": "libheadroom prices on the user's calibrated profiles (C has no"
    " catalog to give)",
    "Files/ExecutableSearch.swift": "a program is found on PATH, as a shell finds it",
    "LaunchTiming/ChildProcess.swift": "a child inherits this process's environment (`environ`"
    " handed to posix_spawn), none of it read",
    "Files/FileSystem.swift": "temporary files go to `$TMPDIR`, as every program's do (what"
    " Foundation's `FileManager.temporaryDirectory` read before)",
    "Files/ProcessFacts.swift": "the environment read from `environ`, for the places above and"
    " the command line (instead of Foundation's `ProcessInfo`)",
}
# Directories whose every file may: the command line reads the environment (`headroom`'s, CLI's,
# and `serve`'s in Daemon, which `headroomd` runs alone), and the benchmarks are programs of
# their own.
ALLOWED_DIRECTORIES = ("headroom/", "CLI/", "Daemon/", "headroom-bench/")


def reads(root):
    """(file, line number, text) of every environment read under `root`/Sources."""
    found = []
    for path in sorted((root / "Sources").rglob("*.swift")):
        relative = path.relative_to(root / "Sources").as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if READ.search(line.split("//", 1)[0]):
                found.append((relative, number, line.strip()))
    return found


def problems(found):
    return [f"Sources/{file}:{number}: a library reads the environment: {text}"
            for file, number, text in found
            if file not in ALLOWED and not file.startswith(ALLOWED_DIRECTORIES)]


def main():
    if sys.argv[1:] == ["--self-test"]:
        planted = [("Tracking/PipelineDetector.swift", 113,
                    "let model = try PersonModel.installed(environment: ProcessInfo.processInfo"
                    ".environment)")]
        assert READ.search(planted[0][2]) and problems(planted), "a planted read was not reported"
        assert READ.search('guard let text = getenv("HEADROOM_TRACE_FD")')
        assert READ.search('let path = ProcessFacts.environment["PATH"]')
        assert not problems([("headroom/RunCommand.swift", 1, "ProcessInfo.processInfo.environment")])
        print("environment-check self-test: passed (a planted read is reported)")
        return
    found = reads(REPO)
    report(problems(found), found, ALLOWED, "read the environment")
    libraries = sum(1 for file, _, _ in found if not file.startswith(ALLOWED_DIRECTORIES))
    print(f"environment-check: {libraries} environment reads in the libraries, all in the places"
          f" allowed ({len(ALLOWED)} files); the command line reads the rest")


if __name__ == "__main__":
    main()
