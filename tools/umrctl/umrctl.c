// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umrctl: drive the mlx5-umr character device from the command line.
 *
 * Objects live as long as the open file, so one invocation runs either one
 * command or a batch (-b FILE, one command per line) on one file.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "mlx5umr.h"
#include "mlx5umr_testing.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

typedef unsigned long long u64;

#define MAX_OBJS	64
#define MAX_ARGS	128
#define MAX_ENTRIES	4096

enum { OBJ_MR, OBJ_MKEY, OBJ_DEK };

struct obj {
	char name[32];
	int kind;
	struct mlx5umr_mr *mr;
	struct mlx5umr_mkey *mk;
	struct mlx5umr_dek *dek;
	void *map;
	size_t map_len;
};

static struct mlx5umr_context *ctx;
static const char *dev_name;
static struct obj objs[MAX_OBJS];
static bool json;
static bool expect_fail;	/* the running command is expected to fail */
static bool script_on_stdin;	/* -b -: stdin is not for key files */

/* Returned for a command line that could not be parsed. */
#define USAGE	1000

/* --- output helpers --- */

static void jstr(const char *key, const char *val, bool last)
{
	printf("\"%s\":\"%s\"%s", key, val, last ? "" : ",");
}

static void jnum(const char *key, u64 val, bool last)
{
	printf("\"%s\":%llu%s", key, val, last ? "" : ",");
}

static int report_errno(const char *cmd, int err, bool expected)
{
	const char *name = mlx5umr_errno_name(err);

	if (json) {
		printf("{");
		jstr("cmd", cmd, false);
		if (expected)
			printf("\"expected_failure\":true,");
		jstr("error", name ? name : "?", false);
		jnum("errno", err, false);
		jstr("message", strerror(err), true);
		printf("}\n");
	} else if (expect_fail && !expected) {
		/* reported by run() */
	} else if (expected) {
		printf("%s: rejected as expected: %s (%s)\n", cmd,
		       name ? name : "?", strerror(err));
	} else {
		fprintf(stderr, "umrctl: %s: %s (%s)\n", cmd,
			name ? name : "?", strerror(err));
	}
	return err;
}

static int usage_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "umrctl: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see umrctl %s --help)\n", cmd);
	return USAGE;
}

static void hexdump(const char *label, u64 base, const uint8_t *p,
		    size_t len)
{
	size_t i, j;

	if (json) {
		printf("\"%s\":\"", label);
		for (i = 0; i < len; i++)
			printf("%02x", p[i]);
		printf("\"");
		return;
	}
	for (i = 0; i < len; i += 16) {
		printf("%s+%-6llu ", label, base + i);
		for (j = i; j < i + 16; j++) {
			if (j < len)
				printf(" %02x", p[j]);
			else
				printf("   ");
		}
		printf("  |");
		for (j = i; j < i + 16 && j < len; j++)
			putchar(isprint(p[j]) ? p[j] : '.');
		printf("|\n");
	}
}

/* --- argument helpers --- */

static int parse_u64(const char *s, u64 *v)
{
	char *end;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

static int parse_access(const char *s, uint32_t *access)
{
	char buf[128], *tok, *save;

	*access = 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		u64 v;

		if (!strcmp(tok, "lw") || !strcmp(tok, "local_write"))
			*access |= IBV_ACCESS_LOCAL_WRITE;
		else if (!strcmp(tok, "rw") || !strcmp(tok, "remote_write"))
			*access |= IBV_ACCESS_REMOTE_WRITE;
		else if (!strcmp(tok, "rr") || !strcmp(tok, "remote_read"))
			*access |= IBV_ACCESS_REMOTE_READ;
		else if (!strcmp(tok, "ra") || !strcmp(tok, "remote_atomic"))
			*access |= IBV_ACCESS_REMOTE_ATOMIC;
		else if (!strcmp(tok, "none"))
			;
		else if (!parse_u64(tok, &v) && v <= UINT32_MAX)
			*access |= (uint32_t)v;
		else
			return -EINVAL;
	}
	return 0;
}

static void access_str(uint32_t a, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s",
		 a & IBV_ACCESS_LOCAL_WRITE ? "lw," : "",
		 a & IBV_ACCESS_REMOTE_WRITE ? "rw," : "",
		 a & IBV_ACCESS_REMOTE_READ ? "rr," : "",
		 a & IBV_ACCESS_REMOTE_ATOMIC ? "ra," : "",
		 a ? "" : "none");
	if (a && buf[strlen(buf) - 1] == ',')
		buf[strlen(buf) - 1] = 0;
}

static struct obj *find_obj(const char *name)
{
	int i;

	for (i = 0; i < MAX_OBJS; i++)
		if (objs[i].name[0] && !strcmp(objs[i].name, name))
			return &objs[i];
	return NULL;
}

static struct obj *new_obj(const char *name)
{
	int i;

	if (find_obj(name))
		return NULL;
	for (i = 0; i < MAX_OBJS; i++) {
		if (!objs[i].name[0]) {
			memset(&objs[i], 0, sizeof(objs[i]));
			snprintf(objs[i].name, sizeof(objs[i].name), "%s",
				 name);
			return &objs[i];
		}
	}
	return NULL;
}

/* A DEK has no key: its handle stands in. */
static uint32_t obj_key(const struct obj *o)
{
	if (o->kind == OBJ_DEK)
		return o->dek->handle;
	return o->kind == OBJ_MR ? o->mr->lkey : o->mk->lkey;
}

static const char *obj_kind(const struct obj *o)
{
	return o->kind == OBJ_MR ? "mr" : o->kind == OBJ_MKEY ? "mkey" : "dek";
}

static int hex_val(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * Hex digits, whitespace between bytes ignored, into at most @max bytes.
 * Return: the byte count, or -EINVAL.
 */
static int parse_hex(const char *s, size_t n, uint8_t *out, size_t max)
{
	size_t i, len = 0;
	int hi = -1, v;

	for (i = 0; i < n; i++) {
		if (isspace((unsigned char)s[i]) && hi < 0)
			continue;
		v = hex_val((unsigned char)s[i]);
		if (v < 0)
			return -EINVAL;
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (len == max)
			return -EINVAL;
		out[len++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	return hi < 0 ? (int)len : -EINVAL;
}

/* Exactly @n bytes of hex from a SPEC value. */
static int parse_hex_exact(const char *s, uint8_t *out, size_t n)
{
	uint8_t tmp[64];
	int len = parse_hex(s, strlen(s), tmp, sizeof(tmp));

	if (len != (int)n)
		return -EINVAL;
	memcpy(out, tmp, n);
	return 0;
}

/*
 * The hex bytes of file @path ("-": stdin) into @out. read(2) into a
 * buffer of our own, not stdio, so that no library buffer keeps a copy of
 * a key; the text is wiped before returning.
 * Return: the byte count, or a negative errno.
 */
static int read_hex_file(const char *path, uint8_t *out, size_t max)
{
	static char text[65536];
	size_t len = 0;
	ssize_t r;
	int fd, ret = 0;

	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (fd < 0)
		return -errno;
	while (len < sizeof(text)) {
		r = read(fd, text + len, sizeof(text) - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			ret = -errno;
		if (r <= 0)
			break;
		len += r;
	}
	if (!ret && len == sizeof(text))
		ret = -E2BIG;
	if (fd)
		close(fd);
	if (!ret)
		ret = parse_hex(text, len, out, max);
	explicit_bzero(text, len);
	return ret;
}

/* Does @path name stdin ("-") when -b - gave it to the script? */
static bool stdin_is_script(const char *path)
{
	return !strcmp(path, "-") && script_on_stdin;
}

/*
 * A key operand: an object name, or a number taken as a raw key (to try
 * keys this file does not own).
 * Return: 0, -ENOENT for no such object or number, -ENOKEY for a DEK's
 * name (a DEK has no key; its handle is not one).
 */
static int parse_key(const char *s, uint32_t *key, struct obj **o)
{
	u64 v;

	*o = find_obj(s);
	if (*o && (*o)->kind == OBJ_DEK)
		return -ENOKEY;
	if (*o) {
		*key = obj_key(*o);
		return 0;
	}
	if (!parse_u64(s, &v) && v <= UINT32_MAX) {
		*key = v;
		return 0;
	}
	return -ENOENT;
}

struct opts {
	const char *name[16];
	const char *val[16];
	int n;
	const char *pos[MAX_ARGS];
	int npos;
	bool help;
};

/* Is @name one of the comma-separated words of @list? */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ',') && (!p[n] || p[n] == ','))
			return true;
	return false;
}

/* Options are "--name value"; flags listed in @flags take no value. */
static int parse_opts(int argc, char **argv, const char *flags,
		      struct opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			o->help = true;
			continue;
		}
		if (strncmp(a, "--", 2) || !a[2]) {
			if (o->npos == MAX_ARGS)
				return -E2BIG;
			o->pos[o->npos++] = a;
			continue;
		}
		if (o->n == 16)
			return -E2BIG;
		o->name[o->n] = a + 2;
		if (in_list(flags, a + 2)) {
			o->val[o->n++] = "1";
			continue;
		}
		if (i + 1 >= argc)
			return -EINVAL;
		o->val[o->n++] = argv[++i];
	}
	return 0;
}

static const char *opt(const struct opts *o, const char *name)
{
	int i;

	for (i = 0; i < o->n; i++)
		if (!strcmp(o->name[i], name))
			return o->val[i];
	return NULL;
}

static int check_opts(const char *cmd, const struct opts *o,
		      const char *const *known)
{
	int i, k;

	for (i = 0; i < o->n; i++) {
		for (k = 0; known[k]; k++)
			if (!strcmp(o->name[i], known[k]))
				break;
		if (!known[k])
			return usage_err(cmd, "unknown option --%s",
					 o->name[i]);
	}
	return 0;
}

