// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr uapi as unprivileged users meet it, on a fake HCA.
 *
 * The harness runs as root; each case runs its body as one of the image's
 * users (unpriv_users.h) in a child with no capabilities: TEST_AS() names
 * the user and the node mode the case needs (0: the driver's default).
 * The fixture restores the node's mode and group afterwards and checks,
 * as root, that the device and the fake HCA hold nothing more than before.
 * Documentation/uapi.rst ("Who may open the device") cites these cases.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "umr_util.h"
#include "unpriv_users.h"

#define FAKE_DBG	"/sys/kernel/debug/mlx5_umr_fake"
#define CGROUP_ROOT	"/sys/fs/cgroup"
#define CGROUP		CGROUP_ROOT "/mlx5-umr-unpriv"
#define MAX_DBG		32

FIXTURE(unpriv) {
	char path[256];
	struct stat node0;		/* the node before the test */
	struct mlx5_umr_ioc_info info0;	/* the device before (as root) */
	long long hca0[3];		/* the fake's counters before */
	char dbg[MAX_DBG][300];		/* the fake's debugfs files */
	int ndbg;
	bool cgroup;			/* CGROUP was made */
};

static const char * const hca_counters[3] = {
	"mkeys", "sg_maps", "iommu_pages"
};

FIXTURE_SETUP(unpriv)
{
	const char *base;
	char dir[300];
	struct dirent *de;
	DIR *d;
	int fd, i;

	ASSERT_EQ(0, umr_find_dev(self->path, sizeof(self->path)))
		TH_LOG("no fake mlx5-umr device");
	ASSERT_EQ(0, stat(self->path, &self->node0));
	fd = open(self->path, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, umr_info(fd, &self->info0));
	close(fd);
	for (i = 0; i < 3; i++)
		self->hca0[i] = umr_fake_counter(self->path, hca_counters[i]);
	base = strrchr(self->path, '/') + 1;
	snprintf(dir, sizeof(dir), FAKE_DBG "/%.200s", base);
	d = opendir(dir);
	while (d && (de = readdir(d)) && self->ndbg < MAX_DBG)
		if (de->d_name[0] != '.')
			snprintf(self->dbg[self->ndbg++], sizeof(self->dbg[0]),
				 "%.200s/%.64s", dir, de->d_name);
	if (d)
		closedir(d);
}

/*
 * EXPECT, not ASSERT: after an ASSERT failed in the test, the 6.1
 * harness's handler flag is still set, and an ASSERT here would jump back
 * into the teardown (and one failing here would loop in it).
 */
FIXTURE_TEARDOWN(unpriv)
{
	struct mlx5_umr_ioc_info info = { 0 };
	int fd, i;

	EXPECT_EQ(0, chown(self->path, self->node0.st_uid,
			   self->node0.st_gid));
	EXPECT_EQ(0, chmod(self->path, self->node0.st_mode & 07777));
	if (self->cgroup)
		EXPECT_EQ(0, rmdir(CGROUP));
	fd = open(self->path, O_RDWR);
	EXPECT_LE(0, fd);
	if (fd < 0)
		return;
	EXPECT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(self->info0.out_dev_objects, info.out_dev_objects);
	EXPECT_EQ(self->info0.out_dev_pinned_pages, info.out_dev_pinned_pages);
	close(fd);
	for (i = 0; i < 3; i++)
		if (self->hca0[i] >= 0)
			EXPECT_EQ(self->hca0[i],
				  umr_fake_counter(self->path, hca_counters[i]))
				TH_LOG("fake counter #%d", i);
}

typedef void (*unpriv_fn)(struct __test_metadata *_metadata,
			  struct _test_data_unpriv *self, void *arg);

/* Where a child of the test runs: as whom, in which cgroup. */
struct as_opts {
	const struct umr_user *user;
	const char *cgroup;	/* join it first (and cannot be OOM-killed) */
};

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * Fork; the child becomes @o->user and runs @fn. Its ASSERTs end the
 * child only (their longjmp lands here, not in the harness's wrapper,
 * which would run the teardown in the child); its result is the exit
 * code umr_wait_as() checks.
 */
static pid_t umr_start_as(struct __test_metadata *_metadata,
			  struct _test_data_unpriv *self, const struct as_opts *o,
			  unpriv_fn fn, void *arg)
{
	char err[128];
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid)
		return pid;
	if (o->cgroup) {
		char procs[300];

		snprintf(procs, sizeof(procs), "%s/cgroup.procs", o->cgroup);
		if (write_str(procs, "0") ||
		    write_str("/proc/self/oom_score_adj", "-1000")) {
			fprintf(stderr, "# joining %s failed\n", o->cgroup);
			_exit(2);
		}
	}
	if (umr_become(o->user, UMR_USER_MEMLOCK, err, sizeof(err))) {
		fprintf(stderr, "# %s\n", err);
		_exit(3);
	}
	if (setjmp(_metadata->env) == 0)
		fn(_metadata, self, arg);
	if (_metadata->skip)
		_exit(4);
	_exit(_metadata->passed ? 0 : 1);
}

