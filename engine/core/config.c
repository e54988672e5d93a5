/*
 * config.c — the machine description: defaults, the key table, INI files
 * (libinih), "section.key=value" overrides and validation.
 *
 * Everything about a key lives in one row of `keys[]`: its name, how its
 * value is spelled (number, bool, enum), where it is stored in struct
 * machine_config and its legal range. Parsing, `config_get`, completion and
 * the per-key range checks all read that table; `config_validate` adds the
 * checks that involve several keys (ROB versus width, cache geometry, ...).
 * `config_build` does the whole sequence of a command line (defaults, file,
 * `-o`, validation) and notes where each key was last set, so that a check
 * across keys can name the file and line, or the `-o`, to change.
 *
 * Numbers are decimal or 0x hex with an optional binary suffix K, M or G
 * (also KB, MB, GB, any case): "16K" is 16384, "1M" is 1048576.
 *
 * The naive-method penalties ([penalty]) follow the latencies they stand for
 * (l1i = L2 latency, l2d = memory latency, bpred = frontend depth, ...)
 * until a file or `-o` sets one explicitly; `penalty_explicit` remembers
 * which were set so later latency changes do not overwrite them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ini.h>
#include "base/file.h"
#include "isa/isa.h"
#include "config.h"

enum key_type {
	KEY_U32,   /* uint32_t */
	KEY_U64,   /* uint64_t */
	KEY_BOOL,  /* int, 0 or 1 */
	KEY_ENUM,  /* int, index into the key's names */
};

struct config_key {
	const char *name;            /* "section.key" */
	uint8_t type;                /* enum key_type */
	uint8_t is_bytes;            /* printed with a K/M suffix when exact */
	int8_t penalty;              /* bit in penalty_explicit, or -1 */
	size_t offset;               /* into struct machine_config */
	uint64_t min, max;           /* inclusive range (numbers) */
	const char *const *names;    /* KEY_ENUM: value names, NULL-terminated */
	const char *help;
};

static const char *const mode_names[] = { "ooo", "inorder", NULL };

#define OFF(f) offsetof(struct machine_config, f)
#define U32(n, f, lo, hi, h)   { n, KEY_U32, 0, -1, OFF(f), lo, hi, NULL, h }
#define BYTES(n, f, lo, hi, h) { n, KEY_U32, 1, -1, OFF(f), lo, hi, NULL, h }
#define BOOL(n, f, h)          { n, KEY_BOOL, 0, -1, OFF(f), 0, 1, NULL, h }
#define PEN(n, f, bit, h)      { n, KEY_U32, 0, bit, OFF(f), 0, 100000, NULL, h }

/* (the data side needs two MSHRs: an access that crosses a line takes two
 * at once, and the L2 serves both of its lines when both miss there too:
 * with one it would wait forever) */
#define CACHE_KEYS(sec, f, what, mshrs_min) \
	BYTES(sec ".size", f.size, 1, 1u << 26, what " capacity in bytes"), \
	U32(sec ".assoc", f.assoc, 1, 64, what " ways per set (1 = direct mapped)"), \
	BYTES(sec ".line", f.line, 16, 4096, what " line size in bytes (power of two)"), \
	U32(sec ".latency", f.latency, 1, 1000, what " hit latency in cycles"), \
	U32(sec ".mshrs", f.mshrs, mshrs_min, 256, what " miss status holding registers (outstanding line misses)")

#define TLB_KEYS(sec, f, what) \
	U32(sec ".entries", f.entries, 1, 65536, what " entries"), \
	U32(sec ".assoc", f.assoc, 1, 256, what " ways per set (= entries for fully associative)"), \
	BYTES(sec ".page", f.page, 256, 1u << 30, what " page size in bytes (power of two)"), \
	U32(sec ".miss_latency", f.miss_latency, 0, 100000, what " page-walk cycles added by a miss")

