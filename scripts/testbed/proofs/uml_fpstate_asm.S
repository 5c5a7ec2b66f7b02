/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The register half of uml_fpstate.c: load every vector register from
 * @in, make @iters sched_yield() system calls, optionally change one
 * register (@bad), store every register to @out. Nothing between load and
 * store runs in user space but this loop, so whatever changes was changed
 * by the kernel. SysV ABI: rdi = in, rsi = out, edx = iters, ecx = bad;
 * only caller-saved registers are used. in/out layout: 32 x 64 bytes of
 * vector registers, then 8 x 8 bytes of opmask registers.
 */
#include <sys/syscall.h>

	.text

	.macro yield_loop
	mov	%ecx, %r8d		/* syscall clobbers rcx and r11 */
	mov	%edx, %r9d
1:	mov	$SYS_sched_yield, %eax
	syscall
	dec	%r9d
	jnz	1b
	.endm

/* void fp_run_avx512(const void *in, void *out, int iters, int bad) */
	.globl	fp_run_avx512
	.type	fp_run_avx512, @function
fp_run_avx512:
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vmovdqu64 \n*64(%rdi), %zmm\n
	.endr
	.irp	n, 0,1,2,3,4,5,6,7
	kmovq	\n*8+2048(%rdi), %k\n
	.endr
	yield_loop
	test	%r8d, %r8d
	jz	2f
	vpxorq	%zmm3, %zmm3, %zmm3
2:
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vmovdqu64 %zmm\n, \n*64(%rsi)
	.endr
	.irp	n, 0,1,2,3,4,5,6,7
	kmovq	%k\n, \n*8+2048(%rsi)
	.endr
	vzeroupper
	ret
	.size	fp_run_avx512, .-fp_run_avx512

/* void fp_run_avx(const void *in, void *out, int iters, int bad) */
	.globl	fp_run_avx
	.type	fp_run_avx, @function
fp_run_avx:
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	vmovdqu	\n*64(%rdi), %ymm\n
	.endr
	yield_loop
	test	%r8d, %r8d
	jz	2f
	vpxor	%ymm3, %ymm3, %ymm3
2:
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	vmovdqu	%ymm\n, \n*64(%rsi)
	.endr
	vzeroupper
	ret
	.size	fp_run_avx, .-fp_run_avx

	.section .note.GNU-stack, "", @progbits
