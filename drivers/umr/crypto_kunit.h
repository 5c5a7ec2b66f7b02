/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * KUnit: what the crypto suites share (crypto_bsf_test.c,
 * crypto_rules_test.c, crypto_service_test.c): an mkey with signature and
 * crypto, the attributes of row C of mlx5dv_wr_set_mkey_crypto(3), and a
 * request on it encoded as the service posts it.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _MLX5_UMR_CRYPTO_KUNIT_H
#define _MLX5_UMR_CRYPTO_KUNIT_H

#include <kunit/test.h>
#include <linux/mlx5_umr_ifc.h>
#include <linux/mlx5_umr_testing.h>
#include <linux/mlx5_umr_compat.h>

#include "umr_kunit.h"
#include "rules.h"
#include "sig.h"
#include "wqe.h"

#define POISON	0xa5

#define PSV_MEM		0x000011U
#define PSV_WIRE	0x000022U
#define QPN		0x000042U
#define PAIR_DEV	((struct mlx5_umr_dev *)0x1000)
#define PAIR_PDN	7U

static const struct mlx5_umr_dek pair_dek __maybe_unused = {
	.dev = PAIR_DEV, .id = 0x01abcdef, .pdn = PAIR_PDN,
};

/*
 * Row C of mlx5dv_wr_set_mkey_crypto(3) (its Example 2): no memory
 * signature, wire T10-DIF/CRC 512 (seed 0xffff, app 0x1234, ref 0x5678,
 * ref remap), check mask 0xff; encrypt_on_tx, SIGNATURE_BEFORE_CRYPTO_ON_TX,
 * data unit 520, tweak 00..0f, keytag "abcdefgh".
 */
static const struct mlx5_umr_sig_attr pair_sig __maybe_unused = {
	.wire = {
		.sig_type = MLX5_UMR_SIG_T10DIF,
		.dif = { .bg_type = MLX5_UMR_SIG_T10DIF_CRC, .bg = 0xffff,
			 .app_tag = 0x1234, .ref_tag = 0x5678,
			 .flags = MLX5_UMR_SIG_T10DIF_REF_REMAP },
		.block_size = MLX5_UMR_SIG_BLOCK_512,
	},
	.check_mask = 0xff,
};

static inline void pair_crypto_attr(struct mlx5_umr_crypto_attr *a)
{
	unsigned int i;

	*a = (struct mlx5_umr_crypto_attr) {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.encrypt_on_tx = true,
		.signature_crypto_order =
			MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX,
		.data_unit_size = MLX5_UMR_BLOCK_SIZE_520,
		.dek = &pair_dek,
		.keytag = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' },
	};
	for (i = 0; i < 16; i++)
		a->initial_tweak[i] = i;
}

/*
 * The signature half after a reset (state RESET: both domains NONE):
 * only the size field and raw_data_size; no check mask, selectors or PSVs.
 */
static const u8 pair_sig_reset[64] __maybe_unused = {
	0xc0, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
};

/* A request on an mkey with both, encoded as the service posts it. */
struct pt {
	struct mlx5_umr_caps caps;
	struct mlx5_umr_mkey mkey;
	struct mlx5_umr_sge sge;
	struct mlx5_umr_crypto_attr ca;
	struct mlx5_umr_wr wr;
	u8 buf[MLX5_SEND_WQE_MAX_SIZE];
};

static inline struct pt *pt_new(struct kunit *test, u32 flags)
{
	struct pt *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->caps = (struct mlx5_umr_caps) {
		.max_klm_entries = 1 << 16, .max_inline_entries = 56,
		.dma_lkey = 0x5ff, .sig = true, .crypto = true,
	};
	p->mkey = (struct mlx5_umr_mkey) {
		.dev = PAIR_DEV, .key = 0x123456, .max_entries = 4,
		.flags = MLX5_UMR_MKEY_SIGNATURE | MLX5_UMR_MKEY_CRYPTO,
		.psv = { PSV_MEM, PSV_WIRE }, .pdn = PAIR_PDN,
	};
	p->sge = (struct mlx5_umr_sge) { .addr = 0x10000, .length = 4096,
					 .key = 0x777 };
	pair_crypto_attr(&p->ca);
	p->wr = (struct mlx5_umr_wr) {
		.mkey = &p->mkey, .op = MLX5_UMR_OP_CONFIGURE,
		.flags = flags | MLX5_UMR_WR_SET_CRYPTO,
		.layout = MLX5_UMR_LAYOUT_LIST,
		.list = { .sge = &p->sge, .num_sge = 1 },
		.sig = &pair_sig, .crypto = &p->ca,
	};
	memset(p->buf, POISON, sizeof(p->buf));
	return p;
}

static inline int pt_encode(struct pt *p, u8 fm_ce_se)
{
	const struct mlx5_umr_wqe_ctx ctx = {
		.caps = &p->caps, .qpn = QPN, .ptr_lkey = p->caps.dma_lkey,
	};
	int size = mlx5_umr_wr_prepare(&p->caps, &p->wr);

	if (size < 0)
		return size;
	return mlx5_umr_wqe_encode(&ctx, &p->wr, NULL, 0, fm_ce_se, p->buf,
				   size);
}

#endif /* _MLX5_UMR_CRYPTO_KUNIT_H */
