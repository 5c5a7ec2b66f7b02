// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: KUnit tests of the command mailboxes the service sends.
 *
 * The recording HCA (tests/kunit) sits between the service and a private
 * fake: every operation is forwarded to the fake and every mailbox and
 * queue allocation is recorded. Each recorded mailbox is then compared,
 * whole and byte for byte, with one built here independently with
 * MLX5_SET, field by field as upstream Linux 6.1 builds it for the same
 * object (the comments cite the function). Addresses and object numbers
 * come from what was recorded, after checking they are consistent. The
 * fake executing each mailbox with status OK is what it accepts.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/log2.h>
#include <linux/workqueue.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5_umr_ifc.h>
#include <rdma/ib_verbs.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_fake.h>

#include "umr.h"
#include "umr_kunit.h"

#define BU_MAX_REC	96
/* Mismatching words printed per mailbox before giving up. */
#define BU_MAX_DIFF	16

struct bu_ctx {
	struct umr_kunit_rec_hca *rh;
	/* from the recorded bring-up */
	u32 pdn;
	u32 uar;
	u32 cqn;
	u32 qpn;
	u8 cqe_version;
	u8 sq_ts_format;
	const struct umr_kunit_rec *dbr;
	const struct umr_kunit_rec *cq_buf;
	const struct umr_kunit_rec *sq_buf;
	unsigned int cur;	/* next record to check */
};

/* The next record, which must be of @kind (and @opcode for commands). */
static const struct umr_kunit_rec *bu_next(struct kunit *test,
					   enum umr_kunit_rec_kind kind,
					   u16 opcode)
{
	struct bu_ctx *c = test->priv;
	const struct umr_kunit_rec *r;

	KUNIT_ASSERT_EQ(test, c->rh->lost, 0U);
	KUNIT_ASSERT_LT_MSG(test, c->cur, c->rh->n,
			    "missing %s 0x%x", umr_kunit_rec_kind_name(kind), opcode);
	r = &c->rh->rec[c->cur++];
	KUNIT_ASSERT_EQ_MSG(test, r->kind, kind,
			    "record %u: %s where %s 0x%x was expected",
			    c->cur - 1, umr_kunit_rec_kind_name(r->kind),
			    umr_kunit_rec_kind_name(kind), opcode);
	KUNIT_ASSERT_EQ_MSG(test, r->ret, 0, "record %u: %s 0x%x failed",
			    c->cur - 1, umr_kunit_rec_kind_name(kind), r->opcode);
	if (kind == UMR_KUNIT_REC_CMD || kind == UMR_KUNIT_REC_CREATE_CQ)
		KUNIT_ASSERT_EQ_MSG(test, r->opcode, opcode,
				    "record %u: opcode 0x%x, expected 0x%x",
				    c->cur - 1, r->opcode, opcode);
	if (kind == UMR_KUNIT_REC_CMD) {
		/* What the fake accepts: status OK in the output mailbox. */
		KUNIT_ASSERT_NOT_NULL(test, r->out);
		KUNIT_ASSERT_EQ(test, MLX5_GET(alloc_pd_out, r->out, status),
				0U);
	}
	if (kind == UMR_KUNIT_REC_BUF)
		KUNIT_ASSERT_NOT_NULL(test, r->pages);
	return r;
}

/* Nothing was sent that the test did not check. */
static void bu_no_more(struct kunit *test, const char *phase)
{
	struct bu_ctx *c = test->priv;
	const struct umr_kunit_rec *r;

	KUNIT_EXPECT_EQ(test, c->rh->lost, 0U);
	if (c->cur < c->rh->n) {
		r = &c->rh->rec[c->cur];
		KUNIT_FAIL(test, "%s: unexpected %s (opcode 0x%x), %u extra",
			   phase, umr_kunit_rec_kind_name(r->kind), r->opcode,
			   c->rh->n - c->cur);
	}
	c->cur = c->rh->n;
}

/* Whole-mailbox comparison, printing every differing big-endian word. */
static void bu_cmp(struct kunit *test, const char *what, const void *exp,
		   int explen, const struct umr_kunit_rec *r)
{
	const __be32 *e = exp, *g = r->in;
	int i, ndiff = 0;

	KUNIT_EXPECT_EQ_MSG(test, r->inlen, explen, "%s: inlen", what);
	if (!memcmp(exp, r->in, min(explen, r->inlen)))
		return;
	for (i = 0; i < min(explen, r->inlen) / 4; i++) {
		if (e[i] == g[i])
			continue;
		if (ndiff++ < BU_MAX_DIFF)
			KUNIT_FAIL(test,
				   "%s: offset 0x%03x: expected %08x got %08x",
				   what, i * 4, be32_to_cpu(e[i]),
				   be32_to_cpu(g[i]));
	}
	if (ndiff > BU_MAX_DIFF)
		KUNIT_FAIL(test, "%s: %d differing words in all", what, ndiff);
}

