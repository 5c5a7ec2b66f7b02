// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma-core's libmlx5 on the fake HCA (Documentation/fake.rst, "rdma-core
 * on the fake"), stage 1 so far: the device binds Debian's unmodified
 * libmlx5, opens, answers queries, allocates PDs and registers MRs, each
 * checked against what the fake holds (its debugfs). Run in the test VM
 * by run.sh after mlx5_umr_fake_uverbs.ko is loaded.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include "kselftest_harness.h"
#include "fuv_dbg.h"
#include "fuv_verbs.h"
/* IEEE 1619 vectors 4 and 5, the project's one copy (a KUnit header) */
typedef __u8 u8;
#include "xts_vector5.h"

#define PAGE	4096UL

/* The fake's numbers (drivers/fake/fake_cmd.c fake_query_hca_cap()). */
#define FAKE_LOG_MAX_QP		10
#define FAKE_LOG_MAX_MKEY	20
#define FAKE_LOG_MAX_PD		16

/* Whether the fake holds PD @pdn (debugfs "pds"): 1, 0, or -1. */
static int fuv_has_pd(const char *dir, unsigned int pdn)
{
	char path[320];
	unsigned int p;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/pds", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%u", &p) == 1)
		if (p == pdn)
			found = 1;
	fclose(f);
	return found;
}

/* The log2 size of the fake's CQ @cqn (debugfs "cqs"), or -1. */
static int fuv_cq_log_sz(const char *dir, unsigned int cqn)
{
	unsigned int n, log_sz;
	char path[320], line[128];
	int found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cqs", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %u", &n, &log_sz) == 2 && n == cqn)
			found = log_sz;
	fclose(f);
	return found;
}

static struct ibv_device *fuv_find(struct ibv_device **list)
{
	for (; list && *list; list++)
		if (!strncmp(ibv_get_device_name(*list), "fake_mlx5_", 10))
			return *list;
	return NULL;
}

FIXTURE(fuv) {
	struct ibv_device **list;
	struct ibv_device *dev;
	struct ibv_context *ctx;
	char dbg[256];
};

FIXTURE_SETUP(fuv)
{
	self->list = ibv_get_device_list(NULL);
	ASSERT_NE(NULL, self->list);
	self->dev = fuv_find(self->list);
	ASSERT_NE(NULL, self->dev) TH_LOG("no fake_mlx5_* device");
	ASSERT_EQ(0, fuv_dbg_dir(ibv_get_device_name(self->dev), self->dbg, sizeof(self->dbg)));
	self->ctx = ibv_open_device(self->dev);
	ASSERT_NE(NULL, self->ctx) TH_LOG("ibv_open_device: %s",
					  strerror(errno));
}

FIXTURE_TEARDOWN(fuv)
{
	if (self->ctx)
		ibv_close_device(self->ctx);
	ibv_free_device_list(self->list);
}

/*
 * libibverbs bound libmlx5 by driver id (mlx5dv_is_supported() is true
 * only for the mlx5 provider's devices), and the context is libmlx5's:
 * CQE version 1 agreed on at GET_CONTEXT.
 */
TEST_F(fuv, bound_to_libmlx5)
{
	struct mlx5dv_context dv = {};

	ASSERT_TRUE(mlx5dv_is_supported(self->dev));
	ASSERT_EQ(0, mlx5dv_query_device(self->ctx, &dv));
	ASSERT_EQ(MLX5DV_CONTEXT_FLAGS_CQE_V1,
		  dv.flags & MLX5DV_CONTEXT_FLAGS_CQE_V1);
	/* bf_reg_size 0: no blue-flame, so no MPW or enhanced MPW either */
	ASSERT_EQ(0, dv.flags & MLX5DV_CONTEXT_FLAGS_MPW_ALLOWED);
}

TEST_F(fuv, query_device_and_port)
{
	struct ibv_device_attr attr;
	struct ibv_port_attr port;

	ASSERT_EQ(0, ibv_query_device(self->ctx, &attr));
	ASSERT_EQ(0x02c9, attr.vendor_id);	/* Mellanox's OUI */
	ASSERT_EQ(1 << FAKE_LOG_MAX_QP, attr.max_qp);
	ASSERT_EQ(1 << FAKE_LOG_MAX_MKEY, attr.max_mr);
	ASSERT_EQ(1 << FAKE_LOG_MAX_PD, attr.max_pd);
	ASSERT_EQ(1, attr.phys_port_cnt);
	ASSERT_EQ(0, ibv_query_port(self->ctx, 1, &port));
	ASSERT_EQ(IBV_PORT_ACTIVE, port.state);
	ASSERT_EQ(IBV_LINK_LAYER_INFINIBAND, port.link_layer);
	ASSERT_EQ(1, port.lid);
	ASSERT_NE(0, ibv_query_port(self->ctx, 2, &port));
}

/* A verbs PD is a PD of the fake, gone from it at dealloc. */
TEST_F(fuv, pd_is_the_fakes)
{
	struct ibv_pd *pd1, *pd2;
	__u32 n1, n2;

	pd1 = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, pd1);
	pd2 = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, pd2);
	n1 = fuv_pdn(pd1);
	n2 = fuv_pdn(pd2);
	ASSERT_NE(~0u, n1);
	ASSERT_NE(n1, n2);
	ASSERT_EQ(1, fuv_has_pd(self->dbg, n1));
	ASSERT_EQ(1, fuv_has_pd(self->dbg, n2));
	ASSERT_EQ(0, ibv_dealloc_pd(pd1));
	ASSERT_EQ(0, fuv_has_pd(self->dbg, n1));
	ASSERT_EQ(1, fuv_has_pd(self->dbg, n2));
	ASSERT_EQ(0, ibv_dealloc_pd(pd2));
	ASSERT_EQ(0, fuv_has_pd(self->dbg, n2));
}

/*
 * ibv_reg_mr: an MTT mkey of the fake in the PD, starting at the MR's
 * address, with the access asked for and one translation per page
 * touched (two pages and 100 bytes in: 3 pages, 2 octwords); gone at
 * dereg.
 */
TEST_F(fuv, mr_is_an_mtt_mkey)
{
	struct fuv_mkey m;
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	char *buf;

	buf = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	pd = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, pd);
	mr = ibv_reg_mr(pd, buf + 100, 2 * PAGE,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	ASSERT_NE(NULL, mr) TH_LOG("ibv_reg_mr: %s", strerror(errno));
	ASSERT_EQ(mr->lkey, mr->rkey);
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mr->lkey, 0, &m));
	ASSERT_EQ(fuv_pdn(pd), m.pd);
	ASSERT_EQ(1, m.mode);		/* MLX5_MKC_ACCESS_MODE_MTT */
	ASSERT_EQ(0, m.free);
	ASSERT_STREQ("11100", m.acc);	/* lr lw rr rw a */
	ASSERT_EQ((uintptr_t)buf + 100, m.start);
	ASSERT_EQ(2 * PAGE, m.len);
	ASSERT_EQ(2, m.xlt_oct);
	ASSERT_EQ(0, ibv_dereg_mr(mr));
	ASSERT_EQ(0, fuv_dbg_mkey(self->dbg, m.key, 0, &m));

	/* remote write and atomic: the access bits follow */
	mr = ibv_reg_mr(pd, buf, PAGE, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC);
	ASSERT_NE(NULL, mr);
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mr->lkey, 0, &m));
	ASSERT_STREQ("11011", m.acc);
	ASSERT_EQ(1, m.xlt_oct);
	ASSERT_EQ(0, ibv_dereg_mr(mr));
	ASSERT_EQ(0, ibv_dealloc_pd(pd));
	munmap(buf, 4 * PAGE);
}

/* Whether the running kernel is at least @maj.@min. */
static int fuv_kernel_at_least(int maj, int min)
{
	struct utsname u;
	int a, b;

	if (uname(&u) || sscanf(u.release, "%d.%d", &a, &b) != 2)
		return -1;
	return a > maj || (a == maj && b >= min);
}

/*
 * Refusals with mlx5_ib's errno: an IOVA whose offset in the page differs
 * from the address's (mr.c finds no page size: EINVAL), and ODP on a
 * device without ODP (the RDMA core's ib_check_mr_access(): EINVAL on
 * 6.1, EOPNOTSUPP on 6.12). Nothing is left in the fake.
 */
TEST_F(fuv, mr_refusals)
{
	struct fuv_mkey m;
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	char *buf;

	buf = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	pd = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, pd);
	errno = 0;
	mr = ibv_reg_mr_iova(pd, buf, PAGE, 0x10008, IBV_ACCESS_LOCAL_WRITE);
	ASSERT_EQ(NULL, mr);
	ASSERT_EQ(EINVAL, errno);
	errno = 0;
	mr = ibv_reg_mr(pd, buf, PAGE,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
	ASSERT_EQ(NULL, mr);
	ASSERT_LE(0, fuv_kernel_at_least(6, 12));
	ASSERT_EQ(fuv_kernel_at_least(6, 12) ? EOPNOTSUPP : EINVAL, errno);
	/* a page-aligned IOVA other than the address is fine */
	mr = ibv_reg_mr_iova(pd, buf, PAGE, 0x10000, IBV_ACCESS_LOCAL_WRITE);
	ASSERT_NE(NULL, mr);
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mr->lkey, 0, &m));
	ASSERT_EQ(0x10000, m.start);
	ASSERT_EQ(0, ibv_dereg_mr(mr));
	ASSERT_EQ(0, ibv_dealloc_pd(pd));
	munmap(buf, 2 * PAGE);
}

/*
 * ibv_create_cq: a CQ of the fake whose ring is the library's own memory
 * (mlx5dv_init_obj() shows it), of the size asked for rounded up to a
 * power of two (15 -> 16 entries), on the UAR libmlx5 allocated at open
 * (the fake counts it); gone at destroy.
 */
TEST_F(fuv, cq_in_user_memory)
{
	struct mlx5dv_cq dvcq = {};
	struct mlx5dv_obj obj = { .cq = { .out = &dvcq } };
	struct ibv_cq *cq;

	ASSERT_LE(1, fuv_dbg_counter(self->dbg, "uars"));
	cq = ibv_create_cq(self->ctx, 15, NULL, NULL, 0);
	ASSERT_NE(NULL, cq) TH_LOG("ibv_create_cq: %s", strerror(errno));
	obj.cq.in = cq;
	ASSERT_EQ(0, mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ));
	ASSERT_EQ(16, dvcq.cqe_cnt);
	ASSERT_EQ(64, dvcq.cqe_size);
	ASSERT_NE(NULL, dvcq.buf);
	ASSERT_NE(NULL, dvcq.dbrec);
	ASSERT_NE(NULL, dvcq.cq_uar);
	ASSERT_EQ(0, (uintptr_t)dvcq.buf % PAGE);
	ASSERT_EQ(4, fuv_cq_log_sz(self->dbg, dvcq.cqn));
	ASSERT_EQ(0, ibv_destroy_cq(cq));
	ASSERT_EQ(-1, fuv_cq_log_sz(self->dbg, dvcq.cqn));
}

/*
 * 128-byte CQEs (libmlx5's MLX5_CQE_SIZE=128) are not modelled by the
 * fake's CQ engine: EOPNOTSUPP, nothing left in the fake.
 */
TEST_F(fuv, cq_128b_cqe_refused)
{
	long long cqs = fuv_dbg_counter(self->dbg, "cqs");
	struct ibv_cq *cq;

	ASSERT_LE(0, cqs);
	cq = ibv_create_cq(self->ctx, 15, NULL, NULL, 0);
	ASSERT_NE(NULL, cq);
	ASSERT_EQ(cqs + 1, fuv_dbg_counter(self->dbg, "cqs"));
	ASSERT_EQ(0, ibv_destroy_cq(cq));
	ASSERT_EQ(0, setenv("MLX5_CQE_SIZE", "128", 1));
	errno = 0;
	cq = ibv_create_cq(self->ctx, 15, NULL, NULL, 0);
	ASSERT_EQ(NULL, cq);
	ASSERT_EQ(EOPNOTSUPP, errno);
	ASSERT_EQ(cqs, fuv_dbg_counter(self->dbg, "cqs"));
}

/*
 * A process that exits holding a PD, an MR and a CQ leaves nothing in the
 * fake: the RDMA core destroys its objects through the device's ops, and
 * the pages mapped in the fake's IOMMU and its UARs go with them.
 */
TEST_F(fuv, exit_leaves_nothing)
{
	static const char * const names[] = {
		"pds", "mkeys", "cqs", "uars", "sg_maps", "iommu_pages",
	};
	long long before[6];
	unsigned int i;
	int status;
	pid_t pid;

	/* the fixture's context holds a UAR: count without it */
	ibv_close_device(self->ctx);
	self->ctx = NULL;
	for (i = 0; i < 6; i++) {
		before[i] = fuv_dbg_counter(self->dbg, names[i]);
		ASSERT_LE(0, before[i]);
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct ibv_context *ctx = ibv_open_device(self->dev);
		struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
		char *buf = malloc(3 * PAGE);
		struct ibv_mr *mr = pd && buf ?
			ibv_reg_mr(pd, buf, 3 * PAGE, IBV_ACCESS_LOCAL_WRITE) :
			NULL;
		struct ibv_cq *cq = ctx ?
			ibv_create_cq(ctx, 63, NULL, NULL, 0) : NULL;

		/* all held at exit; the counters moved */
		_exit(!mr || !cq ||
		      fuv_dbg_counter(self->dbg, "pds") != before[0] + 1 ||
		      fuv_dbg_counter(self->dbg, "mkeys") != before[1] + 1 ||
		      fuv_dbg_counter(self->dbg, "cqs") != before[2] + 1 ||
		      fuv_dbg_counter(self->dbg, "uars") <= before[3]);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	for (i = 0; i < 6; i++) {
		const char *n = names[i];

		EXPECT_EQ(before[i], fuv_dbg_counter(self->dbg, n))
			TH_LOG("%s", n ? n : "?");
	}
}

/*
 * DEVX (Documentation/fake.rst, "rdma-core on the fake", step 6): the
 * context is a DEVX context with a user context of the fake, and the mkey
 * paths of libmlx5 (mlx5dv_create_mkey, its PSVs, mlx5dv_dek_create) go
 * through the DEVX methods into the fake's command decoder.
 */

/* mlx5_ifc opcodes and statuses (include/linux/mlx5/mlx5_ifc.h, device.h) */
#define OP_QUERY_HCA_CAP	0x100
#define OP_CREATE_MKEY		0x200
#define OP_CREATE_PSV		0x600
#define STAT_BAD_OP		0x02
#define STAT_BAD_RES		0x05
/* the fake's syndromes (include/linux/mlx5_umr_fake.h) */
#define SYND_BAD_OPCODE		0xfa4e0001u
#define SYND_BAD_UID		0xfa4e001au

/* A number of a debugfs file of the fake ("caps", "counters"), or -1. */
static long long fuv_dbg_val(const char *dir, const char *file,
			     const char *name)
{
	char path[320], key[64];
	long long v, found = -1;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while ((n = fscanf(f, "%63s %lli", key, &v)) != EOF)
		if (n == 2 && !strcmp(key, name))
			found = v;
		else if (n != 2 && fscanf(f, "%*s") == EOF)
			break;
	fclose(f);
	return found;
}

/* Big-endian dword @dw of a mailbox, bits @shift.. of @width. */
static unsigned int fuv_mb_get(const void *mb, int dw, int shift, int width)
{
	__u32 v = be32toh(((const __u32 *)mb)[dw]);

	return (v >> shift) & ((1ull << width) - 1);
}

static void fuv_mb_set(void *mb, int dw, int shift, int width,
		       unsigned int val)
{
	__u32 *p = (__u32 *)mb + dw, v = be32toh(*p);
	__u32 m = ((1ull << width) - 1) << shift;

	*p = htobe32((v & ~m) | ((val << shift) & m));
}

/* CREATE_PSV of @num in PD @pdn by hand (create_psv_in). */
static struct mlx5dv_devx_obj *fuv_psv_raw(struct ibv_context *ctx,
					   unsigned int pdn, unsigned int num,
					   __u32 *out, size_t outlen)
{
	__u32 in[4] = {};

	fuv_mb_set(in, 0, 16, 16, OP_CREATE_PSV);
	fuv_mb_set(in, 2, 28, 4, num);
	fuv_mb_set(in, 2, 0, 24, pdn);
	memset(out, 0, outlen);
	return mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, outlen);
}

