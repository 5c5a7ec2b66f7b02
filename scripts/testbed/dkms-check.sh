#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# DKMS round trip against the installed Debian headers of every supported
# kernel line (lib.sh KLINES), with the one dkms.conf: add, build and
# install for each kernel (modules land and resolve their dependencies),
# remove (nothing left behind). One test case per step.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
P=0 F=0
step() {	# step WHAT CMD...
	local what=$1; shift
	if out=$("$@" 2>&1); then
		echo "ok - dkms: $what"; P=$((P + 1))
	else
		echo "not ok - dkms: $what"; echo "$out" | tail -n 20; F=$((F + 1))
	fi
}
if [ "$(id -u)" != 0 ]; then
	echo "ok - dkms # SKIP needs root"; tb_result 0 0 1 dkms; exit 0
fi
# /usr/src and the DKMS tree are machine-wide: one round trip at a time.
exec 7>/var/lock/mlx5-umr-dkms.lock
flock 7
Ks=$(for l in $KLINES; do debian_kver "$l"; done)
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$TOP/dkms.conf")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
mods=$(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"/\1/p' "$TOP/dkms.conf")
src=/usr/src/$name-$ver
# Start from nothing: a failed earlier build leaves its tree behind.
dkms remove -m "$name" -v "$ver" --all >/dev/null 2>&1
rm -rf "$src" "/var/lib/dkms/$name"
rsync -a --exclude /build --exclude /.git --exclude '*.o' --exclude '*.ko' \
	--exclude '*.cmd' --exclude '*.mod*' --exclude '*.symvers' --exclude '*.order' "$TOP/" "$src/"
installed() {	# installed KVER
	local K=$1 m
	for m in $mods; do
		modinfo -k "$K" "$m" | grep -q "^filename:.*/updates/dkms/$m.ko" || return 1
		modprobe -S "$K" --show-depends "$m" | grep -q "/$m.ko" || return 1
	done
}
gone() {
	local K m
	for K in $Ks; do
		for m in $mods; do
			[ ! -e "/lib/modules/$K/updates/dkms/$m.ko" ] || return 1
		done
	done
	! dkms status -m "$name" | grep -q .
}
step add dkms add -m "$name" -v "$ver"
for K in $Ks; do
	step "build -k $K" dkms build -m "$name" -v "$ver" -k "$K"
	[ -f "/var/lib/dkms/$name/$ver/build/make.log" ] &&
		tail -n 30 "/var/lib/dkms/$name/$ver/build/make.log"
	step "install -k $K" dkms install -m "$name" -v "$ver" -k "$K"
	step "installed modules resolve their dependencies on $K" installed "$K"
done
# dkms.conf's BUILD_EXCLUSIVE_KERNEL: another kernel line is skipped, not
# built (no headers are needed to be told so).
excluded() {
	local out
	out=$(dkms build -m "$name" -v "$ver" -k 6.6.0-1-amd64 2>&1)
	grep -q 'BUILD_EXCLUSIVE directive which does not match' <<<"$out"
}
step "a kernel outside the supported lines (6.6) is excluded" excluded
step remove dkms remove -m "$name" -v "$ver" --all
step "nothing left after remove" gone
rm -rf "$src" "/var/lib/dkms/$name"
tb_result $P $F 0 dkms
[ $F -eq 0 ]