static int opt_u64(const struct opts *o, const char *name, u64 def,
		   u64 *v)
{
	const char *s = opt(o, name);

	if (!s) {
		*v = def;
		return 0;
	}
	return parse_u64(s, v);
}

/* --- commands --- */

struct cmd {
	const char *name;
	int (*fn)(const struct opts *o);
	const char *usage;
	const char *help;
	const char *flags;
	const char *const opts[12];
};

static const unsigned int block_sizes[] = { 512, 520, 4048, 4096, 4160 };

/* "AES-XTS-128 and 256 keys, data units of 512, 520 ... bytes" */
static void print_crypto_caps(const struct mlx5umr_device_attr *a)
{
	const char *sep = "";
	size_t i;

	if (!a->crypto) {
		printf("crypto       no\n");
		return;
	}
	printf("crypto       AES-XTS mkeys, keys of");
	if (a->crypto_key_sizes & 1U << MLX5DV_CRYPTO_KEY_SIZE_128) {
		printf(" 128");
		sep = " and";
	}
	if (a->crypto_key_sizes & 1U << MLX5DV_CRYPTO_KEY_SIZE_256)
		printf("%s 256", sep);
	printf(" bits, data units of");
	sep = " ";
	for (i = 0; i < ARRAY_SIZE(block_sizes); i++)
		if (a->crypto_data_unit_sizes & 1U << i) {
			printf("%s%u", sep, block_sizes[i]);
			sep = ", ";
		}
	printf(" bytes\n");
	printf("deks         %u in this file (at most %u)\n", a->fd_deks,
	       a->max_fd_deks);
}

static int cmd_info(const struct opts *o)
{
	struct mlx5umr_device_attr a;
	char acc[64];
	int ret, i;

	(void)o;
	ret = mlx5umr_query_device(ctx, &a);
	if (ret)
		return report_errno("info", ret, false);
	access_str(a.access, acc, sizeof(acc));
	if (json) {
		printf("{");
		jstr("cmd", "info", false);
		jstr("device", a.name, false);
		printf("\"fake\":%s,", a.fake ? "true" : "false");
		jnum("max_entries", a.max_entries, false);
		jnum("max_inline_entries", a.max_inline_entries, false);
		jstr("access", acc, false);
		jnum("max_xfer", a.max_xfer, false);
		printf("\"signature\":%s,", a.sig ? "true" : "false");
		printf("\"crypto\":%s,", a.crypto ? "true" : "false");
		jnum("crypto_key_sizes", a.crypto_key_sizes, false);
		jnum("crypto_data_unit_sizes", a.crypto_data_unit_sizes, false);
		jnum("max_fd_deks", a.max_fd_deks, false);
		jnum("fd_deks", a.fd_deks, false);
		jnum("fd_objects", a.fd_objects, false);
		jnum("dev_objects", a.dev_objects, false);
		jnum("fd_pinned_pages", a.fd_pinned_pages, false);
		jnum("dev_pinned_pages", a.dev_pinned_pages, false);
		printf("\"objects\":[");
		for (i = 0; i < MAX_OBJS; i++) {
			if (!objs[i].name[0])
				continue;
			printf("%s{", ret++ ? "," : "");
			jstr("name", objs[i].name, false);
			jstr("kind", obj_kind(&objs[i]), false);
			jnum("key", obj_key(&objs[i]), true);
			printf("}");
		}
		printf("]}\n");
		return 0;
	}
	printf("device       %s%s\n", a.name,
	       a.fake ? " (fake HCA: write/read available)" : "");
	printf("max_entries  %u (inline %u)\n", a.max_entries,
	       a.max_inline_entries);
	printf("access       %s\n", acc);
	printf("signature    %s\n",
	       a.sig ? "T10-DIF and CRC block signature mkeys" : "no");
	print_crypto_caps(&a);
	printf("objects      %u in this file, %u on the device\n",
	       a.fd_objects, a.dev_objects);
	printf("pinned       %llu pages in this file, %llu on the device\n",
	       (u64)a.fd_pinned_pages, (u64)a.dev_pinned_pages);
	for (i = 0; i < MAX_OBJS; i++) {
		const struct obj *ob = &objs[i];

		if (!ob->name[0])
			continue;
		if (ob->kind == OBJ_MR)
			printf("  %-8s mr   key 0x%08x addr %p length %zu\n",
			       ob->name, ob->mr->lkey, ob->mr->addr,
			       ob->mr->length);
		else if (ob->kind == OBJ_DEK)
			printf("  %-8s dek  handle %u AES-XTS-%s%s\n", ob->name,
			       ob->dek->handle,
			       ob->dek->key_size == MLX5DV_CRYPTO_KEY_SIZE_256 ?
			       "256" : "128",
			       ob->dek->has_keytag ? " with keytag" : "");
		else
			printf("  %-8s mkey key 0x%08x max_entries %u length %llu\n",
			       ob->name, ob->mk->lkey, ob->mk->max_entries,
			       (u64)ob->mk->length);
	}
	return 0;
}

static int cmd_reg(const struct opts *o)
{
	u64 len, off, fill;
	uint32_t access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			  IBV_ACCESS_REMOTE_READ;
	size_t pg = sysconf(_SC_PAGESIZE);
	struct obj *ob;
	char acc[64];
	void *map;

	if (o->npos != 1)
		return usage_err("reg", "expected one NAME");
	if (opt_u64(o, "length", 0, &len) || !len)
		return usage_err("reg", "--length N (bytes, > 0) is required");
	if (opt_u64(o, "offset", 0, &off) || opt_u64(o, "fill", 0, &fill) ||
	    fill > 255)
		return usage_err("reg", "bad --offset or --fill");
	if (opt(o, "access") && parse_access(opt(o, "access"), &access))
		return usage_err("reg", "bad --access");
	ob = new_obj(o->pos[0]);
	if (!ob)
		return usage_err("reg", "name %s in use or too many objects",
				 o->pos[0]);
	ob->map_len = (off + len + pg - 1) / pg * pg;
	map = mmap(NULL, ob->map_len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		ob->name[0] = 0;
		return report_errno("reg", errno, false);
	}
	memset(map, (int)fill, ob->map_len);
	ob->map = map;
	ob->kind = OBJ_MR;
	ob->mr = mlx5umr_reg_mr(ctx, (char *)map + off, len, access);
	if (!ob->mr) {
		int err = errno;

		munmap(map, ob->map_len);
		ob->name[0] = 0;
		return report_errno("reg", err, false);
	}
	access_str(access, acc, sizeof(acc));
	if (json) {
		printf("{");
		jstr("cmd", "reg", false);
		jstr("name", ob->name, false);
		jnum("handle", ob->mr->handle, false);
		jnum("lkey", ob->mr->lkey, false);
		jnum("rkey", ob->mr->rkey, false);
		jnum("addr", (uintptr_t)ob->mr->addr, false);
		jnum("length", len, false);
		jstr("access", acc, true);
		printf("}\n");
	} else {
		printf("%s: registered %llu bytes at %p: handle %u key 0x%08x access %s\n",
		       ob->name, len, ob->mr->addr, ob->mr->handle,
		       ob->mr->lkey, acc);
	}
	return 0;
}

static int cmd_alloc(const struct opts *o)
{
	u64 max;
	uint32_t flags = 0;
	struct obj *ob;

	if (o->npos != 1)
		return usage_err("alloc", "expected one NAME");
	if (opt_u64(o, "max-entries", 16, &max) || max > UINT32_MAX)
		return usage_err("alloc", "bad --max-entries");
	if (opt(o, "remote-invalidate"))
		flags |= MLX5UMR_MKEY_REMOTE_INVALIDATE;
	if (opt(o, "signature"))
		flags |= MLX5UMR_MKEY_SIGNATURE;
	if (opt(o, "crypto"))
		flags |= MLX5UMR_MKEY_CRYPTO;
	ob = new_obj(o->pos[0]);
	if (!ob)
		return usage_err("alloc", "name %s in use or too many objects",
				 o->pos[0]);
	ob->kind = OBJ_MKEY;
	ob->mk = mlx5umr_create_mkey(ctx, max, flags);
	if (!ob->mk) {
		ob->name[0] = 0;
		return report_errno("alloc", errno, false);
	}
	if (json) {
		printf("{");
		jstr("cmd", "alloc", false);
		jstr("name", ob->name, false);
		jnum("handle", ob->mk->handle, false);
		jnum("key", ob->mk->lkey, false);
		printf("\"signature\":%s,",
		       flags & MLX5UMR_MKEY_SIGNATURE ? "true" : "false");
		printf("\"crypto\":%s,",
		       flags & MLX5UMR_MKEY_CRYPTO ? "true" : "false");
		jnum("max_entries", max, true);
		printf("}\n");
	} else {
		printf("%s: indirect mkey%s%s: handle %u key 0x%08x max_entries %llu\n",
		       ob->name, flags & MLX5UMR_MKEY_SIGNATURE ?
		       " with signature" : "",
		       flags & MLX5UMR_MKEY_CRYPTO ? " with crypto" : "",
		       ob->mk->handle, ob->mk->lkey, max);
	}
	return 0;
}

/*
 * dek NAME --key-file FILE: the key is read from a file or stdin, never
 * from the command line (argv is visible to every user in ps), and wiped
 * once the kernel took it.
 */
