// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: PD queues (pd_queue.c) on a fake that runs SET_PSV only on a QP
 * of the PSV's PD (fake_umr.c, the rule of both references:
 * Documentation/signature.rst, "PSVs and their PD"). A signature mkey of
 * mlx5_umr_alloc_mkey_pd() configures twice and checks and strips T10 DIF
 * through the fake's data path, every SET_PSV on its PD queue's QP; the
 * same request forced onto a device queue (the service's PD) fails with
 * the fake's PSV_PD error; one queue per PD, gone after the last mkey with
 * its PA mkey; mlx5_umr_pd_free() deferred until then; set_queue, channel
 * calls and destroy refused on a PD queue; unplug with a PD queue alive.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/crc-t10dif.h>
#include <linux/scatterlist.h>

#include "svc_kunit.h"

#define PQ_BS		512
#define PQ_NBLK		2
#define PQ_WB		(PQ_BS + 8)		/* a wire block: data + DIF */
#define PQ_RAW		0			/* raw data in the page */
#define PQ_MEM		2048			/* where the stripped data goes */
#define PQ_APP		0x1234
#define PQ_REF		0x00abcdefU
#define PQ_ACC		(MLX5_UMR_ACCESS_LOCAL_WRITE | \
			 MLX5_UMR_ACCESS_REMOTE_READ | \
			 MLX5_UMR_ACCESS_REMOTE_WRITE)
#define PQ_POISON	0x5a
/* entries of a layout past the inline limit: a pointer-mode table */
#define PQ_PTR_SGES	64

struct pq_ctx {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	u32 pdn;
	struct page *page;
	u8 *mem;
	struct sg_table sgt;
	dma_addr_t dma;
	struct mlx5_umr_sge sge[PQ_PTR_SGES];
	struct mlx5_umr_sig_attr attr;
	u8 wire[PQ_NBLK * PQ_WB];
};

static int pq_init(struct kunit *test)
{
	struct pq_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	unsigned int i;

	if (!c)
		return -ENOMEM;
	test->priv = c;
	c->fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
	c->dev = umr_kunit_fake_umr(c->fake);
	KUNIT_ASSERT_EQ(test, mlx5_umr_pd_alloc(c->dev, &c->pdn), 0);
	c->page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->page);
	c->mem = page_address(c->page);
	memset(c->mem, PQ_POISON, PAGE_SIZE);
	for (i = 0; i < PQ_NBLK * PQ_BS; i++)
		c->mem[PQ_RAW + i] = (u8)(i * 7 + i / 251);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&c->sgt, 1, GFP_KERNEL), 0);
	sg_set_page(c->sgt.sgl, c->page, PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_dma_map_sg(c->dev, &c->sgt,
						  DMA_BIDIRECTIONAL), 0);
	c->dma = sg_dma_address(c->sgt.sgl);
	return 0;
}

static void pq_exit(struct kunit *test)
{
	struct pq_ctx *c = test->priv;

	if (!c)
		return;
	if (!c->fake) {
		/* pdq_unplug: the device went, the mapping before it */
		if (c->page)
			__free_page(c->page);
		return;
	}
	if (c->sgt.sgl) {
		mlx5_umr_dma_unmap_sg(c->dev, &c->sgt, DMA_BIDIRECTIONAL);
		sg_free_table(&c->sgt);
	}
	if (c->page)
		__free_page(c->page);
	mlx5_umr_pd_free(c->dev, c->pdn);
	mlx5_umr_fake_destroy(c->fake);
}

static struct mlx5_umr_mkey *pq_sig_mkey(struct kunit *test,
					 struct pq_ctx *c, u32 entries)
{
	struct mlx5_umr_mkey *mk;

	mk = mlx5_umr_alloc_mkey_pd(c->dev, entries, MLX5_UMR_MKEY_SIGNATURE,
				    c->pdn);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(mk));
	return mk;
}

