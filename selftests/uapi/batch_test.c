// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MLX5_UMR_IOCTL_BATCH selftests, on a fake HCA (mlx5_umr_fake).
 *
 * A refused batch must have posted nothing (the fake's WQE counter does
 * not move), changed no layout (the bytes still land where the previous
 * layout put them), and kept no reference (every registration the refused
 * batch named can be destroyed) and no claim (each mkey can be configured
 * alone). Every refusal is here with its errno and the index reported.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "kselftest_harness.h"
#include "umr_util.h"
#include "share_hog.h"

#define BUF_LEN		(2 * PAGE)
#define NMK		4
#define MAX_BATCH	128	/* INFO's out_max_batch */

FIXTURE(batch) {
	int fd;
	char path[256];
	struct mlx5_umr_ioc_info info0;
	long long wqes0;
	__u8 *buf1, *buf2;
	__u32 mr1, key1, mr2, key2;
	__u32 mk[NMK], mkey[NMK];
	struct mlx5_umr_ioc_sge sge1, sge2;
	struct mlx5_umr_ioc_batch_req req[NMK];
};

FIXTURE_SETUP(batch)
{
	int fd0, i;

	ASSERT_EQ(0, umr_find_dev(self->path, sizeof(self->path)))
		TH_LOG("no fake mlx5-umr device");
	fd0 = open(self->path, O_RDWR);
	ASSERT_LE(0, fd0);
	ASSERT_EQ(0, umr_info(fd0, &self->info0));
	close(fd0);
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
	for (i = 0; i < NMK; i++)
		ASSERT_EQ(0, umr_alloc(self->fd, 8, &self->mk[i],
				       &self->mkey[i]));
	self->sge1 = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf1, 64,
						self->key1 };
	self->sge2 = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf2, 64,
						self->key2 };
	/* A valid batch: configure mk[i] over buf2 (64 bytes each). */
	for (i = 0; i < NMK; i++)
		self->req[i] = (struct mlx5_umr_ioc_batch_req){
			.op = MLX5_UMR_IOC_BATCH_CONFIGURE,
			.handle = self->mk[i],
			.access = UMR_ACCESS_ALL3,
			.layout = MLX5_UMR_IOC_LAYOUT_LIST,
			.num_entries = 1,
			.entries = (uintptr_t)&self->sge2,
		};
	self->wqes0 = umr_fake_counter(self->path, "wqes");
}

/*
 * EXPECT, not ASSERT: after an ASSERT failed in the test, the 6.1
 * harness's handler flag is still set, and an ASSERT here would jump back
 * into the teardown (and one failing here would loop in it).
 */
FIXTURE_TEARDOWN(batch)
{
	struct mlx5_umr_ioc_info info = { 0 };
	int fd;

	close(self->fd);
	fd = umr_open();
	EXPECT_LE(0, fd);
	if (fd < 0)
		return;
	EXPECT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(self->info0.out_dev_objects, info.out_dev_objects);
	EXPECT_EQ(self->info0.out_dev_pinned_pages,
		  info.out_dev_pinned_pages);
	close(fd);
}

static int do_batch(int fd, struct mlx5_umr_ioc_batch_req *req, __u32 n,
		    __u32 req_size, struct mlx5_umr_ioc_batch *out)
{
	struct mlx5_umr_ioc_batch cmd = {
		.size = sizeof(cmd),
		.num_reqs = n,
		.req_size = req_size,
		.reqs = (uintptr_t)req,
	};
	int ret = umr_ioctl(fd, MLX5_UMR_IOCTL_BATCH, &cmd);

	if (out)
		*out = cmd;
	return ret;
}

/* The fake's WQEs executed since the fixture was set up (0 without debugfs) */
static long long new_wqes(struct _test_data_batch *self)
{
	long long w = umr_fake_counter(self->path, "wqes");

	return w < 0 || self->wqes0 < 0 ? 0 : w - self->wqes0;
}

TEST_F(batch, info_limits)
{
	struct mlx5_umr_ioc_info info;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(128, info.out_max_batch);
	EXPECT_EQ(1 << 20, info.out_max_batch_bytes);
}

