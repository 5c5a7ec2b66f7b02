// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The UMR service on the fake_uverbs device (Documentation/fake.rst, "The
 * service on the fake_uverbs device"): mlx5_umr_fake_uverbs offers its
 * fake to the service under the ib_device's name, so a libmlx5 PD of
 * fake_mlx5_N is bound to a /dev/mlx5_umr/fake_mlx5_N file as on a NIC
 * (MLX5_UMR_IOCTL_SET_PD, MLX5_UMR_IOC_SET_PD_VERBS) and the service's
 * keys land in that PD: the PD number libmlx5 was given
 * (mlx5dv_init_obj()) is the one in the fake's mkey table. Run by run.sh
 * in the test VM, after fuv_test.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include "kselftest_harness.h"
#include "rdma_res_pd.h"
#include "mlx5umr.h"
#include "fuv_dbg.h"
#include "fuv_verbs.h"

FIXTURE(svc) {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	long long id;
	char name[64];
	char dbg[256];
	struct mlx5umr_context *u;
	long long pds0, mkeys0;
};

FIXTURE_SETUP(svc)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_device **d;

	ASSERT_NE(NULL, list);
	for (d = list; *d; d++)
		if (!strncmp(ibv_get_device_name(*d), "fake_mlx5_", 10))
			break;
	ASSERT_NE(NULL, *d) TH_LOG("no fake_mlx5_* device");
	snprintf(self->name, sizeof(self->name), "%s", ibv_get_device_name(*d));
	self->ctx = ibv_open_device(*d);
	ibv_free_device_list(list);
	ASSERT_NE(NULL, self->ctx);
	ASSERT_EQ(0, fuv_dbg_dir(self->name, self->dbg, sizeof(self->dbg)));
	self->pd = ibv_alloc_pd(self->ctx);
	ASSERT_NE(NULL, self->pd);
	self->id = rdma_res_pd_id(self->name, getpid());
	ASSERT_LE(0, self->id);
	self->pds0 = fuv_dbg_counter(self->dbg, "pds");
	self->mkeys0 = fuv_dbg_counter(self->dbg, "mkeys");
	ASSERT_LE(0, self->pds0);
	/* the node of the ib_device's name, as mlx5_umr_hw makes it */
	self->u = mlx5umr_open(self->name);
	ASSERT_NE(NULL, self->u) TH_LOG("open /dev/mlx5_umr/%s: %s",
					self->name, strerror(errno));
}

FIXTURE_TEARDOWN(svc)
{
	if (self->u)
		mlx5umr_close(self->u);
	/* nothing holds the PD any more: its owner frees it */
	if (self->pd)
		EXPECT_EQ(0, ibv_dealloc_pd(self->pd));
	if (self->ctx)
		ibv_close_device(self->ctx);
	/*
	 * The user's PD and the file's objects (its own PD, if it had one,
	 * and its mkeys) are gone; the service's own objects are as before.
	 */
	EXPECT_EQ(self->pds0 - 1, fuv_dbg_counter(self->dbg, "pds"));
	EXPECT_EQ(self->mkeys0, fuv_dbg_counter(self->dbg, "mkeys"));
}

/*
 * The owner's PD accepted; the service learned its number from the fake
 * (an MR in the PD read back with QUERY_MKEY, drivers/umr/pd.c): the
 * file's registration and indirect mkey are in the PD libmlx5 was given,
 * the probe MR is gone, and the owner cannot free the PD while bound.
 */
TEST_F(svc, own_pd_keys_in_it)
{
	char *buf = aligned_alloc(4096, 8192);
	struct mlx5umr_mkey *mk;
	struct mlx5umr_mr *mr;
	struct fuv_mkey m;
	__u32 pdn = fuv_pdn(self->pd);

	ASSERT_NE(NULL, buf);
	ASSERT_NE(~0u, pdn);
	ASSERT_EQ(0, mlx5umr_set_pd_ibv(self->u, self->pd, (uint32_t)self->id));
	/* the probe MR was destroyed; the PD is held as by a live MR */
	EXPECT_EQ(self->mkeys0, fuv_dbg_counter(self->dbg, "mkeys"));
	EXPECT_EQ(EBUSY, ibv_dealloc_pd(self->pd));
	mr = mlx5umr_reg_mr(self->u, buf, 8192,
			    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			    IBV_ACCESS_REMOTE_READ);
	ASSERT_NE(NULL, mr) TH_LOG("reg_mr: %s", strerror(errno));
	mk = mlx5umr_create_mkey(self->u, 4, 0);
	ASSERT_NE(NULL, mk) TH_LOG("create_mkey: %s", strerror(errno));
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mr->lkey, 0, &m));
	EXPECT_EQ(pdn, m.pd);
	/* an MTT registration (mkc access_mode 1) */
	EXPECT_EQ(1, m.mode);
	ASSERT_EQ(1, fuv_dbg_mkey(self->dbg, mk->lkey, 0, &m));
	EXPECT_EQ(pdn, m.pd);
	/* an indirect mkey (mkc access_mode KLMS, 2) */
	EXPECT_EQ(2, m.mode);
	EXPECT_EQ(0, mlx5umr_destroy_mkey(mk));
	EXPECT_EQ(0, mlx5umr_dereg_mr(mr));
	EXPECT_EQ(self->mkeys0, fuv_dbg_counter(self->dbg, "mkeys"));
	free(buf);
}

