// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: the fake HCA removed while ioctls run.
 *
 * - An ioctl whose answer faults on user memory (a userfaultfd
 *   write-protected page: the structure is read, the answer's write stalls)
 *   holds no device lock while it waits: HCA removal completes meanwhile.
 * - An answer that cannot be written (a read-only page) is EFAULT and the
 *   object the ioctl created is gone again.
 * - A soak: UNPLUG_THREADS threads configure and transfer while the fake
 *   HCA is removed and re-added UNPLUG_ROUNDS times (environment
 *   MLX5_UMR_UNPLUG_ROUNDS, default 5); every ioctl answers 0 or an errno
 *   of the documented list, nothing is left pinned, no thread hangs.
 *
 * Every test unloads and reloads the fake HCA: it needs to have loaded it.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <linux/userfaultfd.h>

#include "kselftest_harness.h"
#include "umr_util.h"

#define UNPLUG_THREADS	8

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

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* rmmod the fake in a child; true if it finished within @ms. */
static bool remove_fake_within(int ms, pid_t *pidp, int *status)
{
	pid_t pid = fork();
	long long end = now_ms() + ms;

	if (!pid) {
		execlp("rmmod", "rmmod", "mlx5_umr_fake", (char *)NULL);
		_exit(127);
	}
	*pidp = pid;
	while (now_ms() < end) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return true;
		usleep(20 * 1000);
	}
	return false;
}

struct stalled {
	int fd;
	unsigned long req;
	void *arg;
	int ret;
	atomic_int done;
};

static void *stalled_thread(void *p)
{
	struct stalled *s = p;

	s->ret = umr_ioctl(s->fd, s->req, s->arg);
	atomic_store(&s->done, 1);
	return NULL;
}

/*
 * A page holding @len bytes of @content, whose reads succeed and whose
 * writes wait for userfaultfd (this thread's too: fill it first).
 */
static int wp_page(void **page, const void *content, size_t len)
{
	struct uffdio_api api = {
		.api = UFFD_API, .features = UFFD_FEATURE_PAGEFAULT_FLAG_WP
	};
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_WP };
	struct uffdio_writeprotect wp = { .mode = UFFDIO_WRITEPROTECT_MODE_WP };
	int uffd;

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0)
		return -1;
	*page = umr_map(PAGE, 0);
	if (!*page || ioctl(uffd, UFFDIO_API, &api))
		goto err;
	memcpy(*page, content, len);
	reg.range.start = (uintptr_t)*page;
	reg.range.len = PAGE;
	wp.range = reg.range;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg) ||
	    ioctl(uffd, UFFDIO_WRITEPROTECT, &wp))
		goto err;
	return uffd;
err:
	close(uffd);
	return -1;
}

static atomic_int removal_done;
static int removal_ret;

/* HCA removal from a thread: no fork() while a fault of ours waits. */
static void *remover_thread(void *unused)
{
	removal_ret = syscall(SYS_delete_module, "mlx5_umr_fake", O_NONBLOCK) ?
		      -errno : 0;
	atomic_store(&removal_done, 1);
	return NULL;
}

static bool wait_flag(atomic_int *flag, int ms)
{
	long long end = now_ms() + ms;

	while (!atomic_load(flag) && now_ms() < end)
		usleep(10 * 1000);
	return atomic_load(flag);
}

/*
 * Run ioctl @req with @arg (inside the write-protected @page of @uffd) on
 * @fd, wait until its answer stalls, remove the HCA meanwhile, then let
 * the answer through; *@ret is the ioctl's result.
 */
