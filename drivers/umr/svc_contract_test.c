// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the contract of include/linux/mlx5_umr.h as a storage ULP relies
 * on it (issue 32): attributes copied at post time, dependent requests of
 * a failed batch cancelled, no CHECK_FREE on an access change, no
 * signature mkey in a ULP's ib_pd, the key after a failure, DEKs named by
 * configured mkeys, a refused mkey destroy, DMA unmap while the device
 * goes, and the back-pressure errnos of mlx5_umr_post().
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/mlx5_umr_testing.h>

#include "svc_kunit.h"

#define CT_POISON	0xa5

static u32 ct_err_cqes(struct svc_ctx *c)
{
	struct mlx5_umr_fake_counters cnt;

	mlx5_umr_fake_get_counters(c->fake, &cnt);
	return cnt.err_cqes;
}

/* A plain configure whose WQE the fake fails: the batch's first. */
static void ct_failing(struct svc_ctx *c, struct svc_req *r,
		       struct mlx5_umr_mkey *mk, const struct mlx5_umr_sge *sge)
{
	svc_wr_list(&r->wr, mk, sge, 1, ACC_ALL);
	r->wr.done = svc_req_done;
	mlx5_umr_fake_inject_wqe_error(c->fake, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       MLX5_UMR_FAKE_VS_INJECTED);
}

/*
 * Item 1: a signature request flushed by the error of the request before
 * it is encoded again by recovery from the service's copy of its
 * attributes, not from the caller's, poisoned once mlx5_umr_post()
 * returned: its BSF is the one the same attributes give when posted anew.
 */
static void ct_sig_attrs_copied(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge = { MR_IOVA, 1040, c->mr[0].mkey->key };
	struct mlx5_umr_sig_attr *attr, good = {
		.mem = { .sig_type = MLX5_UMR_SIG_T10DIF,
			 .dif = { .bg = 0xffff, .app_tag = 0x1234,
				  .ref_tag = 0x5678 },
			 .block_size = MLX5_UMR_SIG_BLOCK_512 },
		.check_mask = 0xff,
	};
	struct mlx5_umr_mkey *plain, *sig;
	struct svc_req req[2] = {};
	struct mlx5_umr_wr *wrs[2] = { &req[0].wr, &req[1].wr };
	u8 bsf[64], again[64];
	int n;

	good.wire = good.mem;
	attr = kunit_kmalloc(test, sizeof(*attr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, attr);
	*attr = good;
	plain = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	sig = mlx5_umr_alloc_mkey(c->dev, 1, MLX5_UMR_MKEY_SIGNATURE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plain));
	KUNIT_ASSERT_FALSE(test, IS_ERR(sig));

	ct_failing(c, &req[0], plain, &sge);
	svc_wr_list(&req[1].wr, sig, &sge, 1, ACC_ALL);
	req[1].wr.flags |= MLX5_UMR_WR_SET_SIG;
	req[1].wr.sig = attr;
	req[1].wr.done = svc_req_done;
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, wrs, 2), 0);
	/* in flight, the request points at the service's copy */
	KUNIT_EXPECT_PTR_NE(test, req[1].wr.sig, attr);
	memset(attr, CT_POISON, sizeof(*attr));
	mlx5_umr_sq_flush(c->dev);
	KUNIT_EXPECT_EQ(test, req[0].wr.status, -EIO);
	KUNIT_ASSERT_EQ(test, req[1].calls, 1);
	KUNIT_EXPECT_EQ(test, req[1].wr.status, 0);
	/* the caller's pointer is back for done() */
	KUNIT_EXPECT_PTR_EQ(test, req[1].wr.sig, attr);
	n = mlx5_umr_fake_query_bsf(c->fake, sig->key, bsf, sizeof(bsf));
	KUNIT_ASSERT_GT(test, n, 0);

	req[1].wr.sig = &good;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &req[1].wr, 0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_bsf(c->fake, sig->key, again,
						      sizeof(again)), n);
	KUNIT_EXPECT_EQ(test, memcmp(bsf, again, n * 16), 0);
	mlx5_umr_free_mkey(sig);
	mlx5_umr_free_mkey(plain);
}