/*
 * Open: libmlx5 asks for DEVX first (mlx5.c mlx5_alloc_context()) and
 * gets it: a user context of the fake per open context, gone at close;
 * QUERY_HCA_CAP through DEVX_OTHER answers the fake's caps (the numbers
 * of its debugfs "caps", cmd_hca_cap offsets of mlx5_ifc.h).
 */
TEST_F(fuv, devx_context)
{
	__u32 in[4] = {}, out[4 + 1024] = {};
	long long uctxs = fuv_dbg_val(self->dbg, "counters", "uctxs");
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	const __u32 *cap = out + 4;
	struct ibv_context *ctx;

	/* the device's own (whitelist) context and the fixture's */
	ASSERT_LE(2, uctxs);
	ctx = mlx5dv_open_device(self->dev, &attr);
	ASSERT_NE(NULL, ctx) TH_LOG("DEVX open: %s", strerror(errno));
	ASSERT_EQ(uctxs + 1, fuv_dbg_val(self->dbg, "counters", "uctxs"));

	fuv_mb_set(in, 0, 16, 16, OP_QUERY_HCA_CAP);
	fuv_mb_set(in, 1, 0, 16, 1);	/* general caps, current */
	ASSERT_EQ(0, mlx5dv_devx_general_cmd(ctx, in, sizeof(in), out,
					     sizeof(out)));
	ASSERT_EQ(0, fuv_mb_get(out, 0, 24, 8));	/* status */
	ASSERT_EQ(fuv_dbg_val(self->dbg, "caps", "log_max_klm_list_size"),
		  fuv_mb_get(cap, 8, 0, 6));
	ASSERT_EQ(fuv_dbg_val(self->dbg, "caps", "log_max_uctx"),
		  fuv_mb_get(cap, 35, 24, 5));
	ASSERT_NE(0, fuv_mb_get(cap, 35, 24, 5));
	ASSERT_EQ(FAKE_LOG_MAX_QP, fuv_mb_get(cap, 4, 0, 5));
	ASSERT_EQ(FAKE_LOG_MAX_MKEY, fuv_mb_get(cap, 7, 16, 6));
	ASSERT_EQ(1, fuv_mb_get(cap, 15, 0, 4));	/* cqe_version */
	ibv_close_device(ctx);
	ASSERT_EQ(uctxs, fuv_dbg_val(self->dbg, "counters", "uctxs"));
}

/*
 * mlx5dv_create_mkey: an indirect (KLM) mkey of the fake in the PD, free,
 * UMR-enabled, local read only, max_entries rounded up to 4 translations
 * (verbs.c _mlx5dv_create_mkey()), key byte 0; gone at destroy.
 */
TEST_F(fuv, devx_mkey)
{
	struct mlx5dv_mkey_init_attr a = {
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT,
		.max_entries = 5,
	};
	long long mkeys = fuv_dbg_val(self->dbg, "counters", "mkeys");
	struct mlx5dv_mkey *mk;
	struct fuv_mkey m;
	struct ibv_pd *pd;

	pd = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, pd);
	a.pd = pd;
	mk = mlx5dv_create_mkey(&a);
	ASSERT_NE(NULL, mk) TH_LOG("mlx5dv_create_mkey: %s", strerror(errno));
	ASSERT_EQ(8, a.max_entries);
	ASSERT_EQ(0, mk->lkey & 0xff);
	ASSERT_EQ(mk->lkey, mk->rkey);
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mk->lkey, 0, &m));
	ASSERT_EQ(fuv_pdn(pd), m.pd);
	ASSERT_EQ(2, m.mode);		/* MLX5_MKC_ACCESS_MODE_KLMS */
	ASSERT_EQ(1, m.free);
	ASSERT_EQ(1, m.umr_en);
	ASSERT_STREQ("10000", m.acc);
	ASSERT_EQ(0, m.rinval);
	ASSERT_EQ(8, m.xlt_oct);
	ASSERT_EQ(mkeys + 1, fuv_dbg_val(self->dbg, "counters", "mkeys"));
	/*
	 * the PD is busy while the mkey lives: the fake's DEALLOC_PD says
	 * BAD_RES_STATE_ERR, mlx5_core's cmd_status_to_err() EINVAL
	 */
	ASSERT_EQ(EINVAL, ibv_dealloc_pd(pd));
	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	ASSERT_EQ(0, fuv_dbg_mkey(self->dbg, m.key, 0, &m));
	ASSERT_EQ(mkeys, fuv_dbg_val(self->dbg, "counters", "mkeys"));

	/* remote invalidation asked: en_rinval */
	a.create_flags |= MLX5DV_MKEY_INIT_ATTR_FLAGS_REMOTE_INVALIDATE;
	a.max_entries = 1;
	mk = mlx5dv_create_mkey(&a);
	ASSERT_NE(NULL, mk);
	ASSERT_EQ(4, a.max_entries);
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mk->lkey, 0, &m));
	ASSERT_EQ(1, m.rinval);
	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	ASSERT_EQ(0, ibv_dealloc_pd(pd));
}

/*
 * A signature mkey: two PSVs of the fake (mlx5.c mlx5_create_psv(), one
 * CREATE_PSV each, memory and wire), freed with it; crypto and both
 * (the signature and crypto pair) are created as libmlx5 asks.
 */
TEST_F(fuv, devx_sig_and_crypto_mkeys)
{
	struct mlx5dv_mkey_init_attr a = {
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
				MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE,
		.max_entries = 1,
	};
	long long psvs = fuv_dbg_val(self->dbg, "counters", "psvs");
	long long mkeys = fuv_dbg_val(self->dbg, "counters", "mkeys");
	struct mlx5dv_mkey *mk;
	struct fuv_mkey m;
	struct ibv_pd *pd;

	ASSERT_LE(0, psvs);
	pd = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, pd);
	a.pd = pd;
	mk = mlx5dv_create_mkey(&a);
	ASSERT_NE(NULL, mk) TH_LOG("signature mkey: %s", strerror(errno));
	ASSERT_EQ(psvs + 2, fuv_dbg_val(self->dbg, "counters", "psvs"));
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mk->lkey, 0, &m));
	ASSERT_EQ(2, m.mode);
	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	ASSERT_EQ(psvs, fuv_dbg_val(self->dbg, "counters", "psvs"));

	a.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
			 MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO;
	mk = mlx5dv_create_mkey(&a);
	ASSERT_NE(NULL, mk) TH_LOG("crypto mkey: %s", strerror(errno));
	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	a.create_flags |= MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE;
	mk = mlx5dv_create_mkey(&a);
	ASSERT_NE(NULL, mk) TH_LOG("sig+crypto mkey: %s", strerror(errno));
	ASSERT_EQ(psvs + 2, fuv_dbg_val(self->dbg, "counters", "psvs"));
	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	ASSERT_EQ(psvs, fuv_dbg_val(self->dbg, "counters", "psvs"));
	ASSERT_EQ(mkeys, fuv_dbg_val(self->dbg, "counters", "mkeys"));
	ASSERT_EQ(0, ibv_dealloc_pd(pd));
}

/*
 * mlx5dv_dek_create with a plaintext key (the fake's profiles import
 * plaintext DEKs, so no crypto login): an ENCRYPTION_KEY object of the
 * fake, gone at destroy. AES-XTS with key1 == key2 is refused by the
 * fake (BAD_PARAM_ERR: mlx5_get_cmd_status_err() makes EINVAL of it).
 */
TEST_F(fuv, devx_dek)
{
	struct mlx5dv_dek_init_attr a = {
		.key_size = MLX5DV_CRYPTO_KEY_SIZE_128,
		.key_purpose = MLX5DV_CRYPTO_KEY_PURPOSE_AES_XTS,
		.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN,
	};
	long long deks = fuv_dbg_val(self->dbg, "counters", "deks");
	struct mlx5dv_dek *dek;
	struct ibv_pd *pd;
	int i;

	ASSERT_LE(0, deks);
	pd = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, pd);
	a.pd = pd;
	for (i = 0; i < 32; i++)
		a.key[i] = i;
	dek = mlx5dv_dek_create(self->ctx, &a);
	ASSERT_NE(NULL, dek) TH_LOG("mlx5dv_dek_create: %s", strerror(errno));
	ASSERT_EQ(deks + 1, fuv_dbg_val(self->dbg, "counters", "deks"));
	ASSERT_EQ(0, mlx5dv_dek_destroy(dek));
	ASSERT_EQ(deks, fuv_dbg_val(self->dbg, "counters", "deks"));

	memset(a.key, 7, 32);
	errno = 0;
	dek = mlx5dv_dek_create(self->ctx, &a);
	ASSERT_EQ(NULL, dek);
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(deks, fuv_dbg_val(self->dbg, "counters", "deks"));
	ASSERT_EQ(0, ibv_dealloc_pd(pd));
}

/*
 * Refusals with mlx5_ib's errno (devx.c), nothing left in the fake: a
 * non-general command through DEVX_OTHER and a non-create command through
 * DEVX_OBJ_CREATE (EINVAL, devx_is_general_cmd(), devx_is_obj_create_cmd(),
 * as is CREATE_PSV of two); a general opcode the device lacks reaches it
 * (EREMOTEIO, the mailbox with BAD_OP_ERR comes back); and another
 * context's PD (EREMOTEIO, BAD_RES_ERR: the fake's uid rule).
 */
TEST_F(fuv, devx_refusals)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	long long psvs = fuv_dbg_val(self->dbg, "counters", "psvs");
	__u32 in[4] = {}, out[4 + 1024] = {};
	struct mlx5dv_devx_obj *obj;
	struct ibv_context *other;
	struct ibv_pd *pd, *opd;

	ASSERT_LE(0, psvs);
	fuv_mb_set(in, 0, 16, 16, OP_CREATE_MKEY);
	ASSERT_EQ(EINVAL, mlx5dv_devx_general_cmd(self->ctx, in, sizeof(in),
						  out, sizeof(out)));
	fuv_mb_set(in, 0, 16, 16, 0xb00);	/* MLX5_CMD_OP_GENERAL_START */
	ASSERT_EQ(EREMOTEIO, mlx5dv_devx_general_cmd(self->ctx, in,
						     sizeof(in), out, 16));
	ASSERT_EQ(STAT_BAD_OP, fuv_mb_get(out, 0, 24, 8));
	ASSERT_EQ(SYND_BAD_OPCODE, fuv_mb_get(out, 1, 0, 32));

	pd = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, pd);
	fuv_mb_set(in, 0, 16, 16, OP_QUERY_HCA_CAP);
	errno = 0;
	obj = mlx5dv_devx_obj_create(self->ctx, in, sizeof(in), out,
				     sizeof(out));
	ASSERT_EQ(NULL, obj);
	ASSERT_EQ(EINVAL, errno);
	errno = 0;
	ASSERT_EQ(NULL, fuv_psv_raw(self->ctx, fuv_pdn(pd), 2, out, 16));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(psvs, fuv_dbg_val(self->dbg, "counters", "psvs"));

	/* a PSV in its own PD is fine, in another context's not */
	other = mlx5dv_open_device(self->dev, &attr);
	ASSERT_NE(NULL, other);
	opd = ibv_alloc_pd(other);
	ASSERT_NE(NULL, opd);
	obj = fuv_psv_raw(other, fuv_pdn(opd), 1, out, 32);
	ASSERT_NE(NULL, obj) TH_LOG("CREATE_PSV: %s", strerror(errno));
	ASSERT_EQ(psvs + 1, fuv_dbg_val(self->dbg, "counters", "psvs"));
	ASSERT_EQ(0, mlx5dv_devx_obj_destroy(obj));
	errno = 0;
	ASSERT_EQ(NULL, fuv_psv_raw(other, fuv_pdn(pd), 1, out, 32));
	ASSERT_EQ(EREMOTEIO, errno);
	ASSERT_EQ(STAT_BAD_RES, fuv_mb_get(out, 0, 24, 8));
	ASSERT_EQ(SYND_BAD_UID, fuv_mb_get(out, 1, 0, 32));
	ASSERT_EQ(psvs, fuv_dbg_val(self->dbg, "counters", "psvs"));
	ASSERT_EQ(0, ibv_dealloc_pd(opd));
	ibv_close_device(other);
	ASSERT_EQ(0, ibv_dealloc_pd(pd));
}

/*
 * A DEVX process that exits holding a signature mkey and a DEK leaves
 * nothing in the fake: the RDMA core destroys the DEVX objects (their
 * destroy commands carry the context's uid), then the PD, then the user
 * context.
 */
