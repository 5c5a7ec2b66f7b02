/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Helpers shared by the mlx5-umr uapi selftests.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef UMR_UTIL_H
#define UMR_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/mlx5_umr.h>
/* The test ioctls, which a test build of mlx5_umr.ko answers (not installed). */
#include "../../drivers/umr/uapi/uapi_testing.h"

#define UMR_DEV_DIR	"/dev/mlx5_umr"
#define PAGE		4096UL

/* What the test program loaded itself, to unload it again at exit. */
static int umr_loaded_fake, umr_loaded_svc;

/*
 * Load the fake HCA: modprobe, or insmod $MLX5_UMR_FAKE_KO where modules
 * are not installed (the UML sanitizer run).
 */
static inline int umr_load_fake(void)
{
	const char *ko = getenv("MLX5_UMR_FAKE_KO");
	char cmd[512];

	if (ko)
		snprintf(cmd, sizeof(cmd), "insmod %.480s", ko);
	else
		snprintf(cmd, sizeof(cmd), "modprobe mlx5_umr_fake");
	return system(cmd);
}

static void __attribute__((constructor)) umr_load(void)
{
	if (getenv("MLX5_UMR_DEV"))
		return;
	umr_loaded_svc = access("/sys/module/mlx5_umr", F_OK) != 0;
	umr_loaded_fake = access("/sys/module/mlx5_umr_fake", F_OK) != 0;
	if (umr_loaded_fake && umr_load_fake())
		fprintf(stderr, "# loading mlx5_umr_fake failed\n");
}

static void __attribute__((destructor)) umr_unload(void)
{
	/* Runs in the harness's parent, after every test's files closed. */
	if (umr_loaded_fake && system("rmmod mlx5_umr_fake"))
		fprintf(stderr, "# rmmod mlx5_umr_fake failed\n");
	if (umr_loaded_svc && system("rmmod mlx5_umr"))
		fprintf(stderr, "# rmmod mlx5_umr failed\n");
}

/* Without devtmpfs (UML), make the nodes from sysfs. */
static inline void umr_mknod(void)
{
	char path[300], dev[32];
	unsigned int maj, min;
	struct dirent *de;
	FILE *f;
	DIR *dir;

	dir = opendir("/sys/class/misc");
	if (!dir)
		return;
	mkdir(UMR_DEV_DIR, 0755);
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "mlx5_umr_", 9))
			continue;
		snprintf(path, sizeof(path), "/sys/class/misc/%.200s/dev",
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(dev, sizeof(dev), f) &&
		    sscanf(dev, "%u:%u", &maj, &min) == 2) {
			snprintf(path, sizeof(path), UMR_DEV_DIR "/%.200s",
				 de->d_name + 9);
			unlink(path);
			mknod(path, S_IFCHR | 0600, makedev(maj, min));
		}
		fclose(f);
	}
	closedir(dir);
}

static inline void umr_files_queue_up(const char *path);

/*
 * Path of the fake HCA's device: $MLX5_UMR_DEV, else the first fake*;
 * with the files' queue up (umr_files_queue_up()).
 */
static inline int umr_find_dev(char *path, size_t len)
{
	const char *env = getenv("MLX5_UMR_DEV");
	struct dirent *de;
	int tries;
	DIR *dir;

	if (env) {
		snprintf(path, len, "%s", env);
		umr_files_queue_up(path);
		return 0;
	}
	for (tries = 0; tries < 50; tries++) {
		if (getenv("MLX5_UMR_MKNOD"))
			umr_mknod();
		dir = opendir(UMR_DEV_DIR);
		if (dir) {
			while ((de = readdir(dir))) {
				if (strncmp(de->d_name, "fake", 4))
					continue;
				snprintf(path, len, UMR_DEV_DIR "/%.200s",
					 de->d_name);
				closedir(dir);
				umr_files_queue_up(path);
				return 0;
			}
			closedir(dir);
		}
		usleep(100000);
	}
	return -1;
}

/* The debugfs file @name of the fake HCA behind the device @path. */
static inline void umr_fake_dbg_file(char *file, size_t len, const char *path,
				     const char *name)
{
	const char *base = strrchr(path, '/');

	snprintf(file, len, "/sys/kernel/debug/mlx5_umr_fake/%.200s/%s",
		 base ? base + 1 : path, name);
}

/*
 * A counter of the fake HCA behind @path from its debugfs "counters"
 * (mkeys, sg_maps, iommu_pages: what the HCA holds), or -1.
 */
