// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr uapi selftests, on a fake HCA (mlx5_umr_fake).
 *
 * Every fixture checks at teardown, through a fresh file, that closing the
 * test's file left no object and no pinned page on the device and nothing
 * in this process's VmPin. Bad-input cases additionally check that the
 * failed call itself created nothing.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/userfaultfd.h>

#include "kselftest_harness.h"
#include "umr_util.h"

#define BUF_LEN		(2 * PAGE)
#define BIG_LEN		(8 * PAGE)

static __u8 pat(__u64 i)
{
	return (__u8)((i * 13 + 7) ^ (i >> 8));
}

static void fill_pat(__u8 *p, size_t len, __u64 seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = pat(i + seed);
}

FIXTURE(umr) {
	int fd;
	char path[256];
	struct mlx5_umr_ioc_info info0;	/* device, before the test */
	struct mlx5_umr_test_info test0;	/* its test interface */
	long long hca0[3];		/* the fake's counters, before */
	long vmpin0;
	__u8 *buf1, *buf2;
	__u32 mr1, key1, mr2, key2, mk, mkey;
	__u32 objs;			/* objects the fixture made */
	__u64 pages;			/* pages the fixture pinned */
};

/* What the HCA holds: its mkeys, mapped scatterlists and IOMMU pages. */
static const char * const hca_counters[3] = {
	"mkeys", "sg_maps", "iommu_pages"
};

FIXTURE_SETUP(umr)
{
	int fd0, i;

	ASSERT_EQ(0, umr_find_dev(self->path, sizeof(self->path)))
		TH_LOG("no fake mlx5-umr device");
	fd0 = open(self->path, O_RDWR);
	ASSERT_LE(0, fd0) TH_LOG("%s: %s", self->path, strerror(errno));
	for (i = 0; i < 3; i++)
		self->hca0[i] = umr_fake_counter(self->path, hca_counters[i]);
	ASSERT_EQ(0, umr_info(fd0, &self->info0));
	ASSERT_EQ(0, umr_test_info(fd0, &self->test0))
		TH_LOG("not a test build of mlx5_umr (MLX5_UMR_TESTING=1)");
	ASSERT_EQ(MLX5_UMR_TEST_INFO_FAKE, self->test0.out_flags);
	close(fd0);
	self->vmpin0 = umr_vm_pinned_kb();

	self->fd = umr_open();
	ASSERT_LE(0, self->fd);
	self->buf1 = umr_map(BUF_LEN, 0xa1);
	self->buf2 = umr_map(BUF_LEN, 0xb2);
	ASSERT_NE(NULL, self->buf1);
	ASSERT_NE(NULL, self->buf2);
	ASSERT_EQ(0, umr_reg(self->fd, self->buf1, BUF_LEN, UMR_ACCESS_ALL3,
			     &self->mr1, &self->key1));
	ASSERT_EQ(0, umr_reg(self->fd, self->buf2, BUF_LEN, UMR_ACCESS_ALL3,
			     &self->mr2, &self->key2));
	ASSERT_EQ(0, umr_alloc(self->fd, 8, &self->mk, &self->mkey));
	self->objs = 3;
	self->pages = 2 * BUF_LEN / PAGE;
}

/*
 * EXPECT, not ASSERT: after an ASSERT failed in the test, the 6.1
 * harness's handler flag is still set, and an ASSERT here would jump back
 * into the teardown (and one failing here would loop in it).
 */
FIXTURE_TEARDOWN(umr)
{
	struct mlx5_umr_ioc_info info = { 0 };
	int fd, i;

	close(self->fd);
	fd = umr_open();
	EXPECT_LE(0, fd);
	if (fd < 0)
		return;
	EXPECT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(self->info0.out_dev_objects, info.out_dev_objects);
	EXPECT_EQ(self->info0.out_dev_pinned_pages,
		  info.out_dev_pinned_pages);
	EXPECT_EQ(self->vmpin0, umr_vm_pinned_kb());
	close(fd);
	/* The HCA holds nothing more either (when debugfs is mounted). */
	for (i = 0; i < 3; i++)
		if (self->hca0[i] >= 0)
			EXPECT_EQ(self->hca0[i],
				  umr_fake_counter(self->path, hca_counters[i]))
				TH_LOG("fake counter #%d", i);
}

/* The failed call left the file's objects and pins as the fixture made. */
static void no_leak(struct __test_metadata *_metadata,
		    struct _test_data_umr *self, __u32 extra_objs,
		    __u64 extra_pages)
{
	__u64 pages = self->pages + extra_pages;
	__u32 objs = self->objs + extra_objs;
	struct mlx5_umr_ioc_info i;

	ASSERT_EQ(0, umr_info(self->fd, &i));
	EXPECT_EQ(objs, i.out_fd_objects);
	EXPECT_EQ(pages, i.out_fd_pinned_pages);
	EXPECT_EQ(self->info0.out_dev_objects + objs, i.out_dev_objects);
	EXPECT_EQ(self->info0.out_dev_pinned_pages + pages,
		  i.out_dev_pinned_pages);
	EXPECT_EQ(self->vmpin0 + (long)(pages * PAGE / 1024),
		  umr_vm_pinned_kb());
	/* one HCA mkey per object */
	if (self->hca0[0] >= 0)
		EXPECT_EQ(self->hca0[0] + objs,
			  umr_fake_counter(self->path, "mkeys"));
}

#define EXPECT_NO_LEAK(objs, pages) no_leak(_metadata, self, objs, pages)

/* The same, for this file only (while other files hold objects). */
static void fd_no_leak(struct __test_metadata *_metadata,
		       struct _test_data_umr *self)
{
	struct mlx5_umr_ioc_info i;

	ASSERT_EQ(0, umr_info(self->fd, &i));
	EXPECT_EQ(self->objs, i.out_fd_objects);
	EXPECT_EQ(self->pages, i.out_fd_pinned_pages);
}

#define EXPECT_FD_NO_LEAK() fd_no_leak(_metadata, self)

/*
 * iommufd's TEST_LENGTH, plus the reserved field. @init builds a valid
 * command; @ok checks and undoes a successful one, @fail cleans up after a
 * refused one. @first is the size of the structure's first version when
 * it has grown since (0: it has not).
 */
struct len_case {
	unsigned long ioctl;
	__u32 size;
	size_t reserved;	/* offset of __reserved */
	void (*init)(struct __test_metadata *_metadata,
		     struct _test_data_umr *self, void *cmd);
	void (*ok)(struct __test_metadata *_metadata,
		   struct _test_data_umr *self, void *cmd);
	void (*fail)(struct __test_metadata *_metadata,
		     struct _test_data_umr *self, void *cmd);
	__u32 first;
};

static void run_length(struct __test_metadata *_metadata,
		       struct _test_data_umr *self, const struct len_case *c)
{
	static const struct {
		int zero;	/* size = 0 */
		int delta;	/* else size = sizeof + delta */
		int tail;	/* a non-zero byte past sizeof */
		int reserved;	/* __reserved = 1 */
		int err;
	} bad[] = {
		{ 0, -1, 0, 0, -EINVAL },
		{ 1, 0, 0, 0, -EINVAL },
		{ 0, 8, 1, 0, -E2BIG },
		{ 0, 0, 0, 1, -EINVAL },
	};
	union {
		__u8 raw[256];
		__u64 align;
	} buf;
	__u32 *size = (__u32 *)buf.raw;
	unsigned int k;
	int i;

	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		memset(&buf, 0, sizeof(buf));
		c->init(_metadata, self, buf.raw);
		*size = bad[k].zero ? 0 :
			(bad[k].delta < 0 && c->first ? c->first : c->size) +
			bad[k].delta;
		if (bad[k].tail)
			buf.raw[c->size + 7] = 1;
		if (bad[k].reserved)
			*(__u32 *)(buf.raw + c->reserved) = 1;
		EXPECT_EQ(bad[k].err, umr_ioctl(self->fd, c->ioctl, buf.raw))
			TH_LOG("case %u", k);
		if (c->fail)
			c->fail(_metadata, self, buf.raw);
	}
	EXPECT_NO_LEAK(0, 0);

	/* Longer with a zero tail: works, and the tail is not written. */
	memset(&buf, 0, sizeof(buf));
	c->init(_metadata, self, buf.raw);
	*size = c->size + 8;
	ASSERT_EQ(0, umr_ioctl(self->fd, c->ioctl, buf.raw));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(0, buf.raw[c->size + i]);
	if (c->ok)
		c->ok(_metadata, self, buf.raw);
	/* The exact size works. */
	memset(&buf, 0, sizeof(buf));
	c->init(_metadata, self, buf.raw);
	*size = c->size;
	ASSERT_EQ(0, umr_ioctl(self->fd, c->ioctl, buf.raw));
	if (c->ok)
		c->ok(_metadata, self, buf.raw);
	/* The first version still works. */
	if (c->first) {
		memset(&buf, 0, sizeof(buf));
		c->init(_metadata, self, buf.raw);
		*size = c->first;
		ASSERT_EQ(0, umr_ioctl(self->fd, c->ioctl, buf.raw));
		for (i = c->first; i < (int)c->size; i++)
			EXPECT_EQ(0, buf.raw[i]);
		if (c->ok)
			c->ok(_metadata, self, buf.raw);
	}
	EXPECT_NO_LEAK(0, 0);
}

#define LEN_FN(name) \
	static void name(struct __test_metadata *_metadata, \
			 struct _test_data_umr *self, void *arg)

LEN_FN(info_init)
{
}

LEN_FN(info_ok)
{
	struct mlx5_umr_ioc_info *cmd = arg;

	EXPECT_EQ(self->objs, cmd->out_fd_objects);
	EXPECT_EQ(0, strncmp(cmd->out_name, "fake", 4));
}

