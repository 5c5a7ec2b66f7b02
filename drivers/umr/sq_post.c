// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: posting on the REG_UMR QP.
 *
 * Under sq->lock a poster encodes its WQEs straight into the ring,
 * publishes them in the doorbell record and rings the send doorbell, all
 * in one critical section, as mlx5_ib_post_send() calls mlx5r_ring_db()
 * and dr_postsend_icm_data() rings inside their SQ lock: the HCA sees
 * doorbells in WQE order. The barriers are those of dr_send.c's
 * dr_cmd_notify_hw() (see mlx5_umr_sq_ring()).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/slab.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/doorbell.h>
#include <linux/mlx5/qp.h>

#include "umr.h"
#include "umr_uapi.h"
#include "trace.h"
#include "rules.h"
#include "key_rotate.h"
#include "sig.h"

/* How often mlx5_umr_exec() checks for internal error while waiting. */
#define MLX5_UMR_EXEC_POLL	(HZ / 10)

/**
 * mlx5_umr_sq_init() - initialise the submission state of a queue
 * @q: the queue
 */
void mlx5_umr_sq_init(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_sq *sq = &q->sq;

	spin_lock_init(&sq->lock);
	init_waitqueue_head(&sq->wait);
	INIT_LIST_HEAD(&sq->resubmit);
	INIT_LIST_HEAD(&sq->room_waiters);
	sq->state = MLX5_UMR_SQ_RESET;
	sq->bbs = 1U << MLX5_UMR_LOG_SQ_BBS;
	sq->ncqe = 1U << MLX5_UMR_LOG_CQ_SIZE;
}

/*
 * Publish the WQEs up to the producer counter and ring for them; @db is the
 * first 8 bytes of the newest WQE. The sequence of dr_send.c's
 * dr_cmd_notify_hw(), one 64-bit write at MLX5_BF_OFFSET (no BlueFlame);
 * wr.c's mlx5r_ring_db() has wmb() for the first barrier and alternates
 * BlueFlame offsets.
 */
static void mlx5_umr_sq_ring(struct mlx5_umr_queue *q, const __be32 *db)
{
	struct mlx5_umr_dev *dev = q->dev;

	lockdep_assert_held(&q->sq.lock);
	/* The WQEs must be visible before the record that announces them. */
	dma_wmb();
	mlx5_umr_sq_dbrec(q)[MLX5_SND_DBR] = cpu_to_be32(q->sq.pc & 0xffff);
	/* The record must reach memory before the HCA sees the doorbell. */
	wmb();
	dev->hca->ops->write_db(dev->hca, &dev->uar, MLX5_BF_OFFSET, db);
}

/* Write the WQE for @wr at the producer index. */
static int mlx5_umr_sq_write(struct mlx5_umr_queue *q,
			     struct mlx5_umr_wr *wr, unsigned int size,
			     u8 fm_ce_se, __be32 *db)
{
	struct mlx5_umr_sq *sq = &q->sq;
	struct mlx5_umr_mkey_priv *mp = to_priv(wr->mkey);
	unsigned int slot = sq->pc & (sq->bbs - 1);
	unsigned int room = (sq->bbs - slot) * MLX5_SEND_WQE_BB;
	u8 *dst = (u8 *)q->sq_buf.cpu + slot * MLX5_SEND_WQE_BB;
	const struct mlx5_umr_xlt *xlt = mp->xlt.cpu ? &mp->xlt : NULL;
	u8 *buf = size <= room ? dst : sq->scratch;
	int ret;

	lockdep_assert_held(&sq->lock);
	ret = mlx5_umr_wqe_encode(&q->wq_ctx, wr, xlt, (u16)sq->pc,
				  fm_ce_se, buf, size);
	if (ret < 0)
		return ret;
	if (ret != size)
		return -EINVAL;
	if (buf == sq->scratch) {
		/* The WQE wraps: the tail goes to the start of the ring. */
		memcpy(dst, buf, room);
		memcpy(q->sq_buf.cpu, buf + room, size - room);
	}
	/*
	 * The doorbell carries the first 8 bytes of the WQE it announces: of
	 * a signature chain, its last SET_PSV.
	 */
	if (unlikely(mlx5_umr_sig_psv_bytes(wr)))
		buf += size - MLX5_UMR_SIG_PSV_WQE_SIZE;
	db[0] = ((__be32 *)buf)[0];
	db[1] = ((__be32 *)buf)[1];
	return 0;
}

/*
 * Append @wr's WQE (checked, sized in ->priv.wqe_bytes) at the producer
 * index, with room checked; @last asks for a CQE, @db gets the WQE's doorbell.
 * On error nothing of the WQE is accounted.
 */
