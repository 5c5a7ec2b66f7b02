// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: the room notification (Documentation/service.rst,
 * "Back-pressure"). A ULP refused with -ENOSPC or -EAGAIN and nothing of
 * its own in flight registers a waiter on its mkey's home queue; the
 * waiter fires once the queue takes work again with room to spare.
 *
 * "Room" is a threshold, as a network driver wakes its stopped TX queue
 * only above one: the queue is in RTS and at least half of its ring is
 * free (or it is empty). Below it, a woken ULP would mostly be refused
 * again. Registration checks the same condition under the queue's lock,
 * so a wake-up between the refused post and the registration is never
 * lost: either the condition already holds (-EALREADY) or a retirement or
 * state change that makes it hold comes after the registration, under the
 * same lock.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/lockdep.h>
#include <linux/wait.h>

#include "umr.h"

/* Does @q take new work, with room to spare? */
static bool mlx5_umr_room_ok(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_sq *sq = &q->sq;

	lockdep_assert_held(&sq->lock);
	return sq->state == MLX5_UMR_SQ_RTS &&
	       sq->bbs - (sq->pc - sq->cc) >= sq->bbs / 2;
}

/**
 * mlx5_umr_room_kick() - fire the waiters of a queue that has room again
 * @q: the queue
 *
 * Called after retirements (mlx5_umr_sq_finish()), when recovery ends
 * (RTS or DEAD) and when the queue stops. A dead queue fires every waiter:
 * its next post is refused with -EIO or -ENODEV, which ends the wait.
 *
 * Context: process or softirq context, no service lock held.
 */
void mlx5_umr_room_kick(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_sq *sq = &q->sq;
	struct mlx5_umr_room_waiter *w;
	unsigned long flags;
	LIST_HEAD(fire);

	lockdep_assert_not_held(&sq->lock);
	/* a registration after this check sees the state we saw, or later */
	if (list_empty(&sq->room_waiters))
		return;
	spin_lock_irqsave(&sq->lock, flags);
	if (sq->state == MLX5_UMR_SQ_DEAD || mlx5_umr_room_ok(q)) {
		list_for_each_entry(w, &sq->room_waiters, node)
			w->pending = false;
		list_splice_init(&sq->room_waiters, &fire);
		if (!list_empty(&fire))
			WRITE_ONCE(sq->room_firing, sq->room_firing + 1);
	}
	spin_unlock_irqrestore(&sq->lock, flags);
	if (list_empty(&fire))
		return;

	/* Not pending: only this loop touches ->node until fn() is called. */
	while (!list_empty(&fire)) {
		w = list_first_entry(&fire, struct mlx5_umr_room_waiter, node);
		list_del_init(&w->node);
		w->fn(w);
	}

	spin_lock_irqsave(&sq->lock, flags);
	WRITE_ONCE(sq->room_firing, sq->room_firing - 1);
	spin_unlock_irqrestore(&sq->lock, flags);
	wake_up_all(&sq->wait);
}

/**
 * mlx5_umr_room_notify() - call @w->fn once @mkey's home queue has room
 * @mkey: the mkey whose request was refused with -ENOSPC or -EAGAIN
 * @w: the waiter (mlx5_umr_room_waiter_init()), not pending
 *
 * Registers @w on the queue that posts every request of @mkey (its home
 * queue: the device may have several, and room is per queue). @w->fn is
 * called once, when the queue is in RTS with at least half of its ring
 * free, after a retirement or after recovery brought it back (or when
 * the queue fails or the device goes away: the next post tells). Checked
 * under the queue's lock: room freed between the refused post and this
 * call is seen here and returned as -EALREADY, never lost.
 *
 * Not for -EBUSY: the mkey itself is busy, and its own request's done()
 * is the retry point.
 *
 * Context: any but hard IRQ; does not sleep.
 * Return: 0: registered, @w->fn will be called once (unless cancelled);
 * -EALREADY: the queue has room now (post again; @w->fn is not called);
 * -EIO: the queue failed; -ENODEV: the device is going away;
 * -EINVAL: a NULL argument or no @w->fn; -EBUSY: @w is pending already.
 */
int mlx5_umr_room_notify(struct mlx5_umr_mkey *mkey,
			 struct mlx5_umr_room_waiter *w)
{
	struct mlx5_umr_queue *q;
	unsigned long flags;
	int err = 0;

	if (!mkey || !w || !w->fn)
		return -EINVAL;
	q = to_priv(mkey)->q;
	if (percpu_ref_is_dying(&q->dev->users))
		return -ENODEV;
	spin_lock_irqsave(&q->sq.lock, flags);
	if (w->pending)
		err = -EBUSY;
	else if (q->sq.state == MLX5_UMR_SQ_DEAD)
		err = -EIO;
	else if (mlx5_umr_room_ok(q))
		err = -EALREADY;
	if (!err) {
		w->q = q;
		w->pending = true;
		list_add_tail(&w->node, &q->sq.room_waiters);
	}
	spin_unlock_irqrestore(&q->sq.lock, flags);
	return err;
}
EXPORT_SYMBOL(mlx5_umr_room_notify);

/**
 * mlx5_umr_room_cancel() - take back a registration
 * @w: the waiter (mlx5_umr_room_waiter_init()), registered or not
 *
 * On return @w->fn is not running and will not be called (for this
 * registration): @w may be freed. If it was already firing this waits for
 * the queue's callbacks in progress to return.
 *
 * Context: process context, may sleep; not from a room callback.
 * Return: true when @w was pending (@w->fn not called), false when it was
 * not (never registered, cancelled, or @w->fn called).
 */
bool mlx5_umr_room_cancel(struct mlx5_umr_room_waiter *w)
{
	struct mlx5_umr_queue *q = w->q;
	bool was;

	might_sleep();
	if (!q)
		return false;
	spin_lock_irq(&q->sq.lock);
	was = w->pending;
	if (was) {
		w->pending = false;
		list_del_init(&w->node);
	}
	spin_unlock_irq(&q->sq.lock);
	if (!was)
		wait_event(q->sq.wait, !READ_ONCE(q->sq.room_firing));
	return was;
}
EXPORT_SYMBOL(mlx5_umr_room_cancel);
