// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MLX5_UMR_IOCTL_SET_PD selftests, on a fake HCA (mlx5_umr_fake).
 *
 * A file's objects go in the caller's own verbs PD. The fake stands in for
 * that PD (debugfs alloc_pd: a PD as ibv_alloc_pd() makes one) and for the
 * caller's ibv_qp (debugfs probe_read: a read by a QP of a given PD). A
 * key in the caller's PD is accepted by a QP of that PD and refused by a
 * QP of any other; the PD outlives the file. Every refusal is here with
 * its errno, and after each the fake holds no more PDs or mkeys than
 * before and the file can still do what it could.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "kselftest_harness.h"
#include "umr_util.h"

#define MAX_PDS 64

/* Every PD number of the fake behind @path (debugfs "pds"), or -1. */
static int fake_pds(const char *path, unsigned int *pd, int max)
{
	char file[300];
	int n = 0;
	FILE *f;

	umr_fake_dbg_file(file, sizeof(file), path, "pds");
	f = fopen(file, "r");
	if (!f)
		return -1;
	while (n < max && fscanf(f, "%u", &pd[n]) == 1)
		n++;
	fclose(f);
	return n;
}

/* A consumer PD on the fake (the caller's ibv_alloc_pd()): its number. */
static long long consumer_pd(const char *path)
{
	unsigned int a[MAX_PDS], b[MAX_PDS];
	int na, nb, i, j;

	na = fake_pds(path, a, MAX_PDS);
	if (na < 0 || umr_fake_knob(path, "alloc_pd", "1"))
		return -1;
	nb = fake_pds(path, b, MAX_PDS);
	for (i = 0; i < nb; i++) {
		for (j = 0; j < na && a[j] != b[i]; j++)
			;
		if (j == na)
			return b[i];
	}
	return -1;
}

static int free_pd(const char *path, long long pd)
{
	char v[32];

	snprintf(v, sizeof(v), "%lld", pd);
	return umr_fake_knob(path, "free_pd", v);
}

/* A one-byte RDMA READ through @key by a QP of PD @pd: 0 or -errno. */
static int probe_read(const char *path, long long pd, __u32 key)
{
	char v[64];

	snprintf(v, sizeof(v), "%lld %u 0", pd, key);
	return umr_fake_knob(path, "probe_read", v);
}

/*
 * The module parameter that lets SET_PD take a bare number: 'Y' or 'N',
 * or 0 when the module has none (an older one, which always took it).
 */
#define UNVERIFIED "/sys/module/mlx5_umr/parameters/unverified_set_pd"