static const struct config_key keys[] = {
	{ "core.mode", KEY_ENUM, 0, -1, OFF(inorder), 0, 1, mode_names,
	  "pipeline: ooo (out-of-order) or inorder" },
	U32("core.fetch_width", fetch_width, 1, CONFIG_MAX_WIDTH, "instructions fetched per cycle"),
	U32("core.decode_width", decode_width, 1, CONFIG_MAX_WIDTH, "instructions decoded, renamed and dispatched per cycle"),
	U32("core.issue_width", issue_width, 1, CONFIG_MAX_WIDTH, "instructions issued to functional units per cycle"),
	U32("core.commit_width", commit_width, 1, CONFIG_MAX_WIDTH, "instructions committed per cycle"),
	U32("core.frontend_depth", frontend_depth, 1, 64, "pipeline stages between fetch and dispatch"),
	U32("core.fetch_buffer", fetch_buffer, 1, 1024, "instructions buffered between fetch and decode"),
	U32("core.rob_size", rob_size, 1, 4096, "reorder buffer entries"),
	U32("core.lsq_size", lsq_size, 1, 4096, "load/store queue entries"),
	U32("core.iq_size", iq_size, 1, 4096, "issue queue entries"),
	U32("units.alu", alu_units, 1, 64, "integer ALUs"),
	U32("units.mul", mul_units, 1, 64, "multipliers (pipelined)"),
	U32("units.div", div_units, 1, 64, "dividers (not pipelined)"),
	U32("units.mem_ports", mem_ports, 1, 64, "loads/stores issued per cycle"),
	U32("units.fp", fp_units, 1, 64, "FP/SIMD pipes (pipelined: FP add/mul/convert, FMA, SIMD)"),
	U32("units.fdiv", fdiv_units, 1, 64, "FP dividers (divide, square root; not pipelined)"),
	U32("latency.alu", alu_latency, 1, 1000, "integer ALU latency in cycles"),
	U32("latency.mul", mul_latency, 1, 1000, "multiply latency in cycles"),
	U32("latency.div", div_latency, 1, 1000, "divide latency in cycles (unit busy throughout)"),
	U32("latency.load", load_latency, 1, 1000, "load-to-use latency of an L1 D-cache hit"),
	U32("latency.fp", fp_latency, 1, 1000, "FP add/sub/mul/compare/convert/round latency in cycles"),
	U32("latency.fma", fma_latency, 1, 1000, "FP fused multiply-add latency in cycles"),
	U32("latency.fdiv", fdiv_latency, 1, 1000, "FP divide/square root latency (divider busy throughout)"),
	U32("latency.simd", simd_latency, 1, 1000, "Advanced SIMD integer, permute and X<->V move latency"),
	U32("latency.long_threshold", long_latency_threshold, 1, 1000,
	    "ops at least this many cycles long count as long-latency (resource stalls)"),
	CACHE_KEYS("l1i", l1i, "L1 I-cache", 1),
	CACHE_KEYS("l1d", l1d, "L1 D-cache", 2),
	CACHE_KEYS("l2", l2, "unified L2", 2),
	U32("memory.latency", memory_latency, 1, 100000, "cycles from an L2 miss to its data"),
	TLB_KEYS("itlb", itlb, "I-TLB"),
	TLB_KEYS("dtlb", dtlb, "D-TLB"),
	U32("bpred.bimodal_entries", bimodal_entries, 1, 1u << 24, "bimodal 2-bit counters (power of two)"),
	U32("bpred.gshare_entries", gshare_entries, 1, 1u << 24, "gshare 2-bit counters (power of two)"),
	U32("bpred.gshare_history", gshare_history, 0, 63, "global history bits XORed into the gshare index"),
	U32("bpred.chooser_entries", chooser_entries, 1, 1u << 24, "chooser 2-bit counters (power of two)"),
	U32("bpred.btb_entries", btb_entries, 1, 1u << 20, "branch target buffer entries"),
	U32("bpred.btb_assoc", btb_assoc, 1, 64, "BTB ways per set"),
	U32("bpred.ras_entries", ras_entries, 1, 1024, "return address stack entries"),
	BOOL("perfect.bpred", perfect_bpred, "every branch predicted correctly"),
	BOOL("perfect.l1i", perfect_l1i, "every instruction fetch hits the L1 I-cache"),
	BOOL("perfect.l2i", perfect_l2i, "every L1 I-cache miss hits the L2"),
	BOOL("perfect.itlb", perfect_itlb, "the I-TLB never misses"),
	BOOL("perfect.l1d", perfect_l1d, "every load and store hits the L1 D-cache"),
	BOOL("perfect.l2d", perfect_l2d, "every L1 D-cache miss hits the L2"),
	BOOL("perfect.dtlb", perfect_dtlb, "the D-TLB never misses"),
	BOOL("wrongpath.memory", wrong_path_memory, "wrong-path fetches and loads access caches and TLBs"),
	{ "sim.deadlock_cycles", KEY_U64, 0, -1, OFF(deadlock_cycles), 1, UINT64_MAX, NULL,
	  "cycles without a commit after which a run stops as deadlocked" },
	PEN("penalty.l1i", penalty_l1i, 0, "naive penalty of an L1 I-cache miss (default: l2.latency)"),
	PEN("penalty.l2i", penalty_l2i, 1, "naive penalty of an L2 instruction miss (default: memory.latency)"),
	PEN("penalty.itlb", penalty_itlb, 2, "naive penalty of an I-TLB miss (default: itlb.miss_latency)"),
	PEN("penalty.l1d", penalty_l1d, 3, "naive penalty of an L1 D-cache miss (default: l2.latency)"),
	PEN("penalty.l2d", penalty_l2d, 4, "naive penalty of an L2 data miss (default: memory.latency)"),
	PEN("penalty.dtlb", penalty_dtlb, 5, "naive penalty of a D-TLB miss (default: dtlb.miss_latency)"),
	PEN("penalty.bpred", penalty_bpred, 6, "naive penalty of a misprediction (default: core.frontend_depth)"),
	PEN("penalty.fu", penalty_fu, 7, "naive penalty of a long-latency unit stall (default: latency.div)"),
};

#define N_KEYS (sizeof keys / sizeof keys[0])

