// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A loopback RC QP pair: two QPs of one PD on one port, connected to each
 * other, so that qp[0]'s RDMA WRITE and READ go through the NIC to
 * memory qp[1]'s side names by rkey. On InfiniBand the path is the port's
 * LID; on RoCE (and rxe) a GID of the port, a RoCE v2 IPv4 one when there
 * is one.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "hwcheck.h"

#define HC_DEPTH	256
#define HC_TIMEOUT_MS	5000

static int pick_gid(struct hc_pair *p)
{
	struct ibv_gid_entry ent;
	int i, any = -1;

	for (i = 0; i < p->port_attr.gid_tbl_len; i++) {
		if (ibv_query_gid_ex(p->ctx, p->port, i, &ent, 0))
			continue;
		if (ent.gid_type == IBV_GID_TYPE_ROCE_V2 &&
		    ent.gid.raw[10] == 0xff && ent.gid.raw[11] == 0xff)
			return i;
		if (any < 0)
			any = i;
	}
	return any;
}

static struct ibv_qp *make_qp(struct hc_pair *p)
{
	struct ibv_qp_init_attr a = {
		.send_cq = p->cq,
		.recv_cq = p->cq,
		.qp_type = IBV_QPT_RC,
		/*
		 * No receive queue: RDMA WRITE and READ consume no receive
		 * WQE (mlx5_ib makes a zero-length RQ, qp.c get_rx_type();
		 * the fake has no other).
		 */
		.cap = {
			.max_send_wr = HC_DEPTH,
			.max_send_sge = 1,
		},
	};

	return ibv_create_qp(p->pd, &a);
}

/* Outstanding READs: 4, or what the device takes (the fake: 1). */
static uint8_t rd_atom(int max)
{
	return max > 0 && max < 4 ? max : 4;
}

static int to_rts(struct hc_pair *p, struct ibv_qp *qp, uint32_t dqpn)
{
	struct ibv_qp_attr a;
	union ibv_gid gid;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RESET;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		return errno;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = p->port;
	a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
			    IBV_ACCESS_LOCAL_WRITE;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return errno;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = p->port_attr.active_mtu;
	a.dest_qp_num = dqpn;
	a.rq_psn = 0x1234;
	a.max_dest_rd_atomic = rd_atom(H.attr.max_qp_rd_atom);
	a.min_rnr_timer = 12;
	a.ah_attr.port_num = p->port;
	a.ah_attr.dlid = p->port_attr.lid;
	if (p->gid_index >= 0) {
		if (ibv_query_gid(p->ctx, p->port, p->gid_index, &gid))
			return errno;
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.dgid = gid;
		a.ah_attr.grh.sgid_index = p->gid_index;
		a.ah_attr.grh.hop_limit = 1;
	}
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return errno;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0x1234;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = rd_atom(H.attr.max_qp_init_rd_atom);
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			  IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC))
		return errno;
	return 0;
}

static void drain(struct hc_pair *p)
{
	struct ibv_wc wc[16];

	while (ibv_poll_cq(p->cq, 16, wc) > 0)
		;
}

int hc_pair_recover(struct hc_pair *p)
{
	int err;

	drain(p);
	err = to_rts(p, p->qp[0], p->qp[1]->qp_num);
	if (!err)
		err = to_rts(p, p->qp[1], p->qp[0]->qp_num);
	if (err)
		snprintf(p->why, sizeof(p->why), "modify_qp: %s",
			 strerror(err));
	return err;
}