static int cmd_dek(const struct opts *o)
{
	static uint8_t key[256];
	struct mlx5umr_dek_init_attr attr = { 0 };
	const char *path = opt(o, "key-file");
	struct obj *ob;
	int len, err;
	u64 ks;

	if (o->npos != 1)
		return usage_err("dek", "expected one NAME");
	if (!path)
		return usage_err("dek", "--key-file FILE is required");
	if (stdin_is_script(path))
		return usage_err("dek", "stdin holds the script: give a file");
	if (opt(o, "keytag")) {
		if (parse_hex_exact(opt(o, "keytag"), (uint8_t *)attr.keytag,
				    sizeof(attr.keytag)))
			return usage_err("dek", "--keytag takes 16 hex digits");
		attr.has_keytag = true;
	}
	if (opt(o, "key-size") &&
	    (opt_u64(o, "key-size", 0, &ks) ||
	     (ks != 128 && ks != 256 && ks >= 16)))
		return usage_err("dek", "bad --key-size");
	len = read_hex_file(path, key, sizeof(key));
	if (len < 0) {
		explicit_bzero(key, sizeof(key));
		if (len == -EINVAL || len == -E2BIG)
			return usage_err("dek", "%s: not hex, or over %zu bytes",
					 path, sizeof(key));
		return report_errno("dek", -len, false);
	}
	/* default: the size the key's length says; raw values below 16 */
	if (!opt(o, "key-size"))
		ks = len == 64 ? 256 : 128;
	attr.key_size = ks == 256 ? MLX5DV_CRYPTO_KEY_SIZE_256 :
			ks == 128 ? MLX5DV_CRYPTO_KEY_SIZE_128 :
			(enum mlx5dv_crypto_key_size)ks;
	attr.key = key;
	attr.key_len = len;
	ob = new_obj(o->pos[0]);
	if (!ob) {
		explicit_bzero(key, sizeof(key));
		return usage_err("dek", "name %s in use or too many objects",
				 o->pos[0]);
	}
	ob->kind = OBJ_DEK;
	ob->dek = mlx5umr_dek_create(ctx, &attr);
	err = errno;
	explicit_bzero(key, sizeof(key));
	if (!ob->dek) {
		ob->name[0] = 0;
		return report_errno("dek", err, false);
	}
	if (json) {
		printf("{");
		jstr("cmd", "dek", false);
		jstr("name", ob->name, false);
		jnum("handle", ob->dek->handle, false);
		jnum("key_size", ks, false);
		jnum("key_bytes", len, false);
		printf("\"keytag\":%s}\n", attr.has_keytag ? "true" : "false");
	} else {
		printf("%s: DEK handle %u: AES-XTS key size %llu, %d key bytes read%s\n",
		       ob->name, ob->dek->handle, ks, len,
		       attr.has_keytag ? ", with keytag" : "");
	}
	return 0;
}

/*
 * "MR[+OFF]:A[:B]": a registered buffer by name, or a raw key number.
 * Return: 0, -ENOKEY for a DEK's name (parse_key()), else -EINVAL.
 */
static int parse_entry(const char *s, u64 *addr, uint32_t *key,
		       u64 *a, u64 *b, bool two)
{
	char buf[128], *p, *c1, *c2, *plus;
	struct obj *ob;
	u64 off = 0;
	int ret;

	snprintf(buf, sizeof(buf), "%s", s);
	c1 = strchr(buf, ':');
	if (!c1)
		return -EINVAL;
	*c1++ = 0;
	c2 = strchr(c1, ':');
	if (two != !!c2)
		return -EINVAL;
	if (c2)
		*c2++ = 0;
	plus = strchr(buf, '+');
	if (plus) {
		*plus++ = 0;
		if (parse_u64(plus, &off))
			return -EINVAL;
	}
	p = buf;
	ret = parse_key(p, key, &ob);
	if (ret)
		return ret == -ENOKEY ? ret : -EINVAL;
	if (ob && ob->kind == OBJ_MR)
		*addr = (uintptr_t)ob->mr->addr + off;
	else
		*addr = off;
	if (parse_u64(c1, a) || *a > UINT32_MAX)
		return -EINVAL;
	if (two && (parse_u64(c2, b) || *b > UINT32_MAX))
		return -EINVAL;
	return 0;
}

/*
 * -b: consecutive configure and invalidate lines are not run one by one
 * but gathered into one MLX5_UMR_IOCTL_BATCH, posted when another kind of
 * line, an expected failure or the end of the script comes, or when the
 * batch is full or names the mkey again. Their output is printed then, in
 * script order. A refused batch applied nothing: its lines are then run
 * one by one, so the script behaves exactly as without batching.
 */
#define DEFER_RETRY	1001	/* post what is gathered, then run again */
#define MAX_DEFERRED	1024

struct deferred {
	char echo[4200];	/* the "# line" to print */
	char args[4096];	/* the line's words, for a rerun */
	int lineno;
	const struct obj *ob;
	bool inval, list;
	uint32_t access;
	u64 repeat;
	int n;
};

static struct mlx5umr_batch *ubatch;
static bool batch_off;		/* the kernel has no batch ioctl */
static bool deferring;		/* the running line may be gathered */
static struct deferred *deferred;
static struct deferred *cur_def;	/* the running line's record */
static int ndeferred;

static void print_configured(const struct obj *ob, bool list, uint32_t access,
			     u64 repeat, int n, const char *sig,
			     const char *crypto);
static void print_invalidated(const struct obj *ob);

/* An EEXIST or ENOSPC of the library: post the batch, then retry. */
static int defer_added(int ret)
{
	if (ret == EEXIST || ret == ENOSPC)
		return ndeferred ? DEFER_RETRY : ret;
	if (ret)
		return report_errno(cur_def->inval ? "invalidate" : "configure",
				    ret, false);
	deferred[ndeferred++] = *cur_def;
	return 0;
}

static int defer_configure(const struct obj *ob, bool list, uint32_t access,
			   uint32_t kflags, u64 repeat, int n,
			   const struct ibv_sge *sge,
			   const struct mlx5dv_mr_interleaved *il)
{
	struct mlx5umr_configure_attr attr = {
		.access = access,
		.flags = kflags,
		.layout = list ? MLX5UMR_LAYOUT_LIST : MLX5UMR_LAYOUT_INTERLEAVED,
		.num_entries = n,
		.sge = sge,
		.interleaved = il,
		.repeat_count = repeat,
	};

	cur_def->ob = ob;
	cur_def->inval = false;
	cur_def->list = list;
	cur_def->access = access;
	cur_def->repeat = repeat;
	cur_def->n = n;
	return defer_added(mlx5umr_batch_configure(ubatch, ob->mk, &attr));
}

static int defer_invalidate(const struct obj *ob, uint32_t kflags)
{
	cur_def->ob = ob;
	cur_def->inval = true;
	return defer_added(mlx5umr_batch_invalidate_ex(ubatch, ob->mk,
						       kflags));
}

/*
 * --sig SPEC: a block signature (mlx5dv_wr_set_mkey_sig_block(3)) as a
 * comma list. mem=TYPE and wire=TYPE give each domain's type: none,
 * t10dif (t10dif:crc) or t10dif:csum, crc32, crc32c, crc64. Parameters
 * apply to every domain of the type they belong to, or with a "mem." or
 * "wire." prefix to that domain only: bs=512|520|4048|4096|4160 (default
 * 512), T10-DIF app=, ref=, bg=0|0xffff (guard seed, default 0), remap,
 * app-escape, app-ref-escape; CRC seed=0|ones (default ones). check=MASK
 * (default 0xff: every byte of the input's field) and copy=MASK (sets
 * MLX5DV_SIG_BLOCK_ATTR_FLAG_COPY_MASK) apply to the whole signature.
 */
struct sig_spec {
	struct mlx5dv_sig_block_attr attr;
	struct mlx5dv_sig_block_domain dom[2];	/* mem, wire */
	struct mlx5dv_sig_t10dif dif[2];
	struct mlx5dv_sig_crc crc[2];
	bool has[2];
};

static int sig_type(const char *v, struct sig_spec *s, int d)
{
	static const struct {
		const char *name;
		enum mlx5dv_sig_type type;
		int sub;	/* bg_type or crc type */
	} types[] = {
		{ "t10dif", MLX5DV_SIG_TYPE_T10DIF, MLX5DV_SIG_T10DIF_CRC },
		{ "t10dif:crc", MLX5DV_SIG_TYPE_T10DIF, MLX5DV_SIG_T10DIF_CRC },
		{ "t10dif:csum", MLX5DV_SIG_TYPE_T10DIF, MLX5DV_SIG_T10DIF_CSUM },
		{ "crc32", MLX5DV_SIG_TYPE_CRC, MLX5DV_SIG_CRC_TYPE_CRC32 },
		{ "crc32c", MLX5DV_SIG_TYPE_CRC, MLX5DV_SIG_CRC_TYPE_CRC32C },
		{ "crc64", MLX5DV_SIG_TYPE_CRC, MLX5DV_SIG_CRC_TYPE_CRC64_XP10 },
		{ "crc64_xp10", MLX5DV_SIG_TYPE_CRC,
		  MLX5DV_SIG_CRC_TYPE_CRC64_XP10 },
	};
	size_t i;

	s->has[d] = false;
	if (!strcmp(v, "none"))
		return 0;
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		if (strcmp(v, types[i].name))
			continue;
		s->has[d] = true;
		s->dom[d].sig_type = types[i].type;
		if (types[i].type == MLX5DV_SIG_TYPE_T10DIF) {
			s->dif[d].bg_type =
				(enum mlx5dv_sig_t10dif_bg_type)types[i].sub;
		} else {
			s->crc[d].type = (enum mlx5dv_sig_crc_type)types[i].sub;
			s->crc[d].seed = types[i].sub ==
				MLX5DV_SIG_CRC_TYPE_CRC64_XP10 ?
				UINT64_MAX : UINT32_MAX;
		}
		return 0;
	}
	return -EINVAL;
}