/*
 * The files post on a queue of their own (Documentation/service.rst,
 * "Queues and ordering"), so an error or stall a user causes never
 * recovers a queue the kernel's consumers post on: once a file has an
 * mkey the HCA has one QP more than the device's UMR queues (INFO
 * out_nqueues), and a user's configure runs on exactly one QP.
 */
TEST_F(umr, files_own_queue)
{
	unsigned long long w0[64], w1[64];
	unsigned int q0[64], q1[64];
	struct mlx5_umr_ioc_sge sge = {
		.addr = (uintptr_t)self->buf1, .length = 64, .lkey = self->key1,
	};
	int n0, n1, i, ran = 0;

	n0 = umr_fake_qps(self->path, q0, w0, NULL, 64);
	if (n0 < 0)
		SKIP(return, "no debugfs of the fake");
	ASSERT_LE(1, self->info0.out_nqueues);
	EXPECT_EQ(self->info0.out_nqueues + 1, n0);
	ASSERT_EQ(0, umr_config_list(self->fd, self->mk, &sge, 1, NULL));
	n1 = umr_fake_qps(self->path, q1, w1, NULL, 64);
	ASSERT_EQ(n0, n1);
	for (i = 0; i < n0; i++) {
		ASSERT_EQ(q0[i], q1[i]);
		if (w1[i] != w0[i])
			ran++;
	}
	EXPECT_EQ(1, ran);
}

TEST_F(umr, length_info)
{
	static const struct len_case c = {
		MLX5_UMR_IOCTL_INFO, sizeof(struct mlx5_umr_ioc_info),
		offsetof(struct mlx5_umr_ioc_info, __reserved),
		info_init, info_ok, NULL,
		/* the first version ended with out_name */
		offsetof(struct mlx5_umr_ioc_info, out_max_batch),
	};

	run_length(_metadata, self, &c);
}

/* The second version of INFO (the batch limits) is answered up to its end. */
TEST_F(umr, length_info_second_version)
{
	union {
		struct mlx5_umr_ioc_info info;
		__u8 raw[sizeof(struct mlx5_umr_ioc_info)];
	} buf;
	__u32 v2 = offsetof(struct mlx5_umr_ioc_info,
			    out_max_interleaved_entries);
	unsigned int i;

	memset(&buf, 0, sizeof(buf));
	buf.info.size = v2;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_INFO, &buf.info));
	EXPECT_EQ(128, buf.info.out_max_batch);
	EXPECT_EQ(1 << 20, buf.info.out_max_batch_bytes);
	EXPECT_EQ(0, strncmp(buf.info.out_name, "fake", 4));
	/* Nothing past what this caller knows is written. */
	for (i = v2; i < sizeof(buf.raw); i++)
		EXPECT_EQ(0, buf.raw[i]);
}

LEN_FN(reg_init)
{
	struct mlx5_umr_ioc_reg_mr *cmd = arg;

	cmd->access = UMR_ACCESS_ALL3;
	cmd->addr = (uintptr_t)self->buf1;
	cmd->length = 100;
}

LEN_FN(reg_ok)
{
	struct mlx5_umr_ioc_reg_mr *cmd = arg;

	EXPECT_EQ(cmd->out_lkey, cmd->out_rkey);
	EXPECT_EQ(0, umr_destroy(self->fd, cmd->out_handle));
}

TEST_F(umr, length_reg_mr)
{
	static const struct len_case c = {
		MLX5_UMR_IOCTL_REG_MR, sizeof(struct mlx5_umr_ioc_reg_mr),
		offsetof(struct mlx5_umr_ioc_reg_mr, __reserved),
		reg_init, reg_ok, NULL,
	};

	run_length(_metadata, self, &c);
}

LEN_FN(alloc_init)
{
	struct mlx5_umr_ioc_alloc_mkey *cmd = arg;

	cmd->max_entries = 4;
}

LEN_FN(alloc_ok)
{
	struct mlx5_umr_ioc_alloc_mkey *cmd = arg;

	EXPECT_NE(0, cmd->out_key);
	EXPECT_EQ(0, umr_destroy(self->fd, cmd->out_handle));
}

TEST_F(umr, length_alloc_mkey)
{
	static const struct len_case c = {
		MLX5_UMR_IOCTL_ALLOC_MKEY,
		sizeof(struct mlx5_umr_ioc_alloc_mkey),
		offsetof(struct mlx5_umr_ioc_alloc_mkey, __reserved),
		alloc_init, alloc_ok, NULL,
	};

	run_length(_metadata, self, &c);
}

static struct mlx5_umr_ioc_sge one_sge;

LEN_FN(configure_init)
{
	struct mlx5_umr_ioc_configure *cmd = arg;

	one_sge.addr = (uintptr_t)self->buf1 + 8;
	one_sge.length = 100;
	one_sge.lkey = self->key1;
	cmd->handle = self->mk;
	cmd->access = UMR_ACCESS_ALL3;
	cmd->layout = MLX5_UMR_IOC_LAYOUT_LIST;
	cmd->num_entries = 1;
	cmd->entries = (uintptr_t)&one_sge;
}

LEN_FN(configure_ok)
{
	struct mlx5_umr_ioc_configure *cmd = arg;

	EXPECT_EQ(100, cmd->out_length);
}

TEST_F(umr, length_configure)
{
	static const struct len_case c = {
		MLX5_UMR_IOCTL_CONFIGURE,
		sizeof(struct mlx5_umr_ioc_configure),
		offsetof(struct mlx5_umr_ioc_configure, __reserved),
		configure_init, configure_ok, NULL,
		offsetof(struct mlx5_umr_ioc_configure, out_key),
	};

	run_length(_metadata, self, &c);
}

LEN_FN(invalidate_init)
{
	struct mlx5_umr_ioc_invalidate *cmd = arg;

	one_sge.addr = (uintptr_t)self->buf1;
	one_sge.length = 64;
	one_sge.lkey = self->key1;
	ASSERT_EQ(0, umr_config_list(self->fd, self->mk, &one_sge, 1, NULL));
	cmd->handle = self->mk;
}

TEST_F(umr, length_invalidate)
{
	static const struct len_case c = {
		MLX5_UMR_IOCTL_INVALIDATE,
		sizeof(struct mlx5_umr_ioc_invalidate),
		offsetof(struct mlx5_umr_ioc_invalidate, __reserved),
		invalidate_init, NULL, NULL,
		offsetof(struct mlx5_umr_ioc_invalidate, out_key),
	};

	run_length(_metadata, self, &c);
}

LEN_FN(destroy_init)
{
	struct mlx5_umr_ioc_destroy *cmd = arg;
	__u32 h;

	ASSERT_EQ(0, umr_alloc(self->fd, 2, &h, NULL));
	cmd->handle = h;
}

LEN_FN(destroy_ok)
{
	struct mlx5_umr_ioc_destroy *cmd = arg;

	EXPECT_EQ(-ENOENT, umr_destroy(self->fd, cmd->handle));
}

LEN_FN(destroy_fail)
{
	struct mlx5_umr_ioc_destroy *cmd = arg;

	EXPECT_EQ(0, umr_destroy(self->fd, cmd->handle));
}

TEST_F(umr, length_destroy)
{
	static const struct len_case c = {
		MLX5_UMR_IOCTL_DESTROY, sizeof(struct mlx5_umr_ioc_destroy),
		offsetof(struct mlx5_umr_ioc_destroy, __reserved),
		destroy_init, destroy_ok, destroy_fail,
	};

	run_length(_metadata, self, &c);
}

static __u8 xfer_buf[64];

LEN_FN(xfer_init)
{
	struct mlx5_umr_test_xfer *cmd = arg;

	cmd->flags = MLX5_UMR_TEST_XFER_WRITE;
	cmd->key = self->key1;
	cmd->offset = (uintptr_t)self->buf1;
	cmd->buf = (uintptr_t)xfer_buf;
	cmd->length = sizeof(xfer_buf);
}

LEN_FN(xfer_ok)
{
	struct mlx5_umr_test_xfer *cmd = arg;

	EXPECT_EQ(0, cmd->out_status);
}

TEST_F(umr, length_xfer)
{
	static const struct len_case c = {
		MLX5_UMR_TEST_IOCTL_XFER, sizeof(struct mlx5_umr_test_xfer),
		offsetof(struct mlx5_umr_test_xfer, __reserved),
		xfer_init, xfer_ok, NULL,
		/* the first version ended with __reserved2 (then: signature) */
		offsetof(struct mlx5_umr_test_xfer, out_flags),
	};

	run_length(_metadata, self, &c);
}

LEN_FN(test_info_ok)
{
	struct mlx5_umr_test_info *cmd = arg;

	EXPECT_EQ(MLX5_UMR_TEST_INFO_FAKE, cmd->out_flags);
	EXPECT_EQ(1 << 20, cmd->out_max_xfer);
}

TEST_F(umr, length_test_info)
{
	static const struct len_case c = {
		MLX5_UMR_TEST_IOCTL_INFO, sizeof(struct mlx5_umr_test_info),
		offsetof(struct mlx5_umr_test_info, __reserved),
		info_init, test_info_ok, NULL,
	};

	run_length(_metadata, self, &c);
}

/* A transfer is bounded by out_max_xfer of MLX5_UMR_TEST_IOCTL_INFO. */
TEST_F(umr, xfer_max)
{
	struct mlx5_umr_test_info ti = { .size = sizeof(ti), .flags = 1 };

	EXPECT_EQ(-EOPNOTSUPP,
		  umr_ioctl(self->fd, MLX5_UMR_TEST_IOCTL_INFO, &ti));
	EXPECT_EQ(-EINVAL, umr_xfer(self->fd, self->key1,
				    (uintptr_t)self->buf1, xfer_buf,
				    self->test0.out_max_xfer + 1, 1));
	EXPECT_EQ(0, umr_xfer(self->fd, self->key1, (uintptr_t)self->buf1,
			      xfer_buf, sizeof(xfer_buf), 1));
	EXPECT_NO_LEAK(0, 0);
}

