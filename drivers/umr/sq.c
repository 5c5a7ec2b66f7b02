// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: submission, completion and recovery on the REG_UMR QP.
 *
 * sq->lock covers the ring, its bookkeeping, the CQ consumer index and both
 * doorbell records. Posters encode WQEs straight into the ring under it,
 * publish the doorbell record and remember the doorbell of the last WQE,
 * drop it, and ring. dev->db_lock (taken first, irqsave) serialises every
 * MMIO doorbell of the device, so the HCA sees SQ doorbells in WQE order
 * and CQ arms in consumer order, as wr.c and rdma-core ring inside their
 * SQ lock. The ringer reads the newest doorbell under both locks and skips
 * it when a doorbell for that WQE or a later one already went out.
 *
 * A backend may call the completion handler inside write_db() (the fake
 * HCA's synchronous mode); interrupts are off there, so the handler only
 * queues the poll work, as for a hard IRQ. Completion callbacks always run
 * with no lock held and never inside mlx5_umr_post() or a doorbell.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/jiffies.h>
#include <linux/interrupt.h>
#include <linux/preempt.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5/cq.h>
#include <linux/io.h>
#include <linux/mlx5/doorbell.h>

#include "umr.h"
#include "trace.h"
#include "wr_rules.h"

/* wr->priv[] use while a request is in flight. */
#define MLX5_UMR_PRIV_FLAGS	0	/* MLX5_UMR_WRF_* */
#define MLX5_UMR_PRIV_SIZE	1	/* WQE bytes */
#define MLX5_UMR_WRF_XLT	BIT(0)	/* holds the mkey's xlt table */

/* How often mlx5_umr_exec() checks for internal error while waiting. */
#define MLX5_UMR_EXEC_POLL	(HZ / 10)

static __be32 *mlx5_umr_sq_dbrec(struct mlx5_umr_dev *dev)
{
	return (__be32 *)dev->dbr.cpu;
}

static __be32 *mlx5_umr_cq_dbrec(struct mlx5_umr_dev *dev)
{
	return (__be32 *)((u8 *)dev->dbr.cpu + MLX5_UMR_CQ_DBR_OFFSET);
}

/**
 * mlx5_umr_sq_init() - initialise the submission state of a device
 * @dev: the device
 */
void mlx5_umr_sq_init(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_sq *sq = &dev->sq;

	spin_lock_init(&sq->lock);
	spin_lock_init(&dev->db_lock);
	init_waitqueue_head(&sq->wait);
	INIT_LIST_HEAD(&sq->resubmit);
	sq->state = MLX5_UMR_SQ_RESET;
	sq->bbs = 1U << MLX5_UMR_LOG_SQ_BBS;
	sq->ncqe = 1U << MLX5_UMR_LOG_CQ_SIZE;
}

/*
 * Caller holds sq->lock, and notes the progress (mlx5_umr_sq_progress())
 * once for all the WQEs it retires.
 */
static void mlx5_umr_sq_retire_one(struct mlx5_umr_sq *sq, int status,
				   u8 syndrome, struct list_head *done)
{
	struct mlx5_umr_sq_ent *e = &sq->ents[sq->head++ & (sq->bbs - 1)];
	struct mlx5_umr_wr *wr = e->wr;

	wr->status = status;
	wr->syndrome = syndrome;
	list_add_tail(&wr->node, done);
	sq->cc += e->nbb;
}

/* WQEs were retired: tell the watchdog and waiters. Caller holds sq->lock. */
static void mlx5_umr_sq_progress(struct mlx5_umr_sq *sq)
{
	sq->events++;
	sq->progress = jiffies;
}

/*
 * Retire the WQEs up to and including the one starting at @wqe_counter: a
 * CQE covers the unsignalled WQEs before it, which completed in order with
 * @status; the WQE it names gets @last and @syndrome. Caller holds sq->lock.
 */
static bool mlx5_umr_sq_retire(struct mlx5_umr_sq *sq, u16 wqe_counter,
			       int status, int last, u8 syndrome,
			       struct list_head *done)
{
	if ((u16)(wqe_counter - (u16)sq->cc) >= sq->pc - sq->cc)
		return false;

	while (sq->head != sq->tail) {
		bool it = sq->ents[sq->head & (sq->bbs - 1)].idx == wqe_counter;

		mlx5_umr_sq_retire_one(sq, it ? last : status,
				       it ? syndrome : 0, done);
		if (it)
			break;
	}
	mlx5_umr_sq_progress(sq);
	return true;
}

/* Caller holds sq->lock. */
static void mlx5_umr_sq_retire_all(struct mlx5_umr_sq *sq, int status,
				   struct list_head *done)
{
	if (sq->head == sq->tail)
		return;
	while (sq->head != sq->tail)
		mlx5_umr_sq_retire_one(sq, status, 0, done);
	mlx5_umr_sq_progress(sq);
}

/* Call done() of retired requests. No lock held; any context but hardirq. */
static void mlx5_umr_sq_finish(struct mlx5_umr_dev *dev,
			       struct list_head *done)
{
	struct mlx5_umr_wr *wr, *tmp;
	unsigned long n = 0;

	if (list_empty(done))
		return;
	/* @done is dropped, not unlinked: done() may reuse wr->node. */
	list_for_each_entry_safe(wr, tmp, done, node) {
		/* priv[] is set afresh by the next post's check pass */
		if (wr->priv[MLX5_UMR_PRIV_FLAGS] & MLX5_UMR_WRF_XLT)
			clear_bit_unlock(0, &to_priv(wr->mkey)->xlt_busy);
		trace_mlx5_umr_complete(dev->hca->name, wr->mkey->key,
					wr->status);
		/* The request belongs to its owner again from here on. */
		wr->done(wr);
		n++;
	}
	/* The requests' references, once: the device outlives every done(). */
	percpu_ref_put_many(&dev->users, n);
	wake_up_all(&dev->sq.wait);
}

/* Move to ERR and queue recovery, once. Caller holds sq->lock. */
static void mlx5_umr_sq_set_err(struct mlx5_umr_dev *dev, bool timeout)
{
	struct mlx5_umr_sq *sq = &dev->sq;

	if (sq->state != MLX5_UMR_SQ_RTS)
		return;
	sq->state = MLX5_UMR_SQ_ERR;
	sq->timed_out = timeout;
	queue_work(system_long_wq, &dev->recover_work);
}

static struct mlx5_cqe64 *mlx5_umr_next_cqe(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_sq *sq = &dev->sq;
	struct mlx5_cqe64 *cqe;
	u8 op_own;

	cqe = (struct mlx5_cqe64 *)dev->cq_buf.cpu +
	      (sq->cq_ci & (sq->ncqe - 1));
	op_own = READ_ONCE(cqe->op_own);
	if ((op_own >> 4) == MLX5_CQE_INVALID ||
	    (op_own & MLX5_CQE_OWNER_MASK) != !!(sq->cq_ci & sq->ncqe))
		return NULL;
	/* Read the CQE body only after seeing that software owns it. */
	dma_rmb();
	return cqe;
}

/* Caller holds sq->lock. */
static void mlx5_umr_handle_cqe(struct mlx5_umr_dev *dev,
				struct mlx5_cqe64 *cqe, struct list_head *done)
{
	struct mlx5_umr_sq *sq = &dev->sq;
	u16 wqe_counter = be16_to_cpu(cqe->wqe_counter);
	struct mlx5_err_cqe *err;
	bool ok;

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
		mlx5_umr_sq_set_err(dev, false);
		break;
	default:
		ok = false;
		break;
	}
	if (!ok) {
		dev_err_ratelimited(dev->hca->dev,
				    "umr: unexpected CQE opcode 0x%x wqe %u\n",
				    get_cqe_opcode(cqe), wqe_counter);
		mlx5_umr_sq_set_err(dev, false);
	}
}

