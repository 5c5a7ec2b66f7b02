// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MLX5_UMR_IOCTL_SET_PD with MLX5_UMR_IOC_SET_PD_VERBS: real verbs PDs.
 *
 * Run by pd_verbs.sh in the test VM, which makes a soft-RoCE (rdma_rxe)
 * device and loads the fake HCA with user_pd_ibdev naming it: the fake
 * then takes that device's user verbs PDs with the hardware backend's own
 * ownership code (drivers/hw/user_pd.c) and maps each to a PD of its own
 * (drivers/fake/fake_user_pd.c). Everything but the mlx5 part runs here:
 * the owner's PD accepted and its keys in the PD the fake mapped it to,
 * another file's, another handle's, a stale id's and a kernel PD refused,
 * the owner's dealloc while bound (EBUSY) and after, its exit while bound,
 * the device's removal while bound. The kernel log of the run is judged
 * (warnings of ib_uverbs' teardown, leaks at the fake's unload).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/wait.h>
#include <infiniband/verbs.h>

#include "kselftest_harness.h"
#include "rdma_res_pd.h"
#include "umr_util.h"
#include "unpriv_users.h"

static int set_pd_verbs(int fd, int cmd_fd, __u32 handle, __u32 id)
{
	struct mlx5_umr_ioc_set_pd cmd = {
		.size = sizeof(cmd),
		.flags = MLX5_UMR_IOC_SET_PD_VERBS,
		.cmd_fd = cmd_fd,
		.pd_handle = handle,
		.pd_id = id,
	};

	return umr_ioctl(fd, MLX5_UMR_IOCTL_SET_PD, &cmd);
}

/* The first verbs device, its context and a PD with its id. */
struct verbs {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	long long id;
	char name[64];
};

static int verbs_open(struct verbs *v)
{
	struct ibv_device **list = ibv_get_device_list(NULL);

	if (!list || !list[0]) {
		if (list)
			ibv_free_device_list(list);
		return -ENODEV;
	}
	snprintf(v->name, sizeof(v->name), "%s", ibv_get_device_name(list[0]));
	v->ctx = ibv_open_device(list[0]);
	ibv_free_device_list(list);
	if (!v->ctx)
		return -errno;
	v->pd = ibv_alloc_pd(v->ctx);
	if (!v->pd)
		return -errno;
	v->id = rdma_res_pd_id(v->name, getpid());
	return v->id < 0 ? -ENOENT : 0;
}

static void verbs_close(struct verbs *v)
{
	if (v->pd)
		ibv_dealloc_pd(v->pd);
	if (v->ctx)
		ibv_close_device(v->ctx);
	v->pd = NULL;
	v->ctx = NULL;
}

FIXTURE(verbs) {
	int fd;
	char path[256];
	struct verbs v;
	long long pds0, mkeys0;
};

FIXTURE_SETUP(verbs)
{
	memset(&self->v, 0, sizeof(self->v));
	ASSERT_EQ(0, umr_find_dev(self->path, sizeof(self->path)));
	self->fd = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	if (verbs_open(&self->v) == -ENODEV)
		SKIP(return, "no verbs device (pd_verbs.sh makes an rxe one)");
	ASSERT_NE(NULL, self->v.pd);
	ASSERT_LE(0, self->v.id);
	self->pds0 = umr_fake_counter(self->path, "pds");
	self->mkeys0 = umr_fake_counter(self->path, "mkeys");
	ASSERT_LE(0, self->pds0);
	TH_LOG("%s: PD handle %u, id %lld", self->v.name, self->v.pd->handle,
	       self->v.id);
}

FIXTURE_TEARDOWN(verbs)
{
	close(self->fd);
	/* nothing holds the PD any more: its owner frees it */
	if (self->v.pd)
		EXPECT_EQ(0, ibv_dealloc_pd(self->v.pd));
	if (self->v.ctx)
		EXPECT_EQ(0, ibv_close_device(self->v.ctx));
	/* every PD the fake mapped a verbs PD to was freed with its binding */
	EXPECT_EQ(self->pds0, umr_fake_counter(self->path, "pds"));
	EXPECT_EQ(self->mkeys0, umr_fake_counter(self->path, "mkeys"));
}

/*
 * The owner's PD: accepted; the file's keys are in the fake's PD that
 * stands for it (the fake's mkey table), shared by every file bound to
 * the same verbs PD; its owner cannot free it while a file holds it.
 */
