/*
 * strat_spec.c — fuzz harness for the compressor spec parser
 * (engine/strat/strat_spec.c): any bytes as a spec. A spec that parses
 * must print back to a spec that parses to the same stages, and a
 * compressor built from it must take a few tuples; one that does not
 * parse must say why in one line. With libFuzzer:
 *   clang -g -fsanitize=fuzzer,address,undefined -Iengine tests/fuzz/strat_spec.c build/libivx.a -lm
 * make test replays known bad specs through it (tests/unit/test_strat_spec.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "strat/strat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[STRAT_SPEC_MAX * 2];
	if (size >= sizeof text)
		size = sizeof text - 1;
	memcpy(text, data, size);
	text[size] = 0;
	struct strat_spec spec, again;
	struct ivx_err err = { 0 };
	if (strat_spec_parse(text, &spec, &err) < 0) {
		if (!err.msg[0] || strchr(err.msg, '\n'))
			abort();   /* every refusal is one line */
		return 0;
	}
	char canon[256];
	strat_spec_format(&spec, canon, sizeof canon);
	if (strat_spec_parse(canon, &again, &err) < 0 || memcmp(&spec, &again, sizeof spec))
		abort();
	/* keep big tables out of the fuzzer's way: build only small ones */
	if (strat_spec_bits(&spec) > (1u << 20))
		return 0;
	struct strat_comp *c = strat_comp_new(&spec, 1, &err);
	if (!c)
		return 0;
	for (uint64_t i = 0; i < 64; i++)
		strat_comp_push(c, 0x400000 + 4 * (i % 5), i % 7);
	strat_comp_flush(c);
	strat_comp_free(c);
	return 0;
}
