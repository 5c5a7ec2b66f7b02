// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr sample ULP: KUnit test through the fake HCA's data path.
 *
 * A remote peer reads (or writes) an I/O's scattered pages through the
 * rkey the sample hands out; after the I/O completes the rkey is dead.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_fake.h>
#include <linux/mlx5_umr_testing.h>
#include <rdma/ib_verbs.h>

#include "mlx5_umr_sample.h"
#include "umr_kunit.h"

#define NSEG 5

/* Offsets and lengths of the I/O's pieces, one page each. */
static const u32 seg_off[NSEG] = { 100, 0, 0, 2048, 7 };
static const u32 seg_len[NSEG] = { 1000, PAGE_SIZE, 17, 2048, 333 };

struct sample_ctx {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct page *pages[NSEG];
	struct sg_table sgt;
	u32 total;
};

static int sample_test_init(struct kunit *test)
{
	struct sample_ctx *c;
	struct scatterlist *sg;
	unsigned int i;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	test->priv = c;
	c->fake = umr_kunit_fake_registered(test, 0);
	c->dev = umr_kunit_fake_umr(c->fake);
	if (sg_alloc_table(&c->sgt, NSEG, GFP_KERNEL))
		return -ENOMEM;
	for_each_sg(c->sgt.sgl, sg, NSEG, i) {
		c->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!c->pages[i])
			return -ENOMEM;
		sg_set_page(sg, c->pages[i], seg_len[i], seg_off[i]);
		c->total += seg_len[i];
	}
	return 0;
}

static void sample_test_exit(struct kunit *test)
{
	struct sample_ctx *c = test->priv;
	unsigned int i;

	if (!c)
		return;
	if (!IS_ERR_OR_NULL(c->fake))
		mlx5_umr_fake_destroy(c->fake);
	for (i = 0; i < NSEG; i++)
		if (c->pages[i])
			__free_page(c->pages[i]);
	sg_free_table(&c->sgt);
}

static u8 *seg_byte(struct sample_ctx *c, u32 pos)
{
	unsigned int i;

	for (i = 0; i < NSEG; i++) {
		if (pos < seg_len[i])
			return (u8 *)page_address(c->pages[i]) + seg_off[i] +
			       pos;
		pos -= seg_len[i];
	}
	return NULL;
}

struct sample_wait {
	struct completion done;
	int status;
};

static void sample_test_done(struct mlx5_umr_sample_io *io, int status)
{
	struct sample_wait *w = io->context;

	w->status = status;
	complete(&w->done);
}

static void sample_unmap_wait(struct kunit *test,
			      struct mlx5_umr_sample_io *io)
{
	struct sample_wait w;

	init_completion(&w.done);
	KUNIT_ASSERT_EQ(test, mlx5_umr_sample_unmap(io, sample_test_done, &w),
			0);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&w.done, 5 * HZ));
	KUNIT_EXPECT_EQ(test, w.status, 0);
}

