// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the fake HCA's send queue, completion queue and UMR engine, driven
 * by WQEs built by hand.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/sizes.h>
#include <linux/module.h>
#include <linux/jiffies.h>
#include <linux/timer.h>
#include <linux/completion.h>
#include <linux/mlx5_umr_ifc.h>

#include "fake_sig_kunit.h"

struct ft_nop {
	struct mlx5_wqe_ctrl_seg ctrl;
};

static void ft_nop_post(struct ft *ft, bool signalled)
{
	struct ft_nop nop = {};

	ft_post(ft, &nop, sizeof(nop), MLX5_OPCODE_NOP, signalled);
}

/* A signalled NOP yields a requester CQE with the right fields. */
static void fake_wqe_nop_cqe(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct mlx5_cqe64 cqe;

	KUNIT_EXPECT_FALSE(test, ft_poll(ft, &cqe));
	ft_nop_post(ft, true);
	KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
	KUNIT_EXPECT_EQ(test, cqe.op_own, MLX5_CQE_REQ << 4 | 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(cqe.wqe_counter), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(cqe.sop_drop_qpn),
			(u32)MLX5_OPCODE_NOP << 24 | ft->qpn);
	KUNIT_EXPECT_FALSE(test, ft_poll(ft, &cqe));
	ft_teardown(ft);
}

/* Unsignalled WQEs execute but write no CQE. */
static void fake_wqe_unsignalled(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct mlx5_umr_fake_counters c;
	struct mlx5_cqe64 cqe;
	u16 ci;

	ft_nop_post(ft, false);
	ft_nop_post(ft, false);
	KUNIT_EXPECT_FALSE(test, ft_poll(ft, &cqe));
	ft_nop_post(ft, true);
	KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(cqe.wqe_counter), 2);
	KUNIT_EXPECT_FALSE(test, ft_poll(ft, &cqe));
	mlx5_umr_fake_get_counters(ft->fake, &c);
	KUNIT_EXPECT_EQ(test, c.wqes, 3ULL);
	KUNIT_EXPECT_EQ(test, c.cqes, 1ULL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(ft->fake, ft->qpn, &ci),
			MLX5_QP_STATE_RTS);
	KUNIT_EXPECT_EQ(test, ci, 3);
	ft_teardown(ft);
}

/*
 * Several WQEs per doorbell, 3-WQEBB UMR WQEs on an 8-WQEBB ring: they wrap
 * around the ring end; the CQ (4 entries) wraps too and the owner bit flips
 * on every pass.
 */
static void fake_wqe_ring_wrap(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 3, 2);
	struct ft_umr *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct mlx5_umr_dma_buf mr;
	struct mlx5_klm klm[4] = {};
	u8 xlt[64];
	struct mlx5_cqe64 cqe;
	u32 mrkey, key;
	size_t size;
	int i;

	mrkey = ft_mr(ft, &mr, PAGE_SIZE, 0x1000, FT_LW | FT_RR | FT_RW);
	key = ft_indirect(ft, 4);
	for (i = 0; i < 12; i++) {
		ft_klm(&klm[0], 16 + i, mrkey, 0x1000 + i);
		size = ft_umr_init(w, key, FT_RR, 16 + i, klm, sizeof(klm));
		w->uc.flags = MLX5_UMR_INLINE;	/* no free check */
		KUNIT_ASSERT_EQ(test, size, (size_t)192);
		ft_post_nodb(ft, w, size, MLX5_OPCODE_UMR, true);
		if (i % 2) {
			/* two WQEs per doorbell */
			ft_ring(ft, w);
			KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
			KUNIT_EXPECT_EQ(test, cqe.op_own,
					MLX5_CQE_REQ << 4 |
					(((ft->cq_ci - 1) >> 2) & 1));
			KUNIT_EXPECT_EQ(test, be16_to_cpu(cqe.wqe_counter),
					(u16)(3 * (i - 1)));
			KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
			KUNIT_EXPECT_EQ(test, be16_to_cpu(cqe.wqe_counter),
					(u16)(3 * i));
		}
	}
	/* the last UMR's translation and length landed */
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(ft->fake, key, NULL,
						       xlt, sizeof(xlt)), 4);
	KUNIT_EXPECT_EQ(test, memcmp(xlt, klm, sizeof(klm)), 0);
	KUNIT_EXPECT_EQ(test, ft_qp_state(ft), MLX5_QP_STATE_RTS);
	ft_del_mkey(ft, key);
	ft_del_mkey(ft, mrkey);
	ft->hca->ops->free_dma_buf(ft->hca, &mr);
	ft_teardown(ft);
}

/* An inline KLM UMR enables the mkey with exactly the masked fields. */
static void fake_wqe_umr_klm(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct ft_umr *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)], xlt[64];
	struct mlx5_umr_dma_buf mr1, mr2;
	struct mlx5_klm klm[2] = {};
	u32 k1, k2, key;
	size_t size;

	k1 = ft_mr(ft, &mr1, PAGE_SIZE, 0x10000, FT_LW);
	k2 = ft_mr(ft, &mr2, 2 * PAGE_SIZE, 0x20000, FT_LW);
	key = ft_indirect(ft, 4);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(ft->fake, key, mkc,
						       NULL, 0), 4);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 1);

	ft_klm(&klm[0], 64, k1, 0x10000);
	ft_klm(&klm[1], 4096, k2, 0x20000);
	size = ft_umr_init(w, key, FT_RR | FT_RW, 64 + 4096, klm, sizeof(klm));
	ft_umr_ok(ft, w, size);

	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(ft->fake, key, mkc,
						       xlt, sizeof(xlt)), 4);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, umr_en), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET64(mkc, mkc, len), 4160ULL);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, rr), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, rw), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, lw), 0);
	/* not in the mask: unchanged */
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, pd), ft->pdn);
	KUNIT_EXPECT_EQ(test, MLX5_GET64(mkc, mkc, start_addr), 0ULL);
	KUNIT_EXPECT_EQ(test, fake_mkc_mode(mkc), MLX5_MKC_ACCESS_MODE_KLMS);
	KUNIT_EXPECT_EQ(test, memcmp(xlt, klm, sizeof(klm)), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(xlt + 32, 0, 32));

	/* debugfs: the QP and the WQE as executed (klm[1].bcount at 0x90) */
	{
		char *buf = kunit_kzalloc(test, 8192, GFP_KERNEL);
		char want[64];

		KUNIT_ASSERT_NOT_NULL(test, buf);
		KUNIT_ASSERT_GT(test, ft_dbg_io(ft, "qps", buf, 8192, false),
				0);
		snprintf(want, sizeof(want), "0x%x RTS 6 3 3 ", ft->qpn);
		KUNIT_EXPECT_NOT_NULL(test, strstr(buf, want));
		KUNIT_ASSERT_GT(test, ft_dbg_io(ft, "wqes", buf, 8192, false),
				0);
		snprintf(want, sizeof(want), "qpn 0x%x idx 0 len 192\n",
			 ft->qpn);
		KUNIT_EXPECT_NOT_NULL(test, strstr(buf, want));
		KUNIT_EXPECT_NOT_NULL(test,
				      strstr(buf, "00000090: 00100000 "));
	}

	/* QUERY_MKEY returns the same context through the command path */
	{
		u32 in[MLX5_ST_SZ_DW(query_mkey_in)] = {};
		u32 out[MLX5_ST_SZ_DW(query_mkey_out)] = {};

		MLX5_SET(query_mkey_in, in, opcode, MLX5_CMD_OP_QUERY_MKEY);
		MLX5_SET(query_mkey_in, in, mkey_index, key >> 8);
		KUNIT_ASSERT_EQ(test, ft_cmd(ft, in, sizeof(in), out,
					     sizeof(out)), 0);
		KUNIT_EXPECT_EQ(test, memcmp(MLX5_ADDR_OF(query_mkey_out, out,
							  memory_key_mkey_entry),
					     mkc, sizeof(mkc)), 0);
	}
	ft_del_mkey(ft, key);
	ft_del_mkey(ft, k1);
	ft_del_mkey(ft, k2);
	ft->hca->ops->free_dma_buf(ft->hca, &mr1);
	ft->hca->ops->free_dma_buf(ft->hca, &mr2);
	ft_teardown(ft);
}