static void umr_wait_as(struct __test_metadata *_metadata, pid_t pid,
			const struct umr_user *u)
{
	int status;

	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status))
		TH_LOG("%s: signal %d", u->name, WTERMSIG(status));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
		SKIP(return, "as %s", u->name);
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("as %s", u->name);
}

static void run_as(struct __test_metadata *_metadata,
		   struct _test_data_unpriv *self, const struct umr_user *u,
		   unpriv_fn fn, void *arg)
{
	struct as_opts o = { .user = u };

	umr_wait_as(_metadata, umr_start_as(_metadata, self, &o, fn, arg), u);
}

/* The example udev rule, installed next to the test (not executable). */
#define UDEV_RULE	"90-mlx5-umr.rules"
/* A node mode meaning: as the example rule leaves it. */
#define MODE_RULE	010000

/* A "KEY=\"value\"" assignment of the rule, or NULL. */
static const char *rule_value(const char *line, const char *key, char *val,
			      size_t len)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), "%s=\"", key);
	p = strstr(line, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	snprintf(val, len, "%.*s", (int)strcspn(p, "\""), p);
	return val;
}

/* The gid of @name in the image's /etc/group, or -1. */
static long group_gid(const char *name)
{
	char line[256];
	size_t n = strlen(name);
	long gid = -1;
	FILE *f = fopen("/etc/group", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ':' &&
		    sscanf(line + n, ":%*[^:]:%ld", &gid) == 1)
			break;
	fclose(f);
	return gid;
}

/*
 * The node as the example rule leaves it (MODE_RULE: its GROUP and MODE,
 * read from the rule file), or open to all with group mlx5umr (@mode).
 */
static void relax(struct __test_metadata *_metadata,
		  struct _test_data_unpriv *self, mode_t mode)
{
	char line[512], group[64] = "", m[16] = "";
	const char *rule = getenv("MLX5_UMR_UDEV_RULE") ?: UDEV_RULE;
	long gid = UMR_GID_MLX5UMR;
	FILE *f;

	if (!mode)
		return;
	if (mode == MODE_RULE) {
		f = fopen(rule, "r");
		ASSERT_NE(NULL, f) TH_LOG("%s: %s", rule, strerror(errno));
		while (fgets(line, sizeof(line), f))
			if (line[0] != '#' && strstr(line, "mlx5_umr_")) {
				rule_value(line, "GROUP", group, sizeof(group));
				rule_value(line, "MODE", m, sizeof(m));
			}
		fclose(f);
		gid = group_gid(group);
		ASSERT_EQ(UMR_GID_MLX5UMR, gid) TH_LOG("GROUP=\"%s\"", group);
		mode = strtoul(m, NULL, 8);
		ASSERT_EQ(0660, mode) TH_LOG("MODE=\"%s\"", m);
	}
	ASSERT_EQ(0, chown(self->path, 0, gid));
	ASSERT_EQ(0, chmod(self->path, mode));
}

/*
 * A case whose body runs as @user, with the node at @mode (0: as the
 * driver made it; MODE_RULE: as the example udev rule leaves it).
 */
#define TEST_AS(name, user, mode)					\
	static void name##_as(struct __test_metadata *_metadata,	\
			      struct _test_data_unpriv *self, void *arg);	\
	TEST_F_TIMEOUT(unpriv, name, 120)				\
	{								\
		relax(_metadata, self, mode);				\
		run_as(_metadata, self, &(user), name##_as, NULL);	\
	}								\
	static void name##_as(struct __test_metadata *_metadata,	\
			      struct _test_data_unpriv *self,		\
			      void *arg)

static void refused(struct __test_metadata *_metadata,
		    struct _test_data_unpriv *self, void *arg)
{
	EXPECT_EQ(-1, open(self->path, O_RDWR));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, open(self->path, O_RDONLY));
	EXPECT_EQ(EACCES, errno);
}

