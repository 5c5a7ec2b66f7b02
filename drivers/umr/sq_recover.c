// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: errors, recovery, watchdog and teardown of the REG_UMR QP.
 *
 * An error CQE, a timeout or internal error moves the queue to ERR under
 * sq->lock and queues recover_work, which resets the QP through commands
 * (q->recover_lock held, sq->lock not) and posts again what the error
 * flushed (mlx5_umr_sq_resubmit()).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/doorbell.h>
#include <linux/mlx5/qp.h>

#include "umr.h"

/**
 * mlx5_umr_sq_fail_all() - complete every request in flight or waiting to
 * be resubmitted with @status
 * @q: the queue
 * @status: the negative errno they get
 *
 * Only for a QP the HCA no longer processes (RESET, or a dead device).
 * Context: process context.
 */
void mlx5_umr_sq_fail_all(struct mlx5_umr_queue *q, int status)
{
	struct mlx5_umr_wr *wr;
	LIST_HEAD(done);

	spin_lock_irq(&q->sq.lock);
	mlx5_umr_sq_retire_all(&q->sq, status, &done);
	list_for_each_entry(wr, &q->sq.resubmit, node)
		wr->status = status;
	list_splice_tail_init(&q->sq.resubmit, &done);
	spin_unlock_irq(&q->sq.lock);
	mlx5_umr_sq_finish(q, &done);
}

static void mlx5_umr_sq_set_state(struct mlx5_umr_queue *q,
				  enum mlx5_umr_sq_state state)
{
	spin_lock_irq(&q->sq.lock);
	q->sq.state = state;
	q->sq.events++;
	spin_unlock_irq(&q->sq.lock);
	wake_up_all(&q->sq.wait);
}

/*
 * With the QP in RESET: retire what is still in flight (to @done after a
 * timeout, to be posted again after an error CQE) and start the producer,
 * the consumer and both doorbell records at zero, as the HCA's WQE counter.
 */
static void mlx5_umr_sq_reset(struct mlx5_umr_queue *q, bool timed_out,
			      struct list_head *done)
{
	struct mlx5_umr_sq *sq = &q->sq;

	lockdep_assert_held(&sq->lock);
	/*
	 * After an error CQE the QP stopped at the failed WQE: the ones after
	 * it never ran and go again. After a timeout nobody knows.
	 */
	if (timed_out)
		mlx5_umr_sq_retire_all(sq, -ETIMEDOUT, done);
	else
		mlx5_umr_sq_retire_all(sq, -ECANCELED, &sq->resubmit);
	sq->pc = 0;
	sq->cc = 0;
	sq->head = 0;
	sq->tail = 0;
	sq->unsignaled = 0;
	sq->next_fence = MLX5_FENCE_MODE_NONE;
	sq->timed_out = false;
	mlx5_umr_sq_dbrec(q)[MLX5_SND_DBR] = 0;
	mlx5_umr_sq_dbrec(q)[MLX5_RCV_DBR] = 0;
}

/*
 * The QP could not be moved to RESET: the HCA may still read its ring and
 * the translation tables its WQEs point at, and whether the WQEs in flight
 * ran is unknown. Fail the device with nothing reset or freed: those
 * requests fail with -EIO (-ETIMEDOUT after a timeout), never as if they
 * had not run; the flushed ones waiting to be posted again did not run
 * (-ECANCELED). From now on no translation table of an mkey homed on @q
 * is freed (mkey.c).
 */
static void mlx5_umr_sq_lose(struct mlx5_umr_queue *q, bool timed_out,
			     int err)
{
	struct mlx5_umr_dev *dev = q->dev;
	struct mlx5_umr_sq *sq = &q->sq;
	LIST_HEAD(done);

	dev_err(dev->hca->dev,
		"umr: QP 0x%x reset failed (%d): device failed, its queue memory kept\n",
		sq->qpn, err);
	mutex_lock(&dev->mkeys_lock);
	q->lost = true;
	mutex_unlock(&dev->mkeys_lock);

	spin_lock_irq(&sq->lock);
	mlx5_umr_sq_retire_all(sq, timed_out ? -ETIMEDOUT : -EIO, &done);
	list_splice_tail_init(&sq->resubmit, &done);
	sq->state = MLX5_UMR_SQ_DEAD;
	sq->events++;
	spin_unlock_irq(&sq->lock);
	wake_up_all(&sq->wait);
	mlx5_umr_sq_finish(q, &done);
}

