/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: in-kernel API of the UMR service.
 *
 * Consumers (ULPs such as NVMe-oF and iSER, and the uapi) allocate indirect
 * mkeys and reconfigure them by posting UMR work requests on the service's
 * reserved per-device REG_UMR QP. Semantics follow rdma-core's
 * mlx5dv_wr_mr_list(), mlx5dv_wr_mr_interleaved() and
 * mlx5dv_wr_mkey_configure(). Symbols live in the MLX5_UMR namespace:
 * MODULE_IMPORT_NS(MLX5_UMR).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _LINUX_MLX5_UMR_H
#define _LINUX_MLX5_UMR_H

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/types.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/scatterlist.h>
#include <linux/dma-direction.h>
#include <linux/workqueue.h>
#include <linux/completion.h>
#include <linux/percpu-refcount.h>

struct mlx5_umr_dev;
struct ib_device;
struct mlx5_umr_sig_attr;
struct mlx5_sig_err_cqe;

/**
 * struct mlx5_umr_caps - what the service offers on one device
 * @max_klm_entries: largest translation list of one indirect mkey
 *	(1 << log_max_klm_list_size)
 * @max_inline_entries: SGE-list entries that fit inline in one WQE
 * @dma_lkey: the lkey through which a KLM entry addresses device
 *	(DMA) addresses directly: a PA mkey (local access) the service
 *	creates at bring-up, as mlx5_ib's local_dma_lkey
 * @pdn: protection domain of the mkeys the service creates
 * @umr_fence: fence mode the HCA requires after a UMR (MLX5_FENCE_MODE_*)
 * @atomic: remote atomic access may be granted
 * @umr_modify_entity_size_disabled: caps bit of the same name
 * @umr_extended_translation_offset: caps bit of the same name
 * @umr_modify_atomic_disabled: caps bit of the same name
 * @umr_indirect_mkey_disabled: caps bit of the same name: no UMR on an
 *	indirect mkey, every such request is refused with -EOPNOTSUPP
 * @sig: block signature (caps bit sho, signature handover, as mlx5_ib's
 *	IB_DEVICE_INTEGRITY_HANDOVER): MLX5_UMR_MKEY_SIGNATURE is available
 * @sig_err_domain: SIG_ERR CQEs name the domain and signature type of
 *	the failed check (cmd_hca_cap sigerr_domain_and_sig_type); the status
 *	then decodes each domain's error by its own signature
 * @crypto: AES-XTS crypto mkeys and DEKs (128 and 256-bit keys, keytags,
 *	the data unit sizes of enum mlx5_umr_block_size): the HCA has
 *	cmd_hca_cap.crypto, ENCRYPTION_KEY general objects, an AES-XTS engine
 *	(@crypto_engine) and takes plaintext keys (not @crypto_wrapped_import),
 *	as rdma-core and SPDK require (Documentation/crypto.rst)
 * @crypto_engine: MLX5_UMR_CRYPTO_ENGINE_*, whether or not @crypto
 * @crypto_tweak_be: the HCA reads the BSF's initial tweak big endian
 *	(aes_xts_multi_block_be_tweak): the service byte-reverses the
 *	caller's little-endian tweak into the BSF
 * @crypto_wrapped_import: DEKs must be imported wrapped (crypto_cap
 *	wrapped_import_method AES-XTS), which the service does not offer
 * @crypto_synchronize_dek: crypto_cap.synchronize_dek: the service runs
 *	SYNC_CRYPTO after destroying DEKs, before the next DEK is created
 * @nqueues: the device's UMR queues (module parameter ``queues``, capped by
 *	the HCA); an mkey's requests all run on its home queue, the queue of
 *	the CPU that allocated it (Documentation/service.rst, "Queues and
 *	ordering")
 */
struct mlx5_umr_caps {
	u32 max_klm_entries;
	u32 max_inline_entries;
	u32 dma_lkey;
	u32 pdn;
	u8 umr_fence;
	bool atomic;
	bool umr_modify_entity_size_disabled;
	bool umr_extended_translation_offset;
	bool umr_modify_atomic_disabled;
	bool umr_indirect_mkey_disabled;
	bool sig;
	bool sig_err_domain;
	bool crypto;
	u8 crypto_engine;
	bool crypto_tweak_be;
	bool crypto_wrapped_import;
	bool crypto_synchronize_dek;
	u16 nqueues;
};

/**
 * enum mlx5_umr_crypto_engine - the AES-XTS engine of a device
 * @MLX5_UMR_CRYPTO_ENGINE_NONE: none
 * @MLX5_UMR_CRYPTO_ENGINE_SINGLE_BLOCK: one data unit per mkey
 *	(aes_xts_single_block_le_tweak alone): a CONFIGURE that leaves a
 *	crypto mkey longer than its data unit is refused (-EINVAL), as
 *	rdma-core's crypto_umr_wqe_finalize() does
 * @MLX5_UMR_CRYPTO_ENGINE_MULTI_BLOCK: any number of data units
 *	(aes_xts_multi_block_le_tweak or aes_xts_multi_block_be_tweak)
 */
enum mlx5_umr_crypto_engine {
	MLX5_UMR_CRYPTO_ENGINE_NONE,
	MLX5_UMR_CRYPTO_ENGINE_SINGLE_BLOCK,
	MLX5_UMR_CRYPTO_ENGINE_MULTI_BLOCK,
};

/**
 * struct mlx5_umr_client - a consumer told about devices as they come and go
 * @name: for logging
 * @add: a device became available; may sleep. A non-zero return is logged
 *	and the client is not told about that device again.
 * @remove: the device is going away; may sleep. The client must release
 *	everything it holds on @dev before returning.
 * @list: private to the service
 */
struct mlx5_umr_client {
	const char *name;
	int (*add)(struct mlx5_umr_dev *dev);
	void (*remove)(struct mlx5_umr_dev *dev);
	struct list_head list;
};

int mlx5_umr_register_client(struct mlx5_umr_client *client);
void mlx5_umr_unregister_client(struct mlx5_umr_client *client);

