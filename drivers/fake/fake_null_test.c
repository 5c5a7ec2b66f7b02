// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: KUnit suite of the null device (MLX5_UMR_FAKE_F_NULL):
 * through the UMR service as the benchmark uses it, and with WQEs and
 * doorbells built by hand for what it reads and what it walks.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/err.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>
#include <linux/string.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_fake.h>

#include "umr_kunit.h"

struct fake_null_ctx {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_mkey *mkey;
};

static int fake_null_init(struct kunit *test)
{
	struct fake_null_ctx *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_NULL |
					    MLX5_UMR_FAKE_F_SYNC);
	c->dev = mlx5_umr_dev_get(mlx5_umr_fake_hca(c->fake)->name);
	KUNIT_ASSERT_NOT_NULL(test, c->dev);
	c->mkey = mlx5_umr_alloc_mkey(c->dev, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->mkey));
	test->priv = c;
	return 0;
}

static void fake_null_exit(struct kunit *test)
{
	struct fake_null_ctx *c = test->priv;

	mlx5_umr_free_mkey(c->mkey);
	mlx5_umr_dev_put(c->dev);
	mlx5_umr_fake_destroy(c->fake);
}

struct fake_null_calls {
	atomic_t n;
	struct completion all;	/* completed by the third done() */
};

static void fake_null_done(struct mlx5_umr_wr *wr)
{
	struct fake_null_calls *calls = wr->context;

	if (atomic_inc_return(&calls->n) == 3)
		complete(&calls->all);
}

/* The mkey as the HCA holds it: free, and its first translation entry. */
static void fake_null_mkey(struct kunit *test, struct fake_null_ctx *c,
			   u32 *free, struct mlx5_klm *klm)
{
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];

	KUNIT_ASSERT_GT(test, mlx5_umr_fake_query_mkey(c->fake, c->mkey->key,
						       mkc, klm, sizeof(*klm)),
			0);
	*free = MLX5_GET(mkc, mkc, free);
}

/*
 * Configures complete with success and one CQE per batch, yet nothing is
 * executed: even an entry naming a key that does not exist (which the
 * decoding fake fails with an error CQE) leaves the mkey free and its
 * translation untouched.
 */
static void fake_null_completes_without_executing(struct kunit *test)
{
	struct fake_null_ctx *c = test->priv;
	struct mlx5_umr_sge sge = { 0x1000, 64, 0xdead00 };
	struct mlx5_umr_fake_counters before, after;
	struct mlx5_umr_wr wr[3] = {}, *wrs[3];
	struct mlx5_klm klm;
	struct fake_null_calls calls;
	unsigned int i;
	u32 free;

	atomic_set(&calls.n, 0);
	init_completion(&calls.all);
	mlx5_umr_fake_get_counters(c->fake, &before);
	for (i = 0; i < 3; i++) {
		wr[i].mkey = c->mkey;
		wr[i].op = MLX5_UMR_OP_CONFIGURE;
		wr[i].layout = MLX5_UMR_LAYOUT_LIST;
		wr[i].list.sge = &sge;
		wr[i].list.num_sge = 1;
		wr[i].done = fake_null_done;
		wr[i].context = &calls;
		wr[i].status = -EINPROGRESS;
		wrs[i] = &wr[i];
	}
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, wrs, 3), 0);
	/* Completions are polled outside the doorbell (service.rst). */
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&calls.all, 10 * HZ),
			0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&calls.n), 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, wr[i].status, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr[0], 0), 0);

	mlx5_umr_fake_get_counters(c->fake, &after);
	/* one WQE read per doorbell: the one it names (fake_null.c) */
	KUNIT_EXPECT_EQ(test, after.wqes - before.wqes, 2ULL);
	KUNIT_EXPECT_EQ(test, after.cqes - before.cqes, 2ULL);
	KUNIT_EXPECT_EQ(test, after.err_cqes, 0ULL);
	KUNIT_EXPECT_EQ(test, after.flush_cqes, 0ULL);

	fake_null_mkey(test, c, &free, &klm);
	KUNIT_EXPECT_EQ(test, free, 1U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(klm.bcount), 0U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(klm.key), 0U);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(klm.va), 0ULL);
}

