// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: block signature in WQE bytes: the BSF a UMR carries, the
 * SET_PSV WQEs after it (pure functions; the rules are in rules.h).
 *
 * Every field follows rdma-core's encoder (providers/mlx5/qp.c:
 * mlx5_umr_fill_sig_bsf(), mlx5_umr_fill_inl_bsf_t10dif(),
 * mlx5_umr_crc_bfs(), mlx5_umr_set_psv(), psv_transient_signature()) with
 * the kernel's structures (qp.h struct mlx5_bsf, struct mlx5_seg_set_psv);
 * upstream mlx5_ib's wr.c (mlx5_set_bsf(), set_psv_wr()) encodes the
 * T10-DIF subset the same way. Documentation/signature.rst lists them.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/string.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5_umr_ifc.h>

#include "wqe.h"
#include "rules.h"

/* bs_to_bs_selector() of rdma-core qp.c, indexed by enum mlx5dv_block_size */
static const u8 mlx5_umr_bs_selector[] = {
	[MLX5_UMR_SIG_BLOCK_512] = MLX5_UMR_BS_SELECTOR_512,
	[MLX5_UMR_SIG_BLOCK_520] = MLX5_UMR_BS_SELECTOR_520,
	[MLX5_UMR_SIG_BLOCK_4048] = MLX5_UMR_BS_SELECTOR_4048,
	[MLX5_UMR_SIG_BLOCK_4096] = MLX5_UMR_BS_SELECTOR_4096,
	[MLX5_UMR_SIG_BLOCK_4160] = MLX5_UMR_BS_SELECTOR_4160,
};

/*
 * mlx5_umr_crc_bfs(): the block format selector of a CRC domain; the seed
 * bit says the seed is 0, the repeat bit that each block has its CRC.
 */
static u32 mlx5_umr_sig_crc_bfs(const struct mlx5_umr_sig_crc *crc)
{
	u32 bfs;

	switch (crc->type) {
	case MLX5_UMR_SIG_CRC32:
		bfs = MLX5_UMR_BFS_CRC32_BASE;
		break;
	case MLX5_UMR_SIG_CRC32C:
		bfs = MLX5_UMR_BFS_CRC32C_BASE;
		break;
	default: /* MLX5_UMR_SIG_CRC64_XP10 */
		bfs = MLX5_UMR_BFS_CRC64_XP10_BASE;
		break;
	}
	if (!crc->seed)
		bfs |= MLX5_UMR_BFS_CRC_SEED_BIT;
	bfs |= MLX5_UMR_BFS_CRC_REPEAT_BIT;
	return bfs << MLX5_UMR_BFS_SHIFT;
}

/* mlx5_umr_fill_inl_bsf_t10dif(): the inline part of a T10 DIF domain. */
static void mlx5_umr_sig_fill_inl(struct mlx5_bsf_inl *inl,
				  const struct mlx5_umr_sig_t10dif *dif)
{
	u8 check = 0;

	inl->vld_refresh = cpu_to_be16(MLX5_BSF_INL_VALID |
				       MLX5_BSF_REFRESH_DIF);
	inl->dif_apptag = cpu_to_be16(dif->app_tag);
	inl->dif_reftag = cpu_to_be32(dif->ref_tag);
	inl->rp_inv_seed = MLX5_BSF_REPEAT_BLOCK;
	if (dif->bg)
		inl->rp_inv_seed |= MLX5_UMR_BSF_SEED;
	inl->sig_type = dif->bg_type == MLX5_UMR_SIG_T10DIF_CRC ?
			MLX5_DIF_CRC : MLX5_DIF_IPCS;
	if (dif->flags & MLX5_UMR_SIG_T10DIF_REF_REMAP)
		check |= MLX5_BSF_INC_REFTAG;
	/* the app+ref escape includes the app escape */
	if (dif->flags & MLX5_UMR_SIG_T10DIF_APP_REF_ESCAPE)
		check |= MLX5_BSF_APPREF_ESCAPE;
	else if (dif->flags & MLX5_UMR_SIG_T10DIF_APP_ESCAPE)
		check |= MLX5_BSF_APPTAG_ESCAPE;
	inl->dif_inc_ref_guard_check = check;
	inl->dif_app_bitmask_check = cpu_to_be16(0xffff);
}

/*
 * mlx5_umr_block_crc_sbs() and mlx5_umr_block_t10dif_sbs(): do both
 * domains have the same block structure, and which bytes of the
 * protection field are then copied rather than computed.
 */
