// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr benchmark: the measured operations and the timer.
 *
 * Each operation runs n configures of one request set: (a) encoding the
 * WQE, (b) copying its finished bytes into a ring (the floor: any path must
 * at least write them), (c) the upstream mlx5_ib way (umr.c: one signalled
 * WQE, one doorbell, sleep until its completion, next), (d) the service's
 * batched asynchronous path.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/mlx5/qp.h>

#include "bench.h"

/* Ring of the encode and memcpy loops: the service's ring size. */
#define BENCH_RING	(1024 * MLX5_SEND_WQE_BB)
/* Largest pointer-mode translation: 4096 entries and a header, padded. */
#define BENCH_XLT_MAX	(128 * 1024)
/* Calibrate until one run takes this long, then time runs this long. */
#define BENCH_CAL_NS	NSEC_PER_MSEC
#define BENCH_RUN_NS	(2 * NSEC_PER_MSEC)
/* More configures than any run of 1 ms can do: the clock is broken. */
#define BENCH_CAL_MAX	BIT_ULL(32)
/*
 * Best of this many short runs: other load on a shared machine only adds,
 * and a short run is more likely to escape the host scheduler.
 */
#define BENCH_RUNS	15

static u8 *bench_ring;
static u8 *bench_wqe;
static u8 *bench_xlt;
static u8 *bench_xlt_src;

/**
 * bench_ops_init() - allocate the buffers of the encode and memcpy loops
 *
 * Return: 0 or -ENOMEM.
 */
int bench_ops_init(void)
{
	bench_ring = kzalloc(BENCH_RING, GFP_KERNEL);
	bench_wqe = kzalloc(MLX5_SEND_WQE_MAX_SIZE, GFP_KERNEL);
	bench_xlt = kzalloc(BENCH_XLT_MAX, GFP_KERNEL);
	bench_xlt_src = kzalloc(BENCH_XLT_MAX, GFP_KERNEL);
	if (!bench_ring || !bench_wqe || !bench_xlt || !bench_xlt_src) {
		bench_ops_fini();
		return -ENOMEM;
	}
	return 0;
}

/**
 * bench_ops_fini() - free what bench_ops_init() allocated
 */
void bench_ops_fini(void)
{
	kfree(bench_xlt_src);
	kfree(bench_xlt);
	kfree(bench_wqe);
	kfree(bench_ring);
}

static int bench_encode_one(struct bench_set *s, unsigned long i, u8 *xlt,
			    u8 *dst)
{
	int ret;

	ret = mlx5_umr_test_wqe_encode(mlx5_umr_dev_caps(s->bd->dev),
				       &s->wrs[i % BENCH_POOL],
				       s->xlt_bytes ? xlt : NULL, 0x1000000,
				       BENCH_XLT_MAX, (u16)i, dst, s->wqe_size);
	return ret == s->wqe_size ? 0 : -EINVAL;
}

/**
 * bench_encode() - (a) encode @n WQEs into consecutive ring slots
 * @s: the requests
 * @arg: unused
 * @n: how many
 *
 * Return: 0 or -EINVAL.
 */
int bench_encode(struct bench_set *s, unsigned int arg, unsigned long n)
{
	unsigned int slot = 0;
	unsigned long i;
	int err;

	for (i = 0; i < n; i++) {
		if (slot + s->wqe_size > BENCH_RING)
			slot = 0;
		err = bench_encode_one(s, i, bench_xlt, bench_ring + slot);
		if (err)
			return err;
		slot += s->wqe_size;
	}
	return 0;
}

/**
 * bench_memcpy() - (b) copy the bytes of an encoded WQE (and its
 * pointer-mode translation) @n times, to consecutive ring slots
 * @s: the requests
 * @arg: unused
 * @n: how many
 *
 * Return: 0 or -EINVAL.
 */
int bench_memcpy(struct bench_set *s, unsigned int arg, unsigned long n)
{
	unsigned int slot = 0;
	unsigned long i;
	int err;

	err = bench_encode_one(s, 0, bench_xlt_src, bench_wqe);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		if (slot + s->wqe_size > BENCH_RING)
			slot = 0;
		memcpy(bench_ring + slot, bench_wqe, s->wqe_size);
		if (s->xlt_bytes)
			memcpy(bench_xlt, bench_xlt_src, s->xlt_bytes);
		/* Every copy happens: no store may be merged or dropped. */
		barrier();
		slot += s->wqe_size;
	}
	return 0;
}

