#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# pd_verbs_test (MLX5_UMR_IOCTL_SET_PD of verbs PDs) on a soft-RoCE device
# over a dummy netdev, in the test VM: installed there as
# /selftests/pd_verbs.sh, with the test in /pd_verbs/, by
# scripts/testbed/vm-initramfs-rdma.sh. The fake HCA is loaded with
# user_pd_ibdev naming the rxe device, whose user PDs it then takes
# (drivers/fake/fake_user_pd.c); its unload at the end reports any PD or
# mkey left (judged with the kernel log). The test's KTAP is the output;
# exit status 0 when nothing failed.
NETDEV=pdvdummy0
IBDEV=pdv_rxe0
before=$(awk '{print $1}' /proc/modules)
restore() {
	rdma link delete $IBDEV 2>/dev/null
	ip link del $NETDEV 2>/dev/null
	for _ in 1 2 3 4; do
		for m in $(awk '{print $1}' /proc/modules); do
			echo "$before" | grep -qx "$m" || rmmod "$m" 2>/dev/null
		done
	done
}
modprobe crc32_generic 2>/dev/null
# a fake loaded before would not know the device
if grep -q '^mlx5_umr_fake ' /proc/modules && ! rmmod mlx5_umr_fake; then
	echo "not ok 1 - mlx5_umr_fake in use"
	exit 1
fi
if ! modprobe rdma_rxe || ! modprobe ib_uverbs || ! modprobe dummy ||
   ! ip link add $NETDEV type dummy || ! ip link set $NETDEV up ||
   ! rdma link add $IBDEV type rxe netdev $NETDEV ||
   ! modprobe mlx5_umr_fake user_pd_ibdev=$IBDEV; then
	echo "not ok 1 - an rxe device and a fake taking its PDs"
	restore
	exit 1
fi
i=0
while [ ! -e /dev/infiniband/uverbs0 ] && [ $i -lt 50 ]; do
	i=$((i + 1))
	sleep 0.1
done
/pd_verbs/pd_verbs_test
ret=$?
restore
exit $ret
