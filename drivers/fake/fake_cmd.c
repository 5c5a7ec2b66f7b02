// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: command interface.
 *
 * Mailboxes are decoded with the kernel's mlx5_ifc layouts. A bad opcode,
 * length or field gets the status real firmware returns for it and a
 * fake syndrome (enum mlx5_umr_fake_cmd_synd) in the out mailbox, and
 * cmd_exec returns -EREMOTEIO, as mlx5_cmd_exec does.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/mm.h>

#include "fake.h"

#define FAKE_LIMIT	XA_LIMIT(1, FAKE_MAX_IDX)

struct fake_cmd {
	struct mlx5_umr_fake *fd;
	const void *in;
	int inlen;
	void *out;
	int outlen;
	struct mlx5_umr_hca_cq *hcq;
	struct fake_notify nt;
	struct fake_cq *dead_cq;	/* freed after cmd_lock is dropped */
};

static int fake_fail(struct fake_cmd *c, u8 status, u32 synd)
{
	MLX5_SET(create_mkey_out, c->out, status, status);
	MLX5_SET(create_mkey_out, c->out, syndrome, synd);
	return -EREMOTEIO;
}

#define FAIL(c, st, sy) fake_fail(c, MLX5_CMD_STAT_##st, MLX5_UMR_FAKE_SYND_##sy)

/* inlen/outlen hold at least the fixed part of the layouts */
static int fake_len(struct fake_cmd *c, int inmin, int outmin)
{
	if (c->inlen < inmin)
		return FAIL(c, BAD_INP_LEN_ERR, BAD_INLEN);
	if (c->outlen < outmin)
		return FAIL(c, BAD_OUTP_LEN_ERR, BAD_OUTLEN);
	return 0;
}

/* Remove @index from @xa. Context: fd->lock held (nests the xa lock). */
void fake_xa_erase(struct mlx5_umr_fake *fd, struct xarray *xa,
		   unsigned long index)
{
	lockdep_assert_held(&fd->lock);
	xa_lock(xa);
	__xa_erase(xa, index);
	xa_unlock(xa);
}

static int fake_query_hca_cap(struct fake_cmd *c)
{
	struct mlx5_umr_fake_caps *caps = &c->fd->caps;
	u16 op_mod;
	void *cap;

	if (fake_len(c, MLX5_ST_SZ_BYTES(query_hca_cap_in),
		     MLX5_ST_SZ_BYTES(query_hca_cap_out)))
		return -EREMOTEIO;
	op_mod = MLX5_GET(query_hca_cap_in, c->in, op_mod);
	if ((op_mod >> 1) != MLX5_CAP_GENERAL &&
	    ((op_mod >> 1) != MLX5_UMR_CAP_CRYPTO ||
	     caps->crypto == MLX5_UMR_FAKE_CRYPTO_NONE))
		return FAIL(c, BAD_PARAM_ERR, BAD_CAP_TYPE);
	if (MLX5_GET(query_hca_cap_in, c->in, other_function))
		return FAIL(c, BAD_PARAM_ERR, BAD_FIELD);

	cap = MLX5_ADDR_OF(query_hca_cap_out, c->out, capability);
	if ((op_mod >> 1) == MLX5_UMR_CAP_CRYPTO) {
		fake_crypto_caps(c->fd, cap);
		return 0;
	}
	fake_crypto_hca_caps(c->fd, cap);
	MLX5_SET(cmd_hca_cap, cap, log_max_qp_sz, caps->log_max_qp_sz);
	/* What ConnectX reports; mlx5_ib's calc_sq_size() honours it. */
	MLX5_SET(cmd_hca_cap, cap, max_wqe_sz_sq, MLX5_SEND_WQE_MAX_SIZE);
	MLX5_SET(cmd_hca_cap, cap, log_max_qp, 10);
	MLX5_SET(cmd_hca_cap, cap, log_max_cq_sz, caps->log_max_cq_sz);
	MLX5_SET(cmd_hca_cap, cap, log_max_cq, 10);
	MLX5_SET(cmd_hca_cap, cap, log_max_mkey, 20);
	MLX5_SET(cmd_hca_cap, cap, log_max_pd, 16);
	MLX5_SET(cmd_hca_cap, cap, log_max_klm_list_size,
		 caps->log_max_klm_list_size);
	MLX5_SET(cmd_hca_cap, cap, umr_extended_translation_offset,
		 caps->umr_extended_translation_offset);
	MLX5_SET(cmd_hca_cap, cap, relaxed_ordering_write_umr,
		 caps->relaxed_ordering_write_umr);
	MLX5_SET(cmd_hca_cap, cap, relaxed_ordering_read_umr,
		 caps->relaxed_ordering_read_umr);
	MLX5_SET(cmd_hca_cap, cap, umr_modify_entity_size_disabled,
		 caps->umr_modify_entity_size_disabled);
	MLX5_SET(cmd_hca_cap, cap, umr_modify_atomic_disabled,
		 caps->umr_modify_atomic_disabled);
	MLX5_SET(cmd_hca_cap, cap, umr_indirect_mkey_disabled,
		 caps->umr_indirect_mkey_disabled);
	MLX5_SET(cmd_hca_cap, cap, umr_fence, caps->umr_fence);
	MLX5_SET(cmd_hca_cap, cap, atomic, caps->atomic);
	MLX5_SET(cmd_hca_cap, cap, umr_ptr_rlky, caps->umr_ptr_rlky);
	MLX5_SET(cmd_hca_cap, cap, cqe_version, 1);
	MLX5_SET(cmd_hca_cap, cap, log_bf_reg_size, 9);
	MLX5_SET(cmd_hca_cap, cap, sho, 1);
	MLX5_SET(mlx5_umr_hca_cap_sig, cap, sigerr_domain_and_sig_type,
		 caps->sigerr_domain_and_sig_type);
	MLX5_SET64(cmd_hca_cap, cap, general_obj_types,
		   MLX5_HCA_CAP_GENERAL_OBJECT_TYPES_ENCRYPTION_KEY);
	/* devx.c mlx5_ib_devx_create() offers DEVX only with it */
	MLX5_SET(cmd_hca_cap, cap, log_max_uctx, caps->log_max_uctx);
	return 0;
}

