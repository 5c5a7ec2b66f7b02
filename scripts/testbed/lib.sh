# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Shared helpers for the test-bed scripts (sourced, not run).

TESTBED=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$TESTBED/../.." && pwd)
BUILD=${MLX5_UMR_BUILD:-$TOP/build}
CACHE=${MLX5_UMR_CACHE:-$HOME/.cache/mlx5-umr}

tb_log() { echo "testbed: $*" >&2; }
tb_die() { echo "testbed: ERROR: $*" >&2; exit 1; }

# tb_doc_section DOC START END FILE: replace the lines of DOC from the
# marker line START to END (both included) by FILE, which carries the
# markers itself; the rest of DOC is kept (bench.sh, bench-scale.sh).
tb_doc_section() {
	awk -v s="$2" -v e="$3" -v f="$4" '
		$0 == s { while ((getline l < f) > 0) print l; skip = 1; next }
		$0 == e { skip = 0; next }
		!skip' "$1" >"$1.new" && mv "$1.new" "$1"
}

# The kernel lines the project supports: Debian 12's own kernel and the
# 6.12 LTS kernel Debian 12 also ships. KLINE is the one a script works on
# (MLX5_UMR_KLINE, default 6.1); make check runs the kernel steps per line.
KLINES="6.1 6.12"
KLINE=${MLX5_UMR_KLINE:-6.1}
case " $KLINES " in *" $KLINE "*) ;; *)
	echo "testbed: ERROR: MLX5_UMR_KLINE=$KLINE is not one of: $KLINES" >&2; exit 1 ;;
esac

# debian_kver [LINE]: the Debian kernel release of LINE (default KLINE), the
# one its metapackage points at (linux-image-amd64 for 6.1,
# linux-image-6.12-amd64): the VM boots it and the modules build against
# its headers. Its ABI number moves, so it is never hard-coded.
debian_kver() {
	local pkg=linux-image-amd64
	[ "${1:-$KLINE}" = 6.1 ] || pkg=linux-image-${1:-$KLINE}-amd64
	dpkg-query -W -f='${Depends}\n' "$pkg" 2>/dev/null |
		sed -n 's/.*linux-image-\([0-9][^ ,]*-amd64\).*/\1/p' | head -n1
}