static void stall_answer_and_remove(struct __test_metadata *_metadata,
				    int fd, unsigned long req, void *arg,
				    int uffd, void *page, int *ret)
{
	struct uffdio_writeprotect wp = { .mode = 0 };
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	/* static: outlives a test that gives up on the thread */
	static struct stalled s;
	struct uffd_msg msg;
	pthread_t t, rm;
	bool removed;

	s = (struct stalled){ .fd = fd, .req = req, .arg = arg, .ret = 1 };
	atomic_store(&removal_done, 0);
	ASSERT_EQ(0, pthread_create(&t, NULL, stalled_thread, &s));
	ASSERT_EQ(1, poll(&pfd, 1, 5000)) TH_LOG("the answer never faulted");
	ASSERT_EQ(sizeof(msg), read(uffd, &msg, sizeof(msg)));
	EXPECT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);
	EXPECT_TRUE(msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WP);
	TH_LOG("the answer waits in a user fault; removing the HCA");

	/* the ioctl waits in the answer's fault: the HCA goes meanwhile */
	ASSERT_EQ(0, pthread_create(&rm, NULL, remover_thread, NULL));
	removed = wait_flag(&removal_done, 5000);
	wp.range.start = (uintptr_t)page;
	wp.range.len = PAGE;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_WRITEPROTECT, &wp));
	ASSERT_TRUE(wait_flag(&s.done, 5000))
		TH_LOG("the ioctl still waits after its fault was resolved");
	ASSERT_TRUE(wait_flag(&removal_done, 10000))
		TH_LOG("HCA removal hangs");
	pthread_join(t, NULL);
	pthread_join(rm, NULL);
	EXPECT_TRUE(removed) TH_LOG("HCA removal waited for a user fault");
	EXPECT_EQ(0, removal_ret);
	*ret = s.ret;
}

static void reload(struct __test_metadata *_metadata)
{
	char path[256];

	ASSERT_EQ(0, umr_load_fake());
	ASSERT_EQ(0, umr_find_dev(path, sizeof(path)));
}

/* ALLOC_MKEY's answer stalls in a user fault: removal does not wait. */
TEST(answer_fault_holds_no_device_lock)
{
	struct mlx5_umr_ioc_alloc_mkey *cmd, in = {
		.size = sizeof(in), .max_entries = 4,
	};
	struct mlx5_umr_ioc_info info;
	long vmpin = umr_vm_pinned_kb();
	void *page;
	int fd, uffd, ret = 1;

	if (!umr_loaded_fake)
		SKIP(return, "mlx5_umr_fake was loaded by someone else");
	fd = umr_open();
	ASSERT_LE(0, fd);
	uffd = wp_page(&page, &in, sizeof(in));
	if (uffd < 0)
		SKIP(close(fd); return, "no write-protect userfaultfd");
	cmd = page;
	stall_answer_and_remove(_metadata, fd, MLX5_UMR_IOCTL_ALLOC_MKEY, cmd,
				uffd, page, &ret);
	/* created before the removal, destroyed by it; the answer got out */
	EXPECT_EQ(0, ret);
	EXPECT_NE(0, cmd->out_handle);
	EXPECT_EQ(-ENODEV, umr_info(fd, &info));
	EXPECT_EQ(-ENODEV, umr_destroy(fd, cmd->out_handle));
	EXPECT_EQ(vmpin, umr_vm_pinned_kb());
	close(uffd);
	munmap(page, PAGE);
	EXPECT_EQ(0, close(fd));
	reload(_metadata);
}

/* The same for a batch, whose requests' statuses are written back too. */
TEST(batch_answer_fault_holds_no_device_lock)
{
	struct mlx5_umr_ioc_batch_req *req, in = {};
	struct mlx5_umr_ioc_batch batch = { .size = sizeof(batch) };
	struct mlx5_umr_ioc_sge *sge;
	__u32 mr, key, mk;
	void *page;
	__u8 *buf;
	int fd, uffd, ret = 1;

	if (!umr_loaded_fake)
		SKIP(return, "mlx5_umr_fake was loaded by someone else");
	fd = umr_open();
	ASSERT_LE(0, fd);
	buf = umr_map(PAGE, 0x5a);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, umr_reg(fd, buf, PAGE, UMR_ACCESS_ALL3, &mr, &key));
	ASSERT_EQ(0, umr_alloc(fd, 2, &mk, NULL));
	/* the entries are read only: the request array is written back */
	sge = malloc(sizeof(*sge));
	ASSERT_NE(NULL, sge);
	*sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)buf, 64, key };
	in.op = MLX5_UMR_IOC_BATCH_CONFIGURE;
	in.handle = mk;
	in.access = UMR_ACCESS_ALL3;
	in.layout = MLX5_UMR_IOC_LAYOUT_LIST;
	in.num_entries = 1;
	in.entries = (uintptr_t)sge;
	uffd = wp_page(&page, &in, sizeof(in));
	if (uffd < 0)
		SKIP(close(fd); return, "no write-protect userfaultfd");
	req = page;
	batch.num_reqs = 1;
	batch.req_size = sizeof(*req);
	batch.reqs = (uintptr_t)req;
	stall_answer_and_remove(_metadata, fd, MLX5_UMR_IOCTL_BATCH, &batch,
				uffd, page, &ret);
	EXPECT_EQ(0, ret);
	EXPECT_EQ(0, batch.out_failed);
	EXPECT_EQ(0, req->out_status);
	EXPECT_EQ(64, req->out_length);
	close(uffd);
	munmap(page, PAGE);
	free(sge);
	EXPECT_EQ(0, close(fd));
	munmap(buf, PAGE);
	reload(_metadata);
}