TEST_F(fuv, devx_exit_leaves_nothing)
{
	static const char * const names[] = {
		"pds", "mkeys", "psvs", "deks", "uctxs",
	};
	long long before[5];
	unsigned int i;
	int status;
	pid_t pid;

	ibv_close_device(self->ctx);
	self->ctx = NULL;
	for (i = 0; i < 5; i++) {
		before[i] = fuv_dbg_val(self->dbg, "counters", names[i]);
		ASSERT_LE(0, before[i]);
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct ibv_context *ctx = ibv_open_device(self->dev);
		struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
		struct mlx5dv_mkey_init_attr a = {
			.pd = pd,
			.create_flags =
				MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
				MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE,
			.max_entries = 4,
		};
		struct mlx5dv_dek_init_attr d = {
			.key_size = MLX5DV_CRYPTO_KEY_SIZE_128,
			.key_purpose = MLX5DV_CRYPTO_KEY_PURPOSE_AES_XTS,
			.pd = pd,
			.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN,
			.key = "0123456789abcdefFEDCBA9876543210",
		};
		struct mlx5dv_mkey *mk = pd ? mlx5dv_create_mkey(&a) : NULL;
		struct mlx5dv_dek *dek = pd ? mlx5dv_dek_create(ctx, &d) : NULL;

		_exit(!mk || !dek ||
		      fuv_dbg_val(self->dbg, "counters", "psvs") !=
		      before[2] + 2 ||
		      fuv_dbg_val(self->dbg, "counters", "deks") !=
		      before[3] + 1 ||
		      fuv_dbg_val(self->dbg, "counters", "uctxs") !=
		      before[4] + 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	for (i = 0; i < 5; i++) {
		const char *n = names[i];

		EXPECT_EQ(before[i], fuv_dbg_val(self->dbg, "counters", n))
			TH_LOG("%s", n ? n : "?");
	}
}

/*
 * User RC QPs (Documentation/fake.rst, "rdma-core on the fake", step 5):
 * mlx5dv_create_qp() puts the send ring and doorbell record in the
 * library's memory; the fake executes what libmlx5 posts there once the
 * doorbell poller sees the record move, and writes CQE version 1 CQEs
 * libmlx5 matches to the QP by its user index.
 */

/* A QP of the fake (debugfs "qps"): its state name, or "" if none. */
static int fuv_qp_state(const char *dir, unsigned int qpn, char *state,
			size_t len)
{
	char path[320], line[256], st[32];
	unsigned int n;
	FILE *f;

	state[0] = 0;
	snprintf(path, sizeof(path), "%s/qps", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %31s", &n, st) == 2 && n == qpn)
			snprintf(state, len, "%s", st);
	fclose(f);
	return 0;
}

/* An RC QP with the mkey send ops; @inl: max_inline_data asked for. */
static struct ibv_qp *fuv_create_rc_inl(struct ibv_context *ctx,
					struct ibv_pd *pd, struct ibv_cq *cq,
					unsigned int recv_wr, uint32_t dv_flags,
					uint32_t inl)
{
	struct ibv_qp_init_attr_ex attr = {
		.qp_type = IBV_QPT_RC,
		.send_cq = cq,
		.recv_cq = cq,
		.cap = {
			.max_send_wr = 16,
			.max_send_sge = 1,
			.max_recv_wr = recv_wr,
			.max_recv_sge = recv_wr ? 1 : 0,
			.max_inline_data = inl,
		},
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = pd,
		.send_ops_flags = IBV_QP_EX_WITH_LOCAL_INV |
				  IBV_QP_EX_WITH_RDMA_WRITE,
	};
	struct mlx5dv_qp_init_attr dv = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS,
		.send_ops_flags = MLX5DV_QP_EX_WITH_MR_LIST |
				  MLX5DV_QP_EX_WITH_MR_INTERLEAVED |
				  MLX5DV_QP_EX_WITH_MKEY_CONFIGURE,
	};

	if (dv_flags) {
		dv.comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS;
		dv.create_flags = dv_flags;
	}
	return mlx5dv_create_qp(ctx, &attr, &dv);
}

static struct ibv_qp *fuv_create_rc(struct ibv_context *ctx,
				    struct ibv_pd *pd, struct ibv_cq *cq,
				    unsigned int recv_wr, uint32_t dv_flags)
{
	return fuv_create_rc_inl(ctx, pd, cq, recv_wr, dv_flags, 0);
}

/* One completion within 5 s (the doorbell poller runs every jiffy). */
static int fuv_poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	int i, n;

	for (i = 0; i < 5000; i++) {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n;
		usleep(1000);
	}
	return 0;
}

FIXTURE(fuv_rc) {
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	char dbg[256];
	char *buf;
};

FIXTURE_SETUP(fuv_rc)
{
	struct ibv_device *dev;

	self->list = ibv_get_device_list(NULL);
	ASSERT_NE(NULL, self->list);
	dev = fuv_find(self->list);
	ASSERT_NE(NULL, dev);
	ASSERT_EQ(0, fuv_dbg_dir(ibv_get_device_name(dev), self->dbg, sizeof(self->dbg)));
	self->ctx = ibv_open_device(dev);
	ASSERT_NE(NULL, self->ctx);
	self->pd = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, self->pd);
	self->cq = ibv_create_cq(self->ctx, 15, NULL, NULL, 0);
	ASSERT_NE(NULL, self->cq);
	self->buf = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->buf);
}

FIXTURE_TEARDOWN(fuv_rc)
{
	if (self->qp)
		ibv_destroy_qp(self->qp);
	if (self->cq)
		ibv_destroy_cq(self->cq);
	if (self->pd)
		ibv_dealloc_pd(self->pd);
	if (self->ctx)
		ibv_close_device(self->ctx);
	munmap(self->buf, 2 * PAGE);
	ibv_free_device_list(self->list);
}

/*
 * mlx5dv_create_qp (RC, the mkey send ops) makes an RC QP of the fake in
 * RST, whose ring is the library's memory; modify takes it to RTS
 * connected to itself; ibv_wr_local_inv of an MR's key executes as the
 * UMR rdma-core encodes (qp.c mlx5_send_wr_local_inv()): the CQE carries
 * the wr_id, success and IBV_WC_LOCAL_INV, and the MR's mkey is free in
 * the fake. Destroy leaves no QP.
 */
TEST_F(fuv_rc, local_inv)
{
	struct ibv_qp_ex *qpx;
	struct fuv_mkey m;
	struct ibv_mr *mr;
	struct ibv_wc wc;
	long long qps;
	char st[32];

	qps = fuv_dbg_counter(self->dbg, "qps");
	ASSERT_LE(0, qps);
	self->qp = fuv_create_rc(self->ctx, self->pd, self->cq, 0, 0);
	ASSERT_NE(NULL, self->qp) TH_LOG("mlx5dv_create_qp: %s",
					 strerror(errno));
	ASSERT_EQ(qps + 1, fuv_dbg_counter(self->dbg, "qps"));
	ASSERT_EQ(0, fuv_qp_state(self->dbg, self->qp->qp_num, st,
				  sizeof(st)));
	ASSERT_STREQ("RST", st);
	ASSERT_EQ(0, fuv_to_rts(self->qp, self->qp->qp_num));
	fuv_qp_state(self->dbg, self->qp->qp_num, st, sizeof(st));
	ASSERT_STREQ("RTS", st);

	mr = ibv_reg_mr(self->pd, self->buf, PAGE, IBV_ACCESS_LOCAL_WRITE);
	ASSERT_NE(NULL, mr);
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mr->lkey, 0, &m));
	ASSERT_EQ(0, m.free);
	ASSERT_EQ(1, m.umr_en);	/* mr.c reg_create() */

	qpx = ibv_qp_to_qp_ex(self->qp);
	ASSERT_NE(NULL, qpx);
	ibv_wr_start(qpx);
	qpx->wr_id = 0x1234;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_local_inv(qpx, mr->lkey);
	ASSERT_EQ(0, ibv_wr_complete(qpx));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(0x1234, wc.wr_id);
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status)
		TH_LOG("status %s vendor 0x%x", ibv_wc_status_str(wc.status),
		       wc.vendor_err);
	EXPECT_EQ(IBV_WC_LOCAL_INV, wc.opcode);
	EXPECT_EQ(self->qp->qp_num, wc.qp_num);
	/*
	 * Free, bound to no QP, and with the key byte rdma-core's mkey
	 * segment installs (qp.c set_umr_mkey_seg(): 0 for an invalidation)
	 */
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mr->lkey & ~0xffu, 0, &m));
	EXPECT_EQ(1, m.free);
	if (mr->lkey & 0xff)
		EXPECT_EQ(0, fuv_dbg_mkey(self->dbg, mr->lkey, 0, &m));
	EXPECT_EQ(0, ibv_poll_cq(self->cq, 1, &wc));

	ASSERT_EQ(0, ibv_dereg_mr(mr));
	ASSERT_EQ(0, ibv_destroy_qp(self->qp));
	self->qp = NULL;
	EXPECT_EQ(qps, fuv_dbg_counter(self->dbg, "qps"));
}

/*
 * Refusals with mlx5_ib's errno (Linux 6.1 qp.c), nothing left in the
 * fake: vendor flags mlx5_ib does not take for RC or without their cap
 * (TUNNEL_OFFLOADS, PACKET_BASED_CREDIT_MODE: process_vendor_flags()
 * EINVAL); a WQ signature (libmlx5's MLX5_QP_SIGNATURE), which mlx5_ib
 * takes but the fake does not model (EOPNOTSUPP); a state transition the
 * IB spec does not allow (RESET -> RTS: EINVAL). A receive queue is
 * refused by libmlx5 itself (EINVAL), as the device reports
 * max_rq_desc_sz 0. Scatter-to-CQE without the cap is dropped silently,
 * as mlx5_ib does: that QP is created.
 */
TEST_F(fuv_rc, refusals)
{
	static const char * const names[] = {
		"qps", "sg_maps", "iommu_pages",
	};
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTS };
	long long before[3];
	unsigned int i;
	struct ibv_qp *qp;

	for (i = 0; i < 3; i++) {
		before[i] = fuv_dbg_counter(self->dbg, names[i]);
		ASSERT_LE(0, before[i]);
	}
	errno = 0;
	qp = fuv_create_rc(self->ctx, self->pd, self->cq, 1, 0);
	ASSERT_EQ(NULL, qp);
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	qp = fuv_create_rc(self->ctx, self->pd, self->cq, 0,
			   MLX5DV_QP_CREATE_TUNNEL_OFFLOADS);
	ASSERT_EQ(NULL, qp);
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	qp = fuv_create_rc(self->ctx, self->pd, self->cq, 0,
			   MLX5DV_QP_CREATE_PACKET_BASED_CREDIT_MODE);
	ASSERT_EQ(NULL, qp);
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, setenv("MLX5_QP_SIGNATURE", "1", 1));
	errno = 0;
	qp = fuv_create_rc(self->ctx, self->pd, self->cq, 0, 0);
	unsetenv("MLX5_QP_SIGNATURE");
	ASSERT_EQ(NULL, qp);
	EXPECT_EQ(EOPNOTSUPP, errno);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(before[i], fuv_dbg_counter(self->dbg, names[i]))
			TH_LOG("%s", names[i] ? names[i] : "?");

	self->qp = fuv_create_rc(self->ctx, self->pd, self->cq, 0,
				 MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE);
	ASSERT_NE(NULL, self->qp);
	EXPECT_EQ(before[0] + 1, fuv_dbg_counter(self->dbg, "qps"));
	EXPECT_EQ(EINVAL, ibv_modify_qp(self->qp, &a, IBV_QP_STATE));
}

/*
 * A process that exits holding an RC QP in RTS with a WQE posted leaves
 * nothing in the fake: no QP, no pinned ring or record, no UAR.
 */
TEST_F(fuv_rc, exit_leaves_no_qp)
{
	static const char * const names[] = {
		"qps", "cqs", "uars", "sg_maps", "iommu_pages",
	};
	long long before[5];
	unsigned int i;
	int status;
	pid_t pid;

	for (i = 0; i < 5; i++) {
		before[i] = fuv_dbg_counter(self->dbg, names[i]);
		ASSERT_LE(0, before[i]);
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct ibv_context *ctx = ibv_open_device(self->ctx->device);
		struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
		struct ibv_cq *cq = ctx ?
			ibv_create_cq(ctx, 15, NULL, NULL, 0) : NULL;
		struct ibv_qp *qp = pd && cq ?
			fuv_create_rc(ctx, pd, cq, 0, 0) : NULL;

		_exit(!qp || fuv_to_rts(qp, qp->qp_num) ||
		      fuv_dbg_counter(self->dbg, "qps") != before[0] + 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	for (i = 0; i < 5; i++)
		EXPECT_EQ(before[i], fuv_dbg_counter(self->dbg, names[i]))
			TH_LOG("%s", names[i] ? names[i] : "?");
}

/*
 * libmlx5's mkey work requests (Documentation/fake.rst, "rdma-core on the
 * fake", step 7): an indirect mkey of mlx5dv_create_mkey() configured by
 * mlx5dv_wr_mr_list(), mlx5dv_wr_mr_interleaved() and
 * mlx5dv_wr_mkey_configure() with its setters, as rdma-core v44.0
 * providers/mlx5/qp.c encodes them, executed by the fake's engine; then
 * data through the mkey's key (the fake's debugfs "xfer": an RDMA READ or
 * WRITE by a QP of the mkey's PD) lands in the user's buffers exactly as
 * the man page's layout says (/work/shared/seeds 000, the examples of
 * mlx5dv_wr_set_mkey_layout_list/_interleaved).
 */

#define MLX5DV_MKEY_ACC	(IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE)
/* include/linux/mlx5_umr_fake.h: xlt_octowords beyond the mkey's */
#define VS_XLT_TOO_BIG	0x16

/* The byte @i of a pattern that differs in every 256-byte block. */
static __u8 fuv_pat(size_t i)
{
	return (__u8)(i * 7 + (i >> 8) * 13 + 1);
}

/* Whether @len bytes at @p are @c. */
static int fuv_all(const __u8 *p, size_t len, __u8 c)
{
	for (; len; len--, p++)
		if (*p != c)
			return 0;
	return 1;
}

/* Whether @p[0..len) is the pattern from byte @from on. */
static int fuv_is_pat(const __u8 *p, size_t len, size_t from)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != fuv_pat(from + i))
			return 0;
	return 1;
}

/* Two user buffers of 2 pages, 0xee, each an MR of @pd (local write). */
struct fuv_mk_bufs {
	__u8 *a, *b;
	struct ibv_mr *mr1, *mr2;
};

static int fuv_mk_bufs(struct ibv_pd *pd, struct fuv_mk_bufs *m)
{
	m->a = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	m->b = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->a == MAP_FAILED || m->b == MAP_FAILED)
		return -1;
	memset(m->a, 0xee, 2 * PAGE);
	memset(m->b, 0xee, 2 * PAGE);
	m->mr1 = ibv_reg_mr(pd, m->a, 2 * PAGE, IBV_ACCESS_LOCAL_WRITE);
	m->mr2 = ibv_reg_mr(pd, m->b, 2 * PAGE, IBV_ACCESS_LOCAL_WRITE);
	return m->mr1 && m->mr2 ? 0 : -1;
}

