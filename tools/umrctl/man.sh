#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# umrctl.1 from umrctl's own help, its one source: help2man formats
# `umrctl --help`, and each command's `umrctl help COMMAND` becomes an
# entry of COMMANDS.
#   man.sh UMRCTL VERSION OUT
set -eu
umrctl=$1 version=$2 out=$3
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
inc=$d/include
# help2man reads `umrctl --help` up to its list of commands: COMMANDS
# below gives each command whole, which help2man would reflow.
mkdir "$d/bin"
cat >"$d/bin/umrctl" <<EOT
#!/bin/sh
"$(realpath "$umrctl")" --help | sed '/^commands:/,\$d'
EOT
chmod +x "$d/bin/umrctl"
# roff: a leading dot or quote would be a request, a backslash an escape.
roff() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }
{
	echo '[DESCRIPTION]'
	echo 'umrctl drives the character devices of the mlx5-umr UMR service'
	echo '(/dev/mlx5_umr/*) through libmlx5umr: it registers memory, allocates'
	echo 'and configures indirect mkeys (plain, signature, crypto) and shows'
	echo 'what the HCA did. Objects live as long as the open file, so one'
	printf '%s\n' 'invocation runs one command, or a script of commands with \fB\-b\fR.'
	echo '[COMMANDS]'
	"$umrctl" --help | sed -n '/^commands:/,/^.umrctl COMMAND/p' |
		sed -n 's/^  \([a-z][a-z-]*\).*/\1/p' | awk '!seen[$0]++' |
	while read -r c; do
		# usage lines (bold) up to the first blank line, then the help
		echo '.TP'
		echo ".B $c"
		echo '.nf'
		"$umrctl" help "$c" | sed '1s/^usage: //' | roff |
			awk 'u && /^$/ { u = 0; print ""; next }
			     u { print "\\fB" $0 "\\fR"; next } { print }' u=1
		echo '.fi'
	done
	echo '[EXIT STATUS]'
	echo '0 on success, 1 when a command failed (its errno name is printed),'
	echo '2 on a command line that could not be parsed.'
	echo '[FILES]'
	echo '.TP'
	echo '.I /dev/mlx5_umr/*'
	echo 'one character device per HCA the service runs on; who may open it is'
	echo 'set by a udev rule (an example: 90-mlx5-umr.rules in the package'"'"'s'
	echo 'documentation).'
	echo '[SEE ALSO]'
	echo '.BR mlx5dv_create_mkey (3),'
	echo '.BR mlx5dv_wr_set_mkey_layout_list (3),'
	echo '.BR mlx5dv_wr_set_mkey_sig_block (3),'
	echo '.BR mlx5dv_dek_create (3)'
} >"$inc"
help2man -N -n 'drive the mlx5-umr UMR service from the command line' \
	--version-string="$version" --include="$inc" -o "$out" "$d/bin/umrctl"
