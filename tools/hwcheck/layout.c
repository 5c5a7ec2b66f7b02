// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The byte model of a layout, as mlx5dv_wr_mkey_configure(3) defines it:
 * a list places its entries one after another; an interleaved layout
 * places count bytes of each entry in turn, repeat times, each entry
 * advancing by count + skip per repetition. The checker compares memory
 * with this model, and the rxe mode uses it to translate a key's offsets.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <stdlib.h>
#include <stdio.h>
#include "hwcheck.h"

uint64_t hc_layout_length(const struct hc_layout *l)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < l->n; i++)
		sum += l->e[i].count;
	return sum * (l->interleaved ? l->repeat : 1);
}

struct hc_seg *hc_layout_segs(const struct hc_layout *l, size_t *nsegs)
{
	uint32_t reps = l->interleaved ? l->repeat : 1, r, i;
	size_t n = (size_t)reps * l->n, k = 0;
	struct hc_seg *s = calloc(n ? n : 1, sizeof(*s));
	uint64_t off = 0;

	if (!s)
		return NULL;
	for (r = 0; r < reps; r++) {
		for (i = 0; i < l->n; i++) {
			const struct hc_ent *e = &l->e[i];

			if (!e->count)
				continue;
			s[k].off = off;
			s[k].len = e->count;
			s[k].reg = e->reg;
			s[k].reg_off = e->off + (size_t)r * (e->count + e->skip);
			off += e->count;
			k++;
		}
	}
	*nsegs = k;
	return s;
}
