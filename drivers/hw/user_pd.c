// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr hardware backend: a user's verbs PD, proven to be the caller's
 * (MLX5_UMR_IOCTL_SET_PD with MLX5_UMR_IOC_SET_PD_VERBS).
 *
 * The service has checked that the caller's file is a uverbs command file
 * (drivers/umr/pd.c) and holds a reference to it. Here the PD is found by
 * its resource-tracking id on this ib_device, and accepted only when its
 * uobject belongs to that file under the handle the caller gave: two
 * pointer and number comparisons, on objects the RDMA core owns.
 *
 * Holding the PD: ib_uverbs refuses to destroy a PD whose usecnt is not 0
 * (uverbs_free_pd(), EBUSY), as for a live MR in it; a command that
 * creates an object in a PD raises usecnt while it holds the PD's uobject
 * shared (rdma_core.c, uverbs_try_lock_object() with UVERBS_LOOKUP_READ),
 * which a destroy cannot take (it needs usecnt 0 -> -1). The same shared
 * hold is taken here. The file's teardown (close, or device removal)
 * would fail to destroy a held PD and leak it with a warning: the service
 * holds the command file until it released the PD, and this backend's
 * ib_client, registered after ib_uverbs' (the module links ib_uverbs'
 * uverbs_idr_class, so ib_uverbs is loaded first), is removed before it
 * (clients are removed in reverse order), releasing every PD first.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/atomic.h>
#include <linux/err.h>
#include <rdma/ib_verbs.h>
#include <rdma/restrack.h>
#include <rdma/uverbs_types.h>
#include <rdma/uverbs_std_types.h>

#include "hw.h"

/**
 * mlx5_umr_hw_user_pd_get() - struct mlx5_umr_hca_ib_ops.user_pd_get
 * @hca: the backend's HCA
 * @ufile: private_data of the caller's uverbs command file
 * @handle: the PD's handle in that file (struct ibv_pd.handle)
 * @id: the PD's resource-tracking id on this device
 *
 * Context: process context.
 * Return: the PD, held, or ERR_PTR(-ENOENT, -EACCES, -EBUSY).
 */
struct ib_pd *mlx5_umr_hw_user_pd_get(struct mlx5_umr_hca *hca,
				      const void *ufile, u32 handle, u32 id)
{
	struct mlx5_umr_hw_dev *hw = container_of(hca, struct mlx5_umr_hw_dev,
						  hca);
	struct rdma_restrack_entry *res;
	struct ib_uobject *uobj;
	struct ib_pd *pd;
	int err;

	/* holds the entry: its PD is not freed until rdma_restrack_put() */
	res = rdma_restrack_get_byid(hw->ibdev, RDMA_RESTRACK_PD, id);
	if (IS_ERR(res))
		return ERR_PTR(-ENOENT);
	pd = container_of(res, struct ib_pd, res);
	uobj = pd->uobject;
	err = -EACCES;
	/* a kernel PD has no uobject; a user PD's is an idr object of ib_uverbs */
	if (!uobj || !uobj->uapi_object ||
	    uobj->uapi_object->type_class != &uverbs_idr_class)
		goto out;
	if (uobj->ufile != ufile || (u32)uobj->id != handle)
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
 * mlx5_umr_hw_user_pd_put() - struct mlx5_umr_hca_ib_ops.user_pd_put
 * @pd: a PD of mlx5_umr_hw_user_pd_get()
 *
 * Context: any.
 */
void mlx5_umr_hw_user_pd_put(struct ib_pd *pd)
{
	atomic_dec(&pd->usecnt);
}
