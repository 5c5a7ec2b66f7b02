// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Do user processes keep their vector state across system calls and
 * context switches? Run by the UML preflight (uml-preflight-init.sh): UML
 * saves and restores a process's FPU state through ptrace on every kernel
 * entry, and a host it does not fit (AMX) used to break exactly this.
 *
 * NPROC processes each load their own pattern into every vector register
 * of the widest set the CPU has (zmm0-31 and k0-7, else ymm0-15), make
 * ITERS sched_yield() system calls with nothing else in between (in
 * uml_fpstate_asm.S), store the registers and compare.
 * "--corrupt" changes one register between load and store: the runner
 * proofs use it to show that a lost register is reported.
 *
 *   uml_fpstate [--corrupt]   exit 0 and "fpstate: ok ..." or exit 1
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uml_fpstate.h"

#define NPROC 3
#define ITERS 2000

static int check(int id, int wide, int bad)
{
	static struct state in, out;
	size_t vlen = wide ? 64 : 32, nv = wide ? ZREGS : YREGS;
	size_t r, b;

	for (r = 0; r < ZREGS; r++)
		for (b = 0; b < 64; b++)
			in.z[r][b] = (unsigned char)(id * 97 + r * 31 + b * 7 + 1);
	for (r = 0; r < KREGS; r++)
		in.k[r] = 0x0123456789abcdefULL * (id + 1) + r;
	memset(&out, 0, sizeof(out));
	if (wide)
		fp_run_avx512(&in, &out, ITERS, bad);
	else
		fp_run_avx(&in, &out, ITERS, bad);
	for (r = 0; r < nv; r++)
		if (memcmp(in.z[r], out.z[r], vlen)) {
			printf("fpstate: process %d lost %cmm%zu\n", id,
			       wide ? 'z' : 'y', r);
			return 1;
		}
	for (r = 0; wide && r < KREGS; r++)
		if (in.k[r] != out.k[r]) {
			printf("fpstate: process %d lost k%zu\n", id, r);
			return 1;
		}
	return 0;
}

int main(int argc, char **argv)
{
	int bad = argc > 1 && !strcmp(argv[1], "--corrupt");
	int wide, i, status, failed = 0;

	__builtin_cpu_init();
	wide = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
	if (!wide && !__builtin_cpu_supports("avx2")) {
		printf("fpstate: no AVX2 on this CPU, nothing to check\n");
		return 1;
	}
	for (i = 0; i < NPROC; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			status = check(i, wide, bad && i == 1);
			fflush(stdout);
			_exit(status);
		}
	}
	for (i = 0; i < NPROC; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	if (failed) {
		printf("fpstate: %d of %d processes lost vector state\n", failed, NPROC);
		return 1;
	}
	printf("fpstate: ok, %d processes x %d system calls kept %s\n", NPROC,
	       ITERS, wide ? "zmm0-31 and k0-7" : "ymm0-15");
	return 0;
}