/* The driver's node: 0600, root's; no other user opens it. */
TEST_AS(default_mode_refused, umr_user1, 0)
{
	struct stat st;

	ASSERT_EQ(0, stat(self->path, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0600, st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);
	EXPECT_EQ(0, st.st_gid);
	refused(_metadata, self, NULL);
}

/* The example rule's node (mlx5umr, 0660): the group's members only. */
TEST_AS(group_mode_others_refused, umr_user2, MODE_RULE)
{
	refused(_metadata, self, NULL);
}

static __u8 pat(__u64 i)
{
	return (__u8)((i * 29 + 3) ^ (i >> 7));
}

/*
 * Every ioctl, bytes checked, as a member of mlx5umr with the example
 * rule's mode: no capability is needed for any of it, and pinning stays
 * within RLIMIT_MEMLOCK.
 */
TEST_AS(whole_uapi, umr_user1, MODE_RULE)
{
	struct mlx5_umr_ioc_batch_req req[2];
	struct mlx5_umr_ioc_batch batch = {
		.size = sizeof(batch), .num_reqs = 2,
		.req_size = sizeof(req[0]), .reqs = (uintptr_t)req,
	};
	struct mlx5_umr_ioc_sge sge[2], sge2[1];
	struct mlx5_umr_ioc_interleaved il[1];
	struct mlx5_umr_ioc_info info;
	__u32 mr1, key1, mr2, key2, mk1, mkey1, mk2, mkey2, h;
	__u8 in[512], out[512], *b1, *b2, *big;
	struct rlimit rl;
	long pin0;
	__u64 len;
	int fd, i;

	fd = umr_open();
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(0, info.out_fd_objects);
	EXPECT_EQ(0, info.out_dev_objects);
	EXPECT_EQ(0, info.out_dev_pinned_pages);
	EXPECT_EQ(MLX5_UMR_IOC_MAX_FD_MKEYS, info.out_max_fd_mkeys);
	pin0 = umr_vm_pinned_kb();
	b1 = umr_map(4 * PAGE, 0x11);
	b2 = umr_map(4 * PAGE, 0x22);
	ASSERT_NE(NULL, b1);
	ASSERT_NE(NULL, b2);
	ASSERT_EQ(0, umr_reg(fd, b1, 4 * PAGE, UMR_ACCESS_ALL3, &mr1, &key1));
	ASSERT_EQ(0, umr_reg(fd, b2, 4 * PAGE, UMR_ACCESS_ALL3, &mr2, &key2));
	EXPECT_EQ(pin0 + 32, umr_vm_pinned_kb());
	ASSERT_EQ(0, umr_alloc(fd, 4, &mk1, &mkey1));
	ASSERT_EQ(0, umr_alloc(fd, 4, &mk2, &mkey2));
	ASSERT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(4, info.out_fd_objects);
	EXPECT_EQ(8, info.out_fd_pinned_pages);
	EXPECT_EQ(0, info.out_dev_objects);

	/* a list: 200 bytes of b1, then 100 of b2 */
	sge[0] = (struct mlx5_umr_ioc_sge){ (uintptr_t)b1 + 100, 200, key1 };
	sge[1] = (struct mlx5_umr_ioc_sge){ (uintptr_t)b2 + 300, 100, key2 };
	ASSERT_EQ(0, umr_config_list(fd, mk1, sge, 2, &len));
	EXPECT_EQ(300, len);
	for (i = 0; i < 300; i++)
		in[i] = pat(i);
	ASSERT_EQ(0, umr_xfer(fd, mkey1, 0, in, 300, 1));
	EXPECT_EQ(0, memcmp(b1 + 100, in, 200));
	EXPECT_EQ(0, memcmp(b2 + 300, in + 200, 100));
	EXPECT_EQ(0x11, b1[99]);
	EXPECT_EQ(0x11, b1[300]);
	ASSERT_EQ(0, umr_xfer(fd, mkey1, 0, out, 300, 0));
	EXPECT_EQ(0, memcmp(in, out, 300));

	/* interleaved: 4 cycles of 64 bytes taken, 64 skipped, in b2 */
	il[0] = (struct mlx5_umr_ioc_interleaved){
		.addr = (uintptr_t)b2 + PAGE, .bytes_count = 64,
		.bytes_skip = 64, .lkey = key2,
	};
	ASSERT_EQ(0, umr_config_il(fd, mk2, il, 1, 4, &len));
	EXPECT_EQ(256, len);
	ASSERT_EQ(0, umr_xfer(fd, mkey2, 0, in + 1, 256, 1));
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(0, memcmp(b2 + PAGE + 128 * i, in + 1 + 64 * i, 64));
		EXPECT_EQ(0x22, b2[PAGE + 128 * i + 64]);
	}

	/* a batch: mk1 invalidated, mk2 a list over b1's second page */
	sge2[0] = (struct mlx5_umr_ioc_sge){ (uintptr_t)b1 + PAGE, 64, key1 };
	memset(req, 0, sizeof(req));
	req[0].op = MLX5_UMR_IOC_BATCH_INVALIDATE;
	req[0].handle = mk1;
	req[1].op = MLX5_UMR_IOC_BATCH_CONFIGURE;
	req[1].handle = mk2;
	req[1].access = UMR_ACCESS_ALL3;
	req[1].layout = MLX5_UMR_IOC_LAYOUT_LIST;
	req[1].num_entries = 1;
	req[1].entries = (uintptr_t)sge2;
	ASSERT_EQ(0, umr_ioctl(fd, MLX5_UMR_IOCTL_BATCH, &batch));
	EXPECT_EQ(0, batch.out_failed);
	EXPECT_EQ(0, req[0].out_status);
	EXPECT_EQ(0, req[1].out_status);
	EXPECT_EQ(64, req[1].out_length);
	ASSERT_EQ(0, umr_xfer(fd, mkey2, 0, in + 7, 64, 1));
	EXPECT_EQ(0, memcmp(b1 + PAGE, in + 7, 64));
	/* the invalidated mkey reaches nothing */
	EXPECT_NE(0, umr_xfer(fd, mkey1, 0, in, 8, 1));
	/* b1 is named by mk2's layout; b2 by nothing now */
	EXPECT_EQ(-EBUSY, umr_destroy(fd, mr1));
	EXPECT_EQ(0, umr_invalidate(fd, mk2));
	EXPECT_EQ(0, umr_destroy(fd, mr1));
	EXPECT_EQ(0, umr_destroy(fd, mr2));
	EXPECT_EQ(0, umr_destroy(fd, mk1));
	EXPECT_EQ(0, umr_destroy(fd, mk2));
	EXPECT_EQ(pin0, umr_vm_pinned_kb());

	/* RLIMIT_MEMLOCK: what it allows and not a page more (ENOMEM) */
	ASSERT_EQ(0, getrlimit(RLIMIT_MEMLOCK, &rl));
	EXPECT_EQ(UMR_USER_MEMLOCK, rl.rlim_cur);
	rl.rlim_max = rl.rlim_cur + PAGE;
	EXPECT_EQ(-1, setrlimit(RLIMIT_MEMLOCK, &rl));	/* no raising it */
	big = umr_map(UMR_USER_MEMLOCK + PAGE, 0x33);
	ASSERT_NE(NULL, big);
	pin0 = umr_vm_pinned_kb();
	EXPECT_EQ(-ENOMEM, umr_reg(fd, big, UMR_USER_MEMLOCK + PAGE,
				   UMR_ACCESS_ALL3, NULL, NULL));
	EXPECT_EQ(pin0, umr_vm_pinned_kb());
	ASSERT_EQ(0, umr_reg(fd, big, UMR_USER_MEMLOCK - pin0 * 1024,
			     UMR_ACCESS_ALL3, &h, NULL));
	EXPECT_EQ(UMR_USER_MEMLOCK / 1024, umr_vm_pinned_kb());
	EXPECT_EQ(-ENOMEM, umr_reg(fd, big + UMR_USER_MEMLOCK, 1,
				   MLX5_UMR_IOC_ACCESS_LOCAL_WRITE, NULL,
				   NULL));
	ASSERT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(1, info.out_fd_objects);
	EXPECT_EQ(0, umr_destroy(fd, h));
	EXPECT_EQ(pin0, umr_vm_pinned_kb());
	EXPECT_EQ(0, close(fd));
	munmap(big, UMR_USER_MEMLOCK + PAGE);
}