/* The peer RDMA-READs the I/O's data (e.g. an NVMe-oF read's payload). */
static void sample_read_io(struct kunit *test)
{
	struct sample_ctx *c = test->priv;
	struct mlx5_umr_sample_io *io;
	unsigned int round, reused = 0;
	u32 rkeys[40];
	u8 *buf;
	u32 i;

	buf = kunit_kmalloc(test, c->total + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* More rounds than the pool has mkeys: slots are reused. */
	for (round = 0; round < ARRAY_SIZE(rkeys); round++) {
		for (i = 0; i < c->total; i++)
			*seg_byte(c, i) = (u8)(i * 13 + round);
		io = mlx5_umr_sample_map(c->dev, &c->sgt, c->total,
					 DMA_TO_DEVICE);
		KUNIT_ASSERT_FALSE(test, IS_ERR(io));
		rkeys[round] = io->rkey;
		/*
		 * A fresh rkey per I/O: the last I/O's rkey of this mkey is
		 * dead (a byte may come back after two rotations, not one).
		 */
		for (i = round; i-- > 0;) {
			if (rkeys[i] >> 8 != io->rkey >> 8)
				continue;
			reused++;
			KUNIT_EXPECT_NE(test, rkeys[i], io->rkey);
			KUNIT_EXPECT_EQ(test,
					mlx5_umr_test_xfer(c->dev, rkeys[i], 0,
							   buf, 1, false, true),
					MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
			break;
		}
		memset(buf, 0, c->total);
		KUNIT_ASSERT_EQ(test, mlx5_umr_test_xfer(c->dev, io->rkey, 0, buf,
							 c->total, false, true),
				0);
		for (i = 0; i < c->total; i++)
			if (buf[i] != (u8)(i * 13 + round))
				break;
		KUNIT_EXPECT_EQ(test, i, c->total);
		/* read-only for the peer, and no byte beyond the I/O */
		KUNIT_EXPECT_EQ(test, mlx5_umr_test_xfer(c->dev, io->rkey, 0, buf,
							 1, true, true),
				MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
		KUNIT_EXPECT_GT(test, mlx5_umr_test_xfer(c->dev, io->rkey, 0, buf,
							 c->total + 1, false,
							 true), 0);
		sample_unmap_wait(test, io);
		KUNIT_EXPECT_GT(test, mlx5_umr_test_xfer(c->dev, io->rkey, 0, buf,
							 1, false, true), 0);
	}
	/* the rounds did reuse mkeys, so the check above ran */
	KUNIT_EXPECT_GT(test, reused, 0U);
}

/* The peer RDMA-WRITEs part of the I/O (e.g. an NVMe-oF write's data). */
static void sample_write_io(struct kunit *test)
{
	struct sample_ctx *c = test->priv;
	struct mlx5_umr_sample_io *io;
	u32 len = c->total - 300, i;
	u8 *buf;

	buf = kunit_kmalloc(test, c->total, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < c->total; i++)
		buf[i] = (u8)(i ^ 0x5a);
	io = mlx5_umr_sample_map(c->dev, &c->sgt, len, DMA_FROM_DEVICE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(io));
	KUNIT_ASSERT_EQ(test, mlx5_umr_test_xfer(c->dev, io->rkey, 0, buf, len,
						 true, true), 0);
	KUNIT_EXPECT_GT(test, mlx5_umr_test_xfer(c->dev, io->rkey, len, buf, 1,
						 true, true), 0);
	sample_unmap_wait(test, io);
	for (i = 0; i < len; i++)
		if (*seg_byte(c, i) != (u8)(i ^ 0x5a))
			break;
	KUNIT_EXPECT_EQ(test, i, len);
	/* beyond the I/O's length the pages are untouched */
	for (; i < c->total; i++)
		if (*seg_byte(c, i))
			break;
	KUNIT_EXPECT_EQ(test, i, c->total);
}

/*
 * The invalidation fails on the HCA (it did not run): the pages are
 * unmapped only after the mkey is made free by a retry, so the rkey never
 * outlives the mapping, and the slot returns to the pool.
 */
static void sample_failed_invalidate(struct kunit *test)
{
	struct sample_ctx *c = test->priv;
	struct mlx5_umr_sample_io *io;
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	struct sample_wait w;
	unsigned int round;
	u8 buf[16];

	/* More rounds than the pool has mkeys: no slot is lost. */
	for (round = 0; round < 20; round++) {
		io = mlx5_umr_sample_map(c->dev, &c->sgt, c->total,
					 DMA_TO_DEVICE);
		KUNIT_ASSERT_FALSE(test, IS_ERR(io));
		mlx5_umr_fake_inject_wqe_error(c->fake,
					       MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
					       MLX5_UMR_FAKE_VS_INJECTED);
		init_completion(&w.done);
		KUNIT_ASSERT_EQ(test,
				mlx5_umr_sample_unmap(io, sample_test_done, &w),
				0);
		KUNIT_ASSERT_TRUE(test,
				  wait_for_completion_timeout(&w.done, 5 * HZ));
		KUNIT_EXPECT_EQ(test, w.status, 0);
		KUNIT_ASSERT_GT(test, mlx5_umr_fake_query_mkey(c->fake, io->rkey,
							       mkc, NULL, 0),
				0);
		KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 1);
		KUNIT_EXPECT_GT(test, mlx5_umr_test_xfer(c->dev, io->rkey, 0,
							 buf, 1, false, true),
				0);
	}
}

/*
 * Issue 30: neither the configure nor the revoking invalidate completes
 * (their CQEs are lost) and the HCA refuses to destroy the mkey: the I/O
 * is refused with -EHWPOISON, its pages stay mapped. The error print read
 * the key of the mkey mlx5_umr_free_mkey() had just freed (KASAN:
 * use-after-free).
 */
static void sample_revoke_fails(struct kunit *test)
{
	struct sample_ctx *c = test->priv;
	struct mlx5_umr_sample_io *io;

	mlx5_umr_fake_inject_cmd_error(c->fake, MLX5_CMD_OP_DESTROY_MKEY,
				       MLX5_CMD_STAT_BAD_RES_STATE_ERR, 1);
	/* the configure's, then every invalidation mlx5_umr_revoke() tries */
	mlx5_umr_fake_inject_drop_cqe(c->fake, 1 + MLX5_UMR_REVOKE_TRIES);
	io = mlx5_umr_sample_map(c->dev, &c->sgt, c->total, DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(io), -EHWPOISON);
}

/*
 * The whole path of a ULP with its own PD: the pool moves into the ULP's
 * ib_pd (the fake's stand-in), each I/O's SGT layout names that PD's DMA
 * key, a QP of the ULP's PD reads the I/O's bytes through a fresh rkey
 * while a QP of the service's PD cannot, and after the asynchronous
 * invalidation the rkey is dead for both.
 */
static void sample_ulp_pd(struct kunit *test)
{
	struct sample_ctx *c = test->priv;
	struct ib_pd *ibpd = mlx5_umr_fake_ib_pd_alloc(c->fake);
	u32 pdn, svc = mlx5_umr_dev_caps(c->dev)->pdn, prev = 0;
	struct mlx5_umr_sample_io *io;
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	struct mlx5_klm klm;
	unsigned int round;
	u8 *buf;
	u32 i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(ibpd));
	pdn = mlx5_umr_fake_ib_pdn(ibpd);
	buf = kunit_kzalloc(test, c->total, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < c->total; i++)
		*seg_byte(c, i) = i * 13 + 5;
	KUNIT_ASSERT_EQ(test, mlx5_umr_sample_set_pd(ibpd), 0);

	for (round = 0; round < 3; round++) {
		io = mlx5_umr_sample_map(c->dev, &c->sgt, c->total,
					 DMA_TO_DEVICE);
		KUNIT_ASSERT_FALSE(test, IS_ERR(io));
		KUNIT_EXPECT_NE(test, io->rkey, prev);
		prev = io->rkey;
		KUNIT_ASSERT_GT(test, mlx5_umr_fake_query_mkey(c->fake, io->rkey,
							       mkc, &klm,
							       sizeof(klm)),
				0);
		KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, pd), pdn);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(klm.key),
				ibpd->local_dma_lkey);
		memset(buf, 0, c->total);
		KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(c->fake, pdn,
							    io->rkey, 0, buf,
							    c->total, false,
							    true), 0);
		for (i = 0; i < c->total; i++)
			if (buf[i] != *seg_byte(c, i))
				break;
		KUNIT_EXPECT_EQ(test, i, c->total);
		KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(c->fake, svc,
							    io->rkey, 0, buf,
							    16, false, true),
				MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
		sample_unmap_wait(test, io);
		KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(c->fake, pdn,
							    prev, 0, buf, 16,
							    false, true),
				MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	}
	/* not while an I/O is registered; then back to the service's PD */
	io = mlx5_umr_sample_map(c->dev, &c->sgt, c->total, DMA_TO_DEVICE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(io));
	KUNIT_EXPECT_EQ(test, mlx5_umr_sample_set_pd(NULL), -EBUSY);
	sample_unmap_wait(test, io);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sample_set_pd(NULL), 0);
	io = mlx5_umr_sample_map(c->dev, &c->sgt, c->total, DMA_TO_DEVICE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(io));
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(c->fake, svc, io->rkey, 0,
						    buf, 16, false, true), 0);
	sample_unmap_wait(test, io);
	mlx5_umr_fake_ib_pd_free(ibpd);
}

