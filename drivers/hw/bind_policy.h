/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr hardware backend: which ib_devices it binds, and why not the
 * others. Pure: no mlx5_core or ib_core symbols, KUnit-tested on UML.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _MLX5_UMR_HW_BIND_POLICY_H
#define _MLX5_UMR_HW_BIND_POLICY_H

#include <linux/types.h>
#include <rdma/ib_user_ioctl_verbs.h>

/**
 * enum mlx5_umr_hw_verdict - what the backend does with an ib_device
 * @MLX5_UMR_HW_BIND: an mlx5 PF or VF: offer it to the UMR service
 * @MLX5_UMR_HW_NOT_MLX5: another RDMA driver (rxe, siw, ...)
 * @MLX5_UMR_HW_NOT_PCI: mlx5 ib_device whose parent is not a PCI function,
 *	i.e. a sub-function (its parent is an auxiliary device whose drvdata
 *	is mlx5_core's private struct mlx5_sf_dev)
 * @MLX5_UMR_HW_NOT_MLX5_CORE: the PCI parent is not bound to mlx5_core,
 *	so its drvdata is not a struct mlx5_core_dev
 * @MLX5_UMR_HW_NO_MDEV: the parent's drvdata is not the mlx5_core_dev
 *	whose ->device is that parent (layout assumption broken)
 * @MLX5_UMR_HW_MULTIPORT: dual-port RoCE affiliation is enabled: the
 *	ib_device spans two PCI functions and mlx5_ib routes per-port
 *	resources to the native port's function; not supported
 * @MLX5_UMR_HW_NR_VERDICTS: number of verdicts
 */
enum mlx5_umr_hw_verdict {
	MLX5_UMR_HW_BIND,
	MLX5_UMR_HW_NOT_MLX5,
	MLX5_UMR_HW_NOT_PCI,
	MLX5_UMR_HW_NOT_MLX5_CORE,
	MLX5_UMR_HW_NO_MDEV,
	MLX5_UMR_HW_MULTIPORT,
	MLX5_UMR_HW_NR_VERDICTS
};

/* Name of mlx5_core's PCI driver (KBUILD_MODNAME of mlx5_core). */
#define MLX5_UMR_HW_CORE_DRIVER "mlx5_core"

enum mlx5_umr_hw_verdict
mlx5_umr_hw_classify(enum rdma_driver_id driver_id, bool parent_is_pci,
		     const char *parent_driver);
const char *mlx5_umr_hw_verdict_name(enum mlx5_umr_hw_verdict verdict);

#endif /* _MLX5_UMR_HW_BIND_POLICY_H */
