// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The differential test of issue 29 (Documentation/fake.rst, "rdma-core
 * on the fake", "The differential test"): each generated request runs
 * once through Debian's libmlx5 (an RC QP of the fake_uverbs device) and
 * once through the service (libmlx5umr, /dev/mlx5_umr), and the two are
 * compared by what the fakes do (the bytes read and written through both
 * keys with debugfs "xfer", the mkeys' state in "mkeys") and by the WQE
 * each fake executed (debugfs "wqes"), field by field. A field may differ
 * only when the table "Intended differences" of fake.rst (read at run
 * time: the single source of truth) has a row for it.
 *
 *   fuv_diff [-s seed] [-n requests] [-t fake.rst] [-v]
 *
 * Ends with "N requests, M unexplained differences"; exit status 0 when
 * M is 0. New request kinds (signature, crypto) add a generator, a
 * libmlx5 and a service poster and their fields to fuv_wqe_fields().
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include "mlx5umr.h"

#define PAGE		4096UL
#define BUF_SZ		(4 * PAGE)
#define MAX_ENT		8	/* entries of a request, at most */
#define MAX_WQE		1024	/* MLX5_SEND_WQE_MAX_SIZE */
#define MAX_ROWS	128
#define MAX_FIELDS	512
#define ACC_ALL		(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | \
			 IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)

static int verbose;

/* ---- the table of intended differences (fake.rst) ---- */

static char *rows[MAX_ROWS];
static unsigned int nrows, row_hits[MAX_ROWS];

/*
 * The first column of the simple table after the title "Intended
 * differences": each row's field name, in double back-quotes.
 */
static int table_load(const char *path)
{
	char line[512], *p, *q;
	int in = 0, borders = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!in) {
			in = !strncmp(line, "Intended differences", 20);
			continue;
		}
		if (!strncmp(line, "====", 4)) {
			if (++borders == 3)
				break;
			continue;
		}
		if (borders != 2 || strncmp(line, "``", 2))
			continue;
		p = line + 2;
		q = strstr(p, "``");
		if (!q || nrows == MAX_ROWS)
			continue;
		*q = 0;
		rows[nrows++] = strdup(p);
	}
	fclose(f);
	return in && borders == 3 && nrows ? 0 : -1;
}

static int table_row(const char *field)
{
	unsigned int i;

	/* a row may name fields by a pattern: "mkey.*.unmasked" */
	for (i = 0; i < nrows; i++)
		if (!fnmatch(rows[i], field, 0))
			return i;
	return -1;
}

/* ---- fields ---- */

struct field {
	const char *name;
	unsigned long long v;
};

struct fields {
	struct field f[MAX_FIELDS];
	unsigned int n;
};

static void put(struct fields *fs, const char *name, unsigned long long v)
{
	if (fs->n < MAX_FIELDS) {
		fs->f[fs->n].name = name;
		fs->f[fs->n].v = v;
		fs->n++;
	}
}

/* @name, or "@name.unmasked" when mask bit @bit (-1: none) is in neither */
static void mput(struct fields *fs, const char *name, unsigned long long v,
		 unsigned long long both, int bit)
{
	static char names[MAX_FIELDS][64];
	static unsigned int next;
	char *n;

	if (bit >= 0 && ((both >> bit) & 1)) {
		put(fs, name, v);
		return;
	}
	n = names[next++ % MAX_FIELDS];
	snprintf(n, 64, "%s.unmasked", name);
	put(fs, n, v);
}

static unsigned int be16(const __u8 *p)
{
	return p[0] << 8 | p[1];
}