static void *bu_alloc(struct kunit *test, size_t len)
{
	void *p = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

/* The mailbox-header-only commands: opcode plus one object number. */
#define BU_SIMPLE_MAX	64
static void bu_check_simple(struct kunit *test, const char *what, u16 opcode,
			    u32 num)
{
	const struct umr_kunit_rec *r = bu_next(test, UMR_KUNIT_REC_CMD, opcode);
	u32 *in = bu_alloc(test, BU_SIMPLE_MAX);
	int len;

	BUILD_BUG_ON(MLX5_ST_SZ_BYTES(alloc_pd_in) > BU_SIMPLE_MAX ||
		     MLX5_ST_SZ_BYTES(dealloc_pd_in) > BU_SIMPLE_MAX ||
		     MLX5_ST_SZ_BYTES(destroy_qp_in) > BU_SIMPLE_MAX ||
		     MLX5_ST_SZ_BYTES(destroy_mkey_in) > BU_SIMPLE_MAX ||
		     MLX5_ST_SZ_BYTES(qp_2rst_in) > BU_SIMPLE_MAX);
	switch (opcode) {
	case MLX5_CMD_OP_ALLOC_PD:
		/* pd.c mlx5_core_alloc_pd(); main.c mlx5_ib_alloc_pd() uid 0 */
		len = MLX5_ST_SZ_BYTES(alloc_pd_in);
		MLX5_SET(alloc_pd_in, in, opcode, opcode);
		break;
	case MLX5_CMD_OP_DEALLOC_PD:
		/* pd.c mlx5_core_dealloc_pd(): opcode, pd */
		len = MLX5_ST_SZ_BYTES(dealloc_pd_in);
		MLX5_SET(dealloc_pd_in, in, opcode, opcode);
		MLX5_SET(dealloc_pd_in, in, pd, num);
		break;
	case MLX5_CMD_OP_DESTROY_QP:
		/* qpc.c mlx5_core_destroy_qp(): opcode, qpn, uid 0 (kernel) */
		len = MLX5_ST_SZ_BYTES(destroy_qp_in);
		MLX5_SET(destroy_qp_in, in, opcode, opcode);
		MLX5_SET(destroy_qp_in, in, qpn, num);
		break;
	case MLX5_CMD_OP_DESTROY_MKEY:
		/* core/mr.c mlx5_core_destroy_mkey(): mlx5_mkey_to_idx(key) */
		len = MLX5_ST_SZ_BYTES(destroy_mkey_in);
		MLX5_SET(destroy_mkey_in, in, opcode, opcode);
		MLX5_SET(destroy_mkey_in, in, mkey_index, num >> 8);
		break;
	case MLX5_CMD_OP_2RST_QP:
		/*
		 * umr.c mlx5r_umr_recover() modifies to RESET; core qp.c
		 * modify_qp_mbox_alloc() MOD_QP_MBOX_ALLOC_IN(qp_2rst):
		 * opcode, qpn, uid 0.
		 */
		len = MLX5_ST_SZ_BYTES(qp_2rst_in);
		MLX5_SET(qp_2rst_in, in, opcode, opcode);
		MLX5_SET(qp_2rst_in, in, qpn, num);
		break;
	default:
		KUNIT_FAIL(test, "no expectation for opcode 0x%x", opcode);
		return;
	}
	bu_cmp(test, what, in, len, r);
}

/*
 * The QP state transitions. The service sends them as raw commands the
 * way steering/dr_send.c does (dr_modify_qp_rst2init(),
 * dr_cmd_modify_qp_init2rtr(), dr_cmd_modify_qp_rtr2rts()), with the
 * values qp.c __mlx5_ib_modify_qp() uses for a REG_UMR QP and umr.c
 * mlx5r_umr_qp_rst2rts() asks for. Left out, and why:
 * - dr_send.c's RC-only fields (rre/rwe, remote path, retry counts,
 *   ack_timeout, min_rnr_nak): a REG_UMR QP has no remote peer;
 * - what __mlx5_ib_modify_qp() repeats from CREATE_QP in every
 *   transition (st, pd, cqn_snd/rcv, rlky; mtu/log_msg_max outside
 *   INIT2RTR) and log_ack_req_freq (RC acks): dr_send.c does not repeat
 *   them either;
 * - counter_set_id: mlx5_ib's per-port Q counter, the service owns none.
 * Zero in mlx5_ib's too: opt_param_mask (opt_mask[][][] has no REG_UMR
 * entry) and lag_tx_port_affinity (qp_supports_affinity() is false).
 */
static void bu_check_modify(struct kunit *test, u16 opcode)
{
	struct bu_ctx *c = test->priv;
	const struct umr_kunit_rec *r = bu_next(test, UMR_KUNIT_REC_CMD, opcode);
	u32 *in = bu_alloc(test, MLX5_ST_SZ_BYTES(rst2init_qp_in));
	void *qpc = MLX5_ADDR_OF(rst2init_qp_in, in, qpc);
	const char *what;

	MLX5_SET(rst2init_qp_in, in, opcode, opcode);
	MLX5_SET(rst2init_qp_in, in, qpn, c->qpn);
	switch (opcode) {
	case MLX5_CMD_OP_RST2INIT_QP:
		what = "RST2INIT_QP";
		/* umr.c attr.port_num = 1 -> qp.c vhca_port_num; no PATH_MIG */
		MLX5_SET(qpc, qpc, primary_address_path.vhca_port_num, 1);
		MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
		break;
	case MLX5_CMD_OP_INIT2RTR_QP:
		what = "INIT2RTR_QP";
		/* qp.c: REG_UMR gets IB_MTU_4096 and log_msg_max 12 */
		MLX5_SET(qpc, qpc, mtu, IB_MTU_4096);
		MLX5_SET(qpc, qpc, log_msg_max, 12);
		break;
	case MLX5_CMD_OP_RTR2RTS_QP:
		what = "RTR2RTS_QP";
		break;
	default:
		KUNIT_FAIL(test, "not a transition: 0x%x", opcode);
		return;
	}
	bu_cmp(test, what, in, MLX5_ST_SZ_BYTES(rst2init_qp_in), r);
}

/* dbr_addr must be a 64-byte record inside the recorded doorbell page. */
static void bu_check_dbr(struct kunit *test, u64 addr)
{
	struct bu_ctx *c = test->priv;

	KUNIT_EXPECT_EQ(test, c->dbr->npages, 1U);
	KUNIT_EXPECT_GE(test, addr, (u64)c->dbr->pages[0]);
	KUNIT_EXPECT_LT(test, addr, (u64)c->dbr->pages[0] + PAGE_SIZE);
	/* db.c mlx5_alloc_db_from_pgdir(): records are cache-line sized */
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(addr, 64));
}

/* A CREATE_MKEY for one of the service's UMR mkeys (free, umr_en). */
static void bu_check_umr_mkey(struct kunit *test, const char *what,
			      const struct mlx5_umr_mkey *mk, u8 mode,
			      u32 octo, bool rinval)
{
	struct bu_ctx *c = test->priv;
	const struct umr_kunit_rec *r = bu_next(test, UMR_KUNIT_REC_CMD,
					  MLX5_CMD_OP_CREATE_MKEY);
	u32 *in = bu_alloc(test, MLX5_ST_SZ_BYTES(create_mkey_in));
	void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);

	/* The key returned is the index from the output and our variant. */
	KUNIT_EXPECT_EQ(test, mk->key >> 8,
			MLX5_GET(create_mkey_out, r->out, mkey_index));

	/* core/mr.c mlx5_core_create_mkey(): opcode */
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	/*
	 * mr.c mlx5_set_umr_free_mkey() (KLM, __mlx5_ib_alloc_mr) and
	 * set_cache_mkc() (MTT): set_mkc_access_pd_addr_fields() with no
	 * access: lr = 1, pd, qpn 0xffffff, start_addr 0. Relaxed ordering,
	 * which mlx5_ib sets when the PCIe path allows it, is not set: the
	 * seam does not say whether it does.
	 */
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, pd, c->pdn);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET(mkc, mkc, free, 1);
	MLX5_SET(mkc, mkc, umr_en, 1);
	MLX5_SET(mkc, mkc, access_mode_1_0, mode & 0x3);
	MLX5_SET(mkc, mkc, access_mode_4_2, (mode >> 2) & 0x7);
	MLX5_SET(mkc, mkc, translations_octword_size, octo);
	/* KLM: page_shift 0 (mlx5_alloc_sg_gaps_descs); MTT: PAGE_SHIFT */
	if (mode == MLX5_MKC_ACCESS_MODE_MTT)
		MLX5_SET(mkc, mkc, log_page_size, PAGE_SHIFT);
	/* mr.c assign_mkey_variant(): the key's low byte */
	MLX5_SET(mkc, mkc, mkey_7_0, mk->key & 0xff);
	/* mr.c mlx5_ib_alloc_mw(): en_rinval for remote invalidation */
	if (rinval)
		MLX5_SET(mkc, mkc, en_rinval, 1);
	bu_cmp(test, what, in, MLX5_ST_SZ_BYTES(create_mkey_in), r);
}

static int bu_init(struct kunit *test)
{
	struct bu_ctx *c = bu_alloc(test, sizeof(*c));

	test->priv = c;
	c->rh = umr_kunit_rec_hca_create(test, MLX5_UMR_FAKE_F_SYNC,
					 BU_MAX_REC, 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_register_hca(&c->rh->hca), 0);
	return 0;
}

static void bu_exit(struct kunit *test)
{
	struct bu_ctx *c = test->priv;

	if (c)
		umr_kunit_rec_hca_destroy(c->rh);
}

