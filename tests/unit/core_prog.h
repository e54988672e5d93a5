/*
 * core_prog.h — tests only: tiny A64 programs for the core-model tests
 * (an instruction-word builder with the few encodings they use), and a
 * harness that runs one on the timing model with a configuration
 * built from "section.key=value" overrides, plus an observer that checks
 * and fingerprints the event stream.
 */
#ifndef IVX_TEST_CORE_PROG_H
#define IVX_TEST_CORE_PROG_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "core/config.h"
#include "core/core.h"
#include "elf_builder.h"
#include "guest/guest.h"
#include "guest/program.h"

/* ---- encodings (offsets of branches in instructions) ---- */
#define I_ADDI(rd, rn, imm)  (0x91000000u | ((uint32_t)(imm) << 10) | ((rn) << 5) | (rd))
#define I_SUBSI(rd, rn, imm) (0xf1000000u | ((uint32_t)(imm) << 10) | ((rn) << 5) | (rd))
#define I_ADDR(rd, rn, rm)   (0x8b000000u | ((rm) << 16) | ((rn) << 5) | (rd))
#define I_ANDI1(rd, rn)      (0x92400000u | ((rn) << 5) | (rd))                  /* and rd, rn, #1 */
#define I_BCOND(cond, off)   (0x54000000u | (((uint32_t)(off) & 0x7ffff) << 5) | (cond))
#define I_CBZ(rt, off)       (0xb4000000u | (((uint32_t)(off) & 0x7ffff) << 5) | (rt))
#define I_CBNZ(rt, off)      (0xb5000000u | (((uint32_t)(off) & 0x7ffff) << 5) | (rt))
#define I_B(off)             (0x14000000u | ((uint32_t)(off) & 0x3ffffff))
#define I_MUL(rd, rn, rm)    (0x9b007c00u | ((rm) << 16) | ((rn) << 5) | (rd))
#define I_UDIV(rd, rn, rm)   (0x9ac00800u | ((rm) << 16) | ((rn) << 5) | (rd))
#define I_LDR(rt, rn, imm)   (0xf9400000u | ((uint32_t)((imm) / 8) << 10) | ((rn) << 5) | (rt))
#define I_STR(rt, rn, imm)   (0xf9000000u | ((uint32_t)((imm) / 8) << 10) | ((rn) << 5) | (rt))
#define I_MOVZ(rd, imm)      (0xd2800000u | ((uint32_t)(imm) << 5) | (rd))
#define I_MOVZ16(rd, imm)    (0xd2a00000u | ((uint32_t)(imm) << 5) | (rd))       /* movz rd, #imm, lsl 16 */
#define I_SVC0               0xd4000001u
#define I_NOP                0xd503201fu
#define COND_EQ 0
#define COND_NE 1

struct cprog {
	uint32_t w[4096];
	int n;
};

static inline int cp_emit(struct cprog *p, uint32_t word)
{
	p->w[p->n] = word;
	return p->n++;
}

/* exit(x0 & 0xff): exit_group */
static inline void cp_exit(struct cprog *p)
{
	cp_emit(p, I_MOVZ(8, 94));
	cp_emit(p, I_SVC0);
}

/* ---- event checker / fingerprint ---- */
#define EV_OPEN_MAX 4096

struct evcheck {
	uint64_t hash;                  /* FNV-1a over every event */
	uint64_t begins[MISS_KIND_COUNT], ends[MISS_KIND_COUNT];
	uint64_t begins_correct[MISS_KIND_COUNT];
	uint64_t insn[INSN_STAGE_COUNT];
	uint64_t cycles;
	uint64_t last_id;
	int errors;                     /* inconsistencies seen */
	char first_error[160];
	uint64_t open_id[EV_OPEN_MAX];  /* ids begun and not yet ended */
	uint64_t open_start[EV_OPEN_MAX];
	int n_open;
	struct core_observer obs;
};

static inline void ev_mix(struct evcheck *e, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		e->hash = (e->hash ^ b[i]) * 0x100000001b3ull;
}

static inline void ev_error(struct evcheck *e, const char *what, uint64_t v)
{
	if (!e->errors++)
		snprintf(e->first_error, sizeof e->first_error, "%s (%llu)", what, (unsigned long long)v);
}

static inline void ev_on_miss(void *ctx, const struct miss_event *m)
{
	struct evcheck *e = ctx;
	uint64_t f[7] = { (uint64_t)m->kind, (uint64_t)m->phase, m->id, m->start, m->end, m->insn_seq,
			  (uint64_t)m->correct_path };
	ev_mix(e, f, sizeof f);
	if (m->phase == MISS_BEGIN) {
		e->begins[m->kind]++;
		e->begins_correct[m->kind] += m->correct_path != 0;
		if (m->id <= e->last_id)
			ev_error(e, "event ids not increasing", m->id);
		e->last_id = m->id;
		if (e->n_open == EV_OPEN_MAX)
			ev_error(e, "too many open events", m->id);
		else {
			e->open_id[e->n_open] = m->id;
			e->open_start[e->n_open++] = m->start;
		}
		return;
	}
	e->ends[m->kind]++;
	for (int i = 0; i < e->n_open; i++)
		if (e->open_id[i] == m->id) {
			if (m->start != e->open_start[i] || m->end < m->start)
				ev_error(e, "event end inconsistent with its begin", m->id);
			e->open_id[i] = e->open_id[--e->n_open];
			e->open_start[i] = e->open_start[e->n_open];
			return;
		}
	ev_error(e, "event ended that never began", m->id);
}