static unsigned int be32(const __u8 *p)
{
	return (unsigned int)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static unsigned long long be64(const __u8 *p)
{
	return (unsigned long long)be32(p) << 32 | be32(p + 4);
}

static int all_zero(const __u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

/* include/linux/mlx5/device.h MLX5_MKEY_MASK_*, by bit */
static const char *const mask_names[64] = {
	[0] = "umr.mkey_mask.LEN", [1] = "umr.mkey_mask.PAGE_SIZE",
	[6] = "umr.mkey_mask.START_ADDR", [7] = "umr.mkey_mask.PD",
	[8] = "umr.mkey_mask.EN_RINVAL", [9] = "umr.mkey_mask.EN_SIGERR",
	[12] = "umr.mkey_mask.BSF_EN", [13] = "umr.mkey_mask.KEY",
	[14] = "umr.mkey_mask.QPN", [17] = "umr.mkey_mask.LR",
	[18] = "umr.mkey_mask.LW", [19] = "umr.mkey_mask.RR",
	[20] = "umr.mkey_mask.RW", [21] = "umr.mkey_mask.A",
	[23] = "umr.mkey_mask.SMALL_FENCE",
	[25] = "umr.mkey_mask.RELAXED_ORDERING_WRITE",
	[29] = "umr.mkey_mask.FREE",
	[47] = "umr.mkey_mask.RELAXED_ORDERING_READ",
};

/* device.h MLX5_UMR_* and rdma-core's CHECK_QPN, by bit */
static const char *const uflag_names[8] = {
	"umr.flags.bit0", "umr.flags.bit1", "umr.flags.bit2",
	"umr.flags.CHECK_QPN", "umr.flags.TRANSLATION_OFFSET_EN",
	"umr.flags.CHECK_NOT_FREE", "umr.flags.CHECK_FREE",
	"umr.flags.INLINE",
};

/* mlx5_mkey_seg.flags: MLX5_PERM_* and the access mode's low bits */
static const char *const perm_names[8] = {
	"mkey.access_mode_1_0", NULL, "mkey.flags.LOCAL_READ",
	"mkey.flags.LOCAL_WRITE", "mkey.flags.REMOTE_READ",
	"mkey.flags.REMOTE_WRITE", "mkey.flags.ATOMIC", "mkey.flags.UMR_EN",
};

/* What each side's keys name, so that KLM keys compare as their MRs. */
struct keymap {
	__u32 key[2];	/* the MRs of buffers a and b */
	__u32 mkey;	/* the request's mkey */
};

static unsigned int key_sym(const struct keymap *km, __u32 key)
{
	if (key == km->key[0])
		return 1;
	if (key == km->key[1])
		return 2;
	return 0x100 | (key & 0xff);	/* no MR of ours: differs */
}

/*
 * The fields of a UMR WQE (ctrl, UMR ctrl, mkey segment, inline
 * translation: Documentation/wqe.rst, include/linux/mlx5/qp.h), with the
 * derived fields that compare keys by what they name ("*.names"); @both
 * is the two WQEs' mkey_mask ORed.
 */
static void fuv_wqe_fields(const __u8 *w, unsigned int len,
			   const struct keymap *km, int il,
			   unsigned long long both, struct fields *fs)
{
	const __u8 *u = w + 16, *m = w + 64, *x = w + 128;
	unsigned long long mask;
	unsigned int i, n, oct, ent, xlt_len;

	put(fs, "wqe.len", len);
	if (len < 128)
		return;
	put(fs, "ctrl.opmod", w[0]);
	put(fs, "ctrl.wqe_index", be16(w + 1));
	put(fs, "ctrl.opcode", w[3]);
	put(fs, "ctrl.qpn", be32(w + 4) >> 8);
	put(fs, "ctrl.ds", w[7] & 0x3f);
	put(fs, "ctrl.signature", w[8]);
	put(fs, "ctrl.dci_stream_channel_id", be16(w + 9));
	put(fs, "ctrl.fence", w[11] >> 5);
	put(fs, "ctrl.ce", (w[11] >> 2) & 3);
	put(fs, "ctrl.se", (w[11] >> 1) & 1);
	put(fs, "ctrl.fm_ce_se.other", w[11] & 0x11);
	put(fs, "ctrl.umr_mkey.index", be32(w + 12) >> 8);
	put(fs, "ctrl.umr_mkey.tag", w[15]);
	put(fs, "ctrl.umr_mkey.names", (be32(w + 12) >> 8) == km->mkey >> 8);

	for (i = 0; i < 8; i++)
		put(fs, uflag_names[i], (u[0] >> i) & 1);
	put(fs, "umr.rsvd0", !all_zero(u + 1, 3));
	oct = be16(u + 4);
	put(fs, "umr.xlt_octowords", oct);
	put(fs, "umr.xlt_offset", be16(u + 6));
	mask = be64(u + 8);
	for (i = 0; i < 64; i++) {
		if (mask_names[i])
			put(fs, mask_names[i], (mask >> i) & 1);
		else if ((mask >> i) & 1)
			put(fs, "umr.mkey_mask.reserved_bit", i);
	}
	put(fs, "umr.xlt_offset_47_16", be32(u + 16));
	put(fs, "umr.rsvd1", !all_zero(u + 20, 28));

	/*
	 * A field of the mkey segment that no mask bit of either WQE selects
	 * has no effect (the HCA takes what mkey_mask selects): its name
	 * says so, ".unmasked".
	 */
	mput(fs, "mkey.free", (m[0] >> 6) & 1, both, 29);
	mput(fs, "mkey.status.other", m[0] & ~0x40, both, -1);
	mput(fs, "mkey.pcie_control", m[1], both, -1);
	mput(fs, "mkey.access_mode_1_0", m[2] & 3, both, -1);
	for (i = 2; i < 7; i++)
		mput(fs, perm_names[i], (m[2] >> i) & 1, both, 15 + i);
	mput(fs, "mkey.flags.UMR_EN", m[2] >> 7, both, -1);
	mput(fs, "mkey.version", m[3], both, -1);
	mput(fs, "mkey.qpn", be32(m + 4) >> 8, both, 14);
	mput(fs, "mkey.mkey_7_0", m[7], both, 13);
	mput(fs, "mkey.rsvd1", !all_zero(m + 8, 4), both, -1);
	/* remote invalidate (bit 24), BSF enable (bit 30) */
	mput(fs, "mkey.flags_pd.en_rinval", m[12] & 1, both, 8);
	mput(fs, "mkey.flags_pd.bsf_en", (m[12] >> 6) & 1, both, 12);
	mput(fs, "mkey.flags_pd.other", m[12] & ~0x41, both, -1);
	mput(fs, "mkey.pd", be32(m + 12) & 0xffffff, both, 7);
	mput(fs, "mkey.start_addr", be64(m + 16), both, 6);
	mput(fs, "mkey.len", be64(m + 24), both, 0);
	mput(fs, "mkey.bsfs_octo_size", be32(m + 32), both, 12);
	mput(fs, "mkey.rsvd2", !all_zero(m + 36, 16), both, -1);
	mput(fs, "mkey.xlt_oct_size", be32(m + 52), both, -1);
	mput(fs, "mkey.rsvd3", !all_zero(m + 56, 3), both, -1);
	mput(fs, "mkey.log2_page_size", m[59], both, 1);
	mput(fs, "mkey.rsvd4", !all_zero(m + 60, 4), both, -1);

	/* the inline translation; the rest of the WQE must be zero */
	xlt_len = oct * 16;
	if (!(u[0] & 0x80) || 128 + xlt_len > len) {
		put(fs, "xlt.not_inline", 1);
		return;
	}
	if (il) {
		put(fs, "rb.byte_count", be32(x));
		put(fs, "rb.op", be32(x + 4));
		put(fs, "rb.repeat_count", be32(x + 8));
		put(fs, "rb.reserved", be16(x + 12));
		n = be16(x + 14);
		put(fs, "rb.num_ent", n);
		for (i = 0, ent = 1; i < n && (ent + 1) * 16 <= xlt_len;
		     i++, ent++) {
			const __u8 *e = x + 16 * ent;

			put(fs, "re.stride", be16(e));
			put(fs, "re.byte_count", be16(e + 2));
			put(fs, "re.key", be32(e + 4));
			put(fs, "re.key.names", key_sym(km, be32(e + 4)));
			put(fs, "re.va", be64(e + 8));
		}
	} else {
		for (ent = 0; (ent + 1) * 16 <= xlt_len; ent++) {
			const __u8 *e = x + 16 * ent;

			if (all_zero(e, 16))
				break;
			put(fs, "klm.bcount", be32(e));
			put(fs, "klm.key", be32(e + 4));
			put(fs, "klm.key.names", key_sym(km, be32(e + 4)));
			put(fs, "klm.va", be64(e + 8));
		}
	}
	put(fs, "xlt.entries", ent);
	put(fs, "xlt.padding", !all_zero(x + 16 * ent, xlt_len - 16 * ent));
	put(fs, "wqe.tail", !all_zero(x + xlt_len, len - 128 - xlt_len));
}

/* ---- the fakes' debugfs ---- */

struct fake_mk {
	unsigned int key, pd, mode, free, umr_en;
	char acc[8];
	unsigned int rinval;
	unsigned long long start, len;
	unsigned int xlt_oct;
};

static int dbg_mkey(const char *dir, unsigned int key, struct fake_mk *m)
{
	char path[320], line[256];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/mkeys", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct fake_mk t;

		if (sscanf(line, "%x %x %u %u %u %7s %u %llx %llx %u", &t.key,
			   &t.pd, &t.mode, &t.free, &t.umr_en, t.acc,
			   &t.rinval, &t.start, &t.len, &t.xlt_oct) == 10 &&
		    (t.key >> 8) == (key >> 8)) {
			*m = t;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static long long dbg_counter(const char *dir, const char *name)
{
	char path[320], k[64];
	long long v, found = -1;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/counters", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while ((n = fscanf(f, "%63s %lli", k, &v)) == 2)
		if (!strcmp(k, name))
			found = v;
	fclose(f);
	return found;
}

/*
 * The last WQE the fake executed (debugfs "wqes": a header line, then
 * seq_hex_dump()'s 32-bit groups, each printed as a host-order u32: read
 * back the same way) into @w; its length, or -1.
 */
static int dbg_last_wqe(const char *dir, __u8 *w, unsigned int *qpn)
{
	char path[320], line[256], *p, *end;
	unsigned int q, idx, len = 0, off;
	int have = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/wqes", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "qpn %x idx %u len %u", &q, &idx, &len) == 3) {
			if (len > MAX_WQE)
				break;
			memset(w, 0, MAX_WQE);
			*qpn = q;
			have = len;
			continue;
		}
		p = strchr(line, ':');
		if (have < 0 || !p || sscanf(line, "%x:", &off) != 1)
			continue;
		for (p++; off + 4 <= len && off + 4 <= MAX_WQE; off += 4) {
			unsigned long v = strtoul(p, &end, 16);
			__u32 g = v;

			if (end == p)
				break;
			memcpy(w + off, &g, 4);
			p = end;
		}
	}
	fclose(f);
	return have;
}

/*
 * @len bytes through @key at @off by a QP of PD @pdn (debugfs "xfer", a
 * peer's RDMA READ 'R' or WRITE 'W'): 0 or -errno.
 */
static int dbg_xfer(const char *dir, char op, unsigned int pdn,
		    unsigned int key, unsigned long long off, void *buf,
		    size_t len)
{
	char path[320], *msg;
	int fd, n, ret = 0;

	snprintf(path, sizeof(path), "%s/xfer", dir);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -errno;
	msg = malloc(80 + len);
	if (!msg) {
		close(fd);
		return -ENOMEM;
	}
	n = snprintf(msg, 80, "%c %u 0x%x %llu %zu\n", op, pdn, key, off, len);
	if (op == 'W') {
		memcpy(msg + n, buf, len);
		n += len;
	}
	if (write(fd, msg, n) != n)
		ret = -errno;
	else if (op == 'R' && read(fd, buf, len) != (ssize_t)len)
		ret = -EIO;
	free(msg);
	close(fd);
	return ret;
}

/* ---- the two sides ---- */

struct lib_side {
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr[2];
	struct mlx5dv_mkey *mk;
	unsigned int pdn;
	char dbg[256];
};

struct svc_side {
	struct mlx5umr_context *ctx;
	struct mlx5umr_device_attr attr;
	struct mlx5umr_mr *mr[2];
	struct mlx5umr_mkey *mk;
	char dbg[256];
};

static __u8 *bufs[2];
/* every right a layout may grant: the service refuses more (EACCES) */
static unsigned int mr_access;

static int lib_to_rts(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
	};

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = qp->qp_num;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.dlid = 1;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

static int lib_open(struct lib_side *l)
{
	struct ibv_qp_init_attr_ex qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_send_sge = 1,
			 .max_inline_data = 256 },
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.send_ops_flags = IBV_QP_EX_WITH_LOCAL_INV,
	};
	struct mlx5dv_qp_init_attr dv = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS,
		.send_ops_flags = MLX5DV_QP_EX_WITH_MR_LIST |
				  MLX5DV_QP_EX_WITH_MR_INTERLEAVED |
				  MLX5DV_QP_EX_WITH_MKEY_CONFIGURE,
	};
	struct mlx5dv_mkey_init_attr ma = {
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT,
		/* one more for the interleaved repeat block (man page) */
		.max_entries = MAX_ENT + 1,
	};
	struct mlx5dv_pd dvpd = {};
	struct mlx5dv_obj obj = { .pd = { .out = &dvpd } };
	char path[256], name[64];
	struct ibv_device **d;
	FILE *f;
	int i;

	l->list = ibv_get_device_list(NULL);
	for (d = l->list; d && *d; d++)
		if (!strncmp(ibv_get_device_name(*d), "fake_mlx5_", 10))
			break;
	if (!d || !*d)
		return fprintf(stderr, "no fake_mlx5_* device\n"), -1;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/node_desc",
		 ibv_get_device_name(*d));
	f = fopen(path, "r");
	if (!f || fscanf(f, "mlx5-umr %63s", name) != 1)
		return fprintf(stderr, "no node_desc\n"), -1;
	fclose(f);
	snprintf(l->dbg, sizeof(l->dbg), "/sys/kernel/debug/mlx5_umr_fake/%s",
		 name);
	l->ctx = ibv_open_device(*d);
	if (!l->ctx)
		return perror("ibv_open_device"), -1;
	l->pd = ibv_alloc_pd(l->ctx);
	l->cq = ibv_create_cq(l->ctx, 31, NULL, NULL, 0);
	if (!l->pd || !l->cq)
		return perror("pd/cq"), -1;
	obj.pd.in = l->pd;
	if (mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD))
		return -1;
	l->pdn = dvpd.pdn;
	qa.send_cq = l->cq;
	qa.recv_cq = l->cq;
	qa.pd = l->pd;
	l->qp = mlx5dv_create_qp(l->ctx, &qa, &dv);
	if (!l->qp || lib_to_rts(l->qp))
		return perror("mlx5dv_create_qp"), -1;
	for (i = 0; i < 2; i++) {
		l->mr[i] = ibv_reg_mr(l->pd, bufs[i], BUF_SZ, mr_access);
		if (!l->mr[i])
			return perror("ibv_reg_mr"), -1;
	}
	ma.pd = l->pd;
	l->mk = mlx5dv_create_mkey(&ma);
	if (!l->mk)
		return perror("mlx5dv_create_mkey"), -1;
	return 0;
}