static void fuv_mk_bufs_free(struct fuv_mk_bufs *m)
{
	if (m->mr1)
		ibv_dereg_mr(m->mr1);
	if (m->mr2)
		ibv_dereg_mr(m->mr2);
	munmap(m->a, 2 * PAGE);
	munmap(m->b, 2 * PAGE);
}

static struct mlx5dv_mkey *fuv_mk_create(struct ibv_pd *pd,
					 __u16 max_entries, __u32 flags)
{
	struct mlx5dv_mkey_init_attr a = {
		.pd = pd,
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT | flags,
		.max_entries = max_entries,
	};

	return mlx5dv_create_mkey(&a);
}

/* The QP of the fixture, in RTS connected to itself; @inl as asked. */
static struct ibv_qp *fuv_rc_up(struct ibv_context *ctx, struct ibv_pd *pd,
				struct ibv_cq *cq, __u32 inl)
{
	struct ibv_qp *qp = fuv_create_rc_inl(ctx, pd, cq, 0, 0, inl);

	if (qp && fuv_to_rts(qp, qp->qp_num)) {
		ibv_destroy_qp(qp);
		return NULL;
	}
	return qp;
}

/* The seed's SGE list: 64 bytes of mr1 at its start, 4096 of mr2. */
static void fuv_seed_list(const struct fuv_mk_bufs *m, struct ibv_sge *sgl)
{
	sgl[0].addr = (uintptr_t)m->mr1->addr;
	sgl[0].length = 64;
	sgl[0].lkey = m->mr1->lkey;
	sgl[1].addr = (uintptr_t)m->mr2->addr;
	sgl[1].length = 4096;
	sgl[1].lkey = m->mr2->lkey;
}

/* The seed's interleaved layout: {mr1: 512, skip 4}, {mr2: 8, skip 0}. */
static void fuv_seed_il(const struct fuv_mk_bufs *m,
			struct mlx5dv_mr_interleaved *d)
{
	d[0].addr = (uintptr_t)m->mr1->addr;
	d[0].bytes_count = 512;
	d[0].bytes_skip = 4;
	d[0].lkey = m->mr1->lkey;
	d[1].addr = (uintptr_t)m->mr2->addr;
	d[1].bytes_count = 8;
	d[1].bytes_skip = 0;
	d[1].lkey = m->mr2->lkey;
}

/*
 * The seed's list example, by mlx5dv_wr_mr_list(): a UMR completion
 * (MLX5DV_WC_UMR, the wr_id), the fake's mkey a KLM mkey in the PD, not
 * free, with the access asked for (lr from creation, lw not asked) and
 * the length of the list, its key byte as created (libmlx5 rotates no
 * key); 4160 bytes written through the key land as 64 at mr1's start and
 * 4096 at mr2's, nothing around them moves, and a read through the key
 * gives back what the buffers hold. An access past the length is refused
 * and moves nothing.
 */
TEST_F(fuv_rc, mkey_mr_list)
{
	struct fuv_mk_bufs m = {};
	struct mlx5dv_qp_ex *mqpx;
	struct mlx5dv_mkey *mk;
	struct ibv_qp_ex *qpx;
	struct ibv_sge sgl[2];
	__u8 w[4160], r[4160];
	unsigned int pdn = fuv_pdn(self->pd);
	struct fuv_mkey f;
	struct ibv_wc wc;
	size_t i;

	ASSERT_EQ(0, fuv_mk_bufs(self->pd, &m));
	self->qp = fuv_rc_up(self->ctx, self->pd, self->cq, 0);
	ASSERT_NE(NULL, self->qp);
	mk = fuv_mk_create(self->pd, 2, 0);
	ASSERT_NE(NULL, mk) TH_LOG("mlx5dv_create_mkey: %s", strerror(errno));
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mk->lkey, 0, &f));
	EXPECT_EQ(1, f.free);
	EXPECT_EQ(4, f.xlt_oct);	/* max_entries rounded up to 4 */
	/* a free mkey moves no data */
	EXPECT_EQ(-EACCES, fuv_dbg_xfer(self->dbg, 'R', pdn, mk->rkey, 0, r, 8));

	qpx = ibv_qp_to_qp_ex(self->qp);
	mqpx = mlx5dv_qp_ex_from_ibv_qp_ex(qpx);
	fuv_seed_list(&m, sgl);
	ibv_wr_start(qpx);
	qpx->wr_id = 0x5eed;
	qpx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	mlx5dv_wr_mr_list(mqpx, mk, MLX5DV_MKEY_ACC, 2, sgl);
	ASSERT_EQ(0, ibv_wr_complete(qpx));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status)
		TH_LOG("status %s vendor 0x%x", ibv_wc_status_str(wc.status),
		       wc.vendor_err);
	EXPECT_EQ(0x5eed, wc.wr_id);
	EXPECT_EQ(MLX5DV_WC_UMR, wc.opcode);
	EXPECT_EQ(0, ibv_poll_cq(self->cq, 1, &wc));

	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mk->lkey, 0, &f));
	EXPECT_EQ(0, mk->lkey & 0xff);
	EXPECT_EQ(pdn, f.pd);
	EXPECT_EQ(2, f.mode);		/* MLX5_MKC_ACCESS_MODE_KLMS */
	EXPECT_EQ(0, f.free);
	EXPECT_STREQ("10110", f.acc);	/* lr lw rr rw a */
	EXPECT_EQ(0, f.start);
	EXPECT_EQ(4160, f.len);

	for (i = 0; i < sizeof(w); i++)
		w[i] = fuv_pat(i);
	ASSERT_EQ(0, fuv_dbg_xfer(self->dbg, 'W', pdn, mk->rkey, 0, w, sizeof(w)));
	EXPECT_TRUE(fuv_is_pat(m.a, 64, 0));
	EXPECT_TRUE(fuv_all(m.a + 64, 2 * PAGE - 64, 0xee));
	EXPECT_TRUE(fuv_is_pat(m.b, 4096, 64));
	EXPECT_TRUE(fuv_all(m.b + 4096, PAGE, 0xee));
	/* reads come from the user's memory as it is now */
	m.a[3] = 0x11;
	m.b[4095] = 0x22;
	ASSERT_EQ(0, fuv_dbg_xfer(self->dbg, 'R', pdn, mk->rkey, 0, r, sizeof(r)));
	w[3] = 0x11;
	w[64 + 4095] = 0x22;
	EXPECT_EQ(0, memcmp(w, r, sizeof(r)));
	/* the middle, across the two entries */
	ASSERT_EQ(0, fuv_dbg_xfer(self->dbg, 'R', pdn, mk->rkey, 60, r, 8));
	EXPECT_EQ(0, memcmp(w + 60, r, 8));

	/* past the length: refused, nothing written */
	memset(w, 0x33, 32);
	EXPECT_EQ(-EACCES, fuv_dbg_xfer(self->dbg, 'W', pdn, mk->rkey, 4150, w,
					32));
	EXPECT_TRUE(fuv_is_pat(m.b + 4086, 9, 64 + 4086));
	/* another PD's QP: refused */
	EXPECT_EQ(-EACCES, fuv_dbg_xfer(self->dbg, 'R', pdn + 1, mk->rkey, 0, r,
					8));

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	EXPECT_EQ(0, fuv_dbg_mkey(self->dbg, f.key, 0, &f));
	fuv_mk_bufs_free(&m);
}

/*
 * The seed's interleaved example, by mlx5dv_wr_mr_interleaved() (repeat
 * 2, {mr1: 512, skip 4}, {mr2: 8}) on an mkey of one entry more than the
 * layout (the man page's rule): bytes 0..511 land at mr1 + 0, 512..519 at
 * mr2 + 0, 520..1031 at mr1 + 516, 1032..1039 at mr2 + 8; the skipped
 * bytes and everything after stay; the mkey's length is 1040.
 */
TEST_F(fuv_rc, mkey_mr_interleaved)
{
	struct mlx5dv_mr_interleaved d[2];
	struct fuv_mk_bufs m = {};
	struct mlx5dv_qp_ex *mqpx;
	struct mlx5dv_mkey *mk;
	struct ibv_qp_ex *qpx;
	__u8 w[1040], r[1040];
	unsigned int pdn = fuv_pdn(self->pd);
	struct fuv_mkey f;
	struct ibv_wc wc;
	size_t i;

	ASSERT_EQ(0, fuv_mk_bufs(self->pd, &m));
	self->qp = fuv_rc_up(self->ctx, self->pd, self->cq, 0);
	ASSERT_NE(NULL, self->qp);
	mk = fuv_mk_create(self->pd, 3, 0);
	ASSERT_NE(NULL, mk);

	qpx = ibv_qp_to_qp_ex(self->qp);
	mqpx = mlx5dv_qp_ex_from_ibv_qp_ex(qpx);
	fuv_seed_il(&m, d);
	ibv_wr_start(qpx);
	qpx->wr_id = 7;
	qpx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	mlx5dv_wr_mr_interleaved(mqpx, mk, MLX5DV_MKEY_ACC, 2, 2, d);
	ASSERT_EQ(0, ibv_wr_complete(qpx));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status)
		TH_LOG("status %s vendor 0x%x", ibv_wc_status_str(wc.status),
		       wc.vendor_err);
	EXPECT_EQ(7, wc.wr_id);
	EXPECT_EQ(MLX5DV_WC_UMR, wc.opcode);
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mk->lkey, 0, &f));
	EXPECT_EQ(0, f.free);
	EXPECT_EQ(1040, f.len);
	EXPECT_STREQ("10110", f.acc);

	for (i = 0; i < sizeof(w); i++)
		w[i] = fuv_pat(i);
	ASSERT_EQ(0, fuv_dbg_xfer(self->dbg, 'W', pdn, mk->rkey, 0, w, sizeof(w)));
	EXPECT_TRUE(fuv_is_pat(m.a, 512, 0));
	EXPECT_TRUE(fuv_is_pat(m.b, 8, 512));
	EXPECT_TRUE(fuv_all(m.a + 512, 4, 0xee));	/* skipped */
	EXPECT_TRUE(fuv_is_pat(m.a + 516, 512, 520));
	EXPECT_TRUE(fuv_is_pat(m.b + 8, 8, 1032));
	EXPECT_TRUE(fuv_all(m.a + 1028, 2 * PAGE - 1028, 0xee));
	EXPECT_TRUE(fuv_all(m.b + 16, 2 * PAGE - 16, 0xee));
	ASSERT_EQ(0, fuv_dbg_xfer(self->dbg, 'R', pdn, mk->rkey, 0, r, sizeof(r)));
	EXPECT_EQ(0, memcmp(w, r, sizeof(r)));
	/* one byte of the second cycle's mr2 block, read alone */
	ASSERT_EQ(0, fuv_dbg_xfer(self->dbg, 'R', pdn, mk->rkey, 1035, r, 1));
	EXPECT_EQ(m.b[11], r[0]);
	EXPECT_EQ(-EACCES, fuv_dbg_xfer(self->dbg, 'R', pdn, mk->rkey, 1039, r,
					2));

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	fuv_mk_bufs_free(&m);
}

/* Post @n_set setters' configure of @mk; wait for its CQE in @wc. */
static int fuv_configure(struct ibv_qp *qp, struct ibv_cq *cq,
			 struct mlx5dv_mkey *mk, uint64_t wr_id,
			 __u32 access, __u16 nsge,
			 const struct ibv_sge *sgl, __u32 repeat,
			 const struct mlx5dv_mr_interleaved *il,
			 struct ibv_wc *wc)
{
	struct ibv_qp_ex *qpx = ibv_qp_to_qp_ex(qp);
	struct mlx5dv_qp_ex *mqpx = mlx5dv_qp_ex_from_ibv_qp_ex(qpx);
	struct mlx5dv_mkey_conf_attr attr = {};
	int err;

	ibv_wr_start(qpx);
	qpx->wr_id = wr_id;
	qpx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	mlx5dv_wr_mkey_configure(mqpx, mk, 2, &attr);
	mlx5dv_wr_set_mkey_access_flags(mqpx, access);
	if (il)
		mlx5dv_wr_set_mkey_layout_interleaved(mqpx, repeat, nsge, il);
	else
		mlx5dv_wr_set_mkey_layout_list(mqpx, nsge, sgl);
	err = ibv_wr_complete(qpx);
	if (err)
		return err;
	return fuv_poll_one(cq, wc) == 1 ? 0 : -ETIMEDOUT;
}

/*
 * mlx5dv_wr_mkey_configure() with its setters: a list with read-only
 * access (a write through the key is refused, moves nothing; a read
 * works), then a second configure that overrides both (the man page: the
 * later access flags and layout replace the earlier), an interleaved
 * layout of repeat 3 now written through; ibv_wr_local_inv() of the mkey
 * frees it in the fake (IBV_WC_LOCAL_INV), after which both directions
 * through the key are refused; a configure after that makes it usable
 * again.
 */
