// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: the mkey table.
 *
 * An mkey is stored as firmware would keep it: the mkc context bytes
 * (mlx5_ifc layout, returned verbatim by QUERY_MKEY) plus a translation
 * table of translations_octword_size raw octowords that CREATE_MKEY and
 * UMR WQEs write and the data path interprets by access mode.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/mm.h>

#include "fake.h"

/**
 * fake_mkey_lookup() - find the mkey a key names
 * @fd: the fake
 * @key: 24-bit index and 8-bit variant
 *
 * Context: fd->lock held.
 * Return: the mkey, or NULL when the index is unused or the variant
 * differs (a stale key).
 */
struct fake_mkey *fake_mkey_lookup(struct mlx5_umr_fake *fd, u32 key)
{
	struct fake_mkey *mk = xa_load(&fd->mkeys, key >> 8);

	lockdep_assert_held(&fd->lock);
	if (!mk || MLX5_GET(mkc, mk->mkc, mkey_7_0) != (key & 0xff))
		return NULL;
	return mk;
}

/**
 * fake_key_usable() - may a translation entry name @key?
 * @fd: the fake
 * @key: key from a KLM/KSM/repeat-block entry
 *
 * Context: fd->lock held.
 * Return: true for the reserved lkey and for existing, non-free mkeys.
 */
bool fake_key_usable(struct mlx5_umr_fake *fd, u32 key)
{
	struct fake_mkey *mk;

	lockdep_assert_held(&fd->lock);
	if (key == MLX5_UMR_FAKE_RESD_LKEY)
		return true;
	mk = fake_mkey_lookup(fd, key);
	return mk && !MLX5_GET(mkc, mk->mkc, free);
}

u8 fake_mkey_access_mode(const void *mkc)
{
	return MLX5_GET(mkc, mkc, access_mode_1_0) |
	       MLX5_GET(mkc, mkc, access_mode_4_2) << 2;
}

/* Which mkc field each mkey_mask bit lets a UMR change. */
static const struct {
	u64 mask;
	u16 off;
	u8 bits;
} fake_mask_fields[] = {
	{ MLX5_MKEY_MASK_LEN, __mlx5_bit_off(mkc, len),
	  __mlx5_bit_sz(mkc, len) },
	{ MLX5_MKEY_MASK_LEN, __mlx5_bit_off(mkc, length64),
	  __mlx5_bit_sz(mkc, length64) },
	{ MLX5_MKEY_MASK_PAGE_SIZE, __mlx5_bit_off(mkc, log_page_size),
	  __mlx5_bit_sz(mkc, log_page_size) },
	{ MLX5_MKEY_MASK_START_ADDR, __mlx5_bit_off(mkc, start_addr),
	  __mlx5_bit_sz(mkc, start_addr) },
	{ MLX5_MKEY_MASK_PD, __mlx5_bit_off(mkc, pd),
	  __mlx5_bit_sz(mkc, pd) },
	{ MLX5_MKEY_MASK_EN_RINVAL, __mlx5_bit_off(mkc, en_rinval),
	  __mlx5_bit_sz(mkc, en_rinval) },
	{ MLX5_MKEY_MASK_EN_SIGERR, __mlx5_bit_off(mkc, expected_sigerr_count),
	  __mlx5_bit_sz(mkc, expected_sigerr_count) },
	{ MLX5_MKEY_MASK_BSF_EN, __mlx5_bit_off(mkc, bsf_en),
	  __mlx5_bit_sz(mkc, bsf_en) },
	{ MLX5_MKEY_MASK_KEY, __mlx5_bit_off(mkc, mkey_7_0),
	  __mlx5_bit_sz(mkc, mkey_7_0) },
	{ MLX5_MKEY_MASK_QPN, __mlx5_bit_off(mkc, qpn),
	  __mlx5_bit_sz(mkc, qpn) },
	{ MLX5_MKEY_MASK_LR, __mlx5_bit_off(mkc, lr),
	  __mlx5_bit_sz(mkc, lr) },
	{ MLX5_MKEY_MASK_LW, __mlx5_bit_off(mkc, lw),
	  __mlx5_bit_sz(mkc, lw) },
	{ MLX5_MKEY_MASK_RR, __mlx5_bit_off(mkc, rr),
	  __mlx5_bit_sz(mkc, rr) },
	{ MLX5_MKEY_MASK_RW, __mlx5_bit_off(mkc, rw),
	  __mlx5_bit_sz(mkc, rw) },
	{ MLX5_MKEY_MASK_A, __mlx5_bit_off(mkc, a),
	  __mlx5_bit_sz(mkc, a) },
	{ MLX5_MKEY_MASK_SMALL_FENCE, __mlx5_bit_off(mkc, small_fence_on_rdma_read_response),
	  __mlx5_bit_sz(mkc, small_fence_on_rdma_read_response) },
	{ MLX5_MKEY_MASK_RELAXED_ORDERING_WRITE, __mlx5_bit_off(mkc, relaxed_ordering_write),
	  __mlx5_bit_sz(mkc, relaxed_ordering_write) },
	{ MLX5_MKEY_MASK_RELAXED_ORDERING_READ, __mlx5_bit_off(mkc, relaxed_ordering_read),
	  __mlx5_bit_sz(mkc, relaxed_ordering_read) },
	{ MLX5_MKEY_MASK_FREE, __mlx5_bit_off(mkc, free),
	  __mlx5_bit_sz(mkc, free) },
};

