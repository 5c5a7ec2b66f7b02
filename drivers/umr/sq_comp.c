// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: completion on the REG_UMR QP's CQ.
 *
 * The CQ is polled under sq->lock, by the completion handler or, when the
 * event arrives in hard IRQ context or with interrupts off, by a work item.
 * The re-arm is rung in the same critical section, as the send doorbell is
 * (sq_post.c), so arms reach the HCA with consumer index and sequence
 * number never moving back. Completion callbacks run after the lock is
 * dropped, never inside a doorbell: a backend never calls the handler from
 * write_db() (mlx5_umr_hca.h).
 *
 * How the CQ is polled depends on the queue's mode: device queues and
 * MLX5_UMR_COMP_IRQ channels as above; MLX5_UMR_COMP_SOFTIRQ channels from
 * an irq_poll handler, with a budget, as the RDMA core's IB_POLL_SOFTIRQ
 * CQs (drivers/infiniband/core/cq.c ib_poll_handler()); MLX5_UMR_COMP_POLLED
 * channels never arm their CQ: the ULP polls (mlx5_umr_queue_poll()).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/preempt.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/qp.h>

#include "umr.h"
#include "trace.h"

/* Retire the oldest WQE in flight; the caller notes the progress once. */
static void mlx5_umr_sq_retire_one(struct mlx5_umr_sq *sq, int status,
				   u8 syndrome, struct list_head *done)
{
	struct mlx5_umr_sq_ent *e = &sq->ents[sq->head++ & (sq->bbs - 1)];
	struct mlx5_umr_wr *wr = e->wr;

	lockdep_assert_held(&sq->lock);
	wr->status = status;
	wr->syndrome = syndrome;
	list_add_tail(&wr->node, done);
	sq->cc += e->nbb;
}

/*
 * A request that moved its mkey to another PD failed. -ECANCELED: it never
 * ran, the mkey is where it was. Otherwise the HCA may or may not have
 * applied it: the mkey's PD is unknown, and so is its DMA key: SGT layouts
 * must give one (rule 37), crypto requests a PD with their DEK's (rule 58),
 * until a move succeeds.
 */
void mlx5_umr_pd_move_failed(struct mlx5_umr_wr *wr)
{
	bool never_ran = wr->status == -ECANCELED;

	wr->mkey->dma_lkey = never_ran ? wr->priv.was.dma_lkey : 0;
	WRITE_ONCE(wr->mkey->pdn, never_ran ? wr->priv.was.pdn : MLX5_UMR_PDN_UNKNOWN);
}

/*
 * The key of a request that installs a new key byte, once it completed:
 * the old one again when it never ran, unknown when it may have run (the
 * HCA has either), known again when one succeeded. Unless a later request
 * (posted again by recovery) installed another key since.
 */
static void mlx5_umr_key_settle(struct mlx5_umr_wr *wr)
{
	struct mlx5_umr_mkey_priv *mp = to_priv(wr->mkey);
	unsigned long flags;

	spin_lock_irqsave(&mp->q->sq.lock, flags);
	if (wr->mkey->key == wr->new_key) {
		if (wr->status == -ECANCELED)
			WRITE_ONCE(wr->mkey->key, wr->priv.was.key);
		else
			WRITE_ONCE(mp->key_unknown, wr->status != 0);
	}
	spin_unlock_irqrestore(&mp->q->sq.lock, flags);
}

/*
 * The DEKs a crypto mkey may name once @wr completed: what it named before
 * only while the HCA may still have it; none after an invalidation.
 * Unless another request of the mkey is still in flight.
 */
static void mlx5_umr_dek_settle(struct mlx5_umr_wr *wr)
{
	struct mlx5_umr_mkey_priv *mp = to_priv(wr->mkey);
	unsigned long flags;

	spin_lock_irqsave(&mp->q->sq.lock, flags);
	if (!--mp->inflight && !wr->status) {
		if (wr->op == MLX5_UMR_OP_INVALIDATE)
			mp->dek = NULL;
		if (wr->op == MLX5_UMR_OP_INVALIDATE ||
		    (wr->flags & MLX5_UMR_WR_SET_CRYPTO))
			mp->dek_prev = NULL;
	}
	spin_unlock_irqrestore(&mp->q->sq.lock, flags);
}

/* WQEs were retired: tell the watchdog and waiters. */
static void mlx5_umr_sq_progress(struct mlx5_umr_sq *sq)
{
	lockdep_assert_held(&sq->lock);
	sq->events++;
	sq->progress = jiffies;
}

/*
 * Retire the WQEs up to and including the one @wqe_counter falls in (a
 * signature request is a chain of WQEs: its CQE names its last SET_PSV,
 * an error CQE any of them): a CQE covers the unsignalled WQEs before it,
 * which completed in order with @status; the WQE it names gets @last and
 * @syndrome.
 */
