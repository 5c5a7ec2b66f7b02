// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: the WQE engine (UMR, SET_PSV, NOP; RDMA in fake_rdma.c).
 *
 * A UMR WQE is ctrl (16 B) + umr ctrl (48 B) + mkey context (64 B) +
 * translation (inline octowords, or one data segment pointing at them) +
 * optional BSF. Every check runs before anything is changed, so a rejected
 * UMR leaves the mkey untouched. Local invalidation is a UMR that sets
 * FREE (that is how mlx5_ib and rdma-core encode IB_WR_LOCAL_INV).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/mm.h>

#include <linux/sizes.h>

#include "fake.h"
#include "fake_sig.h"

#define FAKE_UMR_HDR	(sizeof(struct mlx5_wqe_ctrl_seg) + \
			 sizeof(struct mlx5_wqe_umr_ctrl_seg) + \
			 sizeof(struct mlx5_mkey_seg))

#define ERR_LEN(v)	fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, \
				     MLX5_UMR_FAKE_VS_##v)
#define ERR_OP(v)	fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, \
				     MLX5_UMR_FAKE_VS_##v)
#define ERR_PROT(v)	fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, \
				     MLX5_UMR_FAKE_VS_##v)

/*
 * One UMR WQE being executed: what its ctrl and UMR ctrl segments say,
 * gathered by fake_umr_parse() before anything else is looked at.
 */
struct fake_umr {
	struct mlx5_umr_fake *fd;
	struct fake_qp *qp;
	const u8 *wqe;
	bool inline_xlt;
	u32 ptr_key;
	u64 ptr_addr;
	u32 xlt_oct;
	u8 flags;	/* UMR ctrl flags */
	u64 mask;	/* mkey_mask */
	u64 xlt_off;	/* octowords, with TRANSLATION_OFFSET_EN */
	u32 bsf_oct;	/* without TRANSLATION_OFFSET_EN */
	u64 need;	/* bytes the segments take */
	const void *seg;	/* the mkey segment */
};

/*
 * Read @n bytes at byte @off of the UMR's translation data. The pointer's
 * lkey is a local access by the posting QP, so the mkey must be in the
 * QP's PD: mlx5_ib hands its REG_UMR QP a key of that QP's own PD (Linux
 * 6.12.117 drivers/infiniband/hw/mlx5/umr.c mlx5r_umr_create_xlt(), from
 * mlx5r_umr_update_xlt(): sg->lkey = dev->umrc.pd->local_dma_lkey, the PD
 * umrc.qp is created in by mlx5r_umr_resource_init()); only the reserved
 * lkey, with umr_ptr_rlky (en_main.c), is outside PDs.
 */
static int fake_umr_xlt_read(struct fake_umr *u, u64 off, void *dst, size_t n)
{
	int err;

	if (u->inline_xlt) {
		memcpy(dst, u->wqe + FAKE_UMR_HDR + off, n);
		return 0;
	}
	if (u->ptr_key == MLX5_UMR_FAKE_RESD_LKEY)
		return fake_iommu_rw(u->fd, u->ptr_addr + off, dst, n, false) ?
			ERR_PROT(XLT_FAULT) : 0;
	err = fake_access(u->fd, u->ptr_key, u->ptr_addr + off, dst, n,
			  false, false, u->qp->pdn);
	if (err == FAKE_X_PD)
		return ERR_PROT(XLT_PD);
	return err ? ERR_PROT(XLT_FAULT) : 0;
}

