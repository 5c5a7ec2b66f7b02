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
#include <stdio.h>
#include <infiniband/verbs.h>
#include <linux/mlx5_umr.h>
#include "mlx5umr.h"

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
	long long pd_id;	/* pd's restrack id, -1 if not known */
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

/* pd_id.c: ibv_alloc_pd() and the PD's restrack id (-1 if not known). */
struct ibv_pd *hc_alloc_pd_id(struct ibv_context *ctx, long long *id);
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

/* ---- hwcheck.c, keys.c, checks.c, report.c ---------------------------- */

#define GUARD		0xa5
#define LBUF_LEN	(1024u * 1024u)
#define ACC_ALL		(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_READ)
#define NUM_REGIONS	4
#define BATCH_KEYS	16
#define BATCH_SLICE	4096

/* What a check configures a layout on: an mkey of ours or (rxe) nothing. */
struct hc_key {
	struct mlx5umr_mkey *mkey;	/* mlx5 mode */
	uint32_t rkey;
	uint64_t length;
	struct hc_layout lay;		/* the layout last configured */
};

/* The run: one device, one QP pair, the registered memory, the results. */
struct hc_state {
	int rxe;			/* plain MRs on a soft-RoCE device */
	const char *devname;
	const char *json;
	struct ibv_device **list;
	struct ibv_device *dev;
	struct ibv_device_attr attr;
	struct hc_pair pair;		/* in pd */
	int pair_ok;
	struct mlx5umr_context *uctx;	/* bound to pd (mlx5 mode) */
	struct mlx5_umr_ioc_info info;
	int have_info;
	uint32_t pdn;
	uint8_t *lbuf;			/* local side of every transfer */
	struct ibv_mr *lmr;
	struct hc_region reg[NUM_REGIONS];
	char binding[256];		/* mlx5_umr_hw's debugfs line */
	int fake_mode;			/* --fake: only the fake's device */
	char fake[64];			/* its node_desc, "mlx5-umr fakeN" */
	char pci[64];
	double t0;			/* uptime at start, for kernel log */
	struct hc_check checks[32];
	unsigned int nchecks;
};

extern struct hc_state H;

/* The placement a seed example documents, written out by hand. */
struct hc_expect {
	uint64_t off;
	uint32_t len;
	int reg;
	size_t reg_off;
};

/* One check of the suite; a failing setup check skips the rest. */
struct hc_def {
	const char *name;
	void (*run)(void);
	int setup;
};

extern const struct hc_def hc_defs[];
extern const size_t hc_ndefs;

/* report.c: the current check's result, the kernel log, the JSON report */
extern struct hc_check *hc_cur;
void fail(const char *fmt, ...);
void skip(const char *fmt, ...);
void note(const char *fmt, ...);
void fail_err(const char *what, int err);
void fail_wc(const char *what, const struct hc_wc *wc);
double boot_seconds(void);
char *klog_since_start(void);
int write_json(const char *path, int p, int f, int s, const char *why);

/* keys.c: memory, keys, RDMA through a key, placement checks */
void fill_pattern(uint8_t *p, size_t n, uint32_t seed);
void guard_regions(void);
int reg_region(struct hc_region *r, size_t len);
int key_create(struct hc_key *k, uint32_t max_entries);
void key_destroy(struct hc_key *k);
int key_configure(struct hc_key *k, const struct hc_layout *l, uint32_t flags);
void key_rdma(struct hc_key *k, int write, uint64_t off, uint32_t len,
	      struct hc_wc *wc);
void write_and_verify(struct hc_key *k, uint32_t seed, const char *what);
void read_and_verify(struct hc_key *k, uint32_t seed, const char *what);
void layout_check(const struct hc_layout *lay, const struct hc_expect *x,
		  size_t nx);
void expect_rem_access(struct hc_wc *wc, const char *what);
void fail_wc_recover(const char *what, const struct hc_wc *wc);

/* crypto.c: IEEE 1619 vector 4 through a crypto mkey */
void chk_crypto_vector4(void);
struct mlx5umr_dek *hc_v4_dek(void);

/* sig.c: T10-DIF through signature mkeys, a SIG_ERR read off the CQ */
void chk_sig_insert_strip(void);
void chk_sig_corrupt_rearm(void);
void chk_sig_crypto_pair(void);

#endif /* HWCHECK_H */
