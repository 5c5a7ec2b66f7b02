// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: faults of one QP among several (a stalled engine, an error CQE, a
 * lost CQE) leave the device's other QPs running, as on a HCA whose send
 * queues run independently. Objects and WQEs are built by hand.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "umr_kunit.h"

struct fq_nop {
	struct mlx5_wqe_ctrl_seg ctrl;
};

static u16 fq_nop(struct ft *ft, bool signalled)
{
	struct fq_nop nop = {};

	return ft_post(ft, &nop, sizeof(nop), MLX5_OPCODE_NOP, signalled);
}

/* The next CQE of @ft is a successful NOP's, for WQE @idx. */
static void fq_expect_cqe(struct ft *ft, u16 idx)
{
	struct mlx5_cqe64 cqe;

	KUNIT_ASSERT_TRUE(ft->test, ft_poll(ft, &cqe));
	KUNIT_EXPECT_EQ(ft->test, cqe.op_own >> 4, MLX5_CQE_REQ);
	KUNIT_EXPECT_EQ(ft->test, be16_to_cpu(cqe.wqe_counter), idx);
	KUNIT_EXPECT_EQ(ft->test, be32_to_cpu(cqe.sop_drop_qpn),
			(u32)MLX5_OPCODE_NOP << 24 | ft->qpn);
}

/* The next CQE of @ft is an error CQE of a NOP at @idx. */
static void fq_expect_err(struct ft *ft, u16 idx, u8 synd, u8 vsynd)
{
	struct mlx5_cqe64 cqe;
	struct mlx5_err_cqe *err = (void *)&cqe;

	KUNIT_ASSERT_TRUE(ft->test, ft_poll(ft, &cqe));
	KUNIT_EXPECT_EQ(ft->test, err->op_own >> 4, MLX5_CQE_REQ_ERR);
	KUNIT_EXPECT_EQ(ft->test, err->syndrome, synd);
	KUNIT_EXPECT_EQ(ft->test, err->vendor_err_synd, vsynd);
	KUNIT_EXPECT_EQ(ft->test, be16_to_cpu(err->wqe_counter), idx);
	KUNIT_EXPECT_EQ(ft->test, be32_to_cpu(err->s_wqe_opcode_qpn),
			(u32)MLX5_OPCODE_NOP << 24 | ft->qpn);
}

static void fq_expect_ci(struct ft *ft, int state, u16 ci)
{
	u16 got;

	KUNIT_EXPECT_EQ(ft->test, mlx5_umr_fake_qp_state(ft->fake, ft->qpn,
							 &got), state);
	KUNIT_EXPECT_EQ(ft->test, got, ci);
}

/* Counters moved by exactly this since @before. */
static void fq_expect_moved(struct ft *ft,
			    const struct mlx5_umr_fake_counters *before,
			    u64 dbs, u64 wqes, u64 cqes, u64 err, u64 flush)
{
	struct mlx5_umr_fake_counters c;

	mlx5_umr_fake_get_counters(ft->fake, &c);
	KUNIT_EXPECT_EQ(ft->test, c.send_doorbells - before->send_doorbells,
			dbs);
	KUNIT_EXPECT_EQ(ft->test, c.wqes - before->wqes, wqes);
	KUNIT_EXPECT_EQ(ft->test, c.cqes - before->cqes, cqes);
	KUNIT_EXPECT_EQ(ft->test, c.err_cqes - before->err_cqes, err);
	KUNIT_EXPECT_EQ(ft->test, c.flush_cqes - before->flush_cqes, flush);
	KUNIT_EXPECT_EQ(ft->test, c.bad_doorbells, 0ULL);
}

/*
 * QP A stalled: its doorbells are taken but nothing of it executes, not
 * even the flush of 2ERR, while QP B (another CQ, same device) completes.
 * On release A runs what its record shows, in order.
 */
