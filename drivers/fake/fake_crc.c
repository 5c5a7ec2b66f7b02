// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: guards and CRCs of the signature engine.
 *
 * The kernel's libraries compute T10-DIF CRC16 (crc_t10dif_update(),
 * CONFIG_CRC_T10DIF: y in both UML test kernels and Debian 6.12, m in
 * Debian 6.1), the IP checksum (csum_partial()), CRC32 (crc32_be(),
 * CONFIG_CRC32=y everywhere) and CRC32C (__crc32c_le() of lib/crc32.c, also
 * CONFIG_CRC32; not crc32c(), whose CONFIG_LIBCRC32C the UML kernels lack).
 * CRC64-XP10 has no kernel library the UML kernels build (crc64_rocksoft()
 * needs CONFIG_CRC64_ROCKSOFT), so it is table-driven here.
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
#include <linux/crc-t10dif.h>
#include <linux/module.h>
#include <linux/mlx5_umr_compat.h>
#include <net/checksum.h>

#include "fake.h"
#include "fake_sig.h"

#define FAKE_CRC64_XP10_POLY	0x9a6c9329ac4bc9b5ULL	/* reflected */

/* Written once by fake_crc_init() before any fake exists. */
static u64 fake_crc64_tab[256];

/**
 * fake_crc_init() - build the CRC64-XP10 table
 *
 * Context: module init, before the first fake is created.
 */
void fake_crc_init(void)
{
	unsigned int i, b;
	u64 c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (b = 0; b < 8; b++)
			c = (c >> 1) ^ ((c & 1) ? FAKE_CRC64_XP10_POLY : 0);
		fake_crc64_tab[i] = c;
	}
}

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
		put_unaligned_be16(crc_t10dif_update(seed_ones ? 0xffff : 0,
						     data, len), out);
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