/*
 * Not the owner's: another handle of the same file, an id no PD has, the
 * PD of another context of the same process with this context's file.
 * Each refused with the errno of uapi.rst, and nothing bound: the owner
 * frees its PD at teardown.
 */
TEST_F(svc, others_refused)
{
	struct ibv_context *ctx2;
	struct ibv_pd *pd2;
	long long id2;

	EXPECT_EQ(EACCES, mlx5umr_set_pd_verbs(self->u, self->ctx->cmd_fd,
					       self->pd->handle + 1,
					       (uint32_t)self->id));
	EXPECT_EQ(ENOENT, mlx5umr_set_pd_verbs(self->u, self->ctx->cmd_fd,
					       self->pd->handle,
					       (uint32_t)self->id + 1000));
	ctx2 = ibv_open_device(self->ctx->device);
	ASSERT_NE(NULL, ctx2);
	pd2 = ibv_alloc_pd(ctx2);
	ASSERT_NE(NULL, pd2);
	/* the newest PD of this process is pd2 */
	id2 = rdma_res_pd_id(self->name, getpid());
	ASSERT_LT(self->id, id2);
	EXPECT_EQ(EACCES, mlx5umr_set_pd_verbs(self->u, self->ctx->cmd_fd,
					       pd2->handle, (uint32_t)id2));
	EXPECT_EQ(0, ibv_dealloc_pd(pd2));
	EXPECT_EQ(0, ibv_close_device(ctx2));
	/* a refused call bound nothing: the owner's binding still works */
	EXPECT_EQ(0, mlx5umr_set_pd_ibv(self->u, self->pd, (uint32_t)self->id));
}

/*
 * The owner exits with its PD bound, its registration and mkey alive and
 * nothing closed: the kernel closes the files in descriptor order (the
 * verbs file first), and the service, which holds the verbs file, still
 * releases the PD before ib_uverbs destroys it. Nothing is left on the
 * fake (the PD, the mkeys) and the kernel log has no warning of ib_uverbs'
 * teardown (judged by vm-run.sh).
 */
TEST_F(svc, owner_exit_while_bound)
{
	long long pds, mkeys;
	pid_t pid;
	int st, i;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct ibv_context *ctx = ibv_open_device(self->ctx->device);
		struct mlx5umr_context *u = mlx5umr_open(self->name);
		char *buf = aligned_alloc(4096, 4096);
		struct ibv_pd *pd;
		long long id;

		if (!ctx || !u || !buf)
			_exit(1);
		pd = ibv_alloc_pd(ctx);
		id = rdma_res_pd_id(self->name, getpid());
		if (!pd || id < 0 || mlx5umr_set_pd_ibv(u, pd, (uint32_t)id))
			_exit(2);
		if (!mlx5umr_reg_mr(u, buf, 4096, IBV_ACCESS_LOCAL_WRITE) ||
		    !mlx5umr_create_mkey(u, 4, 0))
			_exit(3);
		/* the child's PD and the file's two keys */
		if (fuv_dbg_counter(self->dbg, "mkeys") != self->mkeys0 + 2)
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_EQ(0, WEXITSTATUS(st));
	for (i = 0; i < 20; i++) {
		pds = fuv_dbg_counter(self->dbg, "pds");
		mkeys = fuv_dbg_counter(self->dbg, "mkeys");
		if (pds == self->pds0 && mkeys == self->mkeys0)
			break;
		usleep(100000);
	}
	EXPECT_EQ(self->pds0, pds);
	EXPECT_EQ(self->mkeys0, mkeys);
}

TEST_HARNESS_MAIN
