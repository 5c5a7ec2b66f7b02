// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: block-signature mkeys: their PSV objects, the signature they
 * have, and their status, fed by the SIG_ERR CQEs of the QPs that access
 * them and read (and re-armed) by their owner.
 *
 * Documentation/signature.rst describes the semantics and every field.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5_umr_ifc.h>

#include "umr.h"
#include "sig.h"
#include "umr_uapi.h"

/*
 * CREATE_PSV with two PSVs, memory then wire, in the mkey's PD: what
 * mlx5_alloc_integrity_descs() (mr.c) asks mlx5_core_create_psv() for.
 */
static int mlx5_umr_sig_create_psvs(struct mlx5_umr_dev *dev, u32 pdn,
				    u32 psv[2])
{
	u32 out[MLX5_ST_SZ_DW(create_psv_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_psv_in)] = {};
	int err;

	MLX5_SET(create_psv_in, in, opcode, MLX5_CMD_OP_CREATE_PSV);
	MLX5_SET(create_psv_in, in, pd, pdn);
	MLX5_SET(create_psv_in, in, num_psv, 2);
	err = mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	psv[0] = MLX5_GET(create_psv_out, out, psv0_index);
	psv[1] = MLX5_GET(create_psv_out, out, psv1_index);
	return 0;
}

/* DESTROY_PSV, one PSV a command (mlx5_core_destroy_psv()). */
static int mlx5_umr_sig_destroy_psv(struct mlx5_umr_dev *dev, u32 psvn)
{
	u32 out[MLX5_ST_SZ_DW(destroy_psv_out)] = {};
	u32 in[MLX5_ST_SZ_DW(destroy_psv_in)] = {};

	MLX5_SET(destroy_psv_in, in, opcode, MLX5_CMD_OP_DESTROY_PSV);
	MLX5_SET(destroy_psv_in, in, psvn, psvn);
	return mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
}

/**
 * mlx5_umr_sig_mkey_init() - the state and PSVs of a new signature mkey
 * @dev: the device
 * @mp: the mkey, not yet on the HCA
 * @pdn: its protection domain
 *
 * Context: process context, may sleep.
 * Return: 0, -ENOMEM, or the error of CREATE_PSV.
 */
int mlx5_umr_sig_mkey_init(struct mlx5_umr_dev *dev,
			   struct mlx5_umr_mkey_priv *mp, u32 pdn)
{
	struct mlx5_umr_sig_mkey *s;
	int err;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	spin_lock_init(&s->lock);
	/*
	 * Armed for the first UMR: mlx5_ib's "Next UMR, Arm SIGERR"
	 * (mr.c mlx5_alloc_integrity_descs()), rdma-core's err_count = 1
	 * (verbs.c mlx5_create_sig_ctx(), 691953d8d502).
	 */
	s->sigerr_count = 1;
	err = mlx5_umr_sig_create_psvs(dev, pdn, mp->pub.psv);
	if (err) {
		kfree(s);
		return err;
	}
	mp->sig = s;
	return 0;
}

/**
 * mlx5_umr_sig_mkey_destroy() - destroy the PSVs of a signature mkey
 * @dev: the device
 * @mp: the mkey, already destroyed on the HCA (its BSF names the PSVs)
 *
 * Idempotent; the state itself is freed by mlx5_umr_sig_mkey_free().
 *
 * Context: process context, may sleep; dev->mkeys_lock held.
 * Return: 0, or the error of a DESTROY_PSV (the PSV is then kept).
 */
int mlx5_umr_sig_mkey_destroy(struct mlx5_umr_dev *dev,
			      struct mlx5_umr_mkey_priv *mp)
{
	int i, err, ret = 0;

	if (!mp->sig || !dev->hca)
		return 0;
	for (i = 0; i < 2; i++) {
		if (!mp->pub.psv[i])
			continue;
		err = mlx5_umr_sig_destroy_psv(dev, mp->pub.psv[i]);
		if (err)
			ret = err;
		else
			mp->pub.psv[i] = 0;
	}
	return ret;
}

