/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr fake HCA: helpers shared by the fake's KUnit suites.
 *
 * Mailboxes and WQEs are built here by hand with the kernel's mlx5 structs
 * and MLX5_SET, independently of the service's encoder, so the fake's
 * decoder is never tested only against that encoder.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _MLX5_UMR_FAKE_TEST_UTIL_H
#define _MLX5_UMR_FAKE_TEST_UTIL_H

#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/io.h>
#include <linux/fs.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/doorbell.h>
#include <linux/mlx5_umr_fake.h>

#define FT_QP_DBR	64	/* QP doorbell record offset in ft->db */

struct ft {
	struct kunit *test;
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_hca *hca;
	struct mlx5_umr_uar uar;
	u32 pdn;
	struct mlx5_umr_dma_buf db;	/* CQ dbrec at 0, QP dbrec at 64 */
	struct mlx5_umr_dma_buf cqbuf;
	struct mlx5_umr_dma_buf sqbuf;
	struct mlx5_umr_hca_cq cq;
	bool have_cq;
	u32 qpn;
	u8 log_sq;
	u8 log_cq;
	u16 pi;
	u32 cq_ci;
	atomic_t comps;
	bool own_fake;
};

static inline void ft_comp(struct mlx5_umr_hca_cq *cq)
{
	struct ft *ft = container_of(cq, struct ft, cq);

	atomic_inc(&ft->comps);
}

static inline int ft_cmd(struct ft *ft, const void *in, int inlen, void *out,
			 int outlen)
{
	return ft->hca->ops->cmd_exec(ft->hca, in, inlen, out, outlen);
}

static inline u8 ft_status(const void *out)
{
	return MLX5_GET(create_mkey_out, out, status);
}

static inline u32 ft_synd(const void *out)
{
	return MLX5_GET(create_mkey_out, out, syndrome);
}

static inline u32 ft_alloc_pd(struct ft *ft)
{
	u32 in[MLX5_ST_SZ_DW(alloc_pd_in)] = {};
	u32 out[MLX5_ST_SZ_DW(alloc_pd_out)] = {};

	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	KUNIT_ASSERT_EQ(ft->test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)),
			0);
	return MLX5_GET(alloc_pd_out, out, pd);
}

static inline int ft_dealloc_pd(struct ft *ft, u32 pdn, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(dealloc_pd_in)] = {};

	MLX5_SET(dealloc_pd_in, in, opcode, MLX5_CMD_OP_DEALLOC_PD);
	MLX5_SET(dealloc_pd_in, in, pd, pdn);
	return ft_cmd(ft, in, sizeof(in), out,
		      MLX5_ST_SZ_BYTES(dealloc_pd_out));
}

static inline int ft_qp_cmd(struct ft *ft, u16 opcode, u32 qpn, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(rst2init_qp_in)] = {};

	MLX5_SET(rst2init_qp_in, in, opcode, opcode);
	MLX5_SET(rst2init_qp_in, in, qpn, qpn);
	if (opcode == MLX5_CMD_OP_RST2INIT_QP)
		MLX5_SET(qpc, MLX5_ADDR_OF(rst2init_qp_in, in, qpc),
			 primary_address_path.vhca_port_num, 1);
	return ft_cmd(ft, in, sizeof(in), out,
		      MLX5_ST_SZ_BYTES(rst2init_qp_out));
}

static inline void ft_qp_to_rts(struct ft *ft)
{
	u32 out[MLX5_ST_SZ_DW(rst2init_qp_out)];

	KUNIT_ASSERT_EQ(ft->test, ft_qp_cmd(ft, MLX5_CMD_OP_RST2INIT_QP,
					    ft->qpn, out), 0);
	KUNIT_ASSERT_EQ(ft->test, ft_qp_cmd(ft, MLX5_CMD_OP_INIT2RTR_QP,
					    ft->qpn, out), 0);
	KUNIT_ASSERT_EQ(ft->test, ft_qp_cmd(ft, MLX5_CMD_OP_RTR2RTS_QP,
					    ft->qpn, out), 0);
	ft->pi = 0;
	((__be32 *)(ft->db.cpu + FT_QP_DBR))[MLX5_SND_DBR] = 0;
}

