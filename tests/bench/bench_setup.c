// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr benchmark: fakes, registered memory, mkeys and requests.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/err.h>
#include <linux/mm.h>

#include "bench.h"

/* Register BENCH_MR_PAGES pages as an MTT mkey at BENCH_MR_IOVA. */
static int bench_mr_reg(struct bench_dev *bd)
{
	dma_addr_t addrs[BENCH_MR_PAGES];
	struct mlx5_umr_wr wr = {};
	struct scatterlist *sg;
	unsigned int i, k = 0;
	u32 off;
	int err;

	err = sg_alloc_table(&bd->sgt, BENCH_MR_PAGES, GFP_KERNEL);
	if (err)
		return err;
	for_each_sg(bd->sgt.sgl, sg, BENCH_MR_PAGES, i) {
		bd->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!bd->pages[i]) {
			err = -ENOMEM;
			goto err_pages;
		}
		sg_set_page(sg, bd->pages[i], PAGE_SIZE, 0);
	}
	err = mlx5_umr_dma_map_sg(bd->dev, &bd->sgt, DMA_BIDIRECTIONAL);
	if (err)
		goto err_pages;
	for_each_sg(bd->sgt.sgl, sg, bd->sgt.nents, i)
		for (off = 0; off < sg_dma_len(sg) && k < BENCH_MR_PAGES;
		     off += PAGE_SIZE)
			addrs[k++] = sg_dma_address(sg) + off;

	bd->mr = mlx5_umr_alloc_mtt_mkey(bd->dev, BENCH_MR_PAGES, 0);
	if (IS_ERR(bd->mr)) {
		err = PTR_ERR(bd->mr);
		goto err_unmap;
	}
	wr.mkey = bd->mr;
	wr.op = MLX5_UMR_OP_REG_PAGES;
	wr.flags = MLX5_UMR_WR_SET_ACCESS;
	wr.access = MLX5_UMR_ACCESS_ALL;
	wr.pages.addrs = addrs;
	wr.pages.npages = k;
	wr.pages.iova = BENCH_MR_IOVA;
	wr.pages.length = (u64)BENCH_MR_PAGES * PAGE_SIZE;
	err = mlx5_umr_exec(bd->dev, &wr, 0);
	if (err)
		goto err_mkey;
	return 0;

err_mkey:
	mlx5_umr_free_mkey(bd->mr);
err_unmap:
	mlx5_umr_dma_unmap_sg(bd->dev, &bd->sgt, DMA_BIDIRECTIONAL);
err_pages:
	for (i = 0; i < BENCH_MR_PAGES; i++)
		if (bd->pages[i])
			__free_page(bd->pages[i]);
	sg_free_table(&bd->sgt);
	return err;
}

static void bench_mr_unreg(struct bench_dev *bd)
{
	unsigned int i;

	mlx5_umr_free_mkey(bd->mr);
	mlx5_umr_dma_unmap_sg(bd->dev, &bd->sgt, DMA_BIDIRECTIONAL);
	for (i = 0; i < BENCH_MR_PAGES; i++)
		__free_page(bd->pages[i]);
	sg_free_table(&bd->sgt);
}

/**
 * bench_dev_init() - create a fake HCA, its service device and memory
 * @bd: zeroed
 * @null: a null device, that completes WQEs without executing them
 *
 * Completions come from the fake's workqueue, as from an interrupt. The
 * service gives it one UMR queue, as every table but the scaling one
 * measures.
 *
 * Return: 0 or -errno.
 */
int bench_dev_init(struct bench_dev *bd, bool null)
{
	return bench_dev_init_nq(bd, null, 1);
}

/**
 * bench_dev_init_nq() - bench_dev_init() with @nqueues UMR queues
 * @bd: zeroed
 * @null: a null device (MLX5_UMR_FAKE_F_NULL)
 * @nqueues: the service's queues on it (mlx5_umr_hca.nqueues)
 *
 * Return: 0 or -errno.
 */