static int sig_block_size(u64 v, enum mlx5dv_block_size *bs)
{
	static const unsigned int sizes[] = { 512, 520, 4048, 4096, 4160 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		if (v == sizes[i]) {
			*bs = (enum mlx5dv_block_size)i;
			return 0;
		}
	return -EINVAL;
}

/* One parameter @key[=@val] for domain @d. */
static int sig_param(struct sig_spec *s, int d, const char *key,
		     const char *val)
{
	bool dif = s->dom[d].sig_type == MLX5DV_SIG_TYPE_T10DIF;
	u64 v = 0;

	if (val && strcmp(key, "seed") && parse_u64(val, &v))
		return -EINVAL;
	if (!strcmp(key, "bs"))
		return val ? sig_block_size(v, &s->dom[d].block_size) : -EINVAL;
	if (!strcmp(key, "seed")) {
		if (!val)
			return -EINVAL;
		if (!strcmp(val, "ones"))
			v = s->crc[d].type == MLX5DV_SIG_CRC_TYPE_CRC64_XP10 ?
			    UINT64_MAX : UINT32_MAX;
		else if (parse_u64(val, &v))
			return -EINVAL;
		if (!dif)
			s->crc[d].seed = v;
		return 0;
	}
	if (!dif)	/* a T10-DIF parameter: not this domain's */
		return 0;
	if (!strcmp(key, "app") && val && v <= UINT16_MAX)
		s->dif[d].app_tag = v;
	else if (!strcmp(key, "ref") && val && v <= UINT32_MAX)
		s->dif[d].ref_tag = v;
	else if (!strcmp(key, "bg") && val && v <= UINT16_MAX)
		s->dif[d].bg = v;
	else if (!strcmp(key, "remap") && !val)
		s->dif[d].flags |= MLX5DV_SIG_T10DIF_FLAG_REF_REMAP;
	else if (!strcmp(key, "app-escape") && !val)
		s->dif[d].flags |= MLX5DV_SIG_T10DIF_FLAG_APP_ESCAPE;
	else if (!strcmp(key, "app-ref-escape") && !val)
		s->dif[d].flags |= MLX5DV_SIG_T10DIF_FLAG_APP_REF_ESCAPE;
	else
		return -EINVAL;
	return 0;
}

/*
 * Three passes over the words: the domains' types, then the parameters
 * of both domains, then those of one domain (they override).
 */
static int parse_sig(const char *spec, struct sig_spec *s)
{
	char buf[512], *tok, *save, *val;
	int pass, d, ret;
	u64 v;

	memset(s, 0, sizeof(*s));
	s->attr.check_mask = 0xff;
	for (pass = 0; pass < 3; pass++) {
		snprintf(buf, sizeof(buf), "%s", spec);
		for (tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			int dom = -1;

			val = strchr(tok, '=');
			if (val)
				*val++ = 0;
			if (!strncmp(tok, "mem.", 4) || !strncmp(tok, "wire.", 5)) {
				dom = tok[0] == 'm' ? 0 : 1;
				tok = strchr(tok, '.') + 1;
			}
			if (!strcmp(tok, "mem") || !strcmp(tok, "wire")) {
				if (dom >= 0 || !val)
					return -EINVAL;
				if (pass == 0 &&
				    sig_type(val, s, tok[0] == 'm' ? 0 : 1))
					return -EINVAL;
				continue;
			}
			if (!strcmp(tok, "check") || !strcmp(tok, "copy")) {
				if (dom >= 0 || !val || parse_u64(val, &v) ||
				    v > 0xff)
					return -EINVAL;
				if (tok[1] == 'h') {
					s->attr.check_mask = v;
				} else {
					s->attr.copy_mask = v;
					s->attr.flags |=
					MLX5DV_SIG_BLOCK_ATTR_FLAG_COPY_MASK;
				}
				continue;
			}
			/* pass 1: both domains' parameters, pass 2: one's */
			if (pass == 0 || (pass == 1 && dom >= 0) ||
			    (pass == 2 && dom < 0))
				continue;
			for (d = 0; d < 2; d++) {
				if (dom >= 0 && d != dom)
					continue;
				ret = sig_param(s, d, tok, val);
				if (ret)
					return ret;
			}
		}
	}
	for (d = 0; d < 2; d++) {
		if (!s->has[d])
			continue;
		if (s->dom[d].sig_type == MLX5DV_SIG_TYPE_T10DIF)
			s->dom[d].sig.dif = &s->dif[d];
		else
			s->dom[d].sig.crc = &s->crc[d];
	}
	s->attr.mem = s->has[0] ? &s->dom[0] : NULL;
	s->attr.wire = s->has[1] ? &s->dom[1] : NULL;
	return 0;
}

/*
 * --crypto SPEC: crypto attributes (mlx5dv_wr_set_mkey_crypto(3)) as a
 * comma list: dek=NAME (a DEK of this session, or a raw handle),
 * aes-xts (the standard, default; standard=N for a raw value),
 * encrypt-on-tx (memory holds plaintext; default: memory holds
 * ciphertext), dus=512|520|4048|4096|4160 (data unit bytes, default 512;
 * a number below 16 is sent as the raw enum value), tweak=N (the first
 * data unit's number, up to 64 bits: the low 8 of the 16 little-endian
 * bytes, the others 0; default 0) or tweak-bytes=HEX (the 16 bytes as
 * given), keytag=HEX (8 bytes),
 * order=after|before (the signature after or before crypto on transmit,
 * default after; with a signature only).
 */
struct crypto_spec {
	struct mlx5umr_crypto_attr attr;
	struct mlx5umr_dek raw;		/* for dek=NUMBER */
};

static int crypto_param(struct crypto_spec *c, const char *key,
			const char *val)
{
	u64 v = 0;
	struct obj *ob;
	size_t i;

	if (!strcmp(key, "encrypt-on-tx") || !strcmp(key, "aes-xts")) {
		if (val)
			return -EINVAL;
		if (key[0] == 'e')
			c->attr.encrypt_on_tx = true;
		else
			c->attr.crypto_standard = MLX5DV_CRYPTO_STANDARD_AES_XTS;
		return 0;
	}
	if (!val)
		return -EINVAL;
	if (!strcmp(key, "dek")) {
		ob = find_obj(val);
		if (ob && ob->kind == OBJ_DEK) {
			c->attr.dek = ob->dek;
			return 0;
		}
		if (parse_u64(val, &v) || v > UINT32_MAX)
			return -EINVAL;
		c->raw.context = ctx;
		c->raw.handle = v;
		c->attr.dek = &c->raw;
		return 0;
	}
	if (!strcmp(key, "tweak-bytes"))
		return parse_hex_exact(val, (uint8_t *)c->attr.initial_tweak,
				       sizeof(c->attr.initial_tweak));
	if (!strcmp(key, "keytag"))
		return parse_hex_exact(val, (uint8_t *)c->attr.keytag,
				       sizeof(c->attr.keytag));
	if (!strcmp(key, "order")) {
		if (!strcmp(val, "after"))
			c->attr.signature_crypto_order =
			MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX;
		else if (!strcmp(val, "before"))
			c->attr.signature_crypto_order =
			MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX;
		else if (!parse_u64(val, &v) && v < 16)
			c->attr.signature_crypto_order =
				(enum mlx5dv_signature_crypto_order)v;
		else
			return -EINVAL;
		return 0;
	}
	if (parse_u64(val, &v))
		return -EINVAL;
	if (!strcmp(key, "tweak")) {
		memset(c->attr.initial_tweak, 0, sizeof(c->attr.initial_tweak));
		for (i = 0; i < 8; i++)
			c->attr.initial_tweak[i] = (char)(v >> (8 * i));
		return 0;
	}
	if (!strcmp(key, "standard") && v < 16) {
		c->attr.crypto_standard = (enum mlx5dv_crypto_standard)v;
		return 0;
	}
	if (!strcmp(key, "dus")) {
		if (v < 16) {
			c->attr.data_unit_size = (enum mlx5dv_block_size)v;
			return 0;
		}
		return sig_block_size(v, &c->attr.data_unit_size);
	}
	return -EINVAL;
}

static int parse_crypto(const char *spec, struct crypto_spec *c)
{
	char buf[512], *tok, *save, *val;
	int ret;

	memset(c, 0, sizeof(*c));
	c->attr.data_unit_size = MLX5DV_BLOCK_SIZE_512;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		val = strchr(tok, '=');
		if (val)
			*val++ = 0;
		ret = crypto_param(c, tok, val);
		if (ret)
			return ret;
	}
	return c->attr.dek ? 0 : -EINVAL;
}

