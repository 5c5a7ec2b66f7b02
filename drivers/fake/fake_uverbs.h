/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr fake HCA as an mlx5_ib user device (fake_uverbs*.c).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _FAKE_UVERBS_H
#define _FAKE_UVERBS_H

#include <rdma/ib_verbs.h>
#include <rdma/ib_umem.h>
#include <rdma/uverbs_ioctl.h>
#include <linux/mlx5/driver.h>
#include <linux/mlx5_umr_hca.h>

#define FUV_NUM_PORTS	1
#define FUV_LID		1
#define FUV_VENDOR_OUI	0x02c9

/**
 * struct fuv_dev - the ib_device of one fake
 * @ibdev: what the RDMA core holds
 * @fake: the fake HCA
 * @hca: its HCA seam (every command goes through @hca->ops->cmd_exec)
 * @caps: its general capabilities (QUERY_HCA_CAP, current), read once
 * @key_byte: the key byte of the next MR's mkey; its own atomic
 * @whitelist_uid: the device's own user context, for the whitelisted
 *	DEVX queries of contexts without DEVX (fake_uverbs_devx.c); 0: none
 * @uars: the live UARs of all contexts by page_id (struct fuv_uar), for
 *	CREATE_QP to find the page it polls; the xarray's own lock
 * @db_lock: protects @db_qps and each listed QP's @fuv_qp.last_pi: the
 *	doorbell poller (fake_uverbs_qp.c) reads a QP's pinned pages only
 *	while it is listed
 * @db_qps: the user QPs whose doorbells the poller watches
 * @db_poll: the poller; queued while @db_qps is not empty
 * @db_idle: polls in a row that found no doorbell (under @db_lock)
 */
struct fuv_dev {
	struct ib_device ibdev;
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_hca *hca;
	u32 caps[MLX5_ST_SZ_DW(cmd_hca_cap)];
	atomic_t key_byte;
	u16 whitelist_uid;
	struct xarray uars;
	/* protects @db_qps, the listed QPs' last_pi, @db_idle */
	spinlock_t db_lock;
	struct list_head db_qps;
	struct delayed_work db_poll;
	unsigned int db_idle;
};

#define FUV_CAP(dev, field)	MLX5_GET(cmd_hca_cap, (dev)->caps, field)

/**
 * struct fuv_ucontext - a process's context
 * @ibuc: what the RDMA core holds
 * @cqe_version: the CQE version agreed on at open
 * @lib_caps: what the library said it supports (MLX5_LIB_CAP_*)
 * @devx_uid: its user context of the fake (MLX5_IB_ALLOC_UCTX_DEVX), 0
 *	without DEVX
 */
struct fuv_ucontext {
	struct ib_ucontext ibuc;
	u8 cqe_version;
	u64 lib_caps;
	u16 devx_uid;
};

/**
 * struct fuv_pd - a PD
 * @ibpd: what the RDMA core holds
 * @pdn: the fake's PD
 * @uid: the uid it was allocated with (its context's devx_uid)
 */
struct fuv_pd {
	struct ib_pd ibpd;
	u32 pdn;
	u16 uid;
};

/**
 * struct fuv_umem - pinned user memory the fake reaches
 * @umem: the pinned pages
 * @sgt: one entry per page of @umem, mapped in the fake's IOMMU
 */
struct fuv_umem {
	struct ib_umem *umem;
	struct sg_table sgt;
};

static inline unsigned int fuv_umem_npages(const struct fuv_umem *m)
{
	return m->sgt.orig_nents;
}

/**
 * struct fuv_mr - a user MR: pinned pages behind an MTT mkey, or a kernel
 *	MR of ib_alloc_mr() (fuv_alloc_mr()): a free mkey, no memory
 * @ibmr: what the RDMA core holds
 * @mem: the memory; @mem.umem is NULL for a kernel MR
 */
struct fuv_mr {
	struct ib_mr ibmr;
	struct fuv_umem mem;
};

/**
 * struct fuv_uar - a UAR of a process (fake_uverbs_uar.c)
 * @rdma_entry: its mmap entry; the last reference frees the UAR
 * @uar: the fake's UAR; @uar.index is the library's page_id
 * @page: the memory that stands for its doorbell registers
 */
