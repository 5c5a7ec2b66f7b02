/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: wire definitions the headers in include/linux/mlx5/ of a
 * supported kernel (6.1, 6.12) lack.
 *
 * Keep this small: everything here must be absent from mlx5_ifc.h, qp.h,
 * device.h and cq.h of a supported kernel, defined only where that kernel
 * has none, and each entry cites where it comes from.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _LINUX_MLX5_UMR_IFC_H
#define _LINUX_MLX5_UMR_IFC_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/mlx5_ifc.h>

/*
 * UMR translation alignment: 64 bytes of translation entries, a KLM list a
 * multiple of 4 entries (mlx5_ib umr.c). 6.12's device.h names them
 * MLX5_UMR_FLEX_ALIGNMENT and MLX5_UMR_KLM_NUM_ENTRIES_ALIGNMENT; 6.1's
 * MLX5_UMR_MTT_ALIGNMENT and MLX5_UMR_KLM_ALIGNMENT. Drop with 6.1.
 */
#ifndef MLX5_UMR_FLEX_ALIGNMENT
#define MLX5_UMR_FLEX_ALIGNMENT MLX5_UMR_MTT_ALIGNMENT
#endif
#ifndef MLX5_UMR_KLM_NUM_ENTRIES_ALIGNMENT
#define MLX5_UMR_KLM_NUM_ENTRIES_ALIGNMENT MLX5_UMR_KLM_ALIGNMENT
#endif

/*
 * MTT entry (struct mlx5_mtt.ptag) access bits: the low bits of a page
 * address in an MTT say the page may be read and/or written. 6.1 keeps
 * them private to the IB driver (drivers/infiniband/hw/mlx5/mlx5_ib.h:
 * enum mlx5_ib_mtt_access_flags, MLX5_IB_MTT_PRESENT), and mr.c/umr.c
 * (mlx5r_umr_update_mr_pas()) write every page as present.
 */
#define MLX5_UMR_MTT_READ	BIT_ULL(0)
#define MLX5_UMR_MTT_WRITE	BIT_ULL(1)
#define MLX5_UMR_MTT_PRESENT	(MLX5_UMR_MTT_READ | MLX5_UMR_MTT_WRITE)

/*
 * UMR ctrl flag "check QPN": rdma-core v44.0 providers/mlx5/mlx5dv.h
 * MLX5_WQE_UMR_CTRL_FLAG_CHECK_QPN (1 << 3), set by qp.c
 * set_umr_control_seg() on the UMR that invalidates a type-2 window or
 * key (ibv_wr_local_inv); the kernel headers do not name it.
 */
#define MLX5_UMR_IFC_CHECK_QPN	BIT(3)

/*
 * Crypto mkeys (Documentation/crypto.rst). Neither 6.1 nor 6.12 defines the
 * AES-XTS key purpose, has_keytag, mkc crypto_en or the crypto BSF; 6.1's
 * encryption_key_obj holds only 256 bits of key (an XTS-256 key is 512).
 * Layouts from rdma-core providers/mlx5/mlx5_ifc.h (struct
 * mlx5_ifc_encryption_key_obj_bits, mlx5_ifc_mkc_bits.crypto_en) and wqe.h (struct
 * mlx5_crypto_bsf, MLX5_BSF_*, MLX5_ENCRYPTION_*), as qp.c
 * mlx5_umr_fill_crypto_bsf() fills them. Where both kernels name a field
 * (general_obj_in_cmd_hdr, key_size, pd, key from bit 0x200) the offsets
 * agree.
 */
#define MLX5_UMR_ENCRYPTION_KEY_PURPOSE_AES_XTS	0x3

/* the DEK object of CREATE_GENERAL_OBJECT, type ENCRYPTION_KEY (0xc) */
struct mlx5_ifc_mlx5_umr_dek_bits {
	u8         modify_field_select[0x40];

