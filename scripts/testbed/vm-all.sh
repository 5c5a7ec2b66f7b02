#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Build the modules for Debian's kernel of KLINE (MLX5_UMR_KLINE: 6.1 or
# 6.12; W=1, sparse; a test build: the selftests drive the fake HCA), the
# tools and the selftests, pack them into an initramfs and run every
# selftest in QEMU on that kernel.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
K=$(debian_kver)
[ -n "$K" ] || tb_die "cannot tell the Debian kernel version of $KLINE"
tree=$("$TESTBED/debian-modules.sh" "$K" MLX5_UMR_TESTING=1) || { tb_result 0 1 0 "vm-build $K"; exit 1; }
if [ -f "$TOP/tools/Makefile" ]; then
	make -s -C "$TOP/tools" STATIC=1 >&2 || { tb_result 0 1 0 "vm-tools $K"; exit 1; }
fi
vm=$BUILD/vm-$KLINE
inst=$vm/selftests
rm -rf "$inst"; mkdir -p "$inst"
make -s -C "$TOP/selftests" all >&2 &&
	make -s -C "$TOP/selftests" install INSTALL_PATH="$inst" >&2 ||
	{ tb_result 0 1 0 "vm-selftests-build $K"; exit 1; }
[ -n "$(ls -A "$inst")" ] || tb_die "no selftests were installed"
"$TESTBED/vm-initramfs.sh" "$K" "$tree" "$inst" "$vm/initrd.cpio.gz" ||
	tb_die "initramfs build failed"
mkdir -p "$BUILD/logs"
out=$("$TESTBED/vm-run.sh" "$K" "$vm/initrd.cpio.gz" "$BUILD/logs/vm-$KLINE.log")
rc=$?
echo "$out"
read -r _ p f s < <(grep '^VM ' <<<"$out")
tb_result "$p" "$f" "$s" "vm selftests on $K (log: $BUILD/logs/vm-$KLINE.log)"
exit $rc
