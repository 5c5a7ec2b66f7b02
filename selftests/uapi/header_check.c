// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * <linux/mlx5_umr.h> on its own, as C and as C++ (the Makefile builds this
 * file both ways): it must compile with nothing included before it, and
 * its ABI must not move. rdma-core's types are compared when present.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/mlx5_umr.h>
#include <assert.h>
#include <stddef.h>

#define ABI(cond) static_assert(cond, #cond)

ABI(sizeof(struct mlx5_umr_ioc_info) == 160);
/* the first version ended with out_name, at 88; the second (batch) at 96 */
ABI(offsetof(struct mlx5_umr_ioc_info, out_max_batch) == 88);
ABI(offsetof(struct mlx5_umr_ioc_info, out_max_batch_bytes) == 92);
ABI(offsetof(struct mlx5_umr_ioc_info, out_max_interleaved_entries) == 96);
ABI(offsetof(struct mlx5_umr_ioc_info, out_max_inflight_bbs) == 108);
ABI(offsetof(struct mlx5_umr_ioc_info, out_max_fd_xlt_bytes) == 112);
ABI(offsetof(struct mlx5_umr_ioc_info, out_fd_xlt_bytes) == 120);
ABI(offsetof(struct mlx5_umr_ioc_info, out_crypto_key_sizes) == 128);
ABI(offsetof(struct mlx5_umr_ioc_info, out_fd_deks) == 140);
ABI(offsetof(struct mlx5_umr_ioc_info, out_crypto_engine) == 144);
ABI(offsetof(struct mlx5_umr_ioc_info, out_crypto_caps) == 148);
ABI(offsetof(struct mlx5_umr_ioc_info, out_nqueues) == 152);
ABI(offsetof(struct mlx5_umr_ioc_info, out_fd_pinned_pages) == 40);
ABI(offsetof(struct mlx5_umr_ioc_info, out_name) == 56);
ABI(sizeof(struct mlx5_umr_ioc_reg_mr) == 48);
ABI(offsetof(struct mlx5_umr_ioc_reg_mr, addr) == 16);
ABI(offsetof(struct mlx5_umr_ioc_reg_mr, out_handle) == 32);
ABI(sizeof(struct mlx5_umr_ioc_alloc_mkey) == 24);
/*
 * the first version ends with out_length, at 48 (out_key and __reserved2
 * came with it, to 56); the second (signature) at 144
 */