/* A UMR that binds @key to QP @qpn (mask QPN only). */
static size_t ft_umr_bind_qpn(struct ft_umr *w, u32 key, u32 qpn)
{
	memset(w, 0, 128);
	w->ctrl.umr_mkey = cpu_to_be32(key);
	w->uc.flags = MLX5_UMR_INLINE;
	w->uc.mkey_mask = cpu_to_be64(MLX5_MKEY_MASK_QPN);
	w->mkey.qpn_mkey7_0 = cpu_to_be32(qpn << 8 | (key & 0xff));
	return 128;
}

/*
 * ibv_wr_local_inv as rdma-core v44.0 encodes it (qp.c
 * mlx5_send_wr_local_inv(), _build_umr_wqe(), set_umr_control_seg(),
 * set_umr_mkey_seg()): the ctrl segment names the key invalidated, the
 * UMR checks the QPN, masks FREE, KEY and QPN, and the mkey segment
 * sets free, QPN 0xffffff and key byte 0.
 */
static size_t ft_umr_rdma_core_inv(struct ft_umr *w, u32 key)
{
	memset(w, 0, 128);
	w->ctrl.umr_mkey = cpu_to_be32(key);
	w->uc.flags = MLX5_UMR_TRANSLATION_OFFSET_EN | MLX5_UMR_INLINE |
		      MLX5_UMR_IFC_CHECK_QPN;
	w->uc.mkey_mask = cpu_to_be64(MLX5_MKEY_MASK_FREE |
				      MLX5_MKEY_MASK_KEY | MLX5_MKEY_MASK_QPN);
	w->mkey.qpn_mkey7_0 = cpu_to_be32(0xffffff00);
	MLX5_SET(mkc, &w->mkey, free, 1);
	return 128;
}

/*
 * rdma-core's local invalidation executes: an mkey bound to another QP
 * is refused (CHECK_QPN), one bound to the posting QP is freed, unbound,
 * and gets the key byte the mkey segment carries (0), the ctrl segment
 * having named it by its current key.
 */
static void fake_wqe_rdma_core_local_inv(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct ft_umr *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	u32 key;

	KUNIT_ASSERT_NOT_NULL(test, w);
	key = ft_indirect(ft, 4);
	KUNIT_ASSERT_NE(test, key & 0xff, 0U);
	ft_post_ok(ft, w, ft_umr_bind_qpn(w, key, ft->qpn + 1),
		   MLX5_OPCODE_UMR);
	ft_expect_err(ft, w, ft_umr_rdma_core_inv(w, key), MLX5_OPCODE_UMR,
		      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		      MLX5_UMR_FAKE_VS_MKEY_QPN);
	ft_qp_recover(ft);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(ft->fake, key, mkc,
						       NULL, 0), 4);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, qpn), ft->qpn + 1);

	ft_post_ok(ft, w, ft_umr_bind_qpn(w, key, ft->qpn), MLX5_OPCODE_UMR);
	ft_post_ok(ft, w, ft_umr_rdma_core_inv(w, key), MLX5_OPCODE_UMR);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(ft->fake, key & ~0xffu,
						       mkc, NULL, 0), 4);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, qpn), 0xffffff);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, mkey_7_0), 0);
	ft_del_mkey(ft, key & ~0xffu);
	ft_teardown(ft);
}

struct ft_rej {
	struct ft *ft;
	struct ft_umr *w;
	struct mlx5_umr_dma_buf mr;
	u32 mrkey;
	u32 key;	/* indirect, umr_en, free, 4 octowords */
	u32 plain;	/* no umr_en */
	size_t size;	/* a valid UMR for key in w */
};

static void ft_rej_init(struct kunit *test, struct ft_rej *r,
			const struct mlx5_umr_fake_caps *caps)
{
	struct mlx5_klm klm = {};

	r->ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, caps, 6, 6);
	r->w = kunit_kzalloc(test, sizeof(*r->w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->w);
	r->mrkey = ft_mr(r->ft, &r->mr, PAGE_SIZE, 0x1000, FT_LW);
	r->key = ft_indirect(r->ft, 4);
	r->plain = ft_create_mkey_full(r->ft, MLX5_MKC_ACCESS_MODE_KLMS, 4,
				       false, true, 0, 0, 0, 0, NULL, 0, NULL);
	KUNIT_ASSERT_NE(test, r->plain, 0U);
	ft_klm(&klm, 512, r->mrkey, 0x1000);
	r->size = ft_umr_init(r->w, r->key, FT_RR, 512, &klm, sizeof(klm));
}

static void ft_rej_fini(struct ft_rej *r)
{
	ft_del_mkey(r->ft, r->key);
	ft_del_mkey(r->ft, r->plain);
	ft_del_mkey(r->ft, r->mrkey);
	r->ft->hca->ops->free_dma_buf(r->ft->hca, &r->mr);
	ft_teardown(r->ft);
}

/*
 * After an error the QP executes nothing: a later WQE completes with a
 * flush error and has no effect; after reset the QP works again.
 */
static void ft_rej_check_stopped(struct ft_rej *r, bool retry)
{
	struct kunit *test = r->ft->test;
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	struct mlx5_err_cqe *err;
	struct mlx5_cqe64 cqe;
	struct ft_umr *good;
	struct mlx5_klm klm = {};
	size_t size;
	u16 idx;

	good = kunit_kzalloc(test, sizeof(*good), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, good);
	ft_klm(&klm, 512, r->mrkey, 0x1000);
	size = ft_umr_init(good, r->key, FT_RR, 512, &klm, sizeof(klm));
	idx = ft_post(r->ft, good, size, MLX5_OPCODE_UMR, false);
	KUNIT_ASSERT_TRUE(test, ft_poll(r->ft, &cqe));
	err = (void *)&cqe;
	KUNIT_EXPECT_EQ(test, err->op_own >> 4, MLX5_CQE_REQ_ERR);
	KUNIT_EXPECT_EQ(test, err->syndrome, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(err->wqe_counter), idx);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(r->ft->fake, r->key,
						       mkc, NULL, 0), 4);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 1);
	KUNIT_EXPECT_EQ(test, ft_qp_state(r->ft), MLX5_QP_STATE_ERR);

	ft_qp_recover(r->ft);
	if (!retry)
		return;
	ft_umr_ok(r->ft, good, size);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(r->ft->fake, r->key,
						       mkc, NULL, 0), 4);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 0);
}

struct ft_rej_case {
	const char *name;
	void (*caps)(struct mlx5_umr_fake_caps *caps);
	void (*mutate)(struct ft_rej *r);
	u8 opcode;
	u8 synd;
	u8 vsynd;
};

