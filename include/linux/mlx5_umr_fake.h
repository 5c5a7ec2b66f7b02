/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: test API of the fake mlx5 HCA (mlx5_umr_fake.ko).
 *
 * Everything declared here is for tests only (KUnit suites, the uapi's
 * fake-only operations, benchmarks). Production code talks to a fake only
 * through struct mlx5_umr_hca_ops, exactly as it talks to real hardware.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _LINUX_MLX5_UMR_FAKE_H
#define _LINUX_MLX5_UMR_FAKE_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/sizes.h>
#include <linux/mlx5_umr_hca.h>
#include <linux/mlx5_umr_testing.h>

struct mlx5_umr_fake;
struct mlx5_seg_set_psv;

/**
 * MLX5_UMR_FAKE_RESD_LKEY - the reserved lkey QUERY_SPECIAL_CONTEXTS returns
 *
 * A KLM entry or a UMR pointer data segment carrying this key addresses
 * device (IOVA) addresses directly.
 */
#define MLX5_UMR_FAKE_RESD_LKEY 0x100

/**
 * MLX5_UMR_FAKE_MAX_DEPTH - how many mkeys one access may traverse
 *
 * The outer key counts as one; a KLM chain deeper than this fails.
 */
#define MLX5_UMR_FAKE_MAX_DEPTH 4

/**
 * MLX5_UMR_FAKE_RDMA_MAX_MSG - the longest RDMA WRITE or READ message
 *
 * The fake moves a message through one bounce buffer per RC QP; a longer
 * message completes with a local length error (Documentation/fake.rst,
 * "The RC data path").
 */
#define MLX5_UMR_FAKE_RDMA_MAX_MSG SZ_1M