/* Where config_build's inputs last set a key, so that a check across keys
 * can point at the line to change. */
struct key_origin {
	const char *file;        /* the file that set it last, or NULL */
	int line;                /* its line there */
	const char *assignment;  /* or the -o assignment that did, or NULL */
	int order;               /* later settings have larger numbers; 0 = default */
};

/* Penalties not set explicitly follow the latencies they stand for. */
static void derive_penalties(struct machine_config *c)
{
	uint32_t d[8] = { c->l2.latency, c->memory_latency, c->itlb.miss_latency,
			  c->l2.latency, c->memory_latency, c->dtlb.miss_latency,
			  c->frontend_depth, c->div_latency };
	uint32_t *p[8] = { &c->penalty_l1i, &c->penalty_l2i, &c->penalty_itlb,
			   &c->penalty_l1d, &c->penalty_l2d, &c->penalty_dtlb,
			   &c->penalty_bpred, &c->penalty_fu };
	for (int i = 0; i < 8; i++)
		if (!(c->penalty_explicit & (1u << i)))
			*p[i] = d[i];
}

void config_defaults(struct machine_config *c)
{
	memset(c, 0, sizeof *c);
	/* Table 2 of Eyerman et al.: ROB 128, LSQ 64, decode/dispatch/commit 4
	 * wide, fetch and issue 8 wide, load 2 / mul 3 / div 20, 5-stage
	 * frontend. The issue queue is as large as the ROB because the paper's
	 * SimpleScalar keeps both in one structure (the RUU). */
	c->inorder = 0;
	c->fetch_width = 8;
	c->decode_width = 4;
	c->issue_width = 8;
	c->commit_width = 4;
	c->frontend_depth = 5;
	c->fetch_buffer = 16;
	c->rob_size = 128;
	c->lsq_size = 64;
	c->iq_size = 128;
	/* SimpleScalar's default unit mix. */
	c->alu_units = 4;
	c->mul_units = 1;
	c->div_units = 1;
	c->mem_ports = 2;
	c->alu_latency = 1;
	c->mul_latency = 3;
	c->div_latency = 20;
	c->load_latency = 2;
	c->long_latency_threshold = 3;
	/* FP/SIMD (not in the paper's integer machine): an Arm Cortex-A72-class
	 * unit (Cortex-A72 Software Optimization Guide, ARM UAN 0016A): two
	 * FP/ASIMD pipes, FP add/multiply 4, FMADD 7 (its 3-cycle chained-
	 * accumulate forwarding is not modelled), FP divide 6-18 and square
	 * root 6-32 cycles on a non-pipelined unit (12 taken for both), ASIMD
	 * integer 3. */
	c->fp_units = 2;
	c->fdiv_units = 1;
	c->fp_latency = 4;
	c->fma_latency = 7;
	c->fdiv_latency = 12;
	c->simd_latency = 3;
	c->l1i = (struct cache_config){ 8 << 10, 1, 64, 1, 2 };
	c->l1d = (struct cache_config){ 16 << 10, 4, 64, 2, 8 };
	c->l2 = (struct cache_config){ 1 << 20, 8, 64, 9, 16 };
	c->memory_latency = 250;
	/* SimpleScalar's default TLBs: 16 x 4 (I) and 32 x 4 (D), 4 KB pages,
	 * 30-cycle miss. */
	c->itlb = (struct tlb_config){ 64, 4, 4096, 30 };
	c->dtlb = (struct tlb_config){ 128, 4, 4096, 30 };
	c->bimodal_entries = 8192;
	c->gshare_entries = 8192;
	c->gshare_history = 13;
	c->chooser_entries = 8192;
	c->btb_entries = 2048;
	c->btb_assoc = 4;
	c->ras_entries = 16;
	c->wrong_path_memory = 1;
	c->deadlock_cycles = 100000;
	c->penalty_explicit = 0;
	derive_penalties(c);
}

/* ---- key lookup ------------------------------------------------------- */

