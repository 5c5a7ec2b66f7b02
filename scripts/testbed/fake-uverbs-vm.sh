#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# rdma-core's libmlx5 on the fake HCA in the test VM (Documentation/fake.rst,
# "rdma-core on the fake"): build the test build for Debian's kernel of
# KLINE (MLX5_UMR_KLINE: 6.1 or 6.12) and the VM image (which holds
# tests/fake_uverbs/fuv_test, linked against this host's libibverbs and
# libmlx5, as /selftests/fake_uverbs.sh: make vmtest runs it too), and
# boot it running only that test, and print hwcheck --fake's KTAP
# (MLX5_UMR_FUV_HWCHECK=3 counts only its first 3 checks, the set-up, and
# prints the whole run uncounted):
#   MLX5_UMR_KLINE=6.12 scripts/testbed/fake-uverbs-vm.sh
# With a program, the image runs it after fuv_test (in place of
# ibv_devinfo -v) with its library closure and its arguments (split on
# white space), and its output is printed:
#   scripts/testbed/fake-uverbs-vm.sh ./my_mlx5dv_program -d fake_mlx5_0
set -uo pipefail
. "$(dirname "$0")/lib.sh"
[ -f /etc/libibverbs.d/mlx5.driver ] ||
	tb_die "no mlx5 verbs provider (apt-get install ibverbs-providers libibverbs-dev)"
name=fake-uverbs
if [ $# -gt 0 ]; then
	prog=$(type -P "$1") && prog=$(realpath "$prog") || tb_die "no program $1"
	shift
	export MLX5_UMR_FUV_PROGRAM=$prog MLX5_UMR_FUV_ARGS="$*"
	name=fake-uverbs-program
fi
# vm-initramfs-rdma.sh adds the test (/selftests/fake_uverbs.sh), as for
# make vmtest.
tb_vm_one "$name" fake_uverbs.sh
rc=$?
if [ -n "${MLX5_UMR_FUV_PROGRAM:-}" ]; then
	sed -n '/fake_uverbs: program /,/fake_uverbs: program .* exited/p' \
		"$BUILD/logs/$name-$KLINE.log"
fi
# hwcheck --fake's KTAP (run.sh)
sed -n '/fake_uverbs: hwcheck /,/fake_uverbs: hwcheck .* exited/p' \
	"$BUILD/logs/$name-$KLINE.log"
exit $rc
