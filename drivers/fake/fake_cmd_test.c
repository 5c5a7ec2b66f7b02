// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the fake HCA's command interface, with mailboxes built by hand.
 * Every failure is checked for the firmware status and the syndrome.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "umr_kunit.h"

static void fc_expect_fail(struct kunit *test, int ret, const void *out,
			   u8 status, u32 synd)
{
	KUNIT_EXPECT_EQ(test, ret, -EREMOTEIO);
	KUNIT_EXPECT_EQ(test, ft_status(out), status);
	KUNIT_EXPECT_EQ(test, ft_synd(out), synd);
}

#define EXPECT_FAIL(test, ret, out, st, sy)				\
	fc_expect_fail(test, ret, out, MLX5_CMD_STAT_##st,		\
		       MLX5_UMR_FAKE_SYND_##sy)

static struct ft *fc_fake(struct kunit *test,
			  const struct mlx5_umr_fake_caps *caps, u32 flags)
{
	struct mlx5_umr_fake_attr attr;
	struct ft *ft = kunit_kzalloc(test, sizeof(*ft), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ft);
	mlx5_umr_fake_attr_init(&attr);
	attr.flags = flags;
	if (caps)
		attr.caps = *caps;
	ft->test = test;
	ft->fake = mlx5_umr_fake_create(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ft->fake));
	ft->hca = mlx5_umr_fake_hca(ft->fake);
	return ft;
}

static void fc_done(struct ft *ft)
{
	struct mlx5_umr_fake_counters c;

	mlx5_umr_fake_get_counters(ft->fake, &c);
	KUNIT_EXPECT_EQ(ft->test, c.pds + c.mkeys + c.cqs + c.qps + c.psvs +
			c.uars + c.dma_bufs, 0U);
	KUNIT_EXPECT_EQ(ft->test, c.iommu_pages, 0ULL);
	mlx5_umr_fake_destroy(ft->fake);
}

static int fc_query_cap(struct ft *ft, u16 op_mod, void *out, int outlen)
{
	u32 in[MLX5_ST_SZ_DW(query_hca_cap_in)] = {};

	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod, op_mod);
	return ft_cmd(ft, in, sizeof(in), out, outlen);
}

static void fake_cmd_query_caps(struct kunit *test)
{
	int outlen = MLX5_ST_SZ_BYTES(query_hca_cap_out);
	struct mlx5_umr_fake_attr attr;
	struct ft *ft;
	void *out, *cap;

	out = kunit_kzalloc(test, outlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	ft = fc_fake(test, NULL, 0);
	KUNIT_ASSERT_EQ(test, fc_query_cap(ft, MLX5_CAP_GENERAL << 1 |
					   HCA_CAP_OPMOD_GET_CUR, out, outlen),
			0);
	cap = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	KUNIT_EXPECT_EQ(test, MLX5_GET(cmd_hca_cap, cap, log_max_klm_list_size),
			16);
	KUNIT_EXPECT_EQ(test, MLX5_GET(cmd_hca_cap, cap, umr_fence), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(cmd_hca_cap, cap,
				       umr_extended_translation_offset), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(cmd_hca_cap, cap,
				       umr_modify_atomic_disabled), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(cmd_hca_cap, cap, atomic), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(cmd_hca_cap, cap, log_max_qp_sz), 15);
	/* only the general capabilities exist */
	EXPECT_FAIL(test, fc_query_cap(ft, MLX5_CAP_GENERAL_2 << 1, out,
				       outlen), out, BAD_PARAM_ERR,
		    BAD_CAP_TYPE);
	EXPECT_FAIL(test, fc_query_cap(ft, 0, out, 16), out, BAD_OUTP_LEN_ERR,
		    BAD_OUTLEN);
	fc_done(ft);

	mlx5_umr_fake_attr_init(&attr);
	attr.caps.log_max_klm_list_size = 5;
	attr.caps.umr_fence = 2;
	attr.caps.umr_modify_atomic_disabled = true;
	attr.caps.umr_modify_entity_size_disabled = true;
	attr.caps.umr_extended_translation_offset = false;
	ft = fc_fake(test, &attr.caps, 0);
	KUNIT_ASSERT_EQ(test, fc_query_cap(ft, 0, out, outlen), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(cmd_hca_cap, cap, log_max_klm_list_size),
			5);
	KUNIT_EXPECT_EQ(test, MLX5_GET(cmd_hca_cap, cap, umr_fence), 2);
	KUNIT_EXPECT_EQ(test, MLX5_GET(cmd_hca_cap, cap,
				       umr_modify_atomic_disabled), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(cmd_hca_cap, cap,
				       umr_modify_entity_size_disabled), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(cmd_hca_cap, cap,
				       umr_extended_translation_offset), 0);
	fc_done(ft);
}

static void fake_cmd_bad_op_and_lengths(struct kunit *test)
{
	struct ft *ft = fc_fake(test, NULL, 0);
	u32 in[MLX5_ST_SZ_DW(alloc_pd_in)] = {};
	u32 out[MLX5_ST_SZ_DW(alloc_pd_out)] = {};
	u32 sin[MLX5_ST_SZ_DW(query_special_contexts_in)] = {};
	u32 sout[MLX5_ST_SZ_DW(query_special_contexts_out)] = {};

	MLX5_SET(alloc_pd_in, in, opcode, 0x7ff);
	EXPECT_FAIL(test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)), out,
		    BAD_OP_ERR, BAD_OPCODE);
	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	EXPECT_FAIL(test, ft_cmd(ft, in, 8, out, sizeof(out)), out,
		    BAD_INP_LEN_ERR, BAD_INLEN);
	EXPECT_FAIL(test, ft_cmd(ft, in, sizeof(in), out, 8), out,
		    BAD_OUTP_LEN_ERR, BAD_OUTLEN);
	KUNIT_EXPECT_EQ(test, ft_cmd(ft, in, 4, out, sizeof(out)), -EINVAL);

	MLX5_SET(query_special_contexts_in, sin, opcode,
		 MLX5_CMD_OP_QUERY_SPECIAL_CONTEXTS);
	KUNIT_ASSERT_EQ(test, ft_cmd(ft, sin, sizeof(sin), sout, sizeof(sout)),
			0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(query_special_contexts_out, sout,
				       resd_lkey), MLX5_UMR_FAKE_RESD_LKEY);
	fc_done(ft);
}

