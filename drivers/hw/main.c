// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr hardware backend: binds mlx5 RDMA devices to the UMR service.
 *
 * An ib_client sees every ib_device. mlx5 PFs and VFs are offered to the
 * service as a struct mlx5_umr_hca named after the ib_device; every other
 * device is remembered as ignored, with the reason, so that both show up in
 * debugfs (mlx5_umr_hw/devices) and in the kernel log. The client's remove()
 * runs before mlx5_ib unregisters the ib_device and before mlx5_core tears
 * the function down (driver unbind, hot-unplug, devlink reload, firmware
 * reset), which makes it the one place that ends a binding.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/mlx5/driver.h>
#include <rdma/ib_verbs.h>

#include "hw.h"
#include "user_pd.h"

/* Protects mlx5_umr_hw_devs; an entry is freed only after leaving it. */
static DEFINE_MUTEX(mlx5_umr_hw_lock);
static LIST_HEAD(mlx5_umr_hw_devs);
static struct dentry *mlx5_umr_hw_debugfs;

static struct ib_client mlx5_umr_hw_client;

/*
 * Names come from ib_device->name, a fixed array: dev_name() could be freed
 * under a reader by a concurrent "rdma dev set ... name" rename.
 */

/*
 * The mlx5_core_dev of a PF or VF: mlx5_ib makes mdev->device (the PCI
 * function) the ib_device's parent, and mlx5_core keeps the mdev as that
 * function's drvdata. Sub-functions (parent = auxiliary device with
 * mlx5_core's private struct mlx5_sf_dev as drvdata) are not handled.
 */
static enum mlx5_umr_hw_verdict
mlx5_umr_hw_find_mdev(struct ib_device *ibdev, struct mlx5_core_dev **mdevp)
{
	struct device *parent = ibdev->dev.parent;
	enum mlx5_umr_hw_verdict verdict;
	struct mlx5_core_dev *mdev;
	bool is_pci = false;
	const char *drv = NULL;

	/* Look at the parent only when the device says it is mlx5's. */
	if (ibdev->ops.driver_id == RDMA_DRIVER_MLX5 && parent &&
	    dev_is_pci(parent)) {
		is_pci = true;
		/* Stable: mlx5_core cannot unbind while mlx5_ib is bound. */
		drv = parent->driver ? parent->driver->name : NULL;
	}
	verdict = mlx5_umr_hw_classify(ibdev->ops.driver_id, is_pci, drv);
	if (verdict != MLX5_UMR_HW_BIND)
		return verdict;

	mdev = pci_get_drvdata(to_pci_dev(parent));
	if (!mdev || mdev->device != parent)
		return MLX5_UMR_HW_NO_MDEV;
	if (mlx5_core_mp_enabled(mdev))
		return MLX5_UMR_HW_MULTIPORT;
	*mdevp = mdev;
	return MLX5_UMR_HW_BIND;
}

/* What the service asks of the ib_device: probe MRs, user PDs (pd.c). */
static struct ib_mr *mlx5_umr_hw_alloc_mr(struct ib_pd *pd)
{
	return ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 1);
}

#if IS_ENABLED(CONFIG_INFINIBAND_USER_ACCESS)
/* MLX5_UMR_IOCTL_SET_PD of a user's verbs PD of this ib_device (user_pd.c) */
static struct ib_pd *mlx5_umr_hw_user_pd_get(struct mlx5_umr_hca *hca,
					     struct file *verbs, u32 handle,
					     u32 id)
{
	struct mlx5_umr_hw_dev *hw = container_of(hca, struct mlx5_umr_hw_dev,
						  hca);

	return mlx5_umr_user_pd_get(hw->ibdev, verbs, handle, id);
}
#endif

static const struct mlx5_umr_hca_ib_ops mlx5_umr_hw_ib_ops = {
	.alloc_mr = mlx5_umr_hw_alloc_mr,
	.dereg_mr = ib_dereg_mr,
#if IS_ENABLED(CONFIG_INFINIBAND_USER_ACCESS)
	.user_pd_get = mlx5_umr_hw_user_pd_get,
	.user_pd_put = mlx5_umr_user_pd_put,
#endif
};

static int mlx5_umr_hw_bind(struct mlx5_umr_hw_dev *hw,
			    struct mlx5_core_dev *mdev)
{
	struct mlx5_umr_hca *hca = &hw->hca;
	ssize_t len;
	int err;

	hw->mdev = mdev;
	hca->ops = &mlx5_umr_hw_ops;
	hca->dev = &hw->ibdev->dev;
	hca->numa_node = dev_to_node(mdev->device);
	hca->owner = THIS_MODULE;
	hca->ibdev = hw->ibdev;
	hca->ib_ops = &mlx5_umr_hw_ib_ops;
	len = strscpy(hca->name, hw->ibdev->name, sizeof(hca->name));
	if (len < 0)
		return len;

	err = mlx5_umr_register_hca(hca);
	if (err)
		return err;
	hw->registered = true;
	return 0;
}

