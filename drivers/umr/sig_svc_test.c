// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: signature mkeys through the service on a registered fake: the
 * PSVs and the mkc of allocation, the chain of a configure as the fake
 * executes it (one request, one completion), reset and keep, and the
 * status a SIG_ERR CQE gives, read and re-armed by the check.
 *
 * The SIG_ERR CQEs are built here by hand with the kernel's struct
 * mlx5_sig_err_cqe; the expected status is the decoding of mlx5_ib's
 * get_sig_err_item() (T10 DIF guard in the high 16 bits of the transient
 * signature, app tag in the low 16, ref tag in its own word).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/mlx5/cq.h>

#include "umr_kunit.h"

struct ss_ctx {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_mkey *mkey;
	struct mlx5_umr_sge sge;
	struct mlx5_umr_sig_attr attr;
};

static int ss_init(struct kunit *test)
{
	struct ss_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	if (!c)
		return -ENOMEM;
	test->priv = c;
	c->fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
	c->dev = umr_kunit_fake_umr(c->fake);
	c->mkey = mlx5_umr_alloc_mkey(c->dev, 4, MLX5_UMR_MKEY_SIGNATURE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->mkey));
	c->sge = (struct mlx5_umr_sge) {
		.addr = 0x100000, .length = 2 * 520,
		.key = mlx5_umr_dev_caps(c->dev)->dma_lkey,
	};
	c->attr = (struct mlx5_umr_sig_attr) {
		.mem = { .sig_type = MLX5_UMR_SIG_T10DIF,
			 .dif = { .bg = 0xffff, .app_tag = 0x1234,
				  .ref_tag = 0x5678 },
			 .block_size = MLX5_UMR_SIG_BLOCK_512 },
		.check_mask = 0xff,
	};
	c->attr.wire = c->attr.mem;
	return 0;
}

static void ss_exit(struct kunit *test)
{
	struct ss_ctx *c = test->priv;

	if (!c || !c->fake)
		return;
	if (c->mkey && !IS_ERR(c->mkey))
		mlx5_umr_free_mkey(c->mkey);
	mlx5_umr_fake_destroy(c->fake);
}

static u64 ss_wqes(struct ss_ctx *c)
{
	struct mlx5_umr_fake_counters cnt;

	mlx5_umr_fake_get_counters(c->fake, &cnt);
	return cnt.wqes;
}

static int ss_exec(struct ss_ctx *c, u32 flags, bool layout)
{
	struct mlx5_umr_wr wr = {
		.mkey = c->mkey,
		.op = MLX5_UMR_OP_CONFIGURE,
		.flags = flags,
		.access = MLX5_UMR_ACCESS_REMOTE_READ,
		.layout = layout ? MLX5_UMR_LAYOUT_LIST : MLX5_UMR_LAYOUT_NONE,
		.list = { .sge = &c->sge, .num_sge = 1 },
		.sig = &c->attr,
	};

	return mlx5_umr_exec(c->dev, &wr, 0);
}

static u32 ss_mkc(struct kunit *test, struct ss_ctx *c, bool bsf_size)
{
	u32 mkc[MLX5_ST_SZ_DW(mkc)] = {};

	KUNIT_ASSERT_GE(test, mlx5_umr_fake_query_mkey(c->fake, c->mkey->key,
						       mkc, NULL, 0), 0);
	return bsf_size ? MLX5_GET(mkc, mkc, bsf_octword_size) :
			  MLX5_GET(mkc, mkc, bsf_en);
}

/*
 * Allocation: two PSVs, the mkc of mlx5_alloc_integrity_descs() (bsf_en,
 * 4 octowords); freeing destroys them; no signature on an MTT mkey.
 */
static void ss_alloc_free(struct kunit *test)
{
	struct ss_ctx *c = test->priv;
	struct mlx5_umr_fake_counters cnt;
	struct mlx5_umr_mkey *mtt;

	mlx5_umr_fake_get_counters(c->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.psvs, 2);
	KUNIT_EXPECT_NE(test, c->mkey->psv[0], c->mkey->psv[1]);
	KUNIT_EXPECT_EQ(test, ss_mkc(test, c, false), 1);
	KUNIT_EXPECT_EQ(test, ss_mkc(test, c, true), MLX5_MKEY_BSF_OCTO_SIZE);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(c->mkey), 0);
	c->mkey = NULL;
	mlx5_umr_fake_get_counters(c->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.psvs, 0);
	mtt = mlx5_umr_alloc_mtt_mkey(c->dev, 1, MLX5_UMR_MKEY_SIGNATURE);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mtt), -EINVAL);
}

/*
 * A configure with a signature is one request of three WQEs; the fake
 * keeps the BSF the UMR carried, with the mkey's PSVs in it. Reset turns
 * bsf_en off, a configure without a signature flag keeps it.
 */
