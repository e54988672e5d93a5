/*
 * test_isa_dpr.c — data processing with register operands: logical and
 * add/subtract (shifted register), add/subtract (extended register),
 * ADC/SBC, CCMP/CCMN, the conditional selects and the 1-source group.
 */
#include "isa_test.h"

/* Expected values from qemu-aarch64; see isa_test.h. */
static const struct isa_alu_case dpr_cases[] = {
	{ 0x8a020020, "and x0, x1, x2", 0x0, 2, { {1, 0xff00ff00ff00ff00}, {2, 0xff00ff00ff00ff0} }, 0x0, 1, { {0, 0xf000f000f000f00} } },
	{ 0x0a021020, "and w0, w1, w2, lsl #4", 0x0, 2, { {1, 0xffffffffffffffff}, {2, 0xfffffff} }, 0x0, 1, { {0, 0xfffffff0} } },
	{ 0x8a62f020, "bic x0, x1, x2, lsr #60", 0x0, 2, { {1, 0xffffffffffffffff}, {2, 0xf000000000000000} }, 0x0, 1, { {0, 0xfffffffffffffff0} } },
	{ 0xaa821020, "orr x0, x1, x2, asr #4", 0x0, 2, { {1, 0x0}, {2, 0x8000000000000000} }, 0x0, 1, { {0, 0xf800000000000000} } },
	{ 0x2a827c20, "orr w0, w1, w2, asr #31", 0x0, 2, { {1, 0x0}, {2, 0x80000000} }, 0x0, 1, { {0, 0xffffffff} } },
	{ 0x2a821020, "orr w0, w1, w2, asr #4", 0x0, 2, { {1, 0x0}, {2, 0x180000000} }, 0x0, 1, { {0, 0xf8000000} } },
	{ 0xaae22020, "orn x0, x1, x2, ror #8", 0x0, 2, { {1, 0x0}, {2, 0xff} }, 0x0, 1, { {0, 0xffffffffffffff} } },
	{ 0x2a220020, "orn w0, w1, w2", 0x0, 2, { {1, 0x0}, {2, 0xffff0000ffff0000} }, 0x0, 1, { {0, 0xffff} } },
	{ 0xcac2fc20, "eor x0, x1, x2, ror #63", 0x0, 2, { {1, 0x1}, {2, 0x8000000000000001} }, 0x0, 1, { {0, 0x2} } },
	{ 0x4ac27c20, "eor w0, w1, w2, ror #31", 0x0, 2, { {1, 0x0}, {2, 0x80000001} }, 0x0, 1, { {0, 0x3} } },
	{ 0x4ac20020, "eor w0, w1, w2, ror #0", 0x0, 2, { {1, 0xffffffff00000000}, {2, 0xff} }, 0x0, 1, { {0, 0xff} } },
	{ 0xca220020, "eon x0, x1, x2", 0x0, 2, { {1, 0x1234}, {2, 0x1234} }, 0x0, 1, { {0, 0xffffffffffffffff} } },
	{ 0x4a624020, "eon w0, w1, w2, lsr #16", 0x0, 2, { {1, 0x0}, {2, 0xffff0000} }, 0x0, 1, { {0, 0xffff0000} } },
	{ 0xea020020, "ands x0, x1, x2", 0x30000000, 2, { {1, 0x8000000000000000}, {2, 0xffffffffffffffff} }, 0x80000000, 1, { {0, 0x8000000000000000} } },
	{ 0x6a020020, "ands w0, w1, w2", 0x30000000, 2, { {1, 0xffffffff00000000}, {2, 0xffffffffffffffff} }, 0x40000000, 1, { {0, 0x0} } },
	{ 0x6a027c20, "ands w0, w1, w2, lsl #31", 0x0, 2, { {1, 0x80000000}, {2, 0x1} }, 0x80000000, 1, { {0, 0x80000000} } },
	{ 0xea220020, "bics x0, x1, x2", 0x90000000, 2, { {1, 0xff}, {2, 0xff} }, 0x40000000, 1, { {0, 0x0} } },
	{ 0x6aa20420, "bics w0, w1, w2, asr #1", 0x0, 2, { {1, 0xc0000000}, {2, 0x80000000} }, 0x40000000, 1, { {0, 0x0} } },
	{ 0xea02043f, "tst x1, x2, lsl #1", 0x0, 2, { {1, 0x2}, {2, 0x1} }, 0x0, 0, { {0, 0} } },
	{ 0xaa0103e0, "mov x0, x1", 0x0, 1, { {1, 0xfedcba9876543210} }, 0x0, 1, { {0, 0xfedcba9876543210} } },
	{ 0x2a0103e0, "mov w0, w1", 0x0, 1, { {1, 0xfedcba9876543210} }, 0x0, 1, { {0, 0x76543210} } },
	{ 0xaa2103e0, "mvn x0, x1", 0x0, 1, { {1, 0xfedcba9876543210} }, 0x0, 1, { {0, 0x123456789abcdef} } },
	{ 0x2a2103e0, "mvn w0, w1", 0x0, 1, { {1, 0xfedcba9876543210} }, 0x0, 1, { {0, 0x89abcdef} } },
	{ 0xaa1f03e0, "mov x0, xzr", 0x0, 0, { {0, 0} }, 0x0, 1, { {0, 0x0} } },
	{ 0x8b020020, "add x0, x1, x2", 0x0, 2, { {1, 0xffffffffffffffff}, {2, 0x2} }, 0x0, 1, { {0, 0x1} } },
	{ 0x8b02fc20, "add x0, x1, x2, lsl #63", 0x0, 2, { {1, 0x0}, {2, 0x1} }, 0x0, 1, { {0, 0x8000000000000000} } },
	{ 0x0b427c20, "add w0, w1, w2, lsr #31", 0x0, 2, { {1, 0xffffffff}, {2, 0x80000000} }, 0x0, 1, { {0, 0x0} } },
	{ 0x8b820420, "add x0, x1, x2, asr #1", 0x0, 2, { {1, 0x0}, {2, 0x8000000000000000} }, 0x0, 1, { {0, 0xc000000000000000} } },
	{ 0x0b820420, "add w0, w1, w2, asr #1", 0x0, 2, { {1, 0x0}, {2, 0x80000000} }, 0x0, 1, { {0, 0xc0000000} } },
	{ 0xcb020020, "sub x0, x1, x2", 0x0, 2, { {1, 0x0}, {2, 0x1} }, 0x0, 1, { {0, 0xffffffffffffffff} } },
	{ 0x4b021020, "sub w0, w1, w2, lsl #4", 0x0, 2, { {1, 0x0}, {2, 0x1} }, 0x0, 1, { {0, 0xfffffff0} } },
	{ 0xcb0103e0, "neg x0, x1", 0x0, 1, { {1, 0x8000000000000000} }, 0x0, 1, { {0, 0x8000000000000000} } },
	{ 0x4b4107e0, "neg w0, w1, lsr #1", 0x0, 1, { {1, 0x2} }, 0x0, 1, { {0, 0xffffffff} } },
	{ 0xab020020, "adds x0, x1, x2", 0x0, 2, { {1, 0x8000000000000000}, {2, 0x8000000000000000} }, 0x70000000, 1, { {0, 0x0} } },
	{ 0x2b020020, "adds w0, w1, w2", 0x0, 2, { {1, 0x7fffffff}, {2, 0x7fffffff} }, 0x90000000, 1, { {0, 0xfffffffe} } },
	{ 0x2b020420, "adds w0, w1, w2, lsl #1", 0x0, 2, { {1, 0x1}, {2, 0xffffffff} }, 0x80000000, 1, { {0, 0xffffffff} } },
	{ 0xeb020020, "subs x0, x1, x2", 0x0, 2, { {1, 0x7fffffffffffffff}, {2, 0xffffffffffffffff} }, 0x90000000, 1, { {0, 0x8000000000000000} } },
	{ 0xeb020020, "subs x0, x1, x2", 0x0, 2, { {1, 0x5}, {2, 0x5} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0x6b020020, "subs w0, w1, w2", 0x0, 2, { {1, 0x80000000}, {2, 0x1} }, 0x30000000, 1, { {0, 0x7fffffff} } },
	{ 0x6b827c20, "subs w0, w1, w2, asr #31", 0x0, 2, { {1, 0x0}, {2, 0x80000000} }, 0x0, 1, { {0, 0x1} } },
	{ 0xeb42803f, "cmp x1, x2, lsr #32", 0x0, 2, { {1, 0xffffffff}, {2, 0xffffffff00000000} }, 0x60000000, 0, { {0, 0} } },
	{ 0x2b02003f, "cmn w1, w2", 0x0, 2, { {1, 0x80000000}, {2, 0x80000000} }, 0x70000000, 0, { {0, 0} } },
	{ 0xeb0103e0, "negs x0, x1", 0x0, 1, { {1, 0x0} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0x6b0103e0, "negs w0, w1", 0x0, 1, { {1, 0x80000000} }, 0x90000000, 1, { {0, 0x80000000} } },
	{ 0x8b220020, "add x0, x1, w2, uxtb", 0x0, 2, { {1, 0x1}, {2, 0xfffffffffffffff0} }, 0x0, 1, { {0, 0xf1} } },
	{ 0x8b228820, "add x0, x1, w2, sxtb #2", 0x0, 2, { {1, 0x100}, {2, 0x80} }, 0x0, 1, { {0, 0xffffffffffffff00} } },
	{ 0x8b223020, "add x0, x1, w2, uxth #4", 0x0, 2, { {1, 0x0}, {2, 0x12348765} }, 0x0, 1, { {0, 0x87650} } },
	{ 0x8b22a020, "add x0, x1, w2, sxth", 0x0, 2, { {1, 0x0}, {2, 0x8000} }, 0x0, 1, { {0, 0xffffffffffff8000} } },
	{ 0x8b224c20, "add x0, x1, w2, uxtw #3", 0x0, 2, { {1, 0x0}, {2, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x7fffffff8} } },
	{ 0x8b22c420, "add x0, x1, w2, sxtw #1", 0x0, 2, { {1, 0x0}, {2, 0x80000000} }, 0x0, 1, { {0, 0xffffffff00000000} } },
	{ 0x8b227020, "add x0, x1, x2, uxtx #4", 0x0, 2, { {1, 0x0}, {2, 0x1000000000000001} }, 0x0, 1, { {0, 0x10} } },
	{ 0x8b22e820, "add x0, x1, x2, sxtx #2", 0x0, 2, { {1, 0x0}, {2, 0xffffffffffffffff} }, 0x0, 1, { {0, 0xfffffffffffffffc} } },
	{ 0x8b2263e0, "add x0, sp, x2", 0x0, 2, { {2, 0x10}, {31, 0x1000} }, 0x0, 1, { {0, 0x1010} } },
	{ 0x8b226fff, "add sp, sp, x2, lsl #3", 0x0, 2, { {2, 0x10}, {31, 0x1000} }, 0x0, 1, { {31, 0x1080} } },
	{ 0x0b220020, "add w0, w1, w2, uxtb", 0x0, 2, { {1, 0xffffffff}, {2, 0x1ff} }, 0x0, 1, { {0, 0xfe} } },
	{ 0x0b228020, "add w0, w1, w2, sxtb", 0x0, 2, { {1, 0x0}, {2, 0xff} }, 0x0, 1, { {0, 0xffffffff} } },
	{ 0x0b222bff, "add wsp, wsp, w2, uxth #2", 0x0, 2, { {2, 0x10}, {31, 0x1000} }, 0x0, 1, { {31, 0x1040} } },
	{ 0xcb22c3e0, "sub x0, sp, w2, sxtw", 0x0, 2, { {2, 0xffffffff}, {31, 0x0} }, 0x0, 1, { {0, 0x1} } },
	{ 0x4b22b020, "sub w0, w1, w2, sxth #4", 0x0, 2, { {1, 0x0}, {2, 0xffff} }, 0x0, 1, { {0, 0x10} } },
	{ 0xab224020, "adds x0, x1, w2, uxtw", 0x0, 2, { {1, 0xffffffff00000001}, {2, 0xffffffff} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0x2b228020, "adds w0, w1, w2, sxtb", 0x0, 2, { {1, 0x80}, {2, 0x80} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0xeb2263e0, "subs x0, sp, x2, uxtx", 0x0, 2, { {2, 0x100}, {31, 0x100} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0x6b2203e0, "subs w0, wsp, w2, uxtb", 0x0, 2, { {2, 0x101}, {31, 0x100} }, 0x20000000, 1, { {0, 0xff} } },
	{ 0xeb2267ff, "cmp sp, x2, uxtx #1", 0x0, 2, { {2, 0x100}, {31, 0x200} }, 0x60000000, 0, { {0, 0} } },
	{ 0x6b22003f, "cmp w1, w2, uxtb", 0x0, 2, { {1, 0xff}, {2, 0xfff} }, 0x60000000, 0, { {0, 0} } },
	{ 0xab22c03f, "cmn x1, w2, sxtw", 0x0, 2, { {1, 0x1}, {2, 0xffffffff} }, 0x60000000, 0, { {0, 0} } },
	{ 0x9a020020, "adc x0, x1, x2", 0x20000000, 2, { {1, 0x1}, {2, 0x2} }, 0x20000000, 1, { {0, 0x4} } },
	{ 0x9a020020, "adc x0, x1, x2", 0x0, 2, { {1, 0x1}, {2, 0x2} }, 0x0, 1, { {0, 0x3} } },
	{ 0x1a020020, "adc w0, w1, w2", 0x20000000, 2, { {1, 0xffffffff}, {2, 0x0} }, 0x20000000, 1, { {0, 0x0} } },
	{ 0xba020020, "adcs x0, x1, x2", 0x20000000, 2, { {1, 0xffffffffffffffff}, {2, 0x0} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0xba020020, "adcs x0, x1, x2", 0x20000000, 2, { {1, 0x7fffffffffffffff}, {2, 0x0} }, 0x90000000, 1, { {0, 0x8000000000000000} } },
	{ 0xba020020, "adcs x0, x1, x2", 0x20000000, 2, { {1, 0xffffffffffffffff}, {2, 0xffffffffffffffff} }, 0xa0000000, 1, { {0, 0xffffffffffffffff} } },
	{ 0x3a020020, "adcs w0, w1, w2", 0x20000000, 2, { {1, 0x7fffffff}, {2, 0x0} }, 0x90000000, 1, { {0, 0x80000000} } },
	{ 0x3a020020, "adcs w0, w1, w2", 0x20000000, 2, { {1, 0xffffffff}, {2, 0xffffffff} }, 0xa0000000, 1, { {0, 0xffffffff} } },
	{ 0x3a020020, "adcs w0, w1, w2", 0x0, 2, { {1, 0xffffffff}, {2, 0x0} }, 0x80000000, 1, { {0, 0xffffffff} } },
	{ 0xda020020, "sbc x0, x1, x2", 0x0, 2, { {1, 0x5}, {2, 0x3} }, 0x0, 1, { {0, 0x1} } },
	{ 0xda020020, "sbc x0, x1, x2", 0x20000000, 2, { {1, 0x5}, {2, 0x3} }, 0x20000000, 1, { {0, 0x2} } },
	{ 0x5a020020, "sbc w0, w1, w2", 0x0, 2, { {1, 0x0}, {2, 0x0} }, 0x0, 1, { {0, 0xffffffff} } },
	{ 0xfa020020, "sbcs x0, x1, x2", 0x20000000, 2, { {1, 0x0}, {2, 0x0} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0xfa020020, "sbcs x0, x1, x2", 0x0, 2, { {1, 0x0}, {2, 0x0} }, 0x80000000, 1, { {0, 0xffffffffffffffff} } },
	{ 0xfa020020, "sbcs x0, x1, x2", 0x0, 2, { {1, 0x8000000000000000}, {2, 0x0} }, 0x30000000, 1, { {0, 0x7fffffffffffffff} } },
	{ 0x7a020020, "sbcs w0, w1, w2", 0x0, 2, { {1, 0x80000000}, {2, 0x0} }, 0x30000000, 1, { {0, 0x7fffffff} } },
	{ 0x7a020020, "sbcs w0, w1, w2", 0x20000000, 2, { {1, 0x5}, {2, 0x5} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0xda0103e0, "ngc x0, x1", 0x0, 1, { {1, 0x0} }, 0x0, 1, { {0, 0xffffffffffffffff} } },
	{ 0x7a0103e0, "ngcs w0, w1", 0x20000000, 1, { {1, 0x0} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0xfa420025, "ccmp x1, x2, #0x5, eq", 0x40000000, 2, { {1, 0x3}, {2, 0x3} }, 0x60000000, 0, { {0, 0} } },
	{ 0xfa420025, "ccmp x1, x2, #0x5, eq", 0x0, 2, { {1, 0x3}, {2, 0x3} }, 0x50000000, 0, { {0, 0} } },
	{ 0xfa42102f, "ccmp x1, x2, #0xf, ne", 0x0, 2, { {1, 0x1}, {2, 0x3} }, 0x80000000, 0, { {0, 0} } },
	{ 0x7a42a020, "ccmp w1, w2, #0x0, ge", 0x0, 2, { {1, 0x80000000}, {2, 0x1} }, 0x30000000, 0, { {0, 0} } },
	{ 0x7a5fe828, "ccmp w1, #31, #0x8, al", 0x0, 1, { {1, 0x1f} }, 0x60000000, 0, { {0, 0} } },
	{ 0xfa40f822, "ccmp x1, #0, #0x2, nv", 0xf0000000, 1, { {1, 0x0} }, 0x60000000, 0, { {0, 0} } },
	{ 0xfa418822, "ccmp x1, #1, #0x2, hi", 0x20000000, 1, { {1, 0x0} }, 0x80000000, 0, { {0, 0} } },
	{ 0xfa418822, "ccmp x1, #1, #0x2, hi", 0x60000000, 1, { {1, 0x0} }, 0x20000000, 0, { {0, 0} } },
	{ 0xba42b020, "ccmn x1, x2, #0x0, lt", 0x80000000, 2, { {1, 0x7fffffffffffffff}, {2, 0x1} }, 0x90000000, 0, { {0, 0} } },
	{ 0xba42b020, "ccmn x1, x2, #0x0, lt", 0x90000000, 2, { {1, 0x7fffffffffffffff}, {2, 0x1} }, 0x0, 0, { {0, 0} } },
	{ 0x3a456823, "ccmn w1, #5, #0x3, vs", 0x10000000, 1, { {1, 0xfffffffb} }, 0x60000000, 0, { {0, 0} } },
	{ 0x3a457823, "ccmn w1, #5, #0x3, vc", 0x10000000, 1, { {1, 0xfffffffb} }, 0x30000000, 0, { {0, 0} } },
	{ 0xfa42c024, "ccmp x1, x2, #0x4, gt", 0x0, 2, { {1, 0x2}, {2, 0x1} }, 0x20000000, 0, { {0, 0} } },
	{ 0xfa42d024, "ccmp x1, x2, #0x4, le", 0x0, 2, { {1, 0x2}, {2, 0x1} }, 0x40000000, 0, { {0, 0} } },
	{ 0xfa423024, "ccmp x1, x2, #0x4, cc", 0x0, 2, { {1, 0x2}, {2, 0x1} }, 0x20000000, 0, { {0, 0} } },
	{ 0xfa425024, "ccmp x1, x2, #0x4, pl", 0x80000000, 2, { {1, 0x2}, {2, 0x1} }, 0x40000000, 0, { {0, 0} } },
	{ 0x9a820020, "csel x0, x1, x2, eq", 0x40000000, 2, { {1, 0x1}, {2, 0x2} }, 0x40000000, 1, { {0, 0x1} } },
	{ 0x9a820020, "csel x0, x1, x2, eq", 0x0, 2, { {1, 0x1}, {2, 0x2} }, 0x0, 1, { {0, 0x2} } },
	{ 0x1a821020, "csel w0, w1, w2, ne", 0x0, 2, { {1, 0xffffffff00000001}, {2, 0xffffffff00000002} }, 0x0, 1, { {0, 0x1} } },
	{ 0x1a821020, "csel w0, w1, w2, ne", 0x40000000, 2, { {1, 0xffffffff00000001}, {2, 0xffffffff00000002} }, 0x40000000, 1, { {0, 0x2} } },
	{ 0x9a822420, "csinc x0, x1, x2, cs", 0x0, 2, { {1, 0x1}, {2, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x0} } },
	{ 0x1a822420, "csinc w0, w1, w2, cs", 0x0, 2, { {1, 0x1}, {2, 0xffffffff} }, 0x0, 1, { {0, 0x0} } },
	{ 0xda824020, "csinv x0, x1, x2, mi", 0x0, 2, { {1, 0x1}, {2, 0x0} }, 0x0, 1, { {0, 0xffffffffffffffff} } },
	{ 0x5a824020, "csinv w0, w1, w2, mi", 0x0, 2, { {1, 0x1}, {2, 0x0} }, 0x0, 1, { {0, 0xffffffff} } },
	{ 0xda826420, "csneg x0, x1, x2, vs", 0x0, 2, { {1, 0x1}, {2, 0x5} }, 0x0, 1, { {0, 0xfffffffffffffffb} } },
	{ 0x5a826420, "csneg w0, w1, w2, vs", 0x0, 2, { {1, 0x1}, {2, 0x5} }, 0x0, 1, { {0, 0xfffffffb} } },
	{ 0x5a826420, "csneg w0, w1, w2, vs", 0x10000000, 2, { {1, 0x1}, {2, 0x5} }, 0x10000000, 1, { {0, 0x1} } },
	{ 0x9a9f97e0, "cset x0, hi", 0x20000000, 0, { {0, 0} }, 0x20000000, 1, { {0, 0x1} } },
	{ 0x1a9f97e0, "cset w0, hi", 0x60000000, 0, { {0, 0} }, 0x60000000, 1, { {0, 0x0} } },
	{ 0xda9fb3e0, "csetm x0, ge", 0x90000000, 0, { {0, 0} }, 0x90000000, 1, { {0, 0xffffffffffffffff} } },
	{ 0x5a9fa3e0, "csetm w0, lt", 0x90000000, 0, { {0, 0} }, 0x90000000, 1, { {0, 0x0} } },
	{ 0x9a81d420, "cinc x0, x1, gt", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x0} } },
	{ 0x5a81c420, "cneg w0, w1, le", 0x40000000, 1, { {1, 0x5} }, 0x40000000, 1, { {0, 0xfffffffb} } },
	{ 0x9a82e020, "csel x0, x1, x2, al", 0x0, 2, { {1, 0x1}, {2, 0x2} }, 0x0, 1, { {0, 0x1} } },
	{ 0x9a82f020, "csel x0, x1, x2, nv", 0x0, 2, { {1, 0x1}, {2, 0x2} }, 0x0, 1, { {0, 0x1} } },
	{ 0xdac00020, "rbit x0, x1", 0x0, 1, { {1, 0x1} }, 0x0, 1, { {0, 0x8000000000000000} } },
	{ 0xdac00020, "rbit x0, x1", 0x0, 1, { {1, 0x123456789abcdef0} }, 0x0, 1, { {0, 0xf7b3d591e6a2c48} } },
	{ 0x5ac00020, "rbit w0, w1", 0x0, 1, { {1, 0xffffffff00000001} }, 0x0, 1, { {0, 0x80000000} } },
	{ 0xdac00420, "rev16 x0, x1", 0x0, 1, { {1, 0x11223344556677} }, 0x0, 1, { {0, 0x1100332255447766} } },
	{ 0x5ac00420, "rev16 w0, w1", 0x0, 1, { {1, 0xffffffff00112233} }, 0x0, 1, { {0, 0x11003322} } },
	{ 0xdac00820, "rev32 x0, x1", 0x0, 1, { {1, 0x11223344556677} }, 0x0, 1, { {0, 0x3322110077665544} } },
	{ 0xdac00c20, "rev x0, x1", 0x0, 1, { {1, 0x11223344556677} }, 0x0, 1, { {0, 0x7766554433221100} } },
	{ 0x5ac00820, "rev w0, w1", 0x0, 1, { {1, 0xffffffff00112233} }, 0x0, 1, { {0, 0x33221100} } },
	{ 0xdac01020, "clz x0, x1", 0x0, 1, { {1, 0x0} }, 0x0, 1, { {0, 0x40} } },
	{ 0xdac01020, "clz x0, x1", 0x0, 1, { {1, 0x1} }, 0x0, 1, { {0, 0x3f} } },
	{ 0xdac01020, "clz x0, x1", 0x0, 1, { {1, 0x8000000000000000} }, 0x0, 1, { {0, 0x0} } },
	{ 0x5ac01020, "clz w0, w1", 0x0, 1, { {1, 0xffffffff00000000} }, 0x0, 1, { {0, 0x20} } },
	{ 0x5ac01020, "clz w0, w1", 0x0, 1, { {1, 0x10000} }, 0x0, 1, { {0, 0xf} } },
	{ 0xdac01420, "cls x0, x1", 0x0, 1, { {1, 0x0} }, 0x0, 1, { {0, 0x3f} } },
	{ 0xdac01420, "cls x0, x1", 0x0, 1, { {1, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x3f} } },
	{ 0xdac01420, "cls x0, x1", 0x0, 1, { {1, 0x7fffffffffffffff} }, 0x0, 1, { {0, 0x0} } },
	{ 0xdac01420, "cls x0, x1", 0x0, 1, { {1, 0xff00000000000000} }, 0x0, 1, { {0, 0x7} } },
	{ 0x5ac01420, "cls w0, w1", 0x0, 1, { {1, 0xffff0000} }, 0x0, 1, { {0, 0xf} } },
	{ 0x5ac01420, "cls w0, w1", 0x0, 1, { {1, 0xffffffff00000000} }, 0x0, 1, { {0, 0x1f} } },
	{ 0x5ac01420, "cls w0, w1", 0x0, 1, { {1, 0x1} }, 0x0, 1, { {0, 0x1e} } },
};

static void test_dpr_table(void **state)
{
	isa_check_alu_cases(*state, dpr_cases, sizeof dpr_cases / sizeof dpr_cases[0]);
}

/* Flags go into the dependence lists exactly where the timing model needs
 * them; register 31 is SP only where the encoding says so. */
static void test_dpr_dependences(void **state)
{
	(void)state;
	struct uop u;

	isa_decode(0xaa0103e0, T_CODE, &u);          /* mov x0, x1 */
	assert_int_equal(u.n_src, 1);
	assert_int_equal(u.src[0], REG_X(1));
	assert_int_equal(u.n_dst, 1);
	assert_int_equal(u.dst[0], REG_X(0));
	assert_int_equal(u.op_class, UOP_ALU);

	isa_decode(0x8b2243e0, T_CODE, &u);          /* add x0, sp, w2, uxtw */
	assert_int_equal(u.rn, CPU_SP);
	assert_true(isa_has_src(&u, REG_SP));
	assert_true(isa_has_src(&u, REG_X(2)));
	assert_int_equal(u.n_src, 2);

	isa_decode(0xab2263ff, T_CODE, &u);          /* cmn sp, x2 (adds xzr, sp, x2) */
	assert_int_equal(u.rd, CPU_ZR_SINK);
	assert_true(isa_has_src(&u, REG_SP));
	assert_int_equal(u.n_dst, 1);
	assert_int_equal(u.dst[0], REG_NZCV);

	isa_decode(0x9a820020, T_CODE, &u);          /* csel x0, x1, x2, eq */
	assert_int_equal(u.n_src, 3);
	assert_true(isa_has_src(&u, REG_NZCV));
	assert_false(isa_has_dst(&u, REG_NZCV));

	isa_decode(0x1a9f17e0, T_CODE, &u);          /* cset w0, eq: both sources are wzr */
	assert_int_equal(u.n_src, 1);
	assert_int_equal(u.src[0], REG_NZCV);

	isa_decode(0x9a020020, T_CODE, &u);          /* adc x0, x1, x2 */
	assert_true(isa_has_src(&u, REG_NZCV));
	assert_false(isa_has_dst(&u, REG_NZCV));

	isa_decode(0xfa421020, T_CODE, &u);          /* ccmp x1, x2, #0, ne */
	assert_int_equal(u.n_src, 3);
	assert_true(isa_has_src(&u, REG_NZCV));
	assert_int_equal(u.n_dst, 1);
	assert_int_equal(u.dst[0], REG_NZCV);

	isa_decode(0x3a456823, T_CODE, &u);          /* ccmn w1, #5, #3, vs */
	assert_int_equal(u.n_src, 2);
	assert_true(isa_has_src(&u, REG_X(1)));
	assert_true(isa_has_src(&u, REG_NZCV));

	isa_decode(0xeb020020, T_CODE, &u);          /* subs x0, x1, x2 */
	assert_int_equal(u.n_dst, 2);
	assert_true(isa_has_dst(&u, REG_X(0)));
	assert_true(isa_has_dst(&u, REG_NZCV));
	assert_false(isa_has_src(&u, REG_NZCV));
}

static void test_dpr_unallocated(void **state)
{
	(void)state;
	static const uint32_t words[] = {
		0x0a008000,     /* and w0 with shift amount 32 */
		0x0bc00000,     /* add (shifted register) with ROR */
		0x0b008000,     /* add w0 with shift amount 32 */
		0x0b600000,     /* add (extended register) with opt != 0 */
		0x8b201400,     /* add (extended register) with shift 5 */
		0x7ac00000,     /* 1-source with S=1 */
		0x5ac00c00,     /* rev with sf=0, opc=11 */
		0x5ac01800,     /* ctz (FEAT_CSSC): not in the base set */
		0x9ac13000,     /* pacga (FEAT_PAuth; the 1-source PAC forms run, keys disabled) */
		0xdac12020,     /* paciza x0 with Rn != 31: reserved */
		0x1a800800,     /* conditional select with op2 = 1x */
		0x3a800000,     /* conditional select with S=1 */
		0x3a400400,     /* conditional compare with o2=1 */
		0x3a400010,     /* conditional compare with o3=1 */
		0x1a400000,     /* conditional compare with S=0 */
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		struct uop u;
		isa_decode(words[i], T_CODE, &u);
		if (u.op_class != UOP_UNSUPPORTED)
			print_error("%08x decoded as class %d\n", words[i], u.op_class);
		assert_int_equal(u.op_class, UOP_UNSUPPORTED);
		assert_int_equal(u.exec(NULL, &u), ISA_UNSUPPORTED);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dpr_table, isa_env_setup, isa_env_teardown),
		cmocka_unit_test(test_dpr_dependences),
		cmocka_unit_test(test_dpr_unallocated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
