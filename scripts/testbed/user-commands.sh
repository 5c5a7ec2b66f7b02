#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Every command README.md and Documentation/ tell a user to run has a row in
# Documentation/testbed.rst's "User-facing commands" table naming the check
# of make check that runs it, and every make target named exists. The
# commands that no other step runs (make install-headers, make -C tools
# install, make && make install) are run here, into a staging root. A command added to a page without a
# row, or a row whose target is gone, fails make check: none can break
# silently again.
#   user-commands.sh [--table-only]
set -uo pipefail
. "$(dirname "$0")/lib.sh"
table=$TOP/Documentation/testbed.rst
start='.. user-commands-start' end='.. user-commands-end'

# The commands the pages show, one key a line ("make bench", "umrctl info",
# "modprobe mlx5_umr_hw", "scripts/testbed/soak.sh"): make's variables
# and every argument after a command's verb are dropped.
shown() {
	{
		# Fenced blocks of the README, whole lines (comments cut).
		awk '/^```/ { f = !f; next } f { sub(/[[:space:]]+#.*/, ""); print }' "$TOP/README.md"
		# Inline literals of the README and the pages.
		grep -ohE '`[^`]+`' "$TOP/README.md" | tr -d '`'
		grep -ohE '``[^`]+``' "$TOP"/Documentation/*.rst | sed 's/``//g'
		# Literal blocks (after "::") of the pages: root prompts and
		# commands.
		awk '/::$/ { want = 1; next } want && /^$/ { next }
			want && /^  / { print; next } { want = 0 }' "$TOP"/Documentation/*.rst |
			sed -n 's/^[[:space:]]*\(# \)\{0,1\}\(\(make\|umrctl\|modprobe\|dkms\|apt\|apt-get\) .*\)/\2/p'
	} | sed 's/ && /\n/g' | awk '
	{
		n = 0
		for (i = 1; i <= NF; i++)
			if ($i !~ /^[A-Z][A-Z0-9_]*=/) w[++n] = $i
		if (n == 0) next
		c = w[1]
		if (c == "make") {
			k = "make"
			for (i = 2; i <= n; i++) if (w[i] !~ /^-/) { k = k " " w[i]; break }
			else if (w[i] == "-C") { k = k " -C " w[i + 1]; i++ }
			print k
		} else if (c == "umrctl" && n > 1) {
			for (i = 2; i < n && w[i] == "-d"; i += 2);
			print c " " w[i]
		} else if (c ~ /^(modprobe|dkms|apt|apt-get)$/ && n > 1) {
			print c " " w[2]
		} else if (c ~ /^(scripts|selftests|tools)\/.*\.sh$/) {
			print c
		}
		delete w
	}' | sort -u | while read -r c; do
		# A helper that is sourced is named, not run.
		case "$c" in */*.sh) ! grep -qs 'sourced, not run' "$TOP/$c" || continue ;; esac
		echo "$c"
	done
}

rows() {	# the table's first column
	awk -v s="$start" -v e="$end" '$0 == s { f = 1; next } $0 == e { f = 0 } f' "$table" |
		sed -n 's/^``\([^`]*\)``.*/\1/p' | sort -u
}

fail=0 pass=0
grep -qx -- "$start" "$table" && grep -qx -- "$end" "$table" ||
	tb_die "$table lacks the '$start' / '$end' markers"
mapfile -t missing < <(comm -23 <(shown) <(rows))
for c in "${missing[@]}"; do
	tb_log "user command '$c' is shown in README.md or Documentation/ but has no row in testbed.rst"
	fail=$((fail + 1))
done
# Every make target the table names exists; every script it names is there.
while read -r c; do
	case "$c" in
	"make -C "*) ;;
	"make "*)
		t=${c#make }
		grep -qE "^([^:#]* )?$t( [^:]*)?:" "$TOP/Makefile" ||
			{ tb_log "make target '$t' of testbed.rst does not exist"; fail=$((fail + 1)); } ;;
	scripts/*|selftests/*|tools/*)
		[ -x "$TOP/$c" ] || { tb_log "'$c' of testbed.rst is not an executable file"; fail=$((fail + 1)); } ;;
	esac
done < <(rows)
[ ${#missing[@]} -gt 0 ] || pass=$((pass + 1))
if [ "${1:-}" = --table-only ]; then	# (the table alone, seconds)
	tb_result $pass $fail 0 "user-facing commands (testbed.rst table)"
	[ $fail -eq 0 ]; exit
fi

# The installs no other step runs, as the README gives them.
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
if make -s -C "$TOP" install-headers DESTDIR="$dest" PREFIX=/usr >/dev/null &&
	echo '#include <linux/mlx5_umr.h>' | gcc -fsyntax-only -I"$dest/usr/include" -x c -; then
	pass=$((pass + 1))
else
	tb_log "make install-headers did not install a usable header"; fail=$((fail + 1))
fi
if make -s -C "$TOP/tools" install DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1 &&
	[ -x "$dest/usr/bin/umrctl" ] && "$dest/usr/bin/umrctl" --help >/dev/null 2>&1 &&
	PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_LIBDIR=$(dirname "$(find "$dest" -name mlx5umr.pc | head -n1)") \
		pkg-config --exists mlx5umr; then
	pass=$((pass + 1))
else
	tb_log "make -C tools install did not install umrctl and mlx5umr.pc"; fail=$((fail + 1))
fi
make -s -C "$TOP/tools" clean >/dev/null 2>&1
# make && make install, from a copy (kbuild writes next to the sources),
# into a staging root: the production modules and their depmod index.
copy=$BUILD/user-install/src
tb_sync_tree "$copy"
kver=$(debian_kver)
if make -s -C "$copy" KDIR="/lib/modules/$kver/build" >"$BUILD/user-install/make.log" 2>&1 &&
	make -s -C "$copy" KDIR="/lib/modules/$kver/build" install INSTALL_MOD_PATH="$dest" \
		DESTDIR="$dest" PREFIX=/usr >>"$BUILD/user-install/make.log" 2>&1 &&
	mods=$(find "$dest/lib/modules/$kver/updates/mlx5-umr" -name '*.ko' -printf '%f\n' | sort | tr '\n' ' ') &&
	[ "$mods" = "mlx5_umr.ko mlx5_umr_hw.ko " ] &&
	grep -q 'updates/mlx5-umr/.*mlx5_umr_hw.ko:.*mlx5_umr.ko' "$dest/lib/modules/$kver/modules.dep"; then
	pass=$((pass + 1))
else
	tb_log "make && make install: not the production modules with their dependencies (${mods:-none}; log: $BUILD/user-install/make.log)"
	fail=$((fail + 1))
fi
tb_result $pass $fail 0 "user-facing commands (testbed.rst table; installs)"
[ $fail -eq 0 ]