static bool mlx5_umr_sig_sbs(const struct mlx5_umr_sig_domain *m,
			     const struct mlx5_umr_sig_domain *w, u8 *copy)
{
	*copy = 0;
	if (m->sig_type != w->sig_type || m->block_size != w->block_size)
		return false;
	if (w->sig_type == MLX5_UMR_SIG_CRC) {
		if (m->crc.type != w->crc.type)
			return false;
		*copy = w->crc.type == MLX5_UMR_SIG_CRC64_XP10 ?
			MLX5_UMR_SIG_MASK_CRC64_XP10 : MLX5_UMR_SIG_MASK_CRC32;
		return true;
	}
	if (m->dif.bg_type == w->dif.bg_type && m->dif.bg == w->dif.bg)
		*copy |= MLX5_UMR_SIG_MASK_T10DIF_GUARD;
	if (m->dif.app_tag == w->dif.app_tag)
		*copy |= MLX5_UMR_SIG_MASK_T10DIF_APPTAG;
	if (m->dif.ref_tag == w->dif.ref_tag)
		*copy |= MLX5_UMR_SIG_MASK_T10DIF_REFTAG;
	return true;
}

/* One domain's block format selector and PSV; its inline part if T10 DIF. */
static __be32 mlx5_umr_sig_bfs_psv(const struct mlx5_umr_sig_domain *d,
				   struct mlx5_bsf_inl *inl, u32 psv)
{
	u32 bfs = 0;

	if (d->sig_type == MLX5_UMR_SIG_CRC)
		bfs = mlx5_umr_sig_crc_bfs(&d->crc);
	else
		mlx5_umr_sig_fill_inl(inl, &d->dif);
	return cpu_to_be32(bfs | (psv & MLX5_UMR_BSF_PSV_INDEX_MASK));
}

/**
 * mlx5_umr_sig_fill_bsf() - the BSF of a signature (mlx5_umr_fill_sig_bsf())
 * @bsf: where to write; all of it is written
 * @attr: attributes that passed mlx5_umr_check_sig(), or none in either
 *	domain (a reset signature of an mkey that keeps its crypto BSF)
 * @psv: the mkey's memory and wire PSV numbers
 * @with_crypto: a crypto BSF follows: the size field says
 *	MLX5_UMR_BSF_SIZE_SIG_AND_CRYPTO (have_crypto_bsf of rdma-core)
 */
void mlx5_umr_sig_fill_bsf(struct mlx5_bsf *bsf,
			   const struct mlx5_umr_sig_attr *attr,
			   const u32 psv[2], bool with_crypto)
{
	const struct mlx5_umr_sig_domain *m = &attr->mem, *w = &attr->wire;
	struct mlx5_bsf_basic *basic = &bsf->basic;
	bool sbs;
	u8 copy;

	memset(bsf, 0, sizeof(*bsf));
	basic->bsf_size_sbs = (with_crypto ? MLX5_UMR_BSF_SIZE_SIG_AND_CRYPTO :
			       MLX5_UMR_BSF_SIZE_WITH_INLINE) <<
			      MLX5_UMR_BSF_SIZE_SHIFT;
	/* the length is the mkey's (rule 52), never more than this */
	basic->raw_data_size = cpu_to_be32(U32_MAX);
	/* rdma-core writes the mask only when a domain has a signature */
	if (mlx5_umr_sig_npsv(attr))
		basic->check_byte_mask = attr->check_mask;

	if (m->sig_type != MLX5_UMR_SIG_NONE) {
		basic->m_bfs_psv = mlx5_umr_sig_bfs_psv(m, &bsf->m_inl, psv[0]);
		basic->mem.bs_selector = mlx5_umr_bs_selector[m->block_size];
	}
	if (w->sig_type == MLX5_UMR_SIG_NONE)
		return;
	basic->w_bfs_psv = mlx5_umr_sig_bfs_psv(w, &bsf->w_inl, psv[1]);
	sbs = mlx5_umr_sig_sbs(m, w, &copy);
	/* with COPY_MASK, rule 50 made sure that sbs holds */
	if (attr->flags & MLX5_UMR_SIG_FLAG_COPY_MASK)
		copy = attr->copy_mask;
	if (sbs) {
		basic->bsf_size_sbs |= 1 << MLX5_UMR_BSF_SBS_SHIFT;
		basic->wire.copy_byte_mask = copy;
	} else {
		basic->wire.bs_selector = mlx5_umr_bs_selector[w->block_size];
	}
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_sig_fill_bsf);

