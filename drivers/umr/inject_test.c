// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: KUnit suite mlx5_umr_inject, what the HCA and the allocator
 * can do to the service at the worst moment.
 *
 * - A signal ends the wait for room on a full send queue
 *   (mlx5_umr_exec_interruptible(), the uapi's), never the wait for a
 *   posted request (mlx5_umr_exec()).
 * - A UMR that times out and runs late: after a reset that failed (the
 *   HCA still owns the QP) the WQE executes once the caller has freed the
 *   request and the mkey; near the timeout it races the recovery. KASAN
 *   judges that nothing freed is touched; the fake's counters that the
 *   late WQE did run.
 * - Failure sweeps: the Nth slab allocation (fail-nth with failslab) and
 *   the Nth firmware command (the fake) of bring-up, teardown and the
 *   service calls under each ioctl fail, N = 1, 2, ... until the path
 *   runs through; each failure unwinds to nothing held on the HCA and the
 *   device works afterwards. The number of injection points per path is
 *   printed.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/driver.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_fake.h>

#include <linux/mlx5_umr_testing.h>

#include "umr.h"
#include "umr_kunit.h"

/* A pointer-mode list (more entries than a WQE holds inline). */
#define IJ_SGES		60

struct ij_req {
	struct mlx5_umr_wr wr;
	struct mlx5_umr_sge sge[IJ_SGES];
};

/* @n entries of 16 bytes through the PA mkey, done() counting in @ctx. */
static void ij_wr(struct mlx5_umr_dev *dev, struct ij_req *r,
		  struct mlx5_umr_mkey *mk, u32 n)
{
	u32 i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < n; i++) {
		r->sge[i].addr = i * 16;
		r->sge[i].length = 16;
		r->sge[i].key = mlx5_umr_dev_caps(dev)->dma_lkey;
	}
	r->wr.mkey = mk;
	r->wr.op = MLX5_UMR_OP_CONFIGURE;
	r->wr.flags = MLX5_UMR_WR_SET_ACCESS;
	r->wr.access = MLX5_UMR_ACCESS_LOCAL_WRITE;
	r->wr.layout = MLX5_UMR_LAYOUT_LIST;
	r->wr.list.sge = r->sge;
	r->wr.list.num_sge = n;
}

static atomic_t ij_done;

static void ij_count_done(struct mlx5_umr_wr *wr)
{
	atomic_inc(&ij_done);
}

static void ij_counters(struct mlx5_umr_fake *fake,
			struct mlx5_umr_fake_counters *c)
{
	mlx5_umr_fake_get_counters(fake, c);
}

/* One configure, and it works. */
static void ij_expect_usable(struct kunit *test, struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_mkey *mk;
	struct ij_req *r;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	mk = mlx5_umr_alloc_mkey(dev, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(mk));
	ij_wr(dev, r, mk, 2);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &r->wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
}

/*
 * The send queue is full (the fake holds the doorbell): a signal ends the
 * interruptible wait for room at once with nothing posted; the plain one
 * waits out its timeout. Then everything posted completes once.
 */
