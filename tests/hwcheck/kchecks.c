// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5_umr_hwcheck.ko: make hwcheck's in-kernel path. A kernel ULP's view
 * of the service on a real ConnectX: an ib_pd of its own, the service's
 * device and PD for it (mlx5_umr_dev_get_ib(), mlx5_umr_pd_get_ib()), an
 * mkey in that PD (mlx5_umr_alloc_mkey_in()) configured with a list
 * layout, and ib_post_send() RDMA WRITE through its key on a loopback RC
 * QP pair of the same ib_pd; the bytes are checked where the layout puts
 * them. A rotated key's old value and an invalidated key must fail with
 * IB_WC_REM_ACCESS_ERR and change nothing.
 *
 * mode=plain runs the same checks with FRWR MRs (ib_alloc_mr(),
 * IB_WR_REG_MR, ib_update_fast_reg_key(), IB_WR_LOCAL_INV) in place of the
 * service's keys, one per buffer, so that the kernel-verbs harness is
 * proven on soft-RoCE without a NIC.
 *
 * Loaded with ibdev=NAME [mode=umr|plain] [port=N]; the checks run at load,
 * print KTAP lines to the kernel log and leave "N passed, N failed, N
 * skipped" in the summary parameter. Not part of any build but make
 * hwcheck's (and the VM test's).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/mlx5_umr.h>
#include <linux/scatterlist.h>
#include "kverbs.h"

#define HCK_GUARD	0xa5
#define HCK_A_LEN	64
#define HCK_B_LEN	4096
#define HCK_LEN		(HCK_A_LEN + HCK_B_LEN)
#define HCK_BUF		(2 * PAGE_SIZE)

static char *ibdev;
module_param(ibdev, charp, 0444);
MODULE_PARM_DESC(ibdev, "RDMA device to check (mlx5_0, or an rxe device with mode=plain)");
static char *mode = "umr";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "umr: the service's keys; plain: FRWR MRs");
static uint port = 1;
module_param(port, uint, 0444);
MODULE_PARM_DESC(port, "port of the loopback QP pair");
static char summary[64] = "not run";
module_param_string(summary, summary, sizeof(summary), 0444);
MODULE_PARM_DESC(summary, "N passed, N failed, N skipped");

/* One buffer: CPU address and its DMA mapping on the device. */
struct hck_buf {
	u8 *cpu;
	u64 dma;
};

/* A key to buffers A and B: one mkey, or one FRWR MR per buffer. */
struct hck_key {
	struct mlx5_umr_mkey *mkey;
	u32 key;
	struct ib_mr *mr[2];
	bool registered;
};

static struct {
	bool plain;
	struct hck_pair p;
	bool pair_ok;
	struct mlx5_umr_dev *udev;
	struct mlx5_umr_pd *upd;
	struct hck_buf src, dst[2];
	unsigned int n, passed, failed, skipped;
} hc;

static void hck_result(int res, const char *name, const char *why)
{
	hc.n++;
	if (res > 0) {
		hc.skipped++;
		pr_info("ok %u - %s # SKIP %s\n", hc.n, name, why);
	} else if (res < 0) {
		hc.failed++;
		pr_info("not ok %u - %s: %s\n", hc.n, name, why);
	} else {
		hc.passed++;
		pr_info("ok %u - %s\n", hc.n, name);
	}
}

