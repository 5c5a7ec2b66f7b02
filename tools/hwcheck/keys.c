// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hwcheck's keys and memory: registrations (the uapi's, or ibv_reg_mr()
 * with --rxe), layouts configured on mkeys through libmlx5umr, RDMA through
 * a key's address space (--rxe: one operation per layout segment, named by
 * the plain MRs), and the checks of where the bytes went.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hwcheck.h"

/* ---- memory and keys -------------------------------------------------- */

void fill_pattern(uint8_t *p, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)((i * 131 + (i >> 8) * 7 + seed) ^ (seed >> 8));
}

void guard_regions(void)
{
	int i;

	for (i = 0; i < NUM_REGIONS; i++)
		memset(H.reg[i].buf, GUARD, H.reg[i].len);
}

int reg_region(struct hc_region *r, size_t len)
{
	int ret = posix_memalign((void **)&r->buf, 4096, len);

	if (ret)
		return ret;
	r->len = len;
	memset(r->buf, GUARD, len);
	if (H.rxe) {
		struct ibv_mr *mr = ibv_reg_mr(H.pair.pd, r->buf, len, ACC_ALL);

		if (!mr)
			return errno;
		r->obj = mr;
		r->lkey = mr->lkey;
		r->rkey = mr->rkey;
	} else {
		struct mlx5umr_mr *mr = mlx5umr_reg_mr(H.uctx, r->buf, len,
						       ACC_ALL);

		if (!mr)
			return errno;
		r->obj = mr;
		r->lkey = mr->lkey;
		r->rkey = mr->rkey;
	}
	return 0;
}

int key_create(struct hc_key *k, uint32_t max_entries)
{
	memset(k, 0, sizeof(*k));
	if (H.rxe)
		return 0;
	k->mkey = mlx5umr_create_mkey(H.uctx, max_entries, 0);
	return k->mkey ? 0 : errno;
}

void key_destroy(struct hc_key *k)
{
	if (k->mkey)
		mlx5umr_destroy_mkey(k->mkey);
	k->mkey = NULL;
}

static struct ibv_sge *to_sges(const struct hc_layout *l)
{
	struct ibv_sge *s = calloc(l->n, sizeof(*s));
	uint32_t i;

	for (i = 0; s && i < l->n; i++) {
		s[i].addr = (uintptr_t)(l->e[i].reg->buf + l->e[i].off);
		s[i].length = l->e[i].count;
		s[i].lkey = l->e[i].reg->lkey;
	}
	return s;
}

static struct mlx5dv_mr_interleaved *to_ilv(const struct hc_layout *l)
{
	struct mlx5dv_mr_interleaved *s = calloc(l->n, sizeof(*s));
	uint32_t i;

	for (i = 0; s && i < l->n; i++) {
		s[i].addr = (uintptr_t)(l->e[i].reg->buf + l->e[i].off);
		s[i].bytes_count = l->e[i].count;
		s[i].bytes_skip = l->e[i].skip;
		s[i].lkey = l->e[i].reg->lkey;
	}
	return s;
}

/* Configure @l on @k through the uapi (mlx5) or remember it (rxe). */
int key_configure(struct hc_key *k, const struct hc_layout *l,
		  uint32_t flags)
{
	struct mlx5umr_configure_attr attr = {
		.access = ACC_ALL,
		.flags = flags,
		.num_entries = l->n,
	};
	int ret;

	k->lay = *l;
	if (H.rxe) {
		k->length = hc_layout_length(l);
		return 0;
	}
	if (l->interleaved) {
		struct mlx5dv_mr_interleaved *d = to_ilv(l);

		if (!d)
			return errno;
		attr.layout = MLX5UMR_LAYOUT_INTERLEAVED;
		attr.interleaved = d;
		attr.repeat_count = l->repeat;
		ret = mlx5umr_mkey_configure(k->mkey, &attr);
		free(d);
	} else {
		struct ibv_sge *s = to_sges(l);

		if (!s)
			return errno;
		attr.layout = MLX5UMR_LAYOUT_LIST;
		attr.sge = s;
		ret = mlx5umr_mkey_configure(k->mkey, &attr);
		free(s);
	}
	if (!ret) {
		k->rkey = k->mkey->rkey;
		k->length = k->mkey->length;
	}
	return ret;
}

/*
 * RDMA through a key's address space: one operation naming the mkey, or
 * (rxe) one per segment of the layout, naming the plain MRs.
 */