static void mut_not_umr_en(struct ft_rej *r)
{
	r->w->ctrl.umr_mkey = cpu_to_be32(r->plain);
}

static void mut_unknown_target(struct ft_rej *r)
{
	r->w->ctrl.umr_mkey = cpu_to_be32(0x7777700);
}

static void mut_stale_variant(struct ft_rej *r)
{
	r->w->ctrl.umr_mkey = cpu_to_be32(r->key ^ 1);
}

static void mut_check_free(struct ft_rej *r)
{
	/* kernel name: CHECK_FREE = fail if free; the mkey is free */
	r->w->uc.flags = MLX5_UMR_INLINE | MLX5_UMR_CHECK_FREE;
}

static void mut_both_checks(struct ft_rej *r)
{
	r->w->uc.flags = MLX5_UMR_INLINE | MLX5_UMR_CHECK_FREE |
			 MLX5_UMR_CHECK_NOT_FREE;
}

static void mut_xlt_too_big(struct ft_rej *r)
{
	r->w->uc.xlt_octowords = cpu_to_be16(8);
	r->size = 128 + 128;
}

static void mut_xlt_offset(struct ft_rej *r)
{
	r->w->uc.flags |= MLX5_UMR_TRANSLATION_OFFSET_EN;
	r->w->uc.xlt_offset = cpu_to_be16(2);
}

static void mut_xlt_align(struct ft_rej *r)
{
	r->w->uc.xlt_octowords = cpu_to_be16(3);
}

static void mut_klm_unknown_key(struct ft_rej *r)
{
	((struct mlx5_klm *)r->w->xlt)->key = cpu_to_be32(0x123400);
}

static void mut_klm_free_key(struct ft_rej *r)
{
	((struct mlx5_klm *)r->w->xlt)->key = cpu_to_be32(r->plain);
}

static void mut_klm_bcount(struct ft_rej *r)
{
	((struct mlx5_klm *)r->w->xlt)->bcount = cpu_to_be32(SZ_2G + 1);
}

static void mut_bad_ds(struct ft_rej *r)
{
	r->size = 128 + 16;
}

static void mut_mask_atomic(struct ft_rej *r)
{
	r->w->uc.mkey_mask |= cpu_to_be64(MLX5_MKEY_MASK_A);
}

static void caps_no_atomic(struct mlx5_umr_fake_caps *c)
{
	c->umr_modify_atomic_disabled = true;
}

static void mut_mask_page_size(struct ft_rej *r)
{
	r->w->uc.mkey_mask |= cpu_to_be64(MLX5_MKEY_MASK_PAGE_SIZE);
}

static void caps_no_entity_size(struct mlx5_umr_fake_caps *c)
{
	c->umr_modify_entity_size_disabled = true;
}

static void mut_ext_offset(struct ft_rej *r)
{
	r->w->uc.flags |= MLX5_UMR_TRANSLATION_OFFSET_EN;
	r->w->uc.xlt_offset_47_16 = cpu_to_be32(1);
}

static void caps_no_ext_offset(struct mlx5_umr_fake_caps *c)
{
	c->umr_extended_translation_offset = false;
}

static void mut_bad_pd(struct ft_rej *r)
{
	r->w->uc.mkey_mask |= cpu_to_be64(MLX5_MKEY_MASK_PD);
	MLX5_SET(mkc, &r->w->mkey, pd, 0xabcd);
}

static void mut_ro_write(struct ft_rej *r)
{
	r->w->uc.mkey_mask |=
		cpu_to_be64(MLX5_MKEY_MASK_RELAXED_ORDERING_WRITE);
}

static void mut_bad_rb(struct ft_rej *r)
{
	struct mlx5_stride_block_ctrl_seg *rb = (void *)r->w->xlt;

	/* repeat block whose bcount_per_cycle is not the entries' sum */
	rb->bcount_per_cycle = cpu_to_be32(100);
	rb->op = cpu_to_be32(MLX5_STRIDE_BLOCK_OP);
	rb->repeat_count = cpu_to_be32(2);
	rb->num_entries = cpu_to_be16(1);
	((struct mlx5_stride_block_entry *)(rb + 1))->bcount = cpu_to_be16(8);
	((struct mlx5_stride_block_entry *)(rb + 1))->stride = cpu_to_be16(8);
	((struct mlx5_stride_block_entry *)(rb + 1))->key =
		cpu_to_be32(r->mrkey);
}

static void mut_bsf_no_room(struct ft_rej *r)
{
	/* r->key was created without BSF */
	r->w->uc.bsf_octowords = cpu_to_be16(MLX5_MKEY_BSF_OCTO_SIZE);
	r->size += sizeof(struct mlx5_bsf);
}

static void mut_none(struct ft_rej *r)
{
	/* the caps alone make this valid WQE illegal */
}

static void caps_no_indirect(struct mlx5_umr_fake_caps *c)
{
	c->umr_indirect_mkey_disabled = true;
}

static void mut_bad_opcode(struct ft_rej *r)
{
	/* the opcode comes from the case; the WQE is otherwise valid */
}

#define REJ(n, c, op, s, v) {						\
	.name = #n, .caps = c, .mutate = mut_##n, .opcode = op,		\
	.synd = MLX5_CQE_SYNDROME_##s, .vsynd = MLX5_UMR_FAKE_VS_##v,	\
}

static const struct ft_rej_case ft_rej_cases[] = {
	REJ(not_umr_en, NULL, MLX5_OPCODE_UMR, LOCAL_PROT_ERR, MKEY_NOT_UMR),
	REJ(unknown_target, NULL, MLX5_OPCODE_UMR, LOCAL_PROT_ERR,
	    MKEY_UNKNOWN),
	REJ(stale_variant, NULL, MLX5_OPCODE_UMR, LOCAL_PROT_ERR,
	    MKEY_UNKNOWN),
	REJ(check_free, NULL, MLX5_OPCODE_UMR, LOCAL_PROT_ERR, MKEY_FREE),
	REJ(both_checks, NULL, MLX5_OPCODE_UMR, LOCAL_QP_OP_ERR, BAD_FLAGS),
	REJ(xlt_too_big, NULL, MLX5_OPCODE_UMR, LOCAL_LENGTH_ERR,
	    XLT_TOO_BIG),
	REJ(xlt_offset, NULL, MLX5_OPCODE_UMR, LOCAL_LENGTH_ERR, XLT_TOO_BIG),
	REJ(xlt_align, NULL, MLX5_OPCODE_UMR, LOCAL_LENGTH_ERR, XLT_ALIGN),
	REJ(klm_unknown_key, NULL, MLX5_OPCODE_UMR, LOCAL_PROT_ERR,
	    XLT_BAD_KEY),
	REJ(klm_free_key, NULL, MLX5_OPCODE_UMR, LOCAL_PROT_ERR, XLT_BAD_KEY),
	REJ(klm_bcount, NULL, MLX5_OPCODE_UMR, LOCAL_QP_OP_ERR, KLM_BCOUNT),
	REJ(bad_ds, NULL, MLX5_OPCODE_UMR, LOCAL_LENGTH_ERR, BAD_DS),
	REJ(mask_atomic, caps_no_atomic, MLX5_OPCODE_UMR, LOCAL_QP_OP_ERR,
	    MASK_FORBIDDEN),
	REJ(mask_page_size, caps_no_entity_size, MLX5_OPCODE_UMR,
	    LOCAL_QP_OP_ERR, MASK_FORBIDDEN),
	REJ(ro_write, NULL, MLX5_OPCODE_UMR, LOCAL_QP_OP_ERR, MASK_FORBIDDEN),
	REJ(ext_offset, caps_no_ext_offset, MLX5_OPCODE_UMR, LOCAL_QP_OP_ERR,
	    XLT_OFFSET),
	REJ(bad_pd, NULL, MLX5_OPCODE_UMR, LOCAL_PROT_ERR, BAD_PD),
	REJ(bad_rb, NULL, MLX5_OPCODE_UMR, LOCAL_QP_OP_ERR, XLT_BAD_RB),
	{ .name = "indirect_disabled", .caps = caps_no_indirect,
	  .mutate = mut_none, .opcode = MLX5_OPCODE_UMR,
	  .synd = MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
	  .vsynd = MLX5_UMR_FAKE_VS_INDIRECT_DISABLED },
	REJ(bsf_no_room, NULL, MLX5_OPCODE_UMR, LOCAL_PROT_ERR, BSF),
	REJ(bad_opcode, NULL, 0x7f, LOCAL_QP_OP_ERR, BAD_OPCODE),
};

