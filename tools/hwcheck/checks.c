// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hwcheck's checks, in the order they run: setup (QP pair, SET_PD,
 * registration, a plain MR), the layouts whose placement is documented
 * (mlx5dv_wr_mkey_configure(3), rdma-core tests/test_mlx5_mkey.py), a
 * pointer-mode list, a batch, a crypto mkey (crypto.c), then keys that
 * must not work.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include "hwcheck.h"

/* ---- the layouts ------------------------------------------------------ */

/* mlx5dv_wr_mkey_configure(3): 64 bytes to mr1, the next 4096 to mr2. */
static void chk_seed_list(void)
{
	struct hc_ent e[] = {
		{ &H.reg[0], 0, 64, 0 }, { &H.reg[1], 0, 4096, 0 },
	};
	struct hc_layout l = { 0, 1, 2, e };
	static const struct hc_expect x[] = {
		{ 0, 64, 0, 0 }, { 64, 4096, 1, 0 },
	};

	layout_check(&l, x, 2);
}

/* The man page's interleaved example: repeat 2, {mr1 512 skip 4}, {mr2 8}. */
static void chk_seed_interleaved(void)
{
	struct hc_ent e[] = {
		{ &H.reg[0], 0, 512, 4 }, { &H.reg[1], 0, 8, 0 },
	};
	struct hc_layout l = { 1, 2, 2, e };
	static const struct hc_expect x[] = {
		{ 0, 512, 0, 0 }, { 512, 8, 1, 0 },
		{ 520, 512, 0, 516 }, { 1032, 8, 1, 8 },
	};

	layout_check(&l, x, 4);
}

/* rdma-core tests/test_mlx5_mkey.py reg_mr_list(): buf+0 and buf+64, 8 each. */
static void chk_rdmacore_list(void)
{
	struct hc_ent e[] = {
		{ &H.reg[2], 0, 8, 0 }, { &H.reg[2], 64, 8, 0 },
	};
	struct hc_layout l = { 0, 1, 2, e };
	static const struct hc_expect x[] = {
		{ 0, 8, 2, 0 }, { 8, 8, 2, 64 },
	};

	layout_check(&l, x, 2);
}

/* test_mlx5_mkey.py reg_mr_interleaved(): repeat 3, 8 bytes skip 2 twice. */
static void chk_rdmacore_interleaved(void)
{
	struct hc_ent e[] = {
		{ &H.reg[2], 0, 8, 2 }, { &H.reg[2], 64, 8, 2 },
	};
	struct hc_layout l = { 1, 3, 2, e };
	static const struct hc_expect x[] = {
		{ 0, 8, 2, 0 }, { 8, 8, 2, 64 }, { 16, 8, 2, 10 },
		{ 24, 8, 2, 74 }, { 32, 8, 2, 20 }, { 40, 8, 2, 84 },
	};

	layout_check(&l, x, 6);
}

/*
 * Thousands of entries, far above the inline limit, so the translation
 * goes by pointer: entry i takes 48 bytes of slot n-1-i of 64 (the last
 * 16 bytes of every slot must stay untouched).
 */
static void chk_pointer_list(void)
{
	uint32_t n = 4096, i, slots = H.reg[3].len / 64;
	struct hc_layout l = { 0, 1, 0, NULL };

	if (H.rxe)
		n = 1024;	/* one RDMA operation per entry here */
	if (H.have_info && H.info.out_max_entries < n)
		n = H.info.out_max_entries;
	if (n > slots)
		n = slots;
	if (H.have_info && n <= H.info.out_max_inline_entries) {
		skip("the device's list limit (%u) is within its inline limit (%u)",
		     H.info.out_max_entries, H.info.out_max_inline_entries);
		return;
	}
	l.e = calloc(n, sizeof(*l.e));
	if (!l.e) {
		fail_err("entries", ENOMEM);
		return;
	}
	for (i = 0; i < n; i++) {
		l.e[i].reg = &H.reg[3];
		l.e[i].off = (size_t)(n - 1 - i) * 64;
		l.e[i].count = 48;
	}
	l.n = n;
	layout_check(&l, NULL, 0);
	if (hc_cur->result == HC_PASS)
		note("%u entries (inline limit %u), %u bytes, WRITE and READ placed",
		     n, H.have_info ? H.info.out_max_inline_entries : 0, n * 48);
	free(l.e);
}

/*
 * BATCH_KEYS mkeys configured by one MLX5_UMR_IOCTL_BATCH, each with its
 * own four-entry list in its own slice of region 3, then used one by one.
 */
