// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr uapi benchmark (make bench): ns per configure of an indirect
 * mkey through /dev/mlx5_umr, on the null device mlx5_umr_bench.ko keeps
 * with uapi=1, next to the in-kernel numbers of the same boot (its
 * ref_ps parameter). Prints "BENCH|" lines like the module.
 *
 *   uapi_bench            (run by tests/bench/uapi_bench.sh inside UML)
 *
 * Every request configures one indirect mkey with a one-entry list (the
 * module's "list 1"), cycling over 512 mkeys. Timing as the module's:
 * runs of about 2 ms, best of 15.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/mlx5_umr.h>

#define PARAMS		"/sys/module/mlx5_umr_bench/parameters/"
#define NMK		512
#define RUNS		15
#define RUN_NS		2000000ULL
#define MAX_FILES	1000
#define ACCESS		(MLX5_UMR_IOC_ACCESS_LOCAL_WRITE | \
			 MLX5_UMR_IOC_ACCESS_REMOTE_WRITE | \
			 MLX5_UMR_IOC_ACCESS_REMOTE_READ)

static const unsigned int batches[] = { 8, 32, 128 };

static int fd;
static __u32 mk[NMK];
static struct mlx5_umr_ioc_sge sge[NMK];
static struct mlx5_umr_ioc_batch_req req[128];
static int extra[MAX_FILES];

