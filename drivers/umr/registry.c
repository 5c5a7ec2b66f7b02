// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: registry of HCAs offered by backends.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/mlx5_umr_hca.h>

#include "umr.h"

/* Protects mlx5_umr_devs and the lifetime of every entry on it. */
static DEFINE_MUTEX(mlx5_umr_devs_lock);
static LIST_HEAD(mlx5_umr_devs);

/**
 * mlx5_umr_register_hca() - offer an HCA to the UMR service
 * @hca: the HCA, embedded in the backend's device state
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno; on success @hca->umr is set until
 * mlx5_umr_unregister_hca() returns.
 */
int mlx5_umr_register_hca(struct mlx5_umr_hca *hca)
{
	struct mlx5_umr_dev *udev;

	if (!hca->ops || !hca->ops->cmd_exec || !hca->name[0])
		return -EINVAL;

	udev = kzalloc_node(sizeof(*udev), GFP_KERNEL, hca->numa_node);
	if (!udev)
		return -ENOMEM;
	udev->hca = hca;

	mutex_lock(&mlx5_umr_devs_lock);
	list_add_tail(&udev->list, &mlx5_umr_devs);
	hca->umr = udev;
	mutex_unlock(&mlx5_umr_devs_lock);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_register_hca);

/**
 * mlx5_umr_unregister_hca() - withdraw an HCA from the UMR service
 * @hca: an HCA passed to mlx5_umr_register_hca()
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_unregister_hca(struct mlx5_umr_hca *hca)
{
	struct mlx5_umr_dev *udev = hca->umr;

	if (!udev)
		return;
	mutex_lock(&mlx5_umr_devs_lock);
	list_del(&udev->list);
	hca->umr = NULL;
	mutex_unlock(&mlx5_umr_devs_lock);
	kfree(udev);
}
EXPORT_SYMBOL(mlx5_umr_unregister_hca);

MODULE_DESCRIPTION("mlx5 UMR service");
MODULE_AUTHOR("The mlx5-umr authors");
MODULE_LICENSE("Dual BSD/GPL");