static int hck_buf_alloc(struct hck_buf *b)
{
	b->cpu = (u8 *)__get_free_pages(GFP_KERNEL, get_order(HCK_BUF));
	if (!b->cpu)
		return -ENOMEM;
	b->dma = ib_dma_map_single(hc.p.dev, b->cpu, HCK_BUF,
				   DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(hc.p.dev, b->dma)) {
		free_pages((unsigned long)b->cpu, get_order(HCK_BUF));
		b->cpu = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void hck_buf_free(struct hck_buf *b)
{
	if (!b->cpu)
		return;
	ib_dma_unmap_single(hc.p.dev, b->dma, HCK_BUF, DMA_BIDIRECTIONAL);
	free_pages((unsigned long)b->cpu, get_order(HCK_BUF));
	b->cpu = NULL;
}

static void hck_sync(struct hck_buf *b, bool for_cpu)
{
	if (for_cpu)
		ib_dma_sync_single_for_cpu(hc.p.dev, b->dma, HCK_BUF,
					   DMA_BIDIRECTIONAL);
	else
		ib_dma_sync_single_for_device(hc.p.dev, b->dma, HCK_BUF,
					      DMA_BIDIRECTIONAL);
}

static void hck_prepare(u8 seed)
{
	unsigned int i;

	for (i = 0; i < HCK_LEN; i++)
		hc.src.cpu[i] = (u8)(i * 131 + (i >> 8) * 7 + seed);
	memset(hc.dst[0].cpu, HCK_GUARD, HCK_BUF);
	memset(hc.dst[1].cpu, HCK_GUARD, HCK_BUF);
	hck_sync(&hc.src, false);
	hck_sync(&hc.dst[0], false);
	hck_sync(&hc.dst[1], false);
}

static bool hck_guarded(const u8 *p, size_t len)
{
	return !memchr_inv(p, HCK_GUARD, len);
}

/* A's first 64 bytes and B's first 4096 hold the source, the rest guard. */
static const char *hck_placed(void)
{
	const u8 *a = hc.dst[0].cpu, *b = hc.dst[1].cpu;

	hck_sync(&hc.dst[0], true);
	hck_sync(&hc.dst[1], true);
	if (memcmp(a, hc.src.cpu, HCK_A_LEN))
		return "bytes 0-63 are not at buffer A";
	if (!hck_guarded(a + HCK_A_LEN, HCK_BUF - HCK_A_LEN))
		return "buffer A written past byte 63";
	if (memcmp(b, hc.src.cpu + HCK_A_LEN, HCK_B_LEN))
		return "bytes 64-4159 are not at buffer B";
	if (!hck_guarded(b + HCK_B_LEN, HCK_BUF - HCK_B_LEN))
		return "buffer B written past byte 4095";
	return NULL;
}

static const char *hck_untouched(void)
{
	hck_sync(&hc.dst[0], true);
	hck_sync(&hc.dst[1], true);
	if (!hck_guarded(hc.dst[0].cpu, HCK_BUF) ||
	    !hck_guarded(hc.dst[1].cpu, HCK_BUF))
		return "a failed access changed memory";
	return NULL;
}

/* ---- keys ------------------------------------------------------------- */

/* FRWR: register @len bytes of @b under a fresh key byte, on qp[1]. */
static int hck_frwr_reg(struct ib_mr *mr, struct hck_buf *b, u32 len)
{
	struct scatterlist sg;
	struct ib_reg_wr wr = {
		.wr = {
			.opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED,
		},
		.mr = mr,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			  IB_ACCESS_REMOTE_READ,
	};
	struct ib_wc wc;
	int n, err;

	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = b->dma;
	sg_dma_len(&sg) = len;
	n = ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE);
	if (n != 1)
		return n < 0 ? n : -EINVAL;
	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey));
	wr.key = mr->rkey;
	err = hck_post_wait(&hc.p, hc.p.qp[1], &wr.wr, &wc);
	if (!err && wc.status != IB_WC_SUCCESS)
		err = -EIO;
	return err;
}

static int hck_frwr_inv(struct ib_mr *mr)
{
	struct ib_send_wr wr = {
		.opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = mr->rkey,
	};
	struct ib_wc wc;
	int err;

	err = hck_post_wait(&hc.p, hc.p.qp[1], &wr, &wc);
	if (!err && wc.status != IB_WC_SUCCESS)
		err = -EIO;
	return err;
}