/**
 * mlx5_umr_sig_mkey_list() - make a signature mkey findable by its index
 * @dev: the device
 * @mp: the mkey, created on the HCA
 *
 * Return: 0 or -ENOMEM.
 */
int mlx5_umr_sig_mkey_list(struct mlx5_umr_dev *dev,
			   struct mlx5_umr_mkey_priv *mp)
{
	return xa_insert_irq(&dev->sig_mkeys, mp->pub.key >> 8, mp,
			     GFP_KERNEL);
}

/**
 * mlx5_umr_sig_mkey_unlist() - no more reports for this mkey
 * @dev: the device
 * @mp: a listed signature mkey
 *
 * Once this returns no mlx5_umr_sig_report() uses @mp (it looks up and
 * records under the xarray's lock).
 */
void mlx5_umr_sig_mkey_unlist(struct mlx5_umr_dev *dev,
			      struct mlx5_umr_mkey_priv *mp)
{
	xa_erase_irq(&dev->sig_mkeys, mp->pub.key >> 8);
}

/* The state goes with the mkey's structure. */
void mlx5_umr_sig_mkey_free(struct mlx5_umr_mkey_priv *mp)
{
	kfree(mp->sig);
	mp->sig = NULL;
}

/* What a reset leaves: no signature in either domain. */
static const struct mlx5_umr_sig_attr mlx5_umr_sig_none;

/**
 * mlx5_umr_sig_stage() - a request that sets or resets the signature was
 *	written into the send queue, its batch not yet complete
 * @wr: the request
 *
 * Later requests of the batch on the same mkey keep what it sets
 * (mlx5_umr_sig_kept()); it becomes the mkey's with mlx5_umr_sig_posted()
 * once the whole batch is written, or is dropped by
 * mlx5_umr_sig_unstage() when the batch is discarded.
 *
 * Context: the mkey's home queue's lock held.
 */
void mlx5_umr_sig_stage(struct mlx5_umr_wr *wr)
{
	to_priv(wr->mkey)->sig->staged = wr->flags & MLX5_UMR_WR_SET_SIG ?
					 wr->sig : &mlx5_umr_sig_none;
}

/**
 * mlx5_umr_sig_unstage() - the batch of @wr was discarded
 * @wr: a request of the batch on a signature mkey
 *
 * Context: the mkey's home queue's lock held.
 */
void mlx5_umr_sig_unstage(struct mlx5_umr_wr *wr)
{
	to_priv(wr->mkey)->sig->staged = NULL;
}

/**
 * mlx5_umr_sig_posted() - a request that sets or resets the signature was
 *	posted with its whole batch
 * @wr: the request
 *
 * Its signature is what a later check re-arms the PSVs with, and what a
 * later request that keeps the signature writes.
 *
 * Context: the mkey's home queue's lock held.
 */
void mlx5_umr_sig_posted(struct mlx5_umr_wr *wr)
{
	struct mlx5_umr_sig_mkey *s = to_priv(wr->mkey)->sig;
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	s->attr = wr->flags & MLX5_UMR_WR_SET_SIG ? *wr->sig :
		  mlx5_umr_sig_none;
	spin_unlock_irqrestore(&s->lock, flags);
	s->staged = NULL;
}

/**
 * mlx5_umr_sig_kept() - the signature an mkey keeps, for the BSF pair of
 *	a SET_CRYPTO request that neither sets nor resets it
 * @wr: the request, being posted
 *
 * What the requests before it set: an earlier request of its batch
 * (mlx5_umr_sig_stage()), else the posted ones (mlx5_umr_sig_posted());
 * only those write it, under its home queue's lock, so it is read without
 * the state's lock.
 *
 * Context: the mkey's home queue's lock held; the result is valid while
 * it is.
 * Return: the signature (none in either domain when none is set).
 */
