// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: device lifetime, the backend ops, the test API.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/idr.h>
#include <linux/list.h>

#include "fake.h"

static unsigned int nr_devs = 1;
module_param(nr_devs, uint, 0444);
MODULE_PARM_DESC(nr_devs, "number of fake HCAs registered at load (default 1)");

static bool async_exec;
module_param(async_exec, bool, 0444);
MODULE_PARM_DESC(async_exec,
		 "load-time fakes execute WQEs from a workqueue (default: in write_db)");

/*
 * The device generation of the load-time fakes, for the selftests of the
 * test build (Documentation/fake.rst, "Crypto profiles"): the KUnit
 * suites make their own fakes.
 */
static uint crypto_profile = MLX5_UMR_FAKE_CRYPTO_MULTI_LE;
module_param(crypto_profile, uint, 0444);
MODULE_PARM_DESC(crypto_profile,
		 "load-time fakes' crypto: 0 none, 1 single-block LE, 2 multi-block LE (default), 3 multi-block BE");

static bool sigerr_domain = true;
module_param(sigerr_domain, bool, 0444);
MODULE_PARM_DESC(sigerr_domain,
		 "load-time fakes report sigerr_domain_and_sig_type (default: yes)");

static DEFINE_IDA(fake_ida);
static struct device *fake_root;
static struct mlx5_umr_fake **fake_devs;

static int fake_create_cq(struct mlx5_umr_hca *hca, struct mlx5_umr_hca_cq *cq,
			  void *in, int inlen)
{
	u32 out[MLX5_ST_SZ_DW(create_cq_out)];
	void *cqc;
	u32 eqn;
	int err;

	if (inlen < MLX5_ST_SZ_BYTES(create_cq_in) || !cq->comp)
		return -EINVAL;
	cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	/*
	 * The vector the service asked for, else the backend's choice,
	 * round-robin over the vectors, as drivers/hw (ops.c
	 * mlx5_umr_hw_create_cq()). EQ n runs its events on a CPU of its own
	 * where there are CPUs enough (fake_eqn_cpu()).
	 */
	eqn = cq->vector >= 0 ? (u32)cq->vector :
	      (u32)atomic_inc_return(&to_fake(hca)->next_eqn) - 1;
	MLX5_SET(cqc, cqc, c_eqn_or_apu_element, eqn);
	err = fake_cmd_do(to_fake(hca), in, inlen, out, sizeof(out), cq);
	if (err == -EREMOTEIO)
		dev_dbg(hca->dev, "CREATE_CQ status 0x%x syndrome 0x%x\n",
			MLX5_GET(create_cq_out, out, status),
			MLX5_GET(create_cq_out, out, syndrome));
	return err;
}

static int fake_destroy_cq_op(struct mlx5_umr_hca *hca,
			      struct mlx5_umr_hca_cq *cq)
{
	u32 in[MLX5_ST_SZ_DW(destroy_cq_in)] = {};
	u32 out[MLX5_ST_SZ_DW(destroy_cq_out)];
	int err;

	MLX5_SET(destroy_cq_in, in, opcode, MLX5_CMD_OP_DESTROY_CQ);
	MLX5_SET(destroy_cq_in, in, cqn, cq->cqn);
	err = fake_cmd_do(to_fake(hca), in, sizeof(in), out, sizeof(out), NULL);
	if (err)
		dev_err(hca->dev, "DESTROY_CQ 0x%x failed: status 0x%x syndrome 0x%x\n",
			cq->cqn, MLX5_GET(destroy_cq_out, out, status),
			MLX5_GET(destroy_cq_out, out, syndrome));
	return err;
}

static int fake_alloc_uar(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar)
{
	struct mlx5_umr_fake *fd = to_fake(hca);
	struct fake_uar *u;
	unsigned long flags;
	u32 id;

	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	if (xa_alloc_irq(&fd->uars, &id, u, XA_LIMIT(1, FAKE_MAX_IDX),
			 GFP_KERNEL)) {
		kfree(u);
		return -ENOMEM;
	}
	u->index = id;
	uar->index = id;
	uar->backend = u;
	spin_lock_irqsave(&fd->lock, flags);
	fd->cnt.uars++;
	spin_unlock_irqrestore(&fd->lock, flags);
	return 0;
}