struct mlx5_umr_dev *mlx5_umr_dev_get(const char *name);
struct mlx5_umr_dev *mlx5_umr_dev_get_ib(const struct ib_device *ibdev);
void mlx5_umr_dev_hold(struct mlx5_umr_dev *dev);
void mlx5_umr_dev_put(struct mlx5_umr_dev *dev);
const char *mlx5_umr_dev_name(const struct mlx5_umr_dev *dev);
const struct mlx5_umr_caps *mlx5_umr_dev_caps(const struct mlx5_umr_dev *dev);

/* Access rights, with the values of enum ibv_access_flags. */
#define MLX5_UMR_ACCESS_LOCAL_WRITE	BIT(0)
#define MLX5_UMR_ACCESS_REMOTE_WRITE	BIT(1)
#define MLX5_UMR_ACCESS_REMOTE_READ	BIT(2)
#define MLX5_UMR_ACCESS_REMOTE_ATOMIC	BIT(3)
#define MLX5_UMR_ACCESS_ALL		(MLX5_UMR_ACCESS_LOCAL_WRITE |	\
					 MLX5_UMR_ACCESS_REMOTE_WRITE |	\
					 MLX5_UMR_ACCESS_REMOTE_READ |	\
					 MLX5_UMR_ACCESS_REMOTE_ATOMIC)

/* Flags of mlx5_umr_alloc_mkey(). */
#define MLX5_UMR_MKEY_REMOTE_INVALIDATE	BIT(0)
/*
 * A block-signature mkey: BSF and PSVs (Documentation/signature.rst).
 * Every QP that can access it must have its CQ polled by the caller, who
 * hands SIG_ERR CQEs to mlx5_umr_sig_report(): never an mlx5_ib CQ, whose
 * poll dereferences NULL for an mkey mlx5_ib did not create (cq.c
 * MLX5_CQE_SIG_ERR). In the service's PDs no mlx5_ib QP can access it.
 */
#define MLX5_UMR_MKEY_SIGNATURE		BIT(1)
/*
 * A crypto mkey (caps->crypto): every CONFIGURE of it carries
 * MLX5_UMR_WR_SET_CRYPTO (Documentation/crypto.rst). With
 * MLX5_UMR_MKEY_SIGNATURE too it signs and encrypts, in the order
 * struct mlx5_umr_crypto_attr.signature_crypto_order gives.
 */
#define MLX5_UMR_MKEY_CRYPTO		BIT(2)
#define MLX5_UMR_MKEY_FLAGS	(MLX5_UMR_MKEY_REMOTE_INVALIDATE | \
				 MLX5_UMR_MKEY_SIGNATURE | MLX5_UMR_MKEY_CRYPTO)

/**
 * struct mlx5_umr_mkey - an mkey the service can reconfigure
 * @dev: owning device
 * @key: the lkey/rkey (index << 8 | variant)
 * @max_entries: translation entries the mkey was sized for
 * @flags: MLX5_UMR_MKEY_* given at allocation
 * @direct: an MTT mkey over pages (registered memory), not an indirect one
 * @psv: MLX5_UMR_MKEY_SIGNATURE: the PSV numbers of its memory and wire
 *	domain (set by the service, read-only)
 * @dma_lkey: the DMA key of the PD the mkey is in (an
 *	MLX5_UMR_LAYOUT_SGT layout names it unless the request gives
 *	@sgt.lkey), 0 when the service knows none for that PD. Set at
 *	allocation; a request with MLX5_UMR_WR_SET_PD replaces it when it is
 *	posted, with the @sgt.lkey of its SGT layout, the service's own for
 *	the service's PD, else 0; a failed move leaves it 0
 * @pdn: the PD the mkey is in (a crypto mkey's DEK must be of it): set at
 *	allocation, replaced by a request with MLX5_UMR_WR_SET_PD when it is
 *	posted, as @dma_lkey is; after a failed move MLX5_UMR_PDN_UNKNOWN
 *	until a move succeeds
 *
 * The service keeps private state after these fields.
 */
struct mlx5_umr_mkey {
	struct mlx5_umr_dev *dev;
	u32 key;
	u32 max_entries;
	u32 flags;
	bool direct;
	u32 psv[2];
	u32 dma_lkey;
	u32 pdn;
};

/* struct mlx5_umr_mkey.pdn after a move that may or may not have run */
#define MLX5_UMR_PDN_UNKNOWN	U32_MAX
/* The largest PD number: mkc.pd is 24 bits wide (rule 9). */
#define MLX5_UMR_PDN_MAX	0xffffffU

struct mlx5_umr_mkey *mlx5_umr_alloc_mkey(struct mlx5_umr_dev *dev,
					  u32 max_entries, u32 flags);
struct mlx5_umr_mkey *mlx5_umr_alloc_mtt_mkey(struct mlx5_umr_dev *dev,
					      u32 max_pages, u32 flags);
struct mlx5_umr_mkey *mlx5_umr_alloc_mkey_pd(struct mlx5_umr_dev *dev,
					     u32 max_entries, u32 flags,
					     u32 pdn);
int mlx5_umr_free_mkey(struct mlx5_umr_mkey *mkey);
int mlx5_umr_pd_alloc(struct mlx5_umr_dev *dev, u32 *pdn);
void mlx5_umr_pd_free(struct mlx5_umr_dev *dev, u32 pdn);

/**
 * struct mlx5_umr_sge - one SGE-list entry, shaped like struct ibv_sge
 * @addr: address in the address space of @key
 * @length: bytes
 * @key: lkey of the memory the entry points into
 */
struct mlx5_umr_sge {
	u64 addr;
	u32 length;
	u32 key;
};

/**
 * struct mlx5_umr_interleaved - one interleaved entry, shaped like
 * struct mlx5dv_mr_interleaved
 * @addr: start address in the address space of @key
 * @bytes_count: bytes taken from this entry per cycle
 * @bytes_skip: bytes skipped after them per cycle
 * @key: lkey of the memory the entry points into
 */
struct mlx5_umr_interleaved {
	u64 addr;
	u32 bytes_count;
	u32 bytes_skip;
	u32 key;
};

