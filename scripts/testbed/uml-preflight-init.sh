#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# PID 1 of the UML preflight boot (uml-preflight.sh). Reaching the first
# line means a user process ran; FPSTATE (from the kernel command line)
# then checks that user processes keep their vector registers.
echo "MLX5_UMR_TESTBED: init started"
"$FPSTATE"
echo "MLX5_UMR_TESTBED: fpstate exit $?"
/bin/busybox poweroff -f