const struct mlx5_umr_sig_attr *mlx5_umr_sig_kept(struct mlx5_umr_wr *wr)
{
	struct mlx5_umr_sig_mkey *s = to_priv(wr->mkey)->sig;

	return s->staged ?: &s->attr;
}

/**
 * mlx5_umr_sig_armed() - the expected_sigerr_count a signature UMR writes
 * @mkey: a signature mkey
 *
 * The low bit of the SIG_ERR CQEs reported for it plus one: the HCA
 * reports the next error only while the mkey's expected count differs
 * from its own (Documentation/signature.rst, "Arming"), so every UMR
 * writing the signature BSF re-arms it after a reported error (mlx5_ib
 * wr.c set_sig_mkey_segment(): sigerr_count & 1 with each integrity
 * registration; rdma-core qp.c upd_mkc_sig_err_cnt(), 691953d8d502).
 *
 * Context: any.
 * Return: 0 or 1.
 */
u8 mlx5_umr_sig_armed(struct mlx5_umr_mkey *mkey)
{
	const struct mlx5_umr_sig_mkey *s = to_priv(mkey)->sig;

	return READ_ONCE(s->sigerr_count) & 1;
}

/*
 * The domain whose check failed: the one the CQE names where the device
 * says it (rdma-core verbs.c _mlx5dv_mkey_check(), 691953d8d502); else
 * the memory domain when it has a signature, else the wire's, as before
 * that bit existed (mlx5_ib cq.c get_sig_err_item() ignores the domain).
 */
static const struct mlx5_umr_sig_domain *
mlx5_umr_sig_err_domain(const struct mlx5_umr_sig_attr *a,
			const struct mlx5_sig_err_cqe *cqe, bool by_cqe)
{
	const u8 *b = (const u8 *)cqe;
	u8 type = b[MLX5_UMR_SIGERR_CQE_SIG_TYPE_OFF] &
		  MLX5_UMR_SIGERR_CQE_FIELD_MASK;
	u8 dom = b[MLX5_UMR_SIGERR_CQE_DOMAIN_OFF] &
		 MLX5_UMR_SIGERR_CQE_FIELD_MASK;

	if (by_cqe && type == MLX5_UMR_SIGERR_SIG_TYPE_BLOCK) {
		if (dom == MLX5_UMR_SIGERR_DOMAIN_WIRE &&
		    a->wire.sig_type != MLX5_UMR_SIG_NONE)
			return &a->wire;
		if (dom == MLX5_UMR_SIGERR_DOMAIN_MEMORY &&
		    a->mem.sig_type != MLX5_UMR_SIG_NONE)
			return &a->mem;
	}
	return a->mem.sig_type != MLX5_UMR_SIG_NONE ? &a->mem : &a->wire;
}

/*
 * The guard of domain @d. A T10 DIF guard is the high 16 bits of the
 * transient signature (cq.c get_sig_err_item()); a 32-bit CRC is all of
 * it, a CRC64 the transient signature and the ref tag words, as SET_PSV
 * lays out the 64-bit PSV value (sig_wqe.c mlx5_umr_sig_transient();
 * rdma-core verbs.c mlx5_decode_sigerr()).
 */
static u64 mlx5_umr_sig_guard(const struct mlx5_umr_sig_domain *d,
			      __be32 ts, __be32 ref)
{
	if (d->sig_type != MLX5_UMR_SIG_CRC)
		return be32_to_cpu(ts) >> 16;
	if (d->crc.type != MLX5_UMR_SIG_CRC64_XP10)
		return be32_to_cpu(ts);
	return (u64)be32_to_cpu(ts) << 32 | be32_to_cpu(ref);
}

/*
 * Decode a SIG_ERR CQE into @st. When several checks failed, the guard
 * is reported first, then the app tag, then the ref tag, as
 * mlx5dv_mkey_check(3) documents.
 */
