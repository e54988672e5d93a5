/*
 * test_isa_dpi.c — data processing with immediates: ADD/SUB (immediate),
 * logical immediates and their bitmask decoding, MOVZ/MOVN/MOVK, ADR/ADRP,
 * the bitfield group (SBFM/BFM/UBFM and aliases) and EXTR.
 */
#include "isa_test.h"
#include "isa/isa_internal.h"

/* Expected values from qemu-aarch64; see isa_test.h. */
static const struct isa_alu_case dpi_cases[] = {
	{ 0x91048c20, "add x0, x1, #0x123", 0x0, 1, { {1, 0x5} }, 0x0, 1, { {0, 0x128} } },
	{ 0x91448c20, "add x0, x1, #0x123, lsl #12", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x122fff} } },
	{ 0x11000420, "add w0, w1, #1", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x0} } },
	{ 0x11004020, "add w0, w1, #0x10", 0x0, 1, { {1, 0x123456789abcdef0} }, 0x0, 1, { {0, 0x9abcdf00} } },
	{ 0x910043ff, "add sp, sp, #16", 0x0, 1, { {31, 0x1000} }, 0x0, 1, { {31, 0x1010} } },
	{ 0x910023e2, "add x2, sp, #8", 0x0, 1, { {31, 0x7ff0} }, 0x0, 1, { {2, 0x7ff8} } },
	{ 0x9100007f, "mov sp, x3", 0x0, 1, { {3, 0x12345670} }, 0x0, 1, { {31, 0x12345670} } },
	{ 0x910003e4, "mov x4, sp", 0x0, 1, { {31, 0xfffffffffffffff0} }, 0x0, 1, { {4, 0xfffffffffffffff0} } },
	{ 0x110013e3, "add w3, wsp, #4", 0x0, 1, { {31, 0xffffffff00000010} }, 0x0, 1, { {3, 0x14} } },
	{ 0x1100107f, "add wsp, w3, #4", 0x0, 1, { {3, 0xffffffff00000010} }, 0x0, 1, { {31, 0x14} } },
	{ 0xd1000420, "sub x0, x1, #1", 0x0, 1, { {1, 0x0} }, 0x0, 1, { {0, 0xffffffffffffffff} } },
	{ 0x517ffc20, "sub w0, w1, #0xfff, lsl #12", 0x0, 1, { {1, 0x100000000} }, 0x0, 1, { {0, 0xff001000} } },
	{ 0xd10083ff, "sub sp, sp, #0x20", 0x0, 1, { {31, 0x10000} }, 0x0, 1, { {31, 0xffe0} } },
	{ 0xb1000420, "adds x0, x1, #1", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0xb1000420, "adds x0, x1, #1", 0x20000000, 1, { {1, 0x7fffffffffffffff} }, 0x90000000, 1, { {0, 0x8000000000000000} } },
	{ 0x31000420, "adds w0, w1, #1", 0x0, 1, { {1, 0x7fffffff} }, 0x90000000, 1, { {0, 0x80000000} } },
	{ 0x31000420, "adds w0, w1, #1", 0x0, 1, { {1, 0xffffffff} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0x31000420, "adds w0, w1, #1", 0x0, 1, { {1, 0xfffffffe00000000} }, 0x0, 1, { {0, 0x1} } },
	{ 0xf1000420, "subs x0, x1, #1", 0x0, 1, { {1, 0x0} }, 0x80000000, 1, { {0, 0xffffffffffffffff} } },
	{ 0xf1000420, "subs x0, x1, #1", 0x0, 1, { {1, 0x1} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0x71000820, "subs w0, w1, #2", 0x0, 1, { {1, 0x80000001} }, 0x30000000, 1, { {0, 0x7fffffff} } },
	{ 0xf1000820, "subs x0, x1, #2", 0x0, 1, { {1, 0x8000000000000001} }, 0x30000000, 1, { {0, 0x7fffffffffffffff} } },
	{ 0x71000020, "subs w0, w1, #0", 0x0, 1, { {1, 0x0} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0xf100003f, "cmp x1, #0", 0x0, 1, { {1, 0x8000000000000000} }, 0xa0000000, 0, { {0, 0} } },
	{ 0x3100043f, "cmn w1, #1", 0x0, 1, { {1, 0xffffffff} }, 0x60000000, 0, { {0, 0} } },
	{ 0xb140043f, "cmn x1, #1, lsl #12", 0x0, 1, { {1, 0xfffffffffffff000} }, 0x60000000, 0, { {0, 0} } },
	{ 0xf10043ff, "cmp sp, #0x10", 0x0, 1, { {31, 0x10} }, 0x60000000, 0, { {0, 0} } },
	{ 0x710043ff, "cmp wsp, #0x10", 0x0, 1, { {31, 0xffffffff0000000f} }, 0x80000000, 0, { {0, 0} } },
	{ 0xb10003e0, "adds x0, sp, #0", 0x0, 1, { {31, 0x10} }, 0x0, 1, { {0, 0x10} } },
	{ 0x710007e5, "subs w5, wsp, #1", 0x0, 1, { {31, 0x100000000} }, 0x80000000, 1, { {5, 0xffffffff} } },
	{ 0x92401c20, "and x0, x1, #0xff", 0x0, 1, { {1, 0x1234} }, 0x0, 1, { {0, 0x34} } },
	{ 0x12010420, "and w0, w1, #0x80000001", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x80000001} } },
	{ 0xb200f020, "orr x0, x1, #0x5555555555555555", 0x0, 1, { {1, 0xaaaa0000aaaa0000} }, 0x0, 1, { {0, 0xffff5555ffff5555} } },
	{ 0x3204cc20, "orr w0, w1, #0xf0f0f0f0", 0x0, 1, { {1, 0xffffffff0000000f} }, 0x0, 1, { {0, 0xf0f0f0ff} } },
	{ 0xb2103fe0, "orr x0, xzr, #0xffff0000ffff0000", 0x0, 0, { {0, 0} }, 0x0, 1, { {0, 0xffff0000ffff0000} } },
	{ 0x32007be0, "orr w0, wzr, #0x7fffffff", 0x0, 0, { {0, 0} }, 0x0, 1, { {0, 0x7fffffff} } },
	{ 0xb27cefff, "orr sp, xzr, #0xfffffffffffffff0", 0x0, 0, { {0, 0} }, 0x0, 1, { {31, 0xfffffffffffffff0} } },
	{ 0xd2400020, "eor x0, x1, #0x1", 0x0, 1, { {1, 0x1234} }, 0x0, 1, { {0, 0x1235} } },
	{ 0x52003c20, "eor w0, w1, #0xffff", 0x0, 1, { {1, 0xffffffffffff1234} }, 0x0, 1, { {0, 0xffffedcb} } },
	{ 0xd201f020, "eor x0, x1, #0xaaaaaaaaaaaaaaaa", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x5555555555555555} } },
	{ 0xf2410020, "ands x0, x1, #0x8000000000000000", 0x0, 1, { {1, 0x8000000000000001} }, 0x80000000, 1, { {0, 0x8000000000000000} } },
	{ 0x72010020, "ands w0, w1, #0x80000000", 0x30000000, 1, { {1, 0x80000000} }, 0x80000000, 1, { {0, 0x80000000} } },
	{ 0xf2401c20, "ands x0, x1, #0xff", 0xf0000000, 1, { {1, 0xff00} }, 0x40000000, 1, { {0, 0x0} } },
	{ 0xf240043f, "tst x1, #0x3", 0x0, 1, { {1, 0x4} }, 0x40000000, 0, { {0, 0} } },
	{ 0x7200003f, "tst w1, #0x1", 0x0, 1, { {1, 0x100000000} }, 0x40000000, 0, { {0, 0} } },
	{ 0x927cec3f, "and sp, x1, #0xfffffffffffffff0", 0x0, 1, { {1, 0x12345678} }, 0x0, 1, { {31, 0x12345670} } },
	{ 0x52001c3f, "eor wsp, w1, #0xff", 0x0, 1, { {1, 0xffffffffffffff00} }, 0x0, 1, { {31, 0xffffffff} } },
	{ 0xb27ff020, "orr x0, x1, #0x3ffffffffffffffe", 0x0, 1, { {1, 0x0} }, 0x0, 1, { {0, 0x3ffffffffffffffe} } },
	{ 0x92008020, "and x0, x1, #0x0001000100010001", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x1000100010001} } },
	{ 0x9200c420, "and x0, x1, #0x0303030303030303", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x303030303030303} } },
	{ 0x9200f020, "and x0, x1, #0x5555555555555555", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x5555555555555555} } },
	{ 0x9240f820, "and x0, x1, #0x7fffffffffffffff", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x7fffffffffffffff} } },
	{ 0x92410020, "and x0, x1, #0x8000000000000000", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x8000000000000000} } },
	{ 0x92607c20, "and x0, x1, #0xffffffff00000000", 0x0, 1, { {1, 0x123456789abcdef0} }, 0x0, 1, { {0, 0x1234567800000000} } },
	{ 0x927ff820, "and x0, x1, #0xfffffffffffffffe", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0xfffffffffffffffe} } },
	{ 0x121f7820, "and w0, w1, #0xfffffffe", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0xfffffffe} } },
	{ 0x3200f020, "orr w0, w1, #0x55555555", 0x0, 1, { {1, 0xaaaaaaaaaaaaaaaa} }, 0x0, 1, { {0, 0xffffffff} } },
	{ 0x1206cc20, "and w0, w1, #0x3c3c3c3c", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x3c3c3c3c} } },
	{ 0xd2e24680, "movz x0, #0x1234, lsl #48", 0x0, 0, { {0, 0} }, 0x0, 1, { {0, 0x1234000000000000} } },
	{ 0x52bfffe0, "movz w0, #0xffff, lsl #16", 0x0, 0, { {0, 0} }, 0x0, 1, { {0, 0xffff0000} } },
	{ 0xd2800000, "movz x0, #0", 0x0, 0, { {0, 0} }, 0x0, 1, { {0, 0x0} } },
	{ 0x92800000, "movn x0, #0", 0x0, 0, { {0, 0} }, 0x0, 1, { {0, 0xffffffffffffffff} } },
	{ 0x12800000, "movn w0, #0", 0x0, 0, { {0, 0} }, 0x0, 1, { {0, 0xffffffff} } },
	{ 0x92a24680, "movn x0, #0x1234, lsl #16", 0x0, 0, { {0, 0} }, 0x0, 1, { {0, 0xffffffffedcbffff} } },
	{ 0x12a24680, "movn w0, #0x1234, lsl #16", 0x0, 0, { {0, 0} }, 0x0, 1, { {0, 0xedcbffff} } },
	{ 0x92ffffe0, "movn x0, #0xffff, lsl #48", 0x0, 0, { {0, 0} }, 0x0, 1, { {0, 0xffffffffffff} } },
	{ 0xf2d7dde0, "movk x0, #0xbeef, lsl #32", 0x0, 1, { {0, 0x1111222233334444} }, 0x0, 1, { {0, 0x1111beef33334444} } },
	{ 0xf2f7dde0, "movk x0, #0xbeef, lsl #48", 0x0, 1, { {0, 0x1111222233334444} }, 0x0, 1, { {0, 0xbeef222233334444} } },
	{ 0x7297dde0, "movk w0, #0xbeef", 0x0, 1, { {0, 0xffffffffffffffff} }, 0x0, 1, { {0, 0xffffbeef} } },
	{ 0x72b7dde0, "movk w0, #0xbeef, lsl #16", 0x0, 1, { {0, 0x1234567812345678} }, 0x0, 1, { {0, 0xbeef5678} } },
	{ 0xd37df020, "lsl x0, x1, #3", 0x0, 1, { {1, 0xf00000000000000f} }, 0x0, 1, { {0, 0x8000000000000078} } },
	{ 0x53010020, "lsl w0, w1, #31", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x80000000} } },
	{ 0xd340fc20, "lsl x0, x1, #0", 0x0, 1, { {1, 0x8000000000000001} }, 0x0, 1, { {0, 0x8000000000000001} } },
	{ 0xd37ffc20, "lsr x0, x1, #63", 0x0, 1, { {1, 0x8000000000000000} }, 0x0, 1, { {0, 0x1} } },
	{ 0x53017c20, "lsr w0, w1, #1", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x7fffffff} } },
	{ 0x531f7c20, "lsr w0, w1, #31", 0x0, 1, { {1, 0x80000000} }, 0x0, 1, { {0, 0x1} } },
	{ 0x9347fc20, "asr x0, x1, #7", 0x0, 1, { {1, 0x8000000000000000} }, 0x0, 1, { {0, 0xff00000000000000} } },
	{ 0x937ffc20, "asr x0, x1, #63", 0x0, 1, { {1, 0x7fffffffffffffff} }, 0x0, 1, { {0, 0x0} } },
	{ 0x131f7c20, "asr w0, w1, #31", 0x0, 1, { {1, 0x80000000} }, 0x0, 1, { {0, 0xffffffff} } },
	{ 0x13047c20, "asr w0, w1, #4", 0x0, 1, { {1, 0x7fffffff80000000} }, 0x0, 1, { {0, 0xf8000000} } },
	{ 0x13007c20, "asr w0, w1, #0", 0x0, 1, { {1, 0xffffffff80000000} }, 0x0, 1, { {0, 0x80000000} } },
	{ 0xd3442c20, "ubfx x0, x1, #4, #8", 0x0, 1, { {1, 0x123456789abcdef0} }, 0x0, 1, { {0, 0xef} } },
	{ 0x531c7c20, "ubfx w0, w1, #28, #4", 0x0, 1, { {1, 0xffffffffabcdef01} }, 0x0, 1, { {0, 0xa} } },
	{ 0xd340fc20, "ubfx x0, x1, #0, #64", 0x0, 1, { {1, 0x123456789abcdef0} }, 0x0, 1, { {0, 0x123456789abcdef0} } },
	{ 0x93442c20, "sbfx x0, x1, #4, #8", 0x0, 1, { {1, 0xf80} }, 0x0, 1, { {0, 0xfffffffffffffff8} } },
	{ 0x13000020, "sbfx w0, w1, #0, #1", 0x0, 1, { {1, 0x1} }, 0x0, 1, { {0, 0xffffffff} } },
	{ 0x9360fc20, "sbfx x0, x1, #32, #32", 0x0, 1, { {1, 0x80000000ffffffff} }, 0x0, 1, { {0, 0xffffffff80000000} } },
	{ 0x13087c20, "sbfx w0, w1, #8, #24", 0x0, 1, { {1, 0x80000000} }, 0x0, 1, { {0, 0xff800000} } },
	{ 0xd3440c20, "ubfiz x0, x1, #60, #4", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0xf000000000000000} } },
	{ 0x53185c20, "ubfiz w0, w1, #8, #24", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0xffffff00} } },
	{ 0xd37ff820, "ubfiz x0, x1, #1, #63", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0xfffffffffffffffe} } },
	{ 0x937d1020, "sbfiz x0, x1, #3, #5", 0x0, 1, { {1, 0x1f} }, 0x0, 1, { {0, 0xfffffffffffffff8} } },
	{ 0x13020420, "sbfiz w0, w1, #30, #2", 0x0, 1, { {1, 0x2} }, 0x0, 1, { {0, 0x80000000} } },
	{ 0x131c0c20, "sbfiz w0, w1, #4, #4", 0x0, 1, { {1, 0x8} }, 0x0, 1, { {0, 0xffffff80} } },
	{ 0x93603c20, "sbfiz x0, x1, #32, #16", 0x0, 1, { {1, 0x8000} }, 0x0, 1, { {0, 0xffff800000000000} } },
	{ 0x93401c20, "sxtb x0, w1", 0x0, 1, { {1, 0x80} }, 0x0, 1, { {0, 0xffffffffffffff80} } },
	{ 0x13001c20, "sxtb w0, w1", 0x0, 1, { {1, 0xff} }, 0x0, 1, { {0, 0xffffffff} } },
	{ 0x93403c20, "sxth x0, w1", 0x0, 1, { {1, 0x18000} }, 0x0, 1, { {0, 0xffffffffffff8000} } },
	{ 0x13003c20, "sxth w0, w1", 0x0, 1, { {1, 0x7fff} }, 0x0, 1, { {0, 0x7fff} } },
	{ 0x93407c20, "sxtw x0, w1", 0x0, 1, { {1, 0x80000000} }, 0x0, 1, { {0, 0xffffffff80000000} } },
	{ 0x93407c20, "sxtw x0, w1", 0x0, 1, { {1, 0xffffffff7fffffff} }, 0x0, 1, { {0, 0x7fffffff} } },
	{ 0x53001c20, "uxtb w0, w1", 0x0, 1, { {1, 0xffffffffffffff80} }, 0x0, 1, { {0, 0x80} } },
	{ 0x53003c20, "uxth w0, w1", 0x0, 1, { {1, 0xffffffffffff8000} }, 0x0, 1, { {0, 0x8000} } },
	{ 0xb3783c20, "bfi x0, x1, #8, #16", 0x0, 2, { {0, 0xffffffffffffffff}, {1, 0x1234} }, 0x0, 1, { {0, 0xffffffffff1234ff} } },
	{ 0x33040c20, "bfi w0, w1, #28, #4", 0x0, 2, { {0, 0xffffffffffffffff}, {1, 0x5a} }, 0x0, 1, { {0, 0xafffffff} } },
	{ 0xb340fc20, "bfi x0, x1, #0, #64", 0x0, 2, { {0, 0xffffffffffffffff}, {1, 0x1234} }, 0x0, 1, { {0, 0x1234} } },
	{ 0xb37cfc20, "bfxil x0, x1, #60, #4", 0x0, 2, { {0, 0xffffffffffffffff}, {1, 0xa000000000000000} }, 0x0, 1, { {0, 0xfffffffffffffffa} } },
	{ 0x33083c20, "bfxil w0, w1, #8, #8", 0x0, 2, { {0, 0xffffffff12345678}, {1, 0xab00} }, 0x0, 1, { {0, 0x123456ab} } },
	{ 0x33007c20, "bfxil w0, w1, #0, #32", 0x0, 2, { {0, 0xffffffff12345678}, {1, 0xffffffffab00cd00} }, 0x0, 1, { {0, 0xab00cd00} } },
	{ 0xb37c1fe0, "bfc x0, #4, #8", 0x0, 1, { {0, 0xffffffffffffffff} }, 0x0, 1, { {0, 0xfffffffffffff00f} } },
	{ 0x330103e0, "bfc w0, #31, #1", 0x0, 1, { {0, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x7fffffff} } },
	{ 0x331f0020, "bfm w0, w1, #31, #0", 0x0, 2, { {0, 0x0}, {1, 0xffffffff} }, 0x0, 1, { {0, 0x2} } },
	{ 0x93c13420, "ror x0, x1, #13", 0x0, 1, { {1, 0x123456789abcdef0} }, 0x0, 1, { {0, 0xf78091a2b3c4d5e6} } },
	{ 0x13817c20, "ror w0, w1, #31", 0x0, 1, { {1, 0x80000001} }, 0x0, 1, { {0, 0x3} } },
	{ 0x13810020, "ror w0, w1, #0", 0x0, 1, { {1, 0xffffffff12345678} }, 0x0, 1, { {0, 0x12345678} } },
	{ 0x93c2f020, "extr x0, x1, x2, #60", 0x0, 2, { {1, 0x123456789abcdef0}, {2, 0xfedcba9876543210} }, 0x0, 1, { {0, 0x23456789abcdef0f} } },
	{ 0x13821020, "extr w0, w1, w2, #4", 0x0, 2, { {1, 0x1234567876543210}, {2, 0xfedcba98fedcba98} }, 0x0, 1, { {0, 0xfedcba9} } },
	{ 0x93c20020, "extr x0, x1, x2, #0", 0x0, 2, { {1, 0x1234}, {2, 0x5678} }, 0x0, 1, { {0, 0x5678} } },
	{ 0x13820020, "extr w0, w1, w2, #0", 0x0, 2, { {1, 0x1234}, {2, 0xffffffff87654321} }, 0x0, 1, { {0, 0x87654321} } },
	{ 0x93c2fc20, "extr x0, x1, x2, #63", 0x0, 2, { {1, 0x1}, {2, 0x8000000000000000} }, 0x0, 1, { {0, 0x3} } },
};