TEST_F(fuv_rc, mkey_configure_local_inv)
{
	struct ibv_sge sgl[2] = {};
	struct mlx5dv_mr_interleaved il[2];
	struct fuv_mk_bufs m = {};
	struct mlx5dv_mkey *mk;
	struct ibv_qp_ex *qpx;
	__u8 w[64], r[64];
	unsigned int pdn = fuv_pdn(self->pd);
	struct fuv_mkey f;
	struct ibv_wc wc;
	size_t i;

	ASSERT_EQ(0, fuv_mk_bufs(self->pd, &m));
	self->qp = fuv_rc_up(self->ctx, self->pd, self->cq, 0);
	ASSERT_NE(NULL, self->qp);
	mk = fuv_mk_create(self->pd, 4, 0);
	ASSERT_NE(NULL, mk);
	for (i = 0; i < sizeof(w); i++)
		w[i] = fuv_pat(i);

	/* 16 bytes of b at 100, then 16 of a at 8 */
	sgl[0].addr = (uintptr_t)m.b + 100;
	sgl[0].length = 16;
	sgl[0].lkey = m.mr2->lkey;
	sgl[1].addr = (uintptr_t)m.a + 8;
	sgl[1].length = 16;
	sgl[1].lkey = m.mr1->lkey;
	ASSERT_EQ(0, fuv_configure(self->qp, self->cq, mk, 1,
				   IBV_ACCESS_REMOTE_READ, 2, sgl, 0, NULL,
				   &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status)
		TH_LOG("vendor 0x%x", wc.vendor_err);
	EXPECT_EQ(MLX5DV_WC_UMR, wc.opcode);
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mk->lkey, 0, &f));
	EXPECT_STREQ("10100", f.acc);
	EXPECT_EQ(32, f.len);
	EXPECT_EQ(-EACCES, fuv_dbg_xfer(self->dbg, 'W', pdn, mk->rkey, 0, w, 32));
	EXPECT_TRUE(fuv_all(m.a, 2 * PAGE, 0xee));
	EXPECT_TRUE(fuv_all(m.b, 2 * PAGE, 0xee));
	memcpy(m.b + 100, w, 16);
	memcpy(m.a + 8, w + 16, 16);
	ASSERT_EQ(0, fuv_dbg_xfer(self->dbg, 'R', pdn, mk->rkey, 0, r, 32));
	EXPECT_EQ(0, memcmp(w, r, 32));

	/* override: remote write, repeat 3 of {a+256: 4, skip 4}, {b: 2} */
	memset(m.a, 0xee, PAGE);
	memset(m.b, 0xee, PAGE);
	il[0].addr = (uintptr_t)m.a + 256;
	il[0].bytes_count = 4;
	il[0].bytes_skip = 4;
	il[0].lkey = m.mr1->lkey;
	il[1].addr = (uintptr_t)m.b;
	il[1].bytes_count = 2;
	il[1].bytes_skip = 0;
	il[1].lkey = m.mr2->lkey;
	ASSERT_EQ(0, fuv_configure(self->qp, self->cq, mk, 2,
				   MLX5DV_MKEY_ACC, 2, NULL, 3, il, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status)
		TH_LOG("vendor 0x%x", wc.vendor_err);
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mk->lkey, 0, &f));
	EXPECT_STREQ("10110", f.acc);
	EXPECT_EQ(18, f.len);
	ASSERT_EQ(0, fuv_dbg_xfer(self->dbg, 'W', pdn, mk->rkey, 0, w, 18));
	for (i = 0; i < 3; i++) {
		EXPECT_TRUE(fuv_is_pat(m.a + 256 + 8 * i, 4, 6 * i));
		EXPECT_TRUE(fuv_all(m.a + 260 + 8 * i, 4, 0xee));
		EXPECT_TRUE(fuv_is_pat(m.b + 2 * i, 2, 6 * i + 4));
	}
	EXPECT_TRUE(fuv_all(m.b + 6, PAGE - 6, 0xee));
	EXPECT_TRUE(fuv_all(m.a, 256, 0xee));

	/* local invalidation: free, and the key moves nothing */
	qpx = ibv_qp_to_qp_ex(self->qp);
	ibv_wr_start(qpx);
	qpx->wr_id = 3;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_local_inv(qpx, mk->lkey);
	ASSERT_EQ(0, ibv_wr_complete(qpx));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(IBV_WC_LOCAL_INV, wc.opcode);
	EXPECT_EQ(3, wc.wr_id);
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mk->lkey, 0, &f));
	EXPECT_EQ(1, f.free);
	memset(r, 0x44, sizeof(r));
	EXPECT_EQ(-EACCES, fuv_dbg_xfer(self->dbg, 'W', pdn, mk->rkey, 0, r, 18));
	EXPECT_EQ(-EACCES, fuv_dbg_xfer(self->dbg, 'R', pdn, mk->rkey, 0, r, 18));
	EXPECT_TRUE(fuv_is_pat(m.a + 256, 4, 0));
	EXPECT_TRUE(fuv_is_pat(m.b, 2, 4));

	/* configured again, it is usable again */
	ASSERT_EQ(0, fuv_configure(self->qp, self->cq, mk, 4,
				   MLX5DV_MKEY_ACC, 2, sgl, 0, NULL, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	ASSERT_EQ(0, fuv_dbg_xfer(self->dbg, 'W', pdn, mk->rkey, 0, w, 32));
	EXPECT_TRUE(fuv_is_pat(m.b + 100, 16, 0));
	EXPECT_TRUE(fuv_is_pat(m.a + 8, 16, 16));

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	fuv_mk_bufs_free(&m);
}

/*
 * What libmlx5 refuses itself (qp.c, nothing posted: ibv_wr_complete()
 * returns the error and rolls the ring back, the fake executes nothing):
 * a configure without IBV_SEND_INLINE (mlx5_send_wr_mkey_configure():
 * EOPNOTSUPP), an access flag the setter does not take
 * (mlx5_send_wr_set_mkey_access_flags(): EINVAL), more SGEs than the
 * mkey's entries (mlx5_send_wr_set_mkey_layout(): ENOMEM). The QP goes
 * on: the next configure executes.
 */
TEST_F(fuv_rc, mkey_library_refusals)
{
	struct fuv_mk_bufs m = {};
	struct mlx5dv_mkey_conf_attr attr = {};
	struct mlx5dv_qp_ex *mqpx;
	struct mlx5dv_mkey *mk;
	struct ibv_qp_ex *qpx;
	struct ibv_sge sgl[5];
	long long wqes;
	struct ibv_wc wc;
	int i;

	ASSERT_EQ(0, fuv_mk_bufs(self->pd, &m));
	self->qp = fuv_rc_up(self->ctx, self->pd, self->cq, 128);
	ASSERT_NE(NULL, self->qp);
	mk = fuv_mk_create(self->pd, 4, 0);
	ASSERT_NE(NULL, mk);
	for (i = 0; i < 5; i++) {
		sgl[i].addr = (uintptr_t)m.a + 16 * i;
		sgl[i].length = 16;
		sgl[i].lkey = m.mr1->lkey;
	}
	qpx = ibv_qp_to_qp_ex(self->qp);
	mqpx = mlx5dv_qp_ex_from_ibv_qp_ex(qpx);
	wqes = fuv_dbg_val(self->dbg, "counters", "wqes");
	ASSERT_LE(0, wqes);

	ibv_wr_start(qpx);
	qpx->wr_flags = IBV_SEND_SIGNALED;
	mlx5dv_wr_mkey_configure(mqpx, mk, 1, &attr);
	mlx5dv_wr_set_mkey_layout_list(mqpx, 1, sgl);
	EXPECT_EQ(EOPNOTSUPP, ibv_wr_complete(qpx));

	ibv_wr_start(qpx);
	qpx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	mlx5dv_wr_mr_list(mqpx, mk, IBV_ACCESS_MW_BIND, 1, sgl);
	EXPECT_EQ(EINVAL, ibv_wr_complete(qpx));

	ibv_wr_start(qpx);
	qpx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	mlx5dv_wr_mr_list(mqpx, mk, MLX5DV_MKEY_ACC, 5, sgl);
	EXPECT_EQ(ENOMEM, ibv_wr_complete(qpx));

	usleep(50000);	/* the doorbell poller would have seen a post */
	EXPECT_EQ(0, ibv_poll_cq(self->cq, 1, &wc));
	EXPECT_EQ(wqes, fuv_dbg_val(self->dbg, "counters", "wqes"));

	ASSERT_EQ(0, fuv_configure(self->qp, self->cq, mk, 9,
				   MLX5DV_MKEY_ACC, 4, sgl, 0, NULL, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(9, wc.wr_id);
	EXPECT_EQ(wqes + 1, fuv_dbg_val(self->dbg, "counters", "wqes"));

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	fuv_mk_bufs_free(&m);
}

/*
 * What the HCA refuses: libmlx5 bounds an interleaved layout by the
 * mkey's entries, not counting the repeat block (mlx5_send_wr_set_mkey_
 * layout(): num_entries <= num_desc), so four entries on an mkey of four
 * take five octowords, rounded to eight: past the mkey's
 * translations_octword_size (the man page: create it with one entry
 * more). The fake ends the UMR with a local length error (vendor
 * syndrome MLX5_UMR_FAKE_VS_XLT_TOO_BIG), the mkey untouched (still
 * free, as created), the QP in ERR and the next WR flushed.
 */
TEST_F(fuv_rc, mkey_hca_refusal)
{
	struct mlx5dv_mr_interleaved il[4];
	struct fuv_mk_bufs m = {};
	struct mlx5dv_mkey *mk;
	struct ibv_qp_ex *qpx;
	struct fuv_mkey f;
	struct ibv_wc wc;
	char st[32];
	int i;

	ASSERT_EQ(0, fuv_mk_bufs(self->pd, &m));
	/* room for 4 interleaved entries in the WQE (128 > 4 * 16 + 12) */
	self->qp = fuv_rc_up(self->ctx, self->pd, self->cq, 128);
	ASSERT_NE(NULL, self->qp);
	mk = fuv_mk_create(self->pd, 4, 0);
	ASSERT_NE(NULL, mk);
	for (i = 0; i < 4; i++) {
		il[i].addr = (uintptr_t)m.a + 64 * i;
		il[i].bytes_count = 8;
		il[i].bytes_skip = 8;
		il[i].lkey = m.mr1->lkey;
	}
	ASSERT_EQ(0, fuv_configure(self->qp, self->cq, mk, 0xbad,
				   MLX5DV_MKEY_ACC, 4, NULL, 2, il, &wc));
	EXPECT_EQ(0xbad, wc.wr_id);
	EXPECT_EQ(IBV_WC_LOC_LEN_ERR, wc.status)
		TH_LOG("status %s", ibv_wc_status_str(wc.status));
	EXPECT_EQ(VS_XLT_TOO_BIG, wc.vendor_err);
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mk->lkey, 0, &f));
	EXPECT_EQ(1, f.free);
	EXPECT_EQ(0, f.len);
	fuv_qp_state(self->dbg, self->qp->qp_num, st, sizeof(st));
	EXPECT_STREQ("ERR", st);

	qpx = ibv_qp_to_qp_ex(self->qp);
	ibv_wr_start(qpx);
	qpx->wr_id = 0xf1;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_local_inv(qpx, mk->lkey);
	ASSERT_EQ(0, ibv_wr_complete(qpx));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(0xf1, wc.wr_id);
	EXPECT_EQ(IBV_WC_WR_FLUSH_ERR, wc.status);

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	fuv_mk_bufs_free(&m);
}

/*
 * An entry naming an MR of another PD: the UMR executes (the entries'
 * keys exist), but an access through the mkey by a QP of its PD is
 * refused (every mkey on the way must be in the accessor's PD,
 * Documentation/fake.rst "Data path"), and nothing lands.
 */
TEST_F(fuv_rc, mkey_foreign_pd_entry)
{
	struct ibv_sge sgl[2] = {};
	struct fuv_mk_bufs m = {};
	struct mlx5dv_mkey *mk;
	struct ibv_mr *other;
	struct ibv_pd *pd2;
	__u8 w[32];
	unsigned int pdn = fuv_pdn(self->pd);
	struct ibv_wc wc;

	ASSERT_EQ(0, fuv_mk_bufs(self->pd, &m));
	pd2 = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, pd2);
	other = ibv_reg_mr(pd2, m.b + PAGE, PAGE, IBV_ACCESS_LOCAL_WRITE);
	ASSERT_NE(NULL, other);
	self->qp = fuv_rc_up(self->ctx, self->pd, self->cq, 0);
	ASSERT_NE(NULL, self->qp);
	mk = fuv_mk_create(self->pd, 2, 0);
	ASSERT_NE(NULL, mk);
	sgl[0].addr = (uintptr_t)m.a;
	sgl[0].length = 16;
	sgl[0].lkey = m.mr1->lkey;
	sgl[1].addr = (uintptr_t)m.b + PAGE;
	sgl[1].length = 16;
	sgl[1].lkey = other->lkey;
	ASSERT_EQ(0, fuv_configure(self->qp, self->cq, mk, 1,
				   MLX5DV_MKEY_ACC, 2, sgl, 0, NULL, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	memset(w, 0x5a, sizeof(w));
	EXPECT_EQ(-EACCES, fuv_dbg_xfer(self->dbg, 'W', pdn, mk->rkey, 0, w, 32));
	EXPECT_TRUE(fuv_all(m.a, 2 * PAGE, 0xee));
	EXPECT_TRUE(fuv_all(m.b, 2 * PAGE, 0xee));
	/* the first entry alone is in the PD */
	EXPECT_EQ(0, fuv_dbg_xfer(self->dbg, 'W', pdn, mk->rkey, 0, w, 16));
	EXPECT_TRUE(fuv_all(m.a, 16, 0x5a));

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	ASSERT_EQ(0, ibv_dereg_mr(other));
	ASSERT_EQ(0, ibv_dealloc_pd(pd2));
	fuv_mk_bufs_free(&m);
}

/*
 * Key rotation: libmlx5 changes an mkey's tag (its key's low byte) only
 * when the application asks, with MLX5DV_MKEY_INIT_ATTR_FLAGS_UPDATE_TAG
 * (the context reports MKEY_UPDATE_TAG) and a new byte in the mkey's
 * lkey/rkey before the configure (mlx5_send_wr_mkey_configure(): the ctrl
 * names the new key, the mkey segment carries its byte). The fake's mkey
 * takes the new key; the old key is refused by the data path, the new one
 * works; a local invalidation by the new key frees it.
 */
TEST_F(fuv_rc, mkey_tag_update)
{
	struct ibv_sge sgl[1] = {};
	struct fuv_mk_bufs m = {};
	struct mlx5dv_mkey *mk;
	struct ibv_qp_ex *qpx;
	__u8 w[16], r[16];
	unsigned int pdn = fuv_pdn(self->pd), old;
	struct fuv_mkey f;
	struct ibv_wc wc;

	ASSERT_EQ(0, fuv_mk_bufs(self->pd, &m));
	self->qp = fuv_rc_up(self->ctx, self->pd, self->cq, 0);
	ASSERT_NE(NULL, self->qp);
	mk = fuv_mk_create(self->pd, 1,
			   MLX5DV_MKEY_INIT_ATTR_FLAGS_UPDATE_TAG);
	ASSERT_NE(NULL, mk) TH_LOG("mlx5dv_create_mkey: %s", strerror(errno));
	sgl[0].addr = (uintptr_t)m.a;
	sgl[0].length = 16;
	sgl[0].lkey = m.mr1->lkey;
	ASSERT_EQ(0, fuv_configure(self->qp, self->cq, mk, 1,
				   MLX5DV_MKEY_ACC, 1, sgl, 0, NULL, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	old = mk->lkey;
	EXPECT_EQ(0, old & 0xff);
	memset(w, 0x77, sizeof(w));
	ASSERT_EQ(0, fuv_dbg_xfer(self->dbg, 'W', pdn, old, 0, w, 16));

	mk->lkey = (old & ~0xffu) | 0x5a;
	mk->rkey = mk->lkey;
	ASSERT_EQ(0, fuv_configure(self->qp, self->cq, mk, 2,
				   MLX5DV_MKEY_ACC, 1, sgl, 0, NULL, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status)
		TH_LOG("status %s vendor 0x%x", ibv_wc_status_str(wc.status),
		       wc.vendor_err);
	EXPECT_EQ(1, fuv_dbg_mkey(self->dbg, mk->lkey, 0, &f));
	EXPECT_EQ(0, fuv_dbg_mkey(self->dbg, old, 0, &f));
	EXPECT_EQ(-EACCES, fuv_dbg_xfer(self->dbg, 'R', pdn, old, 0, r, 16));
	ASSERT_EQ(0, fuv_dbg_xfer(self->dbg, 'R', pdn, mk->rkey, 0, r, 16));
	EXPECT_EQ(0, memcmp(w, r, 16));

	qpx = ibv_qp_to_qp_ex(self->qp);
	ibv_wr_start(qpx);
	qpx->wr_id = 3;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_local_inv(qpx, mk->lkey);
	ASSERT_EQ(0, ibv_wr_complete(qpx));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	/* rdma-core's invalidation installs byte 0 (set_umr_mkey_seg()) */
	EXPECT_EQ(1, fuv_dbg_mkey(self->dbg, old, 0, &f));
	EXPECT_EQ(1, f.free);

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	fuv_mk_bufs_free(&m);
}

/*
 * RDMA between two libmlx5 RC QPs of one PD and CQ, connected to each
 * other (Documentation/fake.rst, "The RC data path"): ibv_post_send()
 * WQEs as rdma-core v44.0 qp.c _mlx5_post_send() builds them, through
 * ibv_reg_mr() keys.
 */

/* One signalled RDMA WR of one SGE (@flags: IBV_SEND_INLINE). */
static int fuv_post_rdma(struct ibv_qp *qp, enum ibv_wr_opcode op,
			 __u64 wr_id, void *addr, __u32 len, __u32 lkey,
			 void *raddr, __u32 rkey, unsigned int flags)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)addr,
		.length = len,
		.lkey = lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = op,
		.send_flags = IBV_SEND_SIGNALED | flags,
	}, *bad;

	wr.wr.rdma.remote_addr = (uintptr_t)raddr;
	wr.wr.rdma.rkey = rkey;
	return ibv_post_send(qp, &wr, &bad);
}

/* @qp and @peer to RESET, then both to RTS connected again. */
static int fuv_rc_reconnect(struct ibv_qp *qp, struct ibv_qp *peer)
{
	struct ibv_qp_attr rst = { .qp_state = IBV_QPS_RESET };

	if (ibv_modify_qp(qp, &rst, IBV_QP_STATE) ||
	    ibv_modify_qp(peer, &rst, IBV_QP_STATE))
		return -1;
	return fuv_to_rts(qp, peer->qp_num) || fuv_to_rts(peer, qp->qp_num);
}

/*
 * A WRITE of 1000 bytes lands at the rkey's address and nothing around
 * it moves; a READ brings them back elsewhere (IBV_WC_RDMA_READ with
 * byte_len 1000); an inline WRITE (IBV_SEND_INLINE, libmlx5's
 * set_data_inl_seg()) lands too. Each WC is the requester's, with its
 * wr_id and opcode; both QPs stay in RTS.
 */
TEST_F(fuv_rc, rdma_write_read)
{
	__u8 *b = (__u8 *)self->buf, *dst = b + PAGE + 24;
	struct ibv_qp *peer;
	struct ibv_mr *mr;
	struct ibv_wc wc;
	char st[32];
	size_t i;

	self->qp = fuv_create_rc_inl(self->ctx, self->pd, self->cq, 0, 0, 64);
	ASSERT_NE(NULL, self->qp);
	peer = fuv_create_rc(self->ctx, self->pd, self->cq, 0, 0);
	ASSERT_NE(NULL, peer);
	ASSERT_EQ(0, fuv_to_rts(self->qp, peer->qp_num));
	ASSERT_EQ(0, fuv_to_rts(peer, self->qp->qp_num));
	memset(b, 0xee, 2 * PAGE);
	for (i = 0; i < 1000; i++)
		b[i] = fuv_pat(i);
	mr = ibv_reg_mr(self->pd, b, 2 * PAGE, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	ASSERT_NE(NULL, mr);

	ASSERT_EQ(0, fuv_post_rdma(self->qp, IBV_WR_RDMA_WRITE, 1, b, 1000,
				   mr->lkey, dst, mr->rkey, 0));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status)
		TH_LOG("status %s vendor 0x%x", ibv_wc_status_str(wc.status),
		       wc.vendor_err);
	EXPECT_EQ(1, wc.wr_id);
	EXPECT_EQ(IBV_WC_RDMA_WRITE, wc.opcode);
	EXPECT_EQ(self->qp->qp_num, wc.qp_num);
	EXPECT_TRUE(fuv_is_pat(dst, 1000, 0));
	EXPECT_EQ(0xee, dst[-1]);
	EXPECT_TRUE(fuv_all(dst + 1000, PAGE - 1024, 0xee));

	ASSERT_EQ(0, fuv_post_rdma(self->qp, IBV_WR_RDMA_READ, 2, b + 1200,
				   1000, mr->lkey, dst, mr->rkey, 0));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(2, wc.wr_id);
	EXPECT_EQ(IBV_WC_RDMA_READ, wc.opcode);
	EXPECT_EQ(1000, wc.byte_len);
	EXPECT_TRUE(fuv_is_pat(b + 1200, 1000, 0));
	EXPECT_TRUE(fuv_all(b + 1000, 200, 0xee));
	EXPECT_TRUE(fuv_all(b + 2200, PAGE - 2200, 0xee));

	ASSERT_EQ(0, fuv_post_rdma(self->qp, IBV_WR_RDMA_WRITE, 3, b + 40, 40,
				   0, dst + 2000, mr->rkey, IBV_SEND_INLINE));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(3, wc.wr_id);
	EXPECT_TRUE(fuv_is_pat(dst + 2000, 40, 40));
	EXPECT_EQ(0xee, dst[2040]);
	EXPECT_EQ(0, ibv_poll_cq(self->cq, 1, &wc));
	fuv_qp_state(self->dbg, self->qp->qp_num, st, sizeof(st));
	EXPECT_STREQ("RTS", st);
	fuv_qp_state(self->dbg, peer->qp_num, st, sizeof(st));
	EXPECT_STREQ("RTS", st);

	ASSERT_EQ(0, ibv_destroy_qp(peer));
	ASSERT_EQ(0, ibv_dereg_mr(mr));
}

/* include/linux/mlx5_umr_fake.h, enum mlx5_umr_fake_vsynd */
#define VS_RDMA_RKEY	0x43
#define VS_RDMA_NO_PEER	0x44

/*
 * The responder refuses: an MR without IBV_ACCESS_REMOTE_WRITE as a
 * WRITE's rkey, and the rkey of a deregistered MR for a READ. The
 * requester's WC is IBV_WC_REM_ACCESS_ERR, the WR after it is flushed,
 * both QPs are in ERR (IB class C) and no byte moved. With the peer
 * destroyed, the WRITE finds no responder: IBV_WC_RETRY_EXC_ERR.
 */
TEST_F(fuv_rc, rdma_remote_errors)
{
	__u8 *b = (__u8 *)self->buf;
	struct ibv_mr *src, *lw, *gone;
	struct ibv_qp *peer;
	struct ibv_wc wc;
	__u32 rkey;
	char st[32];

	self->qp = fuv_create_rc(self->ctx, self->pd, self->cq, 0, 0);
	ASSERT_NE(NULL, self->qp);
	peer = fuv_create_rc(self->ctx, self->pd, self->cq, 0, 0);
	ASSERT_NE(NULL, peer);
	ASSERT_EQ(0, fuv_to_rts(self->qp, peer->qp_num));
	ASSERT_EQ(0, fuv_to_rts(peer, self->qp->qp_num));
	memset(b, 0x5a, PAGE);
	memset(b + PAGE, 0xee, PAGE);
	src = ibv_reg_mr(self->pd, b, PAGE, IBV_ACCESS_LOCAL_WRITE);
	lw = ibv_reg_mr(self->pd, b + PAGE, PAGE, IBV_ACCESS_LOCAL_WRITE);
	gone = ibv_reg_mr(self->pd, b + PAGE, PAGE, IBV_ACCESS_LOCAL_WRITE |
			  IBV_ACCESS_REMOTE_READ);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, lw);
	ASSERT_NE(NULL, gone);
	rkey = gone->rkey;
	ASSERT_EQ(0, ibv_dereg_mr(gone));

	ASSERT_EQ(0, fuv_post_rdma(self->qp, IBV_WR_RDMA_WRITE, 1, b, 64,
				   src->lkey, b + PAGE, lw->rkey, 0));
	ASSERT_EQ(0, fuv_post_rdma(self->qp, IBV_WR_RDMA_WRITE, 2, b, 64,
				   src->lkey, b + PAGE, lw->rkey, 0));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(1, wc.wr_id);
	EXPECT_EQ(IBV_WC_REM_ACCESS_ERR, wc.status)
		TH_LOG("status %s", ibv_wc_status_str(wc.status));
	EXPECT_EQ(VS_RDMA_RKEY, wc.vendor_err);
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(2, wc.wr_id);
	EXPECT_EQ(IBV_WC_WR_FLUSH_ERR, wc.status);
	EXPECT_TRUE(fuv_all(b + PAGE, PAGE, 0xee));
	fuv_qp_state(self->dbg, self->qp->qp_num, st, sizeof(st));
	EXPECT_STREQ("ERR", st);
	fuv_qp_state(self->dbg, peer->qp_num, st, sizeof(st));
	EXPECT_STREQ("ERR", st);

	ASSERT_EQ(0, fuv_rc_reconnect(self->qp, peer));
	ASSERT_EQ(0, fuv_post_rdma(self->qp, IBV_WR_RDMA_READ, 3, b, 64,
				   src->lkey, b + PAGE, rkey, 0));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(3, wc.wr_id);
	EXPECT_EQ(IBV_WC_REM_ACCESS_ERR, wc.status);
	EXPECT_TRUE(fuv_all(b, PAGE, 0x5a));
	fuv_qp_state(self->dbg, peer->qp_num, st, sizeof(st));
	EXPECT_STREQ("ERR", st);

	ASSERT_EQ(0, fuv_rc_reconnect(self->qp, peer));
	ASSERT_EQ(0, ibv_destroy_qp(peer));
	ASSERT_EQ(0, fuv_post_rdma(self->qp, IBV_WR_RDMA_WRITE, 4, b, 64,
				   src->lkey, b + PAGE, src->rkey, 0));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(4, wc.wr_id);
	EXPECT_EQ(IBV_WC_RETRY_EXC_ERR, wc.status)
		TH_LOG("status %s", ibv_wc_status_str(wc.status));
	EXPECT_EQ(VS_RDMA_NO_PEER, wc.vendor_err);
	EXPECT_EQ(0, ibv_poll_cq(self->cq, 1, &wc));

	ASSERT_EQ(0, ibv_dereg_mr(lw));
	ASSERT_EQ(0, ibv_dereg_mr(src));
}

/*
 * Stage 2 (issue 29): signature and crypto through libmlx5's own WQEs.
 *
 * The fixture fuv_mk is the mkey set-up of the fuv_rc.mkey_* cases: a PD,
 * a CQ, an RC QP in RTS connected to itself with the mkey send ops, and
 * two 2-page buffers (0xee) registered as MRs. The data moves through the
 * fake's debugfs "xfer" by that QP, so that a signature error reaches its
 * CQ, where libmlx5 takes it for mlx5dv_mkey_check() (rdma-core v44.0
 * cq.c mlx5_parse_cqe(), MLX5_CQE_SIG_ERR). The references the bytes are
 * checked against are computed here: the T10-DIF CRC16 (polynomial
 * 0x8bb7) bit by bit, XTS-AES by IEEE 1619's vectors
 * (tests/vectors/xts_vector5.h).
 */
FIXTURE(fuv_mk) {
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct fuv_mk_bufs m;
	unsigned int pdn;
	char dbg[256];
};

FIXTURE_SETUP(fuv_mk)
{
	struct ibv_device *dev;

	self->list = ibv_get_device_list(NULL);
	ASSERT_NE(NULL, self->list);
	dev = fuv_find(self->list);
	ASSERT_NE(NULL, dev);
	ASSERT_EQ(0, fuv_dbg_dir(ibv_get_device_name(dev), self->dbg, sizeof(self->dbg)));
	self->ctx = ibv_open_device(dev);
	ASSERT_NE(NULL, self->ctx);
	self->pd = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, self->pd);
	self->pdn = fuv_pdn(self->pd);
	self->cq = ibv_create_cq(self->ctx, 15, NULL, NULL, 0);
	ASSERT_NE(NULL, self->cq);
	ASSERT_EQ(0, fuv_mk_bufs(self->pd, &self->m));
	/*
	 * The BSFs are inline data of the UMR: libmlx5 refuses a configure
	 * whose translation and BSFs (up to 64 + 128 bytes here) exceed
	 * max_inline_data (qp.c crypto_umr_wqe_finalize(): ENOMEM).
	 */
	self->qp = fuv_rc_up(self->ctx, self->pd, self->cq, 256);
	ASSERT_NE(NULL, self->qp);
}

