/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: helpers shared by the KUnit suites (mlx5_umr_kunit.ko).
 *
 * - a fake HCA registered with the service (registered_fake.c);
 * - a recording HCA: forwards every backend operation to a private fake,
 *   records it, and can fail the Nth one (recording_hca.c);
 * - a harness of kthread submitters posting at once (submitters.c);
 * - the fake's own objects, WQEs and CQEs built by hand with the kernel's
 *   mlx5 structs and MLX5_SET, independently of the service's encoder, so
 *   the fake's decoder is never tested only against that encoder
 *   (fake_objects.c, fake_ring.c).
 *
 * Exported in the MLX5_UMR_KUNIT namespace; built only with KUnit.
 * Documentation/testbed.rst, "Shared KUnit helpers".
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _MLX5_UMR_KUNIT_H
#define _MLX5_UMR_KUNIT_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/spinlock.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_fake.h>
#include <linux/mlx5_umr_compat.h>

/*
 * A case that takes seconds under UML. KUnit's speed attribute ("kunit: Add
 * speed attribute") is in 6.12's kunit/test.h, not 6.1's: there it runs as
 * any other case.
 */
#ifndef KUNIT_CASE_SLOW
#define KUNIT_CASE_SLOW(test_name) KUNIT_CASE(test_name)
#endif

/* ---- a fake registered with the service ---- */

struct mlx5_umr_fake *umr_kunit_fake_registered(struct kunit *test,
						u32 flags);
struct mlx5_umr_fake *
umr_kunit_fake_registered_attr(struct kunit *test,
			       const struct mlx5_umr_fake_attr *attr);
void umr_kunit_attr_init(struct mlx5_umr_fake_attr *attr);
int umr_kunit_sig_profile_legacy(struct kunit_suite *suite);
void umr_kunit_sig_profile_default(struct kunit_suite *suite);
bool umr_kunit_sig_err_domain(void);

/* The service's device on a fake from umr_kunit_fake_registered(). */
static inline struct mlx5_umr_dev *
umr_kunit_fake_umr(struct mlx5_umr_fake *fake)
{
	return mlx5_umr_fake_hca(fake)->umr;
}

/* ---- the recording HCA ---- */

/**
 * enum umr_kunit_rec_kind - what a record holds
 * @UMR_KUNIT_REC_CMD: cmd_exec
 * @UMR_KUNIT_REC_CREATE_CQ: create_cq
 * @UMR_KUNIT_REC_DESTROY_CQ: destroy_cq
 * @UMR_KUNIT_REC_BUF: alloc_dma_buf
 * @UMR_KUNIT_REC_FREE_BUF: free_dma_buf
 * @UMR_KUNIT_REC_UAR: alloc_uar
 * @UMR_KUNIT_REC_FREE_UAR: free_uar
 * @UMR_KUNIT_REC_DB: write_db (only with %UMR_KUNIT_REC_F_DB)
 */
enum umr_kunit_rec_kind {
	UMR_KUNIT_REC_CMD,
	UMR_KUNIT_REC_CREATE_CQ,
	UMR_KUNIT_REC_DESTROY_CQ,
	UMR_KUNIT_REC_BUF,
	UMR_KUNIT_REC_FREE_BUF,
	UMR_KUNIT_REC_UAR,
	UMR_KUNIT_REC_FREE_UAR,
	UMR_KUNIT_REC_DB,
};

/**
 * struct umr_kunit_rec - one backend operation as the service called it
 * @kind: which operation
 * @ret: what it returned (the fake's answer, or the injected failure)
 * @injected: this operation was failed on purpose (umr_kunit_rec_fail())
 * @opcode: command opcode (CMD, CREATE_CQ)
 * @in: copy of the input mailbox as the service passed it
 * @inlen: its length
 * @out: copy of the output mailbox after execution (CMD)
 * @outlen: its length
 * @num: cqn (CQ records), UAR index (UAR records)
 * @size: buffer size asked for (BUF, FREE_BUF)
 * @node: NUMA node asked for (BUF)
 * @npages: pages of the buffer
 * @pages: copy of the buffer's page addresses (BUF)
 * @cpu: the buffer's CPU address (BUF, FREE_BUF)
 * @offset: doorbell offset in the UAR (DB)
 * @val: the doorbell's two words (DB)
 * @tag: what the recording HCA's @on_db hook noted (DB)
 * @done: records in the log when the operation returned; a record is
 *	appended when the operation starts, so records between its index
 *	and @done ran while it was executing
 */
