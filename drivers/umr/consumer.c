// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: consumers, so one ULP queue waits for its own requests and
 * not for the device's (Documentation/service.rst, "Back-pressure").
 *
 * A request names its consumer (&mlx5_umr_wr.consumer) rather than an
 * mkey pool carrying one: a ULP queue may post on mkeys from a shared pool
 * or of its own, and recovery resubmits requests, not mkeys. The count is
 * a percpu_ref, as the device's own users count: every blk-mq hardware
 * queue posts from its CPU without a shared cache line, and the drain is
 * the ref's kill: a post either took its reference before the kill (and
 * the drain waits for its done()) or is refused.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/jiffies.h>

#include "umr.h"

static void mlx5_umr_consumer_release(struct percpu_ref *ref)
{
	struct mlx5_umr_consumer *c =
		container_of(ref, struct mlx5_umr_consumer, inflight);

	complete(&c->idle);
}

/**
 * mlx5_umr_consumer_init() - start counting a consumer's requests
 * @c: the caller's storage, until mlx5_umr_consumer_destroy()
 * @dev: the device its requests go to (held until the destroy)
 *
 * Context: process context, may sleep.
 * Return: 0, -ENOMEM, or -EINVAL for a NULL argument.
 */
int mlx5_umr_consumer_init(struct mlx5_umr_consumer *c,
			   struct mlx5_umr_dev *dev)
{
	int err;

	if (!c || !dev)
		return -EINVAL;
	init_completion(&c->idle);
	err = percpu_ref_init(&c->inflight, mlx5_umr_consumer_release, 0,
			      GFP_KERNEL);
	if (err)
		return err;
	mlx5_umr_dev_hold(dev);
	c->dev = dev;
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_consumer_init);

/**
 * mlx5_umr_consumer_drain() - refuse the consumer's new requests and wait
 *	for the done() of those in flight
 * @c: the consumer
 * @timeout_ms: how long to wait; 0 waits without a limit
 *
 * From the first call on, mlx5_umr_post() refuses a batch naming @c with
 * -ESHUTDOWN (final: not mlx5_umr_post_busy()). Requests of @c posted
 * before count until their done() returned, also while recovery posts them
 * again; other consumers post and complete as before. When the device is
 * being unregistered its requests still end: unregistration waits for
 * every request in flight and fails those still there after its timeout
 * (-ETIMEDOUT), so each one's done() is called. May be called again after
 * -ETIMEDOUT.
 *
 * Context: process context, may sleep; not from a done() callback.
 * Return: 0 when every request of @c has had its done(); -ETIMEDOUT when
 * some have not after @timeout_ms (posts stay refused); -ENODEV when every
 * request has had its done() but the device is going away (nothing more
 * can be posted on it).
 */
int mlx5_umr_consumer_drain(struct mlx5_umr_consumer *c,
			    unsigned int timeout_ms)
{
	unsigned long t = timeout_ms ? msecs_to_jiffies(timeout_ms) :
				       MAX_SCHEDULE_TIMEOUT;

	might_sleep();
	if (!percpu_ref_is_dying(&c->inflight))
		percpu_ref_kill(&c->inflight);
	if (!wait_for_completion_timeout(&c->idle, t))
		return -ETIMEDOUT;
	/* stays done for the next call */
	complete(&c->idle);
	return percpu_ref_is_dying(&c->dev->users) ? -ENODEV : 0;
}
EXPORT_SYMBOL(mlx5_umr_consumer_drain);

/**
 * mlx5_umr_consumer_destroy() - forget a drained consumer
 * @c: the consumer, drained (mlx5_umr_consumer_drain() returned 0 or
 *	-ENODEV), or with no request ever posted
 *
 * Context: process context, may sleep.
 * Return: 0 (@c may be freed), or -EBUSY when requests of @c are still in
 * flight: nothing done, drain again.
 */
int mlx5_umr_consumer_destroy(struct mlx5_umr_consumer *c)
{
	if (!percpu_ref_is_dying(&c->inflight))
		percpu_ref_kill(&c->inflight);
	/* the release completed it (after the kill: it cannot complete twice) */
	if (!completion_done(&c->idle))
		return -EBUSY;
	percpu_ref_exit(&c->inflight);
	mlx5_umr_dev_put(c->dev);
	c->dev = NULL;
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_consumer_destroy);

/**
 * mlx5_umr_consumers_get() - count a batch's requests for their consumers
 * @wrs: the batch
 * @n: its size
 *
 * Context: that of mlx5_umr_post().
 * Return: 0, or -ESHUTDOWN when a consumer is draining (nothing counted).
 */
int mlx5_umr_consumers_get(struct mlx5_umr_wr **wrs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct mlx5_umr_consumer *c = wrs[i]->consumer;

		if (c && !percpu_ref_tryget_live(&c->inflight)) {
			mlx5_umr_consumers_put(wrs, i);
			return -ESHUTDOWN;
		}
	}
	return 0;
}

/**
 * mlx5_umr_consumers_put() - undo mlx5_umr_consumers_get() of a batch
 *	that was not posted
 * @wrs: the batch
 * @n: its size
 */
void mlx5_umr_consumers_put(struct mlx5_umr_wr **wrs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (wrs[i]->consumer)
			percpu_ref_put(&wrs[i]->consumer->inflight);
}

/**
 * mlx5_umr_wr_call_done() - call a request's done(), then count it done
 *	for its consumer
 * @wr: the request, retired
 *
 * Context: that of done().
 */
void mlx5_umr_wr_call_done(struct mlx5_umr_wr *wr)
{
	/* done() may reuse or free @wr */
	struct mlx5_umr_consumer *c = wr->consumer;

	wr->done(wr);
	if (c)
		percpu_ref_put(&c->inflight);
}
