#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# DKMS round trip against the installed Debian headers of every supported
# kernel line (lib.sh KLINES), with the one dkms.conf: add, build and
# install for each kernel (modules land and resolve their dependencies),
# remove (nothing left behind). One test case per step. The default is the
# production build: only mlx5_umr and mlx5_umr_hw are installed, and the
# installed mlx5_umr.ko carries no test interface (checked on the binary,
# and the same check shown to fail on a test build).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2034 # dkms-lib.sh's step() prints it
check=dkms
. "$TESTBED/dkms-lib.sh"
dkms_lock
dkms_fresh
rsync -a --exclude /build --exclude /.git --exclude '*.o' --exclude '*.ko' \
	--exclude '*.cmd' --exclude '*.mod*' --exclude '*.symvers' --exclude '*.order' "$TOP/" "$src/"
step add dkms add -m "$name" -v "$ver"
for K in $Ks; do
	step "build -k $K" dkms build -m "$name" -v "$ver" -k "$K"
	[ -f "/var/lib/dkms/$name/$ver/build/make.log" ] &&
		tail -n 30 "/var/lib/dkms/$name/$ver/build/make.log"
	step "install -k $K" dkms install -m "$name" -v "$ver" -k "$K"
	step "installed modules resolve their dependencies on $K" installed "$K"
	step "installs only mlx5_umr and mlx5_umr_hw on $K by default" only_production "$K"
	step "installed mlx5_umr.ko for $K has no test interface (test ioctls: ENOTTY)" \
		no_test_interface "$(installed_ko "$K")"
done
step "the same check fails on a MLX5_UMR_TESTING=1 build" test_build_caught "$K"
step "a kernel outside the supported lines (6.6) is excluded" excluded
step remove dkms remove -m "$name" -v "$ver" --all
step "nothing left after remove" gone
rm -rf "$src" "/var/lib/dkms/$name"
tb_result $P $F 0 dkms
[ $F -eq 0 ]
