#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The uapi's ABI does not move: every line of the frozen table
# (scripts/testbed/uapi-abi-v1.txt: each field's offset and size, each
# ioctl's number, each structure's first-version size, the ABI version)
# must be printed unchanged by a C program compiled against
# uapi/linux/mlx5_umr.h. Additions (new fields at the end, new ioctls) are
# allowed and listed; a field that moved or changed size, an ioctl number
# that changed or went to another name, fails. The program is generated
# from the header, so that no hand-kept list can move along with it.
#
# MLX5_UMR_ABI_HEADER=file checks another header (to show a failure).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
hdr=${MLX5_UMR_ABI_HEADER:-$TOP/uapi/linux/mlx5_umr.h}
table=$TESTBED/uapi-abi-v1.txt
tmp=$(mktemp -d "${TMPDIR:-/tmp}/uapi-abi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/linux"
cp "$hdr" "$tmp/linux/mlx5_umr.h"

# Each member of each struct mlx5_umr_ioc_*: one member per line,
# "type name;" or "type name[N];" (the header's style).
{
	echo '#include <linux/mlx5_umr.h>'
	echo '#include <stdio.h>'
	echo '#include <stddef.h>'
	echo '#define F(s, f) printf("field %s.%s %zu %zu\n", #s, #f, offsetof(struct s, f), sizeof(((struct s *)0)->f))'
	echo '#define N(n) printf("const %s 0x%llx\n", #n, (unsigned long long)(n))'
	echo 'int main(void)'
	echo '{'
	awk '
	/^struct mlx5_umr_ioc_[a-z0-9_]+ \{/ { s = $2; next }
	/^\};/ { s = ""; next }
	s != "" {
		sub(/\/\*.*\*\//, ""); sub(/\/\/.*/, "")
		if ($0 !~ /;/) next
		line = $0; sub(/;.*/, "", line); sub(/\[.*\]/, "", line)
		n = split(line, w, /[ \t]+/); f = w[n]
		printf "\tF(%s, %s);\n", s, f
	}' "$hdr"
	# ioctl numbers, first-version sizes, the ABI version
	grep -oE '^#define (MLX5_UMR_IOCTL_[A-Z0-9_]+|MLX5_UMR_IOC_[A-Z0-9_]+_SIZE_VER1|MLX5_UMR_ABI_VERSION)\b' "$hdr" |
		awk '{ printf "\tN(%s);\n", $2 }'
	echo '	return 0;'
	echo '}'
} >"$tmp/abi.c"
if ! gcc -std=c11 -Wall -Werror -I"$tmp" -o "$tmp/abi" "$tmp/abi.c" ||
   ! "$tmp/abi" | sort >"$tmp/now.txt"; then
	tb_result 0 1 0 "uapi ABI (the layout program does not build or run)"
	exit 1
fi
grep -v '^#' "$table" | sort >"$tmp/frozen.txt"
missing=$(comm -23 "$tmp/frozen.txt" "$tmp/now.txt")
added=$(comm -13 "$tmp/frozen.txt" "$tmp/now.txt" |
	grep -vwFf <(awk '{print $2}' <<<"$missing") || true)
[ -z "$added" ] || { echo "uapi-abi: added since version 1 (allowed):"; sed 's/^/  /' <<<"$added"; }
if [ -n "$missing" ]; then
	echo "uapi-abi: version 1 lines no longer true (a field moved or resized, an ioctl renumbered):"
	sed 's/^/  /' <<<"$missing"
	echo "uapi-abi: the header now says:"
	for k in $(awk '{print $2}' <<<"$missing"); do
		grep -E "^[a-z]+ $k " "$tmp/now.txt" | sed 's/^/  /' || echo "  $k: gone"
	done
	tb_result $(($(wc -l <"$tmp/frozen.txt") - $(wc -l <<<"$missing"))) "$(wc -l <<<"$missing")" 0 "uapi ABI version 1 (frozen layout table)"
	exit 1
fi
tb_result "$(wc -l <"$tmp/frozen.txt")" 0 0 "uapi ABI version 1 (frozen layout table)"