/* iommufd's TEST_LENGTH: the batch structure is size-extensible. */
TEST_F(batch, length)
{
	union {
		struct mlx5_umr_ioc_batch cmd;
		__u8 raw[64];
	} u;
	static const struct {
		__u32 size;
		int tail;	/* a non-zero byte past sizeof */
		int err;
	} c[] = {
		{ 0, 0, -EINVAL },
		{ sizeof(struct mlx5_umr_ioc_batch) - 1, 0, -EINVAL },
		{ sizeof(struct mlx5_umr_ioc_batch) + 8, 1, -E2BIG },
		{ sizeof(struct mlx5_umr_ioc_batch) + 8, 0, 0 },
		{ sizeof(struct mlx5_umr_ioc_batch), 0, 0 },
	};
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(c); k++) {
		memset(&u, 0, sizeof(u));
		u.cmd.size = c[k].size;
		u.cmd.num_reqs = 1;
		u.cmd.req_size = sizeof(self->req[0]);
		u.cmd.reqs = (uintptr_t)&self->req[k % NMK];
		u.cmd.out_index = 77;
		if (c[k].tail)
			u.raw[sizeof(u.cmd) + 7] = 1;
		EXPECT_EQ(c[k].err, umr_ioctl(self->fd, MLX5_UMR_IOCTL_BATCH,
					      &u))
			TH_LOG("case %u", k);
		/* refused by size: not even out_index was written */
		EXPECT_EQ(c[k].err ? 77 : 0,
			  c[k].err ? u.cmd.out_index : u.raw[sizeof(u.cmd) + 7]);
	}
	EXPECT_EQ(2, new_wqes(self));
}

/* Configure three mkeys, each over its own bytes; then invalidate two. */
TEST_F(batch, configure_then_invalidate)
{
	struct mlx5_umr_ioc_sge sge[3] = {
		{ (uintptr_t)self->buf1, 64, self->key1 },
		{ (uintptr_t)self->buf1 + 1000, 100, self->key1 },
		{ (uintptr_t)self->buf2 + 8, 32, self->key2 },
	};
	struct mlx5_umr_ioc_batch out;
	__u8 in[100], got[100];
	long long cqes0 = umr_fake_counter(self->path, "cqes");
	int i;

	for (i = 0; i < 3; i++) {
		self->req[i].entries = (uintptr_t)&sge[i];
		self->req[i].out_length = 77;	/* outputs are not checked */
		self->req[i].out_status = 5;
	}
	ASSERT_EQ(0, do_batch(self->fd, self->req, 3, sizeof(self->req[0]),
			      &out));
	EXPECT_EQ(0, out.out_failed);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(0, self->req[i].out_status);
		EXPECT_EQ(sge[i].length, self->req[i].out_length);
	}
	/* three WQEs, one signalled: one doorbell, one completion */
	if (cqes0 >= 0) {
		EXPECT_EQ(3, new_wqes(self));
		EXPECT_EQ(cqes0 + 1, umr_fake_counter(self->path, "cqes"));
	}
	for (i = 0; i < 3; i++) {
		memset(in, 0x30 + i, sizeof(in));
		ASSERT_EQ(0, umr_xfer(self->fd, self->mkey[i], 0, in,
				      sge[i].length, 1));
	}
	memset(got, 0x30, 64);
	EXPECT_EQ(0, memcmp(self->buf1, got, 64));
	memset(got, 0x31, 100);
	EXPECT_EQ(0, memcmp(self->buf1 + 1000, got, 100));
	memset(got, 0x32, 32);
	EXPECT_EQ(0, memcmp(self->buf2 + 8, got, 32));
	EXPECT_EQ(0xb2, self->buf2[40]);
	/* the layouts hold their memory */
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->mr1));

	memset(self->req, 0, sizeof(self->req));
	self->req[0].op = MLX5_UMR_IOC_BATCH_INVALIDATE;
	self->req[0].handle = self->mk[0];
	self->req[1].op = MLX5_UMR_IOC_BATCH_INVALIDATE;
	self->req[1].handle = self->mk[1];
	ASSERT_EQ(0, do_batch(self->fd, self->req, 2, sizeof(self->req[0]),
			      &out));
	EXPECT_EQ(0, out.out_failed);
	EXPECT_EQ(0, self->req[0].out_status);
	EXPECT_NE(0, umr_xfer(self->fd, self->mkey[0], 0, in, 1, 1));
	EXPECT_NE(0, umr_xfer(self->fd, self->mkey[1], 0, in, 1, 1));
	EXPECT_EQ(0, umr_xfer(self->fd, self->mkey[2], 0, in, 1, 1));
	/* released by the invalidations */
	EXPECT_EQ(0, umr_destroy(self->fd, self->mr1));
}

/* A larger stride with a zero tail works; outputs stay in their slots. */
TEST_F(batch, req_size_longer)
{
	struct {
		struct mlx5_umr_ioc_batch_req r;
		__u64 tail;
	} req[2];
	struct mlx5_umr_ioc_batch out;
	int i;

	for (i = 0; i < 2; i++) {
		req[i].r = self->req[i];
		req[i].tail = 0;
	}
	ASSERT_EQ(0, do_batch(self->fd, &req[0].r, 2, sizeof(req[0]), &out));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(64, req[i].r.out_length);
		EXPECT_EQ(0, req[i].tail);
	}
	/* a non-zero byte in the tail of request 1 */
	req[1].tail = 1;
	EXPECT_EQ(-E2BIG, do_batch(self->fd, &req[0].r, 2, sizeof(req[0]),
				   &out));
	EXPECT_EQ(1, out.out_index);
}

