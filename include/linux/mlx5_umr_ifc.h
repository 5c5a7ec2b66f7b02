/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: wire definitions the headers in include/linux/mlx5/ of a
 * supported kernel (6.1, 6.12) lack.
 *
 * Keep this small: everything here must be absent from mlx5_ifc.h, qp.h,
 * device.h and cq.h of a supported kernel, defined only where that kernel
 * has none, and each entry cites where it comes from.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _LINUX_MLX5_UMR_IFC_H
#define _LINUX_MLX5_UMR_IFC_H

#include <linux/bits.h>
#include <linux/mlx5/device.h>

/*
 * UMR translation alignment: 64 bytes of translation entries, a KLM list a
 * multiple of 4 entries (mlx5_ib umr.c). 6.12's device.h names them
 * MLX5_UMR_FLEX_ALIGNMENT and MLX5_UMR_KLM_NUM_ENTRIES_ALIGNMENT; 6.1's
 * MLX5_UMR_MTT_ALIGNMENT and MLX5_UMR_KLM_ALIGNMENT. Drop with 6.1.
 */
#ifndef MLX5_UMR_FLEX_ALIGNMENT
#define MLX5_UMR_FLEX_ALIGNMENT MLX5_UMR_MTT_ALIGNMENT
#endif
#ifndef MLX5_UMR_KLM_NUM_ENTRIES_ALIGNMENT
#define MLX5_UMR_KLM_NUM_ENTRIES_ALIGNMENT MLX5_UMR_KLM_ALIGNMENT
#endif

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