/**
 * mlx5_umr_cq_arm() - request an event for the next CQE
 * @dev: the device
 *
 * The arm value is read and rung under dev->db_lock, so arms reach the HCA
 * with consumer index and sequence number never going backwards.
 *
 * Context: any but hard IRQ; takes dev->db_lock, then sq->lock (released
 * before write_db()). Not with either held.
 */
void mlx5_umr_cq_arm(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_sq *sq = &dev->sq;
	unsigned long flags;
	__be32 db[2];
	u32 v;

	spin_lock_irqsave(&dev->db_lock, flags);
	spin_lock(&sq->lock);
	v = (sq->cq_arm_sn & 3) << 28 | MLX5_CQ_DB_REQ_NOT |
	    (sq->cq_ci & 0xffffff);
	mlx5_umr_cq_dbrec(dev)[MLX5_UMR_CQ_ARM_DB] = cpu_to_be32(v);
	spin_unlock(&sq->lock);
	db[0] = cpu_to_be32(v);
	db[1] = cpu_to_be32(dev->cq.cqn);
	/* The arm record must be in memory before the HCA sees the doorbell. */
	wmb();
	dev->hca->ops->write_db(dev->hca, &dev->uar, MLX5_CQ_DOORBELL, db);
	spin_unlock_irqrestore(&dev->db_lock, flags);
}