/*
 * Issue 30 item 3: a stride over a page is E2BIG before anything is read
 * (the zero tail of a 4 GiB stride took minutes of one CPU), for the
 * batch's stride as for an ioctl's own size; a page is still fine.
 */
TEST_F(batch, req_size_over_a_page)
{
	size_t stride = PAGE + 8;
	struct mlx5_umr_ioc_batch_req *r;
	struct mlx5_umr_ioc_batch out;
	struct {
		struct mlx5_umr_ioc_batch cmd;
		__u8 tail[PAGE];
	} *big;
	__u8 *reqs = umr_map(2 * stride, 0);

	ASSERT_NE(NULL, reqs);
	memcpy(reqs, &self->req[0], sizeof(self->req[0]));
	memcpy(reqs + stride, &self->req[1], sizeof(self->req[1]));
	EXPECT_EQ(-E2BIG, do_batch(self->fd, (void *)reqs, 2, stride, &out));
	EXPECT_EQ(2, out.out_index);
	EXPECT_EQ(0, new_wqes(self));
	/* a page, zero tail: read and answered */
	memset(reqs + stride, 0, sizeof(self->req[1]));
	memcpy(reqs + PAGE, &self->req[1], sizeof(self->req[1]));
	ASSERT_EQ(0, do_batch(self->fd, (void *)reqs, 2, PAGE, &out));
	r = (struct mlx5_umr_ioc_batch_req *)(reqs + PAGE);
	EXPECT_EQ(64, r->out_length);
	munmap(reqs, 2 * stride);

	/* the ioctl's own size: over a page, even with a zero tail */
	big = umr_map(sizeof(*big), 0);
	ASSERT_NE(NULL, big);
	big->cmd.size = sizeof(*big);
	big->cmd.num_reqs = 1;
	big->cmd.req_size = sizeof(self->req[0]);
	big->cmd.reqs = (uintptr_t)&self->req[2];
	big->cmd.out_index = 77;
	EXPECT_EQ(-E2BIG, umr_ioctl(self->fd, MLX5_UMR_IOCTL_BATCH, big));
	EXPECT_EQ(77, big->cmd.out_index);
	munmap(big, sizeof(*big));
}

/*
 * Issue 30 item 4: with the kernel's own stride, an unreadable request k
 * is EFAULT with out_index k, as with any other stride (it said 0).
 */
TEST_F(batch, efault_index_dense)
{
	struct mlx5_umr_ioc_batch_req *r;
	struct mlx5_umr_ioc_batch out;
	__u8 *two = umr_map(2 * PAGE, 0);

	ASSERT_NE(NULL, two);
	/* requests 0 and 1 at the end of the first page, 2 in the second */
	r = (void *)(two + PAGE - 2 * sizeof(*r));
	r[0] = self->req[0];
	r[1] = self->req[1];
	/* unmapped, not PROT_NONE: UML's uaccess reads PROT_NONE pages */
	ASSERT_EQ(0, munmap(two + PAGE, PAGE));
	EXPECT_EQ(-EFAULT, do_batch(self->fd, r, 3, sizeof(*r), &out));
	EXPECT_EQ(2, out.out_index);
	EXPECT_EQ(0, new_wqes(self));
	munmap(two, PAGE);
}

struct share_waiter {
	int fd;
	__u32 mk;
	struct mlx5_umr_ioc_sge sge;
	int ret;
};

static void *share_waiter_run(void *arg)
{
	struct share_waiter *w = arg;

	w->ret = umr_config_list(w->fd, w->mk, &w->sge, 1, NULL);
	return NULL;
}

/*
 * Issue 30 item 10: the files' share is handed out in turn. With 2 blocks
 * left, a configure (3 blocks) waits; an invalidate (2) that comes after
 * it waits behind it (a signal ends its wait: EINTR, nothing done) rather
 * than taking the 2 blocks past it, as any call did: a stream of small
 * requests kept a large one waiting.
 */
TEST_F(batch, share_in_turn)
{
	struct share_waiter w = { .fd = self->fd, .mk = self->mk[0],
				  .sge = self->sge1 };
	struct share_hog hog;
	int ret, hret[2];
	pthread_t t;

	ret = share_hog_start(&hog, self->path, 6000, 2000);
	if (ret == -1)
		SKIP(return, "needs the fake's debugfs");
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, share_hog_thread(&t, share_waiter_run, &w));
	usleep(500 * 1000);
	share_hog_alarm_in(1);
	ret = umr_invalidate(self->fd, self->mk[1]);
	alarm(0);
	EXPECT_EQ(-EINTR, ret);
	share_hog_stop(&hog, self->path, hret);
	EXPECT_EQ(0, hret[0]);
	EXPECT_EQ(0, hret[1]);
	pthread_join(t, NULL);
	EXPECT_EQ(0, w.ret);
	EXPECT_EQ(0, umr_invalidate(self->fd, self->mk[0]));
}

