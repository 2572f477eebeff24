#!/usr/bin/env bash
# Installs what Headroom needs and is missing, and the person detector's model
# (scripts/person-model.sh: quick when it is in place); safe to run any number of times.
# Prints, on its last line, nothing: callers source scripts/env.sh for the toolchain path.
set -euo pipefail

# Debian packages the build, the tests and the demo need.
packages=(
  curl
  jq
  libsensors-dev
  libsensors-config
  lm-sensors
  libsqlite3-dev
  ffmpeg
  python3-venv
  python3-pip
  python3-pytest
  gcc
  libc6-dev
  pkg-config
  python3-opencv
  libopencv-objdetect-dev
  libopencv-dnn-dev
  opencv-doc
  dpkg-dev
  patchelf
  lintian
  libmosquitto-dev
  mosquitto
  mosquitto-clients
  iproute2
  util-linux
  # GStreamer: gst-launch-1.0, the elements of the checks' pipelines (videotestsrc, avidemux,
  # decodebin; avdec_msmpeg4 for vtest.avi), Python elements (headroomrate), the tracer's build.
  gstreamer1.0-tools
  gstreamer1.0-plugins-base
  gstreamer1.0-plugins-good
  gstreamer1.0-libav
  python3-gst-1.0
  gstreamer1.0-python3-plugin-loader
  libgstreamer1.0-dev
)

# Waits for the package manager's lock when another apt or dpkg holds it.
"$(dirname "${BASH_SOURCE[0]}")/apt-install.sh" "${packages[@]}"

# The person detector's model, into this user's data directory (nothing fetches it at run time).
"$(dirname "${BASH_SOURCE[0]}")/person-model.sh" >/dev/null

# shellcheck source=scripts/env.sh
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
swift --version >/dev/null
