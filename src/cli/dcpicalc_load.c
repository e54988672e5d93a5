/*
 * dcpicalc_load.c — reads a procedure's code, samples and truth for
 * dcpicalc (see dcpicalc_load.h). Profile records are sorted by offset,
 * so a procedure's counts are a binary search and a walk.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/file.h"
#include "cli.h"
#include "dcpi/dcpi.h"
#include "dcpi/dcpi_db.h"
#include "dcpicalc_load.h"
#include "guest/program.h"
#include "guest/symtab.h"
#include "isa/uop.h"

static void on_bad(void *ctx, const char *msg)
{
	struct dcpicalc_db *d = ctx;
	d->bad_files++;
	cli_error("%s", msg);
}

int dcpicalc_db_open(struct dcpicalc_db *d, const char *db, int epoch)
{
	memset(d, 0, sizeof *d);
	struct ivx_err err = { 0 };
	config_defaults(&d->mc);
	char probe[4300];
	snprintf(probe, sizeof probe, "%s", db);
	int fd = ivx_open_input(probe, &err);
	if (fd < 0) {
		if (errno == ENXIO)
			cli_error("%s", err.msg);
		else
			cli_error("dcpicalc: no profile database '%s' (make one with ivx profile)", db);
		return -1;
	}
	close(fd);
	if (epoch) {
		dcpi_db_epoch_path(d->epoch, sizeof d->epoch, db, epoch);
	} else if (dcpi_db_epoch(db, 0, 0, d->epoch, sizeof d->epoch, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	if (dcpi_db_load(d->epoch, &d->list, &d->n, on_bad, d, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	char mfile[4300];
	snprintf(mfile, sizeof mfile, "%s/machine.ini", d->epoch);
	FILE *f;
	if ((f = ivx_fopen_input(mfile, NULL))) {
		fclose(f);
		if (config_load(&d->mc, mfile, &err) < 0) {
			cli_error("%s", err.msg);
			return -1;
		}
		d->have_machine = 1;
	}
	return 0;
}

uint64_t dcpicalc_image_samples(const struct dcpicalc_db *d, const char *image, int event)
{
	uint64_t n = 0;
	for (size_t k = 0; k < d->n; k++) {
		const struct dcpi_profile *p = d->list[k];
		if (p->kind == DCPI_KIND_SAMPLES && p->event == event && !strcmp(p->path, image))
			n += p->total;
	}
	return n;
}

void dcpicalc_db_close(struct dcpicalc_db *d)
{
	dcpi_db_free_list(d->list, d->n);
	d->list = NULL;
	d->n = 0;
}

int dcpicalc_image_matches(const char *path, const char *want)
{
	if (!want)
		return 1;
	const char *base = strrchr(path, '/');
	return !strcmp(path, want) || !strcmp(base ? base + 1 : path, want);
}

const char *dcpicalc_db_image(const struct dcpicalc_db *d, size_t i)
{
	for (size_t k = 0; k < d->n; k++) {
		const struct dcpi_profile *p = d->list[k];
		if (p->kind != DCPI_KIND_SAMPLES || p->event != DCPI_CYCLES || !strcmp(p->path, "[unknown]") ||
		    !dcpicalc_image_matches(p->path, d->only))
			continue;
		if (!i--)
			return p->path;
	}
	return NULL;
}

/* counts of p at pcs lo, lo+4, ... (n of them) into out (allocated). */
static uint64_t *range_counts(const struct dcpi_profile *p, uint64_t lo, size_t n)
{
	uint64_t *out = calloc(n ? n : 1, sizeof *out);
	if (!out)
		return NULL;
	size_t a = 0, b = p->n;
	while (a < b) {
		size_t m = (a + b) / 2;
		if (p->base + p->rec[m].offset < lo)
			a = m + 1;
		else
			b = m;
	}
	for (size_t k = a; k < p->n; k++) {
		uint64_t pc = p->base + p->rec[k].offset;
		if (pc >= lo + 4 * (uint64_t)n)
			break;
		if (!((pc - lo) & 3))
			out[(pc - lo) / 4] += p->rec[k].count;
	}
	return out;
}

static int kind_of(const struct uop *u)
{
	static const int branch[BRANCH_RETURN + 1] = {
		[BRANCH_NONE] = INSN_KIND_JUMP, [BRANCH_COND] = INSN_KIND_COND_BRANCH,
		[BRANCH_UNCOND] = INSN_KIND_JUMP, [BRANCH_CALL] = INSN_KIND_CALL,
		[BRANCH_INDIRECT] = INSN_KIND_INDIRECT, [BRANCH_CALL_INDIRECT] = INSN_KIND_CALL,
		[BRANCH_RETURN] = INSN_KIND_RETURN,
	};
	switch (u->op_class) {
	case UOP_ALU: return INSN_KIND_ALU;
	case UOP_MUL: return INSN_KIND_MUL;
	case UOP_DIV: return INSN_KIND_DIV;
	case UOP_LOAD: return INSN_KIND_LOAD;
	case UOP_STORE: return INSN_KIND_STORE;
	case UOP_SYSCALL: return INSN_KIND_SYSCALL;
	case UOP_FP: case UOP_FMA: return INSN_KIND_FP;
	case UOP_FDIV: return INSN_KIND_FDIV;
	case UOP_SIMD: return INSN_KIND_SIMD;
	case UOP_BRANCH: return u->branch_kind <= BRANCH_RETURN ? branch[u->branch_kind] : INSN_KIND_JUMP;
	default: return INSN_KIND_OTHER;
	}
}