enum mlx5_umr_op {
	MLX5_UMR_OP_CONFIGURE,	/* access and/or layout of an indirect mkey */
	MLX5_UMR_OP_INVALIDATE,	/* move the mkey to the free state */
	MLX5_UMR_OP_REG_PAGES,	/* XLT update of a direct (MTT) mkey */
};

enum mlx5_umr_layout {
	MLX5_UMR_LAYOUT_NONE,		/* keep the current translation */
	MLX5_UMR_LAYOUT_LIST,		/* mlx5dv_wr_set_mkey_layout_list */
	MLX5_UMR_LAYOUT_INTERLEAVED,	/* mlx5dv_wr_set_mkey_layout_interleaved */
	MLX5_UMR_LAYOUT_SGT,		/* a DMA-mapped scatterlist */
};

/* mlx5_umr_wr.flags */
#define MLX5_UMR_WR_SET_ACCESS	BIT(0)	/* apply @access */
#define MLX5_UMR_WR_SET_PD	BIT(1)	/* apply @pdn */
#define MLX5_UMR_WR_NEW_KEY	BIT(2)	/* install a fresh key byte: @new_key */
/*
 * The request depends on the requests before it in its batch: when one of
 * them fails on the HCA (an error CQE), it is not posted again after
 * recovery but completes with -ECANCELED, never run. Without it a request
 * an error flushed is posted again and runs (Documentation/service.rst,
 * "Errors and back-pressure").
 */
#define MLX5_UMR_WR_DEPENDS	BIT(3)
/*
 * Set the mkey's start address to @iova with the new translation (a
 * CONFIGURE with a layout): byte n of the layout is then at address
 * @iova + n, as an FRWR MR's is at mr->iova + n (mlx5_ib wr.c
 * set_reg_mkey_seg() writes mr->iova in mkc.start_addr). The address stays
 * until a request with this flag changes it (@iova 0: zero-based again). An
 * mkey never given one is zero-based: byte n of its layout is at address n,
 * as rdma-core's mlx5dv mkeys are (Documentation/porting.rst).
 */
#define MLX5_UMR_WR_SET_IOVA	BIT(4)
/* signature mkeys only (Documentation/signature.rst) */
#define MLX5_UMR_WR_SET_SIG	BIT(8)	/* apply @sig */
#define MLX5_UMR_WR_RESET_SIG	BIT(9)	/* drop the signature */
#define MLX5_UMR_WR_SET_CRYPTO	BIT(10)	/* crypto attributes: @crypto */

struct mlx5_umr_wr;

int mlx5_umr_validate(struct mlx5_umr_dev *dev, const struct mlx5_umr_wr *wr);

/**
 * mlx5_umr_post_busy() - is an error of mlx5_umr_post() back-pressure?
 * @err: what mlx5_umr_post() returned
 *
 * -ENOSPC (the send queue has no room: retry after a completion, any
 * consumer's), -EAGAIN (the queue is being recovered after an error CQE
 * or a timeout: retry once it is back, which takes at least one command
 * round trip) and -EBUSY (a pointer-mode mkey's table is in use by an
 * earlier request of that mkey: retry after its done()) posted nothing
 * and will succeed later; a blk-mq driver returns BLK_STS_RESOURCE for
 * them (Documentation/service.rst, "Errors and back-pressure"). Every
 * other error is final for the batch.
 *
 * Return: true for the three back-pressure errnos.
 */
static inline bool mlx5_umr_post_busy(int err)
{
	return err == -ENOSPC || err == -EAGAIN || err == -EBUSY;
}

int mlx5_umr_post(struct mlx5_umr_dev *dev, struct mlx5_umr_wr **wrs,
		  unsigned int n);
int mlx5_umr_exec(struct mlx5_umr_dev *dev, struct mlx5_umr_wr *wr,
		  unsigned int timeout_ms);

int mlx5_umr_dma_map_sg(struct mlx5_umr_dev *dev, struct sg_table *sgt,
			enum dma_data_direction dir);
void mlx5_umr_dma_unmap_sg(struct mlx5_umr_dev *dev, struct sg_table *sgt,
			   enum dma_data_direction dir);

/*
 * Block signature (data integrity) of an indirect mkey, with the semantics
 * of rdma-core's mlx5dv_wr_set_mkey_sig_block(3) and mlx5dv_mkey_check(3);
 * the values of each enum are rdma-core's (mlx5dv.h). See
 * Documentation/signature.rst.
 */

/**
 * enum mlx5_umr_sig_type - what protects the blocks of one domain
 * @MLX5_UMR_SIG_NONE: nothing (rdma-core: a NULL domain pointer)
 * @MLX5_UMR_SIG_T10DIF: an 8-byte T10 DIF after each block
 *	(MLX5DV_SIG_TYPE_T10DIF)
 * @MLX5_UMR_SIG_CRC: a 4- or 8-byte CRC after each block (MLX5DV_SIG_TYPE_CRC)
 */
enum mlx5_umr_sig_type {
	MLX5_UMR_SIG_NONE,
	MLX5_UMR_SIG_T10DIF,
	MLX5_UMR_SIG_CRC,
};

/**
 * enum mlx5_umr_sig_t10dif_bg - the T10 DIF guard (enum mlx5dv_sig_t10dif_bg_type)
 * @MLX5_UMR_SIG_T10DIF_CRC: CRC-16/T10-DIF
 * @MLX5_UMR_SIG_T10DIF_CSUM: IP checksum
 */
enum mlx5_umr_sig_t10dif_bg {
	MLX5_UMR_SIG_T10DIF_CRC,
	MLX5_UMR_SIG_T10DIF_CSUM,
};

/* mlx5_umr_sig_t10dif.flags (enum mlx5dv_sig_t10dif_flags) */
#define MLX5_UMR_SIG_T10DIF_REF_REMAP		BIT(0)	/* ref tag +1 per block */
#define MLX5_UMR_SIG_T10DIF_APP_ESCAPE		BIT(1)	/* no check: app 0xffff */
#define MLX5_UMR_SIG_T10DIF_APP_REF_ESCAPE	BIT(2)	/* ... and ref 0xffffffff */
#define MLX5_UMR_SIG_T10DIF_FLAGS	(MLX5_UMR_SIG_T10DIF_REF_REMAP | \
					 MLX5_UMR_SIG_T10DIF_APP_ESCAPE | \
					 MLX5_UMR_SIG_T10DIF_APP_REF_ESCAPE)