/*
 * The state every refusal must leave: nothing posted, mk[0] still maps
 * buf1 (configured before the batch), the others still free, no claim and
 * no reference left (mr2, named only by the refused batch, can go).
 */
static void nothing_left(struct __test_metadata *_metadata,
			 struct _test_data_batch *self, long long wqes)
{
	struct mlx5_umr_ioc_info info;
	__u8 in[64];
	int i;

	EXPECT_EQ(wqes, new_wqes(self));
	memset(in, 0x5c, sizeof(in));
	ASSERT_EQ(0, umr_xfer(self->fd, self->mkey[0], 0, in, 64, 1));
	EXPECT_EQ(0, memcmp(self->buf1, in, 64));
	EXPECT_EQ(0xb2, self->buf2[0]);
	for (i = 1; i < NMK; i++)
		EXPECT_NE(0, umr_xfer(self->fd, self->mkey[i], 0, in, 1, 1));
	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(2 + NMK, info.out_fd_objects);
	EXPECT_EQ(2 * BUF_LEN / PAGE, info.out_fd_pinned_pages);
	for (i = 0; i < NMK; i++)
		EXPECT_EQ(0, umr_invalidate(self->fd, self->mk[i]));
	EXPECT_EQ(0, umr_destroy(self->fd, self->mr2));
}

/* Build the refusal into a valid three-request batch. */
struct refusal {
	const char *name;
	int err;
	__u32 index;		/* ~0: num_reqs */
	void (*apply)(struct _test_data_batch *self,
		      struct mlx5_umr_ioc_batch *cmd,
		      struct mlx5_umr_ioc_batch_req *r);
};

#define REF_FN(fn) \
	static void fn(struct _test_data_batch *self, \
		       struct mlx5_umr_ioc_batch *cmd, \
		       struct mlx5_umr_ioc_batch_req *r)

static struct mlx5_umr_ioc_sge far_sge, zero_sge, many_sge[9];
static struct mlx5_umr_ioc_interleaved bad_il;

REF_FN(r_flags) { cmd->flags = 1; }

REF_FN(r_zero) { cmd->num_reqs = 0; }

REF_FN(r_too_many) { cmd->num_reqs = 129; }

REF_FN(r_req_size) { cmd->req_size = 40; }

REF_FN(r_req_size_odd) { cmd->req_size = 52; }

REF_FN(r_unaligned) { cmd->reqs += 4; }

REF_FN(r_efault) { cmd->reqs = 8; }

REF_FN(r_op) { r[1].op = 3; }

REF_FN(r_op_zero) { r[1].op = 0; }

REF_FN(r_req_flags) { r[1].flags = 1 << 1; }

REF_FN(r_reserved) { r[1].__reserved = 1; }

REF_FN(r_dup) { r[2].handle = r[0].handle; }

REF_FN(r_handle) { r[1].handle = 999999; }

REF_FN(r_mr_handle) { r[1].handle = self->mr1; }

REF_FN(r_access) { r[1].access = 1 << 7; }

REF_FN(r_layout) { r[1].layout = 9; }

REF_FN(r_num_zero) { r[1].num_entries = 0; }

REF_FN(r_list_repeat) { r[1].repeat_count = 2; }

REF_FN(r_entries_align) { r[1].entries += 4; }

REF_FN(r_entries_fault) { r[1].entries = 8; }

REF_FN(r_capacity)
{
	int i;

	for (i = 0; i < 9; i++)
		many_sge[i] = self->sge2;
	r[1].entries = (uintptr_t)many_sge;
	r[1].num_entries = 9;
}

REF_FN(r_range)
{
	far_sge = self->sge2;
	far_sge.addr += BUF_LEN - 10;
	r[1].entries = (uintptr_t)&far_sge;
}

REF_FN(r_lkey)
{
	far_sge = self->sge2;
	far_sge.lkey = self->mkey[3];	/* an mkey, not registered memory */
	r[1].entries = (uintptr_t)&far_sge;
}

REF_FN(r_zero_len)
{
	zero_sge = self->sge2;
	zero_sge.length = 0;
	r[1].entries = (uintptr_t)&zero_sge;
}

REF_FN(r_il_reserved)
{
	bad_il = (struct mlx5_umr_ioc_interleaved){
		.addr = self->sge2.addr, .bytes_count = 8,
		.lkey = self->key2, .__reserved = 1 };
	r[1].layout = MLX5_UMR_IOC_LAYOUT_INTERLEAVED;
	r[1].repeat_count = 1;
	r[1].entries = (uintptr_t)&bad_il;
}

REF_FN(r_il_repeat) { r[1].layout = MLX5_UMR_IOC_LAYOUT_INTERLEAVED; }

REF_FN(r_bytes)
{
	/* 65537 entries of 16 bytes: over 1 MiB before anything is read */
	r[1].num_entries = 65537;
}

