// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: several UMR queues on one device (dev.c, queue_map.c): each its
 * own QP and CQ on the HCA, in RTS, reported in the caps, every CPU mapped
 * to one of them; every request of an mkey on its home queue (sq_post.c),
 * a batch on one queue only, and an error or a stall of one queue leaving
 * the others running.
 *
 * UML has one CPU, so a test homes an mkey on queue k by mapping every
 * CPU to k while it allocates (mq_alloc_on()), as a CPU mapped to k would.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "svc_kunit.h"
#include "queue_map.h"

#define MQ_QUEUES	3

struct mq_ctx {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct svc_mr mr;
};

/* An indirect mkey homed on queue @qid: allocated as a CPU of @qid would. */
static struct mlx5_umr_mkey *mq_alloc_on(struct kunit *test,
					 struct mlx5_umr_dev *dev, u16 qid,
					 u32 flags)
{
	u16 *saved = kunit_kcalloc(test, nr_cpu_ids, sizeof(*saved),
				   GFP_KERNEL);
	struct mlx5_umr_mkey *mkey;
	unsigned int cpu;

	KUNIT_ASSERT_NOT_NULL(test, saved);
	for_each_possible_cpu(cpu) {
		saved[cpu] = dev->cpu_q[cpu];
		dev->cpu_q[cpu] = qid;
	}
	mkey = mlx5_umr_alloc_mkey(dev, 4, flags);
	for_each_possible_cpu(cpu)
		dev->cpu_q[cpu] = saved[cpu];
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(mkey));
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_mkey_queue(mkey), dev->queues[qid]);
	return mkey;
}

/* The fake's consumer counter of each queue's QP. */
static void mq_sq_ci(struct kunit *test, struct mq_ctx *c, u16 *ci)
{
	u16 i;

	for (i = 0; i < MQ_QUEUES; i++)
		KUNIT_ASSERT_EQ(test,
				mlx5_umr_fake_qp_state(c->fake,
						       c->dev->queues[i]->sq.qpn,
						       &ci[i]),
				MLX5_QP_STATE_RTS);
}

static int mq_init(struct kunit *test)
{
	struct mlx5_umr_fake_attr attr;
	struct mq_ctx *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	test->priv = c;
	umr_kunit_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_SYNC;
	attr.nqueues = MQ_QUEUES;
	c->fake = umr_kunit_fake_registered_attr(test, &attr);
	c->dev = umr_kunit_fake_umr(c->fake);
	svc_mr_reg(test, c->dev, &c->mr, 1);
	return 0;
}

static void mq_exit(struct kunit *test)
{
	struct mq_ctx *c = test->priv;

	if (!c || !c->fake)
		return;
	svc_mr_unreg(c->dev, &c->mr);
	mlx5_umr_fake_destroy(c->fake);
}

/* Three queues, each a QP and a CQ of its own, every QP in RTS. */
static void mq_bringup(struct kunit *test)
{
	struct mq_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->dev;
	struct mlx5_umr_fake_counters cnt;
	unsigned int cpu;
	u16 i, j;

	KUNIT_ASSERT_EQ(test, dev->nqueues, MQ_QUEUES);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dev_caps(dev)->nqueues, MQ_QUEUES);
	mlx5_umr_fake_get_counters(c->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.qps, MQ_QUEUES);
	KUNIT_EXPECT_EQ(test, cnt.cqs, MQ_QUEUES);
	for (i = 0; i < MQ_QUEUES; i++) {
		struct mlx5_umr_queue *q = dev->queues[i];

		KUNIT_EXPECT_EQ(test, q->id, i);
		KUNIT_EXPECT_PTR_EQ(test, q->dev, dev);
		KUNIT_EXPECT_EQ(test, q->sq.state, MLX5_UMR_SQ_RTS);
		KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->fake, q->sq.qpn,
							     NULL),
				MLX5_QP_STATE_RTS);
		KUNIT_EXPECT_EQ(test, q->wq_ctx.qpn, q->sq.qpn);
		KUNIT_EXPECT_EQ(test, q->cq.vector, (int)i);
		for (j = 0; j < i; j++) {
			KUNIT_EXPECT_NE(test, q->sq.qpn, dev->queues[j]->sq.qpn);
			KUNIT_EXPECT_NE(test, q->cq.cqn, dev->queues[j]->cq.cqn);
			KUNIT_EXPECT_PTR_NE(test, q->sq_buf.cpu,
					    dev->queues[j]->sq_buf.cpu);
		}
	}
	/* every CPU on a queue; a queue's CPU is mapped to it */
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_LT(test, dev->cpu_q[cpu], MQ_QUEUES);
	for (i = 0; i < MQ_QUEUES; i++)
		if (dev->queues[i]->cpu >= 0)
			KUNIT_EXPECT_EQ(test,
					dev->cpu_q[dev->queues[i]->cpu], i);
	KUNIT_EXPECT_EQ(test, dev->queues[0]->cpu,
			(int)cpumask_first(cpu_possible_mask));
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_cpu_queue(dev),
			    dev->queues[dev->cpu_q[raw_smp_processor_id()]]);
}

