/*
 * inst_coproc.c — the profiling co-processor as an explorer instrument
 * (see inst_coproc.h): `coproc load value` puts a program in the session;
 * every (re)start then attaches a fresh co-processor to the new core. Its
 * state lives in the engine observer, so snapshots and reverse stepping
 * carry it; the session keeps only the program and the settings.
 *
 * The co-processor runs on the core's cycles (its on_cycle), so `step`
 * steps its microcode too: the pane shows the routine and microcode pc
 * after every cycle. `catch coproc-interrupt` stops when the microcode
 * branches to INTERRUPT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/coproc_load.h"
#include "core/core.h"
#include "explorer.h"
#include "inst_coproc.h"
#include "instrument.h"

struct xcoproc {
	struct explorer *x;
	struct coproc_config cfg;
	struct coproc_prog *prog;   /* NULL: no program */
	char path[256];
	struct coproc *cp;          /* on the current core */
};

static void *xc_create(struct explorer *x)
{
	struct xcoproc *xc = calloc(1, sizeof *xc);
	if (xc) {
		xc->x = x;
		coproc_config_defaults(&xc->cfg);
		xc->cfg.seed = x->opts.seed;   /* (as ivx coproc: --seed, unless `coproc set seed=`) */
	}
	return xc;
}

static void xc_free(void *self)
{
	struct xcoproc *xc = self;
	if (!xc)
		return;
	coproc_free(xc->cp);
	free(xc->prog);
	free(xc);
}

static void on_interrupt(void *ctx, uint64_t pc, uint64_t seq)
{
	struct xcoproc *xc = ctx;
	explorer_instrument_event(xc->x, "coproc-interrupt", pc, seq, 0);
}

static int xc_attach(void *self, struct core *c, struct ivx_err *err)
{
	struct xcoproc *xc = self;
	coproc_free(xc->cp);   /* it observed a core that is gone */
	xc->cp = NULL;
	if (!xc->prog)
		return 0;
	xc->cp = coproc_new(&xc->cfg, xc->prog, c, err);
	if (!xc->cp)
		return -1;
	coproc_set_interrupt_hook(xc->cp, on_interrupt, xc);
	return core_add_observer(c, coproc_observer(xc->cp), err);
}

/* The end of the run: the handler harvests what the slots hold, as `ivx
 * coproc` does before it prints the profile. */
static void xc_finish(void *self)
{
	struct xcoproc *xc = self;
	if (xc->cp)
		coproc_finish(xc->cp);
}

const struct coproc *xcoproc_engine(const struct xcoproc *xc) { return xc ? xc->cp : NULL; }
const char *xcoproc_path(const struct xcoproc *xc) { return xc && xc->prog ? xc->path : NULL; }
const struct coproc_config *xcoproc_config(const struct xcoproc *xc) { return &xc->cfg; }

int xcoproc_set_program(struct xcoproc *xc, const struct coproc_prog *prog, const char *path, struct ivx_err *err)
{
	/* checked before the restart: a co-processor the new core could not
	 * take would leave the session without a run */
	if (prog && coproc_check(&xc->cfg, prog, err) < 0)
		return -1;
	free(xc->prog);
	xc->prog = NULL;
	if (!prog)
		return 0;
	xc->prog = malloc(sizeof *xc->prog);
	if (!xc->prog)
		return ivx_error(err, IVX_ESYS, "out of memory");
	*xc->prog = *prog;
	snprintf(xc->path, sizeof xc->path, "%s", path);
	return 0;
}

void xcoproc_running_config(const struct xcoproc *xc, struct coproc_config *out)
{
	*out = xc->cfg;
	if (xc->prog)
		coproc_config_for(out, xc->prog);
}

int xcoproc_configure(struct xcoproc *xc, const char *a, struct ivx_err *err)
{
	struct coproc_config cfg = xc->cfg;
	if (coproc_config_set(&cfg, a, err) < 0 || (xc->prog && coproc_check(&cfg, xc->prog, err) < 0))
		return -1;
	xc->cfg = cfg;
	return 0;
}

int xcoproc_topk_slot(const struct coproc *cp, int slot, struct xcoproc_topk *out)
{
	const struct coproc_prog *pr = coproc_program(cp);
	int ways = strcmp(pr->handler, "value") ? 0 : (int)coproc_prog_param(pr, "ways", 0);
	memset(out, 0, sizeof *out);
	if (ways <= 0)
		return 0;
	int n = coproc_slot_count(cp);
	struct coproc_slot sl, wy, top = { 0 };
	coproc_slot(cp, slot, &sl);
	for (int j = 0; j < ways; j++) {
		coproc_slot(cp, slot + n * (j + 1), &wy);
		if (!wy.valid)
			continue;
		out->ways++;
		if (!top.valid || wy.w[1] > top.w[1])
			top = wy;
	}
	/* a way's key is its value xor the load's pc shifted up */
	int shift = (int)coproc_prog_param(pr, "key_shift", 40) & 63;
	out->value = top.valid ? top.pc ^ (sl.pc << shift) : 0;
	out->own = top.w[1] > top.w[3] ? top.w[1] - top.w[3] : 0;
	out->count = top.w[1];
	return 1;
}