REF_FN(r_inval_fields)
{
	r[1].op = MLX5_UMR_IOC_BATCH_INVALIDATE;	/* layout still set */
}

static const struct refusal refusals[] = {
	{ "batch flags", -EOPNOTSUPP, ~0u, r_flags },
	{ "no requests", -EINVAL, ~0u, r_zero },
	{ "over out_max_batch", -E2BIG, ~0u, r_too_many },
	{ "req_size below v1", -EINVAL, ~0u, r_req_size },
	{ "req_size not 8-aligned", -EINVAL, ~0u, r_req_size_odd },
	{ "reqs unaligned", -EINVAL, ~0u, r_unaligned },
	{ "reqs unmapped", -EFAULT, 0, r_efault },
	{ "unknown op", -EINVAL, 1, r_op },
	{ "op 0", -EINVAL, 1, r_op_zero },
	{ "unknown request flag", -EOPNOTSUPP, 1, r_req_flags },
	{ "__reserved", -EINVAL, 1, r_reserved },
	{ "one mkey twice", -EINVAL, 2, r_dup },
	{ "unknown handle", -ENOENT, 1, r_handle },
	{ "handle of registered memory", -ENOENT, 1, r_mr_handle },
	{ "unknown access bit", -EINVAL, 1, r_access },
	{ "unknown layout", -EINVAL, 1, r_layout },
	{ "no entries", -EINVAL, 1, r_num_zero },
	{ "repeat for a list", -EINVAL, 1, r_list_repeat },
	{ "entries unaligned", -EINVAL, 1, r_entries_align },
	{ "entries unmapped", -EFAULT, 1, r_entries_fault },
	{ "more entries than the mkey", -ENOMEM, 1, r_capacity },
	{ "entry outside its registration", -ERANGE, 1, r_range },
	{ "lkey not registered memory", -ENOENT, 1, r_lkey },
	{ "zero-length entry", -EINVAL, 1, r_zero_len },
	{ "interleaved entry padding", -EINVAL, 1, r_il_reserved },
	{ "interleaved without repeat", -EINVAL, 1, r_il_repeat },
	{ "over out_max_batch_bytes", -E2BIG, 1, r_bytes },
	{ "invalidate with configure fields", -EINVAL, 1, r_inval_fields },
};

TEST_F(batch, refusals)
{
	struct mlx5_umr_ioc_batch_req r[3];
	struct mlx5_umr_ioc_batch cmd;
	long long wqes;
	unsigned int k;
	int ret;

	/* each case registers buf2 anew, so that its references show */
	ASSERT_EQ(0, umr_destroy(self->fd, self->mr2));
	for (k = 0; k < ARRAY_SIZE(refusals); k++) {
		const struct refusal *c = &refusals[k];

		/* mk[0] maps buf1; the batch would move it to buf2 */
		ASSERT_EQ(0, umr_config_list(self->fd, self->mk[0],
					     &self->sge1, 1, NULL));
		ASSERT_EQ(0, umr_reg(self->fd, self->buf2, BUF_LEN,
				     UMR_ACCESS_ALL3, &self->mr2,
				     &self->key2)) TH_LOG("%s", c->name);
		self->sge2.lkey = self->key2;
		memcpy(r, self->req, sizeof(r));
		r[0].entries = (uintptr_t)&self->sge2;
		memset(&cmd, 0, sizeof(cmd));
		cmd.size = sizeof(cmd);
		cmd.num_reqs = 3;
		cmd.req_size = sizeof(r[0]);
		cmd.reqs = (uintptr_t)r;
		c->apply(self, &cmd, r);
		wqes = new_wqes(self);
		ret = umr_ioctl(self->fd, MLX5_UMR_IOCTL_BATCH, &cmd);
		EXPECT_EQ(c->err, ret) TH_LOG("%s", c->name);
		EXPECT_EQ(c->index == ~0u ? cmd.num_reqs : c->index,
			  cmd.out_index) TH_LOG("%s", c->name);
		nothing_left(_metadata, self, wqes);
	}
}

/*
 * The HCA fails the first request of a batch: that one reports -EIO and
 * keeps both layouts' memory, the others (flushed and resubmitted by the
 * service) apply.
 */