/**
 * bench_upstream() - (c) @n times: post one signalled WQE, ring, sleep
 * until its completion
 * @s: the requests
 * @arg: unused
 * @n: how many
 *
 * Return: 0 or the first error.
 */
int bench_upstream(struct bench_set *s, unsigned int arg, unsigned long n)
{
	unsigned long i;
	int err;

	for (i = 0; i < n; i++) {
		err = mlx5_umr_exec(s->bd->dev, &s->wrs[i % BENCH_POOL], 0);
		if (err)
			return err;
	}
	return 0;
}

/* Sleep until a completion after @seen was counted. */
static int bench_wait(struct bench_set *s, unsigned long seen)
{
	if (!wait_event_timeout(s->wait,
				atomic_long_read(&s->completed) != seen,
				5 * HZ))
		return -ETIMEDOUT;
	return 0;
}

/**
 * bench_batched() - (d) post @n configures in batches of @batch with
 * callbacks, keeping the ring full, then wait for the last
 * @s: the requests
 * @batch: requests per mlx5_umr_post()
 * @n: how many
 *
 * Back-pressure (mlx5_umr_post_busy()) or a pool with every request in
 * flight makes the poster sleep until the next completion, as a ULP would.
 *
 * Return: 0, -EINVAL when a batch can never fit the ring, -ETIMEDOUT,
 * or another error of mlx5_umr_post(); -EIO if a request failed.
 */
int bench_batched(struct bench_set *s, unsigned int batch, unsigned long n)
{
	unsigned long seen, busy_since = 0;
	unsigned int b, k;
	int err;

	while (n) {
		b = min_t(unsigned long, batch, n);
		seen = atomic_long_read(&s->completed);
		if (s->posted + b - seen > BENCH_POOL) {
			err = bench_wait(s, seen);
			if (err)
				return err;
			continue;
		}
		for (k = 0; k < b; k++)
			s->batch[k] = &s->wrs[(s->posted + k) % BENCH_POOL];
		err = mlx5_umr_post(s->bd->dev, s->batch, b);
		if (mlx5_umr_post_busy(err) && s->posted == seen) {
			/*
			 * Nothing of ours in flight: another poster's requests
			 * fill the ring (bench_scale.c), and the API has no
			 * room notification (issue 32): try again shortly.
			 */
			if (!busy_since)
				busy_since = jiffies;
			else if (time_after(jiffies, busy_since + 5 * HZ))
				return -ETIMEDOUT;
			usleep_range(10, 20);
			continue;
		}
		busy_since = 0;
		if (mlx5_umr_post_busy(err)) {
			err = bench_wait(s, seen);
			if (err)
				return err;
			continue;
		}
		if (err)
			return err;
		s->posted += b;
		n -= b;
	}
	if (!wait_event_timeout(s->wait,
				atomic_long_read(&s->completed) == s->posted,
				5 * HZ))
		return -ETIMEDOUT;
	return atomic_read(&s->errors) ? -EIO : 0;
}

static int bench_time(bench_fn fn, struct bench_set *s, unsigned int arg,
		      unsigned long n, u64 *ns)
{
	u64 t0;
	int err;

	cond_resched();
	t0 = ktime_get_ns();
	err = fn(s, arg, n);
	*ns = ktime_get_ns() - t0;
	return err;
}

/**
 * bench_measure() - time @fn: best of BENCH_RUNS runs of BENCH_RUN_NS
 * @fn: the operation
 * @s: its requests
 * @arg: its argument
 * @unit: every run is a multiple of this many configures (the batch)
 * @ps_per_op: picoseconds per configure
 *
 * Return: 0 or the operation's error.
 */
int bench_measure(bench_fn fn, struct bench_set *s, unsigned int arg,
		  unsigned int unit, u64 *ps_per_op)
{
	unsigned long n = roundup(8, unit);
	u64 t, best = U64_MAX;
	int r, err;

	/* Warm up and calibrate: double n until a run is long enough. */
	for (;;) {
		err = bench_time(fn, s, arg, n, &t);
		if (err)
			return err;
		if (t >= BENCH_CAL_NS)
			break;
		/* a clock that does not advance must not spin here forever */
		if (n > BENCH_CAL_MAX)
			return -ERANGE;
		n *= 2;
	}
	n = roundup(max_t(u64, 1, div64_u64((u64)n * BENCH_RUN_NS, t)), unit);
	for (r = 0; r < BENCH_RUNS; r++) {
		err = bench_time(fn, s, arg, n, &t);
		if (err)
			return err;
		best = min(best, div64_u64(t * 1000, n));
	}
	*ps_per_op = best;
	return 0;
}
