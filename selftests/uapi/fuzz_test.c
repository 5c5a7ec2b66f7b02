// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: a seeded random sequence of ioctls on the fake HCA.
 *
 * FUZZ_THREADS threads, each with FUZZ_FILES files of its own, issue every
 * ioctl (SET_PD and the test ioctls included, and unknown numbers) with valid and
 * invalid arguments: sizes below, at and above the structure with zero and
 * non-zero tails, reserved fields and flags, handles and keys of this file,
 * of another file and made up, entries inside, across and outside the
 * registrations, batches of both. Meanwhile one thread removes and
 * re-adds the fake HCA now and then. Every answer must be 0 or an errno of
 * the header's list; at the end nothing is left pinned or allocated.
 *
 * MLX5_UMR_FUZZ_SEED (default: the time) seeds everything; each thread's
 * sequence depends only on it, the interleaving of threads does not
 * repeat. MLX5_UMR_FUZZ_SECONDS (default 3) is how long it runs. A failure
 * prints the seed, the thread, the step and the call.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "umr_util.h"

#define FUZZ_THREADS	4
#define FUZZ_FILES	2
#define FUZZ_BUFS	4
#define FUZZ_BUF_LEN	(4 * PAGE)
#define FUZZ_HANDLES	16

/* No state: a fixture only for TEST_F_TIMEOUT (these run long). */
FIXTURE(long_run) {
	int unused;
};

FIXTURE_SETUP(long_run)
{
}

FIXTURE_TEARDOWN(long_run)
{
}

static unsigned long long fuzz_seed;
static atomic_bool fuzz_stop;
static atomic_long fuzz_ops;

