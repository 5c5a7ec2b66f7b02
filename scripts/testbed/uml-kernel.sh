#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Build (or reuse) the User-Mode-Linux KUnit kernel with sanitizers, or the
# kernel of another config fragment (uml-bench.kunitconfig: no sanitizers).
# The build lives outside the repo, keyed by the hash of the config fragment and
# the kernel source package version; it is rebuilt only when either changes.
# Prints the build directory on stdout.
#   uml-kernel.sh [CONFIG_FRAGMENT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cfg=$(realpath "${1:-$here/uml.kunitconfig}")
src=$("$here/ksrc.sh")
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
hash=$( (cat "$cfg"; echo "$srcver") | sha256sum | cut -c1-16)
cache=${MLX5_UMR_CACHE:-$HOME/.cache/mlx5-umr}
out=$cache/uml-$hash
log() { echo "uml-kernel: $*" >&2; }
# One lock per kernel: building one must not block users of another.
exec 9>"$cache/.lock-$hash"
flock 9
if [ -f "$out/.built" ] && [ -f "$out/linux" ]; then
	echo "$out"; exit 0
fi
log "building UML kernel in $out (a few minutes, once per config)"
mkdir -p "$out"
cp "$cfg" "$out/.kunitconfig"
(cd "$src" && python3 tools/testing/kunit/kunit.py config --build_dir="$out" \
	--kunitconfig="$out/.kunitconfig") >&2
# kunit.py silently drops options whose dependencies are missing: insist.
missing=0
while read -r line; do
	case "$line" in CONFIG_*=y)
		grep -qx "$line" "$out/.config" || { log "NOT SET after olddefconfig: $line"; missing=1; } ;;
	esac
done < "$cfg"
[ $missing -eq 0 ] || exit 1
make -C "$src" ARCH=um O="$out" -j"$(nproc)" >"$out/build.log" 2>&1 || {
	tail -30 "$out/build.log" >&2; log "UML build failed"; exit 1; }
touch "$out/.built"
echo "$out"
