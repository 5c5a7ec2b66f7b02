#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Can this UML kernel run our user processes on this host? Boots it with an
# init that prints a marker, runs proofs/uml_fpstate.c (three processes
# keep their vector registers across 2000 system calls each) and powers off.
#   uml-preflight.sh UML_BUILD_DIR [INIT]
# Exit 0 = both held. Otherwise one line saying what failed, with the
# kernel's last message (a panic line with the line before it, which names
# the cause) or the check's own, and exit 1. INIT stands in for the script
# (the runner proofs).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
uml=$1 init=${2:-$TESTBED/uml-preflight-init.sh}
mkdir -p "$BUILD/logs" "$BUILD/testbed"
log=$BUILD/logs/uml-preflight.log
fpstate=$BUILD/testbed/uml_fpstate
if [ ! -x "$fpstate" ] || [ -n "$(find "$TESTBED/proofs" -name "uml_fpstate*" -newer "$fpstate")" ]; then
	gcc -static -O2 -Wall -Werror -o "$fpstate" "$TESTBED"/proofs/uml_fpstate{.c,_asm.S} ||
		tb_die "cannot build $fpstate"
fi
( timeout 120 "$uml/linux" mem=256M root=/dev/root rootfstype=hostfs \
	rootflags=/ rw init="$init" FPSTATE="$fpstate" </dev/null >"$log" 2>&1; exit $? ) 2>/dev/null
rc=$?
if grep -q '^MLX5_UMR_TESTBED: init started' "$log"; then
	grep -q '^MLX5_UMR_TESTBED: fpstate exit 0' "$log" && exit 0
	echo "testbed: the UML kernel in $uml does not keep user FPU state on this host:" \
		"$(grep '^fpstate:' "$log" | tail -n 1) (log: $log)"
	exit 1
fi
last=$(grep -v '^[[:space:]]*$' "$log" | grep -B1 -m1 'Kernel panic' | paste -sd'|' | sed 's/|/ | /')
[ -n "$last" ] || last=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)
echo "testbed: the UML kernel in $uml cannot start init on this host (exit $rc): ${last:-no output} (log: $log)"
exit 1
