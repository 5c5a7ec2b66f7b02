// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr sample ULP.
 *
 * Per device it keeps a UMR channel per CPU (mlx5_umr_queue_create(), as
 * a blk-mq ULP keeps one per hardware queue) and a small pool of indirect
 * mkeys homed on each: an I/O maps on the pool of the CPU it runs on, so
 * I/Os on different CPUs share no lock and no send queue (module parameter
 * channels=shared: one pool on the device's own queues). A ULP's QPs can
 * use only keys of their PD: given the ULP's struct ib_pd
 * (mlx5_umr_sample_set_pd()), the sample finds the service's device from
 * the PD's ib_device, the HCA's PD from the ib_pd, and re-creates its pool
 * in that PD. Per I/O it DMA-maps the request's scatterlist, points one
 * pooled mkey at it through a device-address key of the mkey's PD
 * (MLX5_UMR_LAYOUT_SGT: the PD's DMA key, the ib_pd's local_dma_lkey, or
 * caps->dma_lkey in the service's PD) with the access the transfer needs
 * and a new key byte, and hands out the fresh rkey. When the I/O
 * completes it revokes the key asynchronously (mlx5_umr_revoke(), as a
 * ULP does from its completion handler), then unmaps and returns the mkey
 * to the pool when the revocation reports. A configure or invalidate that
 * may or may not have run (-EIO, -ETIMEDOUT) is never taken as "not
 * registered": the pages are unmapped only once the mkey is known dead
 * (sample_settle()).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/list.h>
#include <linux/rculist.h>
#include <linux/wait.h>
#include <linux/wait_bit.h>
#include <linux/completion.h>
#include <linux/mlx5_umr.h>
#include <rdma/ib_verbs.h>

#include "mlx5_umr_sample.h"

static unsigned int pool_size = 16;
module_param(pool_size, uint, 0444);
MODULE_PARM_DESC(pool_size, "indirect mkeys per channel");

static char *channels = "percpu";
module_param(channels, charp, 0444);
MODULE_PARM_DESC(channels,
		 "percpu: a UMR channel and a pool per CPU (default); shared: one pool on the device's queues");
static bool percpu_chans;

static unsigned int max_sges = 128;
module_param(max_sges, uint, 0444);
MODULE_PARM_DESC(max_sges, "scatterlist entries one I/O may have");

/**
 * struct mlx5_umr_sample_dev - per-device state
 * @list: on mlx5_umr_sample_devs
 * @dev: the UMR device
 * @busy: I/Os mapping or registered (remove() waits for 0:
 *	wait_var_event()); SAMPLE_SWAPPING while set_pd() swaps the pools,
 *	which the I/O path then leaves alone (-EBUSY)
 * @chans: the channels (one per CPU online at add(), or one with no
 *	channel of its own for channels=shared), @nchans of them
 * @nchans: how many
 * @cpu_chan: the channel of each possible CPU (a CPU offline at add()
 *	shares the first)
 * @pd: the ULP's PD the pools are in (mlx5_umr_sample_set_pd()), NULL for
 *	the service's
 */
struct mlx5_umr_sample_dev {
	struct list_head list;
	struct mlx5_umr_dev *dev;
	atomic_t busy;
	struct mlx5_umr_sample_chan *chans;
	unsigned int nchans;
	struct mlx5_umr_sample_chan **cpu_chan;
	struct mlx5_umr_pd *pd;
};

struct mlx5_umr_sample_slot {
	struct list_head node;
	struct mlx5_umr_sample_io io;
};

/*
 * Serializes changes of mlx5_umr_sample_devs (add, remove) and of a
 * device's pools (set_pd); the I/O path finds its device under RCU only,
 * so I/Os of different CPUs share no lock.
 */
static DEFINE_MUTEX(mlx5_umr_sample_lock);
static LIST_HEAD(mlx5_umr_sample_devs);

/* mlx5_umr_sample_dev.busy while the pools are swapped: below any count */
#define SAMPLE_SWAPPING	INT_MIN

/* Under rcu_read_lock() or mlx5_umr_sample_lock. */
static struct mlx5_umr_sample_dev *sample_find(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_sample_dev *sdev;

	list_for_each_entry_rcu(sdev, &mlx5_umr_sample_devs, list,
				lockdep_is_held(&mlx5_umr_sample_lock))
		if (sdev->dev == dev)
			return sdev;
	return NULL;
}

/* An I/O is done with its device (@sdev may be freed after this). */
static void sample_put_busy(struct mlx5_umr_sample_dev *sdev)
{
	/* wake_up_var() hashes the address: remove() may free @sdev now */
	if (atomic_dec_and_test(&sdev->busy))
		wake_up_var(&sdev->busy);
}

/*
 * Back to the pool it came from (whichever CPU runs this: the mkey is homed
 * on that pool's channel), or out of it for good when its mkey is gone.
 */
static void sample_put_slot(struct mlx5_umr_sample_io *io)
{
	struct mlx5_umr_sample_slot *slot =
		container_of(io, struct mlx5_umr_sample_slot, io);
	struct mlx5_umr_sample_chan *ch = io->chan;
	struct mlx5_umr_sample_dev *sdev = io->sdev;
	unsigned long flags;

	if (io->mkey) {
		spin_lock_irqsave(&ch->lock, flags);
		list_add(&slot->node, &ch->free);
		spin_unlock_irqrestore(&ch->lock, flags);
	}
	sample_put_busy(sdev);
}

/*
 * What mlx5_umr_revoke() reported: 0, the mkey is free on the HCA. Else
 * the key may still be live (the invalidation failed on the HCA, or the
 * device is going away and nothing was posted): destroy the mkey (the slot
 * leaves the pool); only if that fails too may the HCA still reach the
 * pages behind it.
 *
 * Context: process context, may sleep.
 * Return: true when the pages may be unmapped, false when the HCA may
 * still reach them through the mkey (they must stay mapped, for good).
 */
static bool sample_settle(struct mlx5_umr_sample_io *io, int revoked)
{
	u32 key;

	if (!revoked)
		return true;
	/* mlx5_umr_free_mkey() frees the mkey whatever it returns */
	key = io->mkey->key;
	if (mlx5_umr_free_mkey(io->mkey)) {
		io->mkey = NULL;
		pr_err("mlx5_umr_sample: rkey 0x%x may still be live; its pages stay mapped\n",
		       key);
		return false;
	}
	io->mkey = NULL;
	return true;
}

static void sample_sync_revoked(struct mlx5_umr_revoke *rv)
{
	complete(rv->context);
}

/*
 * A configure failed with -EIO or -ETIMEDOUT: it may or may not have run
 * (after a timeout the QP reset discards what was posted), so the mkey may
 * still grant its access over the I/O's pages. Before they are unmapped
 * the mkey must be known dead: revoke it and wait. -ECANCELED and
 * refusals never reached the HCA: nothing changed.
 *
 * Context: process context, may sleep.
 * Return: as sample_settle().
 */
static bool sample_revoke(struct mlx5_umr_sample_io *io, int status)
{
	DECLARE_COMPLETION_ONSTACK(done);

	if (status != -EIO && status != -ETIMEDOUT)
		return true;
	if (mlx5_umr_revoke(&io->revoke, io->mkey, sample_sync_revoked,
			    &done))
		return sample_settle(io, -EINVAL);
	wait_for_completion(&done);
	return sample_settle(io, io->revoke.status);
}

/**
 * mlx5_umr_sample_map() - register one I/O's scatterlist behind an rkey
 * @dev: the UMR device
 * @sgt: the I/O's pages; mapped here for the device
 * @len: bytes of the I/O, at most the scatterlist's length
 * @dir: DMA_TO_DEVICE (the peer reads: RDMA READ) or DMA_FROM_DEVICE (the
 *	peer writes: RDMA WRITE)
 *
 * The mkey comes from the pool of the CPU this starts on; the I/O keeps
 * it, whichever CPU the caller moves to.
 *
 * Context: process context, may sleep.
 * Return: the I/O with ->rkey set, or ERR_PTR(-EBUSY when this CPU's pool
 * is empty or mlx5_umr_sample_set_pd() is swapping the pools, -ENODEV,
 * or the mapping's or the UMR's error: @sgt is unmapped and no key
 * reaches it; or -EHWPOISON: the HCA may still reach @sgt's pages, which
 * stay mapped and must never be reused).
 */
struct mlx5_umr_sample_io *mlx5_umr_sample_map(struct mlx5_umr_dev *dev,
					       struct sg_table *sgt, u64 len,
					       enum dma_data_direction dir)
{
	struct mlx5_umr_sample_slot *slot = NULL;
	struct mlx5_umr_sample_dev *sdev;
	struct mlx5_umr_sample_chan *ch;
	struct mlx5_umr_sample_io *io;
	int err;

	if (dir != DMA_TO_DEVICE && dir != DMA_FROM_DEVICE)
		return ERR_PTR(-EINVAL);
	/*
	 * A real ULP holds its device; the sample looks it up, under RCU
	 * (remove() unlists it and waits for a grace period, then for
	 * @busy). Counted busy before a slot is taken, so that set_pd()
	 * either sees this I/O or makes it back off.
	 */
	rcu_read_lock();
	sdev = sample_find(dev);
	if (sdev && !atomic_inc_unless_negative(&sdev->busy))
		err = -EBUSY;
	else
		err = sdev ? 0 : -ENODEV;
	rcu_read_unlock();
	if (err)
		return ERR_PTR(err);
	/*
	 * The pool of the CPU this runs on (a blk-mq ULP: the hctx's). The
	 * task may move to another CPU from here on: the I/O keeps its
	 * channel and its unmap goes there (the mkey's home).
	 */
	ch = sdev->cpu_chan[raw_smp_processor_id()];
	spin_lock_irq(&ch->lock);
	slot = list_first_entry_or_null(&ch->free, struct mlx5_umr_sample_slot,
					node);
	if (slot)
		list_del(&slot->node);
	spin_unlock_irq(&ch->lock);
	if (!slot) {
		sample_put_busy(sdev);
		return ERR_PTR(-EBUSY);
	}

	io = &slot->io;
	io->sgt = sgt;
	io->dir = dir;
	err = mlx5_umr_dma_map_sg(dev, sgt, dir);
	if (err)
		goto err_slot;

	memset(&io->wr, 0, sizeof(io->wr));
	io->wr.mkey = io->mkey;
	io->wr.op = MLX5_UMR_OP_CONFIGURE;
	/*
	 * A fresh rkey per I/O, as NVMe-oF and iSER call
	 * ib_update_fast_reg_key() before every registration: a peer that
	 * kept the rkey of an earlier I/O reaches nothing through it.
	 */
	io->wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_NEW_KEY;
	io->wr.access = dir == DMA_TO_DEVICE ? MLX5_UMR_ACCESS_REMOTE_READ :
		MLX5_UMR_ACCESS_REMOTE_WRITE | MLX5_UMR_ACCESS_LOCAL_WRITE;
	io->wr.layout = MLX5_UMR_LAYOUT_SGT;
	io->wr.sgt.sgl = sgt->sgl;
	io->wr.sgt.nents = sgt->nents;
	io->wr.sgt.length = len;
	err = mlx5_umr_exec(dev, &io->wr, 0);
	if (err)
		goto err_revoke;
	io->rkey = io->wr.new_key;
	return io;

err_revoke:
	/* An mkey that may be live keeps the pages mapped, never recycled. */
	if (!sample_revoke(io, err)) {
		sample_put_slot(io);
		return ERR_PTR(-EHWPOISON);
	}
	mlx5_umr_dma_unmap_sg(dev, sgt, dir);
err_slot:
	sample_put_slot(io);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_NS_GPL(mlx5_umr_sample_map, MLX5_UMR_TESTING);

/* The I/O's key is revoked (process context): unmap, report, return. */
static void sample_unmap_revoked(struct mlx5_umr_revoke *rv)
{
	struct mlx5_umr_sample_io *io = rv->context;
	void (*done)(struct mlx5_umr_sample_io *io, int status) = io->done;
	int status = 0;

	if (sample_settle(io, rv->status))
		mlx5_umr_dma_unmap_sg(io->sdev->dev, io->sgt, io->dir);
	else
		status = -EHWPOISON;
	if (done)
		done(io, status);
	sample_put_slot(io);
}

/**
 * mlx5_umr_sample_unmap() - the I/O completed: revoke its rkey
 * @io: from mlx5_umr_sample_map()
 * @done: called after the rkey is invalid and the pages are unmapped,
 *	with status 0 (mlx5_umr_revoke() retries back-pressure and failed
 *	invalidations; when it still failed, or the device is going away,
 *	the mkey is destroyed), or -EHWPOISON when the rkey may still be
 *	live: the pages stay mapped and must never be reused; process
 *	context; @io must not be used after it returns
 * @context: stored in @io->context for @done
 *
 * Context: any context except hard IRQ; does not sleep.
 * Return: 0 (@done will be called).
 */
int mlx5_umr_sample_unmap(struct mlx5_umr_sample_io *io,
			  void (*done)(struct mlx5_umr_sample_io *io,
				       int status),
			  void *context)
{
	io->done = done;
	io->context = context;
	return mlx5_umr_revoke(&io->revoke, io->mkey, sample_unmap_revoked,
			       io);
}
EXPORT_SYMBOL_NS_GPL(mlx5_umr_sample_unmap, MLX5_UMR_TESTING);

/* The mkeys of every channel's pool; the channels stay. */
static void sample_free_pools(struct mlx5_umr_sample_dev *sdev)
{
	struct mlx5_umr_sample_chan *ch;
	unsigned int c, i;

	for (c = 0; c < sdev->nchans; c++) {
		ch = &sdev->chans[c];
		for (i = 0; i < ch->nios; i++) {
			/* the last revocation's work may still be returning */
			if (ch->ios[i].io.revoke.done)
				flush_delayed_work(&ch->ios[i].io.revoke.work);
			mlx5_umr_free_mkey(ch->ios[i].io.mkey);
		}
		kfree(ch->ios);
		ch->ios = NULL;
		ch->nios = 0;
		INIT_LIST_HEAD(&ch->free);
	}
}

/*
 * An indirect mkey in @pd (NULL: the service's PD) homed on @ch's channel
 * (without one: the allocating CPU's device queue), as
 * mlx5_umr_mkey_pool_init_q() makes them.
 */
static struct mlx5_umr_mkey *sample_alloc_mkey(struct mlx5_umr_sample_chan *ch,
					       struct mlx5_umr_pd *pd)
{
	struct mlx5_umr_mkey *mkey;
	int err;

	if (!pd)
		return ch->q ? mlx5_umr_queue_alloc_mkey(ch->q, max_sges, 0) :
			       mlx5_umr_alloc_mkey(ch->sdev->dev, max_sges, 0);
	mkey = mlx5_umr_alloc_mkey_in(pd, max_sges, 0);
	if (IS_ERR(mkey) || !ch->q)
		return mkey;
	/* a fresh mkey is idle: it moves */
	err = mlx5_umr_mkey_set_queue(mkey, ch->q);
	if (err) {
		mlx5_umr_free_mkey(mkey);
		return ERR_PTR(err);
	}
	return mkey;
}

/* A pool of indirect mkeys in @pd (NULL: the service's PD) per channel. */
static int sample_alloc_pools(struct mlx5_umr_sample_dev *sdev,
			      struct mlx5_umr_pd *pd)
{
	struct mlx5_umr_sample_chan *ch;
	struct mlx5_umr_mkey *mkey;
	unsigned int c, i;
	int err;

	for (c = 0; c < sdev->nchans; c++) {
		ch = &sdev->chans[c];
		ch->ios = kcalloc(pool_size, sizeof(*ch->ios), GFP_KERNEL);
		if (!ch->ios) {
			err = -ENOMEM;
			goto err_free;
		}
		for (i = 0; i < pool_size; i++) {
			mkey = sample_alloc_mkey(ch, pd);
			if (IS_ERR(mkey)) {
				err = PTR_ERR(mkey);
				goto err_free;
			}
			ch->ios[i].io.mkey = mkey;
			ch->ios[i].io.sdev = sdev;
			ch->ios[i].io.chan = ch;
			list_add_tail(&ch->ios[i].node, &ch->free);
			ch->nios++;
		}
	}
	return 0;

err_free:
	sample_free_pools(sdev);
	return err;
}

/* After the pools: a channel refuses (-EBUSY) while mkeys are homed on it. */
static void sample_destroy_chans(struct mlx5_umr_sample_dev *sdev)
{
	unsigned int c;

	for (c = 0; c < sdev->nchans; c++)
		WARN_ON_ONCE(mlx5_umr_queue_destroy(sdev->chans[c].q));
	kfree(sdev->chans);
	kfree(sdev->cpu_chan);
}

/*
 * channels=percpu: a channel for each online CPU, the n-th on completion
 * vector n, as nvme-rdma gives its I/O queue n (blk_mq_rdma_map_queues()
 * then maps that vector's CPUs to it). A CPU that comes online later has
 * none of its own and maps on the first channel: correct, only not
 * local. Without a channel, one pool on the device's queues.
 */
static int sample_create_chans(struct mlx5_umr_sample_dev *sdev)
{
	unsigned int n = percpu_chans ? num_online_cpus() : 1;
	struct mlx5_umr_sample_chan *ch;
	struct mlx5_umr_queue *q;
	unsigned int c;
	int cpu, err;

	sdev->cpu_chan = kcalloc(nr_cpu_ids, sizeof(*sdev->cpu_chan),
				 GFP_KERNEL);
	sdev->chans = kcalloc(n, sizeof(*sdev->chans), GFP_KERNEL);
	if (!sdev->cpu_chan || !sdev->chans) {
		err = -ENOMEM;
		goto err_free;
	}
	for (c = 0; c < n; c++) {
		sdev->chans[c].sdev = sdev;
		spin_lock_init(&sdev->chans[c].lock);
		INIT_LIST_HEAD(&sdev->chans[c].free);
	}
	for_each_possible_cpu(cpu)
		sdev->cpu_chan[cpu] = &sdev->chans[0];
	if (!percpu_chans) {
		sdev->nchans = 1;
		return 0;
	}
	for_each_online_cpu(cpu) {
		/* a CPU that came online since num_online_cpus() shares */
		if (sdev->nchans == n)
			break;
		ch = &sdev->chans[sdev->nchans];
		/* a configure and an invalidation for each I/O of the pool */
		q = mlx5_umr_queue_create(sdev->dev, sdev->nchans,
					  6 * pool_size, MLX5_UMR_COMP_IRQ);
		if (IS_ERR(q)) {
			err = PTR_ERR(q);
			goto err_destroy;
		}
		ch->q = q;
		sdev->cpu_chan[cpu] = ch;
		sdev->nchans++;
	}
	return 0;

err_destroy:
	sample_destroy_chans(sdev);
	return err;
err_free:
	kfree(sdev->chans);
	kfree(sdev->cpu_chan);
	return err;
}

static int sample_add(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_sample_dev *sdev;
	int err;

	sdev = kzalloc(sizeof(*sdev), GFP_KERNEL);
	if (!sdev)
		return -ENOMEM;
	sdev->dev = dev;
	atomic_set(&sdev->busy, 0);
	err = sample_create_chans(sdev);
	if (err)
		goto err_free;
	err = sample_alloc_pools(sdev, NULL);
	if (err)
		goto err_chans;
	mutex_lock(&mlx5_umr_sample_lock);
	list_add_tail_rcu(&sdev->list, &mlx5_umr_sample_devs);
	mutex_unlock(&mlx5_umr_sample_lock);
	return 0;

err_chans:
	sample_destroy_chans(sdev);
err_free:
	kfree(sdev);
	return err;
}

/*
 * The pools of @sdev are set_pd()'s until sample_pools_put(): no I/O is
 * registered or mapping, and none starts (-EBUSY). Under
 * mlx5_umr_sample_lock.
 */
static bool sample_pools_get(struct mlx5_umr_sample_dev *sdev)
{
	lockdep_assert_held(&mlx5_umr_sample_lock);
	return atomic_cmpxchg(&sdev->busy, 0, SAMPLE_SWAPPING) == 0;
}

/* The new pools are seen by whoever counts itself busy after this. */
static void sample_pools_put(struct mlx5_umr_sample_dev *sdev)
{
	atomic_set_release(&sdev->busy, 0);
}

/**
 * mlx5_umr_sample_set_pd() - put the pool of @ibpd's device in @ibpd
 * @ibpd: the ULP's kernel PD (ib_alloc_pd(); on a fake, its stand-in), or
 *	NULL to go back to the service's PD on every device
 *
 * What a ULP does once per PD: the service's device of the PD's
 * ib_device (mlx5_umr_dev_get_ib()), the HCA's PD of the ib_pd
 * (mlx5_umr_pd_get_ib()), and the pools' mkeys re-created in it (homed on
 * their channels as before), so that
 * the ULP's QPs of @ibpd can use the rkeys of later I/Os. Go back (NULL)
 * before freeing @ibpd.
 *
 * Context: process context, may sleep; no I/O of the device registered.
 * An I/O mapped meanwhile gets -EBUSY.
 * Return: 0, -ENODEV when the service does not drive @ibpd's device,
 * -EBUSY while an I/O is registered, or mlx5_umr_pd_get_ib()'s or the
 * allocation's error (the pools are then in the service's PD).
 */
int mlx5_umr_sample_set_pd(struct ib_pd *ibpd)
{
	struct mlx5_umr_sample_dev *sdev, *iter;
	struct mlx5_umr_dev *dev = NULL;
	struct mlx5_umr_pd *pd = NULL;
	int err = 0;

	mutex_lock(&mlx5_umr_sample_lock);
	list_for_each_entry(iter, &mlx5_umr_sample_devs, list) {
		if (ibpd || !iter->pd)
			continue;
		/* back to the service's PD */
		if (!sample_pools_get(iter)) {
			err = -EBUSY;
			break;
		}
		sample_free_pools(iter);
		mlx5_umr_pd_put(iter->pd);
		iter->pd = NULL;
		err = sample_alloc_pools(iter, NULL);
		sample_pools_put(iter);
		if (err)
			break;
	}
	if (!ibpd)
		goto out;
	dev = mlx5_umr_dev_get_ib(ibpd->device);
	sdev = dev ? sample_find(dev) : NULL;
	err = -ENODEV;
	if (!sdev)
		goto out;
	err = -EBUSY;
	if (!sample_pools_get(sdev))
		goto out;
	pd = mlx5_umr_pd_get_ib(dev, ibpd);
	if (IS_ERR(pd)) {
		err = PTR_ERR(pd);
		goto out_pools;
	}
	sample_free_pools(sdev);
	mlx5_umr_pd_put(sdev->pd);
	sdev->pd = pd;
	err = sample_alloc_pools(sdev, pd);
	if (err) {
		/* the service's PD, as after a failed mlx5_umr_pd_get_ib() */
		mlx5_umr_pd_put(sdev->pd);
		sdev->pd = NULL;
		sample_alloc_pools(sdev, NULL);
	}
out_pools:
	sample_pools_put(sdev);
out:
	mutex_unlock(&mlx5_umr_sample_lock);
	mlx5_umr_dev_put(dev);
	return err;
}
EXPORT_SYMBOL_NS_GPL(mlx5_umr_sample_set_pd, MLX5_UMR_TESTING);

/**
 * mlx5_umr_sample_chan() - the channel whose pool @cpu's I/Os map on
 * @dev: the UMR device
 * @cpu: a possible CPU
 *
 * For the tests: valid while @dev is registered.
 *
 * Context: process context, may sleep.
 * Return: the channel, or NULL when the sample does not drive @dev or
 * @cpu is out of range.
 */
struct mlx5_umr_sample_chan *mlx5_umr_sample_chan(struct mlx5_umr_dev *dev,
						  unsigned int cpu)
{
	struct mlx5_umr_sample_chan *ch = NULL;
	struct mlx5_umr_sample_dev *sdev;

	if (cpu >= nr_cpu_ids)
		return NULL;
	mutex_lock(&mlx5_umr_sample_lock);
	sdev = sample_find(dev);
	if (sdev)
		ch = sdev->cpu_chan[cpu];
	mutex_unlock(&mlx5_umr_sample_lock);
	return ch;
}
EXPORT_SYMBOL_NS_GPL(mlx5_umr_sample_chan, MLX5_UMR_TESTING);

static void sample_remove(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_sample_dev *sdev;

	mutex_lock(&mlx5_umr_sample_lock);
	sdev = sample_find(dev);
	if (sdev)
		list_del_rcu(&sdev->list);
	mutex_unlock(&mlx5_umr_sample_lock);
	if (!sdev)
		return;
	/* no map finds it after this; one that did is counted busy */
	synchronize_rcu();
	/* I/Os still registered belong to their owners: wait for them. */
	wait_var_event(&sdev->busy, !atomic_read(&sdev->busy));
	/* the pools' mkeys before the channels they are homed on */
	sample_free_pools(sdev);
	sample_destroy_chans(sdev);
	mlx5_umr_pd_put(sdev->pd);
	kfree(sdev);
}

static struct mlx5_umr_client sample_client = {
	.name = "mlx5_umr_sample",
	.add = sample_add,
	.remove = sample_remove,
};

static int __init sample_init(void)
{
	if (!pool_size || !max_sges)
		return -EINVAL;
	if (!strcmp(channels, "percpu"))
		percpu_chans = true;
	else if (strcmp(channels, "shared"))
		return -EINVAL;
	return mlx5_umr_register_client(&sample_client);
}
module_init(sample_init);

static void __exit sample_exit(void)
{
	mlx5_umr_unregister_client(&sample_client);
}
module_exit(sample_exit);

MODULE_DESCRIPTION("mlx5 UMR sample ULP: per-I/O scatterlist registration");
MODULE_AUTHOR("The mlx5-umr authors");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