/* Idle slots in @ch's pool. */
static unsigned int sample_chan_free(struct mlx5_umr_sample_chan *ch)
{
	struct list_head *pos;
	unsigned int n = 0;

	spin_lock_irq(&ch->lock);
	list_for_each(pos, &ch->free)
		n++;
	spin_unlock_irq(&ch->lock);
	return n;
}

/*
 * Every channel's slots back in its pool, and the fake holds the scatter
 * maps, mkeys and QPs it held at @before: no I/O left anything behind.
 */
static void sample_expect_idle(struct kunit *test, struct sample_ctx *c,
			       const struct mlx5_umr_fake_counters *before)
{
	struct mlx5_umr_fake_counters after;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		struct mlx5_umr_sample_chan *ch = mlx5_umr_sample_chan(c->dev, cpu);

		KUNIT_ASSERT_NOT_NULL(test, ch);
		KUNIT_EXPECT_EQ(test, sample_chan_free(ch), ch->nios);
	}
	mlx5_umr_fake_get_counters(c->fake, &after);
	KUNIT_EXPECT_EQ(test, after.sg_maps, before->sg_maps);
	KUNIT_EXPECT_EQ(test, after.mkeys, before->mkeys);
	KUNIT_EXPECT_EQ(test, after.qps, before->qps);
}

