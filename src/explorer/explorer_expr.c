/*
 * explorer_expr.c — parser and evaluator for explorer expressions (see
 * explorer_expr.h).
 *
 * Recursive descent over the text straight into a node array; precedence
 * climbing for the binary operators (C's table). Evaluation walks the tree;
 * conditions are small and evaluated only when a candidate event happens,
 * so there is nothing to gain from anything cleverer.
 *
 * Both walks recurse, so the parser refuses nesting (parentheses, unary
 * operators) and trees (`1+1+...` is a left-deep chain) deeper than
 * XEXPR_MAX_DEPTH: a hostile script cannot overflow the C stack.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include "cli/cli.h"
#include "core/core.h"
#include "explorer_expr.h"
#include "guest/guest.h"
#include "isa/mem.h"
#include "guest/program.h"
#include "guest/symtab.h"

enum var {
	V_CYCLE, V_PC, V_SYM, V_LATENCY, V_START, V_END, V_ADDR, V_KIND,
	V_WRONGPATH, V_SEQ, V_INSNS, V_ROB, V_SP, V_LR, V_FP, V_NZCV,
	V_MISPREDICTED, V_STOP_PC, V_STOP_SEQ, V_EXITCODE, V_COUNT
};
static const char *const var_names[V_COUNT] = {
	"cycle", "pc", "sym", "latency", "start", "end", "addr", "kind",
	"wrongpath", "seq", "insns", "rob", "sp", "lr", "fp", "nzcv",
	"mispredicted", "stop_pc", "stop_seq", "exitcode",
};

enum node_kind { N_NUM, N_STR, N_VAR, N_XREG, N_WREG, N_SYM, N_UNARY, N_BINARY, N_FLT };

/* Deepest nesting and tree the parser accepts; far beyond any real
 * condition, far below what the recursion could take. */
#define XEXPR_MAX_DEPTH 256

struct node {
	int kind;            /* enum node_kind */
	int op;              /* operator token for unary/binary; var id; register */
	int a, b;            /* children */
	int depth;           /* height of the subtree: 1 for a leaf */
	int64_t num;
	double fnum;         /* N_FLT */
	char str[64];        /* string literal or symbol name */
};

struct xexpr {
	struct node *n;
	int count, cap, root;
	char *text;
	uint32_t vars_used;  /* bit per enum var */
};

/* Operators as small integers: multi-character ones get codes >= 256. */
enum { OP_OROR = 256, OP_ANDAND, OP_EQ, OP_NE, OP_LE, OP_GE, OP_SHL, OP_SHR };

struct parser {
	struct explorer *x;
	struct xexpr *e;
	const char *p;
	char *err;
	size_t errn;
	int failed;
	int nesting;         /* open parentheses and unary operators around the cursor */
};

static int fail(struct parser *ps, const char *fmt, const char *arg)
{
	if (!ps->failed)
		snprintf(ps->err, ps->errn, fmt, arg);
	ps->failed = 1;
	return -1;
}

static int new_node(struct parser *ps, int kind)
{
	struct xexpr *e = ps->e;
	if (e->count == e->cap) {
		int cap = e->cap ? e->cap * 2 : 16;
		struct node *n = realloc(e->n, (size_t)cap * sizeof *n);
		if (!n)
			return fail(ps, "%s", "out of memory");
		e->n = n;
		e->cap = cap;
	}
	memset(&e->n[e->count], 0, sizeof e->n[0]);
	e->n[e->count].kind = kind;
	e->n[e->count].depth = 1;
	return e->count++;
}

/* Make node k an operator over a (and b, -1 for none); refuses a tree
 * deeper than eval may recurse. 0 or -1. */
static int link_node(struct parser *ps, int k, int op, int a, int b)
{
	struct node *n = ps->e->n;
	int depth = n[a].depth;
	if (b >= 0 && n[b].depth > depth)
		depth = n[b].depth;
	if (depth >= XEXPR_MAX_DEPTH)
		return fail(ps, "%s", "expression nested too deeply");
	n[k].op = op;
	n[k].a = a;
	n[k].b = b;
	n[k].depth = depth + 1;
	return 0;
}