/* Copy one big-endian mkc field: within one dword, or an aligned 64. */
static void fake_copy_bits(void *dst, const void *src, unsigned int off,
			   unsigned int bits)
{
	__be32 *d = dst + off / 32 * 4;
	const __be32 *s = src + off / 32 * 4;
	u32 mask, shift;

	if (bits == 64) {
		memcpy(d, s, 8);
		return;
	}
	shift = 32 - off % 32 - bits;
	mask = (bits == 32 ? ~0U : (1U << bits) - 1) << shift;
	*d = cpu_to_be32((be32_to_cpu(*d) & ~mask) | (be32_to_cpu(*s) & mask));
}

/**
 * fake_mkey_apply_mask() - copy the masked fields of a UMR mkey segment
 * @dst: stored mkc
 * @src: the WQE's mkey segment (mkc layout)
 * @mask: MLX5_MKEY_MASK_* bits
 *
 * Bits the fake does not know are ignored, as reserved bits are.
 */
void fake_mkey_apply_mask(void *dst, const void *src, u64 mask)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fake_mask_fields); i++)
		if (mask & fake_mask_fields[i].mask)
			fake_copy_bits(dst, src, fake_mask_fields[i].off,
				       fake_mask_fields[i].bits);
}

void fake_mkey_free(struct fake_mkey *mk)
{
	if (!mk)
		return;
	kvfree(mk->xlt);
	kfree(mk->bsf);
	kfree(mk);
}

/**
 * mlx5_umr_fake_query_mkey() - read an mkey as the fake stores it (test-only)
 * @fake: the fake
 * @key: full key (index and variant)
 * @mkc: MLX5_ST_SZ_BYTES(mkc) bytes receiving the context, or NULL
 * @xlt: receives up to @xlt_len bytes of the translation table, or NULL
 * @xlt_len: size of @xlt
 *
 * Context: any.
 * Return: translations_octword_size of the mkey, or -ENOENT.
 */
int mlx5_umr_fake_query_mkey(struct mlx5_umr_fake *fake, u32 key, void *mkc,
			     void *xlt, size_t xlt_len)
{
	struct fake_mkey *mk;
	unsigned long flags;
	int ret = -ENOENT;

	spin_lock_irqsave(&fake->lock, flags);
	mk = fake_mkey_lookup(fake, key);
	if (mk) {
		if (mkc)
			memcpy(mkc, mk->mkc, sizeof(mk->mkc));
		if (xlt && mk->xlt)
			memcpy(xlt, mk->xlt,
			       min_t(size_t, xlt_len, (size_t)mk->xlt_oct * 16));
		ret = mk->xlt_oct;
	}
	spin_unlock_irqrestore(&fake->lock, flags);
	return ret;
}
EXPORT_SYMBOL(mlx5_umr_fake_query_mkey);

/**
 * mlx5_umr_fake_query_bsf() - read an mkey's BSF as a UMR left it (test-only)
 * @fake: the fake
 * @key: full key (index and variant)
 * @bsf: receives up to @len bytes
 * @len: size of @bsf
 *
 * Context: any.
 * Return: bsf_octword_size of the mkey (0 without BSF), or -ENOENT.
 */
int mlx5_umr_fake_query_bsf(struct mlx5_umr_fake *fake, u32 key, void *bsf,
			    size_t len)
{
	struct fake_mkey *mk;
	unsigned long flags;
	int ret = -ENOENT;

	spin_lock_irqsave(&fake->lock, flags);
	mk = fake_mkey_lookup(fake, key);
	if (mk) {
		if (mk->bsf)
			memcpy(bsf, mk->bsf,
			       min_t(size_t, len, (size_t)mk->bsf_oct * 16));
		ret = mk->bsf_oct;
	}
	spin_unlock_irqrestore(&fake->lock, flags);
	return ret;
}
EXPORT_SYMBOL(mlx5_umr_fake_query_bsf);