/* Three 2-WQEBB NOPs (a ctrl segment and padding) posted with one doorbell. */
struct fake_null_wqe {
	struct mlx5_wqe_ctrl_seg ctrl;
	u8 pad[MLX5_SEND_WQE_BB + 16];
};

struct fake_null_raw {
	struct ft *ft;
	struct fake_null_wqe w[3];
	struct mlx5_umr_fake_counters before;
};

static void fake_null_raw_post(struct kunit *test, struct fake_null_raw *r,
			       const bool signalled[3])
{
	unsigned int i;

	r->ft = ft_setup(test, MLX5_UMR_FAKE_F_NULL | MLX5_UMR_FAKE_F_SYNC,
			 NULL, 4, 4);
	mlx5_umr_fake_get_counters(r->ft->fake, &r->before);
	memset(r->w, 0, sizeof(r->w));
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, ft_post_nodb(r->ft, &r->w[i],
						   sizeof(r->w[i]),
						   MLX5_OPCODE_NOP,
						   signalled[i]),
				(u16)(2 * i));
}

/* After the doorbell: everything consumed; @read WQEs read, these CQEs. */
static void fake_null_raw_check(struct kunit *test, struct fake_null_raw *r,
				u64 read, const u16 *cqes, unsigned int ncqes)
{
	struct mlx5_umr_fake_counters after;
	struct mlx5_cqe64 cqe;
	unsigned int i;
	u16 ci;

	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(r->ft->fake, r->ft->qpn,
						     &ci),
			MLX5_QP_STATE_RTS);
	KUNIT_EXPECT_EQ(test, ci, 6);
	for (i = 0; i < ncqes; i++) {
		KUNIT_ASSERT_TRUE(test, ft_poll(r->ft, &cqe));
		KUNIT_EXPECT_EQ(test, cqe.op_own >> 4, MLX5_CQE_REQ);
		KUNIT_EXPECT_EQ(test, be16_to_cpu(cqe.wqe_counter), cqes[i]);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(cqe.sop_drop_qpn),
				(u32)MLX5_OPCODE_NOP << 24 | r->ft->qpn);
	}
	KUNIT_EXPECT_FALSE(test, ft_poll(r->ft, &cqe));
	mlx5_umr_fake_get_counters(r->ft->fake, &after);
	KUNIT_EXPECT_EQ(test, after.wqes - r->before.wqes, read);
	KUNIT_EXPECT_EQ(test, after.cqes - r->before.cqes, (u64)ncqes);
	KUNIT_EXPECT_EQ(test, after.err_cqes, 0ULL);
	KUNIT_EXPECT_EQ(test, after.bad_doorbells, 0ULL);
	ft_teardown(r->ft);
}

/*
 * What the null device does with one doorbell over three NOPs at indexes
 * 0, 2 and 4: it reads only the WQE the doorbell names when that WQE ends
 * at the doorbell record, matches the ring and asks for a CQE (whose CQE
 * covers the signalled WQEs before it); otherwise it walks all three.
 */
struct fake_null_case {
	const char *name;
	bool signalled[3];
	u8 named;	/* the WQE whose ctrl segment the doorbell carries */
	u8 db_ds;	/* if set, the doorbell's size in 16-byte units */
	u64 read;	/* WQEs read */
	u16 cqes[2];	/* the CQEs' wqe_counter, in order */
	u8 ncqes;
};

static const struct fake_null_case fake_null_cases_raw[] = {
	{ "named WQE read, its CQE covers the batch",
	  { true, false, true }, 2, 0, 1, { 4 }, 1 },
	{ "named WQE unsignalled: walked",
	  { true, true, false }, 2, 0, 3, { 0, 2 }, 2 },
	{ "named WQE ends before the record: walked",
	  { false, true, true }, 1, 0, 3, { 2, 4 }, 2 },
	/* 2 WQEBBs like the ring's, but 5 units, not 6 */
	{ "doorbell differs from the ring: walked",
	  { false, false, true }, 2, 5, 3, { 4 }, 1 },
};