static int svc_open(struct svc_side *s)
{
	int i;

	s->ctx = mlx5umr_open(NULL);
	if (!s->ctx)
		return perror("mlx5umr_open"), -1;
	if (mlx5umr_query_device(s->ctx, &s->attr))
		return -1;
	snprintf(s->dbg, sizeof(s->dbg), "/sys/kernel/debug/mlx5_umr_fake/%s",
		 s->ctx->name);
	if (access(s->dbg, F_OK) || !s->attr.fake)
		return fprintf(stderr, "%s: not a fake\n", s->ctx->name), -1;
	mr_access = ACC_ALL & s->attr.access;
	for (i = 0; i < 2; i++) {
		s->mr[i] = mlx5umr_reg_mr(s->ctx, bufs[i], BUF_SZ, mr_access);
		if (!s->mr[i])
			return perror("mlx5umr_reg_mr"), -1;
	}
	s->mk = mlx5umr_create_mkey(s->ctx, MAX_ENT + 1, 0);
	if (!s->mk)
		return perror("mlx5umr_create_mkey"), -1;
	return 0;
}

/* ---- requests ---- */

enum { REQ_LIST, REQ_IL, REQ_INV, REQ_KINDS };

struct req {
	int kind;
	int via_configure;	/* libmlx5: mkey_configure + setters */
	unsigned int access;
	unsigned int n, repeat;
	struct { int buf; unsigned int off, len, skip; } e[MAX_ENT];
	unsigned long long total;
};