/*
 * The limits hold for a user without capabilities: the per-file ones,
 * and his RLIMIT_MEMLOCK for translation tables, which it reaches first
 * (8 MiB, under a file's 64 MiB); charge_test shows it across files.
 */
TEST_AS(file_limits, umr_user1, MODE_RULE)
{
	__u32 max, n, h;
	struct mlx5_umr_ioc_info info;
	__u64 each, span;
	long pin0;
	void *va;
	int fd, fd2;

	fd = umr_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, umr_info(fd, &info));
	max = info.out_max_entries;
	/* the table of max_entries, in the whole pages it takes */
	ASSERT_EQ(0, umr_alloc(fd, max, &h, NULL));
	ASSERT_EQ(0, umr_info(fd, &info));
	each = info.out_fd_xlt_bytes;
	EXPECT_EQ(0, each % PAGE);
	EXPECT_EQ(0, umr_destroy(fd, h));
	for (n = 0; n <= UMR_USER_MEMLOCK / each; n++)
		if (umr_alloc(fd, max, &h, NULL))
			break;
	EXPECT_EQ(UMR_USER_MEMLOCK / each, n);
	EXPECT_EQ(-ENOMEM, umr_alloc(fd, max, &h, NULL));
	ASSERT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(n, info.out_fd_objects);
	EXPECT_EQ(-ENOSPC, umr_alloc(fd, max + 1, &h, NULL));
	close(fd);

	fd2 = umr_open();
	ASSERT_LE(0, fd2);
	for (n = 0; n <= MLX5_UMR_IOC_MAX_FD_MKEYS; n++)
		if (umr_alloc(fd2, 1, &h, NULL))
			break;
	EXPECT_EQ(MLX5_UMR_IOC_MAX_FD_MKEYS, n);
	EXPECT_EQ(-ENOSPC, umr_alloc(fd2, 1, &h, NULL));

	/* A registration over the cap: refused before anything is pinned. */
	span = ((__u64)MLX5_UMR_IOC_MAX_REG_PAGES + 1) * PAGE;
	va = mmap(NULL, span, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ASSERT_NE(MAP_FAILED, va);
	pin0 = umr_vm_pinned_kb();
	EXPECT_EQ(-ENOSPC, umr_reg(fd2, va, span, UMR_ACCESS_ALL3, NULL, NULL));
	EXPECT_EQ(pin0, umr_vm_pinned_kb());
	munmap(va, span);
	close(fd2);
}

/*
 * A field of the test cgroup's memory.stat, in bytes, or -1. The kernel
 * flushes these every 2 s; memory.current moves in batches of 64 pages
 * per CPU, too coarse for the structures of a few thousand objects.
 */
