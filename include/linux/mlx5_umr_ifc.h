/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: wire definitions the 6.1 headers in include/linux/mlx5/ lack.
 *
 * Keep this small: everything here must be absent from mlx5_ifc.h, qp.h,
 * device.h and cq.h of Linux 6.1, and each entry cites where it comes from.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _LINUX_MLX5_UMR_IFC_H
#define _LINUX_MLX5_UMR_IFC_H

#include <linux/bits.h>

/*
 * MTT entry (struct mlx5_mtt.ptag) access bits: the low bits of a page
 * address in an MTT say the page may be read and/or written. 6.1 keeps
 * them private to the IB driver (drivers/infiniband/hw/mlx5/mlx5_ib.h:
 * enum mlx5_ib_mtt_access_flags, MLX5_IB_MTT_PRESENT), and mr.c/umr.c
 * (mlx5r_umr_update_mr_pas()) write every page as present.
 */
#define MLX5_UMR_MTT_READ	BIT_ULL(0)
#define MLX5_UMR_MTT_WRITE	BIT_ULL(1)
#define MLX5_UMR_MTT_PRESENT	(MLX5_UMR_MTT_READ | MLX5_UMR_MTT_WRITE)

#endif /* _LINUX_MLX5_UMR_IFC_H */
