/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: the rulebook, every rule on a request (inline part).
 *
 * Each rule of Documentation/validation.rst has one home, here or in
 * rules.c (the rare layouts, the signature), and one number in one series:
 * 1 to 37 on the request and its layout, 38 to 52 on a block signature, 53
 * to 64 on crypto (once C1 to C12: rule 52 + n), 65 and 66 on the start
 * address (MLX5_UMR_WR_SET_IOVA). Its home begins with one
 * line that scripts/testbed/rules-doc.sh reads and checks against the
 * document's tables:
 *
 *   Rule <n> (<errno>; test <KUnit case>): <why>
 *
 * mlx5_umr_wr_rules() applies them in the document's order, the first
 * broken rule deciding the errno; it is what mlx5_umr_wr_check() and
 * mlx5_umr_wr_prepare() (rules.c) apply, and what mlx5_umr_post() applies
 * to each request of a batch without a call per request
 * (Documentation/bench.rst). The rules on each entry of a layout are
 * functions on scalars, so that every path applies the same function to
 * its own representation: validation, the encoder (wqe.c, each entry as it
 * writes it) and the uapi (through umr_uapi.c, each entry a user hands in,
 * before it looks up the memory the entry names). The few rules that also
 * depend on what earlier requests of a batch left are applied again when
 * the request is pushed (mlx5_umr_posted_rules()). The errnos follow
 * rdma-core's mlx5 provider.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_RULES_H
#define MLX5_UMR_RULES_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5_umr.h>

#include "xlt.h"
#include "sig.h"
#include "crypto.h"

#define MLX5_UMR_WR_SIG_FLAGS	(MLX5_UMR_WR_SET_SIG | MLX5_UMR_WR_RESET_SIG)

#define MLX5_UMR_WR_FLAGS	(MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_PD | \
				 MLX5_UMR_WR_NEW_KEY | MLX5_UMR_WR_SIG_FLAGS | \
				 MLX5_UMR_WR_SET_CRYPTO | MLX5_UMR_WR_SET_IOVA)

/*
 * One KLM addresses at most 2 GiB: rdma-core mlx5dv.h struct
 * mlx5_wqe_umr_klm_seg ("up to 2GB") and qp.c set_bind_wr(); mlx5_core
 * main.c caps the device's DMA segments at 2 GiB for the same reason.
 */
#define MLX5_UMR_KLM_MAX_BYTES	BIT(31)

/* Every request */

/*
 * Rule 1 (EOPNOTSUPP; test val_rule): only known flags (rdma-core
 * check_comp_mask(conf_flags)); MLX5_UMR_WR_DEPENDS, which concerns the
 * batch, not the WQE, on any request.
 */
static __always_inline int mlx5_umr_rule_flags(u32 flags)
{
	return flags & ~(MLX5_UMR_WR_FLAGS | MLX5_UMR_WR_DEPENDS) ?
	       -EOPNOTSUPP : 0;
}

/* Rule 2 (EINVAL; test val_rule): a request names its mkey. */
static __always_inline int mlx5_umr_rule_mkey(const struct mlx5_umr_mkey *mkey)
{
	return mkey ? 0 : -EINVAL;
}

/*
 * Rule 36 (EOPNOTSUPP; test val_rule): no UMR on an indirect mkey when the
 * device forbids it (cmd_hca_cap.umr_indirect_mkey_disabled; umr.c
 * umr_can_use_indirect_mkey()): refused here rather than turned into an
 * error CQE and a QP recovery.
 */
static __always_inline int
mlx5_umr_rule_indirect_enabled(const struct mlx5_umr_caps *caps,
			       const struct mlx5_umr_mkey *mkey)
{
	if (unlikely(caps->umr_indirect_mkey_disabled) && !mkey->direct)
		return -EOPNOTSUPP;
	return 0;
}

/* Rule 3 (EINVAL; test val_rule): a known operation. */
static __always_inline int mlx5_umr_rule_op(enum mlx5_umr_op op)
{
	return op <= MLX5_UMR_OP_REG_PAGES ? 0 : -EINVAL;
}

/* CONFIGURE */

/* Rule 4 (EINVAL; test val_rule): a known layout. */
static __always_inline int mlx5_umr_rule_layout(enum mlx5_umr_layout layout)
{
	return layout <= MLX5_UMR_LAYOUT_SGT ? 0 : -EINVAL;
}

/*
 * Rule 5 (EINVAL; test val_rule): CONFIGURE without a layout changes
 * access, PD or key, or there is nothing to do.
 */
static __always_inline int mlx5_umr_rule_something(const struct mlx5_umr_wr *wr)
{
	if (wr->layout == MLX5_UMR_LAYOUT_NONE &&
	    !(wr->flags & MLX5_UMR_WR_FLAGS))
		return -EINVAL;
	return 0;
}

/*
 * Rule 6 (EINVAL; test val_rule): a layout is a KLM translation, for an
 * indirect mkey only.
 */
