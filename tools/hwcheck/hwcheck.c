// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hwcheck: one command that proves the UMR service on a real ConnectX.
 *
 * It opens an mlx5 RDMA device bound to mlx5_umr_hw with rdma-core verbs,
 * connects a loopback RC QP pair in its own PD, puts a /dev/mlx5_umr file's
 * registrations and mkeys in that PD (MLX5_UMR_IOCTL_SET_PD), configures
 * layouts through the uapi and moves bytes through the keys with RDMA
 * WRITE and READ, checking where every byte lands. Keys that must not work
 * (old after rotation, invalidated, of another PD, out of range) must fail
 * with the remote access error the verbs report.
 *
 * --rxe runs the same harness on a soft-RoCE device with plain MRs in place
 * of the service's keys (the checker translates a layout's offsets itself):
 * it proves the QP pair, the RDMA operations, the checks that make sense
 * for plain MRs and the report, without a NIC.
 *
 * Output: one line per check (KTAP), "N passed, N failed, N skipped", a
 * JSON report. Exit 0 when every check that ran passed, 1 on a failure,
 * 4 (kselftest skip) when there is no device to check.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <infiniband/mlx5dv.h>
#include <linux/mlx5_umr.h>
#include "mlx5umr.h"
#include "hwcheck.h"

#define KSFT_SKIP	4
#define GUARD		0xa5
#define LBUF_LEN	(1024u * 1024u)
#define ACC_ALL		(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_READ)
#define NUM_REGIONS	4
#define BATCH_KEYS	16
#define BATCH_SLICE	4096

/* What a check configures a layout on: an mkey of ours or (rxe) nothing. */
struct hc_key {
	struct mlx5umr_mkey *mkey;	/* mlx5 mode */
	uint32_t rkey;
	uint64_t length;
	struct hc_layout lay;		/* the layout last configured */
};

static struct {
	int rxe;			/* plain MRs on a soft-RoCE device */
	const char *devname;
	const char *json;
	int verbose;
	struct ibv_device **list;
	struct ibv_device *dev;
	struct ibv_device_attr attr;
	struct hc_pair pair;		/* in pd */
	int pair_ok;
	struct mlx5umr_context *uctx;	/* bound to pd (mlx5 mode) */
	struct mlx5_umr_ioc_info info;
	int have_info;
	uint32_t pdn;
	uint8_t *lbuf;			/* local side of every transfer */
	struct ibv_mr *lmr;
	struct hc_region reg[NUM_REGIONS];
	char binding[256];		/* mlx5_umr_hw's debugfs line */
	char pci[64];
	double t0;			/* uptime at start, for kernel log */
	struct hc_check checks[32];
	unsigned int nchecks;
} H;

static double boot_seconds(void)
{
	double t = 0;
	FILE *f = fopen("/proc/uptime", "r");

	if (f) {
		if (fscanf(f, "%lf", &t) != 1)
			t = 0;
		fclose(f);
	}
	return t;
}

/* The service's and the backend's kernel log lines since the start. */
static char *klog_since_start(void)
{
	int len = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf, *out, *line, *save;
	size_t used = 0;
	double ts;

	if (len <= 0)
		return NULL;
	buf = malloc(len + 1);
	out = calloc(1, len + 1);
	if (!buf || !out)
		goto fail;
	len = klogctl(3, buf, len);	/* SYSLOG_ACTION_READ_ALL */
	if (len <= 0)
		goto fail;
	buf[len] = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p = strchr(line, '[');

		if (!p || sscanf(p + 1, "%lf", &ts) != 1 || ts + 0.01 < H.t0)
			continue;
		if (!strstr(line, "umr"))
			continue;
		used += sprintf(out + used, "%s\n", line);
	}
	free(buf);
	if (!used) {
		free(out);
		return NULL;
	}
	return out;
fail:
	free(buf);
	free(out);
	return NULL;
}

/* ---- results ---------------------------------------------------------- */

static struct hc_check *cur;

