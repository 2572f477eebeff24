#!/usr/bin/env python3
"""Counts the library's public members that carry a time, a frame rate or a share as a bare Double.

Usage: scripts/bare_doubles.py [--list] [SOURCES]   (default: Sources, without the two executables and
`Units`, whose types hold the raw numbers)

A member is a public stored or computed property whose type is Double, Double? or [Double];
its category comes from its name. The count is a reviewer's measure, not a check: a bare
Double that is none of the three (a coordinate, a confidence) is not counted.
"""
import re
import sys
from pathlib import Path

CATEGORIES = [
    ("frame rate", re.compile(r"(frameRate|FrameRate|framesPerSecond|fps$)")),
    ("time", re.compile(
        r"(time|Time|seconds|Seconds|duration|Duration|interval|Interval|window|Window|timeout|"
        r"Timeout|dwell|Dwell|startedAt|^start$|^end$|timestamp|Constant|warmUp|Microseconds|"
        r"Milliseconds)")),
    ("share or ratio", re.compile(
        r"(share|Share|^ratio|Ratio|fraction|Fraction|percent|Percent|utilization|demand|Demand|"
        r"^load$|relative|Relative)")),
]
MEMBER = re.compile(r"public (?:private\(set\) )?(?:let|var) ([A-Za-z]+): (Double\??|\[Double\])")
SKIPPED = (
    "Sources/headroom/", "Sources/headroomd/", "Sources/CLI/", "Sources/Daemon/",
    "Sources/headroom-bench/", "Sources/Units/")


def members(root: Path):
    for path in sorted(root.rglob("*.swift")):
        text = str(path)
        if any(part in text for part in SKIPPED):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = MEMBER.search(line)
            if not match:
                continue
            name = match.group(1)
            for category, pattern in CATEGORIES:
                if pattern.search(name):
                    yield category, f"{path}:{number}: {name}: {match.group(2)}"
                    break


def main() -> None:
    arguments = [a for a in sys.argv[1:] if a != "--list"]
    root = Path(arguments[0] if arguments else "Sources")
    found = list(members(root))
    for category, _ in CATEGORIES:
        rows = [row for kind, row in found if kind == category]
        print(f"{category}: {len(rows)}")
        if "--list" in sys.argv:
            for row in rows:
                print(f"  {row}")


if __name__ == "__main__":
    main()
