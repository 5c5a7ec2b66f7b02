// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: the execution log, the order in which the engines of
 * all QPs executed WQEs, for tests that check ordering across QPs (one
 * mkey's requests must run in the order they were posted).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "fake.h"

/* What a UMR or SET_PSV WQE names, for the log. */
static void fake_exec_decode(struct mlx5_umr_fake_exec_ent *e, const u8 *wqe,
			     unsigned int size)
{
	const struct mlx5_wqe_ctrl_seg *ctrl = (const void *)wqe;
	const struct mlx5_wqe_umr_ctrl_seg *uc = (const void *)(ctrl + 1);
	const struct mlx5_seg_set_psv *psv = (const void *)(ctrl + 1);
	const void *seg = uc + 1;
	u32 key;

	if (size < sizeof(*ctrl))
		return;
	e->opcode = be32_to_cpu(ctrl->opmod_idx_opcode) &
		    MLX5_WQE_CTRL_OPCODE_MASK;
	if (e->opcode == MLX5_OPCODE_UMR &&
	    size >= sizeof(*ctrl) + sizeof(*uc) + sizeof(struct mlx5_mkey_seg)) {
		key = be32_to_cpu(ctrl->umr_mkey);
		e->key = key & 0xff;
		e->index = key >> 8;
		e->mkey_mask = be64_to_cpu(uc->mkey_mask);
		e->free = MLX5_GET(mkc, seg, free);
	} else if (e->opcode == MLX5_OPCODE_SET_PSV &&
		   size >= sizeof(*ctrl) + sizeof(*psv)) {
		e->index = be32_to_cpu(psv->psv_num) & 0xffffff;
	}
}

/**
 * fake_exec_log_add() - log a WQE the engine just executed
 * @fd: the fake
 * @qp: the QP that executed it
 * @idx: its index
 * @wqe: the WQE (qp->wqe)
 * @size: its size in bytes (ds * 16)
 * @err: 0 or fake_wqe_err(syndrome, vendor syndrome)
 *
 * Context: qp->lock and fd->lock held, the lock every WQE's mkey and PSV
 * work runs under: the log's order is the order of that work.
 */
void fake_exec_log_add(struct mlx5_umr_fake *fd, struct fake_qp *qp, u16 idx,
		       const u8 *wqe, unsigned int size, int err)
{
	struct mlx5_umr_fake_exec_ent *e;

	lockdep_assert_held(&qp->lock);
	lockdep_assert_held(&fd->lock);
	if (likely(!READ_ONCE(fd->exec_on)))
		return;
	spin_lock(&fd->exec_lock);
	if (!fd->exec_on) {
		;
	} else if (fd->exec_n == fd->exec_cap) {
		fd->exec_dropped++;
	} else {
		e = &fd->exec[fd->exec_n++];
		memset(e, 0, sizeof(*e));
		e->qpn = qp->qpn;
		e->wqe_idx = idx;
		fake_exec_decode(e, wqe, size);
		e->syndrome = err >> 8;
		e->vendor_syndrome = err & 0xff;
	}
	spin_unlock(&fd->exec_lock);
}

/* The fake is going away: nothing logs any more. */
void fake_exec_log_free(struct mlx5_umr_fake *fd)
{
	kvfree(fd->exec);
	fd->exec = NULL;
}

/**
 * mlx5_umr_fake_exec_log_start() - log every WQE the fake executes (test-only)
 * @fake: the fake
 * @capacity: entries to keep; WQEs past it are counted, not kept
 *
 * Replaces a stopped log. Every WQE the engines execute (success or error,
 * injected errors included) is appended in the order of execution across
 * all QPs; flushed WQEs are not executed and not logged, nor are a null
 * fake's (MLX5_UMR_FAKE_F_NULL), which executes nothing.
 *
 * Context: process, may sleep.
 * Return: 0, -EINVAL for a zero @capacity, -EBUSY while a log runs,
 * -ENOMEM.
 */
int mlx5_umr_fake_exec_log_start(struct mlx5_umr_fake *fake,
				 unsigned int capacity)
{
	struct mlx5_umr_fake_exec_ent *ents, *old;
	unsigned long flags;

	if (!capacity)
		return -EINVAL;
	ents = kvcalloc(capacity, sizeof(*ents), GFP_KERNEL);
	if (!ents)
		return -ENOMEM;
	spin_lock_irqsave(&fake->exec_lock, flags);
	if (fake->exec_on) {
		spin_unlock_irqrestore(&fake->exec_lock, flags);
		kvfree(ents);
		return -EBUSY;
	}
	old = fake->exec;
	fake->exec = ents;
	fake->exec_cap = capacity;
	fake->exec_n = 0;
	fake->exec_dropped = 0;
	WRITE_ONCE(fake->exec_on, true);
	spin_unlock_irqrestore(&fake->exec_lock, flags);
	kvfree(old);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_fake_exec_log_start);

/**
 * mlx5_umr_fake_exec_log_stop() - stop logging (test-only)
 * @fake: the fake
 *
 * The entries stay readable until the next start or the fake's
 * destruction.
 *
 * Context: any.
 */
void mlx5_umr_fake_exec_log_stop(struct mlx5_umr_fake *fake)
{
	unsigned long flags;

	spin_lock_irqsave(&fake->exec_lock, flags);
	WRITE_ONCE(fake->exec_on, false);
	spin_unlock_irqrestore(&fake->exec_lock, flags);
}
EXPORT_SYMBOL(mlx5_umr_fake_exec_log_stop);

/**
 * mlx5_umr_fake_exec_log_read() - copy logged entries (test-only)
 * @fake: the fake
 * @first: the first entry to copy (0 is the first WQE logged)
 * @ents: where to copy them, in execution order
 * @max: room in @ents
 * @dropped: set to the WQEs executed while the log was full, or NULL
 *
 * May be called while the log runs; entries never move once logged.
 *
 * Context: any.
 * Return: the entries copied (0 past the end, or without a log).
 */
unsigned int mlx5_umr_fake_exec_log_read(struct mlx5_umr_fake *fake,
					 unsigned int first,
					 struct mlx5_umr_fake_exec_ent *ents,
					 unsigned int max,
					 unsigned int *dropped)
{
	unsigned long flags;
	unsigned int n = 0;

	spin_lock_irqsave(&fake->exec_lock, flags);
	if (first < fake->exec_n) {
		n = min(max, fake->exec_n - first);
		memcpy(ents, fake->exec + first, n * sizeof(*ents));
	}
	if (dropped)
		*dropped = fake->exec_dropped;
	spin_unlock_irqrestore(&fake->exec_lock, flags);
	return n;
}
EXPORT_SYMBOL(mlx5_umr_fake_exec_log_read);
