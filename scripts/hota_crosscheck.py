#!/usr/bin/env python3
"""Scores MOTChallenge tracks with TrackEval's HOTA and compares them with `headroom evaluate`.

Usage: hota_crosscheck.py HEADROOM GT.txt TRACKS.txt [more GT TRACKS pairs...]
Each pair is named in the table by the folder GT.txt is in. Exit 0 when every figure agrees to
1e-3, 1 otherwise.

TrackEval (PyPI `trackeval`) reads each pair as its own `eval.py` would
(scripts/trackeval_sequence.py); each figure is the mean over the 19 alphas, as TrackEval's
summary prints it (HOTA(0) and LocA(0) are the values at alpha 0.05).
"""
import importlib.metadata
import json
import os
import subprocess
import sys

import numpy as np

from trackeval_sequence import preprocessed  # first: it imports trackeval quietly
import trackeval  # noqa: E402  (already imported)

# (headroom --json key, TrackEval field); the last two are single values, the rest alpha arrays.
FIELDS = [
    ("hota", "HOTA"), ("detA", "DetA"), ("assA", "AssA"), ("detRe", "DetRe"),
    ("detPr", "DetPr"), ("assRe", "AssRe"), ("assPr", "AssPr"), ("locA", "LocA"),
    ("hota0", "HOTA(0)"), ("locA0", "LocA(0)"),
]
TOLERANCE = 1e-3


def trackeval_scores(gt_path, tracks_path):
    """TrackEval's HOTA summary for one sequence, keyed like headroom's JSON."""
    data = preprocessed(gt_path, tracks_path)
    result = trackeval.metrics.HOTA({"PRINT_CONFIG": False}).eval_sequence(data)
    return {key: float(np.mean(result[field])) for key, field in FIELDS}


def row(name, scorer, cells):
    return (f"{name:<16}{scorer:<11}" + " ".join(f"{cell:>8}" for cell in cells)).rstrip()


def main():
    headroom, pairs = sys.argv[1], sys.argv[2:]
    if len(pairs) == 0 or len(pairs) % 2:
        sys.exit("usage: hota_crosscheck.py HEADROOM GT.txt TRACKS.txt [GT TRACKS ...]")
    print(row("sequence", "scorer", [field for _, field in FIELDS]))
    worst = 0.0
    for gt_path, tracks_path in zip(pairs[0::2], pairs[1::2]):
        ours = json.loads(subprocess.run(
            [headroom, "evaluate", gt_path, tracks_path, "--json"], check=True,
            capture_output=True, text=True).stdout)
        theirs = trackeval_scores(gt_path, tracks_path)
        name = os.path.basename(os.path.dirname(os.path.abspath(gt_path)))
        differences = [abs(float(ours[key]) - theirs[key]) for key, _ in FIELDS]
        worst = max([worst] + differences)
        print(row(name, "headroom", [f"{ours[key]:.5f}" for key, _ in FIELDS]))
        print(row("", "trackeval", [f"{theirs[key]:.5f}" for key, _ in FIELDS]))
        if max(differences) > TOLERANCE:
            print(row("", "MISMATCH", ["*" if d > TOLERANCE else "" for d in differences]))
    failed = worst > TOLERANCE
    version = importlib.metadata.version("trackeval")
    print(f"largest |difference| headroom vs trackeval {version}: {worst:.2e}"
          + (f" (over {TOLERANCE:g}: FAILED)" if failed else f" (limit {TOLERANCE:g})"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
