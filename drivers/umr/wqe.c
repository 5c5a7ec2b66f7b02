// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: UMR WQE encoder.
 *
 * One request becomes one UMR WQE: ctrl segment, UMR ctrl segment, mkey
 * segment (the mkc layout), then either the translation inline (padded to
 * 64 bytes) or one data segment pointing at the mkey's translation table.
 * Wire structs come from include/linux/mlx5/; the layout per operation is
 * described in Documentation/wqe.rst. Pure functions: no lock, no
 * allocation, no device access.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/string.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5_umr_ifc.h>

#include "wqe.h"
#include "xlt.h"
#include "rules.h"
#include "sig.h"
#include "crypto.h"

/* The three segments every UMR WQE starts with (cf. umr.h mlx5r_umr_wqe). */
struct mlx5_umr_wqe_hdr {
	struct mlx5_wqe_ctrl_seg ctrl;
	struct mlx5_wqe_umr_ctrl_seg umr;
	struct mlx5_mkey_seg mkey;
};

static_assert(sizeof(struct mlx5_umr_wqe_hdr) == MLX5_UMR_WQE_HDR_SIZE);

/*
 * Translation changes: mlx5_ib's KLM FRWR mask (wr.c frwr_mkey_mask()) less
 * START_ADDR (only with MLX5_UMR_WR_SET_IOVA, as rdma-core's configure never
 * sets it), PAGE_SIZE (KLMs have none), SMALL_FENCE and the access bits
 * (their own mask).
 */
#define MLX5_UMR_LAYOUT_MASK	(MLX5_MKEY_MASK_FREE | MLX5_MKEY_MASK_KEY | \
				 MLX5_MKEY_MASK_LEN | MLX5_MKEY_MASK_EN_RINVAL)

/* Registration of pages (umr.c mlx5r_umr_final_update_xlt with ENABLE). */
#define MLX5_UMR_REG_PAGES_MASK	(MLX5_MKEY_MASK_FREE | MLX5_MKEY_MASK_KEY | \
				 MLX5_MKEY_MASK_LEN | \
				 MLX5_MKEY_MASK_PAGE_SIZE | \
				 MLX5_MKEY_MASK_START_ADDR | MLX5_MKEY_MASK_PD)

static u64 umr_access_mask(const struct mlx5_umr_caps *caps)
{
	u64 mask = MLX5_MKEY_MASK_LR | MLX5_MKEY_MASK_LW | MLX5_MKEY_MASK_RR |
		   MLX5_MKEY_MASK_RW;

	/*
	 * umr.c get_umr_update_access_mask() adds A with the atomic cap, and
	 * umr_check_mkey_mask() refuses it where UMR may not modify it.
	 */
	if (caps->atomic && !caps->umr_modify_atomic_disabled)
		mask |= MLX5_MKEY_MASK_A;
	return mask;
}

/*
 * mkc access bits (a, rw, rr, lw, lr) are the MLX5_PERM_* bits of the mkey
 * segment's flags byte, as wr.c get_umr_flags() builds them; lr is always
 * granted (umr.c set_mkc_access_pd_addr_fields()).
 */
static u8 umr_perm(u32 access)
{
	u8 perm = MLX5_PERM_LOCAL_READ;

	if (access & MLX5_UMR_ACCESS_REMOTE_ATOMIC)
		perm |= MLX5_PERM_ATOMIC;
	if (access & MLX5_UMR_ACCESS_REMOTE_WRITE)
		perm |= MLX5_PERM_REMOTE_WRITE;
	if (access & MLX5_UMR_ACCESS_REMOTE_READ)
		perm |= MLX5_PERM_REMOTE_READ;
	if (access & MLX5_UMR_ACCESS_LOCAL_WRITE)
		perm |= MLX5_PERM_LOCAL_WRITE;
	return perm;
}

/*
 * What the header says beyond the ctrl segment: gathered per operation,
 * then stored at once (mlx5_umr_wqe_encode()).
 */
struct umr_hdr_fields {
	u64 mask;		/* umr ctrl mkey_mask */
	u8 umr_flags;		/* umr ctrl flags */
	u8 status;		/* mkc free */
	u8 perm;		/* mkc a, rw, rr, lw, lr */
	u8 log_page_size;	/* mkc log_page_size */
	u32 flags_pd;		/* mkc en_rinval and pd */
	u64 start_addr;		/* mkc start_addr */
	u64 len;		/* mkc len */
};