/* The WQE index a send doorbell carries (ctrl seg opmod_idx_opcode). */
static u16 mlx5_umr_db_wqe_idx(const __be32 *db)
{
	return (be32_to_cpu(db[0]) & MLX5_WQE_CTRL_WQE_INDEX_MASK) >>
	       MLX5_WQE_CTRL_WQE_INDEX_SHIFT;
}

/*
 * Ring the send doorbell with the newest published WQE, unless a doorbell
 * for it or a later WQE (modulo 2^16, within one reset epoch) already went
 * out: a poster whose doorbell was overtaken has its WQEs announced by the
 * later one. Takes dev->db_lock, then sq->lock; called with neither held.
 */
static void mlx5_umr_sq_ring(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_sq *sq = &dev->sq;
	unsigned long flags;
	bool ring;
	__be32 db[2];
	u32 epoch;
	u16 idx;

	spin_lock_irqsave(&dev->db_lock, flags);
	spin_lock(&sq->lock);
	/* Recovery rings for itself once the QP is back in RTS. */
	ring = sq->db_valid && (sq->state == MLX5_UMR_SQ_RTS ||
				sq->state == MLX5_UMR_SQ_ERR);
	db[0] = sq->db[0];
	db[1] = sq->db[1];
	epoch = sq->db_epoch;
	spin_unlock(&sq->lock);

	idx = mlx5_umr_db_wqe_idx(db);
	if (ring && dev->db_rung && dev->db_rung_epoch == epoch &&
	    (s16)(idx - dev->db_rung_idx) <= 0)
		ring = false;
	if (ring) {
		dev->db_rung = true;
		dev->db_rung_epoch = epoch;
		dev->db_rung_idx = idx;
		/* The doorbell record must reach memory before the MMIO write. */
		wmb();
		dev->hca->ops->write_db(dev->hca, &dev->uar, MLX5_BF_OFFSET, db);
	}
	spin_unlock_irqrestore(&dev->db_lock, flags);
}

static void mlx5_umr_cq_poll(struct mlx5_umr_dev *dev, bool arm)
{
	struct mlx5_umr_sq *sq = &dev->sq;
	struct mlx5_cqe64 *cqe;
	unsigned long flags;
	LIST_HEAD(done);

	spin_lock_irqsave(&sq->lock, flags);
	while ((cqe = mlx5_umr_next_cqe(dev))) {
		mlx5_umr_handle_cqe(dev, cqe, &done);
		sq->cq_ci++;
	}
	/* Hand the consumed CQEs back; the HCA reads this record. */
	mlx5_umr_cq_dbrec(dev)[MLX5_UMR_CQ_SET_CI] =
		cpu_to_be32(sq->cq_ci & 0xffffff);
	spin_unlock_irqrestore(&sq->lock, flags);

	if (arm)
		mlx5_umr_cq_arm(dev);
	mlx5_umr_sq_finish(dev, &done);
}

/**
 * mlx5_umr_cq_comp() - completion event handler given to the backend
 * @hcq: the CQ
 *
 * Context: any. In hard IRQ context or with interrupts off, which includes
 * a backend calling it from inside write_db() (dev->db_lock held), the CQ
 * is polled from a work item: done() callbacks never run there and the
 * re-arm never nests in a doorbell.
 */
void mlx5_umr_cq_comp(struct mlx5_umr_hca_cq *hcq)
{
	struct mlx5_umr_dev *dev = container_of(hcq, struct mlx5_umr_dev, cq);
	unsigned long flags;

	spin_lock_irqsave(&dev->sq.lock, flags);
	dev->sq.cq_arm_sn++;
	spin_unlock_irqrestore(&dev->sq.lock, flags);

	if (in_hardirq() || irqs_disabled())
		queue_work(system_highpri_wq, &dev->poll_work);
	else
		mlx5_umr_cq_poll(dev, true);
}

/**
 * mlx5_umr_poll_work() - poll the CQ from process context
 * @work: mlx5_umr_dev.poll_work
 */
void mlx5_umr_poll_work(struct work_struct *work)
{
	struct mlx5_umr_dev *dev = container_of(work, struct mlx5_umr_dev,
						 poll_work);

	mlx5_umr_cq_poll(dev, true);
}

/**
 * mlx5_umr_sq_fail_all() - complete every request in flight or waiting to
 * be resubmitted with @status
 * @dev: the device
 * @status: the negative errno they get
 *
 * Only for a QP the HCA no longer processes (RESET, or a dead device).
 * Context: process context.
 */
