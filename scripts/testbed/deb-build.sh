#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# `make deb`: the Debian packages of debian/, built by dpkg-buildpackage
# (binary only, unsigned) in a copy of the tree, then checked by lintian
# (debian/*.lintian-overrides say why a tag is accepted; Documentation/
# testbed.rst). The packages and the .changes land in build/deb/; their
# paths are printed, one per line.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
out=$BUILD/deb
src=$out/src
mkdir -p "$out"
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
tb_sync_tree "$src"
log=$out/build.log
tb_log "dpkg-buildpackage -b -us -uc in $src (log: $log)"
(cd "$src" && dpkg-buildpackage -b -us -uc) >"$log" 2>&1 || {
	tail -n 40 "$log" >&2
	tb_die "dpkg-buildpackage failed (log: $log)"
}
changes=$(ls "$out"/*.changes)
# Root is told that lintian need not run as root: not a finding.
rc=0
lintian --fail-on error,warning --display-info --pedantic "$changes" \
	>"$out/lintian.log" 2>&1 || rc=$?
sed -i '/^running with root privileges/d' "$out/lintian.log"
[ ! -s "$out/lintian.log" ] || {
	tb_log "lintian:"; sed 's/^/  /' "$out/lintian.log" >&2
}
[ "$rc" = 0 ] || tb_die "lintian fails $changes"
ls "$out"/*.deb