/* The list layout (A: 64 bytes, B: 4096), with a new key byte. */
static int hck_key_configure(struct hck_key *k)
{
	struct mlx5_umr_sge sge[2] = {
		{ hc.dst[0].dma, HCK_A_LEN, 0 },
		{ hc.dst[1].dma, HCK_B_LEN, 0 },
	};
	struct mlx5_umr_wr wr = {
		.mkey = k->mkey,
		.op = MLX5_UMR_OP_CONFIGURE,
		.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_NEW_KEY,
		.access = MLX5_UMR_ACCESS_LOCAL_WRITE |
			  MLX5_UMR_ACCESS_REMOTE_WRITE |
			  MLX5_UMR_ACCESS_REMOTE_READ,
		.layout = MLX5_UMR_LAYOUT_LIST,
		.list = { .sge = sge, .num_sge = 2 },
	};
	int err;

	if (hc.plain) {
		/* as a ULP does: invalidate before registering again */
		if (k->registered) {
			err = hck_frwr_inv(k->mr[0]);
			if (!err)
				err = hck_frwr_inv(k->mr[1]);
			if (err)
				return err;
		}
		err = hck_frwr_reg(k->mr[0], &hc.dst[0], HCK_A_LEN);
		if (!err)
			err = hck_frwr_reg(k->mr[1], &hc.dst[1], HCK_B_LEN);
		k->registered = !err;
		return err;
	}
	/* the PD's DMA key addresses the buffers' DMA addresses */
	sge[0].key = hc.upd->dma_lkey;
	sge[1].key = hc.upd->dma_lkey;
	err = mlx5_umr_exec(hc.udev, &wr, 0);
	if (err) {
		pr_info("# configure: %d, CQE syndrome 0x%x\n", err,
			wr.syndrome);
		return err;
	}
	k->key = wr.new_key;
	return 0;
}

static int hck_key_invalidate(struct hck_key *k)
{
	struct mlx5_umr_wr wr = {
		.mkey = k->mkey,
		.op = MLX5_UMR_OP_INVALIDATE,
	};
	int err;

	if (hc.plain)
		return hck_frwr_inv(k->mr[1]);
	err = mlx5_umr_exec(hc.udev, &wr, 0);
	if (err)
		pr_info("# invalidate: %d, CQE syndrome 0x%x\n", err,
			wr.syndrome);
	return err;
}

static int hck_key_create(struct hck_key *k)
{
	int i;

	memset(k, 0, sizeof(*k));
	if (!hc.plain) {
		k->mkey = mlx5_umr_alloc_mkey_in(hc.upd, 2, 0);
		return PTR_ERR_OR_ZERO(k->mkey);
	}
	for (i = 0; i < 2; i++) {
		k->mr[i] = ib_alloc_mr(hc.p.pd, IB_MR_TYPE_MEM_REG, 1);
		if (IS_ERR(k->mr[i])) {
			int err = PTR_ERR(k->mr[i]);

			k->mr[i] = NULL;
			return err;
		}
	}
	return 0;
}

static void hck_key_destroy(struct hck_key *k)
{
	int i;

	if (!IS_ERR_OR_NULL(k->mkey))
		mlx5_umr_free_mkey(k->mkey);
	for (i = 0; i < 2; i++)
		if (k->mr[i])
			ib_dereg_mr(k->mr[i]);
}

/* WRITE the 4160 bytes through the key: one WRITE, or one per MR. */
static int hck_key_write(const struct hck_key *k, u32 old_key,
			 struct ib_wc *wc)
{
	int err;

	if (!hc.plain)
		return hck_write(&hc.p, hc.src.dma, HCK_LEN, 0,
				 old_key ? old_key : k->key, wc);
	if (!old_key) {
		err = hck_write(&hc.p, hc.src.dma, HCK_A_LEN, k->mr[0]->iova,
				k->mr[0]->rkey, wc);
		if (err || wc->status != IB_WC_SUCCESS)
			return err;
	}
	return hck_write(&hc.p, hc.src.dma + HCK_A_LEN, HCK_B_LEN,
			 k->mr[1]->iova, old_key ? old_key : k->mr[1]->rkey,
			 wc);
}

