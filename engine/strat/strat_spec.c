/*
 * strat_spec.c — compressor specs as text: a small recursive-descent
 * parser, the canonical printer, and the hardware size of a spec.
 *
 *   spec     := stage ( '+' stage )*          later stages: A only
 *   stage    := sampler                       R256, P256, CR256, D256
 *             | 'H' '[' sampler ']' N         H[P256]2048: N strata (2^k)
 *             | 'T' B '[' N ']' N [ '/' N ]   T2[256]2048/2: B tag bits,
 *                                             hit counter max, entries, ways
 *             | 'A' N                         A16: k associative counters
 *             | 'CM' N 'x' N                  CM1024x4: Count-Min, width x depth
 *             | 'SS' N                        SS256: Space-Saving, k tuples
 *   sampler  := [ 'C' ] ( 'R' | 'D' | 'P' ) N
 *
 * Spaces between tokens are allowed. Every error is one line that names
 * the column and what was expected there.
 */
#include <stdio.h>
#include <string.h>
#include "strat.h"

struct parser {
	const char *text, *p;
	struct ivx_err *err;
};

static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

static int fail(struct parser *ps, const char *expected)
{
	char found[16];
	if (!*ps->p)
		snprintf(found, sizeof found, "end of spec");
	else if ((unsigned char)*ps->p >= 0x20 && (unsigned char)*ps->p < 0x7f)
		snprintf(found, sizeof found, "'%c'", *ps->p);
	else
		snprintf(found, sizeof found, "byte 0x%02x", (unsigned char)*ps->p);
	return ivx_error(ps->err, IVX_EUSAGE, "bad compressor spec '%s': at column %d expected %s, found %s",
			 ps->text, (int)(ps->p - ps->text) + 1, expected, found);
}

static int range_error(struct parser *ps, const char *start, const char *what)
{
	return ivx_error(ps->err, IVX_EUSAGE, "bad compressor spec '%s': at column %d %s", ps->text,
			 (int)(start - ps->text) + 1, what);
}

/* A decimal number in [lo, hi]; pow2: must be a power of two. */
static int number(struct parser *ps, uint32_t lo, uint32_t hi, int pow2, const char *what, uint32_t *out)
{
	skip_space(ps);
	const char *start = ps->p;
	if (*ps->p < '0' || *ps->p > '9')
		return fail(ps, what);
	uint64_t v = 0;
	while (*ps->p >= '0' && *ps->p <= '9') {
		v = v * 10 + (uint64_t)(*ps->p - '0');
		if (v > 0xffffffffull)
			v = 0xffffffffull + 1;   /* stays too big */
		ps->p++;
	}
	char msg[128];
	if (v < lo || v > hi) {
		snprintf(msg, sizeof msg, "%s must be %u..%u", what, lo, hi);
		return range_error(ps, start, msg);
	}
	if (pow2 && (v & (v - 1))) {
		snprintf(msg, sizeof msg, "%s must be a power of two", what);
		return range_error(ps, start, msg);
	}
	*out = (uint32_t)v;
	return 0;
}

static int expect(struct parser *ps, char ch)
{
	skip_space(ps);
	if (*ps->p != ch) {
		char what[8];
		snprintf(what, sizeof what, "'%c'", ch);
		return fail(ps, what);
	}
	ps->p++;
	return 0;
}

#define RATE_MAX (1u << 24)

static int sampler(struct parser *ps, struct strat_stage *st)
{
	skip_space(ps);
	if (*ps->p == 'C' && ps->p[1] != 'M') {
		st->counter = 1;
		ps->p++;
	}
	switch (*ps->p) {
	case 'R': st->kind = STRAT_R; break;
	case 'D': st->kind = STRAT_D; break;
	case 'P': st->kind = STRAT_P; break;
	default:
		return fail(ps, st->counter ? "a sampler R, D or P after C" : "a sampler R, D or P");
	}
	ps->p++;
	return number(ps, 1, RATE_MAX, 0, "a sampling rate", &st->rate);
}

