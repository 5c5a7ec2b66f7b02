// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the objects of the character device are charged to the user who
 * creates them, across all of his files and processes (issue 30 item 9,
 * Documentation/uapi.rst "Per-user charges"), on a fake HCA:
 *
 * - translation tables, in the pages allocated, to his locked_vm against
 *   RLIMIT_MEMLOCK (ENOMEM);
 * - PSVs and DEKs, counted per user and device against the module
 *   parameters uapi_user_psvs and uapi_user_deks (EDQUOT).
 *
 * Each case opens its files as root, then becomes an unused uid (4242 +
 * n) with no effective capability, keeping root as saved uid to restore
 * the parameters and read the device's counters at the end. The harness
 * runs each case in a process of its own.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "umr_util.h"

#define NFILES		5
#define PARAMS		"/sys/module/mlx5_umr/parameters/"

/* Table entries whose table takes two pages (260 KLMs of 16 bytes). */
#define TWO_PAGE_ENTRIES	256

static int param_rw(const char *name, char *old, size_t len, const char *v)
{
	char path[128];
	int fd, ret = 0;
	ssize_t n;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -errno;
	if (old) {
		n = pread(fd, old, len - 1, 0);
		old[n > 0 ? n : 0] = 0;
	}
	if (v && pwrite(fd, v, strlen(v), 0) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Another user, no effective capability; root stays the saved uid. */
static int become(uid_t uid, rlim_t memlock)
{
	struct rlimit rl = { memlock, memlock };

	if (setrlimit(RLIMIT_MEMLOCK, &rl))
		return -errno;
	if (setresgid(uid, uid, 0) || setresuid(uid, uid, 0))
		return -errno;
	return 0;
}

/* Back to root (the saved uid), for the checks only root may make. */
static int unbecome(void)
{
	if (setresuid(0, 0, 0) || setresgid(0, 0, 0))
		return -errno;
	return 0;
}

static void open_files(struct __test_metadata *_metadata, int *fd, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		fd[i] = umr_open();
		ASSERT_LE(0, fd[i]) TH_LOG("open: %s", strerror(errno));
	}
}

/* What one mkey of @entries is charged, as its file reports it. */
static __u64 table_bytes(struct __test_metadata *_metadata, int fd,
			 __u32 entries)
{
	struct mlx5_umr_ioc_info i0, i1;
	__u32 h = 0;

	EXPECT_EQ(0, umr_info(fd, &i0));
	EXPECT_EQ(0, umr_alloc(fd, entries, &h, NULL));
	EXPECT_EQ(0, umr_info(fd, &i1));
	EXPECT_EQ(0, umr_destroy(fd, h));
	return i1.out_fd_xlt_bytes - i0.out_fd_xlt_bytes;
}

/*
 * A table is charged the pages it takes: two for 260 KLMs (4160 bytes),
 * none for one the WQE holds inline, which allocates nothing.
 */
TEST(tables_counted_in_pages)
{
	struct mlx5_umr_ioc_info info;
	int fd = umr_open();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, umr_info(fd, &info));
	ASSERT_LT(TWO_PAGE_ENTRIES, info.out_max_entries);
	ASSERT_LT(info.out_max_inline_entries, TWO_PAGE_ENTRIES);
	EXPECT_EQ(2 * PAGE, table_bytes(_metadata, fd, TWO_PAGE_ENTRIES));
	/* 68 KLMs, 1088 bytes: one page */
	if (info.out_max_inline_entries < 64)
		EXPECT_EQ(PAGE, table_bytes(_metadata, fd, 64));
	EXPECT_EQ(0, table_bytes(_metadata, fd, 1));
	close(fd);
}

/*
 * A user whose RLIMIT_MEMLOCK holds 9 two-page tables gets 9 over his 5
 * files, and ENOMEM for the 10th in any of them (nothing created); a
 * table-less mkey still works. Closing a file gives its tables' pages
 * back: that many again, not more.
 */