/* ---- checks ----------------------------------------------------------- */

static void hck_check_write(struct hck_key *k, char *why, size_t len)
{
	const char *bad;
	struct ib_wc wc;
	int err;

	hck_prepare(0x11);
	err = hck_key_write(k, 0, &wc);
	if (err)
		snprintf(why, len, "ib_post_send/poll: %d", err);
	else if (wc.status != IB_WC_SUCCESS)
		snprintf(why, len, "%s (status %d, vendor_err 0x%x)",
			 ib_wc_status_msg(wc.status), wc.status,
			 wc.vendor_err);
	if (err || wc.status != IB_WC_SUCCESS)
		return;
	bad = hck_placed();
	if (bad)
		snprintf(why, len, "%s", bad);
}

/* An access that must fail with a remote access error and change nothing. */
static void hck_check_refused(const struct hck_key *k, u32 key, char *why,
			      size_t len)
{
	const char *bad;
	struct ib_wc wc;
	int err;

	hck_prepare(0x22);
	err = hck_key_write(k, key, &wc);
	if (err)
		snprintf(why, len, "ib_post_send/poll: %d", err);
	else if (wc.status != IB_WC_REM_ACCESS_ERR)
		snprintf(why, len, "%s (status %d, vendor_err 0x%x), want %s",
			 ib_wc_status_msg(wc.status), wc.status,
			 wc.vendor_err, ib_wc_status_msg(IB_WC_REM_ACCESS_ERR));
	if (!why[0]) {
		bad = hck_untouched();
		if (bad)
			snprintf(why, len, "%s", bad);
		else
			pr_info("# refused: %s, vendor_err 0x%x\n",
				ib_wc_status_msg(wc.status), wc.vendor_err);
	}
	err = hck_pair_recover(&hc.p);
	if (err) {
		hc.pair_ok = false;
		if (!why[0])
			snprintf(why, len, "QP pair recovery: %d", err);
	}
}

static void hck_run_keys(void)
{
	static const char * const names[] = {
		"RDMA WRITE through a configured list layout (64 bytes to A, 4096 to B)",
		"RDMA WRITE through the new key after rotation",
		"RDMA WRITE through the old key after rotation fails",
		"RDMA WRITE through an invalidated key fails",
	};
	char why[160] = "";
	struct hck_key k;
	u32 old;
	int err, i = 0;

	err = hck_key_create(&k);
	if (err) {
		snprintf(why, sizeof(why), "%s: %d",
			 hc.plain ? "ib_alloc_mr" : "mlx5_umr_alloc_mkey_in",
			 err);
		goto fail;
	}
	err = hck_key_configure(&k);
	if (err) {
		snprintf(why, sizeof(why), "configure: %d", err);
		goto fail;
	}
	hck_check_write(&k, why, sizeof(why));
	hck_result(why[0] ? -1 : 0, names[i++], why);
	if (why[0])
		goto skip;

	old = hc.plain ? k.mr[1]->rkey : k.key;
	err = hck_key_configure(&k);
	if (err)
		snprintf(why, sizeof(why), "configure with a new key: %d", err);
	else if ((hc.plain ? k.mr[1]->rkey : k.key) == old)
		snprintf(why, sizeof(why), "the key did not change (0x%x)", old);
	else
		hck_check_write(&k, why, sizeof(why));
	hck_result(why[0] ? -1 : 0, names[i++], why);
	if (why[0])
		goto skip;
	hck_check_refused(&k, old, why, sizeof(why));
	hck_result(why[0] ? -1 : 0, names[i++], why);
	if (!hc.pair_ok)
		goto skip;

	err = hck_key_invalidate(&k);
	if (err)
		snprintf(why, sizeof(why), "invalidate: %d", err);
	else
		hck_check_refused(&k, hc.plain ? k.mr[1]->rkey : k.key, why,
				  sizeof(why));
	hck_result(why[0] ? -1 : 0, names[i++], why);
	hck_key_destroy(&k);
	return;
fail:
	hck_result(-1, names[i++], why);
skip:
	while (i < ARRAY_SIZE(names))
		hck_result(1, names[i++], "an earlier check failed");
	hck_key_destroy(&k);
}

