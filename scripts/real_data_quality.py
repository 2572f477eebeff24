#!/usr/bin/env python3
"""The tracker on real pedestrians: published MOTChallenge ground truth (TUD-Campus and
TUD-Stadtmitte, the files PyPI's motmetrics ships), detections made from it by a seeded noise
model at two levels, tracked by `headroom track`, scored by TrackEval (HOTA, IDF1, MOTA) —
never by Headroom itself.

Usage: real_data_quality.py HEADROOM DATA-DIR [--floors FILE] [--record FILE] [--json]
  --floors FILE  fail (exit 1) when a row's mean IDF1 or HOTA falls below the recorded floor
  --record FILE  write this run's means (less 0.005) as the floors
Each row is the mean over seeds 1-5 of one sequence at one noise level.

The noise model, per ground-truth box and frame: missed with probability `miss`; otherwise its
centre moves by N(0, jitter·size) and its width and height scale by exp(N(0, jitter)); false
positives arrive Poisson(`false_positives`) a frame with the size of a random ground-truth box
at a uniform place in the sequence's extent; confidences U(0.5, 1) for true boxes and U(0.3,
0.8) for false ones. `hard` adds more of each and occasional bursts: a person missed for 3-8
frames in a row (an occlusion).
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

import trackeval_sequence  # first: it imports trackeval quietly

import quality_floors  # noqa: E402

SEQUENCES = ["TUD-Campus", "TUD-Stadtmitte"]
SEEDS = [1, 2, 3, 4, 5]
LEVELS = {
    "default": {"miss": 0.10, "jitter": 0.05, "false_positives": 0.3, "burst": 0.0},
    "hard": {"miss": 0.20, "jitter": 0.10, "false_positives": 1.0, "burst": 0.02},
}
FLOOR_MARGIN = 0.005


def read_boxes(path):
    rows = np.loadtxt(path, delimiter=",", ndmin=2)
    return rows[:, :6]  # frame, id, left, top, width, height


def noisy_detections(gt, level, seed):
    """MOTChallenge detection rows made from ground truth `gt` by the noise model."""
    rng = np.random.default_rng(seed)
    settings = LEVELS[level]
    frames = np.unique(gt[:, 0]).astype(int)
    left, top = gt[:, 2].min(), gt[:, 3].min()
    right, bottom = (gt[:, 2] + gt[:, 4]).max(), (gt[:, 3] + gt[:, 5]).max()
    occluded_until = {}
    rows = []
    for frame in range(frames.min(), frames.max() + 1):
        for box in gt[gt[:, 0] == frame]:
            person = int(box[1])
            if occluded_until.get(person, -1) >= frame:
                continue
            if rng.random() < settings["burst"]:
                occluded_until[person] = frame + int(rng.integers(3, 9))
                continue
            if rng.random() < settings["miss"]:
                continue
            width, height = box[4], box[5]
            cx = box[2] + width / 2 + rng.normal(0, settings["jitter"] * width)
            cy = box[3] + height / 2 + rng.normal(0, settings["jitter"] * height)
            width *= np.exp(rng.normal(0, settings["jitter"]))
            height *= np.exp(rng.normal(0, settings["jitter"]))
            rows.append((frame, cx - width / 2, cy - height / 2, width, height, rng.uniform(0.5, 1)))
        for _ in range(rng.poisson(settings["false_positives"])):
            template = gt[rng.integers(len(gt))]
            width, height = template[4], template[5]
            x = rng.uniform(left, max(left, right - width))
            y = rng.uniform(top, max(top, bottom - height))
            rows.append((frame, x, y, width, height, rng.uniform(0.3, 0.8)))
    return [f"{f},-1,{x:.2f},{y:.2f},{w:.2f},{h:.2f},{c:.3f},-1,-1,-1" for f, x, y, w, h, c in rows]


def trackeval_scores(gt_path, tracks_path):
    """TrackEval's scores for one sequence (scripts/trackeval_sequence.py)."""
    return trackeval_sequence.scores(gt_path, tracks_path)


def main():
    arguments = sys.argv[1:]
    options = quality_floors.take_options(arguments)
    as_json = "--json" in arguments
    arguments = [a for a in arguments if a != "--json"]
    if len(arguments) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    headroom, data = arguments
    results = {}
    with tempfile.TemporaryDirectory() as work:
        for sequence in SEQUENCES:
            gt_path = os.path.join(data, sequence, "gt.txt")
            gt = read_boxes(gt_path)
            for level in LEVELS:
                scores = []
                for seed in SEEDS:
                    detections = os.path.join(work, f"{sequence}-{level}-{seed}.det.txt")
                    tracks = os.path.join(work, f"{sequence}-{level}-{seed}.tracks.txt")
                    with open(detections, "w") as handle:
                        handle.write("\n".join(noisy_detections(gt, level, seed)) + "\n")
                    subprocess.run([headroom, "track", detections, "--out", tracks], check=True,
                                   capture_output=True)
                    scores.append(trackeval_scores(gt_path, tracks))
                results[f"{sequence}/{level}"] = {
                    key: float(np.mean([s[key] for s in scores])) for key in scores[0]}
    if as_json:
        print(json.dumps(results, indent=1, sort_keys=True))
    else:
        print(f"{'sequence/noise':<26}{'IDF1':>7}{'HOTA':>7}{'MOTA':>7}{'IDSW':>7}   (mean of seeds 1-5, TrackEval)")
        for name, row in results.items():
            print(f"{name:<26}{row['idf1']:>7.3f}{row['hota']:>7.3f}{row['mota']:>7.3f}{row['idsw']:>7.1f}")
    quality_floors.apply(options, results, FLOOR_MARGIN, "real-data-quality")

if __name__ == "__main__":
    main()