static void ij_exec_interruptible_room(struct kunit *test)
{
	struct mlx5_umr_fake *fake = umr_kunit_fake_registered(test, 0);
	struct mlx5_umr_dev *dev = umr_kunit_fake_umr(fake);
	struct mlx5_umr_wr *p;
	struct mlx5_umr_mkey *mk;
	struct ij_req *reqs, *extra;
	unsigned long t0;
	unsigned int i, posted = 0;
	u32 pc;
	int ret;

	reqs = kunit_kcalloc(test, 1024, sizeof(*reqs), GFP_KERNEL);
	extra = kunit_kzalloc(test, sizeof(*extra), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, reqs);
	KUNIT_ASSERT_NOT_NULL(test, extra);
	mk = mlx5_umr_alloc_mkey(dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(mk));
	atomic_set(&ij_done, 0);
	mlx5_umr_fake_inject_delay(fake, 20000);
	for (i = 0; i < 1024; i++) {
		ij_wr(dev, &reqs[i], mk, 1);
		reqs[i].wr.done = ij_count_done;
		p = &reqs[i].wr;
		ret = mlx5_umr_post(dev, &p, 1);
		if (ret == -ENOSPC)
			break;
		KUNIT_ASSERT_EQ(test, ret, 0);
		posted++;
	}
	KUNIT_ASSERT_LT(test, posted, 1024U);
	KUNIT_ASSERT_GT(test, posted, 0U);
	pc = mlx5_umr_dev_q0(dev)->sq.pc;

	ij_wr(dev, extra, mk, 1);
	allow_signal(SIGUSR1);
	send_sig(SIGUSR1, current, 1);
	KUNIT_EXPECT_TRUE(test, signal_pending(current));
	t0 = jiffies;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec_interruptible(dev, &extra->wr,
							  5000), -EINTR);
	KUNIT_EXPECT_LT(test, jiffies - t0, (unsigned long)HZ);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dev_q0(dev)->sq.pc, pc);
	/* not posted: done() and context as the caller left them */
	KUNIT_EXPECT_PTR_EQ(test, extra->wr.done, NULL);
	KUNIT_EXPECT_PTR_EQ(test, extra->wr.context, NULL);
	/* a kernel caller's wait is not cut short */
	t0 = jiffies;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &extra->wr, 200),
			-ETIMEDOUT);
	KUNIT_EXPECT_GE(test, jiffies - t0, msecs_to_jiffies(200));
	KUNIT_EXPECT_EQ(test, mlx5_umr_dev_q0(dev)->sq.pc, pc);
	flush_signals(current);
	disallow_signal(SIGUSR1);

	/* the HCA runs what it held: each completes once, in time */
	mlx5_umr_fake_flush(fake);
	for (i = 0; i < 100 && atomic_read(&ij_done) < posted; i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&ij_done), (int)posted);
	for (i = 0; i < posted; i++)
		if (reqs[i].wr.status)
			break;
	KUNIT_EXPECT_EQ(test, i, posted);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec_interruptible(dev, &extra->wr, 0),
			0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	mlx5_umr_fake_destroy(fake);
}

/*
 * The UMR's completion does not come in time and the reset that recovery
 * starts fails: the HCA may still run the WQE. The caller frees the
 * request and destroys the mkey; then the WQE runs late, reading the
 * ring and the mkey's translation table and writing a CQE. The table is
 * kept (dev->leaked), the late CQE touches no freed request: KASAN.
 */
static void ij_late_after_failed_reset(struct kunit *test)
{
	struct mlx5_umr_fake *fake = umr_kunit_fake_registered(test, 0);
	struct mlx5_umr_dev *dev = umr_kunit_fake_umr(fake);
	struct mlx5_umr_fake_counters c0, c1;
	struct mlx5_umr_mkey *mk;
	struct ij_req *r;
	int i;

	mk = mlx5_umr_alloc_mkey(dev, 64, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(mk));
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	ij_wr(dev, r, mk, IJ_SGES);
	ij_counters(fake, &c0);

	mlx5_umr_fake_inject_delay(fake, 400);
	mlx5_umr_fake_inject_cmd_error(fake, MLX5_CMD_OP_2RST_QP,
				       MLX5_CMD_STAT_BAD_RES_STATE_ERR, 0x1a7e);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &r->wr, 50), -ETIMEDOUT);
	flush_work(&mlx5_umr_dev_q0(dev)->recover_work);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dev_q0(dev)->sq.state, MLX5_UMR_SQ_DEAD);
	/* the caller's memory goes; the mkey's table stays (the HCA's) */
	kfree(r);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->leaked), 1);

	/* now the WQE runs, and its CQE comes */
	ij_counters(fake, &c1);
	KUNIT_EXPECT_EQ(test, c1.cqes, c0.cqes);
	for (i = 0; i < 50 && c1.cqes == c0.cqes; i++) {
		msleep(20);
		ij_counters(fake, &c1);
	}
	mlx5_umr_fake_flush(fake);
	ij_counters(fake, &c1);
	KUNIT_EXPECT_EQ(test, c1.cqes, c0.cqes + 1);
	KUNIT_EXPECT_EQ(test, c1.iommu_faults, c0.iommu_faults);
	/* the device is dead: refused at once */
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	mk = mlx5_umr_alloc_mkey(dev, 4, 0);
	if (!IS_ERR_OR_NULL(mk)) {
		ij_wr(dev, r, mk, 1);
		KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &r->wr, 0), -EIO);
		mlx5_umr_free_mkey(mk);
	}
	mlx5_umr_fake_destroy(fake);
}