static void fake_wqe_stall_one_qp(struct kunit *test)
{
	struct ft *a = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct ft *b = ft_setup_on(test, a->fake, 6, 6);
	struct mlx5_umr_fake_counters before;
	u32 out[MLX5_ST_SZ_DW(rst2init_qp_out)];
	struct mlx5_cqe64 cqe;

	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_stall_qp(a->fake, 0xfffff, true),
			-ENOENT);
	mlx5_umr_fake_get_counters(a->fake, &before);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_stall_qp(a->fake, a->qpn, true), 0);
	KUNIT_EXPECT_EQ(test, fq_nop(a, true), 0);
	KUNIT_EXPECT_EQ(test, fq_nop(b, true), 0);
	KUNIT_EXPECT_EQ(test, fq_nop(a, true), 1);
	KUNIT_EXPECT_EQ(test, fq_nop(b, false), 1);
	KUNIT_EXPECT_EQ(test, fq_nop(b, true), 2);

	fq_expect_cqe(b, 0);
	fq_expect_cqe(b, 2);
	KUNIT_EXPECT_FALSE(test, ft_poll(b, &cqe));
	KUNIT_EXPECT_FALSE(test, ft_poll(a, &cqe));
	fq_expect_ci(a, MLX5_QP_STATE_RTS, 0);
	fq_expect_ci(b, MLX5_QP_STATE_RTS, 3);
	fq_expect_moved(a, &before, 5, 3, 2, 0, 0);

	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_stall_qp(a->fake, a->qpn, false),
			0);
	fq_expect_cqe(a, 0);
	fq_expect_cqe(a, 1);
	KUNIT_EXPECT_FALSE(test, ft_poll(a, &cqe));
	fq_expect_ci(a, MLX5_QP_STATE_RTS, 2);
	fq_expect_moved(a, &before, 5, 5, 4, 0, 0);

	/* stalled in ERR: 2ERR flushes nothing until the release */
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_stall_qp(a->fake, a->qpn, true), 0);
	KUNIT_EXPECT_EQ(test, fq_nop(a, true), 2);
	KUNIT_ASSERT_EQ(test, ft_qp_cmd(a, MLX5_CMD_OP_2ERR_QP, a->qpn, out), 0);
	fq_expect_ci(a, MLX5_QP_STATE_ERR, 2);
	KUNIT_EXPECT_FALSE(test, ft_poll(a, &cqe));
	KUNIT_EXPECT_EQ(test, fq_nop(b, true), 3);
	fq_expect_cqe(b, 3);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_stall_qp(a->fake, a->qpn, false),
			0);
	fq_expect_err(a, 2, MLX5_CQE_SYNDROME_WR_FLUSH_ERR,
		      MLX5_UMR_FAKE_VS_NONE);
	KUNIT_EXPECT_FALSE(test, ft_poll(a, &cqe));
	fq_expect_ci(a, MLX5_QP_STATE_ERR, 3);
	fq_expect_ci(b, MLX5_QP_STATE_RTS, 4);
	fq_expect_moved(a, &before, 7, 6, 6, 0, 1);
	ft_teardown(b);
	ft_teardown(a);
}

/*
 * An error injected for QP A fails A's next WQE only: B's WQEs posted
 * before and after it succeed, A flushes until reset, B stays in RTS. The
 * device-wide injection, by contrast, takes the next WQE of any QP.
 */
