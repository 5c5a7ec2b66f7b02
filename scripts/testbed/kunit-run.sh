#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Boot the UML KUnit kernel once with the given modules (in load order; the
# last is the test module) and judge the result.
#   kunit-run.sh UML_BUILD_DIR MOD.ko[,MOD.ko...]
# Prints "KUNIT <passed> <failed> <skipped> <name>"; exit 0 = all passed,
# 1 = a case failed, 2 = crash, sanitizer report or infrastructure failure.
set -u
uml=$1/linux mods=$2
name=$(basename "${mods##*,}" .ko)
tb=$(cd "$(dirname "$0")" && pwd)
. "$tb/lib.sh"
logdir=${MLX5_UMR_LOGDIR:-${TMPDIR:-/tmp}}
mkdir -p "$logdir"
log=$logdir/kunit-$name.log
# A suite boots in under 20 s on the 2-core hosts; 150 s leaves room for
# the hung-task detector's report (60 s, checked every 60 s) and makes a
# stalled UML (tb_uml_boot()) cost less.
tb_uml_boot "$log" "${MLX5_UMR_KUNIT_SECONDS:-150}" "$uml" mem=512M root=/dev/root rootfstype=hostfs \
	rootflags=/ rw init="$tb/uml-init.sh" KMODS="$mods"
rc=$?
# A case's result is at 4 spaces; a parameterized case's rows are at 8,
# under "# Subtest: <case>", and each row counts as a case (its summary
# line at 4 spaces then does not).
read -r passed failed skipped < <(sed -n '/MLX5_UMR_TESTBED: loading/,$p' "$log" | awk '
	/^        # Subtest: / { param[$3] = 1 }
	/^(    |        )(not )?ok [0-9]+ / {
		n = split($0, w, " "); name = (w[1] == "not") ? w[4] : w[3]
		if ($0 ~ /^    [^ ]/ && (name in param)) next
		if ($0 ~ /# SKIP/) s++; else if (w[1] == "not") f++; else p++
	}
	END { print p + 0, f + 0, s + 0 }')
sed -n '/MLX5_UMR_TESTBED: loading/,$p' "$log" |
	grep -E '^ *(not ok|# .*: (pass|EXPECTATION|ASSERTION))|Expected|FAILED' | head -n 60
status=0
[ "$failed" -gt 0 ] && status=1
if [ "$rc" -ne 0 ]; then
	echo "kunit-run: $name: UML exited $rc (crash)"; status=2
fi
if ! "$tb/judge-kernel-log.sh" "$log" 'MLX5_UMR_TESTBED: loading' 'MLX5_UMR_TESTBED: done'; then
	status=2
fi
if [ $((passed + failed + skipped)) -eq 0 ]; then
	echo "kunit-run: $name: no test case ran"; status=2
fi
# A crash or report counts as one more failure so it can never read as green.
[ $status -eq 2 ] && failed=$((failed + 1))
echo "KUNIT $passed $failed $skipped $name (log: $log)"
exit $status