void key_rdma(struct hc_key *k, int write, uint64_t off, uint32_t len,
	      struct hc_wc *wc)
{
	struct ibv_sge *l;
	struct hc_seg *s;
	uint64_t *ra;
	uint32_t *rk;
	size_t ns, i, n = 0;

	if (!H.rxe) {
		hc_rdma(&H.pair, write, H.lbuf, H.lmr->lkey, off, k->rkey, len,
			wc);
		return;
	}
	s = hc_layout_segs(&k->lay, &ns);
	l = calloc(ns + 1, sizeof(*l));
	ra = calloc(ns + 1, sizeof(*ra));
	rk = calloc(ns + 1, sizeof(*rk));
	if (!s || !l || !ra || !rk) {
		memset(wc, 0, sizeof(*wc));
		wc->err = ENOMEM;
		goto out;
	}
	for (i = 0; i < ns; i++) {
		uint64_t a = s[i].off > off ? s[i].off : off;
		uint64_t b = s[i].off + s[i].len < off + len ?
			     s[i].off + s[i].len : off + len;

		if (a >= b)
			continue;
		l[n].addr = (uintptr_t)(H.lbuf + (a - off));
		l[n].length = b - a;
		l[n].lkey = H.lmr->lkey;
		ra[n] = (uintptr_t)(s[i].reg->buf + s[i].reg_off + (a - s[i].off));
		rk[n] = s[i].reg->rkey;
		n++;
	}
	hc_rdma_many(&H.pair, write, l, ra, rk, n, wc);
out:
	free(s);
	free(l);
	free(ra);
	free(rk);
}

/*
 * Memory against the model: every segment holds the local buffer's bytes
 * at its offset, every other byte of every region is still GUARD.
 */
static int verify_placement(const struct hc_layout *lay, const char *what)
{
	uint8_t *want[NUM_REGIONS];
	struct hc_seg *s;
	size_t ns, i, j;
	int r, bad = 0;

	s = hc_layout_segs(lay, &ns);
	if (!s) {
		fail_err("model", ENOMEM);
		return -1;
	}
	for (r = 0; r < NUM_REGIONS; r++) {
		want[r] = malloc(H.reg[r].len);
		if (want[r])
			memset(want[r], GUARD, H.reg[r].len);
	}
	for (i = 0; i < ns; i++) {
		r = s[i].reg - H.reg;
		if (want[r])
			memcpy(want[r] + s[i].reg_off, H.lbuf + s[i].off,
			       s[i].len);
	}
	for (r = 0; r < NUM_REGIONS && !bad; r++) {
		if (!want[r]) {
			fail_err("model", ENOMEM);
			bad = 1;
			break;
		}
		for (j = 0; j < H.reg[r].len; j++) {
			if (H.reg[r].buf[j] == want[r][j])
				continue;
			fail("%s: region %d byte %zu is 0x%02x, want 0x%02x%s",
			     what, r, j, H.reg[r].buf[j], want[r][j],
			     want[r][j] == GUARD ? " (untouched)" : "");
			bad = 1;
			break;
		}
	}
	for (r = 0; r < NUM_REGIONS; r++)
		free(want[r]);
	free(s);
	return bad ? -1 : 0;
}

/* Put pattern @seed where the layout maps the key's bytes (for a READ). */
static void place_by_model(const struct hc_layout *lay, uint8_t *src)
{
	struct hc_seg *s;
	size_t ns, i;

	s = hc_layout_segs(lay, &ns);
	for (i = 0; s && i < ns; i++)
		memcpy(s[i].reg->buf + s[i].reg_off, src + s[i].off, s[i].len);
	free(s);
}

static int check_model(const struct hc_layout *lay,
		       const struct hc_expect *x, size_t nx)
{
	struct hc_seg *s;
	size_t ns, i;
	int ok;

	s = hc_layout_segs(lay, &ns);
	ok = s && ns == nx;
	for (i = 0; ok && i < ns; i++)
		ok = s[i].off == x[i].off && s[i].len == x[i].len &&
		     s[i].reg == &H.reg[x[i].reg] &&
		     s[i].reg_off == x[i].reg_off;
	free(s);
	if (!ok)
		fail("the layout model disagrees with the documented placement");
	return ok ? 0 : -1;
}

