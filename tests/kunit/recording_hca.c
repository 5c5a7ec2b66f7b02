// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr KUnit helpers: the recording HCA.
 *
 * It sits between the service and a private fake: every backend operation
 * is forwarded to the fake and recorded in the order the operations start
 * (mailboxes copied as the service passed them, buffers and UARs with what
 * they were given), doorbells too on request. One operation that can fail
 * may be failed on purpose: a command with a firmware status (the fake
 * answers it so) or with a delivery error (never delivered), a buffer or
 * UAR allocation with -errno. With doorbells recorded, the service's CQ
 * events pass through it too, to tell those the fake delivers from inside
 * a doorbell.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/sched.h>

#include "umr_kunit.h"

static const char * const umr_kunit_rec_names[] = {
	[UMR_KUNIT_REC_CMD] = "cmd_exec",
	[UMR_KUNIT_REC_CREATE_CQ] = "create_cq",
	[UMR_KUNIT_REC_DESTROY_CQ] = "destroy_cq",
	[UMR_KUNIT_REC_BUF] = "alloc_dma_buf",
	[UMR_KUNIT_REC_FREE_BUF] = "free_dma_buf",
	[UMR_KUNIT_REC_UAR] = "alloc_uar",
	[UMR_KUNIT_REC_FREE_UAR] = "free_uar",
	[UMR_KUNIT_REC_DB] = "write_db",
};

/**
 * umr_kunit_rec_kind_name() - the backend operation a record kind stands for
 * @kind: the kind
 *
 * Return: the operation's name in struct mlx5_umr_hca_ops.
 */
const char *umr_kunit_rec_kind_name(enum umr_kunit_rec_kind kind)
{
	if (kind >= ARRAY_SIZE(umr_kunit_rec_names))
		return "?";
	return umr_kunit_rec_names[kind];
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_rec_kind_name, MLX5_UMR_KUNIT);

/**
 * umr_kunit_rec_failable() - whether umr_kunit_rec_fail() counts @r's kind
 * @r: a record
 *
 * Return: true for commands (cmd_exec, create_cq) and allocations
 * (alloc_dma_buf, alloc_uar).
 */
bool umr_kunit_rec_failable(const struct umr_kunit_rec *r)
{
	return r->kind == UMR_KUNIT_REC_CMD ||
	       r->kind == UMR_KUNIT_REC_CREATE_CQ ||
	       r->kind == UMR_KUNIT_REC_BUF || r->kind == UMR_KUNIT_REC_UAR;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_rec_failable, MLX5_UMR_KUNIT);

static struct umr_kunit_rec_hca *to_rh(struct mlx5_umr_hca *hca)
{
	return container_of(hca, struct umr_kunit_rec_hca, hca);
}

/* A record to fill, or NULL (counted as lost). */
static struct umr_kunit_rec *rec_slot(struct umr_kunit_rec_hca *rh,
				      enum umr_kunit_rec_kind kind)
{
	struct umr_kunit_rec *r;

	lockdep_assert_held(&rh->lock);
	if (rh->n == rh->max) {
		rh->lost++;
		return NULL;
	}
	r = &rh->rec[rh->n++];
	r->kind = kind;
	return r;
}

/* Whether this failable operation is the one to fail, and how (@f). */
static bool rec_fail_now(struct umr_kunit_rec_hca *rh,
			 struct umr_kunit_rec_fault *f)
{
	lockdep_assert_held(&rh->lock);
	if (!rh->fail_armed)
		return false;
	if (rh->fail_skip) {
		rh->fail_skip--;
		return false;
	}
	rh->fail_armed = false;
	*f = rh->fail;
	return true;
}

/* Start a command record; sets *fail (and @f) when it is to fail. */
static struct umr_kunit_rec *rec_cmd_start(struct umr_kunit_rec_hca *rh,
					   enum umr_kunit_rec_kind kind,
					   const void *in, int inlen,
					   bool *fail,
					   struct umr_kunit_rec_fault *f)
{
	struct umr_kunit_rec *r = NULL;
	void *cin;