ABI(MLX5_UMR_IOC_CONFIGURE_SIZE_VER1 == 48);
ABI(sizeof(struct mlx5_umr_ioc_configure) == 192);
ABI(offsetof(struct mlx5_umr_ioc_configure, sig) == 56);
ABI(offsetof(struct mlx5_umr_ioc_configure, entries) == 32);
ABI(offsetof(struct mlx5_umr_ioc_configure, out_key) == 48);
ABI(sizeof(struct mlx5_umr_ioc_invalidate) == 24);
ABI(offsetof(struct mlx5_umr_ioc_invalidate, out_key) == 16);
ABI(sizeof(struct mlx5_umr_ioc_destroy) == 16);
ABI(sizeof(struct mlx5_umr_ioc_sge) == 16);
ABI(sizeof(struct mlx5_umr_ioc_interleaved) == 24);
ABI(MLX5_UMR_IOCTL_INFO == 0xee80);
ABI(MLX5_UMR_IOCTL_DESTROY == 0xee85);
ABI(MLX5_UMR_IOCTL_BATCH == 0xee86);
ABI(sizeof(struct mlx5_umr_ioc_batch) == 32);
ABI(offsetof(struct mlx5_umr_ioc_batch, reqs) == 16);
ABI(offsetof(struct mlx5_umr_ioc_batch, out_index) == 24);
ABI(sizeof(struct mlx5_umr_ioc_batch_req) == 56);
ABI(offsetof(struct mlx5_umr_ioc_batch_req, entries) == 32);
ABI(offsetof(struct mlx5_umr_ioc_batch_req, out_status) == 48);
/* the caller's PD (MLX5_UMR_IOCTL_SET_PD) */
ABI(MLX5_UMR_IOCTL_SET_PD == 0xee87);
ABI(sizeof(struct mlx5_umr_ioc_set_pd) == 32);
ABI(offsetof(struct mlx5_umr_ioc_set_pd, pdn) == 8);
ABI(offsetof(struct mlx5_umr_ioc_set_pd, cmd_fd) == 16);
ABI(offsetof(struct mlx5_umr_ioc_set_pd, pd_id) == 24);
ABI(MLX5_UMR_IOC_SET_PD_SIZE_VERBS == 32);
/* signature */
ABI(sizeof(struct mlx5_umr_ioc_sig_domain) == 40);
ABI(offsetof(struct mlx5_umr_ioc_sig_domain, ref_tag) == 16);
ABI(offsetof(struct mlx5_umr_ioc_sig_domain, crc_seed) == 32);
ABI(sizeof(struct mlx5_umr_ioc_sig_block) == 88);
ABI(offsetof(struct mlx5_umr_ioc_sig_block, wire) == 40);
ABI(offsetof(struct mlx5_umr_ioc_sig_block, check_mask) == 84);
ABI(sizeof(struct mlx5_umr_ioc_sig_check) == 48);
ABI(offsetof(struct mlx5_umr_ioc_sig_check, out_offset) == 32);
ABI(sizeof(struct mlx5_umr_ioc_sig_report) == 80);
ABI(offsetof(struct mlx5_umr_ioc_sig_report, out_handle) == 72);
ABI(MLX5_UMR_IOCTL_SIG_CHECK == 0xee88);
ABI(MLX5_UMR_IOCTL_SIG_REPORT == 0xee89);
/* crypto; the third version of configure */
ABI(offsetof(struct mlx5_umr_ioc_configure, crypto) == 144);
ABI(sizeof(struct mlx5_umr_ioc_crypto) == 48);
ABI(offsetof(struct mlx5_umr_ioc_crypto, initial_tweak) == 16);
ABI(offsetof(struct mlx5_umr_ioc_crypto, dek) == 32);
ABI(offsetof(struct mlx5_umr_ioc_crypto, keytag) == 40);
ABI(sizeof(struct mlx5_umr_ioc_dek_create) == 40);
ABI(offsetof(struct mlx5_umr_ioc_dek_create, key) == 16);
ABI(offsetof(struct mlx5_umr_ioc_dek_create, keytag) == 24);
ABI(offsetof(struct mlx5_umr_ioc_dek_create, out_handle) == 32);
ABI(MLX5_UMR_IOCTL_DEK_CREATE == 0xee8a);

#ifdef MLX5_UMR_CHECK_TESTING
/*
 * The test ioctls (drivers/umr/uapi/uapi_testing.h, not installed), built the
 * same two ways with MLX5_UMR_CHECK_TESTING by the Makefile.
 */
#include "../../drivers/umr/uapi/uapi_testing.h"
ABI(sizeof(struct mlx5_umr_test_info) == 24);
/* the first version ended with __reserved2, at 48; the second (signature) */
ABI(sizeof(struct mlx5_umr_test_xfer) == 120);
ABI(offsetof(struct mlx5_umr_test_xfer, out_flags) == 48);
ABI(offsetof(struct mlx5_umr_test_xfer, out_sig_cqe) == 56);
ABI(offsetof(struct mlx5_umr_test_xfer, out_status) == 40);
ABI(MLX5_UMR_TEST_IOCTL_INFO == 0xeea0);
ABI(MLX5_UMR_TEST_IOCTL_XFER == 0xeea1);
#endif

#if defined(__has_include)
#if __has_include("infiniband/mlx5dv.h")
#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>
ABI(sizeof(struct ibv_sge) == sizeof(struct mlx5_umr_ioc_sge));
ABI(offsetof(struct ibv_sge, length) ==
	offsetof(struct mlx5_umr_ioc_sge, length));
