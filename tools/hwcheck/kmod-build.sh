#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Build make hwcheck's test module (tests/hwcheck, mlx5_umr_hwcheck.ko) for
# kernel KVER against the service's Module.symvers, in a copy of its
# directory under OUTDIR (one per kernel); prints the module's path.
#   kmod-build.sh KVER SYMVERS OUTDIR [extra make args, e.g. W=1 C=2]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
K=$1 symvers=$2 out=$3; shift 3
kdir=/lib/modules/$K/build
[ -d "$kdir" ] || { echo "kmod-build: no $kdir (install the kernel's headers)" >&2; exit 1; }
[ -f "$symvers" ] || { echo "kmod-build: no $symvers (build the service first)" >&2; exit 1; }
symvers=$(realpath "$symvers")
mkdir -p "$out"; out=$(cd "$out" && pwd)
# timestamps kept: a rebuild of unchanged sources is incremental, but
# not across another service build: the module's symbol CRCs come from
# SYMVERS, and a module built against older ones does not load
mkdir -p "$out/src"
cp -p "$top"/tests/hwcheck/{Kbuild,*.c,*.h} "$out/src/"
sum=$(md5sum <"$symvers")
[ "$(cat "$out/symvers.md5" 2>/dev/null)" = "$sum" ] ||
	rm -f "$out"/src/*.o "$out"/src/*.ko "$out"/src/*.mod "$out"/src/*.mod.c
make -C "$kdir" M="$out/src" HWCHECK_TOP="$top" KBUILD_EXTRA_SYMBOLS="$symvers" \
	"$@" modules >"$out/build.log" 2>&1 || {
	grep -iE 'error|warning' "$out/build.log" | head -20 >&2
	echo "kmod-build: build for $K failed (log: $out/build.log)" >&2; exit 1
}
if grep -E 'warning:|error:' "$out/build.log" | grep -v 'Skipping BTF' >&2; then
	rm -f "$out"/src/*.o	# so that the next build compiles (and warns) again
	echo "kmod-build: warnings (log: $out/build.log)" >&2; exit 1
fi
echo "$sum" >"$out/symvers.md5"
echo "$out/src/mlx5_umr_hwcheck.ko"
