// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr KUnit helpers: the fake's objects (PD, CQ, QP, mkeys) created
 * with mailboxes built by hand, and torn down with a leak check.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/mlx5/doorbell.h>

#include "umr_kunit.h"

static void ft_comp(struct mlx5_umr_hca_cq *cq)
{
	struct ft *ft = container_of(cq, struct ft, cq);

	atomic_inc(&ft->comps);
}

/**
 * ft_alloc_pd() - ALLOC_PD, asserted to succeed
 * @ft: the fake's objects
 *
 * Return: the PD number.
 */
u32 ft_alloc_pd(struct ft *ft)
{
	u32 in[MLX5_ST_SZ_DW(alloc_pd_in)] = {};
	u32 out[MLX5_ST_SZ_DW(alloc_pd_out)] = {};

	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	KUNIT_ASSERT_EQ(ft->test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)),
			0);
	return MLX5_GET(alloc_pd_out, out, pd);
}
EXPORT_SYMBOL_NS_GPL(ft_alloc_pd, MLX5_UMR_KUNIT);

/**
 * ft_dealloc_pd() - DEALLOC_PD
 * @ft: the fake's objects
 * @pdn: the PD
 * @out: dealloc_pd_out mailbox
 *
 * Return: what cmd_exec returned.
 */
int ft_dealloc_pd(struct ft *ft, u32 pdn, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(dealloc_pd_in)] = {};

	MLX5_SET(dealloc_pd_in, in, opcode, MLX5_CMD_OP_DEALLOC_PD);
	MLX5_SET(dealloc_pd_in, in, pd, pdn);
	return ft_cmd(ft, in, sizeof(in), out,
		      MLX5_ST_SZ_BYTES(dealloc_pd_out));
}
EXPORT_SYMBOL_NS_GPL(ft_dealloc_pd, MLX5_UMR_KUNIT);

/**
 * ft_qp_cmd() - a QP state transition with no QP context but the port
 * @ft: the fake's objects
 * @opcode: MLX5_CMD_OP_*_QP
 * @qpn: the QP
 * @out: rst2init_qp_out-sized mailbox
 *
 * Return: what cmd_exec returned.
 */
int ft_qp_cmd(struct ft *ft, u16 opcode, u32 qpn, u32 *out)
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
EXPORT_SYMBOL_NS_GPL(ft_qp_cmd, MLX5_UMR_KUNIT);

/**
 * ft_qp_to_rts() - move @ft's QP from RESET to RTS, producer index 0
 * @ft: the fake's objects
 */
void ft_qp_to_rts(struct ft *ft)
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
EXPORT_SYMBOL_NS_GPL(ft_qp_to_rts, MLX5_UMR_KUNIT);

/**
 * ft_create_qp_in() - a CREATE_QP mailbox for a REG_UMR QP on @ft's
 *	CQ, UAR and buffers
 * @ft: the fake's objects
 * @inlen: set to the mailbox's length
 *
 * Return: the mailbox, freed with the test.
 */
void *ft_create_qp_in(struct ft *ft, int *inlen)
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
EXPORT_SYMBOL_NS_GPL(ft_create_qp_in, MLX5_UMR_KUNIT);

/**
 * ft_create_cq() - create @ft's CQ on its ring, every CQE software-owned
 * @ft: the fake's objects
 */
void ft_create_cq(struct ft *ft)
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
	ft->cq.vector = -1;	/* the fake's round-robin */
	KUNIT_ASSERT_EQ(ft->test,
			ft->hca->ops->create_cq(ft->hca, &ft->cq, in, inlen), 0);
	ft->have_cq = true;
	ft->cq_ci = 0;
}
EXPORT_SYMBOL_NS_GPL(ft_create_cq, MLX5_UMR_KUNIT);

/**
 * ft_setup_on() - a PD, a UAR, a CQ and a REG_UMR QP in RTS on a fake
 * @test: the test
 * @fake: an existing fake (stays the caller's)
 * @log_sq: log2 of the send queue's WQEBBs
 * @log_cq: log2 of the CQ's entries
 *
 * Return: the objects, freed with the test; tear down with ft_teardown().
 */