/* The second reserved field of the structures that have one. */
TEST_F(umr, reserved2)
{
	struct mlx5_umr_ioc_info info = { .size = sizeof(info) };
	struct mlx5_umr_ioc_reg_mr reg = {
		.size = sizeof(reg),
		.addr = (uintptr_t)self->buf1,
		.length = 64,
		.__reserved2 = 1,
	};
	struct mlx5_umr_test_xfer x = {
		.size = sizeof(x),
		.key = self->key1,
		.offset = (uintptr_t)self->buf1,
		.buf = (uintptr_t)xfer_buf,
		.length = 8,
		.__reserved2 = 1,
	};

	struct mlx5_umr_ioc_configure cf = {
		.size = sizeof(cf), .handle = self->mk,
		.access = UMR_ACCESS_ALL3,
		.layout = MLX5_UMR_IOC_LAYOUT_LIST, .num_entries = 1,
		.entries = (uintptr_t)&one_sge, .__reserved2 = 1,
	};
	struct mlx5_umr_ioc_invalidate inv = {
		.size = sizeof(inv), .handle = self->mk, .__reserved2 = 1,
	};

	one_sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf1, 8,
					     self->key1 };
	info.__reserved2 = 1;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_INFO, &info));
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_REG_MR, &reg));
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_TEST_IOCTL_XFER, &x));
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	EXPECT_EQ(-EINVAL,
		  umr_ioctl(self->fd, MLX5_UMR_IOCTL_INVALIDATE, &inv));
	EXPECT_NO_LEAK(0, 0);
}

TEST_F(umr, unknown_ioctl)
{
	struct mlx5_umr_ioc_info info = { .size = sizeof(info) };

	EXPECT_EQ(-ENOTTY, umr_ioctl(self->fd,
				     _IO(MLX5_UMR_IOC_TYPE, 0x7f), &info));
	EXPECT_EQ(-ENOTTY, umr_ioctl(self->fd, _IO(MLX5_UMR_IOC_TYPE,
						   MLX5_UMR_CMD_DEK_CREATE + 1),
				     &info));
	EXPECT_EQ(-ENOTTY, umr_ioctl(self->fd, _IO(MLX5_UMR_IOC_TYPE,
						   MLX5_UMR_CMD_TEST_INFO - 1),
				     &info));
	EXPECT_EQ(-ENOTTY, umr_ioctl(self->fd, _IO(MLX5_UMR_IOC_TYPE,
						   MLX5_UMR_CMD_TEST_XFER + 1),
				     &info));
	EXPECT_EQ(-ENOTTY, umr_ioctl(self->fd, _IOWR(MLX5_UMR_IOC_TYPE,
						     MLX5_UMR_CMD_INFO,
						     struct mlx5_umr_ioc_info),
				     &info));
	EXPECT_EQ(-EFAULT, umr_ioctl(self->fd, MLX5_UMR_IOCTL_INFO, NULL));
}

TEST_F(umr, unknown_flags)
{
	struct mlx5_umr_ioc_info info = { .size = sizeof(info), .flags = 1 };
	struct mlx5_umr_ioc_reg_mr reg = {
		.size = sizeof(reg), .flags = 1,
		.addr = (uintptr_t)self->buf1, .length = 64,
	};
	struct mlx5_umr_ioc_alloc_mkey al = {
		.size = sizeof(al), .flags = 2, .max_entries = 2,
	};
	struct mlx5_umr_ioc_configure cf = {
		.size = sizeof(cf), .handle = self->mk, .flags = 2,
		.layout = MLX5_UMR_IOC_LAYOUT_LIST, .num_entries = 1,
		.entries = (uintptr_t)&one_sge,
	};
	struct mlx5_umr_ioc_invalidate inv = {
		.size = sizeof(inv), .handle = self->mk, .flags = 2,
	};
	struct mlx5_umr_ioc_destroy de = {
		.size = sizeof(de), .handle = self->mk, .flags = 1,
	};
	struct mlx5_umr_test_xfer x = {
		.size = sizeof(x), .flags = 8, .key = self->key1,
		.offset = (uintptr_t)self->buf1, .buf = (uintptr_t)xfer_buf,
		.length = 8,
	};

	one_sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf1, 8,
					     self->key1 };
	EXPECT_EQ(-EOPNOTSUPP, umr_ioctl(self->fd, MLX5_UMR_IOCTL_INFO, &info));
	EXPECT_EQ(-EOPNOTSUPP, umr_ioctl(self->fd, MLX5_UMR_IOCTL_REG_MR, &reg));
	EXPECT_EQ(-EOPNOTSUPP,
		  umr_ioctl(self->fd, MLX5_UMR_IOCTL_ALLOC_MKEY, &al));
	EXPECT_EQ(-EOPNOTSUPP,
		  umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	EXPECT_EQ(-EOPNOTSUPP,
		  umr_ioctl(self->fd, MLX5_UMR_IOCTL_INVALIDATE, &inv));
	EXPECT_EQ(-EOPNOTSUPP,
		  umr_ioctl(self->fd, MLX5_UMR_IOCTL_DESTROY, &de));
	EXPECT_EQ(-EOPNOTSUPP, umr_ioctl(self->fd, MLX5_UMR_TEST_IOCTL_XFER, &x));
	EXPECT_NO_LEAK(0, 0);
}

TEST_F(umr, unknown_handle)
{
	struct mlx5_umr_ioc_sge sge = { (uintptr_t)self->buf1, 8, self->key1 };

	EXPECT_EQ(-ENOENT, umr_destroy(self->fd, 0));
	EXPECT_EQ(-ENOENT, umr_destroy(self->fd, 9999));
	EXPECT_EQ(-ENOENT, umr_invalidate(self->fd, 9999));
	EXPECT_EQ(-ENOENT, umr_config_list(self->fd, 9999, &sge, 1, NULL));
	/* A registration is not an indirect mkey. */
	EXPECT_EQ(-ENOENT, umr_config_list(self->fd, self->mr1, &sge, 1,
					   NULL));
	EXPECT_EQ(-ENOENT, umr_invalidate(self->fd, self->mr1));
	/* A layout names registered memory only, by lkey. */
	sge.lkey = self->mkey;
	EXPECT_EQ(-ENOENT, umr_config_list(self->fd, self->mk, &sge, 1, NULL));
	sge.lkey = self->key1 ^ 0xff;
	EXPECT_EQ(-ENOENT, umr_config_list(self->fd, self->mk, &sge, 1, NULL));
	EXPECT_EQ(-ENOENT, umr_xfer(self->fd, self->key1 ^ 0xff, 0, xfer_buf,
				    8, 1));
	EXPECT_NO_LEAK(0, 0);
}

TEST_F(umr, other_fd)
{
	struct mlx5_umr_ioc_sge sge;
	__u32 h[8], key = 0, i;
	int fd2 = umr_open();

	ASSERT_LE(0, fd2);
	/* fd2's handles go past ours so that the numbers are unknown here. */
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, umr_alloc(fd2, 2, &h[i], NULL));
	ASSERT_EQ(0, umr_reg(fd2, self->buf1, 64, UMR_ACCESS_ALL3, NULL,
			     &key));
	sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf1, 8, key };
	EXPECT_EQ(-ENOENT, umr_config_list(self->fd, self->mk, &sge, 1, NULL));
	EXPECT_EQ(-ENOENT, umr_destroy(self->fd, h[7]));
	EXPECT_EQ(-ENOENT, umr_invalidate(self->fd, h[7]));
	EXPECT_EQ(-ENOENT, umr_config_list(self->fd, h[7], &sge, 1, NULL));
	EXPECT_EQ(-ENOENT, umr_xfer(self->fd, key, (uintptr_t)self->buf1,
				    xfer_buf, 8, 1));
	/* and the other way round */
	sge.lkey = self->key1;
	EXPECT_EQ(-ENOENT, umr_config_list(fd2, h[0], &sge, 1, NULL));
	EXPECT_FD_NO_LEAK();
	close(fd2);
	EXPECT_NO_LEAK(0, 0);
}

TEST_F(umr, range_outside)
{
	uintptr_t a = (uintptr_t)self->buf1;
	struct mlx5_umr_ioc_sge sge[2] = {
		{ a, 8, self->key1 },
		{ a + BUF_LEN - 8, 9, self->key1 },	/* one byte past */
	};
	struct mlx5_umr_ioc_interleaved il = {
		.addr = a, .bytes_count = 512, .bytes_skip = 4,
		.lkey = self->key1,
	};

	EXPECT_EQ(-ERANGE, umr_config_list(self->fd, self->mk, sge, 2, NULL));
	sge[1].addr = a - 1;
	sge[1].length = 8;
	EXPECT_EQ(-ERANGE, umr_config_list(self->fd, self->mk, sge, 2, NULL));
	/* The last cycle must end inside: 16 * 516 > 8192. */
	EXPECT_EQ(-ERANGE, umr_config_il(self->fd, self->mk, &il, 1, 16, NULL));
	/* 15 cycles end at 14 * 516 + 512 = 7736: fine. */
	EXPECT_EQ(0, umr_config_il(self->fd, self->mk, &il, 1, 15, NULL));
	/* Memory of the same file, but the range runs into another buffer. */
	sge[1] = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf2 + 8,
					    BUF_LEN, self->key2 };
	EXPECT_EQ(-ERANGE, umr_config_list(self->fd, self->mk, sge, 2, NULL));
	EXPECT_NO_LEAK(0, 0);
}