static void skip_ws(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

/* Binary operator at the cursor: code, length, precedence (0 = none). */
static int peek_binop(struct parser *ps, int *len)
{
	static const struct { const char *s; int op, prec; } ops[] = {
		{ "||", OP_OROR, 1 }, { "&&", OP_ANDAND, 2 }, { "==", OP_EQ, 6 },
		{ "!=", OP_NE, 6 }, { "<=", OP_LE, 7 }, { ">=", OP_GE, 7 },
		{ "<<", OP_SHL, 8 }, { ">>", OP_SHR, 8 }, { "|", '|', 3 },
		{ "^", '^', 4 }, { "&", '&', 5 }, { "<", '<', 7 }, { ">", '>', 7 },
		{ "+", '+', 9 }, { "-", '-', 9 }, { "*", '*', 10 }, { "/", '/', 10 },
		{ "%", '%', 10 },
	};
	skip_ws(ps);
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		size_t l = strlen(ops[i].s);
		if (!strncmp(ps->p, ops[i].s, l)) {
			*len = (int)l;
			return ops[i].op | ops[i].prec << 16;
		}
	}
	return 0;
}

static int parse_binary(struct parser *ps, int min_prec);
static int parse_primary(struct parser *ps);

static int resolve_name(struct parser *ps, const char *name)
{
	for (int v = 0; v < V_COUNT; v++)
		if (!strcmp(name, var_names[v])) {
			int k = new_node(ps, N_VAR);
			if (k >= 0) {
				ps->e->n[k].op = v;
				ps->e->vars_used |= 1u << v;
			}
			return k;
		}
	if ((name[0] == 'x' || name[0] == 'w') && isdigit((unsigned char)name[1])) {
		char *end;
		long r = strtol(name + 1, &end, 10);
		if (!*end && r >= 0 && r <= 30) {
			int k = new_node(ps, name[0] == 'x' ? N_XREG : N_WREG);
			if (k >= 0)
				ps->e->n[k].op = (int)r;
			return k;
		}
	}
	const struct symbol *sym = symtab_find(program_symbols(ps->x->prog), name);
	if (!sym)
		return fail(ps, "no symbol \"%s\" in current context", name);
	int k = new_node(ps, N_SYM);
	if (k >= 0) {
		ps->e->n[k].num = (int64_t)sym->addr;
		snprintf(ps->e->n[k].str, sizeof ps->e->n[k].str, "%.63s", name);
	}
	return k;
}

/* A parenthesised expression or a unary operator and its operand: the
 * parser's recursion, bounded by ps->nesting. */
static int parse_nested(struct parser *ps)
{
	const char *p = ps->p;
	if (ps->nesting >= XEXPR_MAX_DEPTH)
		return fail(ps, "%s", "expression nested too deeply");
	ps->nesting++;
	ps->p++;
	int k;
	if (*p == '(') {
		k = parse_binary(ps, 1);
		skip_ws(ps);
		if (k >= 0 && *ps->p != ')')
			k = fail(ps, "%s", "missing ')'");
		else if (k >= 0)
			ps->p++;
	} else {
		int a = parse_primary(ps);
		k = a < 0 ? -1 : new_node(ps, N_UNARY);
		if (k >= 0 && link_node(ps, k, *p, a, -1) < 0)
			k = -1;
	}
	ps->nesting--;
	return k;
}

static int parse_primary(struct parser *ps)
{
	skip_ws(ps);
	const char *p = ps->p;
	if (*p == '(' || *p == '-' || *p == '!' || *p == '~' || *p == '*')
		return parse_nested(ps);
	if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
		/* a decimal number with a point or an exponent is a double */
		size_t dn = strspn(p, "0123456789");
		if ((p[dn] == '.' || ((p[dn] == 'e' || p[dn] == 'E') && dn)) && strncmp(p, "0x", 2) &&
		    strncmp(p, "0X", 2)) {
			char *fend;
			double d = strtod(p, &fend);
			if (fend == p || isalnum((unsigned char)*fend) || *fend == '_' || *fend == '.') {
				char word[40];
				size_t wn = strspn(p, "0123456789abcdefABCDEFxX._+-");
				snprintf(word, sizeof word, "%.*s", wn <= 32 ? (int)wn : 32, p);
				return fail(ps, "invalid number \"%s\"", word);
			}
			ps->p = fend;
			int k = new_node(ps, N_FLT);
			if (k >= 0)
				ps->e->n[k].fnum = d;
			return k;
		}
		const char *end;
		uint64_t v;
		int bad = cli_scan_u64(p, &v, &end) < 0;
		if (bad || isalnum((unsigned char)*end) || *end == '_') {
			char word[40];
			size_t n = 0;
			while (isalnum((unsigned char)p[n]) || p[n] == '_')
				n++;
			snprintf(word, sizeof word, "%.*s%s", n <= 32 ? (int)n : 32, p, n <= 32 ? "" : "...");
			if (bad)
				return fail(ps, "number too large for 64 bits: %s", word);
			return fail(ps, "invalid number \"%s\"", word);
		}
		ps->p = end;
		int k = new_node(ps, N_NUM);
		if (k >= 0)
			ps->e->n[k].num = (int64_t)v;
		return k;
	}
	if (*p == '"') {
		const char *q = strchr(p + 1, '"');
		if (!q)
			return fail(ps, "%s", "unterminated string");
		int k = new_node(ps, N_STR);
		if (k >= 0)
			snprintf(ps->e->n[k].str, sizeof ps->e->n[k].str, "%.*s", (int)(q - p - 1), p + 1);
		ps->p = q + 1;
		return k;
	}
	if (*p == '$')
		p++;
	if (isalpha((unsigned char)*p) || *p == '_' || *p == '.') {
		char name[128];
		size_t n = 0;
		while ((isalnum((unsigned char)*p) || *p == '_' || *p == '.') && n + 1 < sizeof name)
			name[n++] = *p++;
		name[n] = 0;
		ps->p = p;
		return resolve_name(ps, name);
	}
	if (!*p)
		return fail(ps, "%s", "expression expected");
	return fail(ps, "unexpected '%.1s' in expression", p);
}