/*
 * Configure @mk over the memory at @off in @nsge entries: memory without
 * PI, the wire with T10 DIF (CRC guard, seed 0, app tag, ref tag counting
 * per block). The entries' key is the PD queue's PA mkey, the one key of
 * the PD the test has (nested keys are checked against the accessing
 * QP's PD).
 */
static int pq_configure_n(struct pq_ctx *c, struct mlx5_umr_mkey *mk,
			  u32 off, unsigned int nsge, struct mlx5_umr_wr *out)
{
	struct mlx5_umr_wr wr = {
		.mkey = mk,
		.op = MLX5_UMR_OP_CONFIGURE,
		/* past the inline limit, the signature is kept, not set */
		.flags = MLX5_UMR_WR_SET_ACCESS |
			 (nsge > 1 ? 0 : MLX5_UMR_WR_SET_SIG),
		.access = PQ_ACC,
		.layout = MLX5_UMR_LAYOUT_LIST,
		.list = { .sge = c->sge, .num_sge = nsge },
		.sig = &c->attr,
	};
	u32 len = PQ_NBLK * PQ_BS / nsge;
	unsigned int i;
	int ret;

	c->attr = (struct mlx5_umr_sig_attr) {
		.wire = { .sig_type = MLX5_UMR_SIG_T10DIF,
			  .dif = { .bg_type = MLX5_UMR_SIG_T10DIF_CRC,
				   .app_tag = PQ_APP, .ref_tag = PQ_REF,
				   .flags = MLX5_UMR_SIG_T10DIF_REF_REMAP },
			  .block_size = MLX5_UMR_SIG_BLOCK_512 },
		.check_mask = 0xff,
	};
	for (i = 0; i < nsge; i++)
		c->sge[i] = (struct mlx5_umr_sge) {
			.addr = c->dma + off + i * len,
			.length = len,
			.key = mlx5_umr_mkey_queue(mk)->wq_ctx.ptr_lkey,
		};
	ret = mlx5_umr_exec(c->dev, &wr, 0);
	if (out)
		*out = wr;
	return ret;
}

static int pq_configure(struct pq_ctx *c, struct mlx5_umr_mkey *mk, u32 off,
			struct mlx5_umr_wr *out)
{
	return pq_configure_n(c, mk, off, 1, out);
}

static int pq_xfer(struct kunit *test, struct pq_ctx *c,
		   struct mlx5_umr_mkey *mk, bool write, bool *sig_err)
{
	struct mlx5_umr_test_xfer_out out;
	int ret;

	ret = mlx5_umr_test_xfer_out(c->dev, mk->key, 0, c->wire,
				     sizeof(c->wire), write, true, &out);
	*sig_err = out.sig_err;
	if (out.sig_err)
		KUNIT_EXPECT_EQ(test, mlx5_umr_sig_report(c->dev, &out.cqe), 0);
	return ret;
}

/*
 * The exec log: @n WQEs, each on @qpn with status 0; how many of them
 * were SET_PSV.
 */
static unsigned int pq_psvs_on(struct kunit *test, struct pq_ctx *c, u32 qpn,
			       unsigned int want)
{
	struct mlx5_umr_fake_exec_ent e[32];
	unsigned int n, i, psvs = 0, dropped = 0;

	n = mlx5_umr_fake_exec_log_read(c->fake, 0, e, ARRAY_SIZE(e),
					&dropped);
	KUNIT_EXPECT_EQ(test, dropped, 0);
	KUNIT_EXPECT_EQ(test, n, want);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, e[i].qpn, qpn);
		KUNIT_EXPECT_EQ(test, e[i].syndrome, 0);
		psvs += e[i].opcode == MLX5_OPCODE_SET_PSV;
	}
	return psvs;
}

/*
 * A signature mkey of a kernel PD: homed on a new queue whose QP is in
 * that PD; configured twice (PI inserted on a read, then checked and
 * stripped on a write into other memory), a corrupted block reported as a
 * guard error and the PSV re-armed by the check; every WQE, SET_PSV
 * included, on the PD queue's QP with status 0.
 */
