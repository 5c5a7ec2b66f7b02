#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# In the test VM (busybox), installed as /selftests/deb_installed.sh by
# deb-check.sh: the modules and the umrctl that the Debian packages put on
# the host, at their installed paths (/lib/modules/KVER/updates/dkms,
# /usr/bin/umrctl with libmlx5umr.so.0). The production build has no fake
# HCA and the VM no ConnectX, so the service runs with no device: umrctl
# info "answers" by saying so (no /dev/mlx5_umr node, exit 1), and a
# non-UMR file proves the library's ioctl path (ENOTTY). Prints KTAP.
n=0 npass=0 nfail=0
check() {
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		npass=$((npass + 1)); echo "ok $n - $desc"
	else
		nfail=$((nfail + 1)); echo "not ok $n - $desc"
	fi
}
K=$(uname -r)
# modprobe resolves MODULE to the DKMS install (compressed on 6.12)
from_dkms() {	# from_dkms MODULE
	f=$(modinfo -F filename "$1")
	echo "# $1: $f"
	case $f in "/lib/modules/$K/updates/dkms/$1.ko"*) ;; *) return 1 ;; esac
}
# Loaded, out of tree (taint O): the image holds no other copy of ours.
live_is_dkms() {	# live_is_dkms MODULE
	grep -q "^$1 " /proc/modules && grep -q O "/sys/module/$1/taint"
}
answers() {	# answers WANT_RC PATTERN UMRCTL_ARGS...: rc and output
	want=$1 pat=$2
	shift 2
	out=$(/usr/bin/umrctl "$@" 2>&1)
	rc=$?
	echo "# umrctl $*: rc $rc: $out"
	[ "$rc" = "$want" ] && echo "$out" | grep -q "$pat"
}
echo "TAP version 13"
echo "1..11"
check "mlx5_umr resolves to updates/dkms on $K" from_dkms mlx5_umr
check "mlx5_umr_hw resolves to updates/dkms on $K" from_dkms mlx5_umr_hw
check "no fake HCA or sample ULP in the production build" \
	sh -c '! grep -E "mlx5_umr_(fake|sample)" "/lib/modules/$(uname -r)/modules.dep"'
check "modprobe mlx5_umr_hw (with mlx5_core, ib_core)" modprobe mlx5_umr_hw
check "mlx5_umr is loaded, out of tree" live_is_dkms mlx5_umr
check "mlx5_umr_hw is loaded, out of tree" live_is_dkms mlx5_umr_hw
check "umrctl --help runs (libmlx5umr.so.0 resolves)" answers 0 'usage: umrctl' --help
check "umrctl info: no device (no HCA, no /dev/mlx5_umr node)" \
	answers 1 'cannot open /dev/mlx5_umr/\*: No such file or directory' info
check "umrctl -d /dev/null info: the ioctl is refused (ENOTTY)" \
	answers 1 'ENOTTY' -d /dev/null info
check "rmmod mlx5_umr_hw mlx5_umr" rmmod mlx5_umr_hw mlx5_umr
check "nothing of ours is loaded" sh -c '! grep -q "^mlx5_umr" /proc/modules'
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:0 error:0"
[ "$nfail" = 0 ]
