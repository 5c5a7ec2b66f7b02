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
demo_step() {	# make demo as the README gives it, judged by its last line
	local log=$BUILD/logs/demo-check.log
	mkdir -p "$BUILD/logs"
	if MLX5_UMR_KLINE=6.1 "$TESTBED/demo.sh" >"$log" 2>&1 &&
		grep -q '^demo: all steps behaved as expected' "$log"; then
		tb_result 1 0 0 "make demo"
	else
		tail -n 30 "$log"; tb_result 0 1 0 "make demo (log: $log)"
	fi
}
# Per kernel line (lib.sh KLINES): its UML kernel must start init on this
# host before the steps that boot it run.
declare -A uml_ok
uml_kernel() {	# uml_kernel LINE: build or reuse the UML kernel of LINE
	if MLX5_UMR_KLINE=$1 "$TESTBED/uml-kernel.sh" >/dev/null; then
		uml_ok[$1]=1; tb_result 1 0 0 "UML $1 kernel starts init on this host"
	else
		tb_result 0 1 0 "UML $1 kernel (cannot start init on this host: see above)"
	fi
}
uml_step() {	# uml_step LINE NAME CMD...: a step that boots the UML kernel of LINE
	local line=$1; shift
	if [ -n "${uml_ok[$line]:-}" ]; then
		MLX5_UMR_KLINE=$line step "$@"
	else
		echo "=== $1"; tb_result 0 0 1 "$1 (not run: no UML $line kernel)"
	fi
}
step checkpatch "$TESTBED/checkpatch.sh"
step commit-subjects "$TESTBED/commit-subjects.sh"
step uapi-header uapi_header
step uapi-abi "$TESTBED/uapi-abi.sh"
step kernel-doc "$TESTBED/kernel-doc.sh"
# The porting guide's code blocks build on both lines (porting.rst).
step porting-doc "$TESTBED/porting-doc.sh"
# Every request rule has its row in validation.rst, and its test.
step rules-doc "$TESTBED/rules-doc.sh"
# Documentation/ is well-formed reStructuredText (tables, titles).
step rst-lint "$TESTBED/rst-lint.sh"
# make bench's kernel keeps what the modules need (it is not built here).
step bench-config "$TESTBED/uml-bench-config.sh" --check
# Every command the README and Documentation/ show has its check.
step user-commands "$TESTBED/user-commands.sh"
for line in $KLINES; do
	step "uml-kernel $line" uml_kernel "$line"
	uml_step "$line" "kunit $line" "$TESTBED/kunit-all.sh"
	MLX5_UMR_KLINE=$line step "vm $line" "$TESTBED/vm-all.sh"
done
# The ioctl paths once more, under UML's KASAN/UBSAN/lockdep/kmemleak.
uml_step 6.1 uapi-uml "$TOP/selftests/uapi/uml-sanitizers.sh"
# Failure sweeps, random ioctls, hot unplug: bounded (make soak: long).
uml_step 6.1 soak "$TESTBED/soak.sh"
step dkms "$TESTBED/dkms-check.sh"
step demo demo_step
# Debian packages: make deb, install, load on both lines in the VM, purge.
step deb "$TESTBED/deb-check.sh"
uml_step 6.1 proofs "$TESTBED/proofs.sh"
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