static void fail(const char *fmt, ...)
{
	va_list ap;

	if (cur->result == HC_FAIL)
		return;		/* the first reason counts */
	cur->result = HC_FAIL;
	va_start(ap, fmt);
	vsnprintf(cur->detail, sizeof(cur->detail), fmt, ap);
	va_end(ap);
}

static void skip(const char *fmt, ...)
{
	va_list ap;

	cur->result = HC_SKIP;
	va_start(ap, fmt);
	vsnprintf(cur->detail, sizeof(cur->detail), fmt, ap);
	va_end(ap);
}

static void note(const char *fmt, ...)
{
	va_list ap;

	if (cur->result != HC_PASS)
		return;
	va_start(ap, fmt);
	vsnprintf(cur->detail, sizeof(cur->detail), fmt, ap);
	va_end(ap);
}

static void fail_err(const char *what, int err)
{
	cur->err = err;
	fail("%s: %s (%s)", what, strerror(err),
	     mlx5umr_errno_name(err) ? mlx5umr_errno_name(err) : "?");
}

static void fail_wc(const char *what, const struct hc_wc *wc)
{
	cur->have_wc = 1;
	cur->wc = *wc;
	if (!wc->posted)
		fail("%s: not completed: %s", what, strerror(wc->err));
	else
		fail("%s: %s (status %d, vendor_err 0x%x)", what,
		     ibv_wc_status_str(wc->status), wc->status,
		     wc->vendor_err);
}

/* ---- memory and keys -------------------------------------------------- */

static void fill_pattern(uint8_t *p, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)((i * 131 + (i >> 8) * 7 + seed) ^ (seed >> 8));
}

static void guard_regions(void)
{
	int i;

	for (i = 0; i < NUM_REGIONS; i++)
		memset(H.reg[i].buf, GUARD, H.reg[i].len);
}

static int reg_region(struct hc_region *r, size_t len)
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

static int key_create(struct hc_key *k, uint32_t max_entries)
{
	memset(k, 0, sizeof(*k));
	if (H.rxe)
		return 0;
	k->mkey = mlx5umr_create_mkey(H.uctx, max_entries, 0);
	return k->mkey ? 0 : errno;
}

