/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * KUnit helpers of the fake's signature suites: PSVs, signature mkeys and
 * BSFs built by hand with the kernel's structs (struct mlx5_bsf of
 * <linux/mlx5/qp.h>), independently of the service's encoder and of the
 * fake's decoder.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _MLX5_UMR_FAKE_SIG_KUNIT_H
#define _MLX5_UMR_FAKE_SIG_KUNIT_H

#include "umr_kunit.h"

/*
 * Values the kernel's headers lack, as rdma-core providers/mlx5/wqe.h
 * defines them (MLX5_BSF_SIZE_*, MLX5_BSF_SBS_SHIFT, MLX5_BFS_*,
 * MLX5_BSF_SEED); written out here again so the tests do not share the
 * fake's copy.
 */
#define FS_BSF_SIZE_INLINE	(2 << 6)
#define FS_BSF_SBS		BIT(4)
#define FS_BFS_CRC32		0x20
#define FS_BFS_CRC32C		0x40
#define FS_BFS_CRC64		0x50
#define FS_BFS_REPEAT		0x2
#define FS_BFS_SEED		0x1
#define FS_BSF_SEED		BIT(3)

/* What protects one domain in a test. */
enum fs_kind {
	FS_NONE,
	FS_DIF_CRC,
	FS_DIF_IPCS,
	FS_CRC32,
	FS_CRC32C,
	FS_CRC64,
	FS_NKINDS,
};

static inline unsigned int fs_pi(u8 kind)
{
	switch (kind) {
	case FS_NONE:
		return 0;
	case FS_CRC32:
	case FS_CRC32C:
		return 4;
	default:
		return 8;
	}
}

/**
 * struct fs_dom - one domain of a test BSF
 * @kind: enum fs_kind
 * @seed: the seed bit (T10-DIF: bg 0xffff; CRC: register all ones)
 * @inc: the reference tag grows per block
 * @esc: MLX5_BSF_APPTAG_ESCAPE, MLX5_BSF_APPREF_ESCAPE or 0
 * @app: application tag
 * @ref: reference tag of block 0
 * @app_mask: application tag bits checked
 */
struct fs_dom {
	u8 kind;
	bool seed;
	bool inc;
	u8 esc;
	u16 app;
	u32 ref;
	u16 app_mask;
};

static inline u32 ft_psv(struct ft *ft)
{
	u32 in[MLX5_ST_SZ_DW(create_psv_in)] = {};
	u32 out[MLX5_ST_SZ_DW(create_psv_out)] = {};

	MLX5_SET(create_psv_in, in, opcode, MLX5_CMD_OP_CREATE_PSV);
	MLX5_SET(create_psv_in, in, num_psv, 1);
	MLX5_SET(create_psv_in, in, pd, ft->pdn);
	KUNIT_ASSERT_EQ(ft->test, ft_cmd(ft, in, sizeof(in), out,
					 sizeof(out)), 0);
	return MLX5_GET(create_psv_out, out, psv0_index);
}

static inline void ft_destroy_psv(struct ft *ft, u32 psvn)
{
	u32 in[MLX5_ST_SZ_DW(destroy_psv_in)] = {};
	u32 out[MLX5_ST_SZ_DW(destroy_psv_out)] = {};

	MLX5_SET(destroy_psv_in, in, opcode, MLX5_CMD_OP_DESTROY_PSV);
	MLX5_SET(destroy_psv_in, in, psvn, psvn);
	KUNIT_EXPECT_EQ(ft->test, ft_cmd(ft, in, sizeof(in), out,
					 sizeof(out)), 0);
}

/* One domain into @b: inline section (T10-DIF) or block format selector. */
static inline void fs_bsf_dom(struct mlx5_bsf *b, bool wire,
			      const struct fs_dom *d, u32 psvn, u8 bs_sel)
{
	struct mlx5_bsf_inl *inl = wire ? &b->w_inl : &b->m_inl;
	__be32 *bfs_psv = wire ? &b->basic.w_bfs_psv : &b->basic.m_bfs_psv;
	u8 bfs = 0;

	if (d->kind == FS_NONE)
		return;
	if (wire)
		b->basic.wire.bs_selector = bs_sel;
	else
		b->basic.mem.bs_selector = bs_sel;
	switch (d->kind) {
	case FS_DIF_CRC:
	case FS_DIF_IPCS:
		inl->vld_refresh = cpu_to_be16(MLX5_BSF_INL_VALID |
					       MLX5_BSF_REFRESH_DIF);
		inl->dif_apptag = cpu_to_be16(d->app);
		inl->dif_reftag = cpu_to_be32(d->ref);
		inl->sig_type = d->kind == FS_DIF_CRC ? MLX5_DIF_CRC :
							MLX5_DIF_IPCS;
		inl->rp_inv_seed = MLX5_BSF_REPEAT_BLOCK |
				   (d->seed ? FS_BSF_SEED : 0);
		inl->dif_inc_ref_guard_check =
			(d->inc ? MLX5_BSF_INC_REFTAG : 0) | d->esc;
		inl->dif_app_bitmask_check = cpu_to_be16(d->app_mask);
		break;
	case FS_CRC32:
		bfs = FS_BFS_CRC32;
		break;
	case FS_CRC32C:
		bfs = FS_BFS_CRC32C;
		break;
	case FS_CRC64:
		bfs = FS_BFS_CRC64;
		break;
	}
	if (bfs)
		bfs |= FS_BFS_REPEAT | (d->seed ? FS_BFS_SEED : 0);
	*bfs_psv = cpu_to_be32((u32)bfs << 24 | psvn);
}