static void ft_rej_desc(const struct ft_rej_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(ft_rej, ft_rej_cases, ft_rej_desc);

/*
 * Each rejection rule: the error CQE carries the syndrome, the mkey is
 * untouched, the QP stays stopped until reset.
 */
static void fake_wqe_reject(struct kunit *test)
{
	const struct ft_rej_case *c = test->param_value;
	struct mlx5_umr_fake_attr attr;
	struct ft_rej r = {};

	mlx5_umr_fake_attr_init(&attr);
	if (c->caps)
		c->caps(&attr.caps);
	ft_rej_init(test, &r, &attr.caps);
	c->mutate(&r);
	ft_expect_err(r.ft, r.w, r.size, c->opcode, c->synd, c->vsynd);
	/* after reset the valid UMR works again, unless the caps forbid it */
	ft_rej_check_stopped(&r, c->mutate != mut_none);
	ft_rej_fini(&r);
}

/* A WQE naming another QP in its ctrl segment is rejected. */
static void fake_wqe_rej_bad_qpn(struct kunit *test)
{
	struct mlx5_wqe_ctrl_seg *ctrl;
	struct ft_rej r = {};
	u16 idx;
	struct mlx5_err_cqe *err;
	struct mlx5_cqe64 cqe;

	ft_rej_init(test, &r, NULL);
	idx = ft_post_nodb(r.ft, r.w, r.size, MLX5_OPCODE_UMR, true);
	ctrl = r.ft->sqbuf.cpu + idx * MLX5_SEND_WQE_BB;
	ctrl->qpn_ds = cpu_to_be32((r.ft->qpn + 1) << 8 | r.size / 16);
	ft_ring(r.ft, r.w);	/* the doorbell names the right QP */
	KUNIT_ASSERT_TRUE(test, ft_poll(r.ft, &cqe));
	err = (void *)&cqe;
	KUNIT_EXPECT_EQ(test, err->syndrome, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
	KUNIT_EXPECT_EQ(test, err->vendor_err_synd, MLX5_UMR_FAKE_VS_BAD_QPN);
	ft_rej_check_stopped(&r, true);
	ft_rej_fini(&r);
}

/* CHECK_NOT_FREE (fail if not free) on an mkey already enabled. */
static void fake_wqe_rej_check_not_free(struct kunit *test)
{
	struct ft_rej r = {};

	ft_rej_init(test, &r, NULL);
	ft_umr_ok(r.ft, r.w, r.size);
	ft_expect_err(r.ft, r.w, r.size, MLX5_OPCODE_UMR,
		      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		      MLX5_UMR_FAKE_VS_MKEY_NOT_FREE);
	ft_qp_recover(r.ft);
	/* invalidate (FREE=1) then the enabling UMR works again */
	r.w->uc.flags = MLX5_UMR_INLINE | MLX5_UMR_CHECK_FREE;
	r.w->uc.mkey_mask = cpu_to_be64(MLX5_MKEY_MASK_FREE);
	r.w->uc.xlt_octowords = 0;
	MLX5_SET(mkc, &r.w->mkey, free, 1);
	ft_umr_ok(r.ft, r.w, 128);
	ft_rej_fini(&r);
}

/* Every WQE posted behind an error is flushed, signalled or not. */
static void fake_wqe_flush_all(struct kunit *test)
{
	struct ft_rej r = {};
	struct ft_nop nop = {};
	struct mlx5_umr_fake_counters c;
	struct mlx5_err_cqe *err;
	struct mlx5_cqe64 cqe;

	ft_rej_init(test, &r, NULL);
	r.w->ctrl.umr_mkey = cpu_to_be32(r.plain);
	ft_post_nodb(r.ft, r.w, r.size, MLX5_OPCODE_UMR, false);
	ft_post_nodb(r.ft, &nop, sizeof(nop), MLX5_OPCODE_NOP, false);
	ft_post(r.ft, &nop, sizeof(nop), MLX5_OPCODE_NOP, false);
	KUNIT_ASSERT_TRUE(test, ft_poll(r.ft, &cqe));
	err = (void *)&cqe;
	KUNIT_EXPECT_EQ(test, err->vendor_err_synd,
			MLX5_UMR_FAKE_VS_MKEY_NOT_UMR);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(err->wqe_counter), 0);
	KUNIT_ASSERT_TRUE(test, ft_poll(r.ft, &cqe));
	KUNIT_EXPECT_EQ(test, err->syndrome, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(err->wqe_counter), 3);
	KUNIT_ASSERT_TRUE(test, ft_poll(r.ft, &cqe));
	KUNIT_EXPECT_EQ(test, err->syndrome, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(err->wqe_counter), 4);
	KUNIT_EXPECT_FALSE(test, ft_poll(r.ft, &cqe));
	mlx5_umr_fake_get_counters(r.ft->fake, &c);
	KUNIT_EXPECT_EQ(test, c.err_cqes, 1ULL);
	KUNIT_EXPECT_EQ(test, c.flush_cqes, 2ULL);
	ft_rej_check_stopped(&r, true);
	ft_rej_fini(&r);
}

/* The 2ERR command flushes what is posted. */
static void fake_wqe_2err_flush(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	u32 out[MLX5_ST_SZ_DW(qp_2err_out)];
	struct ft_nop nop = {};
	struct mlx5_err_cqe *err;
	struct mlx5_cqe64 cqe;
	__be32 *dbr = ft->db.cpu + FT_QP_DBR;

	/* posted, record updated, but the doorbell not rung yet */
	ft_post_nodb(ft, &nop, sizeof(nop), MLX5_OPCODE_NOP, false);
	dbr[MLX5_SND_DBR] = cpu_to_be32(ft->pi);
	KUNIT_ASSERT_EQ(test, ft_qp_cmd(ft, MLX5_CMD_OP_2ERR_QP, ft->qpn, out),
			0);
	KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
	err = (void *)&cqe;
	KUNIT_EXPECT_EQ(test, err->syndrome, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, ft_qp_state(ft), MLX5_QP_STATE_ERR);
	ft_qp_recover(ft);
	ft_nop_post(ft, true);
	KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
	KUNIT_EXPECT_EQ(test, cqe.op_own >> 4, MLX5_CQE_REQ);
	ft_teardown(ft);
}

/*
 * Arming: comp() runs once per arm. In sync mode too it follows the
 * doorbell from the workqueue, never inside write_db.
 */
static void fake_wqe_arm_sync(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct mlx5_cqe64 cqe;

	ft_nop_post(ft, true);
	mlx5_umr_fake_flush(ft->fake);
	KUNIT_EXPECT_EQ(test, atomic_read(&ft->comps), 0);	/* not armed */
	ft_arm(ft);	/* a CQE is pending: fires at once */
	mlx5_umr_fake_flush(ft->fake);
	KUNIT_EXPECT_EQ(test, atomic_read(&ft->comps), 1);
	KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
	ft_arm(ft);
	mlx5_umr_fake_flush(ft->fake);
	KUNIT_EXPECT_EQ(test, atomic_read(&ft->comps), 1);
	ft_nop_post(ft, false);
	mlx5_umr_fake_flush(ft->fake);
	KUNIT_EXPECT_EQ(test, atomic_read(&ft->comps), 1);
	ft_nop_post(ft, true);
	mlx5_umr_fake_flush(ft->fake);
	KUNIT_EXPECT_EQ(test, atomic_read(&ft->comps), 2);
	ft_nop_post(ft, true);	/* disarmed by the last event */
	mlx5_umr_fake_flush(ft->fake);
	KUNIT_EXPECT_EQ(test, atomic_read(&ft->comps), 2);
	ft_teardown(ft);
}

/* Default mode: comp() comes from the workqueue. */
static void fake_wqe_arm_async(struct kunit *test)
{
	struct ft *ft = ft_setup(test, 0, NULL, 6, 6);
	struct mlx5_cqe64 cqe;

	ft_arm(ft);
	ft_nop_post(ft, true);
	mlx5_umr_fake_flush(ft->fake);
	KUNIT_EXPECT_EQ(test, atomic_read(&ft->comps), 1);
	KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
	ft_teardown(ft);
}

/* ASYNC_EXEC: WQEs run from the workqueue, later doorbells fold in. */
static void fake_wqe_async_exec(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_ASYNC_EXEC, NULL, 6, 6);
	struct mlx5_umr_fake_attr attr;
	struct mlx5_cqe64 cqe;
	int i;

	ft_arm(ft);
	for (i = 0; i < 3; i++)
		ft_nop_post(ft, true);
	mlx5_umr_fake_flush(ft->fake);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
		KUNIT_EXPECT_EQ(test, be16_to_cpu(cqe.wqe_counter), i);
	}
	KUNIT_EXPECT_FALSE(test, ft_poll(ft, &cqe));
	KUNIT_EXPECT_EQ(test, atomic_read(&ft->comps), 1);
	ft_teardown(ft);

	mlx5_umr_fake_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_SYNC | MLX5_UMR_FAKE_F_ASYNC_EXEC;
	KUNIT_EXPECT_EQ(test, PTR_ERR(mlx5_umr_fake_create(&attr)), -EINVAL);
}