FIXTURE_TEARDOWN(fuv_mk)
{
	if (self->qp)
		ibv_destroy_qp(self->qp);
	fuv_mk_bufs_free(&self->m);
	if (self->cq)
		ibv_destroy_cq(self->cq);
	if (self->pd)
		ibv_dealloc_pd(self->pd);
	if (self->ctx)
		ibv_close_device(self->ctx);
	ibv_free_device_list(self->list);
}

/*
 * debugfs "xfer" with a QP number (fake_xfer.c fake_xfer_qp()): an
 * unknown QP is ENOENT, a QP of another PD or one not able to receive
 * (RESET) is EINVAL; nothing moves. The same local write by the QP in
 * RTS lands.
 */
TEST_F(fuv_mk, xfer_qp_refusals)
{
	struct ibv_qp *q2;
	__u8 w[16];

	memset(w, 0x42, sizeof(w));
	EXPECT_EQ(-ENOENT, fuv_dbg_xfer_q(self->dbg, 'w', self->pdn,
					  self->m.mr1->lkey, 0, w, 16, 0xffffff));
	EXPECT_EQ(-EINVAL, fuv_dbg_xfer_q(self->dbg, 'w', self->pdn + 1,
					  self->m.mr1->lkey, 0, w, 16,
					  self->qp->qp_num));
	q2 = fuv_create_rc_inl(self->ctx, self->pd, self->cq, 0, 0, 0);
	ASSERT_NE(NULL, q2);
	EXPECT_EQ(-EINVAL, fuv_dbg_xfer_q(self->dbg, 'w', self->pdn,
					  self->m.mr1->lkey, 0, w, 16,
					  q2->qp_num));
	EXPECT_TRUE(fuv_all(self->m.a, 2 * PAGE, 0xee));
	ASSERT_EQ(0, ibv_destroy_qp(q2));
	/* the same local write by the fixture's QP in RTS */
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'w', self->pdn, self->m.mr1->lkey,
				    0, w, 16, self->qp->qp_num));
	EXPECT_TRUE(fuv_all(self->m.a, 16, 0x42));
	EXPECT_TRUE(fuv_all(self->m.a + 16, 2 * PAGE - 16, 0xee));
}