static int fake_query_special(struct fake_cmd *c)
{
	if (fake_len(c, MLX5_ST_SZ_BYTES(query_special_contexts_in),
		     MLX5_ST_SZ_BYTES(query_special_contexts_out)))
		return -EREMOTEIO;
	MLX5_SET(query_special_contexts_out, c->out, resd_lkey,
		 MLX5_UMR_FAKE_RESD_LKEY);
	return 0;
}

static int fake_alloc_pd(struct fake_cmd *c)
{
	struct mlx5_umr_fake *fd = c->fd;
	struct fake_pd *pd;
	unsigned long flags;
	u32 id;

	if (fake_len(c, MLX5_ST_SZ_BYTES(alloc_pd_in),
		     MLX5_ST_SZ_BYTES(alloc_pd_out)))
		return -EREMOTEIO;
	pd = kzalloc(sizeof(*pd), GFP_KERNEL);
	if (!pd)
		return FAIL(c, NO_RES_ERR, NO_RESOURCES);
	if (xa_alloc_irq(&fd->pds, &id, pd, FAKE_LIMIT, GFP_KERNEL)) {
		kfree(pd);
		return FAIL(c, NO_RES_ERR, NO_RESOURCES);
	}
	pd->pdn = id;
	pd->uid = fake_cmd_uid(c->in);
	spin_lock_irqsave(&fd->lock, flags);
	fd->cnt.pds++;
	spin_unlock_irqrestore(&fd->lock, flags);
	MLX5_SET(alloc_pd_out, c->out, pd, id);
	return 0;
}

static bool fake_pd_busy(struct mlx5_umr_fake *fd, u32 pdn)
{
	struct fake_mkey *mk;
	struct fake_qp *qp;
	struct fake_psv *psv;
	unsigned long i;

	xa_for_each(&fd->mkeys, i, mk)
		if (MLX5_GET(mkc, mk->mkc, pd) == pdn)
			return true;
	xa_for_each(&fd->qps, i, qp)
		if (qp->pdn == pdn)
			return true;
	xa_for_each(&fd->psvs, i, psv)
		if (psv->pdn == pdn)
			return true;
	return fake_crypto_pd_busy(fd, pdn);
}

static int fake_dealloc_pd(struct fake_cmd *c)
{
	struct mlx5_umr_fake *fd = c->fd;
	struct fake_pd *pd;
	unsigned long flags;
	u32 pdn;

	if (fake_len(c, MLX5_ST_SZ_BYTES(dealloc_pd_in),
		     MLX5_ST_SZ_BYTES(dealloc_pd_out)))
		return -EREMOTEIO;
	pdn = MLX5_GET(dealloc_pd_in, c->in, pd);
	spin_lock_irqsave(&fd->lock, flags);
	pd = xa_load(&fd->pds, pdn);
	if (!pd) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return FAIL(c, BAD_RES_ERR, BAD_PD);
	}
	if (pd->uid != fake_cmd_uid(c->in)) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return FAIL(c, BAD_RES_ERR, BAD_UID);
	}
	if (fake_pd_busy(fd, pdn)) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return FAIL(c, BAD_RES_STATE_ERR, PD_BUSY);
	}
	fake_xa_erase(fd, &fd->pds, pdn);
	fd->cnt.pds--;
	spin_unlock_irqrestore(&fd->lock, flags);
	kfree(pd);
	return 0;
}

static int fake_create_mkey(struct fake_cmd *c)
{
	struct mlx5_umr_fake *fd = c->fd;
	const void *mkc = MLX5_ADDR_OF(create_mkey_in, c->in,
				       memory_key_mkey_entry);
	u32 oct, bsf_oct, actual, id, max;
	struct fake_mkey *mk;
	unsigned long flags;
	struct fake_pd *pd;
	size_t inl;
	u8 mode;

	if (fake_len(c, MLX5_ST_SZ_BYTES(create_mkey_in),
		     MLX5_ST_SZ_BYTES(create_mkey_out)))
		return -EREMOTEIO;
	pd = xa_load(&fd->pds, MLX5_GET(mkc, mkc, pd));
	if (!pd)
		return FAIL(c, BAD_RES_ERR, BAD_PD);
	if (!fake_uid_may_use(fake_cmd_uid(c->in), pd->uid))
		return FAIL(c, BAD_RES_ERR, BAD_UID);
	/*
	 * No UMEM objects: an mkey over one (devx.c devx_handle_mkey_create()
	 * sets mkey_umem_valid for every direct DEVX mkey) names nothing.
	 */
	if (MLX5_GET(create_mkey_in, c->in, mkey_umem_valid))
		return FAIL(c, BAD_PARAM_ERR, BAD_FIELD);
	mode = fake_mkey_access_mode(mkc);
	oct = MLX5_GET(mkc, mkc, translations_octword_size);
	bsf_oct = MLX5_GET(mkc, mkc, bsf_octword_size);
	switch (mode) {
	case MLX5_MKC_ACCESS_MODE_PA:
		max = 0;
		break;
	case MLX5_MKC_ACCESS_MODE_MTT:
		max = FAKE_MAX_MTT_OCTO;
		if (MLX5_GET(mkc, mkc, log_page_size) < FAKE_PAGE_SHIFT)
			return FAIL(c, BAD_PARAM_ERR, BAD_FIELD);
		break;
	case MLX5_MKC_ACCESS_MODE_KLMS:
	case MLX5_MKC_ACCESS_MODE_KSM:
		max = 1U << fd->caps.log_max_klm_list_size;
		break;
	default:
		return FAIL(c, BAD_PARAM_ERR, BAD_ACCESS_MODE);
	}
	if (oct > max)
		return FAIL(c, BAD_PARAM_ERR, XLT_TOO_BIG);
	if (bsf_oct > 16 || (bsf_oct && !MLX5_GET(mkc, mkc, bsf_en)))
		return FAIL(c, BAD_PARAM_ERR, BAD_FIELD);
	/*
	 * crypto_en: 0, or 1 with room for the crypto BSF or the pair, as
	 * mlx5dv_create_mkey() and the service create a crypto mkey
	 */
	switch (MLX5_GET(mlx5_umr_mkc_crypto, mkc, crypto_en)) {
	case 0:
		break;
	case MLX5_UMR_MKC_CRYPTO_ENABLED:
		if (bsf_oct != FAKE_CRYPTO_BSF_OCT &&
		    bsf_oct != FAKE_PAIR_BSF_OCT)
			return FAIL(c, BAD_PARAM_ERR, BAD_FIELD);
		break;
	default:
		return FAIL(c, BAD_PARAM_ERR, BAD_FIELD);
	}
	actual = MLX5_GET(create_mkey_in, c->in,
			  translations_octword_actual_size);
	inl = c->inlen - MLX5_ST_SZ_BYTES(create_mkey_in);
	if (actual > oct || (size_t)actual * 16 > inl)
		return FAIL(c, BAD_PARAM_ERR, XLT_TOO_BIG);

	mk = kzalloc(sizeof(*mk), GFP_KERNEL);
	if (!mk)
		goto err_nores;
	memcpy(mk->mkc, mkc, sizeof(mk->mkc));
	mk->xlt_oct = oct;
	if (oct) {
		mk->xlt = kvzalloc((size_t)oct * 16, GFP_KERNEL | __GFP_NOWARN);
		if (!mk->xlt)
			goto err_nores;
		memcpy(mk->xlt, MLX5_ADDR_OF(create_mkey_in, c->in,
					     klm_pas_mtt), (size_t)actual * 16);
	}
	mk->bsf_oct = bsf_oct;
	if (bsf_oct) {
		mk->bsf = kzalloc(bsf_oct * 16, GFP_KERNEL);
		if (!mk->bsf)
			goto err_nores;
	}
	if (xa_alloc_irq(&fd->mkeys, &id, mk,
			 XA_LIMIT(FAKE_FIRST_MKEY_IDX, FAKE_MAX_IDX),
			 GFP_KERNEL))
		goto err_nores;
	mk->index = id;
	mk->uid = fake_cmd_uid(c->in);
	spin_lock_irqsave(&fd->lock, flags);
	fd->cnt.mkeys++;
	spin_unlock_irqrestore(&fd->lock, flags);
	MLX5_SET(create_mkey_out, c->out, mkey_index, id);
	return 0;

err_nores:
	fake_mkey_free(mk);
	return FAIL(c, NO_RES_ERR, NO_RESOURCES);
}