/**
 * enum mlx5_umr_fake_vsynd - vendor_err_synd of the fake's error CQEs
 * @MLX5_UMR_FAKE_VS_NONE: no vendor detail (flush errors)
 * @MLX5_UMR_FAKE_VS_BAD_OPCODE: unknown WQE opcode
 * @MLX5_UMR_FAKE_VS_BAD_QPN: ctrl segment names another QP
 * @MLX5_UMR_FAKE_VS_BAD_DS: ds count 0, or too small for the WQE's segments
 * @MLX5_UMR_FAKE_VS_BAD_FENCE: reserved fence mode
 * @MLX5_UMR_FAKE_VS_DB_OVERRUN: doorbell record ahead of the ring by more
 *	than the ring size
 * @MLX5_UMR_FAKE_VS_RING_FAULT: WQE could not be read (IOMMU fault)
 * @MLX5_UMR_FAKE_VS_MKEY_UNKNOWN: UMR target key does not exist
 * @MLX5_UMR_FAKE_VS_MKEY_NOT_UMR: UMR target mkey lacks umr_en
 * @MLX5_UMR_FAKE_VS_MKEY_FREE: "fail if free" (MLX5_UMR_CHECK_FREE) and free
 * @MLX5_UMR_FAKE_VS_MKEY_NOT_FREE: "fail if not free"
 *	(MLX5_UMR_CHECK_NOT_FREE) and in use
 * @MLX5_UMR_FAKE_VS_BAD_FLAGS: both check flags, or reserved flag bits
 * @MLX5_UMR_FAKE_VS_MASK_FORBIDDEN: mkey_mask bit the caps forbid
 * @MLX5_UMR_FAKE_VS_XLT_TOO_BIG: xlt_offset + xlt_octowords beyond the
 *	mkey's translations_octword_size
 * @MLX5_UMR_FAKE_VS_XLT_ALIGN: inline translation not a multiple of 64 B
 * @MLX5_UMR_FAKE_VS_XLT_OFFSET: offset bits 47:16 without the cap
 * @MLX5_UMR_FAKE_VS_XLT_FAULT: pointer-mode translation unreadable
 * @MLX5_UMR_FAKE_VS_XLT_BAD_KEY: a translation entry names an unknown or
 *	free mkey
 * @MLX5_UMR_FAKE_VS_XLT_BAD_RB: malformed repeat block
 * @MLX5_UMR_FAKE_VS_BAD_PD: new PD does not exist
 * @MLX5_UMR_FAKE_VS_BSF: BSF without room for it in the mkey
 * @MLX5_UMR_FAKE_VS_PTR_NO_RLKY: reserved lkey used on a QP without rlky
 * @MLX5_UMR_FAKE_VS_PTR_LEN: pointer data segment shorter than the
 *	translation
 * @MLX5_UMR_FAKE_VS_INDIRECT_DISABLED: UMR on a KLM/KSM mkey while the
 *	umr_indirect_mkey_disabled cap is set
 * @MLX5_UMR_FAKE_VS_KLM_BCOUNT: a KLM longer than 2 GiB (the PRM's limit,
 *	rdma-core mlx5dv.h struct mlx5_wqe_umr_klm_seg)
 * @MLX5_UMR_FAKE_VS_PTR_ALIGN: pointer-mode translation not 2048-byte
 *	aligned (mlx5_ib mr.c MLX5_UMR_ALIGN)
 * @MLX5_UMR_FAKE_VS_XLT_PD: the pointer-mode translation's lkey is an mkey
 *	of another PD than the posting QP's (Documentation/fake.rst, "UMR")
 * @MLX5_UMR_FAKE_VS_PSV_UNKNOWN: SET_PSV, or a UMR's BSF, names an unknown
 *	PSV
 * @MLX5_UMR_FAKE_VS_PSV_PD: SET_PSV on a QP of another PD than the PSV's
 * @MLX5_UMR_FAKE_VS_BSF_BAD: a UMR's BSF is malformed (reserved values,
 *	a signature domain without block size, copy mask without same block
 *	structure; Documentation/fake.rst, "Signature")
 * @MLX5_UMR_FAKE_VS_BSF_UNSUPPORTED: a UMR's BSF asks for what the fake
 *	does not model (a RAW crypto order with a signature in both
 *	domains, transaction signatures, 1 GiB blocks, a BSF pair whose
 *	domains have different block sizes, non-repeating blocks)
 * @MLX5_UMR_FAKE_VS_MKEY_QPN: UMR with MLX5_UMR_IFC_CHECK_QPN on an mkey
 *	bound to another QP
 * @MLX5_UMR_FAKE_VS_RDMA_LEN: RDMA message longer than
 *	MLX5_UMR_FAKE_RDMA_MAX_MSG
 * @MLX5_UMR_FAKE_VS_RDMA_INLINE: inline data in an RDMA READ
 * @MLX5_UMR_FAKE_VS_RDMA_LKEY: an RDMA WQE's local key refused the access
 * @MLX5_UMR_FAKE_VS_RDMA_RKEY: the responder refused the rkey's access
 * @MLX5_UMR_FAKE_VS_RDMA_NO_PEER: no responder (remote QP missing, not RC,
 *	or not in RTR/RTS): the requester's retries run out
 * @MLX5_UMR_FAKE_VS_RDMA_NOMEM: the signature or crypto engine had no
 *	buffer for the access (a fake's limit, never a NIC's)
 * @MLX5_UMR_FAKE_VS_INJECTED: error injected by the test
 */