TEST_F(batch, hca_error_in_batch)
{
	struct mlx5_umr_ioc_batch out;
	__u8 in[64];

	ASSERT_EQ(0, umr_config_list(self->fd, self->mk[0], &self->sge1, 1,
				     NULL));
	/* the next WQE (request 0 of the batch) completes with an error */
	if (umr_fake_knob(self->path, "fail_wqe", "0x4 0"))
		SKIP(return, "needs the fake's debugfs");
	ASSERT_EQ(0, do_batch(self->fd, self->req, 3, sizeof(self->req[0]),
			      &out));
	EXPECT_EQ(1, out.out_failed);
	EXPECT_EQ(-EIO, self->req[0].out_status);
	EXPECT_EQ(0, self->req[1].out_status);
	EXPECT_EQ(0, self->req[2].out_status);
	EXPECT_EQ(64, self->req[1].out_length);
	/* mk[0] may hold either layout: both registrations stay referenced */
	EXPECT_EQ(0, umr_invalidate(self->fd, self->mk[1]));
	EXPECT_EQ(0, umr_invalidate(self->fd, self->mk[2]));
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->mr1));
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->mr2));
	/* the others did apply */
	memset(in, 0x11, sizeof(in));
	ASSERT_EQ(0, umr_config_list(self->fd, self->mk[3], &self->sge1, 1,
				     NULL));
	ASSERT_EQ(0, umr_xfer(self->fd, self->mkey[3], 0, in, 64, 1));
	EXPECT_EQ(0, memcmp(self->buf1, in, 64));
	/* a later success releases the failed layout's memory */
	ASSERT_EQ(0, umr_config_list(self->fd, self->mk[0], &self->sge1, 1,
				     NULL));
	EXPECT_EQ(0, umr_destroy(self->fd, self->mr2));
}

struct slow_batch {
	int fd;
	struct mlx5_umr_ioc_batch_req *req;
	int ret;
	struct mlx5_umr_ioc_batch out;
};

static void *slow_batch_main(void *arg)
{
	struct slow_batch *sb = arg;

	sb->ret = do_batch(sb->fd, sb->req, 2, sizeof(sb->req[0]), &sb->out);
	return NULL;
}

/*
 * While a batch waits for the HCA (its doorbell delayed by the fake), its
 * mkeys are claimed: a lone configure of one is EBUSY, and so is another
 * batch naming one, at that request's index, having posted nothing and
 * kept nothing of the requests before it.
 */
TEST_F(batch, claimed_mkeys_busy)
{
	struct mlx5_umr_ioc_batch_req other[2];
	struct slow_batch sb = { .fd = self->fd, .req = self->req };
	struct mlx5_umr_ioc_batch out;
	pthread_t t;

	if (umr_fake_knob(self->path, "delay_ms", "1000"))
		SKIP(return, "needs the fake's debugfs");
	ASSERT_EQ(0, pthread_create(&t, NULL, slow_batch_main, &sb));
	usleep(200000);
	EXPECT_EQ(-EBUSY, umr_config_list(self->fd, self->mk[1], &self->sge1,
					  1, NULL));
	EXPECT_EQ(-EBUSY, umr_invalidate(self->fd, self->mk[0]));
	other[0] = self->req[2];
	other[1] = self->req[0];
	EXPECT_EQ(-EBUSY, do_batch(self->fd, other, 2, sizeof(other[0]),
				   &out));
	EXPECT_EQ(1, out.out_index);
	/* nothing executed yet: the slow batch is still held by the fake */
	EXPECT_EQ(0, new_wqes(self));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, sb.ret);
	EXPECT_EQ(0, sb.out.out_failed);
	EXPECT_EQ(2, new_wqes(self));
	/* the refused batch left mk[2] unclaimed and free */
	EXPECT_NE(0, umr_xfer(self->fd, self->mkey[2], 0, &out, 1, 1));
	EXPECT_EQ(0, umr_config_list(self->fd, self->mk[2], &self->sge1, 1,
				     NULL));
	/* and the slow batch's claims are gone too */
	EXPECT_EQ(0, umr_config_list(self->fd, self->mk[1], &self->sge1, 1,
				     NULL));
	EXPECT_EQ(0, umr_invalidate(self->fd, self->mk[0]));
}

/* out_max_batch requests on as many mkeys, posted and settled. */
TEST_F(batch, full_batch)
{
	struct mlx5_umr_ioc_batch_req *req;
	struct mlx5_umr_ioc_batch out;
	struct mlx5_umr_ioc_info info;
	__u32 n, i, *mk, key0 = 0;
	__u8 b;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	n = info.out_max_batch;
	req = calloc(n, sizeof(*req));
	mk = calloc(n, sizeof(*mk));
	ASSERT_NE(NULL, req);
	ASSERT_NE(NULL, mk);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, umr_alloc(self->fd, 1, &mk[i], i ? NULL : &key0));
		req[i] = self->req[0];
		req[i].handle = mk[i];
	}
	ASSERT_EQ(0, do_batch(self->fd, req, n, sizeof(*req), &out));
	EXPECT_EQ(0, out.out_failed);
	for (i = 0; i < n; i++)
		EXPECT_EQ(64, req[i].out_length);
	if (self->wqes0 >= 0)
		EXPECT_EQ(n, new_wqes(self));
	b = 0x99;
	EXPECT_EQ(0, umr_xfer(self->fd, key0, 63, &b, 1, 1));
	EXPECT_EQ(0x99, self->buf2[63]);
	/* all hold mr2: it cannot go; invalidated in one more batch */
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->mr2));
	for (i = 0; i < n; i++) {
		memset(&req[i], 0, sizeof(req[i]));
		req[i].op = MLX5_UMR_IOC_BATCH_INVALIDATE;
		req[i].handle = mk[i];
	}
	ASSERT_EQ(0, do_batch(self->fd, req, n, sizeof(*req), &out));
	EXPECT_EQ(0, out.out_failed);
	EXPECT_EQ(0, umr_destroy(self->fd, self->mr2));
	free(req);
	free(mk);
}