static __always_inline int
mlx5_umr_rule_layout_indirect(const struct mlx5_umr_wr *wr)
{
	if (wr->layout != MLX5_UMR_LAYOUT_NONE && wr->mkey->direct)
		return -EINVAL;
	return 0;
}

/*
 * Rule 7 (EINVAL; test val_rule): only the four access bits (rdma-core
 * mlx5_send_wr_set_mkey_access_flags(), check_comp_mask()).
 */
static __always_inline int mlx5_umr_rule_access_bits(u32 access)
{
	return access & ~MLX5_UMR_ACCESS_ALL ? -EINVAL : 0;
}

/*
 * Rule 8 (EOPNOTSUPP; test val_rule): remote atomic needs the device's
 * atomic cap, and UMR must be allowed to modify it (umr.c
 * umr_check_mkey_mask()).
 */
static __always_inline int mlx5_umr_rule_atomic(const struct mlx5_umr_caps *caps,
						u32 access)
{
	if ((access & MLX5_UMR_ACCESS_REMOTE_ATOMIC) &&
	    (!caps->atomic || caps->umr_modify_atomic_disabled))
		return -EOPNOTSUPP;
	return 0;
}

/* Rules 7 and 8 (and 27): access rights that are applied. */
static __always_inline int
mlx5_umr_check_access(const struct mlx5_umr_caps *caps, u32 access)
{
	return mlx5_umr_rule_access_bits(access) ?:
	       mlx5_umr_rule_atomic(caps, access);
}

/*
 * Rule 9 (EINVAL; test val_rule): a PD that is applied fits mkc.pd, 24
 * bits (and rule 28).
 */
static __always_inline int mlx5_umr_rule_pdn(const struct mlx5_umr_wr *wr)
{
	if ((wr->flags & MLX5_UMR_WR_SET_PD) && wr->pdn > MLX5_UMR_PDN_MAX)
		return -EINVAL;
	return 0;
}

/*
 * Rule 10 (EINVAL; test val_rule): a list has entries, and they are given.
 * Rule 14 (EINVAL; test val_rule): so has an interleaved layout.
 * Rules 20 and 29 apply it to a scatterlist and to pages.
 */
static __always_inline int mlx5_umr_rule_entries(const void *ent, u64 n)
{
	return n && ent ? 0 : -EINVAL;
}

/*
 * bcount_per_cycle (32 bits) cannot overflow: at most this many entries of
 * at most U16_MAX bytes each (rules 15 and 18); the mkey length (64 bits)
 * is that times a 32-bit repeat_count.
 */
static_assert((MLX5_UMR_XLT_MAX_KLMS - 1) * (u64)U16_MAX <= U32_MAX);

/* KLM-sized entries an indirect mkey (and one WQE) can take. */
static __always_inline u32
mlx5_umr_klm_capacity(const struct mlx5_umr_caps *caps,
		      const struct mlx5_umr_mkey *mkey)
{
	return min3(mkey->max_entries, caps->max_klm_entries,
		    (u32)MLX5_UMR_XLT_MAX_KLMS);
}

/*
 * Rule 11 (ENOMEM; test val_rule): no more KLMs than the mkey, the device
 * and one WQE take (rdma-core mlx5_send_wr_set_mkey_layout(): ENOMEM).
 * The uapi answered ENOSPC for the mkey's limit before. Rule 21 applies it
 * to the KLMs a scatterlist uses.
 */
static __always_inline int
mlx5_umr_rule_list_capacity(const struct mlx5_umr_caps *caps,
			    const struct mlx5_umr_mkey *mkey, u32 n)
{
	return n > mlx5_umr_klm_capacity(caps, mkey) ? -ENOMEM : 0;
}

/*
 * Rule 12 (EINVAL; test val_rule): a KLM describes 1 byte to 2 GiB.
 * Rule 22 (EINVAL; test val_rule): so does each scatterlist entry used,
 * by the bytes used of it.
 */
static __always_inline int mlx5_umr_rule_klm_bytes(u64 bytes)
{
	if (!bytes || bytes > MLX5_UMR_KLM_MAX_BYTES)
		return -EINVAL;
	return 0;
}

/*
 * Rule 13 (EOVERFLOW; test val_rule): [@addr, @addr + @bytes) does not
 * wrap; it may end at 2^64. @bytes > 0.
 * Rule 32 (EOVERFLOW; test val_rule): the same on registered pages.
 * Rule 19 applies it to an interleaved entry's span.
 */
static __always_inline int mlx5_umr_rule_no_wrap(u64 addr, u64 bytes)
{
	if (addr + (bytes - 1) < addr)
		return -EOVERFLOW;
	return 0;
}

