// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: mlx5_umr_sig_status_read() (sig_status.c), the signature status
 * read a ULP's completion handler makes: a SIG_ERR CQE the fake's
 * signature engine produced for a peer's write with a wrong reference tag
 * is reported and read in softirq and hard-IRQ-off context under a
 * spinlock; the status fields, the clear, and the HCA's latch until the
 * next MLX5_UMR_WR_SET_SIG are checked.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/crc-t10dif.h>
#include <linux/interrupt.h>
#include <linux/scatterlist.h>
#include <linux/mlx5_umr_compat.h>

#include "umr_kunit.h"

#define SS_BS		512
#define SS_NBLK		2
#define SS_PI		8
#define SS_WIRE		(SS_NBLK * (SS_BS + SS_PI))
#define SS_APP		0x2468
#define SS_REF		0x00c0ffeeU
#define SS_BAD_REF	0x11111111U

struct ss_ctx {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_mkey *mkey;
	struct page *page;
	struct sg_table sgt;
	struct mlx5_umr_sge sge;
	struct mlx5_umr_sig_attr attr;
	u8 wire[SS_WIRE];
	spinlock_t lock;	/* stands for a ULP's queue lock */
};

static int ss_init(struct kunit *test)
{
	struct ss_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	if (!c)
		return -ENOMEM;
	test->priv = c;
	spin_lock_init(&c->lock);
	c->fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
	c->dev = umr_kunit_fake_umr(c->fake);
	c->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_NOT_NULL(test, c->page);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&c->sgt, 1, GFP_KERNEL), 0);
	sg_set_page(c->sgt.sgl, c->page, PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_dma_map_sg(c->dev, &c->sgt,
						  DMA_BIDIRECTIONAL), 0);
	c->mkey = mlx5_umr_alloc_mkey(c->dev, 2, MLX5_UMR_MKEY_SIGNATURE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->mkey));
	return 0;
}

static void ss_exit(struct kunit *test)
{
	struct ss_ctx *c = test->priv;

	if (!c || !c->fake)
		return;
	if (c->mkey && !IS_ERR(c->mkey))
		mlx5_umr_free_mkey(c->mkey);
	if (c->sgt.sgl) {
		mlx5_umr_dma_unmap_sg(c->dev, &c->sgt, DMA_BIDIRECTIONAL);
		sg_free_table(&c->sgt);
	}
	if (c->page)
		__free_page(c->page);
	mlx5_umr_fake_destroy(c->fake);
}

/* Memory: plain data; wire: T10 DIF (CRC guard, ref +1 per block). */
static int ss_configure(struct ss_ctx *c)
{
	struct mlx5_umr_wr wr = {
		.mkey = c->mkey,
		.op = MLX5_UMR_OP_CONFIGURE,
		.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_SIG,
		.access = MLX5_UMR_ACCESS_LOCAL_WRITE |
			  MLX5_UMR_ACCESS_REMOTE_WRITE |
			  MLX5_UMR_ACCESS_REMOTE_READ,
		.layout = MLX5_UMR_LAYOUT_LIST,
		.list = { .sge = &c->sge, .num_sge = 1 },
		.sig = &c->attr,
	};

	c->attr = (struct mlx5_umr_sig_attr) {
		.wire = {
			.sig_type = MLX5_UMR_SIG_T10DIF,
			.dif = { .bg_type = MLX5_UMR_SIG_T10DIF_CRC, .bg = 0,
				 .app_tag = SS_APP, .ref_tag = SS_REF,
				 .flags = MLX5_UMR_SIG_T10DIF_REF_REMAP },
			.block_size = MLX5_UMR_SIG_BLOCK_512,
		},
		.check_mask = 0xff,
	};
	c->sge = (struct mlx5_umr_sge) {
		.addr = sg_dma_address(c->sgt.sgl),
		.length = SS_NBLK * SS_BS,
		.key = mlx5_umr_dev_caps(c->dev)->dma_lkey,
	};
	return mlx5_umr_exec(c->dev, &wr, 0);
}

/* Wire blocks with valid PI, block 1's ref tag replaced by @ref1. */
static void ss_fill_wire(struct ss_ctx *c, u32 ref1)
{
	unsigned int i, j;

	for (i = 0; i < SS_NBLK; i++) {
		u8 *b = c->wire + i * (SS_BS + SS_PI);

		for (j = 0; j < SS_BS; j++)
			b[j] = (u8)(i * 31 + j * 7);
		put_unaligned_be16(crc_t10dif(b, SS_BS), b + SS_BS);
		put_unaligned_be16(SS_APP, b + SS_BS + 2);
		put_unaligned_be32(i == 1 ? ref1 : SS_REF + i, b + SS_BS + 4);
	}
}

/* A peer's RDMA WRITE of the wire bytes; the SIG_ERR CQE, if one. */
static bool ss_write(struct kunit *test, struct ss_ctx *c,
		     struct mlx5_sig_err_cqe *cqe)
{
	struct mlx5_umr_test_xfer_out out = {};

	KUNIT_EXPECT_EQ(test, mlx5_umr_test_xfer_out(c->dev, c->mkey->key, 0,
						     c->wire, SS_WIRE, true,
						     true, &out), 0);
	*cqe = out.cqe;
	return out.sig_err;
}