static int mlx5_umr_hw_add(struct ib_device *ibdev)
{
	struct mlx5_core_dev *mdev = NULL;
	struct mlx5_umr_hw_dev *hw;

	hw = kzalloc(sizeof(*hw), GFP_KERNEL);
	if (!hw)
		return -ENOMEM;
	hw->ibdev = ibdev;
	hw->verdict = mlx5_umr_hw_find_mdev(ibdev, &mdev);

	if (hw->verdict == MLX5_UMR_HW_BIND) {
		hw->err = mlx5_umr_hw_bind(hw, mdev);
		if (hw->err)
			pr_err("%s: %s: binding failed (%d)\n",
			       ibdev->name, pci_name(mdev->pdev),
			       hw->err);
		else
			pr_info("%s: %s: bound\n", ibdev->name,
				pci_name(mdev->pdev));
	} else {
		pr_info("%s: ignored: %s\n", ibdev->name,
			mlx5_umr_hw_verdict_name(hw->verdict));
	}

	/*
	 * Also keep ignored devices: add() must succeed for ib_core to call
	 * remove(), which makes their removal observable.
	 */
	mutex_lock(&mlx5_umr_hw_lock);
	list_add_tail(&hw->list, &mlx5_umr_hw_devs);
	mutex_unlock(&mlx5_umr_hw_lock);
	ib_set_client_data(ibdev, &mlx5_umr_hw_client, hw);
	return 0;
}

static void mlx5_umr_hw_remove(struct ib_device *ibdev, void *client_data)
{
	struct mlx5_umr_hw_dev *hw = client_data;

	mutex_lock(&mlx5_umr_hw_lock);
	list_del(&hw->list);
	mutex_unlock(&mlx5_umr_hw_lock);

	if (hw->registered) {
		/*
		 * Returns once no operation of ours is running or will run;
		 * the service's consumers get -ENODEV from then on.
		 */
		mlx5_umr_unregister_hca(&hw->hca);
		if (atomic_read(&hw->nr_bufs) || atomic_read(&hw->nr_uars) ||
		    atomic_read(&hw->nr_cqs))
			pr_err("%s: service left bufs=%d uars=%d cqs=%d\n",
			       ibdev->name,
			       atomic_read(&hw->nr_bufs),
			       atomic_read(&hw->nr_uars),
			       atomic_read(&hw->nr_cqs));
	}
	pr_info("%s: removed\n", ibdev->name);
	kfree(hw);
}

static struct ib_client mlx5_umr_hw_client = {
	.name = "mlx5_umr_hw",
	.add = mlx5_umr_hw_add,
	.remove = mlx5_umr_hw_remove,
};

/*
 * One line per ib_device seen:
 *   <ibdev> bound <pci> bufs=N uars=N cqs=N cq_events=N
 *   <ibdev> failed <pci> err=-E
 *   <ibdev> ignored <reason>
 */
static int mlx5_umr_hw_devices_show(struct seq_file *s, void *unused)
{
	struct mlx5_umr_hw_dev *hw;

	mutex_lock(&mlx5_umr_hw_lock);
	list_for_each_entry(hw, &mlx5_umr_hw_devs, list) {
		const char *name = hw->ibdev->name;

		if (hw->verdict != MLX5_UMR_HW_BIND)
			seq_printf(s, "%s ignored %s\n", name,
				   mlx5_umr_hw_verdict_name(hw->verdict));
		else if (!hw->registered)
			seq_printf(s, "%s failed %s err=%d\n", name,
				   pci_name(hw->mdev->pdev), hw->err);
		else
			seq_printf(s, "%s bound %s bufs=%d uars=%d cqs=%d cq_events=%d\n",
				   name, pci_name(hw->mdev->pdev),
				   atomic_read(&hw->nr_bufs),
				   atomic_read(&hw->nr_uars),
				   atomic_read(&hw->nr_cqs),
				   atomic_read(&hw->nr_cq_events));
	}
	mutex_unlock(&mlx5_umr_hw_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mlx5_umr_hw_devices);

static int __init mlx5_umr_hw_init(void)
{
	int err;

	/* debugfs is diagnostics only: its failures are not fatal. */
	mlx5_umr_hw_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("devices", 0444, mlx5_umr_hw_debugfs, NULL,
			    &mlx5_umr_hw_devices_fops);

	/* Calls add() for every ib_device already registered. */
	err = ib_register_client(&mlx5_umr_hw_client);
	if (err)
		goto err_debugfs;
	return 0;

err_debugfs:
	debugfs_remove_recursive(mlx5_umr_hw_debugfs);
	return err;
}

static void __exit mlx5_umr_hw_exit(void)
{
	/* Calls remove() for every ib_device still registered. */
	ib_unregister_client(&mlx5_umr_hw_client);
	debugfs_remove_recursive(mlx5_umr_hw_debugfs);
}

module_init(mlx5_umr_hw_init);
module_exit(mlx5_umr_hw_exit);

MODULE_DESCRIPTION("mlx5 UMR service: ConnectX backend on mlx5_core");
MODULE_AUTHOR("The mlx5-umr authors");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
