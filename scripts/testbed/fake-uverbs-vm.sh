#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# rdma-core's libmlx5 on the fake HCA in the test VM (Documentation/fake.rst,
# "rdma-core on the fake"): build the test build for Debian's kernel of
# KLINE (MLX5_UMR_KLINE: 6.1 or 6.12) and the VM image (which holds
# tests/fake_uverbs/fuv_test, linked against this host's libibverbs and
# libmlx5, as /selftests/fake_uverbs.sh: make vmtest runs it too), and
# boot it running only that test:
#   MLX5_UMR_KLINE=6.12 scripts/testbed/fake-uverbs-vm.sh
set -uo pipefail
. "$(dirname "$0")/lib.sh"
K=$(debian_kver)
[ -n "$K" ] || tb_die "cannot tell the Debian kernel version of $KLINE"
[ -f /etc/libibverbs.d/mlx5.driver ] ||
	tb_die "no mlx5 verbs provider (apt-get install ibverbs-providers libibverbs-dev)"
tree=$("$TESTBED/debian-modules.sh" "$K" MLX5_UMR_TESTING=1) ||
	{ tb_result 0 1 0 "fake-uverbs build $K"; exit 1; }
vm=$BUILD/fake-uverbs-$KLINE
inst=$vm/selftests
rm -rf "$inst"; mkdir -p "$inst"
# vm-initramfs-rdma.sh adds the test (/selftests/fake_uverbs.sh), as for
# make vmtest; ONLY= runs it alone.
"$TESTBED/vm-initramfs.sh" "$K" "$tree" "$inst" "$vm/initrd.cpio.gz" ||
	tb_die "initramfs build failed"
mkdir -p "$BUILD/logs"
log=$BUILD/logs/fake-uverbs-$KLINE.log
out=$("$TESTBED/vm-run.sh" "$K" "$vm/initrd.cpio.gz" "$log" ONLY=fake_uverbs.sh)
rc=$?
echo "$out"
read -r _ p f s < <(grep '^VM ' <<<"$out")
tb_result "$p" "$f" "$s" "fake-uverbs on $K (log: $log)"
exit $rc
