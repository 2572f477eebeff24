#!/usr/bin/env bash
# Installs what Headroom needs and is missing; safe to run any number of times.
# Prints, on its last line, nothing: callers source scripts/env.sh for the toolchain path.
set -euo pipefail

# Debian packages the build, the tests and the demo need.
packages=(
  libsensors-dev
  libsensors-config
  lm-sensors
  libsqlite3-dev
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' \
    || missing+=("$package")
done

if ((${#missing[@]} > 0)); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# shellcheck source=scripts/env.sh
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
swift --version >/dev/null