/* Build a CREATE_QP mailbox for a REG_UMR QP on ft's CQ/UAR/buffers. */
static inline void *ft_create_qp_in(struct ft *ft, int *inlen)
{
	unsigned int i;
	void *in, *qpc;
	__be64 *pas;

	*inlen = MLX5_ST_SZ_BYTES(create_qp_in) + 8 * ft->sqbuf.npages;
	in = kunit_kzalloc(ft->test, *inlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(ft->test, in);
	MLX5_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
	qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	MLX5_SET(qpc, qpc, st, MLX5_QP_ST_REG_UMR);
	MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	MLX5_SET(qpc, qpc, pd, ft->pdn);
	MLX5_SET(qpc, qpc, uar_page, ft->uar.index);
	MLX5_SET(qpc, qpc, log_page_size, PAGE_SHIFT - 12);
	MLX5_SET(qpc, qpc, log_sq_size, ft->log_sq);
	MLX5_SET(qpc, qpc, rq_type, MLX5_ZERO_LEN_RQ);
	MLX5_SET(qpc, qpc, no_sq, 0);
	MLX5_SET(qpc, qpc, cqn_snd, ft->cq.cqn);
	MLX5_SET(qpc, qpc, cqn_rcv, ft->cq.cqn);
	MLX5_SET(qpc, qpc, fre, 1);
	MLX5_SET(qpc, qpc, rlky, 1);
	MLX5_SET64(qpc, qpc, dbr_addr, ft->db.pages[0] + FT_QP_DBR);
	pas = MLX5_ADDR_OF(create_qp_in, in, pas);
	for (i = 0; i < ft->sqbuf.npages; i++)
		pas[i] = cpu_to_be64(ft->sqbuf.pages[i]);
	return in;
}

static inline void ft_create_cq(struct ft *ft)
{
	int inlen = MLX5_ST_SZ_BYTES(create_cq_in) + 8 * ft->cqbuf.npages;
	struct mlx5_cqe64 *cqe = ft->cqbuf.cpu;
	unsigned int i;
	void *in, *cqc;
	__be64 *pas;

	/* software owns every CQE until the HCA writes it (mlx5_ib style) */
	for (i = 0; i < (1U << ft->log_cq); i++)
		cqe[i].op_own = MLX5_CQE_INVALID << 4 | 1;
	in = kunit_kzalloc(ft->test, inlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(ft->test, in);
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	MLX5_SET(cqc, cqc, log_cq_size, ft->log_cq);
	MLX5_SET(cqc, cqc, uar_page, ft->uar.index);
	MLX5_SET(cqc, cqc, log_page_size, PAGE_SHIFT - 12);
	MLX5_SET64(cqc, cqc, dbr_addr, ft->db.pages[0]);
	pas = MLX5_ADDR_OF(create_cq_in, in, pas);
	for (i = 0; i < ft->cqbuf.npages; i++)
		pas[i] = cpu_to_be64(ft->cqbuf.pages[i]);
	ft->cq.comp = ft_comp;
	KUNIT_ASSERT_EQ(ft->test,
			ft->hca->ops->create_cq(ft->hca, &ft->cq, in, inlen), 0);
	ft->have_cq = true;
	ft->cq_ci = 0;
}

static inline int ft_dma_buf(struct ft *ft, size_t size,
			     struct mlx5_umr_dma_buf *buf)
{
	return ft->hca->ops->alloc_dma_buf(ft->hca, size, buf);
}

/* A PD, a UAR, a CQ and a REG_UMR QP in RTS on an existing fake. */
static inline struct ft *ft_setup_on(struct kunit *test,
				     struct mlx5_umr_fake *fake, u8 log_sq,
				     u8 log_cq)
{
	u32 out[MLX5_ST_SZ_DW(create_qp_out)] = {};
	struct ft *ft;
	void *in;
	int inlen;

	ft = kunit_kzalloc(test, sizeof(*ft), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ft);
	ft->test = test;
	ft->log_sq = log_sq;
	ft->log_cq = log_cq;
	ft->fake = fake;
	ft->hca = mlx5_umr_fake_hca(ft->fake);
	ft->pdn = ft_alloc_pd(ft);
	KUNIT_ASSERT_EQ(test, ft->hca->ops->alloc_uar(ft->hca, &ft->uar), 0);
	KUNIT_ASSERT_EQ(test, ft_dma_buf(ft, PAGE_SIZE, &ft->db), 0);
	KUNIT_ASSERT_EQ(test, ft_dma_buf(ft, MLX5_SEND_WQE_BB << log_cq,
					 &ft->cqbuf), 0);
	KUNIT_ASSERT_EQ(test, ft_dma_buf(ft, MLX5_SEND_WQE_BB << log_sq,
					 &ft->sqbuf), 0);
	ft_create_cq(ft);
	in = ft_create_qp_in(ft, &inlen);
	KUNIT_ASSERT_EQ(test, ft_cmd(ft, in, inlen, out, sizeof(out)), 0);
	ft->qpn = MLX5_GET(create_qp_out, out, qpn);
	ft_qp_to_rts(ft);
	return ft;
}

/* A new fake (owned by the returned ft) with ft_setup_on()'s objects. */
static inline struct ft *ft_setup(struct kunit *test, u32 flags,
				  const struct mlx5_umr_fake_caps *caps,
				  u8 log_sq, u8 log_cq)
{
	struct mlx5_umr_fake_attr attr;
	struct mlx5_umr_fake *fake;
	struct ft *ft;

	mlx5_umr_fake_attr_init(&attr);
	attr.flags = flags;
	if (caps)
		attr.caps = *caps;
	fake = mlx5_umr_fake_create(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fake));
	ft = ft_setup_on(test, fake, log_sq, log_cq);
	ft->own_fake = true;
	return ft;
}

static inline void ft_destroy_qp(struct ft *ft)
{
	u32 in[MLX5_ST_SZ_DW(destroy_qp_in)] = {};
	u32 out[MLX5_ST_SZ_DW(destroy_qp_out)] = {};

	MLX5_SET(destroy_qp_in, in, opcode, MLX5_CMD_OP_DESTROY_QP);
	MLX5_SET(destroy_qp_in, in, qpn, ft->qpn);
	KUNIT_EXPECT_EQ(ft->test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)),
			0);
	ft->qpn = 0;
}