/*
 * The DMA key of the PD a move takes the mkey to: the one the request's
 * SGT layout names, the service's own, or unknown (0).
 */
static u32 mlx5_umr_pd_move_dma_key(struct mlx5_umr_dev *dev,
				    const struct mlx5_umr_wr *wr)
{
	if (wr->op == MLX5_UMR_OP_CONFIGURE &&
	    wr->layout == MLX5_UMR_LAYOUT_SGT)
		return wr->sgt.lkey;
	return wr->pdn == dev->caps.pdn ? dev->caps.dma_lkey : 0;
}

static bool mlx5_umr_wr_sets_sig(const struct mlx5_umr_wr *wr)
{
	return wr->flags & (MLX5_UMR_WR_SET_SIG | MLX5_UMR_WR_RESET_SIG);
}

/*
 * What mlx5_umr_sq_push() changed in the mkey, as it was (in reverse
 * order of the pushes): the snapshot it took, whole.
 */
static void mlx5_umr_unpush(struct mlx5_umr_wr *wr)
{
	const struct mlx5_umr_mkey_snap *was = &wr->priv.was;

	if (unlikely(mlx5_umr_wr_sets_sig(wr)))
		mlx5_umr_sig_unstage(wr);
	to_priv(wr->mkey)->crypto_len = was->crypto_len;
	to_priv(wr->mkey)->dek = was->dek;
	to_priv(wr->mkey)->dek_prev = was->dek_prev;
	WRITE_ONCE(wr->mkey->pdn, was->pdn);
	wr->mkey->dma_lkey = was->dma_lkey;
	WRITE_ONCE(wr->mkey->key, was->key);
}

/*
 * What a crypto request's push-time rules (rules.h
 * mlx5_umr_crypto_posted_rules()) look at, now known: the length the mkey
 * keeps, the signature a pair keeps (wr->priv.bsf_sig, which the encoder
 * writes). The length a layout gives is the mkey's from here
 * (mlx5_umr_unpush() puts the old one back).
 */
static int mlx5_umr_crypto_posted(struct mlx5_umr_dev *dev,
				  struct mlx5_umr_wr *wr)
{
	struct mlx5_umr_mkey_priv *mp = to_priv(wr->mkey);
	u64 len = wr->layout != MLX5_UMR_LAYOUT_NONE ?
		  mlx5_umr_layout_len(wr) : mp->crypto_len;
	const struct mlx5_umr_sig_attr *sig = NULL;
	int err;

	if (wr->mkey->flags & MLX5_UMR_MKEY_SIGNATURE) {
		if (wr->flags & MLX5_UMR_WR_SET_SIG)
			sig = wr->sig;
		else if (!(wr->flags & MLX5_UMR_WR_RESET_SIG))
			sig = mlx5_umr_sig_kept(wr);
	}
	wr->priv.bsf_sig = sig;
	err = mlx5_umr_crypto_posted_rules(&dev->caps, wr, len, sig);
	if (err)
		return err;
	/*
	 * The DEKs the mkey may name, which mlx5_umr_dek_destroy() refuses:
	 * two at most, the new one and one the HCA may still have (until a
	 * request of the mkey succeeded with nothing else in flight).
	 */
	if (wr->crypto->dek != mp->dek) {
		if (mp->dek_prev && mp->dek && mp->dek_prev != wr->crypto->dek)
			return -EBUSY;
		if (mp->dek)
			mp->dek_prev = mp->dek;
		mp->dek = wr->crypto->dek;
	}
	mp->crypto_len = len;
	return 0;
}