static unsigned long long rng;
/* what a run covered: requests per kind, with the setters, access sets */
static unsigned int nkind[REQ_KINDS], nconf, nacc[16];

static unsigned int rnd(unsigned int n)
{
	/* xorshift64*, reproducible from the printed seed */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (unsigned int)((rng * 2685821657736338717ULL) >> 33) % n;
}

static void gen(struct req *r, unsigned int acc_ok, int configured)
{
	unsigned int i, span;

	memset(r, 0, sizeof(*r));
	r->kind = configured && !rnd(5) ? REQ_INV : rnd(2);
	r->via_configure = rnd(2);
	/*
	 * At least one remote right; remote write and atomic with local
	 * write, as verbs require (ib_check_mr_access(): the service refuses
	 * it with EINVAL, libmlx5's setters do not check)
	 */
	do
		r->access = rnd(16) & acc_ok;
	while (!(r->access & (IBV_ACCESS_REMOTE_READ |
			      IBV_ACCESS_REMOTE_WRITE)));
	if (r->access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC))
		r->access |= IBV_ACCESS_LOCAL_WRITE;
	if (r->kind == REQ_INV)
		return;
	r->n = 1 + rnd(r->kind == REQ_IL ? MAX_ENT - 1 : MAX_ENT);
	r->repeat = r->kind == REQ_IL ? 1 + rnd(8) : 1;
	for (i = 0; i < r->n; i++) {
		r->e[i].buf = rnd(2);
		if (r->kind == REQ_IL) {
			r->e[i].len = 1 + rnd(64);
			r->e[i].skip = rnd(3) ? rnd(64) : 0;
			span = (r->e[i].len + r->e[i].skip) * r->repeat;
		} else {
			r->e[i].len = 1 + rnd(rnd(4) ? 512 : 3 * PAGE);
			span = r->e[i].len;
		}
		r->e[i].off = rnd(BUF_SZ - span + 1);
		r->total += r->e[i].len;
	}
	r->total *= r->repeat;
}

