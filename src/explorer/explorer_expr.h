/*
 * explorer_expr.h — the small expression language of `print EXPR` and of
 * breakpoint conditions (`break LOC if COND`, `catch EVENT if COND`).
 *
 * C operators on 64-bit signed integers (|| && | ^ & == != < <= > >= << >>
 * + - * / % and unary - ! ~ *; arithmetic wraps), parentheses, numbers
 * (decimal, 0x hex; a leading 0 is not octal), strings in double quotes,
 * and names. A number with a decimal point (1.0, 2.5e3) is a double, and
 * as in C an operation with one double operand is done in doubles (+ - * /,
 * comparisons, unary - and !): `insns * 1.0 / cycle` is the IPC. Names:
 *   cycle pc sym latency start end addr kind wrongpath seq mispredicted
 *                                            (the event or instruction tested, or now)
 *   insns rob                                (committed instructions, ROB occupancy)
 *   stop_pc stop_seq                         (the instruction of the last stop)
 *   exitcode                                 (the program's exit status once its
 *                                             exit has committed, else -1)
 *   x0..x30 w0..w30 sp lr fp nzcv            (guest registers)
 *   any symbol of the program                (its address)
 * A leading '$' is allowed (`$pc`, `$x0`). `*EXPR` reads 8 bytes of guest
 * memory. `sym` and `kind` are strings: compare them with == or != against
 * a string or a symbol name (`sym == "main"`, `sym == main`).
 *
 * Names are resolved when the expression is parsed, so a misspelt
 * condition is refused by `break`, not discovered at the first hit. So is
 * nesting deeper than 256 levels, which evaluation could not afford.
 */
#ifndef IVX_EXPLORER_EXPR_H
#define IVX_EXPLORER_EXPR_H

#include <stddef.h>
#include <stdint.h>
#include "explorer.h"

struct xexpr;

/* The context names are evaluated in. */
struct xexpr_env {
	struct explorer *x;
	const struct xevent *ev;   /* the event being tested, or NULL */
	uint64_t cycle;            /* the cycle it happens in (with ev) */
};

struct xval {
	int is_str;
	int is_float;         /* a floating-point result: fnum (num holds it truncated) */
	int64_t num;
	double fnum;
	char str[128];
};

/* Compile `text`. NULL with a message in err on a syntax error or an
 * unknown name. */
struct xexpr *xexpr_parse(struct explorer *x, const char *text, char *err, size_t n);
void xexpr_free(struct xexpr *e);
/* Evaluate. 0, or -1 with a message (division by zero, unreadable memory). */
int xexpr_eval(const struct xexpr *e, const struct xexpr_env *env, struct xval *out, char *err, size_t n);
/* Does the expression read variable `name` ("latency", "end")? */
int xexpr_uses(const struct xexpr *e, const char *name);
/* The source text. */
const char *xexpr_text(const struct xexpr *e);

/* For commands: parse `text` (*out NULL when it is empty), 0; or -1 with
 * the message in x->err (explorer_error). */
int xexpr_parse_arg(struct explorer *x, const char *text, struct xexpr **out);
/* For commands: parse and evaluate `text` at the current position, 0; or
 * -1 with the message in x->err. (explorer_parse_addr is this for a
 * location.) */
int xexpr_eval_arg(struct explorer *x, const char *text, struct xval *out);

/* Names for completion: the variables, NULL past the end. */
const char *xexpr_var_name(size_t i);

#endif