/*
 * Bring-up, in order: QUERY_HCA_CAP, ALLOC_PD, CREATE_MKEY (the PA mkey),
 * a UAR, the doorbell page, the CQ ring, CREATE_CQ, the SQ ring,
 * CREATE_QP, RST2INIT, INIT2RTR, RTR2RTS. Sets c's object numbers.
 */
static void bu_check_bringup(struct kunit *test)
{
	struct bu_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->rh->hca.umr;
	const u32 ncqe = 1U << MLX5_UMR_LOG_CQ_SIZE;
	const u32 sq_bbs = 1U << MLX5_UMR_LOG_SQ_BBS;
	const struct umr_kunit_rec *r;
	void *hcap, *qpc, *cqc, *mkc;
	__be64 *pas;
	u32 *in;
	int len;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, dev);

	/*
	 * main.c mlx5_core_get_caps_mode(): op_mod = cap_type << 1 |
	 * cap_mode, general device caps, current values.
	 */
	r = bu_next(test, UMR_KUNIT_REC_CMD, MLX5_CMD_OP_QUERY_HCA_CAP);
	in = bu_alloc(test, MLX5_ST_SZ_BYTES(query_hca_cap_in));
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_CAP_GENERAL << 1 | HCA_CAP_OPMOD_GET_CUR);
	bu_cmp(test, "QUERY_HCA_CAP", in, MLX5_ST_SZ_BYTES(query_hca_cap_in),
	       r);
	KUNIT_ASSERT_GE(test, r->outlen,
			(int)MLX5_ST_SZ_BYTES(query_hca_cap_out));
	hcap = MLX5_ADDR_OF(query_hca_cap_out, r->out, capability);
	c->cqe_version = MLX5_GET(cmd_hca_cap, hcap, cqe_version);
	/* The fake reports 1, so CREATE_QP's user_index is exercised. */
	KUNIT_EXPECT_EQ(test, c->cqe_version, 1);
	c->sq_ts_format = MLX5_GET(cmd_hca_cap, hcap, sq_ts_format);

	/*
	 * The crypto caps, only where the device reports crypto and DEK
	 * objects (rdma-core verbs.c query_crypto_caps()): op_mod crypto.
	 */
	if (MLX5_GET(mlx5_umr_hca_cap_crypto, hcap, crypto) &&
	    (MLX5_GET64(cmd_hca_cap, hcap, general_obj_types) &
	     MLX5_HCA_CAP_GENERAL_OBJECT_TYPES_ENCRYPTION_KEY)) {
		r = bu_next(test, UMR_KUNIT_REC_CMD, MLX5_CMD_OP_QUERY_HCA_CAP);
		MLX5_SET(query_hca_cap_in, in, op_mod,
			 MLX5_UMR_CAP_CRYPTO << 1 | HCA_CAP_OPMOD_GET_CUR);
		bu_cmp(test, "QUERY_HCA_CAP crypto", in,
		       MLX5_ST_SZ_BYTES(query_hca_cap_in), r);
	}

	bu_check_simple(test, "ALLOC_PD", MLX5_CMD_OP_ALLOC_PD, 0);
	c->pdn = MLX5_GET(alloc_pd_out, c->rh->rec[c->cur - 1].out, pd);
	KUNIT_EXPECT_EQ(test, c->pdn, dev->caps.pdn);

	/*
	 * The PA mkey the UMR data segments read through: mr.c
	 * mlx5_ib_get_dma_mr() for ib_alloc_pd()'s local DMA lkey
	 * (IB_ACCESS_LOCAL_WRITE): access mode PA, length64, lw, lr, pd,
	 * qpn 0xffffff, start_addr 0, variant in mkey_7_0. Relaxed ordering
	 * left out as above.
	 */
	r = bu_next(test, UMR_KUNIT_REC_CMD, MLX5_CMD_OP_CREATE_MKEY);
	in = bu_alloc(test, MLX5_ST_SZ_BYTES(create_mkey_in));
	mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_PA);
	MLX5_SET(mkc, mkc, length64, 1);
	MLX5_SET(mkc, mkc, lw, 1);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, pd, c->pdn);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET(mkc, mkc, mkey_7_0, dev->caps.dma_lkey & 0xff);
	bu_cmp(test, "CREATE_MKEY (PA)", in, MLX5_ST_SZ_BYTES(create_mkey_in),
	       r);
	KUNIT_EXPECT_EQ(test, dev->caps.dma_lkey >> 8,
			MLX5_GET(create_mkey_out, r->out, mkey_index));

	r = bu_next(test, UMR_KUNIT_REC_UAR, 0);
	c->uar = r->num;

	/* One page of doorbell records (db.c: a pgdir page). */
	c->dbr = bu_next(test, UMR_KUNIT_REC_BUF, 0);
	KUNIT_EXPECT_EQ(test, c->dbr->size, PAGE_SIZE);
	/* the queue's memory on its CPUs' node, not the backend's choice */
	KUNIT_EXPECT_NE(test, mlx5_umr_dev_q0(dev)->node, NUMA_NO_NODE);
	KUNIT_EXPECT_EQ(test, c->dbr->node, mlx5_umr_dev_q0(dev)->node);

	/*
	 * The CQ: dr_send.c dr_create_cq() (and cq.c mlx5_core_create_cq()
	 * for the opcode): log_cq_size, uar_page, log_page_size of the
	 * frag buf (PAGE_SHIFT), dbr_addr, pas; cqe_sz 0 = 64-byte CQEs.
	 * c_eqn is the backend's to fill (the seam's create_cq contract, as
	 * dr_create_cq() takes it from mlx5_vector2eqn()), so 0 here.
	 */
	c->cq_buf = bu_next(test, UMR_KUNIT_REC_BUF, 0);
	KUNIT_EXPECT_EQ(test, c->cq_buf->size, (size_t)ncqe * 64);
	KUNIT_EXPECT_EQ(test, c->cq_buf->node, mlx5_umr_dev_q0(dev)->node);
	KUNIT_EXPECT_EQ(test, c->cq_buf->npages,
			(unsigned int)DIV_ROUND_UP(ncqe * 64, PAGE_SIZE));
	/* cq.c init_cq_frag_buf(): every CQE op_own = MLX5_CQE_INVALID << 4 */
	for (i = 0; i < ncqe; i++) {
		const u8 *cqe = (const u8 *)c->cq_buf->cpu + i * 64;

		KUNIT_EXPECT_EQ(test, cqe[63], MLX5_CQE_INVALID << 4);
		KUNIT_EXPECT_TRUE(test, !memchr_inv(cqe, 0, 63));
	}
	r = bu_next(test, UMR_KUNIT_REC_CREATE_CQ, MLX5_CMD_OP_CREATE_CQ);
	c->cqn = r->num;
	len = MLX5_ST_SZ_BYTES(create_cq_in) +
	      MLX5_FLD_SZ_BYTES(create_cq_in, pas[0]) * c->cq_buf->npages;
	in = bu_alloc(test, len);
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	MLX5_SET(cqc, cqc, log_cq_size, ilog2(ncqe));
	MLX5_SET(cqc, cqc, uar_page, c->uar);
	MLX5_SET(cqc, cqc, log_page_size, PAGE_SHIFT - MLX5_ADAPTER_PAGE_SHIFT);
	MLX5_SET64(cqc, cqc, dbr_addr, c->dbr->pages[0] + MLX5_UMR_CQ_DBR_OFFSET);
	bu_check_dbr(test, c->dbr->pages[0] + MLX5_UMR_CQ_DBR_OFFSET);
	/* mlx5_fill_page_frag_array(): every page, big endian */
	pas = MLX5_ADDR_OF(create_cq_in, in, pas);
	for (i = 0; i < c->cq_buf->npages; i++)
		pas[i] = cpu_to_be64(c->cq_buf->pages[i]);
	bu_cmp(test, "CREATE_CQ", in, len, r);

	/*
	 * The QP: qp.c create_kernel_qp() and _create_kernel_qp() for
	 * MLX5_IB_QPT_REG_UMR (umr.c mlx5r_umr_resource_init(): one CQ for
	 * send and receive, no receive queue), opcode from qpc.c
	 * mlx5_qpc_create_qp(). Differences, each on purpose:
	 * - pd: qp.c leaves it 0 for REG_UMR; the service sets its PD, the
	 *   PD of the PA mkey the QP reads translation tables through
	 *   (dev.c, as dr_send.c dr_create_rc_qp() sets its pd);
	 * - xrcd and srqn_rmpn_xrqn: qp.c fills mlx5_ib's own xrcdn1/s1
	 *   which the service does not have; with rq_type ZERO_LEN_RQ they
	 *   are unused (dr_create_rc_qp() does not set them either).
	 */
	c->sq_buf = bu_next(test, UMR_KUNIT_REC_BUF, 0);
	KUNIT_EXPECT_EQ(test, c->sq_buf->size, (size_t)sq_bbs * MLX5_SEND_WQE_BB);
	KUNIT_EXPECT_EQ(test, c->sq_buf->node, mlx5_umr_dev_q0(dev)->node);
	r = bu_next(test, UMR_KUNIT_REC_CMD, MLX5_CMD_OP_CREATE_QP);
	c->qpn = MLX5_GET(create_qp_out, r->out, qpn);
	KUNIT_EXPECT_EQ(test, c->qpn, mlx5_umr_dev_q0(dev)->sq.qpn);
	len = MLX5_ST_SZ_BYTES(create_qp_in) +
	      MLX5_FLD_SZ_BYTES(create_qp_in, pas[0]) * c->sq_buf->npages;
	in = bu_alloc(test, len);
	MLX5_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
	qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	MLX5_SET(qpc, qpc, st, MLX5_QP_ST_REG_UMR);
	MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	MLX5_SET(qpc, qpc, pd, c->pdn);
	MLX5_SET(qpc, qpc, latency_sensitive, 1);
	MLX5_SET(qpc, qpc, uar_page, c->uar);
	/* mlx5_get_qp_default_ts() without RoCE: the general cap */
	MLX5_SET(qpc, qpc, ts_format,
		 c->sq_ts_format ? MLX5_TIMESTAMP_FORMAT_DEFAULT :
		 MLX5_TIMESTAMP_FORMAT_FREE_RUNNING);
	MLX5_SET(qpc, qpc, log_page_size, PAGE_SHIFT - MLX5_ADAPTER_PAGE_SHIFT);
	/* "fast registration enabled" and rlky for all kernel QPs */
	MLX5_SET(qpc, qpc, fre, 1);
	MLX5_SET(qpc, qpc, rlky, 1);
	MLX5_SET(qpc, qpc, rq_type, MLX5_ZERO_LEN_RQ);
	MLX5_SET(qpc, qpc, log_sq_size, ilog2(sq_bbs));
	MLX5_SET(qpc, qpc, cqn_snd, c->cqn);
	MLX5_SET(qpc, qpc, cqn_rcv, c->cqn);
	MLX5_SET64(qpc, qpc, dbr_addr, c->dbr->pages[0]);
	bu_check_dbr(test, c->dbr->pages[0]);
	/*
	 * uidx MLX5_IB_DEFAULT_UIDX (0xffffff) for kernel QPs when
	 * cqe_version is MLX5_CQE_VERSION_V1 (mlx5_ib.h: 1)
	 */
	if (c->cqe_version == 1)
		MLX5_SET(qpc, qpc, user_index, 0xffffff);
	pas = MLX5_ADDR_OF(create_qp_in, in, pas);
	for (i = 0; i < c->sq_buf->npages; i++)
		pas[i] = cpu_to_be64(c->sq_buf->pages[i]);
	bu_cmp(test, "CREATE_QP", in, len, r);

	/* umr.c mlx5r_umr_qp_rst2rts() */
	bu_check_modify(test, MLX5_CMD_OP_RST2INIT_QP);
	bu_check_modify(test, MLX5_CMD_OP_INIT2RTR_QP);
	bu_check_modify(test, MLX5_CMD_OP_RTR2RTS_QP);
	bu_no_more(test, "bring-up");
}