static void fake_wqe_error_one_qp(struct kunit *test)
{
	struct ft *a = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct ft *b = ft_setup_on(test, a->fake, 6, 6);
	struct mlx5_umr_fake_counters before;
	struct mlx5_cqe64 cqe;
	int err;

	KUNIT_EXPECT_EQ(test,
			mlx5_umr_fake_inject_wqe_error_qp(a->fake, 0xfffff,
							  0x04, 0x42),
			-ENOENT);
	mlx5_umr_fake_get_counters(a->fake, &before);
	err = mlx5_umr_fake_inject_wqe_error_qp(a->fake, a->qpn,
						MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
						MLX5_UMR_FAKE_VS_INJECTED);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, fq_nop(b, true), 0);
	fq_expect_cqe(b, 0);
	KUNIT_EXPECT_EQ(test, fq_nop(a, true), 0);
	fq_expect_err(a, 0, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		      MLX5_UMR_FAKE_VS_INJECTED);
	fq_expect_ci(a, MLX5_QP_STATE_ERR, 1);
	KUNIT_EXPECT_EQ(test, fq_nop(a, false), 1);
	fq_expect_err(a, 1, MLX5_CQE_SYNDROME_WR_FLUSH_ERR,
		      MLX5_UMR_FAKE_VS_NONE);
	KUNIT_EXPECT_EQ(test, fq_nop(b, true), 1);
	fq_expect_cqe(b, 1);
	KUNIT_EXPECT_FALSE(test, ft_poll(a, &cqe));
	KUNIT_EXPECT_FALSE(test, ft_poll(b, &cqe));
	fq_expect_ci(b, MLX5_QP_STATE_RTS, 2);
	fq_expect_moved(a, &before, 4, 2, 4, 1, 1);

	/* consumed: A's next WQE after a reset succeeds */
	ft_qp_recover(a);
	KUNIT_EXPECT_EQ(test, fq_nop(a, true), 0);
	fq_expect_cqe(a, 0);

	/* the device-wide one hits whichever QP executes next: here B */
	mlx5_umr_fake_inject_wqe_error(a->fake, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       MLX5_UMR_FAKE_VS_INJECTED);
	KUNIT_EXPECT_EQ(test, fq_nop(b, true), 2);
	fq_expect_err(b, 2, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		      MLX5_UMR_FAKE_VS_INJECTED);
	KUNIT_EXPECT_EQ(test, fq_nop(a, true), 1);
	fq_expect_cqe(a, 1);
	fq_expect_ci(a, MLX5_QP_STATE_RTS, 2);
	fq_expect_ci(b, MLX5_QP_STATE_ERR, 3);
	fq_expect_moved(a, &before, 7, 4, 7, 2, 1);
	ft_teardown(b);
	ft_teardown(a);
}

/* A's lost CQEs are A's: B's CQEs are all written meanwhile. */
static void fake_wqe_drop_cqe_one_qp(struct kunit *test)
{
	struct ft *a = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct ft *b = ft_setup_on(test, a->fake, 6, 6);
	struct mlx5_umr_fake_counters before;
	struct mlx5_cqe64 cqe;

	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_inject_drop_cqe_qp(a->fake,
							       0xfffff, 1),
			-ENOENT);
	mlx5_umr_fake_get_counters(a->fake, &before);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_inject_drop_cqe_qp(a->fake, a->qpn,
							       2), 0);
	KUNIT_EXPECT_EQ(test, fq_nop(b, true), 0);
	KUNIT_EXPECT_EQ(test, fq_nop(a, true), 0);
	KUNIT_EXPECT_EQ(test, fq_nop(b, true), 1);
	KUNIT_EXPECT_EQ(test, fq_nop(a, true), 1);
	KUNIT_EXPECT_EQ(test, fq_nop(a, true), 2);
	fq_expect_cqe(b, 0);
	fq_expect_cqe(b, 1);
	fq_expect_cqe(a, 2);
	KUNIT_EXPECT_FALSE(test, ft_poll(a, &cqe));
	KUNIT_EXPECT_FALSE(test, ft_poll(b, &cqe));
	/* executed all the same: only the CQEs are lost */
	fq_expect_ci(a, MLX5_QP_STATE_RTS, 3);
	fq_expect_moved(a, &before, 5, 5, 3, 0, 0);
	ft_teardown(b);
	ft_teardown(a);
}

/*
 * The execution log: WQEs of two QPs in the order they ran, with what each
 * named and how it ended; a flushed WQE is not executed and not logged; a
 * full log counts what it could not keep; a stopped log keeps its entries.
 */