/**
 * struct mlx5_umr_sig_t10dif - T10 DIF parameters (struct mlx5dv_sig_t10dif)
 * @bg_type: enum mlx5_umr_sig_t10dif_bg
 * @bg: guard seed: 0 or 0xffff
 * @app_tag: application tag to generate or check
 * @ref_tag: reference tag of the first block
 * @flags: MLX5_UMR_SIG_T10DIF_*
 */
struct mlx5_umr_sig_t10dif {
	u32 bg_type;
	u16 bg;
	u16 app_tag;
	u32 ref_tag;
	u16 flags;
};

/**
 * enum mlx5_umr_sig_crc_type - the CRC (enum mlx5dv_sig_crc_type)
 * @MLX5_UMR_SIG_CRC32: CRC-32 (FC-PH), 4 bytes
 * @MLX5_UMR_SIG_CRC32C: CRC-32C (Castagnoli, iSCSI), 4 bytes
 * @MLX5_UMR_SIG_CRC64_XP10: CRC-64 of Microsoft XP10, 8 bytes
 */
enum mlx5_umr_sig_crc_type {
	MLX5_UMR_SIG_CRC32,
	MLX5_UMR_SIG_CRC32C,
	MLX5_UMR_SIG_CRC64_XP10,
};

/**
 * struct mlx5_umr_sig_crc - CRC parameters (struct mlx5dv_sig_crc)
 * @type: enum mlx5_umr_sig_crc_type
 * @seed: 0 or all ones of the CRC's width (U32_MAX, or U64_MAX for
 *	CRC64_XP10)
 */
struct mlx5_umr_sig_crc {
	u32 type;
	u64 seed;
};

/**
 * enum mlx5_umr_sig_block_size - data bytes per block (enum mlx5dv_block_size)
 * @MLX5_UMR_SIG_BLOCK_512: 512
 * @MLX5_UMR_SIG_BLOCK_520: 520
 * @MLX5_UMR_SIG_BLOCK_4048: 4048
 * @MLX5_UMR_SIG_BLOCK_4096: 4096
 * @MLX5_UMR_SIG_BLOCK_4160: 4160
 */
enum mlx5_umr_sig_block_size {
	MLX5_UMR_SIG_BLOCK_512,
	MLX5_UMR_SIG_BLOCK_520,
	MLX5_UMR_SIG_BLOCK_4048,
	MLX5_UMR_SIG_BLOCK_4096,
	MLX5_UMR_SIG_BLOCK_4160,
};

/**
 * struct mlx5_umr_sig_domain - the memory or the wire side
 *	(struct mlx5dv_sig_block_domain)
 * @sig_type: enum mlx5_umr_sig_type; MLX5_UMR_SIG_NONE ignores the rest
 * @dif: MLX5_UMR_SIG_T10DIF
 * @crc: MLX5_UMR_SIG_CRC
 * @block_size: enum mlx5_umr_sig_block_size
 */
struct mlx5_umr_sig_domain {
	u32 sig_type;
	union {
		struct mlx5_umr_sig_t10dif dif;
		struct mlx5_umr_sig_crc crc;
	};
	u32 block_size;
};

/* Bytes of the protection field (enum mlx5dv_sig_mask), check/copy masks. */
#define MLX5_UMR_SIG_MASK_T10DIF_GUARD	0xc0
#define MLX5_UMR_SIG_MASK_T10DIF_APPTAG	0x30
#define MLX5_UMR_SIG_MASK_T10DIF_REFTAG	0x0f
#define MLX5_UMR_SIG_MASK_CRC32		0xf0
#define MLX5_UMR_SIG_MASK_CRC32C	MLX5_UMR_SIG_MASK_CRC32
#define MLX5_UMR_SIG_MASK_CRC64_XP10	0xff

/* mlx5_umr_sig_attr.flags (enum mlx5dv_sig_block_attr_flags) */
#define MLX5_UMR_SIG_FLAG_COPY_MASK	BIT(0)	/* @copy_mask overrides */

/**
 * struct mlx5_umr_sig_attr - block signature of an mkey
 *	(struct mlx5dv_sig_block_attr)
 * @mem: the data as it is in memory
 * @wire: the data as it is on the wire; at least one of the two has a
 *	signature
 * @flags: MLX5_UMR_SIG_FLAG_*
 * @check_mask: bytes of the input domain's protection field checked
 *	(MLX5_UMR_SIG_MASK_*)
 * @copy_mask: with MLX5_UMR_SIG_FLAG_COPY_MASK, bytes copied from the input
 *	to the output domain instead of computed; both domains must then
 *	have the same type and block size
 */
struct mlx5_umr_sig_attr {
	struct mlx5_umr_sig_domain mem;
	struct mlx5_umr_sig_domain wire;
	u32 flags;
	u8 check_mask;
	u8 copy_mask;
};

/**
 * enum mlx5_umr_sig_err_type - what a check found (enum mlx5dv_mkey_err_type)
 * @MLX5_UMR_SIG_ERR_NONE: no error since the last check
 * @MLX5_UMR_SIG_ERR_GUARD: a block's guard (T10 DIF guard or CRC) differed
 * @MLX5_UMR_SIG_ERR_REFTAG: a block's reference tag differed
 * @MLX5_UMR_SIG_ERR_APPTAG: a block's application tag differed
 */
enum mlx5_umr_sig_err_type {
	MLX5_UMR_SIG_ERR_NONE,
	MLX5_UMR_SIG_ERR_GUARD,
	MLX5_UMR_SIG_ERR_REFTAG,
	MLX5_UMR_SIG_ERR_APPTAG,
};

