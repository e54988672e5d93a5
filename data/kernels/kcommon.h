/*
 * kcommon.h — shared start-up, argument parsing and output for the teaching
 * micro-kernels (data/kernels/k*.S). Included once, at the top, by each
 * kernel after it has defined:
 *
 *   KERNEL_NAME   "k3_long_dmiss"            printed first on the output line
 *   KERNEL_MODES  "miss nomiss"              accepted first arguments; the
 *                                            first is the default
 *   DEFAULT_REPS  100                        measured repetitions by default
 *   TEST_REPS     2                          what the tests pass (MANIFEST)
 *
 * Command line:   KERNEL [MODE [REPS]]      REPS in 1..MAX_REPS (2000)
 *
 * _start parses the arguments, then jumps to the kernel's `kernel_main`
 * with
 *     x19 = index of MODE in KERNEL_MODES (0 = first = default)
 *     x20 = REPS
 *     x28 = a constant that the padding reads and nothing writes
 * Bad arguments print a usage line on stderr and exit with status 2.
 * kernel_main ends by calling k_header (prints "NAME MODE reps=R"), then
 * k_puts/k_putu for its event counts, then branching to k_exit, which adds
 * the newline, writes the line and exits with status 0.
 *
 * Nothing here runs inside a kernel's measured loop; the helpers use the
 * stack and x0-x17 freely.
 */
#ifndef IVX_KCOMMON_H
#define IVX_KCOMMON_H

#define MAX_REPS 2000          /* the D-cache kernels have 4032 cold lines */

#define SYS_write      64
#define SYS_exit_group 94

/* PAD n: n (a multiple of 8) independent single-cycle ALU instructions.
 * Each reads only x28, which is loop invariant, and writes one of eight
 * scratch registers, so there are no true dependences among them or on
 * anything else: a 4-wide core runs them at 4 per cycle. */
	.macro PAD n
	.rept (\n) / 8
	add	x9, x28, #1
	add	x10, x28, #2
	add	x11, x28, #3
	add	x12, x28, #4
	add	x13, x28, #5
	add	x14, x28, #6
	add	x15, x28, #7
	add	x17, x28, #8
	.endr
	.endm

	.section .rodata
k_modes:
	.asciz	KERNEL_MODES
k_name:
	.asciz	KERNEL_NAME
k_reps_eq:
	.asciz	"reps="
k_usage:
	.ascii	"usage: ", KERNEL_NAME, " [", KERNEL_MODES, "] [reps 1..2000]\n"
k_usage_end:

	.bss
	.balign	8
k_mode_str:	.skip	8        /* the mode word as given (or the default) */
k_out_len:	.skip	8
k_out:		.skip	256      /* the one output line */

	.text
	.globl	_start
	.type	_start, %function
	.p2align 6
