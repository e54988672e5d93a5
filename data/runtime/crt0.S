/*
 * crt0.S — process entry for the ivx guest runtime.
 *
 * Linux starts a static ELF at _start with SP pointing at
 *     argc, argv[0..argc-1], NULL, envp[...], NULL, auxv pairs...
 * and SP 16-byte aligned. We clear the frame pointer and link register so
 * backtraces stop here, and hand the stack pointer to __rt_start (start.c),
 * which decodes it, runs main and never returns.
 */
	.text
	.globl	_start
	.type	_start, %function
	.p2align 2
_start:
	mov	x29, xzr
	mov	x30, xzr
	mov	x0, sp
	bl	__rt_start
	/* not reached: __rt_start ends in exit_group */
	udf	#0
	.size	_start, . - _start

	.section .note.GNU-stack, "", %progbits
