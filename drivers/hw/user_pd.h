/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: a user's verbs PD, proven to be the caller's (user_pd.c).
 * Shared by the hardware backend and, in test builds, the fake HCA.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _MLX5_UMR_USER_PD_H
#define _MLX5_UMR_USER_PD_H

#include <linux/types.h>

struct file;
struct ib_device;
struct ib_pd;

struct ib_pd *mlx5_umr_user_pd_get(struct ib_device *ibdev,
				   struct file *verbs, u32 handle, u32 id);
void mlx5_umr_user_pd_put(struct ib_pd *pd);

#endif /* _MLX5_UMR_USER_PD_H */