TEST_F(verbs, own_pd_accepted)
{
	__u32 mk, mkey, mk2, mkey2;
	long long pdn;
	int fd2;

	ASSERT_EQ(0, set_pd_verbs(self->fd, self->v.ctx->cmd_fd,
				  self->v.pd->handle, self->v.id));
	/* mapped when bound: one PD more, no own PD of the file */
	EXPECT_EQ(self->pds0 + 1, umr_fake_counter(self->path, "pds"));
	ASSERT_EQ(0, umr_alloc(self->fd, 2, &mk, &mkey));
	pdn = umr_fake_mkey_pd(self->path, mkey);
	ASSERT_LT(0, pdn);
	EXPECT_EQ(self->pds0 + 1, umr_fake_counter(self->path, "pds"));

	/* another file of the owner, bound to the same verbs PD */
	fd2 = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, set_pd_verbs(fd2, self->v.ctx->cmd_fd,
				  self->v.pd->handle, self->v.id));
	ASSERT_EQ(0, umr_alloc(fd2, 1, &mk2, &mkey2));
	EXPECT_EQ(pdn, umr_fake_mkey_pd(self->path, mkey2));
	EXPECT_EQ(self->pds0 + 1, umr_fake_counter(self->path, "pds"));

	/* held as by a live MR in it (uverbs_free_pd()) */
	EXPECT_EQ(EBUSY, ibv_dealloc_pd(self->v.pd));
	close(fd2);
	EXPECT_EQ(-1, umr_fake_mkey_pd(self->path, mkey2));
	EXPECT_EQ(EBUSY, ibv_dealloc_pd(self->v.pd));
	EXPECT_EQ(pdn, umr_fake_mkey_pd(self->path, mkey));
	/* the last binding released: the fake's PD and the hold go */
	close(self->fd);
	self->fd = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(self->pds0, umr_fake_counter(self->path, "pds"));
	EXPECT_EQ(0, ibv_dealloc_pd(self->v.pd));
	self->v.pd = NULL;
}

/*
 * A signature mkey in the caller's verified PD: accepted (its QPs' CQs
 * are the user library's, never mlx5_ib's kernel poller: signature.rst,
 * "The mlx5_ib hazard"), homed on a PD queue in that PD whose tables are
 * inline only (no PA mkey where the user's QPs are: ENOSPC for a larger
 * table, nothing created), and it inserts T10-DIF there.
 */
TEST_F(verbs, signature_mkey_in_own_pd)
{
	struct mlx5_umr_ioc_alloc_mkey am = {
		.size = sizeof(am),
		.flags = MLX5_UMR_IOC_MKEY_SIGNATURE,
		.max_entries = 2,
	};
	struct mlx5_umr_ioc_configure cf = {
		.size = sizeof(cf),
		.flags = MLX5_UMR_IOC_SIG_SET,
		.access = MLX5_UMR_IOC_ACCESS_LOCAL_WRITE |
			  MLX5_UMR_IOC_ACCESS_REMOTE_READ,
		.layout = MLX5_UMR_IOC_LAYOUT_LIST,
		.num_entries = 1,
		.sig = {
			.wire = {
				.sig_type = MLX5_UMR_IOC_SIG_TYPE_T10DIF,
				.block_size = MLX5_UMR_IOC_SIG_BLOCK_512,
				.bg_type = MLX5_UMR_IOC_SIG_T10DIF_CRC,
				.app_tag = 0x5678,
				.ref_tag = 0x42,
			},
			.check_mask = 0xff,
		},
	};
	struct mlx5_umr_ioc_info info;
	unsigned int qpn[64], pd[64], i, inpd = 0;
	unsigned long long wqes[64];
	struct mlx5_umr_ioc_sge sge;
	__u8 *buf, wire[520];
	__u32 mr, key, pk, pkey;
	long long pdn, mkeys;
	int n;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	if (!(info.out_flags & MLX5_UMR_IOC_INFO_SIG))
		SKIP(return, "no signature offload");
	ASSERT_EQ(0, set_pd_verbs(self->fd, self->v.ctx->cmd_fd,
				  self->v.pd->handle, self->v.id));
	ASSERT_EQ(0, umr_alloc(self->fd, 1, &pk, &pkey));
	pdn = umr_fake_mkey_pd(self->path, pkey);
	ASSERT_LT(0, pdn);

	/* a table that would need a pointer: refused, nothing created */
	am.max_entries = info.out_max_entries;
	mkeys = umr_fake_counter(self->path, "mkeys");
	EXPECT_EQ(-ENOSPC, umr_ioctl(self->fd, MLX5_UMR_IOCTL_ALLOC_MKEY,
				     &am));
	EXPECT_EQ(mkeys, umr_fake_counter(self->path, "mkeys"));

	am.max_entries = 2;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_ALLOC_MKEY, &am));
	EXPECT_EQ(pdn, umr_fake_mkey_pd(self->path, am.out_key));
	/* the mkey alone: its PD queue made no PA mkey */
	EXPECT_EQ(mkeys + 1, umr_fake_counter(self->path, "mkeys"));
	/* its PD queue's QP is in the caller's PD */
	n = umr_fake_qps(self->path, qpn, wqes, pd, 64);
	ASSERT_LT(0, n);
	for (i = 0; i < (unsigned int)n; i++)
		inpd += pd[i] == pdn;
	EXPECT_EQ(1, inpd);

	buf = umr_map(4096, 0);
	ASSERT_NE(NULL, buf);
	for (i = 0; i < 512; i++)
		buf[i] = (__u8)(i * 13 + 1);
	ASSERT_EQ(0, umr_reg(self->fd, buf, 4096, UMR_ACCESS_ALL3, &mr, &key));
	sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)buf, 512, key };
	cf.handle = am.out_handle;
	cf.entries = (uintptr_t)&sge;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cf));
	/* a READ of the block: its data and the T10-DIF the wire gets */
	memset(wire, 0, sizeof(wire));
	ASSERT_EQ(0, umr_xfer(self->fd, am.out_key, 0, wire, sizeof(wire), 0));
	EXPECT_EQ(0, memcmp(wire, buf, 512));
	EXPECT_EQ(crc16_t10dif(buf, 512), wire[512] << 8 | wire[513]);
	EXPECT_EQ(0x5678, wire[514] << 8 | wire[515]);
	EXPECT_EQ(0x42, (__u32)wire[516] << 24 | wire[517] << 16 |
			wire[518] << 8 | wire[519]);
	/* closing frees the queue, its QP and the PSVs before the PD */
	close(self->fd);
	self->fd = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(self->pds0, umr_fake_counter(self->path, "pds"));
	munmap(buf, 4096);
}