/*
 * Teardown: DESTROY_QP, the CQ, rings, doorbells, UAR, PA mkey, PD, as
 * umr.c mlx5r_umr_resource_cleanup() (QP, CQ, PD). DESTROY_QP is sent
 * with the QP in RTS, as dr_send.c dr_destroy_qp() does; qp.c
 * destroy_qp_common() moves a kernel QP to RESET first so that it can
 * clean the QP's CQEs out of a CQ that lives on, while the service
 * destroys its CQ next.
 */
static void bu_check_teardown(struct kunit *test)
{
	struct bu_ctx *c = test->priv;
	u32 pa_key = c->rh->hca.umr->caps.dma_lkey;
	const struct umr_kunit_rec *r;

	mlx5_umr_unregister_hca(&c->rh->hca);

	bu_check_simple(test, "DESTROY_QP", MLX5_CMD_OP_DESTROY_QP, c->qpn);
	r = bu_next(test, UMR_KUNIT_REC_FREE_BUF, 0);
	KUNIT_EXPECT_PTR_EQ(test, r->cpu, c->sq_buf->cpu);
	/* The backend builds DESTROY_CQ itself (seam: destroy_cq). */
	r = bu_next(test, UMR_KUNIT_REC_DESTROY_CQ, 0);
	KUNIT_EXPECT_EQ(test, r->num, c->cqn);
	r = bu_next(test, UMR_KUNIT_REC_FREE_BUF, 0);
	KUNIT_EXPECT_PTR_EQ(test, r->cpu, c->cq_buf->cpu);
	r = bu_next(test, UMR_KUNIT_REC_FREE_BUF, 0);
	KUNIT_EXPECT_PTR_EQ(test, r->cpu, c->dbr->cpu);
	r = bu_next(test, UMR_KUNIT_REC_FREE_UAR, 0);
	KUNIT_EXPECT_EQ(test, r->num, c->uar);
	bu_check_simple(test, "DESTROY_MKEY (PA)", MLX5_CMD_OP_DESTROY_MKEY,
			pa_key);
	bu_check_simple(test, "DEALLOC_PD", MLX5_CMD_OP_DEALLOC_PD, c->pdn);
	bu_no_more(test, "teardown");
}

