// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: KUnit test of the doorbell sequence.
 *
 * A tap HCA forwards every operation to a fake HCA and records each
 * doorbell it passes on, in the order the fake receives them; it also sits
 * between the fake and the service's completion handler. Several threads
 * post at once; the send doorbells must carry strictly increasing WQE
 * indexes, each naming the WQE that ends at the doorbell record (rung in
 * the critical section that published it), one per batch, the last one
 * naming the final WQE; the CQ arms must never move back; no completion
 * handler may run inside a doorbell. With errors injected, recovery resets
 * the QP and the WQE counter: no send doorbell may reach the QP between
 * 2RST_QP and RTR2RTS_QP, and the order starts again after each reset.
 *
 * UML is a uniprocessor kernel without preemption: the window between
 * publishing and ringing only opens when the ringer gives the CPU away.
 * The tap does that before every other doorbell whenever the caller can
 * sleep (task context, interrupts on): a service that rang after dropping
 * its lock fails this test (a WQE 6 doorbell after a WQE 12 one, a record
 * ahead of the doorbell); the service rings under sq->lock with interrupts
 * off, where the tap never yields.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5/doorbell.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_fake.h>

#include "umr.h"

#define DBT_LOG		8192
#define DBT_THREADS	4
#define DBT_ITERS	150
#define DBT_BATCH	3
/* Log entries for QP transitions, not doorbells. */
#define DBT_MARK_RST	0xffff0001U
#define DBT_MARK_RTS	0xffff0002U

struct dbt_ent {
	unsigned int offset;
	__be32 val[2];
	__be32 dbrec;
};

/**
 * struct dbt_tap - the recording HCA
 * @hca: what the service sees
 * @fhca: the fake behind it
 * @lock: @log and @n: a doorbell is recorded and forwarded as one step
 * @log: doorbells and QP transition marks, in the order the fake saw them
 * @n: entries written to @log (or that would have been)
 * @calls: write_db() calls, to yield before every other one
 * @cq: the CQ the fake sees; its events go through dbt_comp()
 * @svc_cq: the service's CQ, whose handler dbt_comp() calls
 * @in_db: the task inside write_db(), NULL outside
 * @comp_in_db: completion events delivered inside write_db()
 */
struct dbt_tap {
	struct mlx5_umr_hca hca;
	struct mlx5_umr_hca *fhca;
	spinlock_t lock; /* @log, @n: record and forward as one step */
	struct dbt_ent *log;
	unsigned int n;
	atomic_t calls;
	struct mlx5_umr_hca_cq cq;
	struct mlx5_umr_hca_cq *svc_cq;
	struct task_struct *in_db;
	atomic_t comp_in_db;
};

static struct mlx5_umr_hca *dbt_fwd(struct mlx5_umr_hca *hca)
{
	return container_of(hca, struct dbt_tap, hca)->fhca;
}

static void dbt_mark(struct dbt_tap *tap, unsigned int mark)
{
	unsigned long flags;

	spin_lock_irqsave(&tap->lock, flags);
	if (tap->n < DBT_LOG)
		tap->log[tap->n].offset = mark;
	tap->n++;
	spin_unlock_irqrestore(&tap->lock, flags);
}

static int dbt_cmd_exec(struct mlx5_umr_hca *hca, const void *in, int inlen,
			void *out, int outlen)
{
	struct dbt_tap *tap = container_of(hca, struct dbt_tap, hca);
	struct mlx5_umr_hca *f = tap->fhca;
	/* every command input starts with the opcode */
	u16 op = MLX5_GET(rst2init_qp_in, in, opcode);
	int err;

	if (op == MLX5_CMD_OP_2RST_QP)
		dbt_mark(tap, DBT_MARK_RST);
	err = f->ops->cmd_exec(f, in, inlen, out, outlen);
	if (op == MLX5_CMD_OP_RTR2RTS_QP && !err)
		dbt_mark(tap, DBT_MARK_RTS);
	return err;
}

/* A completion event on its way from the fake to the service. */
static void dbt_comp(struct mlx5_umr_hca_cq *cq)
{
	struct dbt_tap *tap = container_of(cq, struct dbt_tap, cq);

	if (READ_ONCE(tap->in_db) == current)
		atomic_inc(&tap->comp_in_db);
	tap->svc_cq->comp(tap->svc_cq);
}

