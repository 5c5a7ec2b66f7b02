/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: service core internals.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_CORE_H
#define MLX5_UMR_CORE_H

#include <linux/list.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/percpu-refcount.h>
#include <linux/completion.h>
#include <linux/irq_poll.h>
#include <linux/xarray.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_hca.h>

#include "wqe.h"

/*
 * Send queue size in basic blocks (MLX5_SEND_WQE_BB) and CQ size. 1024
 * blocks hold 128 of the largest inline UMRs (6 blocks with 16 entries) or
 * 341 of the smallest configures (3 blocks), so a batch of 128 fits and a
 * ULP sleeps for completions rarely (upstream's UMR QP holds 128 WQEs). Every
 * WQE takes at least 2 blocks and may be signalled: the CQ has a CQE for
 * each WQE the ring can hold.
 */
#define MLX5_UMR_LOG_SQ_BBS	10
#define MLX5_UMR_LOG_CQ_SIZE	(MLX5_UMR_LOG_SQ_BBS - 1)
/* Signal at least every this many basic blocks within one batch. */
#define MLX5_UMR_SIGNAL_BBS	(1U << (MLX5_UMR_LOG_SQ_BBS - 2))
/* Doorbell record page: QP record at 0, CQ record at this offset. */
#define MLX5_UMR_CQ_DBR_OFFSET	64
/* Words of the CQ doorbell record (mlx5_core: set_ci_db, arm_db). */
#define MLX5_UMR_CQ_SET_CI	0
#define MLX5_UMR_CQ_ARM_DB	1

enum mlx5_umr_sq_state {
	MLX5_UMR_SQ_RESET,	/* not (yet) usable */
	MLX5_UMR_SQ_RTS,	/* accepting work */
	MLX5_UMR_SQ_ERR,	/* error seen, recovery queued */
	MLX5_UMR_SQ_RECOVERING,	/* recovery worker owns the QP */
	MLX5_UMR_SQ_DEAD,	/* internal error or failed recovery */
};

/**
 * struct mlx5_umr_sq_ent - bookkeeping of one posted WQE
 * @wr: the request
 * @idx: the WQE's index, (u16) of the producer counter at its first basic
 *	block, as its control segment and its CQE carry it
 * @nbb: basic blocks the WQE occupies
 *
 * Kept in posting order, from mlx5_umr_sq.head to .tail, in a ring of
 * mlx5_umr_sq.bbs entries (a WQE takes at least one basic block, so no
 * more can be in flight): completion reads one entry after the other, no
 * load waiting for the one before as it would if entries were indexed by
 * ring slot (where the next WQE starts depends on this one's size).
 */
struct mlx5_umr_sq_ent {
	struct mlx5_umr_wr *wr;
	u16 idx;
	u16 nbb;
};

/**
 * struct mlx5_umr_sq - the REG_UMR QP, its CQ and their bookkeeping
 * @lock: protects every field below it, the ring contents, the CQ consumer
 *	index, both doorbell records and the order of the device's doorbell
 *	MMIO writes: every write_db() (send doorbell and CQ arm) is issued
 *	with it held, as mlx5_ib rings inside its SQ lock; taken irqsave by
 *	posters, the completion handler, recovery and the watchdog
 * @state: enum mlx5_umr_sq_state
 * @pc: producer counter in basic blocks (free running)
 * @cc: consumer counter in basic blocks (free running)
 * @unsignaled: basic blocks posted since the last signalled WQE
 * @next_fence: fence mode for the next WQE (the UMR fence from caps once
 *	a UMR has been posted since the last reset)
 * @timed_out: the pending recovery was caused by a timeout
 * @progress: jiffies of the last consumer progress or first post
 * @events: bumped when WQEs are retired and on every state change (retry
 *	hint)
 * @cq_ci: CQ consumer index (free running)
 * @cq_arm_sn: CQ arm sequence number
 * @resubmit: flushed requests recovery posts again, in order (->node)
 * @batch_seq: batches posted (wr->priv.batch)
 * @failed_batch: with @batch_failed, the batch of the request an error
 *	CQE named: its MLX5_UMR_WR_DEPENDS requests are not posted again
 * @batch_failed: @failed_batch is set, until recovery posted again
 * @ents: the WQEs in flight, oldest at @head (see struct mlx5_umr_sq_ent)
 * @head: index of the oldest WQE in flight in @ents (free running)
 * @tail: index in @ents of the next WQE posted (free running)
 * @scratch: linear WQE buffer for WQEs that wrap around the ring end
 * @qpn: QP number (constant while the device is up)
 * @bbs: ring size in basic blocks (power of two, constant)
 * @ncqe: CQ size (power of two, constant)
 * @wait: posters waiting for space or for the QP to return to RTS, and
 *	mlx5_umr_room_cancel() for the callbacks in progress
 * @room_waiters: registered struct mlx5_umr_room_waiter (->node), under
 *	@lock (room.c)
 * @room_firing: room callbacks in progress (under @lock, read by
 *	mlx5_umr_room_cancel() without it)
 */