static void fake_cmd_pd(struct kunit *test)
{
	struct ft *ft = fc_fake(test, NULL, 0);
	u32 out[MLX5_ST_SZ_DW(dealloc_pd_out)];
	u32 key;

	ft->pdn = ft_alloc_pd(ft);
	KUNIT_EXPECT_NE(test, ft_alloc_pd(ft), ft->pdn);
	KUNIT_EXPECT_EQ(test, ft_dealloc_pd(ft, ft->pdn + 1, out), 0);
	EXPECT_FAIL(test, ft_dealloc_pd(ft, ft->pdn + 1, out), out,
		    BAD_RES_ERR, BAD_PD);
	/* a PD with an mkey cannot go */
	key = ft_create_mkey_full(ft, MLX5_MKC_ACCESS_MODE_KLMS, 4, true, true,
				  0, 0, 0, 0, NULL, 0, NULL);
	KUNIT_ASSERT_NE(test, key, 0U);
	EXPECT_FAIL(test, ft_dealloc_pd(ft, ft->pdn, out), out,
		    BAD_RES_STATE_ERR, PD_BUSY);
	ft_del_mkey(ft, key);
	KUNIT_EXPECT_EQ(test, ft_dealloc_pd(ft, ft->pdn, out), 0);
	fc_done(ft);
}

static void fake_cmd_mkey(struct kunit *test)
{
	struct mlx5_umr_fake_attr attr;
	u32 qin[MLX5_ST_SZ_DW(query_mkey_in)] = {};
	u32 qout[MLX5_ST_SZ_DW(query_mkey_out)] = {};
	u32 out[MLX5_ST_SZ_DW(destroy_mkey_out)];
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	struct mlx5_klm klm[4] = {};
	struct ft *ft;
	u32 key;
	u8 st;

	mlx5_umr_fake_attr_init(&attr);
	attr.caps.log_max_klm_list_size = 4;
	ft = fc_fake(test, &attr.caps, 0);
	ft->pdn = ft_alloc_pd(ft);

	/* unknown PD, unknown access mode, too many KLMs */
	ft->pdn++;
	KUNIT_EXPECT_EQ(test, ft_create_mkey_full(ft, MLX5_MKC_ACCESS_MODE_KLMS,
						  4, true, true, 0, 0, 0, 0,
						  NULL, 0, &st), 0U);
	KUNIT_EXPECT_EQ(test, st, MLX5_CMD_STAT_BAD_RES_ERR);
	ft->pdn--;
	KUNIT_EXPECT_EQ(test, ft_create_mkey_full(ft, 7, 4, true, true, 0, 0,
						  0, 0, NULL, 0, &st), 0U);
	KUNIT_EXPECT_EQ(test, st, MLX5_CMD_STAT_BAD_PARAM_ERR);
	KUNIT_EXPECT_EQ(test, ft_create_mkey_full(ft, MLX5_MKC_ACCESS_MODE_KLMS,
						  17, true, true, 0, 0, 0, 0,
						  NULL, 0, &st), 0U);
	KUNIT_EXPECT_EQ(test, st, MLX5_CMD_STAT_BAD_PARAM_ERR);
	/* more inline translation than translations_octword_size */
	KUNIT_EXPECT_EQ(test, ft_create_mkey_full(ft, MLX5_MKC_ACCESS_MODE_KLMS,
						  2, true, true, 0, 0, 0, 0,
						  klm, sizeof(klm), &st), 0U);
	KUNIT_EXPECT_EQ(test, st, MLX5_CMD_STAT_BAD_PARAM_ERR);

	/* 16 is the limit; the context and translation read back verbatim */
	ft_klm(&klm[1], 0x1234, MLX5_UMR_FAKE_RESD_LKEY, 0xabcdef);
	key = ft_create_mkey_full(ft, MLX5_MKC_ACCESS_MODE_KLMS, 16, true,
				  false, FT_RR, 0x5000, 0x1234, 0, klm,
				  sizeof(klm), &st);
	KUNIT_ASSERT_NE(test, key, 0U);
	KUNIT_EXPECT_EQ(test, key & 0xff, 0x5aU);
	MLX5_SET(query_mkey_in, qin, opcode, MLX5_CMD_OP_QUERY_MKEY);
	MLX5_SET(query_mkey_in, qin, mkey_index, key >> 8);
	KUNIT_ASSERT_EQ(test, ft_cmd(ft, qin, sizeof(qin), qout, sizeof(qout)),
			0);
	memcpy(mkc, MLX5_ADDR_OF(query_mkey_out, qout, memory_key_mkey_entry),
	       sizeof(mkc));
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, pd), ft->pdn);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, umr_en), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, rr), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, rw), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, qpn), 0xffffff);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, mkey_7_0), 0x5a);
	KUNIT_EXPECT_EQ(test, MLX5_GET64(mkc, mkc, start_addr), 0x5000ULL);
	KUNIT_EXPECT_EQ(test, MLX5_GET64(mkc, mkc, len), 0x1234ULL);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, translations_octword_size),
			16);
	{
		u8 xlt[16 * 16];

		KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(ft->fake, key,
							       NULL, xlt,
							       sizeof(xlt)),
				16);
		KUNIT_EXPECT_EQ(test, memcmp(xlt, klm, sizeof(klm)), 0);
		KUNIT_EXPECT_NULL(test, memchr_inv(xlt + sizeof(klm), 0,
						   sizeof(xlt) - sizeof(klm)));
	}
	ft_del_mkey(ft, key);
	EXPECT_FAIL(test, ft_destroy_mkey(ft, key, out), out, BAD_RES_ERR,
		    BAD_MKEY);
	EXPECT_FAIL(test, ft_cmd(ft, qin, sizeof(qin), qout, sizeof(qout)),
		    qout, BAD_RES_ERR, BAD_MKEY);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_mkey(ft->fake, key, NULL,
						       NULL, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, ft_dealloc_pd(ft, ft->pdn, out), 0);
	fc_done(ft);
}