/* T10-DIF guard: CRC16, polynomial 0x8bb7, seed 0, no reflection. */
static __u16 fuv_crc16_t10dif(const __u8 *p, size_t len)
{
	__u16 crc = 0;
	int b;

	for (; len; len--, p++) {
		crc ^= (__u16)(*p << 8);
		for (b = 0; b < 8; b++)
			crc = crc & 0x8000 ? (__u16)(crc << 1) ^ 0x8bb7 :
					     (__u16)(crc << 1);
	}
	return crc;
}

/* The 8 T10-DIF bytes of @data (512 bytes): guard, app tag, ref tag. */
static void fuv_dif(__u8 *pi, const __u8 *data, __u16 app, __u32 ref)
{
	__u16 g = fuv_crc16_t10dif(data, 512);

	pi[0] = g >> 8;
	pi[1] = g;
	pi[2] = app >> 8;
	pi[3] = app;
	pi[4] = ref >> 24;
	pi[5] = ref >> 16;
	pi[6] = ref >> 8;
	pi[7] = ref;
}

/* Whether @pi are the T10-DIF bytes of @data with @app and @ref. */
static int fuv_dif_is(const __u8 *pi, const __u8 *data, __u16 app, __u32 ref)
{
	__u8 want[8];

	fuv_dif(want, data, app, ref);
	return !memcmp(pi, want, 8);
}

/*
 * One mlx5dv_wr_mkey_configure() of @mk: the access flags, a list layout
 * of the first @len bytes of mr1, then the signature and crypto setters
 * asked for (NULL: not called; the mkey keeps what it has). Waits for the
 * completion (libmlx5 signals only the last WQE: the UMR or its SET_PSV).
 */
static int fuv_mk_conf(struct __test_metadata *_metadata, struct ibv_qp *qp,
		       struct ibv_cq *cq, const struct fuv_mk_bufs *m,
		       struct mlx5dv_mkey *mk, __u32 len,
		       const struct mlx5dv_sig_block_attr *sig,
		       const struct mlx5dv_crypto_attr *cr)
{
	struct ibv_qp_ex *qpx = ibv_qp_to_qp_ex(qp);
	struct mlx5dv_qp_ex *mqpx = mlx5dv_qp_ex_from_ibv_qp_ex(qpx);
	struct mlx5dv_mkey_conf_attr attr = {};
	struct ibv_sge sge = {
		.addr = (uintptr_t)m->a,
		.length = len,
		.lkey = m->mr1->lkey,
	};
	struct ibv_wc wc;
	int err;

	ibv_wr_start(qpx);
	qpx->wr_id = 0xc0f;
	qpx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	mlx5dv_wr_mkey_configure(mqpx, mk, 2 + !!sig + !!cr, &attr);
	mlx5dv_wr_set_mkey_access_flags(mqpx, MLX5DV_MKEY_ACC |
					IBV_ACCESS_LOCAL_WRITE);
	mlx5dv_wr_set_mkey_layout_list(mqpx, 1, &sge);
	if (sig)
		mlx5dv_wr_set_mkey_sig_block(mqpx, sig);
	if (cr)
		mlx5dv_wr_set_mkey_crypto(mqpx, cr);
	err = ibv_wr_complete(qpx);
	if (err) {
		TH_LOG("ibv_wr_complete: %s", strerror(err));
		return -1;
	}
	if (fuv_poll_one(cq, &wc) != 1) {
		TH_LOG("no configure completion");
		return -1;
	}
	if (wc.status != IBV_WC_SUCCESS || wc.wr_id != 0xc0f) {
		TH_LOG("configure: status %s vendor 0x%x wr_id 0x%llx",
		       ibv_wc_status_str(wc.status), wc.vendor_err,
		       (unsigned long long)wc.wr_id);
		return -1;
	}
	return 0;
}

/* fuv_mk_conf() in a fuv_mk case */
#define FUV_MK_CONF(mk, len, sig, cr) \
	fuv_mk_conf(_metadata, self->qp, self->cq, &self->m, mk, len, sig, cr)

/*
 * What mlx5dv_mkey_check() says after the CQ was polled (a SIG_ERR CQE is
 * taken by the library: ibv_poll_cq() returns no completion for it).
 */
static int fuv_mk_check(struct ibv_cq *cq, struct mlx5dv_mkey *mk,
			struct mlx5dv_mkey_err *e)
{
	struct ibv_wc wc;

	if (ibv_poll_cq(cq, 1, &wc) != 0)
		return -1;
	memset(e, 0x5a, sizeof(*e));
	return mlx5dv_mkey_check(mk, e);
}

#define FUV_DIF_ALL	(MLX5DV_SIG_MASK_T10DIF_GUARD | \
			 MLX5DV_SIG_MASK_T10DIF_APPTAG | \
			 MLX5DV_SIG_MASK_T10DIF_REFTAG)

/*
 * T10-DIF in the memory domain, none on the wire (insert on write, check
 * and strip on read; app tag 0x1234, ref tag 0x10 incremented per block:
 * MLX5DV_SIG_T10DIF_FLAG_REF_REMAP). Two blocks written through the key
 * land as data + the PI computed here; read back stripped, no error. A
 * flipped data byte of block 1: the read still moves the data, and
 * mlx5dv_mkey_check() reports BAD_GUARD with expected = the CRC of the
 * corrupted data and actual = the guard in memory (issue 27: what ConnectX
 * writes), at offset 1039 (the fake's rule: the failing block's last byte
 * in the input domain). The same read again reports nothing (not re-armed:
 * rdma-core flips the mkey's sigerr count only at the next configure); a
 * configure that keeps the signature re-arms it (SET_PSV). Then a bad ref
 * tag and a bad app tag, each after a re-arm.
 */
TEST_F(fuv_mk, sig_mem_t10dif)
{
	struct mlx5dv_sig_t10dif dif = {
		.bg_type = MLX5DV_SIG_T10DIF_CRC,
		.app_tag = 0x1234,
		.ref_tag = 0x10,
		.flags = MLX5DV_SIG_T10DIF_FLAG_REF_REMAP,
	};
	struct mlx5dv_sig_block_domain mem = {
		.sig_type = MLX5DV_SIG_TYPE_T10DIF,
		.sig.dif = &dif,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct mlx5dv_sig_block_attr sa = {
		.mem = &mem,
		.check_mask = FUV_DIF_ALL,
	};
	int qpn = self->qp->qp_num;
	__u8 *a = self->m.a, w[1024], r[1024];
	struct mlx5dv_mkey_err e;
	struct mlx5dv_mkey *mk;
	__u16 good;
	size_t i;

	mk = fuv_mk_create(self->pd, 1,
			   MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE);
	ASSERT_NE(NULL, mk) TH_LOG("mlx5dv_create_mkey: %s", strerror(errno));
	ASSERT_EQ(0, FUV_MK_CONF(mk, 1040, &sa, NULL));

	for (i = 0; i < sizeof(w); i++)
		w[i] = fuv_pat(i);
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'W', self->pdn, mk->rkey, 0, w,
				    1024, qpn));
	EXPECT_EQ(0, memcmp(a, w, 512));
	EXPECT_TRUE(fuv_dif_is(a + 512, w, 0x1234, 0x10));
	EXPECT_EQ(0, memcmp(a + 520, w + 512, 512));
	EXPECT_TRUE(fuv_dif_is(a + 1032, w + 512, 0x1234, 0x11));
	EXPECT_TRUE(fuv_all(a + 1040, 2 * PAGE - 1040, 0xee));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_NO_ERR, e.err_type);
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    1024, qpn));
	EXPECT_EQ(0, memcmp(w, r, 1024));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_NO_ERR, e.err_type);

	/* a bad guard: data moves, the error is the mkey's */
	good = fuv_crc16_t10dif(w + 512, 512);
	a[520] ^= 0x01;
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    1024, qpn));
	EXPECT_EQ(a[520], r[512]);
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD, e.err_type);
	EXPECT_EQ(fuv_crc16_t10dif(a + 520, 512), e.err.sig.expected_value);
	EXPECT_EQ(good, e.err.sig.actual_value);
	EXPECT_EQ(1039, e.err.sig.offset);
	/* reported once: not armed again until the next configure */
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    1024, qpn));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_NO_ERR, e.err_type);
	ASSERT_EQ(0, FUV_MK_CONF(mk, 1040, NULL, NULL));
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    1024, qpn));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD, e.err_type);
	EXPECT_EQ(good, e.err.sig.actual_value);
	a[520] ^= 0x01;

	/* a bad ref tag in block 0 */
	ASSERT_EQ(0, FUV_MK_CONF(mk, 1040, NULL, NULL));
	a[519] = 0x77;
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    1024, qpn));
	EXPECT_EQ(0, memcmp(w, r, 1024));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_SIG_BLOCK_BAD_REFTAG, e.err_type);
	EXPECT_EQ(0x10, e.err.sig.expected_value);
	EXPECT_EQ(0x77, e.err.sig.actual_value);
	EXPECT_EQ(519, e.err.sig.offset);
	a[519] = 0x10;

	/* a bad app tag in block 1 */
	ASSERT_EQ(0, FUV_MK_CONF(mk, 1040, NULL, NULL));
	a[1034] = 0xbe;
	a[1035] = 0xef;
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    1024, qpn));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_SIG_BLOCK_BAD_APPTAG, e.err_type);
	EXPECT_EQ(0x1234, e.err.sig.expected_value);
	EXPECT_EQ(0xbeef, e.err.sig.actual_value);
	EXPECT_EQ(1039, e.err.sig.offset);

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
}

/*
 * RDMA through a libmlx5 signature mkey (mlx5dv_wr_mkey_configure(),
 * T10-DIF in the memory domain, none on the wire) as the rkey of the
 * fixture's QP, connected to itself: a WRITE of two plain blocks from
 * mr2 lands in mr1 as data + the PI computed here (inserted), no error;
 * with block 1's data corrupted, a READ back still completes with the
 * bytes, and mlx5dv_mkey_check() reports BAD_GUARD at 1039 (the SIG_ERR
 * CQE of the responder's access, on the CQ libmlx5 polls).
 */
TEST_F(fuv_mk, rdma_sig_t10dif)
{
	struct mlx5dv_sig_t10dif dif = {
		.bg_type = MLX5DV_SIG_T10DIF_CRC,
		.app_tag = 0x1234,
		.ref_tag = 0x10,
		.flags = MLX5DV_SIG_T10DIF_FLAG_REF_REMAP,
	};
	struct mlx5dv_sig_block_domain mem = {
		.sig_type = MLX5DV_SIG_TYPE_T10DIF,
		.sig.dif = &dif,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct mlx5dv_sig_block_attr sa = {
		.mem = &mem,
		.check_mask = FUV_DIF_ALL,
	};
	__u8 *a = self->m.a, *src = self->m.b;
	struct mlx5dv_mkey_err e;
	struct mlx5dv_mkey *mk;
	struct fuv_mkey f;
	struct ibv_wc wc;
	size_t i;

	mk = fuv_mk_create(self->pd, 1,
			   MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE);
	ASSERT_NE(NULL, mk) TH_LOG("mlx5dv_create_mkey: %s", strerror(errno));
	ASSERT_EQ(0, FUV_MK_CONF(mk, 1040, &sa, NULL));
	/* zero-based: the rkey's addresses start at 0 */
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mk->rkey, 0, &f));
	ASSERT_EQ(0, f.start);
	for (i = 0; i < 1024; i++)
		src[i] = fuv_pat(i);

	ASSERT_EQ(0, fuv_post_rdma(self->qp, IBV_WR_RDMA_WRITE, 7, src, 1024,
				   self->m.mr2->lkey, NULL, mk->rkey, 0));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status)
		TH_LOG("status %s vendor 0x%x", ibv_wc_status_str(wc.status),
		       wc.vendor_err);
	EXPECT_EQ(IBV_WC_RDMA_WRITE, wc.opcode);
	EXPECT_EQ(0, memcmp(a, src, 512));
	EXPECT_TRUE(fuv_dif_is(a + 512, src, 0x1234, 0x10));
	EXPECT_EQ(0, memcmp(a + 520, src + 512, 512));
	EXPECT_TRUE(fuv_dif_is(a + 1032, src + 512, 0x1234, 0x11));
	EXPECT_TRUE(fuv_all(a + 1040, 2 * PAGE - 1040, 0xee));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_NO_ERR, e.err_type);

	a[520] ^= 0x01;
	ASSERT_EQ(0, fuv_post_rdma(self->qp, IBV_WR_RDMA_READ, 8, src + 2048,
				   1024, self->m.mr2->lkey, NULL, mk->rkey, 0));
	ASSERT_EQ(1, fuv_poll_one(self->cq, &wc));
	EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
	EXPECT_EQ(8, wc.wr_id);
	EXPECT_EQ(IBV_WC_RDMA_READ, wc.opcode);
	EXPECT_EQ(1024, wc.byte_len);
	EXPECT_EQ(0, memcmp(src + 2048, src, 512));
	EXPECT_EQ(a[520], src[2048 + 512]);
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD, e.err_type);
	EXPECT_EQ(1039, e.err.sig.offset);

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
}

/* CRC-32C as catalogued (Castagnoli, reflected, init and xorout ~0). */
static __u32 fuv_crc32c(const __u8 *p, size_t len)
{
	__u32 crc = ~0u;
	int b;

	for (; len; len--, p++) {
		crc ^= *p;
		for (b = 0; b < 8; b++)
			crc = crc & 1 ? (crc >> 1) ^ 0x82f63b78 : crc >> 1;
	}
	return ~crc;
}

/*
 * CRC32C in the memory domain (seed 0: libmlx5 sets the BFS seed bit, qp.c
 * mlx5_umr_crc_bfs(), and the catalogue CRC-32C results), none on the
 * wire: each 512-byte block written lands followed by its CRC-32C computed
 * here, least significant byte first (Documentation/fake.rst, "Signature":
 * the fake's reading of ConnectX results); read back checked. A flipped
 * byte: BAD_GUARD, expected and actual the 4 PI bytes read big endian
 * (the fake's CQE words; libmlx5 hands the CQE's upper word through,
 * verbs.c mlx5_decode_sigerr()): the computed CRC's and the stored one's.
 */