static int fake_umr_check_entries(struct fake_umr *u, u8 mode, u64 xlt_off)
{
	struct mlx5_stride_block_ctrl_seg rb;
	struct mlx5_klm e;
	u32 i, first = 0, n, sum = 0;
	int err;

	if (mode != MLX5_MKC_ACCESS_MODE_KLMS &&
	    mode != MLX5_MKC_ACCESS_MODE_KSM) {
		/* MTT/PA carry addresses, checked on access; probe pointer */
		if (!u->inline_xlt && u->xlt_oct)
			return fake_umr_xlt_read(u, 0, NULL,
						 (size_t)u->xlt_oct * 16);
		return 0;
	}
	if (!u->xlt_oct)
		return 0;
	err = fake_umr_xlt_read(u, 0, &rb, sizeof(rb));
	if (err)
		return err;
	n = u->xlt_oct;
	if (mode == MLX5_MKC_ACCESS_MODE_KLMS && !xlt_off &&
	    be32_to_cpu(rb.op) == MLX5_STRIDE_BLOCK_OP) {
		n = be16_to_cpu(rb.num_entries);
		if (!n || n > u->xlt_oct - 1 || !rb.repeat_count)
			return ERR_OP(XLT_BAD_RB);
		first = 1;
		n += 1;
	}
	for (i = first; i < n; i++) {
		err = fake_umr_xlt_read(u, (u64)i * 16, &e, sizeof(e));
		if (err)
			return err;
		if (first) {
			const struct mlx5_stride_block_entry *se = (void *)&e;

			if (be16_to_cpu(se->stride) < be16_to_cpu(se->bcount))
				return ERR_OP(XLT_BAD_RB);
			sum += be16_to_cpu(se->bcount);
		} else if (!e.bcount && !e.key && !e.va) {
			continue;	/* zero padding */
		} else if (mode == MLX5_MKC_ACCESS_MODE_KLMS &&
			   be32_to_cpu(e.bcount) > SZ_2G) {
			return ERR_OP(KLM_BCOUNT);
		}
		if (!fake_key_usable(u->fd, be32_to_cpu(e.key)))
			return ERR_PROT(XLT_BAD_KEY);
	}
	if (first && sum != be32_to_cpu(rb.bcount_per_cycle))
		return ERR_OP(XLT_BAD_RB);
	return 0;
}

static int fake_umr_check_mask(struct mlx5_umr_fake *fd, u64 mask)
{
	if ((mask & MLX5_MKEY_MASK_PAGE_SIZE) &&
	    fd->caps.umr_modify_entity_size_disabled)
		return ERR_OP(MASK_FORBIDDEN);
	if ((mask & MLX5_MKEY_MASK_A) && fd->caps.umr_modify_atomic_disabled)
		return ERR_OP(MASK_FORBIDDEN);
	if ((mask & MLX5_MKEY_MASK_RELAXED_ORDERING_WRITE) &&
	    !fd->caps.relaxed_ordering_write_umr)
		return ERR_OP(MASK_FORBIDDEN);
	if ((mask & MLX5_MKEY_MASK_RELAXED_ORDERING_READ) &&
	    !fd->caps.relaxed_ordering_read_umr)
		return ERR_OP(MASK_FORBIDDEN);
	return 0;
}

/* The UMR ctrl segment: flags, translation size and offset, BSF size. */
static int fake_umr_parse_ctrl(struct fake_umr *u,
			       const struct mlx5_wqe_umr_ctrl_seg *uc)
{
	const u8 known = MLX5_UMR_TRANSLATION_OFFSET_EN | MLX5_UMR_CHECK_FREE |
			 MLX5_UMR_CHECK_NOT_FREE | MLX5_UMR_INLINE |
			 MLX5_UMR_IFC_CHECK_QPN;
	const u8 both = MLX5_UMR_CHECK_FREE | MLX5_UMR_CHECK_NOT_FREE;

	u->flags = uc->flags;
	u->mask = be64_to_cpu(uc->mkey_mask);
	if (u->flags & ~known)
		return ERR_OP(BAD_FLAGS);
	if ((u->flags & both) == both)
		return ERR_OP(BAD_FLAGS);
	u->xlt_oct = be16_to_cpu(uc->xlt_octowords);
	u->inline_xlt = u->flags & MLX5_UMR_INLINE;
	if (u->flags & MLX5_UMR_TRANSLATION_OFFSET_EN) {
		u32 hi = be32_to_cpu(uc->xlt_offset_47_16);

		if (hi && !u->fd->caps.umr_extended_translation_offset)
			return ERR_OP(XLT_OFFSET);
		u->xlt_off = be16_to_cpu(uc->xlt_offset) | (u64)hi << 16;
	} else {
		u->bsf_oct = be16_to_cpu(uc->bsf_octowords);
	}
	return 0;
}