static const struct config_key *find_key(const char *name)
{
	for (size_t i = 0; i < N_KEYS; i++)
		if (!strcasecmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

/* Edit distance, for "did you mean". Names are short (< 64). */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int row[64];
	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j];
			int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			int best = diag + cost;
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* " (did you mean 'x'?)" for, in turn: the key whose part after the dot
 * is name (rob_size: core.rob_size; several: the first few), the key that
 * name begins (core.rob: core.rob_size), the closest key within 3 edits;
 * else "". */
static void suggest(const char *name, char *buf, size_t n)
{
	size_t used = 0, found = 0;
	for (size_t i = 0; i < N_KEYS && !strchr(name, '.'); i++) {
		const char *dot = strchr(keys[i].name, '.');
		if (dot && !strcasecmp(dot + 1, name) && used + 64 < n)
			used += (size_t)snprintf(buf + used, n - used, "%s'%s'", found++ ? ", " : " (did you mean ",
						 keys[i].name);
	}
	if (found) {
		snprintf(buf + used, n - used, "?)");
		return;
	}
	size_t len = strlen(name);
	for (size_t i = 0; i < N_KEYS && len > 2; i++)
		if (!strncasecmp(keys[i].name, name, len)) {
			snprintf(buf, n, " (did you mean '%s'?)", keys[i].name);
			return;
		}
	const char *best = NULL;
	int best_d = 4;
	for (size_t i = 0; i < N_KEYS; i++) {
		int d = distance(name, keys[i].name);
		if (d < best_d) {
			best_d = d;
			best = keys[i].name;
		}
	}
	if (best)
		snprintf(buf, n, " (did you mean '%s'?)", best);
	else
		buf[0] = 0;
}

/* ---- values ----------------------------------------------------------- */

static int parse_number(const char *s, uint64_t *out)
{
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	char *end;   /* decimal or 0x hex: a leading 0 is no octal here */
	uint64_t v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	if (errno || end == s)
		return -1;
	unsigned shift = 0;
	switch (toupper((unsigned char)*end)) {
	case 'K': shift = 10; end++; break;
	case 'M': shift = 20; end++; break;
	case 'G': shift = 30; end++; break;
	}
	if (shift && toupper((unsigned char)*end) == 'B')
		end++;
	if (*end)
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = v << shift;
	return 0;
}

static int parse_bool(const char *s, int *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	for (int i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

/* Store `value` into key k of c; on error write the reason into msg. */
static int apply(struct machine_config *c, const struct config_key *k, const char *value,
		 char *msg, size_t n)
{
	char *field = (char *)c + k->offset;
	if (k->type == KEY_BOOL) {
		int b;
		if (parse_bool(value, &b) < 0) {
			snprintf(msg, n, "bad value '%s' for %s: expected 0/1, true/false, yes/no or on/off",
				 value, k->name);
			return -1;
		}
		*(int *)field = b;
		return 0;
	}
	if (k->type == KEY_ENUM) {
		for (int i = 0; k->names[i]; i++) {
			if (!strcasecmp(value, k->names[i])) {
				*(int *)field = i;
				return 0;
			}
		}
		int len = snprintf(msg, n, "bad value '%s' for %s: expected", value, k->name);
		for (int i = 0; k->names[i] && len > 0 && (size_t)len < n; i++)
			len += snprintf(msg + len, n - (size_t)len, "%s %s", i ? " or" : "", k->names[i]);
		return -1;
	}
	uint64_t v;
	if (parse_number(value, &v) < 0) {
		snprintf(msg, n, "bad value '%s' for %s: expected a number%s", value, k->name,
			 k->is_bytes ? " of bytes (e.g. 4096, 16K, 1M)" : " (decimal, 0x hex, K/M/G suffix)");
		return -1;
	}
	if (v < k->min || v > k->max) {
		snprintf(msg, n, "value %s for %s out of range %llu..%llu", value, k->name,
			 (unsigned long long)k->min, (unsigned long long)k->max);
		return -1;
	}
	if (k->type == KEY_U64)
		*(uint64_t *)field = v;
	else
		*(uint32_t *)field = (uint32_t)v;
	if (k->penalty >= 0)
		c->penalty_explicit |= 1u << k->penalty;
	return 0;
}

/* ---- INI files -------------------------------------------------------- */

struct load_ctx {
	struct machine_config cfg;  /* edited copy, installed on success */
	FILE *f;
	int line;                   /* line the reader last returned */
	int err_line;               /* first line a handler refused, 0 if none */
	int msg_line;               /* the line its message is about (a section's) */
	int section_line;           /* the last [section] line the reader returned */
	int indented;               /* the reader's last line starts with a blank */
	int last_key_line;          /* the line of the handler's last key */
	const char *bad_line;       /* why the reader stopped at lc->line, or NULL */
	int max_line;               /* the longest line it takes */
	int set_at[N_KEYS];         /* line that set each key, 0 if none */
	char msg[400];
};

/* One line per call, counted, so the handler knows where it is. A line
 * inih cannot take whole (it would parse the rest as a line of its own)
 * or with a NUL byte in it (it would see a shorter one) ends the file
 * with an error instead. */
static char *load_reader(char *buf, int size, void *stream)
{
	struct load_ctx *lc = stream;
	int n = 0, ch = EOF;
	while (n < size - 1 && (ch = getc(lc->f)) != EOF) {
		buf[n++] = (char)ch;
		if (ch == '\n' || ch == 0)
			break;
	}
	if (n == 0)
		return NULL;
	buf[n] = 0;
	lc->line++;
	/* (inih reads a line starting with '[' after blanks as a section;
	 * on line 1, after a BOM it skips) */
	const char *start = buf + (lc->line == 1 && !strncmp(buf, "\xef\xbb\xbf", 3) ? 3 : 0);
	if (start[strspn(start, " \t")] == '[')
		lc->section_line = lc->line;
	lc->indented = *start == ' ' || *start == '\t';
	if (ch == 0)
		lc->bad_line = "a NUL byte (not a text file?)";
	else if (ch != '\n' && ch != EOF)
		lc->bad_line = "line too long", lc->max_line = size - 2;
	return lc->bad_line ? NULL : buf;
}

/* Whether some key is in section sec (any case), and the sections' names. */
static int section_known(const char *sec, size_t len)
{
	for (size_t i = 0; i < N_KEYS; i++)
		if (!strncasecmp(keys[i].name, sec, len) && keys[i].name[len] == '.')
			return 1;
	return 0;
}

static void section_names(char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < N_KEYS; i++) {
		size_t len = strcspn(keys[i].name, ".");
		size_t k = 0;
		while (k < i && (strcspn(keys[k].name, ".") != len || strncmp(keys[k].name, keys[i].name, len)))
			k++;
		if (k == i && used + len + 3 < n)
			used += (size_t)snprintf(buf + used, n - used, "%s%.*s", used ? ", " : "", (int)len, keys[i].name);
	}
}

static int load_handler(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *lc = user;
	char full[128], msg[400], hint[200];
	if (lc->err_line)
		return 0;  /* keep only the first error */
	/* (inih trims a key's blanks but not a section's: "[ core ]" is core) */
	section += strspn(section, " \t");
	size_t sec_len = strlen(section);
	while (sec_len && (section[sec_len - 1] == ' ' || section[sec_len - 1] == '\t'))
		sec_len--;
	lc->msg_line = lc->line;
	if (!*name) {
		snprintf(msg, sizeof msg, "a line with no key before its '=' (expected key = value)");
	} else if (!sec_len) {
		snprintf(msg, sizeof msg, "'%s' is outside any [section]", name);
	} else if (!section_known(section, sec_len)) {
		section_names(hint, sizeof hint);
		snprintf(msg, sizeof msg, "unknown section [%.*s] (sections: %s)", (int)sec_len, section, hint);
		if (lc->section_line)
			lc->msg_line = lc->section_line;
	} else {
		snprintf(full, sizeof full, "%.*s.%s", (int)sec_len, section, name);
		const struct config_key *k = find_key(full);
		int *first = k ? &lc->set_at[k - keys] : NULL;
		if (first && *first && lc->indented && *first == lc->last_key_line) {
			/* (inih's multi-line values: an indented line goes on the
			 * value of the key above it) */
			snprintf(msg, sizeof msg, "an indented line continues the value of '%s' (line %d): a value is "
				 "one line; do not indent a key", full, *first);
		} else if (first && *first) {
			/* (inih would let the last one win without a word) */
			snprintf(msg, sizeof msg, "'%s' is set twice (first on line %d)", full, *first);
		} else if (k && apply(&lc->cfg, k, value, msg, sizeof msg) == 0) {
			*first = lc->line;
			lc->last_key_line = lc->line;
			return 1;
		} else if (!k) {
			suggest(full, hint, sizeof hint);
			snprintf(msg, sizeof msg, "unknown key '%s'%s", full, hint);
		}
	}
	lc->err_line = lc->line;
	snprintf(lc->msg, sizeof lc->msg, "%s", msg);
	return 0;
}

/* Read the INI text of f (to its end) on top of *c; `path` names it in
 * messages. *c changes only on success; then, if origins is not NULL, the
 * keys the file set are noted there and *next_order is past its last line. */
static int load_stream(struct machine_config *c, FILE *f, const char *path, struct key_origin *origins,
		       int *next_order, struct ivx_err *err)
{
	struct load_ctx lc = { .cfg = *c, .f = f };
	int rc = ini_parse_stream(load_reader, &lc, load_handler, &lc);
	int read_error = ferror(lc.f) ? errno : 0;
	if (read_error)
		return ivx_error(err, IVX_EINPUT, "%s: read error: %s", path, strerror(read_error));
	if (lc.bad_line && !lc.err_line)
		return ivx_error(err, IVX_EINPUT, lc.max_line ? "%s:%d: %s (at most %d characters)" : "%s:%d: %s",
				 path, lc.line, lc.bad_line, lc.max_line);
	if (rc > 0 && lc.err_line == rc)
		return ivx_error(err, IVX_EINPUT, "%s:%d: %s", path, lc.msg_line, lc.msg);
	if (rc > 0)
		return ivx_error(err, IVX_EINPUT, "%s:%d: syntax error (expected [section] or key = value)",
				 path, rc);
	if (rc < 0)
		return ivx_error(err, IVX_ESYS, "%s: cannot parse (out of memory)", path);
	derive_penalties(&lc.cfg);
	*c = lc.cfg;
	for (size_t i = 0; origins && i < N_KEYS; i++)
		if (lc.set_at[i])
			origins[i] = (struct key_origin){ path, lc.set_at[i], NULL, lc.set_at[i] };
	if (next_order)
		*next_order = lc.line + 1;
	return IVX_OK;
}

static int load_file(struct machine_config *c, const char *path, struct key_origin *origins,
		     int *next_order, struct ivx_err *err)
{
	FILE *f = ivx_fopen_input(path, err);
	if (!f)
		return IVX_EINPUT;
	int rc = load_stream(c, f, path, origins, next_order, err);
	fclose(f);
	return rc;
}

int config_load(struct machine_config *c, const char *path, struct ivx_err *err)
{
	return load_file(c, path, NULL, NULL, err);
}

int config_load_text(struct machine_config *c, const char *text, size_t len, const char *name,
		     struct ivx_err *err)
{
	/* fmemopen refuses an empty buffer: read an empty file instead. */
	static const char empty[1] = "";
	FILE *f = fmemopen((void *)(len ? text : empty), len ? len : 1, "r");
	if (!f)
		return ivx_error(err, IVX_ESYS, "%s: cannot read: %s", name, strerror(errno));
	if (!len)
		getc(f);   /* consume the placeholder byte */
	int rc = load_stream(c, f, name, NULL, NULL, err);
	fclose(f);
	return rc;
}

/* config_set, telling which key it set in *set. */
static int set_one(struct machine_config *c, const char *assignment, const struct config_key **set,
		   struct ivx_err *err)
{
	char name[128], msg[400], hint[200];
	const char *eq = strchr(assignment, '=');
	if (!eq || eq == assignment || (size_t)(eq - assignment) >= sizeof name)
		return ivx_error(err, IVX_EUSAGE, "-o %s: expected section.key=value", assignment);
	/* Tolerate blanks around the key and the value, as in a file. */
	size_t len = (size_t)(eq - assignment);
	memcpy(name, assignment, len);
	while (len && isspace((unsigned char)name[len - 1]))
		len--;
	name[len] = 0;
	const char *key = name;
	while (isspace((unsigned char)*key))
		key++;
	const char *value = eq + 1;
	while (isspace((unsigned char)*value))
		value++;
	char vbuf[128];
	if (strlen(value) >= sizeof vbuf)
		return ivx_error(err, IVX_EUSAGE, "-o %.*s...: value too long", (int)(eq - assignment) + 1, assignment);
	snprintf(vbuf, sizeof vbuf, "%s", value);
	for (size_t l = strlen(vbuf); l && isspace((unsigned char)vbuf[l - 1]); l--)
		vbuf[l - 1] = 0;

	const struct config_key *k = find_key(key);
	if (!k) {
		suggest(key, hint, sizeof hint);
		return ivx_error(err, IVX_EUSAGE, "-o %s: unknown key '%s'%s", assignment, key, hint);
	}
	struct machine_config tmp = *c;
	if (apply(&tmp, k, vbuf, msg, sizeof msg) < 0)
		return ivx_error(err, IVX_EUSAGE, "-o %s: %s", assignment, msg);
	derive_penalties(&tmp);
	*c = tmp;
	*set = k;
	return IVX_OK;
}

int config_set(struct machine_config *c, const char *assignment, struct ivx_err *err)
{
	const struct config_key *k;
	return set_one(c, assignment, &k, err);
}

int config_get(const struct machine_config *c, const char *key, char *buf, size_t n,
	       struct ivx_err *err)
{
	const struct config_key *k = find_key(key);
	char hint[200];
	if (!k) {
		suggest(key, hint, sizeof hint);
		return ivx_error(err, IVX_EUSAGE, "unknown key '%s'%s", key, hint);
	}
	const char *field = (const char *)c + k->offset;
	if (k->type == KEY_BOOL) {
		snprintf(buf, n, "%d", *(const int *)field);
	} else if (k->type == KEY_ENUM) {
		int v = *(const int *)field;   /* a struct filled by hand may hold anything */
		if (v >= 0 && (uint64_t)v <= k->max)
			snprintf(buf, n, "%s", k->names[v]);
		else
			snprintf(buf, n, "%d", v);
	} else if (k->type == KEY_U64) {
		snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)field);
	} else {
		uint32_t v = *(const uint32_t *)field;
		if (k->is_bytes && v && v % (1u << 20) == 0)
			snprintf(buf, n, "%uM", v >> 20);
		else if (k->is_bytes && v && v % 1024 == 0)
			snprintf(buf, n, "%uK", v >> 10);
		else
			snprintf(buf, n, "%u", v);
	}
	return IVX_OK;
}