static int fake_destroy_mkey(struct fake_cmd *c)
{
	struct mlx5_umr_fake *fd = c->fd;
	struct fake_mkey *mk;
	unsigned long flags;
	u32 idx;

	if (fake_len(c, MLX5_ST_SZ_BYTES(destroy_mkey_in),
		     MLX5_ST_SZ_BYTES(destroy_mkey_out)))
		return -EREMOTEIO;
	idx = MLX5_GET(destroy_mkey_in, c->in, mkey_index);
	spin_lock_irqsave(&fd->lock, flags);
	mk = xa_load(&fd->mkeys, idx);
	if (!mk) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return FAIL(c, BAD_RES_ERR, BAD_MKEY);
	}
	if (mk->uid != fake_cmd_uid(c->in)) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return FAIL(c, BAD_RES_ERR, BAD_UID);
	}
	fake_xa_erase(fd, &fd->mkeys, idx);
	fd->cnt.mkeys--;
	spin_unlock_irqrestore(&fd->lock, flags);
	fake_mkey_free(mk);
	return 0;
}

static int fake_query_mkey(struct fake_cmd *c)
{
	struct mlx5_umr_fake *fd = c->fd;
	struct fake_mkey *mk;
	unsigned long flags;
	u32 idx;

	if (fake_len(c, MLX5_ST_SZ_BYTES(query_mkey_in),
		     MLX5_ST_SZ_BYTES(query_mkey_out)))
		return -EREMOTEIO;
	idx = MLX5_GET(query_mkey_in, c->in, mkey_index);
	spin_lock_irqsave(&fd->lock, flags);
	mk = xa_load(&fd->mkeys, idx);
	if (mk && !fake_uid_may_use(fake_cmd_uid(c->in), mk->uid)) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return FAIL(c, BAD_RES_ERR, BAD_UID);
	}
	if (mk)
		memcpy(MLX5_ADDR_OF(query_mkey_out, c->out,
				    memory_key_mkey_entry),
		       mk->mkc, sizeof(mk->mkc));
	spin_unlock_irqrestore(&fd->lock, flags);
	return mk ? 0 : FAIL(c, BAD_RES_ERR, BAD_MKEY);
}

/* Validate a queue's PAS list: present in the mailbox, aligned, mapped. */
static int fake_get_pas(struct fake_cmd *c, const void *pas, size_t fixed,
			u64 bytes, u8 log_pg, u64 **out, u32 *npas)
{
	u64 pgsz = 1ULL << (FAKE_PAGE_SHIFT + log_pg);
	const __be64 *p = pas;
	unsigned long flags;
	u32 i, n;
	u64 *arr;
	int bad = 0;

	n = DIV_ROUND_UP(bytes, pgsz);
	if (c->inlen < fixed + (size_t)n * 8)
		return FAIL(c, BAD_INP_LEN_ERR, BAD_INLEN);
	arr = kcalloc(n, sizeof(*arr), GFP_KERNEL);
	if (!arr)
		return FAIL(c, NO_RES_ERR, NO_RESOURCES);
	spin_lock_irqsave(&c->fd->lock, flags);
	for (i = 0; i < n && !bad; i++) {
		arr[i] = be64_to_cpu(p[i]);
		if ((arr[i] & (pgsz - 1)) ||
		    fake_iommu_rw(c->fd, arr[i], NULL, pgsz, false))
			bad = 1;
	}
	spin_unlock_irqrestore(&c->fd->lock, flags);
	if (bad) {
		kfree(arr);
		return FAIL(c, BAD_PARAM_ERR, BAD_PAS);
	}
	*out = arr;
	*npas = n;
	return 0;
}

static bool fake_dbr_ok(struct mlx5_umr_fake *fd, u64 dbr)
{
	unsigned long flags;
	bool ok;

	if (dbr & 7)
		return false;
	spin_lock_irqsave(&fd->lock, flags);
	ok = !fake_iommu_rw(fd, dbr, NULL, 8, false);
	spin_unlock_irqrestore(&fd->lock, flags);
	return ok;
}

