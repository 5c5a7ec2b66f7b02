// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: protection domains for consumers of the service.
 *
 * The service's own mkeys live in its PD (caps->pdn). A consumer that
 * wants its mkeys isolated from everyone else's on the NIC (the uapi: one
 * PD per open file) allocates a PD here and creates its mkeys in it
 * (mlx5_umr_alloc_mkey_pd(), MLX5_UMR_WR_SET_PD).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/bits.h>
#include <linux/types.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/device.h>

#include "umr.h"

/**
 * mlx5_umr_pd_alloc() - allocate a protection domain on the device
 * @dev: the device
 * @pdn: the new PD's number
 *
 * Context: process context, may sleep.
 * Return: 0, -ENODEV after the device was unregistered, or the command's
 * error.
 */
int mlx5_umr_pd_alloc(struct mlx5_umr_dev *dev, u32 *pdn)
{
	u32 out[MLX5_ST_SZ_DW(alloc_pd_out)] = {};
	u32 in[MLX5_ST_SZ_DW(alloc_pd_in)] = {};
	int err;

	might_sleep();
	if (!percpu_ref_tryget_live(&dev->users))
		return -ENODEV;
	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	err = mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		*pdn = MLX5_GET(alloc_pd_out, out, pd);
	percpu_ref_put(&dev->users);
	return err;
}
EXPORT_SYMBOL(mlx5_umr_pd_alloc);

/**
 * mlx5_umr_pd_free() - free a PD from mlx5_umr_pd_alloc()
 * @dev: the device
 * @pdn: the PD; no mkey may be left in it
 *
 * After the device was unregistered this does nothing (the PD went with
 * the HCA).
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_pd_free(struct mlx5_umr_dev *dev, u32 pdn)
{
	u32 out[MLX5_ST_SZ_DW(dealloc_pd_out)] = {};
	u32 in[MLX5_ST_SZ_DW(dealloc_pd_in)] = {};

	MLX5_SET(dealloc_pd_in, in, opcode, MLX5_CMD_OP_DEALLOC_PD);
	MLX5_SET(dealloc_pd_in, in, pd, pdn);
	/* mkeys_lock keeps dev->hca, as for mlx5_umr_free_mkey() */
	mutex_lock(&dev->mkeys_lock);
	if (dev->hca)
		mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
	mutex_unlock(&dev->mkeys_lock);
}
EXPORT_SYMBOL(mlx5_umr_pd_free);