/*
 * Entries are checked as they are written, each read once into locals: the
 * ring stores could alias the caller's array as far as the compiler knows,
 * and would make it read every field again after every store.
 */
static int umr_write_list(struct mlx5_klm *klm, const struct mlx5_umr_wr *wr,
			  u64 *len)
{
	const struct mlx5_umr_sge *sge = wr->list.sge;
	const struct mlx5_umr_sge *end = sge + wr->list.num_sge;
	const u32 first_key = sge->key;
	u64 sum = 0;
	int err;

	for (; sge < end; sge++, klm++) {
		const struct mlx5_umr_sge e = *sge;

		err = mlx5_umr_sge_check(&e);
		if (unlikely(err))
			return err;
		*klm = (struct mlx5_klm) {
			.bcount = cpu_to_be32(e.length),
			.key = cpu_to_be32(e.key),
			.va = cpu_to_be64(e.addr),
		};
		sum += e.length;
	}
	*len = sum;
	/* after rules 12 and 13 of every entry, as mlx5_umr_check_list() */
	return mlx5_umr_rule_list_first_key(first_key);
}

static void umr_write_sgt(struct mlx5_klm *klm, const struct mlx5_umr_wr *wr,
			  u32 lkey, u32 nklms)
{
	__be32 key = cpu_to_be32(lkey);
	u64 left = wr->sgt.length;
	struct scatterlist *sg;
	u32 i;

	/* entries are device addresses, reached through a DMA key of the PD */
	for_each_sg(wr->sgt.sgl, sg, nklms, i) {
		u32 len = min_t(u64, sg_dma_len(sg), left);

		klm[i].bcount = cpu_to_be32(len);
		klm[i].key = key;
		klm[i].va = cpu_to_be64(sg_dma_address(sg));
		left -= len;
	}
}

static int umr_write_interleaved(struct mlx5_stride_block_ctrl_seg *rb,
				 const struct mlx5_umr_wr *wr, u64 *len)
{
	const struct mlx5_umr_interleaved *ent = wr->interleaved.ent;
	const u32 repeat = wr->interleaved.repeat_count;
	const u32 n = wr->interleaved.num_entries;
	struct mlx5_stride_block_entry *out = (void *)(rb + 1);
	u32 per_cycle = 0;
	u32 i;
	int err;

	for (i = 0; i < n; i++, out++) {
		const struct mlx5_umr_interleaved e = ent[i];

		err = mlx5_umr_il_check(&e, repeat);
		if (unlikely(err))
			return err;
		*out = (struct mlx5_stride_block_entry) {
			.stride = cpu_to_be16(e.bytes_count + e.bytes_skip),
			.bcount = cpu_to_be16(e.bytes_count),
			.key = cpu_to_be32(e.key),
			.va = cpu_to_be64(e.addr),
		};
		per_cycle += e.bytes_count;
	}
	*rb = (struct mlx5_stride_block_ctrl_seg) {
		.bcount_per_cycle = cpu_to_be32(per_cycle),
		.op = cpu_to_be32(MLX5_STRIDE_BLOCK_OP),
		.repeat_count = cpu_to_be32(repeat),
		.num_entries = cpu_to_be16(n),
	};
	*len = (u64)per_cycle * repeat;
	return 0;
}

static void umr_write_mtts(struct mlx5_mtt *mtt, const struct mlx5_umr_wr *wr)
{
	const dma_addr_t *addr = wr->pages.addrs;
	u32 i;

	for (i = 0; i < wr->pages.npages; i++)
		mtt[i].ptag = cpu_to_be64((u64)addr[i] | MLX5_UMR_MTT_PRESENT);
}

/* A new translation for an indirect mkey: list, interleaved or sgt. */
static int umr_encode_layout(struct umr_hdr_fields *f, void *xlt,
			     const struct mlx5_umr_wqe_ctx *ctx,
			     const struct mlx5_umr_wr *wr, u32 nklms)
{
	int err = 0;

	switch (wr->layout) {
	case MLX5_UMR_LAYOUT_LIST:
		err = umr_write_list(xlt, wr, &f->len);
		break;
	case MLX5_UMR_LAYOUT_INTERLEAVED:
		err = umr_write_interleaved(xlt, wr, &f->len);
		break;
	default: /* MLX5_UMR_LAYOUT_SGT */
		/* a key valid in the mkey's PD (rule 37) */
		umr_write_sgt(xlt, wr, wr->sgt.lkey ?: wr->mkey->dma_lkey,
			      nklms);
		f->len = wr->sgt.length;
		break;
	}
	/* free stays 0: the mkey is enabled with the new translation */
	if (wr->mkey->flags & MLX5_UMR_MKEY_REMOTE_INVALIDATE)
		f->flags_pd |= MLX5_MKEY_REMOTE_INVAL;
	f->mask |= MLX5_UMR_LAYOUT_MASK;
	return err;
}