static long long cg_stat_now(const char *name)
{
	char key[64];
	long long v, found = -1;
	FILE *f;

	f = fopen(CGROUP "/memory.stat", "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

/*
 * memory.stat as it settles: the kernel flushes per-CPU memcg statistics
 * every 2 s (mm/memcontrol.c FLUSH_TIME), on a reading only past a
 * threshold of updates, and the flush worker runs late on a loaded host.
 * So wait one period, then read until the value is within [@lo, @hi],
 * for at most 10 s more; the last reading is returned either way.
 */
static long long cg_stat(const char *name, long long lo, long long hi)
{
	long long v;
	int i;

	usleep(2100 * 1000);
	for (i = 0; ; i++) {
		v = cg_stat_now(name);
		if (v < 0 || (v >= lo && v <= hi) || i == 20)
			return v;
		usleep(500 * 1000);
	}
}

#define CG_MKEYS	MLX5_UMR_IOC_MAX_FD_MKEYS
#define CG_REG_LEN	(UMR_USER_MEMLOCK / 2)

static void memcg_as(struct __test_metadata *_metadata,
		     struct _test_data_unpriv *self, void *arg)
{
	long long k0, k1, k2, k3;
	static __u32 h[CG_MKEYS];
	__u8 *buf;
	__u32 mr;
	int fd, i;

	fd = umr_open();
	ASSERT_LE(0, fd);
	/* the buffer's own pages are charged when touched: before k2 */
	buf = umr_map(CG_REG_LEN, 0x44);
	ASSERT_NE(NULL, buf);
	k0 = cg_stat("kernel", 0, LLONG_MAX);
	ASSERT_LE(0, k0) TH_LOG("no \"kernel\" in memory.stat");
	for (i = 0; i < CG_MKEYS; i++)
		ASSERT_EQ(0, umr_alloc(fd, 1, &h[i], NULL));
	k1 = cg_stat("kernel", k0 + CG_MKEYS * 96, k0 + CG_MKEYS * 1024);
	/* each mkey's structure (over 96 bytes) and its two xarray slots */
	EXPECT_LE(k0 + CG_MKEYS * 96, k1)
		TH_LOG("%d mkeys charged %lld bytes", CG_MKEYS, k1 - k0);
	EXPECT_GE(k0 + CG_MKEYS * 1024, k1);

	ASSERT_EQ(0, umr_reg(fd, buf, CG_REG_LEN, UMR_ACCESS_ALL3, &mr, NULL));
	k2 = cg_stat("kernel", k1 + CG_REG_LEN / PAGE * 32, k1 + CG_REG_LEN / 4);
	/* one 32-byte scatterlist entry per page, at least */
	EXPECT_LE(k1 + CG_REG_LEN / PAGE * 32, k2)
		TH_LOG("%lu pages registered charged %lld bytes",
		       CG_REG_LEN / PAGE, k2 - k1);
	EXPECT_GE(k1 + CG_REG_LEN / 4, k2);

	EXPECT_EQ(0, umr_destroy(fd, mr));
	for (i = 0; i < CG_MKEYS; i++)
		EXPECT_EQ(0, umr_destroy(fd, h[i]));
	close(fd);
	k3 = cg_stat("kernel", 0, k0 + 64 * 1024);
	ksft_print_msg("memcg kernel %lld: +%lld, %d mkeys; +%lld, %lu pages; %lld\n",
		       k0, k1 - k0, CG_MKEYS, k2 - k1, CG_REG_LEN / PAGE, k3);
	/* given back, up to what the allocators keep cached */
	EXPECT_GE(k0 + 64 * 1024, k3)
		TH_LOG("kernel: before %lld, with objects %lld, after %lld",
		       k0, k2, k3);
}

/*
 * What ALLOC_MKEY and REG_MR allocate in the kernel is charged to the
 * caller's memory cgroup, and given back.
 */
/* The test cgroup, limited to @max bytes; false when there is none. */
static bool make_cgroup(struct __test_metadata *_metadata,
			struct _test_data_unpriv *self, const char *max)
{
	char ctl[256] = "";
	FILE *f;

	f = fopen(CGROUP_ROOT "/cgroup.subtree_control", "r");
	if (f) {
		if (!fgets(ctl, sizeof(ctl), f))
			ctl[0] = 0;
		fclose(f);
	}
	if (!strstr(ctl, "memory"))
		return false;
	if (mkdir(CGROUP, 0755))
		return false;
	self->cgroup = true;
	return !write_str(CGROUP "/memory.max", max);
}

TEST_F_TIMEOUT(unpriv, memcg_charged, 120)
{
	struct as_opts o = { .user = &umr_user1, .cgroup = CGROUP };
	pid_t pid;

	if (!make_cgroup(_metadata, self, "67108864"))
		SKIP(return, "no cgroup v2 memory controller");
	relax(_metadata, self, MODE_RULE);
	pid = umr_start_as(_metadata, self, &o, memcg_as, NULL);
	umr_wait_as(_metadata, pid, o.user);
}

/* Between the processes of a two-user case. */
struct duo {
	int up[2], down[2];	/* child -> parent, parent -> child */
	pid_t peer;		/* the other user's process */
	__u64 msg[6];
};

static void duo_send(struct __test_metadata *_metadata, int fd,
		     const void *p, size_t n)
{
	ASSERT_EQ((ssize_t)n, write(fd, p, n));
}

static void duo_recv(struct __test_metadata *_metadata, int fd, void *p,
		     size_t n)
{
	ASSERT_EQ((ssize_t)n, read(fd, p, n));
}

/*
 * Watches: INFO before and after another user registered 1 MiB and made
 * an mkey, byte for byte the same; and none of the fake's debugfs files
 * can be opened.
 */
static void watcher_as(struct __test_metadata *_metadata,
		       struct _test_data_unpriv *self, void *arg)
{
	struct mlx5_umr_ioc_info a0, a1;
	struct duo *d = arg;
	char go;
	int fd, i;

	fd = umr_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, umr_info(fd, &a0));
	duo_send(_metadata, d->up[1], "r", 1);
	duo_recv(_metadata, d->down[0], &go, 1);
	ASSERT_EQ(0, umr_info(fd, &a1));
	EXPECT_EQ(0, memcmp(&a0, &a1, sizeof(a0)));
	EXPECT_EQ(0, a1.out_dev_objects);
	EXPECT_EQ(0, a1.out_dev_pinned_pages);
	close(fd);

	EXPECT_EQ(NULL, opendir("/sys/kernel/debug"));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, open("/sys/kernel/debug/mlx5_umr_fake", O_RDONLY));
	for (i = 0; i < self->ndbg; i++) {
		EXPECT_EQ(-1, open(self->dbg[i], O_RDONLY))
			TH_LOG("%s", self->dbg[i]);
		EXPECT_EQ(EACCES, errno);
		EXPECT_EQ(-1, open(self->dbg[i], O_WRONLY));
		EXPECT_EQ(EACCES, errno);
	}
}