/* The WQE holds its segments; a pointer to the translation is usable. */
static int fake_umr_parse_size(struct fake_umr *u, unsigned int size)
{
	const struct mlx5_wqe_data_seg *ds;

	u->need = FAKE_UMR_HDR;
	if (u->inline_xlt) {
		if (u->xlt_oct % 4)
			return ERR_LEN(XLT_ALIGN);
		u->need += (u64)u->xlt_oct * 16;
	} else if (u->xlt_oct) {
		u->need += sizeof(struct mlx5_wqe_data_seg);
	}
	u->need += (u64)u->bsf_oct * 16;
	if (u->need > size)
		return ERR_LEN(BAD_DS);
	if (u->inline_xlt || !u->xlt_oct)
		return 0;

	ds = (const void *)(u->wqe + FAKE_UMR_HDR);
	u->ptr_key = be32_to_cpu(ds->lkey);
	u->ptr_addr = be64_to_cpu(ds->addr);
	if (be32_to_cpu(ds->byte_count) < u->xlt_oct * 16)
		return ERR_LEN(PTR_LEN);
	/* Translation tables are 2048-byte aligned (MLX5_UMR_ALIGN). */
	if (u->ptr_addr & (SZ_2K - 1))
		return ERR_OP(PTR_ALIGN);
	if (u->ptr_key == MLX5_UMR_FAKE_RESD_LKEY &&
	    (!u->qp->rlky || !u->fd->caps.umr_ptr_rlky))
		return ERR_PROT(PTR_NO_RLKY);
	return 0;
}

/* The target mkey: UMR may change it, in its state, as far as the WQE asks. */
static int fake_umr_check_mkey(struct fake_umr *u, struct fake_mkey *mk,
			       u8 mode)
{
	struct mlx5_umr_fake *fd = u->fd;
	int err;

	if (!MLX5_GET(mkc, mk->mkc, umr_en))
		return ERR_PROT(MKEY_NOT_UMR);
	if (fd->caps.umr_indirect_mkey_disabled &&
	    (mode == MLX5_MKC_ACCESS_MODE_KLMS ||
	     mode == MLX5_MKC_ACCESS_MODE_KSM))
		return ERR_PROT(INDIRECT_DISABLED);
	/* Kernel names: CHECK_FREE = fail if free, CHECK_NOT_FREE = fail if not free */
	if ((u->flags & MLX5_UMR_CHECK_FREE) && MLX5_GET(mkc, mk->mkc, free))
		return ERR_PROT(MKEY_FREE);
	if ((u->flags & MLX5_UMR_CHECK_NOT_FREE) &&
	    !MLX5_GET(mkc, mk->mkc, free))
		return ERR_PROT(MKEY_NOT_FREE);
	/*
	 * Check QPN (rdma-core's local invalidation, qp.c
	 * set_umr_control_seg()): the IB rule for invalidating a type-2
	 * window, that it be bound to the posting QP; an mkey bound to no
	 * QP (qpn 0xffffff, as every mkey mlx5_ib creates) passes.
	 */
	if (u->flags & MLX5_UMR_IFC_CHECK_QPN) {
		u32 bound = MLX5_GET(mkc, mk->mkc, qpn);

		if (bound != 0xffffff && bound != u->qp->qpn)
			return ERR_PROT(MKEY_QPN);
	}
	err = fake_umr_check_mask(fd, u->mask);
	if (err)
		return err;
	if (u->xlt_off + u->xlt_oct > mk->xlt_oct)
		return ERR_LEN(XLT_TOO_BIG);
	if (u->bsf_oct > mk->bsf_oct)
		return ERR_PROT(BSF);
	/*
	 * The target's PD is not compared with the QP's: a REG_UMR QP
	 * modifies mkeys of any PD and moves them between PDs (Linux
	 * 6.12.117 umr.c mlx5r_umr_rereg_pd_access() sets MLX5_MKEY_MASK_PD
	 * to any PD from umrc.qp). Only the new PD must exist.
	 */
	if ((u->mask & MLX5_MKEY_MASK_PD) &&
	    !xa_load(&fd->pds, MLX5_GET(mkc, u->seg, pd)))
		return ERR_PROT(BAD_PD);
	return 0;
}