int hc_pair_connect(struct hc_pair *p)
{
	if (ibv_query_port(p->ctx, p->port, &p->port_attr)) {
		snprintf(p->why, sizeof(p->why), "ibv_query_port(%u): %s",
			 p->port, strerror(errno));
		return -1;
	}
	if (p->port_attr.state != IBV_PORT_ACTIVE) {
		snprintf(p->why, sizeof(p->why),
			 "port %u is %s, not ACTIVE (link down?)", p->port,
			 ibv_port_state_str(p->port_attr.state));
		return -1;
	}
	p->gid_index = -1;
	if (p->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET) {
		p->gid_index = pick_gid(p);
		if (p->gid_index < 0) {
			snprintf(p->why, sizeof(p->why),
				 "port %u has no GID (no IP address on its netdev?)",
				 p->port);
			return -1;
		}
	}
	p->cq = ibv_create_cq(p->ctx, 2 * HC_DEPTH, NULL, NULL, 0);
	if (!p->cq) {
		snprintf(p->why, sizeof(p->why), "ibv_create_cq: %s",
			 strerror(errno));
		return -1;
	}
	p->qp[0] = make_qp(p);
	p->qp[1] = p->qp[0] ? make_qp(p) : NULL;
	if (!p->qp[1]) {
		snprintf(p->why, sizeof(p->why), "ibv_create_qp: %s",
			 strerror(errno));
		return -1;
	}
	return hc_pair_recover(p) ? -1 : 0;
}

void hc_pair_destroy(struct hc_pair *p)
{
	if (p->qp[1])
		ibv_destroy_qp(p->qp[1]);
	if (p->qp[0])
		ibv_destroy_qp(p->qp[0]);
	if (p->cq)
		ibv_destroy_cq(p->cq);
	p->qp[0] = NULL;
	p->qp[1] = NULL;
	p->cq = NULL;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* Wait for @n completions; the first bad one goes to @wc. */
static void reap(struct hc_pair *p, size_t n, struct hc_wc *wc)
{
	long end = now_ms() + HC_TIMEOUT_MS;
	struct ibv_wc c[16];
	int got, i;

	while (n) {
		got = ibv_poll_cq(p->cq, n < 16 ? (int)n : 16, c);
		if (got < 0) {
			wc->posted = 0;
			wc->err = EIO;
			return;
		}
		for (i = 0; i < got; i++) {
			if (c[i].status != IBV_WC_SUCCESS &&
			    wc->status == IBV_WC_SUCCESS) {
				wc->status = c[i].status;
				wc->vendor_err = c[i].vendor_err;
			}
		}
		n -= got;
		if (n && now_ms() > end) {
			wc->posted = 0;
			wc->err = ETIMEDOUT;
			return;
		}
	}
}

void hc_rdma_many(struct hc_pair *p, int write, const struct ibv_sge *l,
		  const uint64_t *raddr, const uint32_t *rkey, size_t n,
		  struct hc_wc *wc)
{
	size_t i = 0, k, chunk;

	memset(wc, 0, sizeof(*wc));
	wc->posted = 1;
	while (i < n) {
		struct ibv_send_wr wr[64], *bad;
		struct ibv_sge sge[64];

		chunk = n - i < 64 ? n - i : 64;
		for (k = 0; k < chunk; k++) {
			sge[k] = l[i + k];
			memset(&wr[k], 0, sizeof(wr[k]));
			wr[k].wr_id = i + k;
			wr[k].sg_list = &sge[k];
			wr[k].num_sge = 1;
			wr[k].opcode = write ? IBV_WR_RDMA_WRITE :
					       IBV_WR_RDMA_READ;
			wr[k].send_flags = IBV_SEND_SIGNALED;
			wr[k].wr.rdma.remote_addr = raddr[i + k];
			wr[k].wr.rdma.rkey = rkey[i + k];
			wr[k].next = k + 1 < chunk ? &wr[k + 1] : NULL;
		}
		wc->err = ibv_post_send(p->qp[0], wr, &bad);
		if (wc->err) {
			wc->posted = 0;
			return;
		}
		reap(p, chunk, wc);
		if (!wc->posted || wc->status != IBV_WC_SUCCESS)
			return;
		i += chunk;
	}
}

void hc_rdma(struct hc_pair *p, int write, void *lbuf, uint32_t lkey,
	     uint64_t raddr, uint32_t rkey, uint32_t len, struct hc_wc *wc)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)lbuf, .length = len, .lkey = lkey,
	};

	hc_rdma_many(p, write, &sge, &raddr, &rkey, 1, wc);
}
