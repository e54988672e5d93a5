/*
 * dcpi_db.c — a libFuzzer harness for the profile database's reader
 * (dcpi_profile_decode): any bytes must give a profile or an error, never
 * a crash, a hang or an out-of-bounds read. A decoded profile re-encodes
 * to bytes that decode to the same records.
 *
 * Built with clang -fsanitize=fuzzer it is a fuzzer; built with
 * -DDCPI_FUZZ_REPLAY (tests/mk/dcpi.mk, `make test`) it is a plain program
 * that feeds each file named on its command line through the same entry,
 * plus corrupt variants of a valid profile it builds itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dcpi/dcpi.h"
#include "dcpi/dcpi_db.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dcpi_profile *p;
	if (dcpi_profile_decode(data, size, &p, NULL) < 0)
		return 0;
	uint8_t *buf;
	size_t len;
	if (dcpi_profile_encode(p, &buf, &len, NULL) == 0) {
		struct dcpi_profile *q;
		if (dcpi_profile_decode(buf, len, &q, NULL) < 0 || q->n != p->n ||
		    (p->n && memcmp(q->rec, p->rec, p->n * sizeof *p->rec)))
			abort();
		dcpi_profile_free(q);
		free(buf);
	}
	dcpi_profile_free(p);
	return 0;
}

#ifdef DCPI_FUZZ_REPLAY
/* Every truncation and every single-bit flip of a valid profile, then the
 * files given. Exit 0 when all went through (a crash is the failure). */
static long mutate(struct dcpi_profile *p)
{
	uint8_t *buf;
	size_t len;
	if (!p || dcpi_profile_encode(p, &buf, &len, NULL) < 0)
		return -1;
	long inputs = 0;
	for (size_t n = 0; n <= len; n++, inputs++)
		LLVMFuzzerTestOneInput(buf, n);
	for (size_t i = 0; i < len; i++)
		for (int b = 0; b < 8; b++, inputs++) {
			buf[i] ^= (uint8_t)(1u << b);
			LLVMFuzzerTestOneInput(buf, len);
			buf[i] ^= (uint8_t)(1u << b);
		}
	free(buf);
	return inputs;
}

int main(int argc, char **argv)
{
	struct dcpi_profile *p = dcpi_profile_new(DCPI_KIND_TRUTH, DCPI_CYCLES, "/bin/x", NULL);
	for (uint64_t pc = 0x400000; p && pc < 0x400100; pc += 4)
		dcpi_profile_add(p, pc, pc * 977 % 100000 + 1, NULL);
	/* a culprit profile (version 2): records of three varints, several per pc */
	struct dcpi_profile *c = dcpi_profile_new(DCPI_KIND_CULPRIT, ISSUE_WAIT_DEP_L2D, "/bin/x", NULL);
	for (uint64_t pc = 0x400000; c && pc < 0x400080; pc += 4)
		for (uint64_t k = 0; k < 3; k++)
			dcpi_profile_add_aux(c, pc, k ? pc - 4 * k : 0, pc * 31 % 1000 + k + 1, NULL);
	if (!p || !c)
		return 1;
	dcpi_profile_normalize(p);
	dcpi_profile_normalize(c);
	/* (headers a run could write: the reader refuses counts its cycles
	 * cannot hold, and would stop at the header) */
	p->runs = c->runs = 1;
	p->cycles = p->enabled_cycles = c->cycles = c->enabled_cycles = 1ull << 30;
	long a = mutate(p), b = mutate(c);
	if (a < 0 || b < 0)
		return 1;
	long inputs = a + b;
	for (int i = 1; i < argc; i++, inputs++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			fprintf(stderr, "%s: cannot open\n", argv[i]);
			return 1;
		}
		static uint8_t in[1 << 20];
		size_t n = fread(in, 1, sizeof in, f);
		fclose(f);
		LLVMFuzzerTestOneInput(in, n);
	}
	printf("dcpi_db replay: %ld inputs, no crash\n", inputs);
	dcpi_profile_free(p);
	dcpi_profile_free(c);
	return 0;
}
#endif
