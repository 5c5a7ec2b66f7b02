#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# rdma-core's libmlx5 on the fake HCA in the test VM (Documentation/fake.rst,
# "rdma-core on the fake"): build the test build for Debian's kernel of
# KLINE (MLX5_UMR_KLINE: 6.1 or 6.12), tests/fake_uverbs/fuv_test against
# this host's libibverbs and libmlx5, and boot an image that runs only
# that test (tests/fake_uverbs/run.sh). Not part of make check yet:
#   MLX5_UMR_KLINE=6.12 scripts/testbed/fake-uverbs-vm.sh
set -uo pipefail
. "$(dirname "$0")/lib.sh"
K=$(debian_kver)
[ -n "$K" ] || tb_die "cannot tell the Debian kernel version of $KLINE"
prov=$(ls /usr/lib/*/libibverbs/libmlx5-rdmav*.so 2>/dev/null | head -n 1)
[ -n "$prov" ] && [ -f /etc/libibverbs.d/mlx5.driver ] ||
	tb_die "no mlx5 verbs provider (apt-get install ibverbs-providers libibverbs-dev)"
tree=$("$TESTBED/debian-modules.sh" "$K" MLX5_UMR_TESTING=1) ||
	{ tb_result 0 1 0 "fake-uverbs build $K"; exit 1; }
make -s -C "$TOP/tests/fake_uverbs" >&2 ||
	{ tb_result 0 1 0 "fake-uverbs test build"; exit 1; }
vm=$BUILD/fake-uverbs-$KLINE
inst=$vm/selftests
rm -rf "$inst"; mkdir -p "$inst/fake_uverbs.d"
cp "$TOP/tests/fake_uverbs/run.sh" "$inst/fake_uverbs.sh"
cp "$TOP/tests/fake_uverbs/fuv_test" "$inst/fake_uverbs.d/"
# The test's libraries (libmlx5, libibverbs, libnl) come with it as a host
# file; the provider libibverbs loads and the file that names it, likewise.
"$TESTBED/vm-initramfs.sh" "$K" "$tree" "$inst" "$vm/initrd.cpio.gz" \
	"$TOP/tests/fake_uverbs/fuv_test" "$prov" /etc/libibverbs.d/mlx5.driver ||
	tb_die "initramfs build failed"
mkdir -p "$BUILD/logs"
log=$BUILD/logs/fake-uverbs-$KLINE.log
out=$("$TESTBED/vm-run.sh" "$K" "$vm/initrd.cpio.gz" "$log" ONLY=fake_uverbs.sh)
rc=$?
echo "$out"
read -r _ p f s < <(grep '^VM ' <<<"$out")
tb_result "$p" "$f" "$s" "fake-uverbs on $K (log: $log)"
exit $rc