static int dbt_create_cq(struct mlx5_umr_hca *hca, struct mlx5_umr_hca_cq *cq,
			 void *in, int inlen)
{
	struct dbt_tap *tap = container_of(hca, struct dbt_tap, hca);
	int err;

	tap->svc_cq = cq;
	tap->cq.comp = dbt_comp;
	err = tap->fhca->ops->create_cq(tap->fhca, &tap->cq, in, inlen);
	cq->cqn = tap->cq.cqn;
	return err;
}

static void dbt_destroy_cq(struct mlx5_umr_hca *hca, struct mlx5_umr_hca_cq *cq)
{
	struct dbt_tap *tap = container_of(hca, struct dbt_tap, hca);

	tap->fhca->ops->destroy_cq(tap->fhca, &tap->cq);
}

static int dbt_alloc_dma_buf(struct mlx5_umr_hca *hca, size_t size,
			     struct mlx5_umr_dma_buf *buf)
{
	struct mlx5_umr_hca *f = dbt_fwd(hca);

	return f->ops->alloc_dma_buf(f, size, buf);
}

static void dbt_free_dma_buf(struct mlx5_umr_hca *hca,
			     struct mlx5_umr_dma_buf *buf)
{
	struct mlx5_umr_hca *f = dbt_fwd(hca);

	f->ops->free_dma_buf(f, buf);
}

static int dbt_map_sg(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		      enum dma_data_direction dir)
{
	return mlx5_umr_hca_map_sg(dbt_fwd(hca), sgt, dir);
}

static void dbt_unmap_sg(struct mlx5_umr_hca *hca, struct sg_table *sgt,
			 enum dma_data_direction dir)
{
	mlx5_umr_hca_unmap_sg(dbt_fwd(hca), sgt, dir);
}

static int dbt_alloc_uar(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar)
{
	struct mlx5_umr_hca *f = dbt_fwd(hca);

	return f->ops->alloc_uar(f, uar);
}

static void dbt_free_uar(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar)
{
	struct mlx5_umr_hca *f = dbt_fwd(hca);

	f->ops->free_uar(f, uar);
}

static void dbt_write_db(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar,
			 unsigned int offset, const __be32 val[2])
{
	struct dbt_tap *tap = container_of(hca, struct dbt_tap, hca);
	struct mlx5_umr_dev *dev = hca->umr;
	unsigned long flags;

	/* Widen the publish-to-ring window when the caller allows it. */
	if ((atomic_inc_return(&tap->calls) & 1) && in_task() &&
	    !irqs_disabled())
		usleep_range(50, 100);

	spin_lock_irqsave(&tap->lock, flags);
	if (tap->n < DBT_LOG) {
		struct dbt_ent *e = &tap->log[tap->n];

		e->offset = offset;
		e->val[0] = val[0];
		e->val[1] = val[1];
		e->dbrec = dev ? ((__be32 *)dev->dbr.cpu)[MLX5_SND_DBR] : 0;
	}
	tap->n++;
	WRITE_ONCE(tap->in_db, current);
	tap->fhca->ops->write_db(tap->fhca, uar, offset, val);
	WRITE_ONCE(tap->in_db, NULL);
	spin_unlock_irqrestore(&tap->lock, flags);
}

static bool dbt_internal_error(struct mlx5_umr_hca *hca)
{
	struct mlx5_umr_hca *f = dbt_fwd(hca);

	return f->ops->internal_error && f->ops->internal_error(f);
}

static const struct mlx5_umr_hca_ops dbt_ops = {
	.cmd_exec = dbt_cmd_exec,
	.create_cq = dbt_create_cq,
	.destroy_cq = dbt_destroy_cq,
	.alloc_dma_buf = dbt_alloc_dma_buf,
	.free_dma_buf = dbt_free_dma_buf,
	.dma_map_sg = dbt_map_sg,
	.dma_unmap_sg = dbt_unmap_sg,
	.alloc_uar = dbt_alloc_uar,
	.free_uar = dbt_free_uar,
	.write_db = dbt_write_db,
	.internal_error = dbt_internal_error,
};

