/*
 * k2_branch_miss.S — one isolated branch misprediction per repetition.
 *
 * Each repetition runs a never-taken cbz, 64 ALU instructions, then an
 * inner loop of INNER = 1024 iterations; every
 * iteration is 28 instructions, 24 of them independent single-cycle ALU:
 *
 *     PAD 8 ; 5 x add
 *     cmp  k, ev ; ccmp k, INNER, #4, ne      Z = (k == ev || k == INNER)
 *     b.ne 2f                    <- branch B: taken on the common path;
 *                                   the last instruction of its cache line
 *     add ; add                     rare path: B falls through
 *  3: PAD 8
 *     subs k ; b.ne inner
 *     ...
 *  2: add ; b 3b                    common path: B taken, out of line
 *
 * Both paths are two instructions. The rare path is the one that follows
 * the misprediction, so it is the straight one and starts a cache line:
 * after the redirect, fetch delivers full blocks (8 instructions, more
 * than dispatch takes) at once, as interval analysis assumes of the
 * refill. (Had the refill begun with short blocks, such as a two-
 * instruction block ending in a taken branch, dispatch would ramp up over
 * a cycle or two: a cost of the code layout, not of the misprediction.)
 * On the common path the extra taken branch costs nothing: fetch (~5.6 per
 * cycle) stays ahead of dispatch (4). B falls through ("rare") twice at
 * most per repetition:
 *   k == INNER   the first iteration, in every mode: it keeps the rare path
 *                and its `b 3f` warm in the I-cache and the BTB. Its
 *                misprediction, and the inner loop's exit misprediction, are
 *                the same in both modes and 512 iterations from the event.
 *   k == ev      the event, in "miss" mode only: ev = INNER/2, the middle.
 *                In "nomiss" mode ev = 0, which k never reaches.
 * At the event, B has been taken 511 times in a row with the same global
 * history (B taken, loop taken, repeated) as its previous instances for the
 * last ~1000 conditional branches, so a bimodal, gshare or TAGE predictor
 * with shorter histories predicts taken and fails. The first WARM
 * repetition has no event in either mode.
 *
 * History: after the event, the next branches see one not-taken among
 * taken ones in their global history ("T..T N T..T"). So does the priming
 * instance, right after the inner loop's exit, unless something else
 * intervenes, and then the two would share gshare entries that the prime
 * trains "not taken" every repetition: the event would cost two
 * mispredictions. The never-taken cbz before the inner loop puts a second
 * not-taken next to the loop exit, so the prime's history never looks like
 * a post-event one.
 *
 * What interval analysis predicts: a misprediction costs the branch
 * resolution time plus the refill of the front-end pipeline. B depends only
 * on the loop counter (cmp -> ccmp -> b.ne, ready within ~2-3 cycles of
 * dispatch, since the ALU work ahead of it drains at 4 IPC), so
 *     cycles(miss) - cycles(nomiss) ~= reps * (front-end depth 5 + a few)
 * roughly 8-12 cycles per misprediction (the few: B's operands, its issue
 * and the redirect; ivx measured 11). The iterations after the event are
 * newly seen histories the first time round; to remove that transient (and
 * the start-up difference) measure two repetition counts and take the slope.
 *
 * Output: "k2_branch_miss MODE reps=R bmiss=N", N = mispredictions the mode
 * adds (R or 0).
 */
#define KERNEL_NAME "k2_branch_miss"
#define KERNEL_MODES "miss nomiss"
#define DEFAULT_REPS 100
#define TEST_REPS 2
#include "kcommon.h"

#define INNER 1024
#define WARM 1

	.text
	.p2align 6
kernel_main:
	mov	x22, #(INNER / 2)       /* event iteration in miss mode */
	cmp	x19, #0
	csel	x22, x22, xzr, eq       /* nomiss: 0, never reached */
	mov	x25, #INNER             /* the priming iteration */
	mov	x21, #0                 /* repetition */
	add	x23, x20, #WARM
	b	rep

	.p2align 6
rep:
	cmp	x21, #WARM
	csel	x26, x22, xzr, hs       /* warm-up: no event */
	mov	x24, #INNER             /* k counts INNER .. 1 */
	cbz	x28, 4f                 /* never taken: see "history" above */
4:	PAD	64
	.p2align 6
inner:
	PAD	8
	add	x9, x28, #1             /* 5 more: B ends its cache line */
	add	x10, x28, #2
	add	x11, x28, #3
	add	x12, x28, #4
	add	x13, x28, #5
	cmp	x24, x26
	ccmp	x24, x25, #4, ne
	b.ne	2f                      /* B, the last instruction of the line */
	add	x16, x28, #1            /* rare path: falls through, straight on */
	add	x16, x28, #1
3:	PAD	8
	subs	x24, x24, #1
	b.ne	inner
	add	x21, x21, #1
	cmp	x21, x23
	b.ne	rep

	bl	k_header
	cmp	x22, #0
	csel	x1, x20, xzr, ne
	adrp	x0, s_bmiss
	add	x0, x0, :lo12:s_bmiss
	bl	k_putkv
	b	k_exit

	.p2align 6
2:	add	x16, x28, #2            /* common path, out of line */
	b	3b

	.section .rodata
s_bmiss:	.asciz	"bmiss="