/* ---- info coproc ---------------------------------------------------------------- */

static const char *const state_names[] = { "idle", "running", "stopped" };

/* info coproc registers: v0-v7 (hex), i0-i7, the flags by the names of
 * the conditions they make true, and the LFSR. */
static int info_registers(struct explorer *x, const struct coproc *cp)
{
	for (int i = 0; i < COPROC_NV; i++)
		explorer_printf(x, "v%d 0x%016llx%s", i, (unsigned long long)coproc_vreg(cp, i), i % 4 == 3 ? "\n" : "  ");
	for (int i = 0; i < COPROC_NI; i++)
		explorer_printf(x, "i%d %u%s", i, coproc_ireg(cp, i), i == COPROC_NI - 1 ? "\n" : "  ");
	unsigned f = coproc_flags(cp);
	explorer_printf(x, "flags %s %s %s %s (Z%d L%d H%d S%d)\n", f & COPROC_FLAG_Z ? "z" : "nz",
			f & COPROC_FLAG_L ? "lt" : "ge", f & COPROC_FLAG_H ? "hit" : "miss", f & COPROC_FLAG_S ? "sat" : "nsat",
			!!(f & COPROC_FLAG_Z), !!(f & COPROC_FLAG_L), !!(f & COPROC_FLAG_H), !!(f & COPROC_FLAG_S));
	explorer_printf(x, "lfsr %#010x\n", coproc_lfsr(cp));
	return 0;
}