struct slot_waiter {
	int fd;
	struct mlx5_umr_ioc_batch_req *req;	/* NULL: a lone invalidate */
	__u32 n;
	__u32 mk;
	int ret;
	struct mlx5_umr_ioc_batch out;
};

static void *slot_waiter_main(void *arg)
{
	struct slot_waiter *w = arg;

	if (w->req)
		w->ret = do_batch(w->fd, w->req, w->n, sizeof(*w->req),
				  &w->out);
	else
		w->ret = umr_invalidate(w->fd, w->mk);
	return NULL;
}

static void sig_nop(int sig)
{
}

/* Invalidates of @n new mkeys, for filling the share; 0 or -errno. */
static int alloc_invalidates(int fd, __u32 n, __u32 *mk,
			     struct mlx5_umr_ioc_batch_req *req)
{
	__u32 i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = umr_alloc(fd, 1, &mk[i], NULL);
		if (ret)
			return ret;
		req[i] = (struct mlx5_umr_ioc_batch_req){
			.op = MLX5_UMR_IOC_BATCH_INVALIDATE,
			.handle = mk[i],
		};
	}
	return 0;
}

/*
 * The files of a device share MLX5_UMR_IOC_MAX_INFLIGHT_BBS basic blocks
 * of its queue. Two files' batches of 128 invalidates (2 blocks each)
 * stalled on the HCA (the fake delays them) take all of it: a third
 * file's lone invalidate waits for room, and so does another batch of the
 * first file; a signal ends both waits with EINTR, nothing posted and
 * nothing claimed. The stalled batches then complete.
 */
TEST_F(batch, inflight_share)
{
	const __u32 n = MAX_BATCH, nfull = MLX5_UMR_IOC_MAX_INFLIGHT_BBS / 2 / n;
	struct mlx5_umr_ioc_batch_req *full, late[2];
	struct sigaction sa = { .sa_handler = sig_nop };
	struct slot_waiter a[2], lone, b = { .fd = self->fd, .req = late,
					     .n = 2 };
	int fd[2] = { self->fd, umr_open() }, other = umr_open();
	__u32 *mk, lone_mk, i;
	pthread_t ta[2], tl, tb;

	ASSERT_EQ(2, nfull);
	ASSERT_LE(0, fd[1]);
	ASSERT_LE(0, other);
	full = calloc(nfull * n, sizeof(*full));
	mk = calloc(nfull * n, sizeof(*mk));
	ASSERT_NE(NULL, full);
	ASSERT_NE(NULL, mk);
	for (i = 0; i < nfull; i++) {
		ASSERT_EQ(0, alloc_invalidates(fd[i], n, mk + i * n,
					       full + i * n));
		a[i] = (struct slot_waiter){ .fd = fd[i], .req = full + i * n,
					     .n = n };
	}
	ASSERT_EQ(0, umr_alloc(other, 1, &lone_mk, NULL));
	lone = (struct slot_waiter){ .fd = other, .mk = lone_mk };
	for (i = 0; i < 2; i++)
		late[i] = (struct mlx5_umr_ioc_batch_req){
			.op = MLX5_UMR_IOC_BATCH_INVALIDATE,
			.handle = self->mk[1 + i],
		};
	/* no SA_RESTART: an interrupted ioctl returns EINTR */
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	if (umr_fake_knob(self->path, "delay_ms", "2000"))
		SKIP(return, "needs the fake's debugfs");
	for (i = 0; i < nfull; i++) {
		ASSERT_EQ(0, pthread_create(&ta[i], NULL, slot_waiter_main,
					    &a[i]));
		usleep(250 * 1000);
	}
	ASSERT_EQ(0, pthread_create(&tl, NULL, slot_waiter_main, &lone));
	ASSERT_EQ(0, pthread_create(&tb, NULL, slot_waiter_main, &b));
	usleep(250 * 1000);
	ASSERT_EQ(0, pthread_kill(tl, SIGUSR1));
	ASSERT_EQ(0, pthread_kill(tb, SIGUSR1));
	ASSERT_EQ(0, pthread_join(tl, NULL));
	ASSERT_EQ(0, pthread_join(tb, NULL));
	for (i = 0; i < nfull; i++) {
		ASSERT_EQ(0, pthread_join(ta[i], NULL));
		EXPECT_EQ(0, a[i].ret);
		EXPECT_EQ(0, a[i].out.out_failed);
	}
	EXPECT_EQ(-EINTR, lone.ret);
	EXPECT_EQ(-EINTR, b.ret);
	EXPECT_EQ(2, b.out.out_index);
	/* only the full batches reached the HCA */
	if (self->wqes0 >= 0)
		EXPECT_EQ(nfull * n, new_wqes(self));
	/* the interrupted calls claimed nothing they kept */
	EXPECT_EQ(0, umr_invalidate(other, lone_mk));
	EXPECT_EQ(0, umr_invalidate(self->fd, self->mk[1]));
	EXPECT_EQ(0, umr_invalidate(self->fd, self->mk[2]));
	for (i = 0; i < nfull * n; i++)
		EXPECT_EQ(0, umr_destroy(fd[i / n], mk[i]));
	close(fd[1]);
	close(other);
	free(full);
	free(mk);
}