/*
 * The fake runs the WQE at about the moment the 50 ms timeout fires, on
 * either side of it: the request completes once, with 0 or -ETIMEDOUT,
 * and after the caller freed it and the mkey nothing touches them.
 */
static void ij_late_near_timeout(struct kunit *test)
{
	static const unsigned int delays[] = { 5, 40, 45, 50, 55, 60, 200 };
	struct mlx5_umr_fake *fake = umr_kunit_fake_registered(test, 0);
	struct mlx5_umr_dev *dev = umr_kunit_fake_umr(fake);
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(dev);
	struct mlx5_umr_fake_counters c0, c1;
	unsigned int i, ok = 0, late = 0;
	struct mlx5_umr_mkey *mk;
	struct ij_req *r;
	int ret;

	ij_counters(fake, &c0);
	for (i = 0; i < ARRAY_SIZE(delays); i++) {
		mk = mlx5_umr_alloc_mkey(dev, 64, 0);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(mk));
		r = kzalloc(sizeof(*r), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, r);
		ij_wr(dev, r, mk, IJ_SGES);
		mlx5_umr_fake_inject_delay(fake, delays[i]);
		ret = mlx5_umr_exec(dev, &r->wr, 50);
		KUNIT_EXPECT_TRUE_MSG(test, !ret || ret == -ETIMEDOUT,
				      "delay %u: %d", delays[i], ret);
		if (!ret)
			ok++;
		else
			late++;
		kfree(r);
		KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
		msleep(delays[i] + 20);
		mlx5_umr_fake_flush(fake);
		KUNIT_EXPECT_EQ(test, q0->sq.state, MLX5_UMR_SQ_RTS);
		KUNIT_EXPECT_EQ(test, q0->sq.pc, q0->sq.cc);
	}
	kunit_info(test, "%u in time, %u timed out\n", ok, late);
	KUNIT_EXPECT_GT(test, ok, 0U);
	KUNIT_EXPECT_GT(test, late, 0U);
	ij_counters(fake, &c1);
	KUNIT_EXPECT_EQ(test, c1.iommu_faults, c0.iommu_faults);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->leaked), 0);
	ij_expect_usable(test, dev);
	mlx5_umr_fake_destroy(fake);
}

/* ---- failure sweeps ---- */

/* Fail the @n-th slab allocation of this task from now; 0 disarms. */
static void ij_fail_nth(unsigned int n)
{
	WRITE_ONCE(current->fail_nth, n);
}

/* The armed failure fired (fail_nth counted down to 0 at it). */
static bool ij_fired(unsigned int n)
{
	bool fired = n && !READ_ONCE(current->fail_nth);

	WRITE_ONCE(current->fail_nth, 0);
	return fired;
}

/* What the HCA holds for the service, all of it, is gone. */
static void ij_expect_empty(struct kunit *test, struct mlx5_umr_fake *fake,
			    const char *what, unsigned int n)
{
	struct mlx5_umr_fake_counters c;

	mlx5_umr_fake_get_counters(fake, &c);
	KUNIT_EXPECT_TRUE_MSG(test,
			      !c.pds && !c.mkeys && !c.cqs && !c.qps &&
			      !c.uars && !c.dma_bufs && !c.sg_maps &&
			      !c.iommu_pages,
			      "%s, failure %u: pd %u mkey %u cq %u qp %u uar %u buf %u sg %u",
			      what, n, c.pds, c.mkeys, c.cqs, c.qps, c.uars,
			      c.dma_bufs, c.sg_maps);
}

static struct mlx5_umr_fake *ij_fake(struct kunit *test)
{
	struct mlx5_umr_fake_attr attr;
	struct mlx5_umr_fake *fake;

	mlx5_umr_fake_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_SYNC;
	fake = mlx5_umr_fake_create(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(fake));
	return fake;
}