struct mlx5_umr_sq {
	spinlock_t lock; /* ring, bookkeeping, CQ ci, records, doorbells */
	enum mlx5_umr_sq_state state;
	u32 pc;
	u32 cc;
	u32 unsignaled;
	u8 next_fence;
	bool timed_out;
	unsigned long progress;
	unsigned long events;
	u32 cq_ci;
	u32 cq_arm_sn;
	struct list_head resubmit;
	u32 batch_seq;
	u32 failed_batch;
	bool batch_failed;
	struct mlx5_umr_sq_ent *ents;
	u32 head;
	u32 tail;
	u8 *scratch;

	u32 qpn;
	u32 bbs;
	u32 ncqe;
	wait_queue_head_t wait;
	struct list_head room_waiters;
	unsigned int room_firing;
};

/**
 * struct mlx5_umr_queue - one REG_UMR QP, its CQ, ring and their work
 * @sq: submission state; @sq.lock protects it, the ring contents, the CQ
 *	consumer index, both doorbell records and the order of this
 *	queue's doorbells, and the per-mkey state of every mkey homed here
 *	(struct mlx5_umr_mkey_priv)
 * @dev: the device the queue belongs to
 * @id: index in mlx5_umr_dev.queues
 * @cpu: the first CPU mapped to it (mlx5_umr_dev.cpu_q), -1 for none
 * @node: NUMA node of @cpu (the HCA's when no CPU), where its memory is
 * @vector: the completion vector its CQ asks for (the backend takes it
 *	modulo the vectors it has)
 * @dbr: doorbell records of the QP and the CQ
 * @sq_buf: the send queue ring
 * @cq_buf: the CQE ring
 * @cq: the CQ as the backend sees it
 * @wq_ctx: constants for the encoder
 * @recover_work: runs QP recovery in process context
 * @poll_work: polls the CQ when the event arrived in hard IRQ context or
 *	with interrupts off
 * @watchdog: fails over a send queue that stopped making progress
 * @recover_lock: one recovery of this queue at a time, vs its teardown
 *	(sleeping; taken before @sq.lock)
 * @lost: the QP's reset failed: the HCA may still read the ring and any
 *	translation table a WQE pointed at, so until DESTROY_QP succeeds no
 *	translation table of an mkey homed here is freed (set by recovery,
 *	read under mlx5_umr_dev.mkeys_lock)
 * @mode: how completions are delivered (enum mlx5_umr_comp_mode; the
 *	device queues are MLX5_UMR_COMP_IRQ); constant
 * @ulp: a channel a ULP created (queue.c), on mlx5_umr_dev.chans
 * @gone: a channel whose device was unregistered: its QP and CQ are
 *	destroyed, only the structure is left for mlx5_umr_queue_destroy()
 *	(under mlx5_umr_dev.chans_mutex)
 * @chan: on mlx5_umr_dev.chans (under both of its locks)
 * @iop: MLX5_UMR_COMP_SOFTIRQ: the softirq poller of the CQ
 * @pdn: the PD its QP is created in (qpc.pd): the service's, or a PD
 *	queue's own; constant
 * @pdq: a PD queue (pd_queue.c): the home of the signature mkeys whose
 *	PSVs are in @pdn, created by the first, destroyed after the last;
 *	also on mlx5_umr_dev.chans, so unplug and timeouts treat it as a
 *	channel; constant
 * @user_pd: a PD queue of a user's verbs PD: no PA mkey (@wq_ctx.ptr_lkey
 *	unset), so its mkeys' tables are inline; constant
 * @refs: a PD queue's signature mkeys (under mlx5_umr_dev.pdq_lock)
 * @free_pd: mlx5_umr_pd_free() of @pdn came while the PD queue lived: the
 *	last put deallocates the PD (under mlx5_umr_dev.pdq_lock)
 */
