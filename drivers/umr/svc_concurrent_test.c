// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: concurrent submitters on an asynchronous fake (sq_post.c,
 * sq_comp.c, sq_recover.c): every request completes exactly once, with
 * and without errors injected while they run.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "svc_kunit.h"

/* Concurrent submitters on an asynchronous fake. */
#define SVC_THREADS	4
#define SVC_ITERS	300
#define SVC_BATCH	4

/* A submitter's requests, each checked for exactly one completion. */
struct svc_thread {
	struct svc_req req[SVC_ITERS][SVC_BATCH];
};

static unsigned int svc_step_reqs(unsigned int it)
{
	return it % 3 == 0 ? 1 : SVC_BATCH;
}

/* With injected faults a request may fail itself; flushed ones go again. */
static bool svc_status_ok(const struct umr_kunit_submitter *s, int status)
{
	const bool *faults = s->all->ctx;

	if (!status)
		return true;
	return *faults && status == -EIO;
}

/* Every third step one synchronous request, else a batch of SVC_BATCH. */
static int svc_step(struct umr_kunit_submitter *s, unsigned int it)
{
	struct svc_req *req = ((struct svc_thread *)s->priv)->req[it];
	struct mlx5_umr_wr *wrs[SVC_BATCH];
	unsigned int i, n = svc_step_reqs(it);
	int err;

	for (i = 0; i < n; i++) {
		svc_wr_list(&req[i].wr, s->mk, &s->sge, 1, ACC_ALL);
		req[i].wr.done = svc_req_done;
		req[i].ndone = &s->ndone;
		wrs[i] = &req[i].wr;
	}
	if (n == 1) {
		req[0].ndone = NULL;
		err = mlx5_umr_exec(s->dev, wrs[0], 0);
		if (!svc_status_ok(s, err) || req[0].calls)
			return -EPROTO;
		req[0].calls = 1;
		return 0;
	}
	return umr_kunit_submit(s, wrs, n);
}

static void svc_inject_fault(void *fake)
{
	mlx5_umr_fake_inject_wqe_error(fake, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       MLX5_UMR_FAKE_VS_INJECTED);
}

static void svc_concurrent_run(struct kunit *test, bool faults)
{
	struct mlx5_umr_fake *fake = umr_kunit_fake_registered(test, 0);
	struct mlx5_umr_dev *dev = umr_kunit_fake_umr(fake);
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(dev);
	struct umr_kunit_submitters subs;
	struct mlx5_umr_fake_counters cnt;
	unsigned int i, it, j;
	int bad = 0;

	umr_kunit_submitters_init(test, &subs, dev, SVC_THREADS, SVC_ITERS,
				  sizeof(struct svc_thread));
	subs.step = svc_step;
	subs.ctx = &faults;
	/* errors injected while the submitters run */
	umr_kunit_submitters_run(test, &subs, "umr_svc",
				 faults ? svc_inject_fault : NULL, fake);
	for (i = 0; i < SVC_THREADS; i++) {
		struct umr_kunit_submitter *s = &subs.t[i];
		struct svc_thread *t = s->priv;

		KUNIT_EXPECT_EQ(test, s->errors, 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&s->ndone), s->posted);
		for (it = 0; it < SVC_ITERS; it++)
			for (j = 0; j < svc_step_reqs(it); j++)
				if (t->req[it][j].calls != 1 ||
				    !svc_status_ok(s, t->req[it][j].wr.status))
					bad++;
	}
	umr_kunit_submitters_fini(&subs);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, q0->sq.pc, q0->sq.cc);
	mlx5_umr_fake_get_counters(fake, &cnt);
	if (faults)
		KUNIT_EXPECT_GT(test, cnt.err_cqes, 0ULL);
	else
		KUNIT_EXPECT_EQ(test, cnt.err_cqes, 0ULL);
	mlx5_umr_fake_destroy(fake);
}

static void svc_concurrent(struct kunit *test)
{
	svc_concurrent_run(test, false);
}

/* The same while errors are injected: recovery under load loses nothing. */
static void svc_concurrent_faults(struct kunit *test)
{
	svc_concurrent_run(test, true);
}

static struct kunit_case svc_concurrent_cases[] = {
	KUNIT_CASE_SLOW(svc_concurrent),
	KUNIT_CASE_SLOW(svc_concurrent_faults),
	{}
};

static struct kunit_suite svc_concurrent_suite = {
	.name = "mlx5_umr_svc_concurrent",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = svc_concurrent_cases,
};

kunit_test_suite(svc_concurrent_suite);

MODULE_DESCRIPTION("KUnit tests of concurrent submitters on the service");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