/*
 * A BSF the UMR carries must decode, strictly, as an access would decode
 * it: on a signature mkey the signature BSF (fake_sig.c), naming live
 * PSVs; on a crypto mkey the crypto BSF alone (4 octowords) or the
 * signature and crypto pair (8), as rdma-core's crypto_umr_wqe_finalize()
 * writes them, and no other size (the pair only: 8 on an mkey with room
 * for it). The DEK, its PD and keytag are looked
 * up at the access (fake_crypto_bind()), as the DEK may come and go.
 */
static int fake_umr_check_bsf(struct fake_umr *u, const struct fake_mkey *mk)
{
	const u8 *bsf = u->wqe + u->need - (u64)u->bsf_oct * 16;
	struct fake_xts x;
	struct fake_sig s;

	if (!u->bsf_oct)
		return 0;
	if (!fake_mkey_crypto(mk))
		return fake_sig_decode(u->fd, bsf, u->bsf_oct, &s);
	switch (u->bsf_oct) {
	case FAKE_CRYPTO_BSF_OCT:
		/*
		 * An mkey made with room for the pair has a signature
		 * context: rdma-core (verbs.c mlx5dv_create_mkey() sizes the
		 * BSF so, qp.c crypto_umr_wqe_finalize() writes the signature
		 * BSF before the crypto one) never sends the crypto BSF alone.
		 */
		if (mk->bsf_oct == FAKE_PAIR_BSF_OCT)
			return ERR_OP(BSF_BAD);
		return fake_crypto_decode(u->fd, (const void *)bsf, false, &x);
	case FAKE_PAIR_BSF_OCT:
		return fake_bsf_pair_decode(u->fd, bsf, u->bsf_oct, &s, &x);
	default:
		return ERR_OP(BSF_BAD);
	}
}

/* Every check passed: write translation, BSF and the masked fields. */
static int fake_umr_commit(struct fake_umr *u, struct fake_mkey *mk)
{
	int err;

	if (u->xlt_oct) {
		err = fake_umr_xlt_read(u, 0, mk->xlt + u->xlt_off * 16,
					(size_t)u->xlt_oct * 16);
		if (err)
			return err;
	}
	if (u->bsf_oct) {
		const u8 *bsf = u->wqe + u->need - (u64)u->bsf_oct * 16;

		memcpy(mk->bsf, bsf, (size_t)u->bsf_oct * 16);
	}
	fake_mkey_apply_mask(mk->mkc, u->seg, u->mask);
	return 0;
}

/*
 * The mkey a UMR modifies, found by index as the device does. A WQE that
 * installs a new key byte (mask KEY) may name the mkey by its new key, as
 * wr.c handle_reg_mr() puts the new key in the ctrl segment after
 * ib_update_fast_reg_key() (Linux 6.12.117), or by its current key, as
 * rdma-core v44.0 qp.c _build_umr_wqe() does for a window bind and for
 * ibv_wr_local_inv (ctrl: the key invalidated; mkey segment: the new
 * byte, 0 for an invalidation). A byte that is neither is an unknown
 * mkey. Any other WQE must name the current key (a stale key is an
 * unknown mkey).
 */
static struct fake_mkey *fake_umr_target(struct mlx5_umr_fake *fd,
					 const struct fake_umr *u, u32 key)
{
	const struct mlx5_mkey_seg *seg = u->seg;
	struct fake_mkey *mk;

	if (!(u->mask & MLX5_MKEY_MASK_KEY))
		return fake_mkey_lookup(fd, key);
	mk = xa_load(&fd->mkeys, key >> 8);
	if (!mk)
		return NULL;
	if ((be32_to_cpu(seg->qpn_mkey7_0) & 0xff) != (key & 0xff) &&
	    MLX5_GET(mkc, mk->mkc, mkey_7_0) != (key & 0xff))
		return NULL;
	return mk;
}