/*
 * Rule 35 (EINVAL; test val_rule): the first KLM of a list does not name
 * key MLX5_STRIDE_BLOCK_OP. A KLM translation and a repeat block share
 * the mkey's access mode (KLMS); the device tells them apart only by the
 * second word of the first entry, a KLM's key and a repeat block header's
 * op (mlx5 qp.h struct mlx5_klm and struct mlx5_stride_block_ctrl_seg,
 * rdma-core union mlx5_wqe_umr_inline_seg), so that key would be read as
 * a header. The service never creates it (key_rotate.h: key bytes are
 * 1..255); a foreign key that is 0x400 is refused: EINVAL, malformed for
 * this wire format.
 */
static __always_inline int mlx5_umr_rule_list_first_key(u32 key)
{
	return unlikely(key == MLX5_STRIDE_BLOCK_OP) ? -EINVAL : 0;
}

/*
 * Rule 15 (ENOMEM; test val_rule): the repeat block header takes one more
 * translation entry. Mkeys are created with max_entries + 1
 * (mlx5_umr_alloc_mkey()), so only the device and WQE limits see it.
 */
static __always_inline int
mlx5_umr_rule_il_capacity(const struct mlx5_umr_caps *caps,
			  const struct mlx5_umr_mkey *mkey, u32 n)
{
	if (n > mkey->max_entries ||
	    n >= min_t(u32, caps->max_klm_entries, MLX5_UMR_XLT_MAX_KLMS))
		return -ENOMEM;
	return 0;
}

/*
 * Rule 16 (EINVAL; test val_rule): an interleaved mkey of no cycle would
 * be empty.
 */
static __always_inline int mlx5_umr_rule_il_repeat(u32 repeat)
{
	return repeat ? 0 : -EINVAL;
}

/*
 * Rule 17 (EINVAL; test val_rule): an interleaved entry takes at least one
 * byte per cycle.
 */
static __always_inline int mlx5_umr_rule_il_bytes(u32 bytes_count)
{
	return bytes_count ? 0 : -EINVAL;
}

/*
 * Rule 18 (EINVAL; test val_rule): stride (bytes_count + bytes_skip,
 * computed in 64 bits so that a sum wrapping 32 bits is caught) and bcount
 * are 16-bit fields of struct mlx5_stride_block_entry. A malformed entry,
 * not a wrapping range: EINVAL, on every path (the uapi answered EOVERFLOW
 * before).
 */
static __always_inline int mlx5_umr_rule_il_stride(u32 bytes_count,
						   u32 bytes_skip)
{
	if ((u64)bytes_count + bytes_skip > U16_MAX)
		return -EINVAL;
	return 0;
}

/*
 * Rule 19 (EOVERFLOW; test val_rule): the entry's last byte, addr + stride
 * x (repeat - 1) + bytes_count - 1, does not wrap. Rules 16 to 18 hold.
 * The span is below 2^16 x 2^32: only an address in the top 2^48 bytes can
 * wrap, so the multiplication is left to those.
 */
static __always_inline int mlx5_umr_rule_il_no_wrap(u64 addr, u32 bytes_count,
						    u32 bytes_skip, u32 repeat)
{
	u64 span;

	if (likely(addr <= U64_MAX - BIT_ULL(48)))
		return 0;
	span = ((u64)bytes_count + bytes_skip) * (repeat - 1) + bytes_count;
	return mlx5_umr_rule_no_wrap(addr, span);
}

/* Rules 12 and 13: one SGE-list entry. */
static __always_inline int mlx5_umr_sge_check(const struct mlx5_umr_sge *sge)
{
	return mlx5_umr_rule_klm_bytes(sge->length) ?:
	       mlx5_umr_rule_no_wrap(sge->addr, sge->length);
}

/* Rules 17 to 19: one interleaved entry, @repeat > 0 (rule 16). */
static __always_inline int
mlx5_umr_il_check(const struct mlx5_umr_interleaved *ent, u32 repeat)
{
	return mlx5_umr_rule_il_bytes(ent->bytes_count) ?:
	       mlx5_umr_rule_il_stride(ent->bytes_count, ent->bytes_skip) ?:
	       mlx5_umr_rule_il_no_wrap(ent->addr, ent->bytes_count,
					ent->bytes_skip, repeat);
}

/*
 * Rule 37 (EINVAL; test val_rule): the KLMs of a scatterlist name a DMA
 * key valid in the PD the mkey is in after the request: @sgt.lkey, or the
 * one of the PD it was allocated in, which a PD change in the same request
 * leaves behind. Applied again at push (mlx5_umr_posted_rules()), where an
 * earlier request of the batch may have moved the mkey.
 */
static __always_inline int mlx5_umr_rule_sgt_key(const struct mlx5_umr_wr *wr)
{
	if (wr->sgt.lkey)
		return 0;
	if (wr->flags & MLX5_UMR_WR_SET_PD)
		return -EINVAL;
	return wr->mkey->dma_lkey ? 0 : -EINVAL;
}

/* INVALIDATE */

/*
 * Rule 24 (EINVAL; test val_rule): invalidation changes only the free bit
 * (wr.c set_linv_wr()), and the key byte with MLX5_UMR_WR_NEW_KEY.
 */