static int fake_create_cq(struct fake_cmd *c)
{
	struct mlx5_umr_fake *fd = c->fd;
	const void *cqc = MLX5_ADDR_OF(create_cq_in, c->in, cq_context);
	struct fake_cq *cq;
	unsigned long flags;
	u32 id;
	int err;

	if (fake_len(c, MLX5_ST_SZ_BYTES(create_cq_in),
		     MLX5_ST_SZ_BYTES(create_cq_out)))
		return -EREMOTEIO;
	if (MLX5_GET(cqc, cqc, cqe_sz) != 0)
		return FAIL(c, BAD_PARAM_ERR, BAD_CQE_SIZE);
	if (MLX5_GET(cqc, cqc, log_cq_size) > fd->caps.log_max_cq_sz)
		return FAIL(c, BAD_PARAM_ERR, BAD_SIZE);
	if (MLX5_GET(cqc, cqc, page_offset) ||
	    MLX5_GET(cqc, cqc, cqe_comp_en) ||
	    MLX5_GET(create_cq_in, c->in, cq_umem_valid))
		return FAIL(c, BAD_PARAM_ERR, BAD_FIELD);
	if (!xa_load(&fd->uars, MLX5_GET(cqc, cqc, uar_page)))
		return FAIL(c, BAD_PARAM_ERR, BAD_UAR);
	if (!fake_dbr_ok(fd, MLX5_GET64(cqc, cqc, dbr_addr)))
		return FAIL(c, BAD_PARAM_ERR, BAD_DBR);

	cq = kzalloc(sizeof(*cq), GFP_KERNEL);
	if (!cq)
		return FAIL(c, NO_RES_ERR, NO_RESOURCES);
	cq->fd = fd;
	cq->log_sz = MLX5_GET(cqc, cqc, log_cq_size);
	cq->log_pg = MLX5_GET(cqc, cqc, log_page_size);
	cq->uar = MLX5_GET(cqc, cqc, uar_page);
	cq->dbr = MLX5_GET64(cqc, cqc, dbr_addr);
	cq->eqn = MLX5_GET(cqc, cqc, c_eqn_or_apu_element);
	cq->cpu = fake_eqn_cpu(cq->eqn);
	cq->hcq = c->hcq;
	spin_lock_init(&cq->lock);
	INIT_WORK(&cq->work, fake_cq_work);
	atomic_set(&cq->sync_inflight, 0);
	err = fake_get_pas(c, MLX5_ADDR_OF(create_cq_in, c->in, pas),
			   MLX5_ST_SZ_BYTES(create_cq_in),
			   (u64)MLX5_SEND_WQE_BB << cq->log_sz, cq->log_pg,
			   &cq->pas, &cq->npas);
	if (err) {
		kfree(cq);
		return err;
	}
	if (xa_alloc_irq(&fd->cqs, &id, cq, FAKE_LIMIT, GFP_KERNEL)) {
		kfree(cq->pas);
		kfree(cq);
		return FAIL(c, NO_RES_ERR, NO_RESOURCES);
	}
	cq->cqn = id;
	if (c->hcq)
		c->hcq->cqn = id;
	spin_lock_irqsave(&fd->lock, flags);
	fd->cnt.cqs++;
	spin_unlock_irqrestore(&fd->lock, flags);
	MLX5_SET(create_cq_out, c->out, cqn, id);
	return 0;
}

static int fake_destroy_cq(struct fake_cmd *c)
{
	struct mlx5_umr_fake *fd = c->fd;
	struct fake_cq *cq;
	unsigned long flags;
	u32 cqn;

	if (fake_len(c, MLX5_ST_SZ_BYTES(destroy_cq_in),
		     MLX5_ST_SZ_BYTES(destroy_cq_out)))
		return -EREMOTEIO;
	cqn = MLX5_GET(destroy_cq_in, c->in, cqn);
	spin_lock_irqsave(&fd->lock, flags);
	cq = xa_load(&fd->cqs, cqn);
	if (!cq) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return FAIL(c, BAD_RES_ERR, BAD_CQ);
	}
	if (cq->qp_users) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return FAIL(c, BAD_RES_STATE_ERR, CQ_BUSY);
	}
	spin_lock(&cq->lock);
	cq->dead = true;
	WRITE_ONCE(cq->hcq, NULL);
	spin_unlock(&cq->lock);
	fake_xa_erase(fd, &fd->cqs, cqn);
	fd->cnt.cqs--;
	spin_unlock_irqrestore(&fd->lock, flags);
	c->dead_cq = cq;
	return 0;
}

/*
 * Once the command returns no event runs or will run. Waited for outside
 * cmd_lock: a completion handler may itself issue commands.
 */
static void fake_cq_reap(struct mlx5_umr_fake *fd, struct fake_cq *cq)
{
	cancel_work_sync(&cq->work);
	wait_event(fd->waitq, !atomic_read(&cq->sync_inflight));
	kfree(cq->pas);
	/* a doorbell may still hold it under RCU, and sees it dead */
	kfree_rcu(cq, rcu);
}

/*
 * The service types whose send queue the engine runs: REG_UMR (the
 * service's QPs, as mlx5_ib's umrc.qp) and RC, which mlx5_ib gives a user
 * RC QP (Linux 6.1 drivers/infiniband/hw/mlx5/qp.c create_user_qp():
 * to_mlx5_st(IB_QPT_RC)); rdma-core posts its mkey WRs (UMR, SET_PSV,
 * NOP) on such a QP. Both run the same WQE engine; an RC QP also
 * executes RDMA WRITE and READ with the RC QP INIT2RTR connected it to
 * (fake_rdma.c); SEND ends in the engine's bad-opcode error.
 */
static bool fake_qp_st_ok(const void *qpc)
{
	u8 st = MLX5_GET(qpc, qpc, st);

	return st == MLX5_QP_ST_REG_UMR || st == MLX5_QP_ST_RC;
}

