#!/usr/bin/env python3
"""The main job on real video, judged against published ground truth: `headroom run` over
OpenCV's vtest.avi (PETS 2009 S2L1, 795 frames) on virtual time with each person detector, its
tracks scored by TrackEval (HOTA, IDF1, MOTA) against MOTChallenge's ground truth of the
sequence (Tests/Fixtures/people/PETS09-S2L1-gt.txt, 19 people) — never by Headroom itself.

Usage: vtest_quality.py HEADROOM VIDEO GT [--floors FILE] [--record FILE] [--json]
  --floors FILE  fail (exit 1) when a detector's HOTA or IDF1 falls below the recorded floor
  --record FILE  write this run's figures (less the margin) as the floors

The run is on virtual time with the governor off: every frame is processed, at full input, and
the same frames give the same tracks on any machine. The margin (0.01) leaves room for the
neural network's arithmetic, which may round differently on another CPU.
"""
import json
import os
import subprocess
import sys
import tempfile

import trackeval_sequence  # first: it imports trackeval quietly

import quality_floors  # noqa: E402

DETECTORS = ["person-ssd", "hog"]
FLOOR_MARGIN = 0.01


def scores(gt_path, tracks_path):
    """TrackEval's scores (scripts/trackeval_sequence.py) and the identities the run gave."""
    result = trackeval_sequence.scores(gt_path, tracks_path)
    with open(tracks_path) as handle:
        result["identities"] = len({line.split(",")[1] for line in handle if line.strip()})
    return result


def main():
    arguments = sys.argv[1:]
    options = quality_floors.take_options(arguments)
    as_json = "--json" in arguments
    arguments = [a for a in arguments if a != "--json"]
    if len(arguments) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    headroom, video, gt = arguments
    results = {}
    with tempfile.TemporaryDirectory() as work:
        # The detectors run at once, each with one OpenCV thread, rather than one after the
        # other with a thread a core: the same tracks, less CPU (person-ssd's run took 169 s
        # of it with one thread, 195 s with two) and 140 s instead of 175 on two cores.
        runs = {}
        for detector in DETECTORS:
            out = os.path.join(work, detector)
            runs[detector] = (out, subprocess.Popen(
                [headroom, "run", "--source", video, "--clock", "virtual", "--governor", "off",
                 "--detector", detector, "--out", out,
                 "--db", os.path.join(work, f"{detector}.sqlite3")],
                stdout=subprocess.DEVNULL, env=dict(os.environ, OPENCV_FOR_THREADS_NUM="1")))
        for detector, (out, run) in runs.items():
            if run.wait() != 0:
                for _, (_, other) in runs.items():
                    other.kill()
                sys.exit(f"vtest-quality: headroom run --detector {detector} failed (exit {run.returncode})")
            results[detector] = scores(gt, os.path.join(out, "tracks.txt"))
    if as_json:
        print(json.dumps(results, indent=1, sort_keys=True))
    else:
        print(f"{'detector':<12}{'HOTA':>7}{'DetA':>7}{'AssA':>7}{'IDF1':>7}{'MOTA':>7}{'IDSW':>6}"
              f"{'identities':>12}   (TrackEval; {results[DETECTORS[0]]['people']} people in the ground truth)")
        for name, row in results.items():
            print(f"{name:<12}{row['hota']:>7.3f}{row['detA']:>7.3f}{row['assA']:>7.3f}"
                  f"{row['idf1']:>7.3f}{row['mota']:>7.3f}{row['idsw']:>6}{row['identities']:>12}")
    quality_floors.apply(options, results, FLOOR_MARGIN, "vtest-quality")

if __name__ == "__main__":
    main()
