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

static struct kunit_case fake_qps_cases[] = {
	KUNIT_CASE(fake_wqe_stall_one_qp),
	KUNIT_CASE(fake_wqe_error_one_qp),
	KUNIT_CASE(fake_wqe_drop_cqe_one_qp),
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