static bool mlx5_umr_sq_retire(struct mlx5_umr_sq *sq, u16 wqe_counter,
			       int status, int last, u8 syndrome,
			       struct list_head *done)
{
	lockdep_assert_held(&sq->lock);
	if ((u16)(wqe_counter - (u16)sq->cc) >= sq->pc - sq->cc)
		return false;

	while (sq->head != sq->tail) {
		const struct mlx5_umr_sq_ent *e = &sq->ents[sq->head & (sq->bbs - 1)];
		bool it = (u16)(wqe_counter - e->idx) < e->nbb;

		/* the batch whose MLX5_UMR_WR_DEPENDS requests do not run */
		if (it && last && last != -ECANCELED) {
			sq->failed_batch = e->wr->priv.batch;
			sq->batch_failed = true;
		}
		mlx5_umr_sq_retire_one(sq, it ? last : status,
				       it ? syndrome : 0, done);
		if (it)
			break;
	}
	mlx5_umr_sq_progress(sq);
	return true;
}

/**
 * mlx5_umr_sq_retire_all() - retire every WQE in flight with @status
 * @sq: the send queue, locked
 * @status: what each request gets
 * @done: where the requests go
 */
void mlx5_umr_sq_retire_all(struct mlx5_umr_sq *sq, int status,
			    struct list_head *done)
{
	lockdep_assert_held(&sq->lock);
	if (sq->head == sq->tail)
		return;
	while (sq->head != sq->tail)
		mlx5_umr_sq_retire_one(sq, status, 0, done);
	mlx5_umr_sq_progress(sq);
}

/**
 * mlx5_umr_sq_finish() - call done() of retired requests
 * @q: the queue that retired them
 * @done: the requests, from mlx5_umr_sq_retire*()
 *
 * Context: no service lock held; any context but hard IRQ.
 */
void mlx5_umr_sq_finish(struct mlx5_umr_queue *q, struct list_head *done)
{
	struct mlx5_umr_dev *dev = q->dev;
	struct mlx5_umr_wr *wr, *tmp;
	unsigned long n = 0;

	lockdep_assert_not_held(&q->sq.lock);
	if (list_empty(done))
		return;
	/* @done is dropped, not unlinked: done() may reuse wr->node. */
	list_for_each_entry_safe(wr, tmp, done, node) {
		/* ->priv.holds_xlt is set afresh by the next post's check pass */
		if (wr->priv.holds_xlt)
			clear_bit_unlock(0, &to_priv(wr->mkey)->xlt_busy);
		if (unlikely(wr->status && (wr->flags & MLX5_UMR_WR_SET_PD)))
			mlx5_umr_pd_move_failed(wr);
		if (unlikely(wr->flags & MLX5_UMR_WR_NEW_KEY))
			mlx5_umr_key_settle(wr);
		if (unlikely(wr->mkey->flags & MLX5_UMR_MKEY_CRYPTO))
			mlx5_umr_dek_settle(wr);
		trace_mlx5_umr_complete(dev->hca->name, wr->mkey->key,
					wr->status);
		mlx5_umr_wr_give_attrs(wr);
		/* The request belongs to its owner again from here on. */
		mlx5_umr_wr_call_done(wr);
		n++;
	}
	/* The requests' references, once: the device outlives every done(). */
	percpu_ref_put_many(&dev->users, n);
	wake_up_all(&q->sq.wait);
	mlx5_umr_room_kick(q);
}

/**
 * mlx5_umr_sq_set_err() - move to ERR and queue recovery, once
 * @q: the queue, its sq.lock held
 * @timeout: recovery is for a timeout (requests in flight fail), not an
 *	error CQE (they are posted again)
 */
void mlx5_umr_sq_set_err(struct mlx5_umr_queue *q, bool timeout)
{
	struct mlx5_umr_sq *sq = &q->sq;

	lockdep_assert_held(&sq->lock);
	if (sq->state != MLX5_UMR_SQ_RTS)
		return;
	sq->state = MLX5_UMR_SQ_ERR;
	sq->timed_out = timeout;
	queue_work(system_long_wq, &q->recover_work);
}

static struct mlx5_cqe64 *mlx5_umr_next_cqe(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_sq *sq = &q->sq;
	struct mlx5_cqe64 *cqe;
	u8 op_own;

	cqe = (struct mlx5_cqe64 *)q->cq_buf.cpu +
	      (sq->cq_ci & (sq->ncqe - 1));
	op_own = READ_ONCE(cqe->op_own);
	if ((op_own >> 4) == MLX5_CQE_INVALID ||
	    (op_own & MLX5_CQE_OWNER_MASK) != !!(sq->cq_ci & sq->ncqe))
		return NULL;
	/* Read the CQE body only after seeing that software owns it. */
	dma_rmb();
	return cqe;
}