/* The crypto suite's fixture: a fake with a multi-block AES-XTS engine. */
static int ct_crypto_init(struct kunit *test)
{
	struct svc_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct mlx5_umr_fake_attr attr;

	if (!c)
		return -ENOMEM;
	test->priv = c;
	mlx5_umr_fake_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_SYNC;
	mlx5_umr_fake_set_crypto(&attr.caps, MLX5_UMR_FAKE_CRYPTO_MULTI_LE);
	c->fake = umr_kunit_fake_registered_attr(test, &attr);
	c->dev = umr_kunit_fake_umr(c->fake);
	return 0;
}

static struct mlx5_umr_dek *ct_dek(struct kunit *test, struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_dek_attr attr = {
		.key_size = MLX5_UMR_CRYPTO_KEY_SIZE_128,
		.pdn = mlx5_umr_dev_caps(dev)->pdn,
	};
	struct mlx5_umr_dek *dek;
	unsigned int i;

	/* key1 and key2 differ, as XTS wants */
	for (i = 0; i < 32; i++)
		attr.key[i] = i * 7 + 1;
	dek = mlx5_umr_dek_create(dev, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dek));
	return dek;
}

static void ct_crypto_wr(struct mlx5_umr_wr *wr, struct mlx5_umr_mkey *mk,
			 const struct mlx5_umr_sge *sge,
			 const struct mlx5_umr_crypto_attr *ca)
{
	svc_wr_list(wr, mk, sge, 1, ACC_ALL);
	wr->flags |= MLX5_UMR_WR_SET_CRYPTO;
	wr->crypto = ca;
	wr->done = svc_req_done;
}

/* Item 1, crypto: the same with crypto attributes. */
static void ct_crypto_attrs_copied(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_fake *fake = c->fake;
	struct mlx5_umr_dev *dev = c->dev;
	struct mlx5_umr_sge sge = {
		0x100000, 512, mlx5_umr_dev_caps(dev)->dma_lkey
	};
	struct mlx5_umr_crypto_attr *ca, good = {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.data_unit_size = MLX5_UMR_BLOCK_SIZE_512,
		.initial_tweak = { 1, 2, 3, 4, 5, 6, 7, 8 },
	};
	struct mlx5_umr_mkey *plain, *mk;
	struct svc_req req[2] = {};
	struct mlx5_umr_wr *wrs[2] = { &req[0].wr, &req[1].wr };
	struct mlx5_umr_dek *dek = ct_dek(test, dev);
	u8 bsf[64], again[64];
	int n;

	good.dek = dek;
	ca = kunit_kmalloc(test, sizeof(*ca), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ca);
	*ca = good;
	plain = mlx5_umr_alloc_mkey(dev, 1, 0);
	mk = mlx5_umr_alloc_mkey(dev, 1, MLX5_UMR_MKEY_CRYPTO);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plain));
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));

	ct_failing(c, &req[0], plain, &sge);
	ct_crypto_wr(&req[1].wr, mk, &sge, ca);
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(dev, wrs, 2), 0);
	memset(ca, CT_POISON, sizeof(*ca));
	mlx5_umr_sq_flush(dev);
	KUNIT_EXPECT_EQ(test, req[0].wr.status, -EIO);
	KUNIT_ASSERT_EQ(test, req[1].calls, 1);
	KUNIT_EXPECT_EQ(test, req[1].wr.status, 0);
	n = mlx5_umr_fake_query_bsf(fake, mk->key, bsf, sizeof(bsf));
	KUNIT_ASSERT_GT(test, n, 0);
	req[1].wr.crypto = &good;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &req[1].wr, 0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_bsf(fake, mk->key, again,
						      sizeof(again)), n);
	KUNIT_EXPECT_EQ(test, memcmp(bsf, again, n * 16), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(plain), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(dek), 0);
}

