// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MLX5_UMR_IOCTL_SET_PD with MLX5_UMR_IOC_SET_PD_VERBS: real verbs PDs.
 *
 * Run by pd_verbs.sh in the test VM, which makes a soft-RoCE (rdma_rxe)
 * device for it; the uapi device is a fake HCA. The test bed has no
 * user-verbs PD of an mlx5 device, so what runs here is every refusal
 * that comes before the PD lookup on the service's device: a uverbs file
 * that is not a command file, the command file of another device (rxe),
 * as the PD's owner and as another user. The lookup itself (a PD of this
 * device: the owner's accepted, another file's, another handle's, a
 * kernel PD refused; the owner's dealloc and exit while bound; removal)
 * needs an mlx5 device (Documentation/uapi.rst, "Keys in the caller's PD").
 * Each refusal leaves the PD free: its owner deallocates it afterwards.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/wait.h>
#include <infiniband/verbs.h>

#include "kselftest_harness.h"
#include "umr_util.h"
#include "unpriv_users.h"

/* The resource-tracking id of @pid's PD on @ibdev ("rdma res show pd"). */
static long long pd_res_id(const char *ibdev, pid_t pid)
{
	char cmd[256], buf[8192], *p;
	long long id = -1;
	size_t n;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "rdma -j res show pd dev %s", ibdev);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	pclose(f);
	buf[n] = 0;
	/* one object per PD: {"ifindex":..,"pdn":N,...,"pid":P,...} */
	for (p = strchr(buf, '{'); p; p = strchr(p + 1, '{')) {
		char *end = strchr(p, '}'), *q;
		long long pdn = -1, who = -1;

		if (!end)
			break;
		*end = 0;
		q = strstr(p, "\"pdn\":");
		if (q)
			pdn = atoll(q + 6);
		q = strstr(p, "\"pid\":");
		if (q)
			who = atoll(q + 6);
		*end = '}';
		if (who == pid && pdn >= 0)
			id = pdn;
	}
	return id;
}

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
	v->id = pd_res_id(v->name, getpid());
	return v->id < 0 ? -ENOENT : 0;
}

FIXTURE(verbs) {
	int fd;
	struct verbs v;
};

FIXTURE_SETUP(verbs)
{
	char path[256];

	memset(&self->v, 0, sizeof(self->v));
	ASSERT_EQ(0, umr_find_dev(path, sizeof(path)));
	self->fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	if (verbs_open(&self->v) == -ENODEV)
		SKIP(return, "no verbs device (pd_verbs.sh makes an rxe one)");
	ASSERT_NE(NULL, self->v.pd);
	ASSERT_LE(0, self->v.id);
	TH_LOG("%s: PD handle %u, id %lld", self->v.name, self->v.pd->handle,
	       self->v.id);
}

FIXTURE_TEARDOWN(verbs)
{
	close(self->fd);
	/* no refusal held the PD: its owner frees it */
	if (self->v.pd)
		EXPECT_EQ(0, ibv_dealloc_pd(self->v.pd));
	if (self->v.ctx)
		EXPECT_EQ(0, ibv_close_device(self->v.ctx));
}

/* The owner's own PD, but of a device that is not the service's. */
TEST_F(verbs, other_device)
{
	EXPECT_EQ(-EXDEV, set_pd_verbs(self->fd, self->v.ctx->cmd_fd,
				       self->v.pd->handle, self->v.id));
	/* a stale handle, a wrong id: the device is refused first */
	EXPECT_EQ(-EXDEV, set_pd_verbs(self->fd, self->v.ctx->cmd_fd,
				       self->v.pd->handle + 1, self->v.id));
	EXPECT_EQ(-EXDEV, set_pd_verbs(self->fd, self->v.ctx->cmd_fd,
				       self->v.pd->handle, self->v.id + 100));
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
		/* not mlx5: the device check refuses before the PD's owner */
		ret = set_pd_verbs(self->fd, b.ctx->cmd_fd, handle, id);
		if (ret != -EXDEV) {
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
		if (ibv_dealloc_pd(b.pd) || ibv_close_device(b.ctx))
			_exit(15);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