TEST_F(umr, zero_length)
{
	struct mlx5_umr_ioc_sge sge = { (uintptr_t)self->buf1, 0, self->key1 };
	struct mlx5_umr_ioc_interleaved il = {
		.addr = (uintptr_t)self->buf1, .bytes_count = 0,
		.bytes_skip = 4, .lkey = self->key1,
	};
	__u32 h;

	EXPECT_EQ(-EINVAL, umr_config_list(self->fd, self->mk, &sge, 1, NULL));
	sge.length = 8;
	EXPECT_EQ(-EINVAL, umr_config_list(self->fd, self->mk, &sge, 0, NULL));
	EXPECT_EQ(-EINVAL, umr_config_il(self->fd, self->mk, &il, 1, 1, NULL));
	il.bytes_count = 8;
	EXPECT_EQ(-EINVAL, umr_config_il(self->fd, self->mk, &il, 1, 0, NULL));
	EXPECT_EQ(-EINVAL, umr_reg(self->fd, self->buf1, 0, 0, NULL, NULL));
	EXPECT_EQ(-EINVAL, umr_alloc(self->fd, 0, &h, NULL));
	EXPECT_EQ(-EINVAL, umr_xfer(self->fd, self->key1,
				    (uintptr_t)self->buf1, xfer_buf, 0, 1));
	EXPECT_NO_LEAK(0, 0);
}

TEST_F(umr, too_many_entries)
{
	struct mlx5_umr_ioc_sge sge[9];
	struct mlx5_umr_ioc_interleaved il[9];
	__u32 i, small;

	for (i = 0; i < 9; i++) {
		sge[i] = (struct mlx5_umr_ioc_sge){
			(uintptr_t)self->buf1 + 16 * i, 16, self->key1 };
		il[i] = (struct mlx5_umr_ioc_interleaved){
			.addr = (uintptr_t)self->buf1 + 16 * i,
			.bytes_count = 8, .bytes_skip = 8,
			.lkey = self->key1 };
	}
	/* Rules 11 and 15 of Documentation/validation.rst: ENOMEM. */
	EXPECT_EQ(-ENOMEM, umr_config_list(self->fd, self->mk, sge, 9, NULL));
	EXPECT_EQ(0, umr_config_list(self->fd, self->mk, sge, 8, NULL));
	/* The mkey was created with one more entry for the header. */
	EXPECT_EQ(-ENOMEM, umr_config_il(self->fd, self->mk, il, 9, 1, NULL));
	EXPECT_EQ(0, umr_config_il(self->fd, self->mk, il, 8, 1, NULL));
	EXPECT_EQ(-ENOSPC, umr_alloc(self->fd, self->info0.out_max_entries + 1,
				     &small, NULL));
	EXPECT_EQ(-ENOSPC, umr_alloc(self->fd, UINT32_MAX, &small, NULL));
	ASSERT_EQ(0, umr_alloc(self->fd, 1, &small, NULL));
	EXPECT_EQ(-ENOMEM, umr_config_il(self->fd, small, il, 2, 1, NULL));
	EXPECT_EQ(0, umr_config_il(self->fd, small, il, 1, 1, NULL));
	EXPECT_EQ(0, umr_destroy(self->fd, small));
	EXPECT_NO_LEAK(0, 0);
}

/*
 * INFO reports the real limits: an mkey of out_max_entries takes a list of
 * that many entries and an interleaved layout of
 * out_max_interleaved_entries; ALLOC_MKEY refuses more (ENOSPC), and a
 * layout beyond them is ENOMEM, as documented.
 */
TEST_F(umr, entry_limits_consistent)
{
	__u32 max = self->info0.out_max_entries, i, h;
	struct mlx5_umr_ioc_interleaved *il;
	struct mlx5_umr_ioc_sge *sge;

	ASSERT_LT(8, max);
	EXPECT_EQ(max - 1, self->info0.out_max_interleaved_entries);
	sge = calloc(max + 1, sizeof(*sge));
	il = calloc(max + 1, sizeof(*il));
	ASSERT_NE(NULL, sge);
	ASSERT_NE(NULL, il);
	for (i = 0; i <= max; i++) {
		sge[i] = (struct mlx5_umr_ioc_sge){
			(uintptr_t)self->buf1 + i % BUF_LEN, 1, self->key1 };
		il[i] = (struct mlx5_umr_ioc_interleaved){
			.addr = (uintptr_t)self->buf1 + i % BUF_LEN,
			.bytes_count = 1, .lkey = self->key1 };
	}
	EXPECT_EQ(-ENOSPC, umr_alloc(self->fd, max + 1, &h, NULL));
	ASSERT_EQ(0, umr_alloc(self->fd, max, &h, NULL));
	EXPECT_EQ(0, umr_config_list(self->fd, h, sge, max, NULL));
	EXPECT_EQ(-ENOMEM, umr_config_list(self->fd, h, sge, max + 1, NULL));
	EXPECT_EQ(0, umr_config_il(self->fd, h, il, max - 1, 1, NULL));
	EXPECT_EQ(-ENOMEM, umr_config_il(self->fd, h, il, max, 1, NULL));
	EXPECT_EQ(0, umr_destroy(self->fd, h));
	free(sge);
	free(il);
	EXPECT_NO_LEAK(0, 0);
}

/*
 * A registration larger than MLX5_UMR_IOC_MAX_REG_PAGES is ENOSPC before
 * anything is pinned (the range need not even be mapped); a firmware
 * status never reaches userspace (EIO, not EREMOTEIO).
 */
TEST_F(umr, registration_limits)
{
	__u8 *hole = (__u8 *)(uintptr_t)(64 * PAGE);
	struct mlx5_umr_ioc_info info;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(MLX5_UMR_IOC_MAX_REG_PAGES, info.out_max_reg_pages);
	EXPECT_EQ(-ENOSPC, umr_reg(self->fd, hole,
				   (MLX5_UMR_IOC_MAX_REG_PAGES + 1ULL) * PAGE,
				   UMR_ACCESS_ALL3, NULL, NULL));
	EXPECT_EQ(-ENOSPC, umr_reg(self->fd, hole + 1,
				   MLX5_UMR_IOC_MAX_REG_PAGES * (__u64)PAGE,
				   UMR_ACCESS_ALL3, NULL, NULL));
	/* at the limit it is the memory that is missing */
	EXPECT_EQ(-EFAULT, umr_reg(self->fd, hole,
				   MLX5_UMR_IOC_MAX_REG_PAGES * (__u64)PAGE,
				   UMR_ACCESS_ALL3, NULL, NULL));
	EXPECT_NO_LEAK(0, 0);
	/* MLX5_CMD_OP_CREATE_MKEY, MLX5_CMD_STAT_BAD_PARAM_ERR */
	if (umr_fake_knob(self->path, "fail_cmd", "0x200 0x3 0x1"))
		SKIP(return, "needs the fake's debugfs");
	EXPECT_EQ(-EIO, umr_reg(self->fd, self->buf1, 64, UMR_ACCESS_ALL3,
				NULL, NULL));
	EXPECT_NO_LEAK(0, 0);
}

/*
 * Read-only memory registered for reading works (pinned without
 * FOLL_WRITE, as ib_umem_get() does); asking for write access to it is
 * EFAULT.
 */
TEST_F(umr, read_only_memory)
{
	__u8 *b = umr_map(2 * PAGE, 0x6d), out[64];
	__u32 h, key;

	ASSERT_NE(NULL, b);
	fill_pat(b, 2 * PAGE, 5);
	ASSERT_EQ(0, mprotect(b, 2 * PAGE, PROT_READ));
	EXPECT_EQ(-EFAULT, umr_reg(self->fd, b, 2 * PAGE,
				   MLX5_UMR_IOC_ACCESS_LOCAL_WRITE, NULL,
				   NULL));
	EXPECT_NO_LEAK(0, 0);
	ASSERT_EQ(0, umr_reg(self->fd, b, 2 * PAGE,
			     MLX5_UMR_IOC_ACCESS_REMOTE_READ, &h, &key));
	EXPECT_NO_LEAK(1, 2);
	/* the HCA reads what is there */
	ASSERT_EQ(0, umr_xfer(self->fd, key, (uintptr_t)b + PAGE - 8, out,
			      sizeof(out), 0));
	EXPECT_EQ(0, memcmp(out, b + PAGE - 8, sizeof(out)));
	EXPECT_EQ(0, umr_destroy(self->fd, h));
	EXPECT_NO_LEAK(0, 0);
}

/*
 * Issue 30: a layout grants no right its registrations lack: write access
 * over memory registered (and pinned) for reading is EACCES, nothing
 * configured, the registration free to go; a read layout is fine.
 */
TEST_F(umr, layout_access_within_registration)
{
	__u8 *b = umr_map(PAGE, 0x4e), out[64];
	struct mlx5_umr_ioc_configure rd = {
		.size = sizeof(rd), .access = MLX5_UMR_IOC_ACCESS_REMOTE_READ,
		.layout = MLX5_UMR_IOC_LAYOUT_LIST, .num_entries = 1,
	};
	struct mlx5_umr_ioc_sge sge;
	__u32 h, key, mk, mkey;
	static const __u32 over[] = {
		MLX5_UMR_IOC_ACCESS_LOCAL_WRITE,
		MLX5_UMR_IOC_ACCESS_LOCAL_WRITE |
			MLX5_UMR_IOC_ACCESS_REMOTE_WRITE,
		MLX5_UMR_IOC_ACCESS_REMOTE_READ | MLX5_UMR_IOC_ACCESS_LOCAL_WRITE,
	};
	unsigned int i;

	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, mprotect(b, PAGE, PROT_READ));
	ASSERT_EQ(0, umr_reg(self->fd, b, PAGE,
			     MLX5_UMR_IOC_ACCESS_REMOTE_READ, &h, &key));
	ASSERT_EQ(0, umr_alloc(self->fd, 1, &mk, &mkey));
	sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)b, 64, key };
	for (i = 0; i < ARRAY_SIZE(over); i++) {
		struct mlx5_umr_ioc_configure cf = {
			.size = sizeof(cf), .handle = mk, .access = over[i],
			.layout = MLX5_UMR_IOC_LAYOUT_LIST, .num_entries = 1,
			.entries = (uintptr_t)&sge,
		};

		EXPECT_EQ(-EACCES,
			  umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf))
			TH_LOG("access 0x%x", over[i]);
	}
	/* still free: nothing reads through it */
	EXPECT_NE(0, umr_xfer(self->fd, mkey, 0, out, 1, 0));
	EXPECT_EQ(-EACCES, umr_config_list(self->fd, mk, &sge, 1, NULL));
	/* registered for reading, configured for reading: fine */
	rd.handle = mk;
	rd.entries = (uintptr_t)&sge;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &rd));
	ASSERT_EQ(0, umr_xfer(self->fd, mkey, 0, out, sizeof(out), 0));
	EXPECT_EQ(0x4e, out[0]);
	EXPECT_EQ(0, umr_destroy(self->fd, mk));
	EXPECT_EQ(0, umr_destroy(self->fd, h));
	munmap(b, PAGE);
}

