#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Unpack linux-source-$KLINE (lib.sh) once into the cache and apply the test
# bed's own patches (uml-patches/*.patch, in name order, to every kernel
# line, then uml-patches/$KLINE/*.patch to that line); print the tree's
# path. The
# tree's name carries the patch set's hash, so a changed patch gets a fresh
# tree (and, through uml-kernel.sh's key, a fresh UML build).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tarball=/usr/src/linux-source-$KLINE.tar.xz
[ -f "$tarball" ] || tb_die "$tarball missing (apt-get install linux-source-$KLINE)"
src=$(ksrc_dir)
mkdir -p "$CACHE"
exec 8>"$CACHE/.unpack.lock"
flock 8
# The patches a tree of this name must carry, one "sha256  name" line
# each, as .unpacked records them: a tree whose record differs (unpacked
# by a script of another patch set under this name) is unpacked again.
patches=()
for p in "$TESTBED"/uml-patches/*.patch "$TESTBED/uml-patches/$KLINE"/*.patch; do
	[ -e "$p" ] && patches+=("$p")
done
want=$(for p in ${patches[@]+"${patches[@]}"}; do
	echo "$(sha256sum <"$p" | cut -d' ' -f1)  $(basename "$p")"
done)
# A record left empty by an older ksrc.sh is taken on trust, once.
if [ -f "$src/.unpacked" ] && [ ! -s "$src/.unpacked" ] && [ -n "$want" ]; then
	echo "$want" >"$src/.unpacked"
fi
if [ -f "$src/.unpacked" ] && [ "$(cat "$src/.unpacked")" != "$want" ]; then
	tb_log "$src was unpacked with other patches: unpacking it again"
	rm -rf "$src"
fi
if [ ! -f "$src/.unpacked" ]; then
	# Trees of other patch sets are 1.5 GB each, but a worktree on another
	# patch set may be building in one: drop only those unused for 2 days.
	find "$CACHE" -maxdepth 1 -name "$(basename "${src%-p*}")-p*" \
		-mtime +1 -exec rm -rf {} +
	rm -rf "$src.tmp"
	tb_log "unpacking $tarball"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" -xf "$tarball" --strip-components=1
	for p in ${patches[@]+"${patches[@]}"}; do
		tb_log "applying $(basename "$p")"
		patch -d "$src.tmp" -p1 --forward --quiet <"$p" ||
			tb_die "$(basename "$p") does not apply to $tarball"
	done
	[ -z "$want" ] || echo "$want" >"$src.tmp/.unpacked"
	touch "$src.tmp/.unpacked"
	mv "$src.tmp" "$src"
fi
echo "$src"