static void bu_lifecycle(struct kunit *test)
{
	struct bu_ctx *c = test->priv;
	struct mlx5_umr_fake_counters cnt;

	bu_check_bringup(test);
	bu_check_teardown(test);

	/* The fake holds nothing the service created. */
	mlx5_umr_fake_get_counters(c->rh->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.pds, 0U);
	KUNIT_EXPECT_EQ(test, cnt.mkeys, 0U);
	KUNIT_EXPECT_EQ(test, cnt.cqs, 0U);
	KUNIT_EXPECT_EQ(test, cnt.qps, 0U);
	KUNIT_EXPECT_EQ(test, cnt.uars, 0U);
	KUNIT_EXPECT_EQ(test, cnt.dma_bufs, 0U);
}

static void bu_mkeys(struct kunit *test)
{
	struct bu_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->rh->hca.umr;
	struct mlx5_umr_mkey *klm, *klm_ri, *mtt, *big;
	const struct umr_kunit_rec *r;
	void *xlt_cpu;
	u32 key;

	bu_check_bringup(test);

	/*
	 * KLM: mr.c __mlx5_ib_alloc_mr() ndescs = ALIGN(max_num_sg, 4); the
	 * service asks for one entry more, for the interleaved (repeat
	 * block) header (Documentation/service.rst, mkeys).
	 */
	klm = mlx5_umr_alloc_mkey(dev, 5, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(klm));
	bu_check_umr_mkey(test, "CREATE_MKEY (KLM)", klm,
			  MLX5_MKC_ACCESS_MODE_KLMS, ALIGN(5 + 1, 4), false);
	bu_no_more(test, "KLM mkey");

	klm_ri = mlx5_umr_alloc_mkey(dev, 8, MLX5_UMR_MKEY_REMOTE_INVALIDATE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(klm_ri));
	bu_check_umr_mkey(test, "CREATE_MKEY (KLM, rinval)", klm_ri,
			  MLX5_MKC_ACCESS_MODE_KLMS, ALIGN(8 + 1, 4), true);
	bu_no_more(test, "KLM mkey with remote invalidate");
	KUNIT_EXPECT_NE(test, klm->key & 0xff, klm_ri->key & 0xff);

	/*
	 * MTT: mr.c set_cache_mkc() octowords get_mkc_octo_size(MTT, n) =
	 * n / 2 with n a multiple of 8 (umr.c MLX5_UMR_MTT_ALIGNMENT, 64
	 * bytes of MTTs).
	 */
	mtt = mlx5_umr_alloc_mtt_mkey(dev, 13, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mtt));
	bu_check_umr_mkey(test, "CREATE_MKEY (MTT)", mtt,
			  MLX5_MKC_ACCESS_MODE_MTT, ALIGN(13, 8) / 2, false);
	bu_no_more(test, "MTT mkey");

	key = mtt->key;
	mlx5_umr_free_mkey(mtt);
	bu_check_simple(test, "DESTROY_MKEY (MTT)", MLX5_CMD_OP_DESTROY_MKEY,
			key);
	bu_no_more(test, "MTT mkey destruction");

	/*
	 * More entries than fit inline: the translation table comes first,
	 * as mr.c _mlx5_alloc_mkey_descs() allocates and maps the
	 * descriptors before creating the mkey; 2048-byte aligned
	 * (MLX5_UMR_ALIGN), in one device-contiguous piece.
	 */
	big = mlx5_umr_alloc_mkey(dev, 100, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(big));
	r = bu_next(test, UMR_KUNIT_REC_BUF, 0);
	KUNIT_EXPECT_EQ(test, r->size, ALIGN(100 + 1, 4) * sizeof(struct mlx5_klm));
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(r->pages[0], 2048));
	/* written by the CPUs of its home queue */
	KUNIT_EXPECT_EQ(test, r->node, to_priv(big)->q->node);
	xlt_cpu = r->cpu;
	bu_check_umr_mkey(test, "CREATE_MKEY (KLM, pointer mode)", big,
			  MLX5_MKC_ACCESS_MODE_KLMS, ALIGN(100 + 1, 4), false);
	bu_no_more(test, "pointer-mode KLM mkey");
	key = big->key;
	mlx5_umr_free_mkey(big);
	bu_check_simple(test, "DESTROY_MKEY (KLM, pointer mode)",
			MLX5_CMD_OP_DESTROY_MKEY, key);
	r = bu_next(test, UMR_KUNIT_REC_FREE_BUF, 0);
	KUNIT_EXPECT_PTR_EQ(test, r->cpu, xlt_cpu);
	bu_no_more(test, "pointer-mode KLM mkey destruction");

	key = klm_ri->key;
	mlx5_umr_free_mkey(klm_ri);
	bu_check_simple(test, "DESTROY_MKEY (KLM, rinval)",
			MLX5_CMD_OP_DESTROY_MKEY, key);
	key = klm->key;
	mlx5_umr_free_mkey(klm);
	bu_check_simple(test, "DESTROY_MKEY (KLM)", MLX5_CMD_OP_DESTROY_MKEY,
			key);
	bu_no_more(test, "mkey destruction");

	bu_check_teardown(test);
}

/*
 * Recovery after an error CQE: umr.c mlx5r_umr_recover() modifies the QP
 * to RESET and runs mlx5r_umr_qp_rst2rts() again; so does the service
 * (sq_recover.c mlx5_umr_recover_work()), with the same mailboxes as bring-up.
 */
static void bu_recovery(struct kunit *test)
{
	struct bu_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->rh->hca.umr;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr = {};
	u16 wqes_before, ci;
	u32 key;

	bu_check_bringup(test);
	mk = mlx5_umr_alloc_mkey(dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	bu_check_umr_mkey(test, "CREATE_MKEY (KLM)", mk,
			  MLX5_MKC_ACCESS_MODE_KLMS, ALIGN(1 + 1, 4), false);
	bu_no_more(test, "KLM mkey");

	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_INVALIDATE;
	mlx5_umr_fake_inject_wqe_error(c->rh->fake,
				       MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       MLX5_UMR_FAKE_VS_INJECTED);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), -EIO);
	KUNIT_EXPECT_EQ(test, wr.syndrome, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	flush_work(&mlx5_umr_dev_q0(dev)->recover_work);

	bu_check_simple(test, "2RST_QP", MLX5_CMD_OP_2RST_QP, c->qpn);
	bu_check_modify(test, MLX5_CMD_OP_RST2INIT_QP);
	bu_check_modify(test, MLX5_CMD_OP_INIT2RTR_QP);
	bu_check_modify(test, MLX5_CMD_OP_RTR2RTS_QP);
	bu_no_more(test, "recovery");

	/* Back in RTS: the same request now runs, with no command. */
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->rh->fake, c->qpn, &ci),
			MLX5_QP_STATE_RTS);
	wqes_before = ci;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->rh->fake, c->qpn, &ci),
			MLX5_QP_STATE_RTS);
	KUNIT_EXPECT_GT(test, (u16)(ci - wqes_before), 0);
	bu_no_more(test, "after recovery");

	key = mk->key;
	mlx5_umr_free_mkey(mk);
	bu_check_simple(test, "DESTROY_MKEY", MLX5_CMD_OP_DESTROY_MKEY, key);
	bu_check_teardown(test);
}