/*
 * PDs that are not the caller's under the handle it gave: refused before
 * anything is held or mapped (the owner frees its PD afterwards).
 */
TEST_F(verbs, others_refused)
{
	struct verbs b = { 0 };
	long long kern;

	/* a second command file of the same process, with its own PD */
	ASSERT_EQ(0, verbs_open(&b));
	/* b's file naming the first file's PD, and the reverse */
	EXPECT_EQ(-EACCES, set_pd_verbs(self->fd, b.ctx->cmd_fd,
					self->v.pd->handle, self->v.id));
	EXPECT_EQ(-EACCES, set_pd_verbs(self->fd, self->v.ctx->cmd_fd,
					b.pd->handle, b.id));
	/* the right file and id with another handle */
	EXPECT_EQ(-EACCES, set_pd_verbs(self->fd, self->v.ctx->cmd_fd,
					self->v.pd->handle + 1, self->v.id));
	/* an id no PD has */
	EXPECT_EQ(-ENOENT, set_pd_verbs(self->fd, self->v.ctx->cmd_fd,
					self->v.pd->handle, self->v.id + 1000));
	/* a kernel PD (ib_core's MAD PD of the device) */
	kern = rdma_res_pd_id(self->v.name, -1);
	ASSERT_LE(0, kern);
	EXPECT_EQ(-EACCES, set_pd_verbs(self->fd, self->v.ctx->cmd_fd,
					self->v.pd->handle, kern));
	EXPECT_EQ(-EACCES, set_pd_verbs(self->fd, self->v.ctx->cmd_fd, 0,
					kern));
	EXPECT_EQ(self->pds0, umr_fake_counter(self->path, "pds"));
	/* nothing held: b frees its PD */
	EXPECT_EQ(0, ibv_dealloc_pd(b.pd));
	b.pd = NULL;
	verbs_close(&b);
	/* the file is still unbound: its first object is in its own PD */
	ASSERT_EQ(0, set_pd_verbs(self->fd, self->v.ctx->cmd_fd,
				  self->v.pd->handle, self->v.id));
	close(self->fd);
	self->fd = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
}

/* ib_uverbs' other files: the async event file is no command file. */
TEST_F(verbs, async_fd_refused)
{
	EXPECT_EQ(-EINVAL, set_pd_verbs(self->fd, self->v.ctx->async_fd,
					self->v.pd->handle, self->v.id));
}

/*
 * Two users, each with a verbs PD: user B (umr2) names user A's PD (A's
 * handle and id) with its own command file, and with A's bare number, in
 * a file of the service A opened for him. Neither is bound.
 */
