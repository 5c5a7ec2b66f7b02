// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: the rulebook, the rules out of line, and its entry points.
 *
 * The rules are in rules.h (inline, so that mlx5_umr_post() applies them
 * to each request without a call); here are those of the rare layouts
 * (scatterlist, page registration) and of a block signature, each with
 * its rulebook line (rules.h says how it reads), and the exported checks.
 * The errnos follow what rdma-core's mlx5 provider (providers/mlx5/qp.c)
 * returns for the same setters; Documentation/validation.rst lists every
 * rule, its errno and its source.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/errno.h>
#include <linux/mm.h>

#include "wqe.h"
#include "rules.h"

/*
 * Rule 20 (EINVAL; test val_rule): a scatterlist of mapped entries, and
 * bytes to take from it.
 */
static int mlx5_umr_rule_sgt_given(const struct mlx5_umr_wr *wr)
{
	return mlx5_umr_rule_entries(wr->sgt.sgl, wr->sgt.nents) ?:
	       (wr->sgt.length ? 0 : -EINVAL);
}

/*
 * Rule 21 (ENOMEM; test val_rule): rule 11 on the KLMs a scatterlist uses.
 * Rule 23 (EINVAL; test val_rule): the length is no longer than the mapped
 * entries.
 * Rules 20 (then 37) to 23, the entries walked in order only up to the one
 * that reaches the length: rule 22 is rule 12 on the bytes used of each.
 */
int mlx5_umr_check_sgt(const struct mlx5_umr_caps *caps,
		       const struct mlx5_umr_wr *wr)
{
	u64 left = wr->sgt.length;
	struct scatterlist *sg;
	u32 i;
	int err;

	err = mlx5_umr_rule_sgt_given(wr) ?: mlx5_umr_rule_sgt_key(wr);
	if (err)
		return err;
	for_each_sg(wr->sgt.sgl, sg, wr->sgt.nents, i) {
		u32 len = sg_dma_len(sg);

		err = mlx5_umr_rule_list_capacity(caps, wr->mkey, i + 1) ?:
		      mlx5_umr_rule_klm_bytes(len ? min_t(u64, len, left) : 0);
		if (err)
			return err;
		if (len >= left)
			return 0;
		left -= len;
	}
	/* Rule 23: the length is longer than the mapped entries. */
	return -EINVAL;
}

/*
 * Rule 25 (EINVAL; test val_rule): pages are registered in a direct (MTT)
 * mkey, with no layout.
 */
static int mlx5_umr_rule_pages_mkey(const struct mlx5_umr_wr *wr)
{
	if (!wr->mkey->direct || wr->layout != MLX5_UMR_LAYOUT_NONE)
		return -EINVAL;
	return 0;
}

/*
 * Rule 26 (EOPNOTSUPP; test val_rule): PAGE_SIZE may be in the mask (umr.h
 * mlx5r_umr_can_load_pas()).
 */
static int mlx5_umr_rule_entity_size(const struct mlx5_umr_caps *caps)
{
	return caps->umr_modify_entity_size_disabled ? -EOPNOTSUPP : 0;
}

/* Rule 29 (EINVAL; test val_rule): pages, and bytes of them. */
static int mlx5_umr_rule_pages_given(const struct mlx5_umr_wr *wr)
{
	return mlx5_umr_rule_entries(wr->pages.addrs, wr->pages.npages) ?:
	       (wr->pages.length ? 0 : -EINVAL);
}

/*
 * Rule 30 (ENOMEM; test val_rule): no more MTTs than the mkey and one WQE
 * take.
 */
static int mlx5_umr_rule_pages_capacity(const struct mlx5_umr_wr *wr)
{
	u32 cap = min_t(u32, wr->mkey->max_entries,
			MLX5_UMR_XLT_MAX_BYTES / sizeof(struct mlx5_mtt));

	return wr->pages.npages > cap ? -ENOMEM : 0;
}

/*
 * Rule 31 (EINVAL; test val_rule): the HW finds the first page's offset in
 * start_addr's low bits.
 */
static int mlx5_umr_rule_pages_offset(const struct mlx5_umr_wr *wr)
{
	return wr->pages.offset != offset_in_page(wr->pages.iova) ? -EINVAL : 0;
}

/* Rule 33 (EINVAL; test val_rule): the pages cover offset + length. */
static int mlx5_umr_rule_pages_cover(const struct mlx5_umr_wr *wr)
{
	u64 bytes = (u64)wr->pages.npages << PAGE_SHIFT;

	return wr->pages.length > bytes - wr->pages.offset ? -EINVAL : 0;
}

/*
 * Rule 34 (EINVAL; test val_rule): the low bits of an MTT are access bits,
 * not address.
 */
static int mlx5_umr_rule_pages_aligned(const struct mlx5_umr_wr *wr)
{
	u32 i;

	for (i = 0; i < wr->pages.npages; i++)
		if (offset_in_page(wr->pages.addrs[i]))
			return -EINVAL;
	return 0;
}

/*
 * Rule 27 (EINVAL/EOPNOTSUPP; test val_rule): rules 7 and 8, always
 * applied: a registration always sets access.
 * Rule 28 (EINVAL; test val_rule): rule 9 on a registration's SET_PD.
 * Rules 25 to 34, in order.
 */
int mlx5_umr_check_reg_pages(const struct mlx5_umr_caps *caps,
			     const struct mlx5_umr_wr *wr)
{
	return mlx5_umr_rule_pages_mkey(wr) ?:
	       mlx5_umr_rule_entity_size(caps) ?:
	       mlx5_umr_check_access(caps, wr->access) ?:
	       mlx5_umr_rule_pdn(wr) ?:
	       mlx5_umr_rule_pages_given(wr) ?:
	       mlx5_umr_rule_pages_capacity(wr) ?:
	       mlx5_umr_rule_pages_offset(wr) ?:
	       mlx5_umr_rule_no_wrap(wr->pages.iova, wr->pages.length) ?:
	       mlx5_umr_rule_pages_cover(wr) ?:
	       mlx5_umr_rule_pages_aligned(wr);
}

/* Rules 38 to 52, on a request with a signature flag (rules.h). */
int mlx5_umr_check_sig(const struct mlx5_umr_caps *caps,
		       const struct mlx5_umr_wr *wr)
{
	const struct mlx5_umr_sig_attr *a = wr->sig;
	int err;

	err = mlx5_umr_rule_sig_mkey(wr->mkey) ?:
	      mlx5_umr_rule_sig_op(wr->op);
	if (err || !(wr->flags & MLX5_UMR_WR_SET_SIG))
		return err;
	return mlx5_umr_rule_sig_given(wr) ?:
	       mlx5_umr_rule_sig_flags(a) ?:
	       mlx5_umr_check_sig_domain(&a->mem) ?:
	       mlx5_umr_check_sig_domain(&a->wire) ?:
	       mlx5_umr_rule_sig_some(a) ?:
	       mlx5_umr_rule_sig_copy(a) ?:
	       mlx5_umr_rule_sig_room(caps, wr) ?:
	       mlx5_umr_rule_sig_length(wr);
}

int mlx5_umr_wr_check(const struct mlx5_umr_caps *caps,
		      const struct mlx5_umr_wr *wr)
{
	return mlx5_umr_wr_rules(caps, wr, true);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_wr_check);

int mlx5_umr_wr_prepare(const struct mlx5_umr_caps *caps,
			const struct mlx5_umr_wr *wr)
{
	int err = mlx5_umr_wr_rules(caps, wr, false);

	return err ? err : mlx5_umr_wqe_bytes(caps, wr);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_wr_prepare);