static void ss_expect_ref_err(struct kunit *test, struct ss_ctx *c,
			      const struct mlx5_umr_sig_status *st)
{
	KUNIT_EXPECT_EQ(test, st->err_type, MLX5_UMR_SIG_ERR_REFTAG);
	KUNIT_EXPECT_EQ(test, st->expected, SS_REF + 1);
	KUNIT_EXPECT_EQ(test, st->actual, SS_BAD_REF);
	/* the last byte of block 1 in the input (wire) view */
	KUNIT_EXPECT_EQ(test, st->offset, 2 * (SS_BS + SS_PI) - 1);
	KUNIT_EXPECT_EQ(test, st->key, c->mkey->key);
	KUNIT_EXPECT_EQ(test, st->errors, 1);
}

/*
 * Reported and read in softirq context under the ULP's spinlock, then
 * again with interrupts off: the first read has the error, the second
 * none.
 */
static void sig_status_read_atomic(struct kunit *test)
{
	struct ss_ctx *c = test->priv;
	struct mlx5_umr_sig_status st, again;
	struct mlx5_sig_err_cqe cqe;
	unsigned long flags;
	int rep, rd;

	KUNIT_ASSERT_EQ(test, ss_configure(c), 0);
	ss_fill_wire(c, SS_BAD_REF);
	KUNIT_ASSERT_TRUE(test, ss_write(test, c, &cqe));

	memset(&st, 0xa5, sizeof(st));
	local_bh_disable();
	spin_lock(&c->lock);
	rep = mlx5_umr_sig_report(c->dev, &cqe);
	rd = mlx5_umr_sig_status_read(c->mkey, &st);
	spin_unlock(&c->lock);
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, rep, 0);
	KUNIT_EXPECT_EQ(test, rd, 0);
	ss_expect_ref_err(test, c, &st);

	memset(&again, 0xa5, sizeof(again));
	local_irq_save(flags);
	rd = mlx5_umr_sig_status_read(c->mkey, &again);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, rd, 0);
	KUNIT_EXPECT_EQ(test, again.err_type, MLX5_UMR_SIG_ERR_NONE);
	KUNIT_EXPECT_EQ(test, again.expected, 0);
	KUNIT_EXPECT_EQ(test, again.actual, 0);
	KUNIT_EXPECT_EQ(test, again.offset, 0);
	KUNIT_EXPECT_EQ(test, again.key, 0);
	KUNIT_EXPECT_EQ(test, again.errors, 0);
	/* and the sleeping check agrees: nothing pending */
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &again), 0);
	KUNIT_EXPECT_EQ(test, again.err_type, MLX5_UMR_SIG_ERR_NONE);
}

/*
 * Nothing was posted by the read: the HCA keeps the mkey disarmed (no
 * SIG_ERR CQE for the same bad write) until the next SET_SIG configure,
 * after which the error is reported and read again; a good write then
 * leaves the status clear. Two reports before a read count two errors.
 */
static void sig_status_read_rearm(struct kunit *test)
{
	struct ss_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;
	struct mlx5_sig_err_cqe cqe;

	KUNIT_ASSERT_EQ(test, ss_configure(c), 0);
	ss_fill_wire(c, SS_BAD_REF);
	KUNIT_ASSERT_TRUE(test, ss_write(test, c, &cqe));
	KUNIT_ASSERT_EQ(test, mlx5_umr_sig_report(c->dev, &cqe), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_sig_status_read(c->mkey, &st), 0);
	ss_expect_ref_err(test, c, &st);

	/* latched: the same bad write reports nothing */
	KUNIT_EXPECT_FALSE(test, ss_write(test, c, &cqe));
	KUNIT_ASSERT_EQ(test, mlx5_umr_sig_status_read(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_NONE);

	/* re-armed by the next registration with its signature */
	KUNIT_ASSERT_EQ(test, ss_configure(c), 0);
	KUNIT_ASSERT_TRUE(test, ss_write(test, c, &cqe));
	KUNIT_ASSERT_EQ(test, mlx5_umr_sig_report(c->dev, &cqe), 0);
	/* a second CQE before the read: counted, the first one kept */
	KUNIT_ASSERT_EQ(test, mlx5_umr_sig_report(c->dev, &cqe), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_sig_status_read(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_REFTAG);
	KUNIT_EXPECT_EQ(test, st.errors, 2);

	KUNIT_ASSERT_EQ(test, ss_configure(c), 0);
	ss_fill_wire(c, SS_REF + 1);
	KUNIT_EXPECT_FALSE(test, ss_write(test, c, &cqe));
	KUNIT_ASSERT_EQ(test, mlx5_umr_sig_status_read(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_NONE);
	KUNIT_EXPECT_EQ(test, st.errors, 0);
}

/* An mkey without signature, or no mkey: -EINVAL, @status untouched. */
static void sig_status_read_refused(struct kunit *test)
{
	struct ss_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;
	struct mlx5_umr_mkey *plain;

	plain = mlx5_umr_alloc_mkey(c->dev, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plain));
	memset(&st, 0x5a, sizeof(st));
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_status_read(plain, &st), -EINVAL);
	KUNIT_EXPECT_EQ(test, st.err_type, 0x5a5a5a5aU);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_status_read(NULL, &st), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_status_read(c->mkey, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(plain), 0);
}

static struct kunit_case ss_cases[] = {
	KUNIT_CASE(sig_status_read_atomic),
	KUNIT_CASE(sig_status_read_rearm),
	KUNIT_CASE(sig_status_read_refused),
	{}
};

static struct kunit_suite ss_suite = {
	.name = "mlx5_umr_sig_status",
	.init = ss_init,
	.exit = ss_exit,
	.test_cases = ss_cases,
};

kunit_test_suite(ss_suite);

MODULE_DESCRIPTION("KUnit tests of the non-sleeping signature status read");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