static void chk_batch(void)
{
	struct mlx5umr_configure_attr attr = {
		.access = ACC_ALL,
		.layout = MLX5UMR_LAYOUT_LIST,
		.num_entries = 4,
	};
	struct hc_ent ent[BATCH_KEYS][4];
	struct hc_key k[BATCH_KEYS];
	struct mlx5umr_batch *b;
	uint32_t i, j, idx = 0;
	int ret, made = 0;

	if (H.rxe) {
		skip("plain MRs have no layouts to configure in a batch");
		return;
	}
	b = mlx5umr_batch_create(H.uctx);
	if (!b) {
		fail_err("batch", errno);
		return;
	}
	for (i = 0; i < BATCH_KEYS; i++) {
		struct ibv_sge s[4];

		ret = key_create(&k[i], 4);
		if (ret) {
			fail_err("create mkey", ret);
			goto out;
		}
		made++;
		for (j = 0; j < 4; j++) {
			/* entries of a key in reverse order, 100 + 8 i bytes */
			ent[i][j].reg = &H.reg[3];
			ent[i][j].off = i * BATCH_SLICE + (3 - j) * 1024;
			ent[i][j].count = 100 + 8 * i;
			ent[i][j].skip = 0;
			s[j].addr = (uintptr_t)(H.reg[3].buf + ent[i][j].off);
			s[j].length = ent[i][j].count;
			s[j].lkey = H.reg[3].lkey;
		}
		k[i].lay = (struct hc_layout){ 0, 1, 4, ent[i] };
		attr.sge = s;
		ret = mlx5umr_batch_configure(b, k[i].mkey, &attr);
		if (ret) {
			fail_err("batch add", ret);
			goto out;
		}
	}
	ret = mlx5umr_batch_submit(b, &idx);
	if (ret) {
		hc_cur->err = ret;
		fail("batch submit: %s, request %u", strerror(ret), idx);
		goto out;
	}
	for (i = 0; i < BATCH_KEYS && hc_cur->result == HC_PASS; i++) {
		char what[64];

		ret = mlx5umr_batch_status(b, i);
		if (ret) {
			hc_cur->err = ret;
			fail("request %u: %s", i, strerror(ret));
			break;
		}
		k[i].rkey = k[i].mkey->rkey;
		k[i].length = k[i].mkey->length;
		if (k[i].length != 4 * (100 + 8 * i)) {
			fail("mkey %u length %llu, want %u", i,
			     (unsigned long long)k[i].length, 4 * (100 + 8 * i));
			break;
		}
		snprintf(what, sizeof(what), "RDMA WRITE through mkey %u", i);
		write_and_verify(&k[i], 0x40 + i, what);
	}
	note("%d mkeys configured by one batch, each WRITE placed", BATCH_KEYS);
out:
	for (i = 0; i < (uint32_t)made; i++)
		key_destroy(&k[i]);
	mlx5umr_batch_destroy(b);
}

/* ---- keys that must not work ------------------------------------------ */

static struct hc_layout small_layout(struct hc_ent *e)
{
	e[0] = (struct hc_ent){ &H.reg[2], 0, 8, 0 };
	e[1] = (struct hc_ent){ &H.reg[2], 64, 8, 0 };
	return (struct hc_layout){ 0, 1, 2, e };
}

/* A configure with a new key byte: the new key works, the old one fails. */
static void chk_rotation(void)
{
	struct hc_ent e[2];
	struct hc_layout l = small_layout(e);
	struct hc_key k, old;
	struct hc_wc wc;
	int ret;

	if (H.rxe) {
		skip("plain MRs have no key rotation");
		return;
	}
	ret = key_create(&k, 2);
	if (!ret)
		ret = key_configure(&k, &l, 0);
	if (ret) {
		fail_err("configure", ret);
		goto out;
	}
	old = k;
	ret = key_configure(&k, &l, MLX5UMR_NEW_KEY);
	if (ret) {
		fail_err("configure with a new key", ret);
		goto out;
	}
	if (k.rkey == old.rkey || (k.rkey >> 8) != (old.rkey >> 8)) {
		fail("new key 0x%08x, old 0x%08x: want the same index, another key byte",
		     k.rkey, old.rkey);
		goto out;
	}
	write_and_verify(&k, 0x77, "RDMA WRITE through the new key");
	if (hc_cur->result != HC_PASS)
		goto out;
	guard_regions();
	key_rdma(&old, 1, 0, old.length, &wc);
	expect_rem_access(&wc, "RDMA WRITE through the old key");
out:
	key_destroy(&k);
}