static __always_inline int mlx5_umr_rule_invalidate(const struct mlx5_umr_wr *wr)
{
	if (wr->flags & ~(MLX5_UMR_WR_NEW_KEY | MLX5_UMR_WR_DEPENDS) ||
	    wr->layout != MLX5_UMR_LAYOUT_NONE)
		return -EINVAL;
	return 0;
}

/*
 * Block signature (rdma-core providers/mlx5/qp.c:
 * mlx5_send_wr_set_mkey_sig_block() and its validators)
 */

/*
 * Rule 38 (EINVAL; test val_rule): signature flags on a signature mkey
 * only (qp.c: !mkey->sig).
 */
static inline int mlx5_umr_rule_sig_mkey(const struct mlx5_umr_mkey *mkey)
{
	return mkey->flags & MLX5_UMR_MKEY_SIGNATURE ? 0 : -EINVAL;
}

/* Rule 39 (EINVAL; test val_rule): a signature is set or reset by a configure. */
static inline int mlx5_umr_rule_sig_op(enum mlx5_umr_op op)
{
	return op == MLX5_UMR_OP_CONFIGURE ? 0 : -EINVAL;
}

/* Rule 40 (EINVAL; test val_rule): SET_SIG names its attributes. */
static inline int mlx5_umr_rule_sig_given(const struct mlx5_umr_wr *wr)
{
	return wr->sig ? 0 : -EINVAL;
}

/*
 * Rule 41 (EINVAL; test val_rule): only known attribute flags
 * (check_comp_mask(flags, COPY_MASK)).
 */
static inline int mlx5_umr_rule_sig_flags(const struct mlx5_umr_sig_attr *a)
{
	return a->flags & ~MLX5_UMR_SIG_FLAG_COPY_MASK ? -EINVAL : 0;
}

/* Rule 42 (EINVAL; test val_rule): a known signature type in each domain. */
static inline int mlx5_umr_rule_sig_type(const struct mlx5_umr_sig_domain *d)
{
	return d->sig_type <= MLX5_UMR_SIG_CRC ? 0 : -EINVAL;
}

/*
 * Rule 43 (EINVAL; test val_rule): at least one domain has a signature
 * (!mem && !wire).
 */
static inline int mlx5_umr_rule_sig_some(const struct mlx5_umr_sig_attr *a)
{
	return mlx5_umr_sig_npsv(a) ? 0 : -EINVAL;
}

/* Rule 44 (EINVAL; test val_rule): a block size of enum mlx5dv_block_size. */
static inline int mlx5_umr_rule_sig_block(const struct mlx5_umr_sig_domain *d)
{
	return d->block_size <= MLX5_UMR_SIG_BLOCK_4160 ? 0 : -EINVAL;
}

/* Rule 45 (EINVAL; test val_rule): a T10 DIF guard of CRC or IP checksum. */
static inline int mlx5_umr_rule_sig_bg_type(const struct mlx5_umr_sig_t10dif *dif)
{
	return dif->bg_type <= MLX5_UMR_SIG_T10DIF_CSUM ? 0 : -EINVAL;
}

/* Rule 46 (EINVAL; test val_rule): the T10 DIF guard seed is 0 or 0xffff. */
static inline int mlx5_umr_rule_sig_bg(const struct mlx5_umr_sig_t10dif *dif)
{
	return dif->bg == 0 || dif->bg == 0xffff ? 0 : -EINVAL;
}

/* Rule 47 (EINVAL; test val_rule): only known T10 DIF flags. */
static inline int mlx5_umr_rule_sig_dif_flags(const struct mlx5_umr_sig_t10dif *dif)
{
	return dif->flags & ~MLX5_UMR_SIG_T10DIF_FLAGS ? -EINVAL : 0;
}

/* Rule 48 (EINVAL; test val_rule): a CRC of enum mlx5dv_sig_crc_type. */
static inline int mlx5_umr_rule_sig_crc_type(const struct mlx5_umr_sig_crc *crc)
{
	return crc->type <= MLX5_UMR_SIG_CRC64_XP10 ? 0 : -EINVAL;
}

/*
 * Rule 49 (EINVAL; test val_rule): the CRC seed is 0 or all ones of the
 * CRC's width.
 */
static inline int mlx5_umr_rule_sig_crc_seed(const struct mlx5_umr_sig_crc *crc)
{
	u64 ones = crc->type == MLX5_UMR_SIG_CRC64_XP10 ? U64_MAX : U32_MAX;

	return crc->seed == 0 || crc->seed == ones ? 0 : -EINVAL;
}

/*
 * Rule 50 (EINVAL; test val_rule): a copy mask needs the same block
 * structure in both domains (mlx5_umr_fill_sig_bsf(): !sbs is EINVAL);
 * with no wire signature rdma-core ignores the flag, this service refuses
 * it.
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
 * Rule 51 (ENOMEM; test val_rule): the translation and the BSF (with the
 * crypto BSF of an mkey that has both) go inline in the UMR WQE, and the
 * chain with its SET_PSV WQEs fits the send queue's largest WQE
 * (umr_wqe_finalize() and crypto_umr_wqe_finalize(): ENOMEM when the BSFs
 * do not fit inline).
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

/* The start address (MLX5_UMR_WR_SET_IOVA) */

