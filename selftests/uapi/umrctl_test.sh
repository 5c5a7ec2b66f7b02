#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# umrctl on a fake HCA: --help of every subcommand, human and --json
# output, batch sessions, expected failures and usage errors (KTAP).
UMRCTL=${UMRCTL:-$(command -v umrctl)}
[ -x "$UMRCTL" ] || UMRCTL=$(dirname "$0")/../../tools/umrctl/umrctl
T=$(mktemp -d)
# Unload at exit what this script loads.
[ -d /sys/module/mlx5_umr ] || unload_svc=1
[ -d /sys/module/mlx5_umr_fake ] || unload_fake=1
cleanup() {
	rm -rf "$T"
	[ -z "$unload_fake" ] || rmmod mlx5_umr_fake
	[ -z "$unload_svc" ] || rmmod mlx5_umr
}
trap cleanup EXIT
n=0 pass=0 fail=0

# The umrctl examples of Documentation/ as written (doc-examples.sh made
# them at install), from a copy of the source tree's tools/demo.
EX=$(dirname "$0")/doc-examples
[ -d "$EX" ] || { EX=$T/doc-examples; "$(dirname "$0")/doc-examples.sh" "$EX" \
	"$(dirname "$0")"/../../Documentation/*.rst; }
nex=$(ls "$EX"/*.sh 2>/dev/null | wc -l)

echo "TAP version 13"
echo "1..$((37 + nex))"
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		pass=$((pass + 1)); echo "ok $n $2"
	else
		fail=$((fail + 1)); echo "not ok $n $2"
		tail -n 25 "$T/out" 2>/dev/null | sed 's/^/# /'
	fi
}

modprobe mlx5_umr_fake 2>/dev/null
i=0
while ! ls /dev/mlx5_umr/fake* >/dev/null 2>&1 && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
done
dev=$(basename "$(ls -d /dev/mlx5_umr/fake* | head -n 1)")

for c in info reg alloc dek configure invalidate set-pd check destroy dump poke write read; do
	"$UMRCTL" "$c" --help >"$T/out" 2>&1 && grep -q "^usage: umrctl $c" "$T/out"
	ok $? "$c --help"
done

"$UMRCTL" --help >"$T/out" 2>&1 && grep -q '^commands:' "$T/out"
ok $? "--help"

"$UMRCTL" frobnicate >"$T/out" 2>&1
[ $? = 2 ]
ok $? "unknown command: exit 2"

"$UMRCTL" -d "$dev" reg mr --length 4096 --bogus 1 >"$T/out" 2>&1
[ $? = 2 ] && grep -q "unknown option --bogus" "$T/out"
ok $? "unknown option: exit 2"

"$UMRCTL" -d "$dev" -j info >"$T/out" 2>&1 &&
	grep -q "\"device\":\"$dev\"" "$T/out" && grep -q '"fake":true' "$T/out"
ok $? "info --json"

# The seed's interleaved example, with every landed range checked.
cat >"$T/seed" <<'CMDS'
reg mr1 --length 4096 --fill 0xee
reg mr2 --length 4096 --fill 0xee
alloc mk --max-entries 4
configure interleaved mk --repeat 2 mr1:512:4 mr2:8:0
write mk --length 1040 --pattern offset
dump mr1 --offset 0 --length 512 --expect 0
dump mr1 --offset 512 --length 4 --pattern 0xee --expect 0
dump mr2 --offset 0 --length 8 --expect 512
dump mr1 --offset 516 --length 512 --expect 520
dump mr2 --offset 8 --length 8 --expect 1032
! configure interleaved mk --repeat 2 mr1:512:4 mr2+4090:8:0
! destroy mr1
invalidate mk
! write mk --length 16
CMDS
"$UMRCTL" -d "$dev" -b "$T/seed" >"$T/out" 2>&1
urc=$?
[ $urc = 0 ] && [ "$(grep -c '^bytes .* -> .*: ok (' "$T/out")" = 5 ] &&
	grep -q '^bytes 520..1031 -> mr1+516..1027: ok' "$T/out" &&
	grep -q 'rejected as expected: ERANGE' "$T/out" &&
	grep -q 'rejected as expected: EBUSY' "$T/out" &&
	grep -q 'rejected as expected: EIO' "$T/out"
rc=$?
[ $rc = 0 ] || echo "# umrctl exited $urc"
ok $rc "seed interleaved session"

# --json: one object per command; a wrong landing fails the dump.
printf '%s\n' 'reg a --length 64' 'alloc m --max-entries 2' \
	'configure list m a+8:16' 'write m --length 16' \
	'dump a --offset 8 --length 16 --expect 0' \
	'! dump a --offset 0 --length 16 --expect 0' >"$T/json"
"$UMRCTL" -d "$dev" -j -b "$T/json" >"$T/out" 2>&1 &&
	[ "$(grep -c '^{"cmd":' "$T/out")" = 7 ] &&
	grep -q '"mismatches":0' "$T/out" &&
	grep -q '"expected_failure":true,"error":"EIO"' "$T/out"
ok $? "batch --json"

# --new-key: configure and invalidate report a new key of the same mkey.
printf '%s\n' 'reg a --length 64' 'alloc m --max-entries 2' \
	'configure list m --new-key a:16' 'write m --length 16' \
	'invalidate m --new-key' >"$T/nk"
"$UMRCTL" -d "$dev" -j -b "$T/nk" >"$T/out" 2>&1
k0=$(sed -n 's/.*"cmd":"alloc".*"key":\([0-9]*\).*/\1/p' "$T/out")
k1=$(sed -n 's/.*"cmd":"configure".*"key":\([0-9]*\).*/\1/p' "$T/out")
k2=$(sed -n 's/.*"cmd":"invalidate".*"key":\([0-9]*\).*/\1/p' "$T/out")
[ -n "$k0" ] && [ -n "$k1" ] && [ -n "$k2" ] &&
	[ "$k0" != "$k1" ] && [ "$k1" != "$k2" ] &&
	[ $((k0 >> 8)) = $((k1 >> 8)) ] && [ $((k1 >> 8)) = $((k2 >> 8)) ] &&
	grep -q '"cmd":"write".*"status":0' "$T/out"
rc=$?
[ $rc = 0 ] || cat "$T/out"
ok $rc "configure and invalidate --new-key"

# An expected failure that succeeds, and a real failure, stop the batch.
printf '%s\n' 'reg a --length 64' '! reg b --length 64' 'info' >"$T/b1"
"$UMRCTL" -d "$dev" -b "$T/b1" >"$T/out" 2>&1
[ $? != 0 ] && grep -q 'expected to fail' "$T/out" && ! grep -q '^device' "$T/out"
ok $? "unexpected success fails the batch"

printf '%s\n' 'alloc m --max-entries 0' 'info' >"$T/b2"
"$UMRCTL" -d "$dev" -b "$T/b2" >"$T/out" 2>&1
[ $? = 1 ] && grep -q 'alloc: EINVAL' "$T/out" && ! grep -q '^device' "$T/out"
ok $? "failure stops the batch with exit 1"

# Consecutive configure/invalidate lines go as one batch: one completion
# for three configures and one for three invalidates (the registration is
# one more), where one by one they would take seven.
cnt=/sys/kernel/debug/mlx5_umr_fake/$dev/counters
cqes() { awk '$1 == "cqes" { print $2 }' "$cnt" 2>/dev/null; }
printf '%s\n' 'reg r --length 4096 --fill 0' 'alloc a --max-entries 1' \
	'alloc b --max-entries 1' 'alloc c --max-entries 1' \
	'configure list a r:64' 'configure list b r+64:64' \
	'configure list c r+128:64' 'invalidate a' 'invalidate b' \
	'invalidate c' 'configure list c r+128:64' \
	'write c --length 64 --pattern offset' \
	'dump r --offset 128 --length 64 --expect 0' >"$T/batch"
c0=$(cqes)
"$UMRCTL" -d "$dev" -b "$T/batch" >"$T/out" 2>&1
urc=$?
c1=$(cqes)
[ $urc = 0 ] && [ "$(grep -c '^c: list of 1 entries, 64 bytes' "$T/out")" = 2 ] &&
	[ "$(grep -c ': invalidated$' "$T/out")" = 3 ] &&
	grep -A1 '^# configure list b r+64:64$' "$T/out" |
		grep -q '^b: list of 1 entries, 64 bytes' &&
	grep -A1 '^# invalidate c$' "$T/out" | grep -q '^c: invalidated' &&
	grep -q '^bytes .*: ok' "$T/out" &&
	{ [ -z "$c0" ] || [ $((c1 - c0)) -le 5 ]; }
rc=$?
echo "# cqes $c0 -> $c1 (batched; one by one would be 7 more than the registration)"
[ $rc = 0 ] || echo "# umrctl exited $urc"
ok $rc "consecutive lines as one batch (output in script order)"

# A refused batch applied nothing: its lines run one by one, so the line
# before the bad one succeeds and the bad one fails, as without batching.
printf '%s\n' 'reg r --length 4096' 'alloc a --max-entries 1' \
	'alloc b --max-entries 1' 'configure list a r:64' \
	'configure list b r+4090:64' 'info' >"$T/refused"
"$UMRCTL" -d "$dev" -b "$T/refused" >"$T/out" 2>&1
[ $? = 1 ] && grep -q '^a: list of 1 entries, 64 bytes' "$T/out" &&
	grep -q 'configure: ERANGE' "$T/out" &&
	grep -q 'refused:5: failed' "$T/out" && ! grep -q '^device' "$T/out"
ok $? "refused batch: the lines run one by one"

# A session in a consumer's PD (the fake's alloc_pd stands in for the
# caller's ibv_alloc_pd()): its keys are read by a QP of that PD only. A
# bare PD number needs the module's unverified_set_pd (off by default:
# EPERM), which the test sets and puts back.
dbg=/sys/kernel/debug/mlx5_umr_fake/$dev
unv=/sys/module/mlx5_umr/parameters/unverified_set_pd
unv0=$(cat "$unv" 2>/dev/null)
if [ -w "$dbg/alloc_pd" ]; then
	rc=0
	if [ -n "$unv0" ]; then
		echo N >"$unv"
		"$UMRCTL" -d "$dev" set-pd 1 >"$T/out" 2>&1 && rc=1
		grep -q EPERM "$T/out" || rc=1
		echo Y >"$unv"
	fi
	ok $rc "set-pd: a bare number refused by default (EPERM)"
	before=$(cat "$dbg/pds")
	echo 1 >"$dbg/alloc_pd"
	pdn=$(cat "$dbg/pds" | grep -vxF "$before" | head -n 1)
	printf '%s\n' "set-pd $pdn" 'reg r --length 4096' 'alloc m --max-entries 1' \
		'configure list m r:64' "! set-pd $pdn" 'info' >"$T/pd"
	"$UMRCTL" -d "$dev" -j -b "$T/pd" >"$T/out" 2>&1 &&
		grep -q "\"cmd\":\"set-pd\",\"pdn\":$pdn" "$T/out" &&
		grep -q 'EBUSY' "$T/out"
	rc=$?
	echo "$pdn" >"$dbg/free_pd" || rc=1
else
	rc=0; echo "# no debugfs"
	ok 0 "set-pd: a bare number refused by default # SKIP no debugfs"
fi
ok $rc "set-pd: a session in the caller's PD"

"$UMRCTL" -d "$dev" -b - >"$T/out" 2>&1 <<'CMDS'
! set-pd 0
! set-pd 16777216
reg r --length 4096
! set-pd 4000
CMDS
[ $? = 0 ] && [ "$(grep -c 'rejected as expected: EINVAL' "$T/out")" = 2 ] &&
	grep -q 'rejected as expected: EBUSY' "$T/out"
ok $? "set-pd refusals"
[ -z "$unv0" ] || echo "$unv0" >"$unv"

# A signature mkey: T10-DIF inserted on write (block 1's ref tag is 8,
# remapped), stripped on read, a corrupted byte found by check with its
# block; --sig and check lines run alone, not in a batch.
cat >"$T/sig" <<'CMDS'
reg buf --length 4096 --fill 0xee
alloc sk --signature --max-entries 4
configure list sk --sig mem=t10dif:crc,wire=none,app=0x1234,ref=7,remap buf:1040
write sk --length 1024 --pattern inc
dump buf --offset 1034 --length 7
read sk --length 1024 --expect 0 --pattern inc --brief
check sk --expect none
poke buf --offset 600 --value 0
read sk --length 1024 --brief
check sk --expect guard@1039
check sk --expect none
! configure list sk --sig mem=t10dif,wire=none,bg=0x1234 buf:1040
! configure list sk --sig mem=none,wire=none buf:1040
configure list sk --reset-sig buf:1040
alloc pk --max-entries 1
! check pk
CMDS
"$UMRCTL" -d "$dev" -b "$T/sig" >"$T/out" 2>&1
urc=$?
[ $urc = 0 ] && grep -q '^sk: indirect mkey with signature' "$T/out" &&
	grep -q '^sk: signature mem=t10dif:crc,wire=none' "$T/out" &&
	grep -q "^buf+1034  *12 34 00 00 00 08 ee" "$T/out" &&
	grep -q '^read 1024 bytes: bytes 0..1023 of the inc pattern: ok' "$T/out" &&
	grep -q '^sk: signature error: bad guard in the block at offset 1039' "$T/out" &&
	[ "$(grep -c '^sk: signature ok' "$T/out")" = 2 ] &&
	[ "$(grep -c 'rejected as expected: EINVAL' "$T/out")" = 3 ] &&
	grep -q '^sk: signature none' "$T/out"
rc=$?
[ $rc = 0 ] || { echo "# umrctl exited $urc"; sed 's/^/# /' "$T/out"; }
ok $rc "signature session"

printf '%s\n' 'reg buf --length 4096' 'alloc sk --signature' \
	'configure list sk --sig mem=crc32c,wire=none buf:1032' \
	'write sk --length 1024' 'check sk' >"$T/sigj"
"$UMRCTL" -d "$dev" -j -b "$T/sigj" >"$T/out" 2>&1 &&
	grep -q '"cmd":"alloc".*"signature":true' "$T/out" &&
	grep -q '"cmd":"configure".*"sig":"mem=crc32c,wire=none"' "$T/out" &&
	grep -q '"cmd":"write".*"sig_error":false' "$T/out" &&
	grep -q '"cmd":"check","name":"sk","sig_error":"none"' "$T/out"
rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$T/out"
ok $rc "signature --json"

# Crypto: IEEE 1619-2007 XTS-AES vector 4 (key1 | key2, then the
# ciphertext of bytes 0..255 twice, data unit 512, tweak 0).
umask 077
# (tools/demo/xts-v4.*, installed next to this script)
V4=$(dirname "$0")
[ -f "$V4/xts-v4.key" ] || V4=$(dirname "$0")/../../tools/demo
cp "$V4/xts-v4.key" "$T/v4.key" && cp "$V4/xts-v4.ct" "$T/v4.ct" ||
	{ echo "Bail out! no IEEE 1619 vector 4 files in $V4"; exit 1; }
# a 256-bit key: vector 4's key1 | key2, then 32 other bytes
{ cat "$T/v4.key"; echo 3141592653589793238462643383279502884197169399375105820974944592; } >"$T/k64"
# no key byte sequence of vector 4 anywhere (hex with or without spaces)
key_seen() {
	grep -qiE '27 ?18 ?28 ?18 ?28 ?45 ?90|23 ?84 ?62 ?64 ?33 ?83 ?27' "$@"
}

"$UMRCTL" -d "$dev" info >"$T/out" 2>&1 &&
	grep -q '^crypto *AES-XTS mkeys, keys of 128 and 256 bits, data units of 512' "$T/out" &&
	grep -q '^deks *0 in this file (at most 1024)' "$T/out" &&
	"$UMRCTL" -d "$dev" -j info >"$T/out" 2>&1 &&
	grep -q '"crypto":true,"crypto_key_sizes":3,' "$T/out" &&
	grep -q '"max_fd_deks":1024,"fd_deks":0,' "$T/out"
ok $? "info: crypto caps"

# Plaintext written through the mkey lands as the standard's ciphertext
# and reads back as plaintext; another tweak gives other ciphertext;
# with encrypt-on-tx the ciphertext written lands as plaintext. The DEK
# is busy while a configured mkey names it.
cat >"$T/crypto" <<CMDS
reg buf --length 4096 --fill 0xee
dek d --key-file $T/v4.key
alloc ck --crypto --max-entries 2
configure list ck --crypto dek=d,dus=512,tweak=0 buf:512
write ck --length 512 --pattern inc
dump buf --length 512 --expect-hex $T/v4.ct --brief
dump buf --offset 512 --length 4 --pattern 0xee --expect 0
read ck --length 512 --expect 0 --pattern inc --brief
configure list ck --crypto dek=d,tweak=1 buf:512
write ck --length 512 --pattern inc
! dump buf --length 512 --expect-hex $T/v4.ct --brief
configure list ck --crypto dek=d,encrypt-on-tx buf:512
write ck --length 512 --data-hex $T/v4.ct
dump buf --length 512 --expect 0 --pattern inc --brief
read ck --length 512 --expect-hex $T/v4.ct --brief
! destroy d
invalidate ck
destroy d
info
CMDS
"$UMRCTL" -d "$dev" -b "$T/crypto" >"$T/out" 2>&1
urc=$?
# the kernel log, which must be there to be searched for the key
klog=
dmesg >"$T/dmesg" && [ -s "$T/dmesg" ] && klog=1
[ $urc = 0 ] && grep -q '^ck: indirect mkey with crypto' "$T/out" &&
	grep -q '^d: DEK handle [0-9]*: AES-XTS key size 128, 32 key bytes read$' "$T/out" &&
	grep -q '^ck: crypto dek=d,dus=512,tweak=0$' "$T/out" &&
	grep -q "^buf+0..511: the 512 bytes of $T/v4.ct: ok" "$T/out" &&
	grep -q '^buf+0  *27 a7 47 9b ef a1 d4 76 48 9f 30 8c d4 cf a6 e2' "$T/out" &&
	[ "$(grep -c '^bytes .* -> .*: ok (' "$T/out")" = 2 ] &&
	grep -q '^read 512 bytes: bytes 0..511 of the inc pattern: ok' "$T/out" &&
	grep -q "^buf+0..511: MISMATCH with $T/v4.ct" "$T/out" &&
	grep -q "^ck+0..511: the 512 bytes of $T/v4.ct: ok" "$T/out" &&
	grep -q 'rejected as expected: EBUSY' "$T/out" &&
	grep -q '^d: destroyed' "$T/out" && grep -q '^deks *0 in this file' "$T/out" &&
	! key_seen "$T/out" && [ -n "$klog" ] && ! key_seen "$T/dmesg"
rc=$?
[ -n "$klog" ] || echo "# no kernel log to search (dmesg failed or empty)"
[ $rc = 0 ] || { echo "# umrctl exited $urc"; sed 's/^/# /' "$T/out"; }
ok $rc "crypto session: IEEE 1619 vector 4 in memory, plaintext on the wire"

# The key from stdin (not in argv); not when stdin holds the script.
"$UMRCTL" -d "$dev" dek d --key-file - <"$T/v4.key" >"$T/out" 2>&1 &&
	grep -q '^d: DEK handle [0-9]*: AES-XTS key size 128, 32 key bytes read$' "$T/out" &&
	tr -d '\n' <"$T/k64" |
	"$UMRCTL" -d "$dev" -j dek d --key-file - >"$T/out" 2>&1 &&
	grep -q '"key_size":256,"key_bytes":64,"keytag":false' "$T/out" &&
	{ printf 'dek d --key-file -\n' | "$UMRCTL" -d "$dev" -b - >"$T/out" 2>&1; [ $? = 2 ]; } &&
	grep -q 'stdin holds the script' "$T/out"
ok $? "dek --key-file -: the key from stdin"

# Neither are hex files from stdin when it holds the script.
{ printf '%s\n' 'reg r --length 64' 'dump r --length 1 --expect-hex -' 00 |
	"$UMRCTL" -d "$dev" -b - >"$T/out" 2>&1; [ $? = 2 ]; } &&
	grep -q 'dump: stdin holds the script: give --expect-hex a file' "$T/out" &&
	{ printf '%s\n' 'reg r --length 64' 'write r --length 1 --data-hex -' 00 |
	"$UMRCTL" -d "$dev" -b - >"$T/out" 2>&1; [ $? = 2 ]; } &&
	grep -q 'write: stdin holds the script: give --data-hex a file' "$T/out" &&
	{ printf '%s\n' 'reg r --length 64' 'read r --length 1 --expect-hex -' 00 |
	"$UMRCTL" -d "$dev" -b - >"$T/out" 2>&1; [ $? = 2 ]; } &&
	grep -q 'read: stdin holds the script: give --expect-hex a file' "$T/out"
ok $? "--expect-hex - and --data-hex -: not the script's stdin"

# A DEK has no key: its name is refused as a key and in a layout entry.
printf '%s\n' "dek d --key-file $T/v4.key" 'write d --length 16' >"$T/dk1"
printf '%s\n' "dek d --key-file $T/v4.key" 'alloc m' 'configure list m d:16' >"$T/dk2"
{ "$UMRCTL" -d "$dev" -b "$T/dk1" >"$T/out" 2>&1; [ $? = 2 ]; } &&
	grep -q 'write: d is a DEK, which has no key' "$T/out" &&
	{ "$UMRCTL" -d "$dev" -b "$T/dk2" >"$T/out" 2>&1; [ $? = 2 ]; } &&
	grep -q "configure: entry 'd:16' names a DEK, which has no key" "$T/out"
ok $? "a DEK's name is no key"

# Refused, with the uapi's errnos: key lengths that are not the key
# size's, an unknown key size, data unit size, standard and order, a
# crypto mkey without crypto, crypto on another mkey, no such DEK.
cut -c1-62 "$T/v4.key" >"$T/k31"
echo "$(cat "$T/v4.key")00" >"$T/k33"
cat >"$T/cref" <<CMDS
! dek k --key-file $T/k31
! dek k --key-file $T/k33 --key-size 128
! dek k --key-file $T/k64 --key-size 128
! dek k --key-file $T/v4.key --key-size 256
! dek k --key-file $T/v4.key --key-size 5
dek d --key-file $T/v4.key
reg buf --length 4096
alloc ck --crypto
alloc pk
! configure list ck --crypto dek=d,dus=7 buf:512
! configure list ck --crypto dek=d,standard=1 buf:512
! configure list ck --crypto dek=d,order=2 buf:512
! configure list ck buf:512
! configure list pk --crypto dek=d buf:512
! configure list ck --crypto dek=999999 buf:512
! write ck --length 16
info
CMDS
"$UMRCTL" -d "$dev" -b "$T/cref" >"$T/out" 2>&1
urc=$?
[ $urc = 0 ] && [ "$(grep -c 'rejected as expected: EINVAL' "$T/out")" = 10 ] &&
	grep -q 'configure: rejected as expected: ENOENT' "$T/out" &&
	grep -q 'write: rejected as expected: EIO' "$T/out" &&
	grep -q '^deks *1 in this file' "$T/out"
rc=$?
[ $rc = 0 ] || { echo "# umrctl exited $urc"; sed 's/^/# /' "$T/out"; }
ok $rc "crypto refusals"

printf '%s\n' 'reg buf --length 4096' "dek d --key-file $T/v4.key --keytag 0102030405060708" \
	'alloc ck --crypto' \
	'configure list ck --crypto dek=d,keytag=0102030405060708 buf:512' \
	'write ck --length 512 --pattern inc' \
	"dump buf --length 512 --expect-hex $T/v4.ct" \
	'read ck --length 512 --expect 0 --pattern inc' >"$T/cj"
"$UMRCTL" -d "$dev" -j -b "$T/cj" >"$T/out" 2>&1 &&
	grep -q '"cmd":"dek","name":"d","handle":[0-9]*,"key_size":128,"key_bytes":32,"keytag":true' "$T/out" &&
	grep -q '"cmd":"alloc".*"crypto":true' "$T/out" &&
	grep -q '"cmd":"configure".*"crypto":"dek=d,keytag=0102030405060708"' "$T/out" &&
	grep -q '"cmd":"write".*"status":0' "$T/out" &&
	grep -q '"cmd":"dump".*"mismatches":0,"data":"27a7479b' "$T/out" &&
	grep -q '"cmd":"read".*"mismatches":0,"data":"00010203' "$T/out" &&
	! key_seen "$T/out"
rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$T/out"
ok $rc "crypto --json, a DEK with a keytag"

for ex in "$EX"/*.sh; do
	[ -f "$ex" ] || continue
	mkdir -p "$T/top/tools/demo"
	cp "$V4/xts-v4.key" "$V4/xts-v4.ct" "$T/top/tools/demo/"
	(cd "$T/top" && PATH=$(dirname "$UMRCTL"):$PATH sh -e "$ex") >"$T/out" 2>&1
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$T/out"
	ok $rc "Documentation example $(basename "$ex" .sh) runs as written"
done
[ "$nex" -gt 0 ] || { echo "Bail out! no umrctl example found in Documentation/"; exit 1; }

# Nothing is left behind once the sessions are gone.
"$UMRCTL" -d "$dev" info >"$T/out" 2>&1 &&
	grep -q '^objects *0 in this file, 0 on the device' "$T/out" &&
	grep -q '^pinned *0 pages in this file, 0 on the device' "$T/out"
ok $? "no objects or pins left"

echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
[ $fail = 0 ]
