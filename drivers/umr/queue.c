// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: UMR channels a ULP owns (Documentation/api.rst, "Channels").
 *
 * A channel is a queue like the device's own (a REG_UMR QP, its CQ, ring
 * and work items, in the service's PD) that a ULP creates after bring-up,
 * typically one per blk-mq hardware queue, with its own depth, completion
 * vector and completion mode. Mkeys homed on it (mlx5_umr_queue_alloc_mkey(),
 * mlx5_umr_mkey_set_queue(), mlx5_umr_mkey_pool_init_q()) post there through
 * the usual mlx5_umr_post(): routing is by home (sq_post.c).
 *
 * The patterns are mlx5e's per-channel UMR SQs (en.h, the icosq allocated
 * on the channel's node) and the RDMA core's CQ polling contexts
 * (drivers/infiniband/core/cq.c: IB_POLL_SOFTIRQ through irq_poll,
 * IB_POLL_DIRECT polled by the ULP with ib_process_cq_direct()).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/topology.h>
#include <linux/mlx5_umr.h>

#include "umr.h"

/* Smallest channel ring, in basic blocks: room for a few large WQEs. */
#define MLX5_UMR_CHAN_MIN_BBS	64
/* CQEs one irq_poll round consumes, as the RDMA core's IB_POLL_BUDGET_IRQ. */
#define MLX5_UMR_IOP_BUDGET	256
/* How often unregistration polls the polled channels while it waits. */
#define MLX5_UMR_UNPLUG_POLL	max(msecs_to_jiffies(10), 1UL)

/**
 * mlx5_umr_chans_init() - an empty channel list
 * @dev: a device being registered
 */
void mlx5_umr_chans_init(struct mlx5_umr_dev *dev)
{
	INIT_LIST_HEAD(&dev->chans);
	mutex_init(&dev->chans_mutex);
	spin_lock_init(&dev->chans_lock);
}

/* Ring size of a channel: @depth rounded up to a power of two, clamped. */
static u32 mlx5_umr_chan_bbs(const struct mlx5_umr_dev *dev, u32 depth)
{
	u32 max = 1U << MLX5_UMR_LOG_SQ_BBS;

	/* log_max_qp_sz bounds the WQE basic blocks of a send queue (qp.c) */
	if (dev->log_max_qp_sz && dev->log_max_qp_sz < MLX5_UMR_LOG_SQ_BBS)
		max = 1U << dev->log_max_qp_sz;
	depth = clamp_t(u32, depth, MLX5_UMR_CHAN_MIN_BBS, max);
	return roundup_pow_of_two(depth);
}

/**
 * mlx5_umr_queue_create() - create a UMR channel a ULP owns
 * @dev: the device
 * @comp_vector: the completion vector its CQ uses, as ib_create_cq()'s
 *	(taken modulo the vectors the HCA has); -1 for the vector of the
 *	device queue of the CPU this runs on
 * @depth_bbs: its ring size in send basic blocks (64 bytes; a configure
 *	takes 3 to 6 inline, a signature request more), rounded up to a power
 *	of two, at least 64 and at most 1024 or what the HCA takes
 * @mode: how done() is called (enum mlx5_umr_comp_mode)
 *
 * The channel is a REG_UMR QP and CQ in the service's PD, its memory on
 * the NUMA node of the vector's CPU. Mkeys homed on it
 * (mlx5_umr_queue_alloc_mkey(), mlx5_umr_mkey_set_queue(),
 * mlx5_umr_mkey_pool_init_q()) are posted there by mlx5_umr_post() and
 * mlx5_umr_exec(); its errors and timeouts are recovered on it alone. It
 * holds a reference on @dev until mlx5_umr_queue_destroy(), which a
 * client calls from its remove() at the latest.
 *
 * Context: process context, may sleep.
 * Return: the channel, or ERR_PTR(-EINVAL) for an unknown @mode,
 * -EOPNOTSUPP for MLX5_UMR_COMP_SOFTIRQ on a kernel without
 * CONFIG_IRQ_POLL, -ENODEV after unregistration, -ENOMEM, or the HCA's
 * error (-EREMOTEIO).
 */
struct mlx5_umr_queue *mlx5_umr_queue_create(struct mlx5_umr_dev *dev,
					     int comp_vector, u32 depth_bbs,
					     enum mlx5_umr_comp_mode mode)
{
	struct mlx5_umr_queue *q;
	int cpu, err;

