/*
 * coproc_asm.c — the co-processor's assembler and disassembler.
 *
 * Two passes over the source: the first parses every line (directives,
 * labels, microinstructions) and records where labels are used; the
 * second resolves those uses. Every mistake is reported as
 * "file:line: message" and stops the assembly; the grammar is in
 * docs/coproc.md. The assembler never reads past `len` (the fuzz harness
 * tests/fuzz/coproc_asm.c feeds it arbitrary bytes).
 *
 * `.include "FILE"` reads FILE through the caller's coproc_read_fn and
 * parses its lines in place, so its labels, settings and microcode are the
 * program's as if pasted. The assembler never opens a file itself: a
 * caller without a reader (coproc_asm) refuses `.include`, and the fuzz
 * harness gives one that reads nothing from the host. Positions (where a
 * setting or label was given, for messages) are POS(file, line), the file
 * an index into the files read; an error in an included file names that
 * file and the chain of `.include` lines that led to it.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "coproc_prog.h"

static const char *const op_names[CP_OP_COUNT] = {
	"nop", "mov", "add", "sub", "and", "or", "xor", "shl", "shr", "cmp",
	"lookup", "camw", "caminv", "ld", "st", "inc", "adds", "rand", "hash",
};
static const char *const cond_names[CPC_COUNT] = {
	"", "z", "nz", "lt", "ge", "hit", "miss", "sat", "nsat",
};
/* "kind" and "weight" are in every record: the DFE and the tagger supply
 * them, .fields does not name them */
static const char *const field_names[] = { "pc", "value", "addr", "target", "taken", "kind", "weight" };

const char *coproc_op_name(int op) { return op >= 0 && op < CP_OP_COUNT ? op_names[op] : "?"; }
const char *coproc_cond_name(int c) { return c >= 0 && c < CPC_COUNT ? cond_names[c] : "?"; }
const char *coproc_field_name(int bit)
{
	for (int i = 0; i < 5; i++)
		if (bit == 1 << i)
			return field_names[i];
	return "?";
}

/* ---- parsing state --------------------------------------------------- */

/* A position: the index of the file in asm_state.files (0: the program's
 * own) and a line in it. Files are at most 1 MB (coproc_read_host_file),
 * far from 2^24 lines; a longer text given in memory is refused. */
#define POS(file, line) ((uint32_t)(file) << 24 | (uint32_t)(line))
#define POS_FILE(pos) ((int)((pos) >> 24))
#define POS_LINE(pos) ((pos) & 0xffffffu)
#define MAX_LINES 0xffffffu

#define MAX_INCLUDE_DEPTH 8    /* .include inside .include ..., as deep as this */
#define MAX_FILES COPROC_MAX_FILES
#define MAX_PATH 4096

struct source_file {
	char *path;       /* as named in messages: the caller's name, or an include's resolved path */
	int parent;       /* the file whose .include read it (-1: the program's own) */
	uint32_t from;    /* ... and that .include's position */
};

#define MAX_FIXUPS (COPROC_MAX_UCODE + INSN_KIND_COUNT + COPROC_NT)

/* Label references keep the whole word (a longer one is refused before it
 * is recorded, so a truncated name can never match a label). */
struct fixup {
	char name[COPROC_LABEL_MAX + 1];
	uint32_t line;
	int kind;        /* 0: insn target, 1: dfe entry, 2: target register */
	int index;
};

/* Every `line` below is a position, POS(file, line). */
struct asm_state {
	uint32_t line;            /* the line being parsed */
	int n_files;
	struct source_file files[MAX_FILES];
	coproc_read_fn *read;     /* how .include reads a file (NULL: refused) */
	void *read_ctx;
	struct coproc_prog *p;
	struct ivx_err *err;
	int n_fix;
	struct fixup fix[MAX_FIXUPS];
	char dfe_default[COPROC_LABEL_MAX + 1];
	uint32_t dfe_default_line;  /* the .dfe default line (0: none) */
	uint32_t fields_used;     /* fields the microcode reads */
	int fields_set;
	uint32_t treg_set[COPROC_NT];      /* line of the .target giving tN a label (0: none) */
	uint32_t name_line, handler_line;  /* where .name and .handler were set (0: not yet) */
	uint32_t const_line[COPROC_NC], base_line[COPROC_NB];
	uint32_t dfe_line[INSN_KIND_COUNT];
	uint32_t width_line[3];            /* .iwidth .cwidth .awidth */
	uint32_t pcfilter_line;
	uint32_t param_line[COPROC_MAX_PARAMS];
	uint32_t label_line[COPROC_MAX_LABELS];
	uint32_t treg_used_at[COPROC_NT];  /* first line branching to tN, 0 if none */
	uint32_t classes_line;    /* the .classes line (0: none) */
};

/* The parameters something reads (the handlers, and the co-processor's
 * sizes), with the values that mean something: any other name is a typo,
 * which would otherwise leave the default in place without a word, and a
 * value outside the range would be clamped, wrapped or read as "off" by
 * the code that reads it. docs/coproc.md lists them with their meaning. */
#define BIG 1000000000000ll   /* cycles and counts: 10^12, as -C timer */
static const struct param_range { const char *name; int64_t lo, hi; } params[] = {
	{ "buffer_entries", 1, COPROC_MAX_BUFFER },
	{ "cam_entries", 1, COPROC_MAX_CAM },
	{ "confident", 1, BIG },
	{ "data_words", 16, COPROC_MAX_DATA },
	{ "depth", 1, COPROC_MAX_DATA },        /* words of the data array it reads */
	{ "enough", 1, BIG },
	{ "even", 0, 1 },
	{ "first", 0, 3 },       /* a 2-bit counter per bucket */
	{ "harvest_ring_alone", 0, 1 },
	{ "hi_permille", 0, 1000 },
	{ "hold", 0, BIG },
	{ "inherited_permille", 0, 1000 },
	{ "key_shift", 0, 63 },
	{ "lo_permille", 0, 1000 },
	{ "low_yield", 0, BIG },
	{ "max_width", 0, 16 },                 /* as .pcfilter's width */
	{ "min_slice", 1, BIG },
	{ "min_visits", 0, 1000000 },
	{ "partition_interrupts", 1, 1000000 },
	{ "profile_entries", 16, COPROC_MAX_PROFILE },
	{ "resample_backoff", 0, 1000000 },
	{ "resample_below", 0, BIG },
	{ "resample_every", 0, BIG },
	{ "resample_thrashed", 0, BIG },
	{ "ring_full_thrashes", 0, 1 },
	{ "skip_weight", 0, 1 },
	{ "slice_div", 0, 1000000 },
	{ "slice_ticks", -1, 1000000 },         /* -1: one period a partition while the run is young */
	{ "slots", 1, COPROC_MAX_CAM },
	{ "spill_entries", 0, COPROC_MAX_DATA },
	{ "spread", 0, BIG },
	{ "stable_agreements", 0, 1000000 },
	{ "stable_permille", 0, 1000 },
	{ "stable_sigmas", 0, 1000 },
	{ "ways", 0, 64 },
	{ "weighted", 0, 1 },
	{ "young_stall", 0, BIG },
};