static void fake_free_uar(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar)
{
	struct mlx5_umr_fake *fd = to_fake(hca);
	unsigned long flags;

	spin_lock_irqsave(&fd->lock, flags);
	fake_xa_erase(fd, &fd->uars, uar->index);
	fd->cnt.uars--;
	spin_unlock_irqrestore(&fd->lock, flags);
	kfree(uar->backend);
	uar->backend = NULL;
}

static bool fake_internal_error(struct mlx5_umr_hca *hca)
{
	return READ_ONCE(to_fake(hca)->internal_error);
}

static const struct mlx5_umr_hca_ops fake_ops = {
	.cmd_exec = fake_cmd_exec,
	.create_cq = fake_create_cq,
	.destroy_cq = fake_destroy_cq_op,
	.alloc_dma_buf = fake_alloc_dma_buf,
	.free_dma_buf = fake_free_dma_buf,
	.dma_map_sg = fake_dma_map_sg,
	.dma_unmap_sg = fake_dma_unmap_sg,
	.alloc_uar = fake_alloc_uar,
	.free_uar = fake_free_uar,
	.write_db = fake_write_db,
	.internal_error = fake_internal_error,
};

/* The data path tests drive through keys (MLX5_UMR_TESTING). */
static const struct mlx5_umr_test_hca_ops fake_test_ops = {
	.xfer = fake_test_xfer,
	.xfer_out = fake_test_xfer_out,
};

/**
 * mlx5_umr_fake_attr_init() - default attributes (test-only)
 * @attr: filled with workqueue completions, no registration and the
 *	capabilities of a ConnectX-6-like HCA, crypto profile
 *	MLX5_UMR_FAKE_CRYPTO_MULTI_LE
 */
void mlx5_umr_fake_attr_init(struct mlx5_umr_fake_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->caps.log_max_klm_list_size = 16;
	attr->caps.umr_fence = 1;	/* MLX5_CAP_UMR_FENCE_SMALL */
	attr->caps.umr_extended_translation_offset = true;
	attr->caps.atomic = true;
	attr->caps.umr_ptr_rlky = true;
	attr->caps.log_max_qp_sz = 15;
	attr->caps.log_max_cq_sz = 22;
	mlx5_umr_fake_set_crypto(&attr->caps, MLX5_UMR_FAKE_CRYPTO_MULTI_LE);
	/* rdma-core offers signature only with it (get_hca_sig_caps()) */
	attr->caps.sigerr_domain_and_sig_type = true;
	/* 256 user contexts: DEVX (Documentation/fake.rst) */
	attr->caps.log_max_uctx = 8;
}
EXPORT_SYMBOL(mlx5_umr_fake_attr_init);

static void fake_dev_release(struct device *dev)
{
	struct mlx5_umr_fake *fd = container_of(dev, struct mlx5_umr_fake, dev);

	kfree(fd->wqe_log);
	fake_exec_log_free(fd);
	free_percpu(fd->ev);
	if (fd->wq)
		destroy_workqueue(fd->wq);
	if (fd->id >= 0)
		ida_free(&fake_ida, fd->id);
	kfree(fd);
}

/**
 * mlx5_umr_fake_create() - create a fake HCA (test-only)
 * @attr: attributes, from mlx5_umr_fake_attr_init() then adjusted
 *
 * The fake is named fakeN, N unique among live fakes. With
 * MLX5_UMR_FAKE_F_REGISTER it is offered to the UMR service.
 *
 * Context: process, may sleep.
 * Return: the fake or an ERR_PTR().
 */
struct mlx5_umr_fake *mlx5_umr_fake_create(const struct mlx5_umr_fake_attr *attr)
{
	struct mlx5_umr_fake *fd;
	int err;

