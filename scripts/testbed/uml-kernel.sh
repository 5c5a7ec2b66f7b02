#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Build (or reuse) the User-Mode-Linux KUnit kernel with sanitizers, or the
# kernel of another config fragment (uml-bench-config.sh: no sanitizers),
# from linux-source-$KLINE (MLX5_UMR_KLINE, lib.sh).
# The build lives outside the repo, keyed by the hash of the config fragment,
# the kernel source package version and the test bed's patches to it
# (uml-patches/); it is rebuilt only when one of them changes. Every call
# then proves the kernel can start init on this host (uml-preflight.sh).
# Prints the build directory on stdout.
#   uml-kernel.sh [CONFIG_FRAGMENT]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cfg=$(realpath "${1:-$TESTBED/uml.kunitconfig}")
# What one kernel line needs on top of every fragment (uml-<line>.kunitconfig).
line_cfg=$TESTBED/uml-$KLINE.kunitconfig
[ -f "$line_cfg" ] || line_cfg=/dev/null
src=$("$TESTBED/ksrc.sh")
srcver=$(dpkg-query -W -f='${Version}' "linux-source-$KLINE")
hash=$( (cat "$cfg" "$line_cfg"; echo "$srcver"; uml_patches_hash) | sha256sum | cut -c1-16)
out=$CACHE/uml-$hash
log() { echo "uml-kernel: $*" >&2; }
# One lock per kernel: building one must not block users of another.
exec 9>"$CACHE/.lock-$hash"
flock 9
if [ ! -f "$out/.built" ] || [ ! -f "$out/linux" ]; then
	log "building UML kernel in $out (a few minutes, once per config)"
	mkdir -p "$out"
	cat "$cfg" "$line_cfg" >"$out/.kunitconfig"
	(cd "$src" && python3 tools/testing/kunit/kunit.py config --build_dir="$out" \
		--kunitconfig="$out/.kunitconfig") >&2
	# kunit.py silently drops options whose dependencies are missing: insist.
	uml_config_missing "$out/.kunitconfig" "$out/.config" || exit 1
	make -C "$src" ARCH=um O="$out" -j"$(nproc)" >"$out/build.log" 2>&1 || {
		tail -30 "$out/build.log" >&2; log "UML build failed"; exit 1; }
	touch "$out/.built"
fi
# A kernel that builds may still die before init on this host (its CPU's
# XSAVE area, say): say so once here, not once per suite.
"$TESTBED/uml-preflight.sh" "$out" >&2 || exit 1
echo "$out"
