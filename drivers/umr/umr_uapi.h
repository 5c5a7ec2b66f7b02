/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: the service's door for its character device (drivers/umr/uapi/).
 *
 * Besides the in-kernel API (<linux/mlx5_umr.h>), the character device sees
 * the service only through this header; it never includes the rule headers
 * or the WQE sizing. Each entry says why it is not public:
 *
 * - the pre-checks (mlx5_umr_precheck_*()) are rules of
 *   Documentation/validation.rst, the service's own functions, that the
 *   uapi applies to what a user hands in before it looks up the objects
 *   the request names, so that its errnos come in rdma-core's order. A
 *   kernel ULP has no such pre-pass: mlx5_umr_validate() is its check.
 * - admission (mlx5_umr_admit()) checks a request once and returns its
 *   queue footprint; the posts below take admitted requests and do not
 *   check them again. A kernel ULP's request is checked by mlx5_umr_post().
 * - the waits are the interruptible ones a file needs, whose callers
 *   account their requests in the files' share of the queue.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_UAPI_DOOR_H
#define MLX5_UMR_UAPI_DOOR_H

#include <linux/completion.h>
#include <linux/mlx5_umr.h>

/* Most KLM entries one work request describes (rule 11). */
#define MLX5_UMR_WR_MAX_KLMS		65532U

/* umr_uapi.c: the rules applied before any lookup */
int mlx5_umr_precheck_access_bits(u32 access);
int mlx5_umr_precheck_access(const struct mlx5_umr_caps *caps, u32 access);
int mlx5_umr_precheck_repeat(u32 repeat);
int mlx5_umr_precheck_capacity(const struct mlx5_umr_caps *caps,
			       const struct mlx5_umr_mkey *mkey,
			       enum mlx5_umr_layout layout, u32 n);
int mlx5_umr_precheck_sge(const struct mlx5_umr_sge *sge);
int mlx5_umr_precheck_il(const struct mlx5_umr_interleaved *ent, u32 repeat);
u32 mlx5_umr_mkey_max_klms(const struct mlx5_umr_caps *caps);
/* mkey.c: what an indirect mkey's table takes, as allocated */
u64 mlx5_umr_mkey_table_bytes(struct mlx5_umr_dev *dev, u32 max_entries);
/*
 * mkey.c, sq_post.c: the files' mkeys live on the character device's own
 * queue, their signature mkeys on their PD's queue (pd_queue.c); the
 * files' share of the queues is counted in one place (uapi_main.c).
 */
struct mlx5_umr_queue;
struct mlx5_umr_mkey *mlx5_umr_uapi_alloc_mkey(struct mlx5_umr_queue *q,
					       u32 max_entries, u32 flags,
					       bool direct, u32 pdn,
					       bool user_pd);
struct mlx5_umr_queue *mlx5_umr_mkey_queue(struct mlx5_umr_mkey *mkey);

/* sq_post.c: admission, posting admitted requests, waiting */
int mlx5_umr_admit(struct mlx5_umr_dev *dev, struct mlx5_umr_wr *wr);
int mlx5_umr_exec_admitted(struct mlx5_umr_dev *dev, struct mlx5_umr_wr *wr,
			   unsigned int timeout_ms);
int mlx5_umr_post_wait_room(struct mlx5_umr_dev *dev, struct mlx5_umr_wr **wrs,
			    unsigned int n, unsigned long deadline);
void mlx5_umr_wait_posted(struct mlx5_umr_wr **wrs, unsigned int n,
			  struct completion *done, unsigned long tmo);

/*
 * sig.c, umr_uapi.c: a file's SIG_CHECK. Its re-arm is charged to the
 * files' share of the queue for what it posts, and its wait for room ends
 * with a signal; a kernel ULP's mlx5_umr_sig_check() does neither.
 */
u16 mlx5_umr_sig_rearm_bbs(struct mlx5_umr_mkey *mkey);
int mlx5_umr_sig_check_interruptible(struct mlx5_umr_mkey *mkey,
				     struct mlx5_umr_sig_status *status);

/* pd.c: a user's verbs PD (MLX5_UMR_IOCTL_SET_PD) */
struct file;
struct ib_pd;
int mlx5_umr_pd_get_user(struct mlx5_umr_dev *dev, struct file *verbs,
			 u32 handle, u32 id, struct ib_pd **ibpd, u32 *pdn);
void mlx5_umr_pd_put_user(struct mlx5_umr_dev *dev, struct ib_pd *ibpd);

#endif /* MLX5_UMR_UAPI_DOOR_H */