/* A fake with a PD, a UAR and queue memory, but no CQ or QP yet. */
static struct ft *fc_queues(struct kunit *test)
{
	struct ft *ft = fc_fake(test, NULL, 0);

	ft->log_sq = 6;
	ft->log_cq = 6;
	ft->pdn = ft_alloc_pd(ft);
	KUNIT_ASSERT_EQ(test, ft->hca->ops->alloc_uar(ft->hca, &ft->uar), 0);
	KUNIT_ASSERT_EQ(test, ft_dma_buf(ft, PAGE_SIZE, &ft->db), 0);
	KUNIT_ASSERT_EQ(test, ft_dma_buf(ft, 64 << 6, &ft->cqbuf), 0);
	KUNIT_ASSERT_EQ(test, ft_dma_buf(ft, 64 << 6, &ft->sqbuf), 0);
	return ft;
}

static void *fc_cq_in(struct ft *ft, int *inlen)
{
	void *in, *cqc;

	*inlen = MLX5_ST_SZ_BYTES(create_cq_in) + 8;
	in = kunit_kzalloc(ft->test, *inlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(ft->test, in);
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	MLX5_SET(cqc, cqc, log_cq_size, 6);
	MLX5_SET(cqc, cqc, uar_page, ft->uar.index);
	MLX5_SET64(cqc, cqc, dbr_addr, ft->db.pages[0]);
	MLX5_SET64(create_cq_in, in, pas[0], ft->cqbuf.pages[0]);
	return in;
}

static void fake_cmd_cq(struct kunit *test)
{
	struct ft *ft = fc_queues(test);
	u32 out[MLX5_ST_SZ_DW(create_cq_out)];
	u32 din[MLX5_ST_SZ_DW(destroy_cq_in)] = {};
	void *in, *cqc;
	int inlen;
	u32 cqn;

	in = fc_cq_in(ft, &inlen);
	cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	MLX5_SET(cqc, cqc, cqe_sz, 1);
	EXPECT_FAIL(test, ft_cmd(ft, in, inlen, out, sizeof(out)), out,
		    BAD_PARAM_ERR, BAD_CQE_SIZE);
	MLX5_SET(cqc, cqc, cqe_sz, 0);
	MLX5_SET(cqc, cqc, log_cq_size, 23);
	EXPECT_FAIL(test, ft_cmd(ft, in, inlen, out, sizeof(out)), out,
		    BAD_PARAM_ERR, BAD_SIZE);
	MLX5_SET(cqc, cqc, log_cq_size, 6);
	MLX5_SET(cqc, cqc, uar_page, ft->uar.index + 1);
	EXPECT_FAIL(test, ft_cmd(ft, in, inlen, out, sizeof(out)), out,
		    BAD_PARAM_ERR, BAD_UAR);
	MLX5_SET(cqc, cqc, uar_page, ft->uar.index);
	MLX5_SET64(cqc, cqc, dbr_addr, ft->db.pages[0] + PAGE_SIZE);
	EXPECT_FAIL(test, ft_cmd(ft, in, inlen, out, sizeof(out)), out,
		    BAD_PARAM_ERR, BAD_DBR);
	MLX5_SET64(cqc, cqc, dbr_addr, ft->db.pages[0]);
	EXPECT_FAIL(test, ft_cmd(ft, in, inlen - 8, out, sizeof(out)), out,
		    BAD_INP_LEN_ERR, BAD_INLEN);
	MLX5_SET64(create_cq_in, in, pas[0], ft->cqbuf.pages[0] + 64);
	EXPECT_FAIL(test, ft_cmd(ft, in, inlen, out, sizeof(out)), out,
		    BAD_PARAM_ERR, BAD_PAS);
	MLX5_SET64(create_cq_in, in, pas[0], ft->cqbuf.pages[0]);
	KUNIT_ASSERT_EQ(test, ft_cmd(ft, in, inlen, out, sizeof(out)), 0);
	cqn = MLX5_GET(create_cq_out, out, cqn);
	KUNIT_EXPECT_NE(test, cqn, 0U);

	MLX5_SET(destroy_cq_in, din, opcode, MLX5_CMD_OP_DESTROY_CQ);
	MLX5_SET(destroy_cq_in, din, cqn, cqn);
	KUNIT_EXPECT_EQ(test, ft_cmd(ft, din, sizeof(din), out,
				     MLX5_ST_SZ_BYTES(destroy_cq_out)), 0);
	EXPECT_FAIL(test, ft_cmd(ft, din, sizeof(din), out,
				 MLX5_ST_SZ_BYTES(destroy_cq_out)), out,
		    BAD_RES_ERR, BAD_CQ);
	ft_teardown(ft);
}

/* QUERY_QP reports the state and the context given at creation. */
static void fc_query_qp(struct ft *ft, u8 state)
{
	u32 in[MLX5_ST_SZ_DW(query_qp_in)] = {};
	int outlen = MLX5_ST_SZ_BYTES(query_qp_out);
	void *out = kunit_kzalloc(ft->test, outlen, GFP_KERNEL);
	void *qpc;

	KUNIT_ASSERT_NOT_NULL(ft->test, out);
	MLX5_SET(query_qp_in, in, opcode, MLX5_CMD_OP_QUERY_QP);
	MLX5_SET(query_qp_in, in, qpn, ft->qpn);
	KUNIT_ASSERT_EQ(ft->test, ft_cmd(ft, in, sizeof(in), out, outlen), 0);
	qpc = MLX5_ADDR_OF(query_qp_out, out, qpc);
	KUNIT_EXPECT_EQ(ft->test, MLX5_GET(qpc, qpc, state), state);
	KUNIT_EXPECT_EQ(ft->test, MLX5_GET(qpc, qpc, st), MLX5_QP_ST_REG_UMR);
	KUNIT_EXPECT_EQ(ft->test, MLX5_GET(qpc, qpc, user_index), 0);
	KUNIT_EXPECT_EQ(ft->test, MLX5_GET(qpc, qpc, log_sq_size), ft->log_sq);
	KUNIT_EXPECT_EQ(ft->test, MLX5_GET(qpc, qpc, cqn_snd), ft->cq.cqn);
	KUNIT_EXPECT_EQ(ft->test, MLX5_GET(qpc, qpc, uar_page), ft->uar.index);
	KUNIT_EXPECT_EQ(ft->test, MLX5_GET(qpc, qpc, rlky), 1);
	KUNIT_EXPECT_EQ(ft->test, MLX5_GET64(qpc, qpc, dbr_addr),
			ft->db.pages[0] + FT_QP_DBR);
	MLX5_SET(query_qp_in, in, qpn, ft->qpn + 1);
	fc_expect_fail(ft->test, ft_cmd(ft, in, sizeof(in), out, outlen), out,
		       MLX5_CMD_STAT_BAD_RES_ERR, MLX5_UMR_FAKE_SYND_BAD_QP);
}

static void fake_cmd_qp(struct kunit *test)
{
	struct ft *ft = fc_queues(test);
	u32 out[MLX5_ST_SZ_DW(create_qp_out)];
	u32 din[MLX5_ST_SZ_DW(destroy_cq_in)] = {};
	void *in, *qpc;
	int inlen;

	ft_create_cq(ft);
	in = ft_create_qp_in(ft, &inlen);
	qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	/* REG_UMR and RC run the WQE engine; other service types do not */
	MLX5_SET(qpc, qpc, st, MLX5_QP_ST_UD);
	EXPECT_FAIL(test, ft_cmd(ft, in, inlen, out, sizeof(out)), out,
		    BAD_PARAM_ERR, BAD_ST);
	MLX5_SET(qpc, qpc, st, MLX5_QP_ST_REG_UMR);
	MLX5_SET(qpc, qpc, rq_type, MLX5_NON_ZERO_RQ);
	EXPECT_FAIL(test, ft_cmd(ft, in, inlen, out, sizeof(out)), out,
		    BAD_PARAM_ERR, BAD_RQ);
	MLX5_SET(qpc, qpc, rq_type, MLX5_ZERO_LEN_RQ);
	MLX5_SET(qpc, qpc, cqn_snd, ft->cq.cqn + 1);
	EXPECT_FAIL(test, ft_cmd(ft, in, inlen, out, sizeof(out)), out,
		    BAD_RES_ERR, BAD_CQ);
	MLX5_SET(qpc, qpc, cqn_snd, ft->cq.cqn);
	MLX5_SET(qpc, qpc, pd, ft->pdn + 1);
	EXPECT_FAIL(test, ft_cmd(ft, in, inlen, out, sizeof(out)), out,
		    BAD_RES_ERR, BAD_PD);
	MLX5_SET(qpc, qpc, pd, ft->pdn);
	MLX5_SET64(qpc, qpc, dbr_addr, ft->db.pages[0] + PAGE_SIZE);
	EXPECT_FAIL(test, ft_cmd(ft, in, inlen, out, sizeof(out)), out,
		    BAD_PARAM_ERR, BAD_DBR);
	MLX5_SET64(qpc, qpc, dbr_addr, ft->db.pages[0] + FT_QP_DBR);
	EXPECT_FAIL(test, ft_cmd(ft, in, inlen - 8, out, sizeof(out)), out,
		    BAD_INP_LEN_ERR, BAD_INLEN);
	KUNIT_ASSERT_EQ(test, ft_cmd(ft, in, inlen, out, sizeof(out)), 0);
	ft->qpn = MLX5_GET(create_qp_out, out, qpn);
	KUNIT_EXPECT_EQ(test, ft_qp_state(ft), MLX5_QP_STATE_RST);

	/* transitions must follow RST -> INIT -> RTR -> RTS */
	EXPECT_FAIL(test, ft_qp_cmd(ft, MLX5_CMD_OP_RTR2RTS_QP, ft->qpn, out),
		    out, BAD_QP_STATE_ERR, BAD_QP_STATE);
	EXPECT_FAIL(test, ft_qp_cmd(ft, MLX5_CMD_OP_INIT2RTR_QP, ft->qpn, out),
		    out, BAD_QP_STATE_ERR, BAD_QP_STATE);
	EXPECT_FAIL(test, ft_qp_cmd(ft, MLX5_CMD_OP_RST2INIT_QP, ft->qpn + 1,
				    out), out, BAD_RES_ERR, BAD_QP);
	KUNIT_ASSERT_EQ(test, ft_qp_cmd(ft, MLX5_CMD_OP_RST2INIT_QP, ft->qpn,
					out), 0);
	KUNIT_EXPECT_EQ(test, ft_qp_state(ft), MLX5_QP_STATE_INIT);
	EXPECT_FAIL(test, ft_qp_cmd(ft, MLX5_CMD_OP_RST2INIT_QP, ft->qpn, out),
		    out, BAD_QP_STATE_ERR, BAD_QP_STATE);
	KUNIT_ASSERT_EQ(test, ft_qp_cmd(ft, MLX5_CMD_OP_INIT2RTR_QP, ft->qpn,
					out), 0);
	KUNIT_ASSERT_EQ(test, ft_qp_cmd(ft, MLX5_CMD_OP_RTR2RTS_QP, ft->qpn,
					out), 0);
	KUNIT_EXPECT_EQ(test, ft_qp_state(ft), MLX5_QP_STATE_RTS);
	fc_query_qp(ft, MLX5_QP_STATE_RTS);
	KUNIT_ASSERT_EQ(test, ft_qp_cmd(ft, MLX5_CMD_OP_2ERR_QP, ft->qpn, out),
			0);
	KUNIT_EXPECT_EQ(test, ft_qp_state(ft), MLX5_QP_STATE_ERR);
	fc_query_qp(ft, MLX5_QP_STATE_ERR);
	KUNIT_ASSERT_EQ(test, ft_qp_cmd(ft, MLX5_CMD_OP_2RST_QP, ft->qpn, out),
			0);
	KUNIT_EXPECT_EQ(test, ft_qp_state(ft), MLX5_QP_STATE_RST);

	/* the CQ and the PD are in use by the QP */
	MLX5_SET(destroy_cq_in, din, opcode, MLX5_CMD_OP_DESTROY_CQ);
	MLX5_SET(destroy_cq_in, din, cqn, ft->cq.cqn);
	EXPECT_FAIL(test, ft_cmd(ft, din, sizeof(din), out,
				 MLX5_ST_SZ_BYTES(destroy_cq_out)), out,
		    BAD_RES_STATE_ERR, CQ_BUSY);
	EXPECT_FAIL(test, ft_dealloc_pd(ft, ft->pdn, out), out,
		    BAD_RES_STATE_ERR, PD_BUSY);
	ft_teardown(ft);
}

static void fake_cmd_psv(struct kunit *test)
{
	struct ft *ft = fc_fake(test, NULL, 0);
	u32 in[MLX5_ST_SZ_DW(create_psv_in)] = {};
	u32 out[MLX5_ST_SZ_DW(create_psv_out)] = {};
	u32 din[MLX5_ST_SZ_DW(destroy_psv_in)] = {};
	u32 dout[MLX5_ST_SZ_DW(destroy_psv_out)];
	u32 p0, p1;

	ft->pdn = ft_alloc_pd(ft);
	MLX5_SET(create_psv_in, in, opcode, MLX5_CMD_OP_CREATE_PSV);
	MLX5_SET(create_psv_in, in, pd, ft->pdn);
	EXPECT_FAIL(test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)), out,
		    BAD_PARAM_ERR, BAD_FIELD);
	MLX5_SET(create_psv_in, in, num_psv, 2);
	KUNIT_ASSERT_EQ(test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)), 0);
	p0 = MLX5_GET(create_psv_out, out, psv0_index);
	p1 = MLX5_GET(create_psv_out, out, psv1_index);
	KUNIT_EXPECT_NE(test, p0, p1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(create_psv_out, out, psv2_index), 0);
	EXPECT_FAIL(test, ft_dealloc_pd(ft, ft->pdn, dout), dout,
		    BAD_RES_STATE_ERR, PD_BUSY);
	MLX5_SET(destroy_psv_in, din, opcode, MLX5_CMD_OP_DESTROY_PSV);
	MLX5_SET(destroy_psv_in, din, psvn, p0);
	KUNIT_EXPECT_EQ(test, ft_cmd(ft, din, sizeof(din), dout, sizeof(dout)),
			0);
	EXPECT_FAIL(test, ft_cmd(ft, din, sizeof(din), dout, sizeof(dout)),
		    dout, BAD_RES_ERR, BAD_PSV);
	MLX5_SET(destroy_psv_in, din, psvn, p1);
	KUNIT_EXPECT_EQ(test, ft_cmd(ft, din, sizeof(din), dout, sizeof(dout)),
			0);
	KUNIT_EXPECT_EQ(test, ft_dealloc_pd(ft, ft->pdn, dout), 0);
	fc_done(ft);
}