void mlx5_umr_sq_fail_all(struct mlx5_umr_dev *dev, int status)
{
	struct mlx5_umr_wr *wr;
	LIST_HEAD(done);

	spin_lock_irq(&dev->sq.lock);
	mlx5_umr_sq_retire_all(&dev->sq, status, &done);
	list_for_each_entry(wr, &dev->sq.resubmit, node)
		wr->status = status;
	list_splice_tail_init(&dev->sq.resubmit, &done);
	spin_unlock_irq(&dev->sq.lock);
	mlx5_umr_sq_finish(dev, &done);
}

static void mlx5_umr_sq_set_state(struct mlx5_umr_dev *dev,
				  enum mlx5_umr_sq_state state)
{
	spin_lock_irq(&dev->sq.lock);
	dev->sq.state = state;
	dev->sq.events++;
	spin_unlock_irq(&dev->sq.lock);
	wake_up_all(&dev->sq.wait);
}

static bool mlx5_umr_hca_dead(struct mlx5_umr_dev *dev)
{
	const struct mlx5_umr_hca_ops *ops = dev->hca->ops;

	return ops->internal_error && ops->internal_error(dev->hca);
}

/* Write the WQE for @wr at the producer index. Caller holds sq->lock. */
static int mlx5_umr_sq_write(struct mlx5_umr_dev *dev,
			     struct mlx5_umr_wr *wr, unsigned int size,
			     u8 fm_ce_se, __be32 *db)
{
	struct mlx5_umr_sq *sq = &dev->sq;
	struct mlx5_umr_mkey_priv *mp = to_priv(wr->mkey);
	unsigned int slot = sq->pc & (sq->bbs - 1);
	unsigned int room = (sq->bbs - slot) * MLX5_SEND_WQE_BB;
	u8 *dst = (u8 *)dev->sq_buf.cpu + slot * MLX5_SEND_WQE_BB;
	const struct mlx5_umr_xlt *xlt = mp->xlt.cpu ? &mp->xlt : NULL;
	u8 *buf = size <= room ? dst : sq->scratch;
	int ret;

	ret = mlx5_umr_wqe_encode(&dev->wq_ctx, wr, xlt, (u16)sq->pc,
				  fm_ce_se, buf, size);
	if (ret < 0)
		return ret;
	if (ret != size)
		return -EINVAL;
	if (buf == sq->scratch) {
		/* The WQE wraps: the tail goes to the start of the ring. */
		memcpy(dst, buf, room);
		memcpy(dev->sq_buf.cpu, buf + room, size - room);
	}
	/* The doorbell carries the first 8 bytes of the WQE it announces. */
	db[0] = ((__be32 *)buf)[0];
	db[1] = ((__be32 *)buf)[1];
	return 0;
}

/*
 * Append @wr's WQE (validated, sized in priv) at the producer index;
 * @last asks for a CQE. Caller holds sq->lock and checked the room.
 */
static int mlx5_umr_sq_push(struct mlx5_umr_dev *dev, struct mlx5_umr_wr *wr,
			    bool last, __be32 *db)
{
	struct mlx5_umr_sq *sq = &dev->sq;
	unsigned int size = wr->priv[MLX5_UMR_PRIV_SIZE];
	unsigned int nbb = size / MLX5_SEND_WQE_BB;
	bool signal = last || sq->unsignaled + nbb >= MLX5_UMR_SIGNAL_BBS;
	u8 fm = sq->next_fence | (signal ? MLX5_WQE_CTRL_CQ_UPDATE : 0);
	struct mlx5_umr_sq_ent *e;
	int err;

	err = mlx5_umr_sq_write(dev, wr, size, fm, db);
	if (err)
		return err;
	/* ->status and ->syndrome are written when the WQE is retired. */
	e = &sq->ents[sq->tail++ & (sq->bbs - 1)];
	e->wr = wr;
	e->idx = (u16)sq->pc;
	e->nbb = nbb;
	trace_mlx5_umr_post(dev->hca->name, sq->qpn, (u16)sq->pc,
			    wr->mkey->key, wr->op, nbb, signal);
	sq->pc += nbb;
	sq->unsignaled = signal ? 0 : sq->unsignaled + nbb;
	/*
	 * A UMR after a UMR carries the cap's fence, as wr.c gives a REG_MR
	 * dev->umr_fence; umr.c's own UMR QP always uses INITIATOR_SMALL.
	 */
	sq->next_fence = dev->caps.umr_fence;
	return 0;
}

/*
 * Post again, in their order, the requests an error flushed, then let new
 * work in. They still hold their users reference and translation table;
 * the ring is empty and held them all before, so they fit.
 */