	u8         state[0x8];
	u8         reserved_at_48[0xc];
	u8         key_size[0x4];
	u8         has_keytag[0x1];
	u8         reserved_at_59[0x3];
	u8         key_purpose[0x4];

	u8         reserved_at_60[0x8];
	u8         pd[0x18];

	u8         reserved_at_80[0x100];

	u8         opaque[0x40];

	u8         reserved_at_1c0[0x40];

	u8         key[0x400];

	u8         reserved_at_600[0x200];
};

/* where both kernels name a field of the object, the offsets agree */
static_assert(__mlx5_bit_off(mlx5_umr_dek, key_size) ==
	      __mlx5_bit_off(encryption_key_obj, key_size));
static_assert(__mlx5_bit_off(mlx5_umr_dek, pd) ==
	      __mlx5_bit_off(encryption_key_obj, pd));
static_assert(__mlx5_bit_off(mlx5_umr_dek, key) ==
	      __mlx5_bit_off(encryption_key_obj, key));

struct mlx5_ifc_mlx5_umr_create_dek_in_bits {
	struct mlx5_ifc_general_obj_in_cmd_hdr_bits hdr;
	struct mlx5_ifc_mlx5_umr_dek_bits dek;
};

/* the mkc (64 bytes) with only what 6.1 and 6.12 leave reserved */
struct mlx5_ifc_mlx5_umr_mkc_crypto_bits {
	u8         reserved_at_0[0x1e3];
	u8         crypto_en[0x2];
	u8         reserved_at_1e5[0x1b];
};

#define MLX5_UMR_MKC_CRYPTO_ENABLED	0x1
static_assert(sizeof(struct mlx5_ifc_mlx5_umr_mkc_crypto_bits) ==
	      sizeof(struct mlx5_ifc_mkc_bits));

/* The crypto BSF: 64 bytes, after the signature BSF when both are set. */
struct mlx5_umr_crypto_bsf {
	u8		bsf_size_type;
	u8		enc_order;
	u8		rsvd0;
	u8		enc_standard;
	__be32		raw_data_size;
	u8		bs_pointer;
	u8		rsvd1[7];
	u8		xts_init_tweak[16];
	__be32		dek_pointer;
	u8		rsvd2[4];
	u8		keytag[8];
	u8		rsvd3[16];
};

/*
 * bsf_size_type: size in bits 7:6 (as mlx5_bsf_basic.bsf_size_sbs;
 * MLX5_UMR_BSF_SIZE_WITH_INLINE and _SHIFT below), type
 */
#define MLX5_UMR_BSF_SIZE_SIG_AND_CRYPTO	3
#define MLX5_UMR_BSF_TYPE_CRYPTO	1
/* whole bsf_size_type of a crypto BSF alone (0x81) and after a sig BSF (0xc1) */
#define MLX5_UMR_CRYPTO_BSF_ALONE \
	(MLX5_UMR_BSF_SIZE_WITH_INLINE << MLX5_UMR_BSF_SIZE_SHIFT | \
	 MLX5_UMR_BSF_TYPE_CRYPTO)
#define MLX5_UMR_CRYPTO_BSF_IN_PAIR \
	(MLX5_UMR_BSF_SIZE_SIG_AND_CRYPTO << MLX5_UMR_BSF_SIZE_SHIFT | \
	 MLX5_UMR_BSF_TYPE_CRYPTO)
#define MLX5_UMR_BSF_TYPE_MASK		0x3
/* enc_order: which side holds ciphertext, and where the signature is */
#define MLX5_UMR_ENC_ORDER_ENCRYPTED_WIRE_SIGNATURE	0x0
#define MLX5_UMR_ENC_ORDER_ENCRYPTED_MEMORY_SIGNATURE	0x1
#define MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE		0x2
#define MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY		0x3
#define MLX5_UMR_ENC_STANDARD_AES_XTS	0x0
#define MLX5_UMR_CRYPTO_DEK_PTR_MASK	0xffffff
/* bs_pointer: the MLX5_UMR_BS_SELECTOR_* of the signature BSF below */

