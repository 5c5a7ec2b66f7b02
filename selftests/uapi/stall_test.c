// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An ioctl stalled on user memory that does not resolve (a userfaultfd
 * page, as FUSE or a slow NFS page would do) holds up nobody else: while
 * it waits, another file's ioctls, client registration (the sample ULP's
 * module) and HCA removal (rmmod mlx5_umr_fake) each complete within
 * seconds; once the fault is resolved the stalled ioctl answers from the
 * documented errno list. Each variant stalls a different access: copying
 * a structure or array in, pinning pages, and writing the answer back (a
 * write-protected page).
 *
 * uapi_test's user_fault_holds_no_device_lock is the single-step version
 * of the first variant (removal only).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/userfaultfd.h>

#include "kselftest_harness.h"
#include "umr_util.h"

/* Seconds each other party may take while the ioctl is stalled. */
#define BOUND_S		10
#define SAMPLE		"mlx5_umr_sample"
#define FAKE		"mlx5_umr_fake"

enum stall_at {
	STALL_CONFIGURE_ENTRIES,	/* copy-in of an entry array */
	STALL_BATCH_REQS,		/* copy-in of a batch's requests */
	STALL_REG_MR_PAGES,		/* pinning the memory to register */
	STALL_ALLOC_REPLY,		/* copy-out of ALLOC_MKEY's answer */
	STALL_INFO_REPLY,		/* copy-out of INFO's answer */
};

FIXTURE(stall) {
	char path[256];
	int fd;			/* the file whose ioctl stalls */
	int uffd;
	void *page;		/* the page the ioctl faults on */
	__u8 *buf;		/* registered memory for layouts */
	__u32 mr, key, mk;
	bool have_sample;	/* mlx5_umr_sample.ko can be loaded */
	pthread_t t;
	bool started;
	int ret;		/* the stalled ioctl's result */
};

FIXTURE_VARIANT(stall) {
	enum stall_at at;
	bool wp;		/* write-protect the page, else missing */
};

FIXTURE_VARIANT_ADD(stall, configure_entries) {
	.at = STALL_CONFIGURE_ENTRIES,
};

FIXTURE_VARIANT_ADD(stall, batch_reqs) {
	.at = STALL_BATCH_REQS,
};

FIXTURE_VARIANT_ADD(stall, reg_mr_pages) {
	.at = STALL_REG_MR_PAGES,
};

FIXTURE_VARIANT_ADD(stall, alloc_reply) {
	.at = STALL_ALLOC_REPLY,
	.wp = true,
};

FIXTURE_VARIANT_ADD(stall, info_reply) {
	.at = STALL_INFO_REPLY,
	.wp = true,
};

/* Whether modprobe can load @name (the VM has our modules in extra/). */
static bool have_module(const char *name)
{
	struct utsname u;
	char path[512];

	if (uname(&u))
		return false;
	snprintf(path, sizeof(path), "/lib/modules/%.200s/extra/%.64s.ko",
		 u.release, name);
	return !access(path, R_OK);
}

FIXTURE_SETUP(stall)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	self->fd = -1;
	self->uffd = -1;
	if (!umr_loaded_fake)
		SKIP(return, "mlx5_umr_fake was loaded by someone else");
	self->have_sample = have_module("mlx5_umr_sample") &&
			    access("/sys/module/mlx5_umr_sample", F_OK);
	ASSERT_EQ(0, umr_find_dev(self->path, sizeof(self->path)));
	self->fd = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	self->buf = umr_map(PAGE, 0x5a);
	ASSERT_NE(NULL, self->buf);
	ASSERT_EQ(0, umr_reg(self->fd, self->buf, PAGE, UMR_ACCESS_ALL3,
			     &self->mr, &self->key));
	ASSERT_EQ(0, umr_alloc(self->fd, 4, &self->mk, NULL));

	self->uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (self->uffd < 0)
		SKIP(return, "no userfaultfd: %s", strerror(errno));
	if (variant->wp)
		api.features = UFFD_FEATURE_PAGEFAULT_FLAG_WP;
	if (ioctl(self->uffd, UFFDIO_API, &api))
		SKIP(return, "userfaultfd without the features needed");
	self->page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->page);
	if (variant->wp) {
		/* present and readable: only the kernel's write faults */
		memset(self->page, 0, PAGE);
		reg.mode = UFFDIO_REGISTER_MODE_WP;
	}
	reg.range.start = (uintptr_t)self->page;
	reg.range.len = PAGE;
	if (ioctl(self->uffd, UFFDIO_REGISTER, &reg))
		SKIP(return, "cannot register: %s", strerror(errno));
}