static int mlx5_umr_sq_push(struct mlx5_umr_queue *q, struct mlx5_umr_wr *wr,
			    bool last, __be32 *db)
{
	struct mlx5_umr_dev *dev = q->dev;
	struct mlx5_umr_sq *sq = &q->sq;
	unsigned int size = wr->priv.wqe_bytes;
	unsigned int nbb = size / MLX5_SEND_WQE_BB;
	bool signal = last || sq->unsignaled + nbb >= MLX5_UMR_SIGNAL_BBS;
	u8 fm = sq->next_fence | (signal ? MLX5_WQE_CTRL_CQ_UPDATE : 0);
	struct mlx5_umr_sq_ent *e;
	int err;

	lockdep_assert_held(&sq->lock);
	/* what mlx5_umr_unpush() puts back, whichever check fails */
	wr->priv.was = (struct mlx5_umr_mkey_snap) {
		.key = wr->mkey->key,
		.dma_lkey = wr->mkey->dma_lkey,
		.pdn = wr->mkey->pdn,
		.crypto_len = to_priv(wr->mkey)->crypto_len,
		.dek = to_priv(wr->mkey)->dek,
		.dek_prev = to_priv(wr->mkey)->dek_prev,
	};
	/*
	 * The WQE names the mkey by its new key and installs its byte (wr.c
	 * handle_reg_mr() after ib_update_fast_reg_key()); later requests of
	 * the batch on the same mkey name the new key too.
	 */
	if (unlikely(wr->flags & MLX5_UMR_WR_NEW_KEY)) {
		/* the uapi reads it without sq->lock (umr_uobj_get_key()) */
		WRITE_ONCE(wr->mkey->key, wr->new_key);
	}
	/*
	 * Likewise the DMA key of the mkey's PD follows a move, for later SGT
	 * layouts; one an earlier request of this batch left unknown is none.
	 */
	if (unlikely(wr->flags & MLX5_UMR_WR_SET_PD)) {
		wr->mkey->dma_lkey = mlx5_umr_pd_move_dma_key(dev, wr);
		/* and so does the PD a crypto mkey's DEK must be of (rule 58) */
		WRITE_ONCE(wr->mkey->pdn, wr->pdn);
	}
	if (unlikely(wr->mkey->flags & MLX5_UMR_MKEY_SIGNATURE))
		wr->priv.sigerr = mlx5_umr_sig_armed(wr->mkey);
	/* the rules on what the requests before it left (rules.h) */
	err = mlx5_umr_posted_key_rule(wr);
	if (!err && unlikely(wr->flags & MLX5_UMR_WR_SET_CRYPTO))
		err = mlx5_umr_crypto_posted(dev, wr);
	if (!err)
		err = mlx5_umr_sq_write(q, wr, size, fm, db);
	if (err) {
		mlx5_umr_unpush(wr);
		return err;
	}
	/* for the batch's later requests; the mkey's once the batch is */
	if (unlikely(mlx5_umr_wr_sets_sig(wr)))
		mlx5_umr_sig_stage(wr);
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

/**
 * mlx5_umr_sq_resubmit() - post again what an error flushed, then reopen
 * @q: the queue, its QP back in RTS after recovery
 *
 * The requests go in their order, with one doorbell, before the queue
 * takes new work. They still hold their users reference and translation
 * table; the ring is empty and held them all before, so they fit.
 *
 * Context: process context; takes sq->lock.
 */
void mlx5_umr_sq_resubmit(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_dev *dev = q->dev;
	struct mlx5_umr_sq *sq = &q->sq;
	struct mlx5_umr_wr *wr, *tmp;
	bool posted = false;
	LIST_HEAD(done);
	__be32 db[2];

	spin_lock_irq(&sq->lock);
	list_for_each_entry_safe(wr, tmp, &sq->resubmit, node) {
		list_del(&wr->node);
		/* it depends on a request of its batch that failed: not run */
		if (unlikely(wr->flags & MLX5_UMR_WR_DEPENDS) &&
		    sq->batch_failed && wr->priv.batch == sq->failed_batch) {
			wr->status = -ECANCELED;
			list_add_tail(&wr->node, &done);
			continue;
		}
		if (wr->priv.wqe_bytes / MLX5_SEND_WQE_BB >
		    sq->bbs - (sq->pc - sq->cc) ||
		    mlx5_umr_sq_push(q, wr, list_empty(&sq->resubmit), db)) {
			wr->status = -ECANCELED;
			list_add_tail(&wr->node, &done);
			continue;
		}
		if (unlikely(mlx5_umr_wr_sets_sig(wr)))
			mlx5_umr_sig_posted(wr);
		posted = true;
	}
	if (posted) {
		sq->progress = jiffies;
		mlx5_umr_sq_ring(q, db);
	}
	sq->batch_failed = false;
	sq->state = MLX5_UMR_SQ_RTS;
	sq->events++;
	spin_unlock_irq(&sq->lock);

	if (posted)
		queue_delayed_work(system_wq, &q->watchdog, dev->timeout);
	wake_up_all(&sq->wait);
	mlx5_umr_sq_finish(q, &done);
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
		if (wrs[i]->priv.holds_xlt)
			clear_bit_unlock(0, &to_priv(wrs[i]->mkey)->xlt_busy);
		wrs[i]->priv.holds_xlt = false;
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
				    wrs[j]->priv.holds_xlt)
					break;
			mlx5_umr_release_xlts(wrs, i);
			return j < i ? -EINVAL : -EBUSY;
		}
		wrs[i]->priv.holds_xlt = true;
	}
	return 0;
}