static int lib_poll(struct lib_side *l, struct ibv_wc *wc)
{
	int i, n;

	for (i = 0; i < 5000; i++) {
		n = ibv_poll_cq(l->cq, 1, wc);
		if (n)
			return n == 1 ? 0 : -1;
		usleep(1000);
	}
	return -1;
}

static int lib_post(struct lib_side *l, const struct req *r)
{
	struct ibv_qp_ex *qpx = ibv_qp_to_qp_ex(l->qp);
	struct mlx5dv_qp_ex *mqpx = mlx5dv_qp_ex_from_ibv_qp_ex(qpx);
	struct mlx5dv_mr_interleaved il[MAX_ENT];
	struct mlx5dv_mkey_conf_attr ca = {};
	struct ibv_sge sgl[MAX_ENT];
	struct ibv_wc wc;
	unsigned int i;
	int err;

	for (i = 0; i < r->n; i++) {
		sgl[i].addr = (uintptr_t)bufs[r->e[i].buf] + r->e[i].off;
		sgl[i].length = r->e[i].len;
		sgl[i].lkey = l->mr[r->e[i].buf]->lkey;
		il[i].addr = sgl[i].addr;
		il[i].bytes_count = r->e[i].len;
		il[i].bytes_skip = r->e[i].skip;
		il[i].lkey = sgl[i].lkey;
	}
	ibv_wr_start(qpx);
	qpx->wr_id = 1;
	qpx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	if (r->kind == REQ_INV) {
		qpx->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_local_inv(qpx, l->mk->lkey);
	} else if (r->via_configure) {
		mlx5dv_wr_mkey_configure(mqpx, l->mk, 2, &ca);
		mlx5dv_wr_set_mkey_access_flags(mqpx, r->access);
		if (r->kind == REQ_IL)
			mlx5dv_wr_set_mkey_layout_interleaved(mqpx, r->repeat,
							      r->n, il);
		else
			mlx5dv_wr_set_mkey_layout_list(mqpx, r->n, sgl);
	} else if (r->kind == REQ_IL) {
		mlx5dv_wr_mr_interleaved(mqpx, l->mk, r->access, r->repeat,
					 r->n, il);
	} else {
		mlx5dv_wr_mr_list(mqpx, l->mk, r->access, r->n, sgl);
	}
	err = ibv_wr_complete(qpx);
	if (err)
		return fprintf(stderr, "ibv_wr_complete: %d\n", err), -1;
	if (lib_poll(l, &wc) || wc.status != IBV_WC_SUCCESS)
		return fprintf(stderr, "libmlx5 CQE: %s vendor 0x%x\n",
			       ibv_wc_status_str(wc.status), wc.vendor_err),
		       -1;
	return 0;
}