static inline long long umr_fake_counter(const char *path, const char *name)
{
	char file[300], key[64];
	long long v, found = -1;
	FILE *f;

	umr_fake_dbg_file(file, sizeof(file), path, "counters");
	f = fopen(file, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

/*
 * The fake's live QPs (debugfs "qps": qpn, state, log_sq, ci, last_pi,
 * cqn, wqes, idx_mismatch, rlky, pd): their count, and each one's number,
 * executed WQEs and PD in @qpn/@wqes/@pd (@pd may be NULL); -1 without
 * debugfs.
 */
static inline int umr_fake_qps(const char *path, unsigned int *qpn,
			       unsigned long long *wqes, unsigned int *pd,
			       int max)
{
	char file[300], line[256], state[32];
	unsigned long long w, u;
	unsigned int q, x, p;
	int n = 0;
	FILE *f;

	umr_fake_dbg_file(file, sizeof(file), path, "qps");
	f = fopen(file, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n < max)
		if (sscanf(line, "%x %31s %u %u %u %x %llu %llu %u %u", &q,
			   state, &x, &x, &x, &x, &w, &u, &x, &p) == 10) {
			qpn[n] = q;
			wqes[n] = w;
			if (pd)
				pd[n] = p;
			n++;
		}
	fclose(f);
	return n;
}

/* The PD the fake holds @key in (debugfs "mkeys"), or -1. */
static inline long long umr_fake_mkey_pd(const char *path, __u32 key)
{
	unsigned int k, pd;
	long long found = -1;
	char file[300], line[256];
	FILE *f;

	umr_fake_dbg_file(file, sizeof(file), path, "mkeys");
	f = fopen(file, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %x", &k, &pd) == 2 && k == key)
			found = pd;
	fclose(f);
	return found;
}

/* Every errno the header's errors block lists (and 0). */
static inline int umr_errno_documented(int ret)
{
	switch (-ret) {
	case 0: case EINVAL: case E2BIG: case EOPNOTSUPP: case ENOTTY:
	case ENOENT: case ERANGE: case EOVERFLOW: case ENOSPC: case EBUSY:
	case EFAULT: case ENOMEM: case EINTR: case EIO: case ETIMEDOUT:
	case ENODEV: case EACCES: case EDQUOT:
	case EBADF: case EXDEV: case EPERM:	/* MLX5_UMR_IOCTL_SET_PD */
		return 1;
	}
	return 0;
}

/* Write @val to the fake HCA's debugfs knob @knob; 0 or -errno. */
static inline int umr_fake_knob(const char *path, const char *knob,
				const char *val)
{
	char file[300];
	int fd, ret = 0;

	umr_fake_dbg_file(file, sizeof(file), path, knob);
	fd = open(file, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		ret = -errno;
	close(fd);
	return ret;
}

static inline int umr_open(void)
{
	char path[256];

	if (umr_find_dev(path, sizeof(path)))
		return -1;
	return open(path, O_RDWR | O_CLOEXEC);
}

/* ioctl() that returns -errno. */
static inline int umr_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static inline int umr_info(int fd, struct mlx5_umr_ioc_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return umr_ioctl(fd, MLX5_UMR_IOCTL_INFO, info);
}

static inline int umr_test_info(int fd, struct mlx5_umr_test_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return umr_ioctl(fd, MLX5_UMR_TEST_IOCTL_INFO, info);
}

/* Registers @len bytes at @addr; returns -errno or 0 with handle/key set. */
static inline int umr_reg(int fd, void *addr, __u64 len, __u32 access,
			  __u32 *handle, __u32 *key)
{
	struct mlx5_umr_ioc_reg_mr cmd = {
		.size = sizeof(cmd),
		.access = access,
		.addr = (uintptr_t)addr,
		.length = len,
	};
	int ret = umr_ioctl(fd, MLX5_UMR_IOCTL_REG_MR, &cmd);

	if (!ret) {
		if (handle)
			*handle = cmd.out_handle;
		if (key)
			*key = cmd.out_lkey;
	}
	return ret;
}

static inline int umr_alloc(int fd, __u32 max_entries, __u32 *handle,
			    __u32 *key)
{
	struct mlx5_umr_ioc_alloc_mkey cmd = {
		.size = sizeof(cmd),
		.max_entries = max_entries,
	};
	int ret = umr_ioctl(fd, MLX5_UMR_IOCTL_ALLOC_MKEY, &cmd);

	if (!ret) {
		*handle = cmd.out_handle;
		if (key)
			*key = cmd.out_key;
	}
	return ret;
}

static inline int umr_destroy(int fd, __u32 handle)
{
	struct mlx5_umr_ioc_destroy cmd = {
		.size = sizeof(cmd),
		.handle = handle,
	};

	return umr_ioctl(fd, MLX5_UMR_IOCTL_DESTROY, &cmd);
}

/*
 * The files of a device post on a queue of their own, created by the
 * first object any file makes and kept until the HCA goes away
 * (Documentation/uapi.rst). Make sure it is up, so that a test's baseline
 * of the fake's counters (iommu_pages holds the queue's rings) does not
 * depend on whether an earlier test already created it.
 */
static inline void umr_files_queue_up(const char *path)
{
	__u32 handle;
	int fd = open(path, O_RDWR);

	if (fd < 0)
		return;
	if (!umr_alloc(fd, 1, &handle, NULL))
		umr_destroy(fd, handle);
	close(fd);
}

static inline int umr_invalidate(int fd, __u32 handle)
{
	struct mlx5_umr_ioc_invalidate cmd = {
		.size = sizeof(cmd),
		.handle = handle,
	};

	return umr_ioctl(fd, MLX5_UMR_IOCTL_INVALIDATE, &cmd);
}

#define UMR_ACCESS_ALL3 (MLX5_UMR_IOC_ACCESS_LOCAL_WRITE | \
			 MLX5_UMR_IOC_ACCESS_REMOTE_WRITE | \
			 MLX5_UMR_IOC_ACCESS_REMOTE_READ)

static inline int umr_config_list(int fd, __u32 handle,
				  const struct mlx5_umr_ioc_sge *sge,
				  __u32 n, __u64 *length)
{
	struct mlx5_umr_ioc_configure cmd = {
		.size = sizeof(cmd),
		.handle = handle,
		.access = UMR_ACCESS_ALL3,
		.layout = MLX5_UMR_IOC_LAYOUT_LIST,
		.num_entries = n,
		.entries = (uintptr_t)sge,
	};
	int ret = umr_ioctl(fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd);

	if (!ret && length)
		*length = cmd.out_length;
	return ret;
}

static inline int umr_config_il(int fd, __u32 handle,
				const struct mlx5_umr_ioc_interleaved *ent,
				__u32 n, __u32 repeat, __u64 *length)
{
	struct mlx5_umr_ioc_configure cmd = {
		.size = sizeof(cmd),
		.handle = handle,
		.access = UMR_ACCESS_ALL3,
		.layout = MLX5_UMR_IOC_LAYOUT_INTERLEAVED,
		.num_entries = n,
		.repeat_count = repeat,
		.entries = (uintptr_t)ent,
	};
	int ret = umr_ioctl(fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd);

	if (!ret && length)
		*length = cmd.out_length;
	return ret;
}

/* Returns -errno, or the CQE syndrome (0 = success). */
static inline int umr_xfer(int fd, __u32 key, __u64 offset, void *buf,
			   __u64 len, int write)
{
	struct mlx5_umr_test_xfer cmd = {
		.size = sizeof(cmd),
		.flags = write ? MLX5_UMR_TEST_XFER_WRITE : 0,
		.key = key,
		.offset = offset,
		.buf = (uintptr_t)buf,
		.length = len,
	};
	int ret = umr_ioctl(fd, MLX5_UMR_TEST_IOCTL_XFER, &cmd);

	return ret ? ret : (int)cmd.out_status;
}

/* Pages this process has pinned (mm->pinned_vm), from /proc. */
static inline long umr_vm_pinned_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static inline void *umr_map(size_t len, int fill)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, fill, len);
	return p;
}

/*
 * CRC-16/T10-DIF (poly 0x8bb7, init 0, not reflected, no final xor),
 * computed here independently of the kernel's crc_t10dif().
 */
static inline __u16 crc16_t10dif(const __u8 *p, size_t len)
{
	__u16 crc = 0;
	size_t i;
	int b;

	for (i = 0; i < len; i++) {
		crc ^= (__u16)(p[i] << 8);
		for (b = 0; b < 8; b++)
			crc = crc & 0x8000 ? (__u16)(crc << 1) ^ 0x8bb7 :
			      (__u16)(crc << 1);
	}
	return crc;
}

#endif /* UMR_UTIL_H */