int dcpicalc_code_load(const struct program *prog, const struct symbol *s, const char *image,
		       struct dcpicalc_proc *out, char *msg, size_t msg_n)
{
	memset(out, 0, sizeof *out);
	const struct uop *first, *end;
	if (program_code_run(prog, s->addr, &first, &end) < 0) {
		snprintf(msg, msg_n, "dcpicalc: '%s' (0x%llx) is not in the code of %s", s->name,
			 (unsigned long long)s->addr, image);
		return -1;
	}
	uint64_t code_end = end[-1].pc + 4, size = s->size ? s->size : 4;
	if (!s->size) {
		/* no size: up to the next symbol */
		const struct symtab *st = program_symbols(prog);
		for (size_t i = 0; i < symtab_count(st); i++) {
			const struct symbol *y = symtab_at(st, i);
			if (y->addr > s->addr) {
				size = y->addr - s->addr;
				break;
			}
		}
	}
	uint64_t hi = size < code_end - s->addr ? s->addr + size : code_end;
	size_t n = (size_t)((hi - s->addr) / 4);
	out->image = strdup(image);
	out->name = strdup(s->name);
	out->n = n;
	out->code = calloc(n ? n : 1, sizeof *out->code);
	out->words = calloc(n ? n : 1, sizeof *out->words);
	if (!out->image || !out->name || !out->code || !out->words)
		goto nomem;
	for (size_t i = 0; i < n; i++) {
		const struct uop *u = &first[i];
		struct dcc_insn *x = &out->code[i];
		x->pc = s->addr + 4 * i;
		x->kind = kind_of(u);
		x->n_src = u->n_src > 4 ? 4 : u->n_src;
		x->n_dst = u->n_dst > 3 ? 3 : u->n_dst;
		memcpy(x->src, u->src, x->n_src);
		memcpy(x->dst, u->dst, x->n_dst);
		x->wb_base = u->wb_base;
		if (u->op_class == UOP_BRANCH && (u->branch_kind == BRANCH_COND || u->branch_kind == BRANCH_UNCOND ||
						  u->branch_kind == BRANCH_CALL))
			x->target = u->target;
		out->words[i] = u->word;
	}
	return 0;
nomem:
	snprintf(msg, msg_n, "out of host memory");
	dcpicalc_proc_free(out);
	return -1;
}

/* The culprit records of the image's kind 5 profiles in [lo, lo + 4n),
 * grouped by instruction (counting sort). 0 or -1 (no memory). */
static int load_culprits(const struct dcpicalc_db *d, const char *image, uint64_t lo, struct dcpicalc_proc *out)
{
	size_t n = out->n, total = 0;
	if (!(out->t_cul_at = calloc(n + 1, sizeof *out->t_cul_at)))
		return -1;
	for (int pass = 0; pass < 2; pass++) {
		size_t *fill = NULL;
		if (pass == 1) {
			/* prefix sums, then place */
			for (size_t i = 0, acc = 0; i <= n; i++) {
				size_t c = out->t_cul_at[i];
				out->t_cul_at[i] = acc;
				acc += c;
			}
			if (!(out->t_cul = calloc(total ? total : 1, sizeof *out->t_cul)) ||
			    !(fill = calloc(n + 1, sizeof *fill)))
				return -1;
			memcpy(fill, out->t_cul_at, (n + 1) * sizeof *fill);
		}
		for (size_t k = 0; k < d->n; k++) {
			const struct dcpi_profile *p = d->list[k];
			if (p->kind != DCPI_KIND_CULPRIT || p->event >= ISSUE_WAIT_COUNT || strcmp(p->path, image))
				continue;
			out->has_culprits = 1;
			for (size_t r = 0; r < p->n; r++) {
				uint64_t pc = p->base + p->rec[r].offset;
				if (pc < lo || pc >= lo + 4 * (uint64_t)n || (pc - lo) & 3)
					continue;
				size_t i = (size_t)((pc - lo) / 4);
				if (pass == 0) {
					out->t_cul_at[i]++;
					total++;
				} else {
					out->t_cul[fill[i]++] = (struct dcpicalc_culprit){ p->event, p->rec[r].aux,
											   p->rec[r].count };
				}
			}
		}
		free(fill);
	}
	return 0;
}

