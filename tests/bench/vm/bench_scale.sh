#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# In the VM of make bench-scale (scripts/testbed/bench-scale.sh): load the
# service and the fake, run the benchmark's scaling table (its module_init
# prints "BENCH|" lines to the kernel log), unload. KTAP for vm-run.sh.
d=$(dirname "$0")/bench_scale.d
echo "TAP version 13"
echo "1..1"
if modprobe mlx5_umr_fake &&
   insmod "$d/mlx5_umr_bench.ko" scale_sec="${SCALE_SEC:-3}" &&
   dmesg | grep -q 'BENCH|done' && rmmod mlx5_umr_bench; then
	echo "ok 1 scaling table"
	echo "# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0"
	exit 0
fi
echo "not ok 1 scaling table"
echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
exit 1