/* sample_map_races_set_pd's other side: swaps the pools' PD back and forth */
struct sample_swapper {
	struct ib_pd *ibpd;
	unsigned int swaps;
	unsigned int busy;
	int err;
	struct completion exited;
};

#define SAMPLE_SWAPS	40

static int sample_swapper_fn(void *arg)
{
	struct sample_swapper *sw = arg;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < SAMPLE_SWAPS && !sw->err; i++) {
		ret = mlx5_umr_sample_set_pd(i & 1 ? NULL : sw->ibpd);
		if (!ret)
			sw->swaps++;
		else if (ret == -EBUSY)
			sw->busy++;
		else
			sw->err = ret;
		usleep_range(100, 200);
	}
	/* the pools end in the service's PD */
	while (!sw->err && (ret = mlx5_umr_sample_set_pd(NULL)) == -EBUSY)
		usleep_range(100, 200);
	if (!sw->err)
		sw->err = ret;
	complete(&sw->exited);
	return 0;
}

/*
 * The I/O path finds its device without the sample's mutex (RCU), so
 * mlx5_umr_sample_set_pd() may swap the pools while I/Os map: each map
 * either gets a key of the pool's PD, which reads the I/O's bytes there,
 * or backs off with -EBUSY; each swap either runs or answers -EBUSY while
 * an I/O is registered. Nothing leaks, every slot goes back.
 */
static void sample_map_races_set_pd(struct kunit *test)
{
	struct sample_ctx *c = test->priv;
	u32 svc = mlx5_umr_dev_caps(c->dev)->pdn;
	struct mlx5_umr_fake_counters before;
	struct sample_swapper sw = {};
	unsigned int mapped = 0, backed = 0, i;
	struct mlx5_umr_sample_io *io;
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	struct task_struct *task;
	u32 pdn, io_pd;
	u8 buf[16];

	sw.ibpd = mlx5_umr_fake_ib_pd_alloc(c->fake);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sw.ibpd));
	pdn = mlx5_umr_fake_ib_pdn(sw.ibpd);
	for (i = 0; i < sizeof(buf); i++)
		*seg_byte(c, i) = i * 29 + 3;
	init_completion(&sw.exited);
	mlx5_umr_fake_get_counters(c->fake, &before);
	task = kthread_run(sample_swapper_fn, &sw, "sample/swap");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	while (!completion_done(&sw.exited)) {
		io = mlx5_umr_sample_map(c->dev, &c->sgt, c->total,
					 DMA_TO_DEVICE);
		if (IS_ERR(io)) {
			KUNIT_EXPECT_EQ(test, PTR_ERR(io), -EBUSY);
			backed++;
			usleep_range(50, 100);
			continue;
		}
		mapped++;
		KUNIT_ASSERT_GT(test, mlx5_umr_fake_query_mkey(c->fake, io->rkey,
							       mkc, NULL, 0),
				0);
		io_pd = MLX5_GET(mkc, mkc, pd);
		KUNIT_EXPECT_TRUE(test, io_pd == pdn || io_pd == svc);
		memset(buf, 0, sizeof(buf));
		KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(c->fake, io_pd,
							    io->rkey, 0, buf,
							    sizeof(buf), false,
							    true), 0);
		for (i = 0; i < sizeof(buf); i++)
			KUNIT_EXPECT_EQ(test, buf[i], *seg_byte(c, i));
		sample_unmap_wait(test, io);
	}
	KUNIT_EXPECT_EQ(test, sw.err, 0);
	KUNIT_EXPECT_GT(test, sw.swaps, 0U);
	KUNIT_EXPECT_GT(test, mapped, 0U);
	kunit_info(test, "%u maps, %u backed off; %u swaps, %u refused\n",
		   mapped, backed, sw.swaps, sw.busy);
	sample_expect_idle(test, c, &before);
	mlx5_umr_fake_ib_pd_free(sw.ibpd);
}