static void umr_encode_reg_pages(struct umr_hdr_fields *f, void *xlt,
				 const struct mlx5_umr_wqe_ctx *ctx,
				 const struct mlx5_umr_wr *wr)
{
	const struct mlx5_umr_caps *caps = ctx->caps;
	u32 pdn = wr->flags & MLX5_UMR_WR_SET_PD ? wr->pdn : caps->pdn;

	umr_write_mtts(xlt, wr);
	/* a registration defines the rights: access is always applied */
	f->perm = umr_perm(wr->access);
	f->flags_pd = pdn & MLX5_UMR_PDN_MAX;
	f->start_addr = wr->pages.iova;
	f->len = wr->pages.length;
	f->log_page_size = PAGE_SHIFT;
	/* 1 << 5 is "fail if not free": only a free mkey gets new pages */
	f->umr_flags |= MLX5_UMR_CHECK_NOT_FREE;
	f->mask |= MLX5_UMR_REG_PAGES_MASK | umr_access_mask(caps);
}

/*
 * Only the signature changes: no state check, as rdma-core's
 * mlx5_send_wr_mkey_configure() (the PSVs of an mkey invalidated since
 * can still be re-armed, mlx5_umr_sig_check()).
 */
#define MLX5_UMR_WR_SIG_ONLY	(MLX5_UMR_WR_SET_SIG | MLX5_UMR_WR_RESET_SIG)

/* A signature BSF with neither domain: the reset half of a BSF pair. */
static const struct mlx5_umr_sig_attr umr_no_sig;

/*
 * The signature BSF of a pair: the one the request sets, none after a
 * reset, else the one the mkey keeps (wr->priv.bsf_sig, set when it is posted).
 */
static const struct mlx5_umr_sig_attr *umr_pair_sig(const struct mlx5_umr_wr *wr)
{
	if (wr->flags & MLX5_UMR_WR_SET_SIG)
		return wr->sig;
	if (!(wr->flags & MLX5_UMR_WR_RESET_SIG) && wr->priv.bsf_sig)
		return wr->priv.bsf_sig;
	return &umr_no_sig;
}

/*
 * The BSFs after the inline translation at @bsf, with the mask bit and mkc
 * bit of rdma-core's umr_enable_bsf(), and with a signature BSF the mkey
 * armed for SIG_ERR. A signature alone: its BSF, or
 * (reset) the BSF disabled (umr_wqe_finalize()). Crypto: its BSF; on an
 * mkey with both, after the signature BSF of umr_pair_sig(), both size
 * fields saying SIG_AND_CRYPTO, and the BSF enabled even when the
 * signature is reset (crypto_umr_wqe_finalize()).
 */
static void umr_encode_bsf(struct umr_hdr_fields *f, void *bsf,
			   const struct mlx5_umr_caps *caps,
			   const struct mlx5_umr_wr *wr)
{
	bool pair = wr->mkey->flags & MLX5_UMR_MKEY_SIGNATURE;

	f->mask |= MLX5_MKEY_MASK_BSF_EN;
	if ((wr->flags & MLX5_UMR_WR_SET_SIG) ||
	    (pair && (wr->flags & MLX5_UMR_WR_SET_CRYPTO))) {
		/* a signature BSF: arm SIG_ERR (mlx5_umr_sig_armed()) */
		f->mask |= MLX5_MKEY_MASK_EN_SIGERR;
		f->flags_pd |= (u32)(wr->priv.sigerr & 1) <<
			       MLX5_UMR_MKEY_SIGERR_SHIFT;
	}
	if (!(wr->flags & MLX5_UMR_WR_SET_CRYPTO)) {
		if (!(wr->flags & MLX5_UMR_WR_SET_SIG))
			return;
		mlx5_umr_sig_fill_bsf(bsf, wr->sig, wr->mkey->psv, false);
		f->flags_pd |= MLX5_MKEY_BSF_EN;
		return;
	}
	if (pair) {
		mlx5_umr_sig_fill_bsf(bsf, umr_pair_sig(wr), wr->mkey->psv,
				      true);
		bsf += MLX5_UMR_SIG_BSF_SIZE;
	}
	mlx5_umr_crypto_fill_bsf(bsf, wr->crypto, caps, pair);
	f->flags_pd |= MLX5_MKEY_BSF_EN;
}