/* The next record: @kind (and @opcode for a command), which failed. */
static const struct umr_kunit_rec *bu_next_failed(struct kunit *test,
						  enum umr_kunit_rec_kind kind,
						  u16 opcode)
{
	struct bu_ctx *c = test->priv;
	const struct umr_kunit_rec *r;

	KUNIT_ASSERT_LT_MSG(test, c->cur, c->rh->n, "missing failed %s 0x%x",
			    umr_kunit_rec_kind_name(kind), opcode);
	r = &c->rh->rec[c->cur++];
	KUNIT_ASSERT_EQ(test, r->kind, kind);
	if (kind == UMR_KUNIT_REC_CMD)
		KUNIT_ASSERT_EQ(test, r->opcode, opcode);
	KUNIT_EXPECT_NE_MSG(test, r->ret, 0, "%s 0x%x did not fail",
			    umr_kunit_rec_kind_name(kind), opcode);
	return r;
}

/*
 * 2RST_QP fails during recovery after a timeout: the HCA may still read
 * the ring and the translation tables. The device fails (DEAD, nothing
 * more posted, no transition tried), the request in flight fails as
 * possibly run (-ETIMEDOUT), and a pointer-mode translation table is
 * kept, not freed, when its mkey goes; DESTROY_QP then succeeds and the
 * rings go as in any teardown.
 */
static void bu_recovery_reset_fails(struct kunit *test)
{
	struct bu_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->rh->hca.umr;
	struct mlx5_umr_sge sge = {
		.length = 64, .key = mlx5_umr_dev_caps(dev)->dma_lkey,
	};
	const struct umr_kunit_rec *r;
	struct mlx5_umr_wr wr = {};
	struct mlx5_umr_mkey *mk;
	u32 key;

	bu_check_bringup(test);
	mk = mlx5_umr_alloc_mkey(dev, 100, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	r = bu_next(test, UMR_KUNIT_REC_BUF, 0);
	KUNIT_EXPECT_EQ(test, r->size, ALIGN(100 + 1, 4) * sizeof(struct mlx5_klm));
	bu_check_umr_mkey(test, "CREATE_MKEY (KLM, pointer mode)", mk,
			  MLX5_MKC_ACCESS_MODE_KLMS, ALIGN(100 + 1, 4), false);
	bu_no_more(test, "pointer-mode KLM mkey");

	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_CONFIGURE;
	wr.flags = MLX5_UMR_WR_SET_ACCESS;
	wr.access = MLX5_UMR_ACCESS_LOCAL_WRITE;
	wr.layout = MLX5_UMR_LAYOUT_LIST;
	wr.list.sge = &sge;
	wr.list.num_sge = 1;
	/* It runs, its CQE is lost, and the reset the timeout starts fails. */
	mlx5_umr_fake_inject_drop_cqe(c->rh->fake, 1);
	mlx5_umr_fake_inject_cmd_error(c->rh->fake, MLX5_CMD_OP_2RST_QP,
				       MLX5_CMD_STAT_BAD_RES_STATE_ERR, 0x5eed);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 50), -ETIMEDOUT);
	flush_work(&mlx5_umr_dev_q0(dev)->recover_work);
	bu_next_failed(test, UMR_KUNIT_REC_CMD, MLX5_CMD_OP_2RST_QP);
	bu_no_more(test, "failed recovery");

	/* DEAD: refused at once, no doorbell, no command. */
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), -EIO);
	KUNIT_EXPECT_TRUE(test, mlx5_umr_dev_q0(dev)->lost);
	bu_no_more(test, "post on a failed device");

	key = mk->key;
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	bu_check_simple(test, "DESTROY_MKEY (KLM, pointer mode)",
			MLX5_CMD_OP_DESTROY_MKEY, key);
	/* no FREE_BUF of the translation table */
	bu_no_more(test, "mkey destruction on a lost QP");
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->leaked), 1);
	bu_check_teardown(test);
}

/*
 * DESTROY_QP fails at teardown: the QP may live on, so its ring, the CQ
 * it uses (whose DESTROY_CQ then fails too) with its CQE ring, and the
 * doorbell page are kept, not freed; the rest goes as usual.
 */
static void bu_teardown_destroy_fails(struct kunit *test)
{
	struct bu_ctx *c = test->priv;
	struct mlx5_umr_fake_counters cnt;
	const struct umr_kunit_rec *r;
	u32 pa_key;

	bu_check_bringup(test);
	pa_key = c->rh->hca.umr->caps.dma_lkey;
	mlx5_umr_fake_inject_cmd_error(c->rh->fake, MLX5_CMD_OP_DESTROY_QP,
				       MLX5_CMD_STAT_BAD_RES_STATE_ERR, 0x5eed);
	mlx5_umr_unregister_hca(&c->rh->hca);

	bu_next_failed(test, UMR_KUNIT_REC_CMD, MLX5_CMD_OP_DESTROY_QP);
	r = bu_next_failed(test, UMR_KUNIT_REC_DESTROY_CQ, 0);
	KUNIT_EXPECT_EQ(test, r->num, c->cqn);
	r = bu_next(test, UMR_KUNIT_REC_FREE_UAR, 0);
	KUNIT_EXPECT_EQ(test, r->num, c->uar);
	bu_check_simple(test, "DESTROY_MKEY (PA)", MLX5_CMD_OP_DESTROY_MKEY,
			pa_key);
	/* the QP still uses the PD */
	bu_next_failed(test, UMR_KUNIT_REC_CMD, MLX5_CMD_OP_DEALLOC_PD);
	bu_no_more(test, "teardown with a live QP");

	mlx5_umr_fake_get_counters(c->rh->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.qps, 1U);
	KUNIT_EXPECT_EQ(test, cnt.cqs, 1U);
	/* send queue ring, CQE ring, doorbell page */
	KUNIT_EXPECT_EQ(test, cnt.dma_bufs, 3U);
}

/*
 * A CREATE_QP the HCA refuses: what bring-up built before it is undone in
 * reverse order, with the same destroy mailboxes as a normal teardown.
 */