struct ft *ft_setup_on(struct kunit *test, struct mlx5_umr_fake *fake,
		       u8 log_sq, u8 log_cq)
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
EXPORT_SYMBOL_NS_GPL(ft_setup_on, MLX5_UMR_KUNIT);

/**
 * ft_setup() - a new fake with ft_setup_on()'s objects
 * @test: the test
 * @flags: MLX5_UMR_FAKE_F_*
 * @caps: the fake's capabilities, or NULL for the defaults
 * @log_sq: log2 of the send queue's WQEBBs
 * @log_cq: log2 of the CQ's entries
 *
 * Return: the objects; ft_teardown() also destroys the fake.
 */
struct ft *ft_setup(struct kunit *test, u32 flags,
		    const struct mlx5_umr_fake_caps *caps, u8 log_sq,
		    u8 log_cq)
{
	struct mlx5_umr_fake_attr attr;
	struct mlx5_umr_fake *fake;
	struct ft *ft;

	umr_kunit_attr_init(&attr);
	attr.flags = flags;
	if (caps)
		attr.caps = *caps;
	fake = mlx5_umr_fake_create(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fake));
	ft = ft_setup_on(test, fake, log_sq, log_cq);
	ft->own_fake = true;
	return ft;
}
EXPORT_SYMBOL_NS_GPL(ft_setup, MLX5_UMR_KUNIT);

/**
 * ft_destroy_qp() - DESTROY_QP of @ft's QP, expected to succeed
 * @ft: the fake's objects
 */
void ft_destroy_qp(struct ft *ft)
{
	u32 in[MLX5_ST_SZ_DW(destroy_qp_in)] = {};
	u32 out[MLX5_ST_SZ_DW(destroy_qp_out)] = {};

	MLX5_SET(destroy_qp_in, in, opcode, MLX5_CMD_OP_DESTROY_QP);
	MLX5_SET(destroy_qp_in, in, qpn, ft->qpn);
	KUNIT_EXPECT_EQ(ft->test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)),
			0);
	ft->qpn = 0;
}
EXPORT_SYMBOL_NS_GPL(ft_destroy_qp, MLX5_UMR_KUNIT);

/**
 * ft_destroy_mkey() - DESTROY_MKEY
 * @ft: the fake's objects
 * @key: the mkey
 * @out: destroy_mkey_out mailbox
 *
 * Return: what cmd_exec returned.
 */
int ft_destroy_mkey(struct ft *ft, u32 key, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(destroy_mkey_in)] = {};

	MLX5_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	MLX5_SET(destroy_mkey_in, in, mkey_index, key >> 8);
	return ft_cmd(ft, in, sizeof(in), out,
		      MLX5_ST_SZ_BYTES(destroy_mkey_out));
}
EXPORT_SYMBOL_NS_GPL(ft_destroy_mkey, MLX5_UMR_KUNIT);

/**
 * ft_del_mkey() - DESTROY_MKEY, expected to succeed
 * @ft: the fake's objects
 * @key: the mkey
 */
void ft_del_mkey(struct ft *ft, u32 key)
{
	u32 out[MLX5_ST_SZ_DW(destroy_mkey_out)];

	KUNIT_EXPECT_EQ(ft->test, ft_destroy_mkey(ft, key, out), 0);
}
EXPORT_SYMBOL_NS_GPL(ft_del_mkey, MLX5_UMR_KUNIT);

/**
 * ft_teardown() - tear down what ft_setup() built and prove nothing leaked
 * @ft: the fake's objects; the fake too when ft_setup() created it
 */
void ft_teardown(struct ft *ft)
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
EXPORT_SYMBOL_NS_GPL(ft_teardown, MLX5_UMR_KUNIT);