/*
 * Item 2: with MLX5_UMR_WR_DEPENDS the requests after a failed one of
 * their batch complete with -ECANCELED and never run; a later batch's
 * dependent request is not affected, nor is a request without the flag.
 */
static void ct_depends(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(c->dev);
	struct mlx5_umr_sge sge = { MR_IOVA, 64, c->mr[0].mkey->key };
	struct svc_seg segs[] = { { &c->mr[0], 0, 64 } };
	struct mlx5_umr_mkey *mk[5];
	struct svc_req *req = kunit_kcalloc(test, 5, sizeof(*req), GFP_KERNEL);
	struct mlx5_umr_wr *wrs[5];
	u8 byte = 0;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, req);
	for (i = 0; i < 5; i++) {
		mk[i] = mlx5_umr_alloc_mkey(c->dev, 1, 0);
		KUNIT_ASSERT_FALSE(test, IS_ERR(mk[i]));
		svc_wr_list(&req[i].wr, mk[i], &sge, 1, ACC_ALL);
		req[i].wr.done = svc_req_done;
		wrs[i] = &req[i].wr;
	}
	ct_failing(c, &req[0], mk[0], &sge);
	req[1].wr.flags |= MLX5_UMR_WR_DEPENDS;
	req[3].wr.flags |= MLX5_UMR_WR_DEPENDS;
	/* batch one: 0 fails, 1 and 3 depend on it, 2 does not */
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, wrs, 4), 0);
	/* batch two, flushed by the same error, depends on nothing failed */
	req[4].wr.flags |= MLX5_UMR_WR_DEPENDS;
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, &wrs[4], 1), 0);
	mlx5_umr_sq_flush(c->dev);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, req[i].calls, 1);
	KUNIT_EXPECT_EQ(test, req[0].wr.status, -EIO);
	KUNIT_EXPECT_EQ(test, req[1].wr.status, -ECANCELED);
	KUNIT_EXPECT_EQ(test, req[2].wr.status, 0);
	KUNIT_EXPECT_EQ(test, req[3].wr.status, -ECANCELED);
	KUNIT_EXPECT_EQ(test, req[4].wr.status, 0);
	/* the cancelled ones never ran: their mkeys are still free */
	KUNIT_EXPECT_NE(test, mlx5_umr_test_xfer(c->dev, mk[1]->key, 0, &byte,
						 1, false, true), 0);
	KUNIT_EXPECT_NE(test, mlx5_umr_test_xfer(c->dev, mk[3]->key, 0, &byte,
						 1, false, true), 0);
	svc_check_layout(test, c->dev, mk[2]->key, segs, 1);
	svc_check_layout(test, c->dev, mk[4]->key, segs, 1);
	KUNIT_EXPECT_EQ(test, q0->sq.state, MLX5_UMR_SQ_RTS);
	for (i = 0; i < 5; i++)
		mlx5_umr_free_mkey(mk[i]);
}

/*
 * Item 3: an access change (no layout) of an mkey a peer invalidated
 * (SEND_WITH_INV) is no error CQE and no recovery of the shared QP: no
 * CHECK_FREE; the mkey stays free, its old translation not enabled.
 */
