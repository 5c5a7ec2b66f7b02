#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The one-mkey ordering stress alone (tests/stress/, Documentation/
# service.rst "Queues and ordering") in the test VM on Debian's kernel of
# KLINE (MLX5_UMR_KLINE: 6.1 or 6.12): the test build, the VM image (which
# holds it as /selftests/mq_stress.sh: make vmtest runs it too) and a boot
# running only it, on the VM's two vCPUs:
#   MLX5_UMR_KLINE=6.12 scripts/testbed/mq-stress-vm.sh
set -uo pipefail
. "$(dirname "$0")/lib.sh"
K=$(debian_kver)
[ -n "$K" ] || tb_die "cannot tell the Debian kernel version of $KLINE"
tree=$("$TESTBED/debian-modules.sh" "$K" MLX5_UMR_TESTING=1) ||
	{ tb_result 0 1 0 "mq-stress build $K"; exit 1; }
vm=$BUILD/mq-stress-$KLINE
rm -rf "$vm"; mkdir -p "$vm/selftests"
"$TESTBED/vm-initramfs.sh" "$K" "$tree" "$vm/selftests" "$vm/initrd.cpio.gz" ||
	tb_die "initramfs build failed"
mkdir -p "$BUILD/logs"
log=$BUILD/logs/mq-stress-$KLINE.log
out=$("$TESTBED/vm-run.sh" "$K" "$vm/initrd.cpio.gz" "$log" ONLY=mq_stress.sh)
rc=$?
echo "$out"
read -r _ p f s < <(grep '^VM ' <<<"$out")
tb_result "$p" "$f" "$s" "mq-stress on $K (log: $log)"
exit $rc
