# Sourced by the other scripts: puts the Swift toolchain on PATH.
# The toolchain is found on PATH, or in /opt/swift (where this machine kind installs it).
if ! command -v swift >/dev/null 2>&1; then
  for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
    if [[ -x "$candidate/swift" ]]; then
      export PATH="$candidate:$PATH"
      break
    fi
  done
fi
if ! command -v swift >/dev/null 2>&1; then
  echo "setup: no Swift toolchain found on PATH or in /opt/swift; install Swift 6 first" >&2
  exit 2
fi
