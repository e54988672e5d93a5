/*
 * kicopy.h — code placement for the I-cache kernels (k1, k6).
 *
 * The default L1 I-cache is 8 KB, direct mapped, 64-byte lines: two code
 * addresses conflict exactly when they are equal modulo 8 KB. A kernel's
 * loop is emitted twice by its own macro, each copy in a 16 KB-aligned
 * section laid out as
 *
 *     offset 0          the loop (must end before X_OFF; .org checks it)
 *     offset X_OFF      function X: 15 ALU + ret, one line
 *     offset E_OFF      function E: 15 ALU + ret, one line
 *
 * with E_OFF = X_OFF + 8 KB in the "conflict" copy (E and X share a set, so
 * calling both each repetition makes each miss, L2 hits) and X_OFF + 9 KB in
 * the "apart" copy (E's set is used by nothing else: both always hit after
 * the first repetition). The two copies are the same instructions; only the
 * placement differs. The mode chooses a copy once, before the loop, by an
 * indirect branch that is cold in either case.
 */
#ifndef IVX_KICOPY_H
#define IVX_KICOPY_H

#define X_OFF        6144
#define E_OFF_CONFLICT (X_OFF + 8192)
#define E_OFF_APART    (X_OFF + 1024 + 8192)

/* FPAD g: g groups of two independent ALU instructions and a taken branch
 * to the next group (3g instructions). A taken branch ends a fetch block,
 * so fetch delivers 3 per cycle, less than the 4 dispatch takes: the
 * fetch buffer, filled by straight-line code (fetch is 8 wide), drains
 * (1 per cycle) and is empty when the next I-cache miss comes, which is
 * the steady state interval analysis assumes. With a full buffer the
 * buffered instructions would hide part of the miss. The kernels put it
 * right before each miss. */
	.macro	FPAD g
	.rept	\g
	add	x9, x28, #1
	add	x10, x28, #2
	b	.+4
	.endr
	.endm

/* A one-line leaf function: 15 independent ALU instructions and ret. */
	.macro	LINE_FN
	PAD	8
	add	x9, x28, #9
	add	x10, x28, #10
	add	x11, x28, #11
	add	x12, x28, #12
	add	x13, x28, #13
	add	x14, x28, #14
	add	x15, x28, #15
	ret
	.endm

#endif
