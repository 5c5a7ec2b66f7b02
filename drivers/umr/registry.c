// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: registry of HCAs offered by backends, consumer clients and
 * device references.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/mlx5_umr_hca.h>

#include "umr.h"

static unsigned int timeout_ms = 5000;
module_param(timeout_ms, uint, 0644);
MODULE_PARM_DESC(timeout_ms,
		 "UMR send queue watchdog and default mlx5_umr_exec() timeout (ms)");

/*
 * Serializes client registration and every add()/remove() call; protects
 * mlx5_umr_clients and each device's ->clients. Taken before
 * mlx5_umr_devs_lock.
 */
static DEFINE_MUTEX(mlx5_umr_clients_lock);
static LIST_HEAD(mlx5_umr_clients);

/* Protects mlx5_umr_devs (devices reachable by name). */
static DEFINE_MUTEX(mlx5_umr_devs_lock);
static LIST_HEAD(mlx5_umr_devs);

static void mlx5_umr_dev_release(struct kref *kref)
{
	struct mlx5_umr_dev *dev = container_of(kref, struct mlx5_umr_dev,
						 kref);

	percpu_ref_exit(&dev->users);
	mlx5_umr_queues_free(dev);
	kfree(dev);
}

static void mlx5_umr_users_release(struct percpu_ref *ref)
{
	struct mlx5_umr_dev *dev = container_of(ref, struct mlx5_umr_dev,
						 users);

	complete(&dev->users_done);
}

/* Tell @client about @dev (->add()) and remember it. */
static void mlx5_umr_client_add(struct mlx5_umr_dev *dev,
				struct mlx5_umr_client *client)
{
	struct mlx5_umr_client_ctx *ctx;
	int err;

	lockdep_assert_held(&mlx5_umr_clients_lock);
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return;
	ctx->client = client;
	err = client->add ? client->add(dev) : 0;
	if (err) {
		dev_warn(dev->hca->dev, "umr: client %s add failed: %d\n",
			 client->name, err);
		kfree(ctx);
		return;
	}
	list_add_tail(&ctx->list, &dev->clients);
}

/* Tell @client (every client when NULL) that @dev goes (->remove()). */
static void mlx5_umr_client_remove(struct mlx5_umr_dev *dev,
				   struct mlx5_umr_client *client)
{
	struct mlx5_umr_client_ctx *ctx, *tmp;

	lockdep_assert_held(&mlx5_umr_clients_lock);
	list_for_each_entry_safe_reverse(ctx, tmp, &dev->clients, list) {
		if (client && ctx->client != client)
			continue;
		if (ctx->client->remove)
			ctx->client->remove(dev);
		list_del(&ctx->list);
		kfree(ctx);
	}
}

/*
 * mlx5_umr_hca_add() - mlx5_umr_register_hca(), with the test hooks of a
 * software HCA in a test build (testing.c); NULL otherwise.
 */