static void pdq_sig_configure_twice(struct kunit *test)
{
	struct pq_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;
	struct mlx5_umr_queue *q;
	struct mlx5_umr_mkey *mk;
	unsigned int i;
	bool sig_err;
	u16 j;

	mk = pq_sig_mkey(test, c, 4);
	q = mlx5_umr_mkey_queue(mk);
	for (j = 0; j < c->dev->nqueues; j++)
		KUNIT_EXPECT_PTR_NE(test, q, c->dev->queues[j]);
	KUNIT_EXPECT_EQ(test, q->pdn, c->pdn);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->fake, q->sq.qpn, NULL),
			MLX5_QP_STATE_RTS);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_exec_log_start(c->fake, 32), 0);

	/* 1: read raw data, the wire view gets a DIF per block */
	KUNIT_ASSERT_EQ(test, pq_configure(c, mk, PQ_RAW, NULL), 0);
	KUNIT_ASSERT_EQ(test, pq_xfer(test, c, mk, false, &sig_err), 0);
	KUNIT_EXPECT_FALSE(test, sig_err);
	for (i = 0; i < PQ_NBLK; i++) {
		const u8 *blk = c->wire + i * PQ_WB, *pi = blk + PQ_BS;

		KUNIT_EXPECT_EQ(test, memcmp(blk, c->mem + PQ_RAW + i * PQ_BS,
					     PQ_BS), 0);
		KUNIT_EXPECT_EQ(test, get_unaligned_be16(pi),
				crc_t10dif(blk, PQ_BS));
		KUNIT_EXPECT_EQ(test, get_unaligned_be16(pi + 2), PQ_APP);
		KUNIT_EXPECT_EQ(test, get_unaligned_be32(pi + 4), PQ_REF + i);
	}

	/* 2: write the wire bytes elsewhere: checked, stripped */
	KUNIT_ASSERT_EQ(test, pq_configure(c, mk, PQ_MEM, NULL), 0);
	KUNIT_ASSERT_EQ(test, pq_xfer(test, c, mk, true, &sig_err), 0);
	KUNIT_EXPECT_FALSE(test, sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(c->mem + PQ_MEM, c->mem + PQ_RAW,
				     PQ_NBLK * PQ_BS), 0);
	KUNIT_EXPECT_EQ(test, c->mem[PQ_MEM + PQ_NBLK * PQ_BS], PQ_POISON);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(mk, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_NONE);

	/* a flipped byte of block 1: a guard error, the check re-arms */
	c->wire[PQ_WB + 3] ^= 0x01;
	KUNIT_EXPECT_EQ(test, pq_xfer(test, c, mk, true, &sig_err), 0);
	KUNIT_EXPECT_TRUE(test, sig_err);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(mk, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_GUARD);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(mk, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_NONE);

	/*
	 * Two configures and one re-arm, each a UMR and the wire domain's
	 * SET_PSV (no memory domain: rdma-core's chain sets only the PSVs
	 * of the domains it has), all on the PD queue
	 */
	KUNIT_EXPECT_EQ(test, pq_psvs_on(test, c, q->sq.qpn, 6), 3);
	mlx5_umr_fake_exec_log_stop(c->fake);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
}

/*
 * Negative control: the same chain forced onto device queue 0 (the
 * service's PD) fails on its SET_PSV with the fake's PSV_PD error; back on
 * its home it succeeds. Main's service (no PD queues) posted it there.
 */