static int svc_post(struct svc_side *s, const struct req *r)
{
	struct mlx5dv_mr_interleaved il[MAX_ENT];
	struct mlx5umr_configure_attr a = {};
	struct ibv_sge sgl[MAX_ENT];
	unsigned int i;
	int err;

	if (r->kind == REQ_INV) {
		err = mlx5umr_mkey_invalidate(s->mk);
		goto out;
	}
	for (i = 0; i < r->n; i++) {
		sgl[i].addr = (uintptr_t)bufs[r->e[i].buf] + r->e[i].off;
		sgl[i].length = r->e[i].len;
		sgl[i].lkey = s->mr[r->e[i].buf]->lkey;
		il[i].addr = sgl[i].addr;
		il[i].bytes_count = r->e[i].len;
		il[i].bytes_skip = r->e[i].skip;
		il[i].lkey = sgl[i].lkey;
	}
	a.access = r->access;
	a.num_entries = r->n;
	if (r->kind == REQ_IL) {
		a.layout = MLX5UMR_LAYOUT_INTERLEAVED;
		a.interleaved = il;
		a.repeat_count = r->repeat;
	} else {
		a.layout = MLX5UMR_LAYOUT_LIST;
		a.sge = sgl;
	}
	err = mlx5umr_mkey_configure(s->mk, &a);
out:
	if (err)
		fprintf(stderr, "service: %s\n", strerror(err));
	return err ? -1 : 0;
}

static void pattern(__u8 *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (__u8)((i + seed) * 131 + (i >> 8) * 7 + seed);
}

static void req_print(unsigned int i, const struct req *r)
{
	static const char *const kinds[] = { "list", "interleaved",
					     "invalidate" };
	unsigned int j;

	printf("# request %u: %s%s access 0x%x repeat %u:", i, kinds[r->kind],
	       r->via_configure ? " (configure)" : "", r->access, r->repeat);
	for (j = 0; j < r->n; j++)
		printf(" %c+%u/%u/%u", 'a' + r->e[j].buf, r->e[j].off,
		       r->e[j].len, r->e[j].skip);
	printf("\n");
}

static unsigned int nunexplained;

static void differ(unsigned int req, const char *field,
		   unsigned long long lv, unsigned long long sv)
{
	int row = table_row(field);

	if (row >= 0) {
		row_hits[row]++;
		if (verbose)
			printf("#  request %u: %s: libmlx5 0x%llx service 0x%llx (explained)\n",
			       req, field, lv, sv);
		return;
	}
	nunexplained++;
	printf("# request %u: %s: libmlx5 0x%llx service 0x%llx: unexplained difference\n",
	       req, field, lv, sv);
}

/* The value of field @name in @fs, or ~0. */
static unsigned long long get(const struct fields *fs, const char *name)
{
	unsigned int i;

	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->f[i].name, name))
			return fs->f[i].v;
	return ~0ULL;
}

/*
 * The decoder against the request itself, on each side: a UMR, and a
 * configure's length and entries are the request's (a misread "wqes"
 * dump would otherwise compare garbage with garbage).
 */
static void check_decode(unsigned int req, const struct fields *fs,
			 const struct req *r, const char *side)
{
	unsigned long long op = get(fs, "ctrl.opcode");
	unsigned long long len = get(fs, "mkey.len");
	unsigned long long n = get(fs, r->kind == REQ_IL ? "rb.num_ent" :
				   "xlt.entries");

	if (op != 0x25 || (r->kind != REQ_INV &&
			   (len != r->total || n != r->n))) {
		nunexplained++;
		printf("# request %u: %s WQE: opcode 0x%llx len %llu entries %llu: ",
		       req, side, op, len, n);
		printf("not the request\n");
	}
}

