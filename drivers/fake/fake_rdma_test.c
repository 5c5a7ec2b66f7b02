// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: RDMA WRITE and READ between two RC QPs of one fake (fake_rdma.c),
 * created and connected with mailboxes built by hand, their WQEs written
 * on the ring: the bytes in both memories, the CQEs on both CQs and the
 * QPs' states after each case.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/crc-t10dif.h>
#include <linux/module.h>
#include <linux/mlx5_umr_compat.h>

#include "fake_sig_kunit.h"

#define VA_A	0x10000ULL
#define VA_B	0x40000ULL
#define MR_SIZE	(4 * PAGE_SIZE)
#define NBLK	4
#define BS	512

/* an RDMA WQE: ctrl, raddr, up to four data segments */
struct fr_wqe {
	struct mlx5_wqe_ctrl_seg ctrl;
	struct mlx5_wqe_raddr_seg ra;
	struct mlx5_wqe_data_seg ds[4];
};

/* requester @a and responder @b, each with its PD, CQ and RC QP */
struct fr {
	struct ft *a, *b;
	struct mlx5_umr_dma_buf ma, mb;
	u32 la;		/* @ma, in a's PD: LW */
	u32 rb;		/* @mb, in b's PD: LW | RR | RW */
	u8 *pat;	/* MR_SIZE bytes of pattern */
};

/* Replace @ft's REG_UMR QP by an RC QP in RST. */
static void fr_rc_qp(struct ft *ft)
{
	u32 out[MLX5_ST_SZ_DW(create_qp_out)] = {};
	void *in;
	int inlen;

	ft_destroy_qp(ft);
	in = ft_create_qp_in(ft, &inlen);
	MLX5_SET(qpc, MLX5_ADDR_OF(create_qp_in, in, qpc), st, MLX5_QP_ST_RC);
	KUNIT_ASSERT_EQ(ft->test, ft_cmd(ft, in, inlen, out, sizeof(out)), 0);
	ft->qpn = MLX5_GET(create_qp_out, out, qpn);
}

/* RST -> INIT -> RTR (qpc.remote_qpn = @peer) -> RTS, ring empty. */
static void fr_connect(struct ft *ft, u32 peer)
{
	u32 in[MLX5_ST_SZ_DW(init2rtr_qp_in)] = {};
	u32 out[MLX5_ST_SZ_DW(init2rtr_qp_out)];

	KUNIT_ASSERT_EQ(ft->test, ft_qp_cmd(ft, MLX5_CMD_OP_RST2INIT_QP,
					    ft->qpn, out), 0);
	MLX5_SET(init2rtr_qp_in, in, opcode, MLX5_CMD_OP_INIT2RTR_QP);
	MLX5_SET(init2rtr_qp_in, in, qpn, ft->qpn);
	MLX5_SET(init2rtr_qp_in, in, qpc.remote_qpn, peer);
	KUNIT_ASSERT_EQ(ft->test, ft_cmd(ft, in, sizeof(in), out,
					 sizeof(out)), 0);
	KUNIT_ASSERT_EQ(ft->test, ft_qp_cmd(ft, MLX5_CMD_OP_RTR2RTS_QP,
					    ft->qpn, out), 0);
	ft->pi = 0;
	((__be32 *)(ft->db.cpu + FT_QP_DBR))[MLX5_SND_DBR] = 0;
}

/* Drain @ft's CQ, reset its QP and connect it again to @peer. */
static void fr_recover(struct ft *ft, u32 peer)
{
	u32 out[MLX5_ST_SZ_DW(qp_2rst_out)];
	struct mlx5_cqe64 cqe;

	while (ft_poll(ft, &cqe))
		;
	KUNIT_ASSERT_EQ(ft->test, ft_qp_cmd(ft, MLX5_CMD_OP_2RST_QP, ft->qpn,
					    out), 0);
	fr_connect(ft, peer);
}