static int cmd_configure(const struct opts *o)
{
	static struct ibv_sge sge[MAX_ENTRIES];
	static struct mlx5dv_mr_interleaved il[MAX_ENTRIES];
	uint32_t access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			  IBV_ACCESS_REMOTE_READ;
	const struct mlx5dv_sig_block_attr *sa = NULL;
	const struct mlx5umr_crypto_attr *ca = NULL;
	struct mlx5umr_configure_attr attr;
	static struct crypto_spec crypto;
	static struct sig_spec sig;
	uint32_t kflags;
	bool list;
	u64 repeat;
	struct obj *ob;
	int i, n, ret;

	if (o->npos < 3)
		return usage_err("configure",
				 "expected list|interleaved MKEY ENTRY...");
	if (!strcmp(o->pos[0], "list"))
		list = true;
	else if (!strcmp(o->pos[0], "interleaved"))
		list = false;
	else
		return usage_err("configure", "layout must be list or interleaved");
	ob = find_obj(o->pos[1]);
	if (!ob || ob->kind != OBJ_MKEY)
		return usage_err("configure", "%s is not an mkey of this session",
				 o->pos[1]);
	if (opt(o, "access") && parse_access(opt(o, "access"), &access))
		return usage_err("configure", "bad --access");
	if (opt_u64(o, "repeat", list ? 0 : 1, &repeat) || repeat > UINT32_MAX)
		return usage_err("configure", "bad --repeat");
	n = o->npos - 2;
	if (n > MAX_ENTRIES)
		return usage_err("configure", "too many entries");
	for (i = 0; i < n; i++) {
		u64 addr, a, b = 0;
		uint32_t key;

		ret = parse_entry(o->pos[2 + i], &addr, &key, &a, &b, !list);
		if (ret == -ENOKEY)
			return usage_err("configure",
					 "entry '%s' names a DEK, which has no key",
					 o->pos[2 + i]);
		if (ret)
			return usage_err("configure", "bad entry '%s'",
					 o->pos[2 + i]);
		if (list) {
			sge[i].addr = addr;
			sge[i].length = a;
			sge[i].lkey = key;
		} else {
			il[i].addr = addr;
			il[i].bytes_count = a;
			il[i].bytes_skip = b;
			il[i].lkey = key;
		}
	}
	kflags = opt(o, "new-key") ? MLX5UMR_NEW_KEY : 0;
	if (opt(o, "reset-sig"))
		kflags |= MLX5UMR_RESET_SIG;
	if (opt(o, "sig")) {
		if (parse_sig(opt(o, "sig"), &sig))
			return usage_err("configure", "bad --sig '%s'",
					 opt(o, "sig"));
		sa = &sig.attr;
	}
	if (opt(o, "crypto")) {
		if (parse_crypto(opt(o, "crypto"), &crypto))
			return usage_err("configure", "bad --crypto '%s'",
					 opt(o, "crypto"));
		ca = &crypto.attr;
	}
	if (deferring && (sa || ca || (kflags & MLX5UMR_RESET_SIG)))
		return usage_err("configure",
				 "signatures and crypto are not deferred");
	if (deferring)
		return defer_configure(ob, list, access, kflags, repeat, n, sge,
				       il);
	attr = (struct mlx5umr_configure_attr){
		.access = access,
		.flags = kflags,
		.layout = list ? MLX5UMR_LAYOUT_LIST : MLX5UMR_LAYOUT_INTERLEAVED,
		.num_entries = n,
		.sge = sge,
		.interleaved = il,
		.repeat_count = repeat,
		.sig = sa,
		.crypto = ca,
	};
	ret = mlx5umr_mkey_configure(ob->mk, &attr);
	if (ret)
		return report_errno("configure", ret, false);
	print_configured(ob, list, access, repeat, n,
			 sa ? opt(o, "sig") :
			 kflags & MLX5UMR_RESET_SIG ? "none" : NULL,
			 ca ? opt(o, "crypto") : NULL);
	return 0;
}

/*
 * @sig: the --sig given, "none" for --reset-sig, NULL when kept;
 * @crypto: the --crypto given, or NULL
 */
static void print_configured(const struct obj *ob, bool list, uint32_t access,
			     u64 repeat, int n, const char *sig,
			     const char *crypto)
{
	char acc[64];

	access_str(access, acc, sizeof(acc));
	if (json) {
		printf("{");
		jstr("cmd", "configure", false);
		jstr("name", ob->name, false);
		jstr("layout", list ? "list" : "interleaved", false);
		jnum("entries", n, false);
		jnum("repeat", repeat, false);
		jstr("access", acc, false);
		if (sig)
			jstr("sig", sig, false);
		if (crypto)
			jstr("crypto", crypto, false);
		jnum("key", ob->mk->rkey, false);
		jnum("length", ob->mk->length, true);
		printf("}\n");
		return;
	}
	if (list) {
		printf("%s: list of %d entries, %llu bytes, access %s, key 0x%08x\n",
		       ob->name, n, (u64)ob->mk->length, acc, ob->mk->rkey);
	} else {
		printf("%s: interleaved, %d entries x %llu cycles, %llu bytes, ",
		       ob->name, n, repeat, (u64)ob->mk->length);
		printf("access %s, key 0x%08x\n", acc, ob->mk->rkey);
	}
	if (sig)
		printf("%s: signature %s\n", ob->name, sig);
	if (crypto)
		printf("%s: crypto %s\n", ob->name, crypto);
}

static int cmd_invalidate(const struct opts *o)
{
	uint32_t kflags;
	struct obj *ob;
	int ret;

	if (o->npos != 1)
		return usage_err("invalidate", "expected one MKEY");
	ob = find_obj(o->pos[0]);
	if (!ob || ob->kind != OBJ_MKEY)
		return usage_err("invalidate", "%s is not an mkey of this session",
				 o->pos[0]);
	kflags = opt(o, "new-key") ? MLX5UMR_NEW_KEY : 0;
	if (deferring)
		return defer_invalidate(ob, kflags);
	ret = mlx5umr_mkey_invalidate_ex(ob->mk, kflags);
	if (ret)
		return report_errno("invalidate", ret, false);
	print_invalidated(ob);
	return 0;
}

static void print_invalidated(const struct obj *ob)
{
	if (json)
		printf("{\"cmd\":\"invalidate\",\"name\":\"%s\",\"key\":%u}\n",
		       ob->name, ob->mk->rkey);
	else
		printf("%s: invalidated\n", ob->name);
}

static int cmd_destroy(const struct opts *o)
{
	struct obj *ob;
	int ret;

	if (o->npos != 1)
		return usage_err("destroy", "expected one NAME");
	ob = find_obj(o->pos[0]);
	if (!ob)
		return usage_err("destroy", "no object %s", o->pos[0]);
	if (ob->kind == OBJ_MR)
		ret = mlx5umr_dereg_mr(ob->mr);
	else if (ob->kind == OBJ_DEK)
		ret = mlx5umr_dek_destroy(ob->dek);
	else
		ret = mlx5umr_destroy_mkey(ob->mk);
	if (ret)
		return report_errno("destroy", ret, false);
	if (ob->map)
		munmap(ob->map, ob->map_len);
	if (json)
		printf("{\"cmd\":\"destroy\",\"name\":\"%s\"}\n", ob->name);
	else
		printf("%s: destroyed\n", ob->name);
	ob->name[0] = 0;
	return 0;
}

static int cmd_set_pd(const struct opts *o)
{
	char *end;
	unsigned long pdn;
	int ret;

	if (o->npos != 1)
		return usage_err("set-pd", "expected one PDN");
	errno = 0;
	pdn = strtoul(o->pos[0], &end, 0);
	if (errno || *end || pdn > UINT32_MAX)
		return usage_err("set-pd", "bad PDN %s", o->pos[0]);
	ret = mlx5umr_set_pd(ctx, (uint32_t)pdn);
	if (ret)
		return report_errno("set-pd", ret, false);
	if (json)
		printf("{\"cmd\":\"set-pd\",\"pdn\":%lu}\n", pdn);
	else
		printf("objects in PD %lu\n", pdn);
	return 0;
}

/*
 * Pattern "offset": every 4-byte word holds, big endian, the offset of its
 * first byte in the transfer; a dump then shows where each byte came from.
 */
static uint8_t pattern_byte(const char *pattern, u64 i)
{
	u64 v;

	if (!strcmp(pattern, "offset"))
		return (uint8_t)((i & ~3ULL) >> (8 * (3 - (i & 3))));
	if (!strcmp(pattern, "inc"))
		return (uint8_t)i;
	parse_u64(pattern, &v);
	return (uint8_t)v;
}

static int valid_pattern(const char *p)
{
	u64 v;

	return !strcmp(p, "offset") || !strcmp(p, "inc") ||
	       (!parse_u64(p, &v) && v <= 255);
}

/*
 * --expect-hex FILE: the bytes must be those FILE holds in hex (as many).
 * Return: mismatching bytes (*@first the first one), or -1 after a usage
 * error was reported.
 */
static long long expect_hex(const char *cmd, const char *path,
			    const uint8_t *p, u64 len, u64 *first)
{
	static uint8_t want[16384];
	long long bad = 0;
	int n;
	u64 i;

	n = read_hex_file(path, want, sizeof(want));
	if (n < 0 || (u64)n != len) {
		usage_err(cmd, "--expect-hex %s: %s", path,
			  n < 0 ? strerror(-n) : "not as many bytes as --length");
		return -1;
	}
	for (i = 0; i < len; i++)
		if (p[i] != want[i] && !bad++)
			*first = i;
	return bad;
}

static void print_hex_result(const char *name, u64 off, u64 len,
			     const char *hexf, u64 bad, u64 first)
{
	if (!hexf)
		return;
	if (bad)
		printf("%s+%llu..%llu: MISMATCH with %s: %llu bytes differ, the first at +%llu\n",
		       name, off, off + len - 1, hexf, bad, first);
	else
		printf("%s+%llu..%llu: the %llu bytes of %s: ok\n", name, off,
		       off + len - 1, len, hexf);
}