/*
 * The rules on what the service knows of the device's state: no signature
 * mkey into a ULP's ib_pd (Documentation/signature.rst, "The mlx5_ib
 * hazard"), no request naming a key the HCA may not have.
 */
static int mlx5_umr_wr_dev_rules(struct mlx5_umr_dev *dev,
				 const struct mlx5_umr_wr *wr)
{
	if (unlikely(wr->flags & MLX5_UMR_WR_SET_PD) &&
	    (wr->mkey->flags & MLX5_UMR_MKEY_SIGNATURE) &&
	    mlx5_umr_pd_is_ib(dev, wr->pdn))
		return -EOPNOTSUPP;
	if (unlikely(READ_ONCE(to_priv(wr->mkey)->key_unknown)) &&
	    !(wr->flags & MLX5_UMR_WR_NEW_KEY))
		return -ESTALE;
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
 * request), -ENOMEM, -EOPNOTSUPP or -EOVERFLOW (see mlx5_umr_wr_check());
 * -EOPNOTSUPP also for a signature mkey moved into a ULP's ib_pd, -ESTALE
 * for a request without MLX5_UMR_WR_NEW_KEY on an mkey whose key is
 * unknown (&mlx5_umr_wr.status).
 */
int mlx5_umr_validate(struct mlx5_umr_dev *dev, const struct mlx5_umr_wr *wr)
{
	if (!wr || !wr->mkey || wr->mkey->dev != dev)
		return -EINVAL;
	return mlx5_umr_wr_check(&dev->caps, wr) ?:
	       mlx5_umr_wr_dev_rules(dev, wr);
}
EXPORT_SYMBOL(mlx5_umr_validate);

/*
 * The rules on @wr but those on each entry of a list or interleaved layout,
 * which the encoder applies as it writes them (mlx5_umr_wr_prepare(),
 * inline: see rules.h); then its size, in ->priv.wqe_bytes.
 */
static __always_inline int mlx5_umr_wr_size(struct mlx5_umr_dev *dev,
					    struct mlx5_umr_wr *wr)
{
	int size, err;

	err = mlx5_umr_wr_rules(&dev->caps, wr, false);
	if (err)
		return err;
	size = mlx5_umr_wqe_bytes(&dev->caps, wr);
	if (!size || size % MLX5_SEND_WQE_BB || size > MLX5_SEND_WQE_MAX_SIZE)
		return -EINVAL;
	wr->priv.wqe_bytes = size;
	return 0;
}

/**
 * mlx5_umr_admit() - check a request once, for a later post of it
 * @dev: the device
 * @wr: the request, its entries already checked one by one
 *	(mlx5_umr_precheck_sge(), mlx5_umr_precheck_il())
 *
 * The rules mlx5_umr_post() applies to a request before writing it; the
 * posts of umr_uapi.h then take @wr as checked, as long as it is not
 * changed. The encoder still applies the entry rules as it writes them.
 *
 * Context: any.
 * Return: the basic blocks of the request's WQEs, its footprint on the
 * send queue; or -EINVAL (no mkey, an mkey of another device, or a
 * malformed request), -ENOMEM, -EOPNOTSUPP or -EOVERFLOW.
 */
int mlx5_umr_admit(struct mlx5_umr_dev *dev, struct mlx5_umr_wr *wr)
{
	int err;

	if (!wr || !wr->mkey || wr->mkey->dev != dev)
		return -EINVAL;
	err = mlx5_umr_wr_size(dev, wr);
	return err ?: wr->priv.wqe_bytes / MLX5_SEND_WQE_BB;
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_admit);

/*
 * Take the attributes @wr points to into the request: recovery encodes a
 * flushed request again, after the caller may have freed them.
 */
static void mlx5_umr_wr_take_attrs(struct mlx5_umr_wr *wr)
{
	wr->priv.user_sig = wr->sig;
	wr->priv.user_crypto = wr->crypto;
	if (wr->sig) {
		wr->priv.sig = *wr->sig;
		wr->sig = &wr->priv.sig;
	}
	if (wr->crypto) {
		wr->priv.crypto = *wr->crypto;
		wr->crypto = &wr->priv.crypto;
	}
}

/**
 * mlx5_umr_wr_give_attrs() - give the caller's attribute pointers back
 * @wr: a request mlx5_umr_wr_take_attrs() took
 */
void mlx5_umr_wr_give_attrs(struct mlx5_umr_wr *wr)
{
	wr->sig = wr->priv.user_sig;
	wr->crypto = wr->priv.user_crypto;
}