static struct fr *fr_setup(struct kunit *test)
{
	struct fr *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->pat = kunit_kmalloc(test, MR_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->pat);
	for (i = 0; i < MR_SIZE; i++)
		r->pat[i] = i * 7 + 3 + (i >> 8);
	r->a = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	r->b = ft_setup_on(test, r->a->fake, 6, 6);
	fr_rc_qp(r->a);
	fr_rc_qp(r->b);
	fr_connect(r->a, r->b->qpn);
	fr_connect(r->b, r->a->qpn);
	r->la = ft_mr(r->a, &r->ma, MR_SIZE, VA_A, FT_LW);
	r->rb = ft_mr(r->b, &r->mb, MR_SIZE, VA_B, FT_LW | FT_RR | FT_RW);
	memcpy(r->ma.cpu, r->pat, MR_SIZE);
	memset(r->mb.cpu, 0xee, MR_SIZE);
	return r;
}

static void fr_teardown(struct fr *r)
{
	ft_del_mkey(r->a, r->la);
	ft_del_mkey(r->b, r->rb);
	r->a->hca->ops->free_dma_buf(r->a->hca, &r->ma);
	r->b->hca->ops->free_dma_buf(r->b->hca, &r->mb);
	ft_teardown(r->b);
	ft_teardown(r->a);
}

static size_t fr_wqe(struct fr_wqe *w, u32 rkey, u64 raddr)
{
	memset(w, 0, sizeof(*w));
	w->ra.raddr = cpu_to_be64(raddr);
	w->ra.rkey = cpu_to_be32(rkey);
	return offsetof(struct fr_wqe, ds);
}

static size_t fr_sge(struct fr_wqe *w, size_t size, u32 lkey, u64 addr,
		     u32 len)
{
	struct mlx5_wqe_data_seg *ds = (void *)w + size;

	ds->byte_count = cpu_to_be32(len);
	ds->lkey = cpu_to_be32(lkey);
	ds->addr = cpu_to_be64(addr);
	return size + sizeof(*ds);
}

/*
 * Post on @ft, signalled, and expect its success CQE with @opcode.
 * Return: the CQE's byte_cnt.
 */
static u32 fr_post_ok(struct ft *ft, void *w, size_t size, u8 opcode)
{
	struct mlx5_cqe64 cqe;
	u16 idx = ft_post(ft, w, size, opcode, true);

	KUNIT_ASSERT_TRUE(ft->test, ft_poll(ft, &cqe));
	KUNIT_EXPECT_EQ(ft->test, cqe.op_own >> 4, MLX5_CQE_REQ);
	KUNIT_EXPECT_EQ(ft->test, be32_to_cpu(cqe.sop_drop_qpn),
			(u32)opcode << 24 | ft->qpn);
	KUNIT_EXPECT_EQ(ft->test, be16_to_cpu(cqe.wqe_counter), idx);
	KUNIT_EXPECT_FALSE(ft->test, ft_poll(ft, &cqe));
	KUNIT_EXPECT_EQ(ft->test, ft_qp_state(ft), MLX5_QP_STATE_RTS);
	return be32_to_cpu(cqe.byte_cnt);
}

static void fr_expect_state(struct ft *ft, u8 state)
{
	KUNIT_EXPECT_EQ(ft->test, ft_qp_state(ft), state);
}

/*
 * INIT2RTR keeps the peer (QUERY_QP's remote_qpn). A two-SGE WRITE lands
 * in b's memory at raddr, nothing around it; a READ brings b's bytes back
 * into two SGEs of a; an inline WRITE (MLX5_INLINE_SEG) lands too. b's CQ
 * stays empty, both QPs stay in RTS.
 */