	/* Copied before the call: create_cq's backend writes into it. */
	cin = kmemdup(in, inlen, GFP_KERNEL);
	spin_lock_irq(&rh->lock);
	*fail = rec_fail_now(rh, f);
	if (!cin)
		rh->lost++;
	else
		r = rec_slot(rh, kind);
	if (r) {
		/* every command input starts with the opcode */
		r->opcode = MLX5_GET(query_hca_cap_in, cin, opcode);
		r->in = cin;
		r->inlen = inlen;
		r->injected = *fail;
		cin = NULL;
	}
	spin_unlock_irq(&rh->lock);
	kfree(cin);
	return r;
}

/*
 * Execute an injected command failure: with a status the fake fails the
 * command itself, as firmware would; else it is never delivered.
 */
static bool rec_cmd_fail(struct umr_kunit_rec_hca *rh,
			 const struct umr_kunit_rec_fault *f, const void *in,
			 void *out, int outlen, int *ret)
{
	if (f->status) {
		mlx5_umr_fake_inject_cmd_error(rh->fake,
					       MLX5_GET(query_hca_cap_in, in,
							opcode),
					       f->status, f->syndrome);
		return false;
	}
	if (out)
		memset(out, 0, outlen);
	*ret = f->err;
	return true;
}

static void rec_end(struct umr_kunit_rec_hca *rh, struct umr_kunit_rec *r,
		    int ret)
{
	spin_lock_irq(&rh->lock);
	if (r) {
		r->ret = ret;
		r->done = rh->n;
	}
	spin_unlock_irq(&rh->lock);
}

static int rec_cmd_exec(struct mlx5_umr_hca *hca, const void *in, int inlen,
			void *out, int outlen)
{
	struct umr_kunit_rec_hca *rh = to_rh(hca);
	struct umr_kunit_rec_fault f;
	struct umr_kunit_rec *r;
	bool fail;
	void *cout;
	int ret;

	r = rec_cmd_start(rh, UMR_KUNIT_REC_CMD, in, inlen, &fail, &f);
	if (!fail || !rec_cmd_fail(rh, &f, in, out, outlen, &ret))
		ret = rh->fhca->ops->cmd_exec(rh->fhca, in, inlen, out,
					      outlen);
	cout = r ? kmemdup(out, outlen, GFP_KERNEL) : NULL;
	spin_lock_irq(&rh->lock);
	if (r) {
		r->out = cout;
		r->outlen = outlen;
	}
	spin_unlock_irq(&rh->lock);
	rec_end(rh, r, ret);
	return ret;
}

/* A completion event on its way from the fake to the service's CQ. */
static void rec_comp(struct mlx5_umr_hca_cq *cq)
{
	struct umr_kunit_rec_hca *rh = container_of(cq, struct umr_kunit_rec_hca,
						    cq);
	struct mlx5_umr_hca_cq *svc_cq = READ_ONCE(rh->svc_cq);

	if (READ_ONCE(rh->in_db) == current)
		atomic_inc(&rh->comp_in_db);
	if (svc_cq)
		svc_cq->comp(svc_cq);
}

/*
 * The CQ to create on the fake for the service's @cq: with doorbells
 * recorded, @rh->cq, so that events inside write_db() are seen, unless it
 * is taken; else @cq itself.
 */
static struct mlx5_umr_hca_cq *rec_cq_get(struct umr_kunit_rec_hca *rh,
					  struct mlx5_umr_hca_cq *cq)
{
	if (!(rh->flags & UMR_KUNIT_REC_F_DB) || cmpxchg(&rh->svc_cq, NULL, cq))
		return cq;
	rh->cq.cqn = 0;
	rh->cq.comp = rec_comp;
	rh->cq.backend = NULL;
	rh->cq.vector = cq->vector;
	return &rh->cq;
}