/*
 * Crypto capabilities. cmd_hca_cap: 6.1 has none of these bits, 6.12 only
 * `crypto` (0x469). aes_xts_single_block_le_tweak (0x3f1) and
 * aes_xts_multi_block_be_tweak (0x3f2) from rdma-core
 * providers/mlx5/mlx5_ifc.h (struct mlx5_ifc_cmd_hca_cap_bits, added with
 * dd8a5576c06a "mlx5: Add support for multi-block AES-XTS encryption"),
 * which names `crypto` at 0x469 too; aes_xts_multi_block_le_tweak (0x468)
 * from the mlx5_ifc.h patch of the mlx5 "block device crypto" series
 * posted to linux-rdma (2023, not merged by 6.12), which SPDK's
 * lib/mlx5/mlx5_crypto.c mlx5_query_crypto_caps() also reads.
 */
struct mlx5_ifc_mlx5_umr_hca_cap_crypto_bits {
	u8         reserved_at_0[0x3f1];
	u8         aes_xts_single_block_le_tweak[0x1];
	u8         aes_xts_multi_block_be_tweak[0x1];
	u8         reserved_at_3f3[0x75];
	u8         aes_xts_multi_block_le_tweak[0x1];
	u8         crypto[0x1];
	u8         reserved_at_46a[0x396];
};

static_assert(sizeof(struct mlx5_ifc_mlx5_umr_hca_cap_crypto_bits) ==
	      sizeof(struct mlx5_ifc_cmd_hca_cap_bits));
/* the neighbours both kernels name, so the bits cannot drift */
static_assert(__mlx5_bit_off(cmd_hca_cap, log_max_current_mc_list) == 0x3f3);
static_assert(__mlx5_bit_off(cmd_hca_cap, log_max_uctx) == 0x463);
static_assert(__mlx5_bit_off(cmd_hca_cap, ipsec_offload) == 0x46a);
#ifdef MLX5_UMR_HAVE_IFC_CRYPTO_CAP
static_assert(__mlx5_bit_off(mlx5_umr_hca_cap_crypto, crypto) ==
	      __mlx5_bit_off(cmd_hca_cap, crypto));
#endif

/*
 * QUERY_HCA_CAP op_mod of the crypto caps (6.12 device.h MLX5_CAP_CRYPTO;
 * rdma-core MLX5_SET_HCA_CAP_OP_MOD_CRYPTO) and their layout:
 * synchronize_dek from 6.12 mlx5_ifc.h struct mlx5_ifc_crypto_cap_bits,
 * wrapped_import_method from rdma-core providers/mlx5/mlx5_ifc.h struct
 * mlx5_ifc_crypto_caps_bits (bit MLX5_CRYPTO_CAPS_WRAPPED_IMPORT_METHOD_AES
 * set: DEKs must be imported wrapped, verbs.c check_dek_import_method()).
 */
#define MLX5_UMR_CAP_CRYPTO			0x1a
#define MLX5_UMR_CRYPTO_WRAPPED_IMPORT_AES_XTS	0x4

struct mlx5_ifc_mlx5_umr_crypto_cap_bits {
	u8         wrapped_crypto_operational[0x1];
	u8         wrapped_crypto_going_to_commissioning[0x1];
	u8         reserved_at_2[0x1];
	u8         synchronize_dek[0x1];
	u8         reserved_at_4[0x14];
	u8         wrapped_import_method[0x8];

	u8         reserved_at_20[0x7e0];
};

#ifdef MLX5_UMR_HAVE_IFC_CRYPTO_CAP
static_assert(MLX5_UMR_CAP_CRYPTO == MLX5_CAP_CRYPTO);
static_assert(__mlx5_bit_off(mlx5_umr_crypto_cap, synchronize_dek) ==
	      __mlx5_bit_off(crypto_cap, synchronize_dek));
