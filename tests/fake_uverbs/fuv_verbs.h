/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Verbs steps the fake_uverbs programs (fuv_test, fuv_diff, fuv_svc) share:
 * a PD's HCA number, and an RC QP brought to RTS on the fake's one port.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef FUV_VERBS_H
#define FUV_VERBS_H

#include <string.h>
#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

/* The HCA's number of @pd (struct mlx5dv_pd.pdn), or ~0. */
static inline __u32 fuv_pdn(struct ibv_pd *pd)
{
	struct mlx5dv_pd dvpd = {};
	struct mlx5dv_obj obj = { .pd = { .in = pd, .out = &dvpd } };

	if (mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD))
		return ~0u;
	return dvpd.pdn;
}

/* RESET -> INIT -> RTR -> RTS, connected to @dest on this port (LID 1). */
static inline int fuv_to_rts(struct ibv_qp *qp, uint32_t dest)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.dlid = 1;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -2;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			  IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		return -3;
	return 0;
}

#endif /* FUV_VERBS_H */