static void ct_layoutless_free(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(c->dev);
	struct mlx5_umr_sge sge = { MR_IOVA, 64, c->mr[0].mkey->key };
	struct svc_seg segs[] = { { &c->mr[0], 0, 64 } };
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	u32 errs;
	u8 byte;

	mk = mlx5_umr_alloc_mkey(c->dev, 1, MLX5_UMR_MKEY_REMOTE_INVALIDATE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	svc_wr_list(&wr, mk, &sge, 1, ACC_ALL);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	svc_check_layout(test, c->dev, mk->key, segs, 1);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_remote_invalidate(c->fake, mk->key),
			0);

	errs = ct_err_cqes(c);
	svc_wr_list(&wr, mk, NULL, 0, MLX5_UMR_ACCESS_REMOTE_READ);
	wr.layout = MLX5_UMR_LAYOUT_NONE;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, ct_err_cqes(c), errs);
	KUNIT_EXPECT_EQ(test, q0->sq.state, MLX5_UMR_SQ_RTS);
	KUNIT_EXPECT_NE(test, mlx5_umr_test_xfer(c->dev, mk->key, 0, &byte, 1,
						 false, true), 0);
	/* a configure with a layout enables it again */
	svc_wr_list(&wr, mk, &sge, 1, ACC_ALL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	svc_check_layout(test, c->dev, mk->key, segs, 1);
	mlx5_umr_free_mkey(mk);
}

/*
 * Item 4: a signature mkey never goes into a ULP's ib_pd, be it by number
 * (mlx5_umr_alloc_mkey_pd()) or moved there (MLX5_UMR_WR_SET_PD).
 */
static void ct_sig_ib_pd(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct ib_pd *ibpd = mlx5_umr_fake_ib_pd_alloc(c->fake);
	struct mlx5_umr_mkey *mk, *sig;
	struct svc_req done = {};
	struct mlx5_umr_wr *p = &done.wr;
	struct mlx5_umr_pd *pd;
	u32 pdn;

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(ibpd));
	pd = mlx5_umr_pd_get_ib(c->dev, ibpd);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	pdn = pd->pdn;
	mk = mlx5_umr_alloc_mkey_pd(c->dev, 1, MLX5_UMR_MKEY_SIGNATURE, pdn);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mk), -EOPNOTSUPP);
	if (!IS_ERR(mk))
		mlx5_umr_free_mkey(mk);
	/* a plain mkey may */
	mk = mlx5_umr_alloc_mkey_pd(c->dev, 1, 0, pdn);
	KUNIT_EXPECT_FALSE(test, IS_ERR(mk));
	if (!IS_ERR(mk))
		mlx5_umr_free_mkey(mk);

	sig = mlx5_umr_alloc_mkey(c->dev, 1, MLX5_UMR_MKEY_SIGNATURE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sig));
	done.wr.mkey = sig;
	done.wr.op = MLX5_UMR_OP_CONFIGURE;
	done.wr.flags = MLX5_UMR_WR_SET_PD;
	done.wr.pdn = pdn;
	done.wr.done = svc_req_done;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &done.wr), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, &p, 1), -EOPNOTSUPP);
	mlx5_umr_sq_flush(c->dev);
	KUNIT_EXPECT_EQ(test, done.calls, 0);
	KUNIT_EXPECT_EQ(test, sig->pdn, mlx5_umr_dev_caps(c->dev)->pdn);
	/* the service's own PD is fine */
	done.wr.pdn = mlx5_umr_dev_caps(c->dev)->pdn;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &done.wr), 0);
	mlx5_umr_free_mkey(sig);
	mlx5_umr_pd_put(pd);
	mlx5_umr_fake_ib_pd_free(ibpd);
}

/*
 * Item 5: after a request installing a new key failed with -EIO the key
 * is unknown: requests without MLX5_UMR_WR_NEW_KEY are refused (-ESTALE)
 * until one with it succeeded; after -ECANCELED the old key is back.
 */