static void mlx5_umr_give_all_attrs(struct mlx5_umr_wr **wrs, unsigned int n)
{
	while (n--)
		mlx5_umr_wr_give_attrs(wrs[n]);
}

/*
 * Check and size every request (those @admitted by mlx5_umr_admit() are
 * sized already); *@qp is their mkeys' home queue, which must be one
 * (-EXDEV), *@nbb the batch's basic blocks, *@xlts whether a request
 * needs its mkey's translation table.
 */
static __always_inline int mlx5_umr_check_batch(struct mlx5_umr_dev *dev,
						struct mlx5_umr_queue **qp,
						struct mlx5_umr_wr **wrs,
						unsigned int n,
						unsigned int *nbb, bool *xlts,
						bool admitted)
{
	struct mlx5_umr_queue *q = NULL;
	unsigned int i, total = 0;
	bool any = false;
	int err;

	for (i = 0; i < n; i++) {
		struct mlx5_umr_wr *wr = wrs[i];

		if (!wr || !wr->mkey || wr->mkey->dev != dev || !wr->done) {
			mlx5_umr_give_all_attrs(wrs, i);
			return -EINVAL;
		}
		/*
		 * Two queues are not ordered against each other: a batch,
		 * whose requests run in order, runs on one.
		 */
		if (unlikely(q && to_priv(wr->mkey)->q != q)) {
			mlx5_umr_give_all_attrs(wrs, i);
			return -EXDEV;
		}
		q = to_priv(wr->mkey)->q;
#ifdef MLX5_UMR_TESTING
		/* tests/stress/mq_stress.c's reorders, which it must catch */
		q = READ_ONCE(dev->test_route) ?: q;
		if (READ_ONCE(dev->test_route_cpu))
			q = dev->queues[dev->cpu_q[raw_smp_processor_id()]];
#endif
		mlx5_umr_wr_take_attrs(wr);
		err = mlx5_umr_wr_dev_rules(dev, wr);
		if (!err && !admitted)
			err = mlx5_umr_wr_size(dev, wr);
		if (err) {
			mlx5_umr_give_all_attrs(wrs, i + 1);
			return err;
		}
		wr->priv.holds_xlt = false;
		any |= mlx5_umr_wr_uses_xlt(wr);
		total += wr->priv.wqe_bytes / MLX5_SEND_WQE_BB;
	}
	if (total > q->sq.bbs) {
		mlx5_umr_give_all_attrs(wrs, n);
		return -EINVAL;
	}
	*qp = q;
	*nbb = total;
	*xlts = any;
	return 0;
}

/* What the first @n requests changed when pushed: keys, PDs, signatures. */
static void mlx5_umr_unpush_all(struct mlx5_umr_wr **wrs, unsigned int n)
{
	while (n--)
		mlx5_umr_unpush(wrs[n]);
}

/*
 * Write the batch into the ring and ring for it. Nothing is published when
 * a WQE cannot be written: the producer state goes back to where it was.
 */
static int mlx5_umr_sq_post_batch(struct mlx5_umr_queue *q,
				  struct mlx5_umr_wr **wrs, unsigned int n)
{
	struct mlx5_umr_sq *sq = &q->sq;
	u32 start = sq->pc, start_tail = sq->tail;
	u32 unsignaled = sq->unsignaled;
	u8 fence = sq->next_fence;
	unsigned int i;
	__be32 db[2];
	int err;

	lockdep_assert_held(&sq->lock);
	sq->batch_seq++;
	for (i = 0; i < n; i++) {
		wrs[i]->priv.batch = sq->batch_seq;
		/*
		 * From the key as the requests before it left it, under the
		 * home queue's lock: two posts racing on one mkey, or two
		 * requests of a batch, never install the same byte. A request
		 * recovery posts again keeps its key.
		 */
		if (unlikely(wrs[i]->flags & MLX5_UMR_WR_NEW_KEY))
			wrs[i]->new_key =
				mlx5_umr_key_rotated(wrs[i]->mkey->key);
		err = mlx5_umr_sq_push(q, wrs[i], i == n - 1, db);
		if (err) {
			mlx5_umr_unpush_all(wrs, i);
			sq->pc = start;
			sq->tail = start_tail;
			sq->unsignaled = unsignaled;
			sq->next_fence = fence;
			return err;
		}
	}
	/* what a later check re-arms the PSVs with, and later requests keep */
	for (i = 0; i < n; i++)
		if (unlikely(mlx5_umr_wr_sets_sig(wrs[i])))
			mlx5_umr_sig_posted(wrs[i]);
	/* One doorbell for the batch, before anyone else may post. */
	mlx5_umr_sq_ring(q, db);
	return 0;
}

