#!/usr/bin/env python3
"""OpenCV's DNN alone on the person detector's model, for scripts/bench-person-detector.sh: for
each input size of the main job's ladder, the median and mean milliseconds of blobFromImage and
forward on raw grey frames (the luma in three channels, as the main job feeds it), nothing else,
and the process's CPU milliseconds (every thread's) a call.

Usage: /usr/bin/python3 scripts/bench_person_opencv.py RAWFILE WIDTH HEIGHT
Prints {"rows": [{"name": "300x300", "p50Milliseconds": ..., "meanMilliseconds": ...,
"cpuMilliseconds": ...}, ...]}.
"""

import json
import os
import statistics
import subprocess
import sys
import time

import cv2
import numpy

SIZES = ((300, 300), (320, 240))


def model_directory():
    """Where scripts/person-model.sh installed the model, as it finds it (`--find`)."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "person-model.sh")
    found = subprocess.run([script, "--find"], capture_output=True, text=True)
    if found.returncode != 0:
        sys.exit(f"bench_person_opencv.py: {found.stderr.strip() or found.stdout.strip()}")
    return found.stdout.strip()


def main():
    path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    raw = numpy.fromfile(path, dtype=numpy.uint8)
    frames = raw[: raw.size // (width * height) * width * height].reshape(-1, height, width)
    directory = model_directory()
    rows = []
    for size in SIZES:
        network = cv2.dnn.readNetFromTensorflow(
            os.path.join(directory, "person-ssdlite.pb"),
            os.path.join(directory, "person-ssdlite-300.pbtxt"))
        times = []
        cpu = []
        if len(frames) < 2:
            sys.exit("bench_person_opencv.py: RAWFILE: expected at least two whole frames")
        for index, frame in enumerate(frames):
            began = time.perf_counter()
            began_cpu = time.process_time()
            bgr = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
            network.setInput(cv2.dnn.blobFromImage(bgr, 1.0, size, swapRB=True, crop=False))
            network.forward()
            if index > 0:  # the first call sets the network up
                times.append((time.perf_counter() - began) * 1000)
                cpu.append((time.process_time() - began_cpu) * 1000)
        rows.append({
            "name": f"{size[0]}x{size[1]}", "p50Milliseconds": statistics.median(times),
            "meanMilliseconds": statistics.fmean(times), "cpuMilliseconds": statistics.fmean(cpu),
        })
    print(json.dumps({"rows": rows}))


if __name__ == "__main__":
    main()