/* After invalidation (rxe: deregistration) the key fails. */
static void chk_invalidated(void)
{
	struct hc_ent e[2];
	struct hc_layout l = small_layout(e);
	struct hc_key k;
	struct hc_wc wc;
	int ret;

	if (H.rxe) {
		struct hc_region *r = &H.reg[2];
		struct ibv_mr *mr = ibv_reg_mr(H.pair.pd, r->buf, r->len,
					       ACC_ALL);
		uint32_t rkey;

		if (!mr) {
			fail_err("ibv_reg_mr", errno);
			return;
		}
		rkey = mr->rkey;
		guard_regions();
		hc_rdma(&H.pair, 1, H.lbuf, H.lmr->lkey, (uintptr_t)r->buf,
			rkey, 16, &wc);
		if (!wc.posted || wc.status != IBV_WC_SUCCESS) {
			fail_wc("RDMA WRITE before deregistration", &wc);
			ibv_dereg_mr(mr);
			return;
		}
		ibv_dereg_mr(mr);
		guard_regions();
		hc_rdma(&H.pair, 1, H.lbuf, H.lmr->lkey, (uintptr_t)r->buf,
			rkey, 16, &wc);
		expect_rem_access(&wc, "RDMA WRITE through a deregistered MR's rkey");
		return;
	}
	ret = key_create(&k, 2);
	if (!ret)
		ret = key_configure(&k, &l, 0);
	if (ret) {
		fail_err("configure", ret);
		goto out;
	}
	write_and_verify(&k, 0x55, "RDMA WRITE before invalidation");
	if (hc_cur->result != HC_PASS)
		goto out;
	ret = mlx5umr_mkey_invalidate(k.mkey);
	if (ret) {
		fail_err("invalidate", ret);
		goto out;
	}
	guard_regions();
	key_rdma(&k, 1, 0, k.length, &wc);
	expect_rem_access(&wc, "RDMA WRITE through an invalidated mkey");
out:
	key_destroy(&k);
}

/*
 * A key of another PD: it works from a QP pair of its own PD, and fails
 * from the pair of ours.
 */
/*
 * Binds @u to @pd in the verified form (handle, command fd and restrack
 * id): the bare PD number is refused unless mlx5_umr's unverified_set_pd
 * is set. ENOENT when "rdma res show pd" did not give the PD's id.
 */
static int bind_pd(struct mlx5umr_context *u, struct ibv_pd *pd, long long id)
{
	if (id < 0 || id > UINT32_MAX) {
		note("no restrack id for the PD (is iproute2's rdma installed?)");
		errno = ENOENT;
		return errno;	/* positive, as libmlx5umr's calls return */
	}
	return mlx5umr_set_pd_ibv(u, pd, (uint32_t)id);
}

static void chk_other_pd(void)
{
	struct hc_pair p2 = { .ctx = H.pair.ctx, .port = H.pair.port };
	struct mlx5umr_context *u2 = NULL;
	struct mlx5umr_mkey *mk = NULL;
	struct mlx5umr_mr *umr = NULL;
	struct ibv_mr *mr = NULL, *l2;
	struct hc_region *r = &H.reg[2];
	struct ibv_sge s;
	uint32_t rkey;
	uint64_t ra;
	struct hc_wc wc;
	int ret;

	p2.pd = hc_alloc_pd_id(H.pair.ctx, &p2.pd_id);
	if (!p2.pd) {
		fail_err("ibv_alloc_pd", errno);
		return;
	}
	if (hc_pair_connect(&p2)) {
		fail("a QP pair in the second PD: %s", p2.why);
		goto out;
	}
	if (H.rxe) {
		mr = ibv_reg_mr(p2.pd, r->buf, r->len, ACC_ALL);
		if (!mr) {
			fail_err("ibv_reg_mr", errno);
			goto out;
		}
		rkey = mr->rkey;
		ra = (uintptr_t)r->buf;
	} else {
		u2 = mlx5umr_open(H.uctx->name);
		if (!u2) {
			fail_err("open a second file", errno);
			goto out;
		}
		ret = bind_pd(u2, p2.pd, p2.pd_id);
		if (ret) {
			fail_err("set-pd", ret);
			goto out;
		}
		umr = mlx5umr_reg_mr(u2, r->buf, r->len, ACC_ALL);
		mk = umr ? mlx5umr_create_mkey(u2, 1, 0) : NULL;
		if (!mk) {
			fail_err("register and create in the second PD", errno);
			goto out;
		}
		s = (struct ibv_sge){ (uintptr_t)r->buf, 16, umr->lkey };
		ret = mlx5umr_mkey_configure_list(mk, ACC_ALL, 1, &s);
		if (ret) {
			fail_err("configure in the second PD", ret);
			goto out;
		}
		rkey = mk->rkey;
		ra = 0;
	}
	guard_regions();
	fill_pattern(H.lbuf, 16, 0x99);
	/* the local buffer's MR is of our PD: register it in the other too */
	l2 = ibv_reg_mr(p2.pd, H.lbuf, 16, ACC_ALL);
	if (!l2) {
		fail_err("ibv_reg_mr", errno);
		goto out;
	}
	hc_rdma(&p2, 1, H.lbuf, l2->lkey, ra, rkey, 16, &wc);
	ibv_dereg_mr(l2);
	if (!wc.posted || wc.status != IBV_WC_SUCCESS) {
		fail_wc("RDMA WRITE from a QP of the key's own PD", &wc);
		goto out;
	}
	if (memcmp(r->buf, H.lbuf, 16)) {
		fail("RDMA WRITE from a QP of the key's own PD did not land");
		goto out;
	}
	guard_regions();
	hc_rdma(&H.pair, 1, H.lbuf, H.lmr->lkey, ra, rkey, 16, &wc);
	expect_rem_access(&wc, "RDMA WRITE from a QP of another PD");
out:
	if (mk)
		mlx5umr_destroy_mkey(mk);
	if (umr)
		mlx5umr_dereg_mr(umr);
	if (u2)
		mlx5umr_close(u2);
	if (mr)
		ibv_dereg_mr(mr);
	hc_pair_destroy(&p2);
	ibv_dealloc_pd(p2.pd);
}

