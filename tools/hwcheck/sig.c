// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hwcheck's signature checks: T10-DIF inserted on an RDMA READ and
 * checked and stripped on an RDMA WRITE through a signature mkey the
 * service configured, a corrupted block reported (type, values, offset)
 * and the check re-armed, and the same through a signature + crypto pair
 * (IEEE 1619 vector 4 in memory, plaintext and T10-DIF on the wire). The
 * HCA moves the data on the loopback QP pair, whose PD the file is bound
 * to with the verified SET_PD: the service puts signature mkeys nowhere
 * else a user's QP can reach (Documentation/uapi.rst).
 *
 * A SIG_ERR CQE names an mkey that libmlx5 did not create, so its poll
 * consumes the CQE and fails (rdma-core v44.0 providers/mlx5/cq.c
 * mlx5_parse_cqe(), case MLX5_CQE_SIG_ERR: mlx5_find_mkey() finds nothing,
 * CQ_POLL_ERR after ++cons_index). Each CQE is therefore read from the
 * CQ's buffer (mlx5dv_init_obj(MLX5DV_OBJ_CQ)) at the consumer index
 * libmlx5 last wrote to the doorbell record (cq.c update_cons_index(),
 * after every poll) before ibv_poll_cq() takes it, one at a time, and a
 * SIG_ERR is handed to MLX5_UMR_IOCTL_SIG_REPORT.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include <infiniband/mlx5dv.h>
#include "hwcheck.h"

/* The project's one copy of vector 4 (a KUnit header: its u8). */
typedef __u8 u8;
#include "xts_vectors.h"

#define BS		512		/* data bytes per block */
#define PI		8		/* a T10-DIF field */
#define NBLK		2
#define DATA_LEN	(NBLK * BS)
#define WIRE_LEN	(NBLK * (BS + PI))
#define APP		0x5678
#define REF		0x1000
#define SIG_ERR_OP	12		/* MLX5_CQE_SIG_ERR */
#define CQE_TIMEOUT_MS	5000
/* how long a SIG_ERR CQE may trail the completion of its access */
#define SIG_LINGER_MS	200

