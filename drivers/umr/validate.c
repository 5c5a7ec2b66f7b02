// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: validation of a UMR request before any WQE byte is built.
 *
 * The errnos follow what rdma-core's mlx5 provider (providers/mlx5/qp.c)
 * returns for the same setters; Documentation/validation.rst lists every
 * rule, its errno and its source. The first violated rule wins, in the
 * order of that document.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/errno.h>
#include <linux/mm.h>

#include "wqe.h"
#include "xlt.h"
#include "entry_rules.h"

#define MLX5_UMR_WR_FLAGS	(MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_PD)

static int check_access(const struct mlx5_umr_caps *caps, u32 access)
{
	if (access & ~MLX5_UMR_ACCESS_ALL)
		return -EINVAL;
	if ((access & MLX5_UMR_ACCESS_REMOTE_ATOMIC) &&
	    (!caps->atomic || caps->umr_modify_atomic_disabled))
		return -EOPNOTSUPP;
	return 0;
}

static int check_pd(const struct mlx5_umr_wr *wr)
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
static u32 klm_capacity(const struct mlx5_umr_caps *caps,
			const struct mlx5_umr_mkey *mkey)
{
	return min3(mkey->max_entries, caps->max_klm_entries,
		    (u32)MLX5_UMR_XLT_MAX_KLMS);
}

static int check_list(const struct mlx5_umr_caps *caps,
		      const struct mlx5_umr_wr *wr, bool entries)
{
	const struct mlx5_umr_sge *sge = wr->list.sge;
	u32 n = wr->list.num_sge;
	u32 i;
	int err;

	if (!n || !sge)
		return -EINVAL;
	if (n > klm_capacity(caps, wr->mkey))
		return -ENOMEM;
	for (i = 0; entries && i < n; i++) {
		err = mlx5_umr_sge_check(&sge[i]);
		if (err)
			return err;
	}
	return 0;
}

static int check_interleaved(const struct mlx5_umr_caps *caps,
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

static int check_sgt(const struct mlx5_umr_caps *caps,
		     const struct mlx5_umr_wr *wr)
{
	u32 cap = klm_capacity(caps, wr->mkey);
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

static int check_configure(const struct mlx5_umr_caps *caps,
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
		err = check_access(caps, wr->access);
		if (err)
			return err;
	}
	err = check_pd(wr);
	if (err)
		return err;

	switch (wr->layout) {
	case MLX5_UMR_LAYOUT_LIST:
		return check_list(caps, wr, entries);
	case MLX5_UMR_LAYOUT_INTERLEAVED:
		return check_interleaved(caps, wr, entries);
	case MLX5_UMR_LAYOUT_SGT:
		return check_sgt(caps, wr);
	default:
		return 0;
	}
}

static int check_reg_pages(const struct mlx5_umr_caps *caps,
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
	err = check_access(caps, wr->access);
	if (err)
		return err;
	err = check_pd(wr);
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

/* @entries: also rules 12-13 and 17-19 (else the encoder applies them). */
static int wr_check(const struct mlx5_umr_caps *caps,
		    const struct mlx5_umr_wr *wr, bool entries)
{
	if (wr->flags & ~MLX5_UMR_WR_FLAGS)
		return -EOPNOTSUPP;
	if (!wr->mkey)
		return -EINVAL;

	switch (wr->op) {
	case MLX5_UMR_OP_CONFIGURE:
		return check_configure(caps, wr, entries);
	case MLX5_UMR_OP_INVALIDATE:
		/* wr.c set_linv_wr(): only the free bit changes */
		if (wr->flags || wr->layout != MLX5_UMR_LAYOUT_NONE)
			return -EINVAL;
		return 0;
	case MLX5_UMR_OP_REG_PAGES:
		return check_reg_pages(caps, wr);
	default:
		return -EINVAL;
	}
}

int mlx5_umr_wr_check(const struct mlx5_umr_caps *caps,
		      const struct mlx5_umr_wr *wr)
{
	return wr_check(caps, wr, true);
}
EXPORT_SYMBOL_NS_GPL(mlx5_umr_wr_check, MLX5_UMR_INTERNAL);

int mlx5_umr_wr_prepare(const struct mlx5_umr_caps *caps,
			const struct mlx5_umr_wr *wr)
{
	int err = wr_check(caps, wr, false);

	return err ? err : mlx5_umr_wqe_bytes(caps, wr);
}
EXPORT_SYMBOL_NS_GPL(mlx5_umr_wr_prepare, MLX5_UMR_INTERNAL);