static void fake_rdma_write_read(struct kunit *test)
{
	u32 qin[MLX5_ST_SZ_DW(query_qp_in)] = {};
	struct fr *r = fr_setup(test);
	u8 *a = r->ma.cpu, *b = r->mb.cpu;
	struct {
		struct mlx5_wqe_ctrl_seg ctrl;
		struct mlx5_wqe_raddr_seg ra;
		__be32 bc;
		u8 data[44];
	} inl = {};
	struct mlx5_cqe64 cqe;
	struct fr_wqe w;
	size_t size;
	void *qout;

	qout = kunit_kzalloc(test, MLX5_ST_SZ_BYTES(query_qp_out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qout);
	MLX5_SET(query_qp_in, qin, opcode, MLX5_CMD_OP_QUERY_QP);
	MLX5_SET(query_qp_in, qin, qpn, r->a->qpn);
	KUNIT_ASSERT_EQ(test, ft_cmd(r->a, qin, sizeof(qin), qout,
				     MLX5_ST_SZ_BYTES(query_qp_out)), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(query_qp_out, qout, qpc.remote_qpn),
			r->b->qpn);
	KUNIT_EXPECT_EQ(test, MLX5_GET(query_qp_out, qout, qpc.st),
			MLX5_QP_ST_RC);

	/* WRITE a[100..400) + a[5000..5100) to b at VA_B + 3000 */
	size = fr_wqe(&w, r->rb, VA_B + 3000);
	size = fr_sge(&w, size, r->la, VA_A + 100, 300);
	size = fr_sge(&w, size, r->la, VA_A + 5000, 100);
	fr_post_ok(r->a, &w, size, MLX5_OPCODE_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, memcmp(b + 3000, r->pat + 100, 300), 0);
	KUNIT_EXPECT_EQ(test, memcmp(b + 3300, r->pat + 5000, 100), 0);
	KUNIT_EXPECT_EQ(test, b[2999], 0xee);
	KUNIT_EXPECT_EQ(test, b[3400], 0xee);
	KUNIT_EXPECT_FALSE(test, ft_poll(r->b, &cqe));

	/* READ b[3000..3400) into a[9000..9050) + a[12000..12350) */
	memset(a + 8192, 0, MR_SIZE - 8192);
	size = fr_wqe(&w, r->rb, VA_B + 3000);
	size = fr_sge(&w, size, r->la, VA_A + 9000, 50);
	size = fr_sge(&w, size, r->la, VA_A + 12000, 350);
	/* a READ's CQE counts the bytes (byte_cnt) */
	KUNIT_EXPECT_EQ(test, fr_post_ok(r->a, &w, size,
					 MLX5_OPCODE_RDMA_READ), 400U);
	KUNIT_EXPECT_EQ(test, memcmp(a + 9000, r->pat + 100, 50), 0);
	KUNIT_EXPECT_EQ(test, memcmp(a + 12000, r->pat + 150, 250), 0);
	KUNIT_EXPECT_EQ(test, memcmp(a + 12250, r->pat + 5000, 100), 0);
	KUNIT_EXPECT_EQ(test, a[8999], 0);
	KUNIT_EXPECT_EQ(test, a[9050], 0);
	KUNIT_EXPECT_EQ(test, a[12350], 0);

	/* an inline WRITE of 41 bytes */
	inl.ra.raddr = cpu_to_be64(VA_B + 8000);
	inl.ra.rkey = cpu_to_be32(r->rb);
	inl.bc = cpu_to_be32(41 | MLX5_INLINE_SEG);
	memcpy(inl.data, r->pat + 7, 41);
	fr_post_ok(r->a, &inl, sizeof(inl), MLX5_OPCODE_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, memcmp(b + 8000, r->pat + 7, 41), 0);
	KUNIT_EXPECT_EQ(test, b[8041], 0xee);
	KUNIT_EXPECT_FALSE(test, ft_poll(r->b, &cqe));
	fr_expect_state(r->b, MLX5_QP_STATE_RTS);
	fr_teardown(r);
}

/*
 * A 64-byte WRITE from a to @rkey at @raddr, over @mem (filled with 0x11
 * here): a remote access error on a, b in ERR, @mem unchanged.
 */
static void fr_write_refused(struct fr *r, u32 rkey, u64 raddr,
			     struct mlx5_umr_dma_buf *mem)
{
	struct fr_wqe w;
	size_t size;

	memset(mem->cpu, 0x11, PAGE_SIZE);
	size = fr_wqe(&w, rkey, raddr);
	size = fr_sge(&w, size, r->la, VA_A, 64);
	ft_expect_err(r->a, &w, size, MLX5_OPCODE_RDMA_WRITE,
		      MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR,
		      MLX5_UMR_FAKE_VS_RDMA_RKEY);
	fr_expect_state(r->b, MLX5_QP_STATE_ERR);
	KUNIT_EXPECT_PTR_EQ(r->a->test, memchr_inv(mem->cpu, 0x11, PAGE_SIZE),
			    NULL);
}

/*
 * The responder refuses: an rkey without RW (WRITE), an rkey of the
 * requester's PD (an mkey of another PD than the responder QP's), an
 * unknown rkey (READ). Each is a remote access error on the requester,
 * both QPs go to ERR (class C), and neither memory changes.
 */
static void fake_rdma_remote_access(struct kunit *test)
{
	struct fr *r = fr_setup(test);
	struct mlx5_umr_dma_buf ro;
	struct mlx5_cqe64 cqe;
	struct fr_wqe w;
	size_t size;
	u32 rro, ra;

	rro = ft_mr(r->b, &ro, PAGE_SIZE, VA_B + MR_SIZE, FT_RR);
	fr_write_refused(r, rro, VA_B + MR_SIZE, &ro);
	KUNIT_EXPECT_FALSE(test, ft_poll(r->b, &cqe));
	fr_recover(r->a, r->b->qpn);
	fr_recover(r->b, r->a->qpn);
	KUNIT_EXPECT_EQ(test, ft_qp_state(r->b), MLX5_QP_STATE_RTS);

	/* an MR of a's PD with remote rights, offered as an rkey to b */
	ft_del_mkey(r->b, rro);
	r->b->hca->ops->free_dma_buf(r->b->hca, &ro);
	ra = ft_mr(r->a, &ro, PAGE_SIZE, VA_A + MR_SIZE, FT_RR | FT_RW);
	fr_write_refused(r, ra, VA_A + MR_SIZE, &ro);
	ft_del_mkey(r->a, ra);
	r->a->hca->ops->free_dma_buf(r->a->hca, &ro);
	fr_recover(r->a, r->b->qpn);
	fr_recover(r->b, r->a->qpn);

	/* an unknown rkey, READ: a's memory untouched */
	size = fr_wqe(&w, r->rb ^ 1, VA_B);
	size = fr_sge(&w, size, r->la, VA_A, 64);
	ft_expect_err(r->a, &w, size, MLX5_OPCODE_RDMA_READ,
		      MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR,
		      MLX5_UMR_FAKE_VS_RDMA_RKEY);
	fr_expect_state(r->b, MLX5_QP_STATE_ERR);
	KUNIT_EXPECT_EQ(test, memcmp(r->ma.cpu, r->pat, MR_SIZE), 0);
	fr_recover(r->a, r->b->qpn);
	fr_recover(r->b, r->a->qpn);
	fr_teardown(r);
}

/*
 * The requester's own faults: a READ whose second SGE lacks local write
 * (a READ scatters into it) and a WRITE through an unknown lkey are local
 * protection errors; a message above MLX5_UMR_FAKE_RDMA_MAX_MSG a local
 * length error; inline data in a READ a local QP operation error. The
 * responder stays in RTS and no byte moves, not even the first SGE's.
 */
static void fake_rdma_local_errors(struct kunit *test)
{
	struct fr *r = fr_setup(test);
	struct mlx5_umr_dma_buf ro;
	struct fr_wqe w;
	size_t size;
	u32 lro;

	lro = ft_mr(r->a, &ro, PAGE_SIZE, VA_A + MR_SIZE, 0);
	memset(ro.cpu, 0x22, PAGE_SIZE);
	memset(r->mb.cpu, 0x33, MR_SIZE);
	size = fr_wqe(&w, r->rb, VA_B);
	size = fr_sge(&w, size, r->la, VA_A, 64);
	size = fr_sge(&w, size, lro, VA_A + MR_SIZE, 64);
	ft_expect_err(r->a, &w, size, MLX5_OPCODE_RDMA_READ,
		      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		      MLX5_UMR_FAKE_VS_RDMA_LKEY);
	fr_expect_state(r->b, MLX5_QP_STATE_RTS);
	KUNIT_EXPECT_EQ(test, memcmp(r->ma.cpu, r->pat, MR_SIZE), 0);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(ro.cpu, 0x22, PAGE_SIZE), NULL);
	fr_recover(r->a, r->b->qpn);

	memset(r->mb.cpu, 0xee, MR_SIZE);
	size = fr_wqe(&w, r->rb, VA_B);
	size = fr_sge(&w, size, r->la, VA_A, 64);
	size = fr_sge(&w, size, r->la ^ 1, VA_A, 64);
	ft_expect_err(r->a, &w, size, MLX5_OPCODE_RDMA_WRITE,
		      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		      MLX5_UMR_FAKE_VS_RDMA_LKEY);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(r->mb.cpu, 0xee, MR_SIZE), NULL);
	fr_expect_state(r->b, MLX5_QP_STATE_RTS);
	fr_recover(r->a, r->b->qpn);

	size = fr_wqe(&w, r->rb, VA_B);
	size = fr_sge(&w, size, r->la, VA_A, MR_SIZE);
	size = fr_sge(&w, size, r->la, VA_A, MLX5_UMR_FAKE_RDMA_MAX_MSG -
		      MR_SIZE + 1);
	ft_expect_err(r->a, &w, size, MLX5_OPCODE_RDMA_WRITE,
		      MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,
		      MLX5_UMR_FAKE_VS_RDMA_LEN);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(r->mb.cpu, 0xee, MR_SIZE), NULL);
	fr_recover(r->a, r->b->qpn);

	size = fr_wqe(&w, r->rb, VA_B);
	w.ds[0].byte_count = cpu_to_be32(8 | MLX5_INLINE_SEG);
	ft_expect_err(r->a, &w, size + 16, MLX5_OPCODE_RDMA_READ,
		      MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
		      MLX5_UMR_FAKE_VS_RDMA_INLINE);
	fr_recover(r->a, r->b->qpn);
	fr_expect_state(r->b, MLX5_QP_STATE_RTS);

	ft_del_mkey(r->a, lro);
	r->a->hca->ops->free_dma_buf(r->a->hca, &ro);
	fr_teardown(r);
}

