#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Unpack linux-source-6.1 once into the cache; print its path.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tarball=/usr/src/linux-source-6.1.tar.xz
[ -f "$tarball" ] || tb_die "$tarball missing (apt-get install linux-source-6.1)"
src=$(ksrc_dir)
mkdir -p "$CACHE"
exec 8>"$CACHE/.unpack.lock"
flock 8
if [ ! -f "$src/.unpacked" ]; then
	tb_log "unpacking $tarball"
	rm -rf "$src" "$src.tmp"; mkdir -p "$src.tmp"
	tar -C "$src.tmp" -xf "$tarball" --strip-components=1
	mv "$src.tmp" "$src"; touch "$src/.unpacked"
fi
echo "$src"