static void mlx5_umr_handle_cqe(struct mlx5_umr_queue *q,
				struct mlx5_cqe64 *cqe, struct list_head *done)
{
	struct mlx5_umr_dev *dev = q->dev;
	struct mlx5_umr_sq *sq = &q->sq;
	u16 wqe_counter = be16_to_cpu(cqe->wqe_counter);
	struct mlx5_err_cqe *err;
	bool ok;

	lockdep_assert_held(&sq->lock);
	switch (get_cqe_opcode(cqe)) {
	case MLX5_CQE_REQ:
		ok = mlx5_umr_sq_retire(sq, wqe_counter, 0, 0, 0, done);
		break;
	case MLX5_CQE_REQ_ERR:
		err = (struct mlx5_err_cqe *)cqe;
		trace_mlx5_umr_error(dev->hca->name, sq->qpn, wqe_counter,
				     err->syndrome, err->vendor_err_synd);
		if (err->syndrome == MLX5_CQE_SYNDROME_WR_FLUSH_ERR) {
			/* Never executed: recovery posts them again. */
			ok = mlx5_umr_sq_retire(sq, wqe_counter, -ECANCELED,
						-ECANCELED, 0, &sq->resubmit);
		} else {
			dev_err_ratelimited(dev->hca->dev,
					    "umr: error CQE qpn 0x%x wqe %u syndrome 0x%x vendor 0x%x\n",
					    sq->qpn, wqe_counter,
					    err->syndrome,
					    err->vendor_err_synd);
			/* In-order execution: everything before it is done. */
			ok = mlx5_umr_sq_retire(sq, wqe_counter, 0, -EIO,
						err->syndrome, done);
		}
		mlx5_umr_sq_set_err(q, false);
		break;
	default:
		ok = false;
		break;
	}
	if (!ok) {
		dev_err_ratelimited(dev->hca->dev,
				    "umr: unexpected CQE opcode 0x%x wqe %u\n",
				    get_cqe_opcode(cqe), wqe_counter);
		mlx5_umr_sq_set_err(q, false);
	}
}

/*
 * Request an event for the next CQE: the arm record, then the doorbell,
 * as mlx5_cq_arm() does, under sq->lock, which orders it with every other
 * doorbell of the device.
 */
static void mlx5_umr_cq_arm_locked(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_dev *dev = q->dev;
	struct mlx5_umr_sq *sq = &q->sq;
	__be32 db[2];
	u32 v;

	lockdep_assert_held(&sq->lock);
	/* a polled CQ raises no event: nobody would take it */
	if (q->mode == MLX5_UMR_COMP_POLLED)
		return;
	v = (sq->cq_arm_sn & 3) << 28 | MLX5_CQ_DB_REQ_NOT |
	    (sq->cq_ci & 0xffffff);
	mlx5_umr_cq_dbrec(q)[MLX5_UMR_CQ_ARM_DB] = cpu_to_be32(v);
	db[0] = cpu_to_be32(v);
	db[1] = cpu_to_be32(q->cq.cqn);
	/* The arm record must be in memory before the HCA sees the doorbell. */
	wmb();
	dev->hca->ops->write_db(dev->hca, &dev->uar, MLX5_CQ_DOORBELL, db);
}

/**
 * mlx5_umr_cq_arm() - request an event for the next CQE
 * @q: the queue
 *
 * Context: any but hard IRQ; takes sq->lock.
 */
void mlx5_umr_cq_arm(struct mlx5_umr_queue *q)
{
	unsigned long flags;

	spin_lock_irqsave(&q->sq.lock, flags);
	mlx5_umr_cq_arm_locked(q);
	spin_unlock_irqrestore(&q->sq.lock, flags);
}

/**
 * mlx5_umr_cq_poll() - consume every CQE software owns, then call done()
 * @q: the queue
 * @arm: re-arm the CQ afterwards (not while recovery resets the QP)
 *
 * Context: process or softirq context; takes sq->lock.
 */
void mlx5_umr_cq_poll(struct mlx5_umr_queue *q, bool arm)
{
	struct mlx5_umr_sq *sq = &q->sq;
	struct mlx5_cqe64 *cqe;
	unsigned long flags;
	LIST_HEAD(done);

	spin_lock_irqsave(&sq->lock, flags);
	while ((cqe = mlx5_umr_next_cqe(q))) {
		mlx5_umr_handle_cqe(q, cqe, &done);
		sq->cq_ci++;
	}
	/* Hand the consumed CQEs back; the HCA reads this record. */
	mlx5_umr_cq_dbrec(q)[MLX5_UMR_CQ_SET_CI] =
		cpu_to_be32(sq->cq_ci & 0xffffff);
	if (arm)
		mlx5_umr_cq_arm_locked(q);
	spin_unlock_irqrestore(&sq->lock, flags);

	mlx5_umr_sq_finish(q, &done);
}

