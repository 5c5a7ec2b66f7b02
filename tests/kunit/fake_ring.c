// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr KUnit helpers: WQEs posted on the fake's send queue and CQEs
 * polled from its CQ by hand, as a driver of the fake would.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/io.h>
#include <linux/mlx5/doorbell.h>

#include "umr_kunit.h"

/**
 * ft_ring_copy() - copy a WQE into the ring at @ft->pi, wrapping per WQEBB
 * @ft: the fake's objects
 * @wqe: the WQE
 * @size: its size in bytes
 */
void ft_ring_copy(struct ft *ft, const void *wqe, size_t size)
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
EXPORT_SYMBOL_NS_GPL(ft_ring_copy, MLX5_UMR_KUNIT);

/**
 * ft_post_nodb() - write one WQE to the ring without ringing the doorbell
 * @ft: the fake's objects
 * @wqe: the WQE, ctrl segment first; its opcode, index, qpn and ds are
 *	filled here
 * @size: its size in bytes
 * @opcode: MLX5_OPCODE_*
 * @signalled: ask for a CQE
 *
 * Return: the WQE's index.
 */
u16 ft_post_nodb(struct ft *ft, void *wqe, size_t size, u8 opcode,
		 bool signalled)
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
EXPORT_SYMBOL_NS_GPL(ft_post_nodb, MLX5_UMR_KUNIT);

/**
 * ft_ring() - publish @ft->pi in the doorbell record and ring the doorbell
 * @ft: the fake's objects
 * @last_ctrl: the ctrl segment of the last WQE posted
 */
void ft_ring(struct ft *ft, const void *last_ctrl)
{
	__be32 *dbr = ft->db.cpu + FT_QP_DBR;
	__be32 val[2];

	memcpy(val, last_ctrl, sizeof(val));
	wmb(); /* WQE before doorbell record */
	dbr[MLX5_SND_DBR] = cpu_to_be32(ft->pi);
	wmb(); /* doorbell record before doorbell */
	ft->hca->ops->write_db(ft->hca, &ft->uar, MLX5_BF_OFFSET, val);
}
EXPORT_SYMBOL_NS_GPL(ft_ring, MLX5_UMR_KUNIT);

/**
 * ft_post() - ft_post_nodb() and ring
 * @ft: the fake's objects
 * @wqe: the WQE
 * @size: its size in bytes
 * @opcode: MLX5_OPCODE_*
 * @signalled: ask for a CQE
 *
 * Return: the WQE's index.
 */
u16 ft_post(struct ft *ft, void *wqe, size_t size, u8 opcode, bool signalled)
{
	u16 idx = ft_post_nodb(ft, wqe, size, opcode, signalled);

	ft_ring(ft, wqe);
	return idx;
}
EXPORT_SYMBOL_NS_GPL(ft_post, MLX5_UMR_KUNIT);

/**
 * ft_poll() - poll one CQE and update the CQ's doorbell record
 * @ft: the fake's objects
 * @out: the CQE
 *
 * Return: false when none is ready.
 */
bool ft_poll(struct ft *ft, struct mlx5_cqe64 *out)
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
EXPORT_SYMBOL_NS_GPL(ft_poll, MLX5_UMR_KUNIT);

/**
 * ft_arm() - arm @ft's CQ for the next completion
 * @ft: the fake's objects
 */
void ft_arm(struct ft *ft)
{
	__be32 val[2];

	val[0] = cpu_to_be32(MLX5_CQ_DB_REQ_NOT | (ft->cq_ci & 0xffffff));
	val[1] = cpu_to_be32(ft->cq.cqn);
	ft->hca->ops->write_db(ft->hca, &ft->uar, MLX5_CQ_DOORBELL, val);
}
EXPORT_SYMBOL_NS_GPL(ft_arm, MLX5_UMR_KUNIT);

/**
 * ft_umr_init() - start a UMR WQE that enables @key
 * @w: the WQE
 * @key: the mkey (free = 0 afterwards)
 * @access: FT_LW | FT_RR | FT_RW (lr always)
 * @len: the mkey's length
 * @xlt: inline translation entries
 * @xlt_bytes: their size (padded to 64 bytes)
 *
 * Return: the WQE's size.
 */
size_t ft_umr_init(struct ft_umr *w, u32 key, u8 access, u64 len,
		   const void *xlt, size_t xlt_bytes)
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
EXPORT_SYMBOL_NS_GPL(ft_umr_init, MLX5_UMR_KUNIT);

/**
 * ft_post_ok() - post a signalled WQE and expect a good CQE for it
 * @ft: the fake's objects
 * @w: the WQE
 * @size: its size in bytes
 * @opcode: MLX5_OPCODE_*
 */
void ft_post_ok(struct ft *ft, void *w, size_t size, u8 opcode)
{
	struct mlx5_cqe64 cqe;
	u16 idx = ft_post(ft, w, size, opcode, true);

	KUNIT_ASSERT_TRUE(ft->test, ft_poll(ft, &cqe));
	KUNIT_ASSERT_EQ(ft->test, cqe.op_own >> 4, MLX5_CQE_REQ);
	KUNIT_EXPECT_EQ(ft->test, be16_to_cpu(cqe.wqe_counter), idx);
}
EXPORT_SYMBOL_NS_GPL(ft_post_ok, MLX5_UMR_KUNIT);

/**
 * ft_umr_ok() - post a UMR WQE and expect a good CQE for it
 * @ft: the fake's objects
 * @w: the WQE
 * @size: its size (from ft_umr_init())
 */
void ft_umr_ok(struct ft *ft, struct ft_umr *w, size_t size)
{
	ft_post_ok(ft, w, size, MLX5_OPCODE_UMR);
}
EXPORT_SYMBOL_NS_GPL(ft_umr_ok, MLX5_UMR_KUNIT);

/**
 * ft_expect_err() - post a WQE and expect an error CQE, the QP in ERR
 * @ft: the fake's objects
 * @w: the WQE
 * @size: its size in bytes
 * @opcode: MLX5_OPCODE_*
 * @synd: the CQE's syndrome
 * @vsynd: its vendor syndrome
 */
void ft_expect_err(struct ft *ft, void *w, size_t size, u8 opcode, u8 synd,
		   u8 vsynd)
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
EXPORT_SYMBOL_NS_GPL(ft_expect_err, MLX5_UMR_KUNIT);
