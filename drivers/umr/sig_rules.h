/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: the rules on a request's block signature (rules 38 to 52 of
 * Documentation/validation.rst), one function and errno each, as in
 * wr_rules.h. The errnos are rdma-core's (providers/mlx5/qp.c:
 * mlx5_send_wr_set_mkey_sig_block() and the validators it calls,
 * mlx5_umr_fill_sig_bsf(), umr_wqe_finalize()).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_SIG_RULES_H
#define MLX5_UMR_SIG_RULES_H

#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/overflow.h>
#include <linux/mlx5_umr.h>

#include "xlt.h"
#include "sig.h"

#define MLX5_UMR_WR_SIG_FLAGS	(MLX5_UMR_WR_SET_SIG | MLX5_UMR_WR_RESET_SIG)

/* Rule 38: signature flags on a signature mkey only (qp.c: !mkey->sig). */
static inline int mlx5_umr_rule_sig_mkey(const struct mlx5_umr_mkey *mkey)
{
	return mkey->flags & MLX5_UMR_MKEY_SIGNATURE ? 0 : -EINVAL;
}

/* Rule 39: a signature is set or reset by a configure. */
static inline int mlx5_umr_rule_sig_op(enum mlx5_umr_op op)
{
	return op == MLX5_UMR_OP_CONFIGURE ? 0 : -EINVAL;
}

/* Rule 40: SET_SIG names its attributes. */
static inline int mlx5_umr_rule_sig_given(const struct mlx5_umr_wr *wr)
{
	return wr->sig ? 0 : -EINVAL;
}

/* Rule 41: only known attribute flags (check_comp_mask(flags, COPY_MASK)). */
static inline int mlx5_umr_rule_sig_flags(const struct mlx5_umr_sig_attr *a)
{
	return a->flags & ~MLX5_UMR_SIG_FLAG_COPY_MASK ? -EINVAL : 0;
}

/* Rule 42: a known signature type in each domain. */
static inline int mlx5_umr_rule_sig_type(const struct mlx5_umr_sig_domain *d)
{
	return d->sig_type <= MLX5_UMR_SIG_CRC ? 0 : -EINVAL;
}

/* Rule 43: at least one domain has a signature (!mem && !wire). */
static inline int mlx5_umr_rule_sig_some(const struct mlx5_umr_sig_attr *a)
{
	return mlx5_umr_sig_npsv(a) ? 0 : -EINVAL;
}

/* Rule 44: a block size of enum mlx5dv_block_size. */
static inline int mlx5_umr_rule_sig_block(const struct mlx5_umr_sig_domain *d)
{
	return d->block_size <= MLX5_UMR_SIG_BLOCK_4160 ? 0 : -EINVAL;
}

/* Rule 45: a T10 DIF guard of CRC or IP checksum. */
static inline int mlx5_umr_rule_sig_bg_type(const struct mlx5_umr_sig_t10dif *dif)
{
	return dif->bg_type <= MLX5_UMR_SIG_T10DIF_CSUM ? 0 : -EINVAL;
}

/* Rule 46: the T10 DIF guard seed is 0 or 0xffff. */
static inline int mlx5_umr_rule_sig_bg(const struct mlx5_umr_sig_t10dif *dif)
{
	return dif->bg == 0 || dif->bg == 0xffff ? 0 : -EINVAL;
}

/* Rule 47: only known T10 DIF flags. */
static inline int mlx5_umr_rule_sig_dif_flags(const struct mlx5_umr_sig_t10dif *dif)
{
	return dif->flags & ~MLX5_UMR_SIG_T10DIF_FLAGS ? -EINVAL : 0;
}

/* Rule 48: a CRC of enum mlx5dv_sig_crc_type. */
static inline int mlx5_umr_rule_sig_crc_type(const struct mlx5_umr_sig_crc *crc)
{
	return crc->type <= MLX5_UMR_SIG_CRC64_XP10 ? 0 : -EINVAL;
}

/* Rule 49: the CRC seed is 0 or all ones of the CRC's width. */
static inline int mlx5_umr_rule_sig_crc_seed(const struct mlx5_umr_sig_crc *crc)
{
	u64 ones = crc->type == MLX5_UMR_SIG_CRC64_XP10 ? U64_MAX : U32_MAX;

	return crc->seed == 0 || crc->seed == ones ? 0 : -EINVAL;
}

/*
 * Rule 50: a copy mask needs the same block structure in both domains
 * (mlx5_umr_fill_sig_bsf(): !sbs is EINVAL); with no wire signature
 * rdma-core ignores the flag, this service refuses it.
 */
