#!/usr/bin/env python3
"""Runs the same MOTChallenge detections through `headroom track`, norfair and motpy (PyPI),
times the tracking alone (no file I/O) and scores every output with `headroom evaluate`
(whose metrics scripts/mot-crosscheck.sh checks against py-motmetrics).

Usage: tracker_comparison.py HEADROOM WORKDIR SEQUENCE-DIR...   (each with det.txt and gt.txt)
Also writes two seeded walker sequences (10 and 100 subjects) into WORKDIR and adds them.
"""
import json
import os
import subprocess
import sys
import time

import numpy as np


def load(path):
    frames = {}
    with open(path) as handle:
        for line in handle:
            fields = line.strip().split(",")
            if len(fields) < 6:
                continue
            frame = int(float(fields[0]))
            x, y, w, h = (float(value) for value in fields[2:6])
            score = float(fields[6]) if len(fields) > 6 else 1.0
            frames.setdefault(frame, []).append((x, y, w, h, score))
    return frames


def write(path, rows):
    """Writes the rows; boxes with no area (which MOTChallenge readers reject) are dropped."""
    with open(path, "w") as handle:
        for frame, ident, x, y, w, h in rows:
            if not (w > 0 and h > 0):
                continue
            handle.write(f"{frame},{ident},{x:.3f},{y:.3f},{w:.3f},{h:.3f},1,-1,-1,-1\n")


def walkers(directory, subjects, frames=300, seed=11):
    """People walking in 1920×1080 with jitter, 5% misses, a low-confidence tail."""
    rng = np.random.default_rng(seed)
    os.makedirs(directory, exist_ok=True)
    x = rng.uniform(0, 1800, subjects)
    y = rng.uniform(0, 900, subjects)
    vx = rng.uniform(-6, 6, subjects)
    vy = rng.uniform(-2, 2, subjects)
    height = rng.uniform(60, 180, subjects)
    with open(f"{directory}/gt.txt", "w") as gt, open(f"{directory}/det.txt", "w") as det:
        for frame in range(1, frames + 1):
            x += vx
            y += vy
            vx[(x < 0) | (x > 1880)] *= -1
            vy[(y < 0) | (y > 1000)] *= -1
            for i in range(subjects):
                gt.write(f"{frame},{i + 1},{x[i]:.3f},{y[i]:.3f},{height[i] * 0.4:.3f},"
                         f"{height[i]:.3f},1,-1,-1,-1\n")
                if rng.uniform() < 0.05:
                    continue
                score = rng.uniform(0.15, 0.45) if rng.uniform() < 0.15 else rng.uniform(0.6, 0.99)
                jitter = rng.uniform(-2, 2, 4)
                det.write(f"{frame},-1,{x[i] + jitter[0]:.3f},{y[i] + jitter[1]:.3f},"
                          f"{height[i] * 0.4 + jitter[2]:.3f},{height[i] + 1.5 * jitter[3]:.3f},"
                          f"{score:.3f},-1,-1,-1\n")
    return directory


def run_norfair(frames, last):
    import norfair
    tracker = norfair.Tracker(distance_function="iou", distance_threshold=0.8,
                              initialization_delay=1, hit_counter_max=15)
    rows = []
    start = time.perf_counter()
    for frame in range(1, last + 1):
        detections = [
            norfair.Detection(points=np.array([[x, y], [x + w, y + h]]),
                              scores=np.array([s, s]))
            for x, y, w, h, s in frames.get(frame, []) if s >= 0.5]
        for obj in tracker.update(detections=detections):
            (x1, y1), (x2, y2) = obj.estimate
            rows.append((frame, obj.id, x1, y1, x2 - x1, y2 - y1))
    return time.perf_counter() - start, rows


def run_motpy(frames, last):
    from motpy import Detection, MultiObjectTracker
    tracker = MultiObjectTracker(
        dt=1 / 30,
        model_spec={"order_pos": 1, "dim_pos": 2, "order_size": 0, "dim_size": 2,
                    "q_var_pos": 5000.0, "r_var_pos": 0.1},
        active_tracks_kwargs={"min_steps_alive": 2, "max_staleness": 15})
    ids = {}
    rows = []
    start = time.perf_counter()
    for frame in range(1, last + 1):
        tracker.step(detections=[
            Detection(box=np.array([x, y, x + w, y + h]), score=s)
            for x, y, w, h, s in frames.get(frame, []) if s >= 0.5])
        for track in tracker.active_tracks():
            x1, y1, x2, y2 = track.box
            rows.append((frame, ids.setdefault(track.id, len(ids) + 1), x1, y1, x2 - x1, y2 - y1))
    return time.perf_counter() - start, rows


def evaluate(headroom, gt, tracks):
    out = subprocess.run([headroom, "evaluate", gt, tracks, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: tracker_comparison.py HEADROOM WORKDIR [SEQUENCE-DIR ...]")
    headroom, work, sequences = sys.argv[1], sys.argv[2], sys.argv[3:]
    sequences += [walkers(f"{work}/walkers-10", 10), walkers(f"{work}/walkers-100", 100)]
    print("| sequence | tracker | frames/s | headroom speed × | IDF1 | MOTA | IDSW |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for directory in sequences:
        gt, det = f"{directory}/gt.txt", f"{directory}/det.txt"
        frames = load(det)
        last = max(max(frames), max(load(gt)))
        ours = json.loads(subprocess.run(
            [headroom, "track", det, "--gt", gt, "--out", f"{directory}/headroom.txt", "--json"],
            check=True, capture_output=True, text=True).stdout)
        name = os.path.basename(directory.rstrip("/"))
        print(f"| {name} | headroom | {ours['framesPerSecond']:.0f} | 1 | {ours['idf1']:.3f} "
              f"| {ours['mota']:.3f} | {ours['idsw']:.0f} |")
        for label, runner in (("norfair", run_norfair), ("motpy", run_motpy)):
            seconds, rows = runner(frames, last)
            write(f"{directory}/{label}.txt", rows)
            metrics = evaluate(headroom, gt, f"{directory}/{label}.txt")
            fps = last / seconds
            print(f"| {name} | {label} | {fps:.0f} | {ours['framesPerSecond'] / fps:.0f} "
                  f"| {metrics['idf1']:.3f} | {metrics['mota']:.3f} | {metrics['idsw']:.0f} |")


if __name__ == "__main__":
    main()