struct dbt_thread {
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_sge sge;
	struct mlx5_umr_wr wr[DBT_ITERS][DBT_BATCH];
	atomic_t *ndone;
	int posted;
	int batches;
	int errors;
	struct completion exited;
};

/* ndone[0]: done() calls, ndone[1]: of them with a non-zero status */

static void dbt_done(struct mlx5_umr_wr *wr)
{
	atomic_t *ndone = wr->context;

	if (wr->status)
		atomic_inc(&ndone[1]);
	atomic_inc(&ndone[0]);
}

static int dbt_thread_fn(void *arg)
{
	struct dbt_thread *t = arg;
	struct mlx5_umr_wr *wrs[DBT_BATCH];
	int it, i, n, err;

	for (it = 0; it < DBT_ITERS; it++) {
		n = 1 + it % DBT_BATCH;
		for (i = 0; i < n; i++) {
			struct mlx5_umr_wr *wr = &t->wr[it][i];

			wr->mkey = t->mk;
			wr->op = MLX5_UMR_OP_CONFIGURE;
			wr->flags = MLX5_UMR_WR_SET_ACCESS;
			wr->access = MLX5_UMR_ACCESS_LOCAL_WRITE;
			wr->layout = MLX5_UMR_LAYOUT_LIST;
			wr->list.sge = &t->sge;
			wr->list.num_sge = 1;
			wr->done = dbt_done;
			wr->context = t->ndone;
			wrs[i] = wr;
		}
		while ((err = mlx5_umr_post(t->dev, wrs, n)) == -EBUSY)
			usleep_range(10, 50);
		if (err) {
			t->errors++;
		} else {
			t->posted += n;
			t->batches++;
		}
	}
	complete(&t->exited);
	return 0;
}

static u16 dbt_idx(const struct dbt_ent *e)
{
	return (be32_to_cpu(e->val[0]) & MLX5_WQE_CTRL_WQE_INDEX_MASK) >>
	       MLX5_WQE_CTRL_WQE_INDEX_SHIFT;
}

static u16 dbt_nbb(const struct dbt_ent *e)
{
	return DIV_ROUND_UP((be32_to_cpu(e->val[1]) & MLX5_WQE_CTRL_DS_MASK) *
			    MLX5_SEND_WQE_DS, MLX5_SEND_WQE_BB);
}