enum mlx5_umr_fake_vsynd {
	MLX5_UMR_FAKE_VS_NONE = 0x00,
	MLX5_UMR_FAKE_VS_BAD_OPCODE = 0x01,
	MLX5_UMR_FAKE_VS_BAD_QPN = 0x02,
	MLX5_UMR_FAKE_VS_BAD_DS = 0x03,
	MLX5_UMR_FAKE_VS_BAD_FENCE = 0x04,
	MLX5_UMR_FAKE_VS_DB_OVERRUN = 0x05,
	MLX5_UMR_FAKE_VS_RING_FAULT = 0x06,
	MLX5_UMR_FAKE_VS_MKEY_UNKNOWN = 0x10,
	MLX5_UMR_FAKE_VS_MKEY_NOT_UMR = 0x11,
	MLX5_UMR_FAKE_VS_MKEY_FREE = 0x12,
	MLX5_UMR_FAKE_VS_MKEY_NOT_FREE = 0x13,
	MLX5_UMR_FAKE_VS_BAD_FLAGS = 0x14,
	MLX5_UMR_FAKE_VS_MASK_FORBIDDEN = 0x15,
	MLX5_UMR_FAKE_VS_XLT_TOO_BIG = 0x16,
	MLX5_UMR_FAKE_VS_XLT_ALIGN = 0x17,
	MLX5_UMR_FAKE_VS_XLT_OFFSET = 0x18,
	MLX5_UMR_FAKE_VS_XLT_FAULT = 0x19,
	MLX5_UMR_FAKE_VS_XLT_BAD_KEY = 0x1a,
	MLX5_UMR_FAKE_VS_XLT_BAD_RB = 0x1b,
	MLX5_UMR_FAKE_VS_BAD_PD = 0x1c,
	MLX5_UMR_FAKE_VS_BSF = 0x1d,
	MLX5_UMR_FAKE_VS_PTR_NO_RLKY = 0x1e,
	MLX5_UMR_FAKE_VS_PTR_LEN = 0x1f,
	MLX5_UMR_FAKE_VS_INDIRECT_DISABLED = 0x20,
	MLX5_UMR_FAKE_VS_KLM_BCOUNT = 0x21,
	MLX5_UMR_FAKE_VS_PTR_ALIGN = 0x22,
	MLX5_UMR_FAKE_VS_XLT_PD = 0x23,
	MLX5_UMR_FAKE_VS_MKEY_QPN = 0x24,
	MLX5_UMR_FAKE_VS_PSV_UNKNOWN = 0x30,
	MLX5_UMR_FAKE_VS_BSF_BAD = 0x31,
	MLX5_UMR_FAKE_VS_BSF_UNSUPPORTED = 0x32,
	MLX5_UMR_FAKE_VS_PSV_PD = 0x33,
	MLX5_UMR_FAKE_VS_RDMA_LEN = 0x40,
	MLX5_UMR_FAKE_VS_RDMA_INLINE = 0x41,
	MLX5_UMR_FAKE_VS_RDMA_LKEY = 0x42,
	MLX5_UMR_FAKE_VS_RDMA_RKEY = 0x43,
	MLX5_UMR_FAKE_VS_RDMA_NO_PEER = 0x44,
	MLX5_UMR_FAKE_VS_RDMA_NOMEM = 0x45,
	MLX5_UMR_FAKE_VS_INJECTED = 0xfe,
};

/**
 * enum mlx5_umr_fake_cmd_synd - syndromes of failed commands
 * @MLX5_UMR_FAKE_SYND_BAD_OPCODE: opcode the fake does not implement
 * @MLX5_UMR_FAKE_SYND_BAD_INLEN: input mailbox shorter than its layout
 *	(or than its PAS list)
 * @MLX5_UMR_FAKE_SYND_BAD_OUTLEN: output mailbox shorter than its layout
 * @MLX5_UMR_FAKE_SYND_NO_RESOURCES: out of memory or object numbers
 * @MLX5_UMR_FAKE_SYND_BAD_PD: PD does not exist
 * @MLX5_UMR_FAKE_SYND_PD_BUSY: PD still used by an mkey, QP, PSV or DEK
 * @MLX5_UMR_FAKE_SYND_BAD_CQ: CQ does not exist
 * @MLX5_UMR_FAKE_SYND_CQ_BUSY: CQ still used by a QP
 * @MLX5_UMR_FAKE_SYND_BAD_UAR: uar_page is not an allocated UAR
 * @MLX5_UMR_FAKE_SYND_BAD_DBR: doorbell record unaligned or not mapped
 * @MLX5_UMR_FAKE_SYND_BAD_PAS: PAS entry unaligned or not mapped
 * @MLX5_UMR_FAKE_SYND_BAD_SIZE: queue larger than the caps allow
 * @MLX5_UMR_FAKE_SYND_BAD_ST: QP service type other than REG_UMR
 * @MLX5_UMR_FAKE_SYND_BAD_RQ: QP with a receive queue, or without SQ
 * @MLX5_UMR_FAKE_SYND_BAD_QP: QP does not exist
 * @MLX5_UMR_FAKE_SYND_BAD_QP_STATE: transition not allowed from the state
 * @MLX5_UMR_FAKE_SYND_BAD_MKEY: mkey index does not exist
 * @MLX5_UMR_FAKE_SYND_BAD_ACCESS_MODE: access mode other than PA, MTT,
 *	KLMS, KSM
 * @MLX5_UMR_FAKE_SYND_XLT_TOO_BIG: translation larger than the caps allow,
 *	or inline translation larger than translations_octword_size
 * @MLX5_UMR_FAKE_SYND_BAD_PSV: PSV does not exist
 * @MLX5_UMR_FAKE_SYND_BAD_CAP_TYPE: capability type other than general
 * @MLX5_UMR_FAKE_SYND_BAD_CQE_SIZE: CQE size other than 64 bytes
 * @MLX5_UMR_FAKE_SYND_BAD_FIELD: another field the fake does not accept
 * @MLX5_UMR_FAKE_SYND_BAD_OBJ_TYPE: general object type other than
 *	ENCRYPTION_KEY
 * @MLX5_UMR_FAKE_SYND_BAD_DEK: DEK (encryption key object) does not exist
 * @MLX5_UMR_FAKE_SYND_BAD_UID: the command's uid names no user context, or
 *	names one the object it destroys (or the PD it uses) does not belong
 *	to (Documentation/fake.rst, "User contexts and uids")
 * @MLX5_UMR_FAKE_SYND_UCTX_BUSY: DESTROY_UCTX while objects of its uid
 *	live
 *
 * Real firmware returns opaque 32-bit syndromes; the fake returns these so
 * tests can tell causes apart. The status (MLX5_CMD_STAT_*) is what real
 * firmware would return for the same mistake.
 */