FIXTURE_TEARDOWN(stall)
{
	if (self->uffd >= 0)
		close(self->uffd);
	if (self->fd >= 0)
		close(self->fd);
	/* every variant removed the fake HCA: bring it back */
	if (umr_loaded_fake && access("/sys/module/mlx5_umr_fake", F_OK))
		EXPECT_EQ(0, umr_load_fake());
}

struct stall_arg {
	struct _test_data_stall *self;
	enum stall_at at;
};

static struct mlx5_umr_ioc_batch stall_batch;

/*
 * What the page holds once resolved (missing variants), or before it is
 * write-protected: a valid request, so that only the device's state
 * decides the answer.
 */
static void stall_content(struct _test_data_stall *self, enum stall_at at,
			  void *p)
{
	struct mlx5_umr_ioc_alloc_mkey *alloc = p;
	struct mlx5_umr_ioc_batch_req *req = p;
	struct mlx5_umr_ioc_info *info = p;
	struct mlx5_umr_ioc_sge *sge = p;

	memset(p, 0, PAGE);
	switch (at) {
	case STALL_CONFIGURE_ENTRIES:
		*sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf, 64,
						  self->key };
		break;
	case STALL_BATCH_REQS:
		req->op = MLX5_UMR_IOC_BATCH_INVALIDATE;
		req->handle = self->mk;
		break;
	case STALL_REG_MR_PAGES:
		memset(p, 0x3c, PAGE);
		break;
	case STALL_ALLOC_REPLY:
		alloc->size = sizeof(*alloc);
		alloc->max_entries = 2;
		break;
	case STALL_INFO_REPLY:
		info->size = sizeof(*info);
		break;
	}
}

static void *stall_thread(void *p)
{
	struct stall_arg *a = p;
	struct _test_data_stall *self = a->self;
	struct mlx5_umr_ioc_alloc_mkey *alloc = self->page;
	struct mlx5_umr_ioc_info *info = self->page;
	__u32 h;

	switch (a->at) {
	case STALL_CONFIGURE_ENTRIES:
		self->ret = umr_config_list(self->fd, self->mk, self->page, 1,
					    NULL);
		break;
	case STALL_BATCH_REQS:
		stall_batch = (struct mlx5_umr_ioc_batch){
			.size = sizeof(stall_batch), .num_reqs = 1,
			.req_size = sizeof(struct mlx5_umr_ioc_batch_req),
			.reqs = (uintptr_t)self->page,
		};
		self->ret = umr_ioctl(self->fd, MLX5_UMR_IOCTL_BATCH,
				      &stall_batch);
		break;
	case STALL_REG_MR_PAGES:
		self->ret = umr_reg(self->fd, self->page, PAGE,
				    UMR_ACCESS_ALL3, &h, NULL);
		break;
	case STALL_ALLOC_REPLY:
		self->ret = umr_ioctl(self->fd, MLX5_UMR_IOCTL_ALLOC_MKEY,
				      alloc);
		break;
	case STALL_INFO_REPLY:
		self->ret = umr_ioctl(self->fd, MLX5_UMR_IOCTL_INFO, info);
		break;
	}
	return NULL;
}

/*
 * Run "@cmd @arg": 0 when it exited 0 within @secs; -1 when it still runs
 * (*@left: its pid, reaped once the fault is resolved), -2 when it failed.
 */
static int run_bounded(const char *cmd, const char *arg, int secs,
		       pid_t *left)
{
	struct timespec t0, t;
	int status;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		execlp(cmd, cmd, arg, (char *)NULL);
		_exit(127);
	}
	for (;;) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -2;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= secs) {
			*left = pid;
			return -1;
		}
		usleep(20 * 1000);
	}
}

/* INFO on a fresh file, in a child; its errno (negative), or -ETIME. */
static int other_file_info(const char *path, int secs, pid_t *left)
{
	struct mlx5_umr_ioc_info info;
	struct timespec t0, t;
	int status, fd;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		fd = open(path, O_RDWR);
		if (fd < 0)
			_exit(errno);
		_exit(-umr_info(fd, &info));
	}
	for (;;) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? -WEXITSTATUS(status) : -EINTR;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= secs) {
			*left = pid;
			return -ETIME;
		}
		usleep(20 * 1000);
	}
}

/* The errno a uapi ioctl may answer (uapi/linux/mlx5_umr.h). */
static bool documented(int ret)
{
	static const int ok[] = {
		0, -EINVAL, -E2BIG, -EOPNOTSUPP, -ENOTTY, -ENOENT, -ERANGE,
		-EOVERFLOW, -ENOSPC, -EBUSY, -EFAULT, -ENOMEM, -EINTR, -EIO,
		-ETIMEDOUT, -ENODEV,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ok); i++)
		if (ret == ok[i])
			return true;
	return false;
}