static char unverified_get(void)
{
	char c = 0;
	int fd = open(UNVERIFIED, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c;
}

static int unverified_set(char c)
{
	int fd = open(UNVERIFIED, O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, &c, 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

/* The verified form, with the fields it carries. */
static int set_pd_verbs(int fd, int cmd_fd, __u32 handle, __u32 id)
{
	struct mlx5_umr_ioc_set_pd cmd = {
		.size = sizeof(cmd),
		.flags = MLX5_UMR_IOC_SET_PD_VERBS,
		.cmd_fd = cmd_fd,
		.pd_handle = handle,
		.pd_id = id,
	};

	return umr_ioctl(fd, MLX5_UMR_IOCTL_SET_PD, &cmd);
}

static int set_pd(int fd, __u32 pdn)
{
	struct mlx5_umr_ioc_set_pd cmd = { .size = sizeof(cmd), .pdn = pdn };

	return umr_ioctl(fd, MLX5_UMR_IOCTL_SET_PD, &cmd);
}

FIXTURE(pd) {
	char unverified0;	/* the module parameter before the test */
	int fd;
	char path[256];
	long long pd;		/* the caller's PD */
	long long pds0, mkeys0;
	__u8 *buf;
};

FIXTURE_SETUP(pd)
{
	/* the fake's consumer PDs are bare numbers: the test path allows them */
	self->unverified0 = unverified_get();
	if (self->unverified0)
		ASSERT_EQ(0, unverified_set('Y'));
	ASSERT_EQ(0, umr_find_dev(self->path, sizeof(self->path)));
	self->fd = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	self->pd = consumer_pd(self->path);
	if (self->pd < 0)
		SKIP(return, "no debugfs consumer PDs (a test build's fake)");
	self->pds0 = umr_fake_counter(self->path, "pds");
	self->mkeys0 = umr_fake_counter(self->path, "mkeys");
	self->buf = umr_map(PAGE, 0x5a);
	ASSERT_NE(NULL, self->buf);
}

FIXTURE_TEARDOWN(pd)
{
	if (self->unverified0)
		EXPECT_EQ(0, unverified_set(self->unverified0));
	if (self->fd >= 0)
		close(self->fd);
	if (self->pd >= 0)
		EXPECT_EQ(0, free_pd(self->path, self->pd));
	if (self->buf)
		munmap(self->buf, PAGE);
}

/* Nothing left on the fake: as many PDs and mkeys as after setup. */
#define EXPECT_FAKE_UNCHANGED()						\
	do {								\
		EXPECT_EQ(self->pds0,					\
			  umr_fake_counter(self->path, "pds"));		\
		EXPECT_EQ(self->mkeys0,					\
			  umr_fake_counter(self->path, "mkeys"));	\
	} while (0)

/*
 * Registrations and mkeys in the caller's PD: read by a QP of that PD, not
 * by one of the file's former PD or of another consumer; the file's own PD
 * is gone, the caller's stays after close and is empty.
 */
TEST_F(pd, keys_in_callers_pd)
{
	struct mlx5_umr_ioc_sge sge;
	__u32 mr, key, mk, mkey, mk0, mkey0;
	long long own, other;
	int fd0;

	/* the file's own PD, as another file of the same device shows it */
	fd0 = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd0);
	ASSERT_EQ(0, umr_alloc(fd0, 1, &mk0, &mkey0));
	own = umr_fake_mkey_pd(self->path, mkey0);
	ASSERT_LE(0, own);
	close(fd0);

	ASSERT_EQ(0, set_pd(self->fd, self->pd));
	/* again, before any object: the same PD is accepted */
	ASSERT_EQ(0, set_pd(self->fd, self->pd));
	/* open() allocates no PD: the first object would have */
	EXPECT_EQ(self->pds0, umr_fake_counter(self->path, "pds"));
	ASSERT_EQ(0, umr_reg(self->fd, self->buf, PAGE, UMR_ACCESS_ALL3, &mr,
			     &key));
	ASSERT_EQ(0, umr_alloc(self->fd, 2, &mk, &mkey));
	EXPECT_EQ(self->pd, umr_fake_mkey_pd(self->path, key));
	EXPECT_EQ(self->pd, umr_fake_mkey_pd(self->path, mkey));
	sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf, 64, key };
	ASSERT_EQ(0, umr_config_list(self->fd, mk, &sge, 1, NULL));

	EXPECT_EQ(0, probe_read(self->path, self->pd, mkey));
	EXPECT_EQ(0, probe_read(self->path, self->pd, key));
	other = consumer_pd(self->path);
	ASSERT_LE(0, other);
	EXPECT_EQ(-EACCES, probe_read(self->path, other, mkey));
	EXPECT_EQ(-EACCES, probe_read(self->path, other, key));
	EXPECT_EQ(-EACCES, probe_read(self->path, own, mkey));
	EXPECT_EQ(0, free_pd(self->path, other));

	/* the caller's PD stays busy while the file's objects are in it */
	EXPECT_EQ(-EBUSY, free_pd(self->path, self->pd));
	close(self->fd);
	self->fd = -1;
	/* teardown frees it: the file left nothing in it */
	EXPECT_EQ(self->pds0, umr_fake_counter(self->path, "pds"));
	EXPECT_EQ(self->mkeys0, umr_fake_counter(self->path, "mkeys"));
}

/* Each refusal with its errno; nothing created, the file unchanged. */
TEST_F(pd, refusals)
{
	struct mlx5_umr_ioc_set_pd cmd;
	__u32 mk, mkey, mk2, mkey2;
	long long own2;
	int fd2;

	memset(&cmd, 0, sizeof(cmd));
	cmd.size = sizeof(cmd);
	cmd.pdn = self->pd;
	cmd.flags = 2;
	EXPECT_EQ(-EOPNOTSUPP, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SET_PD,
					 &cmd));
	cmd.flags = 0;
	cmd.__reserved = 1;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SET_PD, &cmd));
	cmd.__reserved = 0;
	cmd.size = offsetof(struct mlx5_umr_ioc_set_pd, pdn);
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SET_PD, &cmd));
	EXPECT_EQ(-EINVAL, set_pd(self->fd, 0));
	EXPECT_EQ(-EINVAL, set_pd(self->fd, 1U << 24));
	EXPECT_FAKE_UNCHANGED();

	/* a PD the HCA does not have: the number after every PD it has */
	EXPECT_EQ(-ENOENT, set_pd(self->fd, 0xfffff0));
	EXPECT_FAKE_UNCHANGED();

	/* another open file's own PD */
	fd2 = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, umr_alloc(fd2, 1, &mk2, &mkey2));
	own2 = umr_fake_mkey_pd(self->path, mkey2);
	ASSERT_LE(0, own2);
	EXPECT_EQ(-EACCES, set_pd(self->fd, own2));
	/* the service's own PD: its REG_UMR QP's, as the fake's qps show */
	close(fd2);

	/* after the file's first object */
	ASSERT_EQ(0, umr_alloc(self->fd, 1, &mk, &mkey));
	EXPECT_EQ(-EBUSY, set_pd(self->fd, self->pd));
	/* still in the file's own PD, which a QP of that PD reads */
	EXPECT_NE(self->pd, umr_fake_mkey_pd(self->path, mkey));
	ASSERT_EQ(0, umr_destroy(self->fd, mk));
	/* even with no object left: the PD was decided */
	EXPECT_EQ(-EBUSY, set_pd(self->fd, self->pd));
	/* the file's own PD, made by its first object, goes at close */
	EXPECT_EQ(self->pds0 + 1, umr_fake_counter(self->path, "pds"));
	EXPECT_EQ(self->mkeys0, umr_fake_counter(self->path, "mkeys"));
	close(self->fd);
	self->fd = -1;
	EXPECT_FAKE_UNCHANGED();
}