_start:
	ldr	x22, [sp]               /* argc */
	add	x23, sp, #8             /* argv */
	mov	x19, #0
	mov	x20, #DEFAULT_REPS
	adrp	x0, k_modes
	add	x0, x0, :lo12:k_modes
	adrp	x1, k_mode_str
	str	x0, [x1, :lo12:k_mode_str]
	cmp	x22, #3
	b.hi	k_usage_exit
	cmp	x22, #2
	b.lo	1f
	ldr	x0, [x23, #8]
	adrp	x1, k_mode_str
	str	x0, [x1, :lo12:k_mode_str]
	bl	k_mode_index
	tbnz	x0, #63, k_usage_exit
	mov	x19, x0
	cmp	x22, #3
	b.ne	1f
	ldr	x0, [x23, #16]
	bl	k_parse_reps
	cbz	x0, k_usage_exit
	mov	x20, x0
1:	movz	x28, #0x4b1d
	b	kernel_main
	.size	_start, . - _start

/* x0 = argument string -> x0 = its index in k_modes, or -1. */
	.type	k_mode_index, %function
k_mode_index:
	adrp	x1, k_modes
	add	x1, x1, :lo12:k_modes   /* p: current word */
	mov	x2, #0                  /* index */
2:	mov	x3, x0                  /* q: argument */
3:	ldrb	w4, [x1]
	ldrb	w5, [x3]
	cmp	w4, #' '
	b.eq	4f
	cbz	w4, 4f
	cmp	w4, w5
	b.ne	5f
	add	x1, x1, #1
	add	x3, x3, #1
	b	3b
4:	cbnz	w5, 5f                  /* word ended: match if the argument did */
	mov	x0, x2
	ret
5:	ldrb	w4, [x1]                /* skip to the end of this word */
	cbz	w4, 6f
	add	x1, x1, #1
	cmp	w4, #' '
	b.ne	5b
	add	x2, x2, #1
	b	2b
6:	mov	x0, #-1
	ret
	.size	k_mode_index, . - k_mode_index

/* x0 = decimal string -> x0 = value in 1..MAX_REPS, or 0 if invalid. */
	.type	k_parse_reps, %function
k_parse_reps:
	mov	x1, x0
	mov	x0, #0
	ldrb	w2, [x1]
	cbz	w2, 9f
7:	ldrb	w2, [x1], #1
	cbz	w2, 8f
	sub	w2, w2, #'0'
	cmp	w2, #9
	b.hi	9f
	mov	x3, #10
	madd	x0, x0, x3, x2
	movz	x3, #(MAX_REPS & 0xffff)
	movk	x3, #(MAX_REPS >> 16), lsl #16
	cmp	x0, x3
	b.hi	9f
	b	7b
8:	ret
9:	mov	x0, #0
	ret
	.size	k_parse_reps, . - k_parse_reps

/* Append the NUL- or space-terminated string at x0 to the output line. */
	.type	k_puts, %function
k_puts:
	adrp	x1, k_out_len
	add	x1, x1, :lo12:k_out_len
	ldr	x2, [x1]
	add	x3, x1, #8              /* k_out follows k_out_len */
10:	ldrb	w4, [x0], #1
	cbz	w4, 11f
	cmp	w4, #' '
	b.eq	11f
	cmp	x2, #255
	b.hs	11f
	strb	w4, [x3, x2]
	add	x2, x2, #1
	b	10b
11:	str	x2, [x1]
	ret
	.size	k_puts, . - k_puts

/* Append one character x0. */
	.type	k_putc, %function
k_putc:
	adrp	x1, k_out_len
	add	x1, x1, :lo12:k_out_len
	ldr	x2, [x1]
	cmp	x2, #255
	b.hs	12f
	add	x3, x1, #8
	strb	w0, [x3, x2]
	add	x2, x2, #1
	str	x2, [x1]
12:	ret
	.size	k_putc, . - k_putc

/* Append x0 in decimal. */
	.type	k_putu, %function
k_putu:
	stp	x29, x30, [sp, #-48]!
	mov	x29, sp
	add	x5, sp, #47             /* digits, written backwards */
	strb	wzr, [x5]
	mov	x6, #10
13:	udiv	x7, x0, x6
	msub	x8, x7, x6, x0
	add	x8, x8, #'0'
	strb	w8, [x5, #-1]!
	mov	x0, x7
	cbnz	x0, 13b
	mov	x0, x5
	bl	k_puts
	ldp	x29, x30, [sp], #48
	ret
	.size	k_putu, . - k_putu

/* Append "NAME MODE reps=R" with R = x20 (k_puts stops at a space, so
 * the mode word prints alone even though it points into KERNEL_MODES). */
	.type	k_header, %function
k_header:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x0, k_name
	add	x0, x0, :lo12:k_name
	bl	k_puts
	mov	x0, #' '
	bl	k_putc
	adrp	x0, k_mode_str
	ldr	x0, [x0, :lo12:k_mode_str]
	bl	k_puts
	adrp	x0, k_reps_eq
	add	x0, x0, :lo12:k_reps_eq
	mov	x1, x20
	bl	k_putkv
	ldp	x29, x30, [sp], #16
	ret
	.size	k_header, . - k_header

/* Append " KEY=" (x0 = "KEY=") and the value x1. */
	.type	k_putkv, %function
k_putkv:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	stp	x0, x1, [sp, #16]
	mov	x0, #' '
	bl	k_putc
	ldr	x0, [sp, #16]
	bl	k_puts
	ldr	x0, [sp, #24]
	bl	k_putu
	ldp	x29, x30, [sp], #32
	ret
	.size	k_putkv, . - k_putkv

/* Finish the line, write it to stdout, exit 0. */
	.type	k_exit, %function
k_exit:
	mov	x0, #'\n'
	bl	k_putc
	mov	x0, #1
	adrp	x1, k_out
	add	x1, x1, :lo12:k_out
	adrp	x2, k_out_len
	ldr	x2, [x2, :lo12:k_out_len]
	mov	x8, #SYS_write
	svc	#0
	mov	x0, #0
	mov	x8, #SYS_exit_group
	svc	#0
	.size	k_exit, . - k_exit

	.type	k_usage_exit, %function
k_usage_exit:
	mov	x0, #2
	adrp	x1, k_usage
	add	x1, x1, :lo12:k_usage
	mov	x2, #(k_usage_end - k_usage)
	mov	x8, #SYS_write
	svc	#0
	mov	x0, #2
	mov	x8, #SYS_exit_group
	svc	#0
	.size	k_usage_exit, . - k_usage_exit

	.section .note.GNU-stack, "", %progbits

#endif
