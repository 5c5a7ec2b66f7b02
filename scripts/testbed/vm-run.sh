#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Boot Debian's kernel under QEMU TCG with an initramfs and judge the run.
#   vm-run.sh KVER INITRD LOG [extra kernel args]
# Prints "VM <passed> <failed> <skipped>"; exit 0 only when every selftest
# passed, the end marker was printed and the kernel reported nothing.
set -u
tb=$(cd "$(dirname "$0")" && pwd)
K=$1 initrd=$2 log=$3; shift 3
# KVM hangs on this machine type: TCG only. QEMU's exit code does not show
# guest panics (panic=-1 + -no-reboot), hence the markers.
# -smp 2 with one host thread per vCPU (thread=multi, QEMU 7.2's default
# here, said outright): the two CPUs really run at once, which
# tests/stress/ needs (Documentation/testbed.rst). MLX5_UMR_VM_ACCEL:
# another -accel.
#
# A kernel that has not run /init after MLX5_UMR_VM_INIT_SECS (300) is
# stopped: boot() returns 125 (a boot reaches /init in well under a
# minute here).
boot() {
	local pid waited=0

	timeout 900 qemu-system-x86_64 -accel "${MLX5_UMR_VM_ACCEL:-tcg,thread=multi}" -cpu max -smp 2 -m 2048 -nographic -no-reboot \
		-kernel "/boot/vmlinuz-$K" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 loglevel=4 $*" </dev/null >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null &&
	      ! grep -q 'MLX5_UMR_VM: init running' "$log"; do
		if [ "$waited" -ge "${MLX5_UMR_VM_INIT_SECS:-300}" ]; then
			kill "$pid"	# timeout passes it on to QEMU
			wait "$pid"
			return 125
		fi
		sleep 2
		waited=$((waited + 2))
	done
	wait "$pid"
}
boot "$@"
rc=$?
# Nothing of ours runs before /init's first line (the initramfs loads no
# module before it), so a boot that never got there says nothing about
# the tests: boot once more, keeping the first log. A second such boot is
# judged. Under TCG, Debian's 6.12 once oopsed (int3) in early boot; on an
# Intel AMX host Debian's 6.1 once stalled there (RCU stall reports from
# 22 s on, no progress until the 900 s timeout).
if [ $rc -ne 124 ] && ! grep -q 'MLX5_UMR_VM: init running' "$log"; then
	mv "$log" "$log.boot1"
	echo "vm-run: the kernel stopped before /init ran ($log.boot1): booting once more"
	boot "$@"
	rc=$?
fi
[ $rc -eq 125 ] && echo "vm-run: the kernel did not run /init within ${MLX5_UMR_VM_INIT_SECS:-300} s"
P=0 F=0 S=0
while read -r p f s; do
	P=$((P + p)) F=$((F + f)) S=$((S + s))
done < <(sed -n 's/.*# Totals: pass:\([0-9]*\) fail:\([0-9]*\) xfail:[0-9]* xpass:[0-9]* skip:\([0-9]*\) error:\([0-9]*\).*/\1 \2 \3 \4/p' "$log" |
	awk '{print $1, $2 + $4, $3}')
status=0
# A program that failed without saying so in its totals is one failure more.
while read -r name code; do
	[ "$code" = 0 ] && continue
	echo "vm-run: $name exited $code"
	[ "$F" -gt 0 ] || F=1
	status=1
done < <(sed -n 's/.*MLX5_UMR_VM: exit \([^ ]*\) \([0-9]*\).*/\1 \2/p' "$log")
[ "$F" -gt 0 ] && status=1
[ $rc -eq 124 ] && { echo "vm-run: QEMU timed out"; status=1; }
# selftests/uapi/unpriv_test fills a memory cgroup of its own
# (/mlx5-umr-*) with a process that cannot be OOM-killed (oom_score_adj
# -1000), so that the charge fails with ENOMEM; the kernel logs an OOM
# report with a stack for it. Exactly such reports (one task at -1000, the
# test's cgroup, no victim) are left out of what the judge reads; any
# other OOM report, and anything else, is judged.
judged=$log.judged
awk '
function flush() { if (blk != "" && !own) printf "%s", blk; blk = ""; inb = 0 }
/invoked oom-killer: .*oom_score_adj=-1000/ { flush(); inb = 1; own = 0; blk = $0 "\n"; next }
inb {
	blk = blk $0 "\n"
	if ($0 ~ /Memory cgroup stats for \/mlx5-umr-[a-z]*:/) own = 1
	if ($0 ~ /Killed process|oom-kill:/) own = 0
	if ($0 ~ /Out of memory and no killable processes/) flush()
	next
}
{ print }
END { flush() }' "$log" >"$judged"
if ! "$tb/judge-kernel-log.sh" "$judged" 'MLX5_UMR_VM: start' 'MLX5_UMR_VM: done'; then
	status=1; F=$((F + 1))
fi
grep -E '^(not ok|# (FAIL|SKIP))' "$log" | head -n 40
echo "VM $P $F $S"
exit $status