static int cmd_dump(const struct opts *o)
{
	u64 off, len, exp;
	const char *expect = opt(o, "expect");
	const char *pattern = opt(o, "pattern");
	const char *hexf = opt(o, "expect-hex");
	const uint8_t *p;
	struct obj *ob;
	u64 i, bad = 0, first = 0;

	if (o->npos != 1)
		return usage_err("dump", "expected one MR");
	ob = find_obj(o->pos[0]);
	if (!ob || ob->kind != OBJ_MR)
		return usage_err("dump", "%s is not registered memory of this session",
				 o->pos[0]);
	if (opt_u64(o, "offset", 0, &off) ||
	    opt_u64(o, "length", ob->mr->length, &len) ||
	    off > ob->mr->length || len > ob->mr->length - off)
		return usage_err("dump", "range outside %s (%zu bytes)",
				 ob->name, ob->mr->length);
	if (!pattern)
		pattern = "offset";
	if (!valid_pattern(pattern) || (expect && parse_u64(expect, &exp)) ||
	    (expect && hexf))
		return usage_err("dump", "bad --pattern or --expect");
	if (hexf && stdin_is_script(hexf))
		return usage_err("dump", "stdin holds the script: give --expect-hex a file");
	p = (const uint8_t *)ob->mr->addr + off;
	if (expect)
		for (i = 0; i < len; i++)
			bad += p[i] != pattern_byte(pattern, exp + i);
	if (hexf) {
		long long r = expect_hex("dump", hexf, p, len, &first);

		if (r < 0)
			return USAGE;
		bad = r;
	}
	if (json) {
		printf("{");
		jstr("cmd", "dump", false);
		jstr("name", ob->name, false);
		jnum("offset", off, false);
		jnum("length", len, false);
		if (expect)
			jnum("expect", exp, false);
		if (expect || hexf)
			jnum("mismatches", bad, false);
		hexdump("data", off, p, len);
		printf("}\n");
	} else {
		if (opt(o, "brief") && len > 32) {
			hexdump(ob->name, off, p, 16);
			printf("%*s...\n", (int)strlen(ob->name) + 1, "");
			hexdump(ob->name, off + len - 16, p + len - 16, 16);
		} else {
			hexdump(ob->name, off, p, len);
		}
		if (expect)
			printf("bytes %llu..%llu -> %s+%llu..%llu: %s (%s pattern)\n",
			       exp, exp + len - 1, ob->name, off,
			       off + len - 1, bad ? "MISMATCH" : "ok", pattern);
		print_hex_result(ob->name, off, len, hexf, bad, first);
	}
	return bad ? EIO : 0;
}

static int do_xfer(const char *cmd, const struct opts *o, bool write)
{
	const char *pattern = opt(o, "pattern");
	const char *expect = opt(o, "expect");
	const char *hexf = write ? NULL : opt(o, "expect-hex");
	u64 off, len, i, exp = 0, bad = 0, first = 0;
	uint32_t key, status = 0, flags = 0;
	int sig_err = 0;
	struct obj *ob;
	uint8_t *buf;
	int ret;

	if (o->npos != 1)
		return usage_err(cmd, "expected one KEY (object name or number)");
	ret = parse_key(o->pos[0], &key, &ob);
	if (ret == -ENOKEY)
		return usage_err(cmd, "%s is a DEK, which has no key", o->pos[0]);
	if (ret)
		return usage_err(cmd, "unknown key %s", o->pos[0]);
	if (opt_u64(o, "offset", 0, &off) || opt_u64(o, "length", 0, &len) ||
	    !len || len > (1U << 30))
		return usage_err(cmd, "--length N (> 0) is required");
	if (!pattern)
		pattern = "offset";
	if (!valid_pattern(pattern) || (expect && parse_u64(expect, &exp)) ||
	    (expect && hexf))
		return usage_err(cmd, "bad --pattern or --expect");
	if ((hexf && stdin_is_script(hexf)) ||
	    (write && opt(o, "data-hex") && stdin_is_script(opt(o, "data-hex"))))
		return usage_err(cmd, "stdin holds the script: give --%s a file",
				 write ? "data-hex" : "expect-hex");
	/* Registered memory is addressed by its user addresses. */
	if (ob && ob->kind == OBJ_MR && !opt(o, "absolute"))
		off += (uintptr_t)ob->mr->addr;
	if (opt(o, "local"))
		flags |= MLX5UMR_XFER_LOCAL;
	if (write)
		flags |= MLX5UMR_XFER_WRITE;
	buf = calloc(1, len);
	if (!buf)
		return report_errno(cmd, ENOMEM, false);
	if (write && opt(o, "data-hex")) {
		static uint8_t data[16384];
		int n = read_hex_file(opt(o, "data-hex"), data, sizeof(data));

		if (n < 0 || (u64)n != len) {
			free(buf);
			return usage_err(cmd, "--data-hex %s: %s", opt(o, "data-hex"),
					 n < 0 ? strerror(-n) :
					 "not as many bytes as --length");
		}
		memcpy(buf, data, len);
		pattern = opt(o, "data-hex");
	} else if (write) {
		for (i = 0; i < len; i++)
			buf[i] = pattern_byte(pattern, i);
	}
	ret = mlx5umr_xfer_sig(ctx, key, off, buf, len, flags, &status,
			       &sig_err, NULL);
	if (ret) {
		free(buf);
		return report_errno(cmd, ret, false);
	}
	if (expect && !write && !status)
		for (i = 0; i < len; i++)
			bad += buf[i] != pattern_byte(pattern, exp + i);
	if (hexf && !status) {
		long long r = expect_hex(cmd, hexf, buf, len, &first);

		if (r < 0) {
			free(buf);
			return USAGE;
		}
		bad = r;
	}
	if (json) {
		printf("{");
		jstr("cmd", cmd, false);
		jnum("key", key, false);
		jnum("offset", off, false);
		jnum("length", len, false);
		if ((expect || hexf) && !write && !status)
			jnum("mismatches", bad, false);
		if (!write && !status)
			hexdump("data", 0, buf, len);
		else
			jstr("pattern", write ? pattern : "", false);
		printf("%s", !write && !status ? "," : "");
		printf("\"sig_error\":%s,", sig_err ? "true" : "false");
		jnum("status", status, true);
		printf("}\n");
	} else if (status) {
		printf("%s 0x%08x: %llu bytes at %llu: completion error, syndrome 0x%x\n",
		       cmd, key, len, off, status);
	} else if (write) {
		printf("write 0x%08x: %llu bytes at offset %llu (pattern %s): ok\n",
		       key, len, off, pattern);
	} else if (opt(o, "brief") && len > 32) {
		hexdump(o->pos[0], off, buf, 16);
		printf("%*s...\n", (int)strlen(o->pos[0]) + 1, "");
		hexdump(o->pos[0], off + len - 16, buf + len - 16, 16);
	} else {
		hexdump(o->pos[0], off, buf, len);
	}
	if (!json && expect && !write && !status)
		printf("read %llu bytes: bytes %llu..%llu of the %s pattern: %s\n",
		       len, exp, exp + len - 1, pattern, bad ? "MISMATCH" : "ok");
	if (!json && !status)
		print_hex_result(o->pos[0], off, len, hexf, bad, first);
	if (!json && sig_err)
		printf("%s 0x%08x: the access completed; %s\n", cmd, key,
		       "a signature check failed (SIG_ERR CQE reported: see check)");
	free(buf);
	return status || bad ? EIO : 0;
}

static int cmd_write(const struct opts *o)
{
	return do_xfer("write", o, true);
}

static int cmd_read(const struct opts *o)
{
	return do_xfer("read", o, false);
}

static const char *const sig_err_names[] = {
	[MLX5DV_MKEY_NO_ERR] = "none",
	[MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD] = "guard",
	[MLX5DV_MKEY_SIG_BLOCK_BAD_REFTAG] = "reftag",
	[MLX5DV_MKEY_SIG_BLOCK_BAD_APPTAG] = "apptag",
};

static const char *sig_err_name(unsigned int type)
{
	return type < ARRAY_SIZE(sig_err_names) ? sig_err_names[type] : "?";
}

/* --expect TYPE[@OFFSET]: does the check's result match? */
static int sig_expect(const char *spec, const struct mlx5dv_mkey_err *e,
		      bool *match)
{
	char buf[64], *at;
	u64 off;

	snprintf(buf, sizeof(buf), "%s", spec);
	at = strchr(buf, '@');
	if (at) {
		*at++ = 0;
		if (parse_u64(at, &off))
			return -EINVAL;
	}
	if (strcmp(buf, "none") && strcmp(buf, "guard") &&
	    strcmp(buf, "reftag") && strcmp(buf, "apptag"))
		return -EINVAL;
	*match = !strcmp(buf, sig_err_name(e->err_type)) &&
		 (!at || (e->err_type != MLX5DV_MKEY_NO_ERR &&
			  e->err.sig.offset == off));
	return 0;
}

static int cmd_check(const struct opts *o)
{
	const char *expect = opt(o, "expect");
	struct mlx5dv_mkey_err e;
	bool match = true;
	struct obj *ob;
	int ret;

	if (o->npos != 1)
		return usage_err("check", "expected one MKEY");
	ob = find_obj(o->pos[0]);
	if (!ob || ob->kind != OBJ_MKEY)
		return usage_err("check", "%s is not an mkey of this session",
				 o->pos[0]);
	if (expect) {
		struct mlx5dv_mkey_err none = { .err_type = MLX5DV_MKEY_NO_ERR };

		if (sig_expect(expect, &none, &match))
			return usage_err("check", "bad --expect '%s'", expect);
	}
	ret = mlx5umr_mkey_check(ob->mk, &e);
	if (ret)
		return report_errno("check", ret, false);
	if (expect)
		sig_expect(expect, &e, &match);
	if (json) {
		printf("{");
		jstr("cmd", "check", false);
		jstr("name", ob->name, false);
		if (expect)
			printf("\"as_expected\":%s,", match ? "true" : "false");
		if (e.err_type != MLX5DV_MKEY_NO_ERR) {
			jnum("expected", e.err.sig.expected_value, false);
			jnum("actual", e.err.sig.actual_value, false);
			jnum("offset", e.err.sig.offset, false);
		}
		jstr("sig_error", sig_err_name(e.err_type), true);
		printf("}\n");
	} else if (e.err_type == MLX5DV_MKEY_NO_ERR) {
		printf("%s: signature ok: no error since the last check\n",
		       ob->name);
	} else {
		printf("%s: signature error: bad %s in the block at offset %llu: ",
		       ob->name, sig_err_name(e.err_type),
		       (u64)e.err.sig.offset);
		printf("expected 0x%llx, actual 0x%llx (check re-armed)\n",
		       (u64)e.err.sig.expected_value,
		       (u64)e.err.sig.actual_value);
	}
	if (!match && !json)
		printf("%s: not the expected %s\n", ob->name, expect);
	return match ? 0 : EIO;
}