int mlx5_umr_hca_add(struct mlx5_umr_hca *hca,
		     const struct mlx5_umr_test_hca_ops *test_ops)
{
	const struct mlx5_umr_hca_ops *ops = hca->ops;
	struct mlx5_umr_client *client;
	struct mlx5_umr_dev *dev;
	int err;

	if (!ops || !ops->cmd_exec || !ops->create_cq || !ops->destroy_cq ||
	    !ops->alloc_dma_buf || !ops->free_dma_buf || !ops->dma_map_sg ||
	    !ops->dma_unmap_sg || !ops->alloc_uar || !ops->free_uar ||
	    !ops->write_db || !hca->name[0] || !hca->dev)
		return -EINVAL;

	dev = kzalloc_node(sizeof(*dev), GFP_KERNEL, hca->numa_node);
	if (!dev)
		return -ENOMEM;
	dev->hca = hca;
	strscpy(dev->name, hca->name, sizeof(dev->name));
#ifdef MLX5_UMR_TESTING
	dev->test_ops = test_ops;
#endif
	kref_init(&dev->kref);
	init_completion(&dev->users_done);
	INIT_LIST_HEAD(&dev->clients);
	INIT_LIST_HEAD(&dev->mkeys);
	mutex_init(&dev->mkeys_lock);
	xa_init_flags(&dev->sig_mkeys, XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&dev->ib_pdns, XA_FLAGS_LOCK_IRQ);
	mlx5_umr_chans_init(dev);
	mlx5_umr_pd_queues_init(dev);
	dev->timeout = msecs_to_jiffies(max(timeout_ms, 1U));
	err = percpu_ref_init(&dev->users, mlx5_umr_users_release, 0,
			      GFP_KERNEL);
	if (err)
		goto err_free;

	err = mlx5_umr_dev_init(dev);
	if (err) {
		dev_err(hca->dev, "umr: bring-up failed: %d\n", err);
		goto err_ref;
	}

	mutex_lock(&mlx5_umr_clients_lock);
	mutex_lock(&mlx5_umr_devs_lock);
	list_add_tail(&dev->list, &mlx5_umr_devs);
	hca->umr = dev;
	mutex_unlock(&mlx5_umr_devs_lock);
	list_for_each_entry(client, &mlx5_umr_clients, list)
		mlx5_umr_client_add(dev, client);
	mutex_unlock(&mlx5_umr_clients_lock);
	return 0;

err_ref:
	percpu_ref_exit(&dev->users);
err_free:
	kfree(dev);
	return err;
}

/**
 * mlx5_umr_register_hca() - offer an HCA to the UMR service
 * @hca: the HCA, embedded in the backend's device state
 *
 * Brings up the UMR resources (PD, CQ, REG_UMR QP in RTS) and tells every
 * registered client about the new device.
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno; on success @hca->umr is set until
 * mlx5_umr_unregister_hca() returns.
 */
int mlx5_umr_register_hca(struct mlx5_umr_hca *hca)
{
	return mlx5_umr_hca_add(hca, NULL);
}
EXPORT_SYMBOL(mlx5_umr_register_hca);

/**
 * mlx5_umr_unregister_hca() - withdraw an HCA from the UMR service
 * @hca: an HCA passed to mlx5_umr_register_hca()
 *
 * Tells the clients the device is going, makes every new call on it fail
 * with -ENODEV, waits for the calls and requests in flight (polling the
 * polled channels, and recovering the queues, which fails them, if they
 * do not complete in time), destroys leftover mkeys, the QPs and CQs of
 * the channels clients left and tears the queues, UAR and PD down. References taken
 * with mlx5_umr_dev_get() stay valid until put.
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_unregister_hca(struct mlx5_umr_hca *hca)
{
	struct mlx5_umr_dev *dev = hca->umr;
	u16 i;

	if (!dev)
		return;
	mutex_lock(&mlx5_umr_clients_lock);
	mutex_lock(&mlx5_umr_devs_lock);
	list_del(&dev->list);
	mutex_unlock(&mlx5_umr_devs_lock);
	mlx5_umr_client_remove(dev, NULL);
	mutex_unlock(&mlx5_umr_clients_lock);

	percpu_ref_kill(&dev->users);
	mlx5_umr_chans_wait_users(dev);
	for (i = 0; i < dev->nqueues; i++)
		mlx5_umr_sq_stop(dev->queues[i]);
	mlx5_umr_chans_stop(dev);
	mlx5_umr_mkeys_teardown(dev);
	/* PD queues of signature mkeys left: mlx5_umr_free_mkey() frees */
	mlx5_umr_pd_queues_teardown(dev);
	/* channels a client left: their QPs go, mlx5_umr_queue_destroy() frees */
	mlx5_umr_chans_teardown(dev);
	mlx5_umr_dev_cleanup(dev);

	mutex_lock(&dev->mkeys_lock);
	dev->hca = NULL;
	mutex_unlock(&dev->mkeys_lock);
	hca->umr = NULL;
	kref_put(&dev->kref, mlx5_umr_dev_release);
}
EXPORT_SYMBOL(mlx5_umr_unregister_hca);

