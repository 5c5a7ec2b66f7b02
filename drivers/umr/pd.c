// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: protection domains for consumers of the service.
 *
 * The service's own mkeys live in its PD (caps->pdn). A consumer that
 * wants its mkeys isolated from everyone else's on the NIC (the uapi: one
 * PD per open file) allocates a PD here and creates its mkeys in it
 * (mlx5_umr_alloc_mkey_pd(), MLX5_UMR_WR_SET_PD). A ULP that uses the keys
 * on its own QPs puts them in its struct ib_pd (mlx5_umr_pd_get_ib(),
 * mlx5_umr_alloc_mkey_in()).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/bits.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/device.h>
#include <rdma/ib_verbs.h>

#include "umr.h"
#include "umr_uapi.h"

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
 * mlx5_umr_pd_kept() - must @pdn outlive its owner?
 * @dev: the device
 * @pdn: a PD
 *
 * A PD that still holds an mkey the HCA refused to destroy is never
 * deallocated: the HCA may hand the number to the next ALLOC_PD, and the
 * leaked mkey, live with the access of its last layout, would then serve
 * the new owner's QPs.
 *
 * Context: dev->mkeys_lock held.
 * Return: true when @pdn must be kept.
 */
bool mlx5_umr_pd_kept(struct mlx5_umr_dev *dev, u32 pdn)
{
	lockdep_assert_held(&dev->mkeys_lock);
	return dev->keep_all_pds || xa_load(&dev->kept_pds, pdn);
}

/*
 * Count a holder of the mlx5_ib PD @pdn (mlx5_umr_pd_is_ib()) in or out;
 * counting in may sleep, counting out may not.
 */
static int mlx5_umr_pd_ib_count(struct mlx5_umr_dev *dev, u32 pdn, bool in)
{
	unsigned long flags, n;
	int err = 0;

	if (in && xa_reserve_irq(&dev->ib_pdns, pdn, GFP_KERNEL))
		return -ENOMEM;
	xa_lock_irqsave(&dev->ib_pdns, flags);
	n = xa_to_value(xa_load(&dev->ib_pdns, pdn)) + (in ? 1 : -1);
	/* a slot reserved above and erased since needs a node again */
	err = xa_err(__xa_store(&dev->ib_pdns, pdn, n ? xa_mk_value(n) : NULL,
				GFP_ATOMIC));
	xa_unlock_irqrestore(&dev->ib_pdns, flags);
	return err;
}

/* QUERY_MKEY of @key into @out (query_mkey_out); checks the key byte. */
static int mlx5_umr_query_mkey(struct mlx5_umr_dev *dev, u32 key, void *out,
			       int outlen)
{
	u32 in[MLX5_ST_SZ_DW(query_mkey_in)] = {};
	int err;

	MLX5_SET(query_mkey_in, in, opcode, MLX5_CMD_OP_QUERY_MKEY);
	MLX5_SET(query_mkey_in, in, mkey_index, key >> 8);
	err = mlx5_umr_cmd(dev, in, sizeof(in), out, outlen);
	if (err)
		return err;
	if (MLX5_GET(query_mkey_out, out, memory_key_mkey_entry.mkey_7_0) !=
	    (key & 0xff))
		return -ENOENT;
	return 0;
}

/**
 * mlx5_umr_pd_keep() - an object the HCA did not destroy is in @pdn: keep it
 * @dev: the device, registered
 * @pdn: the PD, never deallocated from now on (mlx5_umr_pd_free())
 *
 * Context: dev->mkeys_lock held; may sleep.
 */
void mlx5_umr_pd_keep(struct mlx5_umr_dev *dev, u32 pdn)
{
	lockdep_assert_held(&dev->mkeys_lock);
	if (xa_err(xa_store(&dev->kept_pds, pdn, xa_mk_value(1), GFP_KERNEL)))
		dev->keep_all_pds = true;
}

/**
 * mlx5_umr_pd_keep_mkey_pd() - an mkey the HCA did not destroy: keep its PD
 * @dev: the device, registered (dev->hca set)
 * @key: the mkey
 *
 * The PD is the HCA's answer (QUERY_MKEY): an mkey moves between PDs with
 * UMRs, so the PD it was created in may not be the one it is in. When the
 * HCA does not answer either, no PD is deallocated from then on.
 *
 * Context: dev->mkeys_lock held; may sleep.
 */
