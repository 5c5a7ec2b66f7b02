// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: tracepoint definitions.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"

#ifdef MLX5_UMR_TESTING
/* mq_stress_test.c records the post order with a probe on it */
EXPORT_TRACEPOINT_SYMBOL_GPL(mlx5_umr_post);
#endif