static int cmd_poke(const struct opts *o)
{
	u64 off, len, val;
	struct obj *ob;

	if (o->npos != 1)
		return usage_err("poke", "expected one MR");
	ob = find_obj(o->pos[0]);
	if (!ob || ob->kind != OBJ_MR)
		return usage_err("poke", "%s is not registered memory of this session",
				 o->pos[0]);
	if (opt_u64(o, "offset", 0, &off) || opt_u64(o, "length", 1, &len) ||
	    !len || off > ob->mr->length || len > ob->mr->length - off)
		return usage_err("poke", "range outside %s (%zu bytes)",
				 ob->name, ob->mr->length);
	if (!opt(o, "value") || opt_u64(o, "value", 0, &val) || val > 255)
		return usage_err("poke", "--value B (a byte) is required");
	memset((uint8_t *)ob->mr->addr + off, (int)val, len);
	if (json) {
		printf("{");
		jstr("cmd", "poke", false);
		jstr("name", ob->name, false);
		jnum("offset", off, false);
		jnum("length", len, false);
		jnum("value", val, true);
		printf("}\n");
	} else {
		printf("%s+%llu..%llu: set to 0x%02llx by the CPU\n", ob->name,
		       off, off + len - 1, val);
	}
	return 0;
}

static const struct cmd cmds[] = {
	{ "info", cmd_info, "info",
	  "Show the device's capabilities, its object and pin counters and\n"
	  "the objects of this session.\n", "", { NULL } },
	{ "reg", cmd_reg,
	  "reg NAME --length N [--offset O] [--access A] [--fill B]",
	  "Map N bytes of anonymous memory (starting O bytes into the first\n"
	  "page), fill them with byte B (default 0) and register them.\n"
	  "A is a comma list of lw,rw,rr,ra (default lw,rw,rr) or a number.\n",
	  "", { "length", "offset", "access", "fill", NULL } },
	{ "alloc", cmd_alloc,
	  "alloc NAME [--max-entries N] [--remote-invalidate] [--signature] [--crypto]",
	  "Allocate an indirect mkey for up to N entries (default 16).\n"
	  "--signature: a block-signature mkey (configure --sig, check).\n"
	  "--crypto: an AES-XTS crypto mkey (every configure needs --crypto).\n",
	  "remote-invalidate,signature,crypto",
	  { "max-entries", "remote-invalidate", "signature", "crypto", NULL } },
	{ "dek", cmd_dek,
	  "dek NAME --key-file FILE [--key-size 128|256] [--keytag HEX]",
	  "Create an AES-XTS data encryption key (mlx5dv_dek_create) from the\n"
	  "hex bytes in FILE ('-': stdin; whitespace ignored): key1 | key2,\n"
	  "32 bytes for --key-size 128, 64 for 256 (default: 256 for 64 bytes,\n"
	  "else 128; a number below 16 is sent as the raw key_size). Never on\n"
	  "the command line, which every user can read (ps). The key is wiped\n"
	  "in umrctl and in the kernel once the HCA has it; nothing prints it.\n"
	  "--keytag HEX: 8 bytes every configure naming the DEK must give.\n",
	  "", { "key-file", "key-size", "keytag", NULL } },
	{ "configure", cmd_configure,
	  "configure list MKEY [--access A] [--new-key] [--sig SPEC|--reset-sig] [--crypto CSPEC]\n"
	  "                 MR[+OFF]:LEN...\n"
	  "       configure interleaved MKEY --repeat N [--access A] [--new-key] [--sig SPEC|--reset-sig]\n"
	  "                 [--crypto CSPEC] MR[+OFF]:COUNT:SKIP...",
	  "Give MKEY a layout. MR is a registered buffer of this session\n"
	  "(OFF bytes into it) or a raw key number (OFF is then the address).\n"
	  "A list concatenates the entries (mlx5dv_wr_set_mkey_layout_list);\n"
	  "interleaved repeats N cycles of COUNT bytes taken, SKIP skipped\n"
	  "(mlx5dv_wr_set_mkey_layout_interleaved). Access defaults to lw,rw,rr.\n"
	  "--new-key installs a fresh random key byte: the old key is refused.\n"
	  "--sig SPEC gives a signature mkey (alloc --signature) a block\n"
	  "signature (mlx5dv_wr_set_mkey_sig_block), --reset-sig drops it;\n"
	  "without either the mkey keeps its signature. SPEC is a comma list:\n"
	  "  mem=TYPE,wire=TYPE   each domain's protection: none, t10dif\n"
	  "                       (= t10dif:crc), t10dif:csum, crc32, crc32c,\n"
	  "                       crc64 (memory: the layout's buffers; wire:\n"
	  "                       what a peer reads or writes through the key)\n"
	  "  bs=N                 data bytes per block: 512 (default), 520,\n"
	  "                       4048, 4096, 4160\n"
	  "  app=A,ref=R,bg=S     T10-DIF application tag, reference tag of the\n"
	  "                       first block, guard seed 0 (default) or 0xffff\n"
	  "  remap,app-escape,app-ref-escape   T10-DIF flags\n"
	  "  seed=0|ones          CRC seed (default ones)\n"
	  "  check=M,copy=M       check mask (default 0xff), copy mask\n"
	  "A parameter applies to each domain of its type; prefix it with mem.\n"
	  "or wire. for one domain (wire.ref=9). Example:\n"
	  "  --sig mem=t10dif:crc,wire=none,app=0x1234,ref=7,remap\n"
	  "--crypto CSPEC gives a crypto mkey (alloc --crypto) its AES-XTS\n"
	  "attributes (mlx5dv_wr_set_mkey_crypto), on every configure of it.\n"
	  "CSPEC is a comma list:\n"
	  "  dek=NAME             the DEK (dek NAME ...; or a raw handle)\n"
	  "  encrypt-on-tx        memory holds plaintext, the wire ciphertext;\n"
	  "                       without it memory holds ciphertext\n"
	  "  dus=N                data unit bytes: 512 (default), 520, 4048,\n"
	  "                       4096, 4160 (below 16: the raw enum value)\n"
	  "  tweak=N              first data unit's tweak, a 64-bit number\n"
	  "                       (default 0): the low 8 bytes, little endian,\n"
	  "                       of the 16-byte tweak\n"
	  "  tweak-bytes=HEX      the 16 tweak bytes as given (for more)\n"
	  "  keytag=HEX           the DEK's 8-byte keytag\n"
	  "  order=after|before   signature after (default) or before crypto\n"
	  "                       on transmit, with --sig on an mkey of both\n"
	  "  aes-xts, standard=N  the standard (AES-XTS, the default)\n"
	  "Example: --crypto dek=d,dus=512,tweak=0\n",
	  "new-key,reset-sig",
	  { "access", "repeat", "new-key", "sig", "reset-sig", "crypto",
	    NULL } },
	{ "invalidate", cmd_invalidate, "invalidate MKEY [--new-key]",
	  "Move MKEY back to the free state; accesses through it then fail.\n"
	  "--new-key also installs a fresh random key byte.\n",
	  "new-key", { "new-key", NULL } },
	{ "set-pd", cmd_set_pd, "set-pd PDN",
	  "Put this session's registrations and mkeys in PD PDN, the caller's\n"
	  "own verbs PD (struct mlx5dv_pd.pdn), so that its QPs can use their\n"
	  "keys. Before the session's first reg or alloc.\n",
	  "", { NULL } },
	{ "check", cmd_check, "check MKEY [--expect TYPE[@OFFSET]]",
	  "Read and clear the signature status of a signature mkey\n"
	  "(mlx5dv_mkey_check): the first error since the last check, its\n"
	  "type (guard, reftag, apptag), expected and actual value and the\n"
	  "offset of the failing block; the HCA's check is re-armed. With\n"
	  "--expect none|guard|reftag|apptag[@OFFSET], fail (EIO) unless the\n"
	  "result is that.\n",
	  "", { "expect", NULL } },
	{ "destroy", cmd_destroy, "destroy NAME",
	  "Destroy an object (deregister memory, free an mkey, destroy a DEK).\n",
	  "", { NULL } },
	{ "dump", cmd_dump,
	  "dump MR [--offset O] [--length N] [--expect S [--pattern P] | --expect-hex FILE] [--brief]",
	  "Hex dump of registered memory as the CPU sees it. With --expect,\n"
	  "check that the bytes are bytes S.. of pattern P (default offset)\n"
	  "and fail (EIO) on a mismatch; with --expect-hex, that they are the\n"
	  "N bytes FILE holds in hex ('-': stdin; whitespace ignored).\n"
	  "--brief shows the first and last line.\n",
	  "brief", { "offset", "length", "expect", "pattern", "brief",
		     "expect-hex", NULL } },
	{ "poke", cmd_poke, "poke MR --value B [--offset O] [--length N]",
	  "Set N bytes (default 1) of registered memory to B as the CPU, for\n"
	  "instance to corrupt data or protection information in memory.\n",
	  "", { "value", "offset", "length", NULL } },
	{ "write", cmd_write,
	  "write KEY --length N [--offset O] [--pattern P | --data-hex FILE] [--local] [--absolute]",
	  "Fake HCAs of a test build of the module (MLX5_UMR_TESTING=1): RDMA\n"
	  "WRITE N bytes at offset O through KEY as a remote peer (--local:\n"
	  "through the lkey). P: offset (each 4-byte word holds\n"
	  "its offset in the transfer, big endian; default), inc, or a byte.\n"
	  "--data-hex FILE writes the N bytes FILE holds in hex instead.\n"
	  "KEY: an MR or mkey of this session, or a raw key number (a DEK has\n"
	  "no key). For registered memory O is relative to the buffer unless\n"
	  "--absolute.\n"
	  "Through a signature mkey O and N are in the wire view, whole blocks.\n",
	  "local,absolute",
	  { "length", "offset", "pattern", "local", "absolute", "data-hex",
	    NULL } },
	{ "read", cmd_read,
	  "read KEY --length N [--offset O] [--local] [--absolute] [--expect S [--pattern P] | --expect-hex FILE]\n"
	  "          [--brief]",
	  "Fake HCAs of a test build of the module: RDMA READ N bytes at\n"
	  "offset O through KEY and dump them. With --expect, check that they\n"
	  "are bytes S.. of pattern P (default offset) and fail (EIO) on a\n"
	  "mismatch, with --expect-hex that they are those of FILE (as dump);\n"
	  "--brief shows the first and last line.\n"
	  "Through a signature mkey O and N are in the wire view, whole blocks;\n"
	  "a failed signature check does not fail the read (see check).\n",
	  "local,absolute,brief",
	  { "length", "offset", "local", "absolute", "expect", "pattern",
	    "brief", "expect-hex", NULL } },
};

