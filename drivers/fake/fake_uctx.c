// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: user contexts (CREATE_UCTX / DESTROY_UCTX) and the
 * uid every command carries.
 *
 * mlx5_ib gives each DEVX context a user context of the device (Linux
 * 6.1 and 6.12 devx.c mlx5_ib_devx_create(): CREATE_UCTX, opcode 0xa04,
 * only when cmd_hca_cap.log_max_uctx is not 0; mlx5_ib_devx_destroy():
 * DESTROY_UCTX) and stamps its number, the uid, on every command of that
 * context (MLX5_SET(general_obj_in_cmd_hdr, in, uid, ...) in the DEVX
 * methods; main.c mlx5_ib_alloc_pd() and dealloc with pd->uid). The rules
 * the fake applies to uids are in Documentation/fake.rst, "User contexts
 * and uids".
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>

#include "fake.h"

static int fake_uctx_fail(void *out, u8 status, u32 synd)
{
	MLX5_SET(create_uctx_out, out, status, status);
	MLX5_SET(create_uctx_out, out, syndrome, synd);
	return -EREMOTEIO;
}

#define UFAIL(o, st, sy) \
	fake_uctx_fail(o, MLX5_CMD_STAT_##st, MLX5_UMR_FAKE_SYND_##sy)

/**
 * fake_uid_live() - whether @uid is 0 or a live user context
 * @fd: the fake
 * @uid: a command's uid
 *
 * Context: cmd_lock held (user contexts come and go only under it).
 * Return: true when commands may carry @uid.
 */
bool fake_uid_live(struct mlx5_umr_fake *fd, u16 uid)
{
	return !uid || xa_load(&fd->uctxs, uid);
}

/* Whether an object of the fake still belongs to @uid. Context: fd->lock. */
static bool fake_uid_busy(struct mlx5_umr_fake *fd, u16 uid)
{
	struct fake_mkey *mk;
	struct fake_psv *psv;
	struct fake_pd *pd;
	unsigned long i;

	xa_for_each(&fd->pds, i, pd)
		if (pd->uid == uid)
			return true;
	xa_for_each(&fd->mkeys, i, mk)
		if (mk->uid == uid)
			return true;
	xa_for_each(&fd->psvs, i, psv)
		if (psv->uid == uid)
			return true;
	return fake_crypto_uid_busy(fd, uid);
}

static int fake_create_uctx(struct mlx5_umr_fake *fd, const void *in,
			    int inlen, void *out, int outlen)
{
	const void *uctx = MLX5_ADDR_OF(create_uctx_in, in, uctx);
	struct fake_uctx *u;
	unsigned long flags;
	u32 id;

	if (!fd->caps.log_max_uctx)
		return UFAIL(out, BAD_OP_ERR, BAD_OPCODE);
	if (inlen < MLX5_ST_SZ_BYTES(create_uctx_in))
		return UFAIL(out, BAD_INP_LEN_ERR, BAD_INLEN);
	if (outlen < MLX5_ST_SZ_BYTES(create_uctx_out))
		return UFAIL(out, BAD_OUTP_LEN_ERR, BAD_OUTLEN);
	/* the fake reports uctx_cap 0: no RAW_TX, no INTERNAL_DEV_RES */
	if (MLX5_GET(uctx, uctx, cap))
		return UFAIL(out, BAD_PARAM_ERR, BAD_FIELD);
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return UFAIL(out, NO_RES_ERR, NO_RESOURCES);
	if (xa_alloc_irq(&fd->uctxs, &id, u,
			 XA_LIMIT(1, min(0xffffU, 1U << fd->caps.log_max_uctx)),
			 GFP_KERNEL)) {
		kfree(u);
		return UFAIL(out, NO_RES_ERR, NO_RESOURCES);
	}
	u->uid = id;
	spin_lock_irqsave(&fd->lock, flags);
	fd->cnt.uctxs++;
	spin_unlock_irqrestore(&fd->lock, flags);
	MLX5_SET(create_uctx_out, out, uid, id);
	return 0;
}

static int fake_destroy_uctx(struct mlx5_umr_fake *fd, const void *in,
			     int inlen, void *out, int outlen)
{
	struct fake_uctx *u;
	unsigned long flags;
	u16 uid;

	if (inlen < MLX5_ST_SZ_BYTES(destroy_uctx_in))
		return UFAIL(out, BAD_INP_LEN_ERR, BAD_INLEN);
	if (outlen < MLX5_ST_SZ_BYTES(destroy_uctx_out))
		return UFAIL(out, BAD_OUTP_LEN_ERR, BAD_OUTLEN);
	uid = MLX5_GET(destroy_uctx_in, in, uid);
	spin_lock_irqsave(&fd->lock, flags);
	u = uid ? xa_load(&fd->uctxs, uid) : NULL;
	if (!u) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return UFAIL(out, BAD_PARAM_ERR, BAD_UID);
	}
	/*
	 * mlx5_ib destroys a context's objects before its UCTX (the RDMA
	 * core frees every uobject before dealloc_ucontext): what is left
	 * is a leak the fake refuses to hide.
	 */
	if (fake_uid_busy(fd, uid)) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return UFAIL(out, BAD_RES_STATE_ERR, UCTX_BUSY);
	}
	fake_xa_erase(fd, &fd->uctxs, uid);
	fd->cnt.uctxs--;
	spin_unlock_irqrestore(&fd->lock, flags);
	kfree(u);
	return 0;
}

/**
 * fake_uctx_cmd() - CREATE_UCTX or DESTROY_UCTX
 * @fd: the fake
 * @opcode: MLX5_CMD_OP_CREATE_UCTX or MLX5_CMD_OP_DESTROY_UCTX
 * @in: input mailbox
 * @inlen: its length
 * @out: output mailbox (zeroed by the caller)
 * @outlen: its length
 *
 * Context: process, cmd_lock held.
 * Return: 0, or -EREMOTEIO with status and syndrome in @out.
 */
int fake_uctx_cmd(struct mlx5_umr_fake *fd, u16 opcode, const void *in,
		  int inlen, void *out, int outlen)
{
	if (opcode == MLX5_CMD_OP_CREATE_UCTX)
		return fake_create_uctx(fd, in, inlen, out, outlen);
	return fake_destroy_uctx(fd, in, inlen, out, outlen);
}

/**
 * fake_uctx_reset() - forget every user context, as a device reset would
 * @fd: the fake, no longer reachable
 */
void fake_uctx_reset(struct mlx5_umr_fake *fd)
{
	struct fake_uctx *u;
	unsigned long i;

	xa_for_each(&fd->uctxs, i, u)
		kfree(u);
	xa_destroy(&fd->uctxs);
}