static void key_destroy(struct hc_key *k)
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
static int key_configure(struct hc_key *k, const struct hc_layout *l,
			 uint32_t flags)
{
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
		ret = mlx5umr_mkey_configure_interleaved_ex(k->mkey, ACC_ALL,
							    flags, l->repeat,
							    l->n, d);
		free(d);
	} else {
		struct ibv_sge *s = to_sges(l);

		if (!s)
			return errno;
		ret = mlx5umr_mkey_configure_list_ex(k->mkey, ACC_ALL, flags,
						     l->n, s);
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
static void key_rdma(struct hc_key *k, int write, uint64_t off, uint32_t len,
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

/* The expected placement of a seed example, written out by hand. */
struct hc_expect {
	uint64_t off;
	uint32_t len;
	int reg;
	size_t reg_off;
};

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
static void write_and_verify(struct hc_key *k, uint32_t seed, const char *what)
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
static void read_and_verify(struct hc_key *k, uint32_t seed, const char *what)
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
static void layout_check(const struct hc_layout *lay,
			 const struct hc_expect *x, size_t nx)
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

/* An access that must fail with IBV_WC_REM_ACCESS_ERR and change nothing. */
static void expect_rem_access(struct hc_wc *wc, const char *what)
{
	int i;
	size_t j;

	cur->have_wc = 1;
	cur->wc = *wc;
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
	if (cur->result == HC_PASS)
		note("%s: %s (vendor_err 0x%x), memory unchanged", what,
		     ibv_wc_status_str(wc->status), wc->vendor_err);
}

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
	if (cur->result == HC_PASS)
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
		ret = mlx5umr_batch_configure_list(b, k[i].mkey, ACC_ALL, 4, s);
		if (ret) {
			fail_err("batch add", ret);
			goto out;
		}
	}
	ret = mlx5umr_batch_submit(b, &idx);
	if (ret) {
		cur->err = ret;
		fail("batch submit: %s, request %u", strerror(ret), idx);
		goto out;
	}
	for (i = 0; i < BATCH_KEYS && cur->result == HC_PASS; i++) {
		char what[64];

		ret = mlx5umr_batch_status(b, i);
		if (ret) {
			cur->err = ret;
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
	if (cur->result != HC_PASS)
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
	if (cur->result != HC_PASS)
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
static void chk_other_pd(void)
{
	struct hc_pair p2 = { .ctx = H.pair.ctx, .port = H.pair.port };
	struct mlx5umr_context *u2 = NULL;
	struct mlx5umr_mkey *mk = NULL;
	struct mlx5umr_mr *umr = NULL;
	struct ibv_mr *mr = NULL, *l2;
	struct hc_region *r = &H.reg[2];
	struct mlx5dv_obj o = { 0 };
	struct mlx5dv_pd dvpd;
	struct ibv_sge s;
	uint32_t rkey;
	uint64_t ra;
	struct hc_wc wc;
	int ret;

	p2.pd = ibv_alloc_pd(H.pair.ctx);
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
		o.pd.in = p2.pd;
		o.pd.out = &dvpd;
		ret = mlx5dv_init_obj(&o, MLX5DV_OBJ_PD);
		if (ret) {
			fail_err("mlx5dv_init_obj(PD)", ret);
			goto out;
		}
		u2 = mlx5umr_open(H.uctx->name);
		if (!u2) {
			fail_err("open a second file", errno);
			goto out;
		}
		ret = mlx5umr_set_pd(u2, dvpd.pdn);
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

	if (H.rxe) {
		skip("plain MRs are in the PD they are registered in");
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
	ret = mlx5umr_set_pd(H.uctx, H.pdn);
	if (ret)
		fail_err("MLX5_UMR_IOCTL_SET_PD", ret);
	else
		note("pdn 0x%x", H.pdn);
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
	if (cur->result == HC_PASS) {
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

struct hc_def {
	const char *name;
	void (*run)(void);
	int setup;		/* a failure skips everything after it */
};

static const struct hc_def defs[] = {
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
	{ "old key after rotation fails", chk_rotation, 0 },
	{ "invalidated key fails", chk_invalidated, 0 },
	{ "key of another PD fails", chk_other_pd, 0 },
	{ "out-of-range access fails", chk_out_of_range, 0 },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NDEFS		ARRAY_SIZE(defs)

/* ---- device ----------------------------------------------------------- */

static int read_line(const char *path, const char *prefix, char *out,
		     size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int found = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, prefix, strlen(prefix)))
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(out, len, "%.*s", (int)len - 1, line);
		found = 1;
		break;
	}
	fclose(f);
	return found;
}

/* An mlx5 device is ours when the service made its node. */
static int umr_bound(const char *name)
{
	char path[300], pfx[80];
	struct stat st;

	snprintf(path, sizeof(path), "/dev/mlx5_umr/%s", name);
	if (stat(path, &st))
		return 0;
	snprintf(pfx, sizeof(pfx), "%s ", name);
	read_line("/sys/kernel/debug/mlx5_umr_hw/devices", pfx, H.binding,
		  sizeof(H.binding));
	return 1;
}

/* rxe's ib_device has a "parent" netdev attribute and no bus device. */
static int is_rxe(struct ibv_device *d)
{
	char path[300];

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device",
		 ibv_get_device_name(d));
	if (!access(path, F_OK))
		return 0;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/parent",
		 ibv_get_device_name(d));
	return !access(path, R_OK);
}

static struct ibv_device *find_device(char *why, size_t len)
{
	int n, i;

	H.list = ibv_get_device_list(&n);
	if (!H.list) {
		snprintf(why, len, "no RDMA devices (%s)", strerror(errno));
		return NULL;
	}
	for (i = 0; i < n; i++) {
		const char *name = ibv_get_device_name(H.list[i]);

		if (H.devname && strcmp(name, H.devname))
			continue;
		if (H.rxe ? is_rxe(H.list[i]) : umr_bound(name))
			return H.list[i];
	}
	if (H.rxe)
		snprintf(why, len,
			 "no rxe RDMA device%s%s (modprobe rdma_rxe; rdma link add rxe0 type rxe netdev IF)",
			 H.devname ? " named " : "",
			 H.devname ? H.devname : "");
	else
		snprintf(why, len,
			 "no mlx5 RDMA device%s%s bound to mlx5_umr_hw (no /dev/mlx5_umr/<ibdev> for any of %d RDMA devices; modprobe mlx5_umr_hw)",
			 H.devname ? " named " : "",
			 H.devname ? H.devname : "", n);
	return NULL;
}

/* The device's context, PD and (mlx5 mode) uapi file, or why not. */
static int open_device(char *why, size_t len)
{
	const char *name = ibv_get_device_name(H.dev);

	H.pair.ctx = ibv_open_device(H.dev);
	if (!H.pair.ctx) {
		snprintf(why, len, "ibv_open_device: %s", strerror(errno));
		return -1;
	}
	if (ibv_query_device(H.pair.ctx, &H.attr)) {
		snprintf(why, len, "ibv_query_device: %s", strerror(errno));
		return -1;
	}
	H.pair.pd = ibv_alloc_pd(H.pair.ctx);
	if (!H.pair.pd) {
		snprintf(why, len, "ibv_alloc_pd: %s", strerror(errno));
		return -1;
	}
	if (H.rxe)
		return 0;
	H.uctx = mlx5umr_open(name);
	if (!H.uctx) {
		snprintf(why, len, "open /dev/mlx5_umr/%s: %s", name,
			 strerror(errno));
		return -1;
	}
	return 0;
}

static void pci_of(const char *name)
{
	char path[300], link[300];
	ssize_t n;
	char *b;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device", name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = 0;
	b = strrchr(link, '/');
	snprintf(H.pci, sizeof(H.pci), "%.63s", b ? b + 1 : link);
}

/* ---- report ----------------------------------------------------------- */

void hc_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void jnum(FILE *f, const char *key, unsigned long long v)
{
	fprintf(f, ", \"%s\": %llu", key, v);
}

static const char *result_name(enum hc_result r)
{
	return r == HC_PASS ? "pass" : r == HC_FAIL ? "fail" : "skip";
}

static int write_json(const char *path, int p, int f, int s, const char *why)
{
	struct utsname u;
	FILE *o = fopen(path, "w");
	unsigned int i;

	if (!o)
		return -1;
	uname(&u);
	fprintf(o, "{\n  \"tool\": \"mlx5-umr hwcheck\",\n  \"format\": 1,\n");
	fprintf(o, "  \"mode\": \"%s\",\n", H.rxe ? "rxe" : "mlx5");
	fprintf(o, "  \"kernel\": {\"release\": ");
	hc_json_str(o, u.release);
	fprintf(o, ", \"version\": ");
	hc_json_str(o, u.version);
	fprintf(o, ", \"machine\": ");
	hc_json_str(o, u.machine);
	fprintf(o, "},\n");
	if (H.dev) {
		fprintf(o, "  \"device\": {\"name\": ");
		hc_json_str(o, ibv_get_device_name(H.dev));
		fprintf(o, ", \"fw_ver\": ");
		hc_json_str(o, H.attr.fw_ver);
		fprintf(o, ", \"node_guid\": \"0x%016llx\"",
			(unsigned long long)be64toh(H.attr.node_guid));
		fprintf(o, ", \"vendor_id\": \"0x%x\"", H.attr.vendor_id);
		fprintf(o, ", \"vendor_part_id\": %u", H.attr.vendor_part_id);
		fprintf(o, ", \"hw_ver\": \"0x%x\"", H.attr.hw_ver);
		fprintf(o, ", \"phys_port_cnt\": %u, \"port\": %u",
			H.attr.phys_port_cnt, H.pair.port);
		fprintf(o, ", \"link_layer\": \"%s\"",
			H.pair.port_attr.link_layer == IBV_LINK_LAYER_ETHERNET ?
			"ethernet" : "infiniband");
		fprintf(o, ", \"pci\": ");
		hc_json_str(o, H.pci);
		fprintf(o, ", \"mlx5_umr_hw\": ");
		hc_json_str(o, H.binding);
		fprintf(o, "},\n");
	} else {
		fprintf(o, "  \"device\": null,\n  \"skip_reason\": ");
		hc_json_str(o, why);
		fprintf(o, ",\n");
	}
	if (H.have_info) {
		const struct mlx5_umr_ioc_info *in = &H.info;

		fprintf(o, "  \"service_info\": {\"name\": ");
		hc_json_str(o, in->out_name);
		jnum(o, "max_entries", in->out_max_entries);
		jnum(o, "max_inline_entries", in->out_max_inline_entries);
		jnum(o, "max_interleaved_entries",
		     in->out_max_interleaved_entries);
		fprintf(o, ", \"access\": \"0x%x\"", in->out_access);
		jnum(o, "max_batch", in->out_max_batch);
		jnum(o, "max_batch_bytes", in->out_max_batch_bytes);
		jnum(o, "max_reg_pages", in->out_max_reg_pages);
		jnum(o, "max_fd_mkeys", in->out_max_fd_mkeys);
		jnum(o, "max_inflight_bbs", in->out_max_inflight_bbs);
		jnum(o, "max_fd_xlt_bytes", in->out_max_fd_xlt_bytes);
		jnum(o, "pdn", H.pdn);
		fprintf(o, "},\n");
	}
	fprintf(o, "  \"checks\": [");
	for (i = 0; i < H.nchecks; i++) {
		const struct hc_check *c = &H.checks[i];

		fprintf(o, "%s\n    {\"name\": ", i ? "," : "");
		hc_json_str(o, c->name);
		fprintf(o, ", \"result\": \"%s\", \"detail\": ",
			result_name(c->result));
		hc_json_str(o, c->detail);
		if (c->have_wc) {
			fprintf(o, ", \"wc\": {\"completed\": %s",
				c->wc.posted ? "true" : "false");
			jnum(o, "status", c->wc.status);
			fprintf(o, ", \"status_str\": ");
			hc_json_str(o, c->wc.posted ?
				    ibv_wc_status_str(c->wc.status) : "");
			fprintf(o, ", \"vendor_err\": \"0x%x\"}",
				c->wc.vendor_err);
		}
		if (c->err)
			fprintf(o, ", \"errno\": %d, \"errno_name\": \"%s\"",
				c->err, mlx5umr_errno_name(c->err) ?
				mlx5umr_errno_name(c->err) : "");
		if (c->klog) {
			fprintf(o, ", \"kernel_log\": ");
			hc_json_str(o, c->klog);
		}
		fprintf(o, "}");
	}
	fprintf(o, "\n  ],\n  \"wqe_bytes\": ");
	hc_json_str(o, "not exposed by the service; kernel_log has the UMR CQE syndrome");
	fprintf(o, ",\n");
	fprintf(o, "  \"passed\": %d, \"failed\": %d, \"skipped\": %d\n}\n",
		p, f, s);
	return fclose(o);
}

/* ---- main ------------------------------------------------------------- */

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: hwcheck [-d IBDEV] [--port N] [--json FILE] [--rxe]\n"
		"  Proves the mlx5-umr service on an mlx5 RDMA device bound to\n"
		"  mlx5_umr_hw: RDMA WRITE/READ through keys configured by the uapi.\n"
		"  --rxe   the same harness on a soft-RoCE device with plain MRs\n"
		"  --json  the report (default hwcheck-report.json)\n"
		"Exit: 0 all checks that ran passed, 1 a check failed,\n"
		"      4 no device to check (kselftest skip), 2 usage.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "port", required_argument, NULL, 'p' },
		{ "json", required_argument, NULL, 'j' },
		{ "rxe", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, p = 0, f = 0, s = 0, setup_failed = 0;
	char why[300] = "";
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	H.json = "hwcheck-report.json";
	H.pair.port = 1;
	while ((c = getopt_long(argc, argv, "d:p:j:rh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			H.devname = optarg;
			break;
		case 'p':
			H.pair.port = atoi(optarg);
			break;
		case 'j':
			H.json = optarg;
			break;
		case 'r':
			H.rxe = 1;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		default:
			print_help(stderr);
			return 2;
		}
	}
	H.t0 = boot_seconds();
	printf("KTAP version 1\n");
	H.dev = find_device(why, sizeof(why));
	if (H.dev) {
		if (open_device(why, sizeof(why))) {
			/* a device is there: not being able to use it fails */
			printf("1..1\nnot ok 1 - open %s: %s\n",
			       ibv_get_device_name(H.dev), why);
			printf("# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0\n");
			printf("0 passed, 1 failed, 0 skipped\n");
			write_json(H.json, 0, 1, 0, why);
			return 1;
		}
		if (H.uctx) {
			H.info.size = sizeof(H.info);
			H.have_info = !ioctl(H.uctx->fd, MLX5_UMR_IOCTL_INFO,
					     &H.info);
		}
		pci_of(ibv_get_device_name(H.dev));
	}
	if (!H.dev) {
		printf("1..0 # SKIP %s\n", why);
		printf("# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:0\n");
		printf("hwcheck: %s: nothing checked\n", why);
		write_json(H.json, 0, 0, 0, why);
		return KSFT_SKIP;
	}
	printf("# device %s fw %s pci %s%s%s\n", ibv_get_device_name(H.dev),
	       H.attr.fw_ver, H.pci[0] ? H.pci : "-",
	       H.binding[0] ? ", mlx5_umr_hw: " : "", H.binding);
	if (H.have_info)
		printf("# service: max_entries %u, inline %u, access 0x%x\n",
		       H.info.out_max_entries, H.info.out_max_inline_entries,
		       H.info.out_access);
	if (posix_memalign((void **)&H.lbuf, 4096, LBUF_LEN))
		return 1;
	printf("1..%zu\n", NDEFS);
	for (i = 0; i < NDEFS; i++) {
		cur = &H.checks[H.nchecks++];
		cur->name = defs[i].name;
		if (setup_failed || (!defs[i].setup && !H.pair_ok))
			skip("not run: an earlier setup check failed");
		else
			defs[i].run();
		if (cur->result == HC_FAIL && !H.rxe)
			cur->klog = klog_since_start();
		if (cur->result == HC_FAIL && defs[i].setup)
			setup_failed = 1;
		switch (cur->result) {
		case HC_PASS:
			p++;
			printf("ok %u - %s%s%s\n", i + 1, cur->name,
			       cur->detail[0] ? ": " : "", cur->detail);
			break;
		case HC_FAIL:
			f++;
			printf("not ok %u - %s: %s\n", i + 1, cur->name,
			       cur->detail);
			if (cur->klog)
				printf("# kernel log:\n# %s", cur->klog);
			break;
		case HC_SKIP:
			s++;
			printf("ok %u - %s # SKIP %s\n", i + 1, cur->name,
			       cur->detail);
			break;
		}
	}
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n",
	       p, f, s);
	printf("%d passed, %d failed, %d skipped\n", p, f, s);
	if (write_json(H.json, p, f, s, ""))
		fprintf(stderr, "hwcheck: cannot write %s: %s\n", H.json,
			strerror(errno));
	else
		printf("# report: %s\n", H.json);
	return f ? 1 : p ? 0 : KSFT_SKIP;
}