enum ij_kind { IJ_SLAB, IJ_CMD };

static void ij_arm(struct mlx5_umr_fake *fake, enum ij_kind k, unsigned int n)
{
	if (k == IJ_SLAB)
		ij_fail_nth(n);
	else
		mlx5_umr_fake_inject_cmd_nth(fake, n,
					     MLX5_CMD_STAT_BAD_RES_STATE_ERR,
					     0x5eed00 + n);
}

static bool ij_disarm(struct mlx5_umr_fake *fake, enum ij_kind k,
		      unsigned int n)
{
	if (k == IJ_SLAB)
		return ij_fired(n);
	return !mlx5_umr_fake_inject_cmd_nth(fake, 0, 0, 0);
}

#define IJ_MAX_POINTS	2000

/*
 * Bring-up: the Nth allocation or command fails, registration returns an
 * error, the HCA holds nothing; a registration without failure then works.
 * Teardown: the Nth fails, unregistration still completes; after a slab
 * failure nothing is left on the HCA (a failed destroy command keeps what
 * the HCA may use, on purpose: dev->leaked).
 */
static unsigned int ij_sweep_dev(struct kunit *test, enum ij_kind k,
				 bool teardown)
{
	const char *what = teardown ? "teardown" : "bring-up";
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_hca *hca;
	unsigned int n;
	bool fired;
	int ret;

	for (n = 1; n < IJ_MAX_POINTS; n++) {
		fake = ij_fake(test);
		hca = mlx5_umr_fake_hca(fake);
		if (teardown) {
			KUNIT_ASSERT_EQ(test, mlx5_umr_register_hca(hca), 0);
			ij_expect_usable(test, hca->umr);
			ij_arm(fake, k, n);
			mlx5_umr_unregister_hca(hca);
			fired = ij_disarm(fake, k, n);
			KUNIT_EXPECT_NULL(test, hca->umr);
			if (k == IJ_SLAB)
				ij_expect_empty(test, fake, what, n);
		} else {
			ij_arm(fake, k, n);
			ret = mlx5_umr_register_hca(hca);
			fired = ij_disarm(fake, k, n);
			if (fired && !ret) {
				/* tolerated: then the device works */
				ij_expect_usable(test, hca->umr);
				mlx5_umr_unregister_hca(hca);
			} else if (fired) {
				KUNIT_EXPECT_NULL(test, hca->umr);
				ij_expect_empty(test, fake, what, n);
				KUNIT_ASSERT_EQ(test,
						mlx5_umr_register_hca(hca), 0);
				ij_expect_usable(test, hca->umr);
				mlx5_umr_unregister_hca(hca);
			} else {
				KUNIT_EXPECT_EQ(test, ret, 0);
				if (!ret)
					mlx5_umr_unregister_hca(hca);
			}
			ij_expect_empty(test, fake, what, n);
		}
		mlx5_umr_fake_destroy(fake);
		if (!fired)
			break;
	}
	KUNIT_EXPECT_LT(test, n, (unsigned int)IJ_MAX_POINTS);
	kunit_info(test, "%s: %u %s injection points\n", what, n - 1,
		   k == IJ_SLAB ? "allocation" : "command");
	return n - 1;
}

/*
 * What the ioctls ask of the service: allocate an mkey (KLM and MTT, in a
 * PD of their own), run a request on it, free it. The Nth fails: an error,
 * the HCA holds no more than before, the device works.
 */