/**
 * mlx5_umr_register_client() - register a consumer of UMR devices
 * @client: the client; ->add() is called for every device present now and
 *	for every device registered later
 *
 * Context: process context, may sleep.
 * Return: 0.
 */
int mlx5_umr_register_client(struct mlx5_umr_client *client)
{
	struct mlx5_umr_dev *dev;

	mutex_lock(&mlx5_umr_clients_lock);
	list_add_tail(&client->list, &mlx5_umr_clients);
	list_for_each_entry(dev, &mlx5_umr_devs, list)
		mlx5_umr_client_add(dev, client);
	mutex_unlock(&mlx5_umr_clients_lock);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_register_client);

/**
 * mlx5_umr_unregister_client() - unregister a consumer
 * @client: a registered client; ->remove() is called for every device
 *	whose ->add() succeeded
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_unregister_client(struct mlx5_umr_client *client)
{
	struct mlx5_umr_dev *dev;

	mutex_lock(&mlx5_umr_clients_lock);
	list_for_each_entry(dev, &mlx5_umr_devs, list)
		mlx5_umr_client_remove(dev, client);
	list_del(&client->list);
	mutex_unlock(&mlx5_umr_clients_lock);
}
EXPORT_SYMBOL(mlx5_umr_unregister_client);

/**
 * mlx5_umr_dev_get() - find a device by name and take a reference
 * @name: the HCA name (ib_device name, "fakeN"), or NULL for the first
 *	registered device
 *
 * The reference keeps the structure alive, not the device: after the
 * backend unregisters it, calls fail with -ENODEV.
 *
 * Context: process context, may sleep.
 * Return: the device or NULL.
 */
struct mlx5_umr_dev *mlx5_umr_dev_get(const char *name)
{
	struct mlx5_umr_dev *dev, *found = NULL;

	mutex_lock(&mlx5_umr_devs_lock);
	list_for_each_entry(dev, &mlx5_umr_devs, list) {
		if (!name || !strcmp(dev->name, name)) {
			kref_get(&dev->kref);
			found = dev;
			break;
		}
	}
	mutex_unlock(&mlx5_umr_devs_lock);
	return found;
}
EXPORT_SYMBOL(mlx5_umr_dev_get);

/**
 * mlx5_umr_dev_get_ib() - find the device of an RDMA device, with a reference
 * @ibdev: an ib_device a ULP holds (its ib_client's add(), a QP's
 *	->device)
 *
 * The hardware backend registers each mlx5 HCA with its ib_device; a
 * ULP finds the service's device by that pointer rather than by name (a
 * name can change under "rdma dev set name"). Release with
 * mlx5_umr_dev_put().
 *
 * Context: process context, may sleep.
 * Return: the device, or NULL when the service does not drive @ibdev (not
 * an mlx5 device, a device the backend ignored, or one already gone).
 */
struct mlx5_umr_dev *mlx5_umr_dev_get_ib(const struct ib_device *ibdev)
{
	struct mlx5_umr_dev *dev, *found = NULL;

	if (!ibdev)
		return NULL;
	mutex_lock(&mlx5_umr_devs_lock);
	/* listed devices have their hca (unregister unlists first) */
	list_for_each_entry(dev, &mlx5_umr_devs, list) {
		if (dev->hca->ibdev == ibdev) {
			kref_get(&dev->kref);
			found = dev;
			break;
		}
	}
	mutex_unlock(&mlx5_umr_devs_lock);
	return found;
}
EXPORT_SYMBOL(mlx5_umr_dev_get_ib);

/**
 * mlx5_umr_dev_hold() - take another reference on a device
 * @dev: a device the caller holds a reference on (or got in ->add())
 *
 * Context: any.
 */