/* Fault injection: error CQE, dropped CQE, delayed doorbell. */
static void fake_wqe_faults(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct ft_nop nop = {};
	struct mlx5_cqe64 cqe;

	mlx5_umr_fake_inject_wqe_error(ft->fake,
				       MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, 0x42);
	ft_expect_err(ft, &nop, sizeof(nop), MLX5_OPCODE_NOP,
		      MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, 0x42);
	ft_qp_recover(ft);

	mlx5_umr_fake_inject_drop_cqe(ft->fake, 1);
	ft_nop_post(ft, true);
	KUNIT_EXPECT_FALSE(test, ft_poll(ft, &cqe));
	ft_nop_post(ft, true);
	KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(cqe.wqe_counter), 1);

	mlx5_umr_fake_inject_delay(ft->fake, 20);
	ft_nop_post(ft, true);
	ft_nop_post(ft, true);	/* folded into the delayed run */
	KUNIT_EXPECT_FALSE(test, ft_poll(ft, &cqe));
	mlx5_umr_fake_flush(ft->fake);
	KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(cqe.wqe_counter), 2);
	KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(cqe.wqe_counter), 3);

	mlx5_umr_fake_inject_internal_error(ft->fake);
	KUNIT_EXPECT_TRUE(test, ft->hca->ops->internal_error(ft->hca));
	ft_nop_post(ft, true);
	KUNIT_EXPECT_FALSE(test, ft_poll(ft, &cqe));
	ft_teardown(ft);
}

/* Pointer-mode translation through the reserved lkey, and rlky. */
static void fake_wqe_umr_pointer(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct ft_umr *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct mlx5_umr_dma_buf mr, tbl;
	struct mlx5_wqe_data_seg *ds;
	u8 xlt[64];
	u32 k1, key;

	k1 = ft_mr(ft, &mr, PAGE_SIZE, 0x1000, FT_LW);
	key = ft_indirect(ft, 4);
	KUNIT_ASSERT_EQ(test, ft->hca->ops->alloc_dma_buf(ft->hca, PAGE_SIZE,
							  NUMA_NO_NODE,
							  &tbl), 0);
	ft_klm(tbl.cpu, 100, k1, 0x1000);
	ft_klm(tbl.cpu + 16, 200, k1, 0x1100);
	ft_umr_init(w, key, FT_RR, 300, NULL, 0);
	w->uc.flags = MLX5_UMR_CHECK_NOT_FREE;	/* not inline */
	w->uc.xlt_octowords = cpu_to_be16(4);
	ds = (void *)w->xlt;
	ds->byte_count = cpu_to_be32(64);
	ds->lkey = cpu_to_be32(MLX5_UMR_FAKE_RESD_LKEY);
	ds->addr = cpu_to_be64(tbl.pages[0]);
	ft_umr_ok(ft, w, 128 + 16);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(ft->fake, key, NULL,
						       xlt, sizeof(xlt)), 4);
	KUNIT_EXPECT_EQ(test, memcmp(xlt, tbl.cpu, 64), 0);

	/* a table that is not 2048-byte aligned */
	w->uc.flags = MLX5_UMR_CHECK_FREE;
	ds->addr = cpu_to_be64(tbl.pages[0] + 1024);
	ft_expect_err(ft, w, 128 + 16, MLX5_OPCODE_UMR,
		      MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
		      MLX5_UMR_FAKE_VS_PTR_ALIGN);
	ft_qp_recover(ft);

	/* an unmapped table address: local protection error */
	w->uc.flags = MLX5_UMR_CHECK_FREE;
	ds->addr = cpu_to_be64(tbl.pages[0] + PAGE_SIZE);
	ft_expect_err(ft, w, 128 + 16, MLX5_OPCODE_UMR,
		      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		      MLX5_UMR_FAKE_VS_XLT_FAULT);
	ft_qp_recover(ft);

	ft->hca->ops->free_dma_buf(ft->hca, &tbl);
	ft_del_mkey(ft, key);
	ft_del_mkey(ft, k1);
	ft->hca->ops->free_dma_buf(ft->hca, &mr);
	ft_teardown(ft);
}

/*
 * A pointer-mode translation is read with the posting QP's PD: through an
 * mkey of that PD it is read; through an mkey of another PD it is a
 * protection error and the target is left as it was. The target's own PD
 * is not the QP's business: an mkey of another PD is configured.
 */