static int rec_create_cq(struct mlx5_umr_hca *hca, struct mlx5_umr_hca_cq *cq,
			 void *in, int inlen)
{
	struct umr_kunit_rec_hca *rh = to_rh(hca);
	struct umr_kunit_rec_fault f;
	struct mlx5_umr_hca_cq *fcq;
	struct umr_kunit_rec *r;
	bool fail;
	int ret;

	r = rec_cmd_start(rh, UMR_KUNIT_REC_CREATE_CQ, in, inlen, &fail, &f);
	if (!fail || !rec_cmd_fail(rh, &f, in, NULL, 0, &ret)) {
		fcq = rec_cq_get(rh, cq);
		ret = rh->fhca->ops->create_cq(rh->fhca, fcq, in, inlen);
		if (fcq != cq) {
			cq->cqn = fcq->cqn;
			if (ret)
				WRITE_ONCE(rh->svc_cq, NULL);
		}
	}
	spin_lock_irq(&rh->lock);
	if (r && !ret)
		r->num = cq->cqn;
	spin_unlock_irq(&rh->lock);
	rec_end(rh, r, ret);
	return ret;
}

static int rec_destroy_cq(struct mlx5_umr_hca *hca,
			  struct mlx5_umr_hca_cq *cq)
{
	struct umr_kunit_rec_hca *rh = to_rh(hca);
	struct umr_kunit_rec *r;
	int ret;

	spin_lock_irq(&rh->lock);
	r = rec_slot(rh, UMR_KUNIT_REC_DESTROY_CQ);
	if (r)
		r->num = cq->cqn;
	spin_unlock_irq(&rh->lock);
	if (READ_ONCE(rh->svc_cq) == cq) {
		/* the fake delivers no event for it once destroyed */
		ret = rh->fhca->ops->destroy_cq(rh->fhca, &rh->cq);
		WRITE_ONCE(rh->svc_cq, NULL);
	} else {
		ret = rh->fhca->ops->destroy_cq(rh->fhca, cq);
	}
	rec_end(rh, r, ret);
	return ret;
}

static int rec_alloc_dma_buf(struct mlx5_umr_hca *hca, size_t size,
			     int node, struct mlx5_umr_dma_buf *buf)
{
	struct umr_kunit_rec_hca *rh = to_rh(hca);
	struct umr_kunit_rec_fault f;
	dma_addr_t *pages = NULL;
	struct umr_kunit_rec *r;
	bool fail;
	int ret;

	spin_lock_irq(&rh->lock);
	fail = rec_fail_now(rh, &f);
	r = rec_slot(rh, UMR_KUNIT_REC_BUF);
	if (r) {
		r->size = size;
		r->node = node;
		r->injected = fail;
	}
	spin_unlock_irq(&rh->lock);
	if (fail)
		ret = f.err ?: -ENOMEM;
	else
		ret = rh->fhca->ops->alloc_dma_buf(rh->fhca, size, node, buf);
	if (r && !ret)
		pages = kmemdup(buf->pages, buf->npages * sizeof(*buf->pages),
				GFP_KERNEL);
	spin_lock_irq(&rh->lock);
	if (r && !ret) {
		r->npages = buf->npages;
		r->cpu = buf->cpu;
		r->pages = pages;
		pages = NULL;
	}
	spin_unlock_irq(&rh->lock);
	kfree(pages);
	rec_end(rh, r, ret);
	return ret;
}

static void rec_free_dma_buf(struct mlx5_umr_hca *hca,
			     struct mlx5_umr_dma_buf *buf)
{
	struct umr_kunit_rec_hca *rh = to_rh(hca);
	struct umr_kunit_rec *r;

	spin_lock_irq(&rh->lock);
	r = rec_slot(rh, UMR_KUNIT_REC_FREE_BUF);
	if (r) {
		r->size = buf->size;
		r->npages = buf->npages;
		r->cpu = buf->cpu;
	}
	spin_unlock_irq(&rh->lock);
	rh->fhca->ops->free_dma_buf(rh->fhca, buf);
	rec_end(rh, r, 0);
}

/* dma_map_sg/dma_unmap_sg are function-like macros: call through pointers. */
static int rec_map_sg(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		      enum dma_data_direction dir)
{
	struct mlx5_umr_hca *f = to_rh(hca)->fhca;
	int (*map)(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		   enum dma_data_direction dir) = f->ops->dma_map_sg;

	return map(f, sgt, dir);
}

