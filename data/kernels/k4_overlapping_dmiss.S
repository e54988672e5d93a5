/*
 * k4_overlapping_dmiss.S — two independent long D-cache misses within one
 * ROB window, once per repetition.
 *
 *     address computation          (two line indices for this repetition)
 *     PAD 256
 *     ldr x2, [x1]                 <- miss 1
 *     PAD 32                       (33 instructions apart: both in a 128-entry ROB)
 *     ldr x3, [x4]                 <- miss 2, address independent of miss 1
 *     PAD 512
 *     loop branch
 *
 * Modes (identical instructions; only the load addresses differ):
 *   miss    both loads go to never-touched lines (kdmiss.h: DTLB hits)
 *   single  only the first does; the second reads the warm line
 *   nomiss  both read the warm line (L1D hits)
 * The first WARM repetition uses the warm line for both loads in every
 * mode.
 *
 * What interval analysis predicts: the second miss issues a few cycles
 * after the first (33 instructions / 4 per cycle ~ 8 cycles), while the
 * first is still outstanding, so their latencies overlap (memory-level
 * parallelism). The ROB fills behind miss 1 and stalls until it returns;
 * miss 2 returns ~8 cycles later, about when the ROB has retired up to it.
 * So the two misses cost about as much as one:
 *     cycles(miss) - cycles(nomiss) ~= reps * (250 + lookup - 32)  (+ ~8)
 *     cycles(miss) - cycles(single) ~= reps * (a few cycles)
 * Compare with k3_long_dmiss (one miss) and k5_dependent_dmiss (two
 * misses that cannot overlap).
 *
 * Output: "k4_overlapping_dmiss MODE reps=R dmiss=N", N = long misses the
 * mode adds (2R, R or 0).
 */
#define KERNEL_NAME "k4_overlapping_dmiss"
#define KERNEL_MODES "miss nomiss single"
#define DEFAULT_REPS 100
#define TEST_REPS 2
#include "kcommon.h"
#include "kdmiss.h"

	.text
	.p2align 6
kernel_main:
	DMISS_SETUP
	mov	x22, #LINE_MASK         /* mask for load 1 */
	cmp	x19, #1
	csel	x22, xzr, x22, eq       /* nomiss: load 1 hits */
	mov	x7, #LINE_MASK         /* mask for load 2 */
	cmp	x19, #0
	csel	x7, x7, xzr, eq       /* only miss mode: load 2 misses */
	b	loop

	.p2align 6
loop:
	cmp	x21, #WARM
	csel	x26, x22, xzr, hs
	csel	x8, x7, xzr, hs
	sub	x5, x21, #WARM          /* event counters 2c and 2c+1 */
	lsl	x5, x5, #1
	add	x6, x5, #1
	LINE_ADDR x1, x5, x26, x0
	LINE_ADDR x4, x6, x8, x0
	PAD	256
	ldr	x2, [x1]                /* miss 1 */
	PAD	32
	ldr	x3, [x4]                /* miss 2 */
	PAD	512
	add	x27, x27, x2
	add	x27, x27, x3
	add	x21, x21, #1
	cmp	x21, x25
	b.ne	loop

	cmp	x22, #0                 /* count before k_header clobbers x7 */
	csel	x1, x20, xzr, ne
	cmp	x7, #0
	csel	x2, x20, xzr, ne
	add	x26, x1, x2
	bl	k_header
	mov	x1, x26
	adrp	x0, s_dmiss
	add	x0, x0, :lo12:s_dmiss
	bl	k_putkv
	b	k_exit

	.section .rodata
s_dmiss:	.asciz	"dmiss="
