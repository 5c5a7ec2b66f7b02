#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The API reference: expand Documentation/api.rst's kernel-doc directives
# with the kernel's scripts/kernel-doc into build/Documentation/api.rst, as
# Sphinx's kerneldoc extension would. Fails on any kernel-doc warning, on a
# directive naming a missing file, and on an exported symbol (anywhere in
# the tree) without a kernel-doc comment. make api-doc runs it alone.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
kd=$("$TESTBED/ksrc.sh")/scripts/kernel-doc || exit 1
in=$TOP/Documentation/api.rst out=$BUILD/Documentation/api.rst
mkdir -p "$(dirname "$out")"
bad=0 n=0
expand() {	# expand FILE [OPTION]: one directive's output
	local mode=()
	case "${2:-}" in
	:export:) mode=(-export) ;;
	:internal:) mode=(-internal) ;;
	"") ;;
	*) echo "kernel-doc: unsupported option $2 for $1" >&2; return 1 ;;
	esac
	[ -f "$TOP/$1" ] || { echo "kernel-doc: $1: no such file" >&2; return 1; }
	(cd "$TOP" && "$kd" -rst -sphinx-version 3.4.3 -Werror "${mode[@]}" "$1")
}
file="" opt=""
flush() {
	[ -n "$file" ] || return 0
	n=$((n + 1))
	expand "$file" "$opt" || bad=1
	file="" opt=""
}
{
	while IFS= read -r line; do
		if [[ $line =~ ^\.\.\ kernel-doc::\ (.+)$ ]]; then
			flush; file=${BASH_REMATCH[1]}
		elif [ -n "$file" ] && [[ $line =~ ^[[:space:]]+(:[a-z-]+:) ]]; then
			opt=${BASH_REMATCH[1]}
		else
			flush; printf '%s\n' "$line"
		fi
	done <"$in"
	flush
} >"$out"
# Every export documented where it is defined or declared (internal
# exports, such as the encoder's, are documented in their header).
while IFS=: read -r f sym; do
	(cd "$TOP" && grep -qE "^ \* $sym\(\) - " "$f" $(git ls-files -co --exclude-standard '*.h')) || {
		echo "kernel-doc: $f: exported $sym() has no kernel-doc comment" >&2; bad=1; }
done < <(cd "$TOP" && git ls-files -co --exclude-standard '*.c' | grep -v '^build/' |
	xargs grep -oE 'EXPORT_SYMBOL[A-Z_]*\([a-z0-9_]+' |
	sed -E 's/:EXPORT_SYMBOL[A-Z_]*\(/:/')
if [ $bad -eq 0 ]; then
	echo "kernel-doc: $n directives expanded into $out, no warnings"
	tb_result 1 0 0 "API reference (kernel-doc)"
else
	tb_result 0 1 0 "API reference (kernel-doc)"
fi
exit $bad
