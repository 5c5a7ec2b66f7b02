// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: pools of indirect mkeys for ULPs, shaped like the RDMA core's
 * MR pools (drivers/infiniband/core/mr_pool.c: ib_mr_pool_init/get/put/
 * destroy), which nvme-rdma and iSER draw one MR per I/O from.
 *
 * The mkeys are created when the pool is set up (process context); taking
 * and returning one never allocates, so it works in any context, as
 * ib_mr_pool_get() does under the QP's mr_lock with interrupts off.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/mlx5_umr.h>

#include "umr.h"

static void mlx5_umr_mkey_pool_drain(struct mlx5_umr_mkey_pool *pool)
{
	while (pool->nfree)
		mlx5_umr_free_mkey(pool->free[--pool->nfree]);
	kfree(pool->free);
	pool->free = NULL;
}

/*
 * In @pd (NULL: the service's PD), homed on @q (NULL: the allocating CPU's
 * queue).
 */
static int mlx5_umr_mkey_pool_fill(struct mlx5_umr_mkey_pool *pool,
				   struct mlx5_umr_dev *dev,
				   struct mlx5_umr_pd *pd,
				   struct mlx5_umr_queue *q, unsigned int count,
				   u32 max_entries, u32 flags)
{
	struct mlx5_umr_mkey *mkey;

	if (!count)
		return -EINVAL;
	spin_lock_init(&pool->lock);
	pool->dev = dev;
	pool->size = count;
	pool->nfree = 0;
	pool->free = kcalloc(count, sizeof(*pool->free), GFP_KERNEL);
	if (!pool->free)
		return -ENOMEM;
	while (pool->nfree < count) {
		int err = 0;

		if (pd)
			mkey = mlx5_umr_alloc_mkey_in(pd, max_entries, flags);
		else if (q)
			mkey = mlx5_umr_queue_alloc_mkey(q, max_entries, flags);
		else
			mkey = mlx5_umr_alloc_mkey(dev, max_entries, flags);
		if (IS_ERR(mkey)) {
			err = PTR_ERR(mkey);
		} else if (pd && q) {
			/* a fresh mkey is idle: it moves */
			err = mlx5_umr_mkey_set_queue(mkey, q);
			if (err)
				mlx5_umr_free_mkey(mkey);
		}
		if (err) {
			mlx5_umr_mkey_pool_drain(pool);
			return err;
		}
		pool->free[pool->nfree++] = mkey;
	}
	return 0;
}

/**
 * mlx5_umr_mkey_pool_init() - create the mkeys of a pool
 * @pool: the pool, owned by the caller (e.g. in its per-queue struct)
 * @dev: the device
 * @pd: the ULP's PD (mlx5_umr_pd_get_ib()) the mkeys are created in, or
 *	NULL for the service's own PD; held by the caller until
 *	mlx5_umr_mkey_pool_destroy() returned
 * @count: mkeys in the pool, at least 1 (e.g. the queue depth)
 * @max_entries: translation entries each mkey is sized for, as
 *	mlx5_umr_alloc_mkey()
 * @flags: MLX5_UMR_MKEY_* of each mkey, as mlx5_umr_alloc_mkey() (with
 *	@pd) or mlx5_umr_alloc_mkey_in()
 *
 * Nothing is left behind on failure.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL for a @count of 0, -ENOMEM, or the error of
 * mlx5_umr_alloc_mkey() / mlx5_umr_alloc_mkey_in().
 */
int mlx5_umr_mkey_pool_init(struct mlx5_umr_mkey_pool *pool,
			    struct mlx5_umr_dev *dev, struct mlx5_umr_pd *pd,
			    unsigned int count, u32 max_entries, u32 flags)
{
	return mlx5_umr_mkey_pool_fill(pool, dev, pd, NULL, count,
				       max_entries, flags);
}
EXPORT_SYMBOL(mlx5_umr_mkey_pool_init);