/*
 * Issue 30: a bare number is not proven to be the caller's PD (it may be
 * another user's or a kernel ULP's): refused unless the administrator
 * allows it, and nothing changes (the objects go in the file's own PD).
 */
TEST_F(pd, unverified_refused_by_default)
{
	__u32 mk, mkey;

	/* off by default; a module without the parameter took any number */
	if (self->unverified0) {
		EXPECT_EQ('N', self->unverified0);
		ASSERT_EQ(0, unverified_set('N'));
	}
	EXPECT_EQ(-EPERM, set_pd(self->fd, self->pd));
	/* the checks of the number come first, as before */
	EXPECT_EQ(-EINVAL, set_pd(self->fd, 0));
	EXPECT_FAKE_UNCHANGED();
	ASSERT_EQ(0, umr_alloc(self->fd, 1, &mk, &mkey));
	EXPECT_NE(self->pd, umr_fake_mkey_pd(self->path, mkey));
	EXPECT_EQ(-EACCES, probe_read(self->path, self->pd, mkey));
	EXPECT_EQ(0, umr_destroy(self->fd, mk));
}

/*
 * The verified form without a verbs device (pd_verbs_test.c has the
 * checks that need one): each refusal with its errno, before the fd is
 * looked at as anything but a file; the file unchanged and usable.
 */
TEST_F(pd, verbs_refusals)
{
	struct mlx5_umr_ioc_set_pd cmd;
	int null, p[2];
	__u32 mk, mkey;

	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, null);
	ASSERT_EQ(0, pipe2(p, O_CLOEXEC));

	memset(&cmd, 0, sizeof(cmd));
	cmd.flags = MLX5_UMR_IOC_SET_PD_VERBS;
	cmd.cmd_fd = null;
	/* the first version carries no fd */
	cmd.size = MLX5_UMR_IOC_SET_PD_SIZE_VER1;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SET_PD, &cmd));
	cmd.size = sizeof(cmd);
	cmd.pdn = self->pd;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SET_PD, &cmd));
	cmd.pdn = 0;
	cmd.__reserved2 = 1;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SET_PD, &cmd));
	cmd.__reserved2 = 0;
	/* the bare form carries no fd, handle or id */
	cmd.flags = 0;
	cmd.pdn = self->pd;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SET_PD, &cmd));

	/* no open file */
	EXPECT_EQ(-EBADF, set_pd_verbs(self->fd, -1, 1, 1));
	EXPECT_EQ(-EBADF, set_pd_verbs(self->fd, 1 << 20, 1, 1));
	/* files that are not verbs command files, whatever their private_data */
	EXPECT_EQ(-EINVAL, set_pd_verbs(self->fd, null, 0, 0));
	EXPECT_EQ(-EINVAL, set_pd_verbs(self->fd, p[0], 0, 0));
	EXPECT_EQ(-EINVAL, set_pd_verbs(self->fd, self->fd, 0, 0));
	EXPECT_FAKE_UNCHANGED();
	close(null);
	close(p[0]);
	close(p[1]);

	/* nothing was bound: the bare number is still accepted, once */
	ASSERT_EQ(0, set_pd(self->fd, self->pd));
	ASSERT_EQ(0, umr_alloc(self->fd, 1, &mk, &mkey));
	EXPECT_EQ(self->pd, umr_fake_mkey_pd(self->path, mkey));
	EXPECT_EQ(0, umr_destroy(self->fd, mk));
}