static void mlx5_umr_sig_decode(struct mlx5_umr_sig_status *st,
				const struct mlx5_umr_sig_attr *a,
				const struct mlx5_sig_err_cqe *cqe, bool by_cqe)
{
	const struct mlx5_umr_sig_domain *d =
		mlx5_umr_sig_err_domain(a, cqe, by_cqe);
	u16 syndrome = be16_to_cpu(cqe->syndrome);

	/*
	 * The CQE's expected words are what the HCA computed or was
	 * configured with, its actual words what the PI held; they are
	 * passed through as rdma-core does (Documentation/signature.rst,
	 * "Expected and actual").
	 */
	if (syndrome & MLX5_UMR_SIG_SYND_GUARD) {
		st->err_type = MLX5_UMR_SIG_ERR_GUARD;
		st->expected = mlx5_umr_sig_guard(d, cqe->expected_trans_sig,
						  cqe->expected_reftag);
		st->actual = mlx5_umr_sig_guard(d, cqe->actual_trans_sig,
						cqe->actual_reftag);
	} else if (syndrome & MLX5_UMR_SIG_SYND_APPTAG) {
		st->err_type = MLX5_UMR_SIG_ERR_APPTAG;
		st->expected = be32_to_cpu(cqe->expected_trans_sig) & 0xffff;
		st->actual = be32_to_cpu(cqe->actual_trans_sig) & 0xffff;
	} else if (syndrome & MLX5_UMR_SIG_SYND_REFTAG) {
		st->err_type = MLX5_UMR_SIG_ERR_REFTAG;
		st->expected = be32_to_cpu(cqe->expected_reftag);
		st->actual = be32_to_cpu(cqe->actual_reftag);
	} else {
		/* a SIG_ERR naming no check: still an error of the guard */
		st->err_type = MLX5_UMR_SIG_ERR_GUARD;
	}
	st->offset = be64_to_cpu(cqe->err_offset);
	st->key = be32_to_cpu(cqe->mkey);
}

/**
 * mlx5_umr_sig_report() - hand the service a SIG_ERR CQE of an accessor
 * @dev: the device whose CQ delivered @cqe
 * @cqe: the 64-byte CQE, opcode MLX5_CQE_SIG_ERR
 *
 * A signature error is reported on the CQ of the QP that accessed the
 * mkey, not to the mkey's owner: whoever polls that CQ passes the CQE here
 * so that mlx5_umr_sig_check() on the mkey reports it. The mkey is found
 * by its index (mlx5_ib's cq.c looks it up by mlx5_base_mkey() too); the
 * first error is kept until the check, later ones are counted.
 *
 * Context: any but hard IRQ.
 * Return: 0 when recorded; -EINVAL when @cqe is not a SIG_ERR CQE; -ENOENT
 * when it names no signature mkey of @dev.
 */
int mlx5_umr_sig_report(struct mlx5_umr_dev *dev,
			const struct mlx5_sig_err_cqe *cqe)
{
	struct mlx5_umr_mkey_priv *mp;
	struct mlx5_umr_sig_mkey *s;
	unsigned long flags;
	u32 key;

	if (!dev || !cqe || cqe->op_own >> 4 != MLX5_CQE_SIG_ERR)
		return -EINVAL;
	key = be32_to_cpu(cqe->mkey);
	xa_lock_irqsave(&dev->sig_mkeys, flags);
	mp = xa_load(&dev->sig_mkeys, key >> 8);
	if (!mp) {
		xa_unlock_irqrestore(&dev->sig_mkeys, flags);
		return -ENOENT;
	}
	s = mp->sig;
	spin_lock(&s->lock);
	if (!s->pending) {
		mlx5_umr_sig_decode(&s->status, &s->attr, cqe,
				    dev->caps.sig_err_domain);
		s->pending = true;
	}
	s->status.errors++;
	/* the HCA disarmed the mkey; the next signature UMR re-arms it */
	WRITE_ONCE(s->sigerr_count, s->sigerr_count + 1);
	spin_unlock(&s->lock);
	xa_unlock_irqrestore(&dev->sig_mkeys, flags);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_sig_report);

