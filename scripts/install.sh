#!/usr/bin/env bash
# Installs Headroom: the binary, the systemd unit (with ExecStart at the installed binary),
# shell completions for bash, zsh and fish, libheadroom for C and C++ (lib/libheadroom.so,
# include/headroom.h, lib/pkgconfig/headroom.pc), the person detector's model
# (share/headroom/models, by scripts/person-model.sh: downloaded once, verified; and the
# script itself as bin/headroom-person-model) and, where
# libgstreamer1.0-dev is installed, the GStreamer tracer and headroomrate element
# (lib/gstreamer-1.0, scripts/install-gstreamer.sh). Builds release binaries unless --from DIR
# names a build directory that has them. Safe to run twice.
# Usage: scripts/install.sh [--prefix DIR (default /usr/local)] [--from BUILD-DIR]
#        [--no-group]   (skip creating the system group "headroom" that may use the socket)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
prefix=/usr/local
from=
group=yes
while (($#)); do
  case $1 in
    --prefix) prefix=${2:?--prefix: expected a directory}; shift 2 ;;
    --from) from=${2:?--from: expected a build directory}; shift 2 ;;
    --no-group) group=no; shift ;;
    *) echo "install: unknown option $1; expected --prefix DIR, --from DIR or --no-group" >&2; exit 2 ;;
  esac
done
[[ $prefix == /* ]] || { echo "install: --prefix: expected an absolute path, got $prefix" >&2; exit 2; }
if [[ -z $from ]]; then
  source scripts/env.sh
  swift build -c release --product headroom
  swift build -c release --product headroomd
  swift build -c release --product headroom-c -Xlinker --version-script="$PWD/dist/libheadroom.map"
  from=$(swift build -c release --show-bin-path)
fi
[[ -x $from/headroom ]] || { echo "install: no headroom binary in $from" >&2; exit 2; }
[[ -f $from/libheadroom-c.so ]] || { echo "install: no libheadroom-c.so in $from" >&2; exit 2; }
version=$(sed -n 's/^public let headroomVersion = "\(.*\)"/\1/p' Sources/CLI/Version.swift)

install -d "$prefix/bin" "$prefix/lib/systemd/system" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d" \
  "$prefix/share/doc/headroom" "$prefix/lib/pkgconfig" "$prefix/include"
install -m 0755 "$from/headroom" "$prefix/bin/headroom"
# The resident daemon (`headroom serve` becomes it; it links no OpenCV), when it was built.
if [[ -x $from/headroomd ]]; then install -m 0755 "$from/headroomd" "$prefix/bin/headroomd"; fi
# The library under its C name; it finds the Swift runtime through its RUNPATH.
install -m 0755 "$from/libheadroom-c.so" "$prefix/lib/libheadroom.so.tmp"
mv "$prefix/lib/libheadroom.so.tmp" "$prefix/lib/libheadroom.so"
install -m 0644 include/headroom.h "$prefix/include/headroom.h"
sed "s|@PREFIX@|$prefix|; s|@VERSION@|$version|" dist/headroom.pc.in >"$prefix/lib/pkgconfig/headroom.pc.tmp"
mv "$prefix/lib/pkgconfig/headroom.pc.tmp" "$prefix/lib/pkgconfig/headroom.pc"
sed "s|/usr/local/bin/headroom|$prefix/bin/headroom|g; s|/usr/local/share/doc|$prefix/share/doc|g" \
  dist/headroom.service >"$prefix/lib/systemd/system/headroom.service.tmp"
chmod 0644 "$prefix/lib/systemd/system/headroom.service.tmp"
mv "$prefix/lib/systemd/system/headroom.service.tmp" "$prefix/lib/systemd/system/headroom.service"
"$prefix/bin/headroom" completions bash >"$prefix/share/bash-completion/completions/headroom"
"$prefix/bin/headroom" completions zsh >"$prefix/share/zsh/site-functions/_headroom"
"$prefix/bin/headroom" completions fish >"$prefix/share/fish/vendor_completions.d/headroom.fish"
install -m 0644 docs/service.md "$prefix/share/doc/headroom/service.md"
install -m 0644 docs/launch.md "$prefix/share/doc/headroom/launch.md"
scripts/person-model.sh --dir "$prefix/share/headroom/models" >/dev/null
scripts/install-person-model-command.sh "" "$prefix"
if [[ $group == yes ]] && ! getent group headroom >/dev/null; then
  if [[ $(id -u) -eq 0 ]]; then groupadd --system headroom; else
    echo "install: note: not root, so no group \"headroom\"; the socket is then the service's own" >&2
  fi
fi
echo "installed into $prefix: bin/headroom, lib/systemd/system/headroom.service, completions,"
echo "  lib/libheadroom.so, include/headroom.h, lib/pkgconfig/headroom.pc, share/headroom/models,"
echo "  bin/headroom-person-model"
if pkg-config --exists gstreamer-1.0 2>/dev/null; then
  scripts/install-gstreamer.sh --prefix "$prefix"
else
  echo "install: note: no GStreamer pieces (the headroom tracer, headroomrate): install libgstreamer1.0-dev to build them"
fi
# systemd looks for units under /usr/lib, /usr/local/lib and /etc, not under any prefix: from
# elsewhere the unit is enabled by its path (systemctl links it in).
case $prefix in
  /usr | /usr/local) echo "start it with: systemctl daemon-reload && systemctl enable --now headroom" ;;
  *)
    echo "systemd does not look in $prefix; start it with:"
    echo "  systemctl enable --now $prefix/lib/systemd/system/headroom.service"
    echo "the person detector finds its model there with XDG_DATA_DIRS=$prefix/share:/usr/local/share:/usr/share"
    ;;
esac
