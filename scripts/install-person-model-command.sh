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
(($# == 2)) && [[ $2 == /* ]] || {
  echo "install-person-model-command: usage: scripts/install-person-model-command.sh ROOT PREFIX (absolute)" >&2
  exit 2
}
root=$1
prefix=$2
readonly graph=person-ssdlite-300.pbtxt command=headroom-person-model
install -d "$root$prefix/bin" "$root$prefix/share/headroom" "$root$prefix/share/man/man1"
install -m 0644 "models/$graph" "$root$prefix/share/headroom/$graph"
staged=$(mktemp "$root$prefix/bin/.$command.XXXXXX")
sed "s|^graph_source=.*|graph_source=$prefix/share/headroom/\$graph|
     s|scripts/person-model\.sh|$command|g" scripts/person-model.sh >"$staged"
grep -q "^command=$command\$" "$staged" || { rm -f "$staged"; echo "install-person-model-command: scripts/person-model.sh no longer names itself in \$command" >&2; exit 1; }
chmod 0755 "$staged"
mv -f "$staged" "$root$prefix/bin/$command"
gzip -9n <"dist/$command.1" >"$root$prefix/share/man/man1/$command.1.gz"
chmod 0644 "$root$prefix/share/man/man1/$command.1.gz"