/*
 * mlx5_umr_post(); the requests @admitted by mlx5_umr_admit() or not. The
 * batch goes to its mkeys' home queue (mlx5_umr_mkey_priv.q, fixed at
 * allocation), whose lock orders it against every other request of them.
 */
static __always_inline int __mlx5_umr_post(struct mlx5_umr_dev *dev,
					   struct mlx5_umr_wr **wrs,
					   unsigned int n, bool admitted)
{
	struct mlx5_umr_queue *q;
	struct mlx5_umr_sq *sq;
	unsigned int total, i;
	unsigned long flags;
	bool was_idle, xlts;
	int err;

	if (!n)
		return 0;
	if (!percpu_ref_tryget_live(&dev->users))
		return -ENODEV;
	err = mlx5_umr_check_batch(dev, &q, wrs, n, &total, &xlts, admitted);
	if (err)
		goto out;
	sq = &q->sq;
	err = mlx5_umr_consumers_get(wrs, n);
	if (err)
		goto give;
	if (mlx5_umr_hca_dead(dev)) {
		/* Nothing in flight will complete: fail it now, not at timeout. */
		mlx5_umr_dev_fail_dead(dev);
		err = -EIO;
		goto put;
	}

	spin_lock_irqsave(&sq->lock, flags);
	if (sq->state != MLX5_UMR_SQ_RTS) {
		/* RESET only before bring-up ends, ERR/RECOVERING until RTS */
		err = sq->state == MLX5_UMR_SQ_DEAD ? -EIO : -EAGAIN;
		goto unlock;
	}
	if (total > sq->bbs - (sq->pc - sq->cc)) {
		err = -ENOSPC;
		goto unlock;
	}
	err = xlts ? mlx5_umr_claim_xlts(wrs, n) : 0;
	if (err)
		goto unlock;
	was_idle = sq->pc == sq->cc;
	err = mlx5_umr_sq_post_batch(q, wrs, n);
	if (err) {
		mlx5_umr_release_xlts(wrs, n);
		goto unlock;
	}
	/* One reference per request, dropped after its done(). */
	percpu_ref_get_many(&dev->users, n);
	for (i = 0; i < n; i++)
		if (unlikely(wrs[i]->mkey->flags & MLX5_UMR_MKEY_CRYPTO))
			to_priv(wrs[i]->mkey)->inflight++;
	if (was_idle)
		sq->progress = jiffies;
	spin_unlock_irqrestore(&sq->lock, flags);

	/*
	 * Arm the watchdog when the queue goes busy; while work is in flight
	 * it re-arms itself (it checks under sq->lock, so it either saw this
	 * batch or ran before it, when the queue was idle).
	 */
	if (was_idle)
		queue_delayed_work(system_wq, &q->watchdog, dev->timeout);
	goto out;

unlock:
	spin_unlock_irqrestore(&sq->lock, flags);
put:
	mlx5_umr_consumers_put(wrs, n);
give:
	mlx5_umr_give_all_attrs(wrs, n);
out:
	percpu_ref_put(&dev->users);
	return err;
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
 * The batch runs on its mkeys' home queue (the queue of the CPU that
 * allocated them, &mlx5_umr_caps.nqueues queues): requests of one mkey
 * run in the order their posts took that queue, each after the ones
 * before it (the UMR fence), and their done() come in that order. Nothing
 * orders requests of mkeys homed on different queues, so a batch, which
 * runs in order, must name mkeys of one home queue (-EXDEV otherwise).
 * Documentation/service.rst, "Queues and ordering".
 *
 * Context: process or softirq context, also with interrupts disabled or a
 * caller's spinlock held; not hard IRQ or NMI. Does not sleep. done() is
 * never called from within this function (nor from inside the doorbell),
 * but may run in another context before it returns.
 * Return: 0 when the whole batch was posted; -EXDEV when its mkeys have
 * different home queues (final: nothing posted, the attribute pointers
 * given back as for the other refusals); -EINVAL, -ENOMEM, -EOPNOTSUPP
 * or -EOVERFLOW when a request (or the batch) is invalid (for a bad entry
 * only once the queue has room and is usable: mlx5_umr_validate() checks
 * everything up front); back-pressure, nothing posted, to retry
 * (mlx5_umr_post_busy()): -ENOSPC when the send queue has no room for the
 * batch right now (room frees as requests complete), -EAGAIN while the
 * queue is being recovered after an error (it reopens when recovery has
 * posted again what the error flushed), -EBUSY when a pointer-mode mkey's
 * table is still used by an earlier request of that mkey (retry after
 * that request's done()); -EIO when the device is in internal error or
 * failed; -ENODEV after the device was unregistered.
 */
int mlx5_umr_post(struct mlx5_umr_dev *dev, struct mlx5_umr_wr **wrs,
		  unsigned int n)
{
	return __mlx5_umr_post(dev, wrs, n, false);
}
EXPORT_SYMBOL(mlx5_umr_post);

static void mlx5_umr_exec_done(struct mlx5_umr_wr *wr)
{
	complete(wr->context);
}

/**
 * mlx5_umr_mkey_queue() - an mkey's home queue
 * @mkey: the mkey
 *
 * Return: the queue that runs every request of @mkey, fixed at allocation:
 * a device queue, a channel, or (a signature mkey of another PD than the
 * service's) the PD queue of its PSVs' PD.
 */
struct mlx5_umr_queue *mlx5_umr_mkey_queue(struct mlx5_umr_mkey *mkey)
{
	return to_priv(mkey)->q;
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_mkey_queue);

static int mlx5_umr_post_wait(struct mlx5_umr_dev *dev,
			      struct mlx5_umr_wr **wrs, unsigned int n,
			      unsigned long deadline, bool intr, bool admitted)
{
	struct mlx5_umr_sq *sq;
	int err;

	might_sleep();
	/* what __mlx5_umr_post() refuses at once needs no queue to wait on */
	if (!n || !wrs[0] || !wrs[0]->mkey || wrs[0]->mkey->dev != dev)
		return __mlx5_umr_post(dev, wrs, n, admitted);
	sq = &to_priv(wrs[0]->mkey)->q->sq;
	for (;;) {
		unsigned long seen = READ_ONCE(sq->events);
		long left;

		err = __mlx5_umr_post(dev, wrs, n, admitted);
		if (!mlx5_umr_post_busy(err))
			return err;
		if (time_after_eq(jiffies, deadline))
			return -ETIMEDOUT;
		/* Retry after the next completion or state change. */
		left = max_t(long, deadline - jiffies, 1);
		if (!intr) {
			wait_event_timeout(sq->wait,
					   READ_ONCE(sq->events) != seen,
					   left);
			continue;
		}
		/* Nothing is posted yet: a signal may end the wait. */
		if (wait_event_interruptible_timeout(sq->wait,
						     READ_ONCE(sq->events) !=
						     seen, left) < 0)
			return -EINTR;
	}
}

/**
 * mlx5_umr_post_wait_room() - mlx5_umr_post(), waiting for room
 * @dev: the device
 * @wrs: the requests, each admitted (mlx5_umr_admit())
 * @n: how many
 * @deadline: in jiffies, when to give up waiting for room
 *
 * The wait for room is interruptible: another user (a file of the
 * character device) may keep the queue full for as long as the HCA takes.
 *
 * Context: process context, may sleep.
 * Return: as mlx5_umr_post(), but -ETIMEDOUT instead of its back-pressure
 * errnos (mlx5_umr_post_busy()) once @deadline has passed, and -EINTR
 * when a signal ended the wait (nothing was posted).
 */
int mlx5_umr_post_wait_room(struct mlx5_umr_dev *dev, struct mlx5_umr_wr **wrs,
			    unsigned int n, unsigned long deadline)
{
	return mlx5_umr_post_wait(dev, wrs, n, deadline, true, true);
}

/*
 * Wait up to @tmo for @done. On a polled channel nobody else may poll:
 * the waiter does, between short sleeps.
 */
static bool mlx5_umr_wait_done(struct mlx5_umr_queue *q,
			       struct completion *done, unsigned long tmo)
{
	unsigned long end = jiffies + tmo;

	if (q->mode != MLX5_UMR_COMP_POLLED)
		return wait_for_completion_timeout(done, tmo);
	for (;;) {
		mlx5_umr_cq_consume(q, INT_MAX);
		if (try_wait_for_completion(done))
			return true;
		if (!time_before(jiffies, end))
			return false;
		if (wait_for_completion_timeout(done, 1))
			return true;
	}
}

/**
 * mlx5_umr_wait_posted() - wait for posted requests, recovering on timeout
 * @wrs: the requests, posted; their mkeys' homes may differ (a file's
 *	batch: a signature mkey lives on its PD's queue, the file's other
 *	mkeys on the character device's), a polled channel's may not
 * @n: how many
 * @done: completed by the requests' done() once all of them ran
 * @tmo: how long to wait, in jiffies
 *
 * A polled channel's CQ is polled meanwhile. When @done does not come in
 * time, every home queue of @wrs is recovered, which completes every
 * request in flight on it with an error; when the HCA died, every queue
 * is: nothing posted is left in flight on return. @wrs and their mkeys
 * must stay valid until then (the caller's, as for mlx5_umr_post()).
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_wait_posted(struct mlx5_umr_wr **wrs, unsigned int n,
			  struct completion *done, unsigned long tmo)
{
	struct mlx5_umr_queue *q = to_priv(wrs[0]->mkey)->q, *last = NULL;
	struct mlx5_umr_dev *dev = q->dev;
	unsigned int i;
	bool dead;

	/* Look at the device now and then: a dead HCA fails fast. */
	while (!mlx5_umr_wait_done(q, done,
				   min_t(unsigned long, tmo,
					 MLX5_UMR_EXEC_POLL))) {
		dead = mlx5_umr_hca_dead(dev);
		tmo -= min_t(unsigned long, tmo, MLX5_UMR_EXEC_POLL);
		if (!dead && tmo)
			continue;
		if (dead)
			mlx5_umr_dev_fail_dead(dev);
		/* mlx5_umr_sq_set_err() leaves a queue in error as it is */
		for (i = 0; i < n; i++) {
			q = to_priv(wrs[i]->mkey)->q;
			if (q == last)
				continue;
			spin_lock_irq(&q->sq.lock);
			mlx5_umr_sq_set_err(q, !dead);
			spin_unlock_irq(&q->sq.lock);
			last = q;
		}
		/* Recovery completes every request in flight. */
		wait_for_completion(done);
		return;
	}
}

