// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr hardware backend: which ib_devices it binds.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/string.h>

#include "bind_policy.h"

/**
 * mlx5_umr_hw_classify() - decide whether to bind an ib_device
 * @driver_id: the ib_device's ops.driver_id
 * @parent_is_pci: the ib_device's parent (mlx5: mdev->device) is a PCI device
 * @parent_driver: name of the driver bound to that parent, or NULL
 *
 * Only the PCI path is trusted: for a PF or VF, mlx5_ib sets the ib_device's
 * parent to mdev->device, which is &pdev->dev, and mlx5_core stores the
 * mlx5_core_dev as that PCI device's drvdata. Multiport is checked by the
 * caller once it holds the mlx5_core_dev.
 *
 * Return: MLX5_UMR_HW_BIND or the reason to ignore the device.
 */
enum mlx5_umr_hw_verdict
mlx5_umr_hw_classify(enum rdma_driver_id driver_id, bool parent_is_pci,
		     const char *parent_driver)
{
	if (driver_id != RDMA_DRIVER_MLX5)
		return MLX5_UMR_HW_NOT_MLX5;
	if (!parent_is_pci)
		return MLX5_UMR_HW_NOT_PCI;
	if (!parent_driver || strcmp(parent_driver, MLX5_UMR_HW_CORE_DRIVER))
		return MLX5_UMR_HW_NOT_MLX5_CORE;
	return MLX5_UMR_HW_BIND;
}

static const char * const mlx5_umr_hw_verdict_names[] = {
	[MLX5_UMR_HW_BIND] = "bound",
	[MLX5_UMR_HW_NOT_MLX5] = "not-mlx5",
	[MLX5_UMR_HW_NOT_PCI] = "not-pci(sub-function?)",
	[MLX5_UMR_HW_NOT_MLX5_CORE] = "parent-not-mlx5_core",
	[MLX5_UMR_HW_NO_MDEV] = "no-mlx5_core_dev",
	[MLX5_UMR_HW_MULTIPORT] = "multiport-unsupported",
};

/**
 * mlx5_umr_hw_verdict_name() - one-word name of a verdict, for logs and debugfs
 * @verdict: a verdict
 *
 * Return: a static string; "unknown" for an out-of-range value.
 */
const char *mlx5_umr_hw_verdict_name(enum mlx5_umr_hw_verdict verdict)
{
	if ((unsigned int)verdict >= ARRAY_SIZE(mlx5_umr_hw_verdict_names))
		return "unknown";
	return mlx5_umr_hw_verdict_names[verdict];
}