static void pdq_forced_service_queue(struct kunit *test)
{
	struct pq_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(c->dev);
	struct mlx5_umr_fake_exec_ent e[8];
	unsigned int n, dropped = 0;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;

	mk = pq_sig_mkey(test, c, 4);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_exec_log_start(c->fake, 8), 0);
	WRITE_ONCE(c->dev->test_route, q0);
	KUNIT_EXPECT_EQ(test, pq_configure(c, mk, PQ_RAW, &wr), -EIO);
	WRITE_ONCE(c->dev->test_route, NULL);
	KUNIT_EXPECT_EQ(test, wr.syndrome, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	n = mlx5_umr_fake_exec_log_read(c->fake, 0, e, ARRAY_SIZE(e),
					&dropped);
	KUNIT_ASSERT_GE(test, n, 2);
	KUNIT_EXPECT_EQ(test, e[0].opcode, MLX5_OPCODE_UMR);
	KUNIT_EXPECT_EQ(test, e[0].qpn, q0->sq.qpn);
	KUNIT_EXPECT_EQ(test, e[0].syndrome, 0);
	KUNIT_EXPECT_EQ(test, e[1].opcode, MLX5_OPCODE_SET_PSV);
	KUNIT_EXPECT_EQ(test, e[1].qpn, q0->sq.qpn);
	KUNIT_EXPECT_TRUE(test, e[1].index == mk->psv[0] ||
			  e[1].index == mk->psv[1]);
	KUNIT_EXPECT_EQ(test, e[1].syndrome, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	KUNIT_EXPECT_EQ(test, e[1].vendor_syndrome, MLX5_UMR_FAKE_VS_PSV_PD);
	mlx5_umr_fake_exec_log_stop(c->fake);

	KUNIT_EXPECT_EQ(test, pq_configure(c, mk, PQ_RAW, NULL), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
}

/*
 * One queue per PD, taken by its signature mkeys only: a plain mkey of
 * the PD stays on a device queue; the queue and its PA mkey (local read
 * and write, PA, in the PD) go with the last signature mkey; a pointer-
 * mode translation table is read through that key, in the QP's PD.
 */
static void pdq_refcount_ptr_lkey(struct kunit *test)
{
	struct pq_ctx *c = test->priv;
	struct mlx5_umr_fake_counters was, now;
	u32 mkc[MLX5_ST_SZ_DW(mkc)] = {};
	struct mlx5_umr_mkey *a, *b, *plain;
	struct mlx5_umr_queue *q;
	struct mlx5_umr_fake_exec_ent e = {};
	struct mlx5_umr_wr wr;
	u32 key;
	u16 j;

	mlx5_umr_fake_get_counters(c->fake, &was);
	plain = mlx5_umr_alloc_mkey_pd(c->dev, 4, 0, c->pdn);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plain));
	for (j = 0; j < c->dev->nqueues; j++)
		if (mlx5_umr_mkey_queue(plain) == c->dev->queues[j])
			break;
	KUNIT_EXPECT_LT(test, j, c->dev->nqueues);

	/* larger than inline: a pointer-mode table */
	KUNIT_ASSERT_LT(test, mlx5_umr_dev_caps(c->dev)->max_inline_entries,
			PQ_PTR_SGES);
	a = pq_sig_mkey(test, c, PQ_PTR_SGES);
	b = pq_sig_mkey(test, c, 4);
	q = mlx5_umr_mkey_queue(a);
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_mkey_queue(b), q);
	KUNIT_EXPECT_EQ(test, q->refs, 2);
	mlx5_umr_fake_get_counters(c->fake, &now);
	KUNIT_EXPECT_EQ(test, now.qps, was.qps + 1);
	KUNIT_EXPECT_EQ(test, now.cqs, was.cqs + 1);
	/* plain, a, b and the PA mkey */
	KUNIT_EXPECT_EQ(test, now.mkeys, was.mkeys + 4);

	KUNIT_ASSERT_GE(test, mlx5_umr_fake_query_mkey(c->fake,
						       q->wq_ctx.ptr_lkey,
						       mkc, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, pd), c->pdn);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, access_mode_1_0),
			MLX5_MKC_ACCESS_MODE_PA);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, lr), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, lw), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, rr), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, rw), 0);
	KUNIT_EXPECT_NE(test, q->wq_ctx.ptr_lkey,
			mlx5_umr_dev_caps(c->dev)->dma_lkey);

	/*
	 * A signature chain is inline (rule 51); a configure keeping the
	 * signature takes a pointer-mode table, read as the PD queue's QP
	 * through its PA mkey; through the service's (another PD) the fake
	 * refuses the read.
	 */
	KUNIT_EXPECT_EQ(test, pq_configure(c, a, PQ_RAW, NULL), 0);
	key = q->wq_ctx.ptr_lkey;
	q->wq_ctx.ptr_lkey = mlx5_umr_dev_caps(c->dev)->dma_lkey;
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_exec_log_start(c->fake, 4), 0);
	KUNIT_EXPECT_EQ(test, pq_configure_n(c, a, PQ_RAW, PQ_PTR_SGES, &wr),
			-EIO);
	q->wq_ctx.ptr_lkey = key;
	KUNIT_EXPECT_EQ(test, wr.syndrome, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_exec_log_read(c->fake, 0, &e, 1,
							  NULL), 1);
	KUNIT_EXPECT_EQ(test, e.qpn, q->sq.qpn);
	KUNIT_EXPECT_EQ(test, e.vendor_syndrome, MLX5_UMR_FAKE_VS_XLT_PD);
	mlx5_umr_fake_exec_log_stop(c->fake);
	KUNIT_EXPECT_EQ(test, pq_configure_n(c, a, PQ_RAW, PQ_PTR_SGES, NULL),
			0);
	KUNIT_EXPECT_EQ(test, pq_configure(c, b, PQ_RAW, NULL), 0);

	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(a), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->fake, q->sq.qpn, NULL),
			MLX5_QP_STATE_RTS);
	KUNIT_EXPECT_EQ(test, q->refs, 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(b), 0);
	mlx5_umr_fake_get_counters(c->fake, &now);
	KUNIT_EXPECT_EQ(test, now.qps, was.qps);
	KUNIT_EXPECT_EQ(test, now.cqs, was.cqs);
	KUNIT_EXPECT_EQ(test, now.mkeys, was.mkeys + 1);
	KUNIT_EXPECT_EQ(test, now.psvs, was.psvs);
	KUNIT_EXPECT_NULL(test, xa_load(&c->dev->pd_queues, c->pdn));
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(plain), 0);
}