	fd = kzalloc(sizeof(*fd), GFP_KERNEL);
	if (!fd)
		return ERR_PTR(-ENOMEM);
	device_initialize(&fd->dev);
	fd->dev.release = fake_dev_release;
	fd->dev.parent = fake_root;
	fd->id = ida_alloc(&fake_ida, GFP_KERNEL);
	if (fd->id < 0) {
		err = fd->id;
		goto err_put;
	}
	/* log_max_uctx is a 5-bit field of cmd_hca_cap */
	if (((attr->flags & MLX5_UMR_FAKE_F_SYNC) &&
	     (attr->flags & MLX5_UMR_FAKE_F_ASYNC_EXEC)) ||
	    attr->caps.log_max_uctx > 16) {
		err = -EINVAL;
		goto err_put;
	}
	fd->flags = attr->flags;
	fd->caps = attr->caps;
	mutex_init(&fd->cmd_lock);
	spin_lock_init(&fd->lock);
	spin_lock_init(&fd->exec_lock);
	xa_init_flags(&fd->pds, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&fd->uars, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&fd->cqs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&fd->qps, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&fd->mkeys, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&fd->psvs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&fd->deks, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&fd->stale_deks, XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&fd->uctxs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	/* all xarrays of this file share one lock class: keep every use irq-safe */
	INIT_LIST_HEAD(&fd->dma_bufs);
	xa_init_flags(&fd->iommu, XA_FLAGS_LOCK_IRQ);
	/* distinct IOVA ranges per fake catch cross-device addresses */
	atomic64_set(&fd->next_iova, (u64)(fd->id + 1) << 40);
	init_waitqueue_head(&fd->waitq);

	err = dev_set_name(&fd->dev, "fake%d", fd->id);
	if (err)
		goto err_put;
	/*
	 * Bound and not ordered: each CQ's events run on its CPU
	 * (queue_work_on()) and different CQs and QPs do not wait for each
	 * other; a work item never runs concurrently with itself, which
	 * keeps each CQ's events and each QP's deferred runs in order.
	 */
	fd->wq = alloc_workqueue("%s", WQ_HIGHPRI, 0, dev_name(&fd->dev));
	fd->wqe_log = kcalloc(FAKE_WQE_LOG, sizeof(*fd->wqe_log), GFP_KERNEL);
	fd->ev = alloc_percpu(struct fake_ev_cnt);
	if (!fd->wq || !fd->wqe_log || !fd->ev) {
		err = -ENOMEM;
		goto err_put;
	}
	err = device_add(&fd->dev);
	if (err)
		goto err_put;

	fd->hca.ops = &fake_ops;
	fd->hca.dev = &fd->dev;
	fd->hca.numa_node = NUMA_NO_NODE;
	fd->hca.nqueues = attr->nqueues;
	fd->hca.owner = THIS_MODULE;
	strscpy(fd->hca.name, dev_name(&fd->dev), sizeof(fd->hca.name));
	err = fake_ib_init(fd);
	if (err)
		goto err_del;
	fake_debugfs_add(fd);

	if (attr->flags & MLX5_UMR_FAKE_F_REGISTER) {
		err = mlx5_umr_register_test_hca(&fd->hca, &fake_test_ops);
		if (err)
			goto err_dbg;
		fd->registered = true;
	}
	return fd;

err_dbg:
	fake_debugfs_remove(fd);
	fake_ib_fini(fd);
err_del:
	device_del(&fd->dev);
err_put:
	put_device(&fd->dev);
	return ERR_PTR(err);
}
EXPORT_SYMBOL(mlx5_umr_fake_create);

static void fake_leak_report(struct mlx5_umr_fake *fd)
{
	struct mlx5_umr_fake_counters *c = &fd->cnt;

	if (c->pds || c->mkeys || c->cqs || c->qps || c->psvs || c->uars ||
	    c->dma_bufs || c->sg_maps || c->iommu_pages || c->deks ||
	    c->uctxs)
		dev_warn(&fd->dev,
			 "destroyed with live objects: pd %u mkey %u cq %u qp %u psv %u uar %u dma_buf %u sg_map %u iommu_pages %llu dek %u uctx %u\n",
			 c->pds, c->mkeys, c->cqs, c->qps, c->psvs, c->uars,
			 c->dma_bufs, c->sg_maps, c->iommu_pages, c->deks,
			 c->uctxs);
}

/* Free whatever the user left behind, as a device reset would. */
static void fake_reap(struct mlx5_umr_fake *fd)
{
	struct fake_mkey *mk;
	struct fake_qp *qp;
	struct fake_cq *cq;
	void *p;
	unsigned long i;

	/* no doorbell can come any more: freed at once */
	xa_for_each(&fd->qps, i, qp) {
		cancel_delayed_work_sync(&qp->delay_work);
		kfree(qp->pas);
		kfree(qp->wqe);
		kvfree(qp->rdma_buf);
		kfree(qp);
	}
	xa_for_each(&fd->cqs, i, cq) {
		cancel_work_sync(&cq->work);
		kfree(cq->pas);
		kfree(cq);
	}
	xa_for_each(&fd->mkeys, i, mk)
		fake_mkey_free(mk);
	fake_crypto_reset(fd);
	xa_for_each(&fd->pds, i, p)
		kfree(p);
	xa_for_each(&fd->psvs, i, p)
		kfree(p);
	xa_for_each(&fd->uars, i, p)
		kfree(p);
	xa_destroy(&fd->qps);
	xa_destroy(&fd->cqs);
	xa_destroy(&fd->mkeys);
	xa_destroy(&fd->pds);
	xa_destroy(&fd->psvs);
	xa_destroy(&fd->uars);
	fake_uctx_reset(fd);
	fake_reap_dma_bufs(fd);
	xa_destroy(&fd->iommu);
}

/**
 * mlx5_umr_fake_destroy() - destroy a fake HCA (test-only)
 * @fake: from mlx5_umr_fake_create()
 *
 * Unregisters it from the service first. Objects still alive are reported
 * (dev_warn) and freed.
 *
 * Context: process, may sleep.
 */
void mlx5_umr_fake_destroy(struct mlx5_umr_fake *fake)
{
	if (!fake)
		return;
	if (fake->registered)
		mlx5_umr_unregister_hca(&fake->hca);
	fake_debugfs_remove(fake);
	flush_workqueue(fake->wq);
	fake_leak_report(fake);
	fake_reap(fake);
	fake_ib_fini(fake);
	device_del(&fake->dev);
	put_device(&fake->dev);
}
EXPORT_SYMBOL(mlx5_umr_fake_destroy);

/**
 * mlx5_umr_fake_hca() - the HCA a fake offers (test-only)
 * @fake: the fake
 *
 * Return: its struct mlx5_umr_hca, valid until mlx5_umr_fake_destroy().
 */
struct mlx5_umr_hca *mlx5_umr_fake_hca(struct mlx5_umr_fake *fake)
{
	return &fake->hca;
}
EXPORT_SYMBOL(mlx5_umr_fake_hca);

/**
 * mlx5_umr_fake_from_hca() - the fake behind an HCA (test-only)
 * @hca: any HCA
 *
 * Return: the fake, or NULL when @hca is not a fake.
 */
struct mlx5_umr_fake *mlx5_umr_fake_from_hca(struct mlx5_umr_hca *hca)
{
	return hca && hca->ops == &fake_ops ? to_fake(hca) : NULL;
}
EXPORT_SYMBOL(mlx5_umr_fake_from_hca);

/**
 * mlx5_umr_fake_get_counters() - snapshot of the counters (test-only)
 * @fake: the fake
 * @cnt: receives the counters
 */
void mlx5_umr_fake_get_counters(struct mlx5_umr_fake *fake,
				struct mlx5_umr_fake_counters *cnt)
{
	unsigned long flags;
	int cpu;