static void ss_set_reset_keep(struct kunit *test)
{
	struct ss_ctx *c = test->priv;
	u8 bsf[64];
	u64 before = ss_wqes(c);

	KUNIT_ASSERT_EQ(test, ss_exec(c, MLX5_UMR_WR_SET_ACCESS |
				      MLX5_UMR_WR_SET_SIG, true), 0);
	KUNIT_EXPECT_EQ(test, ss_wqes(c) - before, 3);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_bsf(c->fake, c->mkey->key,
						      bsf, sizeof(bsf)), 4);
	/* basic: sbs, T10 DIF alike; PSVs in w_bfs_psv and m_bfs_psv */
	KUNIT_EXPECT_EQ(test, bsf[0], 0x90);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&bsf[8]), c->mkey->psv[1]);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&bsf[12]), c->mkey->psv[0]);
	KUNIT_EXPECT_EQ(test, ss_mkc(test, c, false), 1);

	KUNIT_ASSERT_EQ(test, ss_exec(c, MLX5_UMR_WR_SET_ACCESS, true), 0);
	KUNIT_EXPECT_EQ(test, ss_mkc(test, c, false), 1);

	before = ss_wqes(c);
	KUNIT_ASSERT_EQ(test, ss_exec(c, MLX5_UMR_WR_RESET_SIG, false), 0);
	KUNIT_EXPECT_EQ(test, ss_wqes(c) - before, 1);
	KUNIT_EXPECT_EQ(test, ss_mkc(test, c, false), 0);

	/* and a batch of two chains completes as two requests */
	KUNIT_ASSERT_EQ(test, ss_exec(c, MLX5_UMR_WR_SET_SIG, true), 0);
	KUNIT_ASSERT_EQ(test, ss_exec(c, MLX5_UMR_WR_SET_SIG, false), 0);
	KUNIT_EXPECT_EQ(test, ss_mkc(test, c, false), 1);
}

/*
 * An error CQE naming a WQE inside a chain (here the wire SET_PSV, of a
 * PSV the fake does not know) fails that request with -EIO and the
 * syndrome: the completion path finds the request by the WQE range, not
 * the chain's first index only. The QP recovers for the next one.
 */
static void ss_chain_error(struct kunit *test)
{
	struct ss_ctx *c = test->priv;
	u32 psv = c->mkey->psv[1];
	struct mlx5_umr_wr wr = {
		.mkey = c->mkey,
		.op = MLX5_UMR_OP_CONFIGURE,
		.flags = MLX5_UMR_WR_SET_SIG,
		.layout = MLX5_UMR_LAYOUT_LIST,
		.list = { .sge = &c->sge, .num_sge = 1 },
		.sig = &c->attr,
	};

	c->mkey->psv[1] = 0xfffff0;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -EIO);
	KUNIT_EXPECT_EQ(test, wr.syndrome, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	c->mkey->psv[1] = psv;
	KUNIT_EXPECT_EQ(test, ss_exec(c, MLX5_UMR_WR_SET_SIG, true), 0);
}

/* A SIG_ERR CQE for @key: @synd, transient signatures and ref tags. */
static void ss_cqe(struct mlx5_sig_err_cqe *cqe, u32 key, u16 synd,
		   u32 exp_ts, u32 act_ts, u32 exp_ref, u32 act_ref, u64 off)
{
	memset(cqe, 0, sizeof(*cqe));
	cqe->syndrome = cpu_to_be16(synd);
	cqe->expected_trans_sig = cpu_to_be32(exp_ts);
	cqe->actual_trans_sig = cpu_to_be32(act_ts);
	cqe->expected_reftag = cpu_to_be32(exp_ref);
	cqe->actual_reftag = cpu_to_be32(act_ref);
	cqe->mkey = cpu_to_be32(key);
	cqe->err_offset = cpu_to_be64(off);
	cqe->op_own = MLX5_CQE_SIG_ERR << 4;
}

/*
 * Report, check, re-arm: the first error is kept and the later ones
 * counted; the check clears it and sets the signature again (UMR and two
 * SET_PSV); a CQE of another opcode or naming no signature mkey is
 * refused; each kind of error decodes to its type and values.
 */