static void rec_unmap_sg(struct mlx5_umr_hca *hca, struct sg_table *sgt,
			 enum dma_data_direction dir)
{
	struct mlx5_umr_hca *f = to_rh(hca)->fhca;
	void (*unmap)(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		      enum dma_data_direction dir) = f->ops->dma_unmap_sg;

	unmap(f, sgt, dir);
}

static int rec_alloc_uar(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar)
{
	struct umr_kunit_rec_hca *rh = to_rh(hca);
	struct umr_kunit_rec_fault f;
	struct umr_kunit_rec *r;
	bool fail;
	int ret;

	spin_lock_irq(&rh->lock);
	fail = rec_fail_now(rh, &f);
	r = rec_slot(rh, UMR_KUNIT_REC_UAR);
	if (r)
		r->injected = fail;
	spin_unlock_irq(&rh->lock);
	if (fail)
		ret = f.err ?: -ENOMEM;
	else
		ret = rh->fhca->ops->alloc_uar(rh->fhca, uar);
	spin_lock_irq(&rh->lock);
	if (r && !ret)
		r->num = uar->index;
	spin_unlock_irq(&rh->lock);
	rec_end(rh, r, ret);
	return ret;
}

static void rec_free_uar(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar)
{
	struct umr_kunit_rec_hca *rh = to_rh(hca);
	struct umr_kunit_rec *r;

	spin_lock_irq(&rh->lock);
	r = rec_slot(rh, UMR_KUNIT_REC_FREE_UAR);
	if (r)
		r->num = uar->index;
	spin_unlock_irq(&rh->lock);
	rh->fhca->ops->free_uar(rh->fhca, uar);
	rec_end(rh, r, 0);
}

static void rec_write_db(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar,
			 unsigned int offset, const __be32 val[2])
{
	struct umr_kunit_rec_hca *rh = to_rh(hca);
	struct umr_kunit_rec *r;
	unsigned long flags;

	if (!(rh->flags & UMR_KUNIT_REC_F_DB)) {
		rh->fhca->ops->write_db(rh->fhca, uar, offset, val);
		return;
	}
	/* Widen the publish-to-ring window when the caller allows it. */
	if ((rh->flags & UMR_KUNIT_REC_F_DB_YIELD) &&
	    (atomic_inc_return(&rh->db_calls) & 1) && in_task() &&
	    !irqs_disabled())
		usleep_range(50, 100);

	spin_lock_irqsave(&rh->lock, flags);
	r = rec_slot(rh, UMR_KUNIT_REC_DB);
	if (r) {
		r->offset = offset;
		r->val[0] = val[0];
		r->val[1] = val[1];
		if (rh->on_db)
			rh->on_db(rh, r);
		r->done = rh->n;
	}
	WRITE_ONCE(rh->in_db, current);
	rh->fhca->ops->write_db(rh->fhca, uar, offset, val);
	WRITE_ONCE(rh->in_db, NULL);
	spin_unlock_irqrestore(&rh->lock, flags);
}

static bool rec_internal_error(struct mlx5_umr_hca *hca)
{
	struct mlx5_umr_hca *f = to_rh(hca)->fhca;

	return f->ops->internal_error && f->ops->internal_error(f);
}

static const struct mlx5_umr_hca_ops umr_kunit_rec_ops = {
	.cmd_exec = rec_cmd_exec,
	.create_cq = rec_create_cq,
	.destroy_cq = rec_destroy_cq,
	.alloc_dma_buf = rec_alloc_dma_buf,
	.free_dma_buf = rec_free_dma_buf,
	.dma_map_sg = rec_map_sg,
	.dma_unmap_sg = rec_unmap_sg,
	.alloc_uar = rec_alloc_uar,
	.free_uar = rec_free_uar,
	.write_db = rec_write_db,
	.internal_error = rec_internal_error,
};

/**
 * umr_kunit_rec_hca_create() - a recording HCA on a new private fake
 * @test: the test (asserts it was created)
 * @fake_flags: MLX5_UMR_FAKE_F_* of the fake (without F_REGISTER)
 * @max: records kept
 * @flags: UMR_KUNIT_REC_F_*
 *
 * The HCA is not registered: mlx5_umr_register_hca(&rh->hca) brings the
 * service up on it, recorded.
 *
 * Return: the recording HCA; free with umr_kunit_rec_hca_destroy().
 */
