#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Commit subjects are at most 75 characters (Documentation/process:
# checkpatch's own limit for a summary line), checked for the commits
# after MLX5_UMR_SUBJECT_BASE, the tip when the rule was made (issue 28):
# older history is left as it is. Merges are git's own words: not checked.
# Skipped outside a git checkout (a DKMS or release tree) or when the base
# is not in the history (a shallow clone).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
base=${MLX5_UMR_SUBJECT_BASE:-72c359eee33e342854d6be9aa8e0a0016d4d34c6}
max=75
if ! git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	tb_result 0 0 1 "commit subjects (not a git checkout)"
	exit 0
fi
if ! git -C "$TOP" merge-base --is-ancestor "$base" HEAD 2>/dev/null; then
	tb_result 0 0 1 "commit subjects (base $base not in the history)"
	exit 0
fi
n=0 bad=0
while IFS=$'\t' read -r hash subject; do
	n=$((n + 1))
	if [ "${#subject}" -gt $max ]; then
		echo "commit-subjects: $hash: ${#subject} > $max characters: $subject" >&2
		bad=$((bad + 1))
	fi
done < <(git -C "$TOP" log --no-merges --format='%h%x09%s' "$base..HEAD")
echo "commit-subjects: $n commits after $base, $bad with a subject over $max characters"
tb_result $((n - bad)) $bad 0 "commit subjects <= $max characters"
[ $bad -eq 0 ]