static void fake_null_case_desc(const struct fake_null_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fake_null_raw, fake_null_cases_raw, fake_null_case_desc);

static void fake_null_doorbell(struct kunit *test)
{
	const struct fake_null_case *c = test->param_value;
	struct mlx5_wqe_ctrl_seg db;
	struct fake_null_raw r;

	fake_null_raw_post(test, &r, c->signalled);
	db = r.w[c->named].ctrl;
	if (c->db_ds)
		db.qpn_ds = cpu_to_be32(r.ft->qpn << 8 | c->db_ds);
	ft_ring(r.ft, &db);
	fake_null_raw_check(test, &r, c->read, c->cqes, c->ncqes);
}

/*
 * One QP's share of fake_null_two_qps_interleaved: batches of 1 to 4
 * one-WQEBB NOPs, each batch one doorbell, its CQEs polled and checked
 * at once (they are written before write_db returns). An even batch
 * signals only its last WQE, which the doorbell names: one WQE read, one
 * CQE for the batch (fake_null_skip()). An odd batch signals all but its
 * last: every WQE read, a CQE for each signalled one.
 */
struct fake_null_qp_run {
	struct ft *ft;
	const atomic_t *other_batches;	/* the other thread's progress */
	atomic_t batches;
	u64 wqes;		/* what the counters must have moved by */
	u64 cqes;
	unsigned int bad;	/* CQEs missing, extra or wrong */
	unsigned int interleaved;	/* the other ran between two batches */
	u32 first_bad;		/* the batch where it went wrong first */
};

#define FAKE_NULL_BATCHES	3000

static bool fake_null_qp_batch(struct fake_null_qp_run *r, unsigned int b)
{
	struct ft *ft = r->ft;
	unsigned int n = 1 + b % 4, i;
	struct mlx5_wqe_ctrl_seg nop;
	u16 idx[4], want[4];
	unsigned int nwant = 0;
	struct mlx5_cqe64 cqe;

	for (i = 0; i < n; i++) {
		bool sig = b % 2 ? i != n - 1 : i == n - 1;

		memset(&nop, 0, sizeof(nop));
		idx[i] = ft_post_nodb(ft, &nop, sizeof(nop), MLX5_OPCODE_NOP,
				      sig);
		if (sig)
			want[nwant++] = idx[i];
	}
	ft_ring(ft, &nop);
	r->wqes += b % 2 ? n : 1;
	r->cqes += nwant;
	for (i = 0; i < nwant; i++) {
		if (!ft_poll(ft, &cqe) || cqe.op_own >> 4 != MLX5_CQE_REQ ||
		    be16_to_cpu(cqe.wqe_counter) != want[i] ||
		    be32_to_cpu(cqe.sop_drop_qpn) !=
		    ((u32)MLX5_OPCODE_NOP << 24 | ft->qpn))
			return false;
	}
	return !ft_poll(ft, &cqe);
}