/* What the fake accepts of a CREATE_QP: a QP of its own objects. */
static int fake_create_qp_check(struct fake_cmd *c, const void *qpc)
{
	struct mlx5_umr_fake *fd = c->fd;
	u32 pdn = MLX5_GET(qpc, qpc, pd);

	if (!fake_qp_st_ok(qpc))
		return FAIL(c, BAD_PARAM_ERR, BAD_ST);
	if (MLX5_GET(qpc, qpc, rq_type) != MLX5_ZERO_LEN_RQ ||
	    MLX5_GET(qpc, qpc, no_sq))
		return FAIL(c, BAD_PARAM_ERR, BAD_RQ);
	if (MLX5_GET(qpc, qpc, log_sq_size) > fd->caps.log_max_qp_sz)
		return FAIL(c, BAD_PARAM_ERR, BAD_SIZE);
	if (MLX5_GET(qpc, qpc, page_offset) ||
	    MLX5_GET(create_qp_in, c->in, wq_umem_valid))
		return FAIL(c, BAD_PARAM_ERR, BAD_FIELD);
	if (pdn && !xa_load(&fd->pds, pdn))
		return FAIL(c, BAD_RES_ERR, BAD_PD);
	if (!xa_load(&fd->uars, MLX5_GET(qpc, qpc, uar_page)))
		return FAIL(c, BAD_PARAM_ERR, BAD_UAR);
	if (!fake_dbr_ok(fd, MLX5_GET64(qpc, qpc, dbr_addr)))
		return FAIL(c, BAD_PARAM_ERR, BAD_DBR);
	return 0;
}

static void fake_qp_free(struct fake_qp *qp)
{
	kvfree(qp->rdma_buf);
	kfree(qp->pas);
	kfree(qp->wqe);
	kfree(qp);
}

/* A QP in RST as @qpc describes it, its SQ pages read from the mailbox. */
static int fake_qp_new(struct fake_cmd *c, const void *qpc,
		       struct fake_qp **out)
{
	struct fake_qp *qp;
	int err;

	qp = kzalloc(sizeof(*qp), GFP_KERNEL);
	if (!qp)
		return FAIL(c, NO_RES_ERR, NO_RESOURCES);
	qp->wqe = kzalloc(MLX5_SEND_WQE_MAX_SIZE, GFP_KERNEL);
	if (!qp->wqe) {
		fake_qp_free(qp);
		return FAIL(c, NO_RES_ERR, NO_RESOURCES);
	}
	qp->fd = c->fd;
	spin_lock_init(&qp->lock);
	qp->state = MLX5_QP_STATE_RST;
	qp->st = MLX5_GET(qpc, qpc, st);
	/* mlx5_ib sets it for CQE version 1 (create_user_qp()) */
	qp->uidx = MLX5_GET(qpc, qpc, user_index);
	qp->log_sq = MLX5_GET(qpc, qpc, log_sq_size);
	qp->log_pg = MLX5_GET(qpc, qpc, log_page_size);
	qp->rlky = MLX5_GET(qpc, qpc, rlky);
	qp->fre = MLX5_GET(qpc, qpc, fre);
	qp->uar = MLX5_GET(qpc, qpc, uar_page);
	qp->pdn = MLX5_GET(qpc, qpc, pd);
	qp->dbr = MLX5_GET64(qpc, qpc, dbr_addr);
	INIT_DELAYED_WORK(&qp->delay_work, fake_qp_delay_work);
	err = fake_get_pas(c, MLX5_ADDR_OF(create_qp_in, c->in, pas),
			   MLX5_ST_SZ_BYTES(create_qp_in),
			   (u64)MLX5_SEND_WQE_BB << qp->log_sq, qp->log_pg,
			   &qp->pas, &qp->npas);
	if (err) {
		fake_qp_free(qp);
		return err;
	}
	*out = qp;
	return 0;
}

/* Bind @qp to its send (and optional receive) CQ: they stay while it does. */
static int fake_qp_bind_cqs(struct fake_cmd *c, struct fake_qp *qp,
			    const void *qpc)
{
	struct mlx5_umr_fake *fd = c->fd;
	u32 cqn_rcv = MLX5_GET(qpc, qpc, cqn_rcv);
	struct fake_cq *scq, *rcq = NULL;
	unsigned long flags;

	spin_lock_irqsave(&fd->lock, flags);
	scq = xa_load(&fd->cqs, MLX5_GET(qpc, qpc, cqn_snd));
	if (cqn_rcv)
		rcq = xa_load(&fd->cqs, cqn_rcv);
	if (!scq || (cqn_rcv && !rcq)) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return FAIL(c, BAD_RES_ERR, BAD_CQ);
	}
	scq->qp_users++;
	if (rcq)
		rcq->qp_users++;
	qp->scq = scq;
	qp->rcq = rcq;
	spin_unlock_irqrestore(&fd->lock, flags);
	return 0;
}

static void fake_qp_unbind_cqs(struct mlx5_umr_fake *fd, struct fake_qp *qp)
{
	unsigned long flags;

	spin_lock_irqsave(&fd->lock, flags);
	qp->scq->qp_users--;
	if (qp->rcq)
		qp->rcq->qp_users--;
	spin_unlock_irqrestore(&fd->lock, flags);
}

static int fake_create_qp(struct fake_cmd *c)
{
	struct mlx5_umr_fake *fd = c->fd;
	const void *qpc = MLX5_ADDR_OF(create_qp_in, c->in, qpc);
	struct fake_qp *qp;
	unsigned long flags;
	int err;
	u32 id;

	if (fake_len(c, MLX5_ST_SZ_BYTES(create_qp_in),
		     MLX5_ST_SZ_BYTES(create_qp_out)))
		return -EREMOTEIO;
	err = fake_create_qp_check(c, qpc);
	if (err)
		return err;
	err = fake_qp_new(c, qpc, &qp);
	if (err)
		return err;
	err = fake_qp_bind_cqs(c, qp, qpc);
	if (err)
		goto err_qp;
	if (xa_alloc_irq(&fd->qps, &id, qp, FAKE_LIMIT, GFP_KERNEL)) {
		err = FAIL(c, NO_RES_ERR, NO_RESOURCES);
		goto err_cq;
	}
	qp->qpn = id;
	spin_lock_irqsave(&fd->lock, flags);
	fd->cnt.qps++;
	spin_unlock_irqrestore(&fd->lock, flags);
	MLX5_SET(create_qp_out, c->out, qpn, id);
	return 0;

err_cq:
	fake_qp_unbind_cqs(fd, qp);
err_qp:
	fake_qp_free(qp);
	return err;
}