TEST(memlock_across_files)
{
	__u32 h = 0, held[NFILES] = { 0 };
	int fd[NFILES], n, i, k;
	struct mlx5_umr_ioc_info info, dev0, dev1;

	open_files(_metadata, fd, NFILES);
	ASSERT_EQ(0, umr_info(fd[0], &dev0));
	ASSERT_EQ(0, become(4242, 9 * 2 * PAGE + PAGE));

	for (n = 0; n < 100; n++) {
		i = n % NFILES;
		if (umr_alloc(fd[i], TWO_PAGE_ENTRIES, &h, NULL))
			break;
		held[i]++;
	}
	EXPECT_EQ(9, n);
	for (i = 0; i < NFILES; i++) {
		EXPECT_EQ(-ENOMEM, umr_alloc(fd[i], TWO_PAGE_ENTRIES, &h, NULL));
		ASSERT_EQ(0, umr_info(fd[i], &info));
		EXPECT_EQ(held[i], info.out_fd_objects);
		EXPECT_EQ(held[i] * 2 * PAGE, info.out_fd_xlt_bytes);
	}
	/* no table, no charge */
	EXPECT_EQ(0, umr_alloc(fd[0], 1, &h, NULL));
	EXPECT_EQ(0, umr_destroy(fd[0], h));

	/* file 1 held 2 tables: 2 more fit, in file 0, then no more */
	ASSERT_EQ(2, held[1]);
	EXPECT_EQ(0, close(fd[1]));
	for (k = 0; k < 3; k++)
		if (umr_alloc(fd[0], TWO_PAGE_ENTRIES, &h, NULL))
			break;
	EXPECT_EQ(2, k);

	for (i = 0; i < NFILES; i++)
		if (i != 1)
			EXPECT_EQ(0, close(fd[i]));
	/* all given back: the whole budget again, in one file */
	ASSERT_EQ(0, unbecome());
	fd[0] = umr_open();
	ASSERT_LE(0, fd[0]);
	ASSERT_EQ(0, umr_info(fd[0], &dev1));
	EXPECT_EQ(dev0.out_dev_objects, dev1.out_dev_objects);
	ASSERT_EQ(0, become(4242, 9 * 2 * PAGE + PAGE));
	for (k = 0; k < 10; k++)
		if (umr_alloc(fd[0], TWO_PAGE_ENTRIES, &h, NULL))
			break;
	EXPECT_EQ(9, k);
	EXPECT_EQ(0, close(fd[0]));
}

/*
 * Per user, not per process: a second process of the same user finds the
 * budget the first holds; another user does not.
 */
TEST(memlock_per_user_not_process)
{
	int fd[2], go[2], done[2], status, k;
	char c = 0;
	pid_t pid;
	__u32 h = 0;

	open_files(_metadata, fd, 2);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (become(4243, 4 * 2 * PAGE))
			_exit(1);
		for (k = 0; k < 5; k++)
			if (umr_alloc(fd[1], TWO_PAGE_ENTRIES, &h, NULL))
				break;
		if (write(done[1], &k, sizeof(k)) != sizeof(k))
			_exit(2);
		/* hold them until the parent has tried */
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(sizeof(k), read(done[0], &k, sizeof(k)));
	EXPECT_EQ(4, k);
	ASSERT_EQ(0, become(4243, 4 * 2 * PAGE));
	EXPECT_EQ(-ENOMEM, umr_alloc(fd[0], TWO_PAGE_ENTRIES, &h, NULL));
	ASSERT_EQ(0, unbecome());
	ASSERT_EQ(0, become(4244, 4 * 2 * PAGE));
	EXPECT_EQ(0, umr_alloc(fd[0], TWO_PAGE_ENTRIES, &h, NULL));
	EXPECT_EQ(0, umr_destroy(fd[0], h));
	ASSERT_EQ(0, unbecome());
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	/* the child's process is gone, its file is not: still charged */
	ASSERT_EQ(0, become(4243, 4 * 2 * PAGE));
	EXPECT_EQ(-ENOMEM, umr_alloc(fd[0], TWO_PAGE_ENTRIES, &h, NULL));
	EXPECT_EQ(0, close(fd[1]));
	EXPECT_EQ(0, umr_alloc(fd[0], TWO_PAGE_ENTRIES, &h, NULL));
	EXPECT_EQ(0, close(fd[0]));
}

