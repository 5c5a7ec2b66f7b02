// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: a DMA-mapped scatterlist as an SGE-list layout, for ULPs that
 * hold (sgl, nents) from ib_dma_map_sg() and an offset into it, as
 * ib_map_mr_sg() takes them (drivers/infiniband/core/verbs.c).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/scatterlist.h>
#include <linux/mlx5_umr.h>

#include "umr.h"
#include "rules.h"

/**
 * mlx5_umr_map_sg() - lay a DMA-mapped scatterlist out as an SGE list
 * @wr: a MLX5_UMR_OP_CONFIGURE request whose @wr->mkey is set; gets
 *	MLX5_UMR_LAYOUT_LIST over @sge
 * @sge: the caller's array the entries are written to; must live until
 *	the request is posted
 * @max_sge: entries @sge holds
 * @sgl: the scatterlist, mapped for the device (ib_dma_map_sg())
 * @sg_nents: mapped entries of @sgl (what ib_dma_map_sg() returned)
 * @sg_offset: bytes of the first entry to skip, or NULL for none
 * @lkey: the key every entry names: a DMA key valid in the PD the mkey
 *	is in (&mlx5_umr_pd.dma_lkey, or &mlx5_umr_caps.dma_lkey in the
 *	service's PD)
 *
 * Entries adjacent in device address space are merged, and an entry over
 * the 2 GiB of one KLM (rule 12) is split; entries of 0 bytes are skipped.
 * At most @max_sge entries, and no more than the mkey
 * holds, are written. The mkey's address 0 is the first mapped byte (the
 * service's mkeys are zero-based), unless @wr->flags has
 * MLX5_UMR_WR_SET_IOVA: then @wr->iova is set to that byte's device
 * address, as ib_map_mr_sg() sets mr->iova (sg_dma_address() of the first
 * entry + @sg_offset), and the mkey's addresses are the device addresses
 * of a contiguous mapping. Nothing sleeps or allocates.
 *
 * Context: any context.
 * Return: the number of @sgl entries mapped (all of the first ones): fewer
 * than @sg_nents when @sge or the mkey is full, as ib_map_mr_sg(); or
 * -EINVAL when @sg_offset is not inside the first entry or nothing maps.
 */
int mlx5_umr_map_sg(struct mlx5_umr_wr *wr, struct mlx5_umr_sge *sge,
		    u32 max_sge, struct scatterlist *sgl, int sg_nents,
		    unsigned int *sg_offset, u32 lkey)
{
	u32 cap = mlx5_umr_klm_capacity(&wr->mkey->dev->caps, wr->mkey);
	unsigned int skip = sg_offset ? *sg_offset : 0;
	struct mlx5_umr_sge *last = NULL;
	struct scatterlist *sg;
	u32 n = 0;
	int i;

	max_sge = min(max_sge, cap);
	for_each_sg(sgl, sg, sg_nents, i) {
		u64 addr = sg_dma_address(sg) + skip;
		u64 len = sg_dma_len(sg);

		if (skip && skip >= len)
			return -EINVAL;
		len -= skip;
		skip = 0;
		if (!len)
			continue;
		if (last && last->addr + last->length == addr &&
		    last->length + len <= MLX5_UMR_KLM_MAX_BYTES) {
			last->length += len;
			continue;
		}
		/* an entry is mapped whole or not at all */
		if (n + DIV_ROUND_UP(len, MLX5_UMR_KLM_MAX_BYTES) > max_sge)
			break;
		while (len) {
			u32 klm = min_t(u64, len, MLX5_UMR_KLM_MAX_BYTES);

			last = &sge[n++];
			last->addr = addr;
			last->length = klm;
			last->key = lkey;
			addr += klm;
			len -= klm;
		}
	}
	if (!n)
		return -EINVAL;
	if (wr->flags & MLX5_UMR_WR_SET_IOVA)
		wr->iova = sge[0].addr;
	wr->layout = MLX5_UMR_LAYOUT_LIST;
	wr->list.sge = sge;
	wr->list.num_sge = n;
	return i;
}
EXPORT_SYMBOL(mlx5_umr_map_sg);
