#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The hwcheck harness without a NIC, in the test VM: installed there as
# /selftests/hwcheck_rxe.sh by scripts/testbed/vm-initramfs-rdma.sh.
# 1. hwcheck (mlx5 mode) with no mlx5 device must say so, exit 4 (skip)
#    and report nothing as passed, even with an RDMA device present.
# 2. hwcheck --rxe on a soft-RoCE device over a dummy netdev: the loopback
#    QP pair, RDMA WRITE and READ, the negative checks of plain MRs and
#    the JSON report. Its own KTAP lines and totals are part of the run.
# 3. The in-kernel path's harness: mlx5_umr_hwcheck.ko with mode=plain
#    (FRWR MRs in place of the service's keys) on the same device.
# Prints KTAP; exit status 0 when nothing failed.

NETDEV=hwcdummy0
IBDEV=hwc_rxe0
ADDR=10.199.0.1
HC=/usr/bin/hwcheck
OUT=/tmp/hwcheck

n=0
npass=0
nfail=0
nskip=0
ok() { n=$((n + 1)); npass=$((npass + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); nfail=$((nfail + 1)); echo "not ok $n - $1"; }
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else nok "$desc"; fi
}
diag() { echo "# $*"; }

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
# an IPv4 (RoCE v2) GID of the port appears asynchronously
gid_ready() {
	cat /sys/class/infiniband/$IBDEV/ports/1/gids/* 2>/dev/null |
		grep -q '^0000:0000:0000:0000:0000:ffff:'
}
waitfor() {
	i=0
	while ! "$@"; do
		i=$((i + 1))
		[ $i -ge 50 ] && return 1
		sleep 0.1
	done
}
json_has() { grep -q "$2" "$1"; }
# the report lists every check and totals that match the KTAP totals
report_consistent() {
	f=$1 totals=$2
	p=$(echo "$totals" | sed -n 's/.* pass:\([0-9]*\).*/\1/p')
	fl=$(echo "$totals" | sed -n 's/.* fail:\([0-9]*\).*/\1/p')
	s=$(echo "$totals" | sed -n 's/.* skip:\([0-9]*\) .*/\1/p')
	[ -n "$p" ] &&
		json_has "$f" "\"passed\": $p, \"failed\": $fl, \"skipped\": $s" &&
		[ "$(grep -c '"result": ' "$f")" -eq $((p + fl + s)) ]
}

mkdir -p $OUT
echo "KTAP version 1"
echo "1..9"

# 1: the skip path, with the rxe device below present (made first)
modprobe crc32_generic 2>/dev/null
if ! modprobe rdma_rxe || ! modprobe ib_uverbs; then
	nok "rdma_rxe and ib_uverbs load"
	restore
	echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
	exit 1
fi
ok "rdma_rxe and ib_uverbs load"
ip link add $NETDEV type dummy && ip addr add $ADDR/24 dev $NETDEV &&
	ip link set $NETDEV up
check "rdma link add $IBDEV type rxe netdev $NETDEV" \
	rdma link add $IBDEV type rxe netdev $NETDEV
check "$IBDEV has an IPv4 GID" waitfor gid_ready

$HC --json $OUT/skip.json >$OUT/skip.out 2>&1
rc=$?
sed 's/^/# skip run: /' $OUT/skip.out
check "without an mlx5 device hwcheck exits 4 (skip)" [ $rc -eq 4 ]
check "it says there is no mlx5 device bound to mlx5_umr_hw and passes nothing" \
	sh -c "grep -q '^1..0 # SKIP no mlx5 RDMA device bound to mlx5_umr_hw' $OUT/skip.out &&
	       ! grep -q '^ok ' $OUT/skip.out &&
	       grep -q '\"device\": null' $OUT/skip.json &&
	       grep -q '\"passed\": 0, \"failed\": 0' $OUT/skip.json"

# 2: the harness on rxe; its own KTAP lines count in the run's totals
$HC --rxe -d $IBDEV --json $OUT/rxe.json >$OUT/rxe.out 2>&1
rc=$?
cat $OUT/rxe.out
totals=$(grep '^# Totals:' $OUT/rxe.out)
check "hwcheck --rxe exits 0" [ $rc -eq 0 ]
check "its report is consistent with its output" \
	report_consistent $OUT/rxe.json "$totals"
check "its report names the device, mode and kernel" \
	sh -c "grep -q '\"mode\": \"rxe\"' $OUT/rxe.json &&
	       grep -q '\"name\": \"$IBDEV\"' $OUT/rxe.json &&
	       grep -q '\"release\": \"$(uname -r)\"' $OUT/rxe.json"
diag "report: $(tr -d '\n' <$OUT/rxe.json)"

# 3: kernel verbs: ib_post_send() RDMA WRITE on a loopback QP pair of the
# module's ib_pd, FRWR keys (rotated, invalidated)
KMARK="hwcheck_rxe.sh: kernel path $$"
echo "$KMARK" >/dev/kmsg
modprobe mlx5_umr 2>/dev/null
insmod /hwcheck/mlx5_umr_hwcheck.ko ibdev=$IBDEV mode=plain
sum=$(cat /sys/module/mlx5_umr_hwcheck/parameters/summary 2>/dev/null)
dmesg | sed -n "/$KMARK/,\$p" | grep 'mlx5_umr_hwcheck:' | sed 's/^/# kernel: /'
rmmod mlx5_umr_hwcheck 2>/dev/null
check "mlx5_umr_hwcheck mode=plain: $sum" [ "$sum" = "5 passed, 0 failed, 0 skipped" ]

restore
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ $nfail -eq 0 ]
