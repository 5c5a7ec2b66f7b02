/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr fake HCA: internal state shared by the fake's files.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _MLX5_UMR_FAKE_INTERNAL_H
#define _MLX5_UMR_FAKE_INTERNAL_H

#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/wait.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5_umr_hca.h>
#include <linux/mlx5_umr_ifc.h>
#include <linux/mlx5_umr_fake.h>
#include <linux/mlx5_umr_testing.h>
#include <rdma/ib_verbs.h>

#define FAKE_RESD_IDX		(MLX5_UMR_FAKE_RESD_LKEY >> 8)
#define FAKE_FIRST_MKEY_IDX	(FAKE_RESD_IDX + 1)
#define FAKE_MAX_IDX		0xffffff
/* Largest MTT/PA translation the fake stores for one mkey, in octowords. */
#define FAKE_MAX_MTT_OCTO	BIT(16)
#define FAKE_WQE_LOG		8
#define FAKE_PAGE_SHIFT		12	/* PAS and MTT granularity floor */

/* @uid: the user context that allocated it (0: the kernel), as below */
struct fake_pd {
	u32 pdn;
	u16 uid;
};

/* a user context (CREATE_UCTX): its number is the uid commands carry */
struct fake_uctx {
	u16 uid;
};

struct fake_uar {
	u32 index;
};

struct fake_psv {
	u32 psvn;
	u32 pdn;
	u16 uid;
	struct mlx5_seg_set_psv val;
	/*
	 * A check in this PSV's domain failed and produced @err; later
	 * failures add no CQE until SET_PSV re-arms the PSV.
	 */
	bool sig_err;
	struct mlx5_sig_err_cqe err;
};

struct fake_mkey {
	u32 index;
	/* mkey context exactly as QUERY_MKEY returns it (mlx5_ifc mkc) */
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	u32 xlt_oct;	/* translations_octword_size at creation */
	u8 *xlt;	/* xlt_oct * 16 bytes of raw big-endian entries */
	u32 bsf_oct;
	u8 *bsf;
	/* low bit of the SIG_ERR CQEs produced (fake_sig_report()) */
	u8 sigerr_count;
	u16 uid;	/* of CREATE_MKEY (fake_uctx.c) */
};

struct fake_cq {
	u32 cqn;
	struct mlx5_umr_fake *fd;
	struct mlx5_umr_hca_cq *hcq;	/* NULL: events go nowhere */
	u32 uar;
	u8 log_sz;
	u8 log_pg;
	u32 npas;
	u64 *pas;
	u64 dbr;
	u32 eqn;	/* cqc.c_eqn_or_apu_element */
	int cpu;	/* where @work runs: the EQ's CPU (fake_eqn_cpu()) */
	/*
	 * Protects @pi, @armed, @overrun, @dead and the CQE writes into the
	 * ring: the CQ's side of the engine, innermost (after qp->lock and
	 * fd->lock).
	 */
	spinlock_t lock;
	u32 pi;
	bool armed;
	bool overrun;
	bool dead;
	unsigned int qp_users;	/* under fd->lock */
	struct work_struct work;
	atomic_t sync_inflight;
	/* freed after an RCU grace period: doorbells find CQs without locks */
	struct rcu_head rcu;
};

/*
 * Test-only faults of one QP (mlx5_umr_fake_stall_qp(),
 * mlx5_umr_fake_inject_wqe_error_qp(), mlx5_umr_fake_inject_drop_cqe_qp()),
 * under qp->lock.
 */
struct fake_qp_faults {
	bool stalled;
	bool wqe_armed;
	u8 wqe_synd;
	u8 wqe_vsynd;
	unsigned int drop_cqes;
};