/* Zero-pad the translation: 8-byte stores, a few at most when inline. */
static void umr_pad(void *t, u32 bytes, u32 padded)
{
	__be64 *p = t + bytes, *end = t + padded;

	while (p < end)
		*p++ = 0;
}

/* The fields and translation entries of what @wr asks for. */
static __always_inline int umr_encode_op(struct umr_hdr_fields *f, void *t,
					 const struct mlx5_umr_wqe_ctx *ctx,
					 const struct mlx5_umr_wr *wr, u32 bytes)
{
	const struct mlx5_umr_caps *caps = ctx->caps;

	switch (wr->op) {
	case MLX5_UMR_OP_CONFIGURE:
		if (wr->layout != MLX5_UMR_LAYOUT_NONE) {
			int err = umr_encode_layout(f, t, ctx, wr,
						    bytes / sizeof(struct mlx5_klm));

			if (err)
				return err;
			/*
			 * mkc.start_addr, the address of the layout's first
			 * byte, as wr.c set_reg_mkey_seg() writes mr->iova
			 * (rule 65: only here). Without the flag the bit is
			 * not in the mask, as in rdma-core's
			 * mlx5_send_wr_set_mkey_layout(): the address stays.
			 */
			if (wr->flags & MLX5_UMR_WR_SET_IOVA) {
				f->start_addr = wr->iova;
				f->mask |= MLX5_MKEY_MASK_START_ADDR;
			}
		} else if (wr->flags & MLX5_UMR_WR_SET_CRYPTO) {
			/*
			 * Free bit in the mask, clear: a (re-)keyed mkey is
			 * enabled, as rdma-core's mlx5_send_wr_mkey_configure()
			 * (qp.c: mkey_mask MLX5_WQE_UMR_CTRL_MKEY_MASK_FREE,
			 * mk->free 0, no CHECK flag) enables it.
			 */
			f->mask |= MLX5_MKEY_MASK_FREE;
		}
		/*
		 * No "fail if free" (2 << 5) on an access or PD change: a
		 * peer's SEND_WITH_INV frees the mkey behind the service's
		 * back, and the error CQE of a CHECK_FREE UMR would reset the
		 * QP every consumer shares. rdma-core's
		 * mlx5_send_wr_mkey_configure() (providers/mlx5/qp.c at
		 * 691953d8d502) sets no CHECK flag either; unlike it, the free bit is not in the
		 * mask: the mkey stays free, its old translation is not
		 * enabled again (Documentation/service.rst, "Errors and
		 * back-pressure").
		 */
		if (wr->flags & MLX5_UMR_WR_SET_ACCESS) {
			f->perm = umr_perm(wr->access);
			f->mask |= umr_access_mask(caps);
		}
		if (wr->flags & MLX5_UMR_WR_SET_PD) {
			f->flags_pd |= wr->pdn & MLX5_UMR_PDN_MAX;
			f->mask |= MLX5_MKEY_MASK_PD;
		}
		return 0;
	case MLX5_UMR_OP_INVALIDATE:
		/* wr.c set_linv_wr(): only the free bit; no CHECK flag */
		f->status = MLX5_MKEY_STATUS_FREE;
		f->mask = MLX5_MKEY_MASK_FREE;
		return 0;
	case MLX5_UMR_OP_REG_PAGES:
		umr_encode_reg_pages(f, t, ctx, wr);
		return 0;
	default:
		return -EINVAL;
	}
}