void mlx5_umr_pd_keep_mkey_pd(struct mlx5_umr_dev *dev, u32 key)
{
	int outlen = MLX5_ST_SZ_BYTES(query_mkey_out);
	void *out;
	u32 pdn;

	lockdep_assert_held(&dev->mkeys_lock);
	out = kzalloc(outlen, GFP_KERNEL);
	if (!out || mlx5_umr_query_mkey(dev, key, out, outlen)) {
		dev->keep_all_pds = true;
		goto out;
	}
	pdn = MLX5_GET(query_mkey_out, out, memory_key_mkey_entry.pd);
	mlx5_umr_pd_keep(dev, pdn);
out:
	kfree(out);
}

/**
 * mlx5_umr_pd_dealloc() - DEALLOC_PD, unless the PD must be kept
 * @dev: the device; nothing once unregistered
 * @pdn: the PD, with no object of the service left in it
 *
 * Context: process context, may sleep; dev->pdq_lock held (no PD queue
 * may be created in @pdn meanwhile).
 */
void mlx5_umr_pd_dealloc(struct mlx5_umr_dev *dev, u32 pdn)
{
	u32 out[MLX5_ST_SZ_DW(dealloc_pd_out)] = {};
	u32 in[MLX5_ST_SZ_DW(dealloc_pd_in)] = {};

	lockdep_assert_held(&dev->pdq_lock);
	MLX5_SET(dealloc_pd_in, in, opcode, MLX5_CMD_OP_DEALLOC_PD);
	MLX5_SET(dealloc_pd_in, in, pd, pdn);
	/* mkeys_lock keeps dev->hca, as for mlx5_umr_free_mkey() */
	mutex_lock(&dev->mkeys_lock);
	if (dev->hca && mlx5_umr_pd_kept(dev, pdn))
		mlx5_umr_leak_buf(dev, "protection domain of a leaked mkey");
	else if (dev->hca)
		mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
	mutex_unlock(&dev->mkeys_lock);
}

/**
 * mlx5_umr_pd_free() - free a PD from mlx5_umr_pd_alloc()
 * @dev: the device
 * @pdn: the PD; no mkey may be left in it
 *
 * After the device was unregistered this does nothing (the PD went with
 * the HCA). A PD in which an mkey the HCA refused to destroy remains is
 * kept, never deallocated (counted in the device's leaks). While the PD
 * queue of @pdn lives (a signature mkey of @pdn was not freed yet), the
 * PD is deallocated when that queue goes, after the last of those mkeys:
 * its QP, PA mkey and PSVs are in the PD, and the HCA refuses DEALLOC_PD
 * while they are.
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_pd_free(struct mlx5_umr_dev *dev, u32 pdn)
{
	struct mlx5_umr_queue *q;

	mutex_lock(&dev->pdq_lock);
	q = xa_load(&dev->pd_queues, pdn);
	if (q && !q->gone)
		q->free_pd = true;
	else
		mlx5_umr_pd_dealloc(dev, pdn);
	mutex_unlock(&dev->pdq_lock);
}
EXPORT_SYMBOL(mlx5_umr_pd_free);

/*
 * The PD number of @ibpd, from the HCA: an MR created in @ibpd with the
 * verbs API carries it in its mkey context (mkc.pd). mlx5_ib's own
 * to_mpd(ibpd)->pdn is in a private header whose layout is no ABI.
 */
static int mlx5_umr_pd_probe(struct mlx5_umr_dev *dev, struct ib_pd *ibpd,
			     void *out, int outlen, u32 *pdn)
{
	const struct mlx5_umr_hca_ib_ops *ops = dev->hca->ib_ops;
	struct ib_mr *mr;
	int err;

	if (!ops)
		return -EOPNOTSUPP;
	mr = ops->alloc_mr(ibpd);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	err = mlx5_umr_query_mkey(dev, mr->lkey, out, outlen);
	if (!err)
		*pdn = MLX5_GET(query_mkey_out, out, memory_key_mkey_entry.pd);
	ops->dereg_mr(mr);
	return err;
}

/*
 * @ibpd's local_dma_lkey, when the HCA says it is what an SGT layout needs
 * in @pdn: a PA mkey of that PD with local read and write (mlx5 has no
 * device-wide DMA lkey: ib_alloc_pd() gives every kernel PD a DMA MR,
 * mlx5_ib_get_dma_mr()). Else 0: SGT layouts then need a key given.
 */