struct fake_qp {
	u32 qpn;
	struct mlx5_umr_fake *fd;
	/*
	 * The QP's engine, as a HCA runs each QP's send queue on its own:
	 * protects @state, @dead, @delayed, @ci, @last_pi, @last_db, @wqe,
	 * @nr_wqes, @nr_idx_mismatch, @faults, @remote_qpn, @rdma_buf,
	 * @rdma_len and @peer_err. @state is written with WRITE_ONCE(): another QP's
	 * engine reads it under fd->lock without this lock, a snapshot, as
	 * a packet meets whatever state its responder is in (fake_rdma.c).
	 * Taken before fd->lock
	 * (which the engine takes only to execute a WQE on mkeys and PSVs)
	 * and before @scq's lock. The other fields are fixed at creation.
	 */
	spinlock_t lock;
	u8 state;
	u8 log_sq;
	u8 log_pg;
	bool rlky;
	bool fre;
	bool dead;
	bool delayed;
	u8 st;		/* MLX5_QP_ST_REG_UMR or MLX5_QP_ST_RC */
	u32 uar;
	u32 pdn;
	u32 uidx;	/* qpc.user_index: srqn_uidx of its CQEs */
	u32 npas;
	u64 *pas;
	u64 dbr;
	struct fake_cq *scq;
	struct fake_cq *rcq;
	u16 ci;		/* next WQEBB the engine executes */
	u16 last_pi;	/* doorbell record value last seen */
	__be32 last_db[2];	/* value of the last send doorbell */
	u64 nr_wqes;
	u64 nr_idx_mismatch;
	u8 *wqe;	/* MLX5_SEND_WQE_MAX_SIZE scratch */
	struct fake_qp_faults faults;
	/* an RC QP's peer, INIT2RTR's qpc.remote_qpn (loopback: this fake) */
	u32 remote_qpn;
	/* an RC QP's RDMA bounce buffer from INIT2RTR, RDMA_MAX_MSG bytes */
	u8 *rdma_buf;
	/* bytes the RDMA READ just executed moved: its CQE's byte_cnt */
	u32 rdma_len;
	/*
	 * A responder this QP's engine found in a class C error: moved to
	 * ERR once this QP's lock is dropped (fake_qp_peer_err()), as two
	 * QPs' locks never nest; 0: none.
	 */
	u32 peer_err;
	struct delayed_work delay_work;
	/* freed after an RCU grace period: doorbells find QPs without locks */
	struct rcu_head rcu;
};

struct fake_wqe_log {
	u32 qpn;
	u16 idx;
	u16 len;
	u8 data[MLX5_SEND_WQE_MAX_SIZE];
};

/* Device-wide faults: under fd->lock, except @drop_cqes (atomic). */
struct fake_faults {
	bool cmd_armed;
	u16 cmd_opcode;
	u8 cmd_status;
	u32 cmd_synd;
	bool wqe_armed;
	u8 wqe_synd;
	u8 wqe_vsynd;
	atomic_t drop_cqes;
	unsigned int delay_ms;	/* read without the lock first (READ_ONCE) */
	unsigned int cmd_nth;
	u8 nth_status;
	u32 nth_synd;
};

/*
 * The event counts of struct mlx5_umr_fake_counters, per CPU: the engines
 * of different QPs count without sharing a lock or a cache line, and
 * mlx5_umr_fake_get_counters() sums them.
 */
enum fake_ev {
	FAKE_EV_IOMMU_FAULTS,
	FAKE_EV_WQES,
	FAKE_EV_CQES,
	FAKE_EV_ERR_CQES,
	FAKE_EV_FLUSH_CQES,
	FAKE_EV_EVENTS,
	FAKE_EV_CQ_OVERRUNS,
	FAKE_EV_BAD_DOORBELLS,
	FAKE_EV_SEND_DOORBELLS,
	FAKE_EV_NR,
};

struct fake_ev_cnt {
	u64 n[FAKE_EV_NR];
};

/*
 * Completion events a command raises in sync mode, collected under the
 * device lock and delivered before the command returns. Doorbells pass
 * none (NULL): their events always go to the workqueue.
 */
struct fake_notify {
	struct fake_cq *cq[2];
	unsigned int n;
};

struct mlx5_umr_fake {
	struct mlx5_umr_hca hca;
	struct device dev;
	int id;
	u32 flags;
	struct mlx5_umr_fake_caps caps;
	bool registered;