int bench_dev_init_nq(struct bench_dev *bd, bool null, u16 nqueues)
{
	struct mlx5_umr_fake_attr attr;
	int err;

	mlx5_umr_fake_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_REGISTER |
		     (null ? MLX5_UMR_FAKE_F_NULL : 0);
	attr.nqueues = nqueues;
	bd->null = null;
	bd->fake = mlx5_umr_fake_create(&attr);
	if (IS_ERR_OR_NULL(bd->fake))
		return bd->fake ? PTR_ERR(bd->fake) : -ENOMEM;
	bd->dev = mlx5_umr_dev_get(mlx5_umr_fake_hca(bd->fake)->name);
	if (!bd->dev) {
		err = -ENODEV;
		goto err_fake;
	}
	err = bench_mr_reg(bd);
	if (err)
		goto err_put;
	return 0;

err_put:
	mlx5_umr_dev_put(bd->dev);
err_fake:
	mlx5_umr_fake_destroy(bd->fake);
	return err;
}

/**
 * bench_dev_fini() - undo bench_dev_init()
 * @bd: the device, with nothing in flight
 */
void bench_dev_fini(struct bench_dev *bd)
{
	bench_mr_unreg(bd);
	mlx5_umr_dev_put(bd->dev);
	mlx5_umr_fake_destroy(bd->fake);
}

static void bench_done(struct mlx5_umr_wr *wr)
{
	struct bench_set *s = wr->context;

	if (wr->status)
		atomic_inc(&s->errors);
	atomic_long_inc(&s->completed);
	/* Full barrier, then: is the poster waiting? */
	if (wq_has_sleeper(&s->wait))
		wake_up(&s->wait);
}

/* Entries that stay inside the registered memory. */
static void bench_fill_entries(struct bench_set *s)
{
	const u32 mr_bytes = BENCH_MR_PAGES * PAGE_SIZE;
	u32 key = s->bd->mr->key;
	unsigned int i;

	for (i = 0; i < s->lo->entries; i++) {
		if (s->lo->interleaved) {
			/* within a page: 4 cycles of 64 read, 64 skipped */
			s->il[i].addr = BENCH_MR_IOVA + i * PAGE_SIZE;
			s->il[i].bytes_count = BENCH_IL_BYTES;
			s->il[i].bytes_skip = BENCH_IL_BYTES;
			s->il[i].key = key;
		} else {
			s->sge[i].addr = BENCH_MR_IOVA + (i * 256) % mr_bytes;
			s->sge[i].length = 64;
			s->sge[i].key = key;
		}
	}
}

/**
 * bench_set_bind() - point request i at @mkeys[i % @nmkeys]
 * @s: the set, nothing in flight
 * @mkeys: the mkeys
 * @nmkeys: how many
 */
void bench_set_bind(struct bench_set *s, struct mlx5_umr_mkey **mkeys,
		    unsigned int nmkeys)
{
	unsigned int i;

	s->mkeys = mkeys;
	s->nmkeys = nmkeys;
	for (i = 0; i < BENCH_POOL; i++)
		s->wrs[i].mkey = mkeys[i % nmkeys];
}

/**
 * bench_set_init() - build BENCH_POOL requests of layout @lo
 * @s: zeroed
 * @bd: the device
 * @lo: the layout
 * @mkeys: target mkeys, or NULL to allocate enough for every request the
 *	ring can hold (pointer-mode tables are one per request in flight)
 * @nmkeys: how many in @mkeys
 *
 * Return: 0 or -errno.
 */
int bench_set_init(struct bench_set *s, struct bench_dev *bd,
		   const struct bench_layout *lo,
		   struct mlx5_umr_mkey **mkeys, unsigned int nmkeys)
{
	unsigned int i, n = lo->entries;
	int err = -ENOMEM;

