// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: KUnit tests of consumers' protection domains, against the fake
 * HCA and its stand-ins of mlx5_ib's objects (drivers/fake/fake_ib.c): a
 * ULP's struct ib_pd resolved to the HCA's PD, refused when it is not this
 * device's, mkeys created in it and moved to it, the SGT layout's DMA key
 * valid in the mkey's PD, and the PD of an mkey the HCA did not destroy
 * kept.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_fake.h>
#include <linux/mlx5_umr_hca.h>
#include <rdma/ib_verbs.h>

#include "umr.h"
#include "umr_kunit.h"

#define PT_ACC (MLX5_UMR_ACCESS_LOCAL_WRITE | MLX5_UMR_ACCESS_REMOTE_READ | \
		MLX5_UMR_ACCESS_REMOTE_WRITE)
#define PT_RAE MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR

struct pt_ctx {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct ib_pd *ibpd;		/* the consumer's, on the fake */
	struct page *page;		/* a pattern, mapped in @sgt */
	struct sg_table sgt;
};

static int pt_init(struct kunit *test)
{
	struct pt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	u8 *p;
	int i;

	if (!c)
		return -ENOMEM;
	test->priv = c;
	c->fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
	c->dev = umr_kunit_fake_umr(c->fake);
	c->ibpd = mlx5_umr_fake_ib_pd_alloc(c->fake);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->ibpd));
	c->page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->page);
	p = page_address(c->page);
	for (i = 0; i < PAGE_SIZE; i++)
		p[i] = i * 7 + 3;
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&c->sgt, 1, GFP_KERNEL), 0);
	sg_set_page(c->sgt.sgl, c->page, PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_dma_map_sg(c->dev, &c->sgt,
						  DMA_BIDIRECTIONAL), 0);
	return 0;
}

static void pt_exit(struct kunit *test)
{
	struct pt_ctx *c = test->priv;

	if (!c || !c->fake)
		return;
	if (c->sgt.sgl) {
		mlx5_umr_dma_unmap_sg(c->dev, &c->sgt, DMA_BIDIRECTIONAL);
		sg_free_table(&c->sgt);
	}
	if (c->page)
		__free_page(c->page);
	if (!IS_ERR_OR_NULL(c->ibpd))
		mlx5_umr_fake_ib_pd_free(c->ibpd);
	mlx5_umr_fake_destroy(c->fake);
}

static u32 pt_live_mkeys(struct pt_ctx *c)
{
	struct mlx5_umr_fake_counters cnt;

	mlx5_umr_fake_get_counters(c->fake, &cnt);
	return cnt.mkeys;
}

/* The mkc of @key as the fake holds it, and its first KLM's key. */
static u32 pt_mkey_pd(struct kunit *test, struct pt_ctx *c, u32 key,
		      u32 *klm0_key)
{
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	struct mlx5_klm klm[4];

	KUNIT_EXPECT_GT(test, mlx5_umr_fake_query_mkey(c->fake, key, mkc, klm,
						       sizeof(klm)), 0);
	if (klm0_key)
		*klm0_key = be32_to_cpu(klm[0].key);
	return MLX5_GET(mkc, mkc, pd);
}

/* A scatterlist layout of the pattern page: the sample ULP's I/O. */
static void pt_sgt_wr(struct mlx5_umr_wr *wr, struct pt_ctx *c,
		      struct mlx5_umr_mkey *mk)
{
	memset(wr, 0, sizeof(*wr));
	wr->mkey = mk;
	wr->op = MLX5_UMR_OP_CONFIGURE;
	wr->flags = MLX5_UMR_WR_SET_ACCESS;
	wr->access = PT_ACC;
	wr->layout = MLX5_UMR_LAYOUT_SGT;
	wr->sgt.sgl = c->sgt.sgl;
	wr->sgt.nents = 1;
	wr->sgt.length = PAGE_SIZE;
}

/* A read of 64 bytes at @off by a QP of @pdn; the bytes checked on success. */
static int pt_read(struct kunit *test, struct pt_ctx *c, u32 pdn, u32 key,
		   u32 off)
{
	const u8 *p = page_address(c->page);
	u8 b[64];
	int ret;

	memset(b, 0, sizeof(b));
	ret = mlx5_umr_fake_xfer_pd(c->fake, pdn, key, off, b, sizeof(b),
				    false, true);
	if (!ret)
		KUNIT_EXPECT_EQ(test, memcmp(b, p + off, sizeof(b)), 0);
	return ret;
}

/*
 * The PD number comes from the HCA (a probe MR in the PD, QUERY_MKEY), the
 * DMA key is the PD's local_dma_lkey, and the probe MR is gone after.
 */
