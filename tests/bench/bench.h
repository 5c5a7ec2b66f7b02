/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr benchmark: state shared by the benchmark's files.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_BENCH_H
#define MLX5_UMR_BENCH_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/wait.h>
#include <linux/scatterlist.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_fake.h>
#include <linux/mlx5_umr_testing.h>

/* Requests a batched run cycles through: more than the ring can hold. */
#define BENCH_POOL	512
/* Largest batch measured. */
#define BENCH_MAX_BATCH	128
/* Registered memory every translation entry points into. */
#define BENCH_MR_PAGES	16
#define BENCH_MR_IOVA	0x10000000ULL
/* Interleaved entries: this many bytes read, as many skipped, repeated. */
#define BENCH_IL_BYTES	64
#define BENCH_IL_REPEAT	4
/* Access every configure grants. */
#define BENCH_ACCESS	(MLX5_UMR_ACCESS_LOCAL_WRITE |		\
			 MLX5_UMR_ACCESS_REMOTE_READ |		\
			 MLX5_UMR_ACCESS_REMOTE_WRITE)

/**
 * struct bench_layout - one translation layout the benchmark configures
 * @name: row label
 * @interleaved: MLX5_UMR_LAYOUT_INTERLEAVED, else MLX5_UMR_LAYOUT_LIST
 * @entries: SGEs or interleaved entries
 */
struct bench_layout {
	const char *name;
	bool interleaved;
	u32 entries;
};

/**
 * struct bench_dev - a private fake HCA and its service device
 * @fake: the fake
 * @dev: the service's device on it
 * @null: the fake is a null device (MLX5_UMR_FAKE_F_NULL)
 * @pages: the pages of the registered memory
 * @sgt: their DMA mapping
 * @mr: an MTT mkey over them at BENCH_MR_IOVA
 */
struct bench_dev {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	bool null;
	struct page *pages[BENCH_MR_PAGES];
	struct sg_table sgt;
	struct mlx5_umr_mkey *mr;
};

/**
 * struct bench_set - the requests of one layout on one device
 * @bd: the device
 * @lo: the layout
 * @sge: list entries, shared by every request
 * @il: interleaved entries, shared by every request
 * @mkeys: target mkeys; request i configures @mkeys[i % @nmkeys]
 * @nmkeys: how many
 * @own_mkeys: the set allocated @mkeys and frees them
 * @wrs: BENCH_POOL requests
 * @batch: pointers handed to mlx5_umr_post()
 * @posted: requests posted so far (poster only)
 * @completed: requests whose done() ran
 * @errors: requests completed with a non-zero status
 * @wait: the poster waits here for completions
 * @wqe_size: mlx5_umr_test_wqe_size() of every request
 * @xlt_bytes: bytes of the pointer-mode translation, 0 when inline
 */
struct bench_set {
	struct bench_dev *bd;
	const struct bench_layout *lo;
	struct mlx5_umr_sge *sge;
	struct mlx5_umr_interleaved *il;
	struct mlx5_umr_mkey **mkeys;
	unsigned int nmkeys;
	bool own_mkeys;
	struct mlx5_umr_wr *wrs;
	struct mlx5_umr_wr **batch;
	unsigned long posted;
	atomic_long_t completed;
	atomic_t errors;
	wait_queue_head_t wait;
	unsigned int wqe_size;
	unsigned int xlt_bytes;
};

/* bench_setup.c */
int bench_dev_init(struct bench_dev *bd, bool null);
int bench_dev_init_nq(struct bench_dev *bd, bool null, u16 nqueues);
void bench_dev_fini(struct bench_dev *bd);
int bench_set_init(struct bench_set *s, struct bench_dev *bd,
		   const struct bench_layout *lo,
		   struct mlx5_umr_mkey **mkeys, unsigned int nmkeys);
void bench_set_bind(struct bench_set *s, struct mlx5_umr_mkey **mkeys,
		    unsigned int nmkeys);
void bench_set_fini(struct bench_set *s);

/* bench_ops.c: each runs @n configures; 0 or -errno */
int bench_encode(struct bench_set *s, unsigned int arg, unsigned long n);
int bench_memcpy(struct bench_set *s, unsigned int arg, unsigned long n);
int bench_upstream(struct bench_set *s, unsigned int arg, unsigned long n);
int bench_batched(struct bench_set *s, unsigned int batch, unsigned long n);
int bench_ops_init(void);
void bench_ops_fini(void);

/* bench_scale.c: the scaling table (make bench-scale) */
int bench_scale(struct bench_dev *bd, unsigned int sec);

typedef int (*bench_fn)(struct bench_set *s, unsigned int arg,
			unsigned long n);
int bench_measure(bench_fn fn, struct bench_set *s, unsigned int arg,
		  unsigned int unit, u64 *ps_per_op);

#endif /* MLX5_UMR_BENCH_H */
