#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# `make demo`: boot Debian's kernel in QEMU with the project's modules and
# tools and run the demo walk-through on the fake HCA; show its output.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
K=$(debian_kver)
tree=$("$TESTBED/debian-modules.sh" "$K" MLX5_UMR_TESTING=1) || exit 1
if [ -f "$TOP/tools/Makefile" ]; then
	make -s -C "$TOP/tools" STATIC=1 >&2 || exit 1
fi
mkdir -p "$BUILD/vm/demo" "$BUILD/logs"
"$TESTBED/vm-initramfs.sh" "$K" "$tree" "$BUILD/vm/demo" "$BUILD/vm/demo.cpio.gz" || exit 1
tb_log "booting $K under QEMU (TCG); this takes a few seconds"
"$TESTBED/vm-run.sh" "$K" "$BUILD/vm/demo.cpio.gz" "$BUILD/logs/demo.log" MODE=demo >/dev/null
rc=$?
sed -n '/MLX5_UMR_VM: init running/,/MLX5_UMR_VM: dmesg begin/p' "$BUILD/logs/demo.log" |
	grep -v '^MLX5_UMR_VM:' | tr -d '\r'
[ $rc -eq 0 ] && echo "demo: OK (full log: $BUILD/logs/demo.log)" ||
	echo "demo: FAILED (log: $BUILD/logs/demo.log)"
exit $rc