/**
 * struct mlx5_umr_sig_status - the signature status of an mkey
 *	(struct mlx5dv_mkey_err, struct ib_sig_err)
 * @err_type: enum mlx5_umr_sig_err_type
 * @expected: the value computed from the data (guard), or the tag
 *	configured (guard: 16 bits for T10 DIF, 32 for CRC32/CRC32C, 64 for
 *	CRC64_XP10, a CRC's PI bytes read big endian; tags: 16 or 32 bits),
 *	as ConnectX names it in the SIG_ERR CQE (Documentation/signature.rst)
 * @actual: the value the block's protection field carried, same width
 * @offset: offset of the failing block (err_offset of the SIG_ERR CQE)
 * @key: the key the CQE named
 * @errors: SIG_ERR CQEs reported since the last check (the first is kept)
 */
struct mlx5_umr_sig_status {
	u32 err_type;
	u64 expected;
	u64 actual;
	u64 offset;
	u32 key;
	u32 errors;
};

int mlx5_umr_sig_report(struct mlx5_umr_dev *dev,
			const struct mlx5_sig_err_cqe *cqe);
int mlx5_umr_sig_check(struct mlx5_umr_mkey *mkey,
		       struct mlx5_umr_sig_status *status);
int mlx5_umr_sig_status_read(struct mlx5_umr_mkey *mkey,
			     struct mlx5_umr_sig_status *status);

/*
 * Protection domains of RDMA consumers (drivers/umr/pd.c). On a NIC an
 * mkey is usable only by QPs of its PD: a ULP puts its mkeys in its own
 * struct ib_pd (Documentation/service.rst, "Using these keys on a NIC").
 */
struct ib_pd;

/**
 * struct mlx5_umr_pd - a consumer's protection domain, as the HCA knows it
 * @dev: the device
 * @pdn: the PD number (mkc.pd of every mkey created in it)
 * @dma_lkey: a key valid in @pdn that addresses device (DMA) addresses, for
 *	MLX5_UMR_LAYOUT_SGT (the ib_pd's local_dma_lkey, checked), or 0
 *
 * From mlx5_umr_pd_get_ib(); the service keeps private state after these
 * fields.
 */
struct mlx5_umr_pd {
	struct mlx5_umr_dev *dev;
	u32 pdn;
	u32 dma_lkey;
};

struct mlx5_umr_pd *mlx5_umr_pd_get_ib(struct mlx5_umr_dev *dev,
				       struct ib_pd *ibpd);
void mlx5_umr_pd_put(struct mlx5_umr_pd *pd);
struct mlx5_umr_mkey *mlx5_umr_alloc_mkey_in(struct mlx5_umr_pd *pd,
					     u32 max_entries, u32 flags);

/* ---- crypto mkeys: AES-XTS (Documentation/crypto.rst) ---- */

/* Data unit sizes, with the values of enum mlx5dv_block_size. */
enum mlx5_umr_block_size {
	MLX5_UMR_BLOCK_SIZE_512,
	MLX5_UMR_BLOCK_SIZE_520,
	MLX5_UMR_BLOCK_SIZE_4048,
	MLX5_UMR_BLOCK_SIZE_4096,
	MLX5_UMR_BLOCK_SIZE_4160,
};

/* enum mlx5dv_crypto_standard */
enum mlx5_umr_crypto_standard {
	MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
};

/* enum mlx5dv_signature_crypto_order */
enum mlx5_umr_sig_crypto_order {
	MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX,
	MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX,
};

/* enum mlx5dv_crypto_key_size */
enum mlx5_umr_crypto_key_size {
	MLX5_UMR_CRYPTO_KEY_SIZE_128,
	MLX5_UMR_CRYPTO_KEY_SIZE_256,
};

#define MLX5_UMR_CRYPTO_KEY_MAX		64	/* key1 | key2, AES-256 */
#define MLX5_UMR_CRYPTO_KEYTAG_LEN	8

/* Bytes of key1 | key2 for a key size (0: not one), uapi's values too. */
static inline unsigned int mlx5_umr_dek_key_len(u32 key_size)
{
	switch (key_size) {
	case MLX5_UMR_CRYPTO_KEY_SIZE_128:
		return 32;
	case MLX5_UMR_CRYPTO_KEY_SIZE_256:
		return 64;
	default:
		return 0;
	}
}

/**
 * struct mlx5_umr_dek_attr - a data encryption key to create
 * @key_size: MLX5_UMR_CRYPTO_KEY_SIZE_*: @key holds key1 | key2, 2 x 16 or
 *	2 x 32 bytes (IEEE 1619: key1 encrypts the data, key2 the tweak)
 * @has_keytag: @keytag is checked against every crypto attribute naming
 *	the DEK
 * @pdn: protection domain of the DEK: mkeys of that PD may use it
 * @key: the plaintext key; mlx5_umr_dek_create() zeroes it
 *	(memzero_explicit()) whatever it returns
 * @keytag: with @has_keytag
 * @opaque: plaintext metadata kept with the DEK
 */
struct mlx5_umr_dek_attr {
	enum mlx5_umr_crypto_key_size key_size;
	bool has_keytag;
	u32 pdn;
	u8 key[MLX5_UMR_CRYPTO_KEY_MAX];
	u8 keytag[MLX5_UMR_CRYPTO_KEYTAG_LEN];
	u8 opaque[8];
};

/**
 * struct mlx5_umr_dek - a DEK of the device (a firmware object)
 * @dev: owning device
 * @id: the object number crypto BSFs name
 * @pdn: its PD
 * @key_size: MLX5_UMR_CRYPTO_KEY_SIZE_*
 * @has_keytag: created with a keytag
 *
 * The key itself is only in the HCA.
 */
struct mlx5_umr_dek {
	struct mlx5_umr_dev *dev;
	u32 id;
	u32 pdn;
	u8 key_size;
	bool has_keytag;
};

struct mlx5_umr_dek *mlx5_umr_dek_create(struct mlx5_umr_dev *dev,
					 struct mlx5_umr_dek_attr *attr);
int mlx5_umr_dek_destroy(struct mlx5_umr_dek *dek);

