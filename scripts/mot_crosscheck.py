#!/usr/bin/env python3
"""Scores MOTChallenge tracks with py-motmetrics and compares them with `headroom evaluate`.

Usage: mot_crosscheck.py HEADROOM GT.txt TRACKS.txt [more GT TRACKS pairs...]
Exit 0 when every metric agrees to 1e-3, 1 otherwise.
"""
import json
import subprocess
import sys

import motmetrics as mm
import numpy as np


def load(path):
    rows = {}
    with open(path) as handle:
        for line in handle:
            fields = line.strip().split(",")
            if len(fields) < 6:
                continue
            frame, ident = int(float(fields[0])), int(float(fields[1]))
            box = [float(value) for value in fields[2:6]]
            rows.setdefault(frame, []).append((ident, box))
    return rows


def motmetrics_scores(gt_path, tracks_path):
    truth, tracks = load(gt_path), load(tracks_path)
    accumulator = mm.MOTAccumulator(auto_id=False)
    for frame in sorted(set(truth) | set(tracks)):
        objects = truth.get(frame, [])
        hypotheses = tracks.get(frame, [])
        distances = mm.distances.iou_matrix(
            np.array([box for _, box in objects]).reshape(-1, 4),
            np.array([box for _, box in hypotheses]).reshape(-1, 4),
            max_iou=0.5,
        )
        if len(objects) == 0 or len(hypotheses) == 0:
            distances = np.empty((len(objects), len(hypotheses)))
        accumulator.update(
            [ident for ident, _ in objects], [ident for ident, _ in hypotheses], distances,
            frameid=frame)
    summary = mm.metrics.create().compute(
        accumulator,
        metrics=["mota", "motp", "idf1", "idp", "idr", "num_switches", "num_false_positives",
                 "num_misses", "mostly_tracked", "mostly_lost"],
        name="run")
    row = summary.loc["run"]
    return {
        "mota": float(row["mota"]), "motp": 1.0 - float(row["motp"]), "idf1": float(row["idf1"]),
        "idp": float(row["idp"]), "idr": float(row["idr"]), "idsw": int(row["num_switches"]),
        "fp": int(row["num_false_positives"]), "fn": int(row["num_misses"]),
        "mt": int(row["mostly_tracked"]), "ml": int(row["mostly_lost"]),
    }


def main():
    headroom, pairs = sys.argv[1], sys.argv[2:]
    if len(pairs) == 0 or len(pairs) % 2:
        sys.exit("usage: mot_crosscheck.py HEADROOM GT.txt TRACKS.txt [GT TRACKS ...]")
    worst = 0.0
    failed = False
    for gt_path, tracks_path in zip(pairs[0::2], pairs[1::2]):
        ours = json.loads(subprocess.run(
            [headroom, "evaluate", gt_path, tracks_path, "--json"], check=True,
            capture_output=True, text=True).stdout)
        theirs = motmetrics_scores(gt_path, tracks_path)
        line = []
        for key, value in theirs.items():
            difference = abs(float(ours[key]) - float(value))
            worst = max(worst, difference)
            mark = "" if difference <= 1e-3 else " MISMATCH"
            failed |= difference > 1e-3
            line.append(f"{key} {ours[key]:.4g}/{value:.4g}{mark}")
        print(f"{tracks_path}: " + ", ".join(line))
    print(f"largest difference headroom vs py-motmetrics: {worst:.2e}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
