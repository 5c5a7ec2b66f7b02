/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: how many device queues, and which CPU posts on which.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_QUEUE_MAP_H
#define MLX5_UMR_QUEUE_MAP_H

#include <linux/types.h>
/* EXPORT_SYMBOL_IF_MLX5_UMR_TESTING() of the pure map */
#include <linux/mlx5_umr_testing.h>

/*
 * Most device queues: one per CPU up to this many. Each takes a QP, a CQ,
 * 64 KiB of ring and 32 KiB of CQEs (MLX5_UMR_LOG_SQ_BBS).
 */
#define MLX5_UMR_MAX_QUEUES	64

u16 mlx5_umr_queue_count(unsigned int hint, unsigned int hca_max);
int mlx5_umr_queue_map_cpus(const unsigned long *possible,
			    const int *cpu_node, unsigned int ncpus,
			    unsigned int nnodes, u16 nq, u16 *cpu_q);
int mlx5_umr_queue_map(u16 *cpu_q, u16 nq);

#endif /* MLX5_UMR_QUEUE_MAP_H */