static int parse_binary(struct parser *ps, int min_prec)
{
	int left = parse_primary(ps);
	for (;;) {
		if (left < 0)
			return -1;
		int len, code = peek_binop(ps, &len);
		int prec = code >> 16, op = code & 0xffff;
		if (!code || prec < min_prec)
			return left;
		ps->p += len;
		int right = parse_binary(ps, prec + 1);
		if (right < 0)
			return -1;
		int k = new_node(ps, N_BINARY);
		if (k < 0 || link_node(ps, k, op, left, right) < 0)
			return -1;
		left = k;
	}
}

struct xexpr *xexpr_parse(struct explorer *x, const char *text, char *err, size_t n)
{
	struct xexpr *e = calloc(1, sizeof *e);
	if (!e || !(e->text = strdup(text))) {
		free(e);
		snprintf(err, n, "out of memory");
		return NULL;
	}
	struct parser ps = { .x = x, .e = e, .p = text, .err = err, .errn = n };
	e->root = parse_binary(&ps, 1);
	skip_ws(&ps);
	if (!ps.failed && *ps.p)
		fail(&ps, "unexpected \"%s\" after expression", ps.p);
	if (ps.failed) {
		xexpr_free(e);
		return NULL;
	}
	return e;
}

void xexpr_free(struct xexpr *e)
{
	if (!e)
		return;
	free(e->n);
	free(e->text);
	free(e);
}

const char *xexpr_text(const struct xexpr *e)
{
	return e->text;
}

int xexpr_uses(const struct xexpr *e, const char *name)
{
	for (int v = 0; v < V_COUNT; v++)
		if (!strcmp(name, var_names[v]))
			return (e->vars_used >> v) & 1;
	return 0;
}

const char *xexpr_var_name(size_t i)
{
	return i < V_COUNT ? var_names[i] : NULL;
}

/* ---- evaluation --------------------------------------------------------- */

static void set_num(struct xval *v, int64_t n)
{
	v->is_str = 0;
	v->is_float = 0;
	v->num = n;
	v->fnum = (double)n;
	v->str[0] = 0;
}

static void set_flt(struct xval *v, double d)
{
	v->is_str = 0;
	v->is_float = 1;
	v->fnum = d != d ? NAN : d;   /* (x86's 0.0 / 0 has its sign bit set: shown "nan", not "-nan") */
	v->num = d != d ? 0 : d >= 9.2e18 ? INT64_MAX : d <= -9.2e18 ? INT64_MIN : (int64_t)d;
	v->str[0] = 0;
}

static void set_str(struct xval *v, const char *s)
{
	v->is_str = 1;
	v->is_float = 0;
	v->num = 0;
	snprintf(v->str, sizeof v->str, "%s", s);
}