static void die(const char *what)
{
	printf("BENCH|FAILED: %s: %s\n", what, strerror(errno));
	exit(1);
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A node for the character device of @name (UML has no devtmpfs). */
static int open_dev(const char *name)
{
	char path[256], dev[32];
	unsigned int maj, min;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/misc/mlx5_umr_%s/dev", name);
	f = fopen(path, "r");
	if (!f || !fgets(dev, sizeof(dev), f) ||
	    sscanf(dev, "%u:%u", &maj, &min) != 2)
		die(path);
	fclose(f);
	snprintf(path, sizeof(path), "%s/mlx5_umr_%s",
		 getenv("UAPI_BENCH_DIR") ?: "/tmp", name);
	unlink(path);
	if (mknod(path, S_IFCHR | 0600, makedev(maj, min)))
		die("mknod");
	return open(path, O_RDWR | O_CLOEXEC);
}

static const char *dev_path(void)
{
	static char path[256];
	char name[32] = "";
	FILE *f = fopen(PARAMS "uapi_dev", "r");

	if (!f || !fgets(name, sizeof(name), f))
		die("uapi_dev");
	fclose(f);
	name[strcspn(name, "\n")] = 0;
	snprintf(path, sizeof(path), "%s", name);
	return path;
}

/* Registers @len bytes; returns the lkey. */
static __u32 reg(int f, void *buf, __u64 len)
{
	struct mlx5_umr_ioc_reg_mr c = {
		.size = sizeof(c), .access = ACCESS,
		.addr = (uintptr_t)buf, .length = len,
	};

	if (ioctl(f, MLX5_UMR_IOCTL_REG_MR, &c))
		die("REG_MR");
	return c.out_lkey;
}

static __u32 alloc_mkey(int f)
{
	struct mlx5_umr_ioc_alloc_mkey c = {
		.size = sizeof(c), .max_entries = 1,
	};

	if (ioctl(f, MLX5_UMR_IOCTL_ALLOC_MKEY, &c))
		die("ALLOC_MKEY");
	return c.out_handle;
}

static void configure(int f, __u32 handle, struct mlx5_umr_ioc_sge *e)
{
	struct mlx5_umr_ioc_configure c = {
		.size = sizeof(c), .handle = handle, .access = ACCESS,
		.layout = MLX5_UMR_IOC_LAYOUT_LIST, .num_entries = 1,
		.entries = (uintptr_t)e,
	};

	if (ioctl(f, MLX5_UMR_IOCTL_CONFIGURE, &c))
		die("CONFIGURE");
}

/* The floor: a system call into the device that fails at once. */
static void run_enotty(unsigned long n, unsigned int b)
{
	unsigned long i;

	(void)b;
	for (i = 0; i < n; i++)
		ioctl(fd, _IO(MLX5_UMR_IOC_TYPE, 0x7f), NULL);
}

static void run_single(unsigned long n, unsigned int b)
{
	unsigned long i;

	(void)b;
	for (i = 0; i < n; i++)
		configure(fd, mk[i % NMK], &sge[i % NMK]);
}

static void run_batch(unsigned long n, unsigned int b)
{
	struct mlx5_umr_ioc_batch c = {
		.size = sizeof(c), .num_reqs = b,
		.req_size = sizeof(req[0]), .reqs = (uintptr_t)req,
	};
	unsigned long i, k = 0;
	unsigned int j;

	for (i = 0; i < n; i += b) {
		for (j = 0; j < b; j++, k++) {
			req[j].handle = mk[k % NMK];
			req[j].entries = (uintptr_t)&sge[k % NMK];
		}
		if (ioctl(fd, MLX5_UMR_IOCTL_BATCH, &c) || c.out_failed)
			die("BATCH");
	}
}

/* Best ps per configure (or per call of @fn) over RUNS runs. */
static __u64 measure(void (*fn)(unsigned long, unsigned int),
		     unsigned int b)
{
	unsigned long n = b;
	__u64 t, best = (__u64)-1;
	int r;

	for (;;) {
		t = now_ns();
		fn(n, b);
		t = now_ns() - t;
		if (t >= RUN_NS / 4)
			break;
		n *= 2;
	}
	n = (unsigned long)(n * RUN_NS / t) / b * b;
	if (!n)
		n = b;
	for (r = 0; r < RUNS; r++) {
		t = now_ns();
		fn(n, b);
		t = now_ns() - t;
		if (t * 1000 / n < best)
			best = t * 1000 / n;
	}
	return best;
}

static const char *ns(char *buf, __u64 ps)
{
	if (!ps)
		return "n/a";
	sprintf(buf, "%llu.%llu", (unsigned long long)ps / 1000,
		(unsigned long long)ps % 1000 / 100);
	return buf;
}

static const char *ratio(char *buf, __u64 a, __u64 b)
{
	if (!a || !b)
		return "n/a";
	sprintf(buf, "%llu.%llux", (unsigned long long)(a * 10 / b) / 10,
		(unsigned long long)(a * 10 / b) % 10);
	return buf;
}

static void row(const char *name, __u64 uapi, __u64 corr,
		__u64 kern)
{
	char a[32], b[32], c[32], d[32], e[32];

	printf("BENCH|%-22s %9s %9s %9s %7s %7s\n", name, ns(a, uapi),
	       ns(b, corr), ns(c, kern), ratio(d, uapi, kern),
	       ratio(e, corr, kern));
}

static void rule(void)
{
	printf("BENCH|====================== ========= ========= ========= ======= =======\n");
}

static void target(const char *what, __u64 uapi, __u64 corr,
		   __u64 kern)
{
	char a[32], b[32];

	printf("BENCH|**%s**: %s as measured (%s), %s corrected for UML's system call cost (%s).\n",
	       what, uapi <= 2 * kern ? "met" : "missed", ratio(a, uapi, kern),
	       corr <= 2 * kern ? "met" : "missed", ratio(b, corr, kern));
	printf("BENCH|\n");
}

int main(void)
{
	unsigned long long ref[5] = { 0 };
	__u64 floor, single, bat[3];
	struct rlimit rl = { MAX_FILES + 64, MAX_FILES + 64 };
	const unsigned int files[] = { 1, 10, 100, 1000 };
	__u64 per_files[4];
	unsigned int i, j, nopen = 0;
	void *buf, *pages;
	__u32 key;
	FILE *f;

	setvbuf(stdout, NULL, _IOLBF, 0);
	f = fopen(PARAMS "ref_ps", "r");
	if (!f || fscanf(f, "%llu %llu %llu %llu %llu", &ref[0], &ref[1],
			 &ref[2], &ref[3], &ref[4]) != 5)
		die("ref_ps");
	fclose(f);
	fd = open_dev(dev_path());
	if (fd < 0)
		die("open");
	buf = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED)
		die("mmap");
	key = reg(fd, buf, 16 * 4096);
	for (i = 0; i < NMK; i++) {
		mk[i] = alloc_mkey(fd);
		sge[i].addr = (uintptr_t)buf + (i % 16) * 4096 + 64;
		sge[i].length = 256;
		sge[i].lkey = key;
	}
	for (i = 0; i < 128; i++) {
		req[i].op = MLX5_UMR_IOC_BATCH_CONFIGURE;
		req[i].access = ACCESS;
		req[i].layout = MLX5_UMR_IOC_LAYOUT_LIST;
		req[i].num_entries = 1;
	}

	/* make bench-profile PROFILE_UAPI=1: batches of 32 for N seconds. */
	if (getenv("UAPI_BENCH_PROFILE") && *getenv("UAPI_BENCH_PROFILE")) {
		__u64 end = now_ns() +
			    strtoull(getenv("UAPI_BENCH_PROFILE"), NULL, 0) *
			    1000000000ULL;

		while (now_ns() < end)
			run_batch(32 * 64, 32);
		printf("BENCH|profile|uapi batch 32 done\n");
		return 0;
	}
	floor = measure(run_enotty, 1);
	single = measure(run_single, 1);
	for (i = 0; i < 3; i++)
		bat[i] = measure(run_batch, batches[i]);

	/* Other open files, each with a registration and a configured mkey. */
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("RLIMIT_NOFILE");
	pages = mmap(NULL, MAX_FILES * 4096UL, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (pages == MAP_FAILED)
		die("mmap");
	for (i = 0; i < 4; i++) {
		while (nopen + 1 < files[i]) {
			struct mlx5_umr_ioc_sge e;
			char *p = (char *)pages + nopen * 4096UL;
			int x = open_dev(dev_path());

			if (x < 0)
				die("open");
			e.addr = (uintptr_t)p;
			e.length = 64;
			e.lkey = reg(x, p, 4096);
			configure(x, alloc_mkey(x), &e);
			extra[nopen++] = x;
		}
		per_files[i] = measure(run_single, 1);
	}

	printf("BENCH|\n");
	printf("BENCH|Through the character device, list 1 on the null device, ns per\n");
	printf("BENCH|configure; the in-kernel path of the same boot next to it:\n");
	printf("BENCH|\n");
	rule();
	printf("BENCH|%-22s %9s %9s %9s %7s %7s\n", "path", "uapi", "corr.",
	       "kernel", "u/k", "c/k");
	rule();
	row("syscall (ENOTTY)", floor, 0, 0);
	row("CONFIGURE / sync", single, single - floor, ref[0]);
	for (i = 0; i < 3; i++) {
		char name[32];

		snprintf(name, sizeof(name), "BATCH %u / post %u",
			 batches[i], batches[i]);
		row(name, bat[i], bat[i] - floor / batches[i], ref[2 + i]);
	}
	rule();
	printf("BENCH|\n");
	printf("BENCH|corr.: minus one system call (the ENOTTY row) per ioctl. kernel:\n");
	printf("BENCH|column (c) for CONFIGURE, (d) at the same batch size for BATCH.\n");
	printf("BENCH|\n");
	printf("BENCH|One CONFIGURE per ioctl with other files open (each with a registration\n");
	printf("BENCH|and a configured mkey), ns per configure:\n");
	printf("BENCH|\n");
	printf("BENCH|============ =========\n");
	printf("BENCH|open files   CONFIGURE\n");
	printf("BENCH|============ =========\n");
	for (i = 0; i < 4; i++) {
		char a[32];

		printf("BENCH|%-12u %9s\n", files[i], ns(a, per_files[i]));
	}
	printf("BENCH|============ =========\n");
	printf("BENCH|\n");
	target("Batch 32 through the uapi within 2x the in-kernel batched path",
	       bat[1], bat[1] - floor / 32, ref[3]);
	target("One configure per ioctl within 2x the in-kernel synchronous path",
	       single, single - floor, ref[0]);
	for (j = 0; j < nopen; j++)
		close(extra[j]);
	close(fd);
	return 0;
}
