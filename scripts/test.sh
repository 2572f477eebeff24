#!/usr/bin/env bash
# The test command: setup, build (warnings are errors), every test, then the format lint.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
source scripts/env.sh

echo "== build"
swift build --build-tests -Xswiftc -warnings-as-errors 2>&1 | tail -n 20

echo "== tests"
swift test --skip-build

echo "== format lint"
swift format lint --strict --recursive Package.swift Sources Tests

echo "== command-line checks"
scripts/cli-checks.sh "$(swift build --show-bin-path)/headroom"

echo "== real libsensors on fake hwmon trees (root, mount namespace)"
scripts/sensors-fixture-test.sh "$(swift build --show-bin-path)/headroom"

echo "== boards: Raspberry Pi and Jetson sysfs trees through the CLI"
scripts/board-checks.sh "$(swift build --show-bin-path)/headroom"

echo "== pro video storage on tmpfs and ext4 (root, mount namespace, loop device)"
scripts/storage-checks.sh "$(swift build --show-bin-path)/headroom"

echo "== signals: run, watch and serve stopped or reloaded mid-work"
scripts/signal-checks.sh "$(swift build --show-bin-path)/headroom"

echo "== launch checks (measure, compare, crash safety)"
scripts/launch-checks.sh "$(swift build --show-bin-path)/headroom"

echo "== Prometheus scraping two headroom serve instances; promtool; endpoint abuse"
scripts/prometheus-integration.sh "$(swift build --show-bin-path)/headroom"

echo "test.sh: all passed"