static u32 mlx5_umr_pd_dma_key(struct mlx5_umr_dev *dev, struct ib_pd *ibpd,
			       u32 pdn, void *out, int outlen)
{
	void *mkc = MLX5_ADDR_OF(query_mkey_out, out, memory_key_mkey_entry);
	u32 key = ibpd->local_dma_lkey;

	memset(out, 0, outlen);
	if (mlx5_umr_query_mkey(dev, key, out, outlen))
		return 0;
	if (MLX5_GET(mkc, mkc, pd) != pdn || MLX5_GET(mkc, mkc, free) ||
	    MLX5_GET(mkc, mkc, access_mode_1_0) != MLX5_MKC_ACCESS_MODE_PA ||
	    MLX5_GET(mkc, mkc, access_mode_4_2) ||
	    !MLX5_GET(mkc, mkc, length64) || !MLX5_GET(mkc, mkc, lr) ||
	    !MLX5_GET(mkc, mkc, lw))
		return 0;
	return key;
}

/**
 * mlx5_umr_pd_get_ib() - the PD of a ULP's struct ib_pd, for its mkeys
 * @dev: the device (mlx5_umr_dev_get_ib() of @ibpd->device)
 * @ibpd: a kernel PD (ib_alloc_pd()) of @dev's ib_device
 *
 * Learns the PD number from the HCA itself: creates an MR in @ibpd with
 * the verbs API (ib_alloc_mr(), through the backend), reads its mkey
 * context with QUERY_MKEY and frees it. No private mlx5_ib structure is
 * read, so this holds on every kernel, and the answer cannot be another
 * PD than @ibpd's: the MR was created in @ibpd by mlx5_ib. @ibpd's
 * local_dma_lkey becomes the PD's DMA key (@dma_lkey) when the HCA
 * confirms it is a PA mkey of that PD. Two to three commands: call it
 * once per PD, off the I/O path, and keep the result while @ibpd lives.
 *
 * Context: process context, may sleep.
 * Return: the PD (release with mlx5_umr_pd_put() before freeing @ibpd),
 * or ERR_PTR(): -EOPNOTSUPP for a PD of a non-mlx5 device (or a backend
 * without verbs), -EXDEV for a PD of another device, -EINVAL for a
 * userspace PD, -ENODEV after the device was unregistered, -ENOMEM, or
 * the error of a command or of ib_alloc_mr().
 */
struct mlx5_umr_pd *mlx5_umr_pd_get_ib(struct mlx5_umr_dev *dev,
				       struct ib_pd *ibpd)
{
	int outlen = MLX5_ST_SZ_BYTES(query_mkey_out);
	struct mlx5_umr_pd *pd;
	void *out;
	int err;

	might_sleep();
	if (!ibpd || !ibpd->device)
		return ERR_PTR(-EINVAL);
	if (ibpd->device->ops.driver_id != RDMA_DRIVER_MLX5)
		return ERR_PTR(-EOPNOTSUPP);
	if (!percpu_ref_tryget_live(&dev->users))
		return ERR_PTR(-ENODEV);
	err = -EXDEV;
	if (ibpd->device != dev->hca->ibdev)
		goto err_put;
	/* a user's PD: its owner is a process (the uapi's MLX5_UMR_IOCTL_SET_PD) */
	err = -EINVAL;
	if (ibpd->uobject)
		goto err_put;
	err = -ENOMEM;
	pd = kzalloc(sizeof(*pd), GFP_KERNEL);
	out = kzalloc(outlen, GFP_KERNEL);
	if (!pd || !out)
		goto err_free;
	err = mlx5_umr_pd_probe(dev, ibpd, out, outlen, &pd->pdn);
	if (err)
		goto err_free;
	/* no signature mkey in it: Documentation/signature.rst */
	err = mlx5_umr_pd_ib_count(dev, pd->pdn, true);
	if (err)
		goto err_free;
	pd->dma_lkey = mlx5_umr_pd_dma_key(dev, ibpd, pd->pdn, out, outlen);
	pd->dev = dev;
	kref_get(&dev->kref);
	kfree(out);
	percpu_ref_put(&dev->users);
	return pd;

err_free:
	kfree(out);
	kfree(pd);
err_put:
	percpu_ref_put(&dev->users);
	return ERR_PTR(err);
}
EXPORT_SYMBOL(mlx5_umr_pd_get_ib);

