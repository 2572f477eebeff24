#!/usr/bin/env bash
# Installs the Debian packages named as arguments that are not installed yet; safe to run again.
# On a fresh machine another apt or dpkg (unattended-upgrades, cloud-init) often holds the
# package manager's lock: this waits for it, up to 5 minutes, saying so, instead of failing.
# Usage: scripts/apt-install.sh PACKAGE...
set -euo pipefail

missing=()
for package in "$@"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' \
    || missing+=("$package")
done
((${#missing[@]} > 0)) || exit 0

echo "apt-install: installing ${missing[*]}" >&2
sudo_cmd=()
[[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
deadline=$((SECONDS + 300))

# apt_get ARGS...: apt-get, retried while another process holds a lock (dpkg's own lock is
# also waited for inside apt-get by DPkg::Lock::Timeout; `update`'s lists lock is not).
apt_get() {
  local said=
  until DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get \
    -o DPkg::Lock::Timeout=$((deadline > SECONDS ? deadline - SECONDS : 0)) "$@" >"$log" 2>&1; do
    if grep -qiE "could not get lock|unable to (acquire|lock)|another process" "$log" \
      && ((SECONDS < deadline)); then
      if [[ -z $said ]]; then
        echo "apt-install: waiting for the package manager's lock (another apt or dpkg holds it), up to 5 minutes" >&2
        said=1
      fi
      sleep 2
    else
      cat "$log" >&2
      return 1
    fi
  done
}

apt_get update -qq
apt_get install -y -qq --no-install-recommends "${missing[@]}"