/*
 * channels=percpu (the default): each online CPU maps on a channel of its
 * own, a QP and CQ besides the device's queues, whose pool's mkeys are
 * homed on it and not on a device queue.
 */
static void sample_percpu_chans(struct kunit *test)
{
	struct sample_ctx *c = test->priv;
	struct mlx5_umr_sample_chan *ch, *other;
	struct mlx5_umr_fake_counters cnt;
	struct mlx5_umr_sample_io *io;
	struct mlx5_umr_mkey *mkey;
	unsigned int cpu, cpu2;

	mkey = mlx5_umr_alloc_mkey(c->dev, 8, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mkey));
	for_each_online_cpu(cpu) {
		ch = mlx5_umr_sample_chan(c->dev, cpu);
		KUNIT_ASSERT_NOT_NULL(test, ch);
		KUNIT_ASSERT_NOT_NULL(test, ch->q);
		KUNIT_EXPECT_GT(test, ch->nios, 0U);
		KUNIT_EXPECT_EQ(test, sample_chan_free(ch), ch->nios);
		KUNIT_EXPECT_PTR_NE(test, ch->q, mlx5_umr_mkey_queue(mkey));
		for_each_online_cpu(cpu2) {
			other = mlx5_umr_sample_chan(c->dev, cpu2);
			if (cpu2 != cpu)
				KUNIT_EXPECT_PTR_NE(test, other->q, ch->q);
		}
	}
	mlx5_umr_free_mkey(mkey);
	mlx5_umr_fake_get_counters(c->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.qps,
			mlx5_umr_dev_caps(c->dev)->nqueues + num_online_cpus());
	KUNIT_EXPECT_EQ(test, cnt.cqs, cnt.qps);

	/* one CPU (UML): the test cannot move; else sample_concurrent_io */
	if (num_online_cpus() == 1) {
		ch = mlx5_umr_sample_chan(c->dev, raw_smp_processor_id());
		io = mlx5_umr_sample_map(c->dev, &c->sgt, c->total,
					 DMA_TO_DEVICE);
		KUNIT_ASSERT_FALSE(test, IS_ERR(io));
		KUNIT_EXPECT_PTR_EQ(test, io->chan, ch);
		KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_mkey_queue(io->mkey), ch->q);
		KUNIT_EXPECT_EQ(test, sample_chan_free(ch), ch->nios - 1);
		sample_unmap_wait(test, io);
		KUNIT_EXPECT_EQ(test, sample_chan_free(ch), ch->nios);
	}
}

#define SAMPLE_THREADS	4
#define SAMPLE_ITERS	300
#define SAMPLE_TLEN	(PAGE_SIZE + 700)

/**
 * struct sample_thread - one poster of sample_concurrent_io
 * @dev: the device
 * @cpu: the CPU it is bound to
 * @pages: its I/O's two pages
 * @sgt: its scatterlist (its own: mapping writes the DMA addresses)
 * @mapped: I/Os mapped
 * @read_ok: I/Os whose bytes the peer read back
 * @done_ok: unmaps whose done() reported 0
 * @bad_home: I/Os not on the bound CPU's channel, or whose mkey was not
 *	homed on its channel's queue
 * @err: the first error (map, timeout, status), 0 if none
 * @w: the wait for the current unmap (here, not on the stack: after a
 *	timeout done() may still come)
 * @exited: completed when the thread returns
 */