struct umr_kunit_rec {
	enum umr_kunit_rec_kind kind;
	int ret;
	bool injected;
	u16 opcode;
	void *in;
	int inlen;
	void *out;
	int outlen;
	u32 num;
	size_t size;
	int node;
	unsigned int npages;
	dma_addr_t *pages;
	void *cpu;
	unsigned int offset;
	__be32 val[2];
	u32 tag;
	unsigned int done;
};

/*
 * Record doorbells too (forwarded under the log's lock, in log order), and
 * count completion events delivered inside them (@comp_in_db).
 */
#define UMR_KUNIT_REC_F_DB	BIT(0)
/*
 * Sleep before every other doorbell when the caller may sleep: on a
 * uniprocessor kernel without preemption this opens the window between
 * publishing a WQE and ringing its doorbell.
 */
#define UMR_KUNIT_REC_F_DB_YIELD BIT(1)

/**
 * struct umr_kunit_rec_fault - how an operation is failed on purpose
 * @status: firmware status for a command (0: a delivery error)
 * @syndrome: the syndrome with @status
 * @err: -errno of a delivery or allocation failure
 */
struct umr_kunit_rec_fault {
	u8 status;
	u32 syndrome;
	int err;
};

/**
 * struct umr_kunit_rec_hca - an HCA that forwards to a fake and records
 * @hca: what the service sees; register it with mlx5_umr_register_hca()
 * @fake: the private fake every call goes to
 * @fhca: the fake's HCA
 * @flags: UMR_KUNIT_REC_F_*
 * @on_db: optional, called for every doorbell record (with @lock held,
 *	interrupts off) before the doorbell is forwarded, e.g. to note the
 *	doorbell record's value in @rec->tag
 * @priv: the suite's
 * @lock: protects @rec, @n, @lost and @fail*; a doorbell is recorded and
 *	forwarded as one step under it
 * @rec: the operations, in the order they started
 * @max: size of @rec
 * @n: records used
 * @lost: operations not recorded (log full or out of memory)
 * @db_calls: doorbells seen, for %UMR_KUNIT_REC_F_DB_YIELD
 * @in_db: the task inside the fake's write_db() (%UMR_KUNIT_REC_F_DB),
 *	NULL outside
 * @comp_in_db: completion events the fake delivered from inside its
 *	write_db() (%UMR_KUNIT_REC_F_DB); hardware never completes inside the
 *	MMIO write
 * @cq: what the fake sees of the service's CQ (%UMR_KUNIT_REC_F_DB): its
 *	completion events pass through the recording HCA to @svc_cq
 * @svc_cq: the service's CQ behind @cq, NULL when none (one at a time;
 *	another CQ created meanwhile goes to the fake directly)
 * @fail: the armed failure (umr_kunit_rec_fail())
 * @fail_armed: @fail is armed
 * @fail_skip: failable operations to let through first
 */
struct umr_kunit_rec_hca {
	struct mlx5_umr_hca hca;
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_hca *fhca;
	unsigned int flags;
	void (*on_db)(struct umr_kunit_rec_hca *rh, struct umr_kunit_rec *rec);
	void *priv;
	spinlock_t lock; /* @rec, @n, @lost, @fail* */
	struct umr_kunit_rec *rec;
	unsigned int max;
	unsigned int n;
	unsigned int lost;
	atomic_t db_calls;
	struct task_struct *in_db;
	atomic_t comp_in_db;
	struct mlx5_umr_hca_cq cq;
	struct mlx5_umr_hca_cq *svc_cq;
	struct umr_kunit_rec_fault fail;
	bool fail_armed;
	unsigned int fail_skip;
};

struct umr_kunit_rec_hca *umr_kunit_rec_hca_create(struct kunit *test,
						   u32 fake_flags,
						   unsigned int max,
						   unsigned int flags);
void umr_kunit_rec_hca_destroy(struct umr_kunit_rec_hca *rh);
void umr_kunit_rec_reset(struct umr_kunit_rec_hca *rh);
void umr_kunit_rec_fail(struct umr_kunit_rec_hca *rh, unsigned int skip,
			u8 status, u32 syndrome, int err);