static void test_dpi_table(void **state)
{
	isa_check_alu_cases(*state, dpi_cases, sizeof dpi_cases / sizeof dpi_cases[0]);
}

/* DecodeBitMasks at its edges, worked out by hand from the Arm ARM. */
static void test_bit_masks(void **state)
{
	(void)state;
	uint64_t m;
	/* element size 64: N=1; imms = ones - 1, immr = rotate right */
	assert_true(isa_decode_bit_masks(1, 0, 0, 64, &m));
	assert_int_equal(m, 1);
	assert_true(isa_decode_bit_masks(1, 62, 0, 64, &m));
	assert_int_equal(m, 0x7fffffffffffffffull);
	assert_true(isa_decode_bit_masks(1, 62, 63, 64, &m));
	assert_int_equal(m, 0xfffffffffffffffeull);
	assert_true(isa_decode_bit_masks(1, 0, 1, 64, &m));
	assert_int_equal(m, 0x8000000000000000ull);
	/* all ones is not encodable: imms = 111111 with N=1 is reserved */
	assert_false(isa_decode_bit_masks(1, 63, 0, 64, &m));
	/* element size 32 (imms 0xxxxx), replicated */
	assert_true(isa_decode_bit_masks(0, 0x07, 0, 64, &m));
	assert_int_equal(m, 0x000000ff000000ffull);
	assert_true(isa_decode_bit_masks(0, 0x07, 4, 32, &m));
	assert_int_equal(m, 0xf000000full);
	assert_false(isa_decode_bit_masks(0, 0x1f, 0, 32, &m));
	/* element size 2 (imms 11110x): 01 repeated, rotated by 1 gives 10 */
	assert_true(isa_decode_bit_masks(0, 0x3c, 0, 64, &m));
	assert_int_equal(m, 0x5555555555555555ull);
	assert_true(isa_decode_bit_masks(0, 0x3c, 1, 64, &m));
	assert_int_equal(m, 0xaaaaaaaaaaaaaaaaull);
	assert_true(isa_decode_bit_masks(0, 0x3c, 0, 32, &m));
	assert_int_equal(m, 0x55555555ull);
	/* element size 2 with imms 111101: ones == element size, reserved */
	assert_false(isa_decode_bit_masks(0, 0x3d, 0, 64, &m));
	/* imms 111111 with N=0 has no element size at all */
	assert_false(isa_decode_bit_masks(0, 0x3f, 0, 64, &m));
	/* element size 16, 3 ones rotated right by 2 within the element */
	assert_true(isa_decode_bit_masks(0, 0x22, 2, 64, &m));
	assert_int_equal(m, 0xc001c001c001c001ull);
	/* a 64-bit element cannot be used for a 32-bit operation */
	assert_false(isa_decode_bit_masks(1, 0, 0, 32, &m));
}

