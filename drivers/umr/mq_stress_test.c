// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the per-mkey ordering guarantee of several UMR queues
 * (Documentation/service.rst, "Queues and ordering") under load, on UML
 * under KASAN, lockdep and kmemleak. The stress and its checker are
 * tests/stress/mq_stress.c, which the test VM also runs where two CPUs
 * really run at once (tests/stress/mq_stress_vm.c): threads hammer one
 * mkey with configure and invalidate, and the post order, the execution
 * order and the done() order must be one. mq_stress_detects_reorder shows
 * the same checker fails when a request of the mkey is sent to another
 * queue (dev->test_route, test builds only).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "umr_kunit.h"	/* KUNIT_CASE_SLOW on 6.1 */
#include "mq_stress.h"

static __printf(2, 3) void mqs_kunit_log(void *ctx, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	kunit_info((struct kunit *)ctx, "%pV", &vaf);
	va_end(args);
}

static int mqs_init(struct kunit *test)
{
	struct mqs *s = mqs_create(mqs_kunit_log, test);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(s), "mqs_create: %d",
			       PTR_ERR_OR_ZERO(s));
	test->priv = s;
	return 0;
}

static void mqs_exit(struct kunit *test)
{
	if (!IS_ERR_OR_NULL(test->priv))
		mqs_destroy(test->priv);
}

/*
 * MQS_THREADS threads post configure and invalidate on one mkey, each
 * with up to MQS_INFLIGHT requests in flight: the HCA runs them in post
 * order, done() comes in post order, every one succeeds, and the mkey
 * ends as the last post left it.
 */
static void mq_one_mkey_stress(struct kunit *test)
{
	struct mqs *s = test->priv;
	unsigned long t0 = jiffies;
	unsigned int bad;

	KUNIT_EXPECT_EQ(test, mqs_run(s, MQS_ITERS, false), 0);
	kunit_info(test, "%u requests on one mkey in %u ms, %u threads bound to %u CPUs",
		   s->npost, jiffies_to_msecs(jiffies - t0), s->nthreads,
		   s->ncpus);
	KUNIT_EXPECT_EQ(test, s->npost, 2 * MQS_THREADS * MQS_ITERS);
	bad = mqs_check(s);
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "MQS_BAD_* 0x%x", bad);
}

/*
 * The checker catches a reorder: the mkey's configure waits on its
 * stalled home queue while its invalidate, sent to another queue by the
 * test route, runs first. Execution, done() and the final state disagree
 * with the post order, and the invalidate fails.
 */
static void mq_stress_detects_reorder(struct kunit *test)
{
	struct mqs *s = test->priv;

	KUNIT_ASSERT_EQ(test, mqs_reorder(s), 0);
	KUNIT_EXPECT_EQ(test, s->npost, 2U);
	KUNIT_EXPECT_EQ(test, mqs_check(s), (unsigned int)MQS_REORDER_BAD);
}

static struct kunit_case mqs_cases[] = {
	KUNIT_CASE_SLOW(mq_one_mkey_stress),
	KUNIT_CASE(mq_stress_detects_reorder),
	{}
};

static struct kunit_suite mqs_suite = {
	.name = "mlx5_umr_mq_stress",
	.init = mqs_init,
	.exit = mqs_exit,
	.test_cases = mqs_cases,
};

kunit_test_suite(mqs_suite);

MODULE_DESCRIPTION("KUnit stress test of the per-mkey order on several UMR queues");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