static void fake_wqe_ptr_key_pd(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct ft_umr *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct mlx5_umr_dma_buf mr, own, theirs;
	struct mlx5_wqe_data_seg *ds;
	u32 k1, key, key_other, kqp, kother, other, pdn = ft->pdn;
	u8 xlt[64];

	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_pd_alloc(ft->fake, &other), 0);
	KUNIT_ASSERT_NE(test, other, pdn);
	k1 = ft_mr(ft, &mr, PAGE_SIZE, 0x1000, FT_LW);
	key = ft_indirect(ft, 4);
	kqp = ft_mr(ft, &own, PAGE_SIZE, 0x800000, 0);
	/* ft_create_mkey_full() creates in ft->pdn: these two in @other */
	ft->pdn = other;
	kother = ft_mr(ft, &theirs, PAGE_SIZE, 0x800000, 0);
	key_other = ft_indirect(ft, 4);
	ft->pdn = pdn;
	ft_klm(own.cpu, 100, k1, 0x1000);
	ft_klm(own.cpu + 16, 200, k1, 0x1100);
	ft_klm(theirs.cpu, 300, k1, 0x1200);

	ft_umr_init(w, key, FT_RR, 300, NULL, 0);
	w->uc.flags = MLX5_UMR_CHECK_NOT_FREE;	/* not inline */
	w->uc.xlt_octowords = cpu_to_be16(4);
	ds = (void *)w->xlt;
	ds->byte_count = cpu_to_be32(64);
	ds->lkey = cpu_to_be32(kqp);
	ds->addr = cpu_to_be64(0x800000);
	ft_umr_ok(ft, w, 128 + 16);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(ft->fake, key, NULL,
						       xlt, sizeof(xlt)), 4);
	KUNIT_EXPECT_EQ(test, memcmp(xlt, own.cpu, 64), 0);

	/* the same UMR through the other PD's mkey: nothing changes */
	w->uc.flags = MLX5_UMR_CHECK_FREE;
	ds->lkey = cpu_to_be32(kother);
	ft_expect_err(ft, w, 128 + 16, MLX5_OPCODE_UMR,
		      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		      MLX5_UMR_FAKE_VS_XLT_PD);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(ft->fake, key, NULL,
						       xlt, sizeof(xlt)), 4);
	KUNIT_EXPECT_EQ(test, memcmp(xlt, own.cpu, 64), 0);
	ft_qp_recover(ft);

	/* a target in another PD, translation through the QP's PD */
	ft_umr_init(w, key_other, FT_RR, 300, NULL, 0);
	w->uc.flags = MLX5_UMR_CHECK_NOT_FREE;
	w->uc.xlt_octowords = cpu_to_be16(4);
	ds->byte_count = cpu_to_be32(64);
	ds->lkey = cpu_to_be32(kqp);
	ds->addr = cpu_to_be64(0x800000);
	ft_umr_ok(ft, w, 128 + 16);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(ft->fake, key_other,
						       NULL, xlt, sizeof(xlt)),
			4);
	KUNIT_EXPECT_EQ(test, memcmp(xlt, own.cpu, 64), 0);

	ft_del_mkey(ft, key_other);
	ft_del_mkey(ft, kother);
	ft_del_mkey(ft, kqp);
	ft_del_mkey(ft, key);
	ft_del_mkey(ft, k1);
	ft->hca->ops->free_dma_buf(ft->hca, &theirs);
	ft->hca->ops->free_dma_buf(ft->hca, &own);
	ft->hca->ops->free_dma_buf(ft->hca, &mr);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_pd_free(ft->fake, other), 0);
	ft_teardown(ft);
}

/* SET_PSV reaches an existing PSV; an unknown one is an error. */
static void fake_wqe_set_psv(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	u32 in[MLX5_ST_SZ_DW(create_psv_in)] = {};
	u32 out[MLX5_ST_SZ_DW(create_psv_out)] = {};
	u32 din[MLX5_ST_SZ_DW(destroy_psv_in)] = {};
	struct {
		struct mlx5_wqe_ctrl_seg ctrl;
		struct mlx5_seg_set_psv psv;
	} w = {};
	u32 psvn;

	MLX5_SET(create_psv_in, in, opcode, MLX5_CMD_OP_CREATE_PSV);
	MLX5_SET(create_psv_in, in, num_psv, 1);
	MLX5_SET(create_psv_in, in, pd, ft->pdn);
	KUNIT_ASSERT_EQ(test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)), 0);
	psvn = MLX5_GET(create_psv_out, out, psv0_index);

	w.psv.psv_num = cpu_to_be32(psvn);
	w.psv.transient_sig = cpu_to_be32(0xffff0000);
	w.psv.ref_tag = cpu_to_be32(0x1234);
	ft_post_ok(ft, &w, sizeof(w), MLX5_OPCODE_SET_PSV);
	w.psv.psv_num = cpu_to_be32(psvn + 100);
	ft_expect_err(ft, &w, sizeof(w), MLX5_OPCODE_SET_PSV,
		      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		      MLX5_UMR_FAKE_VS_PSV_UNKNOWN);

	MLX5_SET(destroy_psv_in, din, opcode, MLX5_CMD_OP_DESTROY_PSV);
	MLX5_SET(destroy_psv_in, din, psvn, psvn);
	KUNIT_EXPECT_EQ(test, ft_cmd(ft, din, sizeof(din), out,
				     MLX5_ST_SZ_BYTES(destroy_psv_out)), 0);
	ft_teardown(ft);
}

/* A PSV in @pdn; returns its index. */
static u32 fwt_psv(struct ft *ft, u32 pdn)
{
	u32 in[MLX5_ST_SZ_DW(create_psv_in)] = {};
	u32 out[MLX5_ST_SZ_DW(create_psv_out)] = {};

	MLX5_SET(create_psv_in, in, opcode, MLX5_CMD_OP_CREATE_PSV);
	MLX5_SET(create_psv_in, in, num_psv, 1);
	MLX5_SET(create_psv_in, in, pd, pdn);
	KUNIT_ASSERT_EQ(ft->test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)),
			0);
	return MLX5_GET(create_psv_out, out, psv0_index);
}

static void fwt_destroy_psv(struct ft *ft, u32 psvn)
{
	u32 in[MLX5_ST_SZ_DW(destroy_psv_in)] = {};
	u32 out[MLX5_ST_SZ_DW(destroy_psv_out)] = {};

	MLX5_SET(destroy_psv_in, in, opcode, MLX5_CMD_OP_DESTROY_PSV);
	MLX5_SET(destroy_psv_in, in, psvn, psvn);
	KUNIT_EXPECT_EQ(ft->test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)),
			0);
}

/*
 * SET_PSV for a PSV of another PD than the posting QP's is a protection
 * error and leaves the PSV as it was; one of the QP's PD goes through.
 */
static void fake_wqe_set_psv_pd(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct {
		struct mlx5_wqe_ctrl_seg ctrl;
		struct mlx5_seg_set_psv psv;
	} w = {};
	struct mlx5_seg_set_psv val;
	u32 other, own, theirs;

	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_pd_alloc(ft->fake, &other), 0);
	KUNIT_ASSERT_NE(test, other, ft->pdn);
	own = fwt_psv(ft, ft->pdn);
	theirs = fwt_psv(ft, other);

	w.psv.psv_num = cpu_to_be32(own);
	w.psv.ref_tag = cpu_to_be32(0x1234);
	ft_post_ok(ft, &w, sizeof(w), MLX5_OPCODE_SET_PSV);
	w.psv.psv_num = cpu_to_be32(theirs);
	w.psv.ref_tag = cpu_to_be32(0x5678);
	ft_expect_err(ft, &w, sizeof(w), MLX5_OPCODE_SET_PSV,
		      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, MLX5_UMR_FAKE_VS_PSV_PD);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_psv(ft->fake, theirs, &val,
						      NULL), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(val.ref_tag), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_psv(ft->fake, own, &val,
						      NULL), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(val.ref_tag), 0x1234);
	fwt_destroy_psv(ft, own);
	fwt_destroy_psv(ft, theirs);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_pd_free(ft->fake, other), 0);
	ft_teardown(ft);
}