struct sample_thread {
	struct mlx5_umr_dev *dev;
	unsigned int cpu;
	struct page *pages[2];
	struct sg_table sgt;
	unsigned int mapped, read_ok, done_ok, bad_home;
	int err;
	struct sample_wait w;
	struct completion exited;
};

static void sample_thread_io(struct sample_thread *t, unsigned int i)
{
	struct mlx5_umr_sample_chan *ch;
	struct mlx5_umr_sample_io *io;
	u8 *p0 = page_address(t->pages[0]);
	u8 *p1 = page_address(t->pages[1]);
	u8 pat = (u8)(t->cpu * 77 + i), buf[2];

	memset(p0, pat, PAGE_SIZE);
	memset(p1, pat ^ 0xff, PAGE_SIZE);
	io = mlx5_umr_sample_map(t->dev, &t->sgt, SAMPLE_TLEN, DMA_TO_DEVICE);
	if (IS_ERR(io)) {
		t->err = t->err ?: PTR_ERR(io);
		return;
	}
	t->mapped++;
	/* bound: the CPU it mapped on is t->cpu */
	ch = mlx5_umr_sample_chan(t->dev, t->cpu);
	if (!ch || io->chan != ch || !ch->q ||
	    mlx5_umr_mkey_queue(io->mkey) != ch->q)
		t->bad_home++;
	/* the first byte of each piece, through the fresh rkey */
	if (!mlx5_umr_test_xfer(t->dev, io->rkey, 0, &buf[0], 1, false,
				true) &&
	    !mlx5_umr_test_xfer(t->dev, io->rkey, SAMPLE_TLEN - 1, &buf[1], 1,
				false, true) &&
	    buf[0] == pat && buf[1] == (u8)(pat ^ 0xff))
		t->read_ok++;
	init_completion(&t->w.done);
	t->w.status = -EINPROGRESS;
	if (mlx5_umr_sample_unmap(io, sample_test_done, &t->w) ||
	    !wait_for_completion_timeout(&t->w.done, 10 * HZ)) {
		/* the I/O may still be in flight: stop this thread */
		t->err = -ETIMEDOUT;
		return;
	}
	if (t->w.status)
		t->err = t->err ?: t->w.status;
	else
		t->done_ok++;
}

static int sample_thread_fn(void *arg)
{
	struct sample_thread *t = arg;
	unsigned int i;

	for (i = 0; i < SAMPLE_ITERS && t->err != -ETIMEDOUT; i++)
		sample_thread_io(t, i);
	complete(&t->exited);
	return 0;
}

static void sample_thread_free(struct sample_thread *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t->pages); i++)
		if (t->pages[i])
			__free_page(t->pages[i]);
	sg_free_table(&t->sgt);
}

/*
 * Several kthreads, bound to the online CPUs in turn, map and unmap at
 * once, as blk-mq queue_rq() and completions on several CPUs: every I/O
 * maps on its CPU's pool, its mkey homed on that pool's channel, the peer
 * reads its bytes, every unmap reports 0, every slot comes back to the
 * pool it came from, and no DMA mapping or mkey is left. (Under UML one
 * CPU runs them all, interleaved; the VM has two.)
 */