static inline int ft_destroy_mkey(struct ft *ft, u32 key, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(destroy_mkey_in)] = {};

	MLX5_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	MLX5_SET(destroy_mkey_in, in, mkey_index, key >> 8);
	return ft_cmd(ft, in, sizeof(in), out,
		      MLX5_ST_SZ_BYTES(destroy_mkey_out));
}

static inline void ft_del_mkey(struct ft *ft, u32 key)
{
	u32 out[MLX5_ST_SZ_DW(destroy_mkey_out)];

	KUNIT_EXPECT_EQ(ft->test, ft_destroy_mkey(ft, key, out), 0);
}

/* Tear down what ft_setup built and prove nothing leaked. */
static inline void ft_teardown(struct ft *ft)
{
	struct mlx5_umr_fake_counters c;
	u32 out[MLX5_ST_SZ_DW(dealloc_pd_out)];

	if (ft->qpn)
		ft_destroy_qp(ft);
	if (ft->have_cq)
		ft->hca->ops->destroy_cq(ft->hca, &ft->cq);
	ft->hca->ops->free_dma_buf(ft->hca, &ft->sqbuf);
	ft->hca->ops->free_dma_buf(ft->hca, &ft->cqbuf);
	ft->hca->ops->free_dma_buf(ft->hca, &ft->db);
	ft->hca->ops->free_uar(ft->hca, &ft->uar);
	KUNIT_EXPECT_EQ(ft->test, ft_dealloc_pd(ft, ft->pdn, out), 0);
	if (!ft->own_fake)
		return;
	mlx5_umr_fake_get_counters(ft->fake, &c);
	KUNIT_EXPECT_EQ(ft->test, c.pds, 0U);
	KUNIT_EXPECT_EQ(ft->test, c.mkeys, 0U);
	KUNIT_EXPECT_EQ(ft->test, c.cqs, 0U);
	KUNIT_EXPECT_EQ(ft->test, c.qps, 0U);
	KUNIT_EXPECT_EQ(ft->test, c.psvs, 0U);
	KUNIT_EXPECT_EQ(ft->test, c.uars, 0U);
	KUNIT_EXPECT_EQ(ft->test, c.dma_bufs, 0U);
	KUNIT_EXPECT_EQ(ft->test, c.iommu_pages, 0ULL);
	mlx5_umr_fake_destroy(ft->fake);
}

/*
 * Create an mkey. @xlt (@xlt_bytes) is passed inline in the mailbox.
 * Returns the key (index << 8 | variant) or 0 with *status set.
 */