/*
 * Rule 65 (EINVAL; test iova_rules): MLX5_UMR_WR_SET_IOVA comes with the
 * translation the address is the start of: a CONFIGURE with a layout, as
 * an FRWR writes mr->iova with the pages it maps (mlx5_ib wr.c
 * set_reg_mkey_seg()); REG_PAGES has its own (@pages.iova).
 */
static inline int mlx5_umr_rule_iova_layout(const struct mlx5_umr_wr *wr)
{
	if (wr->op != MLX5_UMR_OP_CONFIGURE ||
	    wr->layout == MLX5_UMR_LAYOUT_NONE)
		return -EINVAL;
	return 0;
}

/*
 * Rule 66 (EOVERFLOW; test iova_rules): [@iova, @iova + the layout's
 * length) does not wrap; it may end at 2^64, as rules 13 and 32. The
 * length is read from the layout (rules 10 to 23 hold).
 */
static inline int mlx5_umr_rule_iova_no_wrap(const struct mlx5_umr_wr *wr)
{
	u64 len = mlx5_umr_layout_len(wr);

	if (len == U64_MAX)	/* an interleaved length over 64 bits */
		return -EOVERFLOW;
	return len ? mlx5_umr_rule_no_wrap(wr->iova, len) : 0;
}

/* Rules 65 and 66, on a request with MLX5_UMR_WR_SET_IOVA. */
static inline int mlx5_umr_check_iova(const struct mlx5_umr_wr *wr)
{
	return mlx5_umr_rule_iova_layout(wr) ?:
	       mlx5_umr_rule_iova_no_wrap(wr);
}

/*
 * Rule 52 (EINVAL; test val_rule): the mkey's length fits the BSF's
 * raw_data_size, 32 bits (umr_wqe_finalize(): mkey->length > UINT32_MAX
 * is EINVAL), for a layout given with the signature.
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

/* Crypto, AES-XTS (Documentation/crypto.rst) */

/*
 * Rule 53 (EOPNOTSUPP; test crypto_rules): the device can do it
 * (caps->crypto: cmd_hca_cap.crypto, an AES-XTS engine, plaintext import;
 * dev.c mlx5_umr_query_crypto_caps()).
 */
static inline int mlx5_umr_crypto_rule_device(const struct mlx5_umr_caps *caps)
{
	return caps->crypto ? 0 : -EOPNOTSUPP;
}

/* Rule 54 (EINVAL; test crypto_rules): attributes are given (rdma-core dv_attr). */
static inline int
mlx5_umr_crypto_rule_attr(const struct mlx5_umr_crypto_attr *attr)
{
	return attr ? 0 : -EINVAL;
}

/*
 * Rule 55 (EINVAL; test crypto_rules): AES-XTS only
 * (mlx5_send_wr_set_mkey_crypto(): EINVAL).
 */
static inline int
mlx5_umr_crypto_rule_standard(const struct mlx5_umr_crypto_attr *attr)
{
	return attr->crypto_standard == MLX5_UMR_CRYPTO_STANDARD_AES_XTS ?
	       0 : -EINVAL;
}

/*
 * Rule 56 (EINVAL; test crypto_rules): one of the two orders
 * (mlx5_send_wr_set_mkey_crypto(): EINVAL).
 */
static inline int
mlx5_umr_crypto_rule_order(const struct mlx5_umr_crypto_attr *attr)
{
	return mlx5_umr_crypto_enc_order(attr) < 0 ? -EINVAL : 0;
}

/*
 * Rule 57 (EINVAL; test crypto_rules): a data unit size rdma-core lists
 * (512 .. 4160: EINVAL).
 */
static inline int
mlx5_umr_crypto_rule_du(const struct mlx5_umr_crypto_attr *attr)
{
	return mlx5_umr_crypto_bs_selector(attr->data_unit_size) ? 0 : -EINVAL;
}

/*
 * Rule 58 (EINVAL; test crypto_rules): a DEK of the mkey's device and of
 * the PD the mkey is in after the request (mlx5dv_dek_create(3): the DEK's
 * pd; the HCA would fail every access). @pdn MLX5_UMR_PDN_UNKNOWN, after a
 * failed move, matches no DEK. Applied again at push, against the PD the
 * requests before it left (mlx5_umr_posted_rules()).
 */
static inline int
mlx5_umr_crypto_rule_dek(const struct mlx5_umr_crypto_attr *attr,
			 const struct mlx5_umr_dev *dev, u32 pdn)
{
	return attr->dek && attr->dek->dev == dev && attr->dek->pdn == pdn ?
	       0 : -EINVAL;
}

