/*
 * k3_long_dmiss.S — one isolated long D-cache miss per repetition.
 *
 * Each repetition is straight-line code:
 *
 *     address computation          (line index for this repetition)
 *     PAD 256                      independent single-cycle ALU
 *     ldr x2, [x1]                 <- the event: L1 and L2 miss in "miss" mode
 *     PAD 512                      independent single-cycle ALU
 *     loop branch                  (always taken but the last time)
 *
 * Modes (identical instructions; only the load address differs):
 *   miss    the load goes to a line never touched before (a different one
 *           every repetition, in an order with no constant stride), in a
 *           page whose translation is already in the DTLB (kdmiss.h):
 *           L1D miss, L2 miss, memory, but no TLB miss.
 *   nomiss  the load goes to the warm line, touched before the loop:
 *           an L1D hit.
 * The first WARM repetition uses the warm line in both modes, which warms
 * the I-cache, the predictor and that line. The loaded value (always 0) is
 * added into x27 after the padding so the load is not dead.
 *
 * What interval analysis predicts (default machine: 4-wide, ROB 128,
 * memory 250 cycles): the load reaches the ROB head almost at once (the
 * padding before it drains at 4 IPC), dispatch goes on until the ROB is
 * full, ROB/4 = 32 cycles later, then stalls until the data returns. So
 *     cycles(miss) - cycles(nomiss) ~= reps * (memory latency - ROB fill)
 *                                   ~= reps * (250 + L1/L2 lookup - 32)
 * about 230 cycles per miss (2 + 9 + 250 - 32 with the default latencies). The 512 instructions after the load keep
 * the next repetition's miss well outside this one's window.
 *
 * Output: "k3_long_dmiss MODE reps=R dmiss=N", N = long misses the mode
 * adds (R for miss, 0 for nomiss).
 */
#define KERNEL_NAME "k3_long_dmiss"
#define KERNEL_MODES "miss nomiss"
#define DEFAULT_REPS 100
#define TEST_REPS 2
#include "kcommon.h"
#include "kdmiss.h"

	.text
	.p2align 6
kernel_main:
	DMISS_SETUP
	mov	x22, #LINE_MASK         /* mode mask for the measured repetitions */
	cmp	x19, #0
	csel	x22, x22, xzr, eq       /* miss: cold lines; nomiss: warm line */
	b	loop

	.p2align 6
loop:
	cmp	x21, #WARM
	csel	x26, x22, xzr, hs       /* warm-up repetition: warm line */
	sub	x5, x21, #WARM          /* event counter */
	LINE_ADDR x1, x5, x26, x0
	PAD	256
	ldr	x2, [x1]                /* the event */
	PAD	512
	add	x27, x27, x2
	add	x21, x21, #1
	cmp	x21, x25
	b.ne	loop

	bl	k_header
	adrp	x0, s_dmiss
	add	x0, x0, :lo12:s_dmiss
	cmp	x22, #0
	csel	x1, x20, xzr, ne
	bl	k_putkv
	b	k_exit

	.section .rodata
s_dmiss:	.asciz	"dmiss="