/*
 * psv_transient_signature(): the 64-bit initial value of a PSV, the high
 * half in transient_sig, the low half in ref_tag (rdma-core's segment has
 * one 64-bit transient_signature there). T10 DIF: guard seed, app tag,
 * ref tag (wr.c set_psv_wr() too); CRC: the seed, a 32-bit one on top.
 */
static u64 mlx5_umr_sig_transient(const struct mlx5_umr_sig_domain *d)
{
	if (d->sig_type == MLX5_UMR_SIG_CRC)
		return d->crc.type == MLX5_UMR_SIG_CRC64_XP10 ?
		       d->crc.seed : d->crc.seed << 32;
	return (u64)d->dif.bg << 48 | (u64)d->dif.app_tag << 32 |
	       d->dif.ref_tag;
}

/* One SET_PSV WQE (mlx5_umr_set_psv()). */
static void mlx5_umr_sig_write_psv(void *buf, u32 qpn, u16 idx, u8 fm_ce_se,
				   u32 psv, const struct mlx5_umr_sig_domain *d)
{
	struct mlx5_wqe_ctrl_seg *ctrl = buf;
	struct mlx5_seg_set_psv *s = (void *)(ctrl + 1);
	u64 ts = mlx5_umr_sig_transient(d);

	*ctrl = (struct mlx5_wqe_ctrl_seg) {
		.opmod_idx_opcode = cpu_to_be32((u32)idx << 8 |
						MLX5_OPCODE_SET_PSV),
		.qpn_ds = cpu_to_be32(qpn << 8 | MLX5_UMR_SIG_PSV_WQE_DS),
		.fm_ce_se = fm_ce_se,
	};
	*s = (struct mlx5_seg_set_psv) {
		.psv_num = cpu_to_be32(psv),
		.transient_sig = cpu_to_be32(upper_32_bits(ts)),
		.ref_tag = cpu_to_be32(lower_32_bits(ts)),
	};
	memset(s + 1, 0, MLX5_UMR_SIG_PSV_WQE_SIZE - sizeof(*ctrl) - sizeof(*s));
}

/**
 * mlx5_umr_sig_write_psvs() - the SET_PSV WQEs after a signature's UMR
 * @buf: where the first goes (the end of the UMR WQE)
 * @wr: a request with MLX5_UMR_WR_SET_SIG that passed the rules
 * @qpn: the QP (ctrl segments)
 * @idx: WQE index of the first
 * @fm_ce_se: the request's completion flags: the last WQE asks for the
 *	request's CQE
 *
 * Memory domain first, then wire (umr_finalize_and_set_psvs()). Each
 * carries MLX5_FENCE_MODE_INITIATOR_SMALL: rdma-core's mlx5_umr_set_psv()
 * sets fm_cache to MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE, and mlx5_ib's
 * handle_reg_mr_integrity() finishes its SET_PSV WQEs with next_fence,
 * which mlx5_ib_post_send() sets to MLX5_FENCE_MODE_INITIATOR_SMALL for
 * IB_WR_REG_MR_INTEGRITY: the SET_PSV must not start before the UMR that
 * enabled the BSF has finished its local work.
 *
 * Return: bytes written.
 */
unsigned int mlx5_umr_sig_write_psvs(void *buf, const struct mlx5_umr_wr *wr,
				     u32 qpn, u16 idx, u8 fm_ce_se)
{
	const struct mlx5_umr_sig_attr *a = wr->sig;
	const struct mlx5_umr_mkey *mkey = wr->mkey;
	u8 ce = fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE;
	u8 fm = MLX5_FENCE_MODE_INITIATOR_SMALL;
	bool wire = a->wire.sig_type != MLX5_UMR_SIG_NONE;
	unsigned int n = 0;

	if (a->mem.sig_type != MLX5_UMR_SIG_NONE) {
		/* the last one signals (mlx5_umr_set_psv(reset_signal)) */
		mlx5_umr_sig_write_psv(buf, qpn, idx, fm | (wire ? 0 : ce),
				       mkey->psv[0], &a->mem);
		n++;
	}
	if (wire) {
		mlx5_umr_sig_write_psv(buf + n * MLX5_UMR_SIG_PSV_WQE_SIZE,
				       qpn, idx + n, fm | ce, mkey->psv[1],
				       &a->wire);
		n++;
	}
	return n * MLX5_UMR_SIG_PSV_WQE_SIZE;
}