static void bu_unwind(struct kunit *test)
{
	struct bu_ctx *c = test->priv;
	struct mlx5_umr_fake_counters cnt;
	void *sq_cpu, *cq_cpu, *dbr_cpu;
	u32 pdn, pa_key, uar, cqn;
	const struct umr_kunit_rec *r;

	bu_check_bringup(test);
	bu_check_teardown(test);

	mlx5_umr_fake_inject_cmd_error(c->rh->fake, MLX5_CMD_OP_CREATE_QP,
				       MLX5_CMD_STAT_LIM_ERR, 0x5eed);
	KUNIT_ASSERT_EQ(test, mlx5_umr_register_hca(&c->rh->hca),
			-EREMOTEIO);
	KUNIT_EXPECT_NULL(test, c->rh->hca.umr);

	bu_next(test, UMR_KUNIT_REC_CMD, MLX5_CMD_OP_QUERY_HCA_CAP);
	/* the crypto caps: the fake reports crypto (its default profile) */
	bu_next(test, UMR_KUNIT_REC_CMD, MLX5_CMD_OP_QUERY_HCA_CAP);
	r = bu_next(test, UMR_KUNIT_REC_CMD, MLX5_CMD_OP_ALLOC_PD);
	pdn = MLX5_GET(alloc_pd_out, r->out, pd);
	r = bu_next(test, UMR_KUNIT_REC_CMD, MLX5_CMD_OP_CREATE_MKEY);
	pa_key = MLX5_GET(create_mkey_out, r->out, mkey_index) << 8;
	uar = bu_next(test, UMR_KUNIT_REC_UAR, 0)->num;
	dbr_cpu = bu_next(test, UMR_KUNIT_REC_BUF, 0)->cpu;
	cq_cpu = bu_next(test, UMR_KUNIT_REC_BUF, 0)->cpu;
	cqn = bu_next(test, UMR_KUNIT_REC_CREATE_CQ, MLX5_CMD_OP_CREATE_CQ)->num;
	sq_cpu = bu_next(test, UMR_KUNIT_REC_BUF, 0)->cpu;

	KUNIT_ASSERT_LT(test, c->cur, c->rh->n);
	r = &c->rh->rec[c->cur++];
	KUNIT_EXPECT_EQ(test, r->kind, UMR_KUNIT_REC_CMD);
	KUNIT_EXPECT_EQ(test, r->opcode, MLX5_CMD_OP_CREATE_QP);
	KUNIT_EXPECT_EQ(test, r->ret, -EREMOTEIO);

	r = bu_next(test, UMR_KUNIT_REC_FREE_BUF, 0);
	KUNIT_EXPECT_PTR_EQ(test, r->cpu, sq_cpu);
	r = bu_next(test, UMR_KUNIT_REC_DESTROY_CQ, 0);
	KUNIT_EXPECT_EQ(test, r->num, cqn);
	r = bu_next(test, UMR_KUNIT_REC_FREE_BUF, 0);
	KUNIT_EXPECT_PTR_EQ(test, r->cpu, cq_cpu);
	r = bu_next(test, UMR_KUNIT_REC_FREE_BUF, 0);
	KUNIT_EXPECT_PTR_EQ(test, r->cpu, dbr_cpu);
	r = bu_next(test, UMR_KUNIT_REC_FREE_UAR, 0);
	KUNIT_EXPECT_EQ(test, r->num, uar);
	bu_check_simple(test, "DESTROY_MKEY (PA, unwind)",
			MLX5_CMD_OP_DESTROY_MKEY, pa_key);
	bu_check_simple(test, "DEALLOC_PD (unwind)", MLX5_CMD_OP_DEALLOC_PD,
			pdn);
	bu_no_more(test, "unwind");

	mlx5_umr_fake_get_counters(c->rh->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.pds + cnt.mkeys + cnt.cqs + cnt.qps +
			cnt.uars + cnt.dma_bufs, 0U);
}

/* Every object of the service's is gone from the HCA. */
static void bu_expect_nothing_held(struct kunit *test, const char *when)
{
	struct bu_ctx *c = test->priv;
	struct mlx5_umr_fake_counters cnt;

	mlx5_umr_fake_get_counters(c->rh->fake, &cnt);
	KUNIT_EXPECT_EQ_MSG(test, cnt.pds + cnt.mkeys + cnt.cqs + cnt.qps +
			    cnt.psvs + cnt.uars + cnt.dma_bufs + cnt.sg_maps,
			    0U, "%s: objects left", when);
	KUNIT_EXPECT_EQ_MSG(test, cnt.iommu_pages, 0ULL, "%s: pages mapped",
			    when);
}

/*
 * The undo of what @r created must come next: the destroy mailbox (whole,
 * as in a teardown) or the free of the same buffer, UAR or CQ.
 */
static void bu_expect_undo(struct kunit *test, const struct umr_kunit_rec *r)
{
	const struct umr_kunit_rec *u;

	switch (r->kind) {
	case UMR_KUNIT_REC_CMD:
		switch (r->opcode) {
		case MLX5_CMD_OP_ALLOC_PD:
			bu_check_simple(test, "DEALLOC_PD (unwind)",
					MLX5_CMD_OP_DEALLOC_PD,
					MLX5_GET(alloc_pd_out, r->out, pd));
			break;
		case MLX5_CMD_OP_CREATE_MKEY:
			bu_check_simple(test, "DESTROY_MKEY (unwind)",
					MLX5_CMD_OP_DESTROY_MKEY,
					MLX5_GET(create_mkey_out, r->out,
						 mkey_index) << 8);
			break;
		case MLX5_CMD_OP_CREATE_QP:
			bu_check_simple(test, "DESTROY_QP (unwind)",
					MLX5_CMD_OP_DESTROY_QP,
					MLX5_GET(create_qp_out, r->out, qpn));
			break;
		case MLX5_CMD_OP_QUERY_HCA_CAP:
		case MLX5_CMD_OP_RST2INIT_QP:
		case MLX5_CMD_OP_INIT2RTR_QP:
		case MLX5_CMD_OP_RTR2RTS_QP:
			/* no object: a state the QP's destruction ends */
			break;
		default:
			KUNIT_FAIL(test, "no undo known for command 0x%x",
				   r->opcode);
		}
		break;
	case UMR_KUNIT_REC_CREATE_CQ:
		u = bu_next(test, UMR_KUNIT_REC_DESTROY_CQ, 0);
		KUNIT_EXPECT_EQ(test, u->num, r->num);
		break;
	case UMR_KUNIT_REC_BUF:
		u = bu_next(test, UMR_KUNIT_REC_FREE_BUF, 0);
		KUNIT_EXPECT_PTR_EQ(test, u->cpu, r->cpu);
		KUNIT_EXPECT_EQ(test, u->npages, r->npages);
		break;
	case UMR_KUNIT_REC_UAR:
		u = bu_next(test, UMR_KUNIT_REC_FREE_UAR, 0);
		KUNIT_EXPECT_EQ(test, u->num, r->num);
		break;
	default:
		KUNIT_FAIL(test, "no undo known for %s",
			   umr_kunit_rec_kind_name(r->kind));
	}
}