static int fake_null_qp_thread(void *arg)
{
	struct fake_null_qp_run *r = arg;
	int seen = atomic_read(r->other_batches);
	unsigned int b;

	for (b = 0; b < FAKE_NULL_BATCHES; b++) {
		if (!fake_null_qp_batch(r, b) && !r->bad++)
			r->first_bad = b;
		atomic_inc(&r->batches);
		if (atomic_read(r->other_batches) != seen) {
			seen = atomic_read(r->other_batches);
			r->interleaved++;
		}
		/* hand the CPU over now and then: UML has one */
		if (b % 64 == 63)
			usleep_range(20, 50);
		else
			cond_resched();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * Two QPs (each with its CQ) of one null device rung at the same time
 * from two kthreads: each QP's engine runs under its own lock, so their
 * doorbells interleave, and still every CQE is where it belongs and the
 * device-wide counters add up exactly.
 */
static void fake_null_two_qps_interleaved(struct kunit *test)
{
	struct fake_null_qp_run run[2] = {};
	struct mlx5_umr_fake_counters before, after;
	struct task_struct *t[2];
	unsigned int i;
	u16 ci;

	run[0].ft = ft_setup(test, MLX5_UMR_FAKE_F_NULL, NULL, 6, 6);
	run[1].ft = ft_setup_on(test, run[0].ft->fake, 6, 6);
	KUNIT_ASSERT_NE(test, run[0].ft->qpn, run[1].ft->qpn);
	KUNIT_ASSERT_NE(test, run[0].ft->cq.cqn, run[1].ft->cq.cqn);
	run[0].other_batches = &run[1].batches;
	run[1].other_batches = &run[0].batches;
	mlx5_umr_fake_get_counters(run[0].ft->fake, &before);
	for (i = 0; i < 2; i++) {
		t[i] = kthread_create(fake_null_qp_thread, &run[i],
				      "fake_null_qp%u", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
		get_task_struct(t[i]);
	}
	for (i = 0; i < 2; i++)
		wake_up_process(t[i]);
	for (i = 0; i < 2; i++) {
		while (atomic_read(&run[i].batches) < FAKE_NULL_BATCHES)
			msleep(20);
		kthread_stop(t[i]);
		put_task_struct(t[i]);
	}
	mlx5_umr_fake_get_counters(run[0].ft->fake, &after);

	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ_MSG(test, run[i].bad, 0U, "QP %u, batch %u", i,
				    run[i].first_bad);
		KUNIT_EXPECT_EQ(test,
				mlx5_umr_fake_qp_state(run[i].ft->fake,
						       run[i].ft->qpn, &ci),
				MLX5_QP_STATE_RTS);
		KUNIT_EXPECT_EQ(test, ci, run[i].ft->pi);
	}
	/* the two really ran at the same time */
	KUNIT_EXPECT_GT(test, run[0].interleaved + run[1].interleaved, 0U);
	KUNIT_EXPECT_EQ(test, after.send_doorbells - before.send_doorbells,
			2ULL * FAKE_NULL_BATCHES);
	KUNIT_EXPECT_EQ(test, after.wqes - before.wqes,
			run[0].wqes + run[1].wqes);
	KUNIT_EXPECT_EQ(test, after.cqes - before.cqes,
			run[0].cqes + run[1].cqes);
	KUNIT_EXPECT_EQ(test, after.err_cqes, 0ULL);
	KUNIT_EXPECT_EQ(test, after.flush_cqes, 0ULL);
	KUNIT_EXPECT_EQ(test, after.cq_overruns, 0ULL);
	KUNIT_EXPECT_EQ(test, after.bad_doorbells, 0ULL);
	KUNIT_EXPECT_EQ(test, after.iommu_faults, 0ULL);
	ft_teardown(run[1].ft);
	ft_teardown(run[0].ft);
}

static struct kunit_case fake_null_qps_cases[] = {
	KUNIT_CASE(fake_null_two_qps_interleaved),
	{}
};

/* without the suite above's registered device: its own objects */
static struct kunit_suite fake_null_qps_suite = {
	.name = "mlx5_umr_fake_null_qps",
	.test_cases = fake_null_qps_cases,
};

static struct kunit_case fake_null_cases[] = {
	KUNIT_CASE(fake_null_completes_without_executing),
	KUNIT_CASE_PARAM(fake_null_doorbell, fake_null_raw_gen_params),
	{}
};

static struct kunit_suite fake_null_suite = {
	.name = "mlx5_umr_fake_null",
	.init = fake_null_init,
	.exit = fake_null_exit,
	.test_cases = fake_null_cases,
};

kunit_test_suites(&fake_null_suite, &fake_null_qps_suite);

MODULE_DESCRIPTION("KUnit tests of the fake mlx5 HCA's null device");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
