// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The kernel-verbs twin of tools/hwcheck/verbs.c: a loopback RC QP pair.
 * Kernel users give ib_modify_qp() a resolved address vector (ib_core
 * resolves the destination MAC only for user QPs), so on RoCE the
 * destination MAC is the port's own netdev's.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include "kverbs.h"

#define HCK_DEPTH	16
#define HCK_TIMEOUT_MS	5000

/* A RoCE v2 IPv4 GID when there is one, else the first; and its MAC. */
static int hck_pick_gid(struct hck_pair *p)
{
	const struct ib_gid_attr *a;
	struct net_device *ndev;
	int i, best = -1, any = -1;

	for (i = 0; i < p->pattr.gid_tbl_len && best < 0; i++) {
		a = rdma_get_gid_attr(p->dev, p->port, i);
		if (IS_ERR(a))
			continue;
		if (a->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
		    ipv6_addr_v4mapped((const struct in6_addr *)a->gid.raw))
			best = i;
		else if (any < 0)
			any = i;
		if (best == i || any == i) {
			rcu_read_lock();
			ndev = rdma_read_gid_attr_ndev_rcu(a);
			if (!IS_ERR(ndev))
				ether_addr_copy(p->dmac, ndev->dev_addr);
			rcu_read_unlock();
		}
		rdma_put_gid_attr(a);
	}
	return best >= 0 ? best : any;
}

static int hck_to_rts(struct hck_pair *p, struct ib_qp *qp, u32 dqpn)
{
	struct ib_qp_attr a = {};
	union ib_gid gid;
	int err;

	a.qp_state = IB_QPS_RESET;
	err = ib_modify_qp(qp, &a, IB_QP_STATE);
	if (err)
		return err;
	a.qp_state = IB_QPS_INIT;
	a.port_num = p->port;
	a.qp_access_flags = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
			    IB_ACCESS_LOCAL_WRITE;
	err = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	a.path_mtu = p->pattr.active_mtu;
	a.dest_qp_num = dqpn;
	a.rq_psn = 0x1234;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.type = rdma_ah_find_type(p->dev, p->port);
	rdma_ah_set_port_num(&a.ah_attr, p->port);
	if (p->gid_index >= 0) {
		err = rdma_query_gid(p->dev, p->port, p->gid_index, &gid);
		if (err)
			return err;
		rdma_ah_set_grh(&a.ah_attr, &gid, 0, p->gid_index, 1, 0);
		if (a.ah_attr.type == RDMA_AH_ATTR_TYPE_ROCE)
			ether_addr_copy(a.ah_attr.roce.dmac, p->dmac);
	} else {
		rdma_ah_set_dlid(&a.ah_attr, p->pattr.lid);
	}
	err = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			   IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.sq_psn = 0x1234;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_SQ_PSN |
			    IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
			    IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC);
}

static void hck_drain(struct hck_pair *p)
{
	struct ib_wc wc;

	while (ib_poll_cq(p->cq, 1, &wc) > 0)
		;
}

/**
 * hck_pair_recover() - back to RTS after an error completion
 * @p: the pair
 *
 * Return: 0 or the errno of ib_modify_qp().
 */
int hck_pair_recover(struct hck_pair *p)
{
	int err;

	hck_drain(p);
	err = hck_to_rts(p, p->qp[0], p->qp[1]->qp_num);
	if (!err)
		err = hck_to_rts(p, p->qp[1], p->qp[0]->qp_num);
	return err;
}

static struct ib_qp *hck_make_qp(struct hck_pair *p)
{
	struct ib_qp_init_attr a = {
		.send_cq = p->cq,
		.recv_cq = p->cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = {
			.max_send_wr = HCK_DEPTH,
			.max_recv_wr = 1,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
	};

	return ib_create_qp(p->pd, &a);
}

/**
 * hck_pair_connect() - create and connect the pair on @p->port of @p->dev
 * @p: @dev, @pd and @port set, the rest zero
 *
 * Return: 0, -ENOLINK when the port is not active, -EADDRNOTAVAIL without
 * a GID on RoCE, or the errno of a verb.
 */
int hck_pair_connect(struct hck_pair *p)
{
	int err;

	err = ib_query_port(p->dev, p->port, &p->pattr);
	if (err)
		return err;
	if (p->pattr.state != IB_PORT_ACTIVE)
		return -ENOLINK;
	p->gid_index = -1;
	if (rdma_protocol_roce(p->dev, p->port)) {
		p->gid_index = hck_pick_gid(p);
		if (p->gid_index < 0)
			return -EADDRNOTAVAIL;
	}
	p->cq = ib_alloc_cq(p->dev, NULL, 2 * HCK_DEPTH, 0, IB_POLL_DIRECT);
	if (IS_ERR(p->cq)) {
		err = PTR_ERR(p->cq);
		p->cq = NULL;
		return err;
	}
	p->qp[0] = hck_make_qp(p);
	if (IS_ERR(p->qp[0])) {
		err = PTR_ERR(p->qp[0]);
		p->qp[0] = NULL;
		return err;
	}
	p->qp[1] = hck_make_qp(p);
	if (IS_ERR(p->qp[1])) {
		err = PTR_ERR(p->qp[1]);
		p->qp[1] = NULL;
		return err;
	}
	return hck_pair_recover(p);
}

/**
 * hck_pair_destroy() - destroy what hck_pair_connect() created
 * @p: the pair, also after a failed connect
 */
void hck_pair_destroy(struct hck_pair *p)
{
	if (p->qp[1])
		ib_destroy_qp(p->qp[1]);
	if (p->qp[0])
		ib_destroy_qp(p->qp[0]);
	if (p->cq)
		ib_free_cq(p->cq);
	p->qp[0] = NULL;
	p->qp[1] = NULL;
	p->cq = NULL;
}

/**
 * hck_post_wait() - post one signalled work request and wait for it
 * @p: the pair
 * @qp: p->qp[0] or p->qp[1]
 * @wr: the request (IB_SEND_SIGNALED)
 * @wc: its completion
 *
 * Return: 0 when it completed (see @wc->status), -ETIMEDOUT, or the errno
 * of ib_post_send().
 */
int hck_post_wait(struct hck_pair *p, struct ib_qp *qp,
		  const struct ib_send_wr *wr, struct ib_wc *wc)
{
	unsigned long end = jiffies + msecs_to_jiffies(HCK_TIMEOUT_MS);
	int err;

	err = ib_post_send(qp, wr, NULL);
	if (err)
		return err;
	while (ib_poll_cq(p->cq, 1, wc) < 1) {
		if (time_after(jiffies, end))
			return -ETIMEDOUT;
		usleep_range(50, 100);
	}
	return 0;
}

/**
 * hck_write() - RDMA WRITE on qp[0] from DMA address @laddr (the PD's
 *	local_dma_lkey) to @raddr of @rkey
 * @p: the pair
 * @laddr: DMA address of the source
 * @len: bytes
 * @raddr: address in @rkey's address space
 * @rkey: the remote key
 * @wc: the completion
 *
 * Return: as hck_post_wait().
 */
int hck_write(struct hck_pair *p, u64 laddr, u32 len, u64 raddr, u32 rkey,
	      struct ib_wc *wc)
{
	struct ib_sge sge = {
		.addr = laddr, .length = len, .lkey = p->pd->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.opcode = IB_WR_RDMA_WRITE,
			.send_flags = IB_SEND_SIGNALED,
			.sg_list = &sge,
			.num_sge = 1,
		},
		.remote_addr = raddr,
		.rkey = rkey,
	};

	return hck_post_wait(p, p->qp[0], &wr.wr, wc);
}
