#!/usr/bin/env python3
"""Measures the Python example's person detector on vtest.avi: people found in the frames whose
people were counted by eye (Tests/Fixtures/people/vtest-counted.txt), false boxes, and
milliseconds a frame, at each input size of its ladder.

A counted person is found when a box overlaps theirs by IoU ≥ 0.3 (boxes and people paired
greedily, best overlap first, each used once); a box that finds nobody is a false box. The boxes
are the example's own (`PersonDetector` in examples/python/people_detector.py: the frame's luma,
score ≥ 0.2, none wider than half the frame, overlaps thinned, one network per input size). Timing: one OpenCV thread, the first --timed frames of the video, after
the counted frames (which warm each network up); blob, forward pass and decoding together.

Usage: /usr/bin/python3 scripts/person_detector_check.py [--models DIR] [--timed N] [--floor R]
                                                         [--max-false N]
       /usr/bin/python3 scripts/person_detector_check.py --published [--regions N] [--models DIR]
                                                         [--frames N] [--least-gain G]
  exits 1 when recall at the heaviest step is below --floor (default 0.9), or when it draws
  more than --max-false boxes that find nobody (default 0). Its last line is the checked figure
  against its floor ("recall 26/27 = 0.96 ≥ 0.90 at 300×300, 0 false boxes ≤ 0"): test.sh shows
  a step's last line, and the lines before it are every step of the ladder, checked or not.

With --published it measures instead, and checks nothing: every frame of vtest.avi, in order,
against its published ground truth (Tests/Fixtures/people/PETS09-S2L1-gt.txt, 4,476 boxes to
find), the whole frame at 300×300 then --regions N regions a frame (default 3) on every frame and
on every second frame (the example's region rungs; the boxes kept on the frames between), as the
example runs them without a service but with no frame dropped. A box finds a person at IoU ≥ 0.5
(paired greedily as above); a box on one of the 174 boxes the ground truth marks not to be
considered (people far off at the top) is neither found nor false, as MOTChallenge leaves them out. It
prints recall (also of the far people, under 80 pixels tall), precision, the network's calls a
frame and milliseconds a frame (one thread). --frames N measures the first N frames only;
--least-gain G checks after all: the whole frame against the regions on every frame, exit 1
unless the regions find at least G more of the people (test.sh: the first 150 frames, 0.1).
"""

import argparse
import importlib.util
import os
import statistics
import sys
import time

REPOSITORY = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
COUNTED = os.path.join(REPOSITORY, "Tests", "Fixtures", "people", "vtest-counted.txt")
VTEST = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"
MATCH_IOU = 0.3
PUBLISHED = os.path.join(REPOSITORY, "Tests", "Fixtures", "people", "PETS09-S2L1-gt.txt")
PUBLISHED_IOU = 0.5
FAR = 80  # pixels: people shorter than this are far off, a few pixels tall at the network's input


