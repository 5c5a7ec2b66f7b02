// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: several UMR queues on one device (dev.c, queue_map.c): each its
 * own QP and CQ on the HCA, in RTS, reported in the caps, every CPU mapped
 * to one of them.
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
};

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
	return 0;
}

static void mq_exit(struct kunit *test)
{
	struct mq_ctx *c = test->priv;

	if (c && c->fake)
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

static struct kunit_case mq_cases[] = {
	KUNIT_CASE(mq_bringup),
	KUNIT_CASE(mq_default_count),
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