static void busy_as(struct __test_metadata *_metadata,
		    struct _test_data_unpriv *self, void *arg)
{
	struct mlx5_umr_ioc_sge sge;
	struct duo *d = arg;
	__u32 mr, key, mk;
	__u8 *b;
	char go;
	int fd;

	fd = umr_open();
	ASSERT_LE(0, fd);
	b = umr_map(1 << 20, 0x55);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, umr_reg(fd, b, 1 << 20, UMR_ACCESS_ALL3, &mr, &key));
	ASSERT_EQ(0, umr_alloc(fd, 2, &mk, NULL));
	sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)b, 4096, key };
	ASSERT_EQ(0, umr_config_list(fd, mk, &sge, 1, NULL));
	duo_send(_metadata, d->up[1], "d", 1);
	duo_recv(_metadata, d->down[0], &go, 1);
	close(fd);
}

static void duo_open(struct __test_metadata *_metadata, struct duo *d)
{
	ASSERT_EQ(0, pipe(d->up));
	ASSERT_EQ(0, pipe(d->down));
}

/* The parent's side once the child started: a dead child reads as EOF. */
static void duo_parent(struct duo *d)
{
	close(d->up[1]);
	close(d->down[0]);
	d->up[1] = -1;
	d->down[0] = -1;
}

static void duo_close(struct duo *d)
{
	close(d->up[0]);
	close(d->down[1]);
	if (d->up[1] >= 0)
		close(d->up[1]);
	if (d->down[0] >= 0)
		close(d->down[0]);
}

/*
 * Nothing in INFO or debugfs shows one user another's activity: the
 * counters only root reads do move meanwhile.
 */
TEST_F(unpriv, info_debugfs_show_nothing)
{
	struct as_opts ow = { .user = &umr_user1 }, ob = { .user = &umr_user2 };
	struct duo w, b;
	struct mlx5_umr_ioc_info info;
	pid_t pw, pb;
	char c;
	int fd;

	ASSERT_LT(0, self->ndbg) TH_LOG("needs the fake's debugfs");
	relax(_metadata, self, 0666);
	duo_open(_metadata, &w);
	duo_open(_metadata, &b);
	pw = umr_start_as(_metadata, self, &ow, watcher_as, &w);
	duo_parent(&w);
	duo_recv(_metadata, w.up[0], &c, 1);
	pb = umr_start_as(_metadata, self, &ob, busy_as, &b);
	duo_parent(&b);
	duo_recv(_metadata, b.up[0], &c, 1);
	/* root sees the other user's objects and pages */
	fd = open(self->path, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(self->info0.out_dev_objects + 2, info.out_dev_objects);
	EXPECT_EQ(self->info0.out_dev_pinned_pages + 256,
		  info.out_dev_pinned_pages);
	close(fd);
	duo_send(_metadata, w.down[1], "g", 1);
	umr_wait_as(_metadata, pw, ow.user);
	duo_send(_metadata, b.down[1], "x", 1);
	umr_wait_as(_metadata, pb, ob.user);
	duo_close(&w);
	duo_close(&b);
}

/* Owns a registration and a configured mkey; sends their names. */
static void owner_as(struct __test_metadata *_metadata,
		     struct _test_data_unpriv *self, void *arg)
{
	struct mlx5_umr_ioc_sge sge;
	struct mlx5_umr_ioc_info info;
	struct duo *d = arg;
	__u8 in[64], out[64], *b;
	__u32 mr, key, mk, mkey;
	char go;
	int fd, i;

	fd = umr_open();
	ASSERT_LE(0, fd);
	b = umr_map(PAGE, 0x66);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, umr_reg(fd, b, PAGE, UMR_ACCESS_ALL3, &mr, &key));
	ASSERT_EQ(0, umr_alloc(fd, 2, &mk, &mkey));
	sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)b + 64, 64, key };
	ASSERT_EQ(0, umr_config_list(fd, mk, &sge, 1, NULL));
	for (i = 0; i < 64; i++)
		in[i] = pat(i + 5);
	ASSERT_EQ(0, umr_xfer(fd, mkey, 0, in, 64, 1));
	d->msg[0] = mr;
	d->msg[1] = key;
	d->msg[2] = mk;
	d->msg[3] = mkey;
	d->msg[4] = fd;
	d->msg[5] = (uintptr_t)b;
	duo_send(_metadata, d->up[1], d->msg, sizeof(d->msg));
	duo_recv(_metadata, d->down[0], &go, 1);
	/* untouched by the other user */
	ASSERT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(2, info.out_fd_objects);
	EXPECT_EQ(1, info.out_fd_pinned_pages);
	ASSERT_EQ(0, umr_xfer(fd, mkey, 0, out, 64, 0));
	EXPECT_EQ(0, memcmp(in, out, 64));
	for (i = 0; i < 64; i++)
		EXPECT_EQ(0x66, b[i]);
	EXPECT_EQ(0, memcmp(in, b + 64, 64));
	close(fd);
}