static void pt_resolve(struct kunit *test)
{
	struct pt_ctx *c = test->priv;
	u32 pdn = mlx5_umr_fake_ib_pdn(c->ibpd), before = pt_live_mkeys(c);
	struct mlx5_umr_pd *pd;
	struct mlx5_umr_dev *dev;

	dev = mlx5_umr_dev_get_ib(c->ibpd->device);
	KUNIT_ASSERT_PTR_EQ(test, dev, c->dev);
	pd = mlx5_umr_pd_get_ib(dev, c->ibpd);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	KUNIT_EXPECT_EQ(test, pd->pdn, pdn);
	KUNIT_EXPECT_NE(test, pd->pdn, c->dev->caps.pdn);
	KUNIT_EXPECT_EQ(test, pd->dma_lkey, c->ibpd->local_dma_lkey);
	KUNIT_EXPECT_PTR_EQ(test, pd->dev, c->dev);
	KUNIT_EXPECT_EQ(test, pt_live_mkeys(c), before);
	mlx5_umr_pd_put(pd);
	mlx5_umr_dev_put(dev);
}

/*
 * Refusals: not mlx5 (EOPNOTSUPP), another mlx5 device (EXDEV), a user's
 * PD (EINVAL); nothing is left on either fake.
 */
static void pt_refused(struct kunit *test)
{
	struct pt_ctx *c = test->priv;
	struct mlx5_umr_fake *other = umr_kunit_fake_registered(test,
							MLX5_UMR_FAKE_F_SYNC);
	struct ib_device *rxe = kunit_kzalloc(test, sizeof(*rxe), GFP_KERNEL);
	struct ib_pd *opd = mlx5_umr_fake_ib_pd_alloc(other);
	struct ib_pd foreign = { .device = rxe };
	struct ib_uobject uobj = {};
	u32 before = pt_live_mkeys(c);
	struct mlx5_umr_pd *pd;

	KUNIT_ASSERT_NOT_NULL(test, rxe);
	KUNIT_ASSERT_FALSE(test, IS_ERR(opd));
	rxe->ops.driver_id = RDMA_DRIVER_RXE;
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_pd_get_ib(c->dev, &foreign),
			    ERR_PTR(-EOPNOTSUPP));
	pd = mlx5_umr_pd_get_ib(c->dev, opd);
	KUNIT_EXPECT_PTR_EQ(test, pd, ERR_PTR(-EXDEV));
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_pd_get_ib(c->dev, NULL),
			    ERR_PTR(-EINVAL));
	c->ibpd->uobject = &uobj;
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_pd_get_ib(c->dev, c->ibpd),
			    ERR_PTR(-EINVAL));
	c->ibpd->uobject = NULL;
	KUNIT_EXPECT_EQ(test, pt_live_mkeys(c), before);
	/* the other device resolves its own PD */
	pd = mlx5_umr_pd_get_ib(umr_kunit_fake_umr(other), opd);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	KUNIT_EXPECT_EQ(test, pd->pdn, mlx5_umr_fake_ib_pdn(opd));
	mlx5_umr_pd_put(pd);
	mlx5_umr_fake_ib_pd_free(opd);
	mlx5_umr_fake_destroy(other);
}

/*
 * An mkey in the consumer's PD with an SGT layout: its KLMs name the PD's
 * DMA key, and a QP of that PD reads the bytes; a QP of the service's PD
 * does not. With the service's DMA key instead (what the SGT layout named
 * before keys followed the PD), the consumer's read fails at level 1.
 */
static void pt_sgt_in_pd(struct kunit *test)
{
	struct pt_ctx *c = test->priv;
	u32 svc = c->dev->caps.pdn, klm_key;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	struct mlx5_umr_pd *pd;

	pd = mlx5_umr_pd_get_ib(c->dev, c->ibpd);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	mk = mlx5_umr_alloc_mkey_in(pd, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	KUNIT_EXPECT_EQ(test, mk->dma_lkey, pd->dma_lkey);
	KUNIT_EXPECT_EQ(test, pt_mkey_pd(test, c, mk->key, NULL), pd->pdn);

	pt_sgt_wr(&wr, c, mk);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, wr.status, 0);
	KUNIT_EXPECT_EQ(test, pt_mkey_pd(test, c, mk->key, &klm_key), pd->pdn);
	KUNIT_EXPECT_EQ(test, klm_key, c->ibpd->local_dma_lkey);
	KUNIT_EXPECT_EQ(test, pt_read(test, c, pd->pdn, mk->key, 100), 0);
	KUNIT_EXPECT_EQ(test, pt_read(test, c, svc, mk->key, 100), PT_RAE);

	/* the service's PA mkey: valid in the service's PD only */
	pt_sgt_wr(&wr, c, mk);
	wr.sgt.lkey = c->dev->caps.dma_lkey;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, pt_read(test, c, pd->pdn, mk->key, 100), PT_RAE);
	KUNIT_EXPECT_EQ(test, pt_read(test, c, svc, mk->key, 100), PT_RAE);

	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	mlx5_umr_pd_put(pd);
}