/**
 * mlx5_umr_crypto_rules() - rules 53 to 58, in order
 * @caps: the device's caps
 * @attr: the attributes
 * @dev: the mkey's device
 * @pdn: the PD the mkey is in after the request
 *
 * Return: 0 or the first broken rule's errno.
 */
static inline int mlx5_umr_crypto_rules(const struct mlx5_umr_caps *caps,
					const struct mlx5_umr_crypto_attr *attr,
					const struct mlx5_umr_dev *dev, u32 pdn)
{
	int err;

	err = mlx5_umr_crypto_rule_device(caps);
	if (err)
		return err;
	err = mlx5_umr_crypto_rule_attr(attr);
	if (err)
		return err;
	err = mlx5_umr_crypto_rule_standard(attr);
	if (err)
		return err;
	err = mlx5_umr_crypto_rule_order(attr);
	if (err)
		return err;
	err = mlx5_umr_crypto_rule_du(attr);
	if (err)
		return err;
	return mlx5_umr_crypto_rule_dek(attr, dev, pdn);
}

/* The PD the mkey of @wr is in once @wr ran. */
static inline u32 mlx5_umr_wr_pdn_after(const struct mlx5_umr_wr *wr)
{
	return wr->flags & MLX5_UMR_WR_SET_PD ? wr->pdn : READ_ONCE(wr->mkey->pdn);
}

/*
 * Rule 59 (EINVAL; test crypto_service_configure): crypto attributes only
 * on a CONFIGURE of a crypto mkey (rdma-core: the setter on an mkey
 * without MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO is EINVAL).
 */
static inline int mlx5_umr_crypto_rule_mkey(const struct mlx5_umr_wr *wr)
{
	if ((wr->flags & MLX5_UMR_WR_SET_CRYPTO) &&
	    (wr->op != MLX5_UMR_OP_CONFIGURE ||
	     !(wr->mkey->flags & MLX5_UMR_MKEY_CRYPTO)))
		return -EINVAL;
	return 0;
}

/*
 * Rule 60 (EINVAL; test crypto_service_configure): every CONFIGURE of a
 * crypto mkey carries its attributes, so that every one writes the BSF
 * whole (rdma-core's crypto_umr_wqe_finalize() writes it when a half
 * changes, from the attributes it keeps): the WQE never relies on a BSF
 * the HCA kept.
 */
static inline int mlx5_umr_crypto_rule_every(const struct mlx5_umr_wr *wr)
{
	if (wr->op == MLX5_UMR_OP_CONFIGURE &&
	    (wr->mkey->flags & MLX5_UMR_MKEY_CRYPTO) &&
	    !(wr->flags & MLX5_UMR_WR_SET_CRYPTO))
		return -EINVAL;
	return 0;
}

/*
 * Rule 61 (ENOMEM; test crypto_service_configure): the BSF (after the
 * signature BSF of an mkey with both) goes inline after the translation,
 * and all must fit one WQE (rdma-core: cur_data_size + bsf_size >
 * max_data_size, ENOMEM).
 */
static inline int mlx5_umr_crypto_rule_room(const struct mlx5_umr_caps *caps,
					    const struct mlx5_umr_wr *wr)
{
	u32 padded = ALIGN(mlx5_umr_xlt_bytes(wr), MLX5_UMR_FLEX_ALIGNMENT);

	return padded + mlx5_umr_wr_bsf_bytes(wr) > mlx5_umr_inline_max(caps) ?
	       -ENOMEM : 0;
}

/*
 * Rule 62 (EINVAL; test crypto_pair_rule): orders ENCRYPTED_RAW_WIRE and
 * ENCRYPTED_RAW_MEMORY (the signature computed over ciphertext) with a
 * signature in both domains, which the device does not support (rdma-core
 * get_crypto_order(): -1, EINVAL). @sig: the signature the mkey has after
 * the request, or NULL; a kept one is known at push only.
 */
static inline int
mlx5_umr_crypto_rule_sig_order(const struct mlx5_umr_crypto_attr *attr,
			       const struct mlx5_umr_sig_attr *sig)
{
	int order = mlx5_umr_crypto_enc_order(attr);

	if (!sig || sig->mem.sig_type == MLX5_UMR_SIG_NONE ||
	    sig->wire.sig_type == MLX5_UMR_SIG_NONE)
		return 0;
	return order == MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE ||
	       order == MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY ? -EINVAL : 0;
}

/*
 * Rule 63 (EINVAL; test crypto_pair_rule): a layout given with crypto fits
 * the crypto BSF's raw_data_size, 32 bits (crypto_umr_wqe_finalize():
 * mkey->length > UINT32_MAX is EINVAL). Every layout of a crypto mkey
 * comes with its attributes (rule 60), so none is longer.
 */
static inline int mlx5_umr_crypto_rule_length(const struct mlx5_umr_wr *wr)
{
	return mlx5_umr_layout_over_u32(wr) ? -EINVAL : 0;
}

/*
 * The signature a SET_CRYPTO request's checks know of: the one it sets,
 * none when it resets or the mkey has none; a kept one is known only when
 * the request is posted (rule 62 again at push).
 */