TEST_F_TIMEOUT(stall, others_go_on, 180)
{
	struct stall_arg a = { .self = self, .at = variant->at };
	struct pollfd pfd = { .fd = self->uffd, .events = POLLIN };
	struct mlx5_umr_ioc_info info;
	pid_t left[5] = { 0 };
	struct uffd_msg msg;
	struct timespec dl;
	bool removed;
	void *src;
	int i;

	src = umr_map(PAGE, 0);
	ASSERT_NE(NULL, src);
	stall_content(self, variant->at, src);
	if (variant->wp) {
		struct uffdio_writeprotect wp = {
			.range = { (uintptr_t)self->page, PAGE },
			.mode = UFFDIO_WRITEPROTECT_MODE_WP,
		};

		memcpy(self->page, src, PAGE);
		ASSERT_EQ(0, ioctl(self->uffd, UFFDIO_WRITEPROTECT, &wp));
	}
	self->ret = 1;
	ASSERT_EQ(0, pthread_create(&self->t, NULL, stall_thread, &a));
	if (!poll(&pfd, 1, 5000) && variant->at == STALL_REG_MR_PAGES) {
		/*
		 * A FOLL_LONGTERM pin that cannot drop mmap_lock (such as
		 * 6.1's pin_user_pages_fast() slow path) does not wait for
		 * userfaultfd: the fault fails at once, EFAULT.
		 */
		pthread_join(self->t, NULL);
		EXPECT_EQ(-EFAULT, self->ret);
		ksft_print_msg("REG_MR's pin did not wait for userfaultfd\n");
		munmap(src, PAGE);
		return;
	}
	ASSERT_EQ(1, poll(&pfd, 1, 0)) TH_LOG("the ioctl did not fault");
	ASSERT_EQ(sizeof(msg), read(self->uffd, &msg, sizeof(msg)));
	ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);
	EXPECT_EQ(!!variant->wp,
		  !!(msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WP));
	EXPECT_EQ(1, self->ret);	/* still waiting */

	/* another file's ioctl */
	EXPECT_EQ(0, other_file_info(self->path, BOUND_S, &left[0]))
		TH_LOG("another file's INFO waited for the fault");
	/* a client registers (and goes) */
	if (self->have_sample) {
		EXPECT_EQ(0, run_bounded("modprobe", SAMPLE, BOUND_S, &left[1]))
			TH_LOG("client registration waited for the fault");
		EXPECT_EQ(0, run_bounded("rmmod", SAMPLE, BOUND_S, &left[2]));
	}
	/* the HCA goes */
	removed = !run_bounded("rmmod", FAKE, BOUND_S, &left[3]);
	EXPECT_TRUE(removed) TH_LOG("HCA removal waited for the fault");
	EXPECT_EQ(1, self->ret);
	/* the stalled file answers ENODEV to others now */
	if (removed)
		EXPECT_EQ(-ENODEV, umr_info(self->fd, &info));
	if (self->have_sample) {
		EXPECT_EQ(0, run_bounded("modprobe", SAMPLE, BOUND_S, &left[4]))
			TH_LOG("registration after removal waited");
		if (!left[4])
			EXPECT_EQ(0, run_bounded("rmmod", SAMPLE, BOUND_S,
						 &left[2]));
	}

	/* resolve: the page appears or becomes writable */
	if (variant->wp) {
		struct uffdio_writeprotect wp = {
			.range = { (uintptr_t)self->page, PAGE },
		};

		ASSERT_EQ(0, ioctl(self->uffd, UFFDIO_WRITEPROTECT, &wp));
	} else {
		struct uffdio_copy copy = {
			.dst = (uintptr_t)self->page,
			.src = (uintptr_t)src,
			.len = PAGE,
		};

		ASSERT_EQ(0, ioctl(self->uffd, UFFDIO_COPY, &copy));
	}
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += BOUND_S;
	ASSERT_EQ(0, pthread_timedjoin_np(self->t, NULL, &dl))
		TH_LOG("the ioctl did not return once the fault resolved");
	EXPECT_TRUE(documented(self->ret)) TH_LOG("answered %d", self->ret);
	/* what faulted before the device lock never reached the device */
	if (!variant->wp)
		EXPECT_EQ(-ENODEV, self->ret);
	/* whatever was held up finishes now */
	for (i = 0; i < 5; i++)
		if (left[i])
			waitpid(left[i], NULL, 0);
	if (!access("/sys/module/mlx5_umr_sample", F_OK))
		EXPECT_EQ(0, system("rmmod mlx5_umr_sample"));
	munmap(src, PAGE);
}

TEST_HARNESS_MAIN
