/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Hold all but 2 of the files' MLX5_UMR_IOC_MAX_INFLIGHT_BBS basic blocks
 * of a device's UMR queue: two batches of another file (170 one-entry
 * configures of 3 blocks, 510 in all) whose completions the fake delays.
 * What then needs more than 2 blocks waits for its part of the share, and
 * that wait ends with a signal (EINTR); what got its blocks is posted and
 * waits, not interruptibly, for the delayed doorbell.
 *
 * The threads started here block SIGALRM, so that the caller's alarm()
 * interrupts the caller's own ioctl.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef SHARE_HOG_H
#define SHARE_HOG_H

#include <pthread.h>
#include <signal.h>
#include "umr_util.h"

#define SHARE_HOG_REQS	170	/* 3 blocks each: 510 of 512 */

struct share_hog_batch {
	int fd;
	struct mlx5_umr_ioc_batch_req *req;
	__u32 n;
	int ret;
};

struct share_hog {
	int fd;
	__u8 *mem;
	struct mlx5_umr_ioc_sge sge;
	struct mlx5_umr_ioc_batch_req req[SHARE_HOG_REQS];
	struct share_hog_batch b[2];
	pthread_t t[2];
	int started;
};

static void *share_hog_run(void *arg)
{
	struct share_hog_batch *h = arg;
	struct mlx5_umr_ioc_batch b = {
		.size = sizeof(b),
		.num_reqs = h->n,
		.req_size = sizeof(*h->req),
		.reqs = (uintptr_t)h->req,
	};

	h->ret = umr_ioctl(h->fd, MLX5_UMR_IOCTL_BATCH, &b);
	return NULL;
}

static inline void share_hog_alarm(int sig)
{
	(void)sig;
}

/* Start a thread with SIGALRM blocked; the caller's mask is kept. */
static inline int share_hog_thread(pthread_t *t, void *(*fn)(void *),
				   void *arg)
{
	sigset_t alrm, old;
	int ret;

	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alrm, &old);
	ret = pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/*
 * Set up the hog's file and mkeys, delay the fake's next doorbell by
 * @delay_ms, start both batches, and give them @settle_ms to be posted.
 * Return: 0, -1 when the fake has no debugfs (skip), or -errno.
 */
static inline int share_hog_start(struct share_hog *h, const char *path,
				  unsigned int delay_ms, unsigned int settle_ms)
{
	__u32 mr, key, mk, mkey;
	char v[16];
	int i, ret;

	memset(h, 0, sizeof(*h));
	h->fd = umr_open();
	if (h->fd < 0)
		return -errno;
	h->mem = umr_map(PAGE, 0x33);
	if (!h->mem)
		return -ENOMEM;
	ret = umr_reg(h->fd, h->mem, PAGE, UMR_ACCESS_ALL3, &mr, &key);
	if (ret)
		return ret;
	h->sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)h->mem, 64, key };
	for (i = 0; i < SHARE_HOG_REQS; i++) {
		ret = umr_alloc(h->fd, 1, &mk, &mkey);
		if (ret)
			return ret;
		h->req[i] = (struct mlx5_umr_ioc_batch_req){
			.op = MLX5_UMR_IOC_BATCH_CONFIGURE,
			.handle = mk,
			.access = UMR_ACCESS_ALL3,
			.layout = MLX5_UMR_IOC_LAYOUT_LIST,
			.num_entries = 1,
			.entries = (uintptr_t)&h->sge,
		};
	}
	h->b[0] = (struct share_hog_batch){ h->fd, h->req, 128, 0 };
	h->b[1] = (struct share_hog_batch){ h->fd, h->req + 128,
					    SHARE_HOG_REQS - 128, 0 };
	snprintf(v, sizeof(v), "%u", delay_ms);
	if (umr_fake_knob(path, "delay_ms", v))
		return -1;
	for (i = 0; i < 2; i++) {
		if (share_hog_thread(&h->t[i], share_hog_run, &h->b[i]))
			return -EAGAIN;
		h->started++;
	}
	usleep(settle_ms * 1000);
	return 0;
}

/* Wait for the batches (0 each when they ran), undo the delay. */
static inline void share_hog_stop(struct share_hog *h, const char *path,
				  int ret[2])
{
	int i;

	for (i = 0; i < h->started; i++) {
		pthread_join(h->t[i], NULL);
		ret[i] = h->b[i].ret;
	}
	umr_fake_knob(path, "delay_ms", "0");
	if (h->fd >= 0)
		close(h->fd);
	if (h->mem)
		munmap(h->mem, PAGE);
}

/* Arm a SIGALRM in @secs that interrupts this thread's next wait. */
static inline void share_hog_alarm_in(unsigned int secs)
{
	struct sigaction sa = { .sa_handler = share_hog_alarm };

	sigaction(SIGALRM, &sa, NULL);
	alarm(secs);
}

#endif /* SHARE_HOG_H */