/*
 * No responder: the peer in ERR, in RST, or a QP number nobody has. The
 * requester's retries run out (transport retry counter exceeded), and the
 * responder's memory and state do not change.
 */
static void fake_rdma_no_peer(struct kunit *test)
{
	u32 out[MLX5_ST_SZ_DW(qp_2err_out)];
	struct fr *r = fr_setup(test);
	struct fr_wqe w;
	size_t size;

	KUNIT_ASSERT_EQ(test, ft_qp_cmd(r->b, MLX5_CMD_OP_2ERR_QP, r->b->qpn,
					out), 0);
	size = fr_wqe(&w, r->rb, VA_B);
	size = fr_sge(&w, size, r->la, VA_A, 64);
	ft_expect_err(r->a, &w, size, MLX5_OPCODE_RDMA_WRITE,
		      MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR,
		      MLX5_UMR_FAKE_VS_RDMA_NO_PEER);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(r->mb.cpu, 0xee, MR_SIZE), NULL);
	fr_recover(r->a, r->b->qpn);

	KUNIT_ASSERT_EQ(test, ft_qp_cmd(r->b, MLX5_CMD_OP_2RST_QP, r->b->qpn,
					out), 0);
	ft_expect_err(r->a, &w, size, MLX5_OPCODE_RDMA_READ,
		      MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR,
		      MLX5_UMR_FAKE_VS_RDMA_NO_PEER);
	KUNIT_EXPECT_EQ(test, memcmp(r->ma.cpu, r->pat, MR_SIZE), 0);
	fr_expect_state(r->b, MLX5_QP_STATE_RST);
	fr_recover(r->b, r->a->qpn);

	fr_recover(r->a, 0xfffff);
	ft_expect_err(r->a, &w, size, MLX5_OPCODE_RDMA_WRITE,
		      MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR,
		      MLX5_UMR_FAKE_VS_RDMA_NO_PEER);
	fr_recover(r->a, r->b->qpn);
	fr_teardown(r);
}