def example():
    """examples/python/people_detector.py as a module: the detector measured is the example's."""
    path = os.path.join(REPOSITORY, "examples", "python", "people_detector.py")
    spec = importlib.util.spec_from_file_location("people_detector", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def counted_people():
    """MOT frame number (1-based) → the boxes (x, y, width, height) of the people counted in it."""
    people = {}
    with open(COUNTED, encoding="utf-8") as file:
        for line in file:
            fields = line.strip().split(",")
            if len(fields) >= 6:
                people.setdefault(int(fields[0]), []).append(tuple(float(v) for v in fields[2:6]))
    return people


def iou(a, b):
    width = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    height = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    overlap = width * height
    return overlap / (a[2] * a[3] + b[2] * b[3] - overlap)


def pairs(people, boxes, least=MATCH_IOU):
    """(person, box) index pairs of `people` the `boxes` find, paired greedily by overlap."""
    overlaps = sorted(((iou(p, b), i, j) for i, p in enumerate(people) for j, b in enumerate(boxes)),
                      reverse=True)
    used_people, used_boxes, found = set(), set(), []
    for overlap, i, j in overlaps:
        if overlap < least:
            break
        if i not in used_people and j not in used_boxes:
            used_people.add(i)
            used_boxes.add(j)
            found.append((i, j))
    return found


def matched(people, boxes):
    """How many of `people` the `boxes` find, paired greedily by overlap."""
    return len(pairs(people, boxes))


def published_people():
    """MOT frame number → [(box, whether it is considered)] of the published ground truth."""
    people = {}
    with open(PUBLISHED, encoding="utf-8") as file:
        for line in file:
            fields = line.strip().split(",")
            if len(fields) >= 7:
                box = tuple(float(v) for v in fields[2:6])
                people.setdefault(int(fields[0]), []).append((box, fields[6].strip() != "0"))
    return people


def measure_published(detector, models, regions, limit=None, least_gain=None):
    """Prints, for the whole frame and for `regions` regions on every frame and every second
    frame, how the example's detector does on every frame of vtest.avi (the docstring's
    --published), or on its first `limit` frames; with `least_gain`, fails (1) unless the
    regions on every frame find at least that much more of the people than the whole frame."""
    cv2 = detector.cv2
    people = published_people()
    size = detector.LADDER[0][1]  # the heaviest whole-frame input; regions are each resized to 300×300
    rungs = ((f"whole frame, {size[0]}×{size[1]}", 0, 1), (f"{regions} regions", regions, 1),
             (f"{regions} regions, every 2nd frame", regions, 2))
    if least_gain is not None:
        rungs = rungs[:2]  # the check compares the top rung with the whole frame
    recalls = []
    for name, budget, stride in rungs:
        people_detector = detector.PersonDetector(models, regions=budget)
        capture = cv2.VideoCapture(VTEST)
        if not capture.isOpened():
            sys.exit(f"person_detector_check.py: cannot open {VTEST} (apt install opencv-doc)")
        number = found = wanted = false = far_found = far_wanted = 0
        seconds, boxes = 0.0, []
        while True:
            ok, image = capture.read()
            if not ok or (limit is not None and number >= limit):
                break
            number += 1
            if (number - 1) % stride == 0:
                began = time.perf_counter()
                boxes = people_detector.detect(image, size)
                seconds += time.perf_counter() - began
            truth = people.get(number, [])
            paired = pairs([box for box, _ in truth], boxes, PUBLISHED_IOU)
            found += sum(1 for i, _ in paired if truth[i][1])
            wanted += sum(1 for _, considered in truth if considered)
            far_found += sum(1 for i, _ in paired if truth[i][1] and truth[i][0][3] < FAR)
            far_wanted += sum(1 for box, considered in truth if considered and box[3] < FAR)
            false += len(boxes) - len(paired)
        shown = found + false
        print(f"{name}: recall {found}/{wanted} = {found / wanted:.3f}, precision {found}/{shown} ="
              f" {found / max(1, shown):.3f} (people under {FAR} pixels tall: {far_found}/{far_wanted} ="
              f" {far_found / max(1, far_wanted):.3f}), {people_detector.calls / number:.2f} network"
              f" calls and {seconds / number * 1000:.1f} ms a frame ({number} frames)")
        recalls.append(found / wanted)
    if least_gain is not None and recalls[1] - recalls[0] < least_gain:
        print(f"FAIL: the regions found {recalls[1] - recalls[0]:+.3f} of the people against the"
              f" whole frame (least gain {least_gain})")
        return 1
    return 0


def frames(cv2, wanted):
    """(MOT frame number, image) of vtest.avi for each number in `wanted`."""
    capture = cv2.VideoCapture(VTEST)
    if not capture.isOpened():
        sys.exit(f"person_detector_check.py: cannot open {VTEST} (apt install opencv-doc)")
    number = 0
    while number < max(wanted):
        ok, image = capture.read()
        if not ok:
            break
        number += 1
        if number in wanted:
            yield number, image


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", metavar="DIR", help="the model's directory (default: installed)")
    parser.add_argument("--timed", type=int, default=20, metavar="N", help="frames timed (default 20)")
    parser.add_argument("--floor", type=float, default=0.9, help="least recall at the heaviest step")
    parser.add_argument("--max-false", type=int, default=0, metavar="N",
                        help="most false boxes at the heaviest step (default 0)")
    parser.add_argument("--published", action="store_true",
                        help="measure every frame against the published ground truth instead, regions too")
    parser.add_argument("--regions", type=int, default=3, metavar="N",
                        help="with --published: regions a frame (default 3, the example's --regions)")
    parser.add_argument("--frames", type=int, metavar="N",
                        help="with --published: the first N frames only (default: every frame)")
    parser.add_argument("--least-gain", type=float, metavar="G",
                        help="with --published: fail unless the regions' recall beats the whole"
                        " frame's by at least G")
    arguments = parser.parse_args()
    detector = example()
    if arguments.published and arguments.regions not in detector.REGION_BUDGETS[1:]:
        parser.error(f"--regions: expected an integer from 1 to {detector.REGION_BUDGETS[-1]},"
                     f" got {arguments.regions}")
    cv2 = detector.cv2
    cv2.setNumThreads(1)
    if arguments.frames is not None and arguments.frames < 1:
        parser.error(f"--frames: expected at least 1 frame, got {arguments.frames}")
    if arguments.least_gain is not None and not 0 <= arguments.least_gain <= 1:
        parser.error(f"--least-gain: expected a share of the people from 0 to 1, got {arguments.least_gain}")
    if arguments.published:
        return measure_published(detector, arguments.models, arguments.regions,
                                 arguments.frames, arguments.least_gain)
    people_detector = detector.PersonDetector(arguments.models)
    people = counted_people()
    images = dict(frames(cv2, set(people) | set(range(1, arguments.timed + 1))))
    sizes = {}
    for name, size, _, _ in detector.LADDER:
        sizes.setdefault(size, name)
    if arguments.timed < 1:
        parser.error("--timed: expected at least 1 frame")
    heaviest = None  # (found, total, false boxes, size) at the heaviest step: what is checked
    for size, name in sizes.items():
        found = total = false = 0
        widest = 0.0
        print(f"input {size[0]}×{size[1]} ({name}):")
        for number in sorted(people):
            image = images[number]
            boxes = people_detector.detect(image, size)
            hits = matched(people[number], boxes)
            found, total, false = found + hits, total + len(people[number]), false + len(boxes) - hits
            widest = max([widest] + [b[2] / image.shape[1] for b in boxes])
            print(f"  frame {number}: {hits} of {len(people[number])} people found,"
                  f" {len(boxes) - hits} false boxes")
        times = []
        for number in range(1, arguments.timed + 1):
            began = time.perf_counter()
            people_detector.detect(images[number], size)
            times.append((time.perf_counter() - began) * 1000)
        recall = found / total
        if heaviest is None:
            heaviest = (found, total, false, size)
        print(f"  recall {found}/{total} = {recall:.2f}, {false} false boxes, widest box"
              f" {widest:.2f} of the frame; {statistics.median(times):.1f} ms a frame (median of"
              f" {len(times)}, mean {statistics.mean(times):.1f})")
    found, total, false, size = heaviest
    recall = found / total
    passes = recall >= arguments.floor and false <= arguments.max_false
    # The verdict on one line, last, figure against floor: the per-step lines above include the
    # lighter steps, which are measured but not checked.
    print(f"{'' if passes else 'person_detector_check.py: '}recall {found}/{total} = {recall:.2f}"
          f" {'≥' if recall >= arguments.floor else '<'}"
          f" {decimals(arguments.floor)} at {size[0]}×{size[1]}, {false} false boxes"
          f" {'≤' if false <= arguments.max_false else '>'} {arguments.max_false}",
          file=sys.stdout if passes else sys.stderr)
    return 0 if passes else 1


def decimals(value):
    """`value` with two decimals, or more when two would round it (a floor of 0.925)."""
    return f"{value:.2f}" if round(value, 2) == value else f"{value:g}"


if __name__ == "__main__":
    sys.exit(main())
