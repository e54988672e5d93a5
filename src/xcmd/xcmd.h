/*
 * xcmd.h — the explorer's command interpreter, shared by the full-screen
 * explorer, `source FILE` and batch mode (`ivx -x SCRIPT`).
 *
 * Each command is a table entry in its own file src/xcmd_NAME.c (or one
 * file per small family), registered with XCMD_REGISTER; the linker
 * gathers the entries (section "ivx_xcmds"), so adding a command touches
 * one file. Lookup follows gdb: an exact name or alias wins, else a unique
 * prefix of a name ("unknown command: x" / "ambiguous command: x, could
 * be: a, b"). `help` is generated from the table.
 */
#ifndef IVX_XCMD_H
#define IVX_XCMD_H

#include <stdint.h>
#include <stdio.h>

struct explorer;

/* What a command's arguments complete to (Tab in the explorer). */
enum xcmd_complete {
	XC_NONE, XC_COMMAND, XC_SYMBOL, XC_LOCATION, XC_EVENT, XC_INFO, XC_SET,
	XC_SHOW, XC_LAYOUT, XC_PANE, XC_FILE, XC_EXPR, XC_BREAKNUM,
};

enum {
	XCMD_REPEAT = 1,   /* Enter on an empty line repeats it (stepping commands) */
	XCMD_FORMAT = 2,   /* takes gdb's /FORMAT after its name (print/x, x/4x): argv[0]
	                    * is the word as typed, "print/x" */
	XCMD_NO_RUN = 4,   /* works without a run (after a restart that failed): the
	                    * others are refused then, as they read the core */
};

/* What the second argument completes to after a given first argument
 * (Tab): `coproc load` program names, `info coproc` its topics. A list
 * ends with an entry whose `after` is NULL. */
struct xcmd_then {
	const char *after;   /* the first argument as typed ("load"); "*": any not listed before */
	const char *words;   /* space-separated words, may be NULL */
	/* ... and the words of a list kept elsewhere: the i-th for first
	 * argument `first` (valid until the next call), NULL past the end;
	 * may be NULL */
	const char *(*word_at)(const char *first, int i);
	/* ... and for a word KEY=VALUE typed up to its '=' or further, the
	 * i-th VALUE of KEY instead (`coproc set policy=<Tab>`), NULL past the
	 * end; may be NULL */
	const char *(*value_at)(const char *key, int i);
	int complete;        /* enum xcmd_complete: more candidates (XC_FILE), or XC_NONE */
};

struct xcmd {
	const char *name;
	const char *aliases;   /* space-separated short names ("s"), may be NULL */
	const char *usage;     /* "step [N]" */
	const char *summary;   /* one line */
	const char *help;      /* further lines, may be NULL */
	const char *(*help_fn)(void); /* ... or built when asked (from a table), may be NULL */
	int flags;             /* XCMD_* */
	int complete;          /* enum xcmd_complete */
	/* space-separated words the first argument completes to (subcommands,
	 * on/off) instead of `complete`'s; may be NULL */
	const char *words;
	const struct xcmd_then *then;   /* the second argument, by the first; may be NULL */
	/* argv[0] is the word typed; `args` is the raw text after it (trimmed),
	 * for expressions. 0, or -1 with x->err set (explorer_error). */
	int (*exec)(struct explorer *x, int argc, char **argv, const char *args);
};

#define XCMD_REGISTER(cmd) \
	static const struct xcmd *const cmd##_registration \
	__attribute__((used, section("ivx_xcmds"), aligned(sizeof(void *)))) = &cmd

/* The table, sorted by name. */
int xcmd_count(void);
const struct xcmd *xcmd_at(int i);
/* gdb commands ivx leaves out: what to use instead, or NULL. */
const char *xcmd_not_in_ivx(const char *word);
/* Resolve a typed word; NULL with the message in err ("did you mean" for a
 * typo, "not in ivx: use ..." for a gdb command ivx leaves out). */
const struct xcmd *xcmd_lookup(const char *word, char *err, size_t n);

/* Run one line ('#' comments and blank lines do nothing). 0, or -1 with
 * the message in x->err. *cmd gets the command run (for repeating). */
int xcmd_execute(struct explorer *x, const char *line, const struct xcmd **cmd);

/* The longest command: a script line, in bytes without its newline, and
 * a line typed at the prompt, in characters. */
#define XCMD_LINE_MAX 4096

/* Run the lines of a script (each at most XCMD_LINE_MAX bytes, no NUL bytes). The
 * first error stops it: -1 with x->err "NAME:LINE: message", followed by
 * " (sourced from FILE:LINE, ...)" when the line was in a file that NAME
 * sourced; the caller shows it. `quit` ends it early. */
int xcmd_run_script(struct explorer *x, FILE *f, const char *name);

/* Tab completion of the word that ends at `cursor` in `line`: candidates
 * (allocated, free with xcmd_completion_free) and where the word starts. */
struct xcompletion {
	char **cands;
	int n;
	size_t word_start;
};
void xcmd_complete(struct explorer *x, const char *line, size_t cursor, struct xcompletion *out);
void xcmd_completion_free(struct xcompletion *c);

/* Helpers for commands. Numbers are decimal, or hex after 0x (as in
 * expressions; a leading 0 is not octal). */
int xcmd_parse_count(struct explorer *x, const char *s, unsigned long long *out); /* "N" >= 1 */
/* The whole of s as a number from 0 to max; 0, or -1 (empty, not a number,
 * too large) without a message. */
int xcmd_parse_uint(const char *s, uint64_t max, uint64_t *out);
/* The optional count of `CMD [N]` (default 1); 0, or -1 after an error. */
int xcmd_count_arg(struct explorer *x, int argc, char **argv, unsigned long long *n);
/* The info topics (the built-in ones, then the instruments'), for
 * completion and `help`; NULL past the end. */
const char *xcmd_info_topic_name(int i);
/* The words the argument of info topic `topic` (a unique prefix will
 * do) completes to: the i-th, NULL past the end. */
const char *xcmd_info_topic_word(const char *topic, int i);
int xcmd_info_help(struct explorer *x, const char *topic);   /* `help info TOPIC` */
/* 0 if addr is an instruction of the program, else -1 after an error that
 * says why (outside the code, with its ranges; not 4-byte aligned). */
int xcmd_check_code_address(struct explorer *x, uint64_t addr);
const char *xcmd_setting_name(int i);     /* NULL past the end */
/* The values setting `name` takes when they are a fixed list (on off,
 * the break stages): the i-th, NULL past the end or for a number. */
const char *xcmd_setting_value(const char *name, int i);
/* A setting's value as text; -1 if there is no such setting. */
int xcmd_setting_text(struct explorer *x, const char *name, char *buf, size_t n);

#endif