	/*
	 * Serialises command execution: object creation and destruction, so
	 * a command finds its QP or CQ in the xarray without @lock.
	 */
	struct mutex cmd_lock;
	/*
	 * Protects the object tables' membership and the objects' counts in
	 * @cnt, mkey contents, PSVs, DEKs, the device-wide faults and the WQE
	 * log. Taken with irqsave since write_db may come from any context.
	 * Nests outside the xarray locks.
	 *
	 * Lock order: cmd_lock -> qp->lock -> lock -> cq->lock. A doorbell
	 * finds its QP or CQ with xa_load() under RCU and takes only that
	 * object's lock; a QP executes a WQE under qp->lock, taking @lock
	 * around the mkey and PSV work. The QP commands (2ERR, 2RST,
	 * DESTROY_QP) take qp->lock, then @lock. Different QPs' (or CQs')
	 * locks never nest. @exec_lock nests inside @lock and takes nothing.
	 */
	spinlock_t lock;
	struct xarray pds;
	struct xarray uars;
	struct xarray cqs;
	struct xarray qps;
	struct xarray mkeys;
	struct xarray psvs;
	/* DEKs (struct fake_dek, fake_crypto.c): their keys live only there */
	struct xarray deks;
	/* destroyed DEKs whose keys the device caches until SYNC_CRYPTO */
	struct xarray stale_deks;
	/* user contexts (struct fake_uctx, fake_uctx.c), by uid */
	struct xarray uctxs;

	/*
	 * Buffers from alloc_dma_buf not yet freed (struct fake_dma_buf),
	 * under @lock: a service may keep one the device might still use;
	 * destruction frees them, as a device reset would.
	 */
	struct list_head dma_bufs;

	/* IOVA page number -> struct page; has its own internal lock. */
	struct xarray iommu;
	atomic64_t next_iova;

	/*
	 * CQ events (each queued on its CQ's CPU) and deferred QP execution.
	 * Not ordered: each work item runs on its own, never concurrently
	 * with itself, so one CQ's events and one QP's runs stay in order;
	 * different CQs and QPs proceed independently, as on hardware.
	 */
	struct workqueue_struct *wq;
	/* the EQ the backend's next CQ gets (fake_main.c fake_create_cq()) */
	atomic_t next_eqn;
	wait_queue_head_t waitq;
	bool internal_error;

	struct fake_faults faults;
	/* object counts under @lock; the event counts are in @ev */
	struct mlx5_umr_fake_counters cnt;
	struct fake_ev_cnt __percpu *ev;
	struct fake_wqe_log *wqe_log;
	unsigned int wqe_log_pos;
	/*
	 * The execution log (mlx5_umr_fake_exec_log_start()). @exec_lock
	 * protects @exec, @exec_cap, @exec_n, @exec_dropped and @exec_on; it
	 * is innermost: taken under a QP's lock and @lock.
	 */
	spinlock_t exec_lock;
	struct mlx5_umr_fake_exec_ent *exec;
	unsigned int exec_cap;
	unsigned int exec_n;
	unsigned int exec_dropped;
	bool exec_on;
	struct dentry *dbg;
	/* the stand-in ib_device (fake_ib.c) */
	struct ib_device *ibdev;
};

static inline struct mlx5_umr_fake *to_fake(struct mlx5_umr_hca *hca)
{
	return container_of(hca, struct mlx5_umr_fake, hca);
}

static inline void fake_count_add(struct mlx5_umr_fake *fd, enum fake_ev ev,
				  u64 n)
{
	this_cpu_add(fd->ev->n[ev], n);
}

static inline void fake_count(struct mlx5_umr_fake *fd, enum fake_ev ev)
{
	fake_count_add(fd, ev, 1);
}

static inline int fake_wqe_err(u8 synd, u8 vsynd)
{
	return synd << 8 | vsynd;
}

/* fake_iommu.c */
int fake_iommu_rw(struct mlx5_umr_fake *fd, u64 iova, void *buf, size_t len,
		  bool write);
void fake_reap_dma_bufs(struct mlx5_umr_fake *fd);
int fake_alloc_dma_buf(struct mlx5_umr_hca *hca, size_t size, int node,
		       struct mlx5_umr_dma_buf *buf);
