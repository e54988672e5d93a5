/*
 * k5_dependent_dmiss.S — a long D-cache miss whose result is needed to form
 * the address of a second long miss (pointer chasing), once per repetition.
 *
 *     address computation          (two line addresses for this repetition)
 *     PAD 256
 *     ldr x2, [x1]                 <- miss 1; loads the "pointer" offset
 *     add x4, x4, x2               the second address depends on it
 *     ldr x3, [x4]                 <- miss 2 cannot issue before miss 1 returns
 *     PAD 512
 *     loop branch
 *
 * The loaded value is always 0 (the region is never written), so the second
 * address is the line chosen for it plus 0: a true address dependence on the
 * first load without storing pointers, which would bring the lines into the
 * caches before the measurement. (On real Linux never-written .bss pages
 * all map the shared zero page, so on hardware with physically indexed
 * caches the "cold" lines would alias; ivx's caches see guest addresses.)
 *
 * Modes (identical instructions; only the load addresses differ):
 *   miss    both lines never touched before (kdmiss.h: DTLB hits)
 *   single  only the first; the second address is the warm line (+0)
 *   nomiss  both the warm line (L1D hits)
 * The first WARM repetition uses the warm line for both loads in every
 * mode.
 *
 * What interval analysis predicts: miss 2 issues only when miss 1's data
 * arrives, so the latencies add up; the ROB fills behind miss 1 and stays
 * full through both:
 *     cycles(miss) - cycles(nomiss)  ~= reps * (2 * 250 + lookups - 32)
 *     cycles(single) - cycles(nomiss) ~= reps * (250 + lookup - 32)
 * i.e. the dependent miss costs a full memory latency, unlike the
 * overlapping one in k4_overlapping_dmiss.
 *
 * Output: "k5_dependent_dmiss MODE reps=R dmiss=N", N = long misses the mode
 * adds (2R, R or 0).
 */
#define KERNEL_NAME "k5_dependent_dmiss"
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
	add	x4, x4, x2              /* address of miss 2 depends on miss 1 */
	ldr	x3, [x4]                /* miss 2 */
	PAD	512
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
