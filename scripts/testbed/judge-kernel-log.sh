#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Judge a kernel console log: judge-kernel-log.sh LOG START_MARKER END_MARKER
# Prints the reports it found after START_MARKER; exit 0 = clean, 1 = not.
# Lines before START_MARKER are the kernel's own (UML 6.1 warns about RCU
# usage in maple_tree while exec'ing init); nothing after it is excused.
. "$(dirname "$0")/lib.sh"
log=$1 start=$2 end=$3
after=$(sed -n "/$start/,\$p" "$log")
bad=0
if [ -z "$after" ]; then
	echo "judge: start marker '$start' missing"; bad=1
fi
if ! grep -q "$end" <<<"$after"; then
	echo "judge: end marker '$end' missing"; bad=1
fi
reports=$(grep -nE "$TB_KERNEL_REPORTS" <<<"$after")
if [ -n "$reports" ]; then
	echo "judge: kernel reports after '$start':"
	head -n 40 <<<"$reports"; bad=1
fi
exit $bad