static void ss_status(struct kunit *test)
{
	struct ss_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;
	struct mlx5_sig_err_cqe cqe;
	u32 key = c->mkey->key;
	u64 before;

	KUNIT_ASSERT_EQ(test, ss_exec(c, MLX5_UMR_WR_SET_ACCESS |
				      MLX5_UMR_WR_SET_SIG, true), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_NONE);

	ss_cqe(&cqe, key, BIT(13), 0xabcd1234, 0x99991234, 0x5678, 0x5678, 520);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_report(c->dev, &cqe), 0);
	ss_cqe(&cqe, key, BIT(11), 0, 0, 0x5679, 0x1, 1040);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_report(c->dev, &cqe), 0);
	before = ss_wqes(c);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_GUARD);
	KUNIT_EXPECT_EQ(test, st.expected, 0xabcd);
	KUNIT_EXPECT_EQ(test, st.actual, 0x9999);
	KUNIT_EXPECT_EQ(test, st.offset, 520);
	KUNIT_EXPECT_EQ(test, st.key, key);
	KUNIT_EXPECT_EQ(test, st.errors, 2);
	KUNIT_EXPECT_EQ(test, ss_wqes(c) - before, 3);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_NONE);

	ss_cqe(&cqe, key, BIT(11), 0, 0, 0x5679, 0x1, 1040);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_report(c->dev, &cqe), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_REFTAG);
	KUNIT_EXPECT_EQ(test, st.expected, 0x5679);
	KUNIT_EXPECT_EQ(test, st.actual, 0x1);
	KUNIT_EXPECT_EQ(test, st.offset, 1040);

	/* app and ref both bad: the app tag is reported (mlx5dv_mkey_check) */
	ss_cqe(&cqe, key, BIT(12) | BIT(11), 0xffff1234, 0xffff4321, 1, 2, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_report(c->dev, &cqe), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_APPTAG);
	KUNIT_EXPECT_EQ(test, st.expected, 0x1234);
	KUNIT_EXPECT_EQ(test, st.actual, 0x4321);

	ss_cqe(&cqe, key + 0x100, BIT(13), 0, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_report(c->dev, &cqe), -ENOENT);
	ss_cqe(&cqe, key, BIT(13), 0, 0, 0, 0, 0);
	cqe.op_own = MLX5_CQE_REQ << 4;
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_report(c->dev, &cqe), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_NONE);
}

static u8 ss_sigerr_count(struct kunit *test, struct ss_ctx *c)
{
	u32 mkc[MLX5_ST_SZ_DW(mkc)] = {};

	KUNIT_EXPECT_GE(test, mlx5_umr_fake_query_mkey(c->fake, c->mkey->key,
						       mkc, NULL, 0), 0);
	return MLX5_GET(mkc, mkc, expected_sigerr_count);
}

/*
 * Arming: the first signature UMR writes expected_sigerr_count 1 (mlx5_ib
 * mr.c "Next UMR, Arm SIGERR", rdma-core err_count = 1); each SIG_ERR CQE
 * reported flips it, written by the check's re-arm (wr.c
 * set_sig_mkey_segment(), rdma-core qp.c upd_mkc_sig_err_cnt()).
 */
static void ss_arm(struct kunit *test)
{
	struct ss_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;
	struct mlx5_sig_err_cqe cqe;
	u32 key = c->mkey->key;

	KUNIT_ASSERT_EQ(test, ss_exec(c, MLX5_UMR_WR_SET_ACCESS |
				      MLX5_UMR_WR_SET_SIG, true), 0);
	KUNIT_EXPECT_EQ(test, ss_sigerr_count(test, c), 1);
	ss_cqe(&cqe, key, BIT(13), 1, 2, 0, 0, 519);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_report(c->dev, &cqe), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_GUARD);
	KUNIT_EXPECT_EQ(test, ss_sigerr_count(test, c), 0);
	/* a configure setting the signature writes the count it has */
	KUNIT_ASSERT_EQ(test, ss_exec(c, MLX5_UMR_WR_SET_SIG, false), 0);
	KUNIT_EXPECT_EQ(test, ss_sigerr_count(test, c), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_report(c->dev, &cqe), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, ss_sigerr_count(test, c), 1);
}

/* An mkey without signature has no status; nor is its key reported. */
static void ss_not_sig(struct kunit *test)
{
	struct ss_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;
	struct mlx5_sig_err_cqe cqe;
	struct mlx5_umr_mkey *plain = mlx5_umr_alloc_mkey(c->dev, 4, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(plain));
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(plain, &st), -EINVAL);
	ss_cqe(&cqe, plain->key, BIT(13), 0, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_report(c->dev, &cqe), -ENOENT);
	mlx5_umr_free_mkey(plain);
}

/*
 * No signature mkey in a ULP's ib_pd: its QPs poll mlx5_ib CQs, which
 * oops on a SIG_ERR CQE naming a service mkey (signature.rst); nothing
 * is created. An mkey without signature there is fine.
 */