/* "FILE:LINE: message", and for a line of an included file the .include
 * lines that led to it: " (included from a.s:3, from b.s:7)". */
static int fail(struct asm_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct asm_state *s, const char *fmt, ...)
{
	char msg[400], chain[400] = "";
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	size_t n = 0;
	const struct source_file *f = &s->files[POS_FILE(s->line)];
	for (; f->parent >= 0 && n < sizeof chain; f = &s->files[f->parent])
		n += (size_t)snprintf(chain + n, sizeof chain - n, "%s%s:%u", n ? ", from " : " (included from ",
				      s->files[f->parent].path, POS_LINE(f->from));
	if (n)
		snprintf(chain + (n < sizeof chain - 1 ? n : sizeof chain - 2), 2, ")");
	return ivx_error(s->err, IVX_EINPUT, "%s:%u: %s%s", s->files[POS_FILE(s->line)].path, POS_LINE(s->line),
			 msg, chain);
}

/* Where pos is, for "first at ...": "line N" in the file being parsed,
 * "FILE:N" in another. */
static const char *pos_text(const struct asm_state *s, uint32_t pos, char *buf, size_t n)
{
	if (POS_FILE(pos) == POS_FILE(s->line))
		snprintf(buf, n, "line %u", POS_LINE(pos));
	else
		snprintf(buf, n, "%s:%u", s->files[POS_FILE(pos)].path, POS_LINE(pos));
	return buf;
}

/* A line split into words: identifiers, numbers, and the punctuation
 * , [ ] + : -> each as its own word. */
#define MAX_WORDS 16
struct words {
	int n;
	char w[MAX_WORDS][32];
};

/* The length of the well-formed UTF-8 sequence at l (at most n bytes),
 * or 0. */
static size_t utf8_len(const unsigned char *l, size_t n)
{
	size_t len = l[0] >= 0xf0 && l[0] <= 0xf4 ? 4 : l[0] >= 0xe0 ? 3 : l[0] >= 0xc2 ? 2 : 0;
	if (l[0] >= 0xf5 || len > n)
		return 0;
	for (size_t k = 1; k < len; k++)
		if ((l[k] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* A comment may hold any text, UTF-8 included (the shipped programs'
 * comments have dashes and arrows), but not control or malformed bytes:
 * a file holding them is not a program, whatever comes first. */
static int check_comment(struct asm_state *s, const char *l, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned char ch = (unsigned char)l[i];
		if (ch == '\t' || ch == '\r' || (ch >= 0x20 && ch < 0x7f)) {
			i++;
			continue;
		}
		size_t n = ch >= 0x80 ? utf8_len((const unsigned char *)l + i, len - i) : 0;
		if (!n)
			return fail(s, "unexpected byte 0x%02x", ch);
		i += n;
	}
	return 0;
}

/* Punctuation that is a word by itself (not the string's terminating NUL). */
static int is_punct(char ch)
{
	return ch && strchr(",[]+:=", ch);
}

static int is_word_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '#' || ch == '-';
}

static int split(struct asm_state *s, const char *l, size_t len, struct words *out)
{
	out->n = 0;
	size_t i = 0;
	while (i < len) {
		char ch = l[i];
		if (ch == ';')
			return check_comment(s, l + i + 1, len - i - 1);
		if (ch == ' ' || ch == '\t' || ch == '\r') {
			i++;
			continue;
		}
		if (!is_punct(ch) && !is_word_char(ch)) {
			if (isprint((unsigned char)ch))
				return fail(s, "unexpected character '%c'", ch);
			return fail(s, "unexpected byte 0x%02x", (unsigned char)ch);
		}
		if (out->n == MAX_WORDS)
			return fail(s, "too many words on one line");
		char *w = out->w[out->n++];
		if (ch == '-' && i + 1 < len && l[i + 1] == '>') {
			strcpy(w, "->");
			i += 2;
			continue;
		}
		if (is_punct(ch)) {
			w[0] = ch, w[1] = 0;
			i++;
			continue;
		}
		size_t k = 0;
		while (i < len && is_word_char(l[i])) {
			if (l[i] == '-' && k > 0 && i + 1 < len && l[i + 1] == '>')
				break;
			if (k == 31)
				return fail(s, "word too long");
			w[k++] = l[i++];
		}
		w[k] = 0;
	}
	return 0;
}

static int is_ident(const char *w)
{
	if (!(isalpha((unsigned char)w[0]) || w[0] == '_'))
		return 0;
	for (const char *c = w; *c; c++)
		if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '.'))
			return 0;
	return 1;
}

/* A number: [-]decimal or [-]0xhex, optional leading '#'. Leading zeros
 * are decimal (010 is ten, not C's octal eight). A number fits when it is
 * a 64-bit pattern: 0..2^64-1, or -2^63..-1. Returns 0, NUM_NONE when w
 * is not a number, NUM_BIG when it does not fit. */