/* Sizes: a non-zero unknown tail is E2BIG, a zero one is accepted. */
TEST_F(pd, sizes)
{
	struct {
		struct mlx5_umr_ioc_set_pd cmd;
		__u64 tail;
	} big;
	__u32 mk, mkey;

	memset(&big, 0, sizeof(big));
	big.cmd.size = sizeof(big);
	big.cmd.pdn = self->pd;
	big.tail = 1;
	EXPECT_EQ(-E2BIG, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SET_PD, &big));
	EXPECT_FAKE_UNCHANGED();
	big.tail = 0;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SET_PD, &big));
	EXPECT_EQ(0, big.tail);
	ASSERT_EQ(0, umr_alloc(self->fd, 1, &mk, &mkey));
	EXPECT_EQ(self->pd, umr_fake_mkey_pd(self->path, mkey));
	EXPECT_EQ(0, umr_destroy(self->fd, mk));
}

/*
 * The service's PD: that of its REG_UMR QPs (the fake's "qps"; no file
 * has a signature mkey, so no QP is in a file's PD).
 */
TEST_F(pd, service_pd_refused)
{
	unsigned int qpn[MAX_PDS], pdn[MAX_PDS];
	unsigned long long w[MAX_PDS];
	int n, i;

	n = umr_fake_qps(self->path, qpn, w, pdn, MAX_PDS);
	if (n <= 0)
		SKIP(return, "the fake's qps shows no QP");
	for (i = 1; i < n; i++)
		EXPECT_EQ(pdn[0], pdn[i]);
	EXPECT_EQ(-EACCES, set_pd(self->fd, pdn[0]));
	EXPECT_FAKE_UNCHANGED();
}

/*
 * Issue 30 item 5: an ALLOC_MKEY the HCA refused created nothing, so the
 * file may still choose its PD (EBUSY only after an object was created).
 */
TEST_F(pd, set_pd_after_failed_alloc)
{
	__u32 mk, mkey;

	/* MLX5_CMD_OP_CREATE_MKEY, MLX5_CMD_STAT_BAD_PARAM_ERR */
	if (umr_fake_knob(self->path, "fail_cmd", "0x200 0x3 0x1"))
		SKIP(return, "needs the fake's debugfs");
	EXPECT_EQ(-EIO, umr_alloc(self->fd, 1, &mk, &mkey));
	ASSERT_EQ(0, set_pd(self->fd, self->pd));
	ASSERT_EQ(0, umr_alloc(self->fd, 1, &mk, &mkey));
	EXPECT_EQ(self->pd, umr_fake_mkey_pd(self->path, mkey));
	EXPECT_EQ(-EBUSY, set_pd(self->fd, self->pd));
	EXPECT_EQ(0, umr_destroy(self->fd, mk));
	/* the own PD the failed call allocated was freed by SET_PD */
	EXPECT_FAKE_UNCHANGED();
}

/*
 * Issue 30 item 7: no signature mkey in the caller's PD, which may be a
 * kernel ULP's (mlx5_ib's CQ oopses on the SIG_ERR CQE of a service
 * mkey). Nothing is created; a plain mkey still goes there.
 */
TEST_F(pd, no_signature_mkey_in_callers_pd)
{
	struct mlx5_umr_ioc_alloc_mkey cmd = {
		.size = sizeof(cmd),
		.flags = MLX5_UMR_IOC_MKEY_SIGNATURE,
		.max_entries = 1,
	};
	struct mlx5_umr_ioc_info info;
	__u32 mk, mkey;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	if (!(info.out_flags & MLX5_UMR_IOC_INFO_SIG))
		SKIP(return, "no signature offload");
	ASSERT_EQ(0, set_pd(self->fd, self->pd));
	EXPECT_EQ(-EOPNOTSUPP, umr_ioctl(self->fd, MLX5_UMR_IOCTL_ALLOC_MKEY,
					 &cmd));
	EXPECT_FAKE_UNCHANGED();
	ASSERT_EQ(0, umr_alloc(self->fd, 1, &mk, &mkey));
	EXPECT_EQ(self->pd, umr_fake_mkey_pd(self->path, mkey));
	EXPECT_EQ(-EOPNOTSUPP, umr_ioctl(self->fd, MLX5_UMR_IOCTL_ALLOC_MKEY,
					 &cmd));
	EXPECT_EQ(0, umr_destroy(self->fd, mk));
	EXPECT_FAKE_UNCHANGED();
}