/* The device works: one configure through the PA mkey completes. */
static void bu_expect_usable(struct kunit *test)
{
	struct bu_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->rh->hca.umr;
	struct mlx5_umr_sge sge = {
		.length = 16, .key = mlx5_umr_dev_caps(dev)->dma_lkey,
	};
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	struct mlx5_umr_wr wr = {};
	struct mlx5_umr_mkey *mk;

	mk = mlx5_umr_alloc_mkey(dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_CONFIGURE;
	wr.flags = MLX5_UMR_WR_SET_ACCESS;
	wr.access = MLX5_UMR_ACCESS_LOCAL_WRITE;
	wr.layout = MLX5_UMR_LAYOUT_LIST;
	wr.list.sge = &sge;
	wr.list.num_sge = 1;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, wr.status, 0);
	KUNIT_EXPECT_GT(test, mlx5_umr_fake_query_mkey(c->rh->fake, mk->key,
						       mkc, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 0);
	mlx5_umr_free_mkey(mk);
}

/* A bring-up operation, as a clean bring-up did it. */
struct bu_op {
	enum umr_kunit_rec_kind kind;
	u16 opcode;
	bool failable;
};

static bool bu_op_is_cmd(const struct bu_op *op)
{
	return op->kind == UMR_KUNIT_REC_CMD ||
	       op->kind == UMR_KUNIT_REC_CREATE_CQ;
}

/*
 * Fail operation @i of bring-up (@k-th of those that can fail) and check
 * the unwind: the operations before it as in @ops, the failed one
 * returned to the service, which returns it from registration, then the
 * undo of everything created, newest first, and nothing else; the HCA
 * holds nothing. A retry then brings the device up as before, usable.
 */
static void bu_fail_one(struct kunit *test, const struct bu_op *ops,
			unsigned int i, unsigned int k, u8 status, int err)
{
	struct bu_ctx *c = test->priv;
	struct umr_kunit_rec_hca *rh = c->rh;
	int expect = status ? -EREMOTEIO : err;
	const u32 synd = 0x5eed00 + i;
	const struct umr_kunit_rec *r;
	unsigned int j, differ = 0;

	kunit_info(test, "failing %s 0x%x (operation %u)\n",
		   umr_kunit_rec_kind_name(ops[i].kind), ops[i].opcode, i);
	umr_kunit_rec_reset(rh);
	c->cur = 0;
	umr_kunit_rec_fail(rh, k, status, synd, err);
	KUNIT_EXPECT_EQ(test, mlx5_umr_register_hca(&rh->hca), expect);
	KUNIT_ASSERT_NULL(test, rh->hca.umr);
	KUNIT_ASSERT_EQ(test, rh->lost, 0U);
	KUNIT_ASSERT_GT(test, rh->n, i);

	for (j = 0; j < i; j++)
		if (rh->rec[j].kind != ops[j].kind ||
		    rh->rec[j].opcode != ops[j].opcode || rh->rec[j].ret)
			differ++;
	KUNIT_EXPECT_EQ_MSG(test, differ, 0U, "bring-up before the failure");
	r = &rh->rec[i];
	KUNIT_EXPECT_TRUE(test, r->injected);
	KUNIT_EXPECT_EQ(test, r->kind, ops[i].kind);
	KUNIT_EXPECT_EQ(test, r->opcode, ops[i].opcode);
	KUNIT_EXPECT_EQ(test, r->ret, expect);
	if (status && r->kind == UMR_KUNIT_REC_CMD) {
		/* the fake answered with what was injected */
		KUNIT_EXPECT_EQ(test, MLX5_GET(alloc_pd_out, r->out, status),
				status);
		KUNIT_EXPECT_EQ(test, MLX5_GET(alloc_pd_out, r->out, syndrome),
				synd);
	}

	c->cur = i + 1;
	for (j = i; j-- > 0;)
		bu_expect_undo(test, &rh->rec[j]);
	bu_no_more(test, "unwind");
	bu_expect_nothing_held(test, "after the unwind");

	/* The same bring-up again, byte for byte, and it works. */
	umr_kunit_rec_reset(rh);
	c->cur = 0;
	KUNIT_ASSERT_EQ(test, mlx5_umr_register_hca(&rh->hca), 0);
	bu_check_bringup(test);
	bu_expect_usable(test);
	mlx5_umr_unregister_hca(&rh->hca);
	bu_expect_nothing_held(test, "after the retry");
}

/* The second QUERY_HCA_CAP of bring-up reads the crypto caps. */
static bool bu_is_crypto_caps(const struct bu_op *ops, unsigned int i)
{
	return i > 0 && ops[i].opcode == MLX5_CMD_OP_QUERY_HCA_CAP &&
	       ops[i - 1].opcode == MLX5_CMD_OP_QUERY_HCA_CAP;
}

/*
 * The crypto caps query failing is not fatal (rdma-core verbs.c
 * query_crypto_caps() leaves crypto off): the device comes up without
 * crypto, usable, and goes down holding nothing.
 */
static void bu_fail_crypto_caps(struct kunit *test, unsigned int k,
				u8 status, int err)
{
	struct bu_ctx *c = test->priv;
	struct umr_kunit_rec_hca *rh = c->rh;

	umr_kunit_rec_reset(rh);
	c->cur = 0;
	umr_kunit_rec_fail(rh, k, status, 0x5eedcc, err);
	KUNIT_ASSERT_EQ(test, mlx5_umr_register_hca(&rh->hca), 0);
	KUNIT_ASSERT_NOT_NULL(test, rh->hca.umr);
	KUNIT_EXPECT_FALSE(test, rh->hca.umr->caps.crypto);
	KUNIT_EXPECT_EQ(test, rh->hca.umr->caps.crypto_engine,
			MLX5_UMR_CRYPTO_ENGINE_MULTI_BLOCK);
	bu_expect_usable(test);
	mlx5_umr_unregister_hca(&rh->hca);
	bu_expect_nothing_held(test, "after a bring-up without crypto caps");
}

/*
 * Fail, in turn, each command of bring-up (@cmds) or each buffer or UAR
 * allocation, on a device nothing else uses.
 */
static void bu_fail_each(struct kunit *test, bool cmds, u8 status, int err)
{
	struct bu_ctx *c = test->priv;
	unsigned int i, k = 0, n, failed = 0;
	struct bu_op *ops;

	bu_check_bringup(test);
	n = c->cur;
	ops = kunit_kcalloc(test, n, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	for (i = 0; i < n; i++) {
		ops[i].kind = c->rh->rec[i].kind;
		ops[i].opcode = c->rh->rec[i].opcode;
		ops[i].failable = umr_kunit_rec_failable(&c->rh->rec[i]);
	}
	mlx5_umr_unregister_hca(&c->rh->hca);

	for (i = 0; i < n; i++) {
		if (!ops[i].failable)
			continue;
		if (bu_op_is_cmd(&ops[i]) == cmds && bu_is_crypto_caps(ops, i)) {
			bu_fail_crypto_caps(test, k, status, err);
		} else if (bu_op_is_cmd(&ops[i]) == cmds) {
			bu_fail_one(test, ops, i, k, status, err);
			failed++;
		}
		k++;
	}
	/*
	 * QUERY_HCA_CAP, ALLOC_PD, CREATE_MKEY, CREATE_CQ, CREATE_QP and the
	 * three transitions; the UAR and three buffers.
	 */
	KUNIT_EXPECT_EQ(test, failed, cmds ? 8U : 4U);
}

/* Each command answered with a bad firmware status (-EREMOTEIO). */
static void bu_fail_each_cmd_status(struct kunit *test)
{
	bu_fail_each(test, true, MLX5_CMD_STAT_BAD_RES_STATE_ERR, 0);
}

/* Each command not delivered (the backend's own error). */
static void bu_fail_each_cmd_delivery(struct kunit *test)
{
	bu_fail_each(test, true, 0, -ETIMEDOUT);
}

/* Each buffer and UAR allocation fails. */
static void bu_fail_each_alloc(struct kunit *test)
{
	bu_fail_each(test, false, 0, -ENOMEM);
}

static struct kunit_case bu_cases[] = {
	KUNIT_CASE(bu_lifecycle),
	KUNIT_CASE(bu_mkeys),
	KUNIT_CASE(bu_recovery),
	KUNIT_CASE(bu_recovery_reset_fails),
	KUNIT_CASE(bu_teardown_destroy_fails),
	KUNIT_CASE(bu_unwind),
	KUNIT_CASE(bu_fail_each_cmd_status),
	KUNIT_CASE(bu_fail_each_cmd_delivery),
	KUNIT_CASE(bu_fail_each_alloc),
	{}
};

static struct kunit_suite bu_suite = {
	.name = "mlx5_umr_bringup",
	.init = bu_init,
	.exit = bu_exit,
	.test_cases = bu_cases,
};

kunit_test_suite(bu_suite);

MODULE_DESCRIPTION("KUnit byte comparison of the mlx5 UMR service's command mailboxes");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