	if (mode != MLX5_UMR_COMP_IRQ && mode != MLX5_UMR_COMP_SOFTIRQ &&
	    mode != MLX5_UMR_COMP_POLLED)
		return ERR_PTR(-EINVAL);
	if (mode == MLX5_UMR_COMP_SOFTIRQ && !IS_ENABLED(CONFIG_IRQ_POLL))
		return ERR_PTR(-EOPNOTSUPP);
	if (!percpu_ref_tryget_live(&dev->users))
		return ERR_PTR(-ENODEV);
	if (comp_vector < 0) {
		struct mlx5_umr_queue *home = mlx5_umr_cpu_queue(dev);

		comp_vector = home->vector;
		cpu = home->cpu;
	} else {
		/* where mlx5_core spreads vector n (cpumask_local_spread()) */
		cpu = cpumask_local_spread(comp_vector, dev->hca->numa_node);
	}
	q = mlx5_umr_queue_alloc_on(dev, 0, cpu, comp_vector,
				    mlx5_umr_chan_bbs(dev, depth_bbs));
	if (!q) {
		err = -ENOMEM;
		goto err_put;
	}
	q->mode = mode;
	q->ulp = true;
	if (IS_ENABLED(CONFIG_IRQ_POLL) && mode == MLX5_UMR_COMP_SOFTIRQ)
		irq_poll_init(&q->iop, MLX5_UMR_IOP_BUDGET, mlx5_umr_iop_poll);
	err = mlx5_umr_queue_init(q);
	if (err)
		goto err_free;

	kref_get(&dev->kref);
	mutex_lock(&dev->chans_mutex);
	spin_lock_irq(&dev->chans_lock);
	list_add_tail(&q->chan, &dev->chans);
	spin_unlock_irq(&dev->chans_lock);
	mutex_unlock(&dev->chans_mutex);
	percpu_ref_put(&dev->users);
	return q;

err_free:
	mlx5_umr_queue_free(q);
err_put:
	percpu_ref_put(&dev->users);
	return ERR_PTR(err);
}
EXPORT_SYMBOL(mlx5_umr_queue_create);

/* Is an mkey of @q's device homed on @q? */
static bool mlx5_umr_queue_homes(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_dev *dev = q->dev;
	struct mlx5_umr_mkey_priv *mp;
	bool homes = false;

	mutex_lock(&dev->mkeys_lock);
	list_for_each_entry(mp, &dev->mkeys, list) {
		if (mp->q == q) {
			homes = true;
			break;
		}
	}
	mutex_unlock(&dev->mkeys_lock);
	return homes;
}

/**
 * mlx5_umr_queue_destroy() - destroy a channel
 * @q: from mlx5_umr_queue_create(), or NULL
 *
 * Every mkey homed on @q must have been freed or re-homed first: requests
 * in flight name such mkeys, so none is left. After the device was
 * unregistered (the channel's QP and CQ are gone with it) this only frees
 * the structure and drops its device reference. Not from a done()
 * callback.
 *
 * Context: process context, may sleep.
 * Return: 0, or -EBUSY (nothing done) while an mkey is homed on @q;
 * -EINVAL for a queue the service owns (mlx5_umr_mkey_queue() of an mkey
 * homed on a device queue or a PD queue).
 */
int mlx5_umr_queue_destroy(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_dev *dev;

	if (!q)
		return 0;
	if (!q->ulp)
		return -EINVAL;
	dev = q->dev;
	if (mlx5_umr_queue_homes(q))
		return -EBUSY;

	/* vs unregistration, which tears down the channels left */
	mutex_lock(&dev->chans_mutex);
	spin_lock_irq(&dev->chans_lock);
	list_del(&q->chan);
	spin_unlock_irq(&dev->chans_lock);
	if (!q->gone) {
		mlx5_umr_sq_stop(q);
		mlx5_umr_queue_cleanup(q);
	}
	mutex_unlock(&dev->chans_mutex);
	mlx5_umr_queue_free(q);
	mlx5_umr_dev_put(dev);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_queue_destroy);

/**
 * mlx5_umr_queue_poll() - complete what a polled channel's HCA completed
 * @q: an MLX5_UMR_COMP_POLLED channel
 * @budget: CQEs to consume at most, at least 1
 *
 * Consumes at most @budget CQEs under the channel's lock, then calls the
 * done() of the requests they complete, in posting order, in the caller's
 * context with no service lock held. A CQE completes one request or more
 * (the unsignalled ones posted before it in its batch). Call it from the
 * ULP's own completion path (its CQ handler, blk-mq ->poll()); the CQ
 * never raises an event. Nothing happens once the channel stopped
 * (unregistration, a queue that could not be recovered).
 *
 * Context: any but hard IRQ; done() callbacks run here.
 * Return: the CQEs consumed, or -EINVAL for another mode or a @budget
 * below 1.
 */
