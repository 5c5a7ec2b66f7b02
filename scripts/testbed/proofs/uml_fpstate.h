/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* uml_fpstate.c's view of uml_fpstate_asm.S. */
#ifndef UML_FPSTATE_H
#define UML_FPSTATE_H

#define ZREGS 32
#define KREGS 8
#define YREGS 16

/* The layout the assembly loads from and stores to. */
struct state {
	unsigned char z[ZREGS][64];
	unsigned long long k[KREGS];
};

void fp_run_avx512(const struct state *in, struct state *out, int iters, int bad);
void fp_run_avx(const struct state *in, struct state *out, int iters, int bad);

#endif