/* Tries everything with the owner's handles, keys and file. */
static void intruder_as(struct __test_metadata *_metadata,
			struct _test_data_unpriv *self, void *arg)
{
	struct mlx5_umr_ioc_sge sge;
	struct mlx5_umr_ioc_info info;
	struct duo *d = arg;
	__u8 junk[64];
	char proc[64];
	__u32 mk;
	int fd;

	memset(junk, 0x77, sizeof(junk));
	fd = umr_open();
	ASSERT_LE(0, fd);
	/* an empty file: the owner's handles are unknown here */
	EXPECT_EQ(-ENOENT, umr_destroy(fd, d->msg[0]));
	EXPECT_EQ(-ENOENT, umr_destroy(fd, d->msg[2]));
	EXPECT_EQ(-ENOENT, umr_invalidate(fd, d->msg[2]));
	/* so are its keys, in a layout and on the data path */
	ASSERT_EQ(0, umr_alloc(fd, 2, &mk, NULL));
	sge = (struct mlx5_umr_ioc_sge){ d->msg[5], 64, d->msg[1] };
	EXPECT_EQ(-ENOENT, umr_config_list(fd, mk, &sge, 1, NULL));
	EXPECT_EQ(-ENOENT, umr_xfer(fd, d->msg[3], 0, junk, 64, 1));
	EXPECT_EQ(-ENOENT, umr_xfer(fd, d->msg[1], d->msg[5], junk, 64, 1));
	EXPECT_EQ(-ENOENT, umr_xfer(fd, d->msg[3], 0, junk, 64, 0));
	ASSERT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(1, info.out_fd_objects);
	EXPECT_EQ(0, umr_destroy(fd, mk));
	close(fd);
	/* nor can it take the owner's file */
	snprintf(proc, sizeof(proc), "/proc/%d/fd/%u", d->peer,
		 (unsigned int)d->msg[4]);
	EXPECT_EQ(-1, open(proc, O_RDWR));
	EXPECT_EQ(EACCES, errno);
}

/* Two users on a node open to all cannot reach each other's objects. */
TEST_F(unpriv, users_isolated)
{
	struct as_opts oo = { .user = &umr_user1 }, oi = { .user = &umr_user2 };
	struct duo o, in;
	pid_t po, pi;
	char c = 'g';

	relax(_metadata, self, 0666);
	duo_open(_metadata, &o);
	duo_open(_metadata, &in);
	po = umr_start_as(_metadata, self, &oo, owner_as, &o);
	duo_parent(&o);
	duo_recv(_metadata, o.up[0], in.msg, sizeof(in.msg));
	in.peer = po;
	pi = umr_start_as(_metadata, self, &oi, intruder_as, &in);
	umr_wait_as(_metadata, pi, oi.user);
	duo_send(_metadata, o.down[1], &c, 1);
	umr_wait_as(_metadata, po, oo.user);
	duo_close(&o);
	duo_close(&in);
}

/* A memory.current or memory.events counter of the test cgroup, or -1. */
static long long cg_read(const char *file, const char *key)
{
	char path[300], k[64];
	long long v, found = -1;
	FILE *f;

	snprintf(path, sizeof(path), CGROUP "/%s", file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!key) {
		if (fscanf(f, "%lld", &found) != 1)
			found = -1;
	} else {
		while (fscanf(f, "%63s %lld", k, &v) == 2)
			if (!strcmp(k, key))
				found = v;
	}
	fclose(f);
	return found;
}

#define CG_FILES	8
#define CG_ROOM		(1024LL * 1024)

/*
 * Inside CG_ROOM bytes of memory.max: ALLOC_MKEY until the cgroup is
 * full. The refused call answers ENOMEM and leaves nothing; what was
 * taken goes back on close, and the device works again.
 */
static void memcg_limit_as(struct __test_metadata *_metadata,
			   struct _test_data_unpriv *self, void *arg)
{
	struct mlx5_umr_ioc_info info;
	long long cur, max, oom0, hit0;
	int fds[CG_FILES], nf = 0, ret, i;
	struct duo *d = arg;
	__u64 n = 0, objs = 0;
	__u32 h;

