#!/usr/bin/env bash
# Installs what Headroom needs and is missing; safe to run any number of times.
# Prints, on its last line, nothing: callers source scripts/env.sh for the toolchain path.
set -euo pipefail

# Debian packages the build, the tests and the demo need.
packages=(
  curl
  jq
  libmicrohttpd-dev
  libsensors-dev
  libsensors-config
  lm-sensors
  libsqlite3-dev
  ffmpeg
  python3-venv
  python3-pytest
  gcc
  libc6-dev
  pkg-config
  python3-opencv
  libopencv-objdetect-dev
  opencv-doc
  dpkg-dev
  lintian
  libmosquitto-dev
  mosquitto
  mosquitto-clients
)

# Waits for the package manager's lock when another apt or dpkg holds it.
"$(dirname "${BASH_SOURCE[0]}")/apt-install.sh" "${packages[@]}"

# shellcheck source=scripts/env.sh
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
swift --version >/dev/null