static inline const struct mlx5_umr_sig_attr *
mlx5_umr_crypto_wr_sig(const struct mlx5_umr_wr *wr)
{
	return wr->flags & MLX5_UMR_WR_SET_SIG ? wr->sig : NULL;
}

/*
 * Rule 64 (EINVAL; test crypto_service_configure): on a single-block
 * engine the mkey is at most one data unit long once the request ran
 * (rdma-core qp.c crypto_umr_wqe_finalize(): "Length must fit block size
 * in single block encryption", EINVAL). @len: its length then: the
 * layout's, else the one it keeps (known at push).
 */
static inline int mlx5_umr_crypto_rule_single(const struct mlx5_umr_caps *caps,
					      const struct mlx5_umr_crypto_attr *attr,
					      u64 len)
{
	if (caps->crypto_engine != MLX5_UMR_CRYPTO_ENGINE_SINGLE_BLOCK)
		return 0;
	return len > mlx5_umr_crypto_du_bytes(attr->data_unit_size) ?
	       -EINVAL : 0;
}

/**
 * mlx5_umr_crypto_check() - the crypto rules of one request: 59, 60, then
 * with MLX5_UMR_WR_SET_CRYPTO 53 to 58, 63, 64 (a layout given), 61 and 62
 * @caps: the device's caps
 * @wr: the request, past the rules of its operation
 *
 * Return: 0 or the first broken rule's errno.
 */
static __always_inline int
mlx5_umr_crypto_check(const struct mlx5_umr_caps *caps,
		      const struct mlx5_umr_wr *wr)
{
	int err;

	if (likely(!(wr->flags & MLX5_UMR_WR_SET_CRYPTO) &&
		   !(wr->mkey->flags & MLX5_UMR_MKEY_CRYPTO)))
		return 0;
	err = mlx5_umr_crypto_rule_mkey(wr);
	if (err)
		return err;
	err = mlx5_umr_crypto_rule_every(wr);
	if (err)
		return err;
	if (!(wr->flags & MLX5_UMR_WR_SET_CRYPTO))
		return 0;
	err = mlx5_umr_crypto_rules(caps, wr->crypto, wr->mkey->dev,
				    mlx5_umr_wr_pdn_after(wr));
	if (err)
		return err;
	/* the length before the room: it does not depend on the queue */
	err = mlx5_umr_crypto_rule_length(wr);
	if (err)
		return err;
	/* a layout given is checked now, a kept length when posted */
	if (wr->layout != MLX5_UMR_LAYOUT_NONE) {
		err = mlx5_umr_crypto_rule_single(caps, wr->crypto,
						  mlx5_umr_layout_len(wr));
		if (err)
			return err;
	}
	err = mlx5_umr_crypto_rule_room(caps, wr);
	if (err)
		return err;
	return mlx5_umr_crypto_rule_sig_order(wr->crypto,
					      mlx5_umr_crypto_wr_sig(wr));
}

/* Whole requests */

/* Rules 10 to 13 and 35; with @entries false, not 12, 13 and 35. */
static __always_inline int
mlx5_umr_check_list(const struct mlx5_umr_caps *caps,
		    const struct mlx5_umr_wr *wr, bool entries)
{
	const struct mlx5_umr_sge *sge = wr->list.sge;
	u32 n = wr->list.num_sge;
	u32 i;
	int err;

	err = mlx5_umr_rule_entries(sge, n);
	if (err)
		return err;
	err = mlx5_umr_rule_list_capacity(caps, wr->mkey, n);
	if (err)
		return err;
	for (i = 0; entries && i < n; i++) {
		err = mlx5_umr_sge_check(&sge[i]);
		if (err)
			return err;
	}
	return entries ? mlx5_umr_rule_list_first_key(sge[0].key) : 0;
}

/* Rules 14 to 19; with @entries false, not 17 to 19. */
static __always_inline int
mlx5_umr_check_interleaved(const struct mlx5_umr_caps *caps,
			   const struct mlx5_umr_wr *wr, bool entries)
{
	const struct mlx5_umr_interleaved *ent = wr->interleaved.ent;
	u32 repeat = wr->interleaved.repeat_count;
	u32 n = wr->interleaved.num_entries;
	u32 i;
	int err;

	err = mlx5_umr_rule_entries(ent, n);
	if (err)
		return err;
	err = mlx5_umr_rule_il_capacity(caps, wr->mkey, n);
	if (err)
		return err;
	err = mlx5_umr_rule_il_repeat(repeat);
	if (err)
		return err;
	for (i = 0; entries && i < n; i++) {
		err = mlx5_umr_il_check(&ent[i], repeat);
		if (err)
			return err;
	}
	return 0;
}

/* Out of line in rules.c: a scatterlist walk, page registration, signature. */
int mlx5_umr_check_sgt(const struct mlx5_umr_caps *caps,
		       const struct mlx5_umr_wr *wr);