const char *config_key_name(size_t i)
{
	return i < N_KEYS ? keys[i].name : NULL;
}

const char *config_key_help(size_t i)
{
	return i < N_KEYS ? keys[i].help : NULL;
}

const char *config_key_value_word(const char *key, int i)
{
	static const char *const bool_words[] = { "on", "off", NULL };
	const struct config_key *k = find_key(key);
	const char *const *words = !k ? NULL : k->type == KEY_ENUM ? k->names :
				   k->type == KEY_BOOL ? bool_words : NULL;
	for (int j = 0; words && j <= i; j++)
		if (!words[j])
			return NULL;
	return words && i >= 0 ? words[i] : NULL;
}

/* ---- validation ------------------------------------------------------- */

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Where a refusal about the keys in `blame` (full names separated by
 * blanks, the one the message is about first) should point: that key's
 * origin if an input set it, else the origin of the other key an input set
 * last; NULL when none was set (all defaults, or a struct filled by hand). */
static const struct key_origin *blamed_origin(const struct key_origin *origins, const char *blame)
{
	const struct key_origin *best = NULL;
	for (int first = 1; origins && *blame; first = 0) {
		char name[64];
		size_t len = strcspn(blame, " ");
		snprintf(name, sizeof name, "%.*s", (int)len, blame);
		blame += len + strspn(blame + len, " ");
		const struct config_key *k = find_key(name);
		const struct key_origin *o = k ? &origins[k - keys] : NULL;
		if (!o || !o->order)
			continue;
		if (first)
			return o;
		if (!best || o->order > best->order)
			best = o;
	}
	return best;
}

