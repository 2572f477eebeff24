#!/usr/bin/env bash
# Installs Headroom's GStreamer pieces (docs/gstreamer.md): the `headroom` tracer
# (lib/gstreamer-1.0/libgstheadroomtracer.so, built here with warnings as errors) and the
# `headroomrate` element (lib/gstreamer-1.0/python/headroomrate.py, with the headroom_client
# package beside it, where GStreamer's Python loader puts it on sys.path), and its guide
# (share/doc/headroom/gstreamer.md). GStreamer finds
# them through GST_PLUGIN_PATH=PREFIX/lib/gstreamer-1.0. Needs gcc, pkg-config and
# libgstreamer1.0-dev to build; the element needs python3-gst-1.0 and
# gstreamer1.0-python3-plugin-loader to load. Safe to run twice; scripts/install.sh runs it.
# Usage: scripts/install-gstreamer.sh [--prefix DIR (default /usr/local)]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
prefix=/usr/local
while (($#)); do
  case $1 in
    --prefix) prefix=${2:?--prefix: expected a directory}; shift 2 ;;
    *) echo "install-gstreamer: unknown option $1; expected --prefix DIR" >&2; exit 2 ;;
  esac
done
[[ $prefix == /* ]] || { echo "install-gstreamer: --prefix: expected an absolute path, got $prefix" >&2; exit 2; }
pkg-config --exists gstreamer-1.0 || {
  echo "install-gstreamer: no gstreamer-1.0 for pkg-config: install libgstreamer1.0-dev" >&2
  exit 2
}
plugins=$prefix/lib/gstreamer-1.0
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
make --no-print-directory -s -C clients/gstreamer/tracer OUT="$build" "$build/libgstheadroomtracer.so"
install -d "$plugins/python/headroom_client"
install -m 0644 "$build/libgstheadroomtracer.so" "$plugins/libgstheadroomtracer.so.tmp"
mv "$plugins/libgstheadroomtracer.so.tmp" "$plugins/libgstheadroomtracer.so"
install -m 0644 clients/python/headroom_client/*.py clients/python/headroom_client/py.typed \
  "$plugins/python/headroom_client/"
install -m 0644 clients/gstreamer/python/headroomrate.py "$plugins/python/headroomrate.py.tmp"
mv "$plugins/python/headroomrate.py.tmp" "$plugins/python/headroomrate.py"
install -d "$prefix/share/doc/headroom"
install -m 0644 docs/gstreamer.md "$prefix/share/doc/headroom/gstreamer.md"
echo "installed into $plugins: libgstheadroomtracer.so (GST_TRACERS=headroom),"
echo "  python/headroomrate.py (the headroomrate element) with python/headroom_client"
echo "GStreamer looks there with: export GST_PLUGIN_PATH=$plugins"