/* A doorbell record more than a ring ahead stops the QP. */
static void fake_wqe_db_overrun(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 3, 6);
	struct ft_nop nop = {};
	struct mlx5_err_cqe *err;
	struct mlx5_cqe64 cqe;

	ft_post_nodb(ft, &nop, sizeof(nop), MLX5_OPCODE_NOP, true);
	ft->pi += 8;	/* 9 WQEBBs "posted" on an 8-WQEBB ring */
	ft_ring(ft, &nop);
	KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
	err = (void *)&cqe;
	KUNIT_EXPECT_EQ(test, err->op_own >> 4, MLX5_CQE_REQ_ERR);
	KUNIT_EXPECT_EQ(test, err->syndrome, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
	KUNIT_EXPECT_EQ(test, err->vendor_err_synd,
			MLX5_UMR_FAKE_VS_DB_OVERRUN);
	KUNIT_EXPECT_EQ(test, ft_qp_state(ft), MLX5_QP_STATE_ERR);
	ft_qp_recover(ft);
	ft_nop_post(ft, true);
	KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
	KUNIT_EXPECT_EQ(test, cqe.op_own >> 4, MLX5_CQE_REQ);
	ft_teardown(ft);
}

/* A WQE whose ds runs past the doorbell record is a length error. */
static void fake_wqe_ds_past_pi(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct mlx5_umr_fake_counters c;
	struct ft_nop nop = {};
	struct mlx5_err_cqe *err;
	struct mlx5_cqe64 cqe;
	struct mlx5_wqe_ctrl_seg *ctrl = ft->sqbuf.cpu;

	ft_post_nodb(ft, &nop, sizeof(nop), MLX5_OPCODE_NOP, true);
	ctrl->qpn_ds = cpu_to_be32(ft->qpn << 8 | 8);	/* 2 WQEBBs, 1 posted */
	ft_ring(ft, &nop);
	KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
	err = (void *)&cqe;
	KUNIT_EXPECT_EQ(test, err->syndrome, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
	KUNIT_EXPECT_EQ(test, err->vendor_err_synd, MLX5_UMR_FAKE_VS_BAD_DS);
	KUNIT_EXPECT_FALSE(test, ft_poll(ft, &cqe));
	mlx5_umr_fake_get_counters(ft->fake, &c);
	KUNIT_EXPECT_EQ(test, c.cqes, 1ULL);
	KUNIT_EXPECT_EQ(test, ft_qp_state(ft), MLX5_QP_STATE_ERR);
	ft_qp_recover(ft);
	ft_teardown(ft);
}

struct ft_timer {
	struct timer_list timer;
	struct ft *ft;
	struct ft_nop nop;
	struct completion done;
	int xfer;
};

static void ft_timer_fn(struct timer_list *t)
{
	struct ft_timer *ftt = from_timer(ftt, t, timer);
	u8 byte;

	/* softirq context: the doorbell, the arm and the data path */
	ft_arm(ftt->ft);
	ft_post(ftt->ft, &ftt->nop, sizeof(ftt->nop), MLX5_OPCODE_NOP, true);
	ftt->xfer = mlx5_umr_fake_xfer(ftt->ft->fake, 0x12345600, 0, &byte, 1,
				       false, true);
	complete(&ftt->done);
}

/* write_db and the test data path work from softirq context (lockdep is on). */
static void fake_wqe_softirq(struct kunit *test)
{
	struct ft_timer *ftt = kunit_kzalloc(test, sizeof(*ftt), GFP_KERNEL);
	struct mlx5_cqe64 cqe;
	u32 flags[] = { 0, MLX5_UMR_FAKE_F_SYNC };
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ftt);
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		ftt->ft = ft_setup(test, flags[i], NULL, 6, 6);
		init_completion(&ftt->done);
		timer_setup(&ftt->timer, ft_timer_fn, 0);
		mod_timer(&ftt->timer, jiffies + 1);
		wait_for_completion(&ftt->done);
		del_timer_sync(&ftt->timer);
		mlx5_umr_fake_flush(ftt->ft->fake);
		KUNIT_EXPECT_EQ(test, ftt->xfer,
				MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
		KUNIT_ASSERT_TRUE(test, ft_poll(ftt->ft, &cqe));
		KUNIT_EXPECT_EQ(test, cqe.op_own >> 4, MLX5_CQE_REQ);
		KUNIT_EXPECT_EQ(test, atomic_read(&ftt->ft->comps), 1);
		ft_teardown(ftt->ft);
	}
}

#define FT_STRESS_N	300

/* A thread's QP, and the data path thread's key. */
struct ft_stress {
	struct ft *ft;
	u32 key;
	bool stuck;	/* a CQE never came: nothing more to check */
};

/* Post one signalled NOP and wait for its CQE. */
static int ft_stress_post(struct ft_stress *s, unsigned int i)
{
	struct mlx5_cqe64 cqe;
	unsigned long deadline;

	if (s->stuck)
		return 0;
	ft_nop_post(s->ft, true);
	/* A time bound, not a spin count: the host may be busy. */
	deadline = jiffies + 10 * HZ;
	while (!ft_poll(s->ft, &cqe)) {
		if (time_after(jiffies, deadline)) {
			s->stuck = true;
			return -ETIMEDOUT;
		}
		cond_resched();
	}
	if (cqe.op_own >> 4 != MLX5_CQE_REQ ||
	    be16_to_cpu(cqe.wqe_counter) != (u16)i)
		return -EIO;
	return 0;
}

static int ft_stress_xfer(struct ft_stress *s, unsigned int i)
{
	u8 buf[64];
	int err = 0;

	memset(buf, i, sizeof(buf));
	if (mlx5_umr_fake_xfer(s->ft->fake, s->key, i % 64, buf, sizeof(buf),
			       true, false) ||
	    mlx5_umr_fake_xfer(s->ft->fake, s->key, i % 64, buf, sizeof(buf),
			       false, false) ||
	    memchr_inv(buf, i & 0xff, sizeof(buf)))
		err = -EIO;
	cond_resched();
	return err;
}

/* Threads 0 and 1 post on their QPs, thread 2 moves data. */
static int ft_stress_step(struct umr_kunit_submitter *sub, unsigned int i)
{
	if (sub->id == 2)
		return ft_stress_xfer(sub->priv, i);
	return ft_stress_post(sub->priv, i);
}

/*
 * Two QPs of one fake with asynchronous execution, and the data path, all
 * at once: counts and bytes stay exact (KASAN and lockdep watch).
 */