static void ct_key_after_failure(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge = { MR_IOVA, 64, c->mr[0].mkey->key };
	struct svc_seg segs[] = { { &c->mr[0], 0, 64 } };
	struct mlx5_umr_mkey *mk, *other;
	struct svc_req req[2] = {};
	struct mlx5_umr_wr *wrs[2] = { &req[0].wr, &req[1].wr };
	struct mlx5_umr_wr wr;
	u32 old;

	mk = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	other = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	KUNIT_ASSERT_FALSE(test, IS_ERR(other));
	svc_wr_list(&wr, mk, &sge, 1, ACC_ALL);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);

	/* -EIO: the HCA may have either key */
	old = mk->key;
	wr.flags |= MLX5_UMR_WR_NEW_KEY;
	mlx5_umr_fake_inject_wqe_error(c->fake, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       MLX5_UMR_FAKE_VS_INJECTED);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -EIO);
	KUNIT_EXPECT_EQ(test, mk->key, wr.new_key);
	KUNIT_EXPECT_NE(test, mk->key, old);
	wr.flags &= ~MLX5_UMR_WR_NEW_KEY;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &wr), -ESTALE);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -ESTALE);
	wr.op = MLX5_UMR_OP_INVALIDATE;
	wr.layout = MLX5_UMR_LAYOUT_NONE;
	wr.flags = 0;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -ESTALE);
	/* one with a new key finds the mkey by index, whatever byte it has */
	svc_wr_list(&wr, mk, &sge, 1, ACC_ALL);
	wr.flags |= MLX5_UMR_WR_NEW_KEY;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	svc_check_layout(test, c->dev, mk->key, segs, 1);
	wr.flags &= ~MLX5_UMR_WR_NEW_KEY;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);

	/* -ECANCELED: never ran, the key before it is back */
	old = mk->key;
	ct_failing(c, &req[0], other, &sge);
	svc_wr_list(&req[1].wr, mk, &sge, 1, ACC_ALL);
	req[1].wr.flags |= MLX5_UMR_WR_NEW_KEY | MLX5_UMR_WR_DEPENDS;
	req[1].wr.done = svc_req_done;
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, wrs, 2), 0);
	mlx5_umr_sq_flush(c->dev);
	KUNIT_EXPECT_EQ(test, req[1].wr.status, -ECANCELED);
	KUNIT_EXPECT_EQ(test, mk->key, old);
	svc_check_layout(test, c->dev, mk->key, segs, 1);
	mlx5_umr_free_mkey(other);
	mlx5_umr_free_mkey(mk);
}

/*
 * Item 6: a DEK a configured crypto mkey names is not destroyed (its
 * number could go to the next DEK, which the mkey would then use); after
 * the mkey is invalidated it is.
 */
static void ct_dek_named(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_fake *fake = c->fake;
	struct mlx5_umr_dev *dev = c->dev;
	struct mlx5_umr_sge sge = {
		0x100000, 512, mlx5_umr_dev_caps(dev)->dma_lkey
	};
	struct mlx5_umr_crypto_attr ca = {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.data_unit_size = MLX5_UMR_BLOCK_SIZE_512,
	};
	struct mlx5_umr_dek *dek = ct_dek(test, dev), *dek2 = ct_dek(test, dev);
	struct mlx5_umr_fake_counters cnt;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;

	mk = mlx5_umr_alloc_mkey(dev, 1, MLX5_UMR_MKEY_CRYPTO);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	ca.dek = dek;
	ct_crypto_wr(&wr, mk, &sge, &ca);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_dek_destroy(dek), -EBUSY);
	mlx5_umr_fake_get_counters(fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.deks, 2U);
	/* configured with another DEK: the first is free to go */
	ca.dek = dek2;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(dek), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(dek2), -EBUSY);
	/* invalidated: the second too */
	memset(&wr, 0, sizeof(wr));
	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_INVALIDATE;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(dek2), 0);
	mlx5_umr_fake_get_counters(fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.deks, 0U);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
}

/*
 * Item 6: a refused mkey destroy frees the handle all the same and says
 * so with -EREMOTEIO, not -EBUSY (which asks for a retry).
 */
static void ct_free_refused(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_mkey *mk = mlx5_umr_alloc_mkey(c->dev, 1, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	mlx5_umr_fake_inject_cmd_error(c->fake, MLX5_CMD_OP_DESTROY_MKEY,
				       MLX5_CMD_STAT_BAD_RES_STATE_ERR, 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), -EREMOTEIO);
}

