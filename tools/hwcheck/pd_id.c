// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A PD's resource-tracking id, which MLX5_UMR_IOCTL_SET_PD's verified form
 * needs next to the PD's handle (Documentation/uapi.rst, "Verified PDs").
 * Verbs do not report it; iproute2's "rdma res show pd" does (its "pdn"
 * is the restrack id, not the HCA's PD number). A PD is found as the one
 * id of this process that appears across its ibv_alloc_pd().
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hwcheck.h"
#include "rdma_res_pd.h"

#define HC_MAX_PD_IDS 64

static int has_id(const long long *ids, int n, long long id)
{
	int i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

struct ibv_pd *hc_alloc_pd_id(struct ibv_context *ctx, long long *id)
{
	const char *ibdev = ibv_get_device_name(ctx->device);
	long long before[HC_MAX_PD_IDS], after[HC_MAX_PD_IDS];
	int nb, na, i, found = 0;
	struct ibv_pd *pd;

	*id = -1;
	nb = rdma_res_pd_ids(ibdev, getpid(), before, HC_MAX_PD_IDS);
	pd = ibv_alloc_pd(ctx);
	if (!pd || nb < 0)
		return pd;
	na = rdma_res_pd_ids(ibdev, getpid(), after, HC_MAX_PD_IDS);
	for (i = 0; i < na; i++) {
		if (has_id(before, nb, after[i]))
			continue;
		*id = after[i];
		found++;
	}
	if (found != 1)
		*id = -1;
	return pd;
}
