#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Print, for a test module, the comma-separated load list: its dependency
# closure among the modules built in TREE (in load order), then itself.
#   kunit-modules.sh TREE TEST.ko
set -euo pipefail
tree=$1 test=$2
declare -A path seen
while read -r ko; do
	path[$(basename "$ko" .ko | tr - _)]=$ko
done < <(find "$tree" -name '*.ko')
order=()
visit() {
	local n=$1 d
	[ -n "${seen[$n]:-}" ] && return
	seen[$n]=1
	for d in $(modinfo -F depends "${path[$n]}" | tr ',' ' '); do
		d=$(tr - _ <<<"$d")
		[ -n "${path[$d]:-}" ] && visit "$d"
	done
	order+=("${path[$n]}")
}
visit "$(basename "$test" .ko | tr - _)"
(IFS=,; echo "${order[*]}")