/* Field by field; a field only one side has differs too. */
static void compare(unsigned int req, const struct fields *lf,
		    const struct fields *sf)
{
	unsigned int i, n = lf->n > sf->n ? lf->n : sf->n;

	for (i = 0; i < n; i++) {
		const struct field *a = i < lf->n ? &lf->f[i] : NULL;
		const struct field *b = i < sf->n ? &sf->f[i] : NULL;

		if (a && b && !strcmp(a->name, b->name)) {
			if (a->v != b->v)
				differ(req, a->name, a->v, b->v);
			continue;
		}
		/* the lists diverge (entry counts): report, then stop */
		differ(req, a ? a->name : b->name, a ? a->v : ~0ULL,
		       b ? b->v : ~0ULL);
		break;
	}
}

/*
 * (a) What the fakes do: the mkeys' state; then, through both keys with
 * the same rights, a peer's RDMA READ of the whole length (the same bytes,
 * or the same refusal) and a peer's RDMA WRITE of one pattern into freshly
 * filled buffers (the same bytes of the buffers changed, or the same
 * refusal).
 */
static void compare_fakes(unsigned int req, struct lib_side *l,
			  struct svc_side *s, const struct req *r)
{
	static __u8 w[64 * 1024], rl[64 * 1024], rs[64 * 1024];
	static __u8 snap[2][BUF_SZ];
	size_t len = r->total ? r->total : 16;
	struct fake_mk lm, sm;
	int el, es;

	if (dbg_mkey(l->dbg, l->mk->lkey, &lm) != 1 ||
	    dbg_mkey(s->dbg, s->mk->lkey, &sm) != 1) {
		differ(req, "fake.mkey.missing", 0, 0);
		return;
	}
	if (lm.free != sm.free)
		differ(req, "fake.mkey.free", lm.free, sm.free);
	if (strcmp(lm.acc, sm.acc))
		differ(req, "fake.mkey.access", strtoull(lm.acc, NULL, 2),
		       strtoull(sm.acc, NULL, 2));
	if (lm.mode != sm.mode)
		differ(req, "fake.mkey.mode", lm.mode, sm.mode);
	if (lm.rinval != sm.rinval)
		differ(req, "fake.mkey.en_rinval", lm.rinval, sm.rinval);
	if ((lm.key & 0xff) != (sm.key & 0xff))
		differ(req, "fake.mkey.tag", lm.key & 0xff, sm.key & 0xff);
	if (r->kind != REQ_INV && (lm.len != sm.len || lm.len != r->total))
		differ(req, "fake.mkey.len", lm.len, sm.len);
	if (len > sizeof(w))
		len = sizeof(w);

	pattern(bufs[0], BUF_SZ, req);
	pattern(bufs[1], BUF_SZ, req + 77);
	el = dbg_xfer(l->dbg, 'R', l->pdn, l->mk->rkey, 0, rl, len);
	es = dbg_xfer(s->dbg, 'R', sm.pd, s->mk->rkey, 0, rs, len);
	if (el != es || (!el && memcmp(rl, rs, len)))
		differ(req, "fake.xfer.read", -el, -es);

	pattern(w, len, req * 3 + 1);
	memset(bufs[0], 0xee, BUF_SZ);
	memset(bufs[1], 0xee, BUF_SZ);
	el = dbg_xfer(l->dbg, 'W', l->pdn, l->mk->rkey, 0, w, len);
	memcpy(snap[0], bufs[0], BUF_SZ);
	memcpy(snap[1], bufs[1], BUF_SZ);
	memset(bufs[0], 0xee, BUF_SZ);
	memset(bufs[1], 0xee, BUF_SZ);
	es = dbg_xfer(s->dbg, 'W', sm.pd, s->mk->rkey, 0, w, len);
	if (el != es || memcmp(snap[0], bufs[0], BUF_SZ) ||
	    memcmp(snap[1], bufs[1], BUF_SZ))
		differ(req, "fake.xfer.write", -el, -es);
}