	fds[nf] = open(self->path, O_RDWR);
	ASSERT_LE(0, fds[nf++]);
	cur = cg_read("memory.current", NULL);
	oom0 = cg_read("memory.events", "oom");
	hit0 = cg_read("memory.events", "max");
	duo_send(_metadata, d->up[1], &cur, sizeof(cur));
	duo_recv(_metadata, d->down[0], &max, sizeof(max));
	/*
	 * Until the files are closed, nothing here may need a new page of
	 * user memory: a user fault at the limit with nothing to kill
	 * retries for ever. Only system calls on what is mapped already.
	 */
	for (;;) {
		ret = umr_alloc(fds[nf - 1], 1, &h, NULL);
		if (!ret) {
			n++;
			continue;
		}
		if (ret != -ENOSPC || nf == CG_FILES)
			break;
		/* this file is full: a new one (may be refused itself) */
		fds[nf] = open(self->path, O_RDWR);
		if (fds[nf] < 0) {
			ret = -errno;
			break;
		}
		nf++;
	}
	for (i = 0; i < nf; i++)
		if (!umr_info(fds[i], &info))
			objs += info.out_fd_objects;
	for (i = 0; i < nf; i++)
		close(fds[i]);

	EXPECT_EQ(-ENOMEM, ret) TH_LOG("after %llu mkeys in %d files",
				       (unsigned long long)n, nf);
	/* the refused call left no object behind */
	EXPECT_EQ(n, objs);
	/* a few hundred bytes each: thousands fit in CG_ROOM, not 32768 */
	EXPECT_LE(1000, n);
	EXPECT_EQ(max, cg_read("memory.max", NULL));
	EXPECT_LT(hit0, cg_read("memory.events", "max"));
	EXPECT_LT(oom0, cg_read("memory.events", "oom"));
	/* given back on close */
	EXPECT_GE(max - CG_ROOM / 2, cg_read("memory.current", NULL));
	ksft_print_msg("memory.max %lld: %llu mkeys in %d files, then %d\n",
		       max, (unsigned long long)n, nf, ret);
	/* and the device works within the limit again */
	fds[0] = open(self->path, O_RDWR);
	ASSERT_LE(0, fds[0]);
	EXPECT_EQ(0, umr_alloc(fds[0], 1, &h, NULL));
	close(fds[0]);
}

/*
 * A memory cgroup's limit is enforced on what ALLOC_MKEY allocates: the
 * call is refused (ENOMEM) at the limit. The process cannot be OOM-killed
 * (oom_score_adj -1000), so the kernel logs an OOM report for the cgroup
 * and fails the charge; vm-run.sh excuses exactly such reports.
 */
TEST_F_TIMEOUT(unpriv, memcg_limit, 180)
{
	struct as_opts o = { .user = &umr_user1, .cgroup = CGROUP };
	long long cur, max;
	struct duo d;
	char v[32];
	pid_t pid;

	if (!make_cgroup(_metadata, self, "max"))
		SKIP(return, "no cgroup v2 memory controller");
	relax(_metadata, self, MODE_RULE);
	duo_open(_metadata, &d);
	pid = umr_start_as(_metadata, self, &o, memcg_limit_as, &d);
	duo_parent(&d);
	duo_recv(_metadata, d.up[0], &cur, sizeof(cur));
	max = (cur + CG_ROOM + PAGE - 1) & ~(long long)(PAGE - 1);
	snprintf(v, sizeof(v), "%lld", max);
	ASSERT_EQ(0, write_str(CGROUP "/memory.max", v));
	duo_send(_metadata, d.down[1], &max, sizeof(max));
	umr_wait_as(_metadata, pid, o.user);
	duo_close(&d);
}

/*
 * Issue 30: INFO's device-wide counters need CAP_SYS_ADMIN of whoever
 * opened the file (file_ns_capable()) as well as of the caller: a file an
 * unprivileged user opened shows none even to a caller with
 * CAP_SYS_ADMIN (a setuid program handed the file; only the caller's was
 * checked), and root's file shows none to a caller without.
 */
TEST_F(unpriv, info_counters_follow_the_opener)
{
	__u32 mk, mkey;
	int fd, status;
	pid_t pid;

	relax(_metadata, self, 0666);
	fd = open(self->path, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, umr_alloc(fd, 1, &mk, &mkey));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct mlx5_umr_ioc_info a, b;
		int ufd, r = 0;

		/* opened without capabilities, asked with them */
		if (setresuid(-1, umr_user1.uid, 0))
			_exit(10);
		ufd = open(self->path, O_RDWR);
		if (ufd < 0)
			_exit(11);
		if (seteuid(0))
			_exit(12);
		if (umr_info(ufd, &a) || a.out_dev_objects)
			r |= 1;
		/* root's file: with the caller's capability, and without */
		if (umr_info(fd, &b) || !b.out_dev_objects)
			r |= 2;
		if (setresuid(-1, umr_user1.uid, 0))
			_exit(13);
		if (umr_info(fd, &b) || b.out_dev_objects)
			r |= 4;
		_exit(r);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("1: user's file/root; 2: root's/root; 4: root's/user");
	EXPECT_EQ(0, umr_destroy(fd, mk));
	close(fd);
}

TEST_HARNESS_MAIN