/*
 * A HCA that does not ask (nqueues 0) gets the module parameter's count:
 * one per possible CPU, at most MLX5_UMR_MAX_QUEUES (the test bed loads
 * the module without "queues").
 */
static void mq_default_count(struct kunit *test)
{
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_fake_counters cnt;
	u16 want = min_t(unsigned int, num_possible_cpus(),
			 MLX5_UMR_MAX_QUEUES);

	fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
	dev = umr_kunit_fake_umr(fake);
	KUNIT_EXPECT_EQ(test, dev->nqueues, want);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dev_caps(dev)->nqueues, want);
	mlx5_umr_fake_get_counters(fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.qps, want);
	mlx5_umr_fake_destroy(fake);
}

/*
 * An mkey's requests run on its home queue: the WQE is read by that
 * queue's QP only, and the layout it wrote is the one the data path sees.
 */
static void mq_home(struct kunit *test)
{
	struct mq_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->dev;
	struct mlx5_umr_mkey *mk[MQ_QUEUES], *here;
	u16 before[MQ_QUEUES], after[MQ_QUEUES];
	struct mlx5_umr_sge sge;
	struct mlx5_umr_wr wr;
	u16 k, i;

	/* without the test's mapping: the queue of the CPU it ran on */
	here = mlx5_umr_alloc_mkey(dev, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(here));
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_mkey_queue(here),
			    dev->queues[dev->cpu_q[raw_smp_processor_id()]]);
	mlx5_umr_free_mkey(here);

	for (k = 0; k < MQ_QUEUES; k++)
		mk[k] = mq_alloc_on(test, dev, k, 0);
	for (k = 0; k < MQ_QUEUES; k++) {
		struct svc_seg seg = { &c->mr, 64 * (k + 1), 64 };

		sge = (struct mlx5_umr_sge){ MR_IOVA + seg.off, seg.len,
					     c->mr.mkey->key };
		svc_wr_list(&wr, mk[k], &sge, 1, ACC_ALL);
		mq_sq_ci(test, c, before);
		KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
		mq_sq_ci(test, c, after);
		for (i = 0; i < MQ_QUEUES; i++) {
			if (i != k) {
				KUNIT_EXPECT_EQ(test, after[i], before[i]);
				continue;
			}
			KUNIT_EXPECT_NE(test, after[i], before[i]);
			KUNIT_EXPECT_EQ(test, after[i],
					(u16)dev->queues[i]->sq.pc);
		}
		svc_check_layout(test, dev, mk[k]->key, &seg, 1);
	}
	for (k = 0; k < MQ_QUEUES; k++)
		mlx5_umr_free_mkey(mk[k]);
}

/*
 * A batch naming mkeys of two queues is refused whole with -EXDEV:
 * nothing reaches the HCA, no done(), the attributes given back; the same
 * requests as two batches run.
 */
