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
uml=$("$TESTBED/uml-kernel.sh") || tb_die "UML kernel build failed"
tree=$("$TESTBED/uml-modules.sh" "$uml" MLX5_UMR_TESTBED_PROOFS=1) || exit 1
pr=$tree/scripts/testbed/proofs
for c in pass:0 fail:1 crash:2 leak:2; do
	"$TESTBED/kunit-run.sh" "$uml" "$pr/testbed_${c%%:*}_test.ko" >/dev/null
	expect "kunit ${c%%:*} suite" "${c##*:}" $?
done

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

K=$(debian_kver)
tree=$("$TESTBED/debian-modules.sh" "$K") || exit 1
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
tb_result $P $F 0 "test-bed proofs"
[ $F -eq 0 ]