static unsigned int ij_sweep_calls(struct kunit *test, enum ij_kind k)
{
	struct mlx5_umr_fake *fake = umr_kunit_fake_registered(test,
							MLX5_UMR_FAKE_F_SYNC);
	struct mlx5_umr_dev *dev = umr_kunit_fake_umr(fake);
	struct mlx5_umr_fake_counters c0, c;
	struct mlx5_umr_mkey *mk, *mtt;
	struct ij_req *r;
	unsigned int n, absorbed = 0;
	bool fired, have_pd;
	u32 pdn;
	int ret;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	mlx5_umr_fake_get_counters(fake, &c0);
	for (n = 1; n < IJ_MAX_POINTS; n++) {
		mk = NULL;
		mtt = NULL;
		ij_arm(fake, k, n);
		ret = mlx5_umr_pd_alloc(dev, &pdn);
		have_pd = !ret;
		if (!ret) {
			mk = mlx5_umr_alloc_mkey_pd(dev, 64, 0, pdn);
			ret = IS_ERR_OR_NULL(mk) ? -ENOMEM : 0;
		}
		if (!ret) {
			mtt = mlx5_umr_alloc_mtt_mkey(dev, 4, 0);
			ret = IS_ERR_OR_NULL(mtt) ? -ENOMEM : 0;
		}
		if (!ret) {
			ij_wr(dev, r, mk, IJ_SGES);
			ret = mlx5_umr_exec(dev, &r->wr, 0);
		}
		fired = ij_disarm(fake, k, n);
		/* a failure may be absorbed (an xarray's or kvmalloc's retry) */
		if (fired && !ret)
			absorbed++;
		if (!IS_ERR_OR_NULL(mtt))
			KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mtt), 0);
		if (!IS_ERR_OR_NULL(mk))
			KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
		if (have_pd)
			mlx5_umr_pd_free(dev, pdn);
		mlx5_umr_fake_get_counters(fake, &c);
		KUNIT_EXPECT_EQ_MSG(test, c.mkeys, c0.mkeys, "failure %u", n);
		KUNIT_EXPECT_EQ_MSG(test, c.pds, c0.pds, "failure %u", n);
		KUNIT_EXPECT_EQ_MSG(test, c.dma_bufs, c0.dma_bufs,
				    "failure %u", n);
		KUNIT_EXPECT_EQ(test, atomic_read(&dev->leaked), 0);
		ij_expect_usable(test, dev);
		if (!fired)
			break;
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	kunit_info(test, "service calls: %u %s injection points, %u absorbed\n",
		   n - 1, k == IJ_SLAB ? "allocation" : "command", absorbed);
	mlx5_umr_fake_destroy(fake);
	return n - 1;
}

/*
 * failslab passes over allocations that may sleep unless its debugfs
 * ignore-gfp-wait is N (and prints a stack per failure unless verbose is
 * 0): scripts/testbed/soak.sh sets both before it loads this suite. A
 * kernel module cannot (those files have no kernel_write()).
 */
static bool ij_failslab_ready(void)
{
	void *p;

	ij_fail_nth(1);
	p = kmalloc(8, GFP_KERNEL);
	ij_fired(1);
	kfree(p);
	return !p;
}

static void ij_sweep_slab(struct kunit *test)
{
	if (!ij_failslab_ready())
		kunit_skip(test, "failslab ignores GFP_KERNEL (scripts/testbed/soak.sh runs this)");
	KUNIT_EXPECT_GT(test, ij_sweep_dev(test, IJ_SLAB, false), 0U);
	ij_sweep_dev(test, IJ_SLAB, true);
	KUNIT_EXPECT_GT(test, ij_sweep_calls(test, IJ_SLAB), 0U);
}

static void ij_sweep_cmd(struct kunit *test)
{
	/* QUERY_HCA_CAP, ALLOC_PD, CREATE_MKEY, CREATE_CQ, CREATE_QP, 3 moves */
	KUNIT_EXPECT_GE(test, ij_sweep_dev(test, IJ_CMD, false), 8U);
	KUNIT_EXPECT_GT(test, ij_sweep_dev(test, IJ_CMD, true), 0U);
	KUNIT_EXPECT_GE(test, ij_sweep_calls(test, IJ_CMD), 3U);
}

static struct kunit_case ij_cases[] = {
	KUNIT_CASE(ij_exec_interruptible_room),
	KUNIT_CASE(ij_late_after_failed_reset),
	KUNIT_CASE(ij_late_near_timeout),
	KUNIT_CASE(ij_sweep_slab),
	KUNIT_CASE(ij_sweep_cmd),
	{}
};

static struct kunit_suite ij_suite = {
	.name = "mlx5_umr_inject",
	.test_cases = ij_cases,
};

kunit_test_suite(ij_suite);

MODULE_DESCRIPTION("KUnit: late completions, interrupted waits and failure sweeps of the mlx5 UMR service");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