/* Refuse the machine with the message fmt, about the keys in `blame` (see
 * blamed_origin), prefixed with where the blamed key was set:
 * "FILE:LINE: " or "-o KEY=VALUE: ". */
static int refuse(const struct key_origin *origins, struct ivx_err *err, const char *blame,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int refuse(const struct key_origin *origins, struct ivx_err *err, const char *blame,
		  const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const struct key_origin *o = blamed_origin(origins, blame);
	if (o && o->file)
		return ivx_error(err, IVX_EUSAGE, "%s:%d: %s", o->file, o->line, msg);
	if (o && o->assignment)
		return ivx_error(err, IVX_EUSAGE, "-o %s: %s", o->assignment, msg);
	return ivx_error(err, IVX_EUSAGE, "%s", msg);
}

static int check_cache(const char *name, const struct cache_config *cc, const struct key_origin *origins,
		       struct ivx_err *err)
{
	char size[64], line[64], assoc[64];
	snprintf(size, sizeof size, "%s.size %s.line %s.assoc", name, name, name);
	snprintf(line, sizeof line, "%s.line", name);
	snprintf(assoc, sizeof assoc, "%s.assoc %s.size %s.line", name, name, name);
	if (!cc->size || !cc->line || !cc->assoc)
		return refuse(origins, err, size, "%s: size, line and assoc must be non-zero", name);
	if (!is_pow2(cc->line))
		return refuse(origins, err, line, "%s.line=%u is not a power of two", name, cc->line);
	if (cc->size % cc->line)
		return refuse(origins, err, size, "%s.size=%u is not a multiple of the line (%u)",
			      name, cc->size, cc->line);
	uint32_t lines = cc->size / cc->line;
	if (cc->assoc > lines)
		return refuse(origins, err, assoc, "%s.assoc=%u exceeds its %u line%s", name, cc->assoc, lines,
			      lines == 1 ? "" : "s");
	if (lines % cc->assoc || !is_pow2(lines / cc->assoc))
		return refuse(origins, err, assoc,
			      "%s: %u lines / %u ways does not give a power-of-two number of sets",
			      name, lines, cc->assoc);
	return IVX_OK;
}

static int check_tlb(const char *name, const struct tlb_config *t, const struct key_origin *origins,
		     struct ivx_err *err)
{
	char page[64], assoc[64];
	snprintf(page, sizeof page, "%s.page", name);
	snprintf(assoc, sizeof assoc, "%s.assoc %s.entries", name, name);
	if (!t->entries || !t->assoc)
		return refuse(origins, err, assoc, "%s: entries and assoc must be non-zero", name);
	if (!is_pow2(t->page))
		return refuse(origins, err, page, "%s.page=%u is not a power of two", name, t->page);
	if (t->assoc > t->entries)
		return refuse(origins, err, assoc, "%s.assoc=%u exceeds its %u entr%s", name, t->assoc,
			      t->entries, t->entries == 1 ? "y" : "ies");
	if (t->entries % t->assoc || !is_pow2(t->entries / t->assoc))
		return refuse(origins, err, assoc,
			      "%s: %u entries / %u ways does not give a power-of-two number of sets",
			      name, t->entries, t->assoc);
	return IVX_OK;
}

/* The keys config_longest_commit_gap adds up. */
#define COMMIT_GAP_KEYS "memory.latency l1i.latency l1d.latency l2.latency itlb.miss_latency " \
	"dtlb.miss_latency core.frontend_depth latency.div latency.mul latency.load latency.fdiv " \
	"latency.fp latency.fma latency.simd"

/* config_validate, pointing at where the offending key was set when origins
 * is not NULL. */
static int validate(const struct machine_config *c, const struct key_origin *origins, struct ivx_err *err)
{
	/* Per-key ranges first, so a struct filled by hand is checked too. */
	for (size_t i = 0; i < N_KEYS; i++) {
		const struct config_key *k = &keys[i];
		const char *field = (const char *)c + k->offset;
		uint64_t v = k->type == KEY_U64 ? *(const uint64_t *)field
			   : k->type == KEY_U32 ? *(const uint32_t *)field
			   : (uint64_t)(int64_t)*(const int *)field;
		if (v < k->min || v > k->max)
			return refuse(origins, err, k->name, "%s=%lld out of range %llu..%llu", k->name,
				      (long long)v, (unsigned long long)k->min, (unsigned long long)k->max);
	}
	if (c->rob_size < c->decode_width)
		return refuse(origins, err, "core.rob_size core.decode_width",
			      "core.rob_size=%u is smaller than core.decode_width=%u", c->rob_size, c->decode_width);
	if (c->rob_size < c->commit_width)
		return refuse(origins, err, "core.rob_size core.commit_width",
			      "core.rob_size=%u is smaller than core.commit_width=%u", c->rob_size, c->commit_width);
	int rc;
	if ((rc = check_cache("l1i", &c->l1i, origins, err)) || (rc = check_cache("l1d", &c->l1d, origins, err)) ||
	    (rc = check_cache("l2", &c->l2, origins, err)))
		return rc;
	if ((rc = check_tlb("itlb", &c->itlb, origins, err)) || (rc = check_tlb("dtlb", &c->dtlb, origins, err)))
		return rc;
	static const char *const tables[] = { "bpred.bimodal_entries", "bpred.gshare_entries",
					      "bpred.chooser_entries" };
	uint32_t sizes[] = { c->bimodal_entries, c->gshare_entries, c->chooser_entries };
	for (int i = 0; i < 3; i++)
		if (!is_pow2(sizes[i]))
			return refuse(origins, err, tables[i], "%s=%u is not a power of two", tables[i], sizes[i]);
	if (c->btb_assoc > c->btb_entries || c->btb_entries % c->btb_assoc ||
	    !is_pow2(c->btb_entries / c->btb_assoc))
		return refuse(origins, err, "bpred.btb_assoc bpred.btb_entries",
			      "bpred: %u BTB entries / %u ways does not give a power-of-two number of sets",
			      c->btb_entries, c->btb_assoc);
	uint64_t worst = config_longest_commit_gap(c);
	if (c->deadlock_cycles <= worst)
		return refuse(origins, err, "sim.deadlock_cycles " COMMIT_GAP_KEYS,
			      "sim.deadlock_cycles=%llu is not above the longest a healthy core can go without "
			      "committing (%llu cycles with this machine: a fetch and a data access each missing "
			      "to memory, with TLB walks, MSHR waits, the frontend and a busy long-latency unit); "
			      "raise it with sim.deadlock_cycles=%llu or more",
			      (unsigned long long)c->deadlock_cycles, (unsigned long long)worst,
			      (unsigned long long)worst + 1);
	return IVX_OK;
}

int config_validate(const struct machine_config *c, struct ivx_err *err)
{
	return validate(c, NULL, err);
}

int config_build(struct machine_config *c, const char *path, const char *const *overrides, int n_overrides,
		 struct ivx_err *err)
{
	struct key_origin origins[N_KEYS] = { { 0 } };
	int order = 1, rc;
	config_defaults(c);
	if (path && (rc = load_file(c, path, origins, &order, err)) < 0)
		return rc;
	for (int i = 0; i < n_overrides; i++) {
		const struct config_key *k;
		if ((rc = set_one(c, overrides[i], &k, err)) < 0)
			return rc;
		origins[k - keys] = (struct key_origin){ NULL, 0, overrides[i], order++ };
	}
	return validate(c, origins, err);
}

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }
static uint32_t max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }

