/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: translation sizing shared by the WQE encoder and validation.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_XLT_H
#define MLX5_UMR_XLT_H

#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/scatterlist.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_ifc.h>

#include "sig.h"

/* ctrl (16) + UMR ctrl (48) + mkey (64) segments: two basic blocks. */
#define MLX5_UMR_WQE_HDR_SIZE		(2 * MLX5_SEND_WQE_BB)

/*
 * The largest WQE: qpn_ds counts 16-byte units in 6 bits
 * (MLX5_WQE_CTRL_DS_MASK), so MLX5_SEND_WQE_MAX_WQEBBS basic blocks (64
 * units) do not fit and the largest is 15, as en.h
 * mlx5e_get_max_sq_aligned_wqebbs() says.
 */
#define MLX5_UMR_WQE_MAX_SIZE \
	((MLX5_SEND_WQE_MAX_WQEBBS - 1) * MLX5_SEND_WQE_BB)
static_assert(MLX5_UMR_WQE_MAX_SIZE / MLX5_SEND_WQE_DS <= MLX5_WQE_CTRL_DS_MASK);

/* Translation bytes that fit inline after the header in the largest WQE. */
#define MLX5_UMR_INLINE_MAX_BYTES	(MLX5_UMR_WQE_MAX_SIZE - MLX5_UMR_WQE_HDR_SIZE)

/*
 * umr_ctrl.xlt_octowords is 16 bits and translations are padded to
 * MLX5_UMR_FLEX_ALIGNMENT (64) bytes: the most one WQE can describe.
 */
#define MLX5_UMR_XLT_MAX_BYTES \
	ALIGN_DOWN(U16_MAX * MLX5_SEND_WQE_DS, MLX5_UMR_FLEX_ALIGNMENT)

#define MLX5_UMR_XLT_MAX_KLMS \
	(MLX5_UMR_XLT_MAX_BYTES / sizeof(struct mlx5_klm))

/* Pointer-mode WQE: header + one data segment, in whole basic blocks. */
#define MLX5_UMR_WQE_PTR_SIZE \
	ALIGN(MLX5_UMR_WQE_HDR_SIZE + sizeof(struct mlx5_wqe_data_seg), \
	      MLX5_SEND_WQE_BB)

/*
 * mlx5_umr_sgt_klms() - KLMs needed to cover @wr->sgt.length bytes of the
 * mapped scatterlist: entries past the one reaching the length are unused.
 */
static inline u32 mlx5_umr_sgt_klms(const struct mlx5_umr_wr *wr)
{
	u64 left = wr->sgt.length;
	struct scatterlist *sg;
	u32 i;

	for_each_sg(wr->sgt.sgl, sg, wr->sgt.nents, i) {
		if (sg_dma_len(sg) >= left)
			return i + 1;
		left -= sg_dma_len(sg);
	}
	return wr->sgt.nents;
}

/*
 * mlx5_umr_xlt_bytes() - translation bytes @wr carries, before padding.
 * Bounded by MLX5_UMR_XLT_MAX_BYTES once mlx5_umr_wr_check() passed.
 */
static inline u32 mlx5_umr_xlt_bytes(const struct mlx5_umr_wr *wr)
{
	if (wr->op == MLX5_UMR_OP_REG_PAGES)
		return wr->pages.npages * sizeof(struct mlx5_mtt);
	if (wr->op != MLX5_UMR_OP_CONFIGURE)
		return 0;

	switch (wr->layout) {
	case MLX5_UMR_LAYOUT_LIST:
		return wr->list.num_sge * sizeof(struct mlx5_klm);
	case MLX5_UMR_LAYOUT_INTERLEAVED:
		/* the repeat block header takes the first entry */
		return (wr->interleaved.num_entries + 1) *
		       sizeof(struct mlx5_stride_block_entry);
	case MLX5_UMR_LAYOUT_SGT:
		return mlx5_umr_sgt_klms(wr) * sizeof(struct mlx5_klm);
	default:
		return 0;
	}
}

/* Padded translation bytes that still go inline on this device. */
static inline u32 mlx5_umr_inline_max(const struct mlx5_umr_caps *caps)
{
	return min_t(u32, caps->max_inline_entries,
		     MLX5_UMR_INLINE_MAX_BYTES / sizeof(struct mlx5_klm)) *
	       sizeof(struct mlx5_klm);
}

/*
 * BSF bytes after the translation: the signature BSF, the crypto BSF, or
 * both, signature first (rules 51 and 61).
 */
static inline unsigned int mlx5_umr_wr_bsf_bytes(const struct mlx5_umr_wr *wr)
{
	return mlx5_umr_sig_bsf_bytes(wr) +
	       (wr->flags & MLX5_UMR_WR_SET_CRYPTO ?
		sizeof(struct mlx5_umr_crypto_bsf) : 0);
}

/*
 * mlx5_umr_wqe_bytes() - the WQE size of mlx5_umr_wqe_size(), inline for the
 * submission path.
 */
static inline unsigned int mlx5_umr_wqe_bytes(const struct mlx5_umr_caps *caps,
					      const struct mlx5_umr_wr *wr)
{
	u32 padded = ALIGN(mlx5_umr_xlt_bytes(wr), MLX5_UMR_FLEX_ALIGNMENT);

	/*
	 * Inline with the BSFs, then the SET_PSV WQEs (rules 51 and 61):
	 * signature, crypto, or the pair of an mkey with both.
	 */
	if (unlikely(wr->flags &
		     (MLX5_UMR_WR_SET_SIG | MLX5_UMR_WR_SET_CRYPTO)))
		return MLX5_UMR_WQE_HDR_SIZE + padded +
		       mlx5_umr_wr_bsf_bytes(wr) + mlx5_umr_sig_psv_bytes(wr);
	if (padded <= mlx5_umr_inline_max(caps))
		return MLX5_UMR_WQE_HDR_SIZE + padded;
	return MLX5_UMR_WQE_PTR_SIZE;
}

#endif /* MLX5_UMR_XLT_H */