static int dek(int fd, __u32 *handle)
{
	static const __u8 key[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct mlx5_umr_ioc_dek_create cmd = {
		.size = sizeof(cmd),
		.key_size = MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
		.key_len = sizeof(key),
		.key = (uintptr_t)key,
	};
	int ret = umr_ioctl(fd, MLX5_UMR_IOCTL_DEK_CREATE, &cmd);

	if (!ret)
		*handle = cmd.out_handle;
	return ret;
}

static int sig_mkey(int fd, __u32 *handle)
{
	struct mlx5_umr_ioc_alloc_mkey cmd = {
		.size = sizeof(cmd),
		.flags = MLX5_UMR_IOC_MKEY_SIGNATURE,
		.max_entries = 4,
	};
	int ret = umr_ioctl(fd, MLX5_UMR_IOCTL_ALLOC_MKEY, &cmd);

	if (!ret)
		*handle = cmd.out_handle;
	return ret;
}

/*
 * uapi_user_deks 3 and uapi_user_psvs 4 (two signature mkeys): the 4th
 * DEK and the 3rd signature mkey of the user are EDQUOT in any of his
 * files, with nothing created; destroying one, or closing a file, gives
 * room back. Another user has his own count.
 */
TEST(psvs_deks_per_user)
{
	char deks0[32], psvs0[32];
	struct mlx5_umr_ioc_info info;
	__u32 h = 0, d[3], s[2];
	int fd[3], i;

	open_files(_metadata, fd, 3);
	ASSERT_EQ(0, umr_info(fd[0], &info));
	ASSERT_EQ(MLX5_UMR_IOC_INFO_CRYPTO | MLX5_UMR_IOC_INFO_SIG,
		  info.out_flags & (MLX5_UMR_IOC_INFO_CRYPTO |
				    MLX5_UMR_IOC_INFO_SIG))
		TH_LOG("the fake HCA offers no crypto or no signature");
	ASSERT_EQ(0, param_rw("uapi_user_deks", deks0, sizeof(deks0), NULL))
		TH_LOG("no parameter uapi_user_deks");
	ASSERT_EQ(0, param_rw("uapi_user_psvs", psvs0, sizeof(psvs0), "4"));
	ASSERT_EQ(0, param_rw("uapi_user_deks", NULL, 0, "3"));
	ASSERT_EQ(0, become(4245, 1 << 20));

	EXPECT_EQ(0, dek(fd[0], &d[0]));
	EXPECT_EQ(0, dek(fd[1], &d[1]));
	EXPECT_EQ(0, dek(fd[1], &d[2]));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(-EDQUOT, dek(fd[i], &h));
		ASSERT_EQ(0, umr_info(fd[i], &info));
		EXPECT_EQ(i == 1 ? 2 : i == 0, info.out_fd_deks);
	}
	EXPECT_EQ(0, umr_destroy(fd[0], d[0]));
	EXPECT_EQ(0, dek(fd[2], &d[0]));
	EXPECT_EQ(-EDQUOT, dek(fd[0], &h));
	EXPECT_EQ(0, close(fd[1]));
	fd[1] = -1;
	EXPECT_EQ(0, dek(fd[0], &d[1]));
	EXPECT_EQ(0, dek(fd[0], &d[2]));
	EXPECT_EQ(-EDQUOT, dek(fd[0], &h));
	/* another user: a count of his own */
	ASSERT_EQ(0, unbecome());
	ASSERT_EQ(0, become(4246, 1 << 20));
	EXPECT_EQ(0, dek(fd[2], &h));
	EXPECT_EQ(0, umr_destroy(fd[2], h));
	ASSERT_EQ(0, unbecome());
	ASSERT_EQ(0, become(4245, 1 << 20));

	EXPECT_EQ(0, sig_mkey(fd[0], &s[0]));
	EXPECT_EQ(0, sig_mkey(fd[2], &s[1]));
	EXPECT_EQ(-EDQUOT, sig_mkey(fd[0], &h));
	EXPECT_EQ(-EDQUOT, sig_mkey(fd[2], &h));
	/* a plain mkey takes no PSV */
	EXPECT_EQ(0, umr_alloc(fd[0], 4, &h, NULL));
	EXPECT_EQ(0, umr_destroy(fd[2], s[1]));
	EXPECT_EQ(0, sig_mkey(fd[0], &s[1]));

	for (i = 0; i < 3; i++)
		if (fd[i] >= 0)
			EXPECT_EQ(0, close(fd[i]));
	ASSERT_EQ(0, unbecome());
	EXPECT_EQ(0, param_rw("uapi_user_deks", NULL, 0, deks0));
	EXPECT_EQ(0, param_rw("uapi_user_psvs", NULL, 0, psvs0));
	/* all given back: the same user gets his whole count again */
	fd[0] = umr_open();
	ASSERT_LE(0, fd[0]);
	ASSERT_EQ(0, param_rw("uapi_user_deks", NULL, 0, "3"));
	ASSERT_EQ(0, become(4245, 1 << 20));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, dek(fd[0], &d[i]));
	EXPECT_EQ(0, close(fd[0]));
	ASSERT_EQ(0, unbecome());
	EXPECT_EQ(0, param_rw("uapi_user_deks", NULL, 0, deks0));
}

