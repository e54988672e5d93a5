/*
 * kdmiss.h — the cold lines shared by the D-cache kernels (k3..k6).
 *
 * The default machine has a 128-entry, 4-way DTLB with 30-cycle misses, so
 * a cold line in a fresh page would be a TLB miss as well as a cache miss.
 * To isolate the cache miss, every event line lies in one 256 KB region of
 * 64 pages whose translations are warmed before the loop (DMISS_SETUP loads
 * line 0 of each page) and stay in the DTLB. Line 0 of page 0 is also the
 * "warm line" that the no-miss modes load. The event lines are lines 1..63
 * of the 64 pages: 4032 lines, each used at most once per run, never
 * touched by anything else, so each is an L1D and L2 miss.
 *
 * LINE_ADDR maps an event counter c in [0, 4032) to such a line: the page
 * is c mod 64 put through a bijection on 6 bits (multiply by an odd number,
 * xor-shift), the line within the page is 1 + c / 64. Consecutive events go
 * to different pages with no constant stride. The line's L1D set is its
 * line number within the page (1..63), so cold lines never compete with
 * the warm line (set 0). With a zero mask the result is the warm line.
 *
 * Register use (set by DMISS_SETUP):
 *   x21  repetition counter, 0 .. reps + WARM - 1
 *   x23  region base
 *   x24  the odd multiplier
 *   x25  reps + WARM (loop bound)
 *   x27  accumulator for loaded values (keeps the loads live)
 */
#ifndef IVX_KDMISS_H
#define IVX_KDMISS_H

#define WARM 1                  /* warm-up repetitions, same in every mode */
#define REGION_PAGES 64
#define LINE_MASK 0xfff         /* all bits of a line index in the region */

	.bss
	.balign	4096
k_buf:	.skip	REGION_PAGES * 4096

	.macro	DMISS_SETUP
	adrp	x23, k_buf
	add	x23, x23, :lo12:k_buf
	mov	x24, #37
	mov	x21, #0
	add	x25, x20, #WARM
	mov	x27, #0
	mov	x0, #0                  /* touch line 0 of every page: DTLB warm */
1:	ldr	x1, [x23, x0]
	add	x27, x27, x1
	add	x0, x0, #4096
	cmp	x0, #(REGION_PAGES * 4096)
	b.ne	1b
	.endm

/* dst = address of event line c (mask all ones) or of the warm line (mask
 * 0). c and mask are registers; tmp is clobbered. */
	.macro	LINE_ADDR dst, c, mask, tmp
	and	\dst, \c, #63           /* page: c mod 64, scrambled */
	mul	\dst, \dst, x24
	and	\dst, \dst, #63
	eor	\dst, \dst, \dst, lsr #3
	lsr	\tmp, \c, #6            /* line in page: 1 + c / 64 */
	add	\tmp, \tmp, #1
	add	\dst, \tmp, \dst, lsl #6
	and	\dst, \dst, \mask
	add	\dst, x23, \dst, lsl #6
	.endm

#endif