static int fake_destroy_qp(struct fake_cmd *c)
{
	struct mlx5_umr_fake *fd = c->fd;
	struct fake_qp *qp;
	unsigned long flags;
	u32 qpn;

	if (fake_len(c, MLX5_ST_SZ_BYTES(destroy_qp_in),
		     MLX5_ST_SZ_BYTES(destroy_qp_out)))
		return -EREMOTEIO;
	qpn = MLX5_GET(destroy_qp_in, c->in, qpn);
	/* commands alone change the table, and cmd_lock is held */
	qp = xa_load(&fd->qps, qpn);
	if (!qp)
		return FAIL(c, BAD_RES_ERR, BAD_QP);
	spin_lock_irqsave(&qp->lock, flags);
	/* from now on no doorbell or run touches the QP's rings or CQs */
	qp->dead = true;
	spin_lock(&fd->lock);
	qp->scq->qp_users--;
	if (qp->rcq)
		qp->rcq->qp_users--;
	fake_xa_erase(fd, &fd->qps, qpn);
	fd->cnt.qps--;
	spin_unlock(&fd->lock);
	spin_unlock_irqrestore(&qp->lock, flags);

	cancel_delayed_work_sync(&qp->delay_work);
	kfree(qp->pas);
	kfree(qp->wqe);
	kvfree(qp->rdma_buf);
	/* a doorbell may still hold it under RCU, and sees it dead */
	kfree_rcu(qp, rcu);
	return 0;
}

/*
 * The bounce buffer an RC QP's RDMA needs from RTR on (fake_rdma.c),
 * allocated before the QP's lock is taken; NULL for anything else. The
 * QP's type and buffer change only under cmd_lock, held here.
 */
static u8 *fake_rdma_buf_new(struct mlx5_umr_fake *fd, u32 qpn, u8 to)
{
	struct fake_qp *qp = xa_load(&fd->qps, qpn);

	if (to != MLX5_QP_STATE_RTR || !qp || qp->st != MLX5_QP_ST_RC ||
	    qp->rdma_buf)
		return NULL;
	return kvmalloc(MLX5_UMR_FAKE_RDMA_MAX_MSG, GFP_KERNEL);
}

/*
 * INIT2RTR of an RC QP: its peer, qpc.remote_qpn, as mlx5_ib writes it
 * from IB_QP_DEST_QPN (Linux 6.1 drivers/infiniband/hw/mlx5/qp.c
 * __mlx5_ib_modify_qp(): MLX5_SET(qpc, qpc, remote_qpn,
 * attr->dest_qp_num)). Loopback only: the peer is looked up among this
 * fake's QPs when a WQE executes; the address path (port, LID, GID) is
 * not read, as the fake has one port.
 * A QP without a bounce buffer (no memory) executes no RDMA: its WQEs
 * end in a local QP operation error (fake_rdma.c).
 */
static void fake_qp_connect(struct fake_qp *qp, const void *in, u8 **buf)
{
	if (qp->st != MLX5_QP_ST_RC)
		return;
	qp->remote_qpn = MLX5_GET(init2rtr_qp_in, in, qpc.remote_qpn);
	if (!qp->rdma_buf) {
		qp->rdma_buf = *buf;
		*buf = NULL;
	}
}

static int fake_modify_qp(struct fake_cmd *c, u16 opcode)
{
	struct mlx5_umr_fake *fd = c->fd;
	struct fake_qp *qp;
	u8 *buf;
	unsigned long flags;
	u8 from, to;
	u32 qpn;
	int ret = 0;

	switch (opcode) {
	case MLX5_CMD_OP_RST2INIT_QP:
		if (fake_len(c, MLX5_ST_SZ_BYTES(rst2init_qp_in),
			     MLX5_ST_SZ_BYTES(rst2init_qp_out)))
			return -EREMOTEIO;
		from = MLX5_QP_STATE_RST;
		to = MLX5_QP_STATE_INIT;
		break;
	case MLX5_CMD_OP_INIT2RTR_QP:
		if (fake_len(c, MLX5_ST_SZ_BYTES(init2rtr_qp_in),
			     MLX5_ST_SZ_BYTES(init2rtr_qp_out)))
			return -EREMOTEIO;
		from = MLX5_QP_STATE_INIT;
		to = MLX5_QP_STATE_RTR;
		break;
	case MLX5_CMD_OP_RTR2RTS_QP:
		if (fake_len(c, MLX5_ST_SZ_BYTES(rtr2rts_qp_in),
			     MLX5_ST_SZ_BYTES(rtr2rts_qp_out)))
			return -EREMOTEIO;
		from = MLX5_QP_STATE_RTR;
		to = MLX5_QP_STATE_RTS;
		break;
	case MLX5_CMD_OP_2ERR_QP:
		if (fake_len(c, MLX5_ST_SZ_BYTES(qp_2err_in),
			     MLX5_ST_SZ_BYTES(qp_2err_out)))
			return -EREMOTEIO;
		from = 0xff;
		to = MLX5_QP_STATE_ERR;
		break;
	default:
		if (fake_len(c, MLX5_ST_SZ_BYTES(qp_2rst_in),
			     MLX5_ST_SZ_BYTES(qp_2rst_out)))
			return -EREMOTEIO;
		from = 0xff;
		to = MLX5_QP_STATE_RST;
		break;
	}

	/* qpn sits at the same place in every *2*_qp_in layout */
	qpn = MLX5_GET(rst2init_qp_in, c->in, qpn);
	buf = fake_rdma_buf_new(fd, qpn, to);
	qp = fake_qp_lock(fd, qpn, &flags);
	if (!qp) {
		kvfree(buf);
		return FAIL(c, BAD_RES_ERR, BAD_QP);
	}
	if (from != 0xff && qp->state != from) {
		ret = FAIL(c, BAD_QP_STATE_ERR, BAD_QP_STATE);
	} else if (to == MLX5_QP_STATE_ERR) {
		fake_qp_flush_all(fd, qp, &c->nt);
	} else if (to == MLX5_QP_STATE_RST) {
		WRITE_ONCE(qp->state, to);
		qp->ci = 0;
		qp->last_pi = 0;
		/* a pending run must not read the pre-reset record later */
		if (qp->delayed && cancel_delayed_work(&qp->delay_work))
			qp->delayed = false;
	} else {
		if (to == MLX5_QP_STATE_RTR)
			fake_qp_connect(qp, c->in, &buf);
		WRITE_ONCE(qp->state, to);
	}
	fake_qp_unlock(qp, flags);
	kvfree(buf);
	return ret;
}