static int fake_umr_exec(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			 const u8 *wqe, unsigned int size)
{
	const struct mlx5_wqe_ctrl_seg *ctrl = (const void *)wqe;
	const struct mlx5_wqe_umr_ctrl_seg *uc = (const void *)(ctrl + 1);
	struct fake_umr u = {
		.fd = fd, .qp = qp, .wqe = wqe, .seg = uc + 1,
	};
	struct fake_mkey *mk;
	u8 mode;
	int err;

	err = fake_umr_parse_ctrl(&u, uc);
	if (err)
		return err;
	err = fake_umr_parse_size(&u, size);
	if (err)
		return err;
	mk = fake_umr_target(fd, &u, be32_to_cpu(ctrl->umr_mkey));
	if (!mk)
		return ERR_PROT(MKEY_UNKNOWN);
	mode = fake_mkey_access_mode(mk->mkc);
	err = fake_umr_check_mkey(&u, mk, mode);
	if (err)
		return err;
	err = fake_umr_check_entries(&u, mode, u.xlt_off);
	if (err)
		return err;
	err = fake_umr_check_bsf(&u, mk);
	if (err)
		return err;
	return fake_umr_commit(&u, mk);
}

static int fake_set_psv_exec(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			     const u8 *wqe, unsigned int size)
{
	const struct mlx5_seg_set_psv *s = (const void *)(wqe +
					sizeof(struct mlx5_wqe_ctrl_seg));
	struct fake_psv *psv;

	if (size < sizeof(struct mlx5_wqe_ctrl_seg) + sizeof(*s))
		return ERR_LEN(BAD_DS);
	psv = xa_load(&fd->psvs, be32_to_cpu(s->psv_num) & 0xffffff);
	if (!psv)
		return ERR_PROT(PSV_UNKNOWN);
	/*
	 * The PSV's PD must be the posting QP's: both references post
	 * SET_PSV only so (mlx5_ib 6.12 wr.c set_psv_wr() on the consumer's
	 * QP, mr.c mlx5_alloc_integrity_descs() creating the PSVs in its PD;
	 * rdma-core 691953d8d qp.c umr_finalize_and_set_psvs() on the
	 * application's QP, verbs.c mlx5_create_sig_psvs() in the mkey's PD).
	 * A mismatch is a protection error, as a UMR's BAD_PD.
	 */
	if (psv->pdn != qp->pdn)
		return ERR_PROT(PSV_PD);
	/* the new transient signature; a PSV in error is armed again */
	psv->val = *s;
	psv->sig_err = false;
	memset(&psv->err, 0, sizeof(psv->err));
	return 0;
}

/**
 * fake_wqe_exec() - execute one WQE
 * @fd: the fake
 * @qp: the QP it was posted on
 * @wqe: the WQE, ctrl segment first, contiguous
 * @size: ds * 16
 *
 * Context: fd->lock held.
 * Return: 0 or fake_wqe_err(syndrome, vendor syndrome).
 */
int fake_wqe_exec(struct mlx5_umr_fake *fd, struct fake_qp *qp,
		  const u8 *wqe, unsigned int size)
{
	const struct mlx5_wqe_ctrl_seg *ctrl = (const void *)wqe;

	lockdep_assert_held(&fd->lock);
	switch (be32_to_cpu(ctrl->opmod_idx_opcode) & MLX5_WQE_CTRL_OPCODE_MASK) {
	case MLX5_OPCODE_NOP:
		return 0;
	case MLX5_OPCODE_UMR:
		return fake_umr_exec(fd, qp, wqe, size);
	case MLX5_OPCODE_SET_PSV:
		return fake_set_psv_exec(fd, qp, wqe, size);
	case MLX5_OPCODE_RDMA_WRITE:
	case MLX5_OPCODE_RDMA_READ:
		/*
		 * An RC QP's (fake_rdma.c). The REG_UMR QP has no peer:
		 * mlx5_ib posts only UMR WQEs on it (Linux 6.12.117
		 * drivers/infiniband/hw/mlx5/umr.c mlx5r_umr_post_send():
		 * MLX5_OPCODE_UMR) and its RTR transition names no remote
		 * QP (mlx5r_umr_qp_rst2rts()), so there it stays an unknown
		 * opcode.
		 */
		if (qp->st != MLX5_QP_ST_RC)
			return ERR_OP(BAD_OPCODE);
		return fake_rdma_exec(fd, qp, wqe, size,
				      (be32_to_cpu(ctrl->opmod_idx_opcode) &
				       MLX5_WQE_CTRL_OPCODE_MASK) ==
				      MLX5_OPCODE_RDMA_WRITE);
	default:
		return ERR_OP(BAD_OPCODE);
	}
}