static int __mlx5_umr_exec(struct mlx5_umr_dev *dev, struct mlx5_umr_wr *wr,
			   unsigned int timeout_ms, bool intr, bool admitted)
{
	DECLARE_COMPLETION_ONSTACK(done);
	void (*saved_done)(struct mlx5_umr_wr *wr) = wr->done;
	void *saved_ctx = wr->context;
	unsigned long tmo;
	int err;

	might_sleep();
	tmo = timeout_ms ? msecs_to_jiffies(timeout_ms) : dev->timeout;
	wr->done = mlx5_umr_exec_done;
	wr->context = &done;

	err = mlx5_umr_post_wait(dev, &wr, 1, jiffies + tmo, intr, admitted);
	if (!err) {
		/*
		 * Posted: @wr and what it points to belong to the service
		 * until done(), which a timeout forces through recovery. Not
		 * interruptible: the caller's memory must outlive the request.
		 */
		mlx5_umr_wait_posted(&wr, 1, &done, tmo);
		err = wr->status;
	}
	wr->done = saved_done;
	wr->context = saved_ctx;
	return err;
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
 * -ECANCELED) or an error of mlx5_umr_post() other than its back-pressure
 * ones (mlx5_umr_post_busy()), which it waits out.
 */
int mlx5_umr_exec(struct mlx5_umr_dev *dev, struct mlx5_umr_wr *wr,
		  unsigned int timeout_ms)
{
	return __mlx5_umr_exec(dev, wr, timeout_ms, false, false);
}
EXPORT_SYMBOL(mlx5_umr_exec);

