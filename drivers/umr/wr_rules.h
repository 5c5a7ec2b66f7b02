/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: the rules on a request, inline for the submission path.
 *
 * mlx5_umr_wr_rules() is what mlx5_umr_wr_check() and mlx5_umr_wr_prepare()
 * (validate.c) apply, and what mlx5_umr_post() applies to each request of
 * a batch without a call per request (Documentation/bench.rst): one
 * definition of the rules, inlined where they run per request. The rare
 * layouts (scatterlist, page registration) are checked out of line. The
 * errnos follow rdma-core's mlx5 provider; Documentation/validation.rst
 * lists every rule, its errno and its source, and the first violated rule
 * wins, in the order of that document.
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

#define MLX5_UMR_WR_FLAGS	(MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_PD)

static inline int mlx5_umr_check_access(const struct mlx5_umr_caps *caps,
					u32 access)
{
	if (access & ~MLX5_UMR_ACCESS_ALL)
		return -EINVAL;
	if ((access & MLX5_UMR_ACCESS_REMOTE_ATOMIC) &&
	    (!caps->atomic || caps->umr_modify_atomic_disabled))
		return -EOPNOTSUPP;
	return 0;
}

static inline int mlx5_umr_check_pd(const struct mlx5_umr_wr *wr)
{
	if ((wr->flags & MLX5_UMR_WR_SET_PD) && wr->pdn > MLX5_UMR_PDN_MAX)
		return -EINVAL;
	return 0;
}

/*
 * bcount_per_cycle (32 bits) cannot overflow: at most this many entries of
 * at most U16_MAX bytes each; the mkey length (64 bits) is that times a
 * 32-bit repeat_count.
 */
static_assert((MLX5_UMR_XLT_MAX_KLMS - 1) * (u64)U16_MAX <= U32_MAX);

/* KLM-sized entries an indirect mkey (and one WQE) can take. */
static inline u32 mlx5_umr_klm_capacity(const struct mlx5_umr_caps *caps,
					const struct mlx5_umr_mkey *mkey)
{
	return min3(mkey->max_entries, caps->max_klm_entries,
		    (u32)MLX5_UMR_XLT_MAX_KLMS);
}

static __always_inline int
mlx5_umr_check_list(const struct mlx5_umr_caps *caps,
		    const struct mlx5_umr_wr *wr, bool entries)
{
	const struct mlx5_umr_sge *sge = wr->list.sge;
	u32 n = wr->list.num_sge;
	u32 i;
	int err;

	if (!n || !sge)
		return -EINVAL;
	if (n > mlx5_umr_klm_capacity(caps, wr->mkey))
		return -ENOMEM;
	for (i = 0; entries && i < n; i++) {
		err = mlx5_umr_sge_check(&sge[i]);
		if (err)
			return err;
	}
	return 0;
}

static __always_inline int
mlx5_umr_check_interleaved(const struct mlx5_umr_caps *caps,
			   const struct mlx5_umr_wr *wr, bool entries)
{
	const struct mlx5_umr_interleaved *ent = wr->interleaved.ent;
	u32 repeat = wr->interleaved.repeat_count;
	u32 n = wr->interleaved.num_entries;
	u32 i;
	int err;

	if (!n || !ent)
		return -EINVAL;
	/*
	 * The repeat block header takes one more translation entry: mkeys
	 * are created with max_entries + 1 (mlx5_umr_alloc_mkey()), so only
	 * the device and WQE limits see it.
	 */
	if (n > wr->mkey->max_entries ||
	    n >= min_t(u32, caps->max_klm_entries, MLX5_UMR_XLT_MAX_KLMS))
		return -ENOMEM;
	if (!repeat)
		return -EINVAL;
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

static __always_inline int
mlx5_umr_check_configure(const struct mlx5_umr_caps *caps,
			 const struct mlx5_umr_wr *wr, bool entries)
{
	int err;

	if (wr->layout > MLX5_UMR_LAYOUT_SGT)
		return -EINVAL;
	if (wr->layout == MLX5_UMR_LAYOUT_NONE) {
		/* nothing to change */
		if (!(wr->flags & MLX5_UMR_WR_FLAGS))
			return -EINVAL;
	} else if (wr->mkey->direct) {
		/* a layout needs an indirect (KLM) mkey */
		return -EINVAL;
	}

	if (wr->flags & MLX5_UMR_WR_SET_ACCESS) {
		err = mlx5_umr_check_access(caps, wr->access);
		if (err)
			return err;
	}
	err = mlx5_umr_check_pd(wr);
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
	if (wr->flags & ~MLX5_UMR_WR_FLAGS)
		return -EOPNOTSUPP;
	if (!wr->mkey)
		return -EINVAL;

	switch (wr->op) {
	case MLX5_UMR_OP_CONFIGURE:
		return mlx5_umr_check_configure(caps, wr, entries);
	case MLX5_UMR_OP_INVALIDATE:
		/* wr.c set_linv_wr(): only the free bit changes */
		if (wr->flags || wr->layout != MLX5_UMR_LAYOUT_NONE)
			return -EINVAL;
		return 0;
	case MLX5_UMR_OP_REG_PAGES:
		return mlx5_umr_check_reg_pages(caps, wr);
	default:
		return -EINVAL;
	}
}

#endif /* MLX5_UMR_WR_RULES_H */
