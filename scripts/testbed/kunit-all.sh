#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Run every KUnit suite: each <name>_test.ko built from drivers/ in its own
# boot of the UML kernel of KLINE (MLX5_UMR_KLINE, lib.sh) with its
# dependencies loaded first. MLX5_UMR_KUNIT_ONLY=REGEX runs only the suites
# whose module path matches REGEX (a quicker loop while developing).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
uml=$("$TESTBED/uml-kernel.sh") || exit 1
tree=$("$TESTBED/uml-modules.sh" "$uml") || exit 1
export MLX5_UMR_LOGDIR=$BUILD/logs/kunit-$KLINE
P=0 F=0 S=0 bad=0
mapfile -t tests < <(find "$tree/drivers" -name '*_test.ko' | sort |
	grep -E -- "${MLX5_UMR_KUNIT_ONLY:-.}")
[ ${#tests[@]} -gt 0 ] || tb_die "no KUnit test modules were built"
for t in "${tests[@]}"; do
	mods=$("$TESTBED/kunit-modules.sh" "$tree" "$t")
	out=$("$TESTBED/kunit-run.sh" "$uml" "$mods")
	rc=$?
	echo "$out"
	read -r _ p f s _ < <(grep '^KUNIT ' <<<"$out")
	P=$((P + p)) F=$((F + f)) S=$((S + s))
	[ $rc -ne 0 ] && bad=1
done
tb_result $P $F $S "kunit on UML $KLINE"
exit $bad
