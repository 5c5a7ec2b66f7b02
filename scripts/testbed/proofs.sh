#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Prove the runners can fail: push known-good and known-bad inputs through
# the KUnit and VM runners and check each verdict. One case per input.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
P=0 F=0
expect() {	# expect WHAT WANTED_RC GOT_RC
	if [ "$2" = "$3" ]; then
		echo "ok - proof: $1 (rc $3)"; P=$((P + 1))
	else
		echo "not ok - proof: $1 (wanted rc $2, got $3)"; F=$((F + 1))
	fi
}
export MLX5_UMR_LOGDIR=$BUILD/logs/proofs
uml=$("$TESTBED/uml-kernel.sh") || exit 1
tree=$("$TESTBED/uml-modules.sh" "$uml" MLX5_UMR_TESTBED_PROOFS=1) || exit 1
pr=$tree/scripts/testbed/proofs
for c in pass:0 fail:1 crash:2 leak:2; do
	"$TESTBED/kunit-run.sh" "$uml" "$pr/testbed_${c%%:*}_test.ko" >/dev/null
	expect "kunit ${c%%:*} suite" "${c##*:}" $?
done
# Rows of a parameterized case are cases: two pass, one fails.
out=$("$TESTBED/kunit-run.sh" "$uml" "$pr/testbed_param_test.ko")
rc=$?
[ $rc -eq 1 ] && grep -q '^KUNIT 2 1 0 ' <<<"$out" && rc=0
expect "kunit parameterized case counted per row" 0 $rc

# Kernel TLB flushes over the flushing task's own stack, interrupts arriving
# (uml-patches/6.1/0002): an unpatched 6.1 kernel stalls in it; 60 s per
# boot keeps that failure short (the case takes 5 s).
MLX5_UMR_KUNIT_SECONDS=60 "$TESTBED/kunit-run.sh" "$uml" "$pr/testbed_kflush_test.ko" >/dev/null
expect "kunit kernel TLB flushes over the stack" 0 $?

# A UML stand-in: a whole, passing run, then the host process aborting
# after the halt (exit 134) as many times as its "aborts" file says.
stand=$BUILD/proofs/abort-uml
mkdir -p "$stand"
cat >"$stand/linux" <<'EOF'
#!/bin/sh
echo "MLX5_UMR_TESTBED: loading project modules"
echo "    ok 1 testbed_teardown"
echo "MLX5_UMR_TESTBED: done"
echo "reboot: System halted"
left=$(cat "$(dirname "$0")/aborts")
[ "$left" -gt 0 ] || exit 0
echo $((left - 1)) >"$(dirname "$0")/aborts"
exit 134
EOF
chmod +x "$stand/linux"
for c in once:1:0 twice:2:2; do	# name:aborts:wanted rc
	IFS=: read -r what n want <<<"$c"
	echo "$n" >"$stand/aborts"
	"$TESTBED/kunit-run.sh" "$stand" "$stand/testbed_teardown_test.ko" >/dev/null
	expect "kunit run aborting after the halt $what" "$want" $?
done

# A UML stand-in that stops (silent until the timeout) as many times as
# its "hangs" file says, then runs whole; before it stops it prints its
# "before" file (a test that ran, a failed one, a hung-task report). A
# silent stop, before a test or after one, is booted again up to three
# boots in all (passes after two hangs, fails after three); a stop after a
# report or a failed case is failed at once.
stand=$BUILD/proofs/hang-uml
mkdir -p "$stand"
cat >"$stand/linux" <<'EOF'
#!/bin/sh
d=$(dirname "$0")
echo "MLX5_UMR_TESTBED: loading project modules"
left=$(cat "$d/hangs")
if [ "$left" -gt 0 ]; then
	echo $((left - 1)) >"$d/hangs"
	cat "$d/before"
	exec sleep 60