static void ss_not_in_ib_pd(struct kunit *test)
{
	struct ss_ctx *c = test->priv;
	struct mlx5_umr_fake_counters cnt;
	struct ib_pd *ibpd = mlx5_umr_fake_ib_pd_alloc(c->fake);
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_pd *pd;

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(ibpd));
	pd = mlx5_umr_pd_get_ib(c->dev, ibpd);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	mk = mlx5_umr_alloc_mkey_in(pd, 4, MLX5_UMR_MKEY_SIGNATURE);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mk), -EOPNOTSUPP);
	mlx5_umr_fake_get_counters(c->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.psvs, 2);
	mk = mlx5_umr_alloc_mkey_in(pd, 4, 0);
	KUNIT_EXPECT_FALSE(test, IS_ERR(mk));
	if (!IS_ERR(mk))
		mlx5_umr_free_mkey(mk);
	mlx5_umr_pd_put(pd);
	mlx5_umr_fake_ib_pd_free(ibpd);
}

/*
 * SET_PSV and PDs, on a fake that checks the PSV's PD against the posting
 * QP's (fake_umr.c: the rule both references satisfy). The service posts
 * SET_PSV on a QP of the PSVs' PD: a signature mkey of
 * mlx5_umr_alloc_mkey() on a device queue, one of another PD
 * (mlx5_umr_alloc_mkey_pd()) on that PD's queue; both configure
 * (Documentation/signature.rst, "PSVs and their PD"; svc_pdq_test.c has
 * the rest).
 */
static void ss_psv_pd(struct kunit *test)
{
	struct ss_ctx *c = test->priv;
	struct mlx5_umr_mkey *other;
	u32 pdn;

	mlx5_umr_free_mkey(c->mkey);
	mlx5_umr_fake_destroy(c->fake);
	c->mkey = NULL;
	c->fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
	c->dev = umr_kunit_fake_umr(c->fake);
	c->sge.key = mlx5_umr_dev_caps(c->dev)->dma_lkey;
	c->mkey = mlx5_umr_alloc_mkey(c->dev, 4, MLX5_UMR_MKEY_SIGNATURE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->mkey));
	KUNIT_EXPECT_EQ(test, ss_exec(c, MLX5_UMR_WR_SET_ACCESS |
				      MLX5_UMR_WR_SET_SIG, true), 0);

	KUNIT_ASSERT_EQ(test, mlx5_umr_pd_alloc(c->dev, &pdn), 0);
	KUNIT_EXPECT_NE(test, pdn, mlx5_umr_dev_caps(c->dev)->pdn);
	other = mlx5_umr_alloc_mkey_pd(c->dev, 4, MLX5_UMR_MKEY_SIGNATURE,
				       pdn);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(other));
	swap(c->mkey, other);
	KUNIT_EXPECT_EQ(test, ss_exec(c, MLX5_UMR_WR_SET_ACCESS |
				      MLX5_UMR_WR_SET_SIG, true), 0);
	KUNIT_EXPECT_EQ(test, ss_exec(c, MLX5_UMR_WR_SET_SIG, false), 0);
	swap(c->mkey, other);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(other), 0);
	mlx5_umr_pd_free(c->dev, pdn);
	KUNIT_EXPECT_EQ(test, ss_exec(c, MLX5_UMR_WR_SET_SIG, false), 0);
}

static struct kunit_case ss_cases[] = {
	KUNIT_CASE(ss_alloc_free),
	KUNIT_CASE(ss_set_reset_keep),
	KUNIT_CASE(ss_chain_error),
	KUNIT_CASE(ss_status),
	KUNIT_CASE(ss_arm),
	KUNIT_CASE(ss_not_sig),
	KUNIT_CASE(ss_not_in_ib_pd),
	KUNIT_CASE(ss_psv_pd),
	{}
};

/* the same cases on fakes without sigerr_domain_and_sig_type */
static struct kunit_case ss_cases_legacy[] = {
	KUNIT_CASE(ss_alloc_free),
	KUNIT_CASE(ss_set_reset_keep),
	KUNIT_CASE(ss_chain_error),
	KUNIT_CASE(ss_status),
	KUNIT_CASE(ss_arm),
	KUNIT_CASE(ss_not_sig),
	KUNIT_CASE(ss_not_in_ib_pd),
	KUNIT_CASE(ss_psv_pd),
	{}
};

static struct kunit_suite ss_suite = {
	.name = "mlx5_umr_sig_svc",
	.init = ss_init,
	.exit = ss_exit,
	.test_cases = ss_cases,
};

static struct kunit_suite ss_suite_legacy = {
	.name = "mlx5_umr_sig_svc_legacy",
	.init = ss_init,
	.exit = ss_exit,
	.test_cases = ss_cases_legacy,
	.suite_init = umr_kunit_sig_profile_legacy,
	.suite_exit = umr_kunit_sig_profile_default,
};

kunit_test_suites(&ss_suite, &ss_suite_legacy);

MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
MODULE_DESCRIPTION("KUnit tests of mlx5-umr signature mkeys on the fake");
MODULE_LICENSE("Dual BSD/GPL");