TEST_F(verbs, cross_uid)
{
	__u32 handle = self->v.pd->handle, id = self->v.id;
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct verbs b = { 0 };
		char err[128];
		int ret;

		if (umr_become(&umr_user2, UMR_USER_MEMLOCK, err, sizeof(err))) {
			fprintf(stderr, "# %s\n", err);
			_exit(10);
		}
		ret = verbs_open(&b);
		if (ret) {
			fprintf(stderr, "# user B's verbs PD: %d\n", ret);
			_exit(11);
		}
		if (b.id == id)
			_exit(12);
		/* A's PD is not of B's file */
		ret = set_pd_verbs(self->fd, b.ctx->cmd_fd, handle, id);
		if (ret != -EACCES) {
			fprintf(stderr, "# B with A's PD: %d\n", ret);
			_exit(13);
		}
		/* the bare number form, off by default */
		{
			struct mlx5_umr_ioc_set_pd cmd = {
				.size = sizeof(cmd), .pdn = 1,
			};

			ret = umr_ioctl(self->fd, MLX5_UMR_IOCTL_SET_PD, &cmd);
		}
		if (ret != -EPERM) {
			fprintf(stderr, "# B with a bare number: %d\n", ret);
			_exit(14);
		}
		/* B's own PD, in A's file of the service: B's to bind */
		ret = set_pd_verbs(self->fd, b.ctx->cmd_fd, b.pd->handle, b.id);
		if (ret) {
			fprintf(stderr, "# B with B's PD: %d\n", ret);
			_exit(15);
		}
		if (ibv_dealloc_pd(b.pd) != EBUSY)
			_exit(16);
		/* B exits with its PD bound in A's file */
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* B's command file lives on in A's file: its PD too, until A closes */
	EXPECT_EQ(self->pds0 + 1, umr_fake_counter(self->path, "pds"));
}

/*
 * The owner exits while bound, with a key in the PD: its process's files
 * go in whatever order; the binding keeps the command file until the
 * service's file released the PD, whose own teardown then frees it.
 */
TEST_F(verbs, owner_exit_while_bound)
{
	int status, i;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct verbs c = { 0 };
		__u32 mk, mkey;
		int fd;

		if (verbs_open(&c))
			_exit(10);
		fd = open(self->path, O_RDWR | O_CLOEXEC);
		if (fd < 0 || set_pd_verbs(fd, c.ctx->cmd_fd, c.pd->handle,
					   c.id))
			_exit(11);
		if (umr_alloc(fd, 4, &mk, &mkey) ||
		    umr_fake_mkey_pd(self->path, mkey) <= 0)
			_exit(12);
		/* the command file first: the binding still holds it */
		close(c.ctx->cmd_fd);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	/* the verbs file's release may run in a work item after exit */
	for (i = 0; i < 50 && rdma_res_pd_id(self->v.name, pid) >= 0; i++)
		usleep(100000);
	EXPECT_GT(0, rdma_res_pd_id(self->v.name, pid));
	EXPECT_EQ(self->pds0, umr_fake_counter(self->path, "pds"));
	EXPECT_EQ(self->mkeys0, umr_fake_counter(self->path, "mkeys"));
}

/*
 * The device is removed while bound (last: it ends the fake's
 * registration). ib_uverbs of rxe waits for its files to be closed
 * (no disassociate_ucontext); the fake's client, removed before it,
 * unregisters the fake, releasing the binding first.
 */
TEST_F(verbs, removal_while_bound)
{
	struct mlx5_umr_ioc_info info;
	__u32 mk, mkey;
	int status, i, ret = 0;
	pid_t pid;

	ASSERT_EQ(0, set_pd_verbs(self->fd, self->v.ctx->cmd_fd,
				  self->v.pd->handle, self->v.id));
	ASSERT_EQ(0, umr_alloc(self->fd, 2, &mk, &mkey));
	EXPECT_EQ(EBUSY, ibv_dealloc_pd(self->v.pd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* exec: no copy of the owner's verbs files (O_CLOEXEC) stays */
		execlp("rdma", "rdma", "link", "delete", self->v.name,
		       (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 100; i++) {
		ret = umr_info(self->fd, &info);
		if (ret == -ENODEV)
			break;
		usleep(100000);
	}
	EXPECT_EQ(-ENODEV, ret);
	/* the binding is gone: the owner frees its PD, closes its file */
	EXPECT_EQ(0, ibv_dealloc_pd(self->v.pd));
	self->v.pd = NULL;
	EXPECT_EQ(0, ibv_close_device(self->v.ctx));
	self->v.ctx = NULL;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* the service left the fake: nothing of it, nor of the binding, remains */
	self->pds0 = 0;
	self->mkeys0 = 0;
}

TEST_HARNESS_MAIN
