#!/usr/bin/env bash
# Builds the Debian package headroom_VERSION_ARCH.deb into DIR (default .build/package): the
# release binaries (headroom, and headroomd, the daemon `headroom serve` becomes) and
# libheadroom — headroom and libheadroom sharing one copy of the Swift runtime the package
# carries in a directory of its own, /usr/lib/MULTIARCH/headroom, headroomd with the runtime
# linked in (no Swift toolchain on the target: only Debian's libraries besides, its Depends
# computed from the binaries by dpkg-shlibdeps), the systemd
# unit (enabled and started on install, as Debian's dh_installsystemd does, stopped and
# removed with the package), the man pages headroom(1) (written by `headroom manual` from
# the option declarations) and headroom.service(8), shell completions, libheadroom with its
# header and pkg-config file, the Python client, headroom-person-model (which installs the
# person detector's model; the model itself is not in the package), and /usr/share/doc/headroom.
#
# One package, not headroom + libheadroom + libheadroom-dev: the library is a thin C face of
# the same code, versioned with the binary and used by programs measured or governed on the
# same host; splitting it would ask users to match three versions for one feature. Lintian's
# warnings that follow from that choice are listed in docs/install.md.
#
# With GStreamer's headers it also builds gstreamer1.0-headroom_VERSION_ARCH.deb (the tracer and
# the headroomrate element). It prints each package's path, headroom's first.
#
# Usage: scripts/package.sh [DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
out=$(realpath -m "${1:-.build/package}")
mkdir -p "$out"

# The release build (the regular one, shared with the benchmarks): `headroom` and the library
# link the Swift runtime as shared libraries, which the package carries once.
swift build -c release --product headroom
swift build -c release --product headroomd
# The library exports its C API and nothing else (dist/libheadroom.map), so the linker also
# drops the Swift code the API does not reach. (Linker flags only: nothing is recompiled.)
swift build -c release --product headroom-c -Xlinker --version-script="$PWD/dist/libheadroom.map"
bin=$(swift build -c release --show-bin-path)

version=$(sed -n 's/^public let headroomVersion = "\(.*\)"/\1/p' Sources/CLI/Version.swift)
architecture=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/lib/$multiarch/pkgconfig" \
  "$root/usr/include" "$root/lib/systemd/system" "$root/usr/share/man/man1" \
  "$root/usr/share/man/man8" "$root/usr/share/bash-completion/completions" \
  "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d" \
  "$root/usr/share/doc/headroom" "$root/usr/lib/python3/dist-packages/headroom_client"

install -m 0755 "$bin/headroom" "$root/usr/bin/headroom"
# headroomd, the resident daemon, has the runtime linked in instead, from the same objects.
scripts/link-daemon.sh "$stage/headroomd"
install -m 0755 "$stage/headroomd" "$root/usr/bin/headroomd"
install -m 0644 "$bin/libheadroom-c.so" "$root/usr/lib/$multiarch/libheadroom.so.0"
ln -s libheadroom.so.0 "$root/usr/lib/$multiarch/libheadroom.so"
# The Swift runtime they link (libswiftCore, FoundationEssentials, Dispatch …; no Foundation and
# so no ICU), once, in the package's private directory: what ldd finds in the toolchain.
runtime_dir=/usr/lib/$multiarch/headroom
runtime=$root$runtime_dir
toolchain_libraries=$(realpath "$(dirname "$(command -v swift)")/../lib/swift/linux")
install -d "$runtime"
ldd "$bin/headroom" "$bin/libheadroom-c.so" \
  | awk -v dir="$toolchain_libraries/" 'index($3, dir) == 1 { print $3 }' | sort -u \
  | while read -r library; do install -m 0644 "$library" "$runtime/"; done
# Each finds the runtime there (RUNPATH), and the library has its soname.
for file in "$root/usr/bin/headroom" "$root/usr/lib/$multiarch/libheadroom.so.0"; do
  patchelf --set-rpath "$runtime_dir" "$file"