/*
 * The HCA refuses to destroy a DEK (the fake's fail_cmd on
 * DESTROY_GENERAL_OBJECT, 0xa03): the handle is gone, but the DEK and its
 * key stay on the HCA, so its user stays charged for it: with
 * uapi_user_deks 1 his next DEK is EDQUOT, after the file's close too.
 * Before, the failure was ignored and nothing kept count of the DEK.
 */
TEST(refused_dek_destroy_stays_charged)
{
	char path[256], deks0[32], v[32];
	long long pds;
	__u32 h = 0, h2 = 0;
	int fd;

	ASSERT_EQ(0, umr_find_dev(path, sizeof(path)));
	pds = umr_fake_counter(path, "pds");
	ASSERT_LE(0, pds);
	fd = umr_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, param_rw("uapi_user_deks", deks0, sizeof(deks0), "1"));
	ASSERT_EQ(0, become(4247, 1 << 20));
	ASSERT_EQ(0, dek(fd, &h));
	EXPECT_EQ(-EDQUOT, dek(fd, &h2));
	ASSERT_EQ(0, unbecome());
	snprintf(v, sizeof(v), "%u 9 %u", 0xa03, 0xd3c);
	ASSERT_EQ(0, umr_fake_knob(path, "fail_cmd", v));
	ASSERT_EQ(0, become(4247, 1 << 20));
	/* the object is gone for the file, not from the HCA */
	EXPECT_EQ(0, umr_destroy(fd, h));
	EXPECT_EQ(-ENOENT, umr_destroy(fd, h));
	EXPECT_EQ(-EDQUOT, dek(fd, &h2));
	EXPECT_EQ(0, close(fd));
	ASSERT_EQ(0, unbecome());
	/* the file's own PD holds the DEK: it stays */
	EXPECT_EQ(pds + 1, umr_fake_counter(path, "pds"));
	fd = umr_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, become(4247, 1 << 20));
	EXPECT_EQ(-EDQUOT, dek(fd, &h2));
	EXPECT_EQ(0, close(fd));
	ASSERT_EQ(0, unbecome());
	EXPECT_EQ(0, param_rw("uapi_user_deks", NULL, 0, deks0));
}

TEST_HARNESS_MAIN
