#!/usr/bin/env bash
# Real video through the main job, as a user would run it: the rendered scene encoded by ffmpeg
# and played back with `run --source` against its ground truth, annotated; Y4M on standard
# input; the errors a user meets (no file, not a video, no ffmpeg, misplaced options); SIGTERM
# in the middle of a video still leaves the report and a playable annotated video.
# Usage: scripts/video-checks.sh PATH-TO-headroom
set -euo pipefail
headroom=${1:?usage: scripts/video-checks.sh PATH-TO-headroom}
command -v ffmpeg >/dev/null || { echo "video-checks: skipped: no ffmpeg in PATH"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL video-checks: $*" >&2; exit 1; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
frames() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1"; }

# expect_exit CODE TEXT COMMAND...: runs COMMAND, which must exit CODE saying TEXT on stderr.
expect_exit() {
  local code=$1 text=$2 status=0
  shift 2
  "$@" >"$work/out" 2>"$work/err" || status=$?
  ((status == code)) || fail "$* exited $status, expected $code: $(cat "$work/err")"
  grep -qF -- "$text" "$work/err" || fail "$*: expected \"$text\" in: $(cat "$work/err")"
}

# The scene, still camera, 4 s at 320x180, encoded to H.264 beside its ground truth.
"$headroom" scene "$work/scene" --seconds 4 --fixed --size 320x180 --video "$work/scene/scene.mp4" >/dev/null
[[ $(frames "$work/scene/scene.mp4") == 120 ]] || fail "scene.mp4 should hold 120 frames"

# Played back every frame (--pace max), scored, annotated.
"$headroom" run --source "$work/scene/scene.mp4" --gt "$work/scene/gt.txt" --pace max \
  --detector blob --governor off --annotate "$work/run/annotated.mp4" --out "$work/run" \
  --db "$work/history.sqlite3" --json >"$work/run.json"
[[ $(json "$work/run.json" "d['framesProcessed']") == 120 ]] || fail "expected 120 frames processed"
[[ $(json "$work/run.json" "d['quality'] is not None and 0 < d['quality']['hota'] <= 1") == True ]] \
  || fail "expected a HOTA against the ground truth"
[[ $(json "$work/run.json" "d['annotation']['frames'] + d['annotation']['framesDropped']") == 120 ]] \
  || fail "the annotated video should account for every frame"
written=$(json "$work/run.json" "d['annotation']['frames']")
[[ $(frames "$work/run/annotated.mp4") == "$written" ]] || fail "annotated.mp4 should hold $written frames"
for still in 1 2 3 4; do
  [[ -s $work/run/still-$still.jpg ]] || fail "still-$still.jpg missing"
  grep -qF "still-$still.jpg" "$work/run/run.html" || fail "run.html should show still-$still.jpg"
done
grep -qF "HOTA" "$work/run/run.md" || fail "run.md should give HOTA"

# Y4M on standard input, no ground truth: no quality figures, the tracks still counted (the
# rendered scene's people are blobs, not people HOG knows: the motion detector).
ffmpeg -v error -i "$work/scene/scene.mp4" -f yuv4mpegpipe -pix_fmt gray - \
  | "$headroom" run --source - --pace max --detector motion --governor off --out "$work/stdin" \
    --db "$work/history.sqlite3" --json >"$work/stdin.json"
[[ $(json "$work/stdin.json" "d['framesProcessed'], d.get('quality'), d['trackCount'] > 0") == "(120, None, True)" ]] \
  || fail "stdin run: $(json "$work/stdin.json" "d['framesProcessed'], d.get('quality')")"

# Errors name the option and say what is wrong; exit 2.
expect_exit 2 "--source: /nonexistent/clip.mp4: no such readable file" \
  "$headroom" run --source /nonexistent/clip.mp4
echo "not a video" >"$work/notes.mp4"
expect_exit 2 "ffmpeg:" "$headroom" run --source "$work/notes.mp4"
expect_exit 2 "needs ffmpeg" env PATH=/nonexistent "$headroom" run --source "$work/scene/scene.mp4"
expect_exit 2 "--gt and --pace apply to --source only" "$headroom" run --gt "$work/scene/gt.txt"
expect_exit 2 "--source: --compare plays the video twice: a file, not a stream or camera" \
  "$headroom" run --compare --source -
expect_exit 2 "--clock virtual: a camera is live" "$headroom" run --clock virtual --source v4l2:/dev/video9
expect_exit 2 "--pace: on virtual time" "$headroom" run --clock virtual --source "$work/scene/scene.mp4" --pace max
# --compare plays a video file twice, from its start, and names it.
"$headroom" run --compare --source "$work/scene/scene.mp4" --pace max --detector blob \
  --governor pressure-only --out "$work/compare" --db "$work/history.sqlite3" >"$work/compare.out"
grep -qF "governor pressure-only vs off ($work/scene/scene.mp4)" "$work/compare.out" \
  || fail "--compare with a video: $(grep -F '==' "$work/compare.out")"
for mode in on off; do
  [[ $(json "$work/compare/governor-$mode/run.json" "d['framesProcessed']") == 120 ]] \
    || fail "--compare: the governor-$mode run should see the video's 120 frames"
done
expect_exit 2 "--pace" "$headroom" run --source "$work/scene/scene.mp4" --pace fast

# SIGTERM in the middle of a video played at its own rate: exit 143, the report marked
# interrupted, and the annotated video finished and playable.
"$headroom" scene "$work/long" --seconds 20 --fixed --size 320x180 --video "$work/long/scene.mp4" >/dev/null
"$headroom" run --source "$work/long/scene.mp4" --governor off --annotate "$work/term/annotated.mp4" \
  --out "$work/term" --db "$work/history.sqlite3" >"$work/term.out" 2>"$work/term.err" &
pid=$!
for _ in $(seq 300); do grep -q "s " "$work/term.out" 2>/dev/null && break; sleep 0.1; done
sleep 1
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
((status == 143)) || fail "SIGTERM: exit $status, expected 143: $(cat "$work/term.err")"
[[ $(json "$work/term/run.json" "d['wasInterrupted']") == True ]] || fail "run.json should say interrupted"
for seen in detections.txt tracks.txt; do
  [[ -f $work/term/$seen ]] || fail "the interrupted run should leave its $seen"
done
term_frames=$(frames "$work/term/annotated.mp4")
((term_frames > 0 && term_frames < 600)) || fail "the interrupted annotated video holds $term_frames frames"
# Real people with the real detector (the default with --source: the neural person detector,
# whose model scripts/setup.sh installs): the first 120 frames of OpenCV's vtest.avi (12 s of
# video, copied as they are; the whole video is scored by vtest-quality.sh) at full pace to the end — bounded by frames, not by the clock, so
# a busy machine takes longer and sees the same — identities counted in video time, what it
# saw written beside the report.
vtest=/usr/share/doc/opencv-doc/examples/data/vtest.avi
if [[ -f $vtest ]]; then
  ffmpeg -loglevel error -y -i "$vtest" -frames:v 120 -c copy "$work/first.avi"
  "$headroom" run --source "$work/first.avi" --pace max --governor off --out "$work/vtest" \
    --db "$work/history.sqlite3" --json >"$work/vtest.json"
  [[ $(json "$work/vtest.json" "d['detector']") == person-ssd ]] || fail "vtest: the default detector should be person-ssd"
  people=$(json "$work/vtest.json" "d['trackCount']")
  processed=$(json "$work/vtest.json" "d['framesProcessed']")
  ((people >= 5 && people <= processed / 10)) || fail "vtest: $people identities in $processed frames"
  grep -qF '"tracksStartedPerMinute"' "$work/vtest.json" || fail "vtest: no identities per minute"
  # detections.txt: MOTChallenge lines of the frames processed, which track reproduces, its
  # boxes' looks taken from the video's frames as the run took them.
  [[ $(cut -d, -f1 "$work/vtest/detections.txt" | sort -n | uniq | wc -l) -ge $((processed * 9 / 10)) ]] \
    || fail "vtest: detections.txt should cover the $processed frames processed"
  retracked=$("$headroom" track "$work/vtest/detections.txt" --detector person-ssd --source "$work/first.avi" --json | json /dev/stdin "d['tracks']")
  [[ $retracked == "$people" ]] || fail "vtest: track --detector person-ssd --source gave $retracked identities, the run $people"
  "$headroom" track "$work/vtest/detections.txt" --detector hog --source "$vtest" >/dev/null 2>"$work/track-video.err" \
    && fail "vtest: track --source with a detector without looks should be refused"
  grep -qF -- "--source: expected --detector person-ssd or blob" "$work/track-video.err" \
    || fail "vtest: track --source --detector hog: $(cat "$work/track-video.err")"
  head -c 200000 "$vtest" >"$work/cut.avi"
  "$headroom" track "$work/vtest/detections.txt" --detector person-ssd --source "$work/cut.avi" \
    >/dev/null 2>"$work/track-cut.err" && fail "vtest: track --source with a video cut short should be refused"
  grep -qE -- "--source: .*cut.avi has [0-9]+ frames; expected at least" "$work/track-cut.err" \
    || fail "vtest: track --source cut short: $(cat "$work/track-cut.err")"
  "$headroom" track "$work/vtest/detections.txt" --detector person-ssd --source "$vtest" \
    --image-size 640x480 >/dev/null 2>"$work/track-size.err" && fail "vtest: track --source with another --image-size should be refused"
  grep -qF -- "--image-size: 640x480; expected the size of --source" "$work/track-size.err" \
    || fail "vtest: track --source --image-size: $(cat "$work/track-size.err")"
  # Without the model, HOG (no model file) is the default.
  mkdir -p "$work/no-models"
  XDG_DATA_HOME="$work/no-models" XDG_DATA_DIRS="$work/no-models" "$headroom" run --source "$vtest" \
    --seconds 2 --pace max --governor off --out "$work/vtest-hog" --db "$work/history.sqlite3" \
    --json >"$work/vtest-hog.json"
  [[ $(json "$work/vtest-hog.json" "d['detector']") == hog ]] || fail "vtest: without the model the default should be hog"
  # On virtual time the video plays frame by frame at its rate: the same report twice.
  for pass in 1 2; do
    "$headroom" run --source "$vtest" --seconds 4 --clock virtual --scenario thermal-ramp \
      --out "$work/virtual-$pass" --db "$work/history.sqlite3" --json >"$work/virtual-$pass.json"
  done
  for figure in framesProcessed detectorCalls trackCount peakTemperature governorChangeCount; do
    first=$(json "$work/virtual-1.json" "d['$figure']")
    [[ $first == $(json "$work/virtual-2.json" "d['$figure']") ]] || fail "virtual time: $figure differs between two runs"
  done
  [[ $(json "$work/virtual-1.json" "d['framesProcessed']") == 41 ]] || fail "virtual time: $(json "$work/virtual-1.json" "d['framesProcessed']") frames in 4 s at 10 fps, expected 41"
else
  fail "no $vtest (scripts/setup.sh installs opencv-doc)"
fi

echo "video-checks: all passed (scene through ffmpeg and back, stdin, errors, SIGTERM: $term_frames frames kept; vtest: $people people)"
