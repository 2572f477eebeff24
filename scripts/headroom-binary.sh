# Sourced by the quality checks that take the headroom binary as their first argument
# (real-data-quality.sh, vtest-quality.sh): sets $headroom to it, or, when none is given (or the
# first argument is an option such as --record), builds the debug binary and sets it to that.
headroom=${1:-}
if [[ -z $headroom || $headroom == --* ]]; then
  source scripts/env.sh
  swift build --product headroom >/dev/null
  headroom="$(swift build --show-bin-path)/headroom"
fi