static int stage(struct parser *ps, struct strat_stage *st, int first)
{
	memset(st, 0, sizeof *st);
	st->strata = 1;
	skip_space(ps);
	if (!first) {
		if (*ps->p != 'A')
			return fail(ps, "A<k> (only an associative table may follow '+')");
		ps->p++;
		st->kind = STRAT_A;
		return number(ps, 1, 4096, 0, "the table size k", &st->entries);
	}
	const char *c = ps->p;
	if (c[0] == 'H') {
		ps->p++;
		if (expect(ps, '[') < 0 || sampler(ps, st) < 0 || expect(ps, ']') < 0)
			return -1;
		return number(ps, 1, 1u << 20, 1, "the number of strata", &st->strata);
	}
	if (c[0] == 'T') {
		st->kind = STRAT_T;
		ps->p++;
		if (number(ps, 1, 16, 0, "the tag bits", &st->tag_bits) < 0 || expect(ps, '[') < 0 ||
		    number(ps, 2, 1u << 16, 0, "the hit counter's maximum", &st->rate) < 0 || expect(ps, ']') < 0 ||
		    number(ps, 1, 1u << 20, 1, "the number of entries", &st->entries) < 0)
			return -1;
		st->ways = 1;
		skip_space(ps);
		if (*ps->p == '/') {
			ps->p++;
			if (number(ps, 1, 16, 1, "the associativity", &st->ways) < 0)
				return -1;
			if (st->ways > st->entries)
				return range_error(ps, c, "the associativity exceeds the entries");
		}
		return 0;
	}
	if (c[0] == 'A') {
		st->kind = STRAT_A;
		ps->p++;
		return number(ps, 1, 4096, 0, "the table size k", &st->entries);
	}
	if (c[0] == 'C' && c[1] == 'M') {
		st->kind = STRAT_CM;
		ps->p += 2;
		if (number(ps, 1, 1u << 20, 0, "the sketch width", &st->entries) < 0 || expect(ps, 'x') < 0)
			return -1;
		return number(ps, 1, 8, 0, "the sketch depth", &st->ways);
	}
	if (c[0] == 'S' && c[1] == 'S') {
		st->kind = STRAT_SS;
		ps->p += 2;
		return number(ps, 1, 1u << 16, 0, "the number of monitored tuples", &st->entries);
	}
	if (c[0] == 'C' || c[0] == 'R' || c[0] == 'D' || c[0] == 'P')
		return sampler(ps, st);
	return fail(ps, "a stage: R, D, P, C<sampler>, H[..]n, T, A, CM or SS");
}

int strat_spec_parse(const char *text, struct strat_spec *spec, struct ivx_err *err)
{
	struct parser ps = { text ? text : "", text ? text : "", err };
	memset(spec, 0, sizeof *spec);
	if (strlen(ps.text) > STRAT_SPEC_MAX)
		return ivx_error(err, IVX_EUSAGE, "bad compressor spec: longer than %d characters", STRAT_SPEC_MAX);
	for (const char *q = ps.text; *q; q++)
		if (((unsigned char)*q < 0x20 && *q != '\t') || (unsigned char)*q >= 0x7f)
			return ivx_error(err, IVX_EUSAGE,
					 "bad compressor spec: byte 0x%02x at column %d is not printable",
					 (unsigned char)*q, (int)(q - text) + 1);
	for (;;) {
		if (spec->n_stages == STRAT_MAX_STAGES)
			return fail(&ps, "end of spec (at most 4 stages)");
		if (stage(&ps, &spec->stage[spec->n_stages], spec->n_stages == 0) < 0)
			return IVX_EUSAGE;
		spec->n_stages++;
		skip_space(&ps);
		if (!*ps.p)
			break;
		int k = spec->stage[0].kind;
		if (*ps.p != '+')
			return fail(&ps, "'+' or end of spec");
		if (k == STRAT_CM || k == STRAT_SS)
			return fail(&ps, "end of spec (a sketch sends no messages to compress further)");
		ps.p++;
	}
	return 0;
}

void strat_spec_format(const struct strat_spec *spec, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < spec->n_stages && n < size; i++) {
		const struct strat_stage *st = &spec->stage[i];
		char one[64];
		const char *s = st->kind == STRAT_R ? "R" : st->kind == STRAT_D ? "D" : "P";
		switch (st->kind) {
		case STRAT_R: case STRAT_D: case STRAT_P:
			if (st->strata > 1)
				snprintf(one, sizeof one, "H[%s%s%u]%u", st->counter ? "C" : "", s, st->rate, st->strata);
			else
				snprintf(one, sizeof one, "%s%s%u", st->counter ? "C" : "", s, st->rate);
			break;
		case STRAT_T:
			if (st->ways > 1)
				snprintf(one, sizeof one, "T%u[%u]%u/%u", st->tag_bits, st->rate, st->entries, st->ways);
			else
				snprintf(one, sizeof one, "T%u[%u]%u", st->tag_bits, st->rate, st->entries);
			break;
		case STRAT_A: snprintf(one, sizeof one, "A%u", st->entries); break;
		case STRAT_CM: snprintf(one, sizeof one, "CM%ux%u", st->entries, st->ways); break;
		default: snprintf(one, sizeof one, "SS%u", st->entries); break;
		}
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "+" : "", one);
	}
}

static unsigned bits_for(uint32_t max)
{
	unsigned b = 1;
	while (b < 32 && (1ull << b) <= max)
		b++;
	return b;
}

uint64_t strat_spec_bits(const struct strat_spec *spec)
{
	const struct strat_stage *st = &spec->stage[0];
	switch (st->kind) {
	case STRAT_R: return st->counter ? 32 : 0;   /* stateless; C adds a counter */
	case STRAT_D: case STRAT_P:
		return (uint64_t)st->strata * (bits_for(st->kind == STRAT_D ? 2 * st->rate : st->rate - 1) +
					       (st->counter ? 32 : 0));
	case STRAT_T:   /* hit counter, 3-bit miss counter, tag, a state bit */
		return (uint64_t)st->entries * (bits_for(st->rate) + 3 + st->tag_bits + 1);
	case STRAT_A: return (uint64_t)st->entries * (128 + 32);
	case STRAT_CM: return (uint64_t)st->entries * st->ways * 32;
	default: return (uint64_t)st->entries * (128 + 32 + 32);
	}
}