/* RDMA stays an unknown opcode on the REG_UMR QP (no peer). */
static void fake_rdma_reg_umr_refused(struct kunit *test)
{
	struct ft *ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct fr_wqe w;
	size_t size;

	size = fr_wqe(&w, 0x100, 0);
	ft_expect_err(ft, &w, size, MLX5_OPCODE_RDMA_WRITE,
		      MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
		      MLX5_UMR_FAKE_VS_BAD_OPCODE);
	ft_teardown(ft);
}

/* ---- signature mkeys on either side ---- */

/* A signature mkey of @ft over @len bytes at @va of @lkey (mem DIF). */
static u32 fr_sig_key(struct ft *ft, u32 lkey, u64 va, u32 psvn,
		      struct ft_umr *w)
{
	struct fs_dom mem = { .kind = FS_DIF_CRC, .seed = true, .inc = true,
			      .app = 0x1111, .ref = 0x100,
			      .app_mask = 0xffff };
	struct fs_dom none = {};
	struct mlx5_bsf bsf;
	u32 key = fs_sig_mkey(ft);

	fs_bsf(&bsf, &mem, psvn, &none, 0);
	ft_umr_ok(ft, w, fs_sig_umr(w, key, lkey, va, NBLK * (BS + 8), &bsf));
	return key;
}