/*
 * An answer that cannot be written: EFAULT, and the object the ioctl
 * created is destroyed again (file, device and HCA hold no more).
 */
TEST(answer_efault_leaves_nothing)
{
	struct mlx5_umr_ioc_alloc_mkey *cmd;
	struct mlx5_umr_ioc_reg_mr *reg;
	struct mlx5_umr_ioc_info info;
	long vmpin = umr_vm_pinned_kb();
	char path[256];
	long long mkeys;
	__u8 *buf;
	void *page;
	int fd;

	fd = umr_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, umr_find_dev(path, sizeof(path)));
	mkeys = umr_fake_counter(path, "mkeys");
	buf = umr_map(PAGE, 1);
	page = umr_map(PAGE, 0);
	ASSERT_NE(NULL, buf);
	ASSERT_NE(NULL, page);
	cmd = page;
	cmd->size = sizeof(*cmd);
	cmd->max_entries = 4;
	reg = page + 512;
	reg->size = sizeof(*reg);
	reg->access = UMR_ACCESS_ALL3;
	reg->addr = (uintptr_t)buf;
	reg->length = PAGE;
	ASSERT_EQ(0, mprotect(page, PAGE, PROT_READ));
	EXPECT_EQ(-EFAULT, umr_ioctl(fd, MLX5_UMR_IOCTL_ALLOC_MKEY, cmd));
	EXPECT_EQ(-EFAULT, umr_ioctl(fd, MLX5_UMR_IOCTL_REG_MR, reg));
	ASSERT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(0, info.out_fd_objects);
	EXPECT_EQ(0, info.out_fd_pinned_pages);
	EXPECT_EQ(0, info.out_fd_xlt_bytes);
	if (mkeys >= 0)
		EXPECT_EQ(mkeys, umr_fake_counter(path, "mkeys"));
	EXPECT_EQ(vmpin, umr_vm_pinned_kb());
	/* the handles it would have had name nothing */
	EXPECT_EQ(-ENOENT, umr_destroy(fd, 1));
	EXPECT_EQ(-ENOENT, umr_destroy(fd, 2));
	close(fd);
	munmap(page, PAGE);
	munmap(buf, PAGE);
}

struct soak {
	atomic_bool stop;
	atomic_int bad;		/* answers outside the documented list */
	atomic_long ops, moved, nodev;
};

struct soaker {
	struct soak *all;
	int id;
	int bad_ret;
	const char *bad_op;
};

/* Count the call; note an answer outside the documented list. */
static int soak_check(struct soaker *w, const char *op, int ret)
{
	if (!umr_errno_documented(ret)) {
		w->bad_ret = ret;
		w->bad_op = op;
		atomic_fetch_add(&w->all->bad, 1);
	}
	atomic_fetch_add(&w->all->ops, 1);
	return ret;
}