/*
 * An mkey moved from the service's PD to the consumer's with its next
 * SGT layout: the request must give the new PD's DMA key (rule 37,
 * refused before anything is posted), then only the consumer reads.
 */
static void pt_sgt_move(struct kunit *test)
{
	struct pt_ctx *c = test->priv;
	u32 svc = c->dev->caps.pdn, klm_key;
	struct mlx5_umr_fake_counters before, after;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	struct mlx5_umr_pd *pd;

	pd = mlx5_umr_pd_get_ib(c->dev, c->ibpd);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	mk = mlx5_umr_alloc_mkey(c->dev, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	KUNIT_EXPECT_EQ(test, mk->dma_lkey, c->dev->caps.dma_lkey);
	pt_sgt_wr(&wr, c, mk);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, pt_read(test, c, svc, mk->key, 0), 0);
	KUNIT_EXPECT_EQ(test, pt_read(test, c, pd->pdn, mk->key, 0), PT_RAE);

	mlx5_umr_fake_get_counters(c->fake, &before);
	pt_sgt_wr(&wr, c, mk);
	wr.flags |= MLX5_UMR_WR_SET_PD;
	wr.pdn = pd->pdn;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -EINVAL);
	mlx5_umr_fake_get_counters(c->fake, &after);
	KUNIT_EXPECT_EQ(test, after.wqes, before.wqes);

	wr.sgt.lkey = pd->dma_lkey;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, wr.status, 0);
	KUNIT_EXPECT_EQ(test, pt_mkey_pd(test, c, mk->key, &klm_key), pd->pdn);
	KUNIT_EXPECT_EQ(test, klm_key, pd->dma_lkey);
	KUNIT_EXPECT_EQ(test, pt_read(test, c, pd->pdn, mk->key, 0), 0);
	KUNIT_EXPECT_EQ(test, pt_read(test, c, svc, mk->key, 0), PT_RAE);

	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	mlx5_umr_pd_put(pd);
}

/*
 * The mkey's DMA key follows its PD: after a move the next SGT layout
 * without a key names the new PD's (not the one it was allocated in), a
 * move back to the service's PD names the service's again, and after a
 * move the HCA failed (it may or may not have applied it) no key is
 * known: the next SGT layout without one is refused before posting.
 */
static void pt_sgt_follows_move(struct kunit *test)
{
	struct pt_ctx *c = test->priv;
	u32 svc = c->dev->caps.pdn, klm_key;
	struct mlx5_umr_fake_counters before, after;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	struct mlx5_umr_pd *pd;

	pd = mlx5_umr_pd_get_ib(c->dev, c->ibpd);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	mk = mlx5_umr_alloc_mkey(c->dev, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	pt_sgt_wr(&wr, c, mk);
	wr.flags |= MLX5_UMR_WR_SET_PD;
	wr.pdn = pd->pdn;
	wr.sgt.lkey = pd->dma_lkey;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mk->dma_lkey, pd->dma_lkey);

	pt_sgt_wr(&wr, c, mk);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, pt_mkey_pd(test, c, mk->key, &klm_key), pd->pdn);
	KUNIT_EXPECT_EQ(test, klm_key, pd->dma_lkey);
	KUNIT_EXPECT_EQ(test, pt_read(test, c, pd->pdn, mk->key, 64), 0);

	pt_sgt_wr(&wr, c, mk);
	wr.flags |= MLX5_UMR_WR_SET_PD;
	wr.pdn = svc;
	wr.sgt.lkey = c->dev->caps.dma_lkey;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	pt_sgt_wr(&wr, c, mk);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, pt_mkey_pd(test, c, mk->key, &klm_key), svc);
	KUNIT_EXPECT_EQ(test, klm_key, c->dev->caps.dma_lkey);
	KUNIT_EXPECT_EQ(test, pt_read(test, c, svc, mk->key, 64), 0);

	/* a failed move: the PD, and so its DMA key, is unknown */
	pt_sgt_wr(&wr, c, mk);
	wr.flags |= MLX5_UMR_WR_SET_PD;
	wr.pdn = pd->pdn;
	wr.sgt.lkey = pd->dma_lkey;
	mlx5_umr_fake_inject_wqe_error(c->fake, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -EIO);
	KUNIT_EXPECT_EQ(test, mk->dma_lkey, 0U);
	mlx5_umr_fake_get_counters(c->fake, &before);
	pt_sgt_wr(&wr, c, mk);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -EINVAL);
	mlx5_umr_fake_get_counters(c->fake, &after);
	KUNIT_EXPECT_EQ(test, after.wqes, before.wqes);

	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	mlx5_umr_pd_put(pd);
}