static int drop_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[cap / 32].effective &= ~(1U << (cap % 32));
	return syscall(SYS_capset, &hdr, data);
}

/* Device-wide counters only for CAP_SYS_ADMIN; the file's own for all. */
TEST_F(umr, info_dev_counters_privileged)
{
	struct mlx5_umr_ioc_info info;
	int status;
	pid_t pid;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_LE(self->objs, info.out_dev_objects);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (drop_cap(CAP_SYS_ADMIN) || umr_info(self->fd, &info))
			_exit(10);
		if (info.out_fd_objects != self->objs ||
		    info.out_fd_pinned_pages != self->pages)
			_exit(11);
		if (info.out_dev_objects || info.out_dev_pinned_pages)
			_exit(12);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * A file's indirect mkeys are bounded: by count and by translation bytes
 * (kernel memory the device reads, not chargeable to a memory cgroup).
 */
TEST_F(umr, mkey_caps_per_file)
{
	__u32 max = self->info0.out_max_entries, n, h;
	struct mlx5_umr_ioc_info info;
	int fd2 = umr_open();
	__u64 each;

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, umr_info(fd2, &info));
	EXPECT_EQ(MLX5_UMR_IOC_MAX_FD_MKEYS, info.out_max_fd_mkeys);
	EXPECT_EQ(MLX5_UMR_IOC_MAX_FD_XLT_BYTES, info.out_max_fd_xlt_bytes);
	EXPECT_EQ(MLX5_UMR_IOC_MAX_INFLIGHT_BBS, info.out_max_inflight_bbs);
	EXPECT_EQ(0, info.out_fd_xlt_bytes);
	/*
	 * A table is counted as allocated: max_entries + 1 entries of 16
	 * bytes, rounded up to 4 entries, then to whole pages.
	 */
	ASSERT_EQ(0, umr_alloc(fd2, max, &h, NULL));
	ASSERT_EQ(0, umr_info(fd2, &info));
	each = info.out_fd_xlt_bytes;
	EXPECT_EQ(0, each % PAGE);
	EXPECT_LE((((__u64)max + 1 + 3) & ~3ULL) * 16, each);
	EXPECT_GT((((__u64)max + 1 + 3) & ~3ULL) * 16 * 2, each);
	EXPECT_EQ(0, umr_destroy(fd2, h));
	for (n = 0; n <= MLX5_UMR_IOC_MAX_FD_XLT_BYTES / each; n++)
		if (umr_alloc(fd2, max, &h, NULL))
			break;
	EXPECT_EQ(MLX5_UMR_IOC_MAX_FD_XLT_BYTES / each, n);
	EXPECT_EQ(-ENOSPC, umr_alloc(fd2, max, &h, NULL));
	ASSERT_EQ(0, umr_info(fd2, &info));
	EXPECT_EQ(n * each, info.out_fd_xlt_bytes);
	/* another file is not affected */
	ASSERT_EQ(0, umr_alloc(self->fd, max, &h, NULL));
	EXPECT_EQ(0, umr_destroy(self->fd, h));
	close(fd2);

	fd2 = umr_open();
	ASSERT_LE(0, fd2);
	for (n = 0; n <= MLX5_UMR_IOC_MAX_FD_MKEYS; n++)
		if (umr_alloc(fd2, 1, &h, NULL))
			break;
	EXPECT_EQ(MLX5_UMR_IOC_MAX_FD_MKEYS, n);
	EXPECT_EQ(-ENOSPC, umr_alloc(fd2, 1, &h, NULL));
	/* destroying one makes room again */
	EXPECT_EQ(0, umr_destroy(fd2, h));
	EXPECT_EQ(0, umr_alloc(fd2, 1, &h, NULL));
	close(fd2);
	EXPECT_NO_LEAK(0, 0);
}

TEST_F(umr, repeat_overflow)
{
	struct mlx5_umr_ioc_interleaved il[2] = {
		{ .addr = (uintptr_t)self->buf1, .bytes_count = 16,
		  .bytes_skip = 0, .lkey = self->key1 },
		{ .addr = (uintptr_t)self->buf2, .bytes_count = 16,
		  .bytes_skip = 0, .lkey = self->key2 },
	};

	/* 2^32 - 1 cycles of 16 bytes do not fit an 8 KiB buffer. */
	EXPECT_EQ(-ERANGE, umr_config_il(self->fd, self->mk, il, 2,
					 UINT32_MAX, NULL));
	/* The span wraps the 64-bit address space. */
	il[0].addr = UINT64_MAX - 64;
	EXPECT_EQ(-EOVERFLOW, umr_config_il(self->fd, self->mk, il, 2, 8,
					    NULL));
	/* A stride over the hardware's 16 bits: malformed (rule 18). */
	il[0].addr = (uintptr_t)self->buf1;
	il[0].bytes_skip = 65536 - 16;
	EXPECT_EQ(-EINVAL, umr_config_il(self->fd, self->mk, il, 2, 1, NULL));
	il[0].bytes_skip = 0;
	il[0].bytes_count = 65536;
	EXPECT_EQ(-EINVAL, umr_config_il(self->fd, self->mk, il, 2, 1, NULL));
	EXPECT_NO_LEAK(0, 0);
}