enum { NUM_NONE = -1, NUM_BIG = -2 };
static int parse_num(const char *w, int64_t *v)
{
	if (*w == '#')
		w++;
	int neg = *w == '-';
	if (neg)
		w++;
	int hex = w[0] == '0' && (w[1] == 'x' || w[1] == 'X');
	if (hex)
		w += 2;
	if (!*w)
		return NUM_NONE;
	uint64_t u = 0;
	int big = 0;
	for (; *w; w++) {
		int d = isdigit((unsigned char)*w) ? *w - '0'
			: hex && isxdigit((unsigned char)*w) ? tolower((unsigned char)*w) - 'a' + 10 : -1;
		if (d < 0)
			return NUM_NONE;
		unsigned base = hex ? 16 : 10;
		if (u > (UINT64_MAX - (uint64_t)d) / base)
			big = 1;
		u = u * base + (uint64_t)d;
	}
	if (big || (neg && u > (uint64_t)1 << 63))
		return NUM_BIG;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

/* parse_num for a word that must be a number: NUM_BIG is reported here
 * (0, or -1 with the error set; NUM_NONE is left to the caller). */
static int number(struct asm_state *s, const char *w, int64_t *v)
{
	int rc = parse_num(w, v);
	if (rc == NUM_BIG)
		fail(s, "'%s' does not fit in 64 bits", w);
	return rc;
}

static int reg_num(const char *w, char prefix, int count)
{
	if (w[0] != prefix || !isdigit((unsigned char)w[1]))
		return -1;
	char *end;
	long n = strtol(w + 1, &end, 10);
	if (*end || n < 0 || n >= count || (w[1] == '0' && w[2]))
		return -1;
	return (int)n;
}

/* A source operand: register, field, or immediate (into *imm, *has_imm). */
static int parse_src(struct asm_state *s, const char *w, struct cp_uinsn *u, uint8_t *out)
{
	int n, num;
	int64_t v;
	if ((num = number(s, w, &v)) == NUM_BIG)
		return -1;
	if ((n = reg_num(w, 'v', COPROC_NV)) >= 0)
		*out = CPR_V + n;
	else if ((n = reg_num(w, 'i', COPROC_NI)) >= 0)
		*out = CPR_I + n;
	else if ((n = reg_num(w, 'c', COPROC_NC)) >= 0)
		*out = CPR_C + n;
	else if (num == 0) {
		for (int k = 0; k < 2; k++)
			if ((k ? u->b : u->a) == CPR_IMM)
				return fail(s, "at most one immediate per microinstruction");
		if (u->dst == CPR_IMM)
			return fail(s, "at most one immediate per microinstruction");
		u->imm = v;
		*out = CPR_IMM;
	} else {
		for (int f = 0; f < 7; f++)
			if (!strcmp(w, field_names[f])) {
				*out = CPR_F_PC + f;
				if (f < 5)
					s->fields_used |= 1u << f;
				return 0;
			}
		return fail(s, "'%s' is not a source operand (v0-v7, i0-i7, c0-c15, a record field or a number)", w);
	}
	return 0;
}

static int parse_dst(struct asm_state *s, const char *w, uint8_t *out)
{
	int n;
	if ((n = reg_num(w, 'v', COPROC_NV)) >= 0)
		*out = CPR_V + n;
	else if ((n = reg_num(w, 'i', COPROC_NI)) >= 0)
		*out = CPR_I + n;
	else
		return fail(s, "'%s' cannot be written (destinations are v0-v7 and i0-i7)", w);
	return 0;
}

/* A setting that may be given once: a second one is an error rather than
 * last-wins, which would hide a copy-and-paste slip. *line is where it was
 * first set (0: not yet). */
static int once(struct asm_state *s, uint32_t *line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int once(struct asm_state *s, uint32_t *line, const char *fmt, ...)
{
	if (!*line) {
		*line = s->line;
		return 0;
	}
	char what[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	char at[MAX_PATH + 16];
	return fail(s, "%s set twice (first at %s)", what, pos_text(s, *line, at, sizeof at));
}

/* A label used as a branch target, .dfe routine or .target: refused when
 * no label could have that name, rather than left to "undefined label". */
static int check_label_ref(struct asm_state *s, const char *name)
{
	if (!is_ident(name))
		return fail(s, "'%s' is not a label", name);
	if (strlen(name) > COPROC_LABEL_MAX)
		return fail(s, "label '%s' is too long (at most %d characters)", name, COPROC_LABEL_MAX);
	return 0;
}

static int add_fixup(struct asm_state *s, const char *name, int kind, int index)
{
	if (s->n_fix == MAX_FIXUPS)
		return fail(s, "too many label references");
	struct fixup *f = &s->fix[s->n_fix++];
	snprintf(f->name, sizeof f->name, "%s", name);
	f->line = s->line, f->kind = kind, f->index = index;
	return 0;
}

/* Operand shapes, per op: D dst, S src, M memory [bN + S]. */
static const char *const shapes[CP_OP_COUNT] = {
	"", "DS", "DSS", "DSS", "DSS", "DSS", "DSS", "DSS", "DSS", "SS",
	"DS", "SS", "S", "DM", "MS", "M", "MS", "DS", "DS",
};

/* Parse "[ bN + S ]" at words[*k]. */
static int parse_mem(struct asm_state *s, const struct words *w, int *k, struct cp_uinsn *u)
{
	int i = *k;
	if (i + 4 >= w->n + 0 || strcmp(w->w[i], "[") || strcmp(w->w[i + 2], "+") || strcmp(w->w[i + 4], "]"))
		return fail(s, "expected a data-array operand [bN + index]");
	int b = reg_num(w->w[i + 1], 'b', COPROC_NB);
	if (b < 0)
		return fail(s, "'%s' is not a base register (b0-b3)", w->w[i + 1]);
	u->base = (uint8_t)b;
	if (parse_src(s, w->w[i + 3], u, &u->a) < 0)
		return -1;
	*k = i + 5;
	return 0;
}

static int parse_insn(struct asm_state *s, const struct words *w, int k)
{
	struct coproc_prog *p = s->p;
	int op;
	for (op = 0; op < CP_OP_COUNT; op++)
		if (!strcmp(w->w[k], op_names[op]))
			break;
	if (op == CP_OP_COUNT)
		return fail(s, "unknown operation '%s'", w->w[k]);
	if (p->n_insns == COPROC_MAX_UCODE)
		return fail(s, "more than %d microinstructions", COPROC_MAX_UCODE);
	struct cp_uinsn *u = &p->insn[p->n_insns];
	memset(u, 0, sizeof *u);
	u->op = (uint8_t)op;
	u->dst = u->a = u->b = CPR_NONE;
	u->line = s->line;
	k++;
	int nsrc = 0;
	for (const char *sh = shapes[op]; *sh; sh++) {
		if (sh != shapes[op]) {
			if (k >= w->n || strcmp(w->w[k], ","))
				return fail(s, "%s: expected ',' after operand %d", op_names[op], (int)(sh - shapes[op]));
			k++;
		}
		if (k >= w->n || !strcmp(w->w[k], "->"))
			return fail(s, "%s: missing operand %d", op_names[op], (int)(sh - shapes[op]) + 1);
		if (*sh == 'D') {
			if (parse_dst(s, w->w[k++], &u->dst) < 0)
				return -1;
		} else if (*sh == 'M') {
			if (parse_mem(s, w, &k, u) < 0)
				return -1;
			nsrc++;
		} else {
			uint8_t *slot = nsrc == 0 ? &u->a : &u->b;
			if (parse_src(s, w->w[k++], u, slot) < 0)
				return -1;
			nsrc++;
		}
	}
	if (k < w->n && strcmp(w->w[k], "->"))
		return fail(s, "%s: unexpected '%s' after the operands", op_names[op], w->w[k]);
	if (k < w->n) {
		k++;
		if (k < w->n && k + 1 < w->n) {
			int c;
			for (c = 1; c < CPC_COUNT; c++)
				if (!strcmp(w->w[k], cond_names[c]))
					break;
			if (c == CPC_COUNT)
				return fail(s, "unknown branch condition '%s'", w->w[k]);
			u->cond = (uint8_t)c;
			k++;
		}
		if (k >= w->n)
			return fail(s, "'->' needs a target");
		const char *t = w->w[k];
		for (int c = 1; c < CPC_COUNT; c++)
			if (!strcmp(t, cond_names[c]) && k + 1 >= w->n)
				return fail(s, "'-> %s' needs a target after the condition (a label cannot be named %s)", t, t);
		int tr;
		if (!strcmp(t, "DONE"))
			u->tkind = CPT_DONE;
		else if (!strcmp(t, "INTERRUPT"))
			u->tkind = CPT_INTERRUPT;
		else if ((tr = reg_num(t, 't', COPROC_NT)) >= 0) {
			u->tkind = CPT_TREG, u->target = (uint16_t)tr;
			if (!s->treg_used_at[tr])
				s->treg_used_at[tr] = s->line;
		}
		else if (is_ident(t)) {
			u->tkind = CPT_LABEL;
			if (check_label_ref(s, t) < 0 || add_fixup(s, t, 0, p->n_insns) < 0)
				return -1;
		} else
			return fail(s, "'%s' is not a branch target (a label, t0-t3, DONE or INTERRUPT)", t);
		if (k + 1 < w->n)
			return fail(s, "unexpected '%s' after the branch target", w->w[k + 1]);
	}
	p->n_insns++;
	return 0;
}

static int want_words(struct asm_state *s, const struct words *w, int k, int n, const char *usage)
{
	if (w->n - k != n)
		return fail(s, "usage: %s", usage);
	return 0;
}

static int parse_kind(struct asm_state *s, const char *w, uint32_t *mask)
{
	if (!strcmp(w, "branch")) {
		for (int k = INSN_KIND_COND_BRANCH; k <= INSN_KIND_RETURN; k++)
			*mask |= 1u << k;
		return 0;
	}
	int k = insn_kind_from_name(w);
	if (k < 0)
		return fail(s, "unknown instruction class '%s'", w);
	if (k == INSN_KIND_ALU || k == INSN_KIND_OTHER || k == INSN_KIND_SYSCALL)
		return fail(s, "class '%s' cannot be tagged (load, store, cond-branch, jump, call, indirect, "
			    "return, branch, mul, div, fp, fdiv, simd)", w);
	*mask |= 1u << k;
	return 0;
}

static int parse_directive(struct asm_state *s, const struct words *w, int k)
{
	struct coproc_prog *p = s->p;
	const char *d = w->w[k++];
	int64_t v;
	int r;
	if (!strcmp(d, ".name") || !strcmp(d, ".handler")) {
		if (want_words(s, w, k, 1, d[1] == 'n' ? ".name NAME" : ".handler value|edge|callstack|none") < 0)
			return -1;
		if (!is_ident(w->w[k]))
			return fail(s, "'%s' is not a name", w->w[k]);
		if (once(s, d[1] == 'n' ? &s->name_line : &s->handler_line, "%s", d) < 0)
			return -1;
		if (d[1] == 'n')
			snprintf(p->name, sizeof p->name, "%s", w->w[k]);
		else if (strcmp(w->w[k], "value") && strcmp(w->w[k], "edge") && strcmp(w->w[k], "callstack") &&
			 strcmp(w->w[k], "none"))
			return fail(s, "unknown handler '%s' (value, edge, callstack, none)", w->w[k]);
		else
			snprintf(p->handler, sizeof p->handler, "%s", w->w[k]);
		return 0;
	}
	if (!strcmp(d, ".classes")) {
		if (k >= w->n)
			return fail(s, "usage: .classes CLASS...");
		for (; k < w->n; k++)
			if (parse_kind(s, w->w[k], &p->classes) < 0)
				return -1;
		if (!s->classes_line)
			s->classes_line = s->line;
		return 0;
	}
	if (!strcmp(d, ".fields")) {
		if (k >= w->n)
			return fail(s, "usage: .fields FIELD...");
		for (; k < w->n; k++) {
			int f;
			for (f = 0; f < 5; f++)
				if (!strcmp(w->w[k], field_names[f]))
					break;
			if (f == 5)
				return fail(s, "unknown record field '%s' (pc, value, addr, target, taken)", w->w[k]);
			p->fields |= 1u << f;
		}
		s->fields_set = 1;
		return 0;
	}
	if (!strcmp(d, ".dfe")) {
		if (want_words(s, w, k, 2, ".dfe CLASS|default LABEL") < 0)
			return -1;
		if (check_label_ref(s, w->w[k + 1]) < 0)
			return -1;
		if (!strcmp(w->w[k], "default")) {
			if (once(s, &s->dfe_default_line, ".dfe default") < 0)
				return -1;
			snprintf(s->dfe_default, sizeof s->dfe_default, "%s", w->w[k + 1]);
			return 0;
		}
		uint32_t m = 0;
		if (parse_kind(s, w->w[k], &m) < 0)
			return -1;
		for (int c = 0; c < INSN_KIND_COUNT; c++)
			if (m & (1u << c))
				if (once(s, &s->dfe_line[c], ".dfe %s", insn_kind_name(c)) < 0 ||
				    add_fixup(s, w->w[k + 1], 1, c) < 0)
					return -1;
		return 0;
	}
	if (!strcmp(d, ".const") || !strcmp(d, ".base")) {
		int isc = d[1] == 'c';
		if (want_words(s, w, k, 2, isc ? ".const cN VALUE" : ".base bN WORD") < 0)
			return -1;
		r = reg_num(w->w[k], isc ? 'c' : 'b', isc ? COPROC_NC : COPROC_NB);
		if (r < 0)
			return fail(s, "'%s' is not a %s register", w->w[k], isc ? "constant (c0-c15)" : "base (b0-b3)");
		int num = number(s, w->w[k + 1], &v);
		if (num == NUM_BIG)
			return -1;
		if (num < 0)
			return fail(s, "'%s' is not a number", w->w[k + 1]);
		if (once(s, isc ? &s->const_line[r] : &s->base_line[r], "%s %s", d, w->w[k]) < 0)
			return -1;
		if (isc)
			p->creg[r] = (uint64_t)v;
		else if (v < 0 || v > 1 << 20)
			return fail(s, "base address %lld out of range", (long long)v);
		else
			p->breg[r] = (uint32_t)v;
		return 0;
	}
	if (!strcmp(d, ".target")) {
		if (want_words(s, w, k, 2, ".target tN LABEL") < 0)
			return -1;
		r = reg_num(w->w[k], 't', COPROC_NT);
		if (r < 0)
			return fail(s, "'%s' is not a branch target register (t0-t3)", w->w[k]);
		if (check_label_ref(s, w->w[k + 1]) < 0 || once(s, &s->treg_set[r], ".target t%d", r) < 0)
			return -1;
		return add_fixup(s, w->w[k + 1], 2, r);
	}
	if (!strcmp(d, ".iwidth") || !strcmp(d, ".cwidth") || !strcmp(d, ".awidth")) {
		int isi = d[1] == 'i';
		if (want_words(s, w, k, 1, isi ? ".iwidth BITS" : d[1] == 'c' ? ".cwidth BITS" : ".awidth BITS") < 0)
			return -1;
		if (parse_num(w->w[k], &v) < 0 || v < 1 || v > (isi ? 32 : 63))
			return fail(s, "%s: '%s' is not a width of 1..%d bits", d, w->w[k], isi ? 32 : 63);
		if (once(s, &s->width_line[isi ? 0 : d[1] == 'c' ? 1 : 2], "%s", d) < 0)
			return -1;
		*(isi ? &p->iwidth : d[1] == 'c' ? &p->cwidth : &p->awidth) = (int)v;
		return 0;
	}
	if (!strcmp(d, ".pcfilter")) {
		int64_t m;
		if (want_words(s, w, k, 2, ".pcfilter WIDTH MATCH") < 0)
			return -1;
		if (parse_num(w->w[k], &v) < 0 || v < 0 || v > 16)
			return fail(s, ".pcfilter: mask width '%s' is not 0..16", w->w[k]);
		if (parse_num(w->w[k + 1], &m) < 0 || m < 0 || m >= (1ll << v))
			return fail(s, ".pcfilter: match '%s' does not fit in %d bits", w->w[k + 1], (int)v);
		if (once(s, &s->pcfilter_line, ".pcfilter") < 0)
			return -1;
		p->pc_width = (int)v, p->pc_match = (uint32_t)m;
		return 0;
	}
	if (!strcmp(d, ".param")) {
		if (want_words(s, w, k, 2, ".param NAME VALUE") < 0)
			return -1;
		if (!is_ident(w->w[k]) || strlen(w->w[k]) >= sizeof p->param[0].name)
			return fail(s, "'%s' is not a parameter name", w->w[k]);
		int num = number(s, w->w[k + 1], &v);
		if (num == NUM_BIG)
			return -1;
		if (num < 0)
			return fail(s, "'%s' is not a number", w->w[k + 1]);
		const struct param_range *pr = params;
		while (pr < params + sizeof params / sizeof *params && strcmp(pr->name, w->w[k]))
			pr++;
		if (pr == params + sizeof params / sizeof *params)
			return fail(s, "unknown parameter '%s': nothing reads it (docs/coproc.md lists the parameters)",
				    w->w[k]);
		char at[MAX_PATH + 16];
		for (int i = 0; i < p->n_params; i++)
			if (!strcmp(p->param[i].name, w->w[k]))
				return fail(s, "parameter '%s' set twice (first at %s)", w->w[k],
					    pos_text(s, s->param_line[i], at, sizeof at));
		if (v < pr->lo || v > pr->hi)
			return fail(s, "parameter '%s': %lld is outside %lld..%lld", w->w[k], (long long)v,
				    (long long)pr->lo, (long long)pr->hi);
		if (p->n_params == COPROC_MAX_PARAMS)
			return fail(s, "more than %d parameters", COPROC_MAX_PARAMS);
		s->param_line[p->n_params] = s->line;
		snprintf(p->param[p->n_params].name, sizeof p->param[0].name, "%s", w->w[k]);
		p->param[p->n_params++].value = v;
		return 0;
	}
	return fail(s, "unknown directive '%s'", d);
}

static int find_label(const struct coproc_prog *p, const char *name)
{
	for (int i = 0; i < p->n_labels; i++)
		if (!strcmp(p->label[i].name, name))
			return p->label[i].addr;
	return -1;
}

static int include_file(struct asm_state *s, const char *l, size_t len);

/* A label: names the next microinstruction (the first one an .include
 * on its line reads, when it has one). */
static int define_label(struct asm_state *s, const char *name)
{
	struct coproc_prog *p = s->p;
	if (!is_ident(name) || name[0] == '.')
		return fail(s, "'%s' is not a label name", name);
	if (strlen(name) >= sizeof p->label[0].name)
		return fail(s, "label '%s' is too long (at most %zu characters)", name, sizeof p->label[0].name - 1);
	if (!strcmp(name, "DONE") || !strcmp(name, "INTERRUPT"))
		return fail(s, "'%s' is a reserved target name", name);
	/* "-> z x" is a condition and a target, so "-> z" could never
	 * branch to a label z */
	for (int c = 1; c < CPC_COUNT; c++)
		if (!strcmp(name, cond_names[c]))
			return fail(s, "'%s' is a branch condition and cannot be a label name", name);
	if (find_label(p, name) >= 0)
		return fail(s, "label '%s' defined twice", name);
	if (p->n_labels == COPROC_MAX_LABELS)
		return fail(s, "more than %d labels", COPROC_MAX_LABELS);
	s->label_line[p->n_labels] = s->line;
	snprintf(p->label[p->n_labels].name, sizeof p->label[0].name, "%s", name);
	p->label[p->n_labels++].addr = (uint16_t)p->n_insns;
	return 0;
}

/* Where ".include" starts on l when it is the line's statement (after
 * blanks, or after a label's "NAME:"), or len. Its file name is quoted,
 * which the word splitter refuses, so it is found before splitting. */
static size_t include_at(const char *l, size_t len)
{
	size_t b = 0;
	while (b < len && (l[b] == ' ' || l[b] == '\t'))
		b++;
	size_t e = b;
	while (e < len && is_word_char(l[e]) && l[e] != '-')
		e++;
	size_t c = e;
	while (c < len && (l[c] == ' ' || l[c] == '\t'))
		c++;
	if (e > b && c < len && l[c] == ':')   /* a label first */
		for (b = c + 1; b < len && (l[b] == ' ' || l[b] == '\t');)
			b++;
	if (len - b >= 8 && !memcmp(l + b, ".include", 8) &&
	    (len - b == 8 || l[b + 8] == ' ' || l[b + 8] == '\t' || l[b + 8] == '"' || l[b + 8] == ';'))
		return b;
	return len;
}

static int parse_line(struct asm_state *s, const char *l, size_t len)
{
	struct words w;
	size_t inc = include_at(l, len);
	if (split(s, l, inc, &w) < 0)
		return -1;
	int k = 0;
	if (w.n >= 2 && !strcmp(w.w[1], ":")) {
		if (define_label(s, w.w[0]) < 0)
			return -1;
		k = 2;
	}
	if (inc < len)
		return include_file(s, l + inc + 8, len - inc - 8);
	if (k == w.n)
		return 0;
	if (w.w[k][0] == '.')
		return parse_directive(s, &w, k);
	return parse_insn(s, &w, k);
}

/* Parse the lines of one file, s->line being POS(its index, 0). */
static int parse_lines(struct asm_state *s, const char *src, size_t len)
{
	/* (an editor's UTF-8 byte-order mark, skipped as a machine config's is) */
	size_t i = len >= 3 && !memcmp(src, "\xef\xbb\xbf", 3) ? 3 : 0;
	while (i < len) {
		size_t e = i;
		while (e < len && src[e] != '\n')
			e++;
		if (POS_LINE(s->line) == MAX_LINES)
			return fail(s, "more than %u lines", MAX_LINES - 1);
		s->line++;
		if (e - i > 400)
			return fail(s, "line longer than 400 characters");
		if (parse_line(s, src + i, e - i) < 0)
			return -1;
		i = e + 1;
	}
	return 0;
}

/* The directory of `from` joined with `name` (name itself when absolute),
 * with "." and "DIR/.." taken out, so that one file has one name: the
 * cycle check compares names. */
static int join_path(const char *from, const char *name, char *out, size_t n)
{
	char whole[2 * MAX_PATH];
	const char *slash = strrchr(from, '/');
	int dir = name[0] == '/' || !slash ? 0 : (int)(slash - from) + 1;
	snprintf(whole, sizeof whole, "%.*s%s", dir, from, name);
	size_t len = 0, kept = 0;   /* kept: leading segments a ".." may take out (not "..") */
	int absolute = whole[0] == '/';
	if (absolute)
		out[len++] = '/';
	for (char *seg = whole, *next; *seg; seg = next) {
		next = strchr(seg, '/');
		size_t sl = next ? (size_t)(next - seg) : strlen(seg);
		next = next ? next + 1 : seg + sl;
		if (sl == 0 || (sl == 1 && seg[0] == '.'))
			continue;
		if (sl == 2 && seg[0] == '.' && seg[1] == '.' && (kept || absolute)) {
			if (kept) {   /* take out the last segment and its '/' */
				len--;
				while (len > (size_t)absolute && out[len - 1] != '/')
					len--;
				kept--;
			}
			continue;
		}
		if (len + sl + 2 > n)
			return -1;
		memcpy(out + len, seg, sl);
		len += sl;
		out[len++] = '/';
		if (!(sl == 2 && seg[0] == '.' && seg[1] == '.'))
			kept++;
	}
	if (len > (size_t)absolute)
		len--;   /* the last '/' */
	out[len] = 0;
	return len ? 0 : -1;
}

/* `.include "FILE"` (l is what follows ".include"): FILE, relative to the
 * including file's directory, read and parsed in place. */
static int include_file(struct asm_state *s, const char *l, size_t len)
{
	const char *usage = "usage: .include \"FILE\"";
	size_t i = 0;
	while (i < len && (l[i] == ' ' || l[i] == '\t'))
		i++;
	if (i == len || l[i] != '"')
		return fail(s, "%s", usage);
	size_t start = ++i;
	while (i < len && l[i] != '"') {
		if ((unsigned char)l[i] < 0x20 || (unsigned char)l[i] >= 0x7f)
			return fail(s, ".include: the file name holds byte 0x%02x", (unsigned char)l[i]);
		i++;
	}
	if (i == len || i == start)
		return fail(s, "%s", usage);
	char name[MAX_PATH];
	if (i - start >= sizeof name)
		return fail(s, ".include: the file name is longer than %zu characters", sizeof name - 1);
	memcpy(name, l + start, i - start);
	name[i - start] = 0;
	for (i++; i < len && l[i] != ';'; i++)
		if (l[i] != ' ' && l[i] != '\t' && l[i] != '\r')
			return fail(s, "unexpected text after .include \"%s\"", name);
	if (i < len && check_comment(s, l + i + 1, len - i - 1) < 0)
		return -1;
	if (!s->read)
		return fail(s, ".include \"%s\": this program was given as text, with no files to include", name);
	int cur = POS_FILE(s->line), depth = 0;
	for (int f = cur; s->files[f].parent >= 0; f = s->files[f].parent)
		depth++;
	if (depth == MAX_INCLUDE_DEPTH)
		return fail(s, ".include \"%s\": includes nested more than %d deep", name, MAX_INCLUDE_DEPTH);
	char path[MAX_PATH];
	if (join_path(s->files[cur].path, name, path, sizeof path) < 0)
		return fail(s, ".include \"%s\": not a file name, or too long", name);
	for (int f = cur; f >= 0; f = s->files[f].parent)
		if (!strcmp(s->files[f].path, path))
			return fail(s, ".include \"%s\": an include cycle (%s is being included already)", name, path);
	if (s->n_files == MAX_FILES)
		return fail(s, ".include \"%s\": more than %d files in one program", name, MAX_FILES - 1);
	struct ivx_err rerr = { 0 };
	char *text = NULL;
	size_t tlen = 0;
	if (s->read(s->read_ctx, path, &text, &tlen, &rerr) < 0) {
		if (rerr.code == IVX_ESYS)
			return ivx_error(s->err, IVX_ESYS, "%s", rerr.msg);
		return fail(s, "cannot include \"%s\": %s", name, rerr.msg);
	}
	struct source_file *f = &s->files[s->n_files];
	f->path = ivx_strdup(path);
	if (!f->path) {
		ivx_free(text);
		return ivx_error(s->err, IVX_ESYS, "out of memory");
	}
	f->parent = cur, f->from = s->line;
	uint32_t back = s->line;
	s->line = POS(s->n_files++, 0);
	int rc = parse_lines(s, text, tlen);
	ivx_free(text);
	if (rc == 0)
		s->line = back;
	return rc;
}

int coproc_asm(const char *src, size_t len, const char *file, struct coproc_prog *out, struct ivx_err *err)
{
	return coproc_asm_reading(src, len, file, NULL, NULL, out, err);
}

int coproc_asm_reading(const char *src, size_t len, const char *file, coproc_read_fn *read, void *read_ctx,
		       struct coproc_prog *out, struct ivx_err *err)
{
	struct asm_state *s = ivx_calloc(1, sizeof *s);
	if (!s)
		return ivx_error(err, IVX_ESYS, "out of memory");
	memset(out, 0, sizeof *out);
	s->p = out, s->err = err, s->read = read, s->read_ctx = read_ctx;
	s->files[0].path = ivx_strdup(file);
	s->files[0].parent = -1;
	s->n_files = 1;
	if (!s->files[0].path) {
		ivx_free(s);
		return ivx_error(err, IVX_ESYS, "out of memory");
	}
	snprintf(out->name, sizeof out->name, "unnamed");
	snprintf(out->handler, sizeof out->handler, "none");
	out->iwidth = 16, out->cwidth = 16;
	for (int c = 0; c < INSN_KIND_COUNT; c++)
		out->dfe[c] = -1;
	int rc = parse_lines(s, src, len);
	if (rc == 0 && out->n_insns == 0) {
		s->line = s->line ? s->line : 1;
		rc = fail(s, "the program has no microinstructions");
	}
	/* a label after the last microinstruction marks nothing, used or not */
	for (int l = 0; rc == 0 && l < out->n_labels; l++)
		if (out->label[l].addr >= out->n_insns) {
			s->line = s->label_line[l];
			rc = fail(s, "label '%s' marks no microinstruction", out->label[l].name);
		}
	for (int f = 0; rc == 0 && f < s->n_fix; f++) {
		struct fixup *x = &s->fix[f];
		int a = find_label(out, x->name);
		s->line = x->line;
		if (a < 0)
			rc = fail(s, "undefined label '%s'", x->name);
		else if (a >= out->n_insns)
			rc = fail(s, "label '%s' marks no microinstruction", x->name);
		else if (x->kind == 0)
			out->insn[x->index].target = (uint16_t)a;
		else if (x->kind == 1)
			out->dfe[x->index] = (int16_t)a;
		else
			out->treg[x->index] = (uint16_t)a;
	}
	if (rc == 0 && s->dfe_default_line) {
		s->line = s->dfe_default_line;
		int a = find_label(out, s->dfe_default);
		if (a < 0 || a >= out->n_insns)
			rc = fail(s, "undefined label '%s'", s->dfe_default);
		for (int c = 0; rc == 0 && c < INSN_KIND_COUNT; c++)
			if (out->dfe[c] < 0)
				out->dfe[c] = (int16_t)a;
	}
	for (int c = 0; rc == 0 && c < INSN_KIND_COUNT; c++)
		if ((out->classes & (1u << c)) && out->dfe[c] < 0) {
			s->line = s->classes_line ? s->classes_line : 1;
			rc = fail(s, "class %s is tagged (.classes) but has no .dfe routine", insn_kind_name(c));
		}
	if (rc == 0 && !out->classes) {
		s->line = 1;
		rc = fail(s, "no .classes: the program would never receive a record");
	}
	/* every record field the microcode reads must be collected */
	for (int f = 0; rc == 0 && f < 5; f++)
		if ((s->fields_used & (1u << f)) && !(out->fields & (1u << f))) {
			for (int a = 0; a < out->n_insns; a++) {
				const struct cp_uinsn *u = &out->insn[a];
				if (u->a == CPR_F_PC + f || u->b == CPR_F_PC + f) {
					s->line = u->line;
					break;
				}
			}
			rc = fail(s, "the microcode reads '%s' but .fields does not collect it", field_names[f]);
		}
	/* a branch through a target register needs a .target for it (the
	 * register would hold 0, the first microinstruction) */
	for (int r = 0; rc == 0 && r < COPROC_NT; r++)
		if (s->treg_used_at[r] && !s->treg_set[r]) {
			s->line = s->treg_used_at[r];
			rc = fail(s, "a branch to t%d, which no .target sets", r);
		}
	/* a handler reads the records of its own classes: the value handler
	 * loads, the edge handler conditional branches, the call-stack one
	 * calls and returns */
	static const struct { const char *handler; uint32_t needs; const char *what; } reads[] = {
		{ "value", 1u << INSN_KIND_LOAD, "load" },
		{ "edge", 1u << INSN_KIND_COND_BRANCH, "cond-branch" },
		{ "callstack", 1u << INSN_KIND_CALL | 1u << INSN_KIND_RETURN, "call and return" },
	};
	for (size_t h = 0; rc == 0 && h < sizeof reads / sizeof *reads; h++)
		if (!strcmp(out->handler, reads[h].handler) && (out->classes & reads[h].needs) != reads[h].needs) {
			s->line = s->classes_line ? s->classes_line : 1;
			rc = fail(s, "the %s handler profiles %s records: .classes must have %s", out->handler,
				  reads[h].what, reads[h].what);
		}
	/* branches must land inside the microcode; memory offsets come from
	 * registers so they are checked (masked) at run time */
	for (int a = 0; a < out->n_insns; a++)   /* (a line in the file that holds it) */
		out->insn[a].line = POS_LINE(out->insn[a].line);
	int code = rc < 0 ? (err && err->code == IVX_ESYS ? IVX_ESYS : IVX_EINPUT) : IVX_OK;
	for (int f = 0; f < s->n_files; f++)
		ivx_free(s->files[f].path);
	ivx_free(s);
	return code;
}

/* ---- disassembly ----------------------------------------------------- */

static void opnd(const struct cp_uinsn *u, uint8_t r, char *b, size_t n)
{
	if (r < CPR_I)
		snprintf(b, n, "v%d", r);
	else if (r < CPR_C)
		snprintf(b, n, "i%d", r - CPR_I);
	else if (r < CPR_B)
		snprintf(b, n, "c%d", r - CPR_C);
	else if (r >= CPR_F_PC && r <= CPR_F_WEIGHT)
		snprintf(b, n, "%s", field_names[r - CPR_F_PC]);
	else if (r == CPR_IMM)
		snprintf(b, n, "#%lld", (long long)u->imm);
	else
		snprintf(b, n, "?");
}

const char *coproc_prog_label_at(const struct coproc_prog *p, int addr)
{
	for (int i = 0; i < p->n_labels; i++)
		if (p->label[i].addr == addr)
			return p->label[i].name;
	return NULL;
}

void coproc_disasm_insn(const struct coproc_prog *p, int addr, char *buf, size_t n)
{
	if (addr < 0 || addr >= p->n_insns) {
		snprintf(buf, n, "?");
		return;
	}
	const struct cp_uinsn *u = &p->insn[addr];
	char d[24], a[24], b[24], t[48] = "";
	opnd(u, u->dst, d, sizeof d);
	opnd(u, u->a, a, sizeof a);
	opnd(u, u->b, b, sizeof b);
	const char *sh = shapes[u->op];
	size_t len = (size_t)snprintf(buf, n, "%s", op_names[u->op]);
	int src = 0;
	for (const char *c = sh; *c && len < n; c++) {
		const char *sep = c == sh ? " " : ", ";
		if (*c == 'D')
			len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, d);
		else if (*c == 'M')
			len += (size_t)snprintf(buf + len, n - len, "%s[b%d + %s]", sep, u->base, a), src++;
		else
			len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, src++ ? b : a);
	}
	if (u->tkind != CPT_NONE && len < n) {
		const char *lab = u->tkind == CPT_LABEL ? coproc_prog_label_at(p, u->target) : NULL;
		if (u->tkind == CPT_DONE)
			snprintf(t, sizeof t, "DONE");
		else if (u->tkind == CPT_INTERRUPT)
			snprintf(t, sizeof t, "INTERRUPT");
		else if (u->tkind == CPT_TREG)
			snprintf(t, sizeof t, "t%d", u->target);
		else if (lab)
			snprintf(t, sizeof t, "%s", lab);
		else
			snprintf(t, sizeof t, "@%d", u->target);
		snprintf(buf + len, n - len, " -> %s%s%s", cond_names[u->cond], u->cond ? " " : "", t);
	}
}

/* ---- listing ---------------------------------------------------------- */

/* Text appended to a caller's buffer, snprintf-style: len counts what
 * would have been written, so a first call with n 0 sizes the buffer. */
struct listing {
	char *buf;
	size_t n, len;
};

static void put(struct listing *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct listing *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(l->len < l->n ? l->buf + l->len : NULL, l->len < l->n ? l->n - l->len : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		l->len += (size_t)k;
}

/* The DFE label of class k (a label always marks a routine's start). */
static const char *dfe_label(const struct coproc_prog *p, int k)
{
	const char *l = coproc_prog_label_at(p, p->dfe[k]);
	return l ? l : "?";
}

/* `.dfe` lines that rebuild p's DFE table. Classes that cannot be tagged
 * (other, alu, syscall) get a routine only from `.dfe default`, so when
 * they have one it is the default's, and the other classes are listed
 * where they differ from it. */
static void list_dfe(struct listing *out, const struct coproc_prog *p)
{
	int dflt = p->dfe[INSN_KIND_OTHER];
	if (dflt >= 0)
		put(out, ".dfe default %s ; @%d\n", dfe_label(p, INSN_KIND_OTHER), dflt);
	for (int k = 0; k < INSN_KIND_COUNT; k++) {
		if (p->dfe[k] < 0 || p->dfe[k] == dflt || k == INSN_KIND_OTHER || k == INSN_KIND_ALU ||
		    k == INSN_KIND_SYSCALL)
			continue;
		put(out, ".dfe %s %s ; @%d\n", insn_kind_name(k), dfe_label(p, k), p->dfe[k]);
	}
}

/* Program p as source that assembles to the same program: every setting
 * as a directive, each microinstruction with its label and, in a
 * comment, its address. */
size_t coproc_prog_listing(const struct coproc_prog *p, const char *path, char *buf, size_t n)
{
	struct listing l = { buf, n, 0 }, *out = &l;
	put(out, "; %s: program %s, handler %s, %d microinstructions\n", path, p->name, p->handler, p->n_insns);
	put(out, ".name %s\n.handler %s\n.classes", p->name, p->handler);
	for (int k = 0; k < INSN_KIND_COUNT; k++)
		if (p->classes >> k & 1)
			put(out, " %s", insn_kind_name(k));
	put(out, "\n");
	if (p->fields) {   /* (an empty .fields is a usage error: none is the default) */
		put(out, ".fields");
		for (int b = 1; b <= CPF_TAKEN; b <<= 1)
			if (p->fields & (uint32_t)b)
				put(out, " %s", coproc_field_name(b));
		put(out, "\n");
	}
	put(out, ".iwidth %d\n.cwidth %d\n", p->iwidth, p->cwidth);
	if (p->awidth)
		put(out, ".awidth %d\n", p->awidth);
	put(out, ".pcfilter %d %u\n", p->pc_width, p->pc_match);
	list_dfe(out, p);
	for (int i = 0; i < COPROC_NC; i++)
		if (p->creg[i])
			put(out, ".const c%d %llu\n", i, (unsigned long long)p->creg[i]);
	for (int i = 0; i < COPROC_NB; i++)
		if (p->breg[i])
			put(out, ".base b%d %u\n", i, p->breg[i]);
	/* a target register the microcode branches through has a .target,
	 * even one naming microinstruction 0 (an unused one holds 0 either way) */
	uint32_t used = 0;
	for (int a = 0; a < p->n_insns; a++)
		if (p->insn[a].tkind == CPT_TREG)
			used |= 1u << p->insn[a].target;
	for (int i = 0; i < COPROC_NT; i++)
		if (p->treg[i] || (used >> i & 1)) {
			const char *l = coproc_prog_label_at(p, p->treg[i]);
			put(out, ".target t%d %s\n", i, l ? l : "?");
		}
	for (int i = 0; i < p->n_params; i++)
		put(out, ".param %s %lld\n", p->param[i].name, (long long)p->param[i].value);
	for (int a = 0; a < p->n_insns; a++) {
		char insn[160], lab[COPROC_LABEL_MAX + 2] = "";
		const char *name = coproc_prog_label_at(p, a);
		if (name)
			snprintf(lab, sizeof lab, "%s:", name);
		coproc_disasm_insn(p, a, insn, sizeof insn);
		put(out, "%-12s %-40s ; @%d\n", lab, insn, a);
	}
	return l.len;
}

int64_t coproc_prog_param(const struct coproc_prog *p, const char *name, int64_t dflt)
{
	for (int i = 0; i < p->n_params; i++)
		if (!strcmp(p->param[i].name, name))
			return p->param[i].value;
	return dflt;
}