static inline u32 ft_create_mkey_full(struct ft *ft, u8 mode, u32 oct,
				      bool umr_en, bool free, u8 access,
				      u64 start, u64 len, u8 log_pg,
				      const void *xlt, size_t xlt_bytes,
				      u8 *status)
{
	int inlen = MLX5_ST_SZ_BYTES(create_mkey_in) + xlt_bytes;
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)] = {};
	void *in, *mkc;
	int err;

	in = kunit_kzalloc(ft->test, inlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(ft->test, in);
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	MLX5_SET(mkc, mkc, access_mode_1_0, mode & 3);
	MLX5_SET(mkc, mkc, access_mode_4_2, mode >> 2);
	MLX5_SET(mkc, mkc, umr_en, umr_en);
	MLX5_SET(mkc, mkc, free, free);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, lw, !!(access & 1));
	MLX5_SET(mkc, mkc, rr, !!(access & 2));
	MLX5_SET(mkc, mkc, rw, !!(access & 4));
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET(mkc, mkc, mkey_7_0, 0x5a);
	MLX5_SET(mkc, mkc, pd, ft->pdn);
	MLX5_SET64(mkc, mkc, start_addr, start);
	MLX5_SET64(mkc, mkc, len, len);
	MLX5_SET(mkc, mkc, log_page_size, log_pg);
	MLX5_SET(mkc, mkc, translations_octword_size, oct);
	if (xlt_bytes) {
		MLX5_SET(create_mkey_in, in, translations_octword_actual_size,
			 DIV_ROUND_UP(xlt_bytes, 16));
		memcpy(MLX5_ADDR_OF(create_mkey_in, in, klm_pas_mtt), xlt,
		       xlt_bytes);
	}
	err = ft_cmd(ft, in, inlen, out, sizeof(out));
	if (status)
		*status = ft_status(out);
	if (err)
		return 0;
	return MLX5_GET(create_mkey_out, out, mkey_index) << 8 | 0x5a;
}

#define FT_LW 1
#define FT_RR 2
#define FT_RW 4

