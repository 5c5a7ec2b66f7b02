/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * make hwcheck's in-kernel path: a loopback RC QP pair of kernel verbs in
 * one ib_pd, and RDMA WRITE through it.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef HWCHECK_KVERBS_H
#define HWCHECK_KVERBS_H

#include <rdma/ib_verbs.h>

/**
 * struct hck_pair - two RC QPs of one PD connected to each other
 * @dev: the RDMA device
 * @pd: the PD of both QPs (and of every key the checks use)
 * @cq: send and receive completions of both QPs, polled directly
 * @qp: qp[0] requests, qp[1] responds (and registers FRWR MRs)
 * @port: the port both use
 * @pattr: @port's attributes at connect time
 * @gid_index: the source and destination GID (RoCE), or -1 (InfiniBand)
 * @dmac: the port's netdev MAC (RoCE): the destination is ourselves
 */
struct hck_pair {
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp[2];
	u32 port;
	struct ib_port_attr pattr;
	int gid_index;
	u8 dmac[ETH_ALEN];
};

int hck_pair_connect(struct hck_pair *p);
int hck_pair_recover(struct hck_pair *p);
void hck_pair_destroy(struct hck_pair *p);
int hck_post_wait(struct hck_pair *p, struct ib_qp *qp,
		  const struct ib_send_wr *wr, struct ib_wc *wc);
int hck_write(struct hck_pair *p, u64 laddr, u32 len, u64 raddr, u32 rkey,
	      struct ib_wc *wc);

#endif /* HWCHECK_KVERBS_H */