static void fake_cmd_inject(struct kunit *test)
{
	struct ft *ft = fc_fake(test, NULL, 0);
	u32 in[MLX5_ST_SZ_DW(alloc_pd_in)] = {};
	u32 out[MLX5_ST_SZ_DW(alloc_pd_out)] = {};
	u32 key;
	u8 st;

	ft->pdn = ft_alloc_pd(ft);
	mlx5_umr_fake_inject_cmd_error(ft->fake, MLX5_CMD_OP_CREATE_MKEY,
				       MLX5_CMD_STAT_LIM_ERR, 0x1234);
	/* another opcode passes */
	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	KUNIT_ASSERT_EQ(test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)), 0);
	KUNIT_EXPECT_EQ(test, ft_dealloc_pd(ft, MLX5_GET(alloc_pd_out, out, pd),
					    out), 0);
	KUNIT_EXPECT_EQ(test, ft_create_mkey_full(ft, MLX5_MKC_ACCESS_MODE_KLMS,
						  4, true, true, 0, 0, 0, 0,
						  NULL, 0, &st), 0U);
	KUNIT_EXPECT_EQ(test, st, MLX5_CMD_STAT_LIM_ERR);
	key = ft_create_mkey_full(ft, MLX5_MKC_ACCESS_MODE_KLMS, 4, true, true,
				  0, 0, 0, 0, NULL, 0, &st);
	KUNIT_EXPECT_NE(test, key, 0U);

	/* internal error: only teardown still works */
	mlx5_umr_fake_inject_internal_error(ft->fake);
	KUNIT_EXPECT_TRUE(test, ft->hca->ops->internal_error(ft->hca));
	KUNIT_EXPECT_EQ(test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)),
			-EIO);
	ft_del_mkey(ft, key);
	KUNIT_EXPECT_EQ(test, ft_dealloc_pd(ft, ft->pdn, out), 0);
	fc_done(ft);
}