static void test_adr_adrp(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	assert_int_equal(isa_run(e, 0x10000800), ISA_NEXT);      /* adr x0, .+0x100 */
	assert_int_equal(e->c.x[0], T_CODE + 0x100);
	assert_int_equal(e->u.target, T_CODE + 0x100);
	assert_int_equal(isa_run(e, 0x10ffffe3), ISA_NEXT);      /* adr x3, .-4 (at +4) */
	assert_int_equal(e->c.x[3], T_CODE);
	e->c.pc = T_CODE + 0x7a8;
	assert_int_equal(isa_run(e, 0xf0000001), ISA_NEXT);      /* adrp x1, .+3 pages */
	assert_int_equal(e->c.x[1], T_CODE + 0x3000);
	assert_int_equal(isa_run(e, 0x90800002), ISA_NEXT);      /* adrp x2, -4 GiB */
	assert_int_equal(e->c.x[2], T_CODE - 0x100000000ull);
	assert_int_equal(e->u.n_dst, 1);
	assert_int_equal(e->u.dst[0], REG_X(2));
	assert_int_equal(e->u.n_src, 0);
	/* adr xzr: no register changes, no dependence */
	uint64_t before[32];
	memcpy(before, e->c.x, sizeof before);
	assert_int_equal(isa_run(e, 0x3000001f), ISA_NEXT);
	assert_memory_equal(before, e->c.x, sizeof before);
	assert_int_equal(e->u.n_dst, 0);
}