struct ct_unreg {
	struct work_struct work;
	struct mlx5_umr_hca *hca;
};

static void ct_unregister(struct work_struct *work)
{
	mlx5_umr_unregister_hca(container_of(work, struct ct_unreg, work)->hca);
}

/*
 * Item 6: while the device is being unregistered (new calls get -ENODEV,
 * unregister waits for a call in progress) a mapping is still undone, as
 * the DMA API requires of a device still bound.
 */
static void ct_unmap_going(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->dev;
	struct ct_unreg un = { .hca = mlx5_umr_fake_hca(c->fake) };
	struct mlx5_umr_fake_counters cnt;
	struct page *page = alloc_page(GFP_KERNEL);
	struct sg_table sgt;
	unsigned int i;
	u32 maps;

	KUNIT_ASSERT_NOT_NULL(test, page);
	/* nothing of the fixture left mapped when the device goes */
	svc_mr_unreg(dev, &c->mr[0]);
	svc_mr_unreg(dev, &c->mr[1]);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&sgt, 1, GFP_KERNEL), 0);
	sg_set_page(sgt.sgl, page, PAGE_SIZE, 0);
	mlx5_umr_fake_get_counters(c->fake, &cnt);
	maps = cnt.sg_maps;
	KUNIT_ASSERT_EQ(test, mlx5_umr_dma_map_sg(dev, &sgt,
						  DMA_BIDIRECTIONAL), 0);

	/* a call in progress holds the unregister after its first step */
	mlx5_umr_dev_hold(dev);
	percpu_ref_get(&dev->users);
	INIT_WORK_ONSTACK(&un.work, ct_unregister);
	queue_work(system_long_wq, &un.work);
	for (i = 0; i < 1000 && !percpu_ref_is_dying(&dev->users); i++)
		usleep_range(1000, 2000);
	KUNIT_EXPECT_TRUE(test, percpu_ref_is_dying(&dev->users));
	KUNIT_EXPECT_EQ(test, mlx5_umr_dma_map_sg(dev, &sgt,
						  DMA_BIDIRECTIONAL), -ENODEV);
	mlx5_umr_dma_unmap_sg(dev, &sgt, DMA_BIDIRECTIONAL);
	mlx5_umr_fake_get_counters(c->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.sg_maps, maps);
	percpu_ref_put(&dev->users);
	flush_work(&un.work);
	destroy_work_on_stack(&un.work);
	mlx5_umr_dev_put(dev);
	sg_free_table(&sgt);
	__free_page(page);
}

/*
 * Item 7: the three back-pressure errnos of mlx5_umr_post(), each for its
 * cause, all of them mlx5_umr_post_busy(); a final error is not.
 */
