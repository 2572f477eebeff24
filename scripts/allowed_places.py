"""What scripts/clock_check.py and scripts/environment_check.py share: a list of the places
allowed to do something, each with its reason, checked both ways."""

import sys


def report(bad, found, allowed, what):
    """Prints each problem and each allowed file that no longer does `what` (its entry is
    stale); exits 1 when there is either."""
    for problem in bad:
        print(problem)
    unused = sorted(set(allowed) - {file for file, _, _ in found})
    for file in unused:
        print(f"Sources/{file}: allowed to {what} but does not; remove it from the list")
    if bad or unused:
        sys.exit(1)
