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
 *   MLX5_UMR_UNPLUG_ROUNDS, default 10); every ioctl answers 0 or an errno
 *   of the documented list, nothing is left pinned, no thread hangs.
 *
 * Every test unloads and reloads the fake HCA: it needs to have loaded it.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <poll.h>
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
};

static void *stalled_thread(void *p)
{
	struct stalled *s = p;

	s->ret = umr_ioctl(s->fd, s->req, s->arg);
	return NULL;
}

/* A page whose reads succeed and whose writes wait for userfaultfd. */
static int wp_page(void **page)
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

/*
 * Run ioctl @req with @arg (inside the write-protected @page of @uffd) on
 * @fd, wait until its answer stalls, remove the HCA meanwhile, then let
 * the answer through. Returns the ioctl's result.
 */
static void stall_answer_and_remove(struct __test_metadata *_metadata,
				    int fd, unsigned long req, void *arg,
				    int uffd, void *page, int *ret)
{
	struct uffdio_writeprotect wp = { .mode = 0 };
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct stalled s = { .fd = fd, .req = req, .arg = arg };
	bool removed;
	struct uffd_msg msg;
	int status = -1;
	pthread_t t;
	pid_t pid;

	ASSERT_EQ(0, pthread_create(&t, NULL, stalled_thread, &s));
	ASSERT_EQ(1, poll(&pfd, 1, 5000)) TH_LOG("the answer never faulted");
	ASSERT_EQ(sizeof(msg), read(uffd, &msg, sizeof(msg)));
	EXPECT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);
	EXPECT_TRUE(msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WP);

	/* the ioctl waits in the answer's fault: the HCA goes meanwhile */
	removed = remove_fake_within(5000, &pid, &status);
	wp.range.start = (uintptr_t)page;
	wp.range.len = PAGE;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_WRITEPROTECT, &wp));
	pthread_join(t, NULL);
	if (!removed)
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(removed) TH_LOG("HCA removal waited for a user fault");
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
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
	struct mlx5_umr_ioc_alloc_mkey *cmd;
	struct mlx5_umr_ioc_info info;
	long vmpin = umr_vm_pinned_kb();
	void *page;
	int fd, uffd, ret = 1;

	if (!umr_loaded_fake)
		SKIP(return, "mlx5_umr_fake was loaded by someone else");
	fd = umr_open();
	ASSERT_LE(0, fd);
	uffd = wp_page(&page);
	if (uffd < 0)
		SKIP(close(fd); return, "no write-protect userfaultfd");
	cmd = page;
	cmd->size = sizeof(*cmd);
	cmd->max_entries = 4;
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
	struct mlx5_umr_ioc_batch_req *req;
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
	uffd = wp_page(&page);
	if (uffd < 0)
		SKIP(close(fd); return, "no write-protect userfaultfd");
	/* the entries are read only: the request array is written back */
	sge = malloc(sizeof(*sge));
	ASSERT_NE(NULL, sge);
	*sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)buf, 64, key };
	req = page;
	req->op = MLX5_UMR_IOC_BATCH_CONFIGURE;
	req->handle = mk;
	req->access = UMR_ACCESS_ALL3;
	req->layout = MLX5_UMR_IOC_LAYOUT_LIST;
	req->num_entries = 1;
	req->entries = (uintptr_t)sge;
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

TEST_HARNESS_MAIN