/*
 * mlx5_umr_pd_free() while the PD queue lives is deferred: the PD stays
 * (its QP, PA mkey and PSVs are in it), the mkey still configures; the
 * last mkey's free destroys the queue and then deallocates the PD.
 */
static void pdq_pd_free_deferred(struct kunit *test)
{
	struct pq_ctx *c = test->priv;
	struct mlx5_umr_fake_counters was, now;
	struct mlx5_umr_mkey *mk;

	mk = pq_sig_mkey(test, c, 4);
	mlx5_umr_fake_get_counters(c->fake, &was);
	mlx5_umr_pd_free(c->dev, c->pdn);
	mlx5_umr_fake_get_counters(c->fake, &now);
	KUNIT_EXPECT_EQ(test, now.pds, was.pds);
	KUNIT_EXPECT_TRUE(test, mlx5_umr_mkey_queue(mk)->free_pd);
	KUNIT_EXPECT_EQ(test, pq_configure(c, mk, PQ_RAW, NULL), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	mlx5_umr_fake_get_counters(c->fake, &now);
	KUNIT_EXPECT_EQ(test, now.pds, was.pds - 1);
	KUNIT_EXPECT_EQ(test, now.qps, was.qps - 1);
	KUNIT_EXPECT_EQ(test, now.mkeys, was.mkeys - 2);
	KUNIT_EXPECT_EQ(test, now.psvs, was.psvs - 2);
	/* freed: pq_exit must not free it again */
	KUNIT_ASSERT_EQ(test, mlx5_umr_pd_alloc(c->dev, &c->pdn), 0);
}

/*
 * A PD queue is the service's: no move onto it nor off it, no channel
 * call on it. The service's PD has no PD queue, an ib_pd none either.
 */
static void pdq_refusals(struct kunit *test)
{
	struct pq_ctx *c = test->priv;
	struct mlx5_umr_mkey *mk, *plain, *dsig;
	struct mlx5_umr_queue *q, *q0 = mlx5_umr_dev_q0(c->dev);

	mk = pq_sig_mkey(test, c, 4);
	q = mlx5_umr_mkey_queue(mk);
	plain = mlx5_umr_alloc_mkey(c->dev, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plain));
	dsig = mlx5_umr_alloc_mkey(c->dev, 4, MLX5_UMR_MKEY_SIGNATURE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dsig));

	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_set_queue(mk, q0), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_mkey_queue(mk), q);
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_set_queue(mk, q), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_set_queue(plain, q), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_set_queue(dsig, q), -EINVAL);
	KUNIT_EXPECT_PTR_NE(test, mlx5_umr_mkey_queue(plain), q);
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_queue_alloc_mkey(q, 4, 0),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_poll(q, 1), -EINVAL);
	/* a signature mkey of the service's PD stays on a device queue */
	KUNIT_EXPECT_FALSE(test, mlx5_umr_mkey_queue(dsig)->pdq);

	mlx5_umr_free_mkey(dsig);
	mlx5_umr_free_mkey(plain);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
}