static void mlx5_umr_sq_resubmit(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_sq *sq = &dev->sq;
	struct mlx5_umr_wr *wr, *tmp;
	bool posted = false;
	LIST_HEAD(done);
	__be32 db[2];

	spin_lock_irq(&sq->lock);
	list_for_each_entry_safe(wr, tmp, &sq->resubmit, node) {
		list_del(&wr->node);
		if (wr->priv[MLX5_UMR_PRIV_SIZE] / MLX5_SEND_WQE_BB >
		    sq->bbs - (sq->pc - sq->cc) ||
		    mlx5_umr_sq_push(dev, wr, list_empty(&sq->resubmit), db)) {
			wr->status = -ECANCELED;
			list_add_tail(&wr->node, &done);
			continue;
		}
		posted = true;
	}
	if (posted) {
		sq->progress = jiffies;
		/* WQEs before the record that announces them. */
		dma_wmb();
		mlx5_umr_sq_dbrec(dev)[MLX5_SND_DBR] =
			cpu_to_be32(sq->pc & 0xffff);
		sq->db[0] = db[0];
		sq->db[1] = db[1];
		sq->db_valid = true;
	}
	sq->state = MLX5_UMR_SQ_RTS;
	sq->events++;
	spin_unlock_irq(&sq->lock);

	if (posted) {
		mlx5_umr_sq_ring(dev);
		queue_delayed_work(system_wq, &dev->watchdog, dev->timeout);
	}
	wake_up_all(&sq->wait);
	mlx5_umr_sq_finish(dev, &done);
}

/**
 * mlx5_umr_recover_work() - bring the UMR QP back to RTS after an error
 * @work: mlx5_umr_dev.recover_work
 *
 * RESET discards what the QP still holds and stops CQE generation for it,
 * so after one more CQ poll every request still in flight was never going
 * to complete. After an error CQE those never ran (the QP stopped at the
 * failed WQE): with the flushed ones they are posted again once the QP is
 * back in RTS. After a timeout they fail with -ETIMEDOUT. Producer and
 * consumer go back to zero, as the HCA's WQE counter does in RESET.
 */
void mlx5_umr_recover_work(struct work_struct *work)
{
	struct mlx5_umr_dev *dev = container_of(work, struct mlx5_umr_dev,
						 recover_work);
	struct mlx5_umr_sq *sq = &dev->sq;
	LIST_HEAD(done);
	bool timed_out;
	int err;

	mutex_lock(&dev->recover_lock);
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
		mlx5_umr_sq_fail_all(dev, -EIO);
		mlx5_umr_sq_set_state(dev, MLX5_UMR_SQ_DEAD);
		goto out;
	}

	err = mlx5_umr_qp_modify(dev, MLX5_CMD_OP_2RST_QP);
	mlx5_umr_cq_poll(dev, false);

	spin_lock_irq(&sq->lock);
	/*
	 * After an error CQE the QP stopped at the failed WQE: the ones after
	 * it never ran and go again. After a timeout nobody knows.
	 */
	if (timed_out)
		mlx5_umr_sq_retire_all(sq, -ETIMEDOUT, &done);
	else
		mlx5_umr_sq_retire_all(sq, -ECANCELED, &sq->resubmit);
	sq->pc = 0;
	sq->cc = 0;
	sq->head = 0;
	sq->tail = 0;
	sq->unsignaled = 0;
	sq->next_fence = MLX5_FENCE_MODE_NONE;
	sq->timed_out = false;
	mlx5_umr_sq_dbrec(dev)[MLX5_SND_DBR] = 0;
	mlx5_umr_sq_dbrec(dev)[MLX5_RCV_DBR] = 0;
	/* WQE indexes start again: older doorbells say nothing about them. */
	sq->db_valid = false;
	sq->db_epoch++;
	spin_unlock_irq(&sq->lock);
	mlx5_umr_sq_finish(dev, &done);

	if (!err)
		err = mlx5_umr_qp_to_rts(dev);
	if (err) {
		dev_err(dev->hca->dev, "umr: QP recovery failed: %d\n", err);
		mlx5_umr_sq_fail_all(dev, -ECANCELED);
		mlx5_umr_sq_set_state(dev, MLX5_UMR_SQ_DEAD);
		goto out;
	}
	mlx5_umr_cq_arm(dev);
	mlx5_umr_sq_resubmit(dev);
	dev_info_ratelimited(dev->hca->dev, "umr: QP 0x%x recovered\n",
			     sq->qpn);
out:
	mutex_unlock(&dev->recover_lock);
}

/**
 * mlx5_umr_sq_timeout() - treat the send queue as stuck
 * @dev: the device
 *
 * Starts the same recovery an error CQE starts; every request in flight
 * completes with -ETIMEDOUT.
 *
 * Context: any.
 */
void mlx5_umr_sq_timeout(struct mlx5_umr_dev *dev)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->sq.lock, flags);
	mlx5_umr_sq_set_err(dev, true);
	spin_unlock_irqrestore(&dev->sq.lock, flags);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_sq_timeout);