TEST_F(umr, bad_access)
{
	struct mlx5_umr_ioc_sge sge = { (uintptr_t)self->buf1, 8, self->key1 };
	struct mlx5_umr_ioc_configure cf = {
		.size = sizeof(cf), .handle = self->mk,
		.layout = MLX5_UMR_IOC_LAYOUT_LIST, .num_entries = 1,
		.entries = (uintptr_t)&sge,
	};

	EXPECT_EQ(-EINVAL, umr_reg(self->fd, self->buf1, 64, 1U << 4, NULL,
				   NULL));
	EXPECT_EQ(-EINVAL, umr_reg(self->fd, self->buf1, 64,
				   MLX5_UMR_IOC_ACCESS_REMOTE_WRITE, NULL,
				   NULL));
	cf.access = 1U << 31;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	cf.access = MLX5_UMR_IOC_ACCESS_REMOTE_WRITE;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	cf.access = MLX5_UMR_IOC_ACCESS_REMOTE_ATOMIC;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	if (!(self->info0.out_access & MLX5_UMR_IOC_ACCESS_REMOTE_ATOMIC)) {
		cf.access = MLX5_UMR_IOC_ACCESS_LOCAL_WRITE |
			    MLX5_UMR_IOC_ACCESS_REMOTE_ATOMIC;
		EXPECT_EQ(-EOPNOTSUPP,
			  umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	}
	cf.access = 0;
	cf.layout = 3;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	cf.layout = MLX5_UMR_IOC_LAYOUT_LIST;
	cf.repeat_count = 2;	/* only for interleaved */
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	EXPECT_NO_LEAK(0, 0);
}

TEST_F(umr, bad_pointers)
{
	__u64 raw[5];
	struct mlx5_umr_ioc_interleaved il = {
		.addr = (uintptr_t)self->buf1, .bytes_count = 8,
		.lkey = self->key1, .__reserved = 1,
	};
	struct mlx5_umr_ioc_configure cf = {
		.size = sizeof(cf), .handle = self->mk,
		.layout = MLX5_UMR_IOC_LAYOUT_INTERLEAVED, .num_entries = 1,
		.repeat_count = 1,
	};
	__u8 *hole = umr_map(4 * PAGE, 0);

	ASSERT_NE(NULL, hole);
	ASSERT_EQ(0, munmap(hole + PAGE, 3 * PAGE));

	/* Entry padding is __reserved. */
	EXPECT_EQ(-EINVAL, umr_config_il(self->fd, self->mk, &il, 1, 1, NULL));
	il.__reserved = 0;
	/* Entries must be 8-byte aligned. */
	memcpy((__u8 *)raw + 4, &il, sizeof(il));
	cf.entries = (uintptr_t)raw + 4;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	/* Unmapped entries, structure, buffers. */
	cf.entries = (uintptr_t)(hole + PAGE);
	EXPECT_EQ(-EFAULT, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	cf.entries = (uintptr_t)(hole + PAGE - 8);	/* straddles */
	EXPECT_EQ(-EFAULT, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	EXPECT_EQ(-EFAULT, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE,
				     hole + PAGE));
	/* Registering a range with an unmapped page pins nothing. */
	EXPECT_EQ(-EFAULT, umr_reg(self->fd, hole, 2 * PAGE, UMR_ACCESS_ALL3,
				   NULL, NULL));
	EXPECT_EQ(-EFAULT, umr_reg(self->fd, hole + PAGE, 8, UMR_ACCESS_ALL3,
				   NULL, NULL));
	EXPECT_EQ(-EOVERFLOW, umr_reg(self->fd, (void *)(UINT64_MAX - 8), 64,
				      UMR_ACCESS_ALL3, NULL, NULL));
	/* kernel addresses are not user memory */
	EXPECT_EQ(-EFAULT, umr_reg(self->fd, (void *)(UINT64_MAX << 47), 64,
				   UMR_ACCESS_ALL3, NULL, NULL));
	EXPECT_EQ(-EFAULT, umr_xfer(self->fd, self->key1,
				    (uintptr_t)self->buf1, hole + PAGE, 8, 1));
	EXPECT_NO_LEAK(0, 0);
	munmap(hole, PAGE);
}

/* Unaligned registrations are fine and are addressed by user address. */
TEST_F(umr, reg_unaligned)
{
	__u32 h, key;
	__u8 out[100];

	ASSERT_EQ(0, umr_reg(self->fd, self->buf1 + 4000, 200,
			     UMR_ACCESS_ALL3, &h, &key));
	/* 4000..4199 spans two pages */
	EXPECT_NO_LEAK(1, 2);
	fill_pat(out, sizeof(out), 0);
	ASSERT_EQ(0, umr_xfer(self->fd, key, (uintptr_t)self->buf1 + 4050,
			      out, sizeof(out), 1));
	EXPECT_EQ(0, memcmp(self->buf1 + 4050, out, sizeof(out)));
	EXPECT_EQ(0xa1, self->buf1[4049]);
	EXPECT_EQ(0xa1, self->buf1[4150]);
	/* Outside the registration, though inside its pages. */
	EXPECT_NE(0, umr_xfer(self->fd, key, (uintptr_t)self->buf1 + 4150,
			      out, 100, 1));
	EXPECT_EQ(0xa1, self->buf1[4199 + 1]);
	EXPECT_EQ(0, umr_destroy(self->fd, h));
	EXPECT_NO_LEAK(0, 0);
}

/* mlx5dv_wr_mkey_configure(3): SGE list, 64 bytes of mr1 then 4096 of mr2. */
TEST_F(umr, seed_list)
{
	struct mlx5_umr_ioc_sge sge[2] = {
		{ (uintptr_t)self->buf1, 64, self->key1 },
		{ (uintptr_t)self->buf2, 4096, self->key2 },
	};
	static __u8 in[4160], out[4160];
	__u64 len;

	ASSERT_EQ(0, umr_config_list(self->fd, self->mk, sge, 2, &len));
	EXPECT_EQ(4160, len);
	fill_pat(in, sizeof(in), 0);
	ASSERT_EQ(0, umr_xfer(self->fd, self->mkey, 0, in, sizeof(in), 1));
	EXPECT_EQ(0, memcmp(self->buf1, in, 64));
	EXPECT_EQ(0xa1, self->buf1[64]);
	EXPECT_EQ(0, memcmp(self->buf2, in + 64, 4096));
	EXPECT_EQ(0xb2, self->buf2[4096]);
	ASSERT_EQ(0, umr_xfer(self->fd, self->mkey, 0, out, sizeof(out), 0));
	EXPECT_EQ(0, memcmp(in, out, sizeof(out)));
	/* bytes 60..67 straddle the two entries */
	ASSERT_EQ(0, umr_xfer(self->fd, self->mkey, 60, out, 8, 0));
	EXPECT_EQ(0, memcmp(out, in + 60, 8));
	/* one byte past the end */
	EXPECT_NE(0, umr_xfer(self->fd, self->mkey, 4160, out, 1, 0));
}

/*
 * mlx5dv_wr_mkey_configure(3): interleaved, repeat 2, {mr1 512 B skip 4},
 * {mr2 8 B skip 0}: 0..511 -> mr1+0, 512..519 -> mr2+0,
 * 520..1031 -> mr1+516, 1032..1039 -> mr2+8.
 */
TEST_F(umr, seed_interleaved)
{
	struct mlx5_umr_ioc_interleaved il[2] = {
		{ .addr = (uintptr_t)self->buf1, .bytes_count = 512,
		  .bytes_skip = 4, .lkey = self->key1 },
		{ .addr = (uintptr_t)self->buf2, .bytes_count = 8,
		  .bytes_skip = 0, .lkey = self->key2 },
	};
	__u8 in[1040], out[1040];
	__u64 len;
	int i;

	ASSERT_EQ(0, umr_config_il(self->fd, self->mk, il, 2, 2, &len));
	EXPECT_EQ(1040, len);
	fill_pat(in, sizeof(in), 0);
	ASSERT_EQ(0, umr_xfer(self->fd, self->mkey, 0, in, sizeof(in), 1));
	EXPECT_EQ(0, memcmp(self->buf1 + 0, in + 0, 512));
	EXPECT_EQ(0, memcmp(self->buf2 + 0, in + 512, 8));
	EXPECT_EQ(0, memcmp(self->buf1 + 516, in + 520, 512));
	EXPECT_EQ(0, memcmp(self->buf2 + 8, in + 1032, 8));
	for (i = 512; i < 516; i++)	/* the skipped bytes */
		EXPECT_EQ(0xa1, self->buf1[i]);
	EXPECT_EQ(0xa1, self->buf1[1028]);
	EXPECT_EQ(0xb2, self->buf2[16]);
	ASSERT_EQ(0, umr_xfer(self->fd, self->mkey, 0, out, sizeof(out), 0));
	EXPECT_EQ(0, memcmp(in, out, sizeof(out)));
	/* 510..521 crosses both entries and a cycle */
	ASSERT_EQ(0, umr_xfer(self->fd, self->mkey, 510, out, 12, 0));
	EXPECT_EQ(0, memcmp(out, in + 510, 12));
	EXPECT_NE(0, umr_xfer(self->fd, self->mkey, 1040, out, 1, 0));
}

TEST_F(umr, invalidate_then_access_fails)
{
	struct mlx5_umr_ioc_sge sge = { (uintptr_t)self->buf1, 256,
					self->key1 };
	__u8 in[64];

	fill_pat(in, sizeof(in), 5);
	ASSERT_EQ(0, umr_config_list(self->fd, self->mk, &sge, 1, NULL));
	ASSERT_EQ(0, umr_xfer(self->fd, self->mkey, 0, in, 64, 1));
	EXPECT_EQ(0, memcmp(self->buf1, in, 64));
	/* a layout pins what it names */
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->mr1));
	ASSERT_EQ(0, umr_invalidate(self->fd, self->mk));
	fill_pat(in, sizeof(in), 77);
	EXPECT_NE(0, umr_xfer(self->fd, self->mkey, 0, in, 64, 1));
	EXPECT_NE(0, umr_xfer(self->fd, self->mkey, 0, in, 64, 0));
	fill_pat(in, sizeof(in), 5);
	EXPECT_EQ(0, memcmp(self->buf1, in, 64));
	/* invalidating a free mkey is harmless */
	EXPECT_EQ(0, umr_invalidate(self->fd, self->mk));
	/* released by the invalidation */
	EXPECT_EQ(0, umr_destroy(self->fd, self->mr1));
	self->objs--;
	self->pages -= BUF_LEN / PAGE;
	EXPECT_NO_LEAK(0, 0);
	/* and a destroyed registration is gone from layouts too */
	EXPECT_EQ(-ENOENT, umr_config_list(self->fd, self->mk, &sge, 1, NULL));
}

/*
 * MLX5_UMR_IOC_NEW_KEY: configure and invalidate return a new key of the
 * same mkey; the old key is refused from then on, the new one works.
 */
TEST_F(umr, rotate_key)
{
	struct mlx5_umr_ioc_sge sge = { (uintptr_t)self->buf1, 256,
					self->key1 };
	struct mlx5_umr_ioc_configure cf = {
		.size = sizeof(cf), .handle = self->mk,
		.flags = MLX5_UMR_IOC_NEW_KEY, .access = UMR_ACCESS_ALL3,
		.layout = MLX5_UMR_IOC_LAYOUT_LIST, .num_entries = 1,
		.entries = (uintptr_t)&sge,
	};
	struct mlx5_umr_ioc_invalidate inv = {
		.size = sizeof(inv), .handle = self->mk,
		.flags = MLX5_UMR_IOC_NEW_KEY,
	};
	__u32 k1, k2;
	__u8 in[64];

	fill_pat(in, sizeof(in), 9);
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	k1 = cf.out_key;
	EXPECT_EQ(self->mkey >> 8, k1 >> 8);
	EXPECT_NE(self->mkey & 0xff, k1 & 0xff);
	EXPECT_NE(0, k1 & 0xff);
	/* the old key names nothing of this file any more */
	EXPECT_EQ(-ENOENT, umr_xfer(self->fd, self->mkey, 0, in, 64, 1));
	EXPECT_NE(0, memcmp(self->buf1, in, 64));
	EXPECT_EQ(0, umr_xfer(self->fd, k1, 0, in, 64, 1));
	EXPECT_EQ(0, memcmp(self->buf1, in, 64));

	/* without the flag the key stays, and is reported */
	cf.flags = 0;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	EXPECT_EQ(k1, cf.out_key);

	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_INVALIDATE, &inv));
	k2 = inv.out_key;
	EXPECT_EQ(k1 >> 8, k2 >> 8);
	EXPECT_NE(k1 & 0xff, k2 & 0xff);
	ASSERT_EQ(0, umr_config_list(self->fd, self->mk, &sge, 1, NULL));
	EXPECT_EQ(-ENOENT, umr_xfer(self->fd, k1, 0, in, 64, 0));
	EXPECT_EQ(0, umr_xfer(self->fd, k2, 0, in, 64, 0));
	EXPECT_NO_LEAK(0, 0);
}

/* A one-byte RDMA READ through @key by a QP of PD @pd: 0 or -errno. */
static int probe_read(const char *path, long long pd, __u32 key)
{
	char v[64];

	snprintf(v, sizeof(v), "%lld %u 0", pd, key);
	return umr_fake_knob(path, "probe_read", v);
}

/*
 * Each open file has its own PD and puts every mkey in it; a QP of one
 * file's PD cannot use another file's key on the NIC, even a valid one
 * (the fake's data path checks mkey PD == QP PD at every level).
 */
