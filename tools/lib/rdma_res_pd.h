/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A verbs PD's resource-tracking id, which MLX5_UMR_IOCTL_SET_PD's verified
 * form needs next to the PD's handle (Documentation/uapi.rst, "Verified
 * PDs"). Verbs do not report it; iproute2's "rdma -j res show pd" does (its
 * "pdn" is the restrack id, not the HCA's PD number). For hwcheck and the
 * tests; header-only, not part of libmlx5umr's ABI.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5UMR_RDMA_RES_PD_H
#define MLX5UMR_RDMA_RES_PD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The restrack ids of @ibdev's PDs of process @pid (-1: the kernel's,
 * which have no pid), at most @max of them in @ids, in the order "rdma"
 * lists them. Return: how many, or -1 when the list cannot be read.
 */
static inline int rdma_res_pd_ids(const char *ibdev, long long pid,
				  long long *ids, int max)
{
	size_t n, cap = 1 << 16;
	char cmd[160], *buf, *p;
	int nids = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "rdma -j res show pd dev %s 2>/dev/null",
		 ibdev);
	buf = malloc(cap);
	if (!buf)
		return -1;
	f = popen(cmd, "r");
	if (!f) {
		free(buf);
		return -1;
	}
	n = fread(buf, 1, cap - 1, f);
	if (pclose(f) || n == cap - 1) {
		free(buf);
		return -1;
	}
	buf[n] = 0;
	/* one object per PD: {"ifindex":..,"pdn":ID,...,"pid":PID,...} */
	for (p = strchr(buf, '{'); p && nids < max; p = strchr(p + 1, '{')) {
		char *end = strchr(p, '}'), *q;
		long long id = -1, who = -1;

		if (!end)
			break;
		*end = 0;
		q = strstr(p, "\"pdn\":");
		if (q)
			id = atoll(q + 6);
		q = strstr(p, "\"pid\":");
		if (q)
			who = atoll(q + 6);
		*end = '}';
		if (who == pid && id >= 0)
			ids[nids++] = id;
	}
	free(buf);
	return nids;
}

/* The last restrack id of @pid's PDs on @ibdev, or -1. */
static inline long long rdma_res_pd_id(const char *ibdev, long long pid)
{
	long long ids[64];
	int n = rdma_res_pd_ids(ibdev, pid, ids, 64);

	return n > 0 ? ids[n - 1] : -1;
}

#endif /* MLX5UMR_RDMA_RES_PD_H */
