#!/usr/bin/env python3
"""Peers on the real-data check (scripts/real_data_quality.py): the same TUD ground truth and
seeded noisy detections through norfair, motpy, ByteTrack (PyPI `bytetracker`) and OC-SORT
(PyPI `ocsort`), each at its defaults, and `headroom track`; all scored by TrackEval. Then
their speeds on the same detections, tracking only, one thread, measured in the same run:
frames a second per tracker (the Python peers timed around their update loop, detections
already in memory; headroom's in-process figure as `track --json` reports it, parsing and
writing excluded), and headroom's ratio to the fastest peer.
Dev comparison, not part of the tests: scripts/real-data-peers.sh makes the virtualenv.

Usage: real_data_peers.py HEADROOM DATA-DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import types

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import real_data_quality as check  # noqa: E402


class Boxes(np.ndarray):
    """The PyPI ByteTrack and OC-SORT packages take torch tensors only to call `.numpy()` on
    them (YOLO's output); an array that answers `.numpy()` stands in, so torch is not needed."""

    def numpy(self):
        return np.asarray(self)


# bytetracker imports torch for `isinstance(x, torch.Tensor)` alone.
sys.modules.setdefault("torch", types.SimpleNamespace(Tensor=type("Tensor", (), {})))


def frames_of(lines):
    frames = {}
    for line in lines:
        f, _, x, y, w, h, s = (float(v) for v in line.split(",")[:7])
        frames.setdefault(int(f), []).append((x, y, w, h, s))
    return frames


def run_norfair(frames, last):
    import norfair
    tracker = norfair.Tracker(distance_function="iou", distance_threshold=0.8)
    rows = []
    for frame in range(1, last + 1):
        detections = [norfair.Detection(points=np.array([[x, y], [x + w, y + h]]),
                                        scores=np.array([s, s]))
                      for x, y, w, h, s in frames.get(frame, [])]
        for obj in tracker.update(detections=detections):
            (x1, y1), (x2, y2) = obj.estimate
            rows.append((frame, obj.id, x1, y1, x2 - x1, y2 - y1))
    return rows


def run_motpy(frames, last):
    from motpy import Detection, MultiObjectTracker
    tracker = MultiObjectTracker(dt=1 / 25)
    ids, rows = {}, []
    for frame in range(1, last + 1):
        tracker.step(detections=[Detection(box=np.array([x, y, x + w, y + h]), score=s)
                                 for x, y, w, h, s in frames.get(frame, [])])
        for track in tracker.active_tracks():
            x1, y1, x2, y2 = track.box
            rows.append((frame, ids.setdefault(track.id, len(ids) + 1), x1, y1, x2 - x1, y2 - y1))
    return rows


def xyxy(frames, frame):
    boxes = [(x, y, x + w, y + h, s, 0) for x, y, w, h, s in frames.get(frame, [])]
    return np.array(boxes, dtype=float).reshape(-1, 6).view(Boxes)


def run_boxes(tracker, frames, last):
    """A tracker of YOLO-style input ([x1, y1, x2, y2, score, class] rows in, [x1, y1, x2, y2,
    id, …] out), as the ByteTrack and OC-SORT packages are."""
    rows = []
    for frame in range(1, last + 1):
        for x1, y1, x2, y2, ident, *_ in tracker.update(xyxy(frames, frame), None):
            rows.append((frame, int(ident), x1, y1, x2 - x1, y2 - y1))
    return rows


def run_bytetrack(frames, last):
    from bytetracker import BYTETracker
    return run_boxes(BYTETracker(frame_rate=25), frames, last)


def run_ocsort(frames, last):
    from ocsort import OCSort
    return run_boxes(OCSort(), frames, last)


def write(path, rows):
    with open(path, "w") as handle:
        for frame, ident, x, y, w, h in rows:
            if w > 0 and h > 0:
                handle.write(f"{frame},{ident},{x:.2f},{y:.2f},{w:.2f},{h:.2f},1,-1,-1,-1\n")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[-1])
    headroom, data = sys.argv[1:]
    peers = {"norfair": run_norfair, "motpy": run_motpy, "bytetrack": run_bytetrack,
             "ocsort": run_ocsort}
    names = ["headroom"] + list(peers)
    print(f"{'sequence/noise':<24}" + "".join(f"{n:>18}" for n in names) + "   (IDF1 / HOTA)")
    speeds = {}  # sequence -> name -> [frames a second, one per run]
    with tempfile.TemporaryDirectory() as work:
        for sequence in check.SEQUENCES:
            gt_path = os.path.join(data, sequence, "gt.txt")
            gt = check.read_boxes(gt_path)
            last = int(gt[:, 0].max())
            for level in check.LEVELS:
                scores = {name: [] for name in names}
                for seed in check.SEEDS:
                    lines = check.noisy_detections(gt, level, seed)
                    detections = os.path.join(work, "det.txt")
                    with open(detections, "w") as handle:
                        handle.write("\n".join(lines) + "\n")
                    tracks = os.path.join(work, "headroom.txt")
                    tracked = subprocess.run(
                        [headroom, "track", detections, "--out", tracks, "--json"], check=True,
                        capture_output=True, text=True)
                    per_run = speeds.setdefault(sequence, {name: [] for name in names})
                    per_run["headroom"].append(json.loads(tracked.stdout)["framesPerSecond"])
                    scores["headroom"].append(check.trackeval_scores(gt_path, tracks))
                    frames = frames_of(lines)
                    for name, runner in peers.items():
                        path = os.path.join(work, f"{name}.txt")
                        start = time.perf_counter()
                        rows = runner(frames, last)
                        per_run[name].append(last / (time.perf_counter() - start))
                        write(path, rows)
                        scores[name].append(check.trackeval_scores(gt_path, path))
                cells = []
                for name in names:
                    idf1 = np.mean([s["idf1"] for s in scores[name]])
                    hota = np.mean([s["hota"] for s in scores[name]])
                    cells.append(f"{idf1:.3f} / {hota:.3f}")
                print(f"{sequence + '/' + level:<24}" + "".join(f"{c:>18}" for c in cells))
    print()
    print(f"{'sequence':<24}" + "".join(f"{n:>18}" for n in names)
          + "   (frames a second, median over runs; headroom × the fastest peer)")
    for sequence, per_run in speeds.items():
        medians = {name: float(np.median(values)) for name, values in per_run.items()}
        fastest = max(medians[name] for name in peers)
        cells = [f"{medians[name]:,.0f}" for name in names]
        print(f"{sequence:<24}" + "".join(f"{c:>18}" for c in cells)
              + f"   {medians['headroom'] / fastest:,.0f}×")


if __name__ == "__main__":
    main()