TEST_F(umr, files_own_pds)
{
	struct mlx5_umr_ioc_sge sge = { (uintptr_t)self->buf1, 64,
					self->key1 };
	struct mlx5_umr_ioc_sge sge2;
	__u32 mr2, key2, mk2, mkey2;
	long long pd1, pd2;
	int fd2;

	if (umr_fake_mkey_pd(self->path, self->key1) < 0)
		SKIP(return, "no debugfs");
	ASSERT_EQ(0, umr_config_list(self->fd, self->mk, &sge, 1, NULL));
	fd2 = umr_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, umr_reg(fd2, self->buf2, BUF_LEN, UMR_ACCESS_ALL3, &mr2,
			     &key2));
	ASSERT_EQ(0, umr_alloc(fd2, 2, &mk2, &mkey2));
	sge2 = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf2, 64, key2 };
	ASSERT_EQ(0, umr_config_list(fd2, mk2, &sge2, 1, NULL));

	pd1 = umr_fake_mkey_pd(self->path, self->mkey);
	pd2 = umr_fake_mkey_pd(self->path, mkey2);
	ASSERT_LE(0, pd1);
	ASSERT_LE(0, pd2);
	EXPECT_NE(pd1, pd2);
	/* registrations and indirect mkeys of a file share its PD */
	EXPECT_EQ(pd1, umr_fake_mkey_pd(self->path, self->key1));
	EXPECT_EQ(pd1, umr_fake_mkey_pd(self->path, self->key2));
	EXPECT_EQ(pd2, umr_fake_mkey_pd(self->path, key2));

	/* each file's QP reads its own keys */
	EXPECT_EQ(0, probe_read(self->path, pd1, self->mkey));
	EXPECT_EQ(0, probe_read(self->path, pd2, mkey2));
	/* the other file's valid keys are refused by the PD check */
	EXPECT_EQ(-EACCES, probe_read(self->path, pd1, mkey2));
	EXPECT_EQ(-EACCES, probe_read(self->path, pd1, key2));
	EXPECT_EQ(-EACCES, probe_read(self->path, pd2, self->mkey));
	/* and the uapi does not let one file name the other's keys at all */
	sge2.lkey = self->key1;
	sge2.addr = (uintptr_t)self->buf1;
	EXPECT_EQ(-ENOENT, umr_config_list(fd2, mk2, &sge2, 1, NULL));
	close(fd2);
	EXPECT_NO_LEAK(0, 0);
}

TEST_F(umr, close_releases_pins)
{
	struct mlx5_umr_ioc_sge sge[3];
	struct mlx5_umr_ioc_info info;
	__u8 *b[3];
	__u32 mk, key;
	int fd2 = umr_open(), i;

	ASSERT_LE(0, fd2);
	for (i = 0; i < 3; i++) {
		b[i] = umr_map(4 * PAGE, i);
		ASSERT_NE(NULL, b[i]);
		ASSERT_EQ(0, umr_reg(fd2, b[i], 4 * PAGE, UMR_ACCESS_ALL3,
				     NULL, &key));
		sge[i] = (struct mlx5_umr_ioc_sge){ (uintptr_t)b[i], 100, key };
	}
	ASSERT_EQ(0, umr_alloc(fd2, 4, &mk, NULL));
	ASSERT_EQ(0, umr_config_list(fd2, mk, sge, 3, NULL));
	ASSERT_EQ(0, umr_info(fd2, &info));
	EXPECT_EQ(4, info.out_fd_objects);
	EXPECT_EQ(12, info.out_fd_pinned_pages);
	EXPECT_EQ(self->info0.out_dev_pinned_pages + self->pages + 12,
		  info.out_dev_pinned_pages);
	EXPECT_EQ(self->vmpin0 + (long)((self->pages + 12) * PAGE / 1024),
		  umr_vm_pinned_kb());
	/* The HCA holds them too: 3 + 4 mkeys, 2 + 3 mapped scatterlists. */
	ASSERT_LE(0, self->hca0[0]) TH_LOG("needs debugfs");
	EXPECT_EQ(self->hca0[0] + 7, umr_fake_counter(self->path, "mkeys"));
	EXPECT_EQ(self->hca0[1] + 5, umr_fake_counter(self->path, "sg_maps"));
	close(fd2);
	EXPECT_NO_LEAK(0, 0);
	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(self->info0.out_dev_pinned_pages + self->pages,
		  info.out_dev_pinned_pages);
}

static int drop_ipc_lock(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[CAP_IPC_LOCK / 32].effective &= ~(1U << (CAP_IPC_LOCK % 32));
	return syscall(SYS_capset, &hdr, data);
}

TEST_F(umr, rlimit_memlock)
{
	__u64 have = self->pages;
	struct rlimit rl = {
		.rlim_cur = (have + 1) * PAGE,
		.rlim_max = (have + 1) * PAGE,
	};
	__u8 *b = umr_map(2 * PAGE, 0);
	__u32 h;

	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, drop_ipc_lock());
	ASSERT_EQ(0, setrlimit(RLIMIT_MEMLOCK, &rl));
	EXPECT_EQ(-ENOMEM, umr_reg(self->fd, b, 2 * PAGE, UMR_ACCESS_ALL3,
				   NULL, NULL));
	EXPECT_NO_LEAK(0, 0);
	ASSERT_EQ(0, umr_reg(self->fd, b, PAGE, UMR_ACCESS_ALL3, &h, NULL));
	EXPECT_NO_LEAK(1, 1);
	EXPECT_EQ(-ENOMEM, umr_reg(self->fd, b + PAGE, 1, UMR_ACCESS_ALL3,
				   NULL, NULL));
	EXPECT_EQ(0, umr_destroy(self->fd, h));
	EXPECT_NO_LEAK(0, 0);
}

TEST_F(umr, two_processes_isolated)
{
	int to_parent[2], to_child[2], status;
	struct mlx5_umr_ioc_sge psge;
	__u8 pin[8] = { 0 };
	__u32 msg[3];
	pid_t pid;

	ASSERT_EQ(0, pipe(to_parent));
	ASSERT_EQ(0, pipe(to_child));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct mlx5_umr_ioc_sge sge;
		struct mlx5_umr_ioc_info info;
		__u8 *b = umr_map(PAGE, 0x33), in[32], go;
		__u32 mk, key, mkey, i, h = 0;
		int fd = umr_open();

		if (fd < 0 || !b)
			_exit(10);
		for (i = 0; i < 8; i++)
			if (umr_alloc(fd, 2, &h, NULL))
				_exit(11);
		if (umr_reg(fd, b, PAGE, UMR_ACCESS_ALL3, NULL, &key) ||
		    umr_alloc(fd, 2, &mk, &mkey))
			_exit(12);
		sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)b, 32, key };
		if (umr_config_list(fd, mk, &sge, 1, NULL))
			_exit(13);
		msg[0] = key;
		msg[1] = mkey;
		msg[2] = mk;
		if (write(to_parent[1], msg, sizeof(msg)) != sizeof(msg) ||
		    read(to_child[0], &go, 1) != 1)
			_exit(14);
		/* Nothing of ours was touched by the parent. */
		if (umr_info(fd, &info) || info.out_fd_objects != 10)
			_exit(15);
		fill_pat(in, sizeof(in), 9);
		if (umr_xfer(fd, mkey, 0, in, sizeof(in), 1) ||
		    memcmp(b, in, sizeof(in)))
			_exit(16);
		/* The parent's keys are unknown here. */
		if (umr_xfer(fd, self->key1, (uintptr_t)self->buf1, in, 1,
			     1) != -ENOENT)
			_exit(17);
		sge.lkey = self->key1;
		sge.addr = (uintptr_t)self->buf1;
		if (umr_config_list(fd, mk, &sge, 1, NULL) != -ENOENT)
			_exit(18);
		_exit(0);
	}
	ASSERT_EQ(sizeof(msg), read(to_parent[0], msg, sizeof(msg)));
	psge = (struct mlx5_umr_ioc_sge){ 0, 8, msg[0] };
	EXPECT_EQ(-ENOENT, umr_config_list(self->fd, self->mk, &psge, 1,
					   NULL));
	EXPECT_EQ(-ENOENT, umr_xfer(self->fd, msg[1], 0, pin, 8, 1));
	EXPECT_EQ(-ENOENT, umr_xfer(self->fd, msg[0], 0, pin, 8, 0));
	EXPECT_EQ(-ENOENT, umr_destroy(self->fd, msg[2]));
	EXPECT_EQ(-ENOENT, umr_invalidate(self->fd, msg[2]));
	EXPECT_FD_NO_LEAK();
	ASSERT_EQ(1, write(to_child[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* The child's file died with it, and so did its objects. */
	EXPECT_NO_LEAK(0, 0);
}

#define NTHREADS	8
#define NITER		40

struct thr {
	int fd;
	__u8 *base;
	__u32 key, mr_handle, idx;
	int err;
};

/*
 * Each thread owns an mkey and a 1 KiB slice of one shared registration,
 * and reconfigures its mkey over and over (list, then interleaved),
 * proving the data path after each.
 */
static void *thr_main(void *arg)
{
	struct thr *t = arg;
	__u8 *slice = t->base + 1024 * t->idx;
	__u8 in[256];
	__u32 mk, mkey;
	int it;

	t->err = umr_alloc(t->fd, 4, &mk, &mkey);
	if (t->err)
		return NULL;
	for (it = 0; it < NITER && !t->err; it++) {
		struct mlx5_umr_ioc_sge sge[2] = {
			{ (uintptr_t)slice + 512, 128, t->key },
			{ (uintptr_t)slice, 128, t->key },
		};
		struct mlx5_umr_ioc_interleaved il[1] = {
			{ .addr = (uintptr_t)slice, .bytes_count = 64,
			  .bytes_skip = 64, .lkey = t->key },
		};

		fill_pat(in, sizeof(in), t->idx * 1000 + it);
		if (it & 1) {
			t->err = umr_config_il(t->fd, mk, il, 1, 4, NULL);
			if (!t->err)
				t->err = umr_xfer(t->fd, mkey, 0, in, 256, 1);
			if (!t->err &&
			    (memcmp(slice, in, 64) ||
			     memcmp(slice + 128, in + 64, 64) ||
			     memcmp(slice + 384, in + 192, 64)))
				t->err = 1000 + it;
		} else {
			t->err = umr_config_list(t->fd, mk, sge, 2, NULL);
			if (!t->err)
				t->err = umr_xfer(t->fd, mkey, 0, in, 256, 1);
			if (!t->err &&
			    (memcmp(slice + 512, in, 128) ||
			     memcmp(slice, in + 128, 128)))
				t->err = 2000 + it;
		}
		/* Referenced by our layout (and maybe others): busy. */
		if (!t->err && umr_destroy(t->fd, t->mr_handle) != -EBUSY)
			t->err = 3000 + it;
	}
	if (!t->err)
		t->err = umr_destroy(t->fd, mk);
	return NULL;
}

TEST_F(umr, threads_configure)
{
	struct thr t[NTHREADS];
	pthread_t tid[NTHREADS];
	__u8 *big = umr_map(BIG_LEN, 0);
	__u32 h, key;
	int i;

	ASSERT_NE(NULL, big);
	ASSERT_EQ(0, umr_reg(self->fd, big, BIG_LEN, UMR_ACCESS_ALL3, &h,
			     &key));
	for (i = 0; i < NTHREADS; i++) {
		t[i] = (struct thr){ .fd = self->fd, .base = big, .key = key,
				     .mr_handle = h, .idx = i };
		ASSERT_EQ(0, pthread_create(&tid[i], NULL, thr_main, &t[i]));
	}
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(tid[i], NULL);
		EXPECT_EQ(0, t[i].err) TH_LOG("thread %d", i);
	}
	EXPECT_NO_LEAK(1, BIG_LEN / PAGE);
	EXPECT_EQ(0, umr_destroy(self->fd, h));
	EXPECT_NO_LEAK(0, 0);
}

/*
 * The HCA fails a reconfiguration: the error is EIO, and until a later
 * request succeeds the mkey may hold either layout, so both layouts'
 * memory stays referenced (EBUSY); then the service has recovered.
 */
TEST_F(umr, hca_error_keeps_references)
{
	struct mlx5_umr_ioc_sge sge1 = { (__u64)(uintptr_t)self->buf1, 64,
					 self->key1 };
	struct mlx5_umr_ioc_sge sge2 = { (__u64)(uintptr_t)self->buf2, 64,
					 self->key2 };
	__u8 in[64];

	ASSERT_EQ(0, umr_config_list(self->fd, self->mk, &sge1, 1, NULL));
	/* the next WQE completes with a local protection error */
	if (umr_fake_knob(self->path, "fail_wqe", "0x4 0"))
		SKIP(return, "needs the fake's debugfs");
	EXPECT_EQ(-EIO, umr_config_list(self->fd, self->mk, &sge2, 1, NULL));
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->mr1));
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->mr2));
	EXPECT_NO_LEAK(0, 0);
	/* recovered: the next request works and releases the failed one */
	ASSERT_EQ(0, umr_config_list(self->fd, self->mk, &sge1, 1, NULL));
	EXPECT_EQ(0, umr_destroy(self->fd, self->mr2));
	self->objs--;
	self->pages -= BUF_LEN / PAGE;
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->mr1));
	fill_pat(in, sizeof(in), 3);
	ASSERT_EQ(0, umr_xfer(self->fd, self->mkey, 0, in, sizeof(in), 1));
	EXPECT_EQ(0, memcmp(self->buf1, in, sizeof(in)));
	EXPECT_NO_LEAK(0, 0);
}