/*
 * F_REGISTER offers the fake to the UMR service, which may build its own
 * objects on it; once withdrawn, nothing of the service's may remain.
 */
static void fake_cmd_register(struct kunit *test)
{
	struct ft *ft = fc_fake(test, NULL, MLX5_UMR_FAKE_F_REGISTER);

	KUNIT_EXPECT_NOT_NULL(test, ft->hca->umr);
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_fake_from_hca(ft->hca), ft->fake);
	KUNIT_EXPECT_NULL(test, mlx5_umr_fake_from_hca(NULL));
	KUNIT_EXPECT_EQ(test, strncmp(ft->hca->name, "fake", 4), 0);
	KUNIT_EXPECT_NOT_NULL(test, ft->hca->dev);
	mlx5_umr_unregister_hca(ft->hca);
	KUNIT_EXPECT_NULL(test, ft->hca->umr);
	fc_done(ft);
}

/* Counters follow the IOMMU: buffers map distinct, page-aligned pages. */
static void fake_cmd_dma_buf(struct kunit *test)
{
	struct ft *ft = fc_fake(test, NULL, 0);
	struct mlx5_umr_dma_buf a, b;
	struct mlx5_umr_fake_counters c;

	KUNIT_ASSERT_EQ(test, ft_dma_buf(ft, 3 * PAGE_SIZE - 5, &a), 0);
	KUNIT_ASSERT_EQ(test, ft_dma_buf(ft, 1, &b), 0);
	KUNIT_EXPECT_EQ(test, a.npages, 3U);
	KUNIT_EXPECT_EQ(test, a.size, 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, b.npages, 1U);
	KUNIT_EXPECT_EQ(test, a.pages[0] & ~PAGE_MASK, 0ULL);
	KUNIT_EXPECT_EQ(test, a.pages[1], a.pages[0] + PAGE_SIZE);
	KUNIT_EXPECT_GT(test, b.pages[0], a.pages[2] + PAGE_SIZE);
	KUNIT_EXPECT_NULL(test, memchr_inv(a.cpu, 0, a.size));
	mlx5_umr_fake_get_counters(ft->fake, &c);
	KUNIT_EXPECT_EQ(test, c.dma_bufs, 2U);
	KUNIT_EXPECT_EQ(test, c.iommu_pages, 4ULL);
	ft->hca->ops->free_dma_buf(ft->hca, &a);
	ft->hca->ops->free_dma_buf(ft->hca, &b);
	fc_done(ft);
}

