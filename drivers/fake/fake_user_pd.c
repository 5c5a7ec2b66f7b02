// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: the user verbs PDs of a real ib_device, for the
 * verified MLX5_UMR_IOCTL_SET_PD (test builds only).
 *
 * A fake has no ib_device of its own that userspace can open. With the
 * module parameter user_pd_ibdev naming one (the test VM's rdma_rxe
 * device), every fake stands in for the mlx5 HCA behind it as far as user
 * PDs go: SET_PD with MLX5_UMR_IOC_SET_PD_VERBS runs the hardware
 * backend's own ownership code (drivers/hw/user_pd.c, compiled in here)
 * on that ib_device, and the user's PD it accepts is mapped to a PD of
 * the fake, as mlx5_ib maps a verbs PD to the HCA's (ALLOC_PD when the
 * PD is first bound on this fake, DEALLOC_PD when its last binding is
 * released). The service then learns that number as on hardware: an MR
 * created in the PD, read back with QUERY_MKEY (drivers/umr/pd.c). What
 * this cannot show is the mlx5 part itself: mlx5_ib's alloc_mr in a user
 * PD of a real NIC.
 *
 * Removal: on a NIC the ib_device is the HCA, and its removal ends the
 * HCA's registration with the service (drivers/hw/main.c, the backend's
 * ib_client). Here this file's ib_client, registered after ib_uverbs'
 * (the module links ib_uverbs), is removed before it and unregisters
 * every fake that holds a PD of the device, which releases the bindings
 * before ib_uverbs tears the files down.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/err.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>

/* the ownership checks, exactly as the hardware backend ships them */
#include "../hw/user_pd.c"

#include "fake.h"

static char *user_pd_ibdev;
module_param(user_pd_ibdev, charp, 0444);
MODULE_PARM_DESC(user_pd_ibdev,
		 "the ib_device whose user verbs PDs SET_PD accepts on every fake (default: none)");

/**
 * struct fake_user_pd - a user's verbs PD bound on a fake
 * @fpd: the fake's PD standing in for it: what the service probes and
 *	creates its mkeys in
 * @upd: the user's PD, held once per binding (mlx5_umr_user_pd_get())
 * @refs: the bindings of @upd on this fake
 * @node: in fake_upd_list
 */
struct fake_user_pd {
	struct fake_ib_pd fpd;
	struct ib_pd *upd;
	unsigned int refs;
	struct list_head node;
};

/* Protects fake_upd_dev and fake_upd_list. */
static DEFINE_MUTEX(fake_upd_lock);
/* the device named by user_pd_ibdev, between its add() and remove() */
static struct ib_device *fake_upd_dev;
static LIST_HEAD(fake_upd_list);

/**
 * fake_user_pd_get() - struct mlx5_umr_hca_ib_ops.user_pd_get of a fake
 * @hca: the fake's HCA
 * @verbs: the caller's uverbs command file
 * @handle: the PD's handle in @verbs
 * @id: the PD's resource-tracking id on the user_pd_ibdev device
 *
 * Context: process context, may sleep.
 * Return: the fake's PD standing in for the user's, or ERR_PTR():
 * -EOPNOTSUPP without a user_pd_ibdev device, the errors of
 * mlx5_umr_user_pd_get(), -ENOMEM or ALLOC_PD's.
 */