enum mlx5_umr_fake_cmd_synd {
	MLX5_UMR_FAKE_SYND_BAD_OPCODE = 0xfa4e0001,
	MLX5_UMR_FAKE_SYND_BAD_INLEN,
	MLX5_UMR_FAKE_SYND_BAD_OUTLEN,
	MLX5_UMR_FAKE_SYND_NO_RESOURCES,
	MLX5_UMR_FAKE_SYND_BAD_PD,
	MLX5_UMR_FAKE_SYND_PD_BUSY,
	MLX5_UMR_FAKE_SYND_BAD_CQ,
	MLX5_UMR_FAKE_SYND_CQ_BUSY,
	MLX5_UMR_FAKE_SYND_BAD_UAR,
	MLX5_UMR_FAKE_SYND_BAD_DBR,
	MLX5_UMR_FAKE_SYND_BAD_PAS,
	MLX5_UMR_FAKE_SYND_BAD_SIZE,
	MLX5_UMR_FAKE_SYND_BAD_ST,
	MLX5_UMR_FAKE_SYND_BAD_RQ,
	MLX5_UMR_FAKE_SYND_BAD_QP,
	MLX5_UMR_FAKE_SYND_BAD_QP_STATE,
	MLX5_UMR_FAKE_SYND_BAD_MKEY,
	MLX5_UMR_FAKE_SYND_BAD_ACCESS_MODE,
	MLX5_UMR_FAKE_SYND_XLT_TOO_BIG,
	MLX5_UMR_FAKE_SYND_BAD_PSV,
	MLX5_UMR_FAKE_SYND_BAD_CAP_TYPE,
	MLX5_UMR_FAKE_SYND_BAD_CQE_SIZE,
	MLX5_UMR_FAKE_SYND_BAD_FIELD,
	MLX5_UMR_FAKE_SYND_BAD_OBJ_TYPE,
	MLX5_UMR_FAKE_SYND_BAD_DEK,
	MLX5_UMR_FAKE_SYND_BAD_UID,
	MLX5_UMR_FAKE_SYND_UCTX_BUSY,
};

/**
 * struct mlx5_umr_fake_caps - general capabilities the fake reports
 * @log_max_klm_list_size: log2 of the largest KLM/KSM translation
 * @umr_fence: MLX5_FENCE_MODE_* index the service must use (0..2)
 * @umr_modify_entity_size_disabled: UMR may not change log_page_size
 * @umr_modify_atomic_disabled: UMR may not change the A access bit
 * @umr_indirect_mkey_disabled: UMR may not modify KLM/KSM mkeys
 * @umr_extended_translation_offset: xlt_offset_47_16 may be non-zero
 * @relaxed_ordering_write_umr: UMR may set relaxed_ordering_write
 * @relaxed_ordering_read_umr: UMR may set relaxed_ordering_read
 * @atomic: atomic operations supported (reported only)
 * @umr_ptr_rlky: pointer-mode UMR may use the reserved lkey
 * @log_max_qp_sz: log2 of the largest SQ in WQEBBs
 * @log_max_cq_sz: log2 of the largest CQ in CQEs
 * @crypto: the device generation's AES-XTS engine, an
 *	MLX5_UMR_FAKE_CRYPTO_* profile (Documentation/fake.rst, "Crypto
 *	profiles"); set it with mlx5_umr_fake_set_crypto()
 * @crypto_wrapped_import: crypto_cap.wrapped_import_method says AES-XTS:
 *	the device takes only wrapped DEKs (and the fake refuses plaintext
 *	ones)
 * @crypto_synchronize_dek: crypto_cap.synchronize_dek: the device caches
 *	keys per DEK number until SYNC_CRYPTO
 * @sigerr_domain_and_sig_type: cmd_hca_cap bit 0x480 (rdma-core
 *	mlx5_ifc.h): SIG_ERR CQEs name the signature type and the domain of
 *	the failed check in bytes 34-35; without it they are zero (a
 *	device of before that bit, as mlx5_ib's struct mlx5_sig_err_cqe)
 * @log_max_uctx: cmd_hca_cap.log_max_uctx: log2 of the user contexts
 *	(CREATE_UCTX) the device holds; 0: none, and CREATE_UCTX is
 *	BAD_OP_ERR (mlx5_ib then refuses DEVX, devx.c mlx5_ib_devx_create())
 */