/**
 * mlx5_umr_recover_work() - bring the UMR QP back to RTS after an error
 * @work: mlx5_umr_queue.recover_work
 *
 * RESET discards what the QP still holds and stops CQE generation for it,
 * so after one more CQ poll every request still in flight was never going
 * to complete. After an error CQE those never ran (the QP stopped at the
 * failed WQE): with the flushed ones they are posted again once the QP is
 * back in RTS. After a timeout they fail with -ETIMEDOUT. If the reset
 * itself fails the device fails (mlx5_umr_sq_lose()). Producer and
 * consumer go back to zero, as the HCA's WQE counter does in RESET. No
 * doorbell is rung from ERR until the QP is back in RTS: posters see the
 * state under sq->lock and ring only in RTS.
 */
void mlx5_umr_recover_work(struct work_struct *work)
{
	struct mlx5_umr_queue *q = container_of(work, struct mlx5_umr_queue,
						 recover_work);
	struct mlx5_umr_dev *dev = q->dev;
	struct mlx5_umr_sq *sq = &q->sq;
	LIST_HEAD(done);
	bool timed_out;
	int err;

	mutex_lock(&q->recover_lock);
	spin_lock_irq(&sq->lock);
	if (sq->state != MLX5_UMR_SQ_ERR) {
		spin_unlock_irq(&sq->lock);
		goto out;
	}
	sq->state = MLX5_UMR_SQ_RECOVERING;
	timed_out = sq->timed_out;
	spin_unlock_irq(&sq->lock);

	if (mlx5_umr_hca_dead(dev)) {
		dev_err_ratelimited(dev->hca->dev,
				    "umr: device in internal error\n");
		mlx5_umr_sq_fail_all(q, -EIO);
		mlx5_umr_sq_set_state(q, MLX5_UMR_SQ_DEAD);
		goto out;
	}

	err = mlx5_umr_qp_modify(q, MLX5_CMD_OP_2RST_QP);
	mlx5_umr_cq_poll(q, false);
	if (err) {
		mlx5_umr_sq_lose(q, timed_out, err);
		goto out;
	}

	spin_lock_irq(&sq->lock);
	mlx5_umr_sq_reset(q, timed_out, &done);
	spin_unlock_irq(&sq->lock);
	mlx5_umr_sq_finish(q, &done);

	err = mlx5_umr_qp_to_rts(q);
	if (err) {
		dev_err(dev->hca->dev, "umr: QP recovery failed: %d\n", err);
		/* In RESET, so what waits to be posted again never ran. */
		mlx5_umr_sq_fail_all(q, -ECANCELED);
		mlx5_umr_sq_set_state(q, MLX5_UMR_SQ_DEAD);
		goto out;
	}
	mlx5_umr_cq_arm(q);
	mlx5_umr_sq_resubmit(q);
	dev_info_ratelimited(dev->hca->dev, "umr: QP 0x%x recovered\n",
			     sq->qpn);
out:
	mutex_unlock(&q->recover_lock);
	/* back in RTS, or dead: the room waiters learn which by posting */
	mlx5_umr_room_kick(q);
}

/**
 * mlx5_umr_sq_timeout() - treat every send queue of a device as stuck
 * @dev: the device
 *
 * Starts on each queue and channel the same recovery an error CQE starts; every
 * request in flight completes with -ETIMEDOUT.
 *
 * Context: any.
 */
void mlx5_umr_sq_timeout(struct mlx5_umr_dev *dev)
{
	unsigned long flags;
	u16 i;

	for (i = 0; i < dev->nqueues; i++) {
		struct mlx5_umr_queue *q = dev->queues[i];

		spin_lock_irqsave(&q->sq.lock, flags);
		mlx5_umr_sq_set_err(q, true);
		spin_unlock_irqrestore(&q->sq.lock, flags);
	}
	mlx5_umr_chans_set_err(dev, true, false);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_sq_timeout);

