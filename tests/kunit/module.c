// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr KUnit helpers (mlx5_umr_kunit.ko): no suite of its own; the
 * test bed loads it as a dependency of the suites that use it.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("Helpers shared by the mlx5 UMR KUnit suites");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