/**
 * struct mlx5_umr_crypto_attr - crypto attributes of an mkey, shaped like
 *	struct mlx5dv_crypto_attr
 * @crypto_standard: MLX5_UMR_CRYPTO_STANDARD_AES_XTS
 * @encrypt_on_tx: memory holds plaintext and the wire ciphertext (else the
 *	other way round)
 * @signature_crypto_order: MLX5_UMR_SIG_CRYPTO_ORDER_*; matters only with a
 *	signature
 * @data_unit_size: MLX5_UMR_BLOCK_SIZE_*: the tweak is incremented after
 *	each data unit
 * @initial_tweak: the first data unit's tweak, a 128-bit little-endian
 *	number as IEEE 1619 and software xts(aes) take it (the data unit
 *	number for blk-crypto); the service copies it as is, and byte-reverses
 *	it for a device that reads it big endian (caps crypto_tweak_be), as
 *	rdma-core does (Documentation/crypto.rst)
 * @dek: a DEK of the mkey's device and PD
 * @keytag: checked against the DEK's when it has one
 */
struct mlx5_umr_crypto_attr {
	enum mlx5_umr_crypto_standard crypto_standard;
	bool encrypt_on_tx;
	enum mlx5_umr_sig_crypto_order signature_crypto_order;
	enum mlx5_umr_block_size data_unit_size;
	u8 initial_tweak[16];
	const struct mlx5_umr_dek *dek;
	u8 keytag[MLX5_UMR_CRYPTO_KEYTAG_LEN];
};

/* ---- work requests ---- */

/**
 * struct mlx5_umr_mkey_snap - the mkey state a request may change, as it
 *	was before the request was posted (private to the service)
 * @key: &mlx5_umr_mkey.key
 * @dma_lkey: &mlx5_umr_mkey.dma_lkey
 * @pdn: &mlx5_umr_mkey.pdn
 * @crypto_len: a crypto mkey's length
 * @dek: the DEK a crypto mkey's BSF names
 * @dek_prev: the one it may still name
 */
struct mlx5_umr_mkey_snap {
	u32 key;
	u32 dma_lkey;
	u32 pdn;
	u64 crypto_len;
	const struct mlx5_umr_dek *dek;
	const struct mlx5_umr_dek *dek_prev;
};

/**
 * struct mlx5_umr_wr_priv - the service's part of a request, set by
 *	mlx5_umr_post() (and the uapi's admission): callers leave it alone
 * @was: the mkey as it was before the request was posted, put back when a
 *	batch is unwound, and the PD when a move never ran
 * @bsf_sig: the signature a SET_CRYPTO request of an mkey with both
 *	signature and crypto writes in its BSF (&mlx5_umr_wr.sig, none with
 *	MLX5_UMR_WR_RESET_SIG, else the one the mkey keeps), set when posted
 * @wqe_bytes: size of the request's WQE
 * @holds_xlt: the request owns its mkey's pointer-mode translation table
 *	until its done()
 * @sigerr: the expected_sigerr_count a request writing a signature BSF
 *	arms its mkey with, set when it is posted
 * @sig: the service's copy of &mlx5_umr_wr.sig, taken by mlx5_umr_post():
 *	recovery encodes a flushed request again from it
 * @crypto: likewise of &mlx5_umr_wr.crypto
 * @user_sig: the caller's &mlx5_umr_wr.sig, given back before done()
 * @user_crypto: the caller's &mlx5_umr_wr.crypto, likewise
 * @batch: the batch the request was posted in (sequence of the send queue)
 */
struct mlx5_umr_wr_priv {
	struct mlx5_umr_mkey_snap was;
	const struct mlx5_umr_sig_attr *bsf_sig;
	u16 wqe_bytes;
	bool holds_xlt;
	u8 sigerr;
	struct mlx5_umr_sig_attr sig;
	struct mlx5_umr_crypto_attr crypto;
	const struct mlx5_umr_sig_attr *user_sig;
	const struct mlx5_umr_crypto_attr *user_crypto;
	u32 batch;
};

struct mlx5_umr_consumer;