static int info_coproc(struct explorer *x, int argc, char **argv, const char *rest)
{
	const struct xcoproc *xc = explorer_instrument(x, "coproc");
	const struct coproc *cp = xcoproc_engine(xc);
	if (!cp) {
		explorer_printf(x, "No co-processor program (coproc load NAME|FILE; shipped: " COPROC_SHIPPED ").\n");
		return 0;
	}
	const struct coproc_prog *p = coproc_program(cp);
	const struct coproc_config *cfg = coproc_cfg(cp);
	if (argc > 1 && !strcmp(argv[1], "program")) {
		for (int a = 0; a < p->n_insns; a++) {
			char buf[160];
			const char *l = coproc_prog_label_at(p, a);
			coproc_disasm_insn(p, a, buf, sizeof buf);
			explorer_printf(x, "%4d  %-10s %s\n", a, l ? l : "", buf);
		}
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "registers"))
		return info_registers(x, cp);
	if (argc > 1 && strcmp(argv[1], "slots"))
		return explorer_error(x, "info coproc: '%s' is not slots, program or registers", argv[1]);
	struct coproc_stats s;
	coproc_get_stats(cp, &s);
	if (argc == 1) {
		explorer_printf(x, "program %s (%s), handler %s, %d microinstructions\n", p->name, xcoproc_path(xc),
				p->handler, p->n_insns);
		explorer_printf(x, "state %s", state_names[s.state]);
		if (s.upc >= 0) {
			char buf[160];
			coproc_disasm_insn(p, s.upc, buf, sizeof buf);
			explorer_printf(x, ", routine %s for %#llx, upc %d: %s", insn_kind_name(s.routine_kind),
					(unsigned long long)s.head_pc, s.upc, buf);
		}
		explorer_printf(x, "%s\n", s.complete ? " (profile complete: tagging off)" : "");
		explorer_printf(x, "filters: classes");
		for (int k = 0; k < INSN_KIND_COUNT; k++)
			if (p->classes >> k & 1)
				explorer_printf(x, " %s", insn_kind_name(k));
		explorer_printf(x, "; PC filter width %d match %u; %llu ignore bits set\n", s.pc_width, s.pc_match,
				(unsigned long long)s.masked);
		explorer_printf(x, "tagged %llu of %llu decoded (%.1f%%), %llu retired\n", (unsigned long long)s.tagged,
				(unsigned long long)s.decoded, s.decoded ? 100.0 * s.tagged / s.decoded : 0.0,
				(unsigned long long)s.retired_tagged);
		if (s.untagged || cfg->tagrate != 1)
			explorer_printf(x, "random tagger: 1 in %u now (tagrate %u%s), %llu passed the filters untagged\n",
					1u << s.tag_shift, cfg->tagrate, cfg->tagrate ? "" : ": follows the drops",
					(unsigned long long)s.untagged);
		if (s.first_tags)
			explorer_printf(x, "first sight: %llu tags of a bucket's first %d records\n",
					(unsigned long long)s.first_tags, coproc_first_sight(cp));
		explorer_printf(x, "buffer %d/%u, %llu records, %llu dropped, %llu stalls (%llu cycles), policy %s",
				s.buffer_count, cfg->buffer, (unsigned long long)s.records, (unsigned long long)s.drops,
				(unsigned long long)s.stalls, (unsigned long long)s.stall_cycles,
				coproc_policy_name(cfg->policy));
		if (coproc_young_stall(cp))
			explorer_printf(x, " (stall before cycle %llu: young_stall)",
					(unsigned long long)coproc_young_stall(cp));
		explorer_printf(x, "\n");
		explorer_printf(x, "%llu microinstructions, %llu interrupts (%llu handler cycles), %llu timer actions\n",
				(unsigned long long)s.uinsns, (unsigned long long)s.interrupts,
				(unsigned long long)s.handler_cycles, (unsigned long long)s.timer_actions);
		/* (as ivx coproc's first line) */
		struct core_stats cst;
		core_stats(x->core, &cst);
		uint64_t oh = s.handler_cycles + s.stall_cycles + s.final_cycles;
		explorer_printf(x, "profiler %llu cycles = %.2f%% of %llu (handlers %llu, buffer stalls %llu, final harvest %llu)\n",
				(unsigned long long)oh, cst.cycles ? 100.0 * (double)oh / (double)cst.cycles : 0.0,
				(unsigned long long)cst.cycles, (unsigned long long)s.handler_cycles,
				(unsigned long long)s.stall_cycles, (unsigned long long)s.final_cycles);
		if (s.finished)
			explorer_printf(x, "end of run: the handler harvested the slots into its profile, as ivx coproc does\n");
	}
	int n = coproc_slot_count(cp), shown = 0;
	for (int i = 0; i < n; i++) {
		struct coproc_slot sl;
		coproc_slot(cp, i, &sl);
		if (!sl.valid)
			continue;
		char sym[96];   /* (whole: a cut one could cut its offset) */
		explorer_describe(x, sl.pc, sym, sizeof sym);
		struct xcoproc_topk t;
		if (xcoproc_topk_slot(cp, i, &t)) {
			/* (the raw words are the slot's pc and total, not a value) */
			explorer_printf(x, "slot %2d %#10llx %-24s top value %#18llx own %5llu of %5llu, %d ways, "
					"total %5llu%s\n", i, (unsigned long long)sl.pc, sym, (unsigned long long)t.value,
					(unsigned long long)t.own, (unsigned long long)t.count, t.ways,
					(unsigned long long)sl.w[1], sl.masked ? " masked" : "");
			shown++;
			continue;
		}
		explorer_printf(x, "slot %2d %#10llx %-24s w0 %#18llx w1 %5llu w2 %5llu w3 %5llu%s\n", i,
				(unsigned long long)sl.pc, sym, (unsigned long long)sl.w[0], (unsigned long long)sl.w[1],
				(unsigned long long)sl.w[2], (unsigned long long)sl.w[3], sl.masked ? " masked" : "");
		shown++;
	}
	if (!shown)
		explorer_printf(x, "no slot in use%s\n", s.finished ? " (harvested at the end of the run)" : "");
	return 0;
}

static const char *coproc_topic_word(int i)
{
	static const char *const words[] = { "slots", "program", "registers" };
	return i >= 0 && i < 3 ? words[i] : NULL;
}

static const struct xinfo_topic coproc_info[] = {
	{ .name = "coproc", .help = "the profiling co-processor: state, filters, buffer, slots (or: slots, program, registers)",
	  .usage = "info coproc [slots|program|registers]", .max_args = 1, .exec = info_coproc,
	  .word_at = coproc_topic_word,
	  .detail = "info coproc slots: the slots only; program: the microcode with addresses and labels;\n"
		    "registers: v0-v7, i0-i7, the flags (as the conditions they make true) and the LFSR." },
	{ 0 },
};

static const char *const coproc_events[] = { "coproc-interrupt", NULL };

int xcoproc_has_program(const struct xcoproc *xc)
{
	return xc->prog != NULL;
}

static const char *xc_idle(const void *self)
{
	return ((const struct xcoproc *)self)->prog ? NULL : "the co-processor has no program: `coproc load NAME` gives it one";
}

static const struct xinstrument xinst_coproc = {
	.name = "coproc",
	.summary = "the programmable profiling co-processor (coproc load value)",
	.order = 10,
	.create = xc_create,
	.attach = xc_attach,
	.finish = xc_finish,
	.free = xc_free,
	.info = coproc_info,
	.events = coproc_events,
	.idle = xc_idle,
	.panes = "coproc",
	.commands = "coproc",
};
XINSTRUMENT_REGISTER(xinst_coproc);
