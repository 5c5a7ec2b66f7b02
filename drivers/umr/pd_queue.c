// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: PD queues, the home of the signature mkeys whose PSVs are in
 * a PD other than the service's (Documentation/signature.rst, "PSVs and
 * their PD"; Documentation/service.rst, "Queues and ordering").
 *
 * Both references post SET_PSV on a QP of the PSV's PD. Linux 6.12
 * mlx5_ib creates an MR's PSVs in its PD (mr.c
 * mlx5_alloc_integrity_descs(): mlx5_core_create_psv(...,
 * to_mpd(pd)->pdn, ...)) and posts SET_PSV on the consumer's QP, in that
 * PD (wr.c handle_reg_mr_integrity() -> set_psv_wr()); rdma-core 691953d8d
 * creates them in the mkey's PD (verbs.c mlx5_create_sig_psvs()) and posts
 * them on the application's QP (qp.c umr_finalize_and_set_psvs()). A
 * REG_UMR QP modifies mkeys of any PD (umr.c mlx5r_umr_rereg_pd_access()),
 * so only the signature chain (UMR + two SET_PSV, one WQE sequence,
 * sig_wqe.c) needs a QP of the mkey's PD; other mkeys stay on the device
 * queues.
 *
 * A PD queue is a device-style queue (IRQ completions, recovery, timeouts,
 * unplug through mlx5_umr_dev.chans) whose QP is created in the PD. Its
 * pointer-mode translation tables are read with a key of that PD, as
 * mlx5_ib's REG_UMR QP reads them with its own PD's local_dma_lkey (umr.c
 * mlx5r_umr_create_xlt()): a local-only PA mkey the queue creates in the
 * PD. That key reaches all of memory, so it exists only where no user QP
 * does: a kernel PD from mlx5_umr_pd_alloc() (ib_pd PDs are refused for
 * signature) or a file's own PD. The PD queue of a user's verified verbs
 * PD (mlx5_umr_uapi_alloc_mkey() with @user_pd) has none: its mkeys'
 * translation tables travel inline in the WQE.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/err.h>
#include <linux/xarray.h>

#include "umr.h"

/**
 * mlx5_umr_pd_queues_init() - no PD queue yet
 * @dev: a device being registered
 */
void mlx5_umr_pd_queues_init(struct mlx5_umr_dev *dev)
{
	mutex_init(&dev->pdq_lock);
	xa_init(&dev->pd_queues);
}

/*
 * The PA mkey of a PD queue whose QP is gone, and the PD when its free was
 * deferred. A PA mkey the HCA did not destroy keeps its PD.
 */
static void mlx5_umr_pd_queue_release(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_dev *dev = q->dev;

	lockdep_assert_held(&dev->pdq_lock);
	if (!q->user_pd && mlx5_umr_destroy_dma_mkey(dev, q->wq_ctx.ptr_lkey)) {
		mutex_lock(&dev->mkeys_lock);
		mlx5_umr_pd_keep(dev, q->pdn);
		mutex_unlock(&dev->mkeys_lock);
	}
	if (q->free_pd)
		mlx5_umr_pd_dealloc(dev, q->pdn);
}

static struct mlx5_umr_queue *mlx5_umr_pd_queue_create(struct mlx5_umr_dev *dev,
						       u32 pdn, bool user_pd)
{
	struct mlx5_umr_queue *home = mlx5_umr_cpu_queue(dev);
	struct mlx5_umr_queue *q;
	int err;

	lockdep_assert_held(&dev->pdq_lock);
	/* completions near the CPU that allocates its first mkey */
	q = mlx5_umr_queue_alloc_on(dev, 0, home->cpu, home->vector,
				    1U << MLX5_UMR_LOG_SQ_BBS);
	if (!q)
		return ERR_PTR(-ENOMEM);
	q->pdq = true;
	q->pdn = pdn;
	q->user_pd = user_pd;
	if (!user_pd) {
		err = mlx5_umr_create_dma_mkey(dev, pdn, &q->wq_ctx.ptr_lkey);
		if (err)
			goto err_free;
	}
	err = mlx5_umr_queue_init(q);
	if (err)
		goto err_mkey;
	err = xa_err(xa_store(&dev->pd_queues, pdn, q, GFP_KERNEL));
	if (err)
		goto err_queue;
	mutex_lock(&dev->chans_mutex);
	spin_lock_irq(&dev->chans_lock);
	list_add_tail(&q->chan, &dev->chans);
	spin_unlock_irq(&dev->chans_lock);
	mutex_unlock(&dev->chans_mutex);
	return q;

err_queue:
	mlx5_umr_sq_stop(q);
	mlx5_umr_queue_cleanup(q);
err_mkey:
	mlx5_umr_pd_queue_release(q);
err_free:
	mlx5_umr_queue_free(q);
	return ERR_PTR(err);
}

