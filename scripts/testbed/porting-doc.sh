#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The porting guide's code compiles: the ".. code-block:: c" blocks of
# Documentation/porting.rst, in order, are one C file; it is built as a
# module (W=1, -Werror) against the Debian headers of each kernel line, and
# every mlx5_umr_* symbol it calls must be one the service exports. The
# guide's own static functions are referenced once so that none is
# "defined but not used"; the one function the guide leaves to the ULP
# (port_send_command(), its SEND) gets an empty body.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
doc=$TOP/Documentation/porting.rst
pass=0 fail=0
out=$BUILD/porting-doc
rm -rf "$out"; mkdir -p "$out"
src=$out/porting_doc.c
awk '
/^\.\. code-block:: c$/ { want = 1; inblk = 0; next }
want && /^$/ { if (inblk) print ""; next }
want && /^   / { inblk = 1; print substr($0, 4); next }
{ if (want && inblk) print ""; want = 0; inblk = 0 }' "$doc" >"$src"
[ -s "$src" ] || { tb_result 0 1 0 "porting-doc: no code blocks in porting.rst"; exit 0; }
{
	echo
	echo "/* appended by scripts/testbed/porting-doc.sh */"
	echo "static void port_send_command(struct port_request *req) { }"
	echo "static void *const port_doc_used[] __used = {"
	grep -oE '^static [a-z_ ]+[ *]+(port_[a-z0-9_]+)\(' "$src" |
		sed -E 's/.*[ *](port_[a-z0-9_]+)\(/\1/' | sort -u | grep -vx port_send_command |
		sed 's/.*/\t&,/'
	echo "};"
} >>"$src"
echo "obj-m := porting_doc.o" >"$out/Kbuild"
echo "ccflags-y := -I$TOP/include -Werror" >>"$out/Kbuild"
exported=$(grep -rhoE 'EXPORT_SYMBOL(_GPL)?\((mlx5_umr_[a-z0-9_]+)\)' "$TOP/drivers/umr" |
	sed -E 's/.*\((.*)\)/\1/' | sort -u)
for line in $KLINES; do
	kver=$(debian_kver "$line")
	kdir=/lib/modules/$kver/build
	if [ -z "$kver" ] || [ ! -d "$kdir" ]; then
		tb_result 0 1 0 "porting-doc $line: no headers for the Debian $line kernel"
		continue
	fi
	log=$out/build-$line.log
	make -C "$out" clean >/dev/null 2>&1 || true
	rm -f "$out"/*.o "$out"/*.ko "$out"/*.mod* "$out"/Module.symvers "$out"/.*.cmd
	if ! make -C "$kdir" M="$out" W=1 KBUILD_MODPOST_WARN=1 modules >"$log" 2>&1; then
		cat "$log"; tb_result 0 1 0 "porting-doc $line: porting.rst's code does not build (log: $log)"
		continue
	fi
	bad=0
	for s in $(grep -oE 'undefined!?.*"(mlx5_umr_[a-z0-9_]+)"' "$log" |
		sed -E 's/.*"(mlx5_umr_[a-z0-9_]+)".*/\1/'; \
		nm -u "$out/porting_doc.o" | awk '{print $2}' | grep '^mlx5_umr_'); do
		grep -qx "$s" <<<"$exported" || { echo "porting-doc: $s is not exported by the service" >&2; bad=1; }
	done
	if grep -E 'warning:|error:' "$log"; then bad=1; fi
	if [ $bad -eq 0 ]; then
		tb_result 1 0 0 "porting-doc $line: porting.rst's code builds (W=1)"
	else
		tb_result 0 1 0 "porting-doc $line (log: $log)"
	fi
done