fi
echo "    ok 1 testbed_teardown"
echo "MLX5_UMR_TESTBED: done"
echo "reboot: System halted"
EOF
chmod +x "$stand/linux"
hang() {	# hang WHAT HANGS WANTED_RC [LINE PRINTED BEFORE THE STOP]
	echo "$2" >"$stand/hangs"
	if [ -n "${4:-}" ]; then echo "$4"; fi >"$stand/before"
	MLX5_UMR_KUNIT_SECONDS=2 "$TESTBED/kunit-run.sh" "$stand" \
		"$stand/testbed_teardown_test.ko" >/dev/null
	expect "kunit run stopping $1" "$3" $?
}
hang "before any test, twice" 2 0
hang "before any test, three times" 3 2
hang "after a test ran, twice" 2 0 "    ok 1 testbed_teardown"
hang "after a test ran, three times" 3 2 "    ok 1 testbed_teardown"
hang "after a failed case" 1 2 "    not ok 1 testbed_teardown"
hang "after a hung-task report" 1 2 \
	"INFO: task rmmod:42 blocked for more than 60 seconds."

# A UML kernel that panics before init (as UML 6.1 did on hosts with AMX,
# before uml-patches/0001) is refused by the preflight, with the cause and
# the panic in its one line: a stand-in printing what such a kernel printed,
# and the real kernel given an init that does not exist.
stand=$BUILD/proofs/noinit-uml
mkdir -p "$stand"
cat >"$stand/linux" <<'EOF'
#!/bin/sh
echo "Run /init as init process"
echo "userspace - ptrace set fp regs failed, errno = 14"
echo "Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b"
echo "Stack:"
exit 134
EOF
chmod +x "$stand/linux"
preflight() {	# preflight WHAT UML_DIR INIT PATTERN
	local out rc
	out=$("$TESTBED/uml-preflight.sh" "$2" "$3")
	rc=$?
	echo "$out"
	[ "$rc" -eq 1 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "$4" <<<"$out" && rc=0
	expect "$1" 0 "$rc"
}
preflight "UML panicking before init: refused, cause shown" "$stand" /init \
	'cannot start init on this host.*ptrace set fp regs failed.*Kernel panic'
preflight "UML without its init: refused, panic shown" "$uml" /nonexistent/init \
	'cannot start init on this host.*Kernel panic'
# The vector-state check reports a register lost between load and store.
lose=$BUILD/proofs/fpstate-corrupt-init.sh
printf '#!/bin/sh\necho "MLX5_UMR_TESTBED: init started"\n"$FPSTATE" --corrupt\necho "MLX5_UMR_TESTBED: fpstate exit $?"\n/bin/busybox poweroff -f\n' >"$lose"
chmod +x "$lose"
preflight "UML losing a vector register: refused" "$uml" "$lose" \
	'does not keep user FPU state on this host: fpstate: .*lost'

K=$(debian_kver)
tree=$("$TESTBED/debian-modules.sh" "$K" MLX5_UMR_TESTING=1) || exit 1
vm=$BUILD/vm/proofs
for c in smoke:0 fail:1; do
	rm -rf "$vm/$c"; mkdir -p "$vm/$c"
	cp "$TESTBED/proofs/vm/testbed_vm_${c%%:*}.sh" "$vm/$c/"
	"$TESTBED/vm-initramfs.sh" "$K" "$tree" "$vm/$c" "$vm/${c%%:*}.cpio.gz"
	"$TESTBED/vm-run.sh" "$K" "$vm/${c%%:*}.cpio.gz" "$MLX5_UMR_LOGDIR/vm-${c%%:*}.log" >/dev/null
	expect "vm ${c%%:*} selftest" "${c##*:}" $?
done
"$TESTBED/vm-run.sh" "$K" "$vm/smoke.cpio.gz" "$MLX5_UMR_LOGDIR/vm-nomarker.log" NO_END_MARKER=1 >/dev/null
expect "vm run without end marker" 1 $?
# A kernel that stops before /init is booted once more, then judged.
rm -f "$MLX5_UMR_LOGDIR/vm-noinit.log.boot1"
out=$("$TESTBED/vm-run.sh" "$K" "$vm/smoke.cpio.gz" "$MLX5_UMR_LOGDIR/vm-noinit.log" rdinit=/nonexistent)
rc=$?
[ $rc -eq 1 ] && [ -f "$MLX5_UMR_LOGDIR/vm-noinit.log.boot1" ] &&
	grep -q 'stopped before /init ran' <<<"$out" && rc=0
expect "vm kernel stopping before /init: booted twice, failed" 0 $rc
tb_result $P $F 0 "test-bed proofs"
[ $F -eq 0 ]