static void fake_wqe_concurrent(struct kunit *test)
{
	struct umr_kunit_submitters subs;
	struct mlx5_umr_fake_counters c;
	struct mlx5_umr_fake_attr attr;
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dma_buf mr;
	struct ft_stress *s[3];
	int i;

	mlx5_umr_fake_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_ASYNC_EXEC;
	fake = mlx5_umr_fake_create(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fake));
	umr_kunit_submitters_init(test, &subs, NULL, 3, FT_STRESS_N,
				  sizeof(struct ft_stress));
	subs.step = ft_stress_step;
	for (i = 0; i < 3; i++) {
		s[i] = subs.t[i].priv;
		s[i]->ft = ft_setup_on(test, fake, 4, 4);
	}
	s[2]->key = ft_mr(s[2]->ft, &mr, PAGE_SIZE, 0x1000, FT_LW);
	umr_kunit_submitters_run(test, &subs, "ft_stress", NULL, NULL);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, subs.t[i].errors, 0);
	mlx5_umr_fake_get_counters(fake, &c);
	KUNIT_EXPECT_EQ(test, c.wqes, 2ULL * FT_STRESS_N);
	KUNIT_EXPECT_EQ(test, c.cqes, 2ULL * FT_STRESS_N);
	KUNIT_EXPECT_EQ(test, c.qps, 3U);
	ft_del_mkey(s[2]->ft, s[2]->key);
	s[2]->ft->hca->ops->free_dma_buf(s[2]->ft->hca, &mr);
	for (i = 0; i < 3; i++)
		ft_teardown(s[i]->ft);
	umr_kunit_submitters_fini(&subs);
	mlx5_umr_fake_get_counters(fake, &c);
	KUNIT_EXPECT_EQ(test, c.pds + c.cqs + c.qps + c.uars + c.mkeys, 0U);
	KUNIT_EXPECT_EQ(test, c.iommu_pages, 0ULL);
	mlx5_umr_fake_destroy(fake);
}

/* A full CQ is never overwritten: the CQE is lost and counted. */
static void fake_wqe_cq_overrun(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 2);
	struct mlx5_umr_fake_counters c;
	struct mlx5_cqe64 cqe;
	int i;

	for (i = 0; i < 5; i++)
		ft_nop_post(ft, true);
	mlx5_umr_fake_get_counters(ft->fake, &c);
	KUNIT_EXPECT_EQ(test, c.cqes, 4ULL);
	KUNIT_EXPECT_EQ(test, c.cq_overruns, 1ULL);
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_TRUE(test, ft_poll(ft, &cqe));
		KUNIT_EXPECT_EQ(test, be16_to_cpu(cqe.wqe_counter), i);
	}
	KUNIT_EXPECT_FALSE(test, ft_poll(ft, &cqe));
	ft_teardown(ft);
}

/* A BSF after the inline translation lands in the mkey with bsf_en. */
static void fake_wqe_umr_bsf(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct ft_umr *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	int inlen = MLX5_ST_SZ_BYTES(create_mkey_in);
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)] = {};
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)], got[64];
	struct mlx5_umr_dma_buf mr;
	struct mlx5_klm klm = {};
	struct mlx5_bsf *bsf;
	void *in, *c;
	u32 k1, key, psvn;
	size_t size;

	KUNIT_ASSERT_NOT_NULL(test, w);
	k1 = ft_mr(ft, &mr, PAGE_SIZE, 0x1000, FT_LW);
	in = kunit_kzalloc(test, inlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, in);
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	c = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	MLX5_SET(mkc, c, access_mode_1_0, MLX5_MKC_ACCESS_MODE_KLMS);
	MLX5_SET(mkc, c, umr_en, 1);
	MLX5_SET(mkc, c, free, 1);
	MLX5_SET(mkc, c, pd, ft->pdn);
	MLX5_SET(mkc, c, qpn, 0xffffff);
	MLX5_SET(mkc, c, bsf_en, 1);
	MLX5_SET(mkc, c, bsf_octword_size, MLX5_MKEY_BSF_OCTO_SIZE);
	MLX5_SET(mkc, c, translations_octword_size, 4);
	KUNIT_ASSERT_EQ(test, ft_cmd(ft, in, inlen, out, sizeof(out)), 0);
	key = MLX5_GET(create_mkey_out, out, mkey_index) << 8;

	ft_klm(&klm, 512, k1, 0x1000);
	size = ft_umr_init(w, key, FT_RR, 512, &klm, sizeof(klm));
	w->uc.bsf_octowords = cpu_to_be16(MLX5_MKEY_BSF_OCTO_SIZE);
	w->uc.mkey_mask |= cpu_to_be64(MLX5_MKEY_MASK_BSF_EN);
	MLX5_SET(mkc, &w->mkey, bsf_en, 1);
	bsf = (void *)(w->xlt + 64);
	bsf->basic.bsf_size_sbs = 1 << 7;
	bsf->basic.raw_data_size = cpu_to_be32(4096);
	/* wire T10-DIF, 512-byte blocks (fake_sig_test covers every field) */
	bsf->basic.wire.bs_selector = 1;
	psvn = ft_psv(ft);
	bsf->basic.w_bfs_psv = cpu_to_be32(psvn);
	bsf->w_inl.vld_refresh = cpu_to_be16(MLX5_BSF_INL_VALID);
	bsf->w_inl.sig_type = MLX5_DIF_CRC;
	bsf->w_inl.rp_inv_seed = MLX5_BSF_REPEAT_BLOCK;
	ft_umr_ok(ft, w, size + sizeof(*bsf));

	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_bsf(ft->fake, key, got,
						      sizeof(got)), 4);
	KUNIT_EXPECT_EQ(test, memcmp(got, bsf, sizeof(got)), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(ft->fake, key, mkc,
						       NULL, 0), 4);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, bsf_en), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 0);
	/* an mkey created without BSF has none */
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_bsf(ft->fake, k1, got,
						      sizeof(got)), 0);
	ft_del_mkey(ft, key);
	ft_del_mkey(ft, k1);
	ft_destroy_psv(ft, psvn);
	ft->hca->ops->free_dma_buf(ft->hca, &mr);
	ft_teardown(ft);
}

static struct kunit_case fake_wqe_cases[] = {
	KUNIT_CASE(fake_wqe_nop_cqe),
	KUNIT_CASE(fake_wqe_unsignalled),
	KUNIT_CASE(fake_wqe_ring_wrap),
	KUNIT_CASE(fake_wqe_umr_klm),
	KUNIT_CASE(fake_wqe_rdma_core_local_inv),
	KUNIT_CASE_PARAM(fake_wqe_reject, ft_rej_gen_params),
	KUNIT_CASE(fake_wqe_rej_check_not_free),
	KUNIT_CASE(fake_wqe_rej_bad_qpn),
	KUNIT_CASE(fake_wqe_flush_all),
	KUNIT_CASE(fake_wqe_2err_flush),
	KUNIT_CASE(fake_wqe_arm_sync),
	KUNIT_CASE(fake_wqe_arm_async),
	KUNIT_CASE(fake_wqe_async_exec),
	KUNIT_CASE(fake_wqe_faults),
	KUNIT_CASE(fake_wqe_umr_pointer),
	KUNIT_CASE(fake_wqe_ptr_key_pd),
	KUNIT_CASE(fake_wqe_set_psv),
	KUNIT_CASE(fake_wqe_set_psv_pd),
	KUNIT_CASE(fake_wqe_db_overrun),
	KUNIT_CASE(fake_wqe_cq_overrun),
	KUNIT_CASE(fake_wqe_ds_past_pi),
	KUNIT_CASE(fake_wqe_softirq),
	KUNIT_CASE(fake_wqe_concurrent),
	KUNIT_CASE(fake_wqe_umr_bsf),
	{}
};

static struct kunit_suite fake_wqe_suite = {
	.name = "mlx5_umr_fake_wqe",
	.test_cases = fake_wqe_cases,
};

kunit_test_suite(fake_wqe_suite);

MODULE_DESCRIPTION("KUnit tests of the fake mlx5 HCA's WQE engine");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