ABI(offsetof(struct ibv_sge, lkey) == offsetof(struct mlx5_umr_ioc_sge, lkey));
ABI(sizeof(struct mlx5dv_mr_interleaved) ==
	sizeof(struct mlx5_umr_ioc_interleaved));
ABI(offsetof(struct mlx5dv_mr_interleaved, bytes_skip) ==
	offsetof(struct mlx5_umr_ioc_interleaved, bytes_skip));
ABI(offsetof(struct mlx5dv_mr_interleaved, lkey) ==
	offsetof(struct mlx5_umr_ioc_interleaved, lkey));
ABI((int)IBV_ACCESS_REMOTE_ATOMIC == (int)MLX5_UMR_IOC_ACCESS_REMOTE_ATOMIC);
ABI((int)IBV_ACCESS_REMOTE_READ == (int)MLX5_UMR_IOC_ACCESS_REMOTE_READ);
/* the signature's values are rdma-core's */
ABI((int)MLX5DV_SIG_T10DIF_CSUM == (int)MLX5_UMR_IOC_SIG_T10DIF_CSUM);
ABI((int)MLX5DV_SIG_T10DIF_FLAG_APP_REF_ESCAPE ==
	(int)MLX5_UMR_IOC_SIG_T10DIF_APP_REF_ESCAPE);
ABI((int)MLX5DV_SIG_CRC_TYPE_CRC32C == (int)MLX5_UMR_IOC_SIG_CRC32C);
ABI((int)MLX5DV_SIG_CRC_TYPE_CRC64_XP10 ==
	(int)MLX5_UMR_IOC_SIG_CRC64_XP10);
ABI((int)MLX5DV_BLOCK_SIZE_520 == (int)MLX5_UMR_IOC_SIG_BLOCK_520);
ABI((int)MLX5DV_BLOCK_SIZE_4160 == (int)MLX5_UMR_IOC_SIG_BLOCK_4160);
ABI((int)MLX5DV_SIG_MASK_T10DIF_GUARD ==
	(int)MLX5_UMR_IOC_SIG_MASK_T10DIF_GUARD);
ABI((int)MLX5DV_SIG_MASK_CRC64_XP10 == (int)MLX5_UMR_IOC_SIG_MASK_CRC64_XP10);
ABI((int)MLX5DV_SIG_BLOCK_ATTR_FLAG_COPY_MASK ==
	(int)MLX5_UMR_IOC_SIG_COPY_MASK);
ABI((int)MLX5DV_MKEY_SIG_BLOCK_BAD_REFTAG == (int)MLX5_UMR_IOC_SIG_ERR_REFTAG);
ABI((int)MLX5DV_MKEY_SIG_BLOCK_BAD_APPTAG == (int)MLX5_UMR_IOC_SIG_ERR_APPTAG);
/* and the crypto's */
ABI((int)MLX5DV_CRYPTO_STANDARD_AES_XTS ==
	(int)MLX5_UMR_IOC_CRYPTO_STANDARD_AES_XTS);
ABI((int)MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX ==
	(int)MLX5_UMR_IOC_SIG_AFTER_CRYPTO_ON_TX);
ABI((int)MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX ==
	(int)MLX5_UMR_IOC_SIG_BEFORE_CRYPTO_ON_TX);
ABI((int)MLX5DV_CRYPTO_KEY_SIZE_128 == (int)MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128);
ABI((int)MLX5DV_CRYPTO_KEY_SIZE_256 == (int)MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256);
ABI(sizeof(((struct mlx5dv_crypto_attr *)0)->initial_tweak) ==
	sizeof(((struct mlx5_umr_ioc_crypto *)0)->initial_tweak));
ABI(sizeof(((struct mlx5dv_crypto_attr *)0)->keytag) ==
	sizeof(((struct mlx5_umr_ioc_crypto *)0)->keytag));
#endif
#endif