int mlx5_umr_wqe_encode(const struct mlx5_umr_wqe_ctx *ctx,
			const struct mlx5_umr_wr *wr,
			const struct mlx5_umr_xlt *xlt, u16 idx, u8 fm_ce_se,
			void *buf, unsigned int size)
{
	const struct mlx5_umr_caps *caps = ctx->caps;
	struct mlx5_umr_wqe_hdr *w = buf;
	u32 bytes = mlx5_umr_xlt_bytes(wr), padded;
	struct umr_hdr_fields f = {};
	unsigned int need, ds, psvs = mlx5_umr_sig_psv_bytes(wr);
	/* signature, crypto, or the pair of an mkey with both */
	unsigned int bsf = mlx5_umr_wr_bsf_bytes(wr);
	u16 octo;
	bool inl;
	void *t;
	int err;

	padded = ALIGN(bytes, MLX5_UMR_FLEX_ALIGNMENT);
	/* a BSF goes inline after the translation (rules 51 and 61) */
	inl = padded <= mlx5_umr_inline_max(caps) || bsf;
	if (inl) {
		need = MLX5_UMR_WQE_HDR_SIZE + padded + bsf;
		ds = need / MLX5_SEND_WQE_DS;
		t = w + 1;
	} else {
		if (!xlt || xlt->size < padded)
			return -EINVAL;
		need = MLX5_UMR_WQE_PTR_SIZE;
		ds = (MLX5_UMR_WQE_HDR_SIZE +
		      sizeof(struct mlx5_wqe_data_seg)) / MLX5_SEND_WQE_DS;
		t = xlt->cpu;
	}
	if (size != need + psvs)
		return -EINVAL;

	err = umr_encode_op(&f, t, ctx, wr, bytes);
	if (err)
		return err;
	if (unlikely(wr->flags & (MLX5_UMR_WR_SIG_ONLY | MLX5_UMR_WR_SET_CRYPTO)))
		umr_encode_bsf(&f, t + padded, caps, wr);

	/* a fresh key byte: mlx5_umr_post() put it in the mkey's key */
	if (unlikely(wr->flags & MLX5_UMR_WR_NEW_KEY))
		f.mask |= MLX5_MKEY_MASK_KEY;
	/* no mask bit covers translations_octword_size; wr.c fills it too */
	octo = padded / MLX5_SEND_WQE_DS;
	if (bytes)
		umr_pad(t, bytes, padded);
	if (inl)
		f.umr_flags |= MLX5_UMR_INLINE;
	/*
	 * Each segment stored whole from named fields: every byte the WQE
	 * carries over from the ring's previous use is rewritten, nothing is
	 * read back (MLX5_SET() would read-modify-write each field), and at
	 * this size the compiler zeroes with plain stores, not rep stos or a
	 * memset call (measured: Documentation/bench.rst).
	 */
	w->ctrl = (struct mlx5_wqe_ctrl_seg) {
		.opmod_idx_opcode = cpu_to_be32((u32)idx << 8 | MLX5_OPCODE_UMR),
		.qpn_ds = cpu_to_be32(ctx->qpn << 8 | ds),
		/*
		 * The last SET_PSV of a chain signals for it
		 * (suppress_umr_completion() of rdma-core qp.c).
		 */
		.fm_ce_se = psvs ? fm_ce_se & ~MLX5_WQE_CTRL_CQ_UPDATE : fm_ce_se,
		.umr_mkey = cpu_to_be32(wr->mkey->key),
	};
	w->umr = (struct mlx5_wqe_umr_ctrl_seg) {
		.flags = f.umr_flags,
		.xlt_octowords = cpu_to_be16(octo),
		.bsf_octowords = cpu_to_be16(bsf / MLX5_SEND_WQE_DS),
		.mkey_mask = cpu_to_be64(f.mask),
	};
	w->mkey = (struct mlx5_mkey_seg) {
		.status = f.status,
		.flags = f.perm,
		/* qpn 0xffffff: not bound to a QP (umr.c does so) */
		.qpn_mkey7_0 = cpu_to_be32(0xffffff00 | (wr->mkey->key & 0xff)),
		.flags_pd = cpu_to_be32(f.flags_pd),
		.start_addr = cpu_to_be64(f.start_addr),
		.len = cpu_to_be64(f.len),
		.xlt_oct_size = cpu_to_be32(octo),
		.log2_page_size = f.log_page_size,
	};
	if (!inl) {
		struct mlx5_wqe_data_seg *d = (void *)(w + 1);

		d->byte_count = cpu_to_be32(padded);
		d->lkey = cpu_to_be32(ctx->ptr_lkey);
		d->addr = cpu_to_be64(xlt->dma);
		memset(d + 1, 0, need - MLX5_UMR_WQE_HDR_SIZE - sizeof(*d));
	}
	if (psvs)
		need += mlx5_umr_sig_write_psvs(buf + need, wr, ctx->qpn,
						idx + need / MLX5_SEND_WQE_BB,
						fm_ce_se);
	return need;
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_wqe_encode);

unsigned int mlx5_umr_wqe_size(const struct mlx5_umr_caps *caps,
			       const struct mlx5_umr_wr *wr)
{
	return mlx5_umr_wqe_bytes(caps, wr);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_wqe_size);