/**
 * struct mlx5_umr_wr - one UMR work request (one WQE)
 * @mkey: the mkey to modify
 * @op: what to do
 * @flags: MLX5_UMR_WR_*
 * @access: MLX5_UMR_ACCESS_* when MLX5_UMR_WR_SET_ACCESS
 * @pdn: protection domain when MLX5_UMR_WR_SET_PD
 * @iova: the mkey's start address when MLX5_UMR_WR_SET_IOVA: the address
 *	of the layout's first byte (rules 65 and 66: only with a layout, and
 *	@iova + the layout's length does not wrap)
 * @layout: the new translation (MLX5_UMR_OP_CONFIGURE)
 * @list: MLX5_UMR_LAYOUT_LIST: @list.sge[@list.num_sge]
 * @interleaved: MLX5_UMR_LAYOUT_INTERLEAVED: @interleaved.ent[@num_entries]
 *	repeated @repeat_count times
 * @sgt: MLX5_UMR_LAYOUT_SGT: a scatterlist already mapped for the device
 *	(mlx5_umr_dma_map_sg()), @sgt.nents mapped entries, @sgt.length bytes
 *	from the start; each KLM names @sgt.lkey, or when 0 @mkey->dma_lkey:
 *	a DMA key valid in the PD the mkey is in after the request (rule 37:
 *	given with MLX5_UMR_WR_SET_PD; struct mlx5_umr_pd.dma_lkey)
 * @pages: MLX5_UMR_OP_REG_PAGES: device addresses of @npages pages of
 *	PAGE_SIZE; the mkey covers [@iova, @iova + @length) starting at byte
 *	@offset of the first page
 * @done: completion callback for mlx5_umr_post(); called once, in process
 *	or softirq context, with @status set
 * @context: for the caller
 * @status: 0, or -EIO (error CQE, internal error or a QP that could not
 *	be reset: it may or may not have run; @syndrome set for an error
 *	CQE), -ETIMEDOUT (recovered after a timeout: it may or may not have
 *	run), -ECANCELED (it never ran and never will: not posted, flushed
 *	by another's error and the QP could not be recovered, or, with
 *	MLX5_UMR_WR_DEPENDS, an earlier request of its batch failed);
 *	other requests flushed by another's error are resubmitted, not
 *	failed. Each request of a batch has its own status: check every one.
 *	With MLX5_UMR_WR_NEW_KEY, after -ECANCELED @mkey->key is the key
 *	before the request again; after -EIO or -ETIMEDOUT it stays @new_key
 *	but the HCA may have either: the mkey's key is unknown, and every
 *	request on it without MLX5_UMR_WR_NEW_KEY (which finds the mkey by
 *	its index) is refused with -ESTALE until one with it succeeded
 * @syndrome: CQE syndrome when @status is -EIO
 * @node: private to the service: queues the request while it is in flight;
 *	free for the owner's use from done() on
 * @new_key: with MLX5_UMR_WR_NEW_KEY (any operation), set by
 *	mlx5_umr_post(): the mkey's new key, the same index with a fresh,
 *	random key byte, also stored in @mkey->key when the request is posted.
 *	It follows the key the requests posted before it left, whichever CPU
 *	posted them, so no two requests of an mkey install the same byte.
 *	Hand it to peers only after done() reported success (see @status for
 *	a failure); the old key is refused from then on
 *	(ib_update_fast_reg_key() as NVMe-oF and iSER use it on every
 *	registration)
 * @sig: with MLX5_UMR_WR_SET_SIG (MLX5_UMR_OP_CONFIGURE of an mkey
 *	allocated with MLX5_UMR_MKEY_SIGNATURE): the block signature
 *	(mlx5dv_wr_set_mkey_sig_block()). mlx5_umr_post() copies it into
 *	the request (@priv) and reads only its copy from then on, also when
 *	recovery posts the request again: the attributes may be freed or
 *	reused once mlx5_umr_post() returned. While the request is in flight
 *	@sig points at the copy; the caller's pointer is back before done()
 *	and when mlx5_umr_post() fails
 * @crypto: with MLX5_UMR_WR_SET_CRYPTO (a CONFIGURE of an mkey allocated
 *	with MLX5_UMR_MKEY_CRYPTO): the crypto attributes, copied as @sig
 *	is (the DEK they name must outlive the request: it is not copied)
 * @priv: private to the service (struct mlx5_umr_wr_priv): not to be read
 *	or written by the caller
 * @consumer: optional (NULL: none): the consumer the request counts for
 *	from a successful mlx5_umr_post() until its done() returned
 *	(mlx5_umr_consumer_drain()); a draining consumer's requests are
 *	refused with -ESHUTDOWN
 */
struct mlx5_umr_wr {
	struct mlx5_umr_mkey *mkey;
	enum mlx5_umr_op op;
	u32 flags;
	u32 access;
	u32 pdn;
	u64 iova;
	enum mlx5_umr_layout layout;
	union {
		struct {
			const struct mlx5_umr_sge *sge;
			u32 num_sge;
		} list;
		struct {
			const struct mlx5_umr_interleaved *ent;
			u32 num_entries;
			u32 repeat_count;
		} interleaved;
		struct {
			struct scatterlist *sgl;
			u32 nents;
			u32 lkey;
			u64 length;
		} sgt;
		struct {
			const dma_addr_t *addrs;
			u32 npages;
			u32 offset;
			u64 iova;
			u64 length;
		} pages;
	};
	void (*done)(struct mlx5_umr_wr *wr);
	void *context;
	int status;
	u8 syndrome;
	struct list_head node;
	u32 new_key;
	const struct mlx5_umr_sig_attr *sig;
	const struct mlx5_umr_crypto_attr *crypto;
	struct mlx5_umr_wr_priv priv;
	struct mlx5_umr_consumer *consumer;
};

/* ---- FRWR-shaped helpers for ULPs (Documentation/porting.rst) ---- */

/**
 * struct mlx5_umr_mkey_pool - mkeys created up front, taken and returned
 *	in any context (as struct ib_mr pools: ib_mr_pool_init())
 * @lock: protects @free and @nfree
 * @dev: the device of every mkey
 * @free: the mkeys not taken, @nfree of them
 * @nfree: mkeys in @free
 * @size: mkeys the pool owns
 */
struct mlx5_umr_mkey_pool {
	spinlock_t lock;	/* protects @free and @nfree */
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_mkey **free;
	unsigned int nfree;
	unsigned int size;
};

int mlx5_umr_mkey_pool_init(struct mlx5_umr_mkey_pool *pool,
			    struct mlx5_umr_dev *dev, struct mlx5_umr_pd *pd,
			    unsigned int count, u32 max_entries, u32 flags);
struct mlx5_umr_mkey *mlx5_umr_mkey_pool_get(struct mlx5_umr_mkey_pool *pool);
void mlx5_umr_mkey_pool_put(struct mlx5_umr_mkey_pool *pool,
			    struct mlx5_umr_mkey *mkey);
int mlx5_umr_mkey_pool_destroy(struct mlx5_umr_mkey_pool *pool);

int mlx5_umr_map_sg(struct mlx5_umr_wr *wr, struct mlx5_umr_sge *sge,
		    u32 max_sge, struct scatterlist *sgl, int sg_nents,
		    unsigned int *sg_offset, u32 lkey);

struct ib_sig_attrs;
int mlx5_umr_sig_attr_from_ib(const struct ib_sig_attrs *ib,
			      struct mlx5_umr_sig_attr *attr);

/* ---- back-pressure and teardown for blk-mq ULPs (service.rst) ---- */

struct mlx5_umr_queue;

/**
 * struct mlx5_umr_room_waiter - a one-shot notification that the home
 *	queue of an mkey takes work again (mlx5_umr_room_notify())
 * @fn: called once per successful registration, in the context done()
 *	callbacks run in (process or softirq, never hard IRQ), with no
 *	service lock held; must not sleep; may call mlx5_umr_post(),
 *	mlx5_umr_room_notify() again and blk_mq_run_hw_queue(), not
 *	mlx5_umr_room_cancel()
 * @context: for the caller
 * @node: private: on the queue's list while pending
 * @q: private: the queue of the last registration
 * @pending: private: registered and not fired nor cancelled (under the
 *	queue's lock)
 */