/**
 * mlx5_umr_mkey_pool_init_q() - create a pool whose mkeys are homed on a
 *	channel
 * @pool: the pool, owned by the caller (e.g. in its per-hctx struct)
 * @q: the channel (mlx5_umr_queue_create())
 * @pd: the ULP's PD (mlx5_umr_pd_get_ib()) the mkeys are created in, so
 *	that its QPs can use their keys, or NULL for the service's PD (the
 *	channel's); not with MLX5_UMR_MKEY_SIGNATURE (as
 *	mlx5_umr_alloc_mkey_in())
 * @count: as mlx5_umr_mkey_pool_init()
 * @max_entries: as mlx5_umr_mkey_pool_init()
 * @flags: as mlx5_umr_mkey_pool_init()
 *
 * Every request of the pool's mkeys runs on @q (a blk-mq ULP makes one
 * pool per hardware queue, on that queue's channel). Destroy the pool
 * before the channel (mlx5_umr_queue_destroy() refuses while mkeys are
 * homed on it). Nothing is left behind on failure.
 *
 * Context: process context, may sleep.
 * Return: as mlx5_umr_mkey_pool_init().
 */
int mlx5_umr_mkey_pool_init_q(struct mlx5_umr_mkey_pool *pool,
			      struct mlx5_umr_queue *q, struct mlx5_umr_pd *pd,
			      unsigned int count, u32 max_entries, u32 flags)
{
	return mlx5_umr_mkey_pool_fill(pool, q->dev, pd, q, count,
				       max_entries, flags);
}
EXPORT_SYMBOL(mlx5_umr_mkey_pool_init_q);

/**
 * mlx5_umr_mkey_pool_get() - take an mkey from a pool
 * @pool: from mlx5_umr_mkey_pool_init()
 *
 * The mkey is as its last user left it: configure it with
 * MLX5_UMR_WR_NEW_KEY so that a peer holding an earlier key of it reaches
 * nothing (as FRWR users call ib_update_fast_reg_key()).
 *
 * Context: any context.
 * Return: an mkey, or NULL when all are taken.
 */
struct mlx5_umr_mkey *mlx5_umr_mkey_pool_get(struct mlx5_umr_mkey_pool *pool)
{
	struct mlx5_umr_mkey *mkey = NULL;
	unsigned long irqflags;

	spin_lock_irqsave(&pool->lock, irqflags);
	if (pool->nfree)
		mkey = pool->free[--pool->nfree];
	spin_unlock_irqrestore(&pool->lock, irqflags);
	return mkey;
}
EXPORT_SYMBOL(mlx5_umr_mkey_pool_get);

/**
 * mlx5_umr_mkey_pool_put() - return an mkey to its pool
 * @pool: the pool @mkey was taken from
 * @mkey: from mlx5_umr_mkey_pool_get()
 *
 * Return it once no request on it is in flight (its last done() ran) and
 * no peer may use its key any more (invalidated, or the next user
 * installs a new key byte): what it still maps stays reachable through
 * its current key until then.
 *
 * Context: any context.
 */
void mlx5_umr_mkey_pool_put(struct mlx5_umr_mkey_pool *pool,
			    struct mlx5_umr_mkey *mkey)
{
	unsigned long irqflags;

	spin_lock_irqsave(&pool->lock, irqflags);
	/* more puts than gets: a double put, or an mkey of another pool */
	if (!WARN_ON_ONCE(pool->nfree >= pool->size || mkey->dev != pool->dev))
		pool->free[pool->nfree++] = mkey;
	spin_unlock_irqrestore(&pool->lock, irqflags);
}
EXPORT_SYMBOL(mlx5_umr_mkey_pool_put);

/**
 * mlx5_umr_mkey_pool_destroy() - free the mkeys of a pool
 * @pool: from mlx5_umr_mkey_pool_init(); every mkey must have been put
 *
 * An mkey still taken is not freed (its user may still post on it): it
 * stays the caller's, to free with mlx5_umr_free_mkey() (where
 * ib_mr_pool_destroy() leaks an MR not returned).
 *
 * Context: process context, may sleep.
 * Return: 0, or -EBUSY when mkeys were still taken.
 */
int mlx5_umr_mkey_pool_destroy(struct mlx5_umr_mkey_pool *pool)
{
	unsigned int taken = pool->size - pool->nfree;

	mlx5_umr_mkey_pool_drain(pool);
	return taken ? -EBUSY : 0;
}
EXPORT_SYMBOL(mlx5_umr_mkey_pool_destroy);