/**
 * mlx5_umr_dev_fail_dead() - fail what is in flight on every queue of a
 *	device in internal error
 * @dev: the device, whose HCA reported internal error
 *
 * No queue's requests will complete: each busy queue goes to recovery,
 * which sees the dead HCA and fails them now rather than at their timeout.
 *
 * Context: any; no queue's lock held.
 */
void mlx5_umr_dev_fail_dead(struct mlx5_umr_dev *dev)
{
	unsigned long flags;
	u16 i;

	for (i = 0; i < dev->nqueues; i++) {
		struct mlx5_umr_queue *q = dev->queues[i];

		spin_lock_irqsave(&q->sq.lock, flags);
		if (q->sq.pc != q->sq.cc)
			mlx5_umr_sq_set_err(q, false);
		spin_unlock_irqrestore(&q->sq.lock, flags);
	}
	mlx5_umr_chans_set_err(dev, false, true);
}

/* Poll the CQ from the work item, as a completion event would. */
static void mlx5_umr_sq_flush_poll(struct mlx5_umr_queue *q)
{
	queue_work(system_highpri_wq, &q->poll_work);
	flush_work(&q->poll_work);
}

/**
 * mlx5_umr_sq_flush() - complete what the HCA has completed (tests)
 * @dev: the device
 *
 * On every queue of @dev: polls the CQ from the poll work item without waiting for the backend's
 * completion event, waits for a recovery that poll (or anything earlier)
 * queued, and polls again for what that recovery posted: with a backend
 * that executes WQEs inside write_db() (the fake, unless it defers
 * execution), every request posted before the call has had its done() on
 * return, run by the work item, not by the caller.
 *
 * Context: process context, may sleep; not from a done() callback.
 */
void mlx5_umr_sq_flush(struct mlx5_umr_dev *dev)
{
	u16 i;

	for (i = 0; i < dev->nqueues; i++) {
		struct mlx5_umr_queue *q = dev->queues[i];

		mlx5_umr_sq_flush_poll(q);
		flush_work(&q->recover_work);
		mlx5_umr_sq_flush_poll(q);
	}
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_sq_flush);

/**
 * mlx5_umr_watchdog() - recover a queue that made no progress in time
 * @work: mlx5_umr_queue.watchdog
 */
void mlx5_umr_watchdog(struct work_struct *work)
{
	struct mlx5_umr_queue *q = container_of(to_delayed_work(work),
						 struct mlx5_umr_queue, watchdog);
	struct mlx5_umr_dev *dev = q->dev;
	struct mlx5_umr_sq *sq = &q->sq;
	bool again = false;

	spin_lock_irq(&sq->lock);
	/* a polled channel's CQE waiting for its ULP is progress: no timeout */
	if (q->mode == MLX5_UMR_COMP_POLLED && mlx5_umr_cq_waiting(q))
		sq->progress = jiffies;
	if (sq->state == MLX5_UMR_SQ_RTS && sq->pc != sq->cc) {
		if (time_after(jiffies, sq->progress + dev->timeout))
			mlx5_umr_sq_set_err(q, true);
		else
			again = true;
	}
	spin_unlock_irq(&sq->lock);
	if (again)
		queue_delayed_work(system_wq, &q->watchdog, dev->timeout);
}

/**
 * mlx5_umr_sq_stop() - stop a queue's asynchronous activity before teardown
 * @q: the queue, with no request in flight
 *
 * Context: process context.
 */
void mlx5_umr_sq_stop(struct mlx5_umr_queue *q)
{
	mutex_lock(&q->recover_lock);
	mlx5_umr_sq_set_state(q, MLX5_UMR_SQ_DEAD);
	mutex_unlock(&q->recover_lock);
	/* every room waiter fires: its post gets -ENODEV */
	mlx5_umr_room_kick(q);
	cancel_work_sync(&q->recover_work);
	cancel_delayed_work_sync(&q->watchdog);
}
