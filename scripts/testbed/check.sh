#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# `make check`: every test of the project. Runs all steps even when one
# fails, then prints "N passed, N failed[, N skipped]" and exits non-zero
# on any failure.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
export MLX5_UMR_RESULTS=$BUILD/results.txt
mkdir -p "$BUILD"; : >"$MLX5_UMR_RESULTS"
RESULTS=$MLX5_UMR_RESULTS
start=$(date +%s)
step() {	# step NAME CMD... ; a step that dies without a result is a failure
	local name=$1 before after; shift
	echo "=== $name"
	before=$(wc -l <"$RESULTS")
	"$@"
	after=$(wc -l <"$RESULTS")
	[ "$after" -gt "$before" ] || tb_result 0 1 0 "$name (no result)"
}
uapi_header() {	# the uapi header compiles standalone as C and as C++
	local h=$TOP/uapi/linux/mlx5_umr.h ok=0
	[ -f "$h" ] || { tb_result 0 0 1 "uapi header (none yet)"; return; }
	echo '#include <linux/mlx5_umr.h>' | gcc -Wall -Werror -I"$TOP/uapi" -x c -fsyntax-only - && ok=$((ok + 1))
	echo '#include <linux/mlx5_umr.h>' | g++ -Wall -Werror -I"$TOP/uapi" -x c++ -fsyntax-only - && ok=$((ok + 1))
	tb_result $ok $((2 - ok)) 0 "uapi header standalone C and C++"
}
uml_ok=0
uml_kernel() {	# build or reuse the UML kernel; it must start init here
	if "$TESTBED/uml-kernel.sh" >/dev/null; then
		uml_ok=1; tb_result 1 0 0 "UML kernel starts init on this host"
	else
		tb_result 0 1 0 "UML kernel (cannot start init on this host: see above)"
	fi
}
uml_step() {	# uml_step NAME CMD...: a step that needs the UML kernel
	if [ $uml_ok -eq 1 ]; then
		step "$@"
	else
		echo "=== $1"; tb_result 0 0 1 "$1 (not run: no UML kernel)"
	fi
}
step checkpatch "$TESTBED/checkpatch.sh"
step uapi-header uapi_header
step kernel-doc "$TESTBED/kernel-doc.sh"
step uml-kernel uml_kernel
uml_step kunit "$TESTBED/kunit-all.sh"
step vm "$TESTBED/vm-all.sh"
# The ioctl paths once more, under UML's KASAN/UBSAN/lockdep/kmemleak.
uml_step uapi-uml "$TOP/selftests/uapi/uml-sanitizers.sh"
step dkms "$TESTBED/dkms-check.sh"
uml_step proofs "$TESTBED/proofs.sh"
echo "=== summary ($(($(date +%s) - start)) s)"
awk '{w = $4; for (i = 5; i <= NF; i++) w = w " " $i;
	printf "%5d passed %3d failed %3d skipped  %s\n", $1, $2, $3, w}' "$RESULTS"
read -r P F S < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$RESULTS")
if [ "$S" -gt 0 ]; then
	echo "$P passed, $F failed, $S skipped"
else
	echo "$P passed, $F failed"
fi
[ "$F" -eq 0 ] && [ "$P" -gt 0 ]
