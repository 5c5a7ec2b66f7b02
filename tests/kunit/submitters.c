// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr KUnit helpers: kthreads that submit at once.
 *
 * Each thread runs the suite's step a fixed number of times; the test
 * waits for every thread, optionally doing something meanwhile (injecting
 * errors), then for the completions of what was posted.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/kthread.h>
#include <linux/delay.h>

#include "umr_kunit.h"

/* How long the completions of everything posted may take, in 20 ms. */
#define UMR_KUNIT_SUB_WAIT	500

static int umr_kunit_submitter_fn(void *arg)
{
	struct umr_kunit_submitter *s = arg;
	unsigned int it;

	for (it = 0; it < s->all->iters; it++)
		if (s->all->step(s, it))
			s->errors++;
	complete(&s->exited);
	return 0;
}

/**
 * umr_kunit_submitters_init() - threads not yet started
 * @test: the test (asserts the allocations)
 * @subs: the harness; set @subs->step (and @subs->ctx) before running
 * @dev: the service's device: each thread gets a one-entry KLM mkey and
 *	an SGE of 16 bytes through the PA mkey; NULL for neither
 * @nthreads: threads
 * @iters: steps per thread
 * @priv_size: zeroed bytes of each thread's @priv (0 for none)
 *
 * Free with umr_kunit_submitters_fini().
 */
void umr_kunit_submitters_init(struct kunit *test,
			       struct umr_kunit_submitters *subs,
			       struct mlx5_umr_dev *dev, unsigned int nthreads,
			       unsigned int iters, size_t priv_size)
{
	struct umr_kunit_submitter *s;
	unsigned int i;

	memset(subs, 0, sizeof(*subs));
	subs->t = kvcalloc(nthreads, sizeof(*subs->t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, subs->t);
	subs->nthreads = nthreads;
	subs->iters = iters;
	for (i = 0; i < nthreads; i++) {
		s = &subs->t[i];
		s->all = subs;
		s->id = i;
		s->dev = dev;
		init_completion(&s->exited);
		if (priv_size) {
			s->priv = kvzalloc(priv_size, GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, s->priv);
		}
		if (!dev)
			continue;
		/* indirect through the PA mkey: device address 0 */
		s->sge.key = mlx5_umr_dev_caps(dev)->dma_lkey;
		s->sge.length = 16;
		s->mk = mlx5_umr_alloc_mkey(dev, 1, 0);
		if (IS_ERR(s->mk)) {
			s->mk = NULL;
			KUNIT_FAIL_AND_ABORT(test, "submitter %u: no mkey", i);
		}
	}
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_submitters_init, MLX5_UMR_KUNIT);

/**
 * umr_kunit_submitters_fini() - free the mkeys and private areas
 * @subs: the harness, its threads exited (or never started)
 */
void umr_kunit_submitters_fini(struct umr_kunit_submitters *subs)
{
	unsigned int i;

	if (!subs->t)
		return;
	for (i = 0; i < subs->nthreads; i++) {
		if (subs->t[i].mk)
			mlx5_umr_free_mkey(subs->t[i].mk);
		kvfree(subs->t[i].priv);
	}
	kvfree(subs->t);
	subs->t = NULL;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_submitters_fini, MLX5_UMR_KUNIT);

/**
 * umr_kunit_submitters_posted() - requests the threads posted
 * @subs: the harness
 *
 * Return: the sum of their @posted.
 */
int umr_kunit_submitters_posted(const struct umr_kunit_submitters *subs)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < subs->nthreads; i++)
		n += subs->t[i].posted;
	return n;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_submitters_posted, MLX5_UMR_KUNIT);

/**
 * umr_kunit_submitters_errors() - steps that failed
 * @subs: the harness
 *
 * Return: the sum of the threads' @errors.
 */
int umr_kunit_submitters_errors(const struct umr_kunit_submitters *subs)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < subs->nthreads; i++)
		n += subs->t[i].errors;
	return n;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_submitters_errors, MLX5_UMR_KUNIT);

/**
 * umr_kunit_submitters_done() - completions counted so far
 * @subs: the harness
 * @failed: set to those with a non-zero status, or NULL
 *
 * Return: the sum of the threads' @ndone.
 */
