#!/usr/bin/env python3
"""OpenCV's DNN alone on the person detector's model, for scripts/bench-person-detector.sh: for
each input size of the main job's ladder, the median milliseconds of blobFromImage and forward
on raw grey frames (the luma in three channels, as the main job feeds it), nothing else.

Usage: /usr/bin/python3 scripts/bench_person_opencv.py RAWFILE WIDTH HEIGHT
Prints {"rows": [{"name": "300x300", "p50Milliseconds": ...}, ...]}.
"""

import json
import os
import statistics
import sys
import time

import cv2
import numpy

SIZES = ((300, 300), (320, 240))


def model_directory():
    """Where scripts/person-model.sh installed the model (as `headroom run` looks for it)."""
    homes = [os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")]
    homes += (os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share").split(":")
    for home in homes:
        directory = os.path.join(home, "headroom", "models")
        if os.path.exists(os.path.join(directory, "person-ssdlite.pb")):
            return directory
    sys.exit("bench_person_opencv.py: no person-ssdlite.pb; install it with scripts/person-model.sh")


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
        for index, frame in enumerate(frames):
            began = time.perf_counter()
            bgr = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
            network.setInput(cv2.dnn.blobFromImage(bgr, 1.0, size, swapRB=True, crop=False))
            network.forward()
            if index > 0:  # the first call sets the network up
                times.append((time.perf_counter() - began) * 1000)
        rows.append({"name": f"{size[0]}x{size[1]}", "p50Milliseconds": statistics.median(times)})
    print(json.dumps({"rows": rows}))


if __name__ == "__main__":
    main()