static int run(unsigned int nreq, struct lib_side *l, struct svc_side *s)
{
	static __u8 lw[MAX_WQE], sw[MAX_WQE];
	static struct fields lf, sf;
	unsigned int i, lq, sq, acc_ok;
	int configured = 0, ll, sl, el, es;
	unsigned long long both;
	unsigned int was;
	long long lc, sc;
	struct keymap lk, sk;
	struct req r;

	acc_ok = ACC_ALL & s->attr.access;
	lk.key[0] = l->mr[0]->lkey;
	lk.key[1] = l->mr[1]->lkey;
	sk.key[0] = s->mr[0]->lkey;
	sk.key[1] = s->mr[1]->lkey;
	for (i = 0; i < nreq; i++) {
		gen(&r, acc_ok, configured);
		configured = r.kind != REQ_INV;
		nkind[r.kind]++;
		nconf += r.kind != REQ_INV && r.via_configure;
		nacc[r.access & 15] += r.kind != REQ_INV;
		lk.mkey = l->mk->lkey;
		sk.mkey = s->mk->lkey;
		if (verbose)
			req_print(i, &r);
		lc = dbg_counter(l->dbg, "wqes");
		sc = dbg_counter(s->dbg, "wqes");
		el = lib_post(l, &r);
		es = svc_post(s, &r);
		if (el || es) {
			req_print(i, &r);
			differ(i, "request.refused", el, es);
			configured = 0;
			continue;
		}
		/* one WQE each, this request's */
		if (dbg_counter(l->dbg, "wqes") != lc + 1 ||
		    dbg_counter(s->dbg, "wqes") != sc + 1)
			differ(i, "wqe.count", dbg_counter(l->dbg, "wqes") - lc,
			       dbg_counter(s->dbg, "wqes") - sc);
		ll = dbg_last_wqe(l->dbg, lw, &lq);
		sl = dbg_last_wqe(s->dbg, sw, &sq);
		if (ll < 0 || sl < 0 || lq != l->qp->qp_num) {
			differ(i, "wqe.missing", ll, sl);
			continue;
		}
		lf.n = 0;
		sf.n = 0;
		both = ll >= 32 && sl >= 32 ? be64(lw + 24) | be64(sw + 24) : 0;
		fuv_wqe_fields(lw, ll, &lk, r.kind == REQ_IL, both, &lf);
		fuv_wqe_fields(sw, sl, &sk, r.kind == REQ_IL, both, &sf);
		was = nunexplained;
		check_decode(i, &lf, &r, "libmlx5");
		check_decode(i, &sf, &r, "service");
		compare(i, &lf, &sf);
		compare_fakes(i, l, s, &r);
		if (nunexplained != was && !verbose)
			req_print(i, &r);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *rst = "fake.rst";
	unsigned long long seed = time(NULL) ^ getpid();
	struct lib_side l = {};
	struct svc_side s = {};
	unsigned int nreq = 200, i;
	int opt, i0;

	/* the VM's clock starts alike at every boot: the kernel's entropy */
	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed ^= (unsigned long long)clock() << 32;
	seed &= 0xffffffffffffULL;	/* short enough to type */
	while ((opt = getopt(argc, argv, "s:n:t:v")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			nreq = strtoul(optarg, NULL, 0);
			break;
		case 't':
			rst = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-s seed] [-n requests] [-t fake.rst] [-v]\n",
				argv[0]);
			return 2;
		}
	}
	printf("# fuv_diff: seed %llu, %u requests, table %s\n", seed, nreq,
	       rst);
	rng = seed ? seed : 1;
	if (table_load(rst)) {
		printf("# no table \"Intended differences\" in %s\n", rst);
		return 1;
	}
	for (i0 = 0; i0 < 2; i0++) {
		bufs[i0] = mmap(NULL, BUF_SZ, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (bufs[i0] == MAP_FAILED)
			return 1;
		memset(bufs[i0], 0xee, BUF_SZ);
	}
	if (svc_open(&s) || lib_open(&l)) {
		printf("# setup failed\n");
		return 1;
	}
	printf("# libmlx5 on %s (QP 0x%x), service on %s, %u table rows\n", l.dbg,
	       l.qp->qp_num, s.dbg, nrows);
	if (run(nreq, &l, &s))
		nreq = 0;
	printf("# lists %u, interleaved %u (%u of them by mkey_configure), invalidations %u\n",
	       nkind[REQ_LIST], nkind[REQ_IL], nconf, nkind[REQ_INV]);
	printf("# access sets (IBV_ACCESS_*):");
	for (i = 0; i < 16; i++)
		if (nacc[i])
			printf(" 0x%x:%u", i, nacc[i]);
	printf("\n");
	for (i = 0; i < nrows; i++)
		printf("# table row %s: %u differences explained\n", rows[i],
		       row_hits[i]);
	mlx5umr_destroy_mkey(s.mk);
	mlx5umr_dereg_mr(s.mr[0]);
	mlx5umr_dereg_mr(s.mr[1]);
	mlx5umr_close(s.ctx);
	mlx5dv_destroy_mkey(l.mk);
	ibv_dereg_mr(l.mr[0]);
	ibv_dereg_mr(l.mr[1]);
	ibv_destroy_qp(l.qp);
	ibv_destroy_cq(l.cq);
	ibv_dealloc_pd(l.pd);
	ibv_close_device(l.ctx);
	ibv_free_device_list(l.list);
	printf("%u requests, %u unexplained differences\n", nreq,
	       nunexplained);
	return nunexplained || !nreq;
}