struct mlx5_umr_room_waiter {
	void (*fn)(struct mlx5_umr_room_waiter *w);
	void *context;
	struct list_head node;
	struct mlx5_umr_queue *q;
	bool pending;
};

/**
 * mlx5_umr_room_waiter_init() - prepare a waiter before its first use
 * @w: the waiter
 * @fn: its callback (struct mlx5_umr_room_waiter)
 * @context: for the caller
 */
static inline void mlx5_umr_room_waiter_init(struct mlx5_umr_room_waiter *w,
					     void (*fn)(struct mlx5_umr_room_waiter *w),
					     void *context)
{
	w->fn = fn;
	w->context = context;
	INIT_LIST_HEAD(&w->node);
	w->q = NULL;
	w->pending = false;
}

/* ---- UMR channels a ULP owns (api.rst, "Channels") ---- */

/**
 * enum mlx5_umr_comp_mode - where a channel's done() callbacks run
 * @MLX5_UMR_COMP_IRQ: in a kworker on the CPU of the channel's completion
 *	vector, from its interrupt (as the device's queues)
 * @MLX5_UMR_COMP_SOFTIRQ: in softirq context (irq_poll) on the CPU of
 *	that interrupt, as an IB_POLL_SOFTIRQ CQ: done() must not sleep
 * @MLX5_UMR_COMP_POLLED: in whoever calls mlx5_umr_queue_poll() (the
 *	ULP's own completion path); the CQ raises no interrupt
 */
enum mlx5_umr_comp_mode {
	MLX5_UMR_COMP_IRQ,
	MLX5_UMR_COMP_SOFTIRQ,
	MLX5_UMR_COMP_POLLED,
};

struct mlx5_umr_queue *mlx5_umr_queue_create(struct mlx5_umr_dev *dev,
					     int comp_vector, u32 depth_bbs,
					     enum mlx5_umr_comp_mode mode);
int mlx5_umr_queue_destroy(struct mlx5_umr_queue *q);
int mlx5_umr_queue_poll(struct mlx5_umr_queue *q, int budget);
struct mlx5_umr_mkey *mlx5_umr_queue_alloc_mkey(struct mlx5_umr_queue *q,
						u32 max_entries, u32 flags);
int mlx5_umr_mkey_set_queue(struct mlx5_umr_mkey *mkey,
			    struct mlx5_umr_queue *q);
int mlx5_umr_mkey_pool_init_q(struct mlx5_umr_mkey_pool *pool,
			      struct mlx5_umr_queue *q, struct mlx5_umr_pd *pd,
			      unsigned int count, u32 max_entries, u32 flags);

int mlx5_umr_room_notify(struct mlx5_umr_mkey *mkey,
			 struct mlx5_umr_room_waiter *w);
bool mlx5_umr_room_cancel(struct mlx5_umr_room_waiter *w);

/**
 * struct mlx5_umr_consumer - the requests of one user of a device (a ULP's
 *	queue), counted so it can wait for its own (mlx5_umr_consumer_drain())
 * @inflight: private: one reference per request posted naming the consumer
 *	(&mlx5_umr_wr.consumer) until its done() returned, plus the initial
 *	one; killed by the drain, which refuses new posts
 * @idle: private: completed when @inflight dropped to zero after the kill
 * @dev: private: the device (held until mlx5_umr_consumer_destroy())
 */
struct mlx5_umr_consumer {
	struct percpu_ref inflight;
	struct completion idle;
	struct mlx5_umr_dev *dev;
};

int mlx5_umr_consumer_init(struct mlx5_umr_consumer *c,
			   struct mlx5_umr_dev *dev);
int mlx5_umr_consumer_drain(struct mlx5_umr_consumer *c,
			    unsigned int timeout_ms);
int mlx5_umr_consumer_destroy(struct mlx5_umr_consumer *c);

/**
 * struct mlx5_umr_revoke - an asynchronous revocation of an mkey's key,
 *	in the caller's memory (mlx5_umr_revoke())
 * @done: called once, in process context (a work item), with @status
 *	set; may free the structure and the mkey, and may post
 * @context: for the caller
 * @status: 0: the mkey is free on the HCA, no key of it reaches memory
 *	(the pages behind it may be unmapped, the mkey reused); -ENODEV: the
 *	device was unregistered before the invalidation could be posted
 *	(nothing was posted; unregistration destroys the mkeys still on the
 *	HCA); -EIO or -ETIMEDOUT: the invalidation failed
 *	MLX5_UMR_REVOKE_TRIES times on the HCA, the key may still be live
 *	(destroy the mkey, mlx5_umr_free_mkey(), before the pages are
 *	unmapped: if that fails too, keep them mapped); another errno of
 *	mlx5_umr_post() (-EINVAL...): refused, nothing posted, the key is as
 *	it was; -ENOSPC, -EAGAIN or -EBUSY: back-pressure outlasted twice the
 *	device's request timeout, nothing posted, the key is as it was
 * @retries: times a post was refused for back-pressure
 *	(mlx5_umr_post_busy()) and retried, for the caller's statistics
 * @wr: private: the invalidation (its @done and @status are the service's)
 * @work: private: retries and the call of @done
 * @tries: private: invalidations the HCA ran or failed so far
 * @delay: private: jiffies before the next retry after back-pressure
 * @state: private: what the work item does next
 * @busy_until: private: when back-pressure stops being retried (jiffies)
 */
struct mlx5_umr_revoke {
	void (*done)(struct mlx5_umr_revoke *rv);
	void *context;
	int status;
	unsigned int retries;
	struct mlx5_umr_wr wr;
	struct delayed_work work;
	unsigned int tries;
	unsigned long delay;
	u8 state;
	unsigned long busy_until;
};

/* Invalidations a revocation tries before it reports -EIO/-ETIMEDOUT. */
#define MLX5_UMR_REVOKE_TRIES	3

int mlx5_umr_revoke(struct mlx5_umr_revoke *rv, struct mlx5_umr_mkey *mkey,
		    void (*done)(struct mlx5_umr_revoke *rv), void *context);

#endif /* _LINUX_MLX5_UMR_H */