static void mq_exdev(struct kunit *test)
{
	struct mq_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->dev;
	struct mlx5_umr_sge sge = { MR_IOVA, 512, c->mr.mkey->key };
	struct mlx5_umr_sig_attr attr = {
		.mem = { .sig_type = MLX5_UMR_SIG_T10DIF,
			 .dif = { .bg = 0xffff, .ref_tag = 7 },
			 .block_size = MLX5_UMR_SIG_BLOCK_512 },
		.check_mask = 0xff,
	};
	struct mlx5_umr_fake_counters was, now;
	struct svc_req req[2] = {};
	struct mlx5_umr_wr *wrs[2] = { &req[0].wr, &req[1].wr };
	struct mlx5_umr_mkey *sig, *plain;
	u32 pc0, pc1;

	attr.wire = attr.mem;
	sig = mq_alloc_on(test, dev, 0, MLX5_UMR_MKEY_SIGNATURE);
	plain = mq_alloc_on(test, dev, 1, 0);
	svc_wr_list(&req[0].wr, sig, &sge, 1, ACC_ALL);
	req[0].wr.flags |= MLX5_UMR_WR_SET_SIG;
	req[0].wr.sig = &attr;
	req[0].wr.done = svc_req_done;
	svc_wr_list(&req[1].wr, plain, &sge, 1, ACC_ALL);
	req[1].wr.done = svc_req_done;

	mlx5_umr_fake_get_counters(c->fake, &was);
	pc0 = dev->queues[0]->sq.pc;
	pc1 = dev->queues[1]->sq.pc;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(dev, wrs, 2), -EXDEV);
	mlx5_umr_sq_flush(dev);
	mlx5_umr_fake_get_counters(c->fake, &now);
	KUNIT_EXPECT_EQ(test, now.send_doorbells, was.send_doorbells);
	KUNIT_EXPECT_EQ(test, now.wqes, was.wqes);
	KUNIT_EXPECT_EQ(test, dev->queues[0]->sq.pc, pc0);
	KUNIT_EXPECT_EQ(test, dev->queues[1]->sq.pc, pc1);
	KUNIT_EXPECT_EQ(test, req[0].calls, 0);
	KUNIT_EXPECT_EQ(test, req[1].calls, 0);
	KUNIT_EXPECT_PTR_EQ(test, req[0].wr.sig, &attr);
	KUNIT_EXPECT_NULL(test, req[1].wr.sig);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &req[0].wr, 0), 0);
	KUNIT_EXPECT_PTR_EQ(test, req[0].wr.sig, &attr);

	/* one at a time, each on its own queue */
	req[0].wr.done = svc_req_done;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(dev, wrs, 1), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(dev, wrs + 1, 1), 0);
	mlx5_umr_sq_flush(dev);
	KUNIT_EXPECT_EQ(test, req[0].calls, 1);
	KUNIT_EXPECT_EQ(test, req[1].calls, 1);
	KUNIT_EXPECT_EQ(test, req[0].wr.status, 0);
	KUNIT_EXPECT_EQ(test, req[1].wr.status, 0);
	KUNIT_EXPECT_NE(test, dev->queues[0]->sq.pc, pc0);
	KUNIT_EXPECT_NE(test, dev->queues[1]->sq.pc, pc1);
	mlx5_umr_free_mkey(plain);
	mlx5_umr_free_mkey(sig);
}

/* Poll one queue's CQ from its work item, as its completion event would. */
static void mq_poll(struct mlx5_umr_queue *q)
{
	queue_work(system_highpri_wq, &q->poll_work);
	flush_work(&q->poll_work);
}

/*
 * An error CQE on queue A: A goes to recovery (held here on its lock) and
 * refuses posts meanwhile; an mkey homed on B runs as usual. Once A
 * recovered its request has its error and A takes work again.
 */