/**
 * mlx5_umr_pd_queue_get() - the PD queue of @pdn, created by the first
 * @dev: the device
 * @pdn: a PD from mlx5_umr_pd_alloc(): not the service's, not an ib_pd's
 * @user_pd: @pdn is a user's verified verbs PD: the queue gets no PA mkey
 *
 * Context: process context, may sleep.
 * Return: the queue, holding a reference for mlx5_umr_pd_queue_put(); or
 * ERR_PTR(-EINVAL) for the service's PD (its queues are the device's),
 * -EOPNOTSUPP for an ib_pd's (mlx5_umr_pd_is_ib()), -EBUSY when the PD's
 * queue exists with the other @user_pd, -ENODEV after unregistration,
 * -ENOMEM, or the HCA's error (-EREMOTEIO: an unknown PD).
 */
struct mlx5_umr_queue *mlx5_umr_pd_queue_get(struct mlx5_umr_dev *dev,
					     u32 pdn, bool user_pd)
{
	struct mlx5_umr_queue *q;

	might_sleep();
	if (pdn == dev->caps.pdn || pdn > MLX5_UMR_PDN_MAX)
		return ERR_PTR(-EINVAL);
	if (mlx5_umr_pd_is_ib(dev, pdn))
		return ERR_PTR(-EOPNOTSUPP);
	if (!percpu_ref_tryget_live(&dev->users))
		return ERR_PTR(-ENODEV);
	mutex_lock(&dev->pdq_lock);
	q = xa_load(&dev->pd_queues, pdn);
	if (!q)
		q = mlx5_umr_pd_queue_create(dev, pdn, user_pd);
	else if (q->user_pd != user_pd)
		/* never a PA mkey where a user's QPs are */
		q = ERR_PTR(-EBUSY);
	if (!IS_ERR(q))
		q->refs++;
	mutex_unlock(&dev->pdq_lock);
	percpu_ref_put(&dev->users);
	return q;
}

/**
 * mlx5_umr_pd_queue_put() - drop a reference of mlx5_umr_pd_queue_get()
 * @q: the PD queue; after the last reference nothing may be in flight on
 *	it (its mkeys are freed)
 *
 * The last reference destroys the queue's QP, CQ and PA mkey (unless
 * unregistration did) and deallocates the PD when mlx5_umr_pd_free() came
 * meanwhile; then frees the structure.
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_pd_queue_put(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_dev *dev = q->dev;
	bool gone;

	mutex_lock(&dev->pdq_lock);
	if (--q->refs) {
		mutex_unlock(&dev->pdq_lock);
		return;
	}
	xa_erase(&dev->pd_queues, q->pdn);
	/* vs unregistration's walks of the channels */
	mutex_lock(&dev->chans_mutex);
	spin_lock_irq(&dev->chans_lock);
	list_del(&q->chan);
	spin_unlock_irq(&dev->chans_lock);
	gone = q->gone;
	if (!gone) {
		mlx5_umr_sq_stop(q);
		mlx5_umr_queue_cleanup(q);
	}
	mutex_unlock(&dev->chans_mutex);
	if (!gone)
		mlx5_umr_pd_queue_release(q);
	mutex_unlock(&dev->pdq_lock);
	mlx5_umr_queue_free(q);
}

/**
 * mlx5_umr_pd_queues_teardown() - destroy the PD queues left at unplug
 * @dev: the device, its queues stopped and its mkeys torn down
 *
 * Their QPs, CQs and PA mkeys go, and the PDs whose free was deferred;
 * the structures stay, marked gone, for the mkeys still holding them.
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_pd_queues_teardown(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_queue *q;
	unsigned long pdn;

	mutex_lock(&dev->pdq_lock);
	xa_for_each(&dev->pd_queues, pdn, q) {
		mutex_lock(&dev->chans_mutex);
		mlx5_umr_queue_cleanup(q);
		q->gone = true;
		mutex_unlock(&dev->chans_mutex);
		mlx5_umr_pd_queue_release(q);
	}
	mutex_unlock(&dev->pdq_lock);
}
