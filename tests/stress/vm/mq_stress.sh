#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# In the test VM (make vmtest, scripts/testbed/mq-stress-vm.sh): load the
# fake, the stress (mlx5_umr_stress.ko) and its VM module, which runs the
# one-mkey ordering stress at load on the VM's CPUs and prints its KTAP to
# the kernel log after "MQS|"; print that KTAP with its totals, unload.
# MQS_ITERS (kernel command line) makes the run shorter.
d=$(dirname "$0")/mq_stress.d
echo "TAP version 13"
# leave the fake as found: stall_test, for one, must load it itself
had_fake=
[ -d /sys/module/mlx5_umr_fake ] && had_fake=1
if ! modprobe mlx5_umr_fake || ! insmod "$d/mlx5_umr_stress.ko" ||
   ! insmod "$d/mlx5_umr_mq_stress.ko" ${MQS_ITERS:+iters=$MQS_ITERS}; then
	echo "1..1"
	echo "not ok 1 load the stress modules"
	echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
	exit 1
fi
# the module's lines only: it is loaded once per boot
ktap=$(dmesg | sed -n 's/^.*MQS|//p' | grep -v '^TAP version')
echo "$ktap"
pass=$(echo "$ktap" | grep '^ok ' | grep -vc '# SKIP')
skip=$(echo "$ktap" | grep '^ok ' | grep -c '# SKIP')
fail=$(echo "$ktap" | grep -c '^not ok ')
planned=$(echo "$ktap" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p')
# a result that never came is a failure
[ $((pass + skip + fail)) -eq "${planned:-0}" ] && [ -n "$planned" ] || fail=$((fail + 1))
rmmod mlx5_umr_mq_stress && rmmod mlx5_umr_stress || fail=$((fail + 1))
[ -n "$had_fake" ] || rmmod mlx5_umr_fake || fail=$((fail + 1))
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
[ "$fail" -eq 0 ]
