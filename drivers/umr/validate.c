// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: validation of a UMR request before any WQE byte is built.
 *
 * The rules are in wr_rules.h (inline, so that mlx5_umr_post() applies
 * them to each request without a call) and entry_rules.h; here are the two
 * rare layouts' rules, out of line, and the exported entry points. The
 * errnos follow what rdma-core's mlx5 provider (providers/mlx5/qp.c)
 * returns for the same setters; Documentation/validation.rst lists every
 * rule, its errno and its source.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/errno.h>
#include <linux/mm.h>

#include "wqe.h"
#include "wr_rules.h"

int mlx5_umr_check_sgt(const struct mlx5_umr_caps *caps,
		       const struct mlx5_umr_wr *wr)
{
	u32 cap = mlx5_umr_klm_capacity(caps, wr->mkey);
	u64 left = wr->sgt.length;
	struct scatterlist *sg;
	u32 i;

	if (!wr->sgt.sgl || !wr->sgt.nents || !left)
		return -EINVAL;
	for_each_sg(wr->sgt.sgl, sg, wr->sgt.nents, i) {
		u32 len = sg_dma_len(sg);

		if (i >= cap)
			return -ENOMEM;
		if (!len || min_t(u64, len, left) > MLX5_UMR_KLM_MAX_BYTES)
			return -EINVAL;
		if (len >= left)
			return 0;
		left -= len;
	}
	/* the length is longer than the mapped entries */
	return -EINVAL;
}

int mlx5_umr_check_reg_pages(const struct mlx5_umr_caps *caps,
			     const struct mlx5_umr_wr *wr)
{
	const dma_addr_t *addrs = wr->pages.addrs;
	u32 n = wr->pages.npages;
	u64 iova = wr->pages.iova;
	u64 length = wr->pages.length;
	u32 cap;
	int err;
	u32 i;

	if (!wr->mkey->direct || wr->layout != MLX5_UMR_LAYOUT_NONE)
		return -EINVAL;
	/* umr.h mlx5r_umr_can_load_pas(): PAGE_SIZE may not be in the mask */
	if (caps->umr_modify_entity_size_disabled)
		return -EOPNOTSUPP;
	/* a registration always sets access */
	err = mlx5_umr_check_access(caps, wr->access);
	if (err)
		return err;
	err = mlx5_umr_check_pd(wr);
	if (err)
		return err;

	if (!n || !addrs || !length)
		return -EINVAL;
	cap = min_t(u32, wr->mkey->max_entries,
		    MLX5_UMR_XLT_MAX_BYTES / sizeof(struct mlx5_mtt));
	if (n > cap)
		return -ENOMEM;
	/* the HW finds the first page's offset in start_addr's low bits */
	if (wr->pages.offset != offset_in_page(iova))
		return -EINVAL;
	if (iova + (length - 1) < iova)
		return -EOVERFLOW;
	if (length > ((u64)n << PAGE_SHIFT) - wr->pages.offset)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (offset_in_page(addrs[i]))
			return -EINVAL;
	return 0;
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