/* One file's life: register, configure, move bytes, until ENODEV. */
static void soak_file(struct soaker *w, int fd, __u8 *a, __u8 *b, __u8 *io)
{
	__u32 mra, ka = 0, mrb, kb = 0, mk = 0, mkey = 0;
	struct mlx5_umr_ioc_sge sge[2];
	unsigned int i, off;
	int ret;

	if (soak_check(w, "reg", umr_reg(fd, a, PAGE, UMR_ACCESS_ALL3, &mra,
					 &ka)))
		return;
	if (soak_check(w, "reg", umr_reg(fd, b, PAGE, UMR_ACCESS_ALL3, &mrb,
					 &kb)))
		return;
	if (soak_check(w, "alloc", umr_alloc(fd, 2, &mk, &mkey)))
		return;
	for (i = 0; !atomic_load(&w->all->stop); i++) {
		off = (i * 64 + w->id * 8) % (PAGE - 128);
		sge[0] = (struct mlx5_umr_ioc_sge){ (uintptr_t)a + off, 64, ka };
		sge[1] = (struct mlx5_umr_ioc_sge){ (uintptr_t)b + off, 64, kb };
		ret = soak_check(w, "configure",
				 umr_config_list(fd, mk, sge, 2, NULL));
		if (ret == -ENODEV)
			return;
		if (ret)
			continue;
		memset(io, (__u8)(i + w->id), 128);
		ret = soak_check(w, "xfer", umr_xfer(fd, mkey, 0, io, 128, 1));
		if (ret == -ENODEV)
			return;
		/* the bytes landed where the layout says */
		if (!ret && (a[off] != io[0] || b[off + 63] != io[127])) {
			w->bad_op = "xfer landed elsewhere";
			atomic_fetch_add(&w->all->bad, 1);
		}
		if (!ret)
			atomic_fetch_add(&w->all->moved, 1);
		if (soak_check(w, "invalidate", umr_invalidate(fd, mk)) ==
		    -ENODEV)
			return;
	}
}

static void *soak_thread(void *p)
{
	struct soaker *w = p;
	__u8 *a = umr_map(PAGE, 0), *b = umr_map(PAGE, 0);
	__u8 io[128];
	int fd;

	while (!atomic_load(&w->all->stop)) {
		fd = umr_open();
		if (fd < 0) {		/* the HCA is away */
			usleep(2000);
			continue;
		}
		soak_file(w, fd, a, b, io);
		atomic_fetch_add(&w->all->nodev, 1);
		close(fd);
	}
	munmap(a, PAGE);
	munmap(b, PAGE);
	return NULL;
}

/*
 * UNPLUG_THREADS threads configure and transfer while the fake HCA is
 * removed and re-added MLX5_UMR_UNPLUG_ROUNDS times: every answer is from
 * the documented list, removal never hangs, nothing stays pinned.
 */
TEST_F_TIMEOUT(long_run, unplug_soak, 900)
{
	const char *env = getenv("MLX5_UMR_UNPLUG_ROUNDS");
	int rounds = env ? atoi(env) : 5, r, i, status;
	struct soaker w[UNPLUG_THREADS] = {};
	pthread_t t[UNPLUG_THREADS];
	struct mlx5_umr_ioc_info info;
	long vmpin = umr_vm_pinned_kb();
	struct soak all = {};
	long long t0 = now_ms(), t1, max_rm = 0, max_add = 0;
	char path[256];
	pid_t pid;
	int fd;

	if (!umr_loaded_fake)
		SKIP(return, "mlx5_umr_fake was loaded by someone else");
	for (i = 0; i < UNPLUG_THREADS; i++) {
		w[i].all = &all;
		w[i].id = i;
		ASSERT_EQ(0, pthread_create(&t[i], NULL, soak_thread, &w[i]));
	}
	for (r = 0; r < rounds; r++) {
		usleep(20000 + (r * 7919) % 60000);
		t1 = now_ms();
		ASSERT_TRUE(remove_fake_within(30000, &pid, &status))
			TH_LOG("round %d: HCA removal hangs", r);
		ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
		if (now_ms() - t1 > max_rm)
			max_rm = now_ms() - t1;
		usleep((r * 104729) % 20000);
		t1 = now_ms();
		ASSERT_EQ(0, umr_load_fake());
		ASSERT_EQ(0, umr_find_dev(path, sizeof(path)));
		if (now_ms() - t1 > max_add)
			max_add = now_ms() - t1;
	}
	usleep(100000);
	atomic_store(&all.stop, true);
	for (i = 0; i < UNPLUG_THREADS; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(NULL, w[i].bad_op)
			TH_LOG("thread %d: %s answered %d", i, w[i].bad_op,
			       w[i].bad_ret);
	}
	EXPECT_EQ(0, atomic_load(&all.bad));
	TH_LOG("%d removals in %lld ms (longest %lld ms, re-add %lld ms)",
	       rounds, now_ms() - t0, max_rm, max_add);
	TH_LOG("%ld ioctls, %ld transfers, %ld files ended",
	       atomic_load(&all.ops), atomic_load(&all.moved),
	       atomic_load(&all.nodev));
	EXPECT_LT(0, atomic_load(&all.moved));
	EXPECT_EQ(vmpin, umr_vm_pinned_kb());
	/* the last HCA holds nothing of the closed files */
	fd = umr_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(0, info.out_dev_objects);
	EXPECT_EQ(0, info.out_dev_pinned_pages);
	close(fd);
	EXPECT_EQ(0, umr_fake_counter(path, "sg_maps"));
	/* the PA mkey of the service only */
	EXPECT_EQ(1, umr_fake_counter(path, "mkeys"));
}