uint64_t dcpicalc_true_culprit(const struct dcpicalc_proc *pr, size_t i, int reason, uint64_t *cycles)
{
	uint64_t best = 0, most = 0;
	for (size_t k = pr->t_cul_at ? pr->t_cul_at[i] : 0; pr->t_cul_at && k < pr->t_cul_at[i + 1]; k++) {
		const struct dcpicalc_culprit *c = &pr->t_cul[k];
		if (c->reason == reason && c->culprit && c->cycles > most) {
			most = c->cycles;
			best = c->culprit;
		}
	}
	if (cycles)
		*cycles = most;
	return best;
}

int dcpicalc_proc_load(const struct dcpicalc_db *d, const char *image, const struct program *prog,
		       const struct symbol *s, struct dcpicalc_proc *out)
{
	char msg[512];
	if (dcpicalc_code_load(prog, s, image, out, msg, sizeof msg) < 0) {
		cli_error("%s", msg);
		return -1;
	}
	size_t n = out->n;
	for (size_t k = 0; k < d->n; k++) {
		const struct dcpi_profile *p = d->list[k];
		if (strcmp(p->path, image))
			continue;
		uint64_t **slot = NULL;
		if (p->kind == DCPI_KIND_SAMPLES && p->event < 5) {
			slot = &out->samples[p->event];
			/* the image's own samples: its runs' periods elapsed over
			 * its runs' samples (another program's, in the same
			 * epoch, sampled other cycles at perhaps another period) */
			double samples = (double)p->total;
			out->period[p->event] = samples > 0 && p->enabled_cycles ?
				(double)p->period_events / samples * ((double)p->cycles / (double)p->enabled_cycles) : 0;
		} else if (p->kind == DCPI_KIND_TRUTH && p->event == DCPI_CYCLES) {
			slot = &out->t_cycles;
		} else if (p->kind == DCPI_KIND_TRUTH && p->event == DCPI_RETIRED) {
			slot = &out->t_retired;
		} else if (p->kind == DCPI_KIND_TAKEN) {
			slot = &out->t_taken;
		} else if (p->kind == DCPI_KIND_WAIT && p->event < ISSUE_WAIT_COUNT) {
			slot = &out->t_wait[p->event];
			out->has_wait = 1;
		}
		if (!slot)
			continue;
		free(*slot);
		if (!(*slot = range_counts(p, s->addr, n)))
			goto nomem;
	}
	if (out->has_wait) {
		for (int w = 0; w < ISSUE_WAIT_COUNT; w++)
			if (!out->t_wait[w] && !(out->t_wait[w] = calloc(n ? n : 1, sizeof(uint64_t))))
				goto nomem;
		if (!out->t_taken && !(out->t_taken = calloc(n ? n : 1, sizeof(uint64_t))))
			goto nomem;
		if (load_culprits(d, image, s->addr, out) < 0)
			goto nomem;
	}
	return 0;
nomem:
	cli_error("out of host memory");
	dcpicalc_proc_free(out);
	return -1;
}

void dcpicalc_proc_free(struct dcpicalc_proc *pr)
{
	free(pr->image);
	free(pr->name);
	free(pr->code);
	free(pr->words);
	for (int e = 0; e < 5; e++)
		free(pr->samples[e]);
	free(pr->t_cycles);
	free(pr->t_retired);
	free(pr->t_taken);
	for (int w = 0; w < ISSUE_WAIT_COUNT; w++)
		free(pr->t_wait[w]);
	free(pr->t_cul);
	free(pr->t_cul_at);
	memset(pr, 0, sizeof *pr);
}

uint64_t dcpicalc_proc_samples(const struct dcpicalc_proc *pr)
{
	uint64_t t = 0;
	for (size_t i = 0; pr->samples[0] && i < pr->n; i++)
		t += pr->samples[0][i];
	return t;
}

int dcpicalc_each_proc(const struct dcpicalc_db *d,
		       int (*fn)(void *ctx, const char *image, struct dcpicalc_proc *pr), void *ctx)
{
	const char *image;
	for (size_t k = 0; (image = dcpicalc_db_image(d, k)); k++) {
		struct program *p = cli_load_program(strcmp(image, "[builtin]") ? image : NULL);
		if (!p)
			return -1;
		const struct symtab *st = program_symbols(p);
		uint64_t last_addr = 0;
		int rc = 0;
		for (size_t i = 0; i < symtab_count(st) && rc == 0; i++) {
			const struct symbol *s = symtab_at(st, i);
			/* every code symbol once (assembly labels have no type or
			 * size; ELF mapping symbols start with '$') */
			if (s->name[0] == '$' || (i && s->addr == last_addr))
				continue;
			last_addr = s->addr;
			const struct uop *first, *end;
			if (program_code_run(p, s->addr, &first, &end) < 0)
				continue;
			struct dcpicalc_proc pr;
			if (dcpicalc_proc_load(d, image, p, s, &pr) < 0) {
				rc = -1;
				break;
			}
			rc = fn(ctx, image, &pr);
			dcpicalc_proc_free(&pr);
		}
		program_free(p);
		if (rc)
			return rc;
	}
	return 0;
}
