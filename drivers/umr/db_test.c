// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: KUnit test of the doorbell sequence.
 *
 * The shared recording HCA (tests/kunit) forwards every operation to a
 * fake HCA and records each doorbell it passes on among the commands, in
 * the order the fake receives them; it also passes the fake's completion
 * events to the service's handler. Several threads post at once; the send
 * doorbells must carry strictly increasing WQE indexes, each naming the
 * WQE that ends at the doorbell record (rung in the critical section that
 * published it), one per batch, the last one naming the final WQE; the CQ
 * arms must never move back; no completion handler may run inside a
 * doorbell. With errors injected, recovery resets the QP and the WQE
 * counter: no send doorbell may reach the QP between 2RST_QP and
 * RTR2RTS_QP, and the order starts again after each reset.
 *
 * UML is a uniprocessor kernel without preemption: the window between
 * publishing and ringing only opens when the ringer gives the CPU away.
 * The recording HCA does that before every other doorbell whenever the
 * caller can sleep (task context, interrupts on): a service that rang
 * after dropping its lock fails this test (a WQE 6 doorbell after a WQE 12
 * one, a record ahead of the doorbell); the service rings under sq->lock
 * with interrupts off, where it never yields.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5/doorbell.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_fake.h>

#include "umr.h"
#include "umr_kunit.h"

#define DBT_LOG		8192
#define DBT_THREADS	4
#define DBT_ITERS	150
#define DBT_BATCH	3

/* A submitter's requests (its private area). */
struct dbt_wrs {
	struct mlx5_umr_wr wr[DBT_ITERS][DBT_BATCH];
};

/* Note the send doorbell record as the doorbell passes. */
static void dbt_note_dbrec(struct umr_kunit_rec_hca *rh,
			   struct umr_kunit_rec *rec)
{
	struct mlx5_umr_dev *dev = rh->hca.umr;
	__be32 *dbrec;

	if (!dev) {
		rec->tag = 0;
		return;
	}
	dbrec = mlx5_umr_sq_dbrec(mlx5_umr_dev_q0(dev));
	rec->tag = be32_to_cpu(dbrec[MLX5_SND_DBR]);
}

/* One batch of 1, 2 or 3 configures of the thread's mkey. */
static int dbt_step(struct umr_kunit_submitter *s, unsigned int it)
{
	struct mlx5_umr_wr *wr = ((struct dbt_wrs *)s->priv)->wr[it];
	struct mlx5_umr_wr *wrs[DBT_BATCH];
	unsigned int i, n = 1 + it % DBT_BATCH;

	for (i = 0; i < n; i++) {
		umr_kunit_submitter_wr(s, &wr[i]);
		wrs[i] = &wr[i];
	}
	return umr_kunit_submit(s, wrs, n);
}

static void dbt_inject(void *fake)
{
	mlx5_umr_fake_inject_wqe_error(fake, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       MLX5_UMR_FAKE_VS_INJECTED);
}

static u16 dbt_idx(const struct umr_kunit_rec *e)
{
	return (be32_to_cpu(e->val[0]) & MLX5_WQE_CTRL_WQE_INDEX_MASK) >>
	       MLX5_WQE_CTRL_WQE_INDEX_SHIFT;
}

static u16 dbt_nbb(const struct umr_kunit_rec *e)
{
	return DIV_ROUND_UP((be32_to_cpu(e->val[1]) & MLX5_WQE_CTRL_DS_MASK) *
			    MLX5_SEND_WQE_DS, MLX5_SEND_WQE_BB);
}

static void dbt_check_log(struct kunit *test, struct umr_kunit_rec_hca *rh,
			  struct mlx5_umr_dev *dev, bool faults,
			  unsigned int batches)
{
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(dev);
	unsigned int i, nsq = 0, ncq = 0, back = 0, not_newest = 0, cq_back = 0;
	unsigned int other = 0, not_rts = 0, resets = 0, rts_from = UINT_MAX;
	const struct umr_kunit_rec *last = NULL, *final = NULL;
	unsigned int n;
	u32 ci = 0;

	spin_lock_irq(&rh->lock);
	n = rh->n;
	KUNIT_EXPECT_EQ(test, rh->lost, 0U);
	spin_unlock_irq(&rh->lock);
	/* records below n are complete: every operation has returned */
	for (i = 0; i < n; i++) {
		const struct umr_kunit_rec *e = &rh->rec[i];

		if (e->kind == UMR_KUNIT_REC_CMD &&
		    e->opcode == MLX5_CMD_OP_2RST_QP) {
			/* no send doorbell from here; WQE indexes restart at 0 */
			rts_from = UINT_MAX;
			last = NULL;
			resets++;
			continue;
		}
		if (e->kind == UMR_KUNIT_REC_CMD &&
		    e->opcode == MLX5_CMD_OP_RTR2RTS_QP && !e->ret) {
			/* in RTS once the transition has returned */
			rts_from = e->done;
			continue;
		}
		if (e->kind != UMR_KUNIT_REC_DB)
			continue;
		if (e->offset == MLX5_CQ_DOORBELL) {
			u32 v = be32_to_cpu(e->val[0]) & 0xffffff;

			KUNIT_EXPECT_EQ(test, be32_to_cpu(e->val[1]),
					q0->cq.cqn);
			/* consumer index modulo 2^24 never moves back */
			if (ncq++ && (s32)((v - ci) << 8) < 0)
				cq_back++;
			ci = v;
			continue;
		}
		if (e->offset != MLX5_BF_OFFSET) {
			other++;
			continue;
		}
		if (i < rts_from)
			not_rts++;
		KUNIT_EXPECT_EQ(test, be32_to_cpu(e->val[1]) >>
				MLX5_WQE_CTRL_QPN_SHIFT, q0->sq.qpn);
		/* strictly increasing WQE index, modulo 2^16 */
		if (last && (s16)(dbt_idx(e) - dbt_idx(last)) <= 0) {
			if (!back)
				kunit_info(test, "doorbell %u: WQE %u after %u\n",
					   i, dbt_idx(e), dbt_idx(last));
			back++;
		}
		/*
		 * The doorbell names the WQE that ends at the record: rung in
		 * the critical section that published it, none later yet.
		 */
		if ((u16)e->tag != (u16)(dbt_idx(e) + dbt_nbb(e))) {
			if (!not_newest)
				kunit_info(test, "doorbell %u: WQE %u+%u, record %u\n",
					   i, dbt_idx(e), dbt_nbb(e), e->tag);
			not_newest++;
		}
		last = e;
		final = e;
		nsq++;
	}
	KUNIT_EXPECT_EQ(test, other, 0U);
	KUNIT_EXPECT_EQ(test, back, 0U);
	KUNIT_EXPECT_EQ(test, not_newest, 0U);
	KUNIT_EXPECT_EQ(test, cq_back, 0U);
	KUNIT_EXPECT_EQ(test, not_rts, 0U);
	KUNIT_EXPECT_GT(test, ncq, 1U);
	KUNIT_EXPECT_NOT_NULL(test, final);
	/* The last doorbell names the last WQE: it ends at the producer. */
	if (final)
		KUNIT_EXPECT_EQ(test, (u16)(dbt_idx(final) + dbt_nbb(final)),
				(u16)q0->sq.pc);
	kunit_info(test, "%u send doorbells for %u batches, %u CQ arms, %u resets\n",
		   nsq, batches, ncq, resets);
	/* One doorbell per batch, and at most one per recovery (resubmit). */
	KUNIT_EXPECT_GE(test, nsq, batches);
	KUNIT_EXPECT_LE(test, nsq, batches + resets);
	if (faults)
		KUNIT_EXPECT_GT(test, resets, 0U);
	else
		KUNIT_EXPECT_EQ(test, resets, 0U);
}

