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
#include <linux/types.h>
#include <linux/list.h>
#include <linux/scatterlist.h>
#include <linux/dma-direction.h>

struct mlx5_umr_dev;
struct ib_device;

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

/**
 * struct mlx5_umr_mkey - an mkey the service can reconfigure
 * @dev: owning device
 * @key: the lkey/rkey (index << 8 | variant)
 * @max_entries: translation entries the mkey was sized for
 * @flags: MLX5_UMR_MKEY_* given at allocation
 * @direct: an MTT mkey over pages (registered memory), not an indirect one
 * @dma_lkey: the DMA key of the PD the mkey was allocated in (an
 *	MLX5_UMR_LAYOUT_SGT layout names it unless the request gives
 *	@sgt.lkey), 0 when the service knows none for that PD
 *
 * The service keeps private state after these fields.
 */
struct mlx5_umr_mkey {
	struct mlx5_umr_dev *dev;
	u32 key;
	u32 max_entries;
	u32 flags;
	bool direct;
	u32 dma_lkey;
};

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

/**
 * struct mlx5_umr_wr - one UMR work request (one WQE)
 * @mkey: the mkey to modify
 * @op: what to do
 * @flags: MLX5_UMR_WR_*
 * @access: MLX5_UMR_ACCESS_* when MLX5_UMR_WR_SET_ACCESS
 * @pdn: protection domain when MLX5_UMR_WR_SET_PD
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
 *	run), -ECANCELED (it never ran and never will: not posted, or flushed
 *	by another's error and the QP could not be recovered); requests
 *	flushed by another's error are resubmitted, not failed
 * @syndrome: CQE syndrome when @status is -EIO
 * @node: private to the service: queues the request while it is in flight;
 *	free for the owner's use from done() on
 * @wqe_bytes: private to the service: size of the request's WQE, set by
 *	mlx5_umr_post()
 * @holds_xlt: private to the service: the request owns its mkey's
 *	pointer-mode translation table until its done()
 * @new_key: with MLX5_UMR_WR_NEW_KEY (any operation), set by
 *	mlx5_umr_post(): the mkey's new key, the same index with a fresh,
 *	random key byte, also stored in @mkey->key when the request is posted.
 *	Hand it to peers only after done() reported success; the old key is
 *	refused from then on (ib_update_fast_reg_key() as NVMe-oF and iSER
 *	use it on every registration)
 * @prev_key: private to the service: @mkey->key before the request
 */
struct mlx5_umr_wr {
	struct mlx5_umr_mkey *mkey;
	enum mlx5_umr_op op;
	u32 flags;
	u32 access;
	u32 pdn;
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
	u16 wqe_bytes;
	bool holds_xlt;
	u32 new_key;
	u32 prev_key;
};

int mlx5_umr_validate(struct mlx5_umr_dev *dev, const struct mlx5_umr_wr *wr);
int mlx5_umr_post(struct mlx5_umr_dev *dev, struct mlx5_umr_wr **wrs,
		  unsigned int n);
int mlx5_umr_exec(struct mlx5_umr_dev *dev, struct mlx5_umr_wr *wr,
		  unsigned int timeout_ms);

int mlx5_umr_dma_map_sg(struct mlx5_umr_dev *dev, struct sg_table *sgt,
			enum dma_data_direction dir);
void mlx5_umr_dma_unmap_sg(struct mlx5_umr_dev *dev, struct sg_table *sgt,
			   enum dma_data_direction dir);

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

#endif /* _LINUX_MLX5_UMR_H */
