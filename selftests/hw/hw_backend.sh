#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# VM selftest for mlx5_umr_hw.ko on Debian's kernel, in a busybox initramfs
# with no mlx5 hardware: the module loads with its real dependencies, sees a
# soft-RoCE (rdma_rxe) ib_device come and go, ignores it, and unloads.
# Observes the backend through debugfs (mlx5_umr_hw/devices) and its log
# lines. Prints KTAP; exit status 0 when nothing failed.

MOD=mlx5_umr_hw
DBG=/sys/kernel/debug/$MOD/devices
NETDEV=hwtdummy0
IBDEV=hwt_rxe0
MARK="hw_backend.sh: start $$"

n=0
npass=0
nfail=0
nskip=0
# no mlx5 device in the VM: rdma_rxe is the non-mlx5 device to ignore
NTESTS=18

ok() { n=$((n + 1)); npass=$((npass + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); nfail=$((nfail + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); nskip=$((nskip + 1)); echo "ok $n - $1 # SKIP $2"; }
# check DESC CMD...: one test result from a command's exit status
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else nok "$desc"; fi
}
diag() { echo "# $*"; }

loaded() { grep -q "^$1 " /proc/modules; }
# $1 is loaded and $MOD links against it
uses() { loaded "$1" && [ -e "/sys/module/$1/holders/$MOD" ]; }
# kernel log since this script started
newlog() { dmesg | sed -n "/$MARK/,\$p"; }
# wait up to 5 s for a command to succeed (removal may finish asynchronously)
waitfor() {
	i=0
	while ! "$@"; do
		i=$((i + 1))
		[ $i -ge 50 ] && return 1
		sleep 0.1
	done
}
dev_line() { grep "^$IBDEV " "$DBG" 2>/dev/null; }
dev_ignored() { dev_line | grep -qx "$IBDEV ignored not-mlx5"; }
dev_absent() { [ -r "$DBG" ] && ! dev_line >/dev/null; }
log_count() { newlog | grep -c "$MOD: $IBDEV: $1"; }
no_bound() { [ -r "$DBG" ] && ! grep -q " bound \| failed " "$DBG"; }
unload_reports_removal() {
	rmmod $MOD && [ "$(log_count removed)" -eq 2 ]
}
reload_sees_device() {
	modprobe $MOD && [ -r "$DBG" ] && dev_ignored
}
# unload what this test loaded (/proc/modules lists users before their
# dependencies; a few passes settle the rest)
restore_modules() {
	for _ in 1 2 3 4; do
		mods=$(awk '{print $1}' /proc/modules)
		for m in $mods; do
			echo "$before" | grep -qx "$m" || rmmod "$m" 2>/dev/null
		done
	done
	left=$(awk '{print $1}' /proc/modules | grep -vxF "$before" | tr '\n' ' ')
	[ -z "$left" ] || diag "modules left loaded: $left"
}
renamed_listed() {
	rdma dev set $IBDEV name ${IBDEV}r || return 1
	grep -qx "${IBDEV}r ignored not-mlx5" "$DBG" && ! dev_line >/dev/null
	rc=$?
	rdma dev set ${IBDEV}r name $IBDEV && dev_ignored && return $rc
}
driver_unload_seen() {
	dev_ignored && rmmod rdma_rxe && waitfor dev_absent &&
		[ "$(log_count removed)" -eq 4 ]
}
unload_clean() {
	rmmod $MOD && ! loaded $MOD && [ ! -e "/sys/kernel/debug/$MOD" ]
}

echo "KTAP version 1"
echo "1..$NTESTS"
echo "$MARK" >/dev/kmsg
grep -q " /sys/kernel/debug debugfs " /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug
# modules to keep at the end; everything this test loaded is unloaded
before=$(awk '{print $1}' /proc/modules)

# 1-5: load with no mlx5 device present
for m in mlx5_core ib_core; do
	loaded $m && diag "$m was loaded before this test"
done
if loaded $MOD; then
	diag "$MOD already loaded; unloading first"
	rmmod $MOD
fi
check "modprobe $MOD" modprobe $MOD
check "$MOD is loaded" loaded $MOD
check "it pulled in mlx5_core and uses it" uses mlx5_core
check "it pulled in ib_core and uses it" uses ib_core
check "debugfs $DBG lists no bound device" no_bound
diag "devices: $(tr '\n' ';' <"$DBG" 2>/dev/null)"

# 6-16: a non-mlx5 ib_device (soft-RoCE on a dummy netdev)
have_rxe=yes
if ! command -v rdma >/dev/null; then
	have_rxe="no rdma tool"
elif ! modprobe crc32_generic || ! modprobe rdma_rxe; then
	have_rxe="rdma_rxe does not load"
elif ! ip link add $NETDEV type dummy || ! ip link set $NETDEV up; then
	have_rxe="no dummy netdev"
fi
if [ "$have_rxe" = yes ]; then
	check "rdma link add $IBDEV (rxe on $NETDEV)" \
		rdma link add $IBDEV type rxe netdev $NETDEV
	check "debugfs lists $IBDEV as ignored not-mlx5" waitfor dev_ignored
	check "kernel log says $IBDEV ignored" \
		[ "$(log_count 'ignored: not-mlx5')" -eq 1 ]
	check "debugfs follows a rename of $IBDEV" renamed_listed
	check "rdma link delete $IBDEV" rdma link delete $IBDEV
	check "debugfs no longer lists $IBDEV" waitfor dev_absent
	check "kernel log says $IBDEV removed" [ "$(log_count removed)" -eq 1 ]

	# a device that exists before the module loads, and module unload
	# while it exists
	rdma link add $IBDEV type rxe netdev $NETDEV
	check "rmmod $MOD with $IBDEV present reports its removal" \
		unload_reports_removal
	check "modprobe $MOD sees the existing $IBDEV and ignores it" \
		reload_sees_device
	rdma link delete $IBDEV
	check "debugfs no longer lists $IBDEV after a second delete" \
		waitfor dev_absent

	# the device's driver goes away (as on driver unbind)
	rdma link add $IBDEV type rxe netdev $NETDEV
	check "rmmod rdma_rxe with $IBDEV present: its removal is seen" \
		driver_unload_seen
else
	for d in "rdma link add $IBDEV" "debugfs lists $IBDEV as ignored" \
		"kernel log says $IBDEV ignored" \
		"debugfs follows a rename of $IBDEV" "rdma link delete $IBDEV" \
		"debugfs no longer lists $IBDEV" "kernel log says $IBDEV removed" \
		"rmmod with $IBDEV present reports its removal" \
		"modprobe sees the existing $IBDEV" \
		"debugfs no longer lists $IBDEV after a second delete" \
		"rmmod rdma_rxe with $IBDEV present: its removal is seen"; do
		skip "$d" "$have_rxe"
	done
fi
ip link del $NETDEV 2>/dev/null

# 17-18: unload, and nothing went wrong in the kernel meanwhile
check "rmmod $MOD" unload_clean
restore_modules
bad=$(newlog | grep -E 'BUG:|WARNING:|Oops|Call Trace|KASAN|refcount_t:|general protection')
if [ -z "$bad" ]; then
	ok "no kernel warning or oops"
else
	echo "$bad" | sed 's/^/# /'
	nok "no kernel warning or oops"
fi
newlog | grep "$MOD:" | sed 's/^/# /'
[ $n -eq $NTESTS ] || diag "ran $n tests, planned $NTESTS"

echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ $nfail -eq 0 ] && [ $n -eq $NTESTS ]