struct mlx5_umr_queue {
	struct mlx5_umr_sq sq;
	struct mlx5_umr_dev *dev;
	u16 id;
	int cpu;
	int node;
	int vector;
	struct mlx5_umr_dma_buf dbr;
	struct mlx5_umr_dma_buf sq_buf;
	struct mlx5_umr_dma_buf cq_buf;
	struct mlx5_umr_hca_cq cq;
	struct mlx5_umr_wqe_ctx wq_ctx;

	struct work_struct recover_work;
	struct work_struct poll_work;
	struct delayed_work watchdog;
	struct mutex recover_lock; /* one recovery at a time, vs teardown */
	bool lost;

	enum mlx5_umr_comp_mode mode;
	bool ulp;
	bool gone;
	struct list_head chan;
	struct irq_poll iop;

	u32 pdn;
	bool pdq;
	bool user_pd;
	unsigned int refs;
	bool free_pd;
};

/**
 * struct mlx5_umr_client_ctx - a client told about a device
 * @list: on mlx5_umr_dev.clients, under the registry lock
 * @client: the client
 */
struct mlx5_umr_client_ctx {
	struct list_head list;
	struct mlx5_umr_client *client;
};

/**
 * struct mlx5_umr_dev - the UMR service bound to one HCA
 * @list: entry on the registry, under the registry lock
 * @hca: the backend's HCA; NULL after teardown (under @mkeys_lock)
 * @name: copy of the HCA name, valid for the structure's lifetime
 * @test_ops: the test hooks of a software HCA (test builds only)
 * @kref: lifetime of this structure (registry + mlx5_umr_dev_get() + mkeys)
 * @users: one reference per API call in progress and per request in
 *	flight; killed at unregister
 * @users_done: completed when @users drops to zero after the kill
 * @clients: clients whose add() succeeded, under the registry lock
 * @caps: capabilities (constant after bring-up)
 * @uar: doorbell page, shared by the queues
 * @queues: the device's UMR queues, @nqueues of them (caps.nqueues); each
 *	allocated at bring-up, freed with the structure
 * @nqueues: how many
 * @cpu_q: nr_cpu_ids entries: the index in @queues of the queue each CPU
 *	homes the mkeys it allocates on (mlx5_umr_queue_map()); constant
 *	while the device is up
 * @mkeys_lock: protects @mkeys and @hca once the device is up
 * @mkeys: every live mkey of this device
 * @timeout: watchdog timeout in jiffies
 * @leaked: buffers kept, never freed, because the HCA may still use them
 * @sig_mkeys: signature mkeys by mkey index (struct mlx5_umr_mkey_priv),
 *	for mlx5_umr_sig_report(); its own lock, taken irqsave
 * @kept_pds: PDs holding an mkey the HCA refused to destroy, never
 *	deallocated (pd.c), under @mkeys_lock
 * @keep_all_pds: such an mkey's PD is unknown: no PD is deallocated, under
 *	@mkeys_lock
 * @ib_pdns: PD numbers of mlx5_ib PDs the service resolved
 *	(mlx5_umr_pd_get_ib()), each with its holders' count: no signature
 *	mkey goes into them (mlx5_umr_pd_is_ib()); its own lock, irqsave
 * @dek_unsynced: a DEK was destroyed since the last SYNC_CRYPTO (crypto.c),
 *	under @mkeys_lock
 * @chans: the channels ULPs created (struct mlx5_umr_queue.chan); added and
 *	removed under both @chans_mutex and @chans_lock
 * @chans_mutex: walks of @chans that sleep or call done() (unplug), and
 *	@gone of each channel; taken before @chans_lock
 * @chans_lock: walks of @chans in any context (timeouts, dead HCA); taken
 *	irqsave, before a queue's sq.lock
 * @cqe_version: the HCA's cqe_version, for QPs created after bring-up
 * @ts_format: the QPs' timestamp format, likewise
 * @log_max_qp_sz: log2 of the most WQEs a QP takes (cmd_hca_cap)
 * @pdq_lock: protects @pd_queues, the refs and free_pd of every PD queue,
 *	and the creation and destruction of PD queues (their PA mkey, the
 *	deferred DEALLOC_PD); taken before @chans_mutex and @mkeys_lock
 * @pd_queues: PD queues by PD number (struct mlx5_umr_queue, pdq set)
 */