void fake_free_dma_buf(struct mlx5_umr_hca *hca, struct mlx5_umr_dma_buf *buf);
int fake_dma_map_sg(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		    enum dma_data_direction dir);
void fake_dma_unmap_sg(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		       enum dma_data_direction dir);

/* fake_cmd.c */
int fake_cmd_exec(struct mlx5_umr_hca *hca, const void *in, int inlen,
		  void *out, int outlen);
int fake_cmd_do(struct mlx5_umr_fake *fd, const void *in, int inlen,
		void *out, int outlen, struct mlx5_umr_hca_cq *hcq);
void fake_xa_erase(struct mlx5_umr_fake *fd, struct xarray *xa,
		   unsigned long index);
void fake_mkey_free(struct fake_mkey *mk);

/* fake_qp.c */
void fake_write_db(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar,
		   unsigned int offset, const __be32 val[2]);
void fake_qp_flush_all(struct mlx5_umr_fake *fd, struct fake_qp *qp,
		       struct fake_notify *nt);
void fake_notify_deliver(struct mlx5_umr_fake *fd, struct fake_notify *nt);
void fake_cq_work(struct work_struct *work);
void fake_qp_delay_work(struct work_struct *work);
void fake_req_cqe(struct mlx5_umr_fake *fd, struct fake_qp *qp, u8 opcode,
		  u16 idx, struct fake_notify *nt);
void fake_qp_sig_err_cqe(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			 struct mlx5_sig_err_cqe *err);
void fake_peer_sig_err_cqe(struct mlx5_umr_fake *fd, struct fake_qp *peer,
			   struct mlx5_sig_err_cqe *err);
u32 fake_qp_peer_err_take(struct fake_qp *qp);
void fake_qp_peer_err(struct mlx5_umr_fake *fd, u32 qpn);
struct fake_qp *fake_qp_lock(struct mlx5_umr_fake *fd, u32 qpn,
			     unsigned long *flags);
void fake_qp_unlock(struct fake_qp *qp, unsigned long flags);
void fake_qp_kick(struct mlx5_umr_fake *fd, struct fake_qp *qp);
int fake_eqn_cpu(u32 eqn);

int fake_q_rw(struct mlx5_umr_fake *fd, const u64 *pas, u32 npas, u8 log_pg,
	      u64 off, void *buf, size_t len, bool write);

/* fake_exec_log.c */
void fake_exec_log_add(struct mlx5_umr_fake *fd, struct fake_qp *qp, u16 idx,
		       const u8 *wqe, unsigned int size, int err);
void fake_exec_log_free(struct mlx5_umr_fake *fd);

/* fake_null.c */
void fake_null_consume(struct mlx5_umr_fake *fd, struct fake_qp *qp, u16 pi,
		       struct fake_notify *nt);

/* fake_umr.c */
int fake_wqe_exec(struct mlx5_umr_fake *fd, struct fake_qp *qp,
		  const u8 *wqe, unsigned int size);

/* fake_rdma.c */
int fake_rdma_exec(struct mlx5_umr_fake *fd, struct fake_qp *qp,
		   const u8 *wqe, unsigned int size, bool write);

/* fake_uctx.c */
int fake_uctx_cmd(struct mlx5_umr_fake *fd, u16 opcode, const void *in,
		  int inlen, void *out, int outlen);
bool fake_uid_live(struct mlx5_umr_fake *fd, u16 uid);
void fake_uctx_reset(struct mlx5_umr_fake *fd);

/* The uid a command carries (0: the kernel's), where every command has it. */
static inline u16 fake_cmd_uid(const void *in)
{
	return MLX5_GET(general_obj_in_cmd_hdr, in, uid);
}

/*
 * Whether a command of @cmd_uid may name (use) an object of @obj_uid: the
 * kernel's (0) objects and commands cross contexts, two users' do not
 * (Documentation/fake.rst, "User contexts and uids").
 */