/* debugfs shows the device and its knobs inject faults. */
static void fake_cmd_debugfs(struct kunit *test)
{
	struct ft *ft = fc_fake(test, NULL, 0);
	u32 in[MLX5_ST_SZ_DW(alloc_pd_in)] = {};
	u32 out[MLX5_ST_SZ_DW(alloc_pd_out)] = {};
	char *buf = kunit_kzalloc(test, 4096, GFP_KERNEL);
	char knob[] = "0x800 5 0x99";
	u32 key;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* the test bed mounts debugfs at /sys/kernel/debug */
	KUNIT_ASSERT_GT(test, ft_dbg_io(ft, "caps", buf, 4096, false), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "log_max_klm_list_size 16\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "resd_lkey 0x100\n"));

	ft->pdn = ft_alloc_pd(ft);
	key = ft_create_mkey_full(ft, MLX5_MKC_ACCESS_MODE_KLMS, 4, true, true,
				  0, 0, 0, 0, NULL, 0, NULL);
	KUNIT_ASSERT_GT(test, ft_dbg_io(ft, "counters", buf, 4096, false), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "pds 1\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "mkeys 1\n"));
	KUNIT_ASSERT_GT(test, ft_dbg_io(ft, "mkeys", buf, 4096, false), 0);
	snprintf(knob, sizeof(knob), "0x%08x", key);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, knob));

	strscpy(knob, "0x800 5 0x99", sizeof(knob));
	KUNIT_EXPECT_EQ(test, ft_dbg_io(ft, "fail_cmd", knob, strlen(knob),
					true), (ssize_t)strlen(knob));
	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	fc_expect_fail(test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)), out,
		       MLX5_CMD_STAT_BAD_RES_ERR, 0x99);
	KUNIT_EXPECT_EQ(test, ft_dbg_io(ft, "fail_cmd", "1 2", 3, true),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, ft_dbg_io(ft, "internal_error", "1", 1, true),
			1L);
	KUNIT_EXPECT_TRUE(test, ft->hca->ops->internal_error(ft->hca));

	ft_del_mkey(ft, key);
	KUNIT_EXPECT_EQ(test, ft_dealloc_pd(ft, ft->pdn, out), 0);
	fc_done(ft);
}

/* CREATE_UCTX: the uid, or -EREMOTEIO */
static int fc_uctx(struct ft *ft, u32 cap, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(create_uctx_in)] = {};
	int err;

	MLX5_SET(create_uctx_in, in, opcode, MLX5_CMD_OP_CREATE_UCTX);
	MLX5_SET(uctx, MLX5_ADDR_OF(create_uctx_in, in, uctx), cap, cap);
	err = ft_cmd(ft, in, sizeof(in), out,
		     MLX5_ST_SZ_BYTES(create_uctx_out));
	return err ?: (int)MLX5_GET(create_uctx_out, out, uid);
}

static int fc_uctx_destroy(struct ft *ft, u16 uid, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(destroy_uctx_in)] = {};

	MLX5_SET(destroy_uctx_in, in, opcode, MLX5_CMD_OP_DESTROY_UCTX);
	MLX5_SET(destroy_uctx_in, in, uid, uid);
	return ft_cmd(ft, in, sizeof(in), out,
		      MLX5_ST_SZ_BYTES(destroy_uctx_out));
}

/* One command of opcode @op on object @id (dword 2) with @uid. */
static int fc_uid_cmd(struct ft *ft, u16 op, u16 uid, u32 id, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(destroy_mkey_in)] = {};

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode, op);
	MLX5_SET(general_obj_in_cmd_hdr, in, uid, uid);
	/* mkey_index, psvn and pd: the low 24 bits of dword 2 */
	MLX5_SET(destroy_mkey_in, in, mkey_index, id);
	return ft_cmd(ft, in, sizeof(in), out,
		      MLX5_ST_SZ_BYTES(destroy_mkey_out));
}