static int fake_query_qp(struct fake_cmd *c)
{
	struct mlx5_umr_fake *fd = c->fd;
	void *qpc = MLX5_ADDR_OF(query_qp_out, c->out, qpc);
	struct fake_qp *qp;
	unsigned long flags;

	if (fake_len(c, MLX5_ST_SZ_BYTES(query_qp_in),
		     MLX5_ST_SZ_BYTES(query_qp_out)))
		return -EREMOTEIO;
	qp = fake_qp_lock(fd, MLX5_GET(query_qp_in, c->in, qpn), &flags);
	if (qp) {
		MLX5_SET(qpc, qpc, state, qp->state);
		MLX5_SET(qpc, qpc, st, qp->st);
		MLX5_SET(qpc, qpc, user_index, qp->uidx);
		MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
		MLX5_SET(qpc, qpc, pd, qp->pdn);
		MLX5_SET(qpc, qpc, remote_qpn, qp->remote_qpn);
		MLX5_SET(qpc, qpc, log_sq_size, qp->log_sq);
		MLX5_SET(qpc, qpc, rq_type, MLX5_ZERO_LEN_RQ);
		MLX5_SET(qpc, qpc, rlky, qp->rlky);
		MLX5_SET(qpc, qpc, fre, qp->fre);
		MLX5_SET(qpc, qpc, uar_page, qp->uar);
		MLX5_SET(qpc, qpc, log_page_size, qp->log_pg);
		MLX5_SET(qpc, qpc, cqn_snd, qp->scq->cqn);
		MLX5_SET(qpc, qpc, cqn_rcv, qp->rcq ? qp->rcq->cqn : 0);
		MLX5_SET64(qpc, qpc, dbr_addr, qp->dbr);
		MLX5_SET(qpc, qpc, hw_sq_wqebb_counter, qp->ci);
		MLX5_SET(qpc, qpc, sw_sq_wqebb_counter, qp->last_pi);
		fake_qp_unlock(qp, flags);
	}
	return qp ? 0 : FAIL(c, BAD_RES_ERR, BAD_QP);
}

static int fake_create_psv(struct fake_cmd *c)
{
	struct mlx5_umr_fake *fd = c->fd;
	u16 uid = fake_cmd_uid(c->in);
	struct fake_psv *psv[4] = {};
	unsigned long flags;
	struct fake_pd *pd;
	u32 i, id, n, pdn;

	if (fake_len(c, MLX5_ST_SZ_BYTES(create_psv_in),
		     MLX5_ST_SZ_BYTES(create_psv_out)))
		return -EREMOTEIO;
	n = MLX5_GET(create_psv_in, c->in, num_psv);
	pdn = MLX5_GET(create_psv_in, c->in, pd);
	if (!n || n > 4)
		return FAIL(c, BAD_PARAM_ERR, BAD_FIELD);
	pd = xa_load(&fd->pds, pdn);
	if (!pd)
		return FAIL(c, BAD_RES_ERR, BAD_PD);
	if (!fake_uid_may_use(uid, pd->uid))
		return FAIL(c, BAD_RES_ERR, BAD_UID);
	for (i = 0; i < n; i++) {
		psv[i] = kzalloc(sizeof(*psv[i]), GFP_KERNEL);
		if (!psv[i] ||
		    xa_alloc_irq(&fd->psvs, &id, psv[i], FAKE_LIMIT,
				 GFP_KERNEL)) {
			kfree(psv[i]);
			psv[i] = NULL;
			goto err;
		}
		psv[i]->psvn = id;
		psv[i]->pdn = pdn;
		psv[i]->uid = uid;
	}
	spin_lock_irqsave(&fd->lock, flags);
	fd->cnt.psvs += n;
	spin_unlock_irqrestore(&fd->lock, flags);
	MLX5_SET(create_psv_out, c->out, psv0_index, psv[0]->psvn);
	if (n > 1)
		MLX5_SET(create_psv_out, c->out, psv1_index, psv[1]->psvn);
	if (n > 2)
		MLX5_SET(create_psv_out, c->out, psv2_index, psv[2]->psvn);
	if (n > 3)
		MLX5_SET(create_psv_out, c->out, psv3_index, psv[3]->psvn);
	return 0;

err:
	spin_lock_irqsave(&fd->lock, flags);
	while (i--)
		fake_xa_erase(fd, &fd->psvs, psv[i]->psvn);
	spin_unlock_irqrestore(&fd->lock, flags);
	for (i = 0; i < n; i++)
		kfree(psv[i]);
	return FAIL(c, NO_RES_ERR, NO_RESOURCES);
}

static int fake_destroy_psv(struct fake_cmd *c)
{
	struct mlx5_umr_fake *fd = c->fd;
	struct fake_psv *psv;
	unsigned long flags;
	u32 psvn;

	if (fake_len(c, MLX5_ST_SZ_BYTES(destroy_psv_in),
		     MLX5_ST_SZ_BYTES(destroy_psv_out)))
		return -EREMOTEIO;
	psvn = MLX5_GET(destroy_psv_in, c->in, psvn);
	spin_lock_irqsave(&fd->lock, flags);
	psv = xa_load(&fd->psvs, psvn);
	if (psv && psv->uid != fake_cmd_uid(c->in)) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return FAIL(c, BAD_RES_ERR, BAD_UID);
	}
	if (psv) {
		fake_xa_erase(fd, &fd->psvs, psvn);
		fd->cnt.psvs--;
	}
	spin_unlock_irqrestore(&fd->lock, flags);
	if (!psv)
		return FAIL(c, BAD_RES_ERR, BAD_PSV);
	kfree(psv);
	return 0;
}