void mlx5_umr_dev_hold(struct mlx5_umr_dev *dev)
{
	kref_get(&dev->kref);
}
EXPORT_SYMBOL(mlx5_umr_dev_hold);

/**
 * mlx5_umr_dev_put() - drop a reference from mlx5_umr_dev_get()
 * @dev: the device, or NULL
 *
 * Context: any.
 */
void mlx5_umr_dev_put(struct mlx5_umr_dev *dev)
{
	if (dev)
		kref_put(&dev->kref, mlx5_umr_dev_release);
}
EXPORT_SYMBOL(mlx5_umr_dev_put);

/**
 * mlx5_umr_dev_name() - the device's name
 * @dev: the device
 *
 * Context: any.
 * Return: the HCA name given at registration.
 */
const char *mlx5_umr_dev_name(const struct mlx5_umr_dev *dev)
{
	return dev->name;
}
EXPORT_SYMBOL(mlx5_umr_dev_name);

/**
 * mlx5_umr_dev_caps() - the device's capabilities
 * @dev: the device
 *
 * Context: any.
 * Return: capabilities, constant for the device's lifetime.
 */
const struct mlx5_umr_caps *mlx5_umr_dev_caps(const struct mlx5_umr_dev *dev)
{
	return &dev->caps;
}
EXPORT_SYMBOL(mlx5_umr_dev_caps);

/**
 * mlx5_umr_dma_map_sg() - map a scatterlist for the device
 * @dev: the device
 * @sgt: the table; sets sg_dma_address/len and ->nents
 * @dir: direction of the data
 *
 * The mapped addresses are what MLX5_UMR_LAYOUT_SGT places behind the
 * service's DMA mkey (caps->dma_lkey).
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno (-ENODEV after unregistration).
 */
int mlx5_umr_dma_map_sg(struct mlx5_umr_dev *dev, struct sg_table *sgt,
			enum dma_data_direction dir)
{
	int ret;

	if (!percpu_ref_tryget_live(&dev->users))
		return -ENODEV;
	ret = mlx5_umr_hca_map_sg(dev->hca, sgt, dir);
	percpu_ref_put(&dev->users);
	return ret;
}
EXPORT_SYMBOL(mlx5_umr_dma_map_sg);

/**
 * mlx5_umr_dma_unmap_sg() - undo mlx5_umr_dma_map_sg()
 * @dev: the device
 * @sgt: the table
 * @dir: as given to mlx5_umr_dma_map_sg()
 *
 * The DMA API wants every mapping undone on the device that made it
 * while that device is bound (dma_unmap_sg() gives an IOMMU's IOVAs back,
 * copies swiotlb bounce buffers out and frees them): this unmaps also
 * while the device is being unregistered, when new calls get -ENODEV.
 * Call it before the device's client ->remove() returns, at the latest
 * before mlx5_umr_unregister_hca() returns; after that the mapping cannot
 * be undone any more (the backend's device may be gone): it is leaked,
 * with a warning.
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_dma_unmap_sg(struct mlx5_umr_dev *dev, struct sg_table *sgt,
			   enum dma_data_direction dir)
{
	/* mkeys_lock keeps dev->hca until unregister ends */
	mutex_lock(&dev->mkeys_lock);
	if (dev->hca)
		mlx5_umr_hca_unmap_sg(dev->hca, sgt, dir);
	else
		WARN_ONCE(1, "mlx5_umr %s: DMA unmap after unregister, mapping leaked\n",
			  dev->name);
	mutex_unlock(&dev->mkeys_lock);
}
EXPORT_SYMBOL(mlx5_umr_dma_unmap_sg);

MODULE_DESCRIPTION("mlx5 UMR service");
MODULE_AUTHOR("The mlx5-umr authors");
MODULE_LICENSE("Dual BSD/GPL");
