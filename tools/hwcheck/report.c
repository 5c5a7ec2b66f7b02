// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hwcheck's results: the current check's outcome, the service's kernel log
 * lines since the start (for a failure), and the JSON report.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/utsname.h>
#include "hwcheck.h"

double boot_seconds(void)
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
char *klog_since_start(void)
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

struct hc_check *hc_cur;

void fail(const char *fmt, ...)
{
	va_list ap;

	if (hc_cur->result == HC_FAIL)
		return;		/* the first reason counts */
	hc_cur->result = HC_FAIL;
	va_start(ap, fmt);
	vsnprintf(hc_cur->detail, sizeof(hc_cur->detail), fmt, ap);
	va_end(ap);
}

void skip(const char *fmt, ...)
{
	va_list ap;

	hc_cur->result = HC_SKIP;
	va_start(ap, fmt);
	vsnprintf(hc_cur->detail, sizeof(hc_cur->detail), fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	if (hc_cur->result != HC_PASS)
		return;
	va_start(ap, fmt);
	vsnprintf(hc_cur->detail, sizeof(hc_cur->detail), fmt, ap);
	va_end(ap);
}

void fail_err(const char *what, int err)
{
	hc_cur->err = err;
	fail("%s: %s (%s)", what, strerror(err),
	     mlx5umr_errno_name(err) ? mlx5umr_errno_name(err) : "?");
}

void fail_wc(const char *what, const struct hc_wc *wc)
{
	hc_cur->have_wc = 1;
	hc_cur->wc = *wc;
	if (!wc->posted)
		fail("%s: not completed: %s", what, strerror(wc->err));
	else
		fail("%s: %s (status %d, vendor_err 0x%x)", what,
		     ibv_wc_status_str(wc->status), wc->status,
		     wc->vendor_err);
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

int write_json(const char *path, int p, int f, int s, const char *why)
{
	struct utsname u;
	FILE *o = fopen(path, "w");
	unsigned int i;

	if (!o)
		return -1;
	uname(&u);
	fprintf(o, "{\n  \"tool\": \"mlx5-umr hwcheck\",\n  \"format\": 1,\n");
	fprintf(o, "  \"mode\": \"%s\",\n",
		H.rxe ? "rxe" : H.fake_mode ? "fake" : "mlx5");
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
		fprintf(o, ", \"flags\": \"0x%x\", \"crypto\": %s", in->out_flags,
			in->out_flags & MLX5_UMR_IOC_INFO_CRYPTO ? "true" : "false");
		fprintf(o, ", \"crypto_key_sizes\": \"0x%x\"",
			in->out_crypto_key_sizes);
		fprintf(o, ", \"crypto_data_unit_sizes\": \"0x%x\"",
			in->out_crypto_data_unit_sizes);
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
