// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: guards and CRCs of the signature engine.
 *
 * The kernel's libraries compute the IP checksum (csum_partial()), CRC32
 * (crc32_be(), CONFIG_CRC32=y in both UML test kernels and both Debian
 * kernels) and CRC32C (__crc32c_le() of lib/crc32.c, also CONFIG_CRC32;
 * not crc32c(), whose CONFIG_LIBCRC32C the UML kernels lack). Two are
 * table-driven here:
 *
 * - CRC-16/T10-DIF (polynomial 0x8bb7, MSB first, no inversion): the
 *   kernel's crc_t10dif_update() is built in everywhere but Debian 6.1,
 *   where crc-t10dif.ko pulls its crypto providers in as soft dependencies
 *   that busybox's modprobe -r cannot remove with the fake, and the VM
 *   image does not carry them. fake_crc_test checks this table against
 *   crc_t10dif_update() and both against the catalogue.
 * - CRC64-XP10: no kernel library the UML kernels build (crc64_rocksoft()
 *   needs CONFIG_CRC64_ROCKSOFT).
 *
 * CRC64-XP10 is the CRC64 of Microsoft's Xpress10 (XP10) compression:
 * microsoft/Extensible-Storage-Engine dev/ese/src/_xpress10/xpress10sw.cxx,
 * UtilGenCorsicaCrc64(): reflected polynomial 0x9a6c9329ac4bc9b5 (normal
 * form 0xad93d23594c93659), register initialised to all ones, bytes fed
 * LSB first, result inverted. That is the reveng catalogue's CRC-64/NVME
 * (width=64 poly=0xad93d23594c93659 init=0xffffffffffffffff refin=true
 * refout=true xorout=0xffffffffffffffff check=0xae8b14860a799888).
 *
 * How each value is laid out in a PI field, and which register start the
 * BSF's seed bit selects, is the fake's reading of hardware results (see
 * Documentation/fake.rst, "Signature"): T10-DIF guard and CRC32 big endian
 * (MSB-first CRC32), CRC32C and CRC64 least significant byte first
 * (reflected CRCs), every CRC inverted at the end.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/crc32.h>
#include <linux/module.h>
#include <linux/mlx5_umr_compat.h>
#include <net/checksum.h>

#include "fake.h"
#include "fake_sig.h"

#define FAKE_CRC64_XP10_POLY	0x9a6c9329ac4bc9b5ULL	/* reflected */
#define FAKE_CRC16_T10DIF_POLY	0x8bb7			/* normal */

/* Written once by fake_crc_init() before any fake exists. */
static u64 fake_crc64_tab[256];
static u16 fake_crc16_tab[256];

/**
 * fake_crc_init() - build the CRC64-XP10 and CRC-16/T10-DIF tables
 *
 * Context: module init, before the first fake is created.
 */
void fake_crc_init(void)
{
	unsigned int i, b;
	u64 c;
	u16 w;

	for (i = 0; i < 256; i++) {
		c = i;
		for (b = 0; b < 8; b++)
			c = (c >> 1) ^ ((c & 1) ? FAKE_CRC64_XP10_POLY : 0);
		fake_crc64_tab[i] = c;
		w = i << 8;
		for (b = 0; b < 8; b++)
			w = (w << 1) ^ ((w & 0x8000) ? FAKE_CRC16_T10DIF_POLY : 0);
		fake_crc16_tab[i] = w;
	}
}

/**
 * mlx5_umr_fake_crc_t10dif() - CRC-16/T10-DIF register update (test-only)
 * @crc: the register: 0 for the catalogue CRC (T10-DIF bg 0), 0xffff for
 *	a guard seeded with bg 0xffff
 * @p: data
 * @len: bytes
 *
 * Same as the kernel's crc_t10dif_update().
 *
 * Return: the register after @len bytes.
 */
u16 mlx5_umr_fake_crc_t10dif(u16 crc, const void *p, size_t len)
{
	const u8 *b = p;

	while (len--)
		crc = (crc << 8) ^ fake_crc16_tab[(crc >> 8) ^ *b++];
	return crc;
}
EXPORT_SYMBOL(mlx5_umr_fake_crc_t10dif);

/**
 * mlx5_umr_fake_crc64_xp10() - CRC64-XP10 register update (test-only)
 * @crc: the register: ~0ULL to start a catalogue CRC-64/NVME
 * @p: data
 * @len: bytes
 *
 * Like crc32_le(): no inversion on entry or exit, so the catalogue CRC is
 * ~mlx5_umr_fake_crc64_xp10(~0ULL, p, len).
 *
 * Return: the register after @len bytes.
 */
u64 mlx5_umr_fake_crc64_xp10(u64 crc, const void *p, size_t len)
{
	const u8 *b = p;

	while (len--)
		crc = fake_crc64_tab[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return crc;
}
EXPORT_SYMBOL(mlx5_umr_fake_crc64_xp10);

/**
 * fake_sig_guard() - compute the guard (T10-DIF) or CRC of one block
 * @kind: enum fake_sig_kind, not FAKE_SIG_NONE
 * @seed_ones: the register starts at all ones (the BSF's seed bit)
 * @data: the block's data
 * @len: its length
 * @out: receives 2 (T10-DIF), 4 (CRC32/CRC32C) or 8 (CRC64) bytes as they
 *	stand in the PI field
 */
void fake_sig_guard(u8 kind, bool seed_ones, const u8 *data, u32 len,
		    u8 *out)
{
	__sum16 cs;

	switch (kind) {
	case FAKE_SIG_DIF_CRC:
		put_unaligned_be16(mlx5_umr_fake_crc_t10dif(seed_ones ? 0xffff :
							    0, data, len),
				   out);
		break;
	case FAKE_SIG_DIF_IPCS:
		/* RFC 1071 sum, already in network order in memory */
		cs = csum_fold(csum_partial(data, len,
					    (__force __wsum)(seed_ones ?
							     0xffff : 0)));
		memcpy(out, &cs, sizeof(cs));
		break;
	case FAKE_SIG_CRC32:
		put_unaligned_be32(~crc32_be(seed_ones ? ~0U : 0, data, len),
				   out);
		break;
	case FAKE_SIG_CRC32C:
		put_unaligned_le32(~__crc32c_le(seed_ones ? ~0U : 0, data, len),
				   out);
		break;
	case FAKE_SIG_CRC64:
		put_unaligned_le64(~mlx5_umr_fake_crc64_xp10(seed_ones ?
							     ~0ULL : 0,
							     data, len), out);
		break;
	}
}
