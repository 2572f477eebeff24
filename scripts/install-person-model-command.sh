#!/usr/bin/env bash
# Installs scripts/person-model.sh as a command of an installed Headroom: ROOT/PREFIX/bin/
# headroom-person-model, which names itself in its messages and installs, beside the model, the
# text graph installed here as ROOT/PREFIX/share/headroom/person-ssdlite-300.pbtxt; and its
# manual page, ROOT/PREFIX/share/man/man1/headroom-person-model.1.gz. The Debian package
# (scripts/package.sh: ROOT its staging tree, PREFIX /usr) and scripts/install.sh (ROOT empty)
# both install it this way.
# Usage: scripts/install-person-model-command.sh ROOT PREFIX
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
usage="usage: scripts/install-person-model-command.sh ROOT PREFIX"
(($# == 2)) || { echo "install-person-model-command: $usage" >&2; exit 2; }
root=$1
prefix=$2
# The prefix goes into the command's text: a plain absolute path only.
[[ $prefix =~ ^(/[A-Za-z0-9._+-]+)+$ ]] || {
  echo "install-person-model-command: PREFIX: expected an absolute path of letters, digits and ._+-, got '$prefix'" >&2
  exit 2
}
readonly graph=person-ssdlite-300.pbtxt command=headroom-person-model
install -d "$root$prefix/bin" "$root$prefix/share/headroom" "$root$prefix/share/man/man1"
install -m 0644 "models/$graph" "$root$prefix/share/headroom/$graph"
staged=$(mktemp "$root$prefix/bin/.$command.XXXXXX")
trap 'rm -f "$staged"' EXIT
sed "s|^graph_source=.*|graph_source=$prefix/share/headroom/\$graph|
     s|scripts/person-model\.sh|$command|g" scripts/person-model.sh >"$staged"
# Both rewrites took, or person-model.sh changed shape under them.
grep -qx "command=$command" "$staged" && grep -qx "graph_source=$prefix/share/headroom/\$graph" "$staged" || {
  echo "install-person-model-command: scripts/person-model.sh no longer sets command= and graph_source= on lines of their own" >&2
  exit 1
}
chmod 0755 "$staged"
mv -f "$staged" "$root$prefix/bin/$command"
gzip -9n <"dist/$command.1" >"$root$prefix/share/man/man1/$command.1.gz"
chmod 0644 "$root$prefix/share/man/man1/$command.1.gz"