int umr_kunit_submitters_done(const struct umr_kunit_submitters *subs,
			      int *failed)
{
	unsigned int i;
	int n = 0, f = 0;

	for (i = 0; i < subs->nthreads; i++) {
		n += atomic_read(&subs->t[i].ndone);
		f += atomic_read(&subs->t[i].nfailed);
	}
	if (failed)
		*failed = f;
	return n;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_submitters_done, MLX5_UMR_KUNIT);

/**
 * umr_kunit_submitters_run() - run every thread to its end
 * @test: the test
 * @subs: the harness, from umr_kunit_submitters_init(), @step set
 * @name: the threads' name prefix
 * @meanwhile: called every 1-2 ms until all threads exited, or NULL
 * @arg: its argument
 *
 * Then waits up to 10 s for @ndone to reach @posted (summed). Failures
 * are expectations, never assertions: no thread may outlive the test.
 */
void umr_kunit_submitters_run(struct kunit *test,
			      struct umr_kunit_submitters *subs,
			      const char *name,
			      void (*meanwhile)(void *arg), void *arg)
{
	struct task_struct *task;
	unsigned int i, j;
	int posted;

	for (i = 0; i < subs->nthreads; i++) {
		task = kthread_run(umr_kunit_submitter_fn, &subs->t[i],
				   "%s_%u", name, i);
		if (IS_ERR(task)) {
			KUNIT_FAIL(test, "%s_%u: %ld", name, i, PTR_ERR(task));
			complete(&subs->t[i].exited);
		}
	}
	for (i = 0; i < subs->nthreads; i++) {
		while (meanwhile && !completion_done(&subs->t[i].exited)) {
			meanwhile(arg);
			usleep_range(1000, 2000);
		}
		wait_for_completion(&subs->t[i].exited);
	}
	posted = umr_kunit_submitters_posted(subs);
	for (j = 0; j < UMR_KUNIT_SUB_WAIT &&
	     umr_kunit_submitters_done(subs, NULL) < posted; j++)
		msleep(20);
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_submitters_run, MLX5_UMR_KUNIT);

/**
 * umr_kunit_submitter_done() - done() of umr_kunit_submitter_wr()
 * @wr: a request whose @context is its submitter
 *
 * Counts the call in @ndone and a non-zero status in @nfailed.
 */
void umr_kunit_submitter_done(struct mlx5_umr_wr *wr)
{
	struct umr_kunit_submitter *s = wr->context;

	if (wr->status)
		atomic_inc(&s->nfailed);
	atomic_inc(&s->ndone);
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_submitter_done, MLX5_UMR_KUNIT);

/**
 * umr_kunit_submitter_wr() - a configure of @s's mkey to its SGE
 * @s: the submitter (initialised with a device)
 * @wr: filled: list layout, local write, done umr_kunit_submitter_done()
 */
void umr_kunit_submitter_wr(struct umr_kunit_submitter *s,
			    struct mlx5_umr_wr *wr)
{
	memset(wr, 0, sizeof(*wr));
	wr->mkey = s->mk;
	wr->op = MLX5_UMR_OP_CONFIGURE;
	wr->flags = MLX5_UMR_WR_SET_ACCESS;
	wr->access = MLX5_UMR_ACCESS_LOCAL_WRITE;
	wr->layout = MLX5_UMR_LAYOUT_LIST;
	wr->list.sge = &s->sge;
	wr->list.num_sge = 1;
	wr->done = umr_kunit_submitter_done;
	wr->context = s;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_submitter_wr, MLX5_UMR_KUNIT);

/**
 * umr_kunit_submit() - mlx5_umr_post(), again while the ring is full
 * @s: the submitter; @posted counts what was accepted
 * @wrs: the requests
 * @n: how many
 *
 * Return: 0 or mlx5_umr_post()'s -errno but back-pressure (mlx5_umr_post_busy()).
 */
int umr_kunit_submit(struct umr_kunit_submitter *s, struct mlx5_umr_wr **wrs,
		     unsigned int n)
{
	int err;

	while (mlx5_umr_post_busy(err = mlx5_umr_post(s->dev, wrs, n)))
		usleep_range(10, 50);
	if (!err)
		s->posted += n;
	return err;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_submit, MLX5_UMR_KUNIT);