	spin_lock_irqsave(&fake->lock, flags);
	*cnt = fake->cnt;
	spin_unlock_irqrestore(&fake->lock, flags);
	/* the engines count per CPU (fake.h struct fake_ev_cnt) */
	for_each_possible_cpu(cpu) {
		const struct fake_ev_cnt *e = per_cpu_ptr(fake->ev, cpu);

		cnt->iommu_faults += READ_ONCE(e->n[FAKE_EV_IOMMU_FAULTS]);
		cnt->wqes += READ_ONCE(e->n[FAKE_EV_WQES]);
		cnt->cqes += READ_ONCE(e->n[FAKE_EV_CQES]);
		cnt->err_cqes += READ_ONCE(e->n[FAKE_EV_ERR_CQES]);
		cnt->flush_cqes += READ_ONCE(e->n[FAKE_EV_FLUSH_CQES]);
		cnt->events += READ_ONCE(e->n[FAKE_EV_EVENTS]);
		cnt->cq_overruns += READ_ONCE(e->n[FAKE_EV_CQ_OVERRUNS]);
		cnt->bad_doorbells += READ_ONCE(e->n[FAKE_EV_BAD_DOORBELLS]);
		cnt->send_doorbells += READ_ONCE(e->n[FAKE_EV_SEND_DOORBELLS]);
	}
}
EXPORT_SYMBOL(mlx5_umr_fake_get_counters);

/**
 * mlx5_umr_fake_qp_state() - state of a QP (test-only)
 * @fake: the fake
 * @qpn: QP number
 * @sq_ci: if not NULL, receives the next WQEBB counter the fake executes
 *
 * Return: MLX5_QP_STATE_* or -ENOENT.
 */
int mlx5_umr_fake_qp_state(struct mlx5_umr_fake *fake, u32 qpn, u16 *sq_ci)
{
	struct fake_qp *qp;
	unsigned long flags;
	int ret = -ENOENT;

	qp = fake_qp_lock(fake, qpn, &flags);
	if (qp) {
		ret = qp->state;
		if (sq_ci)
			*sq_ci = qp->ci;
		fake_qp_unlock(qp, flags);
	}
	return ret;
}
EXPORT_SYMBOL(mlx5_umr_fake_qp_state);

/**
 * mlx5_umr_fake_stall_qp() - hold or release one QP's engine (test-only)
 * @fake: the fake
 * @qpn: the QP
 * @stall: true holds it: doorbells are taken (and counted) but nothing
 *	posted to this QP executes, flushes or completes, while the other
 *	QPs run on; false releases it, and what its doorbell record shows
 *	as posted then runs (from the workqueue in F_ASYNC_EXEC mode, else
 *	before this returns), as after a doorbell
 *
 * A stall survives state changes (2ERR flushes on release); DESTROY_QP
 * ends it.
 * Context: any.
 * Return: 0, or -ENOENT when @qpn is not a live QP.
 */
int mlx5_umr_fake_stall_qp(struct mlx5_umr_fake *fake, u32 qpn, bool stall)
{
	struct fake_qp *qp;
	unsigned long flags;
	u32 peer;

	qp = fake_qp_lock(fake, qpn, &flags);
	if (!qp)
		return -ENOENT;
	qp->faults.stalled = stall;
	if (!stall)
		fake_qp_kick(fake, qp);
	peer = fake_qp_peer_err_take(qp);
	fake_qp_unlock(qp, flags);
	fake_qp_peer_err(fake, peer);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_fake_stall_qp);

/**
 * mlx5_umr_fake_flush() - wait for deferred work (test-only)
 * @fake: the fake
 *
 * Waits for completion events queued so far and for delayed doorbells.
 * Context: process, may sleep.
 */
void mlx5_umr_fake_flush(struct mlx5_umr_fake *fake)
{
	struct fake_qp *qp;
	unsigned long i;

	mutex_lock(&fake->cmd_lock);
	xa_for_each(&fake->qps, i, qp)
		flush_delayed_work(&qp->delay_work);
	mutex_unlock(&fake->cmd_lock);
	flush_workqueue(fake->wq);
}
EXPORT_SYMBOL(mlx5_umr_fake_flush);

/**
 * mlx5_umr_fake_inject_cmd_error() - fail the next command (test-only)
 * @fake: the fake
 * @opcode: only a command with this opcode, or 0 for any
 * @status: MLX5_CMD_STAT_* to return
 * @syndrome: syndrome to return
 */
void mlx5_umr_fake_inject_cmd_error(struct mlx5_umr_fake *fake, u16 opcode,
				    u8 status, u32 syndrome)
{
	unsigned long flags;

	spin_lock_irqsave(&fake->lock, flags);
	fake->faults.cmd_armed = true;
	fake->faults.cmd_opcode = opcode;
	fake->faults.cmd_status = status;
	fake->faults.cmd_synd = syndrome;
	spin_unlock_irqrestore(&fake->lock, flags);
}
EXPORT_SYMBOL(mlx5_umr_fake_inject_cmd_error);

/**
 * mlx5_umr_fake_inject_cmd_nth() - fail the @nth command from now (test-only)
 * @fake: the fake
 * @nth: 1 for the next command of any opcode, 2 for the one after, ...;
 *	0 disarms
 * @status: MLX5_CMD_STAT_* to return
 * @syndrome: syndrome to return
 *
 * Return: the commands still to come before the failure as it was armed
 * until now (0: none armed, or it fired), so that a failure sweep knows
 * whether its path reached the @nth command.
 */
unsigned int mlx5_umr_fake_inject_cmd_nth(struct mlx5_umr_fake *fake,
					  unsigned int nth, u8 status,
					  u32 syndrome)
{
	unsigned long flags;
	unsigned int left;

	spin_lock_irqsave(&fake->lock, flags);
	left = fake->faults.cmd_nth;
	fake->faults.cmd_nth = nth;
	fake->faults.nth_status = status;
	fake->faults.nth_synd = syndrome;
	spin_unlock_irqrestore(&fake->lock, flags);
	return left;
}
EXPORT_SYMBOL(mlx5_umr_fake_inject_cmd_nth);

/**
 * mlx5_umr_fake_inject_wqe_error() - next WQE completes in error (test-only)
 * @fake: the fake
 * @syndrome: MLX5_CQE_SYNDROME_* of the error CQE
 * @vendor_synd: its vendor_err_synd
 *
 * The WQE is not executed; the QP moves to ERR as with a real error.
 */
void mlx5_umr_fake_inject_wqe_error(struct mlx5_umr_fake *fake, u8 syndrome,
				    u8 vendor_synd)
{
	unsigned long flags;

	spin_lock_irqsave(&fake->lock, flags);
	fake->faults.wqe_armed = true;
	fake->faults.wqe_synd = syndrome;
	fake->faults.wqe_vsynd = vendor_synd;
	spin_unlock_irqrestore(&fake->lock, flags);
}
EXPORT_SYMBOL(mlx5_umr_fake_inject_wqe_error);

/**
 * mlx5_umr_fake_inject_drop_cqe() - lose the next CQEs (test-only)
 * @fake: the fake
 * @count: how many CQEs, of any kind, are silently not written
 */
void mlx5_umr_fake_inject_drop_cqe(struct mlx5_umr_fake *fake,
				   unsigned int count)
{
	atomic_set(&fake->faults.drop_cqes, count);
}
EXPORT_SYMBOL(mlx5_umr_fake_inject_drop_cqe);

/**
 * mlx5_umr_fake_inject_wqe_error_qp() - the next WQE of one QP completes
 *	in error (test-only)
 * @fake: the fake
 * @qpn: the QP
 * @syndrome: MLX5_CQE_SYNDROME_* of the error CQE
 * @vendor_synd: its vendor_err_synd
 *
 * As mlx5_umr_fake_inject_wqe_error(), for the next WQE this QP executes
 * (on a null device too); the other QPs are not affected. It takes
 * precedence over, and disarms, the device-wide one.
 * Return: 0, or -ENOENT when @qpn is not a live QP.
 */
int mlx5_umr_fake_inject_wqe_error_qp(struct mlx5_umr_fake *fake, u32 qpn,
				      u8 syndrome, u8 vendor_synd)
{
	struct fake_qp *qp;
	unsigned long flags;

	qp = fake_qp_lock(fake, qpn, &flags);
	if (!qp)
		return -ENOENT;
	qp->faults.wqe_armed = true;
	qp->faults.wqe_synd = syndrome;
	qp->faults.wqe_vsynd = vendor_synd;
	fake_qp_unlock(qp, flags);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_fake_inject_wqe_error_qp);

/**
 * mlx5_umr_fake_inject_drop_cqe_qp() - lose the next CQEs of one QP
 *	(test-only)
 * @fake: the fake
 * @qpn: the QP
 * @count: how many of its CQEs, of any kind, are silently not written;
 *	they are taken before the device-wide count
 *
 * Return: 0, or -ENOENT when @qpn is not a live QP.
 */
int mlx5_umr_fake_inject_drop_cqe_qp(struct mlx5_umr_fake *fake, u32 qpn,
				     unsigned int count)
{
	struct fake_qp *qp;
	unsigned long flags;

	qp = fake_qp_lock(fake, qpn, &flags);
	if (!qp)
		return -ENOENT;
	qp->faults.drop_cqes = count;
	fake_qp_unlock(qp, flags);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_fake_inject_drop_cqe_qp);

/**
 * mlx5_umr_fake_inject_delay() - delay the next send doorbell (test-only)
 * @fake: the fake
 * @msecs: the QP's WQEs run (and complete) this much later, from the
 *	workqueue; doorbells in between are folded into the delayed run
 */
void mlx5_umr_fake_inject_delay(struct mlx5_umr_fake *fake,
				unsigned int msecs)
{
	unsigned long flags;

	spin_lock_irqsave(&fake->lock, flags);
	fake->faults.delay_ms = msecs;
	spin_unlock_irqrestore(&fake->lock, flags);
}
EXPORT_SYMBOL(mlx5_umr_fake_inject_delay);

/**
 * mlx5_umr_fake_inject_internal_error() - device enters internal error (test-only)
 * @fake: the fake
 *
 * From now on no WQE executes, no CQE is written, commands other than
 * teardown fail with -EIO and internal_error() returns true.
 */
void mlx5_umr_fake_inject_internal_error(struct mlx5_umr_fake *fake)
{
	unsigned long flags;

	spin_lock_irqsave(&fake->lock, flags);
	WRITE_ONCE(fake->internal_error, true);
	spin_unlock_irqrestore(&fake->lock, flags);
}
EXPORT_SYMBOL(mlx5_umr_fake_inject_internal_error);

static int __init fake_init(void)
{
	struct mlx5_umr_fake_attr attr;
	unsigned int i;
	int err;

	if (crypto_profile >= MLX5_UMR_FAKE_CRYPTO_NR)
		return -EINVAL;
	fake_crc_init();
	fake_root = root_device_register("mlx5_umr_fake");
	if (IS_ERR(fake_root))
		return PTR_ERR(fake_root);
	fake_debugfs_init();
	fake_devs = kcalloc(nr_devs, sizeof(*fake_devs), GFP_KERNEL);
	if (nr_devs && !fake_devs) {
		err = -ENOMEM;
		goto err_root;
	}
	mlx5_umr_fake_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_REGISTER;
	if (async_exec)
		attr.flags |= MLX5_UMR_FAKE_F_ASYNC_EXEC;
	mlx5_umr_fake_set_crypto(&attr.caps, crypto_profile);
	attr.caps.sigerr_domain_and_sig_type = sigerr_domain;
	for (i = 0; i < nr_devs; i++) {
		fake_devs[i] = mlx5_umr_fake_create(&attr);
		if (IS_ERR(fake_devs[i])) {
			err = PTR_ERR(fake_devs[i]);
			goto err_devs;
		}
	}
	err = fake_user_pd_init();
	if (err)
		goto err_devs;
	return 0;

err_devs:
	while (i--)
		mlx5_umr_fake_destroy(fake_devs[i]);
	kfree(fake_devs);
err_root:
	fake_debugfs_exit();
	root_device_unregister(fake_root);
	return err;
}

static void __exit fake_exit(void)
{
	unsigned int i = nr_devs;

	fake_user_pd_exit();
	while (i--)
		mlx5_umr_fake_destroy(fake_devs[i]);
	kfree(fake_devs);
	fake_debugfs_exit();
	root_device_unregister(fake_root);
	ida_destroy(&fake_ida);
}

module_init(fake_init);
module_exit(fake_exit);

MODULE_DESCRIPTION("Fake mlx5 HCA (software model) for the mlx5 UMR service");
MODULE_AUTHOR("The mlx5-umr authors");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