static_assert(sizeof(struct mlx5_ifc_mlx5_umr_crypto_cap_bits) ==
	      sizeof(struct mlx5_ifc_crypto_cap_bits));
#endif

/*
 * SYNC_CRYPTO (6.12 mlx5_ifc.h MLX5_CMD_OP_SYNC_CRYPTO, struct
 * mlx5_ifc_sync_crypto_in_bits; lib/crypto.c mlx5_crypto_cmd_sync_crypto()
 * with crypto_type BIT(key_purpose)): the device drops the keys it cached
 * for DEKs that were freed, so their numbers may name new keys.
 */
#define MLX5_UMR_CMD_OP_SYNC_CRYPTO	0xb12

struct mlx5_ifc_mlx5_umr_sync_crypto_in_bits {
	u8         opcode[0x10];
	u8         uid[0x10];

	u8         reserved_at_20[0x10];
	u8         op_mod[0x10];

	u8         reserved_at_40[0x20];

	u8         reserved_at_60[0x10];
	u8         crypto_type[0x10];

	u8         reserved_at_80[0x80];
};

#ifdef MLX5_UMR_HAVE_IFC_CRYPTO_CAP
static_assert(MLX5_UMR_CMD_OP_SYNC_CRYPTO == MLX5_CMD_OP_SYNC_CRYPTO);
static_assert(__mlx5_bit_off(mlx5_umr_sync_crypto_in, crypto_type) ==
	      __mlx5_bit_off(sync_crypto_in, crypto_type));
#endif

/*
 * Block signature (BSF, SET_PSV, SIG_ERR CQE). qp.h has struct mlx5_bsf,
 * struct mlx5_seg_set_psv, MLX5_BSF_INL_VALID, MLX5_BSF_REFRESH_DIF,
 * MLX5_BSF_REPEAT_BLOCK, MLX5_BSF_INC_REFTAG, MLX5_BSF_APPTAG_ESCAPE,
 * MLX5_BSF_APPREF_ESCAPE and enum mlx5_sig_type (MLX5_DIF_CRC/IPCS);
 * device.h MLX5_MKEY_BSF_EN, MLX5_MKEY_BSF_OCTO_SIZE, struct
 * mlx5_sig_err_cqe. What neither 6.1 nor 6.12 defines, from rdma-core
 * providers/mlx5/wqe.h (the anonymous enum after struct
 * mlx5_wqe_inline_seg), which mlx5_umr_fill_sig_bsf() in providers/mlx5/
 * qp.c uses:
 */
/* mlx5_bsf_basic.bsf_size_sbs: size in bits 7:6, same block structure bit 4 */
#define MLX5_UMR_BSF_SIZE_WITH_INLINE	2
#define MLX5_UMR_BSF_SIZE_SHIFT		6
#define MLX5_UMR_BSF_SBS_SHIFT		4
/* m_bfs_psv/w_bfs_psv: block format selector in bits 31:24, PSV in 23:0 */
#define MLX5_UMR_BFS_CRC32_BASE		0x20
#define MLX5_UMR_BFS_CRC32C_BASE	0x40
#define MLX5_UMR_BFS_CRC64_XP10_BASE	0x50
#define MLX5_UMR_BFS_CRC_REPEAT_BIT	0x2
#define MLX5_UMR_BFS_CRC_SEED_BIT	0x1
#define MLX5_UMR_BFS_SHIFT		24
#define MLX5_UMR_BSF_PSV_INDEX_MASK	0xffffff
/* mlx5_bsf_inl.rp_inv_seed: the guard's seed is all ones */
#define MLX5_UMR_BSF_SEED		BIT(3)
/*
 * mlx5_bsf_basic.mem/wire.bs_selector of each block size: rdma-core qp.c
 * bs_to_bs_selector() (wr.c bs_selector() has 512, 520, 4096 and 4160).
 */