/*
 * A PD whose local_dma_lkey the HCA does not confirm as a PA mkey of that
 * PD has no DMA key: SGT layouts in it need one given (rule 37).
 */
static void pt_no_dma_key(struct kunit *test)
{
	struct pt_ctx *c = test->priv;
	u32 real = c->ibpd->local_dma_lkey;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	struct mlx5_umr_pd *pd;

	/* the service's PA mkey: a PA mkey, but of another PD */
	c->ibpd->local_dma_lkey = c->dev->caps.dma_lkey;
	pd = mlx5_umr_pd_get_ib(c->dev, c->ibpd);
	c->ibpd->local_dma_lkey = real;
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	KUNIT_EXPECT_EQ(test, pd->dma_lkey, 0U);
	mk = mlx5_umr_alloc_mkey_in(pd, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	pt_sgt_wr(&wr, c, mk);
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &wr), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -EINVAL);
	wr.sgt.lkey = real;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, pt_read(test, c, pd->pdn, mk->key, 8), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	mlx5_umr_pd_put(pd);
}

/*
 * An mkey the HCA refuses to destroy keeps its PD: mlx5_umr_pd_free() sends
 * no DEALLOC_PD for it (the number must not go to another owner while the
 * live mkey is in it), while an empty PD is deallocated as before.
 */
static void pt_leaked_mkey_keeps_pd(struct kunit *test)
{
	struct umr_kunit_rec_hca *rh = umr_kunit_rec_hca_create(test,
						MLX5_UMR_FAKE_F_SYNC, 256, 0);
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_dev *dev;
	unsigned int i, deallocs = 0;
	int leaked;
	u32 x, y;

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(rh));
	KUNIT_ASSERT_EQ(test, mlx5_umr_register_hca(&rh->hca), 0);
	dev = rh->hca.umr;
	KUNIT_ASSERT_EQ(test, mlx5_umr_pd_alloc(dev, &x), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_pd_alloc(dev, &y), 0);
	mk = mlx5_umr_alloc_mkey_pd(dev, 1, 0, x);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	mlx5_umr_fake_inject_cmd_error(rh->fake, MLX5_CMD_OP_DESTROY_MKEY,
				       MLX5_CMD_STAT_BAD_RES_STATE_ERR, 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), -EREMOTEIO);

	leaked = atomic_read(&dev->leaked);
	umr_kunit_rec_reset(rh);
	mlx5_umr_pd_free(dev, x);
	mlx5_umr_pd_free(dev, y);
	spin_lock_irq(&rh->lock);
	for (i = 0; i < rh->n; i++) {
		const struct umr_kunit_rec *r = &rh->rec[i];

		if (r->kind != UMR_KUNIT_REC_CMD ||
		    r->opcode != MLX5_CMD_OP_DEALLOC_PD)
			continue;
		deallocs++;
		KUNIT_EXPECT_EQ(test, MLX5_GET(dealloc_pd_in, r->in, pd), y);
	}
	spin_unlock_irq(&rh->lock);
	KUNIT_EXPECT_EQ(test, deallocs, 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->leaked), leaked + 1);
	mlx5_umr_unregister_hca(&rh->hca);
	umr_kunit_rec_hca_destroy(rh);
}

static struct kunit_case pt_cases[] = {
	KUNIT_CASE(pt_resolve),
	KUNIT_CASE(pt_refused),
	KUNIT_CASE(pt_sgt_in_pd),
	KUNIT_CASE(pt_sgt_move),
	KUNIT_CASE(pt_sgt_follows_move),
	KUNIT_CASE(pt_no_dma_key),
	KUNIT_CASE(pt_leaked_mkey_keeps_pd),
	{}
};

static struct kunit_suite pt_suite = {
	.name = "mlx5_umr_pd",
	.init = pt_init,
	.exit = pt_exit,
	.test_cases = pt_cases,
};

kunit_test_suite(pt_suite);

MODULE_DESCRIPTION("mlx5-umr: KUnit tests of consumers' protection domains");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