struct mlx5_umr_fake_caps {
	u8 log_max_klm_list_size;
	u8 umr_fence;
	bool umr_modify_entity_size_disabled;
	bool umr_modify_atomic_disabled;
	bool umr_indirect_mkey_disabled;
	bool umr_extended_translation_offset;
	bool relaxed_ordering_write_umr;
	bool relaxed_ordering_read_umr;
	bool atomic;
	bool umr_ptr_rlky;
	u8 log_max_qp_sz;
	u8 log_max_cq_sz;
	/* crypto (issue 27, crypto half): keep the signature flags apart */
	u8 crypto;
	bool crypto_wrapped_import;
	bool crypto_synchronize_dek;

	/* block signature */
	bool sigerr_domain_and_sig_type;
	/* user contexts (DEVX uids) */
	u8 log_max_uctx;
};

/**
 * enum mlx5_umr_fake_crypto - crypto device generations of the fake
 * @MLX5_UMR_FAKE_CRYPTO_NONE: no cmd_hca_cap.crypto (ENCRYPTION_KEY
 *	objects still reported, as on a kTLS/IPsec device)
 * @MLX5_UMR_FAKE_CRYPTO_SINGLE_LE: aes_xts_single_block_le_tweak only:
 *	an access may not span two data units
 * @MLX5_UMR_FAKE_CRYPTO_MULTI_LE: aes_xts_multi_block_le_tweak
 * @MLX5_UMR_FAKE_CRYPTO_MULTI_BE: aes_xts_multi_block_be_tweak (with
 *	single block, as rdma-core's verbs.c reads it): the BSF's tweak is a
 *	big-endian number
 * @MLX5_UMR_FAKE_CRYPTO_NR: the number of profiles
 */
enum mlx5_umr_fake_crypto {
	MLX5_UMR_FAKE_CRYPTO_NONE,
	MLX5_UMR_FAKE_CRYPTO_SINGLE_LE,
	MLX5_UMR_FAKE_CRYPTO_MULTI_LE,
	MLX5_UMR_FAKE_CRYPTO_MULTI_BE,
	MLX5_UMR_FAKE_CRYPTO_NR,
};

/*
 * Completion events raised by a command (2ERR_QP flushing posted WQEs) are
 * delivered before the command returns. Those a doorbell raises are always
 * queued to the fake's workqueue, never delivered inside write_db, as in
 * the default mode: a doorbell's WQEs run and their CQEs are written before
 * write_db returns, comp() follows later (mlx5_umr_fake_flush() waits).
 */
#define MLX5_UMR_FAKE_F_SYNC		BIT(0)
/* Offer the fake to the UMR service (mlx5_umr_register_hca()). */
#define MLX5_UMR_FAKE_F_REGISTER	BIT(1)
/*
 * Execute WQEs from the workqueue instead of inside write_db, so CQEs
 * appear some time after the doorbell, as on hardware. Not with F_SYNC.
 */
#define MLX5_UMR_FAKE_F_ASYNC_EXEC	BIT(2)
/*
 * Null device, for benchmarks: WQEs are consumed and completed, never
 * decoded or executed. When a send doorbell names a WQE that ends at the
 * doorbell record and asks for a CQE, only that WQE's ctrl segment is read
 * and its CQE covers the rest; otherwise every ctrl segment is read for the
 * index, size and CQE request.
 */
#define MLX5_UMR_FAKE_F_NULL		BIT(3)

