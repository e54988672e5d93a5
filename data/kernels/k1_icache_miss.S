/*
 * k1_icache_miss.S — isolated L1 I-cache misses (L2 hits), two per
 * repetition.
 *
 * Each repetition is
 *
 *     FPAD 64                      192 ALU and taken branches (kicopy.h)
 *     bl E                         E: one 64-byte line, 15 ALU + ret
 *     FPAD 64
 *     bl X                         X: one 64-byte line, 15 ALU + ret
 *     PAD 200
 *     loop branch
 *
 * Modes (identical instructions; only the code placement differs, see
 * kicopy.h):
 *   miss    E and X are 8 KB apart, so they map to the same set of the
 *           direct-mapped 8 KB L1I: each evicts the other, and both miss
 *           every repetition (and hit in the L2). Two misses per repetition
 *           is the minimum: in a loop, every line that misses must be
 *           evicted again by another miss.
 *   nomiss  E sits in a set nothing else uses: everything hits.
 * The first WARM repetition brings all lines into L2 (cold misses, the same
 * in both modes). The calls are direct and the returns match, so the
 * branch predictor has nothing to do.
 *
 * What interval analysis predicts: during an I-cache miss the front end
 * delivers nothing; the instructions already in the pipeline drain and
 * dispatch stops; when the line arrives the pipeline refills. The drain and
 * refill cancel, so each miss costs about the miss latency, here the L2
 * hit time (9 cycles + transfer), independent of front-end depth:
 *     cycles(miss) - cycles(nomiss) ~= 2 * reps * L2 latency  (~18/rep)
 * 200 ALU instructions (50 cycles) separate consecutive misses.
 *
 * Output: "k1_icache_miss MODE reps=R imiss=N", N = I-cache misses the mode
 * adds (2R or 0).
 */
#define KERNEL_NAME "k1_icache_miss"
#define KERNEL_MODES "miss nomiss"
#define DEFAULT_REPS 100
#define TEST_REPS 2
#include "kcommon.h"
#include "kicopy.h"

#define WARM 1

	.macro	K1_COPY tag, e_off
	.section .text.k1_\tag, "ax", %progbits
	.balign	16384
k1_\tag:
	.p2align 6
k1_\tag\()_loop:
	FPAD	64
	bl	k1_\tag\()_e
	FPAD	64
	bl	k1_\tag\()_x
	PAD	200
	add	x21, x21, #1
	cmp	x21, x25
	b.ne	k1_\tag\()_loop
	b	k1_done
	.org	X_OFF
k1_\tag\()_x:
	LINE_FN
	.org	\e_off
k1_\tag\()_e:
	LINE_FN
	.endm

	K1_COPY conflict, E_OFF_CONFLICT
	K1_COPY apart, E_OFF_APART

	.text
	.p2align 6
kernel_main:
	mov	x21, #0
	add	x25, x20, #WARM
	adrp	x0, k1_conflict
	add	x0, x0, :lo12:k1_conflict
	adrp	x1, k1_apart
	add	x1, x1, :lo12:k1_apart
	cmp	x19, #0
	csel	x0, x0, x1, eq          /* miss: the conflicting placement */
	br	x0

k1_done:
	bl	k_header
	lsl	x1, x20, #1
	cmp	x19, #0
	csel	x1, x1, xzr, eq
	adrp	x0, s_imiss
	add	x0, x0, :lo12:s_imiss
	bl	k_putkv
	b	k_exit

	.section .rodata
s_imiss:	.asciz	"imiss="