TEST_F(fuv_mk, sig_mem_crc32c)
{
	struct mlx5dv_sig_crc crc = {
		.type = MLX5DV_SIG_CRC_TYPE_CRC32C,
		.seed = 0,
	};
	struct mlx5dv_sig_block_domain mem = {
		.sig_type = MLX5DV_SIG_TYPE_CRC,
		.sig.crc = &crc,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct mlx5dv_sig_block_attr sa = {
		.mem = &mem,
		.check_mask = MLX5DV_SIG_MASK_CRC32C,
	};
	int qpn = self->qp->qp_num;
	__u8 *a = self->m.a, w[1024], r[1024];
	struct mlx5dv_mkey_err e;
	struct mlx5dv_mkey *mk;
	__u32 c0, c1, bad;
	size_t i;

	mk = fuv_mk_create(self->pd, 1,
			   MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE);
	ASSERT_NE(NULL, mk) TH_LOG("mlx5dv_create_mkey: %s", strerror(errno));
	ASSERT_EQ(0, FUV_MK_CONF(mk, 1032, &sa, NULL));
	for (i = 0; i < sizeof(w); i++)
		w[i] = fuv_pat(i);
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'W', self->pdn, mk->rkey, 0, w,
				    1024, qpn));
	c0 = fuv_crc32c(w, 512);
	c1 = fuv_crc32c(w + 512, 512);
	EXPECT_EQ(0, memcmp(a, w, 512));
	EXPECT_EQ(0, memcmp(a + 512, &(__u32){ htole32(c0) }, 4));
	EXPECT_EQ(0, memcmp(a + 516, w + 512, 512));
	EXPECT_EQ(0, memcmp(a + 1028, &(__u32){ htole32(c1) }, 4));
	EXPECT_TRUE(fuv_all(a + 1032, 2 * PAGE - 1032, 0xee));
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    1024, qpn));
	EXPECT_EQ(0, memcmp(w, r, 1024));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_NO_ERR, e.err_type);

	a[700] ^= 0x04;
	bad = fuv_crc32c(a + 516, 512);
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    1024, qpn));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD, e.err_type);
	EXPECT_EQ(__builtin_bswap32(bad), e.err.sig.expected_value);
	EXPECT_EQ(__builtin_bswap32(c1), e.err.sig.actual_value);
	EXPECT_EQ(1031, e.err.sig.offset);

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
}

/*
 * T10-DIF on the wire, none in memory: a read through the key inserts the
 * PI computed here after each 512 bytes of memory; a write with good PI
 * stores the data alone; a write whose block 1 carries a bad ref tag
 * stores the data all the same and reports BAD_REFTAG (expected 0x21, the
 * configured tag incremented, actual what came) at wire offset 1039. Both
 * domains T10-DIF (wire app tag 0x2222, memory 0x1111, nothing copied):
 * the memory PI is generated anew, the wire PI checked.
 */
TEST_F(fuv_mk, sig_wire_t10dif)
{
	struct mlx5dv_sig_t10dif wdif = {
		.bg_type = MLX5DV_SIG_T10DIF_CRC,
		.app_tag = 0x5678,
		.ref_tag = 0x20,
		.flags = MLX5DV_SIG_T10DIF_FLAG_REF_REMAP,
	}, mdif = {
		.bg_type = MLX5DV_SIG_T10DIF_CRC,
		.app_tag = 0x1111,
		.ref_tag = 0x100,
		.flags = MLX5DV_SIG_T10DIF_FLAG_REF_REMAP,
	};
	struct mlx5dv_sig_block_domain wire = {
		.sig_type = MLX5DV_SIG_TYPE_T10DIF,
		.sig.dif = &wdif,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	}, mem = {
		.sig_type = MLX5DV_SIG_TYPE_T10DIF,
		.sig.dif = &mdif,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct mlx5dv_sig_block_attr sa = {
		.wire = &wire,
		.check_mask = FUV_DIF_ALL,
	};
	int qpn = self->qp->qp_num;
	__u8 *a = self->m.a, r[1040], w[1040];
	struct mlx5dv_mkey_err e;
	struct mlx5dv_mkey *mk;
	size_t i;

	mk = fuv_mk_create(self->pd, 1,
			   MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE);
	ASSERT_NE(NULL, mk) TH_LOG("mlx5dv_create_mkey: %s", strerror(errno));
	ASSERT_EQ(0, FUV_MK_CONF(mk, 1024, &sa, NULL));
	for (i = 0; i < 1024; i++)
		a[i] = fuv_pat(i);

	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    1040, qpn));
	EXPECT_EQ(0, memcmp(r, a, 512));
	EXPECT_TRUE(fuv_dif_is(r + 512, a, 0x5678, 0x20));
	EXPECT_EQ(0, memcmp(r + 520, a + 512, 512));
	EXPECT_TRUE(fuv_dif_is(r + 1032, a + 512, 0x5678, 0x21));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_NO_ERR, e.err_type);

	/* a write with good PI: the data alone lands */
	for (i = 0; i < 512; i++) {
		w[i] = (__u8)~fuv_pat(i);
		w[520 + i] = (__u8)(i ^ 0x3c);
	}
	fuv_dif(w + 512, w, 0x5678, 0x20);
	fuv_dif(w + 1032, w + 520, 0x5678, 0x21);
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'W', self->pdn, mk->rkey, 0, w,
				    1040, qpn));
	EXPECT_EQ(0, memcmp(a, w, 512));
	EXPECT_EQ(0, memcmp(a + 512, w + 520, 512));
	EXPECT_TRUE(fuv_all(a + 1024, 2 * PAGE - 1024, 0xee));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_NO_ERR, e.err_type);

	/* a bad ref tag in wire block 1: stored anyway, reported */
	w[1039] = 0x99;
	w[520] ^= 0xff;
	fuv_dif(w + 1032, w + 520, 0x5678, 0x99);
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'W', self->pdn, mk->rkey, 0, w,
				    1040, qpn));
	EXPECT_EQ(0, memcmp(a + 512, w + 520, 512));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_SIG_BLOCK_BAD_REFTAG, e.err_type);
	EXPECT_EQ(0x21, e.err.sig.expected_value);
	EXPECT_EQ(0x99, e.err.sig.actual_value);
	EXPECT_EQ(1039, e.err.sig.offset);

	/* both domains: memory PI generated, not copied */
	sa.mem = &mem;
	ASSERT_EQ(0, FUV_MK_CONF(mk, 1040, &sa, NULL));
	fuv_dif(w + 1032, w + 520, 0x5678, 0x21);
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'W', self->pdn, mk->rkey, 0, w,
				    1040, qpn));
	EXPECT_EQ(0, memcmp(a, w, 512));
	EXPECT_TRUE(fuv_dif_is(a + 512, w, 0x1111, 0x100));
	EXPECT_EQ(0, memcmp(a + 520, w + 520, 512));
	EXPECT_TRUE(fuv_dif_is(a + 1032, w + 520, 0x1111, 0x101));
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    1040, qpn));
	EXPECT_EQ(0, memcmp(r, w, 1040));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_NO_ERR, e.err_type);

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
}

/*
 * A plaintext AES-128-XTS DEK of @pd with IEEE 1619's vector 4 key:
 * libmlx5 takes a plaintext key only with MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN
 * and no login object (verbs.c check_dek_import_method(); without the
 * flag it wants the global crypto login of a wrapped-import device).
 */
static struct mlx5dv_dek *fuv_xts_dek(struct ibv_context *ctx,
				      struct ibv_pd *pd)
{
	struct mlx5dv_dek_init_attr a = {
		.key_size = MLX5DV_CRYPTO_KEY_SIZE_128,
		.key_purpose = MLX5DV_CRYPTO_KEY_PURPOSE_AES_XTS,
		.pd = pd,
		.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN,
	};

	memcpy(a.key, xts_v4_key, sizeof(xts_v4_key));
	return mlx5dv_dek_create(ctx, &a);
}

/*
 * AES-XTS alone, memory encrypted (encrypt_on_tx false: data written
 * through the key is encrypted into memory, data read is decrypted),
 * data units of 512 bytes. Written: vector 4's plaintext then its
 * ciphertext, initial tweak 0: memory holds vector 4's ciphertext, then
 * vector 5's (the second data unit, tweak 1, encrypts vector 4's
 * ciphertext); read back: what was written. Then an initial tweak of 1
 * (16 bytes, little endian as IEEE 1619 numbers data units; libmlx5
 * reverses them for the fake's big-endian-tweak profile, qp.c
 * mlx5_umr_fill_crypto_bsf()): vector 4's ciphertext written at the start
 * lands as vector 5's.
 */
TEST_F(fuv_mk, crypto_xts_vectors)
{
	struct mlx5dv_crypto_attr ca = {
		.crypto_standard = MLX5DV_CRYPTO_STANDARD_AES_XTS,
		.encrypt_on_tx = false,
		.signature_crypto_order =
		MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX,
		.data_unit_size = MLX5DV_BLOCK_SIZE_512,
	};
	__u8 *a = self->m.a, w[1024], r[1024];
	int qpn = self->qp->qp_num;
	struct mlx5dv_mkey *mk;
	struct mlx5dv_dek *dek;
	size_t i;

	dek = fuv_xts_dek(self->ctx, self->pd);
	ASSERT_NE(NULL, dek) TH_LOG("mlx5dv_dek_create: %s", strerror(errno));
	ca.dek = dek;
	mk = fuv_mk_create(self->pd, 1, MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO);
	ASSERT_NE(NULL, mk) TH_LOG("mlx5dv_create_mkey: %s", strerror(errno));
	ASSERT_EQ(0, FUV_MK_CONF(mk, 1024, NULL, &ca));

	for (i = 0; i < 512; i++)
		w[i] = (__u8)i;
	memcpy(w + 512, xts_v4_ctext, 512);
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'W', self->pdn, mk->rkey, 0, w,
				    1024, qpn));
	EXPECT_EQ(0, memcmp(a, xts_v4_ctext, 512));
	EXPECT_EQ(0, memcmp(a + 512, xts_v5_ctext, 512));
	EXPECT_TRUE(fuv_all(a + 1024, 2 * PAGE - 1024, 0xee));
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    1024, qpn));
	EXPECT_EQ(0, memcmp(w, r, 1024));

	ca.initial_tweak[0] = 1;
	ASSERT_EQ(0, FUV_MK_CONF(mk, 512, NULL, &ca));
	memset(a, 0xee, 1024);
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'W', self->pdn, mk->rkey, 0,
				    w + 512, 512, qpn));
	EXPECT_EQ(0, memcmp(a, xts_v5_ctext, 512));
	EXPECT_TRUE(fuv_all(a + 512, 512, 0xee));
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    512, qpn));
	EXPECT_EQ(0, memcmp(xts_v4_ctext, r, 512));

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	ASSERT_EQ(0, mlx5dv_dek_destroy(dek));
}

/*
 * Signature and crypto on one mkey (libmlx5 writes the crypto BSF as
 * SIG_AND_CRYPTO, 0xc1: qp.c mlx5_umr_fill_crypto_bsf(), since rdma-core
 * b38f3439a983): memory encrypted, signature before crypto on TX, which
 * libmlx5 encodes as ENCRYPTED_RAW_MEMORY (get_crypto_order()): memory
 * holds the ciphertext of the data followed by T10-DIF computed over that
 * ciphertext, unencrypted (the man page's table, row J). Vector 4's
 * plaintext written lands as vector 4's ciphertext + its PI; read back
 * decrypted and checked; a flipped ciphertext byte: BAD_GUARD, expected
 * the CRC of the corrupted ciphertext.
 */
TEST_F(fuv_mk, sig_crypto_pair)
{
	struct mlx5dv_sig_t10dif dif = {
		.bg_type = MLX5DV_SIG_T10DIF_CRC,
		.app_tag = 0xabcd,
		.ref_tag = 0x1,
	};
	struct mlx5dv_sig_block_domain mem = {
		.sig_type = MLX5DV_SIG_TYPE_T10DIF,
		.sig.dif = &dif,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct mlx5dv_sig_block_attr sa = {
		.mem = &mem,
		.check_mask = FUV_DIF_ALL,
	};
	struct mlx5dv_crypto_attr ca = {
		.crypto_standard = MLX5DV_CRYPTO_STANDARD_AES_XTS,
		.encrypt_on_tx = false,
		.signature_crypto_order =
		MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX,
		.data_unit_size = MLX5DV_BLOCK_SIZE_512,
	};
	__u8 *a = self->m.a, w[512], r[512];
	int qpn = self->qp->qp_num;
	struct mlx5dv_mkey_err e;
	struct mlx5dv_mkey *mk;
	struct mlx5dv_dek *dek;
	size_t i;

	dek = fuv_xts_dek(self->ctx, self->pd);
	ASSERT_NE(NULL, dek) TH_LOG("mlx5dv_dek_create: %s", strerror(errno));
	ca.dek = dek;
	mk = fuv_mk_create(self->pd, 1,
			   MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE |
			   MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO);
	ASSERT_NE(NULL, mk) TH_LOG("mlx5dv_create_mkey: %s", strerror(errno));
	ASSERT_EQ(0, FUV_MK_CONF(mk, 520, &sa, &ca));

	for (i = 0; i < 512; i++)
		w[i] = (__u8)i;
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'W', self->pdn, mk->rkey, 0, w,
				    512, qpn));
	EXPECT_EQ(0, memcmp(a, xts_v4_ctext, 512));
	EXPECT_TRUE(fuv_dif_is(a + 512, xts_v4_ctext, 0xabcd, 0x1));
	EXPECT_TRUE(fuv_all(a + 520, 2 * PAGE - 520, 0xee));
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    512, qpn));
	EXPECT_EQ(0, memcmp(w, r, 512));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_NO_ERR, e.err_type);

	a[100] ^= 0x80;
	ASSERT_EQ(0, fuv_dbg_xfer_q(self->dbg, 'R', self->pdn, mk->rkey, 0, r,
				    512, qpn));
	ASSERT_EQ(0, fuv_mk_check(self->cq, mk, &e));
	EXPECT_EQ(MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD, e.err_type);
	EXPECT_EQ(fuv_crc16_t10dif(a, 512), e.err.sig.expected_value);
	EXPECT_EQ(fuv_crc16_t10dif(xts_v4_ctext, 512),
		  e.err.sig.actual_value);
	EXPECT_EQ(519, e.err.sig.offset);

	ASSERT_EQ(0, mlx5dv_destroy_mkey(mk));
	ASSERT_EQ(0, mlx5dv_dek_destroy(dek));
}

TEST_HARNESS_MAIN