static void sample_concurrent_io(struct kunit *test)
{
	struct sample_ctx *c = test->priv;
	struct mlx5_umr_fake_counters before;
	struct sample_thread *th;
	struct task_struct *task;
	unsigned int i, j, started = 0;

	th = kunit_kcalloc(test, SAMPLE_THREADS, sizeof(*th), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, th);
	mlx5_umr_fake_get_counters(c->fake, &before);
	for (i = 0; i < SAMPLE_THREADS; i++) {
		struct sample_thread *t = &th[i];

		t->dev = c->dev;
		t->cpu = cpumask_local_spread(i, NUMA_NO_NODE);
		init_completion(&t->exited);
		for (j = 0; j < ARRAY_SIZE(t->pages); j++) {
			t->pages[j] = alloc_page(GFP_KERNEL);
			if (!t->pages[j])
				goto nomem;
		}
		if (sg_alloc_table(&t->sgt, 2, GFP_KERNEL))
			goto nomem;
		sg_set_page(t->sgt.sgl, t->pages[0], PAGE_SIZE, 0);
		sg_set_page(sg_next(t->sgt.sgl), t->pages[1],
			    SAMPLE_TLEN - PAGE_SIZE, 0);
	}
	for (i = 0; i < SAMPLE_THREADS; i++) {
		task = kthread_create(sample_thread_fn, &th[i], "sample/%u", i);
		if (IS_ERR(task))
			break;
		kthread_bind(task, th[i].cpu);
		wake_up_process(task);
		started++;
	}
	for (i = 0; i < started; i++)
		wait_for_completion(&th[i].exited);
	KUNIT_EXPECT_EQ(test, started, SAMPLE_THREADS);
	for (i = 0; i < started; i++) {
		KUNIT_EXPECT_EQ_MSG(test, th[i].err, 0, "thread %u", i);
		KUNIT_EXPECT_EQ(test, th[i].mapped, SAMPLE_ITERS);
		KUNIT_EXPECT_EQ(test, th[i].read_ok, SAMPLE_ITERS);
		KUNIT_EXPECT_EQ(test, th[i].done_ok, SAMPLE_ITERS);
		KUNIT_EXPECT_EQ(test, th[i].bad_home, 0U);
	}
	/* the threads are gone: every slot is back in its own pool */
	sample_expect_idle(test, c, &before);
	goto out;
nomem:
	KUNIT_FAIL(test, "no memory for the threads' I/Os");
out:
	for (i = 0; i < SAMPLE_THREADS; i++)
		sample_thread_free(&th[i]);
}

/*
 * The device goes away: remove() frees the pools, then destroys the
 * channels (which refuse while an mkey is homed on them); the HCA keeps
 * no QP, CQ, mkey or DMA mapping of the sample.
 */
static void sample_remove_frees_chans(struct kunit *test)
{
	struct sample_ctx *c = test->priv;
	struct mlx5_umr_fake_counters cnt;
	struct mlx5_umr_fake_attr attr;
	struct mlx5_umr_sample_io *io;
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	unsigned int nq;

	umr_kunit_attr_init(&attr);
	fake = mlx5_umr_fake_create(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(fake));
	if (mlx5_umr_register_hca(mlx5_umr_fake_hca(fake))) {
		mlx5_umr_fake_destroy(fake);
		KUNIT_FAIL_AND_ABORT(test, "the service did not bring it up");
	}
	dev = umr_kunit_fake_umr(fake);
	nq = mlx5_umr_dev_caps(dev)->nqueues;
	mlx5_umr_fake_get_counters(fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.qps, nq + num_online_cpus());
	KUNIT_EXPECT_NOT_NULL(test, mlx5_umr_sample_chan(dev, 0));
	io = mlx5_umr_sample_map(dev, &c->sgt, c->total, DMA_TO_DEVICE);
	KUNIT_EXPECT_FALSE(test, IS_ERR(io));
	if (!IS_ERR(io))
		sample_unmap_wait(test, io);

	mlx5_umr_unregister_hca(mlx5_umr_fake_hca(fake));
	mlx5_umr_fake_get_counters(fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.qps, 0U);
	KUNIT_EXPECT_EQ(test, cnt.cqs, 0U);
	KUNIT_EXPECT_EQ(test, cnt.mkeys, 0U);
	KUNIT_EXPECT_EQ(test, cnt.sg_maps, 0U);
	mlx5_umr_fake_destroy(fake);
}

static struct kunit_case sample_cases[] = {
	KUNIT_CASE(sample_read_io),
	KUNIT_CASE(sample_write_io),
	KUNIT_CASE(sample_failed_invalidate),
	KUNIT_CASE(sample_revoke_fails),
	KUNIT_CASE(sample_ulp_pd),
	KUNIT_CASE(sample_percpu_chans),
	KUNIT_CASE(sample_concurrent_io),
	KUNIT_CASE(sample_remove_frees_chans),
	KUNIT_CASE(sample_map_races_set_pd),
	{}
};

static struct kunit_suite sample_suite = {
	.name = "mlx5_umr_sample",
	.init = sample_test_init,
	.exit = sample_test_exit,
	.test_cases = sample_cases,
};

kunit_test_suite(sample_suite);

MODULE_DESCRIPTION("KUnit test of the mlx5 UMR sample ULP");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