struct ib_pd *fake_user_pd_get(struct mlx5_umr_hca *hca, struct file *verbs,
			       u32 handle, u32 id)
{
	struct mlx5_umr_fake *fd = container_of(hca, struct mlx5_umr_fake,
						hca);
	struct fake_user_pd *p;
	struct ib_pd *upd;
	u32 pdn;
	int err;

	mutex_lock(&fake_upd_lock);
	err = -EOPNOTSUPP;
	if (!fake_upd_dev)
		goto err_unlock;
	upd = mlx5_umr_user_pd_get(fake_upd_dev, verbs, handle, id);
	if (IS_ERR(upd)) {
		err = PTR_ERR(upd);
		goto err_unlock;
	}
	list_for_each_entry(p, &fake_upd_list, node) {
		if (p->fpd.fd == fd && p->upd == upd) {
			p->refs++;
			goto out;
		}
	}
	err = -ENOMEM;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		goto err_put;
	err = mlx5_umr_fake_pd_alloc(fd, &pdn);
	if (err)
		goto err_free;
	p->fpd.ibpd.device = fd->ibdev;
	p->fpd.fd = fd;
	p->fpd.pdn = pdn;
	p->upd = upd;
	p->refs = 1;
	list_add(&p->node, &fake_upd_list);
out:
	mutex_unlock(&fake_upd_lock);
	return &p->fpd.ibpd;

err_free:
	kfree(p);
err_put:
	mlx5_umr_user_pd_put(upd);
err_unlock:
	mutex_unlock(&fake_upd_lock);
	return ERR_PTR(err);
}

/**
 * fake_user_pd_put() - struct mlx5_umr_hca_ib_ops.user_pd_put of a fake
 * @pd: from fake_user_pd_get(); no mkey of the service left in it
 *
 * Context: process context, may sleep.
 */
void fake_user_pd_put(struct ib_pd *pd)
{
	struct fake_user_pd *p = container_of(pd, struct fake_user_pd,
					      fpd.ibpd);

	mutex_lock(&fake_upd_lock);
	mlx5_umr_user_pd_put(p->upd);
	if (--p->refs) {
		mutex_unlock(&fake_upd_lock);
		return;
	}
	list_del(&p->node);
	mutex_unlock(&fake_upd_lock);
	/* refused while an mkey is left: the fake reports it at unload */
	mlx5_umr_fake_pd_free(p->fpd.fd, p->fpd.pdn);
	kfree(p);
}

static int fake_upd_add(struct ib_device *ibdev)
{
	mutex_lock(&fake_upd_lock);
	if (user_pd_ibdev && !fake_upd_dev &&
	    !strcmp(ibdev->name, user_pd_ibdev))
		fake_upd_dev = ibdev;
	mutex_unlock(&fake_upd_lock);
	return 0;
}

/*
 * The device goes: no new binding, and every fake that holds one leaves
 * the service, which releases its bindings (fake_user_pd_put()) before
 * this returns and ib_uverbs' remove() runs. Such a fake stays
 * unregistered until it is destroyed.
 */
static void fake_upd_remove(struct ib_device *ibdev, void *client_data)
{
	struct mlx5_umr_fake *fd;

	mutex_lock(&fake_upd_lock);
	if (fake_upd_dev != ibdev) {
		mutex_unlock(&fake_upd_lock);
		return;
	}
	fake_upd_dev = NULL;
	while (!list_empty(&fake_upd_list)) {
		fd = list_first_entry(&fake_upd_list, struct fake_user_pd,
				      node)->fpd.fd;
		mutex_unlock(&fake_upd_lock);
		/* fake_exit() destroys fakes only after this client is gone */
		if (WARN_ON(!fd->registered))
			return;
		dev_info(&fd->dev, "%s removed: unregistering\n", ibdev->name);
		mlx5_umr_unregister_hca(&fd->hca);
		fd->registered = false;
		mutex_lock(&fake_upd_lock);
	}
	mutex_unlock(&fake_upd_lock);
}

static struct ib_client fake_upd_client = {
	.name = "mlx5_umr_fake_user_pd",
	.add = fake_upd_add,
	.remove = fake_upd_remove,
};

/**
 * fake_user_pd_init() - watch for the user_pd_ibdev device
 *
 * Context: module init, after the fakes exist.
 * Return: 0 or ib_register_client()'s error.
 */
int fake_user_pd_init(void)
{
	if (!user_pd_ibdev)
		return 0;
	return ib_register_client(&fake_upd_client);
}

/**
 * fake_user_pd_exit() - stop watching; ends the device's bindings
 *
 * Context: module exit, before the fakes are destroyed.
 */
void fake_user_pd_exit(void)
{
	if (user_pd_ibdev)
		ib_unregister_client(&fake_upd_client);
}