static void eval_var(const struct xexpr_env *env, int var, struct xval *out)
{
	struct explorer *x = env->x;
	const struct xevent *ev = env->ev;
	const struct cpu *cpu = guest_cpu_const(x->guest);
	uint64_t now = ev ? xcycle(env->cycle) : explorer_cycle(x);
	switch (var) {
	case V_CYCLE: set_num(out, (int64_t)now); break;
	case V_PC: set_num(out, (int64_t)(ev ? ev->pc : explorer_pc(x))); break;
	case V_SYM: {
		uint64_t off, pc = ev ? ev->pc : explorer_pc(x);
		const struct symbol *s = symtab_lookup(program_symbols(x->prog), pc, &off);
		set_str(out, s ? s->name : "");
		break;
	}
	case V_LATENCY:
		set_num(out, !ev ? 0 : (int64_t)((ev->ended ? xcycle(ev->end) : now) - xcycle(ev->start)));
		break;
	case V_START: set_num(out, ev ? (int64_t)xcycle(ev->start) : 0); break;
	case V_END: set_num(out, ev && ev->ended ? (int64_t)xcycle(ev->end) : 0); break;
	case V_ADDR: set_num(out, ev ? (int64_t)ev->addr : 0); break;
	case V_KIND: set_str(out, ev ? xev_name(ev->kind) : ""); break;
	case V_WRONGPATH: set_num(out, ev ? !ev->correct_path : 0); break;
	case V_SEQ: {
		struct rob_view rv;
		uint64_t seq = ev ? ev->insn_seq : core_rob_entry(x->core, 0, &rv) == 0 ? rv.seq : 0;
		set_num(out, (int64_t)seq);
		break;
	}
	case V_INSNS: set_num(out, (int64_t)explorer_committed(x)); break;
	case V_ROB: set_num(out, core_rob_occupancy(x->core)); break;
	case V_SP: set_num(out, (int64_t)cpu->x[CPU_SP]); break;
	case V_LR: set_num(out, (int64_t)cpu->x[30]); break;
	case V_FP: set_num(out, (int64_t)cpu->x[29]); break;
	case V_NZCV: set_num(out, (int64_t)cpu->nzcv); break;
	case V_MISPREDICTED: set_num(out, ev ? ev->mispredicted : 0); break;
	case V_STOP_PC: set_num(out, (int64_t)x->stop.pc); break;
	case V_STOP_SEQ: set_num(out, (int64_t)x->stop.insn_seq); break;
	case V_EXITCODE: set_num(out, x->exited ? x->exit_code : -1); break;
	}
}

