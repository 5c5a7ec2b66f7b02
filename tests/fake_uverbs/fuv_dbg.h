/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fake HCA's debugfs files as the fake_uverbs programs read them
 * (drivers/fake/fake_debugfs.c; Documentation/fake.rst): the directory of
 * a device, an mkey, a counter, and data moved through a key by a peer
 * ("xfer").
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef FUV_DBG_H
#define FUV_DBG_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The fake's debugfs directory of RDMA device @ibdev, from its node_desc. */
static inline int fuv_dbg_dir(const char *ibdev, char *dir, size_t len)
{
	char path[256], name[64];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/node_desc",
		 ibdev);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "mlx5-umr %63s", name);
	fclose(f);
	if (n != 1)
		return -1;
	snprintf(dir, len, "/sys/kernel/debug/mlx5_umr_fake/%s", name);
	return 0;
}

/* A line of debugfs "mkeys". */
struct fuv_mkey {
	unsigned int key, pd, mode, free, umr_en;
	char acc[8];
	unsigned int rinval;
	unsigned long long start, len;
	unsigned int xlt_oct;
};

/*
 * The fake's mkey @key (by its index alone when @by_index: the key byte
 * may have changed): 1 found, 0 not, -1 error.
 */
static inline int fuv_dbg_mkey(const char *dir, unsigned int key,
			       int by_index, struct fuv_mkey *m)
{
	unsigned int mask = by_index ? ~0xffU : ~0U;
	char path[320], line[256];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/mkeys", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct fuv_mkey t;

		if (sscanf(line, "%x %x %u %u %u %7s %u %llx %llx %u", &t.key,
			   &t.pd, &t.mode, &t.free, &t.umr_en, t.acc,
			   &t.rinval, &t.start, &t.len, &t.xlt_oct) == 10 &&
		    (t.key & mask) == (key & mask)) {
			*m = t;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* A counter of the fake (debugfs "counters"), or -1. */
static inline long long fuv_dbg_counter(const char *dir, const char *name)
{
	char path[320], key[64];
	long long v, found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/counters", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lli", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

/*
 * @len bytes through @key at @off by a peer QP of PD @pdn (debugfs
 * "xfer"): @op 'W' writes @buf, 'R' reads into it ('w'/'r': a local
 * access of that PD instead of a remote one); by QP @qpn of that PD
 * when @qpn >= 0, so that a signature error reaches its CQ. 0 or -errno
 * (-EACCES: the responder's access error, nothing moved).
 */
static inline int fuv_dbg_xfer_q(const char *dir, char op, unsigned int pdn,
				 unsigned int key, unsigned long long off,
				 void *buf, size_t len, int qpn)
{
	char path[320], *msg;
	int fd, n, ret = 0;

	snprintf(path, sizeof(path), "%s/xfer", dir);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -errno;
	msg = malloc(80 + len);
	if (!msg) {
		close(fd);
		return -ENOMEM;
	}
	if (qpn >= 0)
		n = snprintf(msg, 80, "%c %u 0x%x %llu %zu 0x%x\n", op, pdn,
			     key, off, len, qpn);
	else
		n = snprintf(msg, 80, "%c %u 0x%x %llu %zu\n", op, pdn, key,
			     off, len);
	if (op == 'W' || op == 'w') {
		memcpy(msg + n, buf, len);
		n += len;
	}
	if (write(fd, msg, n) != n)
		ret = -errno;
	else if ((op == 'R' || op == 'r') &&
		 read(fd, buf, len) != (ssize_t)len)
		ret = -EIO;
	free(msg);
	close(fd);
	return ret;
}

static inline int fuv_dbg_xfer(const char *dir, char op, unsigned int pdn,
			       unsigned int key, unsigned long long off,
			       void *buf, size_t len)
{
	return fuv_dbg_xfer_q(dir, op, pdn, key, off, buf, len, -1);
}

#endif /* FUV_DBG_H */