struct mlx5_umr_dev {
	struct list_head list;
	struct mlx5_umr_hca *hca;
	char name[32];
#ifdef MLX5_UMR_TESTING
	const struct mlx5_umr_test_hca_ops *test_ops;
	/* when set, every post goes here, not to its mkeys' home (a test) */
	struct mlx5_umr_queue *test_route;
	/* when set, every post goes to the posting CPU's queue (a test) */
	bool test_route_cpu;
#endif
	struct kref kref;
	struct percpu_ref users;
	struct completion users_done;
	struct list_head clients;
	struct mlx5_umr_caps caps;

	struct mlx5_umr_uar uar;
	struct mlx5_umr_queue **queues;
	u16 nqueues;
	u16 *cpu_q;

	struct mutex mkeys_lock; /* @mkeys, @hca after bring-up */
	struct list_head mkeys;
	unsigned long timeout;
	bool dek_unsynced;
	atomic_t leaked;
	struct xarray sig_mkeys;
	struct xarray kept_pds;
	bool keep_all_pds;
	struct xarray ib_pdns;

	struct list_head chans;
	struct mutex chans_mutex; /* unplug walks, channels' @gone */
	spinlock_t chans_lock; /* walks of @chans in any context */
	u8 cqe_version;
	u8 ts_format;
	u8 log_max_qp_sz;

	struct mutex pdq_lock; /* @pd_queues, PD queues' refs and life */
	struct xarray pd_queues;
};

/**
 * struct mlx5_umr_mkey_priv - service state of an mkey
 * @pub: what consumers see
 * @list: on mlx5_umr_dev.mkeys, under mkeys_lock
 * @xlt: pointer-mode translation table (xlt.cpu NULL when inline only)
 * @xlt_buf: the coherent memory behind @xlt
 * @xlt_busy: a posted WQE uses @xlt (bit 0)
 * @hw: the mkey exists on the HCA
 * @q: its home queue, which posts every request of the mkey; set at
 *	allocation, never NULL after; moved only while idle, with both
 *	queues' locks held (mlx5_umr_mkey_set_queue()); "its home queue's
 *	lock" below is @q->sq.lock
 * @sig: MLX5_UMR_MKEY_SIGNATURE: its signature state (sig.h)
 * @crypto_len: MLX5_UMR_MKEY_CRYPTO: bytes of the layout of the last
 *	CONFIGURE posted (rule 64), under its home queue's lock
 * @dek: MLX5_UMR_MKEY_CRYPTO: the DEK the last SET_CRYPTO posted names,
 *	until an INVALIDATE succeeded (under its home queue's lock); no DEK
 *	an mkey may name is destroyed (mlx5_umr_dek_destroy())
 * @dek_prev: the DEK it named before, which the HCA may still name: until a
 *	SET_CRYPTO or an INVALIDATE succeeded with nothing else of the mkey
 *	in flight (under its home queue's lock)
 * @inflight: MLX5_UMR_MKEY_CRYPTO: its requests posted and not done yet
 *	(under its home queue's lock)
 * @psv_pdn: MLX5_UMR_MKEY_SIGNATURE: the PD its PSVs were created in
 * @key_unknown: a request installing a new key byte failed (-EIO,
 *	-ETIMEDOUT): the HCA has the old or the new one; only requests with
 *	MLX5_UMR_WR_NEW_KEY are taken until one succeeded (under its home
 *	queue's lock)
 */