done
patchelf --set-soname libheadroom.so.0 "$root/usr/lib/$multiarch/libheadroom.so.0"
strip --strip-unneeded "$root/usr/bin/headroom" "$root/usr/bin/headroomd" \
  "$root/usr/lib/$multiarch/libheadroom.so.0" "$runtime"/*.so
install -m 0644 include/headroom.h "$root/usr/include/headroom.h"
sed "s|@PREFIX@|/usr|; s|@VERSION@|$version|; s|\${prefix}/lib|\${prefix}/lib/$multiarch|" \
  dist/headroom.pc.in >"$root/usr/lib/$multiarch/pkgconfig/headroom.pc"
sed "s|/usr/local/bin/headroom|/usr/bin/headroom|g; s|file:///usr/local/share/doc|file:///usr/share/doc|g;
     s|^# scripts/install.sh installs it.*|# Installed by the headroom package.|" \
  dist/headroom.service >"$root/lib/systemd/system/headroom.service"
chmod 0644 "$root/lib/systemd/system/headroom.service"

# The staged binary, finding its runtime where the package puts it.
staged() { LD_LIBRARY_PATH="$runtime" "$root/usr/bin/headroom" "$@"; }
# The man pages: headroom(1) from the declarations, headroom.service(8) from dist/.
staged manual | gzip -9n >"$root/usr/share/man/man1/headroom.1.gz"
gzip -9n <dist/headroom.service.8 >"$root/usr/share/man/man8/headroom.service.8.gz"
# headroomd, what `headroom serve` becomes, is the service's executable: its page is the service's.
ln -s headroom.service.8.gz "$root/usr/share/man/man8/headroomd.8.gz"
staged completions bash >"$root/usr/share/bash-completion/completions/headroom"
staged completions zsh >"$root/usr/share/zsh/vendor-completions/_headroom"
staged completions fish >"$root/usr/share/fish/vendor_completions.d/headroom.fish"
install -m 0644 clients/python/headroom_client/*.py "$root/usr/lib/python3/dist-packages/headroom_client/"
# The model is not in the package (it is PyPI's, 12 MB, fetched once by the user or admin):
# the command that installs it is, with the text graph it installs beside it.
scripts/install-person-model-command.sh "$root" /usr
install -m 0644 dist/copyright "$root/usr/share/doc/headroom/copyright"
install -m 0644 docs/service.md docs/launch.md docs/api.md "$root/usr/share/doc/headroom/"
# changelog DOC-DIR: the packages' one changelog entry, into DOC-DIR/changelog.gz.
changelog() {
  printf 'headroom (%s) unstable; urgency=medium\n\n  * Built from %s.\n\n -- %s  %s\n' \
    "$version" "$(git rev-parse --short HEAD 2>/dev/null || echo "a source tree")" \
    "Headroom maintainers <maintainers@headroom.invalid>" "$(date -R -d @"${SOURCE_DATE_EPOCH:-0}")" \
    | gzip -9n >"$1/changelog.gz"
}
changelog "$root/usr/share/doc/headroom"

# Depends from the binaries, as Debian computes them (dpkg-shlibdeps wants a debian/control).
mkdir -p "$stage/debian"
printf 'Source: headroom\n\nPackage: headroom\nArchitecture: any\n' >"$stage/debian/control"
# The runtime's libraries are the package's own, private, unversioned names (libswiftCore.so):
# dpkg-shlibdeps says it cannot read a version from them, which is so.
depends=$(cd "$stage" && dpkg-shlibdeps -O --warnings=0 -l"root$runtime_dir" \
  -e"root/usr/bin/headroom" -e"root/usr/bin/headroomd" \
  -e"root/usr/lib/$multiarch/libheadroom.so.0" $(printf -- '-e%s ' root"$runtime_dir"/*.so) \
  2> >(grep -v "can't extract name and version from library name" >&2) \
  | sed -n 's/^shlibs:Depends=//p')

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
# libmosquitto is opened with dlopen by the first MQTT connection (Sources/CMosquitto/shim.h),
# so dpkg-shlibdeps cannot see it: Depends names it by hand.
cat >"$root/DEBIAN/control" <<EOF
Package: headroom
Version: $version
Architecture: $architecture
Maintainer: Headroom maintainers <maintainers@headroom.invalid>
Installed-Size: $size
Depends: $depends, libmosquitto1, adduser, init-system-helpers (>= 1.54~), python3
Recommends: ffmpeg, lm-sensors
Suggests: python3-opencv, python3-pip, prometheus-node-exporter
Section: utils
Priority: optional
Homepage: https://headroom.invalid/
Description: capture-session pricing, thermal pressure and a governor for cameras
 Headroom prices a camera capture session before it is committed, reads thermal
 and power pressure with an Android-compatible headroom forecast, and governs
 camera pipelines on the host (frame rate and inference load, with hysteresis)
 through an HTTP API, a C library (libheadroom) and a Python client. It also
 times launches and records video through a preallocated reserve. The headroom
 service runs as a systemd unit with Prometheus metrics.
EOF
install -m 0755 dist/debian/postinst dist/debian/prerm dist/debian/postrm "$root/DEBIAN/"
# The library: ldconfig runs after the package is installed or removed, and programs built
# against it depend on this package from this version on.
echo "activate-noawait ldconfig" >"$root/DEBIAN/triggers"
echo "libheadroom 0 headroom (>= $version)" >"$root/DEBIAN/shlibs"
chmod 0644 "$root/DEBIAN/triggers" "$root/DEBIAN/shlibs"

deb="$out/headroom_${version}_${architecture}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"

# gstreamer1.0-headroom: the headroom tracer and the headroomrate element where GStreamer looks
# by itself — its plugin directory, and python/ in it for Python elements — so no
# GST_PLUGIN_PATH. The element takes the Python client from the headroom package. A package of
# its own, as Debian ships GStreamer plugins, so that headroom does not pull in GStreamer.
# Built where GStreamer's headers are (libgstreamer1.0-dev); elsewhere skipped, and said.
if ! pkg-config --exists gstreamer-1.0; then
  echo "package: note: no gstreamer-1.0 for pkg-config (libgstreamer1.0-dev), so no gstreamer1.0-headroom" >&2
  exit 0
fi
gstreamer=$stage/gstreamer
plugins=$gstreamer/usr/lib/$multiarch/gstreamer-1.0
docs=$gstreamer/usr/share/doc/gstreamer1.0-headroom
install -d "$gstreamer/DEBIAN" "$plugins/python" "$docs"
# Debian's hardening flags, as a package build would give them.
make --no-print-directory -s -C clients/gstreamer/tracer OUT="$stage" \
  CFLAGS="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get LDFLAGS)" \
  "$stage/libgstheadroomtracer.so"
install -m 0644 "$stage/libgstheadroomtracer.so" "$plugins/libgstheadroomtracer.so"
strip --strip-unneeded "$plugins/libgstheadroomtracer.so"
install -m 0644 clients/gstreamer/python/headroomrate.py "$plugins/python/headroomrate.py"
install -m 0644 dist/copyright "$docs/copyright"
install -m 0644 docs/gstreamer.md "$docs/gstreamer.md"
changelog "$docs"
printf 'Source: headroom\n\nPackage: gstreamer1.0-headroom\nArchitecture: any\n' >"$stage/debian/control"
gstreamer_depends=$(cd "$stage" && dpkg-shlibdeps -O --warnings=0 \
  -e"gstreamer/usr/lib/$multiarch/gstreamer-1.0/libgstheadroomtracer.so" | sed -n 's/^shlibs:Depends=//p')
cat >"$gstreamer/DEBIAN/control" <<EOF
Package: gstreamer1.0-headroom
Source: headroom
Version: $version
Architecture: $architecture
Maintainer: Headroom maintainers <maintainers@headroom.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$gstreamer" | cut -f1)
Depends: $gstreamer_depends, headroom (= $version), python3-gst-1.0, gstreamer1.0-python3-plugin-loader
Section: video
Priority: optional
Homepage: https://headroom.invalid/
Description: GStreamer pieces of Headroom: a governed rate element and a launch tracer
 headroomrate, put in any pipeline, registers with the Headroom service and
 runs the stream at the frame rate the host's governor advises (dropping
 buffers, never renegotiating), pausing it when told, and tells the
 application which step of its inference ladder to run. The headroom tracer
 (GST_TRACERS=headroom) times a pipeline's launch under headroom launch
 measure: state changes, first buffers and ready, into the launch history.
EOF
gstreamer_deb="$out/gstreamer1.0-headroom_${version}_${architecture}.deb"
dpkg-deb --root-owner-group -Zxz --build "$gstreamer" "$gstreamer_deb" >/dev/null
echo "$gstreamer_deb"