static inline void ev_on_insn(void *ctx, const struct insn_event *i)
{
	struct evcheck *e = ctx;
	uint64_t f[5] = { (uint64_t)i->stage, i->cycle, i->seq, i->pc, (uint64_t)i->wrong_path };
	ev_mix(e, f, sizeof f);
	e->insn[i->stage]++;
	if (i->stage == INSN_COMMIT && i->wrong_path)
		ev_error(e, "a wrong-path instruction committed", i->seq);
}

static inline void ev_on_cycle(void *ctx, const struct cycle_record *r)
{
	struct evcheck *e = ctx;
	ev_mix(e, r, sizeof *r);
	e->cycles++;
}

static inline size_t ev_size(void *ctx) { return sizeof(struct evcheck); }
static inline void ev_save(void *ctx, void *blob) { memcpy(blob, ctx, sizeof(struct evcheck)); }
static inline void ev_restore(void *ctx, const void *blob)
{
	struct evcheck *e = ctx;
	struct core_observer keep = e->obs;
	memcpy(ctx, blob, sizeof(struct evcheck));
	e->obs = keep;
}

static inline const struct core_observer *ev_observer(struct evcheck *e)
{
	memset(e, 0, sizeof *e);
	e->hash = 0xcbf29ce484222325ull;
	e->obs = (struct core_observer){ .name = "evcheck", .ctx = e, .on_insn = ev_on_insn,
					 .on_miss = ev_on_miss, .on_cycle = ev_on_cycle,
					 .state_size = ev_size, .save = ev_save, .restore = ev_restore };
	return &e->obs;
}

/* ---- running ---- */
struct crun {
	struct program *prog;
	struct guest *g;
	struct core *c;
	struct machine_config cfg;
	char out[4096];
	size_t out_len;
	struct ivx_err err;
};

static inline void crun_output(void *ctx, int fd, const void *buf, size_t len)
{
	struct crun *r = ctx;
	(void)fd;
	if (len > sizeof r->out - r->out_len)
		len = sizeof r->out - r->out_len;
	memcpy(r->out + r->out_len, buf, len);
	r->out_len += len;
}

/* Load an ELF image (file path, or in-memory words) and make guest and core.
 * overrides: NULL-terminated "section.key=value". 0 or -1 (err filled). */
static inline int crun_start(struct crun *r, struct program *prog, int argc, char **argv,
			     const char *const *overrides)
{
	memset(r, 0, sizeof *r);
	r->prog = prog;
	config_defaults(&r->cfg);
	for (int i = 0; overrides && overrides[i]; i++)
		if (config_set(&r->cfg, overrides[i], &r->err) < 0)
			return -1;
	char *def_argv[] = { (char *)"t", NULL };
	struct guest_options o = { .argc = argc ? argc : 1, .argv = argc ? argv : def_argv, .seed = 1,
				   .output = crun_output, .output_ctx = r };
	r->g = guest_new(prog, &o, &r->err);
	if (!r->g)
		return -1;
	r->c = core_new(&r->cfg, r->g, &r->err);
	return r->c ? 0 : -1;
}

/* A program from data/bin (tests run from the top of the tree). */
static inline struct program *cp_load_file(const char *path)
{
	struct ivx_err err;
	struct program *p = program_load_file(path, &err);
	if (!p)
		fprintf(stderr, "%s: %s\n", path, err.msg);
	return p;
}

static inline void crun_free(struct crun *r)
{
	core_free(r->c);
	guest_free(r->g);
	r->c = NULL;
	r->g = NULL;
}

static inline struct program *cp_program(const struct cprog *p, size_t data_len)
{
	struct eb_image im = eb_build(p->w, (size_t)p->n, data_len);
	struct ivx_err err;
	struct program *prog = program_load_image(im.bytes, im.len, "t", &err);
	free(im.bytes);
	return prog;
}

/* A loop mixing loads, stores to a 32 KB table (twice the L1D), a divide
 * and a data-dependent branch: misses and mispredictions of every kind. */
static const uint32_t core_mixed_loop[] = {
	0xd2a00a0a, /* mov x10, #0x500000 */
	0xd2860725, /* mov x5, #0x3039 */
	0xd28000a6, /* mov x6, #0x5 */
	0xd2817709, /* mov x9, #3000 */
	0x9b0618a5, /* loop: madd x5, x5, x6, x6 */
	0xd365fca7, /* lsr x7, x5, #37 */
	0x92402ce7, /* and x7, x7, #0xfff: a 32 KB table, twice the L1D */
	0xf8677943, /* ldr x3, [x10, x7, lsl #3] */
	0x8b070063, /* add x3, x3, x7 */
	0xf8277943, /* str x3, [x10, x7, lsl #3] */
	0xb6480065, /* tbz x5, #41, skip */
	0x9100056b, /* add x11, x11, #0x1 */
	0x9ac608ac, /* udiv x12, x5, x6 */
	0x8b030021, /* skip: add x1, x1, x3 */
	0xf1000529, /* subs x9, x9, #0x1 */
	0x54fffea1, /* b.ne loop */
	0x92401c20, /* and x0, x1, #0xff */
	0xd2800bc8, /* mov x8, #94 */
	0xd4000001, /* svc #0 */
};

#endif