/*
 * The HCA refuses DESTROY_MKEY: the registration's mkey may still be live
 * with the user's remote rights, so its pages are never unpinned or
 * unmapped under it (they stay, for good); the handle is gone. Not a
 * fixture test: those check that nothing stays pinned.
 */
TEST(failed_destroy_mkey_keeps_pins)
{
	long long maps0;
	char path[256];
	long pin0;
	__u8 *b;
	__u32 h;
	int fd;

	ASSERT_EQ(0, umr_find_dev(path, sizeof(path)));
	fd = umr_open();
	ASSERT_LE(0, fd);
	b = umr_map(4 * PAGE, 0x5c);
	ASSERT_NE(NULL, b);
	pin0 = umr_vm_pinned_kb();
	ASSERT_EQ(0, umr_reg(fd, b, 4 * PAGE, UMR_ACCESS_ALL3, &h, NULL));
	EXPECT_EQ(pin0 + 4 * PAGE / 1024, umr_vm_pinned_kb());
	maps0 = umr_fake_counter(path, "sg_maps");
	/* MLX5_CMD_OP_DESTROY_MKEY, MLX5_CMD_STAT_BAD_RES_STATE_ERR */
	if (umr_fake_knob(path, "fail_cmd", "0x202 0x9 0x1"))
		SKIP(close(fd); return, "needs the fake's debugfs");
	EXPECT_EQ(0, umr_destroy(fd, h));
	EXPECT_EQ(-ENOENT, umr_destroy(fd, h));
	EXPECT_EQ(pin0 + 4 * PAGE / 1024, umr_vm_pinned_kb());
	EXPECT_EQ(maps0, umr_fake_counter(path, "sg_maps"));
	close(fd);
	EXPECT_EQ(pin0 + 4 * PAGE / 1024, umr_vm_pinned_kb());
}

struct uffd_configure {
	int fd;
	__u32 mk;
	void *entries;
	int ret;
};

static void *uffd_configure_thread(void *arg)
{
	struct uffd_configure *a = arg;

	a->ret = umr_config_list(a->fd, a->mk, a->entries, 1, NULL);
	return NULL;
}

/*
 * A CONFIGURE whose entries fault for as long as userspace wants
 * (userfaultfd here, FUSE alike) holds no device lock: HCA removal
 * completes meanwhile, and the ioctl then answers ENODEV. Unloads and
 * reloads the fake HCA, as hot_remove does.
 */
TEST_F(umr, user_fault_holds_no_device_lock)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffd_configure a = { .fd = self->fd, .mk = self->mk };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_zeropage zero = { .mode = 0 };
	struct pollfd pfd = { .events = POLLIN };
	struct uffd_msg msg;
	int uffd, status = -1, i;
	bool removed = false;
	pthread_t t;
	pid_t pid;

	if (!umr_loaded_fake)
		SKIP(return, "mlx5_umr_fake was loaded by someone else");
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0)
		SKIP(return, "no userfaultfd: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_API, &api));
	a.entries = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, a.entries);
	reg.range.start = (uintptr_t)a.entries;
	reg.range.len = PAGE;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_REGISTER, &reg));
	ASSERT_EQ(0, pthread_create(&t, NULL, uffd_configure_thread, &a));
	pfd.fd = uffd;
	ASSERT_EQ(1, poll(&pfd, 1, 5000));
	ASSERT_EQ(sizeof(msg), read(uffd, &msg, sizeof(msg)));
	EXPECT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);

	/* the ioctl now waits in the fault: remove the HCA meanwhile */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		execlp("rmmod", "rmmod", "mlx5_umr_fake", (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 100 && !removed; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			removed = true;
		else
			usleep(50 * 1000);
	}
	/* let the fault finish (zeroed entries), then the ioctl */
	zero.range = reg.range;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_ZEROPAGE, &zero));
	pthread_join(t, NULL);
	if (!removed)
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(removed) TH_LOG("removal waited for a user fault");
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	EXPECT_EQ(-ENODEV, a.ret);
	close(uffd);
	munmap(a.entries, PAGE);

	EXPECT_EQ(self->vmpin0, umr_vm_pinned_kb());
	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
	ASSERT_EQ(0, umr_load_fake());
	ASSERT_EQ(0, umr_find_dev(self->path, sizeof(self->path)));
	for (i = 0; i < 3; i++)
		self->hca0[i] = umr_fake_counter(self->path, hca_counters[i]);
}

/*
 * The HCA goes away under an open file with live objects: everything is
 * released at once (pins included), the file answers ENODEV until closed.
 * Runs last: it unloads and reloads the fake HCA.
 */
TEST_F(umr, hot_remove)
{
	struct mlx5_umr_ioc_sge sge = { (__u64)(uintptr_t)self->buf1, 64,
					self->key1 };
	struct mlx5_umr_ioc_info info;
	__u32 h;
	int i;

	if (!umr_loaded_fake)
		SKIP(return, "mlx5_umr_fake was loaded by someone else");
	ASSERT_EQ(0, umr_config_list(self->fd, self->mk, &sge, 1, NULL));
	ASSERT_EQ(0, system("rmmod mlx5_umr_fake"));
	EXPECT_EQ(-ENODEV, umr_info(self->fd, &info));
	EXPECT_EQ(-ENODEV, umr_alloc(self->fd, 2, &h, NULL));
	EXPECT_EQ(-ENODEV, umr_destroy(self->fd, self->mr1));
	/* the pins went with the device, not with the file */
	EXPECT_EQ(self->vmpin0, umr_vm_pinned_kb());
	EXPECT_EQ(0, close(self->fd));
	self->fd = -1;
	ASSERT_EQ(0, umr_load_fake());
	ASSERT_EQ(0, umr_find_dev(self->path, sizeof(self->path)));
	/* a new HCA: what the old one kept (failed_destroy_*) is gone */
	for (i = 0; i < 3; i++)
		self->hca0[i] = umr_fake_counter(self->path, hca_counters[i]);
}

TEST_HARNESS_MAIN
