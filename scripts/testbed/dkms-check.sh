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
# What dkms itself reads: dkms.conf sourced, without the test switch.
mods=$(env -u MLX5_UMR_TESTING bash -c '. "$1"; echo "${BUILT_MODULE_NAME[@]}"' _ "$TOP/dkms.conf")
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
# Our modules in the DKMS directory, by name: exactly the production two.
only_production() {
	local got
	got=$(cd "/lib/modules/$K/updates/dkms" && ls -1 mlx5_umr*.ko* 2>/dev/null |
		sed 's/\.ko.*//' | sort | tr '\n' ' ')
	echo "installed: $got"
	[ "$got" = "mlx5_umr mlx5_umr_hw " ]
}
# A production mlx5_umr.ko has none of the test interface: no test export
# (the MLX5_UMR_TESTING namespace), no test ioctl handler, and an ioctl
# table that ends before the test commands (MLX5_UMR_IOC_BASE + 0x20 and
# up), so that they take umr_fops_ioctl()'s ENOTTY branch.
no_test_interface() {	# no_test_interface KO
	local ko=$1 f syms size
	f=$(mktemp); syms=$(mktemp)
	case $ko in
	*.xz) xz -dc "$ko" >"$f" ;;
	*.zst) zstd -qdc "$ko" >"$f" ;;
	*) cp "$ko" "$f" ;;
	esac
	nm -S "$f" >"$syms"
	# The symbols are readable: the production exports are there.
	grep -q ' __ksymtab_mlx5_umr_register_hca$' "$syms" || { echo "no symbols in $ko"; rm -f "$f" "$syms"; return 1; }
	local bad=0
	if grep -aq MLX5_UMR_TESTING "$f"; then
		echo "$ko: exports in (or imports) the MLX5_UMR_TESTING namespace"; bad=1
	fi
	if grep -E ' (umr_cmd_test_xfer|umr_cmd_test_info|mlx5_umr_test_xfer)$' "$syms"; then
		echo "$ko: links the test ioctls"; bad=1
	fi
	# struct umr_ioctl_op is 24 bytes on 64-bit; 0x20 entries reach the tests.
	size=$(awk '$4 == "umr_ioctl_ops" { print $2 }' "$syms")
	if [ -z "$size" ] || [ $((16#$size / 24)) -gt 32 ]; then
		echo "$ko: ioctl table of ${size:-?} bytes reaches the test commands"; bad=1
	fi
	rm -f "$f" "$syms"
	return $bad
}
installed_ko() {
	modinfo -k "$K" -F filename mlx5_umr
}
# The check can fail: it does on the test build of the same source.
test_build_caught() {
	local tree
	tree=$("$TESTBED/debian-modules.sh" "$K" MLX5_UMR_TESTING=1) || return 1
	! no_test_interface "$tree/drivers/umr/mlx5_umr.ko"
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
	step "installs only mlx5_umr and mlx5_umr_hw on $K by default" only_production
	step "installed mlx5_umr.ko for $K has no test interface (test ioctls: ENOTTY)" \
		no_test_interface "$(installed_ko)"
done
step "the same check fails on a MLX5_UMR_TESTING=1 build" test_build_caught
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