#define MLX5_UMR_BS_SELECTOR_512	1
#define MLX5_UMR_BS_SELECTOR_520	2
#define MLX5_UMR_BS_SELECTOR_4096	3
#define MLX5_UMR_BS_SELECTOR_4160	4
#define MLX5_UMR_BS_SELECTOR_4048	6
/*
 * struct mlx5_sig_err_cqe.syndrome: which check failed. mlx5_ib keeps them
 * private (cq.c get_sig_err_item(): GUARD_ERR, APPTAG_ERR, REFTAG_ERR), as
 * rdma-core does (providers/mlx5/cq.c).
 */
#define MLX5_UMR_SIG_SYND_GUARD		BIT(13)
#define MLX5_UMR_SIG_SYND_APPTAG	BIT(12)
#define MLX5_UMR_SIG_SYND_REFTAG	BIT(11)

/*
 * SIG_ERR CQE bytes 34-35, reserved in both kernels' struct
 * mlx5_sig_err_cqe (rsvd22[2]): the signature type and the domain of the
 * failed check, rdma-core providers/mlx5/cq.c struct mlx5_sigerr_cqe
 * (sig_type, domain; low 3 bits each, get_sig_err_info()) and verbs.c
 * (MLX5_SIGERR_CQE_SIG_TYPE_*, MLX5_SIGERR_CQE_DOMAIN_*), rdma-core
 * 691953d8d502. A device writes them when cmd_hca_cap
 * sigerr_domain_and_sig_type (bit 0x480, rdma-core mlx5_ifc.h; reserved
 * in both kernels) is set; get_hca_sig_caps() (verbs.c) offers no
 * signature without it.
 */
#define MLX5_UMR_SIGERR_CQE_SIG_TYPE_OFF	34
#define MLX5_UMR_SIGERR_CQE_DOMAIN_OFF		35
#define MLX5_UMR_SIGERR_CQE_FIELD_MASK		0x7
#define MLX5_UMR_SIGERR_SIG_TYPE_BLOCK		0
#define MLX5_UMR_SIGERR_DOMAIN_WIRE		0
#define MLX5_UMR_SIGERR_DOMAIN_MEMORY		1
static_assert(offsetof(struct mlx5_sig_err_cqe, rsvd22) ==
	      MLX5_UMR_SIGERR_CQE_SIG_TYPE_OFF);
static_assert(sizeof_field(struct mlx5_sig_err_cqe, rsvd22) == 2);

/* cmd_hca_cap (general) with only what 6.1 and 6.12 leave reserved */
struct mlx5_ifc_mlx5_umr_hca_cap_sig_bits {
	u8         reserved_at_0[0x480];
	u8         sigerr_domain_and_sig_type[0x1];
	u8         reserved_at_481[0x7f];
};

static_assert(__mlx5_bit_off(mlx5_umr_hca_cap_sig,
			     sigerr_domain_and_sig_type) ==
	      __mlx5_bit_off(cmd_hca_cap, tls_tx) - 1);

/*
 * mkc bit 0x65 (flags_pd bit 26), expected_sigerr_count, in both kernels'
 * mlx5_ifc.h; the UMR writes it with MLX5_MKEY_MASK_EN_SIGERR (mlx5_ib
 * wr.c set_sig_mkey_segment(): "sigerr << 26"; rdma-core wqe.h
 * MLX5_WQE_MKEY_CONTEXT_SIG_ERR_CNT_SHIFT).
 */
#define MLX5_UMR_MKEY_SIGERR_SHIFT	26
static_assert(__mlx5_bit_off(mkc, expected_sigerr_count) ==
	      0x60 + 31 - MLX5_UMR_MKEY_SIGERR_SHIFT);

#endif /* _LINUX_MLX5_UMR_IFC_H */
