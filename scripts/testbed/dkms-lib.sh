# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# DKMS helpers shared by dkms-check.sh (the tree's dkms.conf) and
# deb-check.sh (the mlx5-umr-dkms package); sourced after lib.sh, with
# check set to the name the steps print.
# Sets name, ver (dkms.conf's PACKAGE_NAME and _VERSION), src (their
# /usr/src tree), mods (the modules of the default build) and Ks (the
# Debian kernel releases of the supported lines). Not root: the check is
# skipped (exit).
if [ "$(id -u)" != 0 ]; then
	echo "ok - $check # SKIP needs root"; tb_result 0 0 1 "$check"; exit 0
fi
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$TOP/dkms.conf")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
# What dkms itself reads: dkms.conf sourced, without the test switch.
mods=$(env -u MLX5_UMR_TESTING bash -c '. "$1"; echo "${BUILT_MODULE_NAME[@]}"' _ "$TOP/dkms.conf")
src=/usr/src/$name-$ver
# One test case per step: "ok - $check: WHAT"; P and F count them.
P=0 F=0
step() {	# step WHAT CMD...
	local what=$1 out; shift
	if out=$("$@" 2>&1); then
		echo "ok - $check: $what"; P=$((P + 1))
	else
		echo "not ok - $check: $what"; echo "$out" | tail -n 20; F=$((F + 1))
	fi
}
Ks=$(for l in $KLINES; do debian_kver "$l"; done)
# /usr/src and the DKMS tree are machine-wide: one user at a time (both
# checks use the same name and version). Holds fd 7.
dkms_lock() {
	exec 7>/var/lock/mlx5-umr-dkms.lock
	flock 7
}
# Start from nothing: a failed earlier run leaves its tree behind.
dkms_fresh() {
	dkms remove -m "$name" -v "$ver" --all >/dev/null 2>&1
	rm -rf "$src" "/var/lib/dkms/$name"
}
installed() {	# installed KVER
	local K=$1 m
	for m in $mods; do
		modinfo -k "$K" "$m" | grep -q "^filename:.*/updates/dkms/$m.ko" || return 1
		modprobe -S "$K" --show-depends "$m" | grep -q "/$m.ko" || return 1
	done
}
# Our modules in the DKMS directory, by name: exactly the production two.
only_production() {	# only_production KVER
	local K=$1 got
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
installed_ko() {	# installed_ko KVER
	modinfo -k "$1" -F filename mlx5_umr
}
# The check can fail: it does on the test build of the same source.
test_build_caught() {	# test_build_caught KVER
	local K=$1 tree
	tree=$("$TESTBED/debian-modules.sh" "$K" MLX5_UMR_TESTING=1) || return 1
	! no_test_interface "$tree/drivers/umr/mlx5_umr.ko"
}
# Neither the DKMS tree nor a module of ours is left on any kernel.
gone() {
	local K m
	for K in $Ks; do
		for m in $mods; do
			[ ! -e "/lib/modules/$K/updates/dkms/$m.ko" ] || return 1
		done
	done
	! dkms status -m "$name" | grep -q .
}
# dkms.conf's BUILD_EXCLUSIVE_KERNEL: another kernel line is skipped, not
# built (no headers are needed to be told so).
excluded() {
	local out
	out=$(dkms build -m "$name" -v "$ver" -k 6.6.0-1-amd64 2>&1)
	grep -q 'BUILD_EXCLUSIVE directive which does not match' <<<"$out"
}