static void mq_error_isolated(struct kunit *test)
{
	struct mq_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->dev;
	struct mlx5_umr_queue *a = dev->queues[1], *b = dev->queues[2];
	struct mlx5_umr_sge sge = { MR_IOVA, 256, c->mr.mkey->key };
	struct mlx5_umr_mkey *ka = mq_alloc_on(test, dev, 1, 0);
	struct mlx5_umr_mkey *kb = mq_alloc_on(test, dev, 2, 0);
	struct svc_req ra = {}, again = {};
	struct mlx5_umr_wr *wra = &ra.wr, *wrag = &again.wr;
	struct mlx5_umr_wr wr;
	int err;

	svc_wr_list(&ra.wr, ka, &sge, 1, ACC_ALL);
	ra.wr.done = svc_req_done;
	err = mlx5_umr_fake_inject_wqe_error_qp(c->fake, a->sq.qpn,
						MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
						0);
	KUNIT_ASSERT_EQ(test, err, 0);
	mutex_lock(&a->recover_lock);
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(dev, &wra, 1), 0);
	mq_poll(a);
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->sq.state), MLX5_UMR_SQ_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->fake, a->sq.qpn, NULL),
			MLX5_QP_STATE_ERR);
	/* A refuses new work until it recovered ... */
	svc_wr_list(&again.wr, ka, &sge, 1, ACC_ALL);
	again.wr.done = svc_req_done;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(dev, &wrag, 1), -EAGAIN);
	/* ... B does not wait for it */
	svc_wr_list(&wr, kb, &sge, 1, ACC_ALL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->sq.state), MLX5_UMR_SQ_RTS);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->fake, b->sq.qpn, NULL),
			MLX5_QP_STATE_RTS);
	svc_check_layout(test, dev, kb->key,
			 &(struct svc_seg){ &c->mr, 0, 256 }, 1);
	mutex_unlock(&a->recover_lock);

	mlx5_umr_sq_flush(dev);
	KUNIT_EXPECT_EQ(test, ra.calls, 1);
	KUNIT_EXPECT_EQ(test, ra.wr.status, -EIO);
	KUNIT_EXPECT_EQ(test, ra.wr.syndrome, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	KUNIT_EXPECT_EQ(test, again.calls, 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->sq.state), MLX5_UMR_SQ_RTS);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &again.wr, 0), 0);
	mlx5_umr_free_mkey(kb);
	mlx5_umr_free_mkey(ka);
}

/* A stalled queue holds its own requests only. */
static void mq_stall_isolated(struct kunit *test)
{
	struct mq_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->dev;
	struct mlx5_umr_queue *a = dev->queues[0];
	struct mlx5_umr_sge sge = { MR_IOVA, 128, c->mr.mkey->key };
	struct mlx5_umr_mkey *ka = mq_alloc_on(test, dev, 0, 0);
	struct mlx5_umr_mkey *kb = mq_alloc_on(test, dev, 2, 0);
	struct svc_req ra = {};
	struct mlx5_umr_wr *wra = &ra.wr;
	struct mlx5_umr_wr wr;

	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_stall_qp(c->fake, a->sq.qpn, true),
			0);
	svc_wr_list(&ra.wr, ka, &sge, 1, ACC_ALL);
	ra.wr.done = svc_req_done;
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(dev, &wra, 1), 0);
	svc_wr_list(&wr, kb, &sge, 1, ACC_ALL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	mq_poll(a);
	KUNIT_EXPECT_EQ(test, ra.calls, 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_stall_qp(c->fake, a->sq.qpn, false),
			0);
	mlx5_umr_sq_flush(dev);
	KUNIT_EXPECT_EQ(test, ra.calls, 1);
	KUNIT_EXPECT_EQ(test, ra.wr.status, 0);
	svc_check_layout(test, dev, ka->key,
			 &(struct svc_seg){ &c->mr, 0, 128 }, 1);
	mlx5_umr_free_mkey(kb);
	mlx5_umr_free_mkey(ka);
}

static struct kunit_case mq_cases[] = {
	KUNIT_CASE(mq_bringup),
	KUNIT_CASE(mq_default_count),
	KUNIT_CASE(mq_home),
	KUNIT_CASE(mq_exdev),
	KUNIT_CASE(mq_error_isolated),
	KUNIT_CASE(mq_stall_isolated),
	{}
};

static struct kunit_suite mq_suite = {
	.name = "mlx5_umr_svc_mq",
	.init = mq_init,
	.exit = mq_exit,
	.test_cases = mq_cases,
};

kunit_test_suite(mq_suite);

MODULE_DESCRIPTION("KUnit tests of several UMR queues per device");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