static void dbt_run(struct kunit *test, u32 flags, bool faults)
{
	struct umr_kunit_submitters subs;
	struct umr_kunit_rec_hca *rh;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_queue *q0;
	int posted, failed;

	rh = umr_kunit_rec_hca_create(test, flags, DBT_LOG,
				      UMR_KUNIT_REC_F_DB |
				      UMR_KUNIT_REC_F_DB_YIELD);
	rh->on_db = dbt_note_dbrec;
	if (mlx5_umr_register_hca(&rh->hca)) {
		umr_kunit_rec_hca_destroy(rh);
		KUNIT_FAIL(test, "recording HCA registration failed");
		return;
	}
	dev = rh->hca.umr;
	q0 = mlx5_umr_dev_q0(dev);

	umr_kunit_submitters_init(test, &subs, dev, DBT_THREADS, DBT_ITERS,
				  sizeof(struct dbt_wrs));
	subs.step = dbt_step;
	/* errors injected while the submitters run */
	umr_kunit_submitters_run(test, &subs, "umr_dbt",
				 faults ? dbt_inject : NULL, rh->fake);
	KUNIT_EXPECT_EQ(test, umr_kunit_submitters_errors(&subs), 0);
	posted = umr_kunit_submitters_posted(&subs);
	KUNIT_EXPECT_EQ(test, umr_kunit_submitters_done(&subs, &failed), posted);
	/* only the requests hit by an injected error fail */
	if (faults)
		KUNIT_EXPECT_GT(test, failed, 0);
	else
		KUNIT_EXPECT_EQ(test, failed, 0);
	KUNIT_EXPECT_EQ(test, q0->sq.pc, q0->sq.cc);
	mlx5_umr_sq_flush(dev);

	/* Completions came from the fake's workqueue, never a doorbell. */
	KUNIT_EXPECT_EQ(test, atomic_read(&rh->comp_in_db), 0);
	/* one step is one batch; a failed one posted nothing */
	dbt_check_log(test, rh, dev, faults,
		      DBT_THREADS * DBT_ITERS -
		      umr_kunit_submitters_errors(&subs));

	umr_kunit_submitters_fini(&subs);
	umr_kunit_rec_hca_destroy(rh);
}

/* WQEs run inside write_db, completions from the fake's workqueue. */
static void dbt_order_async(struct kunit *test)
{
	dbt_run(test, 0, false);
}

/* The synchronous fake defers its completion events too. */
static void dbt_order_sync(struct kunit *test)
{
	dbt_run(test, MLX5_UMR_FAKE_F_SYNC, false);
}

/* WQEs run later from the fake's workqueue, doorbells fold into one run. */
static void dbt_order_async_exec(struct kunit *test)
{
	dbt_run(test, MLX5_UMR_FAKE_F_ASYNC_EXEC, false);
}

/* Recovery under load: order holds within each reset, none while in RST. */
static void dbt_order_faults(struct kunit *test)
{
	dbt_run(test, 0, true);
}

static void dbt_order_sync_faults(struct kunit *test)
{
	dbt_run(test, MLX5_UMR_FAKE_F_SYNC, true);
}

static struct kunit_case dbt_cases[] = {
	KUNIT_CASE(dbt_order_async),
	KUNIT_CASE(dbt_order_sync),
	KUNIT_CASE(dbt_order_async_exec),
	KUNIT_CASE(dbt_order_faults),
	KUNIT_CASE(dbt_order_sync_faults),
	{}
};

static struct kunit_suite dbt_suite = {
	.name = "mlx5_umr_doorbell",
	.test_cases = dbt_cases,
};

kunit_test_suite(dbt_suite);

MODULE_DESCRIPTION("KUnit test of the mlx5 UMR doorbell sequence");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
