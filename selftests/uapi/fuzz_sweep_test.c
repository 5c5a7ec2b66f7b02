// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: failure sweeps of every ioctl path.
 *
 * For each path (open, each ioctl, close) the Nth slab allocation of the
 * calling task (/proc/thread-self/fail-nth with failslab) or the Nth
 * firmware command of the fake HCA (its fail_cmd_nth) fails, N = 1, 2, ...
 * until the path runs through without reaching the Nth. Each failure must
 * answer an errno of the header's list and leave the file, the device, the
 * HCA and the process's pins as they were; the same call without failure
 * then works. The number of injection points of each path is printed.
 *
 * A failed DESTROY_MKEY keeps what the mkey may reach, on purpose (the
 * HCA may still use it): the destroy paths may answer 0 with the pages
 * still pinned; that is counted, not a failure.
 *
 * The slab sweep needs failslab's ignore-gfp-wait N and verbose 0; it sets
 * them when it can (the UML kernel of scripts/testbed/soak.sh) and skips
 * otherwise (Debian's kernel has no failslab).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "kselftest_harness.h"
#include "umr_util.h"

#define SW_MAX		3000
#define SW_LEN		(4 * PAGE)
#define SW_SGES		60

enum sw_kind { SW_SLAB, SW_CMD };

struct sw {
	char path[256];
	int fd;			/* the file the paths run on */
	int obs;		/* a second file, to read device counters */
	int nth;		/* /proc/thread-self/fail-nth */
	__u8 *buf;
	__u32 mr, key, mk, mk2, extra;
	int extra_fd;
	struct mlx5_umr_ioc_sge sge[SW_SGES];
	struct mlx5_umr_ioc_interleaved il[2];
	struct mlx5_umr_ioc_batch_req req[2];
	unsigned int kept;
};

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

/* What must not change when a call fails. */
struct sw_snap {
	__u32 fd_objs, dev_objs;
	__u64 fd_pinned, dev_pinned;
	long long mkeys, sg_maps, pds;
	long vmpin;
};

static void sw_snap(struct sw *s, struct sw_snap *n)
{
	struct mlx5_umr_ioc_info i;

	memset(n, 0, sizeof(*n));
	if (!umr_info(s->fd, &i)) {
		n->fd_objs = i.out_fd_objects;
		n->fd_pinned = i.out_fd_pinned_pages;
	}
	if (!umr_info(s->obs, &i)) {
		n->dev_objs = i.out_dev_objects;
		n->dev_pinned = i.out_dev_pinned_pages;
	}
	n->mkeys = umr_fake_counter(s->path, "mkeys");
	n->sg_maps = umr_fake_counter(s->path, "sg_maps");
	n->pds = umr_fake_counter(s->path, "pds");
	n->vmpin = umr_vm_pinned_kb();
}

static void sw_arm(struct sw *s, enum sw_kind k, unsigned int n)
{
	char v[32];

	snprintf(v, sizeof(v), "%u", n);
	if (k == SW_SLAB) {
		if (pwrite(s->nth, v, strlen(v), 0) < 0)
			perror("fail-nth");
		return;
	}
	snprintf(v, sizeof(v), "%u 9 %u", n, 0x5eed00 + n);
	umr_fake_knob(s->path, "fail_cmd_nth", v);
}

/* Disarm; whether the Nth was reached (it fired). */
static bool sw_fired(struct sw *s, enum sw_kind k)
{
	char v[32] = "";
	bool fired;

	if (k == SW_SLAB) {
		if (pread(s->nth, v, sizeof(v) - 1, 0) <= 0)
			return false;
		fired = atoi(v) == 0;
		if (pwrite(s->nth, "0", 1, 0) < 0)
			perror("fail-nth");
		return fired;
	}
	fired = umr_fake_counter(s->path, "cmd_nth_left") == 0;
	umr_fake_knob(s->path, "fail_cmd_nth", "0 0 0");
	return fired;
}

/* ---- the paths: op() is the call under test, undo() restores ---- */

static int p_open(struct sw *s)
{
	s->extra_fd = open(s->path, O_RDWR | O_CLOEXEC);
	return s->extra_fd < 0 ? -errno : 0;
}

static void u_open(struct sw *s)
{
	close(s->extra_fd);
}

static int p_info(struct sw *s)
{
	struct mlx5_umr_ioc_info i;

	return umr_info(s->fd, &i);
}

static int p_reg(struct sw *s)
{
	return umr_reg(s->fd, s->buf, SW_LEN, UMR_ACCESS_ALL3, &s->extra,
		       NULL);
}

static void u_destroy_extra(struct sw *s)
{
	umr_destroy(s->fd, s->extra);
}

static int p_alloc(struct sw *s)
{
	return umr_alloc(s->fd, 64, &s->extra, NULL);
}

static int p_configure(struct sw *s)
{
	return umr_config_list(s->fd, s->mk, s->sge, SW_SGES, NULL);
}

static int p_configure_il(struct sw *s)
{
	return umr_config_il(s->fd, s->mk2, s->il, 2, 4, NULL);
}

static int p_invalidate(struct sw *s)
{
	return umr_invalidate(s->fd, s->mk2);
}

static int p_batch(struct sw *s)
{
	struct mlx5_umr_ioc_batch b = {
		.size = sizeof(b), .num_reqs = 2, .req_size = sizeof(s->req[0]),
		.reqs = (uintptr_t)s->req,
	};

	return umr_ioctl(s->fd, MLX5_UMR_IOCTL_BATCH, &b);
}

static int p_xfer(struct sw *s)
{
	__u8 io[256];
	int ret;

	ret = umr_xfer(s->fd, s->key, (uintptr_t)s->buf, io, sizeof(io), 0);
	return ret > 0 ? -EIO : ret;
}

/* destroy: of a fresh registration / mkey made before the call */
static int pre_reg(struct sw *s)
{
	return p_reg(s);
}

static int pre_alloc(struct sw *s)
{
	return p_alloc(s);
}

static int p_destroy(struct sw *s)
{
	return umr_destroy(s->fd, s->extra);
}

/* close: a file with a registration and a configured mkey */
static int pre_close(struct sw *s)
{
	struct mlx5_umr_ioc_sge sge = { (uintptr_t)s->buf, 64, 0 };
	__u32 mr, mk;
	int ret;

	s->extra_fd = open(s->path, O_RDWR | O_CLOEXEC);
	if (s->extra_fd < 0)
		return -errno;
	ret = umr_reg(s->extra_fd, s->buf, SW_LEN, UMR_ACCESS_ALL3, &mr,
		      &sge.lkey) ?:
	      umr_alloc(s->extra_fd, 4, &mk, NULL) ?:
	      umr_config_list(s->extra_fd, mk, &sge, 1, NULL);
	if (ret)
		close(s->extra_fd);
	return ret;
}

static int p_close(struct sw *s)
{
	return close(s->extra_fd) ? -errno : 0;
}

struct sw_path {
	const char *name;
	int (*pre)(struct sw *s);
	int (*op)(struct sw *s);
	void (*undo)(struct sw *s);
	bool destroys;		/* may keep what the HCA may use */
};

static const struct sw_path sw_paths[] = {
	{ "open", NULL, p_open, u_open },
	{ "INFO", NULL, p_info, NULL },
	{ "REG_MR", NULL, p_reg, u_destroy_extra },
	{ "ALLOC_MKEY", NULL, p_alloc, u_destroy_extra },
	{ "CONFIGURE list", NULL, p_configure, NULL },
	{ "CONFIGURE interleaved", NULL, p_configure_il, NULL },
	{ "INVALIDATE", NULL, p_invalidate, NULL },
	{ "BATCH", NULL, p_batch, NULL },
	{ "TEST_XFER", NULL, p_xfer, NULL },
	{ "DESTROY registration", pre_reg, p_destroy, NULL, true },
	{ "DESTROY mkey", pre_alloc, p_destroy, NULL, true },
	{ "close", pre_close, p_close, NULL, true },
};

static void sw_setup(struct __test_metadata *_metadata, struct sw *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	ASSERT_EQ(0, umr_find_dev(s->path, sizeof(s->path)));
	s->fd = umr_open();
	s->obs = umr_open();
	ASSERT_LE(0, s->fd);
	ASSERT_LE(0, s->obs);
	s->buf = umr_map(SW_LEN, 0x3c);
	ASSERT_NE(NULL, s->buf);
	ASSERT_EQ(0, umr_reg(s->fd, s->buf, SW_LEN, UMR_ACCESS_ALL3, &s->mr,
			     &s->key));
	ASSERT_EQ(0, umr_alloc(s->fd, 64, &s->mk, NULL));
	ASSERT_EQ(0, umr_alloc(s->fd, 4, &s->mk2, NULL));
	for (i = 0; i < SW_SGES; i++)
		s->sge[i] = (struct mlx5_umr_ioc_sge){
			(uintptr_t)s->buf + i * 32, 32, s->key };
	for (i = 0; i < 2; i++) {
		s->il[i] = (struct mlx5_umr_ioc_interleaved){
			(uintptr_t)s->buf + i * 1024, 16, 48, s->key, 0 };
		s->req[i].op = MLX5_UMR_IOC_BATCH_CONFIGURE;
		s->req[i].handle = i ? s->mk2 : s->mk;
		s->req[i].access = UMR_ACCESS_ALL3;
		s->req[i].layout = MLX5_UMR_IOC_LAYOUT_LIST;
		s->req[i].num_entries = 2;
		s->req[i].entries = (uintptr_t)&s->sge[2 * i];
	}
	/* the XFER reads through the registration */
	ASSERT_EQ(0, p_xfer(s));
}

static void sw_teardown(struct sw *s)
{
	close(s->fd);
	close(s->obs);
	munmap(s->buf, SW_LEN);
}

/* A failed call left everything as it was. */
static void sw_same(struct __test_metadata *_metadata,
		    const struct sw_snap *a, const struct sw_snap *b,
		    const char *path, unsigned int n)
{
	EXPECT_EQ(a->fd_objs, b->fd_objs) TH_LOG("%s %u: file objects", path, n);
	EXPECT_EQ(a->fd_pinned, b->fd_pinned) TH_LOG("%s %u: file pins", path, n);
	EXPECT_EQ(a->dev_objs, b->dev_objs) TH_LOG("%s %u: objects", path, n);
	EXPECT_EQ(a->dev_pinned, b->dev_pinned) TH_LOG("%s %u: pins", path, n);
	EXPECT_EQ(a->mkeys, b->mkeys) TH_LOG("%s %u: HCA mkeys", path, n);
	EXPECT_EQ(a->sg_maps, b->sg_maps) TH_LOG("%s %u: HCA maps", path, n);
	EXPECT_EQ(a->pds, b->pds) TH_LOG("%s %u: HCA PDs", path, n);
	EXPECT_EQ(a->vmpin, b->vmpin) TH_LOG("%s %u: VmPin", path, n);
}

/* One path, failure after failure; returns its injection points. */
static unsigned int sw_path(struct __test_metadata *_metadata, struct sw *s,
			    const struct sw_path *p, enum sw_kind k)
{
	struct sw_snap before, after;
	unsigned int n;
	bool fired;
	int ret;

	for (n = 1; n < SW_MAX; n++) {
		if (p->pre)
			ASSERT_EQ(0, p->pre(s)) TH_LOG("%s: set-up", p->name);
		sw_snap(s, &before);
		sw_arm(s, k, n);
		ret = p->op(s);
		fired = sw_fired(s, k);
		EXPECT_TRUE(umr_errno_documented(ret))
			TH_LOG("%s, failure %u: answered %d", p->name, n, ret);
		if (!fired) {
			EXPECT_EQ(0, ret) TH_LOG("%s: %d", p->name, ret);
			if (!ret && p->undo)
				p->undo(s);
			break;
		}
		if (!ret) {
			/* a failure the path may absorb: cleanup's */
			if (p->destroys)
				s->kept++;
			else if (p->undo)
				p->undo(s);
			continue;
		}
		sw_snap(s, &after);
		sw_same(_metadata, &before, &after, p->name, n);
		/* the same call, without failure, works */
		EXPECT_EQ(0, p->op(s)) TH_LOG("%s after failure %u", p->name,
					      n);
		if (p->undo)
			p->undo(s);
		if (!_metadata->passed)
			break;
	}
	EXPECT_LT(n, SW_MAX);
	return n - 1;
}

static void sw_sweep(struct __test_metadata *_metadata, enum sw_kind k)
{
	unsigned int i, pts, total = 0;
	struct sw s;

	sw_setup(_metadata, &s);
	s.nth = -1;
	if (k == SW_SLAB)
		s.nth = open("/proc/thread-self/fail-nth", O_RDWR);
	for (i = 0; i < ARRAY_SIZE(sw_paths); i++) {
		pts = sw_path(_metadata, &s, &sw_paths[i], k);
		printf("# %-22s %4u %s injection points\n", sw_paths[i].name,
		       pts, k == SW_SLAB ? "allocation" : "command");
		total += pts;
	}
	printf("# all paths: %u injection points, %u kept by a failed destroy\n",
	       total, s.kept);
	EXPECT_LT(0, total);
	if (s.nth >= 0)
		close(s.nth);
	sw_teardown(&s);
}

/* failslab's knobs: GFP_KERNEL allocations fail too, without a stack. */
static int sw_failslab(const char *knob, const char *val)
{
	char file[128];
	int fd, ret;

	snprintf(file, sizeof(file), "/sys/kernel/debug/failslab/%s", knob);
	fd = open(file, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write(fd, val, strlen(val)) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

TEST_F_TIMEOUT(long_run, sweep_slab, 900)
{
	if (access("/proc/thread-self/fail-nth", W_OK) ||
	    sw_failslab("ignore-gfp-wait", "N") || sw_failslab("verbose", "0"))
		SKIP(return, "no failslab with fail-nth in this kernel");
	sw_sweep(_metadata, SW_SLAB);
}

TEST_F_TIMEOUT(long_run, sweep_cmd, 900)
{
	char path[256];

	ASSERT_EQ(0, umr_find_dev(path, sizeof(path)));
	if (umr_fake_knob(path, "fail_cmd_nth", "0 0 0"))
		SKIP(return, "needs the fake's debugfs");
	sw_sweep(_metadata, SW_CMD);
}

TEST_HARNESS_MAIN