struct fuv_uar {
	struct rdma_user_mmap_entry rdma_entry;
	struct mlx5_umr_uar uar;
	struct page *page;
};

/**
 * struct fuv_cq - a user CQ: its ring and doorbell record in user memory
 * @ibcq: what the RDMA core holds
 * @buf: the CQE ring
 * @db: the page of the doorbell record
 * @cqn: the fake's CQ
 */
struct fuv_cq {
	struct ib_cq ibcq;
	struct fuv_umem buf;
	struct fuv_umem db;
	u32 cqn;
};

/**
 * struct fuv_qp - a user RC QP: its send ring and doorbell record in user
 *	memory (fake_uverbs_qp.c)
 * @ibqp: what the RDMA core holds
 * @buf: the WQE ring (send queue only: the receive queue has length 0)
 * @db: the page of the doorbell record
 * @db_off: the record's offset in that page
 * @uar: the UAR whose page the library rings (a reference on its entry)
 * @state: the state the fake was last moved to (enum ib_qp_state)
 * @last_pi: the send counter of the record the poller last passed on
 * @node: in @fuv_dev.db_qps
 */
struct fuv_qp {
	struct ib_qp ibqp;
	struct fuv_umem buf;
	struct fuv_umem db;
	unsigned int db_off;
	struct fuv_uar *uar;
	enum ib_qp_state state;
	u16 last_pi;
	struct list_head node;
};

static inline struct fuv_dev *to_fuv_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct fuv_dev, ibdev);
}

static inline struct fuv_ucontext *to_fuv_uctx(struct ib_ucontext *uc)
{
	return container_of(uc, struct fuv_ucontext, ibuc);
}

static inline struct fuv_pd *to_fuv_pd(struct ib_pd *pd)
{
	return container_of(pd, struct fuv_pd, ibpd);
}

static inline struct fuv_mr *to_fuv_mr(struct ib_mr *mr)
{
	return container_of(mr, struct fuv_mr, ibmr);
}

int fuv_cmd(struct fuv_dev *dev, const void *in, int inlen, void *out,
	    int outlen);
int fuv_dealloc_pdn(struct fuv_dev *dev, u32 pdn, u16 uid);

/* fake_uverbs_mr.c */
int fuv_umem_get(struct fuv_dev *dev, struct fuv_umem *m, u64 addr,
		 size_t len, int access);
void fuv_umem_put(struct fuv_dev *dev, struct fuv_umem *m);
void fuv_umem_pas(struct fuv_umem *m, __be64 *pas);
struct ib_mr *fuv_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			      u64 virt_addr, int access, struct ib_udata *udata);
int fuv_dereg_mr(struct ib_mr *mr, struct ib_udata *udata);
struct ib_mr *fuv_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
			   u32 max_num_sg);

/* fake_uverbs_cq.c */
#ifdef MLX5_UMR_CREATE_CQ_ATTRS
int fuv_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct uverbs_attr_bundle *attrs);
#else
int fuv_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata);
#endif
int fuv_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);

/* fake_uverbs_devx.c */
extern const struct uapi_definition fuv_devx_defs[];
int fuv_devx_create_uctx(struct fuv_dev *dev);
void fuv_devx_destroy_uctx(struct fuv_dev *dev, u16 uid);
void fuv_devx_init(struct fuv_dev *dev);
void fuv_devx_cleanup(struct fuv_dev *dev);
/* fake_uverbs_qp.c */
int fuv_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		  struct ib_udata *udata);
int fuv_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int fuv_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
void fuv_db_init(struct fuv_dev *dev);
void fuv_db_fini(struct fuv_dev *dev);

/* fake_uverbs_svc.c */
int fuv_svc_register(struct fuv_dev *dev);
void fuv_svc_unregister(struct fuv_dev *dev);

/* fake_uverbs_uar.c */
struct fuv_uar *fuv_uar_get(struct fuv_dev *dev, struct ib_ucontext *uctx,
			    u32 page_id);
void fuv_uar_put(struct fuv_uar *uar);
extern const struct uapi_definition fuv_uapi_defs[];
int fuv_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void fuv_mmap_free(struct rdma_user_mmap_entry *e);

#endif /* _FAKE_UVERBS_H */