/* mlx5_umr_sig_check(), the re-arm's wait for room interruptible or not */
static int __mlx5_umr_sig_check(struct mlx5_umr_mkey *mkey,
				struct mlx5_umr_sig_status *status, bool intr)
{
	struct mlx5_umr_sig_attr attr;
	struct mlx5_umr_sig_mkey *s;
	unsigned long flags;
	bool pending;
	int err;

	might_sleep();
	if (!mkey || !status || !to_priv(mkey)->sig)
		return -EINVAL;
	s = to_priv(mkey)->sig;
	spin_lock_irqsave(&s->lock, flags);
	pending = s->pending;
	*status = pending ? s->status : (struct mlx5_umr_sig_status) {};
	attr = s->attr;
	spin_unlock_irqrestore(&s->lock, flags);
	if (!pending)
		return 0;

	if (mlx5_umr_sig_npsv(&attr) && !(mkey->flags & MLX5_UMR_MKEY_CRYPTO)) {
		struct mlx5_umr_wr wr = {
			.mkey = mkey,
			.op = MLX5_UMR_OP_CONFIGURE,
			.flags = MLX5_UMR_WR_SET_SIG,
			.sig = &attr,
		};

		err = intr ? mlx5_umr_exec_interruptible(mkey->dev, &wr, 0) :
			     mlx5_umr_exec(mkey->dev, &wr, 0);
		if (err)
			return err;
	}
	spin_lock_irqsave(&s->lock, flags);
	s->pending = false;
	s->status = (struct mlx5_umr_sig_status) {};
	spin_unlock_irqrestore(&s->lock, flags);
	return 0;
}

/**
 * mlx5_umr_sig_check() - read and clear the signature status of an mkey
 * @mkey: an mkey allocated with MLX5_UMR_MKEY_SIGNATURE
 * @status: where the status goes
 *
 * The counterpart of mlx5dv_mkey_check() and ib_check_mr_status(): reports
 * the first error reported since the last check and clears it. When there
 * was one, the PSVs are re-armed before this returns: the HCA keeps a PSV
 * that saw an error in error state until a SET_PSV, so the signature the
 * mkey has is set again (UMR with the BSF, then SET_PSV per domain, as
 * MLX5_UMR_WR_SET_SIG with it would). No other request on @mkey may be
 * in flight. An mkey with crypto too is not re-armed here: every configure
 * of it carries its crypto attributes, which the service does not keep
 * (rule 60); the caller's next configure with MLX5_UMR_WR_SET_SIG re-arms
 * it (a configure that keeps the signature does not, unlike rdma-core's
 * next configure after an error, whatever it sets).
 *
 * Context: process context, may sleep.
 * Return: 0 (@status->err_type says whether there was an error); -EINVAL
 * for an mkey without signature; an error of mlx5_umr_exec() when the
 * re-arm failed (the error stays reported).
 */
int mlx5_umr_sig_check(struct mlx5_umr_mkey *mkey,
		       struct mlx5_umr_sig_status *status)
{
	return __mlx5_umr_sig_check(mkey, status, false);
}
EXPORT_SYMBOL(mlx5_umr_sig_check);

/**
 * mlx5_umr_sig_check_interruptible() - mlx5_umr_sig_check() for a user
 * @mkey: as mlx5_umr_sig_check()
 * @status: as mlx5_umr_sig_check()
 *
 * A signal ends the re-arm's wait for room on the send queue (which
 * other users can keep full), as mlx5_umr_exec_interruptible() does; the
 * error then stays reported.
 *
 * Context: process context, may sleep.
 * Return: as mlx5_umr_sig_check(), or -EINTR (nothing was posted).
 */
int mlx5_umr_sig_check_interruptible(struct mlx5_umr_mkey *mkey,
				     struct mlx5_umr_sig_status *status)
{
	return __mlx5_umr_sig_check(mkey, status, true);
}