	s->bd = bd;
	s->lo = lo;
	init_waitqueue_head(&s->wait);
	atomic_long_set(&s->completed, 0);
	atomic_set(&s->errors, 0);
	if (lo->interleaved)
		s->il = kcalloc(n, sizeof(*s->il), GFP_KERNEL);
	else
		s->sge = kcalloc(n, sizeof(*s->sge), GFP_KERNEL);
	s->wrs = kcalloc(BENCH_POOL, sizeof(*s->wrs), GFP_KERNEL);
	s->batch = kcalloc(BENCH_POOL, sizeof(*s->batch), GFP_KERNEL);
	if ((!s->il && !s->sge) || !s->wrs || !s->batch)
		goto err_free;
	bench_fill_entries(s);
	if (n + lo->interleaved > mlx5_umr_dev_caps(bd->dev)->max_inline_entries)
		s->xlt_bytes = ALIGN((n + lo->interleaved) * 16, 64);

	if (!mkeys) {
		/* Pointer mode: one table per request in flight, at most a batch. */
		nmkeys = s->xlt_bytes ? BENCH_MAX_BATCH : BENCH_POOL;
		mkeys = kcalloc(nmkeys, sizeof(*mkeys), GFP_KERNEL);
		if (!mkeys)
			goto err_free;
		s->own_mkeys = true;
		for (i = 0; i < nmkeys; i++) {
			mkeys[i] = mlx5_umr_alloc_mkey(bd->dev, n, 0);
			if (IS_ERR(mkeys[i])) {
				err = PTR_ERR(mkeys[i]);
				while (i--)
					mlx5_umr_free_mkey(mkeys[i]);
				kfree(mkeys);
				goto err_free;
			}
		}
	}

	for (i = 0; i < BENCH_POOL; i++) {
		struct mlx5_umr_wr *wr = &s->wrs[i];

		wr->op = MLX5_UMR_OP_CONFIGURE;
		wr->flags = MLX5_UMR_WR_SET_ACCESS;
		wr->access = BENCH_ACCESS;
		if (lo->interleaved) {
			wr->layout = MLX5_UMR_LAYOUT_INTERLEAVED;
			wr->interleaved.ent = s->il;
			wr->interleaved.num_entries = n;
			wr->interleaved.repeat_count = BENCH_IL_REPEAT;
		} else {
			wr->layout = MLX5_UMR_LAYOUT_LIST;
			wr->list.sge = s->sge;
			wr->list.num_sge = n;
		}
		wr->done = bench_done;
		wr->context = s;
	}
	bench_set_bind(s, mkeys, nmkeys);

	err = mlx5_umr_validate(bd->dev, &s->wrs[0]);
	if (err)
		goto err_mkeys;
	s->wqe_size = mlx5_umr_test_wqe_size(mlx5_umr_dev_caps(bd->dev),
					     &s->wrs[0]);
	return 0;

err_mkeys:
	if (s->own_mkeys) {
		for (i = 0; i < s->nmkeys; i++)
			mlx5_umr_free_mkey(s->mkeys[i]);
		kfree(s->mkeys);
	}
err_free:
	kfree(s->batch);
	kfree(s->wrs);
	kfree(s->il);
	kfree(s->sge);
	/* Leave nothing for a caller that looks at the set to free again. */
	memset(s, 0, sizeof(*s));
	return err;
}

/**
 * bench_set_fini() - undo bench_set_init()
 * @s: the set
 *
 * After a failed run requests may still be in flight: the service
 * completes every request (its watchdog fails a stuck one), so wait for
 * them; should that never happen, leak the set rather than free what the
 * service still uses.
 */
void bench_set_fini(struct bench_set *s)
{
	unsigned int i;

	if (!wait_event_timeout(s->wait,
				atomic_long_read(&s->completed) == s->posted,
				30 * HZ)) {
		pr_err("mlx5_umr_bench: %s: requests never completed, leaking them\n",
		       s->lo->name);
		return;
	}
	if (s->own_mkeys) {
		for (i = 0; i < s->nmkeys; i++)
			mlx5_umr_free_mkey(s->mkeys[i]);
		kfree(s->mkeys);
	}
	kfree(s->batch);
	kfree(s->wrs);
	kfree(s->il);
	kfree(s->sge);
}