# Hash of the test bed's patches to the UML kernel source of $KLINE
# (uml-patches/*.patch for every line, then uml-patches/$KLINE/*.patch).
uml_patches_hash() {
	local p files=()
	# a line without patches of its own: no glob left for cat to fail on
	# (under pipefail, a failing cat ended uml-kernel.sh without a word)
	for p in "$TESTBED"/uml-patches/*.patch "$TESTBED/uml-patches/$KLINE"/*.patch; do
		[ -e "$p" ] && files+=("$p")
	done
	cat "${files[@]}" </dev/null | sha256sum | cut -c1-12
}

# uml_config_missing FRAGMENT CONFIG: fails, naming each, when an option of
# FRAGMENT is not as asked in CONFIG (kunit.py config drops options whose
# dependencies are missing, silently).
uml_config_missing() {
	local line opt missing=0
	while read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qx "$line" "$2" || { tb_log "NOT SET after olddefconfig: $line"; missing=1; } ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			! grep -q "^$opt=" "$2" || { tb_log "SET after olddefconfig: $line"; missing=1; } ;;
		esac
	done <"$1"
	return $missing
}

# tb_bench_config: the benchmark kernel's config fragment, derived from the
# KUnit kernel's (uml-bench-config.sh); prints its path.
tb_bench_config() {
	mkdir -p "$BUILD"
	"$TESTBED/uml-bench-config.sh" "$BUILD/uml-bench.kunitconfig" &&
		echo "$BUILD/uml-bench.kunitconfig"
}

# Source tree of linux-source-$KLINE with the test bed's patches applied,
# unpacked once into the cache (ksrc.sh).
ksrc_dir() {
	local v
	v=$(dpkg-query -W -f='${Version}' "linux-source-$KLINE") || return 1
	echo "$CACHE/linux-source-$v-p$(uml_patches_hash)"
}

# tb_sync_tree DST: copy the source tree to DST for an out-of-place build
# (kbuild writes objects next to the sources). Build products are kept, so
# that builds stay incremental, except where their source directory is gone
# (a moved module): rsync will not delete a directory that still holds
# excluded files, so those are pruned here. Files are compared by content
# and a copied file gets the time of the copy, not its source's: a source
# edited while the last build ran is older than the object built from its
# previous text, and make would keep that object. Quiet on stdout.
tb_sync_tree() {
	local dst=$1 d
	mkdir -p "$dst"
	find "$dst" -mindepth 1 -type d | while read -r d; do
		[ -d "$TOP/${d#"$dst"/}" ] || rm -rf "$d"
	done
	rsync -rlpD --checksum --delete --exclude /build --exclude /.git --exclude '*.o' \
		--exclude '*.ko' --exclude '*.cmd' --exclude '*.mod*' --exclude '*.order' \
		--exclude '*.symvers' --exclude '*.o.d' "$TOP/" "$dst/" >&2
	# A module whose source is gone must not be found by the test bed.
	find "$dst" -name '*.ko' -delete
}

# Accumulated results: each runner appends "<passed> <failed> <skipped> <what>".
RESULTS=${MLX5_UMR_RESULTS:-}
tb_result() {
	[ -n "$RESULTS" ] && echo "$1 $2 $3 $4" >>"$RESULTS"
	echo "testbed: $4: $1 passed, $2 failed, $3 skipped" >&2
}

# The kernel reports that fail a run (judge-kernel-log.sh), as one ERE.
TB_KERNEL_REPORTS='BUG:|WARNING:|Kernel panic|Oops|Call Trace|UBSAN:|KASAN|unreferenced object|possible circular locking|inconsistent lock state|INFO: task .* blocked|general protection|FAILED$'

# tb_uml_boot LOG SECONDS UML_BINARY ARGS...: boot UML, its console in LOG;
# returns UML's exit code (124 on timeout). Rarely, the UML process aborts
# (os_dump_core(), exit 134) after the kernel printed "reboot: System
# halted", while it kills its host helper processes: the run was whole by
# then (end marker printed, nothing after it but the halt). That case is
# booted once more, the first log kept as LOG.first; twice is returned.
# Likewise, rarely (one boot in forty on an AMD EPYC host, fewer on the
# AMX ones; while insmod loaded a module, or after the last test while
# the modules were removed), the UML kernel stops making progress and
# prints nothing until the timeout: no hung-task report although the
# kernel has the detector (uml.kunitconfig: 60 s, well inside the
# timeout), so its timers stopped, not a task of ours (the one caught with
# gdb: UML 6.1 unmapping a live stack page in a kernel TLB flush, fixed by
# uml-patches/6.1/0002; the retry stays for any other). A timeout whose log
# holds no kernel report and no failed case after our init started is
# booted again, up to TB_UML_BOOTS boots in all (logs kept as LOG.stallN);
# one more such hang, or a hang with a report or after a failed case, is
# returned as is.
TB_UML_BOOTS=3
tb_uml_boot() {
	local log=$1 secs=$2 rc ours boot=1
	shift 2
	while :; do
		( timeout "$secs" "$@" </dev/null >"$log" 2>&1; exit $? ) 2>/dev/null
		rc=$?
		# what the kernel printed before our init ran is its own
		ours=$(sed -n '/MLX5_UMR_TESTBED: loading/,$p' "$log")
		if [ "$rc" -ne 124 ] || [ "$boot" -ge "$TB_UML_BOOTS" ] ||
		   grep -Eq "$TB_KERNEL_REPORTS|^[[:space:]]*not ok [0-9]" <<<"$ours"; then
			break
		fi
		echo "testbed: UML stopped without a report; booting again (log kept: $log.stall$boot)"
		mv "$log" "$log.stall$boot"
		boot=$((boot + 1))
	done
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] &&
	   grep -q 'MLX5_UMR_TESTBED: done' "$log" &&
	   grep -Eqx 'reboot: (System halted|Power down)' \
		<<<"$(sed '/^[[:space:]]*$/d' "$log" | tail -n 1)"; then
		echo "testbed: UML exited $rc after halting; booting once more (first log: $log.first)"
		mv "$log" "$log.first"
		( timeout "$secs" "$@" </dev/null >"$log" 2>&1; exit $? ) 2>/dev/null
		rc=$?
	fi
	return "$rc"
}

# tb_vm_one NAME SCRIPT: the test build for Debian's kernel of KLINE, the
# VM image (which holds every selftest, SCRIPT among them: make vmtest runs
# it too) and a boot running only /selftests/SCRIPT; prints the result line
# "NAME on <kernel>" and returns the VM's status.
tb_vm_one() {
	local name=$1 script=$2 K tree vm log out rc p f s
	K=$(debian_kver)
	[ -n "$K" ] || tb_die "cannot tell the Debian kernel version of $KLINE"
	tree=$("$TESTBED/debian-modules.sh" "$K" MLX5_UMR_TESTING=1) ||
		{ tb_result 0 1 0 "$name build $K"; return 1; }
	vm=$BUILD/$name-$KLINE
	rm -rf "$vm"; mkdir -p "$vm/selftests"
	"$TESTBED/vm-initramfs.sh" "$K" "$tree" "$vm/selftests" "$vm/initrd.cpio.gz" ||
		tb_die "initramfs build failed"
	mkdir -p "$BUILD/logs"
	log=$BUILD/logs/$name-$KLINE.log
	out=$("$TESTBED/vm-run.sh" "$K" "$vm/initrd.cpio.gz" "$log" ONLY="$script")
	rc=$?
	echo "$out"
	read -r _ p f s < <(grep '^VM ' <<<"$out")
	tb_result "$p" "$f" "$s" "$name on $K (log: $log)"
	return "$rc"
}