/**
 * mlx5_umr_sq_flush() - wait for deferred completion processing (tests)
 * @dev: the device
 *
 * Waits for the CQ poll deferred by the time of the call, for a recovery
 * that poll (or anything earlier) queued, and for the poll of what that
 * recovery posted again: with a backend that executes inside write_db(),
 * every request posted before the call has had its done() on return.
 *
 * Context: process context, may sleep; not from a done() callback.
 */
void mlx5_umr_sq_flush(struct mlx5_umr_dev *dev)
{
	flush_work(&dev->poll_work);
	flush_work(&dev->recover_work);
	flush_work(&dev->poll_work);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_sq_flush);

/**
 * mlx5_umr_watchdog() - recover a queue that made no progress in time
 * @work: mlx5_umr_dev.watchdog
 */
void mlx5_umr_watchdog(struct work_struct *work)
{
	struct mlx5_umr_dev *dev = container_of(to_delayed_work(work),
						 struct mlx5_umr_dev, watchdog);
	struct mlx5_umr_sq *sq = &dev->sq;
	bool again = false;

	spin_lock_irq(&sq->lock);
	if (sq->state == MLX5_UMR_SQ_RTS && sq->pc != sq->cc) {
		if (time_after(jiffies, sq->progress + dev->timeout))
			mlx5_umr_sq_set_err(dev, true);
		else
			again = true;
	}
	spin_unlock_irq(&sq->lock);
	if (again)
		queue_delayed_work(system_wq, &dev->watchdog, dev->timeout);
}

/**
 * mlx5_umr_sq_stop() - stop all asynchronous activity before teardown
 * @dev: the device, with no request in flight
 *
 * Context: process context.
 */
void mlx5_umr_sq_stop(struct mlx5_umr_dev *dev)
{
	mutex_lock(&dev->recover_lock);
	mlx5_umr_sq_set_state(dev, MLX5_UMR_SQ_DEAD);
	mutex_unlock(&dev->recover_lock);
	cancel_work_sync(&dev->recover_work);
	cancel_delayed_work_sync(&dev->watchdog);
}

/* Needs the mkey's translation table? Then it must be idle. */
static bool mlx5_umr_wr_uses_xlt(const struct mlx5_umr_wr *wr)
{
	if (!to_priv(wr->mkey)->xlt.cpu)
		return false;
	return wr->op == MLX5_UMR_OP_REG_PAGES ||
	       (wr->op == MLX5_UMR_OP_CONFIGURE &&
		wr->layout != MLX5_UMR_LAYOUT_NONE);
}

static void mlx5_umr_release_xlts(struct mlx5_umr_wr **wrs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (wrs[i]->priv[MLX5_UMR_PRIV_FLAGS] & MLX5_UMR_WRF_XLT)
			clear_bit_unlock(0, &to_priv(wrs[i]->mkey)->xlt_busy);
		wrs[i]->priv[MLX5_UMR_PRIV_FLAGS] = 0;
	}
}

/*
 * Take the pointer-mode tables the batch needs: -EBUSY while an earlier
 * request still uses one, -EINVAL when two requests of the batch would
 * (that can never succeed).
 */
static int mlx5_umr_claim_xlts(struct mlx5_umr_wr **wrs, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		if (!mlx5_umr_wr_uses_xlt(wrs[i]))
			continue;
		if (test_and_set_bit_lock(0, &to_priv(wrs[i]->mkey)->xlt_busy)) {
			for (j = 0; j < i; j++)
				if (wrs[j]->mkey == wrs[i]->mkey &&
				    wrs[j]->priv[MLX5_UMR_PRIV_FLAGS])
					break;
			mlx5_umr_release_xlts(wrs, i);
			return j < i ? -EINVAL : -EBUSY;
		}
		wrs[i]->priv[MLX5_UMR_PRIV_FLAGS] = MLX5_UMR_WRF_XLT;
	}
	return 0;
}

/**
 * mlx5_umr_validate() - check a request without posting it
 * @dev: the device
 * @wr: the request
 *
 * Applies the checks mlx5_umr_post() applies before writing anything, so a
 * caller (the uapi) can reject a request early with the same errno.
 *
 * Context: any.
 * Return: 0, -EINVAL (no mkey, an mkey of another device, or a malformed
 * request), -ENOMEM, -EOPNOTSUPP or -EOVERFLOW (see mlx5_umr_wr_check()).
 */
int mlx5_umr_validate(struct mlx5_umr_dev *dev, const struct mlx5_umr_wr *wr)
{
	if (!wr || !wr->mkey || wr->mkey->dev != dev)
		return -EINVAL;
	return mlx5_umr_wr_check(&dev->caps, wr);
}
EXPORT_SYMBOL(mlx5_umr_validate);

