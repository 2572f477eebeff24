#!/usr/bin/env python3
"""Times Headroom's MotionDetector against OpenCV's MOG2 pipeline on the same raw frames.

Usage: motion_vs_mog2.py [--draw DIR] HEADROOM-BENCH RAW WIDTH HEIGHT [RAW WIDTH HEIGHT ...]

Each RAW is 8-bit greyscale frames of WIDTH x HEIGHT back to back (ffmpeg -f rawvideo -pix_fmt
gray). For each, OpenCV runs, on one thread (cv2.setNumThreads(1)), frame by frame:
createBackgroundSubtractorMOG2().apply, a 3x3 morphologyEx open and connectedComponentsWithStats
(8-connected), keeping components of at least the detector's minimum area; once with
detectShadows=False (MOG2's fastest setting, the baseline of the ratio) and once with its
default detectShadows=True (shadow pixels, 127, are thresholded away before the open). Only that
per-frame processing is timed, not decoding or reading: all frames are in memory first, as they
are for `headroom-bench motion RAW WIDTH HEIGHT --json`, which times our detector (scale 1 and
0.5) and a floor (a loop that sums every pixel) on the same file.

Prints one table: per file and pipeline, frames, ms/frame p50 and mean, ours/MOG2 (p50 over
p50 of MOG2 without shadows on the same file) and detections per frame (warm-up included for
both). With --draw DIR, writes DIR/motion-FRAME.png for a few frames of the first file: our
boxes (scale 1) on the left, MOG2's on the right.
"""
import json
import os
import subprocess
import sys
import time

import cv2
import numpy as np

DRAWN_FRAMES = [60, 200, 400, 600]


def mog2(frames, minimum_area, shadows, keep_boxes=()):
    """Per-frame seconds, detections per frame, and the boxes of the frames in keep_boxes."""
    subtractor = cv2.createBackgroundSubtractorMOG2(detectShadows=shadows)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    seconds = []
    detections = 0
    boxes = {}
    for number, frame in enumerate(frames):
        start = time.perf_counter()
        mask = subtractor.apply(frame)
        if shadows:
            _, mask = cv2.threshold(mask, 200, 255, cv2.THRESH_BINARY)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        found = stats[1:][stats[1:, cv2.CC_STAT_AREA] >= minimum_area]
        seconds.append(time.perf_counter() - start)
        detections += len(found)
        if number in keep_boxes:
            boxes[number] = [tuple(int(v) for v in row[:4]) for row in found]
    return seconds, detections / max(1, len(frames)), boxes


def ours(bench, raw, width, height):
    output = subprocess.run(
        [bench, "motion", raw, str(width), str(height), "--json"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def our_boxes(bench, raw, width, height, wanted):
    output = subprocess.run(
        [bench, "motion", raw, str(width), str(height), "--scale", "1", "--print"],
        check=True, capture_output=True, text=True).stdout
    boxes = {number: [] for number in wanted}
    for line in output.splitlines():
        number, x, y, w, h, _ = line.split(",")
        if int(number) in boxes:
            boxes[int(number)].append((int(x), int(y), int(w), int(h)))
    return boxes


def draw(directory, frames, ours_boxes, mog2_boxes):
    os.makedirs(directory, exist_ok=True)
    written = []
    for number in sorted(ours_boxes):
        panels = []
        for name, boxes, colour in (("ours", ours_boxes, (0, 220, 0)),
                                    ("MOG2", mog2_boxes, (0, 0, 255))):
            image = cv2.cvtColor(frames[number], cv2.COLOR_GRAY2BGR)
            for x, y, w, h in boxes[number]:
                cv2.rectangle(image, (x, y), (x + w - 1, y + h - 1), colour, 2)
            cv2.putText(image, f"{name} frame {number}: {len(boxes[number])} boxes", (8, 24),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 0, 255), 2)
            panels.append(image)
        path = os.path.join(directory, f"motion-{number}.png")
        cv2.imwrite(path, np.hstack(panels))
        written.append(path)
    return written


def main(arguments):
    directory = None
    if arguments[:1] == ["--draw"]:
        directory, arguments = arguments[1], arguments[2:]
    if len(arguments) < 4 or (len(arguments) - 1) % 3:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    bench = arguments[0]
    cv2.setNumThreads(1)
    rows = []
    for index in range(1, len(arguments), 3):
        raw, width, height = arguments[index], int(arguments[index + 1]), int(arguments[index + 2])
        frames = np.fromfile(raw, dtype=np.uint8)
        frames = frames[: len(frames) // (width * height) * width * height].reshape(-1, height, width)
        measured = ours(bench, raw, width, height)
        minimum_area = measured["minimumAreaPixels"]
        wanted = [n for n in DRAWN_FRAMES if n < len(frames)] if directory and index == 1 else []
        plain, plain_rate, mog2_boxes = mog2(frames, minimum_area, False, wanted)
        shadowed, shadowed_rate, _ = mog2(frames, minimum_area, True)
        baseline = float(np.median(plain)) * 1e3
        label = f"{width}x{height}"
        rows.append((label, "MOG2 + open + CC", len(frames), baseline,
                     float(np.mean(plain)) * 1e3, 1.0, plain_rate))
        rows.append((label, "MOG2 (shadows) + open + CC", len(frames),
                     float(np.median(shadowed)) * 1e3, float(np.mean(shadowed)) * 1e3,
                     float(np.median(shadowed)) * 1e3 / baseline, shadowed_rate))
        for row in measured["rows"]:
            rows.append((label, row["name"], measured["frames"], row["p50Milliseconds"],
                         row["meanMilliseconds"], row["p50Milliseconds"] / baseline,
                         row["detectionsPerFrame"] if not row["name"].startswith("floor")
                         else float("nan")))
        if wanted:
            written = draw(directory, frames, our_boxes(bench, raw, width, height, wanted),
                           mog2_boxes)
            print("motion-vs-mog2: wrote " + " ".join(written))
    print(f"motion-vs-mog2: OpenCV {cv2.__version__}, one thread; minimum area "
          f"{minimum_area / (width * height):.4f} of the frame for both; ratio = p50 / p50 of "
          "'MOG2 + open + CC' on the same file")
    print(f"{'frames':>9}  {'pipeline':<28}{'n':>5}  {'p50 ms':>8}  {'mean ms':>8}  "
          f"{'ratio':>7}  {'det/frame':>9}")
    for label, name, count, median, mean, ratio, rate in rows:
        shown = "-" if rate != rate else f"{rate:.2f}"
        print(f"{label:>9}  {name:<28}{count:>5}  {median:8.3f}  {mean:8.3f}  {ratio:6.3f}x  "
              f"{shown:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