/**
 * mlx5_umr_pd_put() - release a PD from mlx5_umr_pd_get_ib()
 * @pd: the PD, or NULL
 *
 * The PD itself is the ULP's (ib_dealloc_pd()); mkeys created in it must be
 * freed first.
 *
 * Context: any.
 */
void mlx5_umr_pd_put(struct mlx5_umr_pd *pd)
{
	if (!pd)
		return;
	mlx5_umr_pd_ib_count(pd->dev, pd->pdn, false);
	mlx5_umr_dev_put(pd->dev);
	kfree(pd);
}
EXPORT_SYMBOL(mlx5_umr_pd_put);

/*
 * Is @file a uverbs command file (/dev/infiniband/uverbsN)? Its operations
 * are the char device's (chrdev_open() installs the cdev's f_op) and
 * belong to ib_uverbs. Judged by what the file is, never by its device
 * number; private_data is not looked at. The service does not link
 * ib_uverbs (it runs without the RDMA core): the module is known by its
 * name, unique in a running kernel (loading one takes CAP_SYS_MODULE). A
 * kernel with ib_uverbs built in (no owner) has no verified PDs.
 */
static bool mlx5_umr_is_uverbs_file(struct file *file)
{
	const struct file_operations *fop = file->f_op;
	struct inode *inode = file_inode(file);

	if (!S_ISCHR(inode->i_mode) || !inode->i_cdev ||
	    inode->i_cdev->ops != fop || !fop->owner)
		return false;
	return !strcmp(module_name(fop->owner), "ib_uverbs");
}

/**
 * mlx5_umr_pd_get_user() - a user's verbs PD, proven to be the caller's
 * @dev: the device, registered
 * @verbs: the caller's verbs command file (ibv_context.cmd_fd), held by
 *	the caller for as long as the PD is
 * @handle: the PD's handle in @verbs (ibv_pd.handle)
 * @id: the PD's resource-tracking id ("rdma res show pd")
 * @ibpd: set to the PD, held until mlx5_umr_pd_put_user()
 * @pdn: set to the PD's number, as the HCA knows it
 *
 * @verbs must be a uverbs command file (-EINVAL); the backend checks
 * that it is one of its ib_device where it can tell (-EXDEV), finds PD @id
 * on that device and accepts it only as @verbs' PD under @handle (struct
 * mlx5_umr_hca_ib_ops.user_pd_get, drivers/hw/user_pd.c).
 * The number comes from the HCA, as in mlx5_umr_pd_get_ib(): no private
 * mlx5_ib structure is read.
 *
 * Context: process context, may sleep; @dev's backend registered.
 * Return: 0, -EINVAL, -EXDEV, -EOPNOTSUPP (a backend without verified
 * PDs), -ENOENT, -EACCES, -EBUSY, -ENOMEM or a command's error.
 */
int mlx5_umr_pd_get_user(struct mlx5_umr_dev *dev, struct file *verbs,
			 u32 handle, u32 id, struct ib_pd **ibpd, u32 *pdn)
{
	const struct mlx5_umr_hca_ib_ops *ops = dev->hca->ib_ops;
	int outlen = MLX5_ST_SZ_BYTES(query_mkey_out);
	struct ib_pd *pd;
	void *out;
	int err;

	might_sleep();
	if (!mlx5_umr_is_uverbs_file(verbs))
		return -EINVAL;
	if (!ops || !ops->user_pd_get || !ops->user_pd_put)
		return -EOPNOTSUPP;
	out = kzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	pd = ops->user_pd_get(dev->hca, verbs, handle, id);
	if (IS_ERR(pd)) {
		err = PTR_ERR(pd);
		goto out;
	}
	err = mlx5_umr_pd_probe(dev, pd, out, outlen, pdn);
	if (err) {
		ops->user_pd_put(pd);
		goto out;
	}
	*ibpd = pd;
out:
	kfree(out);
	return err;
}

/**
 * mlx5_umr_pd_put_user() - release a PD of mlx5_umr_pd_get_user()
 * @dev: the device, still registered
 * @ibpd: the PD; no mkey of the service may be left in it
 *
 * Context: process context; before the PD's command file is released.
 */
void mlx5_umr_pd_put_user(struct mlx5_umr_dev *dev, struct ib_pd *ibpd)
{
	dev->hca->ib_ops->user_pd_put(ibpd);
}
