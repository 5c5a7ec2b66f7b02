/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr hardware backend: per-device state.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _MLX5_UMR_HW_H
#define _MLX5_UMR_HW_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mlx5_umr_hca.h>

#include "bind_policy.h"

struct ib_device;
struct mlx5_core_dev;

/**
 * struct mlx5_umr_hw_dev - one ib_device the backend was told about
 * @list: entry on the backend's device list (see main.c)
 * @ibdev: the ib_device, valid from the client's add() to its remove()
 * @verdict: whether it is bound, or why it is ignored
 * @err: when bound by verdict, the error mlx5_umr_register_hca() returned
 * @registered: @hca is registered with the service
 * @mdev: the mlx5_core device (bound devices only)
 * @hca: what the service sees
 * @next_vector: round-robin cursor over completion vectors for new CQs
 * @nr_bufs: DMA buffers handed out and not yet freed
 * @nr_uars: UAR pages handed out and not yet freed
 * @nr_cqs: CQs created and not yet destroyed
 * @nr_cq_events: asynchronous CQ error events seen
 */
struct mlx5_umr_hw_dev {
	struct list_head list;
	struct ib_device *ibdev;
	enum mlx5_umr_hw_verdict verdict;
	int err;
	bool registered;
	struct mlx5_core_dev *mdev;
	struct mlx5_umr_hca hca;
	atomic_t next_vector;
	atomic_t nr_bufs;
	atomic_t nr_uars;
	atomic_t nr_cqs;
	atomic_t nr_cq_events;
};

extern const struct mlx5_umr_hca_ops mlx5_umr_hw_ops;

#endif /* _MLX5_UMR_HW_H */
