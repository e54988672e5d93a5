/*
 * test_isa_coverage.c — ivx decodes every scalar FP and Advanced SIMD
 * encoding that capstone 4 decodes. capstone knows ARMv8.0 (with the
 * crypto extension) and not the later FP16, RDM or dot-product forms, so
 * this checks that the base set is complete; a word capstone knows and
 * ivx calls unsupported is reported with capstone's text.
 *
 * Words are drawn with a fixed seed from two spaces: x0x1 1110 ...
 * (scalar FP and FP <-> integer) and 0xxx 111x ... (Advanced SIMD vector
 * and scalar, the crypto extension, and FP again).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <capstone/capstone.h>
#include "isa/isa.h"
#include "isa/disasm.h"

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void every_capstone_word_decodes(void **state)
{
	(void)state;
	int major, minor;
	cs_version(&major, &minor);
	if (major != 4) {               /* later capstones know FP16, BF16 ...: not a v8.0 check */
		print_message("capstone %d.%d, not 4: skipped\n", major, minor);
		skip();
	}
	uint64_t s = 0x9e3779b97f4a7c15ull;
	int missing = 0;
	long known = 0;
	for (long k = 0; k < 600000; k++) {
		uint32_t w = (uint32_t)next(&s);
		if (k & 1)
			w = (w & ~0x8e000000u) | 0x0e000000u;          /* 0xxx 111x: AdvSIMD, crypto (and FP) */
		else
			w = (w & ~0x5f000000u) | 0x1e000000u;          /* x0x1 1110: FP */
		char text[96];
		disasm_word(w, 0x400000, text, sizeof text);
		if (!strncmp(text, ".inst", 5))
			continue;
		known++;
		struct uop u;
		isa_decode(w, 0x400000, &u);
		if (u.op_class == UOP_UNSUPPORTED && missing++ < 20)
			print_error("%08x %s: unsupported\n", w, text);
	}
	print_message("%ld words capstone decodes, %d of them unsupported\n", known, missing);
	assert_true(known > 50000);
	assert_int_equal(missing, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_capstone_word_decodes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