/**
 * struct mlx5_umr_fake_attr - how to build a private fake
 * @flags: MLX5_UMR_FAKE_F_*
 * @caps: capabilities; start from mlx5_umr_fake_attr_init()
 * @nqueues: UMR queues the service gives this HCA (mlx5_umr_hca.nqueues),
 *	0 for the module parameter
 */
struct mlx5_umr_fake_attr {
	u32 flags;
	struct mlx5_umr_fake_caps caps;
	u16 nqueues;
};

/**
 * struct mlx5_umr_fake_counters - live objects and event counts
 * @pds: live protection domains
 * @mkeys: live mkeys (the reserved lkey is not counted)
 * @cqs: live CQs
 * @qps: live QPs
 * @psvs: live PSVs
 * @uars: live UAR pages
 * @dma_bufs: live buffers from alloc_dma_buf
 * @sg_maps: live dma_map_sg mappings
 * @iommu_pages: pages currently mapped in the fake IOMMU
 * @iommu_faults: accesses to unmapped device addresses so far
 * @wqes: WQEs executed (not flushed); on a null device, WQEs read
 * @cqes: CQEs written, errors and flushes included
 * @err_cqes: error CQEs written, flushes excluded
 * @flush_cqes: flush-error CQEs written
 * @events: completion events raised
 * @cq_overruns: CQEs lost because a CQ was full
 * @bad_doorbells: doorbells naming no object of that UAR
 * @send_doorbells: send doorbells naming a live QP (one per posted batch)
 * @deks: live data encryption keys (ENCRYPTION_KEY general objects)
 * @uctxs: live user contexts (CREATE_UCTX)
 */
struct mlx5_umr_fake_counters {
	u32 pds;
	u32 mkeys;
	u32 cqs;
	u32 qps;
	u32 psvs;
	u32 uars;
	u32 dma_bufs;
	u32 sg_maps;
	u64 iommu_pages;
	u64 iommu_faults;
	u64 wqes;
	u64 cqes;
	u64 err_cqes;
	u64 flush_cqes;
	u64 events;
	u64 cq_overruns;
	u64 bad_doorbells;
	u64 send_doorbells;
	u32 deks;
	u32 uctxs;
};

void mlx5_umr_fake_attr_init(struct mlx5_umr_fake_attr *attr);
void mlx5_umr_fake_set_crypto(struct mlx5_umr_fake_caps *caps,
			      enum mlx5_umr_fake_crypto profile);
const char *mlx5_umr_fake_crypto_name(enum mlx5_umr_fake_crypto profile);
struct mlx5_umr_fake *mlx5_umr_fake_create(const struct mlx5_umr_fake_attr *attr);
void mlx5_umr_fake_destroy(struct mlx5_umr_fake *fake);
struct mlx5_umr_hca *mlx5_umr_fake_hca(struct mlx5_umr_fake *fake);
struct mlx5_umr_fake *mlx5_umr_fake_from_hca(struct mlx5_umr_hca *hca);

void mlx5_umr_fake_get_counters(struct mlx5_umr_fake *fake,
				struct mlx5_umr_fake_counters *cnt);
int mlx5_umr_fake_query_mkey(struct mlx5_umr_fake *fake, u32 key, void *mkc,
			     void *xlt, size_t xlt_len);
int mlx5_umr_fake_query_bsf(struct mlx5_umr_fake *fake, u32 key, void *bsf,
			    size_t len);
int mlx5_umr_fake_qp_state(struct mlx5_umr_fake *fake, u32 qpn, u16 *sq_ci);
int mlx5_umr_fake_xfer_pd(struct mlx5_umr_fake *fake, u32 pdn, u32 key,
			  u64 offset, void *buf, size_t len, bool write,
			  bool remote);
int mlx5_umr_fake_xfer(struct mlx5_umr_fake *fake, u32 key, u64 offset,
		       void *buf, size_t len, bool write, bool remote);
int mlx5_umr_fake_remote_invalidate(struct mlx5_umr_fake *fake, u32 key);
int mlx5_umr_fake_xfer_out(struct mlx5_umr_fake *fake, u32 key, u64 offset,
			   void *buf, size_t len, bool write, bool remote,
			   struct mlx5_umr_test_xfer_out *out);
int mlx5_umr_fake_query_psv(struct mlx5_umr_fake *fake, u32 psvn,
			    struct mlx5_seg_set_psv *val,
			    struct mlx5_sig_err_cqe *err);