struct race {
	const char *path;
	int stop;		/* __atomic_*: the opener thread's end */
	int opens;
};

/* Open a file, give it its own PD (its first object), close it; again. */
static void *race_opener(void *arg)
{
	struct race *r = arg;
	__u32 mk, mkey;
	int fd;

	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		fd = open(r->path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			break;
		umr_alloc(fd, 1, &mk, &mkey);
		close(fd);
		r->opens++;
	}
	return NULL;
}

/*
 * Issue 30 item 1: SET_PD of the number the next file's own PD gets,
 * while another thread opens files, gives them their PD and closes them.
 * SET_PD must never take another file's own PD (it was accepted within a
 * handful of tries: the PD was allocated before the file was listed, and
 * the check and the probe mkey were not under one lock), and no PD or
 * mkey may be left behind.
 */
TEST_F(pd, set_pd_races_own_pds)
{
	unsigned int pds[MAX_PDS];
	int i, j, n, ret, fd, tries = 0, taken = 0, other = 0;
	__u32 mk, mkey, x[2];
	struct race r = { .path = self->path };
	pthread_t t;

	/* the number a file's own PD gets now, and the one after */
	fd = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, umr_alloc(fd, 1, &mk, &mkey));
	x[0] = umr_fake_mkey_pd(self->path, mkey);
	close(fd);
	x[1] = x[0] + 1;
	n = fake_pds(self->path, pds, MAX_PDS);
	ASSERT_LT(0, n);
	for (i = 0; i < n; i++)
		ASSERT_NE(x[1], pds[i]);

	ASSERT_EQ(0, pthread_create(&t, NULL, race_opener, &r));
	for (i = 0; i < 2000 && !taken; i++) {
		fd = open(self->path, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, fd);
		for (j = 0; j < 2 && !taken; j++) {
			tries++;
			ret = set_pd(fd, x[j]);
			if (!ret) {
				taken++;
				/* what the attacker gets: a key in it */
				umr_alloc(fd, 1, &mk, &mkey);
			} else if (ret != -ENOENT && ret != -EACCES) {
				other++;
			}
		}
		close(fd);
	}
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	TH_LOG("%d SET_PDs against %d opens", tries, r.opens);
	EXPECT_EQ(0, taken);
	EXPECT_EQ(0, other);
	EXPECT_LT(0, r.opens);
	EXPECT_FAKE_UNCHANGED();
}

/*
 * Issue 30 item 1, without a race: the caller's PD number is freed by its
 * owner and becomes another file's own PD; the file that named it must
 * not create an object in it (EACCES), else that file's close could not
 * free its PD. The number is checked again at each creation.
 */
TEST_F(pd, named_pd_becomes_own_pd)
{
	__u32 mk, mkey, mka, mkeya;
	long long x = self->pd, own = -1;
	int fa[8], n, i;

	ASSERT_EQ(0, set_pd(self->fd, x));
	/* its owner frees it while the file holds nothing in it */
	ASSERT_EQ(0, free_pd(self->path, x));
	/* files with an object each, until one's own PD has the number */
	for (n = 0; n < 8 && own != x; n++) {
		fa[n] = open(self->path, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, fa[n]);
		ASSERT_EQ(0, umr_alloc(fa[n], 1, &mka, &mkeya));
		own = umr_fake_mkey_pd(self->path, mkeya);
	}
	if (own == x) {
		EXPECT_EQ(-EACCES, umr_alloc(self->fd, 1, &mk, &mkey));
		EXPECT_EQ(-EACCES, umr_reg(self->fd, self->buf, PAGE,
					   UMR_ACCESS_ALL3, &mk, &mkey));
	}
	for (i = 0; i < n; i++)
		close(fa[i]);
	close(self->fd);
	self->fd = -1;
	self->pd = -1;
	if (own != x)
		SKIP(return, "no file got the freed number");
	/* the files' PDs went with them: nothing of ours was in them */
	EXPECT_EQ(self->pds0 - 1, umr_fake_counter(self->path, "pds"));
	EXPECT_EQ(self->mkeys0, umr_fake_counter(self->path, "mkeys"));
}

TEST_HARNESS_MAIN