struct mlx5_umr_mkey_priv {
	struct mlx5_umr_mkey pub;
	struct list_head list;
	struct mlx5_umr_xlt xlt;
	struct mlx5_umr_dma_buf xlt_buf;
	unsigned long xlt_busy;
	bool hw;
	struct mlx5_umr_queue *q;
	struct mlx5_umr_sig_mkey *sig;
	u64 crypto_len;
	const struct mlx5_umr_dek *dek;
	const struct mlx5_umr_dek *dek_prev;
	u32 inflight;
	u32 psv_pdn;
	bool key_unknown;
};

static inline struct mlx5_umr_mkey_priv *to_priv(struct mlx5_umr_mkey *m)
{
	return container_of(m, struct mlx5_umr_mkey_priv, pub);
}

/*
 * dma_map_sg/dma_unmap_sg are function-like macros in dma-mapping.h: call
 * the backend ops through these so the member names are not expanded.
 */
static inline int mlx5_umr_hca_map_sg(struct mlx5_umr_hca *hca,
				      struct sg_table *sgt,
				      enum dma_data_direction dir)
{
	int (*map)(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		   enum dma_data_direction dir) = hca->ops->dma_map_sg;

	return map(hca, sgt, dir);
}

static inline void mlx5_umr_hca_unmap_sg(struct mlx5_umr_hca *hca,
					 struct sg_table *sgt,
					 enum dma_data_direction dir)
{
	void (*unmap)(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		      enum dma_data_direction dir) = hca->ops->dma_unmap_sg;

	unmap(hca, sgt, dir);
}

/* registry.c */
struct mlx5_umr_test_hca_ops;
int mlx5_umr_hca_add(struct mlx5_umr_hca *hca,
		     const struct mlx5_umr_test_hca_ops *test_ops);

/* dev.c */
void mlx5_umr_leak_buf(struct mlx5_umr_dev *dev, const char *what);
int mlx5_umr_cmd(struct mlx5_umr_dev *dev, const void *in, int inlen,
		 void *out, int outlen);

int mlx5_umr_dev_init(struct mlx5_umr_dev *dev);
void mlx5_umr_dev_cleanup(struct mlx5_umr_dev *dev);
void mlx5_umr_queues_free(struct mlx5_umr_dev *dev);
struct mlx5_umr_queue *mlx5_umr_queue_alloc_on(struct mlx5_umr_dev *dev,
					       u16 id, int cpu, int vector,
					       u32 bbs);
void mlx5_umr_queue_free(struct mlx5_umr_queue *q);
int mlx5_umr_queue_init(struct mlx5_umr_queue *q);
void mlx5_umr_queue_cleanup(struct mlx5_umr_queue *q);
int mlx5_umr_qp_modify(struct mlx5_umr_queue *q, u16 opcode);
int mlx5_umr_qp_to_rts(struct mlx5_umr_queue *q);
int mlx5_umr_create_dma_mkey(struct mlx5_umr_dev *dev, u32 pdn, u32 *key);
int mlx5_umr_destroy_dma_mkey(struct mlx5_umr_dev *dev, u32 key);

/* The device's first queue (tests' view of a one-queue device). */
static inline struct mlx5_umr_queue *mlx5_umr_dev_q0(struct mlx5_umr_dev *dev)
{
	return dev->queues[0];
}

/* The queue of the CPU this runs on: the home of the mkeys it allocates. */
static inline struct mlx5_umr_queue *
mlx5_umr_cpu_queue(struct mlx5_umr_dev *dev)
{
	return dev->queues[dev->cpu_q[raw_smp_processor_id()]];
}

/* mkey.c */
void mlx5_umr_mkeys_teardown(struct mlx5_umr_dev *dev);

/* pd.c */
bool mlx5_umr_pd_kept(struct mlx5_umr_dev *dev, u32 pdn);

/* Is @pdn an mlx5_ib PD's (mlx5_umr_pd_get_ib())? Any context. */
static inline bool mlx5_umr_pd_is_ib(struct mlx5_umr_dev *dev, u32 pdn)
{
	return xa_load(&dev->ib_pdns, pdn);
}

void mlx5_umr_pd_dealloc(struct mlx5_umr_dev *dev, u32 pdn);
void mlx5_umr_pd_keep(struct mlx5_umr_dev *dev, u32 pdn);
void mlx5_umr_pd_keep_mkey_pd(struct mlx5_umr_dev *dev, u32 key);