u64 mlx5_umr_fake_crc64_xp10(u64 crc, const void *p, size_t len);
u16 mlx5_umr_fake_crc_t10dif(u16 crc, const void *p, size_t len);
void mlx5_umr_fake_flush(struct mlx5_umr_fake *fake);

void mlx5_umr_fake_inject_cmd_error(struct mlx5_umr_fake *fake, u16 opcode,
				    u8 status, u32 syndrome);
unsigned int mlx5_umr_fake_inject_cmd_nth(struct mlx5_umr_fake *fake,
					  unsigned int nth, u8 status,
					  u32 syndrome);
void mlx5_umr_fake_inject_wqe_error(struct mlx5_umr_fake *fake, u8 syndrome,
				    u8 vendor_synd);
void mlx5_umr_fake_inject_drop_cqe(struct mlx5_umr_fake *fake,
				   unsigned int count);
void mlx5_umr_fake_inject_delay(struct mlx5_umr_fake *fake,
				unsigned int msecs);
void mlx5_umr_fake_inject_internal_error(struct mlx5_umr_fake *fake);
int mlx5_umr_fake_stall_qp(struct mlx5_umr_fake *fake, u32 qpn, bool stall);
int mlx5_umr_fake_inject_wqe_error_qp(struct mlx5_umr_fake *fake, u32 qpn,
				      u8 syndrome, u8 vendor_synd);
int mlx5_umr_fake_inject_drop_cqe_qp(struct mlx5_umr_fake *fake, u32 qpn,
				     unsigned int count);

/**
 * struct mlx5_umr_fake_exec_ent - one WQE the fake executed
 * @qpn: the QP it ran on
 * @wqe_idx: the index its ctrl segment carries (what its CQE reports)
 * @opcode: MLX5_OPCODE_* of the ctrl segment
 * @key: UMR: the low byte of the ctrl segment's target key (for a UMR
 *	installing a new key byte, the new one); otherwise 0
 * @index: UMR: the target mkey's index (ctrl umr_mkey >> 8); SET_PSV: the
 *	PSV number; otherwise 0
 * @mkey_mask: UMR: the UMR ctrl segment's mkey_mask; otherwise 0
 * @free: UMR: the mkey segment's free bit (what the UMR writes when
 *	@mkey_mask has MLX5_MKEY_MASK_FREE, as an invalidation does)
 * @syndrome: 0 when the WQE succeeded, else its error CQE's syndrome
 *	(MLX5_CQE_SYNDROME_*)
 * @vendor_syndrome: with @syndrome, enum mlx5_umr_fake_vsynd
 *
 * Fields a WQE too short to hold are 0.
 */
struct mlx5_umr_fake_exec_ent {
	u32 qpn;
	u16 wqe_idx;
	u8 opcode;
	u8 key;
	u32 index;
	u64 mkey_mask;
	bool free;
	u8 syndrome;
	u8 vendor_syndrome;
};

int mlx5_umr_fake_exec_log_start(struct mlx5_umr_fake *fake,
				 unsigned int capacity);
void mlx5_umr_fake_exec_log_stop(struct mlx5_umr_fake *fake);
unsigned int mlx5_umr_fake_exec_log_read(struct mlx5_umr_fake *fake,
					 unsigned int first,
					 struct mlx5_umr_fake_exec_ent *ents,
					 unsigned int max,
					 unsigned int *dropped);

/*
 * Consumers' protection domains (fake_ib.c): stand-ins of mlx5_ib's
 * ib_device and of a ULP's struct ib_pd, and bare PDs of consumer QPs.
 */
struct ib_device;
struct ib_pd;

struct ib_device *mlx5_umr_fake_ibdev(struct mlx5_umr_fake *fake);
struct ib_pd *mlx5_umr_fake_ib_pd_alloc(struct mlx5_umr_fake *fake);
void mlx5_umr_fake_ib_pd_free(struct ib_pd *pd);
u32 mlx5_umr_fake_ib_pdn(const struct ib_pd *pd);
int mlx5_umr_fake_pd_alloc(struct mlx5_umr_fake *fake, u32 *pdn);
int mlx5_umr_fake_pd_free(struct mlx5_umr_fake *fake, u32 pdn);

#endif /* _LINUX_MLX5_UMR_FAKE_H */