/* Register 31 is SP or the zero register depending on the encoding, and
 * the dependence lists follow. */
static void test_dpi_operands(void **state)
{
	(void)state;
	struct uop u;
	isa_decode(0x910043ff, T_CODE, &u);          /* add sp, sp, #16 */
	assert_int_equal(u.rd, CPU_SP);
	assert_int_equal(u.rn, CPU_SP);
	assert_int_equal(u.n_src, 1);
	assert_int_equal(u.src[0], REG_SP);
	assert_int_equal(u.n_dst, 1);
	assert_int_equal(u.dst[0], REG_SP);
	assert_int_equal(u.op_class, UOP_ALU);
	assert_int_equal(u.branch_kind, BRANCH_NONE);
	assert_int_equal(u.word, 0x910043ff);
	assert_int_equal(u.pc, T_CODE);

	isa_decode(0xf100003f, T_CODE, &u);          /* cmp x1, #0 */
	assert_int_equal(u.rd, CPU_ZR_SINK);
	assert_int_equal(u.n_dst, 1);
	assert_int_equal(u.dst[0], REG_NZCV);
	assert_int_equal(u.n_src, 1);
	assert_int_equal(u.src[0], REG_X(1));

	isa_decode(0xf24007ff, T_CODE, &u);          /* tst xzr... ands xzr, xzr, #3 */
	assert_int_equal(u.rn, CPU_ZR);
	assert_int_equal(u.n_src, 0);
	assert_int_equal(u.n_dst, 1);
	assert_int_equal(u.dst[0], REG_NZCV);

	isa_decode(0x927cec3f, T_CODE, &u);          /* and sp, x1, #~15 */
	assert_int_equal(u.rd, CPU_SP);
	assert_int_equal(u.dst[0], REG_SP);

	isa_decode(0xf2d7dde0, T_CODE, &u);          /* movk x0, #0xbeef, lsl #32 */
	assert_int_equal(u.n_src, 1);
	assert_int_equal(u.src[0], REG_X(0));
	assert_int_equal(u.n_dst, 1);
	assert_int_equal(u.dst[0], REG_X(0));

	isa_decode(0xb3781c20, T_CODE, &u);          /* bfi x0, x1, #8, #8: reads x0 */
	assert_true(isa_has_src(&u, REG_X(0)));
	assert_true(isa_has_src(&u, REG_X(1)));
	isa_decode(0xd37df020, T_CODE, &u);          /* lsl x0, x1, #3 */
	assert_int_equal(u.n_src, 1);
	assert_int_equal(u.src[0], REG_X(1));

	isa_decode(0x93c2f020, T_CODE, &u);          /* extr x0, x1, x2, #60 */
	assert_int_equal(u.n_src, 2);
	assert_true(isa_has_src(&u, REG_X(1)));
	assert_true(isa_has_src(&u, REG_X(2)));
	assert_int_equal(u.n_dst, 1);
}