static int eval(const struct xexpr *e, int k, const struct xexpr_env *env, struct xval *out, char *err, size_t n)
{
	const struct node *nd = &e->n[k];
	struct xval a, b;
	switch (nd->kind) {
	case N_NUM: set_num(out, nd->num); return 0;
	case N_FLT: set_flt(out, nd->fnum); return 0;
	case N_STR: set_str(out, nd->str); return 0;
	case N_SYM: set_num(out, nd->num); snprintf(out->str, sizeof out->str, "%s", nd->str); return 0;
	case N_VAR: eval_var(env, nd->op, out); return 0;
	case N_XREG: set_num(out, (int64_t)guest_cpu_const(env->x->guest)->x[nd->op]); return 0;
	case N_WREG: set_num(out, (int64_t)(uint32_t)guest_cpu_const(env->x->guest)->x[nd->op]); return 0;
	case N_UNARY:
		if (eval(e, nd->a, env, &a, err, n) < 0)
			return -1;
		if (a.is_str) {
			snprintf(err, n, "operator '%c' needs a number", nd->op);
			return -1;
		}
		if (a.is_float) {
			if (nd->op == '-')
				set_flt(out, -a.fnum);
			else if (nd->op == '!')
				set_num(out, a.fnum == 0);
			else {
				snprintf(err, n, "operator '%c' needs an integer", nd->op);
				return -1;
			}
			return 0;
		}
		switch (nd->op) {
		case '-': set_num(out, (int64_t)(0 - (uint64_t)a.num)); break;   /* wraps like binary - */
		case '!': set_num(out, !a.num); break;
		case '~': set_num(out, ~a.num); break;
		case '*': {
			uint64_t v = 0, bad;
			if (mem_read_bytes(guest_mem(env->x->guest), (uint64_t)a.num, &v, 8, 0, &bad) < 0) {
				snprintf(err, n, "cannot access memory at address 0x%llx", (unsigned long long)bad);
				return -1;
			}
			set_num(out, (int64_t)v);
			break;
		}
		}
		return 0;
	}
	/* binary */
	if (eval(e, nd->a, env, &a, err, n) < 0)
		return -1;
	if (nd->op == OP_OROR && !a.is_str && (a.is_float ? a.fnum != 0 : a.num)) {
		set_num(out, 1);
		return 0;
	}
	if (nd->op == OP_ANDAND && !a.is_str && (a.is_float ? a.fnum == 0 : !a.num)) {
		set_num(out, 0);
		return 0;
	}
	if (eval(e, nd->b, env, &b, err, n) < 0)
		return -1;
	if (a.is_str || b.is_str) {
		/* String comparison; a symbol operand compares by its name. */
		if (nd->op != OP_EQ && nd->op != OP_NE) {
			snprintf(err, n, "strings can only be compared with == and !=");
			return -1;
		}
		if ((!a.is_str && !a.str[0]) || (!b.is_str && !b.str[0])) {
			snprintf(err, n, "cannot compare a number with a string");
			return -1;
		}
		int eq = !strcmp(a.str, b.str);
		set_num(out, nd->op == OP_EQ ? eq : !eq);
		return 0;
	}
	if (a.is_float || b.is_float) {
		/* C's usual conversions: the integer operand becomes a double */
		double fx = a.fnum, fy = b.fnum;
		switch (nd->op) {
		case '+': set_flt(out, fx + fy); return 0;
		case '-': set_flt(out, fx - fy); return 0;
		case '*': set_flt(out, fx * fy); return 0;
		case '/': set_flt(out, fx / fy); return 0;   /* (IEEE: inf or nan by zero, as in C and gdb) */
		case OP_EQ: set_num(out, fx == fy); return 0;
		case OP_NE: set_num(out, fx != fy); return 0;
		case '<': set_num(out, fx < fy); return 0;
		case '>': set_num(out, fx > fy); return 0;
		case OP_LE: set_num(out, fx <= fy); return 0;
		case OP_GE: set_num(out, fx >= fy); return 0;
		case OP_OROR: set_num(out, fy != 0); return 0;
		case OP_ANDAND: set_num(out, fy != 0); return 0;
		default:
			snprintf(err, n, "operator '%s' needs integers, not a decimal number",
				 nd->op == OP_SHL ? "<<" : nd->op == OP_SHR ? ">>" : nd->op == '%' ? "%" :
				 nd->op == '|' ? "|" : nd->op == '&' ? "&" : "^");
			return -1;
		}
	}
	int64_t x = a.num, y = b.num, r = 0;
	switch (nd->op) {
	case OP_OROR: r = y != 0; break;
	case OP_ANDAND: r = y != 0; break;
	case '|': r = x | y; break;
	case '^': r = x ^ y; break;
	case '&': r = x & y; break;
	case OP_EQ: r = x == y; break;
	case OP_NE: r = x != y; break;
	case '<': r = x < y; break;
	case '>': r = x > y; break;
	case OP_LE: r = x <= y; break;
	case OP_GE: r = x >= y; break;
	case OP_SHL: r = (int64_t)((uint64_t)x << (y & 63)); break;
	case OP_SHR: r = (int64_t)((uint64_t)x >> (y & 63)); break;
	case '+': r = (int64_t)((uint64_t)x + (uint64_t)y); break;
	case '-': r = (int64_t)((uint64_t)x - (uint64_t)y); break;
	case '*': r = (int64_t)((uint64_t)x * (uint64_t)y); break;
	case '/':
	case '%':
		if (y == 0) {
			snprintf(err, n, "division by zero");
			return -1;
		}
		if (x == INT64_MIN && y == -1)
			r = nd->op == '/' ? x : 0;
		else
			r = nd->op == '/' ? x / y : x % y;
		break;
	}
	set_num(out, r);
	return 0;
}

int xexpr_eval(const struct xexpr *e, const struct xexpr_env *env, struct xval *out, char *err, size_t n)
{
	return eval(e, e->root, env, out, err, n);
}

/* ---- for commands ----------------------------------------------------------- */

int xexpr_parse_arg(struct explorer *x, const char *text, struct xexpr **out)
{
	*out = NULL;
	if (!*text)
		return 0;
	char msg[200];
	*out = xexpr_parse(x, text, msg, sizeof msg);
	return *out ? 0 : explorer_error(x, "%s", msg);
}

int xexpr_eval_arg(struct explorer *x, const char *text, struct xval *out)
{
	struct xexpr *e;
	if (xexpr_parse_arg(x, text, &e) < 0)
		return -1;
	if (!e)
		return explorer_error(x, "expression expected");
	char msg[200];
	struct xexpr_env env = { .x = x };
	int rc = xexpr_eval(e, &env, out, msg, sizeof msg);
	xexpr_free(e);
	return rc < 0 ? explorer_error(x, "%s", msg) : 0;
}

int explorer_parse_addr(struct explorer *x, const char *s, uint64_t *addr)
{
	while (*s == ' ')
		s++;
	if (*s == '*')
		s++;
	struct xval v;
	if (xexpr_eval_arg(x, s, &v) < 0)
		return -1;
	if (v.is_str)
		return explorer_error(x, "a location is an address, not a string");
	if (v.is_float)
		return explorer_error(x, "a location is an address, not a decimal number");
	*addr = (uint64_t)v.num;
	return 0;
}
