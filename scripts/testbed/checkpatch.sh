#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# scripts/checkpatch.pl --strict --no-tree over every project C and H file.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
ksrc=$("$TESTBED/ksrc.sh") || exit 1
cd "$TOP"
mapfile -t files < <(git ls-files -co --exclude-standard '*.c' '*.h' | grep -v '^build/' | sort)
[ ${#files[@]} -gt 0 ] || tb_die "no C/H files"
bad=0
for f in "${files[@]}"; do
	out=$("$ksrc/scripts/checkpatch.pl" --strict --no-tree --quiet --show-types \
		-f "$f" 2>&1) || {
		echo "$out"; bad=1; }
done
if [ $bad -eq 0 ]; then
	echo "checkpatch: ${#files[@]} files clean"
	tb_result 1 0 0 checkpatch
else
	tb_result 0 1 0 checkpatch
fi
exit $bad