/**
 * mlx5_umr_exec_interruptible() - mlx5_umr_exec() for a user's request
 * @dev: the device
 * @wr: the request
 * @timeout_ms: as for mlx5_umr_exec()
 *
 * A signal ends the wait for room on the send queue (which other users
 * can keep full), never the wait for a posted request: that one is bounded
 * by @timeout_ms, after which recovery completes it.
 *
 * Context: process context, may sleep.
 * Return: as mlx5_umr_exec(), or -EINTR when a signal came before the
 * request was posted (nothing was done).
 */
int mlx5_umr_exec_interruptible(struct mlx5_umr_dev *dev,
				struct mlx5_umr_wr *wr,
				unsigned int timeout_ms)
{
	return __mlx5_umr_exec(dev, wr, timeout_ms, true, false);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_exec_interruptible);

/**
 * mlx5_umr_exec_admitted() - mlx5_umr_exec_interruptible() of a request
 *	mlx5_umr_admit() checked
 * @dev: the device
 * @wr: the request, admitted
 * @timeout_ms: as for mlx5_umr_exec()
 *
 * Context: process context, may sleep.
 * Return: as mlx5_umr_exec_interruptible().
 */
int mlx5_umr_exec_admitted(struct mlx5_umr_dev *dev, struct mlx5_umr_wr *wr,
			   unsigned int timeout_ms)
{
	return __mlx5_umr_exec(dev, wr, timeout_ms, true, true);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_exec_admitted);