/* CREATE_MKEY (KLM, 4 entries, free, UMR-enabled) in @pdn with @uid */
static int fc_uid_mkey(struct ft *ft, u16 uid, u32 pdn, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(create_mkey_in)] = {};
	void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	int err;

	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	MLX5_SET(create_mkey_in, in, uid, uid);
	MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_KLMS);
	MLX5_SET(mkc, mkc, free, 1);
	MLX5_SET(mkc, mkc, umr_en, 1);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, pd, pdn);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET(mkc, mkc, translations_octword_size, 4);
	err = ft_cmd(ft, in, sizeof(in), out,
		     MLX5_ST_SZ_BYTES(create_mkey_out));
	return err ?: (int)MLX5_GET(create_mkey_out, out, mkey_index);
}

/*
 * User contexts and uids (Documentation/fake.rst): an object belongs to
 * the uid that created it and is destroyed only with it; two users do not
 * share objects, the kernel's uid 0 does (mlx5_ib creates uid-0 MRs in a
 * context's PD); a uid names a live context; a context goes last.
 */
static void fake_cmd_uctx(struct kunit *test)
{
	/* the largest out mailbox used here */
	u32 out[MLX5_ST_SZ_DW(create_psv_out)];
	struct mlx5_umr_fake_counters c;
	struct mlx5_umr_fake_attr attr;
	int u1, u2, idx, idx0;
	u32 pdn, psvn;
	struct ft *ft;

	ft = fc_fake(test, NULL, 0);
	u1 = fc_uctx(ft, 0, out);
	u2 = fc_uctx(ft, 0, out);
	KUNIT_ASSERT_GT(test, u1, 0);
	KUNIT_ASSERT_GT(test, u2, 0);
	KUNIT_EXPECT_NE(test, u1, u2);
	EXPECT_FAIL(test, fc_uctx(ft, MLX5_UCTX_CAP_RAW_TX, out), out,
		    BAD_PARAM_ERR, BAD_FIELD);
	mlx5_umr_fake_get_counters(ft->fake, &c);
	KUNIT_EXPECT_EQ(test, c.uctxs, 2U);

	/* ALLOC_PD of u1 */
	KUNIT_ASSERT_EQ(test, fc_uid_cmd(ft, MLX5_CMD_OP_ALLOC_PD, u1, 0, out),
			0);
	pdn = MLX5_GET(alloc_pd_out, out, pd);
	/* a uid no context has; another user's PD */
	EXPECT_FAIL(test, fc_uid_mkey(ft, 0xffff, pdn, out), out,
		    BAD_PARAM_ERR, BAD_UID);
	EXPECT_FAIL(test, fc_uid_mkey(ft, u2, pdn, out), out, BAD_RES_ERR,
		    BAD_UID);
	idx = fc_uid_mkey(ft, u1, pdn, out);
	KUNIT_ASSERT_GT(test, idx, 0);
	/* the kernel's mkey in the user's PD (mlx5_ib's MRs) */
	idx0 = fc_uid_mkey(ft, 0, pdn, out);
	KUNIT_ASSERT_GT(test, idx0, 0);
	/* destroyed only with its own uid */
	EXPECT_FAIL(test, fc_uid_cmd(ft, MLX5_CMD_OP_DESTROY_MKEY, 0, idx,
				     out), out, BAD_RES_ERR, BAD_UID);
	EXPECT_FAIL(test, fc_uid_cmd(ft, MLX5_CMD_OP_DESTROY_MKEY, u2, idx,
				     out), out, BAD_RES_ERR, BAD_UID);
	EXPECT_FAIL(test, fc_uid_cmd(ft, MLX5_CMD_OP_DESTROY_MKEY, u1, idx0,
				     out), out, BAD_RES_ERR, BAD_UID);
	mlx5_umr_fake_get_counters(ft->fake, &c);
	KUNIT_EXPECT_EQ(test, c.mkeys, 2U);
	KUNIT_EXPECT_EQ(test, fc_uid_cmd(ft, MLX5_CMD_OP_DESTROY_MKEY, u1, idx,
					 out), 0);
	KUNIT_EXPECT_EQ(test, fc_uid_cmd(ft, MLX5_CMD_OP_DESTROY_MKEY, 0, idx0,
					 out), 0);

	/* PSVs: the same rules */
	{
		u32 in[MLX5_ST_SZ_DW(create_psv_in)] = {};

		MLX5_SET(create_psv_in, in, opcode, MLX5_CMD_OP_CREATE_PSV);
		MLX5_SET(create_psv_in, in, num_psv, 1);
		MLX5_SET(create_psv_in, in, pd, pdn);
		MLX5_SET(general_obj_in_cmd_hdr, in, uid, u2);
		EXPECT_FAIL(test, ft_cmd(ft, in, sizeof(in), out,
					 MLX5_ST_SZ_BYTES(create_psv_out)),
			    out, BAD_RES_ERR, BAD_UID);
		MLX5_SET(general_obj_in_cmd_hdr, in, uid, u1);
		KUNIT_ASSERT_EQ(test, ft_cmd(ft, in, sizeof(in), out,
					     MLX5_ST_SZ_BYTES(create_psv_out)),
				0);
		psvn = MLX5_GET(create_psv_out, out, psv0_index);
	}
	/* a context with objects stays */
	EXPECT_FAIL(test, fc_uctx_destroy(ft, u1, out), out,
		    BAD_RES_STATE_ERR, UCTX_BUSY);
	EXPECT_FAIL(test, fc_uid_cmd(ft, MLX5_CMD_OP_DESTROY_PSV, 0, psvn,
				     out), out, BAD_RES_ERR, BAD_UID);
	KUNIT_EXPECT_EQ(test, fc_uid_cmd(ft, MLX5_CMD_OP_DESTROY_PSV, u1, psvn,
					 out), 0);
	EXPECT_FAIL(test, fc_uid_cmd(ft, MLX5_CMD_OP_DEALLOC_PD, 0, pdn, out),
		    out, BAD_RES_ERR, BAD_UID);
	EXPECT_FAIL(test, fc_uctx_destroy(ft, u1, out), out,
		    BAD_RES_STATE_ERR, UCTX_BUSY);
	KUNIT_EXPECT_EQ(test, fc_uid_cmd(ft, MLX5_CMD_OP_DEALLOC_PD, u1, pdn,
					 out), 0);
	KUNIT_EXPECT_EQ(test, fc_uctx_destroy(ft, u1, out), 0);
	EXPECT_FAIL(test, fc_uctx_destroy(ft, u1, out), out, BAD_PARAM_ERR,
		    BAD_UID);
	/* a destroyed context's uid is no uid any more */
	EXPECT_FAIL(test, fc_uid_cmd(ft, MLX5_CMD_OP_ALLOC_PD, u1, 0, out),
		    out, BAD_PARAM_ERR, BAD_UID);
	KUNIT_EXPECT_EQ(test, fc_uctx_destroy(ft, u2, out), 0);
	mlx5_umr_fake_get_counters(ft->fake, &c);
	KUNIT_EXPECT_EQ(test, c.uctxs, 0U);
	fc_done(ft);

	/* log_max_uctx: the cap, the limit; 0: no CREATE_UCTX */
	mlx5_umr_fake_attr_init(&attr);
	attr.caps.log_max_uctx = 1;
	ft = fc_fake(test, &attr.caps, 0);
	{
		int outlen = MLX5_ST_SZ_BYTES(query_hca_cap_out);
		u32 *cap_out = kunit_kzalloc(test, outlen, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, cap_out);
		KUNIT_ASSERT_EQ(test, fc_query_cap(ft, 0, cap_out, outlen), 0);
		KUNIT_EXPECT_EQ(test,
				MLX5_GET(cmd_hca_cap,
					 MLX5_ADDR_OF(query_hca_cap_out,
						      cap_out, capability),
					 log_max_uctx), 1);
	}
	u1 = fc_uctx(ft, 0, out);
	u2 = fc_uctx(ft, 0, out);
	KUNIT_ASSERT_GT(test, u1, 0);
	KUNIT_ASSERT_GT(test, u2, 0);
	EXPECT_FAIL(test, fc_uctx(ft, 0, out), out, NO_RES_ERR, NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, fc_uctx_destroy(ft, u1, out), 0);
	KUNIT_EXPECT_EQ(test, fc_uctx_destroy(ft, u2, out), 0);
	fc_done(ft);
	attr.caps.log_max_uctx = 0;
	ft = fc_fake(test, &attr.caps, 0);
	EXPECT_FAIL(test, fc_uctx(ft, 0, out), out, BAD_OP_ERR, BAD_OPCODE);
	fc_done(ft);
}