/**
 * ft_create_mkey_full() - CREATE_MKEY with every field the suites vary
 * @ft: the fake's objects
 * @mode: MLX5_MKC_ACCESS_MODE_*
 * @oct: translations_octword_size
 * @umr_en: umr_en
 * @free: free
 * @access: FT_LW | FT_RR | FT_RW (lr always)
 * @start: start_addr
 * @len: len
 * @log_pg: log_page_size
 * @xlt: translation entries passed inline in the mailbox, or NULL
 * @xlt_bytes: their size
 * @status: set to the output's status, or NULL
 *
 * Return: the key (index << 8 | 0x5a) or 0 when the command failed.
 */
u32 ft_create_mkey_full(struct ft *ft, u8 mode, u32 oct, bool umr_en,
			bool free, u8 access, u64 start, u64 len, u8 log_pg,
			const void *xlt, size_t xlt_bytes, u8 *status)
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
	MLX5_SET(mkc, mkc, lw, !!(access & FT_LW));
	MLX5_SET(mkc, mkc, rr, !!(access & FT_RR));
	MLX5_SET(mkc, mkc, rw, !!(access & FT_RW));
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
EXPORT_SYMBOL_NS_GPL(ft_create_mkey_full, MLX5_UMR_KUNIT);

/**
 * ft_mr() - a direct (MTT) mkey over a whole new DMA buffer
 * @ft: the fake's objects
 * @buf: set to the buffer (the caller frees it)
 * @size: its size
 * @va: the mkey's virtual address
 * @access: FT_LW | FT_RR | FT_RW
 *
 * Return: the key.
 */
u32 ft_mr(struct ft *ft, struct mlx5_umr_dma_buf *buf, size_t size, u64 va,
	  u8 access)
{
	__be64 *mtt;
	unsigned int i;
	u32 key;

	KUNIT_ASSERT_EQ(ft->test, ft->hca->ops->alloc_dma_buf(ft->hca, size,
							      NUMA_NO_NODE,
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
EXPORT_SYMBOL_NS_GPL(ft_mr, MLX5_UMR_KUNIT);

/**
 * ft_indirect() - an indirect KLM mkey ready for UMR: umr_en, free
 * @ft: the fake's objects
 * @oct: its translation octowords
 *
 * Return: the key.
 */
u32 ft_indirect(struct ft *ft, u32 oct)
{
	u32 key = ft_create_mkey_full(ft, MLX5_MKC_ACCESS_MODE_KLMS, oct, true,
				      true, 0, 0, 0, 0, NULL, 0, NULL);

	KUNIT_ASSERT_NE(ft->test, key, 0U);
	return key;
}
EXPORT_SYMBOL_NS_GPL(ft_indirect, MLX5_UMR_KUNIT);

/**
 * ft_qp_recover() - drain the CQ, reset the QP and bring it back to RTS
 * @ft: the fake's objects
 */
void ft_qp_recover(struct ft *ft)
{
	u32 out[MLX5_ST_SZ_DW(rst2init_qp_out)];
	struct mlx5_cqe64 cqe;

	while (ft_poll(ft, &cqe))
		;
	KUNIT_ASSERT_EQ(ft->test, ft_qp_cmd(ft, MLX5_CMD_OP_2RST_QP, ft->qpn,
					    out), 0);
	ft_qp_to_rts(ft);
}
EXPORT_SYMBOL_NS_GPL(ft_qp_recover, MLX5_UMR_KUNIT);

/**
 * ft_dbg_io() - read or write one of the fake's debugfs files
 * @ft: the fake's objects
 * @file: the file's name in the fake's directory
 * @buf: what to write, or where to read to (NUL-terminated)
 * @len: its size
 * @write: write rather than read
 *
 * Return: bytes moved or -errno.
 */
ssize_t ft_dbg_io(struct ft *ft, const char *file, char *buf, size_t len,
		  bool write)
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
EXPORT_SYMBOL_NS_GPL(ft_dbg_io, MLX5_UMR_KUNIT);
