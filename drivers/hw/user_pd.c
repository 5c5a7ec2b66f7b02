// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: a user's verbs PD, proven to be the caller's
 * (MLX5_UMR_IOCTL_SET_PD with MLX5_UMR_IOC_SET_PD_VERBS).
 *
 * The service has checked that the caller's file is a uverbs command file
 * (drivers/umr/pd.c) and holds a reference to it. Here the file is
 * checked to be of this ib_device where the device can tell, the PD is
 * found by its resource-tracking id on the ib_device, and accepted only
 * when its uobject belongs to that file under the handle the caller gave:
 * pointer and number comparisons, on objects the RDMA core owns. Nothing
 * here is mlx5's: the PD number is the HCA's answer (drivers/umr/pd.c).
 * The hardware backend runs it on its mlx5 ib_device (main.c); test
 * builds of the fake HCA compile the same file and run it on the
 * ib_device they stand in for (drivers/fake/fake_user_pd.c).
 *
 * Holding the PD: ib_uverbs refuses to destroy a PD whose usecnt is not 0
 * (uverbs_std_types.c uverbs_free_pd(), EBUSY), as for a live MR in it; a
 * command that creates an object in a PD raises usecnt while it holds the
 * PD's uobject shared (rdma_core.c, uverbs_try_lock_object() with
 * UVERBS_LOOKUP_READ), which a destroy cannot take (it needs usecnt
 * 0 -> -1). The same shared hold is taken here. The file's teardown
 * (close, or device removal) would fail to destroy a held PD and leak it
 * with a warning: the service holds the command file until it released
 * the PD, and the caller's ib_client, registered after ib_uverbs' (the
 * module links ib_uverbs' uverbs_idr_class, so ib_uverbs is loaded first),
 * is removed before it (device.c, clients are removed in reverse order),
 * releasing every PD first. Both hold on 6.1 and 6.12.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <rdma/ib_verbs.h>
#include <rdma/restrack.h>
#include <rdma/uverbs_types.h>
#include <rdma/uverbs_std_types.h>

#include "user_pd.h"

/*
 * Is the uverbs command file @verbs one of @ibdev? ib_uverbs makes the
 * ib_device's parent its char device's parent (uverbs_main.c
 * ib_uverbs_add_one(), cdev_device_add() of the cdev under that char
 * device). A device without a parent (a software device: rdma_rxe) cannot
 * be told apart this way: the lookup and the owner's file decide alone.
 * Only a precise EXDEV: the PD lookup on @ibdev is what decides.
 */
static bool mlx5_umr_user_pd_file_of(struct ib_device *ibdev,
				     struct file *verbs)
{
	struct kobject *kobj = file_inode(verbs)->i_cdev->kobj.parent;
	struct device *parent = ibdev->dev.parent;

	if (!parent)
		return true;
	return kobj && kobj_to_dev(kobj)->parent == parent;
}

/**
 * mlx5_umr_user_pd_get() - the verbs PD @id of @ibdev, if @verbs owns it
 * @ibdev: the ib_device
 * @verbs: a uverbs command file (checked by the caller), held by the
 *	caller for as long as the PD is
 * @handle: the PD's handle in @verbs (ibv_pd.handle)
 * @id: the PD's resource-tracking id on @ibdev
 *
 * Only pointers and numbers are compared: @verbs' private_data is never
 * dereferenced.
 *
 * Context: process context.
 * Return: the PD, held (mlx5_umr_user_pd_put()), or ERR_PTR(-EXDEV: a
 * command file of another device; -ENOENT: no PD of @ibdev has @id;
 * -EACCES: a kernel PD, another file's or another handle's; -EBUSY: being
 * created or destroyed).
 */
struct ib_pd *mlx5_umr_user_pd_get(struct ib_device *ibdev,
				   struct file *verbs, u32 handle, u32 id)
{
	struct rdma_restrack_entry *res;
	struct ib_uobject *uobj;
	struct ib_pd *pd;
	int err;

	if (!mlx5_umr_user_pd_file_of(ibdev, verbs))
		return ERR_PTR(-EXDEV);
	/* holds the entry: its PD is not freed until rdma_restrack_put() */
	res = rdma_restrack_get_byid(ibdev, RDMA_RESTRACK_PD, id);
	if (IS_ERR(res))
		return ERR_PTR(-ENOENT);
	pd = container_of(res, struct ib_pd, res);
	uobj = pd->uobject;
	err = -EACCES;
	/* a kernel PD has no uobject; a user PD's is an idr object of ib_uverbs */
	if (!uobj || !uobj->uapi_object ||
	    uobj->uapi_object->type_class != &uverbs_idr_class)
		goto out;
	if (uobj->ufile != verbs->private_data || (u32)uobj->id != handle)
		goto out;
	err = -EBUSY;
	if (atomic_fetch_add_unless(&uobj->usecnt, 1, -1) == -1)
		goto out;
	atomic_inc(&pd->usecnt);
	atomic_dec(&uobj->usecnt);
	rdma_restrack_put(res);
	return pd;

out:
	rdma_restrack_put(res);
	return ERR_PTR(err);
}

/**
 * mlx5_umr_user_pd_put() - release a PD of mlx5_umr_user_pd_get()
 * @pd: the PD
 *
 * Context: any; before the PD's command file is released and before
 * ib_uverbs' client is removed from its device.
 */
void mlx5_umr_user_pd_put(struct ib_pd *pd)
{
	atomic_dec(&pd->usecnt);
}