/* A BSF with both domains (check everything, no copy). */
static inline void fs_bsf(struct mlx5_bsf *b, const struct fs_dom *mem,
			  u32 mpsv, const struct fs_dom *wire, u32 wpsv)
{
	memset(b, 0, sizeof(*b));
	b->basic.bsf_size_sbs = FS_BSF_SIZE_INLINE;
	b->basic.check_byte_mask = 0xff;
	b->basic.raw_data_size = cpu_to_be32(0xffffffff);
	fs_bsf_dom(b, false, mem, mpsv, 1);
	fs_bsf_dom(b, true, wire, wpsv, 1);
}

/* An indirect KLM mkey ready for a signature UMR: bsf_en, 4 octowords. */
static inline u32 fs_sig_mkey(struct ft *ft)
{
	int inlen = MLX5_ST_SZ_BYTES(create_mkey_in);
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)] = {};
	void *in, *c;

	in = kunit_kzalloc(ft->test, inlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(ft->test, in);
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	c = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	MLX5_SET(mkc, c, access_mode_1_0, MLX5_MKC_ACCESS_MODE_KLMS);
	MLX5_SET(mkc, c, umr_en, 1);
	MLX5_SET(mkc, c, free, 1);
	MLX5_SET(mkc, c, pd, ft->pdn);
	MLX5_SET(mkc, c, qpn, 0xffffff);
	MLX5_SET(mkc, c, bsf_en, 1);
	MLX5_SET(mkc, c, bsf_octword_size, MLX5_MKEY_BSF_OCTO_SIZE);
	MLX5_SET(mkc, c, translations_octword_size, 4);
	KUNIT_ASSERT_EQ(ft->test, ft_cmd(ft, in, inlen, out, sizeof(out)), 0);
	return MLX5_GET(create_mkey_out, out, mkey_index) << 8;
}

/*
 * A UMR making @key one KLM of @len memory bytes at @va of @lkey, with
 * @bsf; returns the WQE size. The caller posts it.
 */
static inline size_t fs_sig_umr(struct ft_umr *w, u32 key, u32 lkey, u64 va,
				u32 len, const struct mlx5_bsf *bsf)
{
	struct mlx5_klm klm;
	size_t size;

	ft_klm(&klm, len, lkey, va);
	size = ft_umr_init(w, key, FT_LW | FT_RR | FT_RW, len, &klm,
			   sizeof(klm));
	w->uc.bsf_octowords = cpu_to_be16(MLX5_MKEY_BSF_OCTO_SIZE);
	w->uc.mkey_mask |= cpu_to_be64(MLX5_MKEY_MASK_BSF_EN |
				       MLX5_MKEY_MASK_EN_SIGERR);
	MLX5_SET(mkc, &w->mkey, bsf_en, 1);
	/* armed for the first error: rdma-core's err_count = 1 */
	MLX5_SET(mkc, &w->mkey, expected_sigerr_count, 1);
	memcpy(w->xlt + 64, bsf, sizeof(*bsf));
	return size + sizeof(*bsf);
}

/*
 * A UMR writing only @key's expected_sigerr_count (@count); returns the
 * WQE size. The caller posts it.
 */
static inline size_t fs_arm_umr(struct ft_umr *w, u32 key, u8 count)
{
	ft_umr_init(w, key, 0, 0, NULL, 0);
	w->uc.flags = MLX5_UMR_INLINE;
	w->uc.mkey_mask = cpu_to_be64(MLX5_MKEY_MASK_EN_SIGERR);
	MLX5_SET(mkc, &w->mkey, expected_sigerr_count, count);
	return 128;
}

#endif /* _MLX5_UMR_FAKE_SIG_KUNIT_H */
