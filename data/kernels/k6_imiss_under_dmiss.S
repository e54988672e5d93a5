/*
 * k6_imiss_under_dmiss.S — an L1 I-cache miss in the shadow of a long
 * D-cache miss, twice per repetition.
 *
 * Each repetition is
 *
 *     address computation          (two cold line addresses)
 *     PAD 160
 *     ldr x2, [x1]                 <- long D-cache miss 1
 *     FPAD 16                      48 ALU and taken branches (kicopy.h)
 *     bl E                         <- I-cache miss 1 (E conflicts with X)
 *     PAD 384
 *     ldr x3, [x4]                 <- long D-cache miss 2
 *     FPAD 16
 *     bl X                         <- I-cache miss 2
 *     PAD 384
 *     loop branch
 *
 * The D-cache misses work as in k3_long_dmiss (never-touched lines in
 * DTLB-resident pages vs the warm line), the I-cache misses as in k1_icache_miss
 * (E and X 8 KB apart vs in different sets; see kicopy.h). Each event can
 * be switched on separately, always with the same instructions:
 *   miss    both kinds: 2 D-misses and 2 I-misses per repetition
 *   nomiss  neither
 *   dmiss   only the D-cache misses
 *   imiss   only the I-cache misses
 *
 * What interval analysis predicts: the I-cache miss happens ~33
 * instructions after the long miss has entered the ROB. The ROB would fill
 * and stall behind the load anyway; the front end's miss only delays that
 * moment by the L2 latency, long before the data returns. So the I-cache
 * miss is hidden:
 *     cycles(miss) ~= cycles(dmiss)
 *     cycles(dmiss) - cycles(nomiss) ~= 2 * reps * (250 + lookup - 32)
 *     cycles(imiss) - cycles(nomiss) ~= 2 * reps * L2 latency
 * i.e. miss events are not additive: only the long D-cache miss counts.
 *
 * Output: "k6_imiss_under_dmiss MODE reps=R dmiss=N imiss=M", the events
 * the mode adds (2R or 0 each).
 */
#define KERNEL_NAME "k6_imiss_under_dmiss"
#define KERNEL_MODES "miss nomiss dmiss imiss"
#define DEFAULT_REPS 100
#define TEST_REPS 2
#include "kcommon.h"
#include "kdmiss.h"
#include "kicopy.h"

	.macro	K6_COPY tag, e_off
	.section .text.k6_\tag, "ax", %progbits
	.balign	16384
k6_\tag:
	.p2align 6
k6_\tag\()_loop:
	cmp	x21, #WARM
	csel	x26, x22, xzr, hs       /* warm-up repetition: warm line */
	sub	x5, x21, #WARM          /* event counters 2c and 2c+1 */
	lsl	x5, x5, #1
	add	x6, x5, #1
	LINE_ADDR x1, x5, x26, x0
	LINE_ADDR x4, x6, x26, x0
	PAD	160
	ldr	x2, [x1]                /* D-miss 1 */
	FPAD	16
	bl	k6_\tag\()_e            /* I-miss 1 */
	PAD	384
	ldr	x3, [x4]                /* D-miss 2 */
	FPAD	16
	bl	k6_\tag\()_x            /* I-miss 2 */
	PAD	384
	add	x27, x27, x2
	add	x27, x27, x3
	add	x21, x21, #1
	cmp	x21, x25
	b.ne	k6_\tag\()_loop
	b	k6_done
	.org	X_OFF
k6_\tag\()_x:
	LINE_FN
	.org	\e_off
k6_\tag\()_e:
	LINE_FN
	.endm

	K6_COPY conflict, E_OFF_CONFLICT
	K6_COPY apart, E_OFF_APART

	.text
	.p2align 6
kernel_main:
	DMISS_SETUP
	/* mode 0 miss, 1 nomiss, 2 dmiss, 3 imiss */
	mov	x22, #LINE_MASK
	cmp	x19, #1
	ccmp	x19, #3, #4, ne         /* Z = (nomiss || imiss) */
	csel	x22, xzr, x22, eq       /* D-misses off for nomiss, imiss */
	adrp	x0, k6_conflict
	add	x0, x0, :lo12:k6_conflict
	adrp	x1, k6_apart
	add	x1, x1, :lo12:k6_apart
	cmp	x19, #0
	ccmp	x19, #3, #4, ne         /* Z = (miss || imiss) */
	csel	x0, x0, x1, eq
	br	x0

k6_done:
	bl	k_header
	lsl	x1, x20, #1
	cmp	x22, #0
	csel	x1, x1, xzr, ne
	adrp	x0, s_dmiss
	add	x0, x0, :lo12:s_dmiss
	bl	k_putkv
	lsl	x1, x20, #1
	cmp	x19, #0
	ccmp	x19, #3, #4, ne
	csel	x1, x1, xzr, eq
	adrp	x0, s_imiss
	add	x0, x0, :lo12:s_imiss
	bl	k_putkv
	b	k_exit

	.section .rodata
s_dmiss:	.asciz	"dmiss="
s_imiss:	.asciz	"imiss="