/*
 * A user RC QP as mlx5_ib creates it (Linux 6.1 qp.c create_user_qp():
 * st RC, user_index for CQE version 1): accepted, and QUERY_QP returns
 * both; its DESTROY_QP leaves no QP.
 */
static void fake_cmd_qp_rc(struct kunit *test)
{
	u32 qin[MLX5_ST_SZ_DW(query_qp_in)] = {};
	u32 out[MLX5_ST_SZ_DW(create_qp_out)];
	int qlen = MLX5_ST_SZ_BYTES(query_qp_out);
	struct ft *ft = fc_queues(test);
	void *in, *qpc, *qout;
	int inlen;

	qout = kunit_kzalloc(test, qlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qout);
	ft_create_cq(ft);
	in = ft_create_qp_in(ft, &inlen);
	qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	MLX5_SET(qpc, qpc, st, MLX5_QP_ST_RC);
	MLX5_SET(qpc, qpc, user_index, 0x123);
	KUNIT_ASSERT_EQ(test, ft_cmd(ft, in, inlen, out, sizeof(out)), 0);
	ft->qpn = MLX5_GET(create_qp_out, out, qpn);
	MLX5_SET(query_qp_in, qin, opcode, MLX5_CMD_OP_QUERY_QP);
	MLX5_SET(query_qp_in, qin, qpn, ft->qpn);
	KUNIT_ASSERT_EQ(test, ft_cmd(ft, qin, sizeof(qin), qout, qlen), 0);
	qpc = MLX5_ADDR_OF(query_qp_out, qout, qpc);
	KUNIT_EXPECT_EQ(test, MLX5_GET(qpc, qpc, st), MLX5_QP_ST_RC);
	KUNIT_EXPECT_EQ(test, MLX5_GET(qpc, qpc, user_index), 0x123);
	ft_teardown(ft);
}

static struct kunit_case fake_cmd_cases[] = {
	KUNIT_CASE(fake_cmd_query_caps),
	KUNIT_CASE(fake_cmd_bad_op_and_lengths),
	KUNIT_CASE(fake_cmd_pd),
	KUNIT_CASE(fake_cmd_mkey),
	KUNIT_CASE(fake_cmd_cq),
	KUNIT_CASE(fake_cmd_qp),
	KUNIT_CASE(fake_cmd_qp_rc),
	KUNIT_CASE(fake_cmd_psv),
	KUNIT_CASE(fake_cmd_inject),
	KUNIT_CASE(fake_cmd_register),
	KUNIT_CASE(fake_cmd_dma_buf),
	KUNIT_CASE(fake_cmd_debugfs),
	KUNIT_CASE(fake_cmd_uctx),
	{}
};

static struct kunit_suite fake_cmd_suite = {
	.name = "mlx5_umr_fake_cmd",
	.test_cases = fake_cmd_cases,
};

kunit_test_suite(fake_cmd_suite);

MODULE_DESCRIPTION("KUnit tests of the fake mlx5 HCA's command interface");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