static void print_usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: umrctl [-d DEV] [-j] [-b FILE] COMMAND [ARGS]\n"
		"  -d DEV   device name under /dev/mlx5_umr or a path (default: the first)\n"
		"  -j       JSON output, one object per command\n"
		"  -b FILE  run commands from FILE ('-' = stdin), one per line, on one\n"
		"           open file; a line starting with '!' must fail (it prints the\n"
		"           errno and counts as success), '#' starts a comment;\n"
		"           consecutive configure/invalidate lines are posted as one\n"
		"           batch (MLX5_UMR_IOCTL_BATCH), their output printed in order\n"
		"           (lines with --sig, --reset-sig or --crypto run alone)\n"
		"Objects live until destroyed or until umrctl exits.\n"
		"commands:\n");
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(f, "  %s\n", cmds[i].usage);
	fprintf(f, "'umrctl COMMAND --help' describes one command.\n");
}

static const struct cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

static int ensure_open(void)
{
	if (ctx)
		return 0;
	ctx = mlx5umr_open(dev_name);
	if (!ctx) {
		int err = errno;

		fprintf(stderr, "umrctl: cannot open %s: %s\n",
			dev_name ? dev_name : "/dev/mlx5_umr/*", strerror(err));
		return err ? err : ENODEV;
	}
	return 0;
}

/* Returns 0, an errno value, or USAGE. */
static int run(int argc, char **argv, bool must_fail)
{
	const struct cmd *c;
	struct opts o;
	int ret;

	if (!strcmp(argv[0], "help")) {
		if (argc > 1 && find_cmd(argv[1])) {
			c = find_cmd(argv[1]);
			printf("usage: umrctl %s\n\n%s", c->usage, c->help);
		} else {
			print_usage(stdout);
		}
		return 0;
	}
	c = find_cmd(argv[0]);
	if (!c) {
		fprintf(stderr, "umrctl: unknown command '%s'\n", argv[0]);
		print_usage(stderr);
		return USAGE;
	}
	if (parse_opts(argc, argv, c->flags, &o))
		return usage_err(c->name, "bad options");
	if (o.help) {
		printf("usage: umrctl %s\n\n%s", c->usage, c->help);
		return 0;
	}
	ret = check_opts(c->name, &o, c->opts);
	if (ret)
		return ret;
	ret = ensure_open();
	if (ret)
		return ret;
	if (!must_fail)
		return c->fn(&o);

	/* An expected failure: report its errno instead of the error. */
	expect_fail = true;
	ret = c->fn(&o);
	expect_fail = false;
	if (ret == USAGE)
		return ret;
	if (!ret) {
		fprintf(stderr, "umrctl: %s: succeeded but was expected to fail\n",
			c->name);
		return USAGE;
	}
	report_errno(c->name, ret, true);
	return 0;
}

static int split_words(char *p, char **argv)
{
	int argc = 0;

	for (p = strtok(p, " \t\r\n"); p && argc < MAX_ARGS;
	     p = strtok(NULL, " \t\r\n"))
		argv[argc++] = p;
	return argc;
}

/* Post the gathered lines and print their output; 0 or what failed. */
static int flush_deferred(const char *path)
{
	uint32_t index;
	int i, n = ndeferred, ret = 0, st;

	if (!n)
		return 0;
	ndeferred = 0;
	if (mlx5umr_batch_submit(ubatch, &index)) {
		/* Nothing was applied: run them one by one. */
		for (i = 0; i < n && !ret; i++) {
			struct deferred *d = &deferred[i];
			char *argv[MAX_ARGS];

			printf("%s", d->echo);
			ret = run(split_words(d->args, argv), argv, false);
			if (ret)
				fprintf(stderr, "umrctl: %s:%d: failed\n", path,
					d->lineno);
		}
		return ret;
	}
	for (i = 0; i < n; i++) {
		struct deferred *d = &deferred[i];

		printf("%s", d->echo);
		st = mlx5umr_batch_status(ubatch, i);
		if (st) {
			report_errno(d->inval ? "invalidate" : "configure", st,
				     false);
			fprintf(stderr, "umrctl: %s:%d: failed\n", path,
				d->lineno);
			return st;
		}
		if (d->inval)
			print_invalidated(d->ob);
		else
			print_configured(d->ob, d->list, d->access, d->repeat,
					 d->n, NULL, NULL);
	}
	return 0;
}

/* May the line be gathered into a batch? Creates the batch on first use. */
static bool batchable(int argc, char **argv, bool must_fail)
{
	int i;

	if (must_fail || batch_off ||
	    (strcmp(argv[0], "configure") && strcmp(argv[0], "invalidate")))
		return false;
	/* a batch request sets no signature: run those lines alone */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") ||
		    !strcmp(argv[i], "--sig") || !strcmp(argv[i], "--reset-sig") ||
		    !strcmp(argv[i], "--crypto"))
			return false;
	if (!ubatch) {
		if (ensure_open())
			return false;
		ubatch = mlx5umr_batch_create(ctx);
		deferred = calloc(MAX_DEFERRED, sizeof(*deferred));
		cur_def = calloc(1, sizeof(*cur_def));
		if (!ubatch || !deferred || !cur_def) {
			batch_off = true;
			return false;
		}
	}
	return true;
}

/* Run one line gathered into the batch; DEFER_RETRY handled. */
static int run_deferred(const char *path, int argc, char **argv,
			const char *echo, int lineno)
{
	int i, ret;
	size_t len = 0;

	snprintf(cur_def->echo, sizeof(cur_def->echo), "%s", echo);
	cur_def->args[0] = 0;
	for (i = 0; i < argc && len < sizeof(cur_def->args); i++)
		len += snprintf(cur_def->args + len, sizeof(cur_def->args) - len,
				"%s ", argv[i]);
	cur_def->lineno = lineno;
	if (ndeferred == MAX_DEFERRED && flush_deferred(path))
		return -1;
	deferring = true;
	ret = run(argc, argv, false);
	if (ret == DEFER_RETRY) {
		ret = flush_deferred(path);
		if (ret) {
			deferring = false;
			return -1;	/* reported by the flush */
		}
		ret = run(argc, argv, false);
	}
	deferring = false;
	if (!ret)
		return 0;
	/* What came before it is done first, then this line fails. */
	if (flush_deferred(path))
		return -1;
	printf("%s", echo);
	return ret;
}

static int run_batch(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char line[4096], echo[4200];
	int lineno = 0, ret = 0;

	if (!f) {
		fprintf(stderr, "umrctl: %s: %s\n", path, strerror(errno));
		return errno;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		char *argv[MAX_ARGS], *p = line, *hash;
		bool must_fail = false;
		size_t len = 0;
		int argc, i;

		lineno++;
		hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '!') {
			must_fail = true;
			p++;
		}
		argc = split_words(p, argv);
		if (!argc)
			continue;
		echo[0] = 0;
		if (!json) {
			len = snprintf(echo, sizeof(echo), "%s",
				       must_fail ? "# ! " : "# ");
			for (i = 0; i < argc && len < sizeof(echo); i++)
				len += snprintf(echo + len, sizeof(echo) - len,
						"%s%s", argv[i],
						i + 1 < argc ? " " : "\n");
		}
		if (batchable(argc, argv, must_fail)) {
			ret = run_deferred(path, argc, argv, echo, lineno);
		} else {
			ret = flush_deferred(path);
			if (ret)
				break;
			printf("%s", echo);
			fflush(stdout);
			ret = run(argc, argv, must_fail);
		}
		fflush(stdout);
		if (ret > 0)
			fprintf(stderr, "umrctl: %s:%d: failed\n", path, lineno);
	}
	if (!ret)
		ret = flush_deferred(path);
	fflush(stdout);
	if (f != stdin)
		fclose(f);
	return ret < 0 ? 1 : ret;
}

int main(int argc, char **argv)
{
	const char *batch = NULL;
	int i = 1, ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (i < argc && argv[i][0] == '-') {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_usage(stdout);
			return 0;
		}
		if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			json = true;
			i++;
			continue;
		}
		if (i + 1 < argc && !strcmp(a, "-d"))
			dev_name = argv[i + 1];
		else if (i + 1 < argc && !strcmp(a, "-b"))
			batch = argv[i + 1];
		else
			break;
		i += 2;
	}
	if (i < argc && argv[i][0] == '-') {
		print_usage(stderr);
		return 2;
	}
	if (batch) {
		if (i != argc) {
			print_usage(stderr);
			return 2;
		}
		script_on_stdin = !strcmp(batch, "-");
		ret = run_batch(batch);
	} else {
		if (i == argc) {
			print_usage(stderr);
			return 2;
		}
		ret = run(argc - i, argv + i, false);
	}
	mlx5umr_batch_destroy(ubatch);
	free(deferred);
	free(cur_def);
	if (ctx)
		mlx5umr_close(ctx);
	return ret == USAGE ? 2 : ret ? 1 : 0;
}