static int hck_setup(char *why, size_t len)
{
	int err;

	hc.p.pd = ib_alloc_pd(hc.p.dev, 0);
	if (IS_ERR(hc.p.pd)) {
		err = PTR_ERR(hc.p.pd);
		hc.p.pd = NULL;
		snprintf(why, len, "ib_alloc_pd: %d", err);
		return err;
	}
	if (!hc.plain) {
		hc.udev = mlx5_umr_dev_get_ib(hc.p.dev);
		if (!hc.udev) {
			snprintf(why, len, "the service does not drive %s",
				 ibdev);
			return -ENODEV;
		}
		hc.upd = mlx5_umr_pd_get_ib(hc.udev, hc.p.pd);
		if (IS_ERR(hc.upd)) {
			err = PTR_ERR(hc.upd);
			hc.upd = NULL;
			snprintf(why, len, "mlx5_umr_pd_get_ib: %d", err);
			return err;
		}
	}
	err = hck_buf_alloc(&hc.src);
	if (!err)
		err = hck_buf_alloc(&hc.dst[0]);
	if (!err)
		err = hck_buf_alloc(&hc.dst[1]);
	if (err) {
		snprintf(why, len, "buffers: %d", err);
		return err;
	}
	hc.p.port = port;
	err = hck_pair_connect(&hc.p);
	if (err) {
		snprintf(why, len, "loopback QP pair on port %u: %d%s", port,
			 err, err == -ENOLINK ? " (port not active)" : "");
		return err;
	}
	hc.pair_ok = true;
	return 0;
}

static void hck_teardown(void)
{
	hck_pair_destroy(&hc.p);
	hck_buf_free(&hc.dst[1]);
	hck_buf_free(&hc.dst[0]);
	hck_buf_free(&hc.src);
	if (hc.upd)
		mlx5_umr_pd_put(hc.upd);
	if (hc.udev)
		mlx5_umr_dev_put(hc.udev);
	if (hc.p.pd)
		ib_dealloc_pd(hc.p.pd);
	if (hc.p.dev)
		ib_device_put(hc.p.dev);
	memset(&hc, 0, sizeof(hc));
}

static int __init hck_init(void)
{
	char why[160] = "";

	hc.plain = !strcmp(mode, "plain");
	if (!hc.plain && strcmp(mode, "umr"))
		return -EINVAL;
	pr_info("KTAP version 1\n");
	pr_info("1..5\n");
	hc.p.dev = ibdev ? ib_device_get_by_name(ibdev, RDMA_DRIVER_UNKNOWN) :
			   NULL;
	if (!hc.p.dev) {
		snprintf(why, sizeof(why), "no RDMA device %s",
			 ibdev ? ibdev : "(ibdev= not given)");
		hck_result(1, "loopback RC QP pair in the module's ib_pd", why);
	} else if (hck_setup(why, sizeof(why))) {
		hck_result(-1, "loopback RC QP pair in the module's ib_pd", why);
	} else {
		hck_result(0, "loopback RC QP pair in the module's ib_pd", why);
		hck_run_keys();
	}
	while (hc.n < 5)
		hck_result(1, "key checks", why[0] ? why : "not run");
	snprintf(summary, sizeof(summary), "%u passed, %u failed, %u skipped",
		 hc.passed, hc.failed, hc.skipped);
	pr_info("# %s\n", summary);
	hck_teardown();
	return 0;
}

static void __exit hck_exit(void)
{
}

module_init(hck_init);
module_exit(hck_exit);
MODULE_DESCRIPTION("make hwcheck: the UMR service through kernel verbs on a loopback QP");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