static void fr_expect_sig_err(struct ft *ft, u32 key, u64 off)
{
	struct mlx5_sig_err_cqe err;
	struct mlx5_cqe64 cqe;

	KUNIT_ASSERT_TRUE(ft->test, ft_poll(ft, &cqe));
	memcpy(&err, &cqe, sizeof(err));
	KUNIT_EXPECT_EQ(ft->test, err.op_own >> 4, MLX5_CQE_SIG_ERR);
	KUNIT_EXPECT_EQ(ft->test, be32_to_cpu(err.qpn), ft->qpn);
	KUNIT_EXPECT_EQ(ft->test, be32_to_cpu(err.mkey), key);
	KUNIT_EXPECT_EQ(ft->test, be16_to_cpu(err.syndrome), BIT(13));
	KUNIT_EXPECT_EQ(ft->test, be64_to_cpu(err.err_offset), off);
}

/*
 * A WRITE of NBLK plain blocks into a responder signature rkey (memory
 * T10-DIF, nothing on the wire) lands with the PI inserted: data, guard
 * (CRC over the block, seed 0xffff), app tag, reference tag per block; no
 * SIG_ERR anywhere. A READ back through it checks and strips the PI.
 */
static void fake_rdma_sig_insert(struct kunit *test)
{
	struct ft_umr *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct fr *r = fr_setup(test);
	u8 *m = r->mb.cpu;
	struct mlx5_cqe64 cqe;
	struct fr_wqe q;
	u32 psv, key, i;
	size_t size;

	KUNIT_ASSERT_NOT_NULL(test, w);
	psv = ft_psv(r->b);
	key = fr_sig_key(r->b, r->rb, VA_B, psv, w);
	size = fr_wqe(&q, key, 0);
	size = fr_sge(&q, size, r->la, VA_A, NBLK * BS);
	fr_post_ok(r->a, &q, size, MLX5_OPCODE_RDMA_WRITE);
	for (i = 0; i < NBLK; i++) {
		u8 *blk = m + i * (BS + 8);

		KUNIT_EXPECT_EQ(test, memcmp(blk, r->pat + i * BS, BS), 0);
		KUNIT_EXPECT_EQ(test, get_unaligned_be16(blk + BS),
				crc_t10dif_update(0xffff, r->pat + i * BS, BS));
		KUNIT_EXPECT_EQ(test, get_unaligned_be16(blk + BS + 2),
				0x1111);
		KUNIT_EXPECT_EQ(test, get_unaligned_be32(blk + BS + 4),
				0x100 + i);
	}
	KUNIT_EXPECT_EQ(test, m[NBLK * (BS + 8)], 0xee);
	KUNIT_EXPECT_FALSE(test, ft_poll(r->b, &cqe));

	memset(r->ma.cpu + 8192, 0, NBLK * BS);
	size = fr_wqe(&q, key, 0);
	size = fr_sge(&q, size, r->la, VA_A + 8192, NBLK * BS);
	fr_post_ok(r->a, &q, size, MLX5_OPCODE_RDMA_READ);
	KUNIT_EXPECT_EQ(test, memcmp(r->ma.cpu + 8192, r->pat, NBLK * BS), 0);
	KUNIT_EXPECT_FALSE(test, ft_poll(r->b, &cqe));

	ft_del_mkey(r->b, key);
	ft_destroy_psv(r->b, psv);
	fr_teardown(r);
}

/*
 * A failed check adds a SIG_ERR CQE on the CQ of the QP whose access found
 * it, and the WQE still succeeds with its data moved: a READ through a
 * responder signature rkey with a corrupted block -> on b's CQ; a WRITE
 * from a requester signature lkey with a corrupted block -> on a's CQ,
 * before a's success CQE; the other CQ stays empty each time.
 */