/* 4 files x 128 invalidates of 2 blocks: more than the files' share */
#define ROOM_FILES	4
#define ROOM_REQS	128

struct room_arg {
	int fd;
	__u32 mk[ROOM_REQS];
	int ret;
	long long ms;
};

static void *room_filler(void *p)
{
	static __thread struct mlx5_umr_ioc_batch_req req[ROOM_REQS];
	struct mlx5_umr_ioc_batch b = {
		.size = sizeof(b), .num_reqs = ROOM_REQS,
		.req_size = sizeof(req[0]), .reqs = (uintptr_t)req,
	};
	struct room_arg *a = p;
	int i;

	for (i = 0; i < ROOM_REQS; i++) {
		req[i].op = MLX5_UMR_IOC_BATCH_INVALIDATE;
		req[i].handle = a->mk[i];
	}
	a->ret = umr_ioctl(a->fd, MLX5_UMR_IOCTL_BATCH, &b);
	return NULL;
}

static void *room_victim(void *p)
{
	struct room_arg *a = p;
	long long t0 = now_ms();

	a->ret = umr_invalidate(a->fd, a->mk[0]);
	a->ms = now_ms() - t0;
	return NULL;
}

static void room_nop(int sig)
{
}

/*
 * Other files take the files' share of the device's UMR queue (the fake
 * holds their work requests for 3 s): a call of another file waits for
 * room, and a signal ends that wait at once with EINTR, nothing posted.
 * Everything else completes when the HCA runs again. (A wait for room on
 * the queue itself, which only kernel users can fill, is KUnit's
 * ij_exec_interruptible_room.)
 */
TEST_F_TIMEOUT(long_run, queue_room_wait_interruptible, 120)
{
	static struct room_arg a[ROOM_FILES + 1];
	struct sigaction sa = { .sa_handler = room_nop };
	pthread_t t[ROOM_FILES + 1];
	long long wqes;
	char path[256];
	int i, j;

	ASSERT_EQ(0, umr_find_dev(path, sizeof(path)));
	for (i = 0; i <= ROOM_FILES; i++) {
		a[i].fd = umr_open();
		ASSERT_LE(0, a[i].fd);
		for (j = 0; j < ROOM_REQS; j++)
			ASSERT_EQ(0, umr_alloc(a[i].fd, 1, &a[i].mk[j], NULL));
	}
	/* no SA_RESTART: the interrupted ioctl returns EINTR */
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	if (umr_fake_knob(path, "delay_ms", "3000"))
		SKIP(return, "needs the fake's debugfs");
	wqes = umr_fake_counter(path, "wqes");
	for (i = 0; i < ROOM_FILES; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, room_filler, &a[i]));
	usleep(500 * 1000);
	ASSERT_EQ(0, pthread_create(&t[i], NULL, room_victim, &a[i]));
	usleep(300 * 1000);
	ASSERT_EQ(0, pthread_kill(t[i], SIGUSR1));
	pthread_join(t[i], NULL);
	EXPECT_EQ(-EINTR, a[i].ret);
	EXPECT_GT(1500, a[i].ms) TH_LOG("the signal ended the wait after %lld ms",
					a[i].ms);
	for (i = 0; i < ROOM_FILES; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, a[i].ret) TH_LOG("file %d", i);
	}
	/* the interrupted call posted nothing */
	if (wqes >= 0)
		EXPECT_EQ(wqes + ROOM_FILES * ROOM_REQS,
			  umr_fake_counter(path, "wqes"));
	EXPECT_EQ(0, umr_invalidate(a[ROOM_FILES].fd, a[ROOM_FILES].mk[0]));
	for (i = 0; i <= ROOM_FILES; i++)
		close(a[i].fd);
}

TEST_HARNESS_MAIN
