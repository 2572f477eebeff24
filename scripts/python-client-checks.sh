#!/usr/bin/env bash
# The Python client (clients/python) installed with pip into a fresh virtualenv, and its
# pytest tests run against a real `headroom serve`; then the ROS 2 node's tests that need no
# ROS (clients/ros2). Debian's python3 with python3-venv and python3-pytest
# (scripts/setup.sh installs them); the client itself needs nothing beyond the standard
# library. Usage: scripts/python-client-checks.sh [HEADROOM-BINARY]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
headroom=${1:-}
if [[ -z $headroom ]]; then
  source scripts/env.sh
  swift build --product headroom >/dev/null
  headroom="$(swift build --show-bin-path)/headroom"
fi
python=/usr/bin/python3
venv=$(mktemp -d)/venv
trap 'rm -rf "$(dirname "$venv")"' EXIT
# --system-site-packages: Debian's pytest, nothing from the network. Installed from a copy, so
# the build leaves nothing in the checkout.
"$python" -m venv --system-site-packages "$venv"
cp -r clients/python "$(dirname "$venv")/source"
"$venv/bin/pip" install --quiet --no-build-isolation --no-index "$(dirname "$venv")/source"
# Imported from the installed package, not from the source tree.
(cd "$(dirname "$venv")" && "$venv/bin/python" -c 'import headroom_client, sys; print("installed", headroom_client.__file__)')
HEADROOM=$headroom "$venv/bin/python" -m pytest -q -p no:cacheprovider clients/python/tests
# The ROS 2 node's statuses and command line, without ROS (scripts/ros2-checks.sh runs them
# again with rclpy, and the node itself).
"$venv/bin/python" -m pytest -q -p no:cacheprovider clients/ros2/tests/test_mapping.py \
  clients/ros2/tests/test_arguments.py