/* A direct (MTT) mkey over a whole DMA buffer, at virtual address @va. */
static inline u32 ft_mr(struct ft *ft, struct mlx5_umr_dma_buf *buf,
			size_t size, u64 va, u8 access)
{
	__be64 *mtt;
	unsigned int i;
	u32 key;

	KUNIT_ASSERT_EQ(ft->test, ft->hca->ops->alloc_dma_buf(ft->hca, size,
							      buf), 0);
	mtt = kunit_kcalloc(ft->test, ALIGN(buf->npages, 2), 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(ft->test, mtt);
	for (i = 0; i < buf->npages; i++)
		mtt[i] = cpu_to_be64(buf->pages[i] | 3);
	key = ft_create_mkey_full(ft, MLX5_MKC_ACCESS_MODE_MTT,
				  DIV_ROUND_UP(buf->npages, 2), false, false,
				  access, va, size, PAGE_SHIFT, mtt,
				  ALIGN(buf->npages, 2) * 8, NULL);
	KUNIT_ASSERT_NE(ft->test, key, 0U);
	return key;
}

/* An indirect KLM mkey ready for UMR: umr_en, free, @oct octowords. */
static inline u32 ft_indirect(struct ft *ft, u32 oct)
{
	u32 key = ft_create_mkey_full(ft, MLX5_MKC_ACCESS_MODE_KLMS, oct, true,
				      true, 0, 0, 0, 0, NULL, 0, NULL);

	KUNIT_ASSERT_NE(ft->test, key, 0U);
	return key;
}

/* Copy @size bytes of WQE into the ring at ft->pi (wrapping per WQEBB). */
static inline void ft_ring_copy(struct ft *ft, const void *wqe, size_t size)
{
	u32 cnt = 1U << ft->log_sq;
	unsigned int bb, nbb = DIV_ROUND_UP(size, MLX5_SEND_WQE_BB);

	for (bb = 0; bb < nbb; bb++) {
		size_t n = min_t(size_t, MLX5_SEND_WQE_BB,
				 size - bb * MLX5_SEND_WQE_BB);
		void *dst = ft->sqbuf.cpu +
			    ((ft->pi + bb) & (cnt - 1)) * MLX5_SEND_WQE_BB;

		memset(dst, 0, MLX5_SEND_WQE_BB);
		memcpy(dst, wqe + bb * MLX5_SEND_WQE_BB, n);
	}
}

/*
 * Post one WQE (ctrl segment first; opcode, index, qpn and ds are filled
 * here from @opcode and @size) without ringing the doorbell. Returns the
 * WQE's index.
 */
static inline u16 ft_post_nodb(struct ft *ft, void *wqe, size_t size,
			       u8 opcode, bool signalled)
{
	struct mlx5_wqe_ctrl_seg *ctrl = wqe;
	u16 idx = ft->pi;

	ctrl->opmod_idx_opcode = cpu_to_be32((u32)idx << 8 | opcode);
	ctrl->qpn_ds = cpu_to_be32(ft->qpn << 8 | DIV_ROUND_UP(size, 16));
	if (signalled)
		ctrl->fm_ce_se |= MLX5_WQE_CTRL_CQ_UPDATE;
	ft_ring_copy(ft, wqe, size);
	ft->pi += DIV_ROUND_UP(size, MLX5_SEND_WQE_BB);
	return idx;
}

/* Publish ft->pi in the doorbell record and ring with the last ctrl seg. */
static inline void ft_ring(struct ft *ft, const void *last_ctrl)
{
	__be32 *dbr = ft->db.cpu + FT_QP_DBR;
	__be32 val[2];

	memcpy(val, last_ctrl, sizeof(val));
	wmb(); /* WQE before doorbell record */
	dbr[MLX5_SND_DBR] = cpu_to_be32(ft->pi);
	wmb(); /* doorbell record before doorbell */
	ft->hca->ops->write_db(ft->hca, &ft->uar, MLX5_BF_OFFSET, val);
}

static inline u16 ft_post(struct ft *ft, void *wqe, size_t size, u8 opcode,
			  bool signalled)
{
	u16 idx = ft_post_nodb(ft, wqe, size, opcode, signalled);

	ft_ring(ft, wqe);
	return idx;
}

/* Poll one CQE; returns false when none is ready. */
static inline bool ft_poll(struct ft *ft, struct mlx5_cqe64 *out)
{
	u32 n = 1U << ft->log_cq;
	struct mlx5_cqe64 *cqe = ft->cqbuf.cpu +
				 (ft->cq_ci & (n - 1)) * sizeof(*cqe);
	__be32 *dbr = ft->db.cpu;

	if ((cqe->op_own >> 4) == MLX5_CQE_INVALID ||
	    ((cqe->op_own & MLX5_CQE_OWNER_MASK) ^ !!(ft->cq_ci & n)))
		return false;
	rmb(); /* owner before the rest */
	*out = *cqe;
	ft->cq_ci++;
	dbr[0] = cpu_to_be32(ft->cq_ci & 0xffffff);
	return true;
}

static inline void ft_arm(struct ft *ft)
{
	__be32 val[2];

	val[0] = cpu_to_be32(MLX5_CQ_DB_REQ_NOT | (ft->cq_ci & 0xffffff));
	val[1] = cpu_to_be32(ft->cq.cqn);
	ft->hca->ops->write_db(ft->hca, &ft->uar, MLX5_CQ_DOORBELL, val);
}

static inline int ft_qp_state(struct ft *ft)
{
	return mlx5_umr_fake_qp_state(ft->fake, ft->qpn, NULL);
}

/* Reset the QP after an error and bring it back to RTS. */
static inline void ft_qp_recover(struct ft *ft)
{
	u32 out[MLX5_ST_SZ_DW(rst2init_qp_out)];
	struct mlx5_cqe64 cqe;

	while (ft_poll(ft, &cqe))
		;
	KUNIT_ASSERT_EQ(ft->test, ft_qp_cmd(ft, MLX5_CMD_OP_2RST_QP, ft->qpn,
					    out), 0);
	ft_qp_to_rts(ft);
}

struct ft_umr {
	struct mlx5_wqe_ctrl_seg ctrl;
	struct mlx5_wqe_umr_ctrl_seg uc;
	struct mlx5_mkey_seg mkey;
	u8 xlt[MLX5_SEND_WQE_MAX_SIZE - 128];
};

/*
 * Start a UMR WQE that enables @key (free=0) with @access, @len, and
 * inline translation @xlt_bytes (padded to 64 B). Returns the WQE size.
 */
static inline size_t ft_umr_init(struct ft_umr *w, u32 key, u8 access,
				 u64 len, const void *xlt, size_t xlt_bytes)
{
	size_t pad = ALIGN(xlt_bytes, 64);
	void *mkc = &w->mkey;

	memset(w, 0, sizeof(*w));
	w->ctrl.umr_mkey = cpu_to_be32(key);
	w->uc.flags = MLX5_UMR_INLINE | MLX5_UMR_CHECK_NOT_FREE;
	w->uc.xlt_octowords = cpu_to_be16(pad / 16);
	w->uc.mkey_mask = cpu_to_be64(MLX5_MKEY_MASK_FREE |
				      MLX5_MKEY_MASK_LEN |
				      MLX5_MKEY_MASK_LR | MLX5_MKEY_MASK_LW |
				      MLX5_MKEY_MASK_RR | MLX5_MKEY_MASK_RW |
				      MLX5_MKEY_MASK_KEY);
	MLX5_SET(mkc, mkc, free, 0);
	MLX5_SET64(mkc, mkc, len, len);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, lw, !!(access & FT_LW));
	MLX5_SET(mkc, mkc, rr, !!(access & FT_RR));
	MLX5_SET(mkc, mkc, rw, !!(access & FT_RW));
	MLX5_SET(mkc, mkc, mkey_7_0, key & 0xff);
	memcpy(w->xlt, xlt, xlt_bytes);
	return 128 + pad;
}