int mlx5_umr_check_reg_pages(const struct mlx5_umr_caps *caps,
			     const struct mlx5_umr_wr *wr);
int mlx5_umr_check_sig(const struct mlx5_umr_caps *caps,
		       const struct mlx5_umr_wr *wr);

/* Rules 4 to 23. */
static __always_inline int
mlx5_umr_check_configure(const struct mlx5_umr_caps *caps,
			 const struct mlx5_umr_wr *wr, bool entries)
{
	int err;

	err = mlx5_umr_rule_layout(wr->layout);
	if (err)
		return err;
	err = mlx5_umr_rule_something(wr);
	if (err)
		return err;
	err = mlx5_umr_rule_layout_indirect(wr);
	if (err)
		return err;
	if (wr->flags & MLX5_UMR_WR_SET_ACCESS) {
		err = mlx5_umr_check_access(caps, wr->access);
		if (err)
			return err;
	}
	err = mlx5_umr_rule_pdn(wr);
	if (err)
		return err;

	switch (wr->layout) {
	case MLX5_UMR_LAYOUT_LIST:
		return mlx5_umr_check_list(caps, wr, entries);
	case MLX5_UMR_LAYOUT_INTERLEAVED:
		return mlx5_umr_check_interleaved(caps, wr, entries);
	case MLX5_UMR_LAYOUT_SGT:
		return mlx5_umr_check_sgt(caps, wr);
	default:
		return 0;
	}
}

/*
 * mlx5_umr_wr_rules() - every rule on @wr; with @entries false, not those on
 * each entry of a list or interleaved layout (rules 12-13 and 17-19), which
 * the encoder applies as it writes them.
 * Return: 0 or the errno of the first rule broken.
 */
static __always_inline int mlx5_umr_wr_rules(const struct mlx5_umr_caps *caps,
					     const struct mlx5_umr_wr *wr,
					     bool entries)
{
	int err;

	err = mlx5_umr_rule_flags(wr->flags);
	if (err)
		return err;
	err = mlx5_umr_rule_mkey(wr->mkey);
	if (err)
		return err;
	err = mlx5_umr_rule_indirect_enabled(caps, wr->mkey);
	if (err)
		return err;
	switch (wr->op) {
	case MLX5_UMR_OP_CONFIGURE:
		err = mlx5_umr_check_configure(caps, wr, entries);
		break;
	case MLX5_UMR_OP_INVALIDATE:
		err = mlx5_umr_rule_invalidate(wr);
		break;
	case MLX5_UMR_OP_REG_PAGES:
		err = mlx5_umr_check_reg_pages(caps, wr);
		break;
	default:
		return mlx5_umr_rule_op(wr->op);
	}
	if (err)
		return err;
	/* Rules 65 and 66: the start address */
	if (unlikely(wr->flags & MLX5_UMR_WR_SET_IOVA)) {
		err = mlx5_umr_check_iova(wr);
		if (err)
			return err;
	}
	/* Rules 53 to 64: crypto */
	err = mlx5_umr_crypto_check(caps, wr);
	/* Rules 38 to 52: a block signature (rules.c) */
	if (err || likely(!(wr->flags & MLX5_UMR_WR_SIG_FLAGS)))
		return err;
	return mlx5_umr_check_sig(caps, wr);
}

/* At push, on what the requests before @wr in the batch left */

/**
 * mlx5_umr_crypto_posted_rules() - rules 58, 64 and 62 on a SET_CRYPTO
 * request when it is pushed
 * @caps: the device's caps
 * @wr: the request, admitted; the mkey's PD is the one the requests
 *	before it left
 * @len: the mkey's length once @wr ran: its layout's, else the one it keeps
 * @sig: the signature the mkey has once @wr ran, or NULL
 *
 * Return: 0 or the first broken rule's errno.
 */
static inline int
mlx5_umr_crypto_posted_rules(const struct mlx5_umr_caps *caps,
			     const struct mlx5_umr_wr *wr, u64 len,
			     const struct mlx5_umr_sig_attr *sig)
{
	return mlx5_umr_crypto_rule_dek(wr->crypto, wr->mkey->dev,
					READ_ONCE(wr->mkey->pdn)) ?:
	       mlx5_umr_crypto_rule_single(caps, wr->crypto, len) ?:
	       mlx5_umr_crypto_rule_sig_order(wr->crypto, sig);
}

/**
 * mlx5_umr_posted_key_rule() - rule 37 when the request is pushed
 * @wr: the request, admitted; the mkey's DMA key is the one of the PD the
 *	requests before it left (0 when unknown)
 *
 * Return: 0 or -EINVAL.
 */
static __always_inline int mlx5_umr_posted_key_rule(const struct mlx5_umr_wr *wr)
{
	if (likely(wr->layout != MLX5_UMR_LAYOUT_SGT))
		return 0;
	return mlx5_umr_rule_sgt_key(wr);
}

#endif /* MLX5_UMR_RULES_H */