static void ct_errnos(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(c->dev);
	struct mlx5_umr_sge sge[] = {
		{ MR_IOVA, 32, c->mr[0].mkey->key },
		{ MR_IOVA + 64, 32, c->mr[1].mkey->key },
	};
	struct mlx5_umr_sge *many;
	struct svc_req *req, one = {};
	struct mlx5_umr_wr *wrs[8], *p = &one.wr;
	struct mlx5_umr_mkey *mk, *big;
	atomic_t ndone = ATOMIC_INIT(0);
	unsigned int i, posted = 0;
	int err = 0;

	KUNIT_EXPECT_TRUE(test, mlx5_umr_post_busy(-ENOSPC));
	KUNIT_EXPECT_TRUE(test, mlx5_umr_post_busy(-EAGAIN));
	KUNIT_EXPECT_TRUE(test, mlx5_umr_post_busy(-EBUSY));
	KUNIT_EXPECT_FALSE(test, mlx5_umr_post_busy(-EINVAL));
	KUNIT_EXPECT_FALSE(test, mlx5_umr_post_busy(-EIO));
	KUNIT_EXPECT_FALSE(test, mlx5_umr_post_busy(0));
	req = kunit_kcalloc(test, 512, sizeof(*req), GFP_KERNEL);
	many = kunit_kcalloc(test, 100, sizeof(*many), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	KUNIT_ASSERT_NOT_NULL(test, many);
	mk = mlx5_umr_alloc_mkey(c->dev, 2, 0);
	big = mlx5_umr_alloc_mkey(c->dev, 100, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	KUNIT_ASSERT_FALSE(test, IS_ERR(big));

	/* full: the HCA stalls, the ring fills */
	mlx5_umr_fake_inject_delay(c->fake, 200);
	while (posted + 8 <= 512) {
		for (i = 0; i < 8; i++) {
			svc_wr_list(&req[posted + i].wr, mk, sge, 2, ACC_ALL);
			req[posted + i].wr.done = svc_req_done;
			req[posted + i].ndone = &ndone;
			wrs[i] = &req[posted + i].wr;
		}
		err = mlx5_umr_post(c->dev, wrs, 8);
		if (err)
			break;
		posted += 8;
	}
	KUNIT_EXPECT_EQ(test, err, -ENOSPC);
	for (i = 0; i < 200 && atomic_read(&ndone) < posted; i++)
		msleep(20);
	KUNIT_ASSERT_EQ(test, atomic_read(&ndone), (int)posted);

	/* recovering: an error CQE seen, the recovery not yet done */
	mutex_lock(&q0->recover_lock);
	ct_failing(c, &one, mk, sge);
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, &p, 1), 0);
	queue_work(system_highpri_wq, &q0->poll_work);
	flush_work(&q0->poll_work);
	KUNIT_EXPECT_EQ(test, one.wr.status, -EIO);
	svc_wr_list(&req[0].wr, mk, sge, 2, ACC_ALL);
	req[0].wr.done = svc_req_done;
	wrs[0] = &req[0].wr;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, wrs, 1), -EAGAIN);
	mutex_unlock(&q0->recover_lock);
	mlx5_umr_sq_flush(c->dev);
	KUNIT_EXPECT_EQ(test, q0->sq.state, MLX5_UMR_SQ_RTS);

	/* busy: the pointer-mode table of the mkey held by a request */
	for (i = 0; i < 100; i++)
		many[i] = sge[0];
	svc_wr_list(&req[1].wr, big, many, 100, ACC_ALL);
	req[1].wr.done = svc_req_done;
	wrs[0] = &req[1].wr;
	set_bit(0, &to_priv(big)->xlt_busy);
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, wrs, 1), -EBUSY);
	clear_bit(0, &to_priv(big)->xlt_busy);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &req[1].wr, 0), 0);
	mlx5_umr_free_mkey(big);
	mlx5_umr_free_mkey(mk);
}

static struct kunit_case ct_cases[] = {
	KUNIT_CASE(ct_sig_attrs_copied),
	KUNIT_CASE(ct_depends),
	KUNIT_CASE(ct_layoutless_free),
	KUNIT_CASE(ct_sig_ib_pd),
	KUNIT_CASE(ct_key_after_failure),
	KUNIT_CASE(ct_free_refused),
	KUNIT_CASE(ct_unmap_going),
	KUNIT_CASE(ct_errnos),
	{}
};

static struct kunit_suite ct_suite = {
	.name = "mlx5_umr_svc_contract",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = ct_cases,
};

static struct kunit_case ct_crypto_cases[] = {
	KUNIT_CASE(ct_crypto_attrs_copied),
	KUNIT_CASE(ct_dek_named),
	{}
};

static struct kunit_suite ct_crypto_suite = {
	.name = "mlx5_umr_svc_contract_crypto",
	.init = ct_crypto_init,
	.exit = svc_exit,
	.test_cases = ct_crypto_cases,
};

kunit_test_suites(&ct_suite, &ct_crypto_suite);

MODULE_DESCRIPTION("mlx5-umr KUnit: the ULP contract of the in-kernel API");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