static void fake_rdma_sig_err_cq(struct kunit *test)
{
	struct ft_umr *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct fr *r = fr_setup(test);
	struct mlx5_cqe64 cqe;
	struct fr_wqe q;
	u32 pb, pa, kb, ka;
	u16 idx;
	size_t size;

	KUNIT_ASSERT_NOT_NULL(test, w);
	/* b: protected blocks written through its key, block 1 corrupted */
	pb = ft_psv(r->b);
	kb = fr_sig_key(r->b, r->rb, VA_B, pb, w);
	size = fr_wqe(&q, kb, 0);
	size = fr_sge(&q, size, r->la, VA_A, NBLK * BS);
	fr_post_ok(r->a, &q, size, MLX5_OPCODE_RDMA_WRITE);
	((u8 *)r->mb.cpu)[1 * (BS + 8) + 5] ^= 1;

	size = fr_wqe(&q, kb, 0);
	size = fr_sge(&q, size, r->la, VA_A + 8192, NBLK * BS);
	fr_post_ok(r->a, &q, size, MLX5_OPCODE_RDMA_READ);
	KUNIT_EXPECT_EQ(test, memcmp(r->ma.cpu + 8192, r->pat, BS), 0);
	KUNIT_EXPECT_EQ(test, ((u8 *)r->ma.cpu)[8192 + BS + 5],
			r->pat[BS + 5] ^ 1);
	fr_expect_sig_err(r->b, kb, 2 * (BS + 8) - 1);
	KUNIT_EXPECT_FALSE(test, ft_poll(r->b, &cqe));
	fr_expect_state(r->b, MLX5_QP_STATE_RTS);

	/* a: its own protected copy (b's bytes, PI included), block 2 bad */
	memcpy(r->ma.cpu + 8192, r->mb.cpu, NBLK * (BS + 8));
	((u8 *)r->ma.cpu)[8192 + 1 * (BS + 8) + 5] ^= 1;
	((u8 *)r->ma.cpu)[8192 + 2 * (BS + 8) + 9] ^= 4;
	pa = ft_psv(r->a);
	ka = fr_sig_key(r->a, r->la, VA_A + 8192, pa, w);
	memset(r->mb.cpu, 0xee, MR_SIZE);
	size = fr_wqe(&q, r->rb, VA_B);
	size = fr_sge(&q, size, ka, 0, NBLK * BS);
	idx = ft_post(r->a, &q, size, MLX5_OPCODE_RDMA_WRITE, true);
	fr_expect_sig_err(r->a, ka, 3 * (BS + 8) - 1);
	KUNIT_ASSERT_TRUE(test, ft_poll(r->a, &cqe));
	KUNIT_EXPECT_EQ(test, cqe.op_own >> 4, MLX5_CQE_REQ);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(cqe.wqe_counter), idx);
	KUNIT_EXPECT_EQ(test, memcmp(r->mb.cpu, r->pat, 2 * BS), 0);
	KUNIT_EXPECT_FALSE(test, ft_poll(r->b, &cqe));

	ft_del_mkey(r->a, ka);
	ft_del_mkey(r->b, kb);
	ft_destroy_psv(r->a, pa);
	ft_destroy_psv(r->b, pb);
	fr_teardown(r);
}

static struct kunit_case fake_rdma_cases[] = {
	KUNIT_CASE(fake_rdma_write_read),
	KUNIT_CASE(fake_rdma_remote_access),
	KUNIT_CASE(fake_rdma_local_errors),
	KUNIT_CASE(fake_rdma_no_peer),
	KUNIT_CASE(fake_rdma_reg_umr_refused),
	KUNIT_CASE(fake_rdma_sig_insert),
	KUNIT_CASE(fake_rdma_sig_err_cq),
	{}
};

static struct kunit_suite fake_rdma_suite = {
	.name = "mlx5_umr_fake_rdma",
	.test_cases = fake_rdma_cases,
};

kunit_test_suite(fake_rdma_suite);

MODULE_DESCRIPTION("KUnit tests of the fake mlx5 HCA's RC data path");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