/* rdma-core's bad flow: 100 bytes through a 16-byte key (rxe: past an MR). */
static void chk_out_of_range(void)
{
	struct hc_ent e[2];
	struct hc_layout l = small_layout(e);
	struct hc_key k;
	struct hc_wc wc;
	int ret;

	if (H.rxe) {
		struct hc_region *r = &H.reg[2];

		guard_regions();
		hc_rdma(&H.pair, 1, H.lbuf, H.lmr->lkey,
			(uintptr_t)r->buf + r->len - 16, r->rkey, 100, &wc);
		expect_rem_access(&wc, "RDMA WRITE of 100 bytes 16 bytes before an MR's end");
		return;
	}
	ret = key_create(&k, 2);
	if (!ret)
		ret = key_configure(&k, &l, 0);
	if (ret) {
		fail_err("configure", ret);
		goto out;
	}
	guard_regions();
	fill_pattern(H.lbuf, 100, 3);
	key_rdma(&k, 1, 0, 100, &wc);
	expect_rem_access(&wc, "RDMA WRITE of 100 bytes through a 16-byte mkey");
out:
	key_destroy(&k);
}

/* ---- setup checks ----------------------------------------------------- */

static void chk_pair(void)
{
	if (hc_pair_connect(&H.pair)) {
		fail("%s", H.pair.why);
		return;
	}
	H.pair_ok = 1;
	if (H.pair.gid_index >= 0)
		note("qpn 0x%x <-> 0x%x on port %u, RoCE, GID index %d",
		     H.pair.qp[0]->qp_num, H.pair.qp[1]->qp_num, H.pair.port,
		     H.pair.gid_index);
	else
		note("qpn 0x%x <-> 0x%x on port %u, InfiniBand, LID 0x%x",
		     H.pair.qp[0]->qp_num, H.pair.qp[1]->qp_num, H.pair.port,
		     H.pair.port_attr.lid);
}

static void chk_set_pd(void)
{
	struct mlx5dv_obj o = { 0 };
	struct mlx5dv_pd dvpd;
	int ret;

	/* the PD's restrack id is found on rxe too: pd_id.c is checked there */
	if (H.pair.pd_id < 0) {
		fail("no restrack id for the PD (rdma -j res show pd)");
		return;
	}
	if (H.rxe) {
		skip("plain MRs are in the PD they are registered in (restrack id %lld)",
		     H.pair.pd_id);
		return;
	}
	o.pd.in = H.pair.pd;
	o.pd.out = &dvpd;
	ret = mlx5dv_init_obj(&o, MLX5DV_OBJ_PD);
	if (ret) {
		fail_err("mlx5dv_init_obj(PD)", ret);
		return;
	}
	H.pdn = dvpd.pdn;
	ret = bind_pd(H.uctx, H.pair.pd, H.pair.pd_id);
	if (ret)
		fail_err("MLX5_UMR_IOCTL_SET_PD", ret);
	else
		note("pdn 0x%x, restrack id %lld", H.pdn, H.pair.pd_id);
}

