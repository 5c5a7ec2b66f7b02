#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# In the test VM: load the fake as an mlx5_ib user device
# (mlx5_umr_fake_uverbs.ko) and run fuv_test (next to this script)
# against it with Debian's libmlx5, fuv_diff (libmlx5 against the service
# on the fake0 the same load registers), fuv_svc (the service on the
# module's own device, SET_PD of a libmlx5 PD), then each program the image holds in
# fake_uverbs.d/programs/ (scripts/testbed/vm-initramfs-rdma.sh) with its
# arguments, between markers, and hwcheck --fake on the device the
# module offers to the service; unload what this loaded. Exit status 0 when
# nothing failed.
d=$(dirname "$0")
before=$(awk '{print $1}' /proc/modules)
restore() {
	for _ in 1 2 3; do
		for m in $(awk '{print $1}' /proc/modules); do
			echo "$before" | grep -qx "$m" || rmmod "$m" 2>/dev/null
		done
	done
}
# fake0 (the service's, for fuv_diff) in fake1's crypto profile, so that
# both read the tweak alike: mlx5_umr_fake_uverbs's parameter crypto
# (multi-block BE) as mlx5_umr_fake's crypto_profile (fake.rst "Crypto
# profiles"), 3: MLX5_UMR_FAKE_CRYPTO_MULTI_BE; fuv_diff leaves crypto
# out when they differ
grep -q '^mlx5_umr_fake ' /proc/modules ||
	modprobe mlx5_umr_fake crypto_profile=3
# dyndbg: the DEVX commands libmlx5 sends go to the kernel log
if ! modprobe ib_uverbs || ! modprobe mlx5_umr_fake_uverbs dyndbg=+p; then
	echo "not ok 1 - mlx5_umr_fake_uverbs loads"
	restore
	exit 1
fi
i=0
while [ ! -e /dev/infiniband/uverbs0 ] && [ $i -lt 50 ]; do
	i=$((i + 1))
	sleep 0.1
done
t=$d/fuv_test
[ -x "$t" ] || t=$d/fake_uverbs.d/fuv_test
"$t"
ret=$?
# the differential test against the table of fake.rst (fuv_diff.c)
dd=$(dirname "$t")
rst=$dd/fake.rst
[ -f "$rst" ] || rst=$dd/../../Documentation/fake.rst
# shellcheck disable=SC2046 # the arguments are split on purpose
"$dd/fuv_diff" -t "$rst" -n 300 $(cat "$dd/fuv_diff.args" 2>/dev/null) ||
	ret=1
# the service on this module's device (fuv_svc.c)
"$dd/fuv_svc" || ret=1
for p in "$d"/fake_uverbs.d/programs/*; do
	[ -x "$p" ] || continue
	# shellcheck disable=SC2046 # the arguments are split on purpose
	set -- $(cat "$p.args")
	echo "fake_uverbs: program $(basename "$p"): $*"
	"$p" "$@"
	rc=$?
	echo "fake_uverbs: program $(basename "$p") exited $rc"
	[ $rc -eq 0 ] || ret=1
done
# hwcheck (tools/hwcheck) on the device mlx5_umr_fake_uverbs offers to the
# service (/dev/mlx5_umr/fake_mlx5_0; fake.rst "The service on the
# fake_uverbs device"), as on a NIC: every check counts. With a number N
# (fake_uverbs.d/hwcheck.first, MLX5_UMR_FUV_HWCHECK of the image; 3: the
# QP pair, SET_PD_VERBS, the registrations) only the first N count, and the
# whole run is reported, not counted: for a fake whose data path is broken.
hc=/usr/bin/hwcheck
first=$(cat "$dd/hwcheck.first" 2>/dev/null)
first=${first:-all}
if [ -x $hc ]; then
	if [ "$first" != all ]; then
		echo "fake_uverbs: hwcheck --fake --first $first"
		$hc --fake --first "$first" --json /tmp/hwcheck-fake-setup.json
		rc=$?
		echo "fake_uverbs: hwcheck --fake --first $first exited $rc"
		[ $rc -eq 0 ] || ret=1
	fi
	echo "fake_uverbs: hwcheck --fake"
	$hc --fake --json /tmp/hwcheck-fake.json >/tmp/hwcheck-fake.txt 2>&1
	rc=$?
	# not counted: KTAP diagnostics ("# "), totals the VM's tally
	# (vm-run.sh, "# Totals: ") does not read
	if [ "$first" = all ]; then
		cat /tmp/hwcheck-fake.txt
	else
		sed 's/^/# /; s/# Totals:/# Totals (not counted):/' \
			/tmp/hwcheck-fake.txt
	fi
	echo "fake_uverbs: hwcheck --fake exited $rc"
	[ "$first" != all ] || [ $rc -eq 0 ] || ret=1
	# without --fake the fake is never chosen: nothing to check (4)
	$hc --json /tmp/hwcheck-nic.json >/tmp/hwcheck-nic.txt 2>&1
	rc=$?
	if [ $rc -eq 4 ] && grep -q '^1\.\.0 # SKIP' /tmp/hwcheck-nic.txt; then
		echo "fake_uverbs: hwcheck without --fake skips the fake (4)"
	else
		echo "fake_uverbs: hwcheck without --fake exited $rc on the fake: not ok"
		sed 's/^/# /; s/# Totals:/# Totals (not counted):/' /tmp/hwcheck-nic.txt
		ret=1
	fi
else
	echo "fake_uverbs: no $hc in the image: hwcheck not run"
fi
restore
exit $ret
