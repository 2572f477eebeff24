# Sourced by the scripts that score tracks with TrackEval (hota-crosscheck.sh,
# real-data-quality.sh): makes the virtualenv $venv (default .build/hota-venv, or $HOTA_VENV)
# with trackeval 1.3.0 and motmetrics 1.4.0 (for the TUD ground truth it ships) on first use,
# and sets $data to motmetrics' data folder. Without python3, its venv/pip or the network, it
# calls the caller's skip() with the reason.
#
# trackeval 1.3.0 (a maintained fork of JonathonLuiten/TrackEval; its HOTA and MOTChallenge code
# differ from upstream only in spelling np.float/np.int as float/int, which numpy ≥ 1.24 needs)
# declares opencv-python, matplotlib, pycocotools and tabulate as requirements (hundreds of MB)
# that only its plotting, segmentation and baseline code imports. It is installed with
# --no-deps next to the numpy and scipy that HOTA and the MOTChallenge loader use; motmetrics
# too (only its data files are read, so pandas is not needed).
command -v python3 >/dev/null 2>&1 || skip "no python3 on PATH"
venv=${HOTA_VENV:-.build/hota-venv}
# motmetrics' folder, found without importing it (its dependencies are not installed).
find_data='import importlib.util; print(importlib.util.find_spec("motmetrics").submodule_search_locations[0])'
if [[ ! -x "$venv/bin/python" ]] ||
  ! "$venv/bin/python" -c "import trackeval; $find_data" >/dev/null 2>&1; then
  mkdir -p "$(dirname "$venv")"
  log=$(mktemp)
  python3 -m venv "$venv" >"$log" 2>&1 || skip "python3 -m venv failed: $(tail -n 1 "$log") (log: $log)"
  pip=("$venv/bin/pip" install --quiet --retries 1 --timeout 20)
  { "${pip[@]}" --no-deps trackeval==1.3.0 motmetrics==1.4.0 && "${pip[@]}" numpy scipy; } \
    >"$log" 2>&1 ||
    skip "pip could not install trackeval and motmetrics (no network?): $(tail -n 1 "$log") (log: $log)"
  rm -f "$log"
fi
data=$("$venv/bin/python" -c "$find_data")/data
[[ -f $data/TUD-Campus/gt.txt && -f $data/TUD-Stadtmitte/gt.txt ]] ||
  { echo "motmetrics ships no TUD-Campus/TUD-Stadtmitte files in $data"; exit 1; }