/*
 * Unplug with a PD queue alive: its QP, CQ and PA mkey go with the
 * device, and the PD whose free was deferred; the mkey's free afterwards
 * only frees memory and the queue structure.
 */
static void pdq_unplug(struct kunit *test)
{
	struct pq_ctx *c = test->priv;
	struct mlx5_umr_fake_counters cnt;
	struct mlx5_umr_queue *q;
	struct mlx5_umr_mkey *mk;

	mk = pq_sig_mkey(test, c, 4);
	q = mlx5_umr_mkey_queue(mk);
	KUNIT_EXPECT_EQ(test, pq_configure(c, mk, PQ_RAW, NULL), 0);
	mlx5_umr_pd_free(c->dev, c->pdn);
	mlx5_umr_dma_unmap_sg(c->dev, &c->sgt, DMA_BIDIRECTIONAL);
	sg_free_table(&c->sgt);
	c->sgt.sgl = NULL;

	mlx5_umr_unregister_hca(mlx5_umr_fake_hca(c->fake));
	KUNIT_EXPECT_TRUE(test, q->gone);
	mlx5_umr_fake_get_counters(c->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.qps, 0);
	KUNIT_EXPECT_EQ(test, cnt.cqs, 0);
	KUNIT_EXPECT_EQ(test, cnt.mkeys, 0);
	KUNIT_EXPECT_EQ(test, cnt.psvs, 0);
	KUNIT_EXPECT_EQ(test, cnt.pds, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	mlx5_umr_fake_destroy(c->fake);
	c->fake = NULL;
}

static struct kunit_case pq_cases[] = {
	KUNIT_CASE(pdq_sig_configure_twice),
	KUNIT_CASE(pdq_forced_service_queue),
	KUNIT_CASE(pdq_refcount_ptr_lkey),
	KUNIT_CASE(pdq_pd_free_deferred),
	KUNIT_CASE(pdq_refusals),
	KUNIT_CASE(pdq_unplug),
	{}
};

static struct kunit_suite pq_suite = {
	.name = "mlx5_umr_svc_pdq",
	.init = pq_init,
	.exit = pq_exit,
	.test_cases = pq_cases,
};

kunit_test_suite(pq_suite);

MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
MODULE_DESCRIPTION("KUnit tests of mlx5-umr PD queues on the fake");
MODULE_LICENSE("Dual BSD/GPL");