/*
 * Check and size every request; *@nbb is the batch's basic blocks, *@xlts
 * whether a request needs its mkey's translation table.
 */
static int mlx5_umr_check_batch(struct mlx5_umr_dev *dev,
				struct mlx5_umr_wr **wrs, unsigned int n,
				unsigned int *nbb, bool *xlts)
{
	unsigned int i, total = 0;
	bool any = false;
	int size, err;

	for (i = 0; i < n; i++) {
		struct mlx5_umr_wr *wr = wrs[i];

		if (!wr || !wr->mkey || wr->mkey->dev != dev || !wr->done)
			return -EINVAL;
		/* mlx5_umr_wr_prepare(), inline: see wr_rules.h */
		err = mlx5_umr_wr_rules(&dev->caps, wr, false);
		if (err)
			return err;
		size = mlx5_umr_wqe_bytes(&dev->caps, wr);
		if (!size || size % MLX5_SEND_WQE_BB ||
		    size > MLX5_SEND_WQE_MAX_SIZE)
			return -EINVAL;
		wr->priv[MLX5_UMR_PRIV_SIZE] = size;
		wr->priv[MLX5_UMR_PRIV_FLAGS] = 0;
		any |= mlx5_umr_wr_uses_xlt(wr);
		total += size / MLX5_SEND_WQE_BB;
	}
	if (total > dev->sq.bbs)
		return -EINVAL;
	*nbb = total;
	*xlts = any;
	return 0;
}

/**
 * mlx5_umr_post() - post a batch of UMR work requests
 * @dev: the device
 * @wrs: the requests, executed in order
 * @n: how many
 *
 * Every request is validated before anything is published: the rules on
 * each request first, for the whole batch, then the rules on each entry of
 * a list or interleaved layout while the entry is written into the send
 * queue (so each is read once); a bad entry discards what the batch wrote.
 * All are announced with one doorbell. Only the last
 * WQE of the batch (and one every MLX5_UMR_SIGNAL_BBS basic blocks) asks
 * for a CQE: a CQE covers the unsignalled WQEs before it. Each WQE after a
 * UMR carries the UMR fence mode the HCA reports.
 *
 * Each request's done() is called exactly once, with ->status set, unless
 * this function returns an error, in which case none is called. The
 * requests and the memory they point to (entry arrays, scatterlists) must
 * stay valid until then. Two requests of one batch may not rewrite the
 * translation of the same pointer-mode mkey (-EINVAL).
 *
 * Context: process or softirq context, also with interrupts disabled or a
 * caller's spinlock held; not hard IRQ or NMI. Does not sleep. done() is
 * never called from within this function (nor from inside the doorbell),
 * but may run in another context before it returns.
 * Return: 0 when the whole batch was posted; -EINVAL, -ENOMEM, -EOPNOTSUPP
 * or -EOVERFLOW when a request (or the batch) is invalid (for a bad entry
 * only once the queue has room and is usable: mlx5_umr_validate() checks
 * everything up front); -EBUSY when the send queue has
 * no room for the batch right now, is being recovered, or a pointer-mode
 * mkey's table is still in use (retry after a completion); -EIO when the
 * device is in internal error; -ENODEV after the device was unregistered.
 */
