// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: asynchronous revocation of an mkey's key, the
 * invalidate-retry-report sequence every ULP needs before it unmaps the
 * pages behind a key (nvme-rdma posts IB_WR_LOCAL_INV and unmaps in its
 * completion, nvme_rdma_inv_rkey_done()): posted from any context,
 * retried on back-pressure from a work item, reported once in process
 * context (Documentation/porting.rst, "Invalidation and completion").
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/workqueue.h>
#include <linux/mlx5_umr.h>

#include "umr.h"

enum {
	MLX5_UMR_REVOKE_POST,	/* post (again) */
	MLX5_UMR_REVOKE_RAN,	/* the invalidation completed: wr.status */
	MLX5_UMR_REVOKE_REPORT,	/* call done() with status */
};

/* Back-pressure retries wait 1, 2, 4 ... jiffies, at most this long. */
#define MLX5_UMR_REVOKE_DELAY_MAX	msecs_to_jiffies(100)

/*
 * Back-pressure is retried for this many device timeouts, then reported.
 * A full ring drains or is recovered by the watchdog within one timeout
 * and a recovery ends in a few commands: past two, the queue is not
 * coming back, or the mkey is busy with a request of the caller's
 * (-EBUSY, which the contract rules out).
 */
#define MLX5_UMR_REVOKE_BUSY_TIMEOUTS	2

/* Any context but hard IRQ: the rest runs from the work item. */
static void mlx5_umr_revoke_wr_done(struct mlx5_umr_wr *wr)
{
	struct mlx5_umr_revoke *rv =
		container_of(wr, struct mlx5_umr_revoke, wr);

	queue_delayed_work(system_wq, &rv->work, 0);
}

/* Has back-pressure lasted too long? The first refusal starts the clock. */
static bool mlx5_umr_revoke_busy_over(struct mlx5_umr_revoke *rv)
{
	struct mlx5_umr_dev *dev = rv->wr.mkey->dev;

	if (!rv->retries) {
		rv->busy_until = jiffies +
				 MLX5_UMR_REVOKE_BUSY_TIMEOUTS * dev->timeout;
		return false;
	}
	return time_after(jiffies, rv->busy_until);
}

/*
 * Post the invalidation. A mkey whose key is unknown after a failed
 * MLX5_UMR_WR_NEW_KEY request refuses a plain one (-ESTALE); one with a
 * new key byte finds it by index (Documentation/service.rst, "The key
 * after a failure"). Back-pressure is retried later, any other refusal
 * reported, and so is back-pressure that outlasted its bound.
 */
static void mlx5_umr_revoke_post(struct mlx5_umr_revoke *rv)
{
	struct mlx5_umr_mkey *mkey = rv->wr.mkey;
	struct mlx5_umr_wr *wrs[] = { &rv->wr };
	u32 flags = 0;
	int err;

again:
	memset(&rv->wr, 0, sizeof(rv->wr));
	rv->wr.mkey = mkey;
	rv->wr.op = MLX5_UMR_OP_INVALIDATE;
	rv->wr.flags = flags;
	rv->wr.done = mlx5_umr_revoke_wr_done;
	/* before the post: done() may run before it returns */
	rv->state = MLX5_UMR_REVOKE_RAN;
	err = mlx5_umr_post(mkey->dev, wrs, 1);
	if (!err)
		return;
	if (err == -ESTALE && !flags) {
		flags = MLX5_UMR_WR_NEW_KEY;
		goto again;
	}
	if (mlx5_umr_post_busy(err) && !mlx5_umr_revoke_busy_over(rv)) {
		unsigned long delay = rv->delay;

		/* all of @rv before the queueing: the work may run at once */
		rv->retries++;
		rv->state = MLX5_UMR_REVOKE_POST;
		rv->delay = min(delay * 2, MLX5_UMR_REVOKE_DELAY_MAX);
		queue_delayed_work(system_wq, &rv->work, delay);
		return;
	}
	rv->status = err;
	rv->state = MLX5_UMR_REVOKE_REPORT;
	queue_delayed_work(system_wq, &rv->work, 0);
}

static void mlx5_umr_revoke_work(struct work_struct *work)
{
	struct mlx5_umr_revoke *rv =
		container_of(to_delayed_work(work), struct mlx5_umr_revoke,
			     work);

	switch (rv->state) {
	case MLX5_UMR_REVOKE_RAN:
		rv->tries++;
		rv->status = rv->wr.status;
		/*
		 * -EIO and -ETIMEDOUT: it may or may not have run;
		 * -ECANCELED: it never ran. An invalidation carries no state
		 * check (wr.c set_linv_wr()), so running it again is safe.
		 */
		if (rv->status && rv->tries < MLX5_UMR_REVOKE_TRIES) {
			rv->delay = 1;
			mlx5_umr_revoke_post(rv);
			return;
		}
		break;
	case MLX5_UMR_REVOKE_POST:
		mlx5_umr_revoke_post(rv);
		return;
	default:
		break;
	}
	/* the last touch: done() may free @rv */
	rv->done(rv);
}

/**
 * mlx5_umr_revoke() - invalidate an mkey's key, asynchronously
 * @rv: the caller's storage, until @done has been called
 * @mkey: the mkey: nothing else of it in flight, and not freed before
 *	@done
 * @done: called exactly once, in process context, with @rv->status
 *	(struct mlx5_umr_revoke says what each value means for the key)
 * @context: stored in @rv->context
 *
 * Posts an MLX5_UMR_OP_INVALIDATE of @mkey (with MLX5_UMR_WR_NEW_KEY when
 * its key is unknown after a failed request, -ESTALE); retries it from a
 * work item while mlx5_umr_post() reports back-pressure, with a delay that
 * doubles up to 100 ms, for at most twice the device's request timeout
 * (the timeout_ms of mlx5_umr_register_hca()) from the first refusal; then
 * reports the last refusal (-ENOSPC, -EAGAIN or -EBUSY: nothing posted,
 * the key is as it was); posts it again when it completed with
 * -EIO, -ETIMEDOUT or -ECANCELED, MLX5_UMR_REVOKE_TRIES times in all. The
 * mkey is free on the HCA once @done reports 0: its pages may be unmapped
 * and the mkey reused or returned to its pool. A peer's SEND_WITH_INV that
 * already freed it changes nothing: the invalidation of a free mkey
 * succeeds.
 *
 * Context: any context but hard IRQ (that of mlx5_umr_post()); does not
 * sleep.
 * Return: 0 (@done will be called), or -EINVAL for a NULL argument
 * (nothing started, @done not called).
 */
int mlx5_umr_revoke(struct mlx5_umr_revoke *rv, struct mlx5_umr_mkey *mkey,
		    void (*done)(struct mlx5_umr_revoke *rv), void *context)
{
	if (!rv || !mkey || !done)
		return -EINVAL;
	rv->done = done;
	rv->context = context;
	rv->status = 0;
	rv->retries = 0;
	rv->tries = 0;
	rv->delay = 1;
	rv->busy_until = 0;
	INIT_DELAYED_WORK(&rv->work, mlx5_umr_revoke_work);
	rv->wr.mkey = mkey;
	mlx5_umr_revoke_post(rv);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_revoke);
