/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: block-signature mkeys, service internals.
 *
 * A signature mkey has two PSVs (memory and wire domain) and a BSF; a
 * request with MLX5_UMR_WR_SET_SIG becomes one chain of WQEs: the UMR
 * carrying the BSF, then a SET_PSV WQE per domain with a signature
 * (Documentation/signature.rst).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_SIG_H
#define MLX5_UMR_SIG_H

#include <linux/spinlock.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5_umr.h>

struct mlx5_umr_dev;
struct mlx5_umr_mkey_priv;

/* One SET_PSV WQE: ctrl + set_psv segments, in one basic block. */
#define MLX5_UMR_SIG_PSV_WQE_SIZE	MLX5_SEND_WQE_BB
#define MLX5_UMR_SIG_PSV_WQE_DS \
	((sizeof(struct mlx5_wqe_ctrl_seg) + sizeof(struct mlx5_seg_set_psv)) / \
	 MLX5_SEND_WQE_DS)
/* The BSF after the translation: basic, extended and inline parts. */
#define MLX5_UMR_SIG_BSF_SIZE		sizeof(struct mlx5_bsf)

/**
 * struct mlx5_umr_sig_mkey - service state of a signature mkey
 * @lock: protects @attr, @status and @pending; taken irqsave (the status
 *	is reported from any context but hard IRQ)
 * @attr: the signature the last posted request set (sig_type NONE in
 *	both domains when none is set), for re-arming the PSVs
 * @status: the first error reported since the last check
 * @pending: @status holds an error
 * @sigerr_count: SIG_ERR CQEs reported for the mkey, plus one: its low bit
 *	is the expected_sigerr_count the next signature UMR arms the mkey
 *	with (mlx5_umr_sig_armed())
 */
struct mlx5_umr_sig_mkey {
	spinlock_t lock; /* @attr, @status, @pending */
	struct mlx5_umr_sig_attr attr;
	/* under the SQ's lock: what the batch being written sets, or NULL */
	const struct mlx5_umr_sig_attr *staged;
	struct mlx5_umr_sig_status status;
	bool pending;
	u32 sigerr_count;
};

/* The domains of @attr with a signature: the SET_PSV WQEs it needs. */
static inline unsigned int mlx5_umr_sig_npsv(const struct mlx5_umr_sig_attr *a)
{
	return (a->mem.sig_type != MLX5_UMR_SIG_NONE) +
	       (a->wire.sig_type != MLX5_UMR_SIG_NONE);
}

/*
 * Bytes a request adds to its UMR WQE (the BSF) and after it (the
 * SET_PSV WQEs) for its signature. The signature BSF goes with
 * MLX5_UMR_WR_SET_SIG, and with every MLX5_UMR_WR_SET_CRYPTO of an mkey
 * that has both: the pair is written whole, set, reset or kept.
 */
static inline unsigned int mlx5_umr_sig_bsf_bytes(const struct mlx5_umr_wr *wr)
{
	if (wr->flags & MLX5_UMR_WR_SET_SIG)
		return MLX5_UMR_SIG_BSF_SIZE;
	if ((wr->flags & MLX5_UMR_WR_SET_CRYPTO) &&
	    (wr->mkey->flags & MLX5_UMR_MKEY_SIGNATURE))
		return MLX5_UMR_SIG_BSF_SIZE;
	return 0;
}

static inline unsigned int mlx5_umr_sig_psv_bytes(const struct mlx5_umr_wr *wr)
{
	if (!(wr->flags & MLX5_UMR_WR_SET_SIG))
		return 0;
	return mlx5_umr_sig_npsv(wr->sig) * MLX5_UMR_SIG_PSV_WQE_SIZE;
}

/* sig_wqe.c: the encoder's part (pure functions) */
void mlx5_umr_sig_fill_bsf(struct mlx5_bsf *bsf,
			   const struct mlx5_umr_sig_attr *attr,
			   const u32 psv[2], bool with_crypto);
unsigned int mlx5_umr_sig_write_psvs(void *buf, const struct mlx5_umr_wr *wr,
				     u32 qpn, u16 idx, u8 fm_ce_se);

/* sig.c: PSV objects, state and status */
int mlx5_umr_sig_mkey_init(struct mlx5_umr_dev *dev,
			   struct mlx5_umr_mkey_priv *mp, u32 pdn);
int mlx5_umr_sig_mkey_destroy(struct mlx5_umr_dev *dev,
			      struct mlx5_umr_mkey_priv *mp);
int mlx5_umr_sig_mkey_list(struct mlx5_umr_dev *dev,
			   struct mlx5_umr_mkey_priv *mp);
void mlx5_umr_sig_mkey_unlist(struct mlx5_umr_dev *dev,
			      struct mlx5_umr_mkey_priv *mp);
void mlx5_umr_sig_mkey_free(struct mlx5_umr_mkey_priv *mp);
void mlx5_umr_sig_stage(struct mlx5_umr_wr *wr);
void mlx5_umr_sig_unstage(struct mlx5_umr_wr *wr);
void mlx5_umr_sig_posted(struct mlx5_umr_wr *wr);
const struct mlx5_umr_sig_attr *mlx5_umr_sig_kept(struct mlx5_umr_wr *wr);
u8 mlx5_umr_sig_armed(struct mlx5_umr_mkey *mkey);

#endif /* MLX5_UMR_SIG_H */
