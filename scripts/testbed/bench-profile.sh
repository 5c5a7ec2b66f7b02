#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# make bench-profile: run the benchmark's batched path alone (profile mode of
# mlx5_umr_bench.ko: null device, one layout, one batch size) in the UML
# kernel without sanitizers, under host `perf record -e cpu-clock`, and print
# where the time goes, per function. UML runs the guest kernel in a host
# process, so perf samples its code directly; module addresses are resolved
# with the guest's /proc/kallsyms, saved while the modules are loaded.
#
# Environment: PROFILE_LAYOUT (index in the bench's layout table, 0 = list 1),
# PROFILE_BATCH (32), PROFILE_SEC (5), PROFILE_TOP (40 lines).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
"$TESTBED/deps.sh" -t bench-profile linux-perf
layout=${PROFILE_LAYOUT:-0} batch=${PROFILE_BATCH:-32}
# PROFILE_UAPI=1: instead, MLX5_UMR_IOCTL_BATCH of 32 list-1 configures from
# tests/bench/uapi_bench against the module's null device.
uapi=${PROFILE_UAPI:-}
sec=${PROFILE_SEC:-5} top=${PROFILE_TOP:-40}

cfg=$(tb_bench_config)
uml=$("$TESTBED/uml-kernel.sh" "$cfg")
tree=$(MLX5_UMR_BUILD=$BUILD/bench "$TESTBED/uml-modules.sh" "$uml" MLX5_UMR_BENCH=1)
mods=$("$TESTBED/kunit-modules.sh" "$tree" "$tree/tests/bench/mlx5_umr_bench.ko")
kmodargs="mlx5_umr_bench:profile_sec=$sec:profile_layout=$layout:profile_batch=$batch"
if [ -n "$uapi" ]; then
	make -s -C "$TOP/tests/bench" uapi_bench >&2 || tb_die "uapi_bench build failed"
	kmodargs="mlx5_umr_bench:uapi=2"
fi
out=$BUILD/profile
mkdir -p "$out"
rm -f "$out/kallsyms" "$out/perf.data"
log=$out/uml.log
tb_log "profiling layout $layout, batch $batch, for ${sec}s (log: $log)"
rc=0
perf record -q -e cpu-clock -F 20000 -o "$out/perf.data" -- taskset -c "$(($(nproc) - 1))" \
	"$uml/linux" mem=512M root=/dev/root rootfstype=hostfs rootflags=/ rw \
	init="$TESTBED/uml-init.sh" KMODS="$mods" KALLSYMS="$out/kallsyms" \
	KMODARGS="$kmodargs" ${uapi:+KRUN=$TOP/tests/bench/uapi_bench.sh UAPI_PROFILE_SEC=$sec} \
	</dev/null >"$log" 2>&1 || rc=$?
[ $rc -eq 0 ] || tb_die "UML exited $rc (log: $log)"
grep -q 'BENCH|done' "$log" || tb_die "the profile run failed (log: $log)"
[ -s "$out/kallsyms" ] || tb_die "no kallsyms from the guest (log: $log)"
sed -n 's/^.*BENCH|profile|//p' "$log"

# Every sample's address, resolved against the guest's symbol table; the
# rest is the host kernel (UML's signals and ptrace) or boot, shown apart.
perf script -i "$out/perf.data" -F ip 2>/dev/null |
python3 -c '
import bisect, sys
syms = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 3 and f[1] in "tTwW":
        syms.append((int(f[0], 16), f[2] + (" " + f[3] if len(f) > 3 else "")))
syms.sort()
addrs = [a for a, _ in syms]
count, guest, other = {}, 0, 0
for line in sys.stdin:
    try:
        ip = int(line.split()[0], 16)
    except (IndexError, ValueError):
        continue
    i = bisect.bisect_right(addrs, ip) - 1
    if i < 0 or ip - addrs[i] >= 1 << 20:
        other += 1
        continue
    count[syms[i][1]] = count.get(syms[i][1], 0) + 1
    guest += 1
print("%d samples in the guest kernel (%d elsewhere, not shown)" % (guest, other))
for name, n in sorted(count.items(), key=lambda kv: -kv[1])[:int(sys.argv[2])]:
    print("%6.2f%%  %s" % (100.0 * n / guest, name))
' "$out/kallsyms" "$top"