static bool fake_is_teardown(u16 opcode)
{
	switch (opcode) {
	case MLX5_CMD_OP_DEALLOC_PD:
	case MLX5_CMD_OP_DESTROY_MKEY:
	case MLX5_CMD_OP_DESTROY_CQ:
	case MLX5_CMD_OP_DESTROY_QP:
	case MLX5_CMD_OP_DESTROY_PSV:
	case MLX5_CMD_OP_DESTROY_GENERAL_OBJECT:
	case MLX5_CMD_OP_DESTROY_UCTX:
	case MLX5_CMD_OP_2ERR_QP:
	case MLX5_CMD_OP_2RST_QP:
		return true;
	default:
		return false;
	}
}

static int fake_dispatch(struct fake_cmd *c, u16 opcode)
{
	/* a uid names a live user context (fake_uctx.c) */
	if (!fake_uid_live(c->fd, fake_cmd_uid(c->in)))
		return FAIL(c, BAD_PARAM_ERR, BAD_UID);
	switch (opcode) {
	case MLX5_CMD_OP_QUERY_HCA_CAP:
		return fake_query_hca_cap(c);
	case MLX5_CMD_OP_QUERY_SPECIAL_CONTEXTS:
		return fake_query_special(c);
	case MLX5_CMD_OP_ALLOC_PD:
		return fake_alloc_pd(c);
	case MLX5_CMD_OP_DEALLOC_PD:
		return fake_dealloc_pd(c);
	case MLX5_CMD_OP_CREATE_MKEY:
		return fake_create_mkey(c);
	case MLX5_CMD_OP_DESTROY_MKEY:
		return fake_destroy_mkey(c);
	case MLX5_CMD_OP_QUERY_MKEY:
		return fake_query_mkey(c);
	case MLX5_CMD_OP_CREATE_CQ:
		return fake_create_cq(c);
	case MLX5_CMD_OP_DESTROY_CQ:
		return fake_destroy_cq(c);
	case MLX5_CMD_OP_CREATE_QP:
		return fake_create_qp(c);
	case MLX5_CMD_OP_DESTROY_QP:
		return fake_destroy_qp(c);
	case MLX5_CMD_OP_RST2INIT_QP:
	case MLX5_CMD_OP_INIT2RTR_QP:
	case MLX5_CMD_OP_RTR2RTS_QP:
	case MLX5_CMD_OP_2ERR_QP:
	case MLX5_CMD_OP_2RST_QP:
		return fake_modify_qp(c, opcode);
	case MLX5_CMD_OP_QUERY_QP:
		return fake_query_qp(c);
	case MLX5_CMD_OP_CREATE_PSV:
		return fake_create_psv(c);
	case MLX5_CMD_OP_DESTROY_PSV:
		return fake_destroy_psv(c);
	case MLX5_CMD_OP_CREATE_GENERAL_OBJECT:
	case MLX5_CMD_OP_DESTROY_GENERAL_OBJECT:
		return fake_gobj_cmd(c->fd, opcode, c->in, c->inlen, c->out,
				     c->outlen);
	case MLX5_CMD_OP_CREATE_UCTX:
	case MLX5_CMD_OP_DESTROY_UCTX:
		return fake_uctx_cmd(c->fd, opcode, c->in, c->inlen, c->out,
				     c->outlen);
	case MLX5_UMR_CMD_OP_SYNC_CRYPTO:
		return fake_sync_crypto(c->fd, c->in, c->inlen, c->out,
					c->outlen);
	default:
		return FAIL(c, BAD_OP_ERR, BAD_OPCODE);
	}
}

/**
 * fake_cmd_do() - execute one mailbox
 * @fd: the fake
 * @in: input mailbox
 * @inlen: its length
 * @out: output mailbox, zeroed here
 * @outlen: its length
 * @hcq: for CREATE_CQ, where to route events (may be NULL)
 *
 * Context: process, may sleep.
 * Return: 0, -EREMOTEIO with status/syndrome in @out, or -errno when the
 * command cannot be delivered.
 */
int fake_cmd_do(struct mlx5_umr_fake *fd, const void *in, int inlen,
		void *out, int outlen, struct mlx5_umr_hca_cq *hcq)
{
	struct fake_cmd c = {
		.fd = fd, .in = in, .inlen = inlen, .out = out,
		.outlen = outlen, .hcq = hcq,
	};
	unsigned long flags;
	u16 opcode;
	int ret;

	if (!in || !out || inlen < 8 || outlen < 8)
		return -EINVAL;
	memset(out, 0, outlen);
	opcode = MLX5_GET(create_mkey_in, in, opcode);

	mutex_lock(&fd->cmd_lock);
	spin_lock_irqsave(&fd->lock, flags);
	if (fd->faults.cmd_armed &&
	    (!fd->faults.cmd_opcode || fd->faults.cmd_opcode == opcode)) {
		fd->faults.cmd_armed = false;
		spin_unlock_irqrestore(&fd->lock, flags);
		ret = fake_fail(&c, fd->faults.cmd_status,
				fd->faults.cmd_synd);
		goto out;
	}
	if (fd->faults.cmd_nth && !--fd->faults.cmd_nth) {
		spin_unlock_irqrestore(&fd->lock, flags);
		ret = fake_fail(&c, fd->faults.nth_status, fd->faults.nth_synd);
		goto out;
	}
	if (fd->internal_error && !fake_is_teardown(opcode)) {
		spin_unlock_irqrestore(&fd->lock, flags);
		ret = -EIO;
		goto out;
	}
	spin_unlock_irqrestore(&fd->lock, flags);
	ret = fake_dispatch(&c, opcode);
out:
	mutex_unlock(&fd->cmd_lock);
	fake_notify_deliver(fd, &c.nt);
	if (c.dead_cq)
		fake_cq_reap(fd, c.dead_cq);
	return ret;
}

int fake_cmd_exec(struct mlx5_umr_hca *hca, const void *in, int inlen,
		  void *out, int outlen)
{
	return fake_cmd_do(to_fake(hca), in, inlen, out, outlen, NULL);
}
