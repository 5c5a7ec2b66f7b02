/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: service core internals.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_CORE_H
#define MLX5_UMR_CORE_H

#include <linux/list.h>

struct mlx5_umr_hca;

/**
 * struct mlx5_umr_dev - the UMR service bound to one HCA
 * @list: entry on the registry, under mlx5_umr_devs_lock
 * @hca: the backend's HCA
 */
struct mlx5_umr_dev {
	struct list_head list;
	struct mlx5_umr_hca *hca;
};

#endif /* MLX5_UMR_CORE_H */