bool umr_kunit_rec_failable(const struct umr_kunit_rec *r);
const char *umr_kunit_rec_kind_name(enum umr_kunit_rec_kind kind);

/* ---- kthread submitters ---- */

struct umr_kunit_submitters;

/**
 * struct umr_kunit_submitter - one submitting kthread
 * @all: the harness
 * @id: 0 .. nthreads - 1
 * @dev: the service's device (NULL for a harness without one)
 * @mk: a one-entry KLM mkey of its own (with @dev)
 * @sge: 16 bytes through the PA mkey at device address 0 (with @dev)
 * @posted: requests mlx5_umr_post() accepted (umr_kunit_submit())
 * @errors: steps that returned an error
 * @ndone: done() calls (umr_kunit_submitter_done())
 * @nfailed: of them with a non-zero status
 * @priv: this thread's zeroed private area (priv_size bytes)
 * @exited: completed when the thread has run every step
 */
struct umr_kunit_submitter {
	struct umr_kunit_submitters *all;
	unsigned int id;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_sge sge;
	int posted;
	int errors;
	atomic_t ndone;
	atomic_t nfailed;
	void *priv;
	struct completion exited;
};

/**
 * struct umr_kunit_submitters - threads running @step @iters times each
 * @nthreads: threads
 * @iters: steps per thread
 * @step: one step of thread @s: 0, or -errno (counted in @s->errors)
 * @ctx: the suite's, shared by every thread
 * @t: the threads
 */
struct umr_kunit_submitters {
	unsigned int nthreads;
	unsigned int iters;
	int (*step)(struct umr_kunit_submitter *s, unsigned int it);
	void *ctx;
	struct umr_kunit_submitter *t;
};

void umr_kunit_submitters_init(struct kunit *test,
			       struct umr_kunit_submitters *subs,
			       struct mlx5_umr_dev *dev, unsigned int nthreads,
			       unsigned int iters, size_t priv_size);
void umr_kunit_submitters_run(struct kunit *test,
			      struct umr_kunit_submitters *subs,
			      const char *name,
			      void (*meanwhile)(void *arg), void *arg);
void umr_kunit_submitters_fini(struct umr_kunit_submitters *subs);
int umr_kunit_submitters_posted(const struct umr_kunit_submitters *subs);
int umr_kunit_submitters_errors(const struct umr_kunit_submitters *subs);
int umr_kunit_submitters_done(const struct umr_kunit_submitters *subs,
			      int *failed);
void umr_kunit_submitter_wr(struct umr_kunit_submitter *s,
			    struct mlx5_umr_wr *wr);
void umr_kunit_submitter_done(struct mlx5_umr_wr *wr);
int umr_kunit_submit(struct umr_kunit_submitter *s, struct mlx5_umr_wr **wrs,
		     unsigned int n);

/* ---- the fake's objects, WQEs and CQEs, by hand ---- */

#define FT_QP_DBR	64	/* QP doorbell record offset in ft->db */

/**
 * struct ft - a fake with a PD, a UAR, a CQ and a REG_UMR QP of a test's
 * @test: the test
 * @fake: the fake
 * @hca: its HCA
 * @uar: the UAR
 * @pdn: the PD
 * @db: doorbell records: the CQ's at 0, the QP's at %FT_QP_DBR
 * @cqbuf: the CQ ring
 * @sqbuf: the send queue
 * @cq: the CQ
 * @have_cq: @cq was created
 * @qpn: the QP (0 once destroyed)
 * @log_sq: log2 of the send queue's WQEBBs
 * @log_cq: log2 of the CQ's entries
 * @pi: producer index of the send queue
 * @cq_ci: consumer index of the CQ
 * @comps: completion events seen
 * @own_fake: @fake was created for this ft (ft_setup())
 */
struct ft {
	struct kunit *test;
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_hca *hca;
	struct mlx5_umr_uar uar;
	u32 pdn;
	struct mlx5_umr_dma_buf db;
	struct mlx5_umr_dma_buf cqbuf;
	struct mlx5_umr_dma_buf sqbuf;
	struct mlx5_umr_hca_cq cq;
	bool have_cq;
	u32 qpn;
	u8 log_sq;
	u8 log_cq;
	u16 pi;
	u32 cq_ci;
	atomic_t comps;
	bool own_fake;
};