static void dbt_check_log(struct kunit *test, struct dbt_tap *tap,
			  struct mlx5_umr_dev *dev, bool faults,
			  unsigned int batches)
{
	unsigned int i, nsq = 0, ncq = 0, back = 0, not_newest = 0, cq_back = 0;
	unsigned int other = 0, not_rts = 0, resets = 0;
	const struct dbt_ent *last = NULL, *final = NULL;
	bool rts = false;
	u32 ci = 0;

	KUNIT_ASSERT_LE(test, tap->n, (unsigned int)DBT_LOG);
	for (i = 0; i < tap->n; i++) {
		const struct dbt_ent *e = &tap->log[i];

		if (e->offset == MLX5_CQ_DOORBELL) {
			u32 v = be32_to_cpu(e->val[0]) & 0xffffff;

			KUNIT_EXPECT_EQ(test, be32_to_cpu(e->val[1]),
					dev->cq.cqn);
			/* consumer index modulo 2^24 never moves back */
			if (ncq++ && (s32)((v - ci) << 8) < 0)
				cq_back++;
			ci = v;
			continue;
		}
		if (e->offset == DBT_MARK_RST) {
			/* WQE indexes start again at 0 */
			rts = false;
			last = NULL;
			resets++;
			continue;
		}
		if (e->offset == DBT_MARK_RTS) {
			rts = true;
			continue;
		}
		if (e->offset != MLX5_BF_OFFSET) {
			other++;
			continue;
		}
		if (!rts)
			not_rts++;
		KUNIT_EXPECT_EQ(test, be32_to_cpu(e->val[1]) >>
				MLX5_WQE_CTRL_QPN_SHIFT, dev->sq.qpn);
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
		if ((u16)be32_to_cpu(e->dbrec) != (u16)(dbt_idx(e) + dbt_nbb(e))) {
			if (!not_newest)
				kunit_info(test, "doorbell %u: WQE %u+%u, record %u\n",
					   i, dbt_idx(e), dbt_nbb(e),
					   be32_to_cpu(e->dbrec));
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
	KUNIT_ASSERT_NOT_NULL(test, final);
	/* The last doorbell names the last WQE: it ends at the producer. */
	KUNIT_EXPECT_EQ(test, (u16)(dbt_idx(final) + dbt_nbb(final)),
			(u16)dev->sq.pc);
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
	struct mlx5_umr_fake_attr attr;
	struct mlx5_umr_fake *fake;
	struct dbt_thread *t;
	struct mlx5_umr_dev *dev;
	struct dbt_tap *tap;
	atomic_t ndone[2];
	int i, posted = 0, batches = 0, j;

	tap = kunit_kzalloc(test, sizeof(*tap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tap);
	tap->log = kunit_kcalloc(test, DBT_LOG, sizeof(*tap->log), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tap->log);
	spin_lock_init(&tap->lock);
	atomic_set(&ndone[0], 0);
	atomic_set(&ndone[1], 0);

	mlx5_umr_fake_attr_init(&attr);
	attr.flags = flags;
	fake = mlx5_umr_fake_create(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(fake));
	tap->fhca = mlx5_umr_fake_hca(fake);
	tap->hca.ops = &dbt_ops;
	tap->hca.dev = tap->fhca->dev;
	tap->hca.numa_node = tap->fhca->numa_node;
	tap->hca.owner = THIS_MODULE;
	snprintf(tap->hca.name, sizeof(tap->hca.name), "dbtap-%s",
		 tap->fhca->name);
	if (mlx5_umr_register_hca(&tap->hca)) {
		mlx5_umr_fake_destroy(fake);
		KUNIT_FAIL(test, "tap registration failed");
		return;
	}
	dev = tap->hca.umr;

	t = kvcalloc(DBT_THREADS, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < DBT_THREADS; i++) {
		t[i].dev = dev;
		t[i].ndone = ndone;
		/* indirect through the PA mkey: device address 0 */
		t[i].sge.key = mlx5_umr_dev_caps(dev)->dma_lkey;
		t[i].sge.length = 16;
		t[i].mk = mlx5_umr_alloc_mkey(dev, 1, 0);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i].mk));
		init_completion(&t[i].exited);
	}
	for (i = 0; i < DBT_THREADS; i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR(kthread_run(dbt_thread_fn, &t[i],
							    "umr_dbt_%d", i)));
	for (i = 0; i < DBT_THREADS; i++) {
		/* errors injected while the submitters run */
		while (faults && !completion_done(&t[i].exited)) {
			mlx5_umr_fake_inject_wqe_error(fake,
						       MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
						       MLX5_UMR_FAKE_VS_INJECTED);
			usleep_range(1000, 2000);
		}
		wait_for_completion(&t[i].exited);
		KUNIT_EXPECT_EQ(test, t[i].errors, 0);
		posted += t[i].posted;
		batches += t[i].batches;
	}
	for (j = 0; j < 500 && atomic_read(&ndone[0]) < posted; j++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&ndone[0]), posted);
	/* only the requests hit by an injected error fail */
	if (faults)
		KUNIT_EXPECT_GT(test, atomic_read(&ndone[1]), 0);
	else
		KUNIT_EXPECT_EQ(test, atomic_read(&ndone[1]), 0);
	KUNIT_EXPECT_EQ(test, dev->sq.pc, dev->sq.cc);
	mlx5_umr_sq_flush(dev);

	/* Completions came from the fake's workqueue, never a doorbell. */
	KUNIT_EXPECT_EQ(test, atomic_read(&tap->comp_in_db), 0);
	spin_lock_irq(&tap->lock);
	dbt_check_log(test, tap, dev, faults, batches);
	spin_unlock_irq(&tap->lock);

	for (i = 0; i < DBT_THREADS; i++)
		mlx5_umr_free_mkey(t[i].mk);
	kvfree(t);
	mlx5_umr_unregister_hca(&tap->hca);
	mlx5_umr_fake_destroy(fake);
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