static void chk_register(void)
{
	static const size_t len[NUM_REGIONS] = {
		8192, 8192, 4096, 4096 * 64,
	};
	int i, ret;

	H.lmr = ibv_reg_mr(H.pair.pd, H.lbuf, LBUF_LEN, ACC_ALL);
	if (!H.lmr) {
		fail_err("ibv_reg_mr (local buffer)", errno);
		return;
	}
	for (i = 0; i < NUM_REGIONS; i++) {
		ret = reg_region(&H.reg[i], len[i]);
		if (ret) {
			fail_err(H.rxe ? "ibv_reg_mr" : "MLX5_UMR_IOCTL_REG_MR",
				 ret);
			return;
		}
	}
	note("%d regions %s", NUM_REGIONS,
	     H.rxe ? "with ibv_reg_mr()" : "through the uapi, in the caller's PD");
}

/* A plain MR first: when this fails, the QP pair is at fault, not us. */
static void chk_plain_mr(void)
{
	struct hc_region *r = &H.reg[0];
	struct ibv_mr *mr;
	struct hc_wc wc;

	mr = ibv_reg_mr(H.pair.pd, r->buf, r->len, ACC_ALL);
	if (!mr) {
		fail_err("ibv_reg_mr", errno);
		return;
	}
	guard_regions();
	fill_pattern(H.lbuf, 4096, 5);
	hc_rdma(&H.pair, 1, H.lbuf, H.lmr->lkey, (uintptr_t)r->buf + 100,
		mr->rkey, 4096, &wc);
	if (!wc.posted || wc.status != IBV_WC_SUCCESS)
		fail_wc("RDMA WRITE", &wc);
	else if (memcmp(r->buf + 100, H.lbuf, 4096) || r->buf[99] != GUARD ||
		 r->buf[4196] != GUARD)
		fail("RDMA WRITE did not land at MR offset 100");
	memset(H.lbuf, 0, 4096);
	if (hc_cur->result == HC_PASS) {
		hc_rdma(&H.pair, 0, H.lbuf, H.lmr->lkey,
			(uintptr_t)r->buf + 100, mr->rkey, 4096, &wc);
		if (!wc.posted || wc.status != IBV_WC_SUCCESS)
			fail_wc("RDMA READ", &wc);
		else if (memcmp(r->buf + 100, H.lbuf, 4096))
			fail("RDMA READ returned other bytes");
	}
	ibv_dereg_mr(mr);
	note("4096 bytes WRITE and READ through an ibv_reg_mr() rkey");
}

const struct hc_def hc_defs[] = {
	{ "loopback RC QP pair in the caller's PD", chk_pair, 1 },
	{ "uapi file bound to the caller's PD (SET_PD)", chk_set_pd, 1 },
	{ "memory registered", chk_register, 1 },
	{ "plain MR: RDMA WRITE and READ", chk_plain_mr, 1 },
	{ "list layout of mlx5dv_wr_mkey_configure(3)", chk_seed_list, 0 },
	{ "interleaved layout of mlx5dv_wr_mkey_configure(3)",
	  chk_seed_interleaved, 0 },
	{ "list layout of rdma-core test_mlx5_mkey.py", chk_rdmacore_list, 0 },
	{ "interleaved layout of rdma-core test_mlx5_mkey.py",
	  chk_rdmacore_interleaved, 0 },
	{ "pointer-mode list of thousands of entries", chk_pointer_list, 0 },
	{ "a batch of configures", chk_batch, 0 },
	{ "crypto mkey: IEEE 1619 XTS-AES vector 4", chk_crypto_vector4, 0 },
	{ "signature mkey: T10-DIF inserted on READ, stripped on WRITE",
	  chk_sig_insert_strip, 0 },
	{ "signature mkey: a corrupted block reported, the check re-armed",
	  chk_sig_corrupt_rearm, 0 },
	{ "signature + crypto mkey: vector 4 in memory, T10-DIF on the wire",
	  chk_sig_crypto_pair, 0 },
	{ "old key after rotation fails", chk_rotation, 0 },
	{ "invalidated key fails", chk_invalidated, 0 },
	{ "key of another PD fails", chk_other_pd, 0 },
	{ "out-of-range access fails", chk_out_of_range, 0 },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

const size_t hc_ndefs = ARRAY_SIZE(hc_defs);