static inline int mlx5_umr_rule_sig_copy(const struct mlx5_umr_sig_attr *a)
{
	const struct mlx5_umr_sig_domain *m = &a->mem, *w = &a->wire;

	if (!(a->flags & MLX5_UMR_SIG_FLAG_COPY_MASK))
		return 0;
	if (w->sig_type == MLX5_UMR_SIG_NONE || m->sig_type != w->sig_type ||
	    m->block_size != w->block_size)
		return -EINVAL;
	if (w->sig_type == MLX5_UMR_SIG_CRC && m->crc.type != w->crc.type)
		return -EINVAL;
	return 0;
}

/*
 * Rule 51: the translation and the BSF (with the crypto BSF of an mkey
 * that has both) go inline in the UMR WQE, and the chain with its SET_PSV
 * WQEs fits the send queue's largest WQE (umr_wqe_finalize() and
 * crypto_umr_wqe_finalize(): ENOMEM when the BSFs do not fit inline).
 */
static inline int mlx5_umr_rule_sig_room(const struct mlx5_umr_caps *caps,
					 const struct mlx5_umr_wr *wr)
{
	u32 padded = ALIGN(mlx5_umr_xlt_bytes(wr), MLX5_UMR_FLEX_ALIGNMENT);

	u32 bsf = mlx5_umr_wr_bsf_bytes(wr);

	if (padded + bsf > mlx5_umr_inline_max(caps) ||
	    MLX5_UMR_WQE_HDR_SIZE + padded + bsf +
	    mlx5_umr_sig_psv_bytes(wr) > MLX5_SEND_WQE_MAX_SIZE)
		return -ENOMEM;
	return 0;
}

/*
 * Bytes of the layout @wr gives (0 without one, U64_MAX when they do not
 * fit 64 bits). Entries not yet checked count as they are.
 */
static inline u64 mlx5_umr_layout_len(const struct mlx5_umr_wr *wr)
{
	u64 len = 0, cycle = 0;
	u32 i;

	switch (wr->layout) {
	case MLX5_UMR_LAYOUT_LIST:
		for (i = 0; i < wr->list.num_sge; i++)
			len += wr->list.sge[i].length;
		break;
	case MLX5_UMR_LAYOUT_INTERLEAVED:
		for (i = 0; i < wr->interleaved.num_entries; i++)
			cycle += wr->interleaved.ent[i].bytes_count;
		if (check_mul_overflow(cycle, (u64)wr->interleaved.repeat_count,
				       &len))
			return U64_MAX;
		break;
	case MLX5_UMR_LAYOUT_SGT:
		len = wr->sgt.length;
		break;
	default:
		break;
	}
	return len;
}

/* The layout @wr gives is longer than a BSF's raw_data_size, 32 bits. */
static inline bool mlx5_umr_layout_over_u32(const struct mlx5_umr_wr *wr)
{
	return mlx5_umr_layout_len(wr) > U32_MAX;
}

/*
 * Rule 52: the mkey's length fits the BSF's raw_data_size, 32 bits
 * (umr_wqe_finalize(): mkey->length > UINT32_MAX is EINVAL), for a layout
 * given with the signature.
 */
static inline int mlx5_umr_rule_sig_length(const struct mlx5_umr_wr *wr)
{
	return mlx5_umr_layout_over_u32(wr) ? -EINVAL : 0;
}

/* Rules 42 and 44 to 49 on one domain. */
static inline int mlx5_umr_check_sig_domain(const struct mlx5_umr_sig_domain *d)
{
	int err = mlx5_umr_rule_sig_type(d);

	if (err || d->sig_type == MLX5_UMR_SIG_NONE)
		return err;
	err = mlx5_umr_rule_sig_block(d);
	if (err)
		return err;
	if (d->sig_type == MLX5_UMR_SIG_T10DIF)
		return mlx5_umr_rule_sig_bg_type(&d->dif) ?:
		       mlx5_umr_rule_sig_bg(&d->dif) ?:
		       mlx5_umr_rule_sig_dif_flags(&d->dif);
	return mlx5_umr_rule_sig_crc_type(&d->crc) ?:
	       mlx5_umr_rule_sig_crc_seed(&d->crc);
}

/*
 * Rules 38 to 52, on a request with a signature flag, after the rules
 * every request and its operation pass (the layout's entries are already
 * known to be given). Out of line in sig_wqe.c: the submission path's
 * common requests never get here.
 */
int mlx5_umr_check_sig(const struct mlx5_umr_caps *caps,
		       const struct mlx5_umr_wr *wr);

#endif /* MLX5_UMR_SIG_RULES_H */