static void fake_exec_log(struct kunit *test)
{
	struct ft *a = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	struct ft *b = ft_setup_on(test, a->fake, 6, 6);
	struct ft_umr *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct mlx5_umr_fake_exec_ent e[8];
	struct mlx5_umr_dma_buf mr;
	unsigned int dropped;
	struct mlx5_klm klm;
	struct mlx5_cqe64 cqe;
	u32 k1, key;
	size_t size;

	KUNIT_ASSERT_NOT_NULL(test, w);
	k1 = ft_mr(a, &mr, PAGE_SIZE, 0x1000, FT_LW);
	key = ft_indirect(a, 4);
	ft_klm(&klm, 100, k1, 0x1000);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_exec_log_start(a->fake, 0),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_exec_log_start(a->fake, 4), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_exec_log_start(a->fake, 4),
			-EBUSY);

	/* indexes count basic blocks: a UMR with its inline KLMs takes 3 */
	size = ft_umr_init(w, key, FT_RR, 100, &klm, sizeof(klm));
	ft_umr_ok(a, w, size);				/* A 0: configure */
	fq_nop(b, true);				/* B 0 */
	fq_expect_cqe(b, 0);
	ft_umr_init(w, key, 0, 0, NULL, 0);		/* A 3: invalidate */
	w->uc.flags = 0;
	w->uc.xlt_octowords = 0;
	w->uc.mkey_mask = cpu_to_be64(MLX5_MKEY_MASK_FREE);
	MLX5_SET(mkc, &w->mkey, free, 1);
	ft_post_ok(a, w, 128, MLX5_OPCODE_UMR);
	ft_umr_init(w, 0xfffff5a, FT_RR, 100, &klm, sizeof(klm));
	ft_expect_err(b, w, size, MLX5_OPCODE_UMR,	/* B 1: unknown key */
		      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
		      MLX5_UMR_FAKE_VS_MKEY_UNKNOWN);
	fq_nop(b, true);				/* B 4: flushed */
	fq_expect_err(b, 4, MLX5_CQE_SYNDROME_WR_FLUSH_ERR,
		      MLX5_UMR_FAKE_VS_NONE);
	fq_nop(a, true);				/* A 5: no room */
	fq_expect_cqe(a, 5);
	KUNIT_EXPECT_FALSE(test, ft_poll(b, &cqe));

	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_exec_log_read(a->fake, 0, e,
							  ARRAY_SIZE(e),
							  &dropped), 4U);
	KUNIT_EXPECT_EQ(test, dropped, 1U);
	KUNIT_EXPECT_EQ(test, e[0].qpn, a->qpn);
	KUNIT_EXPECT_EQ(test, e[0].wqe_idx, 0);
	KUNIT_EXPECT_EQ(test, e[0].opcode, MLX5_OPCODE_UMR);
	KUNIT_EXPECT_EQ(test, e[0].index, key >> 8);
	KUNIT_EXPECT_EQ(test, e[0].key, key & 0xff);
	KUNIT_EXPECT_TRUE(test, e[0].mkey_mask & MLX5_MKEY_MASK_KEY);
	KUNIT_EXPECT_FALSE(test, e[0].free);
	KUNIT_EXPECT_EQ(test, e[0].syndrome, 0);
	KUNIT_EXPECT_EQ(test, e[1].qpn, b->qpn);
	KUNIT_EXPECT_EQ(test, e[1].wqe_idx, 0);
	KUNIT_EXPECT_EQ(test, e[1].opcode, MLX5_OPCODE_NOP);
	KUNIT_EXPECT_EQ(test, e[1].index, 0U);
	KUNIT_EXPECT_EQ(test, e[1].syndrome, 0);
	KUNIT_EXPECT_EQ(test, e[2].qpn, a->qpn);
	KUNIT_EXPECT_EQ(test, e[2].wqe_idx, 3);
	KUNIT_EXPECT_EQ(test, e[2].opcode, MLX5_OPCODE_UMR);
	KUNIT_EXPECT_EQ(test, e[2].index, key >> 8);
	KUNIT_EXPECT_EQ(test, e[2].mkey_mask, (u64)MLX5_MKEY_MASK_FREE);
	KUNIT_EXPECT_TRUE(test, e[2].free);
	KUNIT_EXPECT_EQ(test, e[2].syndrome, 0);
	KUNIT_EXPECT_EQ(test, e[3].qpn, b->qpn);
	KUNIT_EXPECT_EQ(test, e[3].wqe_idx, 1);
	KUNIT_EXPECT_EQ(test, e[3].index, 0xfffffU);
	KUNIT_EXPECT_EQ(test, e[3].syndrome, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	KUNIT_EXPECT_EQ(test, e[3].vendor_syndrome,
			MLX5_UMR_FAKE_VS_MKEY_UNKNOWN);
	/* from an entry on */
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_exec_log_read(a->fake, 3, e, 1,
							  NULL), 1U);
	KUNIT_EXPECT_EQ(test, e[0].qpn, b->qpn);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_exec_log_read(a->fake, 4, e, 1,
							  NULL), 0U);

	/* stopped: kept, nothing added, then replaced by a new start */
	mlx5_umr_fake_exec_log_stop(a->fake);
	ft_qp_recover(b);
	fq_nop(b, true);
	fq_expect_cqe(b, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_exec_log_read(a->fake, 0, e,
							  ARRAY_SIZE(e),
							  &dropped), 4U);
	KUNIT_EXPECT_EQ(test, dropped, 1U);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_exec_log_start(a->fake, 2), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_exec_log_read(a->fake, 0, e,
							  ARRAY_SIZE(e),
							  &dropped), 0U);
	KUNIT_EXPECT_EQ(test, dropped, 0U);
	mlx5_umr_fake_exec_log_stop(a->fake);

	ft_del_mkey(a, key);
	ft_del_mkey(a, k1);
	a->hca->ops->free_dma_buf(a->hca, &mr);
	ft_teardown(b);
	ft_teardown(a);
}