int mlx5_umr_post(struct mlx5_umr_dev *dev, struct mlx5_umr_wr **wrs,
		  unsigned int n)
{
	struct mlx5_umr_sq *sq = &dev->sq;
	unsigned int i, total;
	unsigned long flags;
	u32 start, start_tail, unsignaled;
	bool was_idle, xlts;
	__be32 db[2];
	u8 fence;
	int err;

	if (!n)
		return 0;
	if (!percpu_ref_tryget_live(&dev->users))
		return -ENODEV;
	err = mlx5_umr_check_batch(dev, wrs, n, &total, &xlts);
	if (err)
		goto out;
	if (mlx5_umr_hca_dead(dev)) {
		/* Nothing in flight will complete: fail it now, not at timeout. */
		spin_lock_irqsave(&sq->lock, flags);
		if (sq->pc != sq->cc)
			mlx5_umr_sq_set_err(dev, false);
		spin_unlock_irqrestore(&sq->lock, flags);
		err = -EIO;
		goto out;
	}

	spin_lock_irqsave(&sq->lock, flags);
	if (sq->state != MLX5_UMR_SQ_RTS) {
		err = sq->state == MLX5_UMR_SQ_DEAD ? -EIO : -EBUSY;
		goto unlock;
	}
	if (total > sq->bbs - (sq->pc - sq->cc)) {
		err = -EBUSY;
		goto unlock;
	}
	err = xlts ? mlx5_umr_claim_xlts(wrs, n) : 0;
	if (err)
		goto unlock;

	start = sq->pc;
	start_tail = sq->tail;
	unsignaled = sq->unsignaled;
	fence = sq->next_fence;
	was_idle = sq->pc == sq->cc;
	for (i = 0; i < n; i++) {
		err = mlx5_umr_sq_push(dev, wrs[i], i == n - 1, db);
		if (err) {
			/* Nothing was published: forget what was written. */
			sq->pc = start;
			sq->tail = start_tail;
			sq->unsignaled = unsignaled;
			sq->next_fence = fence;
			mlx5_umr_release_xlts(wrs, n);
			goto unlock;
		}
	}
	/* One reference per request, dropped after its done(). */
	percpu_ref_get_many(&dev->users, n);
	if (was_idle)
		sq->progress = jiffies;
	/* The WQEs must be visible before the record that announces them. */
	dma_wmb();
	mlx5_umr_sq_dbrec(dev)[MLX5_SND_DBR] = cpu_to_be32(sq->pc & 0xffff);
	sq->db[0] = db[0];
	sq->db[1] = db[1];
	sq->db_valid = true;
	spin_unlock_irqrestore(&sq->lock, flags);

	/* In WQE order with every other doorbell of the device. */
	mlx5_umr_sq_ring(dev);
	/*
	 * Arm the watchdog when the queue goes busy; while work is in flight
	 * it re-arms itself (it checks under sq->lock, so it either saw this
	 * batch or ran before it, when the queue was idle).
	 */
	if (was_idle)
		queue_delayed_work(system_wq, &dev->watchdog, dev->timeout);
	goto out;

unlock:
	spin_unlock_irqrestore(&sq->lock, flags);
out:
	percpu_ref_put(&dev->users);
	return err;
}
EXPORT_SYMBOL(mlx5_umr_post);

static void mlx5_umr_exec_done(struct mlx5_umr_wr *wr)
{
	complete(wr->context);
}

/**
 * mlx5_umr_exec() - execute one UMR work request and wait for it
 * @dev: the device
 * @wr: the request; ->done and ->context are used internally and restored
 * @timeout_ms: how long to wait for room and for the completion; 0 for the
 *	device default
 *
 * When the completion does not arrive in time the QP is recovered and the
 * request fails with -ETIMEDOUT; it is never left in flight on return.
 *
 * Context: process context, may sleep.
 * Return: the request's status (0, -EIO with ->syndrome, -ETIMEDOUT,
 * -ECANCELED) or an error of mlx5_umr_post() other than -EBUSY.
 */
int mlx5_umr_exec(struct mlx5_umr_dev *dev, struct mlx5_umr_wr *wr,
		  unsigned int timeout_ms)
{
	DECLARE_COMPLETION_ONSTACK(done);
	void (*saved_done)(struct mlx5_umr_wr *wr) = wr->done;
	void *saved_ctx = wr->context;
	unsigned long tmo, deadline;
	int err;

	might_sleep();
	tmo = timeout_ms ? msecs_to_jiffies(timeout_ms) : dev->timeout;
	deadline = jiffies + tmo;
	wr->done = mlx5_umr_exec_done;
	wr->context = &done;

	for (;;) {
		unsigned long seen = READ_ONCE(dev->sq.events);

		err = mlx5_umr_post(dev, &wr, 1);
		if (err != -EBUSY)
			break;
		if (time_after_eq(jiffies, deadline)) {
			err = -ETIMEDOUT;
			break;
		}
		/* Retry after the next completion or state change. */
		wait_event_timeout(dev->sq.wait,
				   READ_ONCE(dev->sq.events) != seen,
				   max_t(long, deadline - jiffies, 1));
	}
	if (!err) {
		/* Look at the device now and then: a dead HCA fails fast. */
		while (!wait_for_completion_timeout(&done,
						    min_t(unsigned long, tmo,
							  MLX5_UMR_EXEC_POLL))) {
			bool dead = mlx5_umr_hca_dead(dev);

			tmo -= min_t(unsigned long, tmo, MLX5_UMR_EXEC_POLL);
			if (!dead && tmo)
				continue;
			spin_lock_irq(&dev->sq.lock);
			mlx5_umr_sq_set_err(dev, !dead);
			spin_unlock_irq(&dev->sq.lock);
			/* Recovery completes every request in flight. */
			wait_for_completion(&done);
			break;
		}
		err = wr->status;
	}
	wr->done = saved_done;
	wr->context = saved_ctx;
	return err;
}
EXPORT_SYMBOL(mlx5_umr_exec);