struct umr_kunit_rec_hca *umr_kunit_rec_hca_create(struct kunit *test,
						   u32 fake_flags,
						   unsigned int max,
						   unsigned int flags)
{
	struct mlx5_umr_fake_attr attr;
	struct umr_kunit_rec_hca *rh;

	rh = kzalloc(sizeof(*rh), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rh);
	rh->rec = kvcalloc(max, sizeof(*rh->rec), GFP_KERNEL);
	if (!rh->rec)
		goto err_rh;
	rh->max = max;
	rh->flags = flags;
	spin_lock_init(&rh->lock);
	mlx5_umr_fake_attr_init(&attr);
	attr.flags = fake_flags & ~MLX5_UMR_FAKE_F_REGISTER;
	rh->fake = mlx5_umr_fake_create(&attr);
	if (IS_ERR_OR_NULL(rh->fake))
		goto err_rec;
	rh->fhca = mlx5_umr_fake_hca(rh->fake);
	rh->hca.ops = &umr_kunit_rec_ops;
	rh->hca.dev = rh->fhca->dev;
	rh->hca.numa_node = rh->fhca->numa_node;
	rh->hca.owner = THIS_MODULE;
	snprintf(rh->hca.name, sizeof(rh->hca.name), "rec-%s", rh->fhca->name);
	return rh;

err_rec:
	kvfree(rh->rec);
err_rh:
	kfree(rh);
	KUNIT_FAIL_AND_ABORT(test, "no recording HCA");
	return NULL;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_rec_hca_create, MLX5_UMR_KUNIT);

/**
 * umr_kunit_rec_reset() - forget every record and the armed failure
 * @rh: the recording HCA, with no operation running
 */
void umr_kunit_rec_reset(struct umr_kunit_rec_hca *rh)
{
	unsigned int i, n;

	spin_lock_irq(&rh->lock);
	n = rh->n;
	rh->n = 0;
	rh->lost = 0;
	rh->fail_armed = false;
	spin_unlock_irq(&rh->lock);
	for (i = 0; i < n; i++) {
		kfree(rh->rec[i].in);
		kfree(rh->rec[i].out);
		kfree(rh->rec[i].pages);
		memset(&rh->rec[i], 0, sizeof(rh->rec[i]));
	}
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_rec_reset, MLX5_UMR_KUNIT);

/**
 * umr_kunit_rec_hca_destroy() - unregister (if registered) and free
 * @rh: the recording HCA, or NULL
 */
void umr_kunit_rec_hca_destroy(struct umr_kunit_rec_hca *rh)
{
	if (!rh)
		return;
	if (rh->hca.umr)
		mlx5_umr_unregister_hca(&rh->hca);
	mlx5_umr_fake_destroy(rh->fake);
	umr_kunit_rec_reset(rh);
	kvfree(rh->rec);
	kfree(rh);
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_rec_hca_destroy, MLX5_UMR_KUNIT);

/**
 * umr_kunit_rec_fail() - fail one operation that can fail
 * @rh: the recording HCA
 * @skip: failable operations (umr_kunit_rec_failable()) to let through
 *	first
 * @status: for a command, the MLX5_CMD_STAT_* the fake answers with
 *	(-EREMOTEIO); 0 for a delivery error: the command never reaches the
 *	fake and returns @err
 * @syndrome: the syndrome with @status
 * @err: -errno of a delivery error or a failed allocation
 *
 * Recorded with @injected set; only one failure is armed at a time.
 */
void umr_kunit_rec_fail(struct umr_kunit_rec_hca *rh, unsigned int skip,
			u8 status, u32 syndrome, int err)
{
	spin_lock_irq(&rh->lock);
	rh->fail_armed = true;
	rh->fail_skip = skip;
	rh->fail.status = status;
	rh->fail.syndrome = syndrome;
	rh->fail.err = err;
	spin_unlock_irq(&rh->lock);
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_rec_fail, MLX5_UMR_KUNIT);
