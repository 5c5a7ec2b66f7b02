/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * hwcheck: proves the UMR service on a real ConnectX with rdma-core verbs,
 * or, with --rxe, the same harness on a soft-RoCE device with plain MRs.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef HWCHECK_H
#define HWCHECK_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

/* Memory a layout may name: a registration (ours or a plain MR). */
struct hc_region {
	uint8_t *buf;
	size_t len;
	uint32_t lkey;
	uint32_t rkey;
	void *obj;		/* struct mlx5umr_mr * or struct ibv_mr * */
};

/* One layout entry: a list entry has skip 0 and repeat 1. */
struct hc_ent {
	struct hc_region *reg;
	size_t off;		/* into reg->buf */
	uint32_t count;
	uint32_t skip;
};

struct hc_layout {
	int interleaved;
	uint32_t repeat;	/* 1 for a list */
	uint32_t n;
	struct hc_ent *e;
};

/* A run of bytes of a key's address space and where the layout puts it. */
struct hc_seg {
	uint64_t off;
	uint32_t len;
	struct hc_region *reg;
	size_t reg_off;
};

/* layout.c */
uint64_t hc_layout_length(const struct hc_layout *l);
/* The segments of [0, length), in address order; NULL on ENOMEM. */
struct hc_seg *hc_layout_segs(const struct hc_layout *l, size_t *nsegs);

/* verbs.c: a loopback RC QP pair in one PD, on one CQ. */
struct hc_pair {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp[2];	/* qp[0] requests, qp[1] responds */
	uint8_t port;
	int gid_index;		/* -1: no GRH (InfiniBand) */
	struct ibv_port_attr port_attr;
	char why[160];		/* why connecting failed */
};

/* The outcome of one RDMA operation. */
struct hc_wc {
	int posted;		/* 0: ibv_post_send() failed (errno in err) */
	int err;
	enum ibv_wc_status status;
	uint32_t vendor_err;
};

int hc_pair_connect(struct hc_pair *p);
void hc_pair_destroy(struct hc_pair *p);
/* RESET, INIT, RTR, RTS again after an error completion. */
int hc_pair_recover(struct hc_pair *p);
/*
 * One RDMA WRITE (@write) or READ on qp[0] of @len bytes from/to @lbuf
 * (lkey @lkey) at @raddr of @rkey; waits for its completion.
 */
void hc_rdma(struct hc_pair *p, int write, void *lbuf, uint32_t lkey,
	     uint64_t raddr, uint32_t rkey, uint32_t len, struct hc_wc *wc);
/* Up to @n at once, one completion each; the first failure is in @wc. */
void hc_rdma_many(struct hc_pair *p, int write, const struct ibv_sge *l,
		  const uint64_t *raddr, const uint32_t *rkey, size_t n,
		  struct hc_wc *wc);

/* report.c */
enum hc_result { HC_PASS, HC_FAIL, HC_SKIP };

struct hc_check {
	const char *name;
	enum hc_result result;
	char detail[256];
	int have_wc;
	struct hc_wc wc;
	int err;		/* errno of a failed call, 0 if none */
	char *klog;		/* kernel log lines of the service, or NULL */
};

void hc_json_str(FILE *f, const char *s);

#endif /* HWCHECK_H */