/* Where each CQ's completion handler last ran. */
static struct {
	struct ft *ft[2];
	int cpu[2];
	atomic_t calls[2];
} fq_vec;

static void fq_vec_comp(struct mlx5_umr_hca_cq *cq)
{
	struct ft *ft = container_of(cq, struct ft, cq);
	int i = ft == fq_vec.ft[1];

	WRITE_ONCE(fq_vec.cpu[i], raw_smp_processor_id());
	atomic_inc(&fq_vec.calls[i]);
}

/* The @n-th online CPU, counting from 0 and wrapping. */
static int fq_nth_online(unsigned int n)
{
	int cpu;

	n %= num_online_cpus();
	for_each_online_cpu(cpu)
		if (!n--)
			return cpu;
	return -1;
}

/*
 * The fake gives its CQs EQs 0, 1, ... in creation order and runs each
 * EQ's events on its own CPU (the n-th online one), as the interrupt of
 * completion vector n would be: two CQs' events arrive on two CPUs.
 */
static void fake_cq_vector_cpu(struct kunit *test)
{
	struct ft *a = ft_setup(test, 0, NULL, 6, 6);
	struct ft *b = ft_setup_on(test, a->fake, 6, 6);
	unsigned int i;

	fq_vec.ft[0] = a;
	fq_vec.ft[1] = b;
	for (i = 0; i < 2; i++) {
		struct ft *ft = fq_vec.ft[i];

		atomic_set(&fq_vec.calls[i], 0);
		WRITE_ONCE(fq_vec.cpu[i], -1);
		ft->cq.comp = fq_vec_comp;
		ft_arm(ft);
		KUNIT_EXPECT_EQ(test, fq_nop(ft, true), 0);
		mlx5_umr_fake_flush(ft->fake);
		KUNIT_EXPECT_EQ(test, atomic_read(&fq_vec.calls[i]), 1);
		fq_expect_cqe(ft, 0);
	}
	KUNIT_EXPECT_EQ(test, READ_ONCE(fq_vec.cpu[0]), fq_nth_online(0));
	KUNIT_EXPECT_EQ(test, READ_ONCE(fq_vec.cpu[1]), fq_nth_online(1));
	ft_teardown(b);
	ft_teardown(a);
	if (num_online_cpus() < 2)
		kunit_skip(test, "one online CPU: every EQ's events run on it");
	KUNIT_EXPECT_NE(test, fq_vec.cpu[0], fq_vec.cpu[1]);
}

static struct kunit_case fake_qps_cases[] = {
	KUNIT_CASE(fake_wqe_stall_one_qp),
	KUNIT_CASE(fake_wqe_error_one_qp),
	KUNIT_CASE(fake_wqe_drop_cqe_one_qp),
	KUNIT_CASE(fake_exec_log),
	KUNIT_CASE(fake_cq_vector_cpu),
	{}
};

static struct kunit_suite fake_qps_suite = {
	.name = "mlx5_umr_fake_qps",
	.test_cases = fake_qps_cases,
};

kunit_test_suite(fake_qps_suite);

MODULE_DESCRIPTION("KUnit tests of the fake mlx5 HCA: faults of one QP");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
