#!/usr/bin/env python3
"""Scores MOTChallenge tracks with TrackEval's HOTA and compares them with `headroom evaluate`.

Usage: hota_crosscheck.py HEADROOM GT.txt TRACKS.txt [more GT TRACKS pairs...]
Each pair is named in the table by the folder GT.txt is in. Exit 0 when every figure agrees to
1e-3, 1 otherwise.

TrackEval (PyPI `trackeval`) runs the way its own `eval.py` runs one sequence, not a
re-implementation of its loader: the two files are copied into a temporary MOTChallenge folder
layout (GT/SEQ/gt/gt.txt and TRACKERS/headroom/data/SEQ.txt) and read by
`trackeval.datasets.MotChallenge2DBox` with BENCHMARK 'MOT15' (the 2D MOT 2015 rules: no class
or distractor filtering; ground-truth rows whose confidence column truncates to 0 are dropped,
ids are remapped to contiguous indices), SKIP_SPLIT_FOL and SEQ_INFO giving the sequence length
as the last frame in either file. Then `get_raw_seq_data` (IoU of xywh boxes),
`get_preprocessed_seq_data(raw, 'pedestrian')` and `trackeval.metrics.HOTA().eval_sequence`,
and each figure is the mean over the 19 alphas, as TrackEval's summary prints it (HOTA(0) and
LocA(0) are the values at alpha 0.05). MOT15 rather than MOT17 because headroom's files have -1
in the class column, which the MOT17 preprocessing rejects, and the TUD sequences are MOT15's.
"""
import contextlib
import importlib.metadata
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

# Installed without its declared extras (see hota-crosscheck.sh), trackeval prints that its
# BURST dataset (segmentation, pycocotools) is unavailable; HOTA and MOTChallenge need neither.
with contextlib.redirect_stdout(io.StringIO()):
    import trackeval

# (headroom --json key, TrackEval field); the last two are single values, the rest alpha arrays.
FIELDS = [
    ("hota", "HOTA"), ("detA", "DetA"), ("assA", "AssA"), ("detRe", "DetRe"),
    ("detPr", "DetPr"), ("assRe", "AssRe"), ("assPr", "AssPr"), ("locA", "LocA"),
    ("hota0", "HOTA(0)"), ("locA0", "LocA(0)"),
]
TOLERANCE = 1e-3


def last_frame(path):
    with open(path) as handle:
        return max(int(float(line.split(",")[0])) for line in handle if line.strip())


def trackeval_scores(gt_path, tracks_path):
    """TrackEval's HOTA summary for one sequence, keyed like headroom's JSON."""
    sequence = "seq"
    with tempfile.TemporaryDirectory() as root:
        gt_folder = os.path.join(root, "gt")
        trackers_folder = os.path.join(root, "trackers")
        os.makedirs(os.path.join(gt_folder, sequence, "gt"))
        os.makedirs(os.path.join(trackers_folder, "headroom", "data"))
        shutil.copy(gt_path, os.path.join(gt_folder, sequence, "gt", "gt.txt"))
        shutil.copy(
            tracks_path, os.path.join(trackers_folder, "headroom", "data", sequence + ".txt"))
        dataset = trackeval.datasets.MotChallenge2DBox({
            "GT_FOLDER": gt_folder, "TRACKERS_FOLDER": trackers_folder,
            "TRACKERS_TO_EVAL": ["headroom"], "BENCHMARK": "MOT15", "SKIP_SPLIT_FOL": True,
            "SEQ_INFO": {sequence: max(last_frame(gt_path), last_frame(tracks_path))},
            "PRINT_CONFIG": False,
        })
        raw = dataset.get_raw_seq_data("headroom", sequence)
        data = dataset.get_preprocessed_seq_data(raw, "pedestrian")
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