static inline void ft_klm(struct mlx5_klm *k, u32 bcount, u32 key, u64 va)
{
	k->bcount = cpu_to_be32(bcount);
	k->key = cpu_to_be32(key);
	k->va = cpu_to_be64(va);
}

static inline u8 fake_mkc_mode(const void *mkc)
{
	return MLX5_GET(mkc, mkc, access_mode_1_0) |
	       MLX5_GET(mkc, mkc, access_mode_4_2) << 2;
}

/* Post a signalled WQE and expect a good CQE for it. */
static inline void ft_post_ok(struct ft *ft, void *w, size_t size, u8 opcode)
{
	struct mlx5_cqe64 cqe;
	u16 idx = ft_post(ft, w, size, opcode, true);

	KUNIT_ASSERT_TRUE(ft->test, ft_poll(ft, &cqe));
	KUNIT_ASSERT_EQ(ft->test, cqe.op_own >> 4, MLX5_CQE_REQ);
	KUNIT_EXPECT_EQ(ft->test, be16_to_cpu(cqe.wqe_counter), idx);
}

static inline void ft_umr_ok(struct ft *ft, struct ft_umr *w, size_t size)
{
	ft_post_ok(ft, w, size, MLX5_OPCODE_UMR);
}

/* Post a WQE and expect an error CQE with @synd/@vsynd, QP in ERR. */
static inline void ft_expect_err(struct ft *ft, void *w, size_t size,
				 u8 opcode, u8 synd, u8 vsynd)
{
	struct mlx5_err_cqe *err;
	struct mlx5_cqe64 cqe;
	u16 idx = ft_post(ft, w, size, opcode, true);

	KUNIT_ASSERT_TRUE(ft->test, ft_poll(ft, &cqe));
	err = (void *)&cqe;
	KUNIT_EXPECT_EQ(ft->test, err->op_own >> 4, MLX5_CQE_REQ_ERR);
	KUNIT_EXPECT_EQ(ft->test, err->syndrome, synd);
	KUNIT_EXPECT_EQ(ft->test, err->vendor_err_synd, vsynd);
	KUNIT_EXPECT_EQ(ft->test, be16_to_cpu(err->wqe_counter), idx);
	KUNIT_EXPECT_EQ(ft->test, be32_to_cpu(err->s_wqe_opcode_qpn),
			(u32)opcode << 24 | ft->qpn);
	KUNIT_EXPECT_EQ(ft->test, ft_qp_state(ft), MLX5_QP_STATE_ERR);
	KUNIT_EXPECT_FALSE(ft->test, ft_poll(ft, &cqe));
}

/* Read or write one of the fake's debugfs files. */
static inline ssize_t ft_dbg_io(struct ft *ft, const char *file, char *buf,
				size_t len, bool write)
{
	char path[96];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/kernel/debug/mlx5_umr_fake/%s/%s",
		 ft->hca->name, file);
	f = filp_open(path, write ? O_WRONLY : O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (write) {
		n = kernel_write(f, buf, len, &pos);
	} else {
		n = kernel_read(f, buf, len - 1, &pos);
		if (n >= 0)
			buf[n] = 0;
	}
	filp_close(f, NULL);
	return n;
}

#endif /* _MLX5_UMR_FAKE_TEST_UTIL_H */
