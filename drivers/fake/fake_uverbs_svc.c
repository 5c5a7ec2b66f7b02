// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA as an mlx5_ib user device: its fake offered to the
 * UMR service under the ib_device's name, as the hardware backend offers
 * a ConnectX (drivers/hw/main.c), so that /dev/mlx5_umr/fake_mlx5_0
 * exists and a libmlx5 PD of this device can be bound to a file
 * (MLX5_UMR_IOCTL_SET_PD with MLX5_UMR_IOC_SET_PD_VERBS): hwcheck's
 * userspace path runs on it (Documentation/fake.rst, "The service on the
 * fake_uverbs device").
 *
 * What the service gets is what mlx5_umr_hw gives it: @ibdev is this
 * ib_device, alloc_mr is ib_alloc_mr() on it (fuv_alloc_mr(), as
 * mlx5_ib_alloc_mr()), and a user PD is accepted by the hardware
 * backend's own ownership checks (drivers/hw/user_pd.c, compiled in here
 * as drivers/fake/fake_user_pd.c does). The service learns the PD's
 * number from the HCA: an MR in the PD read back with QUERY_MKEY
 * (drivers/umr/pd.c).
 *
 * Order: registered after ib_register_device() (the name is known then),
 * unregistered before ib_unregister_device(): the service releases every
 * user PD it holds (user_pd_put) before ib_uverbs tears the files down,
 * which would otherwise fail to destroy a held PD and leak it.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>

/* the ownership checks, exactly as the hardware backend ships them */
#include "../hw/user_pd.c"

#include <linux/mlx5_umr_hca.h>

#include "fake_uverbs.h"

static bool service = true;
module_param(service, bool, 0444);
MODULE_PARM_DESC(service,
		 "offer the device to the UMR service as /dev/mlx5_umr/<ibdev> (default: on)");

/*
 * The registered device: one per module (fuv_init()). Set before
 * mlx5_umr_register_hca() and cleared after mlx5_umr_unregister_hca(),
 * which waits for every call of the service: no lock needed.
 */
static struct ib_device *fuv_svc_ibdev;

/* drivers/hw/main.c mlx5_umr_hw_alloc_mr() */
static struct ib_mr *fuv_svc_alloc_mr(struct ib_pd *pd)
{
	return ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 1);
}

/* drivers/hw/main.c mlx5_umr_hw_user_pd_get() */
static struct ib_pd *fuv_svc_user_pd_get(struct mlx5_umr_hca *hca,
					 struct file *verbs, u32 handle,
					 u32 id)
{
	return mlx5_umr_user_pd_get(fuv_svc_ibdev, verbs, handle, id);
}

static const struct mlx5_umr_hca_ib_ops fuv_svc_ib_ops = {
	.alloc_mr = fuv_svc_alloc_mr,
	.dereg_mr = ib_dereg_mr,
	.user_pd_get = fuv_svc_user_pd_get,
	.user_pd_put = mlx5_umr_user_pd_put,
};

/**
 * fuv_svc_register() - offer the device's fake to the UMR service
 * @dev: the device, registered with the RDMA core; its fake is not
 *	registered with the service (created without MLX5_UMR_FAKE_F_REGISTER)
 *
 * The fake's stand-in ib_device (fake_ib.c) gives way to @dev's: the
 * HCA's name, ibdev and ib_ops become this device's.
 *
 * Context: process context (module init), may sleep.
 * Return: 0 (also with the module parameter service off), or the error
 * of mlx5_umr_register_hca().
 */
int fuv_svc_register(struct fuv_dev *dev)
{
	struct mlx5_umr_hca *hca = dev->hca;
	int err;

	if (!service)
		return 0;
	if (strscpy(hca->name, dev_name(&dev->ibdev.dev),
		    sizeof(hca->name)) < 0)
		return -ENAMETOOLONG;
	hca->ibdev = &dev->ibdev;
	hca->ib_ops = &fuv_svc_ib_ops;
	hca->owner = THIS_MODULE;
	fuv_svc_ibdev = &dev->ibdev;
	err = mlx5_umr_register_hca(hca);
	if (err)
		fuv_svc_ibdev = NULL;
	return err;
}

/**
 * fuv_svc_unregister() - withdraw the device's fake from the service
 * @dev: the device, still registered with the RDMA core
 *
 * Every user PD the service held is released when this returns.
 *
 * Context: process context (module exit), may sleep.
 */
void fuv_svc_unregister(struct fuv_dev *dev)
{
	if (!fuv_svc_ibdev)
		return;
	mlx5_umr_unregister_hca(dev->hca);
	fuv_svc_ibdev = NULL;
}