/* WRITE the pattern through @k over its whole length, check placement. */
void write_and_verify(struct hc_key *k, uint32_t seed, const char *what)
{
	struct hc_wc wc;

	guard_regions();
	fill_pattern(H.lbuf, k->length, seed);
	key_rdma(k, 1, 0, k->length, &wc);
	if (!wc.posted || wc.status != IBV_WC_SUCCESS) {
		fail_wc(what, &wc);
		return;
	}
	verify_placement(&k->lay, what);
}

/* Place a pattern by the model, READ it back through @k. */
void read_and_verify(struct hc_key *k, uint32_t seed, const char *what)
{
	uint8_t *src = malloc(k->length);
	struct hc_wc wc;
	uint64_t i;

	if (!src) {
		fail_err(what, ENOMEM);
		return;
	}
	guard_regions();
	fill_pattern(src, k->length, seed);
	place_by_model(&k->lay, src);
	memset(H.lbuf, 0, k->length);
	key_rdma(k, 0, 0, k->length, &wc);
	if (!wc.posted || wc.status != IBV_WC_SUCCESS) {
		fail_wc(what, &wc);
	} else {
		for (i = 0; i < k->length; i++) {
			if (H.lbuf[i] != src[i]) {
				fail("%s: byte %llu read 0x%02x, want 0x%02x",
				     what, (unsigned long long)i, H.lbuf[i],
				     src[i]);
				break;
			}
		}
	}
	free(src);
}

/*
 * A check of one layout: configure it on a fresh key, compare the model
 * with the documented placement, WRITE then READ through the key.
 */
void layout_check(const struct hc_layout *lay, const struct hc_expect *x,
		  size_t nx)
{
	struct hc_key k;
	int ret;

	if (x && check_model(lay, x, nx))
		return;
	ret = key_create(&k, lay->n);
	if (ret) {
		fail_err("create mkey", ret);
		return;
	}
	ret = key_configure(&k, lay, 0);
	if (ret) {
		fail_err("configure", ret);
		goto out;
	}
	if (k.length != hc_layout_length(lay)) {
		fail("configured length %llu, want %llu",
		     (unsigned long long)k.length,
		     (unsigned long long)hc_layout_length(lay));
		goto out;
	}
	write_and_verify(&k, 0x11, "RDMA WRITE");
	read_and_verify(&k, 0x2233, "RDMA READ");
	note("%llu bytes, %u entries%s, WRITE and READ placed as documented",
	     (unsigned long long)k.length, lay->n,
	     lay->interleaved ? " (interleaved)" : "");
out:
	key_destroy(&k);
}

/* A failed access; the QP pair must then be usable by later checks. */
void fail_wc_recover(const char *what, const struct hc_wc *wc)
{
	fail_wc(what, wc);
	if (wc->posted && hc_pair_recover(&H.pair)) {
		fail("QP pair recovery after the error: %s", H.pair.why);
		H.pair_ok = 0;
	}
}

/* An access that must fail with IBV_WC_REM_ACCESS_ERR and change nothing. */
void expect_rem_access(struct hc_wc *wc, const char *what)
{
	int i;
	size_t j;

	hc_cur->have_wc = 1;
	hc_cur->wc = *wc;
	if (!wc->posted) {
		fail("%s: not completed: %s", what, strerror(wc->err));
	} else if (wc->status == IBV_WC_SUCCESS) {
		fail("%s succeeded; it must fail with a remote access error",
		     what);
	} else if (wc->status != IBV_WC_REM_ACCESS_ERR) {
		fail("%s failed with %s (status %d, vendor_err 0x%x), want %s",
		     what, ibv_wc_status_str(wc->status), wc->status,
		     wc->vendor_err, ibv_wc_status_str(IBV_WC_REM_ACCESS_ERR));
	}
	for (i = 0; i < NUM_REGIONS; i++)
		for (j = 0; j < H.reg[i].len; j++)
			if (H.reg[i].buf[j] != GUARD) {
				fail("%s wrote region %d byte %zu", what, i, j);
				i = NUM_REGIONS;
				break;
			}
	if (hc_pair_recover(&H.pair)) {
		fail("QP pair recovery after the error: %s", H.pair.why);
		H.pair_ok = 0;
	}
	if (hc_cur->result == HC_PASS)
		note("%s: %s (vendor_err 0x%x), memory unchanged", what,
		     ibv_wc_status_str(wc->status), wc->vendor_err);
}