/*
 * The point of the batch: a batch of the most short configures the
 * ioctl takes fits the share, and goes to the HCA with one doorbell.
 */
TEST_F(batch, one_doorbell)
{
	const __u32 n = MAX_BATCH;
	struct mlx5_umr_ioc_batch_req *req = calloc(n, sizeof(*req));
	struct mlx5_umr_ioc_batch out;
	long long db0 = umr_fake_counter(self->path, "send_doorbells");
	__u32 *mk = calloc(n, sizeof(*mk)), i;

	ASSERT_NE(NULL, req);
	ASSERT_NE(NULL, mk);
	if (db0 < 0)
		SKIP(return, "needs the fake's debugfs");
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, umr_alloc(self->fd, 1, &mk[i], NULL));
		req[i] = self->req[0];
		req[i].handle = mk[i];
	}
	db0 = umr_fake_counter(self->path, "send_doorbells");
	ASSERT_EQ(0, do_batch(self->fd, req, n, sizeof(*req), &out));
	EXPECT_EQ(0, out.out_failed);
	EXPECT_EQ(db0 + 1, umr_fake_counter(self->path, "send_doorbells"));
	EXPECT_EQ(n, new_wqes(self));
	for (i = 0; i < n; i++)
		EXPECT_EQ(0, umr_destroy(self->fd, mk[i]));
	free(req);
	free(mk);
}

/*
 * MLX5_UMR_IOC_NEW_KEY in a batch: a configure and an invalidate each
 * report a new key of the same mkey, the old key is refused from then on
 * and the new one works; a request without the flag reports its key as
 * it was. out_key is an output: what userspace left there is ignored.
 */
TEST_F(batch, rotate_keys)
{
	struct mlx5_umr_ioc_batch_req r[3] = { self->req[0], self->req[1],
					       self->req[2] };
	struct mlx5_umr_ioc_batch out;
	__u8 in[64];
	int i;

	for (i = 0; i < 64; i++)
		in[i] = 0x5a ^ i;
	r[0].flags = MLX5_UMR_IOC_NEW_KEY;
	r[0].out_key = 0xdeadbeef;
	r[1] = (struct mlx5_umr_ioc_batch_req){
		.op = MLX5_UMR_IOC_BATCH_INVALIDATE,
		.handle = self->mk[1],
		.flags = MLX5_UMR_IOC_NEW_KEY,
	};
	ASSERT_EQ(0, do_batch(self->fd, r, 3, sizeof(*r), &out));
	EXPECT_EQ(0, out.out_failed);
	EXPECT_EQ(self->mkey[0] >> 8, r[0].out_key >> 8);
	EXPECT_NE(self->mkey[0] & 0xff, r[0].out_key & 0xff);
	EXPECT_EQ(self->mkey[1] >> 8, r[1].out_key >> 8);
	EXPECT_NE(self->mkey[1] & 0xff, r[1].out_key & 0xff);
	EXPECT_EQ(self->mkey[2], r[2].out_key);
	/* the old key names nothing of this file any more */
	EXPECT_EQ(-ENOENT, umr_xfer(self->fd, self->mkey[0], 0, in, 64, 1));
	EXPECT_NE(0, memcmp(self->buf2, in, 64));
	EXPECT_EQ(0, umr_xfer(self->fd, r[0].out_key, 0, in, 64, 1));
	EXPECT_EQ(0, memcmp(self->buf2, in, 64));
	EXPECT_EQ(0, umr_xfer(self->fd, r[2].out_key, 0, in, 64, 0));
	/* the invalidated mkey, configured again, answers to its new key */
	r[1] = self->req[1];
	ASSERT_EQ(0, do_batch(self->fd, &r[1], 1, sizeof(*r), &out));
	EXPECT_EQ(-ENOENT, umr_xfer(self->fd, self->mkey[1], 0, in, 64, 0));
	EXPECT_EQ(0, umr_xfer(self->fd, r[1].out_key, 0, in, 64, 0));
}

TEST_HARNESS_MAIN