/* xorshift64*: the sequence is a function of the seed only */
static __u64 rnd(__u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static __u32 below(__u64 *s, __u32 n)
{
	return n ? rnd(s) % n : 0;
}

struct ffile {
	int fd;
	__u32 handles[FUZZ_HANDLES];	/* what this file created */
	__u32 keys[FUZZ_HANDLES];
	unsigned int n;
};

struct fthread {
	int id;
	__u64 rng;
	struct ffile f[FUZZ_FILES];
	__u8 *buf[FUZZ_BUFS];
	void *scratch;			/* room for structures and entries */
	long step;
	char fail[192];
};

static struct fthread fuzz_t[FUZZ_THREADS];

/* A handle or key: mostly one we know, of this file or another, or not. */
static __u32 pick_handle(struct fthread *t, struct ffile *f, bool key)
{
	struct ffile *o = &fuzz_t[below(&t->rng, FUZZ_THREADS)].f[0];

	switch (below(&t->rng, 8)) {
	case 0:
		return (__u32)rnd(&t->rng);
	case 1:
		return o->n ? (key ? o->keys : o->handles)[below(&t->rng,
								 o->n)] : 0;
	case 2:
		return below(&t->rng, 4);
	default:
		return f->n ? (key ? f->keys : f->handles)[below(&t->rng,
								 f->n)] : 1;
	}
}

static void remember(struct ffile *f, __u32 handle, __u32 key)
{
	unsigned int i = f->n < FUZZ_HANDLES ? f->n++ : handle % FUZZ_HANDLES;

	f->handles[i] = handle;
	f->keys[i] = key;
}

/* A user address: in one of our buffers (maybe past its end), or wild. */
static __u64 pick_addr(struct fthread *t)
{
	__u8 *b = t->buf[below(&t->rng, FUZZ_BUFS)];

	switch (below(&t->rng, 10)) {
	case 0:
		return rnd(&t->rng);
	case 1:
		return 0;
	default:
		return (uintptr_t)b + below(&t->rng, FUZZ_BUF_LEN + 64);
	}
}

static __u64 pick_len(struct fthread *t)
{
	switch (below(&t->rng, 10)) {
	case 0:
		return rnd(&t->rng);
	case 1:
		return 0;
	default:
		return 1 + below(&t->rng, FUZZ_BUF_LEN);
	}
}

static __u32 pick_access(struct fthread *t)
{
	if (!below(&t->rng, 6))
		return (__u32)rnd(&t->rng);
	return below(&t->rng, 16);
}

/*
 * The size field: the structure's, a little less (maybe below the first
 * version), more with a zero tail, or more with a non-zero tail.
 */
static __u32 pick_size(struct fthread *t, void *cmd, __u32 size)
{
	__u32 extra;

	switch (below(&t->rng, 12)) {
	case 0:
		return below(&t->rng, size);
	case 1:
		extra = 8 + below(&t->rng, 64);
		memset((char *)cmd + size, 0, extra);
		return size + extra;
	case 2:
		extra = 8 + below(&t->rng, 64);
		memset((char *)cmd + size, 0, extra);
		((char *)cmd)[size + below(&t->rng, extra)] = 1;
		return size + extra;
	default:
		return size;
	}
}

/* Mostly zero, now and then anything: flags and reserved fields. */
static __u32 noise(struct fthread *t)
{
	return below(&t->rng, 10) ? 0 : (__u32)rnd(&t->rng);
}

static void fill_entries(struct fthread *t, struct ffile *f, void *ent,
			 __u32 n, bool il)
{
	struct mlx5_umr_ioc_interleaved *e = ent;
	struct mlx5_umr_ioc_sge *s = ent;
	__u32 i;

	for (i = 0; i < n; i++) {
		if (il) {
			e[i].addr = pick_addr(t);
			e[i].bytes_count = below(&t->rng, 5) ?
				1 + below(&t->rng, 256) : (__u32)rnd(&t->rng);
			e[i].bytes_skip = below(&t->rng, 512);
			e[i].lkey = pick_handle(t, f, true);
			e[i].__reserved = noise(t);
		} else {
			s[i].addr = pick_addr(t);
			s[i].length = below(&t->rng, 5) ?
				1 + below(&t->rng, 512) : (__u32)rnd(&t->rng);
			s[i].lkey = pick_handle(t, f, true);
		}
	}
}

static __u32 pick_entries(struct fthread *t)
{
	switch (below(&t->rng, 12)) {
	case 0:
		return 0;
	case 1:
		return 60 + below(&t->rng, 8);	/* pointer mode */
	case 2:
		return (__u32)rnd(&t->rng);
	default:
		return 1 + below(&t->rng, 6);
	}
}

/* One ioctl, chosen and filled from the thread's sequence. */
static int fuzz_one(struct fthread *t, struct ffile *f, const char **what)
{
	union {
		struct mlx5_umr_ioc_info info;
		struct mlx5_umr_ioc_reg_mr reg;
		struct mlx5_umr_ioc_alloc_mkey alloc;
		struct mlx5_umr_ioc_configure cfg;
		struct mlx5_umr_ioc_invalidate inv;
		struct mlx5_umr_ioc_destroy destroy;
		struct mlx5_umr_ioc_batch batch;
		struct mlx5_umr_test_info tinfo;
		struct mlx5_umr_test_xfer xfer;
		struct mlx5_umr_ioc_set_pd set_pd;
		char room[512];
	} c;
	struct mlx5_umr_ioc_batch_req *req = t->scratch;
	void *ent = (char *)t->scratch + 128 * sizeof(*req);
	__u32 i, n;
	int ret;

	memset(&c, 0, sizeof(c));
	switch (below(&t->rng, 12)) {
	case 0:
		*what = "INFO";
		c.info.flags = noise(t);
		c.info.size = pick_size(t, &c, sizeof(c.info));
		return umr_ioctl(f->fd, MLX5_UMR_IOCTL_INFO, &c);
	case 1:
		*what = "REG_MR";
		c.reg.access = pick_access(t);
		c.reg.addr = pick_addr(t);
		c.reg.length = pick_len(t);
		c.reg.flags = noise(t);
		c.reg.size = pick_size(t, &c, sizeof(c.reg));
		ret = umr_ioctl(f->fd, MLX5_UMR_IOCTL_REG_MR, &c);
		if (!ret)
			remember(f, c.reg.out_handle, c.reg.out_lkey);
		return ret;
	case 2:
		*what = "ALLOC_MKEY";
		c.alloc.max_entries = pick_entries(t);
		c.alloc.flags = below(&t->rng, 3) ? 0 : noise(t) | 1;
		c.alloc.__reserved = noise(t);
		c.alloc.size = pick_size(t, &c, sizeof(c.alloc));
		ret = umr_ioctl(f->fd, MLX5_UMR_IOCTL_ALLOC_MKEY, &c);
		if (!ret)
			remember(f, c.alloc.out_handle, c.alloc.out_key);
		return ret;
	case 3:
	case 4:
		*what = "CONFIGURE";
		c.cfg.handle = pick_handle(t, f, false);
		c.cfg.access = pick_access(t);
		c.cfg.flags = below(&t->rng, 2) ? 0 :
			      (below(&t->rng, 2) ? MLX5_UMR_IOC_NEW_KEY :
			       noise(t));
		c.cfg.layout = below(&t->rng, 9) ? below(&t->rng, 2) :
			       (__u32)rnd(&t->rng);
		c.cfg.num_entries = pick_entries(t);
		c.cfg.repeat_count = c.cfg.layout ? 1 + below(&t->rng, 8) :
				     (below(&t->rng, 8) ? 0 : 2);
		n = c.cfg.num_entries < 128 ? c.cfg.num_entries : 0;
		fill_entries(t, f, ent, n, c.cfg.layout);
		c.cfg.entries = below(&t->rng, 12) ? (uintptr_t)ent :
				pick_addr(t);
		c.cfg.size = pick_size(t, &c, sizeof(c.cfg));
		return umr_ioctl(f->fd, MLX5_UMR_IOCTL_CONFIGURE, &c);
	case 5:
		*what = "INVALIDATE";
		c.inv.handle = pick_handle(t, f, false);
		c.inv.flags = below(&t->rng, 2) ? 0 : noise(t);
		c.inv.size = pick_size(t, &c, sizeof(c.inv));
		return umr_ioctl(f->fd, MLX5_UMR_IOCTL_INVALIDATE, &c);
	case 6:
		*what = "DESTROY";
		c.destroy.handle = pick_handle(t, f, false);
		c.destroy.flags = noise(t);
		c.destroy.size = pick_size(t, &c, sizeof(c.destroy));
		return umr_ioctl(f->fd, MLX5_UMR_IOCTL_DESTROY, &c);
	case 7:
		*what = "BATCH";
		n = below(&t->rng, 10) ? 1 + below(&t->rng, 8) :
		    below(&t->rng, 200);
		c.batch.num_reqs = n;
		c.batch.req_size = below(&t->rng, 8) ? sizeof(*req) :
				   8 * below(&t->rng, 16);
		memset(req, 0, 128 * sizeof(*req));
		for (i = 0; i < n && i < 16; i++) {
			req[i].op = below(&t->rng, 8) ? below(&t->rng, 2) :
				    (__u32)rnd(&t->rng);
			req[i].handle = pick_handle(t, f, false);
			if (req[i].op == MLX5_UMR_IOC_BATCH_INVALIDATE)
				continue;
			req[i].access = pick_access(t);
			req[i].layout = below(&t->rng, 2);
			req[i].num_entries = 1 + below(&t->rng, 3);
			req[i].repeat_count = req[i].layout ?
					      1 + below(&t->rng, 4) : 0;
			fill_entries(t, f, (char *)ent + i * 64,
				     req[i].num_entries, req[i].layout);
			req[i].entries = (uintptr_t)ent + i * 64;
			req[i].flags = noise(t);
		}
		c.batch.reqs = below(&t->rng, 12) ? (uintptr_t)req :
			       pick_addr(t);
		c.batch.flags = noise(t);
		c.batch.size = pick_size(t, &c, sizeof(c.batch));
		return umr_ioctl(f->fd, MLX5_UMR_IOCTL_BATCH, &c);
	case 8:
		*what = "TEST_INFO";
		c.tinfo.size = pick_size(t, &c, sizeof(c.tinfo));
		return umr_ioctl(f->fd, MLX5_UMR_TEST_IOCTL_INFO, &c);
	case 9:
		*what = "TEST_XFER";
		c.xfer.key = pick_handle(t, f, true);
		c.xfer.flags = below(&t->rng, 4) ?
			       below(&t->rng, 2) * MLX5_UMR_TEST_XFER_WRITE :
			       noise(t);
		c.xfer.offset = below(&t->rng, 4) ? below(&t->rng, 1024) :
				rnd(&t->rng);
		c.xfer.buf = below(&t->rng, 10) ? (uintptr_t)ent : pick_addr(t);
		c.xfer.length = below(&t->rng, 10) ? 1 + below(&t->rng, 1024) :
				pick_len(t);
		c.xfer.size = pick_size(t, &c, sizeof(c.xfer));
		return umr_ioctl(f->fd, MLX5_UMR_TEST_IOCTL_XFER, &c);
	case 10:
		*what = "SET_PD";
		c.set_pd.pdn = below(&t->rng, 2) ? below(&t->rng, 16) :
			       (__u32)rnd(&t->rng);
		c.set_pd.flags = noise(t);
		c.set_pd.size = pick_size(t, &c, sizeof(c.set_pd));
		return umr_ioctl(f->fd, MLX5_UMR_IOCTL_SET_PD, &c);
	default:
		*what = "unknown ioctl";
		c.info.size = sizeof(c.info);
		return umr_ioctl(f->fd, _IO(MLX5_UMR_IOC_TYPE,
					    below(&t->rng, 256)), &c);
	}
}

static void fuzz_reopen(struct ffile *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = umr_open();
	f->n = 0;
}

static void *fuzz_thread(void *arg)
{
	struct fthread *t = arg;
	const char *what = "";
	struct ffile *f;
	int ret;

	while (!atomic_load(&fuzz_stop)) {
		f = &t->f[below(&t->rng, FUZZ_FILES)];
		t->step++;
		if (f->fd < 0 || !below(&t->rng, 500)) {
			fuzz_reopen(f);	/* close with live objects, too */
			if (f->fd < 0)
				usleep(2000);
			continue;
		}
		ret = fuzz_one(t, f, &what);
		atomic_fetch_add(&fuzz_ops, 1);
		if (!umr_errno_documented(ret)) {
			snprintf(t->fail, sizeof(t->fail),
				 "seed %llu thread %d step %ld: %s answered %d (%s)",
				 fuzz_seed, t->id, t->step, what, ret,
				 strerror(-ret));
			atomic_store(&fuzz_stop, true);
		}
		if (ret == -ENODEV)
			fuzz_reopen(f);
	}
	return NULL;
}

TEST_F_TIMEOUT(long_run, fuzz_ioctls, 900)
{
	const char *s = getenv("MLX5_UMR_FUZZ_SEED");
	const char *d = getenv("MLX5_UMR_FUZZ_SECONDS");
	int secs = d ? atoi(d) : 3, removals = 0, i, j, status;
	pthread_t th[FUZZ_THREADS];
	struct mlx5_umr_ioc_info info;
	long vmpin = umr_vm_pinned_kb();
	long long end;
	char path[256];
	pid_t pid;
	int fd;

	fuzz_seed = s ? strtoull(s, NULL, 0) : (unsigned long long)time(NULL);
	TH_LOG("seed %llu (MLX5_UMR_FUZZ_SEED), %d s", fuzz_seed, secs);
	for (i = 0; i < FUZZ_THREADS; i++) {
		struct fthread *t = &fuzz_t[i];

		t->id = i;
		t->rng = fuzz_seed * 0x9E3779B97F4A7C15ULL + i + 1;
		for (j = 0; j < FUZZ_BUFS; j++) {
			t->buf[j] = umr_map(FUZZ_BUF_LEN, j);
			ASSERT_NE(NULL, t->buf[j]);
		}
		t->scratch = umr_map(256 * 1024, 0);
		ASSERT_NE(NULL, t->scratch);
		for (j = 0; j < FUZZ_FILES; j++) {
			t->f[j].fd = umr_open();
			ASSERT_LE(0, t->f[j].fd);
		}
	}
	for (i = 0; i < FUZZ_THREADS; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, fuzz_thread,
					    &fuzz_t[i]));
	end = time(NULL) + secs;
	while (time(NULL) < end && !atomic_load(&fuzz_stop)) {
		usleep(300000 + (fuzz_seed + removals) % 7 * 100000);
		if (!umr_loaded_fake || time(NULL) >= end)
			continue;
		/* the HCA goes and comes back under the running threads */
		pid = fork();
		if (!pid) {
			execlp("rmmod", "rmmod", "mlx5_umr_fake", (char *)NULL);
			_exit(127);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
		ASSERT_EQ(0, umr_load_fake());
		ASSERT_EQ(0, umr_find_dev(path, sizeof(path)));
		removals++;
	}
	atomic_store(&fuzz_stop, true);
	for (i = 0; i < FUZZ_THREADS; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, fuzz_t[i].fail[0]) TH_LOG("%s", fuzz_t[i].fail);
		for (j = 0; j < FUZZ_FILES; j++)
			if (fuzz_t[i].f[j].fd >= 0)
				close(fuzz_t[i].f[j].fd);
	}
	TH_LOG("seed %llu: %ld ioctls, %d HCA removals", fuzz_seed,
	       atomic_load(&fuzz_ops), removals);
	EXPECT_EQ(vmpin, umr_vm_pinned_kb());
	fd = umr_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(0, info.out_dev_objects);
	EXPECT_EQ(0, info.out_dev_pinned_pages);
	close(fd);
}

TEST_HARNESS_MAIN