uint64_t config_ctr_el0(const struct machine_config *c)
{
	/* (the L2 is unified: it holds instructions and data both, and a
	 * maintenance loop stepping by the smallest line misses no line) */
	return isa_ctr_el0(min_u32(c->l1i.line, c->l2.line), min_u32(c->l1d.line, c->l2.line),
			   max_u32(c->l1d.line, c->l2.line));
}

/* Pipeline stages an instruction passes after the frontend: dispatch,
 * issue, writeback and commit, plus a cycle of slack each. */
#define CONFIG_BACKEND_STAGES 8

uint64_t config_longest_commit_gap(const struct machine_config *c)
{
	/* After a commit the next instruction to commit may not be fetched
	 * yet (the ROB drained behind an I-miss, a misprediction, a system
	 * call). It then has, in turn: its I-TLB walk; an L1I and then an L2
	 * MSHR to wait for, taken by wrong-path misses (each frees within
	 * one trip to memory); its own trip to memory; the frontend; the
	 * backend stages; a long-latency unit busy with a younger
	 * instruction, then its own latency; and on the data side the same
	 * as on the instruction side. Nothing older can hold it: all that is
	 * older has committed. */
	uint64_t mem = c->memory_latency;
	uint64_t itrip = (uint64_t)c->l1i.latency + c->l2.latency + mem;
	uint64_t dtrip = (uint64_t)c->l1d.latency + c->l2.latency + mem;
	/* (every unit: a non-pipelined FP divider waits like the integer one) */
	const uint32_t latencies[] = { c->div_latency, c->mul_latency, c->load_latency, c->fdiv_latency,
				       c->fp_latency, c->fma_latency, c->simd_latency };
	uint64_t unit = 0;
	for (size_t i = 0; i < sizeof latencies / sizeof latencies[0]; i++)
		if (latencies[i] > unit)
			unit = latencies[i];
	return c->itlb.miss_latency + 3 * itrip + c->frontend_depth + CONFIG_BACKEND_STAGES + 2 * unit +
	       c->dtlb.miss_latency + 3 * dtrip;
}