int mlx5_umr_queue_poll(struct mlx5_umr_queue *q, int budget)
{
	if (q->mode != MLX5_UMR_COMP_POLLED || budget < 1)
		return -EINVAL;
	return mlx5_umr_cq_consume(q, budget);
}
EXPORT_SYMBOL(mlx5_umr_queue_poll);

/**
 * mlx5_umr_chans_set_err() - recover the channels of a device
 * @dev: the device
 * @timeout: what mlx5_umr_sq_set_err() takes: their requests in flight
 *	fail (-ETIMEDOUT), else they are retried or failed by recovery
 * @busy_only: only channels with requests in flight
 *
 * Context: any.
 */
void mlx5_umr_chans_set_err(struct mlx5_umr_dev *dev, bool timeout,
			    bool busy_only)
{
	struct mlx5_umr_queue *q;
	unsigned long flags;

	spin_lock_irqsave(&dev->chans_lock, flags);
	list_for_each_entry(q, &dev->chans, chan) {
		spin_lock(&q->sq.lock);
		if (!busy_only || q->sq.pc != q->sq.cc)
			mlx5_umr_sq_set_err(q, timeout);
		spin_unlock(&q->sq.lock);
	}
	spin_unlock_irqrestore(&dev->chans_lock, flags);
}

/* Poll every polled channel once; whether there is one. */
static bool mlx5_umr_chans_poll(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_queue *q;
	bool any = false;

	mutex_lock(&dev->chans_mutex);
	list_for_each_entry(q, &dev->chans, chan) {
		if (q->mode != MLX5_UMR_COMP_POLLED)
			continue;
		any = true;
		mlx5_umr_cq_consume(q, INT_MAX);
	}
	mutex_unlock(&dev->chans_mutex);
	return any;
}

/**
 * mlx5_umr_chans_wait_users() - wait for the calls and requests in flight
 *	at unregistration
 * @dev: the device, its users killed
 *
 * Polled channels are polled meanwhile: their ULP may have stopped polling,
 * and the done() of their requests then runs here, in unregistration's
 * context. What is still in flight after the device's timeout is recovered
 * on every queue and channel, which fails it.
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_chans_wait_users(struct mlx5_umr_dev *dev)
{
	unsigned long deadline = jiffies + dev->timeout;
	unsigned long left;

	for (;;) {
		bool polled = mlx5_umr_chans_poll(dev);

		left = time_before(jiffies, deadline) ? deadline - jiffies : 0;
		if (polled)
			left = min(left, MLX5_UMR_UNPLUG_POLL);
		if (wait_for_completion_timeout(&dev->users_done, left ?: 1))
			return;
		if (!time_before(jiffies, deadline))
			break;
	}
	dev_warn(dev->hca->dev, "umr: requests still in flight, recovering\n");
	mlx5_umr_sq_timeout(dev);
	while (!wait_for_completion_timeout(&dev->users_done,
					    MLX5_UMR_UNPLUG_POLL))
		mlx5_umr_chans_poll(dev);
}

/**
 * mlx5_umr_chans_stop() - stop the channels ULPs left at unregistration
 * @dev: the device, nothing in flight
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_chans_stop(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_queue *q;

	mutex_lock(&dev->chans_mutex);
	list_for_each_entry(q, &dev->chans, chan) {
		/* a PD queue's mkeys are reported as leaked instead */
		if (!q->pdq)
			dev_warn(dev->hca->dev,
				 "umr: channel QP 0x%x left at unregister\n",
				 q->sq.qpn);
		mlx5_umr_sq_stop(q);
	}
	mutex_unlock(&dev->chans_mutex);
}

/**
 * mlx5_umr_chans_teardown() - destroy the QPs and CQs of the channels left
 * @dev: the device, its channels stopped and its mkeys torn down
 *
 * The structures stay for mlx5_umr_queue_destroy(), marked gone.
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_chans_teardown(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_queue *q;

	mutex_lock(&dev->chans_mutex);
	list_for_each_entry(q, &dev->chans, chan) {
		/* PD queues went first (mlx5_umr_pd_queues_teardown()) */
		if (q->gone)
			continue;
		mlx5_umr_queue_cleanup(q);
		q->gone = true;
	}
	mutex_unlock(&dev->chans_mutex);
}