static inline __be32 *mlx5_umr_sq_dbrec(struct mlx5_umr_queue *q)
{
	return (__be32 *)q->dbr.cpu;
}

static inline __be32 *mlx5_umr_cq_dbrec(struct mlx5_umr_queue *q)
{
	return (__be32 *)((u8 *)q->dbr.cpu + MLX5_UMR_CQ_DBR_OFFSET);
}

static inline bool mlx5_umr_hca_dead(struct mlx5_umr_dev *dev)
{
	const struct mlx5_umr_hca_ops *ops = dev->hca->ops;

	return ops->internal_error && ops->internal_error(dev->hca);
}

/* sq_post.c: posting and ringing */
void mlx5_umr_wr_give_attrs(struct mlx5_umr_wr *wr);
void mlx5_umr_sq_init(struct mlx5_umr_queue *q);
void mlx5_umr_sq_resubmit(struct mlx5_umr_queue *q);
int mlx5_umr_exec_interruptible(struct mlx5_umr_dev *dev,
				struct mlx5_umr_wr *wr,
				unsigned int timeout_ms);

/* sq_comp.c: completion */
void mlx5_umr_cq_comp(struct mlx5_umr_hca_cq *cq);
void mlx5_umr_cq_arm(struct mlx5_umr_queue *q);
void mlx5_umr_cq_poll(struct mlx5_umr_queue *q, bool arm);
void mlx5_umr_poll_work(struct work_struct *work);
void mlx5_umr_sq_retire_all(struct mlx5_umr_sq *sq, int status,
			    struct list_head *done);
void mlx5_umr_sq_finish(struct mlx5_umr_queue *q, struct list_head *done);
void mlx5_umr_pd_move_failed(struct mlx5_umr_wr *wr);
void mlx5_umr_sq_set_err(struct mlx5_umr_queue *q, bool timeout);
int mlx5_umr_cq_consume(struct mlx5_umr_queue *q, int budget);
bool mlx5_umr_cq_waiting(struct mlx5_umr_queue *q);
int mlx5_umr_iop_poll(struct irq_poll *iop, int budget);

/* queue.c: channels ULPs own */
void mlx5_umr_chans_init(struct mlx5_umr_dev *dev);
void mlx5_umr_chans_wait_users(struct mlx5_umr_dev *dev);
void mlx5_umr_chans_stop(struct mlx5_umr_dev *dev);
void mlx5_umr_chans_teardown(struct mlx5_umr_dev *dev);
void mlx5_umr_chans_set_err(struct mlx5_umr_dev *dev, bool timeout,
			    bool busy_only);

/* pd_queue.c: the queues of signature mkeys' PDs */
void mlx5_umr_pd_queues_init(struct mlx5_umr_dev *dev);
struct mlx5_umr_queue *mlx5_umr_pd_queue_get(struct mlx5_umr_dev *dev,
					     u32 pdn, bool user_pd);
void mlx5_umr_pd_queue_put(struct mlx5_umr_queue *q);
void mlx5_umr_pd_queues_teardown(struct mlx5_umr_dev *dev);

/* room.c: the room notification */
void mlx5_umr_room_kick(struct mlx5_umr_queue *q);

/* consumer.c: per-consumer counts */
int mlx5_umr_consumers_get(struct mlx5_umr_wr **wrs, unsigned int n);
void mlx5_umr_consumers_put(struct mlx5_umr_wr **wrs, unsigned int n);
void mlx5_umr_wr_call_done(struct mlx5_umr_wr *wr);

/* sq_recover.c: errors, recovery, watchdog, teardown */
void mlx5_umr_recover_work(struct work_struct *work);
void mlx5_umr_watchdog(struct work_struct *work);
void mlx5_umr_sq_fail_all(struct mlx5_umr_queue *q, int status);
void mlx5_umr_sq_stop(struct mlx5_umr_queue *q);
void mlx5_umr_sq_timeout(struct mlx5_umr_dev *dev);
void mlx5_umr_dev_fail_dead(struct mlx5_umr_dev *dev);
void mlx5_umr_sq_flush(struct mlx5_umr_dev *dev);

#endif /* MLX5_UMR_CORE_H */