static inline bool fake_uid_may_use(u16 cmd_uid, u16 obj_uid)
{
	return !cmd_uid || !obj_uid || cmd_uid == obj_uid;
}

/* fake_mkey.c */
struct fake_mkey *fake_mkey_lookup(struct mlx5_umr_fake *fd, u32 key);
bool fake_key_usable(struct mlx5_umr_fake *fd, u32 key);
void fake_mkey_apply_mask(void *dst, const void *src, u64 mask);
u8 fake_mkey_access_mode(const void *mkc);

/* fake_xfer.c */
enum fake_xerr {
	FAKE_X_OK,
	FAKE_X_KEY,
	FAKE_X_FREE,
	FAKE_X_ACCESS,
	FAKE_X_PD,
	FAKE_X_BOUNDS,
	FAKE_X_MODE,
	FAKE_X_DEPTH,
	FAKE_X_RB,
	FAKE_X_FAULT,
	FAKE_X_NOMEM,	/* the signature and crypto engines' buffers */
};

/* fake_access(): the accessor is the outer mkey's PD (no QP named). */
#define FAKE_PD_OUTER	U32_MAX
int fake_access(struct mlx5_umr_fake *fd, u32 key, u64 va, void *buf,
		size_t len, bool write, bool remote, u32 pdn);
int fake_test_xfer(struct mlx5_umr_hca *hca, u32 key, u64 offset, void *buf,
		   size_t len, bool write, bool remote);
int fake_test_xfer_out(struct mlx5_umr_hca *hca, u32 key, u64 offset,
		       void *buf, size_t len, bool write, bool remote,
		       struct mlx5_umr_test_xfer_out *out);
int fake_xfer_key(struct mlx5_umr_fake *fd, u32 pdn, u32 key, u64 va,
		  void *buf, size_t len, bool write, bool remote,
		  struct mlx5_umr_test_xfer_out *out);
int fake_xfer_qp(struct mlx5_umr_fake *fd, u32 qpn, u32 pdn, u32 key,
		 u64 offset, void *buf, size_t len, bool write, bool remote);
/* fake_access() for the signature engine: the outer key may carry a BSF */
int fake_access_sig(struct mlx5_umr_fake *fd, u32 key, u64 va, void *buf,
		    size_t len, bool write, bool remote, u32 pdn);
int fake_access_crypto(struct mlx5_umr_fake *fd, u32 key, u64 va, void *buf,
		       size_t len, bool write, bool remote, u32 pdn,
		       bool crypto);

/* fake_crc.c */
void fake_crc_init(void);
void fake_sig_guard(u8 kind, bool seed_ones, const u8 *data, u32 len,
		    u8 *out);

/* fake_sig.c */
struct fake_sig;
struct fake_xts;
static inline bool fake_mkey_has_bsf(const struct fake_mkey *mk)
{
	return mk->bsf_oct && MLX5_GET(mkc, mk->mkc, bsf_en);
}

int fake_sig_decode(struct mlx5_umr_fake *fd, const u8 *bsf, u32 oct,
		    struct fake_sig *s);
int fake_bsf_pair_decode(struct mlx5_umr_fake *fd, const u8 *bsf, u32 oct,
			 struct fake_sig *s, struct fake_xts *x);
int fake_sig_crypto_xfer(struct mlx5_umr_fake *fd, struct fake_mkey *mk,
			 u32 key, u64 offset, u8 *buf, size_t len, bool write,
			 bool remote, u32 pdn,
			 struct mlx5_umr_test_xfer_out *out);
int fake_sig_xfer(struct mlx5_umr_fake *fd, struct fake_mkey *mk, u32 key,
		  u64 offset, u8 *buf, size_t len, bool write, bool remote,
		  u32 pdn, struct mlx5_umr_test_xfer_out *out);

/* fake_ib.c */

/**
 * struct fake_ib_pd - a consumer's PD on a fake
 * @ibpd: what the consumer holds; its device is the fake's stand-in
 * @fd: the fake
 * @pdn: the fake's PD
 */
struct fake_ib_pd {
	struct ib_pd ibpd;
	struct mlx5_umr_fake *fd;
	u32 pdn;
};