/* CRC-16/T10-DIF (poly 0x8bb7, no reflection, init 0), bit by bit. */
static uint16_t crc16_t10dif(const uint8_t *p, size_t n)
{
	uint16_t crc = 0;
	int b;

	while (n--) {
		crc ^= (uint16_t)*p++ << 8;
		for (b = 0; b < 8; b++)
			crc = crc & 0x8000 ? (crc << 1) ^ 0x8bb7 : crc << 1;
	}
	return crc;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/*
 * The CQE libmlx5 polls next, or NULL (rdma-core cq.c get_sw_cqe(): a
 * valid opcode and the owner bit of this pass of the ring).
 */
static const uint8_t *cq_next(const struct mlx5dv_cq *cq)
{
	uint32_t ci = be32toh(cq->dbrec[0]) & 0xffffff;
	const uint8_t *cqe = (const uint8_t *)cq->buf +
			     (size_t)(ci & (cq->cqe_cnt - 1)) * cq->cqe_size;
	uint8_t op_own;

	if (cq->cqe_size == 128)
		cqe += 64;
	op_own = __atomic_load_n(&cqe[63], __ATOMIC_RELAXED);
	if (op_own >> 4 == 0xf || (op_own & 1) != !!(ci & cq->cqe_cnt))
		return NULL;
	/* the CQE's contents after its owner bit (udma_from_device_barrier) */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return cqe;
}

/* What one access produced. */
struct sig_out {
	struct hc_wc wc;
	int nsig;		/* SIG_ERR CQEs seen */
	uint8_t cqe[64];	/* the first */
};

/*
 * Take CQEs until @want completions arrived (then @linger ms more for a
 * SIG_ERR), keeping SIG_ERR CQEs from libmlx5.
 */
static void sig_reap(struct mlx5dv_cq *cq, int want, long linger,
		     struct sig_out *o)
{
	long end = now_ms() + (want ? CQE_TIMEOUT_MS : linger);
	const uint8_t *cqe;
	struct ibv_wc c;
	int got;

	for (;;) {
		if (!want && !linger)
			return;
		cqe = cq_next(cq);
		if (!cqe) {
			if (!want && now_ms() > end)
				return;
			if (want && now_ms() > end) {
				o->wc.posted = 0;
				o->wc.err = ETIMEDOUT;
				return;
			}
			continue;
		}
		if (cqe[63] >> 4 == SIG_ERR_OP) {
			if (!o->nsig++)
				memcpy(o->cqe, cqe, 64);
			/* libmlx5 takes it and fails the poll (see above) */
			got = ibv_poll_cq(H.pair.cq, 1, &c);
			if (got >= 0) {
				o->wc.posted = 0;
				o->wc.err = EPROTO;
				return;
			}
			continue;
		}
		got = ibv_poll_cq(H.pair.cq, 1, &c);
		if (got != 1) {
			o->wc.posted = 0;
			o->wc.err = got < 0 ? EIO : EAGAIN;
			return;
		}
		if (!want)
			continue;	/* not ours: nothing else is posted */
		if (c.status != IBV_WC_SUCCESS && o->wc.status == IBV_WC_SUCCESS) {
			o->wc.status = c.status;
			o->wc.vendor_err = c.vendor_err;
		}
		if (!--want && linger)
			end = now_ms() + linger;
	}
}

/* One signalled RDMA WRITE (@write) or READ on qp[0], and what it gave. */
static void sig_rdma(struct mlx5dv_cq *cq, int write, void *laddr,
		     uint32_t lkey, uint64_t raddr, uint32_t rkey, uint32_t len,
		     struct sig_out *o)
{
	struct ibv_sge sge = { (uintptr_t)laddr, len, lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	}, *bad;

	memset(o, 0, sizeof(*o));
	o->wc.posted = 1;
	o->wc.status = IBV_WC_SUCCESS;
	o->wc.err = ibv_post_send(H.pair.qp[0], &wr, &bad);
	if (o->wc.err) {
		o->wc.posted = 0;
		return;
	}
	sig_reap(cq, 1, SIG_LINGER_MS, o);
	if (!o->wc.posted) {
		struct sig_out rest = { 0 };

		/* what is left of this access must not reach the next one */
		sig_reap(cq, 0, SIG_LINGER_MS, &rest);
	}
}

/* Why the service cannot run the signature checks here, or NULL. */
static const char *sig_unsupported(void)
{
	if (H.rxe)
		return "plain MRs have no signature";
	if (!H.have_info)
		return "MLX5_UMR_IOCTL_INFO failed: the service's caps are unknown";
	if (!(H.info.out_flags & MLX5_UMR_IOC_INFO_SIG))
		return "no MLX5_UMR_IOC_INFO_SIG: the HCA offers no block signature";
	return NULL;
}

/* The device's CQ as libmlx5 lays it out. */
static int sig_cq(struct mlx5dv_cq *cq)
{
	struct mlx5dv_obj o = { 0 };
	int ret;

	o.cq.in = H.pair.cq;
	o.cq.out = cq;
	ret = mlx5dv_init_obj(&o, MLX5DV_OBJ_CQ);
	if (ret)
		fail_err("mlx5dv_init_obj(CQ)", ret);
	return ret;
}

/* T10-DIF on the wire, 512-byte blocks, ref tag + 1 per block. */
static const struct mlx5dv_sig_t10dif wire_dif = {
	.bg_type = MLX5DV_SIG_T10DIF_CRC,
	.bg = 0,
	.app_tag = APP,
	.ref_tag = REF,
	.flags = MLX5DV_SIG_T10DIF_FLAG_REF_REMAP,
};

static const struct mlx5dv_sig_block_domain wire_domain = {
	.sig_type = MLX5DV_SIG_TYPE_T10DIF,
	.sig.dif = &wire_dif,
	.block_size = MLX5DV_BLOCK_SIZE_512,
};

static const struct mlx5dv_sig_block_attr wire_sig = {
	.wire = &wire_domain,
	.check_mask = MLX5DV_SIG_MASK_T10DIF_GUARD |
		      MLX5DV_SIG_MASK_T10DIF_APPTAG |
		      MLX5DV_SIG_MASK_T10DIF_REFTAG,
};

/* @data (@nblk blocks) as the wire carries it: each block and its PI. */
static void wire_of(uint8_t *wire, const uint8_t *data, int nblk)
{
	uint8_t *pi;
	int b;

	for (b = 0; b < nblk; b++) {
		memcpy(wire + b * (BS + PI), data + b * BS, BS);
		pi = wire + b * (BS + PI) + BS;
		pi[0] = crc16_t10dif(data + b * BS, BS) >> 8;
		pi[1] = crc16_t10dif(data + b * BS, BS);
		pi[2] = APP >> 8;
		pi[3] = APP & 0xff;
		pi[4] = (REF + b) >> 24;
		pi[5] = (REF + b) >> 16;
		pi[6] = (REF + b) >> 8;
		pi[7] = REF + b;
	}
}

/* The first byte where @got differs from @want, or -1. */
static long diff_at(const uint8_t *got, const uint8_t *want, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (got[i] != want[i])
			return i;
	return -1;
}

/* A signature mkey over region 0's first @nblk blocks, with @crypto. */
static struct mlx5umr_mkey *sig_mkey(int nblk,
				     const struct mlx5umr_crypto_attr *crypto)
{
	struct hc_region *r = &H.reg[0];
	struct ibv_sge s = { (uintptr_t)r->buf, nblk * BS, r->lkey };
	struct mlx5umr_configure_attr cfg = {
		.access = ACC_ALL,
		.layout = MLX5UMR_LAYOUT_LIST,
		.num_entries = 1,
		.sge = &s,
		.sig = &wire_sig,
		.crypto = crypto,
	};
	struct mlx5umr_mkey *mk;
	int ret;

	mk = mlx5umr_create_mkey(H.uctx, 1, MLX5UMR_MKEY_SIGNATURE |
				 (crypto ? MLX5UMR_MKEY_CRYPTO : 0));
	if (!mk) {
		fail_err(crypto ? "create a signature + crypto mkey" :
			 "create a signature mkey in the caller's PD", errno);
		return NULL;
	}
	ret = mlx5umr_mkey_configure(mk, &cfg);
	if (ret) {
		fail_err("configure T10-DIF on the wire", ret);
		mlx5umr_destroy_mkey(mk);
		return NULL;
	}
	return mk;
}

/* A check's start: the CQ, the regions, @data, a signature mkey. */
static struct mlx5umr_mkey *sig_begin(struct mlx5dv_cq *cq, uint8_t *data,
				      uint32_t seed)
{
	const char *why = sig_unsupported();

	if (why) {
		skip("%s", why);
		return NULL;
	}
	if (sig_cq(cq))
		return NULL;
	guard_regions();
	fill_pattern(data, DATA_LEN, seed);
	return sig_mkey(NBLK, NULL);
}

/* The access @o must have completed well, with no SIG_ERR CQE. */
static int sig_clean(const char *what, const struct sig_out *o)
{
	if (!o->wc.posted || o->wc.status != IBV_WC_SUCCESS) {
		fail_wc_recover(what, &o->wc);
		return -1;
	}
	if (o->nsig) {
		fail("%s: %d SIG_ERR CQE(s) for good data", what, o->nsig);
		return -1;
	}
	return 0;
}

/*
 * Insert (RDMA READ: data and a T10-DIF field per block) and strip (RDMA
 * WRITE of that back: the fields checked, the data alone in memory).
 */
void chk_sig_insert_strip(void)
{
	static uint8_t data[DATA_LEN], wire[WIRE_LEN];
	struct hc_region *r = &H.reg[0];
	struct mlx5umr_mkey *mk;
	struct mlx5dv_mkey_err e = { 0 };
	struct mlx5dv_cq cq;
	struct sig_out o;
	long d;
	int i;

	mk = sig_begin(&cq, data, 0x51);
	if (!mk)
		return;
	memcpy(r->buf, data, DATA_LEN);
	wire_of(wire, data, NBLK);

	memset(H.lbuf, 0, WIRE_LEN + 1);
	sig_rdma(&cq, 0, H.lbuf, H.lmr->lkey, 0, mk->rkey, WIRE_LEN, &o);
	if (sig_clean("RDMA READ through the signature mkey", &o))
		goto out;
	d = diff_at(H.lbuf, wire, WIRE_LEN);
	if (d >= 0) {
		fail("RDMA READ: wire byte %ld (block %ld, %s) is 0x%02x, want 0x%02x",
		     d, d / (BS + PI), d % (BS + PI) < BS ? "data" : "T10-DIF",
		     H.lbuf[d], wire[d]);
		goto out;
	}
	if (H.lbuf[WIRE_LEN]) {
		fail("RDMA READ wrote past its %d bytes", WIRE_LEN);
		goto out;
	}

	memset(r->buf, GUARD, DATA_LEN);
	sig_rdma(&cq, 1, H.lbuf, H.lmr->lkey, 0, mk->rkey, WIRE_LEN, &o);
	if (sig_clean("RDMA WRITE through the signature mkey", &o))
		goto out;
	d = diff_at(r->buf, data, DATA_LEN);
	if (d >= 0) {
		fail("RDMA WRITE: memory byte %ld is 0x%02x, want 0x%02x (T10-DIF stripped)",
		     d, r->buf[d], data[d]);
		goto out;
	}
	for (i = DATA_LEN; i < (int)r->len; i++) {
		if (r->buf[i] != GUARD) {
			fail("RDMA WRITE: region 0 byte %d is 0x%02x, want 0x%02x (untouched)",
			     i, r->buf[i], GUARD);
			goto out;
		}
	}
	i = mlx5umr_mkey_check(mk, &e);
	if (i || e.err_type != MLX5DV_MKEY_NO_ERR) {
		fail("mkey check after good data: %s, type %d",
		     strerror(i), e.err_type);
		goto out;
	}
	note("%d blocks of 512: T10-DIF inserted on READ, checked and stripped on WRITE",
	     NBLK);
out:
	i = mlx5umr_destroy_mkey(mk);
	if (i && hc_cur->result == HC_PASS)
		fail_err("destroy the signature mkey", i);
}

/*
 * A WRITE whose block 1 data no longer matches its guard: the SIG_ERR
 * CQE, reported to the service, must give the mkey, BAD_GUARD, expected
 * = the CRC of the data that arrived and actual = the guard it carried
 * (Documentation/signature.rst, "Expected and actual").
 */
static int sig_expect_guard(struct mlx5umr_mkey *mk, const struct sig_out *o,
			    uint16_t expected, uint16_t actual, const char *what)
{
	struct mlx5dv_mkey_err e = { 0 };
	uint32_t handle = 0;
	int ret;

	if (!o->wc.posted || o->wc.status != IBV_WC_SUCCESS) {
		fail_wc_recover(what, &o->wc);
		return -1;
	}
	if (o->nsig != 1) {
		fail("%s: %d SIG_ERR CQEs, want 1", what, o->nsig);
		return -1;
	}
	ret = mlx5umr_sig_report(H.uctx, o->cqe, &handle);
	if (ret || handle != mk->handle) {
		fail("%s: SIG_REPORT: %s, handle %u (want %u)", what,
		     strerror(ret), handle, mk->handle);
		return -1;
	}
	ret = mlx5umr_mkey_check(mk, &e);
	if (ret) {
		fail_err("mkey check", ret);
		return -1;
	}
	if (e.err_type != MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD ||
	    e.err.sig.expected_value != expected ||
	    e.err.sig.actual_value != actual) {
		fail("%s: type %d expected 0x%llx actual 0x%llx, want %d 0x%x 0x%x",
		     what, e.err_type,
		     (unsigned long long)e.err.sig.expected_value,
		     (unsigned long long)e.err.sig.actual_value,
		     MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD, expected, actual);
		return -1;
	}
	/* the fake's rule (fake.rst): block 1's last byte in the wire view */
	if (e.err.sig.offset != 2 * (BS + PI) - 1) {
		fail("%s: offset %llu, want %d (the last byte of block 1 on the wire)",
		     what, (unsigned long long)e.err.sig.offset,
		     2 * (BS + PI) - 1);
		return -1;
	}
	ret = mlx5umr_mkey_check(mk, &e);
	if (ret || e.err_type != MLX5DV_MKEY_NO_ERR) {
		fail("%s: a second check is not clear: %s, type %d", what,
		     strerror(ret), e.err_type);
		return -1;
	}
	return 0;
}

/*
 * Corrupted block 1, reported; the check (which re-arms) lets the same
 * corruption be reported again; good data after it, nothing.
 */
void chk_sig_corrupt_rearm(void)
{
	static uint8_t data[DATA_LEN], wire[WIRE_LEN];
	struct mlx5umr_mkey *mk;
	uint16_t good, bad;
	struct mlx5dv_cq cq;
	struct sig_out o;
	int ret;

	mk = sig_begin(&cq, data, 0x52);
	if (!mk)
		return;
	wire_of(wire, data, NBLK);
	good = crc16_t10dif(data + BS, BS);
	wire[BS + PI + 7] ^= 0x10;
	bad = crc16_t10dif(wire + BS + PI, BS);

	memcpy(H.lbuf, wire, WIRE_LEN);
	sig_rdma(&cq, 1, H.lbuf, H.lmr->lkey, 0, mk->rkey, WIRE_LEN, &o);
	if (sig_expect_guard(mk, &o, bad, good, "corrupted block 1"))
		goto out;
	sig_rdma(&cq, 1, H.lbuf, H.lmr->lkey, 0, mk->rkey, WIRE_LEN, &o);
	if (sig_expect_guard(mk, &o, bad, good, "the same after the check re-armed"))
		goto out;
	wire[BS + PI + 7] ^= 0x10;
	memcpy(H.lbuf, wire, WIRE_LEN);
	sig_rdma(&cq, 1, H.lbuf, H.lmr->lkey, 0, mk->rkey, WIRE_LEN, &o);
	if (sig_clean("good data after the errors", &o))
		goto out;
	note("guard 0x%04x found, 0x%04x computed, at wire offset %d; re-armed",
	     good, bad, 2 * (BS + PI) - 1);
out:
	ret = mlx5umr_destroy_mkey(mk);
	if (ret && hc_cur->result == HC_PASS)
		fail_err("destroy the signature mkey", ret);
}

/*
 * The pair: memory holds vector 4's ciphertext (encrypt_on_tx clear,
 * tweak 0, data unit 512), the wire the plaintext with T10-DIF computed
 * over it (SIGNATURE_AFTER_CRYPTO_ON_TX: a READ decrypts, then inserts).
 * A WRITE of the plaintext with its fields lands as the ciphertext, a
 * READ gives the plaintext and fields back, a corrupted block is
 * reported. One block on a single-block engine.
 */
void chk_sig_crypto_pair(void)
{
	struct mlx5umr_crypto_attr ca = {
		.crypto_standard = MLX5DV_CRYPTO_STANDARD_AES_XTS,
		.signature_crypto_order =
			MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX,
		.data_unit_size = MLX5DV_BLOCK_SIZE_512,
	};
	static uint8_t pt[DATA_LEN], wire[WIRE_LEN];
	struct hc_region *r = &H.reg[0];
	struct mlx5umr_mkey *mk = NULL;
	struct mlx5umr_dek *dek;
	int nblk = NBLK, ret, i;
	struct mlx5dv_cq cq;
	uint16_t good, bad;
	struct sig_out o;
	const char *why;
	long d;

	why = sig_unsupported();
	if (why) {
		skip("%s", why);
		return;
	}
	if (!(H.info.out_flags & MLX5_UMR_IOC_INFO_CRYPTO) ||
	    (H.info.out_crypto_caps & MLX5_UMR_IOC_CRYPTO_CAP_WRAPPED_IMPORT) ||
	    !(H.info.out_crypto_key_sizes &
	      1u << MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128) ||
	    !(H.info.out_crypto_data_unit_sizes &
	      1u << MLX5_UMR_IOC_SIG_BLOCK_512)) {
		skip("no plaintext AES-XTS-128 DEK with 512-byte data units here");
		return;
	}
	if (sig_cq(&cq))
		return;
	if (H.info.out_crypto_engine == MLX5_UMR_IOC_CRYPTO_ENGINE_SINGLE_BLOCK)
		nblk = 1;
	for (i = 0; i < DATA_LEN; i++)
		pt[i] = (uint8_t)i;
	dek = hc_v4_dek();
	if (!dek) {
		fail_err("create a DEK of vector 4's key", errno);
		return;
	}
	ca.dek = dek;
	guard_regions();
	mk = sig_mkey(nblk, &ca);
	if (!mk)
		goto out;
	wire_of(wire, pt, nblk);

	memcpy(H.lbuf, wire, nblk * (BS + PI));
	sig_rdma(&cq, 1, H.lbuf, H.lmr->lkey, 0, mk->rkey, nblk * (BS + PI),
		 &o);
	if (sig_clean("RDMA WRITE of plaintext and T10-DIF", &o))
		goto out;
	d = diff_at(r->buf, xts_v4_ctext, BS);
	if (d >= 0) {
		fail("RDMA WRITE: memory byte %ld is 0x%02x, want 0x%02x (vector 4's ciphertext)",
		     d, r->buf[d], xts_v4_ctext[d]);
		goto out;
	}
	if (r->buf[nblk * BS] != GUARD) {
		fail("RDMA WRITE: memory byte %d is 0x%02x, want 0x%02x (untouched)",
		     nblk * BS, r->buf[nblk * BS], GUARD);
		goto out;
	}

	memset(H.lbuf, 0, nblk * (BS + PI));
	sig_rdma(&cq, 0, H.lbuf, H.lmr->lkey, 0, mk->rkey, nblk * (BS + PI),
		 &o);
	if (sig_clean("RDMA READ of the pair", &o))
		goto out;
	d = diff_at(H.lbuf, wire, nblk * (BS + PI));
	if (d >= 0) {
		fail("RDMA READ: wire byte %ld is 0x%02x, want 0x%02x (plaintext and T10-DIF)",
		     d, H.lbuf[d], wire[d]);
		goto out;
	}

	if (nblk == NBLK) {
		good = crc16_t10dif(pt + BS, BS);
		wire[BS + PI + 7] ^= 0x10;
		bad = crc16_t10dif(wire + BS + PI, BS);
		memcpy(H.lbuf, wire, WIRE_LEN);
		sig_rdma(&cq, 1, H.lbuf, H.lmr->lkey, 0, mk->rkey, WIRE_LEN,
			 &o);
		if (sig_expect_guard(mk, &o, bad, good,
				     "corrupted plaintext block 1"))
			goto out;
	}
	note("vector 4 in memory, plaintext + T10-DIF on the wire, %d block(s)%s",
	     nblk, nblk == NBLK ? ", a corrupted one reported" : "");
out:
	if (mk) {
		ret = mlx5umr_destroy_mkey(mk);
		if (ret && hc_cur->result == HC_PASS)
			fail_err("destroy the pair mkey", ret);
	}
	ret = mlx5umr_dek_destroy(dek);
	if (ret && hc_cur->result == HC_PASS)
		fail_err("destroy the DEK", ret);
}
