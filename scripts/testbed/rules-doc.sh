#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The rulebook (drivers/umr/rules.h, rules.c) and Documentation/validation.rst
# agree: every rule's line ("Rule <n> (<errno>; test <case>): <why>") has a
# row of that number and errno in the document's tables, every row a rule,
# no number twice, and the test each rule names is a KUnit case of
# drivers/umr whose file mentions the rule ("rule <n>", or a table row
# "{ <n>, "). A rule added without its row or its test fails make check.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
doc=$TOP/Documentation/validation.rst
book=("$TOP/drivers/umr/rules.h" "$TOP/drivers/umr/rules.c")
tests=("$TOP"/drivers/umr/*_test.c)
fail=0 pass=0
bad() { echo "rules-doc: $*" >&2; fail=$((fail + 1)); }

# "<n> <errno[/errno]> <case>", one per rule line of the rulebook
rules=$(grep -ohE 'Rule [0-9]+ \(E[A-Z]+(/E[A-Z]+)*; test [a-z0-9_]+\)' "${book[@]}" |
	sed -E 's/Rule ([0-9]+) \(([A-Z/]+); test ([a-z0-9_]+)\)/\1 \2 \3/')
# A rule line that does not parse is a rule the check would miss.
while read -r l; do
	bad "a malformed rule line: $l"
done < <(grep -hE '^(/\*| \*) Rule [0-9]+ \(' "${book[@]}" |
	grep -vE 'Rule [0-9]+ \(E[A-Z]+(/E[A-Z]+)*; test [a-z0-9_]+\)')
# "<n> <errno>": the rows of the document's tables, the errno cell read at
# the column the table's border gives (its first errno)
rows=$(awk '
/^=+( +=+)+$/ {
	n = split($0, ch, ""); k = 0
	for (i = 1; i <= n; i++)
		if (ch[i] == "=" && (i == 1 || ch[i - 1] == " ")) col[++k] = i
	next
}
/^[0-9]+  / && col[3] {
	cell = substr($0, col[3], col[4] ? col[4] - col[3] : length($0))
	if (match(cell, /E[A-Z]+/))
		print $1, substr(cell, RSTART, RLENGTH)
	else
		print $1, "-"
}' "$doc")
[ -n "$rules" ] || tb_die "no rule line in ${book[*]}"
[ -n "$rows" ] || tb_die "no rule row in $doc"

for n in $(echo "$rules" | awk '{ print $1 }' | sort -n | uniq -d); do
	bad "rule $n has two lines in the rulebook"
done
for n in $(echo "$rows" | awk '{ print $1 }' | sort -n | uniq -d); do
	bad "rule $n has two rows in validation.rst"
done
while read -r n errno tcase; do
	row=$(echo "$rows" | awk -v n="$n" '$1 == n { print $2; exit }')
	if [ -z "$row" ]; then
		bad "rule $n ($errno) has no row in validation.rst"
		continue
	fi
	[ "$row" = "${errno%%/*}" ] ||
		bad "rule $n: $errno in the rulebook, $row in validation.rst"
	files=$(grep -lE "KUNIT_CASE[A-Z_]*\\($tcase[,)]" "${tests[@]}")
	if [ -z "$files" ]; then
		bad "rule $n names test $tcase, which is no KUnit case of drivers/umr"
		continue
	fi
	grep -qiE "rules? $n\\b|\\{ $n, \"" $files ||
		bad "rule $n: test $tcase's file ($(basename $files)) does not mention it"
	pass=$((pass + 1))
done <<< "$rules"
while read -r n _; do
	echo "$rules" | awk -v n="$n" '$1 == n { f = 1 } END { exit !f }' ||
		bad "row $n of validation.rst is no rule of the rulebook"
done <<< "$rows"
echo "rules-doc: $(echo "$rules" | wc -l) rules, $(echo "$rows" | wc -l) rows, $fail disagreements"
tb_result $pass $fail 0 "rulebook and validation.rst agree"
[ $fail -eq 0 ]