int fake_ib_init(struct mlx5_umr_fake *fd);
void fake_ib_fini(struct mlx5_umr_fake *fd);

/* fake_user_pd.c, with CONFIG_INFINIBAND_USER_ACCESS */
#if IS_ENABLED(CONFIG_INFINIBAND_USER_ACCESS)
struct ib_pd *fake_user_pd_get(struct mlx5_umr_hca *hca, struct file *verbs,
			       u32 handle, u32 id);
void fake_user_pd_put(struct ib_pd *pd);
int fake_user_pd_init(void);
void fake_user_pd_exit(void);
#else
static inline int fake_user_pd_init(void)
{
	return 0;
}

static inline void fake_user_pd_exit(void)
{
}
#endif

/* fake_crypto.c */
struct fake_dek;

/*
 * The BSF room of a crypto mkey, in octowords: the crypto BSF alone, or
 * the signature BSF and the crypto BSF after it (a pair), as rdma-core's
 * mlx5dv_create_mkey() sizes it (bsf_size / 16).
 */
#define FAKE_CRYPTO_BSF_OCT \
	(sizeof(struct mlx5_umr_crypto_bsf) / MLX5_SEND_WQE_DS)
#define FAKE_PAIR_BSF_OCT \
	((sizeof(struct mlx5_bsf) + sizeof(struct mlx5_umr_crypto_bsf)) / \
	 MLX5_SEND_WQE_DS)

/**
 * struct fake_xts - a crypto BSF, decoded (fake_crypto_decode()) and bound
 *	to its DEK (fake_crypto_bind())
 * @dek: the DEK (valid under fd->lock)
 * @tfm: the key the device uses for its number (valid under fd->lock)
 * @du: data unit bytes
 * @order: enc_order, MLX5_UMR_ENC_ORDER_*
 * @tweak: xts_init_tweak, a little-endian 128-bit number
 */
struct fake_xts {
	struct fake_dek *dek;
	struct crypto_sync_skcipher *tfm;
	u32 du;
	u8 order;
	u8 tweak[16];
};

int fake_gobj_cmd(struct mlx5_umr_fake *fd, u16 opcode, const void *in,
		  int inlen, void *out, int outlen);
unsigned int fake_crypto_reset(struct mlx5_umr_fake *fd);
void fake_crypto_hca_caps(struct mlx5_umr_fake *fd, void *cap);
void fake_crypto_caps(struct mlx5_umr_fake *fd, void *cap);
int fake_sync_crypto(struct mlx5_umr_fake *fd, const void *in, int inlen,
		     void *out, int outlen);
bool fake_crypto_pd_busy(struct mlx5_umr_fake *fd, u32 pdn);
bool fake_crypto_uid_busy(struct mlx5_umr_fake *fd, u16 uid);
bool fake_mkey_crypto(const struct fake_mkey *mk);
int fake_crypto_decode(const struct mlx5_umr_fake *fd,
		       const struct mlx5_umr_crypto_bsf *b, bool in_pair,
		       struct fake_xts *x);
bool fake_crypto_units_ok(const struct mlx5_umr_fake *fd, u64 len, u32 du);
int fake_crypto_bind(struct mlx5_umr_fake *fd, const struct fake_mkey *mk,
		     const struct mlx5_umr_crypto_bsf *b, struct fake_xts *x);
int fake_xts_run(const struct fake_xts *x, u8 *data, u64 len, u64 unit0,
		 bool encrypt);
int fake_crypto_xfer(struct mlx5_umr_fake *fd, struct fake_mkey *mk, u32 key,
		     u64 offset, u8 *buf, size_t len, bool write, bool remote,
		     u32 pdn, struct mlx5_umr_test_xfer_out *out);

/* fake_debugfs.c */
void fake_debugfs_init(void);
void fake_debugfs_exit(void);
void fake_debugfs_add(struct mlx5_umr_fake *fd);
void fake_debugfs_remove(struct mlx5_umr_fake *fd);

#endif /* _MLX5_UMR_FAKE_INTERNAL_H */