/**
 * mlx5_umr_cq_consume() - consume at most @budget CQEs, then call done()
 * @q: the queue
 * @budget: CQEs to take at most; the CQ is not re-armed
 *
 * Nothing is consumed once the queue is dead (stopped for teardown, or
 * failed): everything in flight was retired then.
 *
 * Context: process or softirq context; takes sq->lock, which is dropped
 * before the done() callbacks run.
 * Return: the CQEs consumed.
 */
int mlx5_umr_cq_consume(struct mlx5_umr_queue *q, int budget)
{
	struct mlx5_umr_sq *sq = &q->sq;
	struct mlx5_cqe64 *cqe;
	unsigned long flags;
	LIST_HEAD(done);
	int n = 0;

	spin_lock_irqsave(&sq->lock, flags);
	/* stopped: all was retired, and the CQE ring may be freed already */
	if (sq->state == MLX5_UMR_SQ_DEAD)
		budget = 0;
	while (n < budget && (cqe = mlx5_umr_next_cqe(q))) {
		mlx5_umr_handle_cqe(q, cqe, &done);
		sq->cq_ci++;
		n++;
	}
	if (n)
		mlx5_umr_cq_dbrec(q)[MLX5_UMR_CQ_SET_CI] =
			cpu_to_be32(sq->cq_ci & 0xffffff);
	spin_unlock_irqrestore(&sq->lock, flags);

	mlx5_umr_sq_finish(q, &done);
	return n;
}

/**
 * mlx5_umr_cq_waiting() - a CQE waits to be consumed
 * @q: the queue, its sq.lock held
 *
 * Return: whether software owns the next CQE.
 */
bool mlx5_umr_cq_waiting(struct mlx5_umr_queue *q)
{
	lockdep_assert_held(&q->sq.lock);
	return mlx5_umr_next_cqe(q);
}

/**
 * mlx5_umr_iop_poll() - the irq_poll handler of an MLX5_UMR_COMP_SOFTIRQ
 *	channel
 * @iop: mlx5_umr_queue.iop
 * @budget: CQEs it may consume
 *
 * Below budget the poller completes and the CQ is re-armed, in that order
 * (an event the arm raises at once schedules it again), as ib_poll_handler().
 *
 * Context: softirq.
 * Return: the CQEs consumed.
 */
int mlx5_umr_iop_poll(struct irq_poll *iop, int budget)
{
	struct mlx5_umr_queue *q = container_of(iop, struct mlx5_umr_queue,
						 iop);
	int n = mlx5_umr_cq_consume(q, budget);

	/* only a kernel with irq_poll makes softirq channels (queue.c) */
	if (IS_ENABLED(CONFIG_IRQ_POLL) && n < budget) {
		irq_poll_complete(iop);
		mlx5_umr_cq_arm(q);
	}
	return n;
}

/**
 * mlx5_umr_cq_comp() - completion event handler given to the backend
 * @hcq: the CQ
 *
 * Context: any but inside write_db(). In hard IRQ context or with
 * interrupts off the CQ is polled from a work item, so done() callbacks
 * never run there. A softirq channel schedules its irq_poll handler (with
 * bottom halves off outside hard IRQ, so the softirq runs when they are
 * back on: a backend may deliver from a kworker); a polled channel, whose
 * CQ is never armed, ignores a stray event.
 */
void mlx5_umr_cq_comp(struct mlx5_umr_hca_cq *hcq)
{
	struct mlx5_umr_queue *q = container_of(hcq, struct mlx5_umr_queue, cq);
	unsigned long flags;

	spin_lock_irqsave(&q->sq.lock, flags);
	q->sq.cq_arm_sn++;
	spin_unlock_irqrestore(&q->sq.lock, flags);

	if (q->mode == MLX5_UMR_COMP_POLLED)
		return;
	if (IS_ENABLED(CONFIG_IRQ_POLL) && q->mode == MLX5_UMR_COMP_SOFTIRQ) {
		/* with interrupts off, ksoftirqd runs it */
		if (in_hardirq() || irqs_disabled()) {
			irq_poll_sched(&q->iop);
		} else {
			local_bh_disable();
			irq_poll_sched(&q->iop);
			local_bh_enable();
		}
		return;
	}
	if (in_hardirq() || irqs_disabled())
		queue_work(system_highpri_wq, &q->poll_work);
	else
		mlx5_umr_cq_poll(q, true);
}

/**
 * mlx5_umr_poll_work() - poll the CQ from process context
 * @work: mlx5_umr_queue.poll_work
 */
void mlx5_umr_poll_work(struct work_struct *work)
{
	struct mlx5_umr_queue *q = container_of(work, struct mlx5_umr_queue,
						 poll_work);

	mlx5_umr_cq_poll(q, true);
}
