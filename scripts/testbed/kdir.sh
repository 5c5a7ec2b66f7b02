#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Print the kernel build tree to build against: the running kernel's when it
# has one, else the newest installed Debian linux-headers tree (saying so).
d=/lib/modules/$(uname -r)/build
if [ -d "$d" ]; then echo "$d"; exit 0; fi
best=$(ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n1)
if [ -n "$best" ]; then
	echo "kdir: no headers for running kernel $(uname -r); using $best" >&2
	echo "$best"
fi
