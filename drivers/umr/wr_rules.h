/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: the rules on a request, inline for the submission path.
 *
 * One function per rule of Documentation/validation.rst, named for it and
 * returning that rule's one errno (the rules on each entry are in
 * entry_rules.h). mlx5_umr_wr_rules() applies them in the document's order,
 * the first broken rule deciding the errno; it is what mlx5_umr_wr_check()
 * and mlx5_umr_wr_prepare() (validate.c) apply, and what mlx5_umr_post()
 * applies to each request of a batch without a call per request
 * (Documentation/bench.rst). The uapi applies the same functions to what a
 * user hands in before it looks anything up (umr_uapi.c). The errnos follow
 * rdma-core's mlx5 provider. The rare layouts (scatterlist, page
 * registration) are checked out of line, in validate.c.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_WR_RULES_H
#define MLX5_UMR_WR_RULES_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/mlx5_umr.h>

#include "xlt.h"
#include "entry_rules.h"
#include "sig_rules.h"
#include "crypto.h"

#define MLX5_UMR_WR_FLAGS	(MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_PD | \
				 MLX5_UMR_WR_NEW_KEY | MLX5_UMR_WR_SIG_FLAGS | \
				 MLX5_UMR_WR_SET_CRYPTO)

/* Rule 1: only known flags (rdma-core check_comp_mask(conf_flags)). */
static __always_inline int mlx5_umr_rule_flags(u32 flags)
{
	return flags & ~MLX5_UMR_WR_FLAGS ? -EOPNOTSUPP : 0;
}

/* Rule 2: a request names its mkey. */
static __always_inline int mlx5_umr_rule_mkey(const struct mlx5_umr_mkey *mkey)
{
	return mkey ? 0 : -EINVAL;
}

/*
 * Rule 36: no UMR on an indirect mkey when the device forbids it
 * (cmd_hca_cap.umr_indirect_mkey_disabled; umr.c
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

/* Rule 3: a known operation. */
static __always_inline int mlx5_umr_rule_op(enum mlx5_umr_op op)
{
	return op <= MLX5_UMR_OP_REG_PAGES ? 0 : -EINVAL;
}

/* Rule 4: a known layout. */
static __always_inline int mlx5_umr_rule_layout(enum mlx5_umr_layout layout)
{
	return layout <= MLX5_UMR_LAYOUT_SGT ? 0 : -EINVAL;
}

/* Rule 5: CONFIGURE without a layout changes access, PD or key, or nothing. */
static __always_inline int mlx5_umr_rule_something(const struct mlx5_umr_wr *wr)
{
	if (wr->layout == MLX5_UMR_LAYOUT_NONE &&
	    !(wr->flags & MLX5_UMR_WR_FLAGS))
		return -EINVAL;
	return 0;
}

/* Rule 6: a layout is a KLM translation, for an indirect mkey only. */
static __always_inline int
mlx5_umr_rule_layout_indirect(const struct mlx5_umr_wr *wr)
{
	if (wr->layout != MLX5_UMR_LAYOUT_NONE && wr->mkey->direct)
		return -EINVAL;
	return 0;
}

/*
 * Rule 7: only the four access bits (rdma-core
 * mlx5_send_wr_set_mkey_access_flags(), check_comp_mask()).
 */
static __always_inline int mlx5_umr_rule_access_bits(u32 access)
{
	return access & ~MLX5_UMR_ACCESS_ALL ? -EINVAL : 0;
}

/*
 * Rule 8: remote atomic needs the device's atomic cap, and UMR must be
 * allowed to modify it (umr.c umr_check_mkey_mask()).
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

/* Rule 9 (and 28): a PD that is applied fits mkc.pd, 24 bits. */
static __always_inline int mlx5_umr_rule_pdn(const struct mlx5_umr_wr *wr)
{
	if ((wr->flags & MLX5_UMR_WR_SET_PD) && wr->pdn > MLX5_UMR_PDN_MAX)
		return -EINVAL;
	return 0;
}

/* Rules 10, 14, 20 and 29: a layout has entries, and they are given. */
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
 * Rules 11 and 21: no more KLMs than the mkey, the device and one WQE take
 * (rdma-core mlx5_send_wr_set_mkey_layout(): ENOMEM). The uapi answered
 * ENOSPC for the mkey's limit before.
 */
static __always_inline int
mlx5_umr_rule_list_capacity(const struct mlx5_umr_caps *caps,
			    const struct mlx5_umr_mkey *mkey, u32 n)
{
	return n > mlx5_umr_klm_capacity(caps, mkey) ? -ENOMEM : 0;
}

/*
 * Rule 15: the repeat block header takes one more translation entry. Mkeys
 * are created with max_entries + 1 (mlx5_umr_alloc_mkey()), so only the
 * device and WQE limits see it.
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

/* Rule 16: an interleaved mkey of no cycle would be empty. */
static __always_inline int mlx5_umr_rule_il_repeat(u32 repeat)
{
	return repeat ? 0 : -EINVAL;
}

/*
 * Rule 24: invalidation changes only the free bit (wr.c set_linv_wr()),
 * and the key byte with MLX5_UMR_WR_NEW_KEY.
 */
static __always_inline int mlx5_umr_rule_invalidate(const struct mlx5_umr_wr *wr)
{
	if (wr->flags & ~MLX5_UMR_WR_NEW_KEY ||
	    wr->layout != MLX5_UMR_LAYOUT_NONE)
		return -EINVAL;
	return 0;
}

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

/* Out of line in validate.c: a scatterlist walk, and page registration. */
int mlx5_umr_check_sgt(const struct mlx5_umr_caps *caps,
		       const struct mlx5_umr_wr *wr);
int mlx5_umr_check_reg_pages(const struct mlx5_umr_caps *caps,
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
	/* crypto rules C1 to C11 (crypto.h, Documentation/crypto.rst) */
	err = mlx5_umr_crypto_check(caps, wr);
	/* Rules 38 to 52: a block signature (sig_rules.h) */
	if (err || likely(!(wr->flags & MLX5_UMR_WR_SIG_FLAGS)))
		return err;
	return mlx5_umr_check_sig(caps, wr);
}

#endif /* MLX5_UMR_WR_RULES_H */