#define FT_LW 1
#define FT_RR 2
#define FT_RW 4

static inline int ft_cmd(struct ft *ft, const void *in, int inlen, void *out,
			 int outlen)
{
	return ft->hca->ops->cmd_exec(ft->hca, in, inlen, out, outlen);
}

/* status and syndrome sit at the same place in every output mailbox */
static inline u8 ft_status(const void *out)
{
	return MLX5_GET(create_mkey_out, out, status);
}

static inline u32 ft_synd(const void *out)
{
	return MLX5_GET(create_mkey_out, out, syndrome);
}

static inline int ft_dma_buf(struct ft *ft, size_t size,
			     struct mlx5_umr_dma_buf *buf)
{
	return ft->hca->ops->alloc_dma_buf(ft->hca, size, NUMA_NO_NODE, buf);
}

static inline int ft_qp_state(struct ft *ft)
{
	return mlx5_umr_fake_qp_state(ft->fake, ft->qpn, NULL);
}

static inline void ft_klm(struct mlx5_klm *k, u32 bcount, u32 key, u64 va)
{
	k->bcount = cpu_to_be32(bcount);
	k->key = cpu_to_be32(key);
	k->va = cpu_to_be64(va);
}

static inline u8 fake_mkc_mode(const void *mkc)
{
	return MLX5_GET(mkc, mkc, access_mode_1_0) |
	       MLX5_GET(mkc, mkc, access_mode_4_2) << 2;
}

/* fake_objects.c */
u32 ft_alloc_pd(struct ft *ft);
int ft_dealloc_pd(struct ft *ft, u32 pdn, u32 *out);
int ft_qp_cmd(struct ft *ft, u16 opcode, u32 qpn, u32 *out);
void ft_qp_to_rts(struct ft *ft);
void *ft_create_qp_in(struct ft *ft, int *inlen);
void ft_create_cq(struct ft *ft);
struct ft *ft_setup_on(struct kunit *test, struct mlx5_umr_fake *fake,
		       u8 log_sq, u8 log_cq);
struct ft *ft_setup(struct kunit *test, u32 flags,
		    const struct mlx5_umr_fake_caps *caps, u8 log_sq,
		    u8 log_cq);
void ft_destroy_qp(struct ft *ft);
int ft_destroy_mkey(struct ft *ft, u32 key, u32 *out);
void ft_del_mkey(struct ft *ft, u32 key);
void ft_teardown(struct ft *ft);
u32 ft_create_mkey_full(struct ft *ft, u8 mode, u32 oct, bool umr_en,
			bool free, u8 access, u64 start, u64 len, u8 log_pg,
			const void *xlt, size_t xlt_bytes, u8 *status);
u32 ft_mr(struct ft *ft, struct mlx5_umr_dma_buf *buf, size_t size, u64 va,
	  u8 access);
u32 ft_indirect(struct ft *ft, u32 oct);
void ft_qp_recover(struct ft *ft);
ssize_t ft_dbg_io(struct ft *ft, const char *file, char *buf, size_t len,
		  bool write);

/* fake_ring.c */
struct ft_umr {
	struct mlx5_wqe_ctrl_seg ctrl;
	struct mlx5_wqe_umr_ctrl_seg uc;
	struct mlx5_mkey_seg mkey;
	u8 xlt[MLX5_SEND_WQE_MAX_SIZE - 128];
};

void ft_ring_copy(struct ft *ft, const void *wqe, size_t size);
u16 ft_post_nodb(struct ft *ft, void *wqe, size_t size, u8 opcode,
		 bool signalled);
void ft_ring(struct ft *ft, const void *last_ctrl);
u16 ft_post(struct ft *ft, void *wqe, size_t size, u8 opcode, bool signalled);
bool ft_poll(struct ft *ft, struct mlx5_cqe64 *out);
void ft_arm(struct ft *ft);
size_t ft_umr_init(struct ft_umr *w, u32 key, u8 access, u64 len,
		   const void *xlt, size_t xlt_bytes);
void ft_post_ok(struct ft *ft, void *w, size_t size, u8 opcode);
void ft_umr_ok(struct ft *ft, struct ft_umr *w, size_t size);
void ft_expect_err(struct ft *ft, void *w, size_t size, u8 opcode, u8 synd,
		   u8 vsynd);

#endif /* _MLX5_UMR_KUNIT_H */