static void test_dpi_unallocated(void **state)
{
	(void)state;
	static const uint32_t words[] = {
		0x12400000,     /* logical imm, 32-bit with N=1 */
		0x9240fc00,     /* and x0, x0, #<N=1 imms=111111>: reserved */
		0x1200fc00,     /* and w0, w0, #<N=0 imms=111111>: reserved */
		0x12c00000,     /* movn w0 with hw=2: 32-bit has only hw 0, 1 */
		0xb2800000,     /* move wide opc=01 */
		0x93000000,     /* sbfm x0 with N=0 */
		0x13400000,     /* sbfm w0 with N=1 */
		0x13200000,     /* sbfm w0 with immr=32 */
		0x13008000,     /* sbfm w0 with imms=32 */
		0x73000000,     /* bitfield opc=11 */
		0x13808000,     /* extr w0, w0, w0, #32 */
		0x93800000,     /* extr with sf=1, N=0 */
		0x13a00000,     /* extract op21 != 0 */
		0x91800000,     /* addg (MTE, add/sub immediate with tags) */
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		struct uop u;
		isa_decode(words[i], T_CODE, &u);
		if (u.op_class != UOP_UNSUPPORTED)
			print_error("%08x decoded as class %d\n", words[i], u.op_class);
		assert_int_equal(u.op_class, UOP_UNSUPPORTED);
		assert_int_equal(u.exec(NULL, &u), ISA_UNSUPPORTED);
		assert_int_equal(u.n_src + u.n_dst, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dpi_table, isa_env_setup, isa_env_teardown),
		cmocka_unit_test(test_bit_masks),
		cmocka_unit_test_setup_teardown(test_adr_adrp, isa_env_setup, isa_env_teardown),
		cmocka_unit_test(test_dpi_operands),
		cmocka_unit_test(test_dpi_unallocated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
