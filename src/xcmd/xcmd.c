/*
 * xcmd.c — command table, lookup, line execution, scripts (bounded lines,
 * one error line however deep `source` nests), numbers and Tab completion
 * for the explorer (see xcmd.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "acct/acct.h"
#include "cli/cli.h"
#include "cli/suggest.h"
#include "core/config.h"
#include "explorer/explorer.h"
#include "explorer/explorer_expr.h"
#include "layout.h"
#include "pane.h"
#include "guest/program.h"
#include "guest/symtab.h"
#include "xcmd.h"

/* ---- the table ---------------------------------------------------------- */

extern const struct xcmd *const __start_ivx_xcmds[];
extern const struct xcmd *const __stop_ivx_xcmds[];

static const struct xcmd **sorted;
static int n_sorted;

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct xcmd *const *)a)->name, (*(const struct xcmd *const *)b)->name);
}

static void build_table(void)
{
	if (sorted)
		return;
	int n = (int)(__stop_ivx_xcmds - __start_ivx_xcmds);
	sorted = malloc((size_t)(n ? n : 1) * sizeof *sorted);
	if (!sorted)
		return;
	for (int i = 0; i < n; i++)
		sorted[i] = __start_ivx_xcmds[i];
	qsort(sorted, (size_t)n, sizeof *sorted, by_name);
	n_sorted = n;
}

int xcmd_count(void)
{
	build_table();
	return n_sorted;
}

const struct xcmd *xcmd_at(int i)
{
	build_table();
	return i >= 0 && i < n_sorted ? sorted[i] : NULL;
}

static int has_alias(const struct xcmd *c, const char *w)
{
	if (!c->aliases)
		return 0;
	size_t n = strlen(w);
	for (const char *p = c->aliases; *p;) {
		size_t l = strcspn(p, " ");
		if (l == n && !strncmp(p, w, n))
			return 1;
		p += l;
		while (*p == ' ')
			p++;
	}
	return 0;
}

/* gdb commands students type that ivx has no command for, and what to use
 * instead: better than "unknown command". */
static const struct {
	const char *words;     /* the command and its aliases, space-separated */
	const char *advice;
} not_in_ivx[] = {
	{ "next n nexti ni", "there are no source lines or calls to step over: `stepi N` commits N "
	  "instructions, `step N` runs N cycles, `until LOC` runs to an instruction" },
	{ "finish fin", "no call stack is kept: at a function's entry `until *lr` runs to its return address" },
	{ "backtrace bt where frame f up down", "no call stack is kept: `info registers` shows lr and fp" },
	{ "list l disassemble disas", "the Code pane shows the disassembly around the pc: `show code 20`, "
	  "or `ivx disasm PROG` for all of it" },
	{ "watch rwatch awatch", "no watchpoints: `catch l1d if addr == ADDR` stops at a load or store "
	  "of ADDR that misses, `break LOC if *ADDR == V` tests memory at an instruction" },
	{ "start starti", "`restart` goes back to cycle 0; `until main` then runs to main" },
	{ "kill k", "`restart` starts the program again at cycle 0" },
	{ "jump call return signal", "the explorer observes the program and never changes its path" },
	{ "file attach detach target core-file", "the program is given on ivx's command line: ivx PROG -- ARGS" },
	{ "shell !", "not from the explorer: Ctrl-Z suspends it (back with `fg`)" },
};

const char *xcmd_not_in_ivx(const char *word)
{
	size_t n = strlen(word);
	for (size_t i = 0; i < sizeof not_in_ivx / sizeof not_in_ivx[0]; i++)
		for (const char *p = not_in_ivx[i].words; *p;) {
			size_t l = strcspn(p, " ");
			if (l == n && !strncmp(p, word, n))
				return not_in_ivx[i].advice;
			p += l;
			while (*p == ' ')
				p++;
		}
	return NULL;
}

const struct xcmd *xcmd_lookup(const char *word, char *err, size_t n)
{
	build_table();
	for (int i = 0; i < n_sorted; i++)
		if (!strcmp(sorted[i]->name, word) || has_alias(sorted[i], word))
			return sorted[i];
	const struct xcmd *found = NULL;
	int matches = 0;
	size_t len = strlen(word);
	for (int i = 0; i < n_sorted; i++)
		if (!strncmp(sorted[i]->name, word, len)) {
			found = sorted[i];
			matches++;
		}
	if (matches == 1)
		return found;
	char shown[256];   /* the word as typed, control characters escaped */
	explorer_escape(shown, sizeof shown, word);
	if (!matches) {
		const char *advice = xcmd_not_in_ivx(word);
		if (advice) {
			snprintf(err, n, "%s: not in ivx: %s", shown, advice);
			return NULL;
		}
		const char *names[256];
		size_t k = 0;
		for (int i = 0; i < n_sorted && k < 256; i++)
			names[k++] = sorted[i]->name;
		const char *near = suggest_closest(word, names, k);
		if (near)
			snprintf(err, n, "unknown command: %s (did you mean '%s'? try 'help')", shown, near);
		else
			snprintf(err, n, "unknown command: %s (try 'help')", shown);
		return NULL;
	}
	size_t used = (size_t)snprintf(err, n, "ambiguous command: %s, could be:", shown);
	for (int i = 0, k = 0; i < n_sorted && used < n; i++)
		if (!strncmp(sorted[i]->name, word, len))
			used += (size_t)snprintf(err + used, n - used, "%s %s", k++ ? "," : "", sorted[i]->name);
	return NULL;
}

/* ---- executing ----------------------------------------------------------- */

/* Entries argv needs for split(s): a word takes at least two characters
 * but the last, and the list ends with NULL. */
static size_t split_room(const char *s)
{
	return strlen(s) / 2 + 2;
}

/* Split into words (double quotes group); returns argc. argv has room for
 * split_room(s) entries, so no word is ever dropped. */
static int split(char *s, char **argv)
{
	int argc = 0;
	while (*s) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		if (*s == '"') {
			argv[argc++] = ++s;
			while (*s && *s != '"')
				s++;
		} else {
			argv[argc++] = s;
			while (*s && !isspace((unsigned char)*s))
				s++;
		}
		if (*s)
			*s++ = 0;
	}
	argv[argc] = NULL;
	return argc;
}

int xcmd_execute(struct explorer *x, const char *line, const struct xcmd **cmd)
{
	if (cmd)
		*cmd = NULL;
	x->err_located = 0;
	while (isspace((unsigned char)*line))
		line++;
	if (!*line || *line == '#')
		return 0;
	size_t wl = 0;
	while (line[wl] && !isspace((unsigned char)line[wl]))
		wl++;
	char word[64];
	if (wl >= sizeof word)
		return explorer_error(x, "unknown command: %.*s", (int)wl, line);
	memcpy(word, line, wl);
	word[wl] = 0;
	/* gdb's print/x, x/4x: the command is the part before the slash */
	char *slash = strchr(word, '/');
	if (slash && slash != word)
		*slash = 0;
	const struct xcmd *c = xcmd_lookup(word, x->err, sizeof x->err);
	if (!c)
		return -1;
	if (slash && slash != word && !(c->flags & XCMD_FORMAT))
		return explorer_error(x, "%s takes no /FORMAT", c->name);
	const char *args = line + wl;
	while (isspace((unsigned char)*args))
		args++;
	char *copy = strdup(line), *trimmed = strdup(args);
	char **argv = malloc(split_room(line) * sizeof *argv);
	if (!copy || !trimmed || !argv) {
		free(copy);
		free(trimmed);
		free(argv);
		return explorer_error(x, "out of memory");
	}
	size_t tl = strlen(trimmed);
	while (tl && isspace((unsigned char)trimmed[tl - 1]))
		trimmed[--tl] = 0;
	int argc = split(copy, argv);
	if (cmd)
		*cmd = c;
	x->err[0] = 0;
	int rc;
	if (!x->core && !(c->flags & XCMD_NO_RUN))
		rc = explorer_error(x, "%s: there is no run: the last restart failed (%s); change what made it fail "
				    "and `restart`", c->name, x->engine_msg);
	else
		rc = c->exec(x, argc, argv, trimmed);
	free(copy);
	free(trimmed);
	free(argv);
	if (rc < 0 && !x->err[0])
		snprintf(x->err, sizeof x->err, "%s failed", c->name);
	return rc;
}

/* ---- scripts -------------------------------------------------------------- */

enum line_status { LINE_OK, LINE_EOF, LINE_READ_ERROR, LINE_TOO_LONG, LINE_NUL };

/* Read one script line into buf (XCMD_LINE_MAX + 1 bytes) without its
 * "\n" or "\r\n"; the last line may lack its newline. Never reads past
 * the limit, so an endless line (ivx -x /dev/zero) costs nothing; a NUL
 * byte is refused rather than silently ending the line. With
 * LINE_READ_ERROR, *errnum is the errno. */
static int read_script_line(FILE *f, char *buf, int *errnum)
{
	size_t n = 0;
	int c;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == 0)
			return LINE_NUL;
		if (n == XCMD_LINE_MAX)
			return LINE_TOO_LONG;
		buf[n++] = (char)c;
	}
	if (c == EOF && ferror(f)) {
		*errnum = errno;
		return LINE_READ_ERROR;
	}
	if (c == EOF && n == 0)
		return LINE_EOF;
	while (n && buf[n - 1] == '\r')
		n--;
	buf[n] = 0;
	return LINE_OK;
}

/* Put the script position into x->err: "NAME:LINE: message" for an error
 * on this script's line; for one inside a file it sourced, which already
 * names its own line, "... (sourced from NAME:LINE)", the chain growing
 * outwards. One line however deep the nesting. */
static void locate_error(struct explorer *x, const char *name, long lineno)
{
	char msg[sizeof x->err + 256];   /* room for all of x->err and NAME's first 200 bytes */
	if (!x->err_located) {
		snprintf(msg, sizeof msg, "%.200s:%ld: %s", name, lineno, x->err);
	} else if (x->err_located == 1) {
		snprintf(msg, sizeof msg, "%s (sourced from %.200s:%ld)", x->err, name, lineno);
	} else {
		size_t len = strlen(x->err);
		if (len && x->err[len - 1] == ')')
			x->err[len - 1] = 0;
		snprintf(msg, sizeof msg, "%s, %.200s:%ld)", x->err, name, lineno);
	}
	explorer_escape(x->err, sizeof x->err, msg);   /* NAME is user input too; cut to fit */
	x->err_located++;
}

int xcmd_run_script(struct explorer *x, FILE *f, const char *name)
{
	char *line = malloc(XCMD_LINE_MAX + 1);
	if (!line)
		return explorer_error(x, "out of memory");
	long lineno = 0;
	int rc = 0;
	int listed = x->n_scripts_open < (int)(sizeof x->scripts_open / sizeof x->scripts_open[0]);
	if (listed)
		x->scripts_open[x->n_scripts_open++] = name;
	/* Commands piped or typed into `ivx -x -` get their answers before the
	 * next line is read (a program driving ivx waits for them). */
	struct stat st;
	int answer_each_line = x->batch && !x->out &&
			       !(fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode));
	while (!x->quit) {
		int errnum = 0;
		if (answer_each_line)
			cli_flush_stdout();
		int got = read_script_line(f, line, &errnum);
		if (got == LINE_EOF)
			break;
		if (got == LINE_READ_ERROR) {
			rc = explorer_error(x, "%s: read error: %s", name, strerror(errnum));
			x->err_located = 1;
			break;
		}
		lineno++;
		x->err_located = 0;
		if (got == LINE_TOO_LONG)
			rc = explorer_error(x, "line too long (more than %d bytes)", XCMD_LINE_MAX);
		else if (got == LINE_NUL)
			rc = explorer_error(x, "NUL byte in line");
		else {
			unsigned interrupts = x->interrupts;
			/* (an editor's UTF-8 byte-order mark, skipped as a machine
			 * config's is) */
			if (lineno == 1 && !strncmp(line, "\xef\xbb\xbf", 3))
				memmove(line, line + 3, strlen(line + 3) + 1);
			rc = xcmd_execute(x, line, NULL);
			/* On the screen, Ctrl-C ends a sourced script as in gdb (one
			 * press, not one per `continue` in it); batch mode runs the
			 * rest, so that its `info` lines say where the run got to. */
			if (rc == 0 && !x->batch && x->interrupts != interrupts)
				rc = explorer_error(x, "interrupted: the rest of the script is skipped");
		}
		if (rc < 0) {
			locate_error(x, name, lineno);
			break;
		}
	}
	free(line);
	if (listed)
		x->n_scripts_open--;
	return rc;
}

/* ---- numbers -------------------------------------------------------------- */

int xcmd_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	const char *end;
	uint64_t v;
	if (!s || cli_scan_u64(s, &v, &end) < 0 || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int xcmd_parse_count(struct explorer *x, const char *s, unsigned long long *out)
{
	uint64_t v;
	if (!s || !isdigit((unsigned char)*s))
		return explorer_error(x, "expected a count, got \"%s\"", s ? s : "");
	if (xcmd_parse_uint(s, UINT64_MAX, &v) < 0 || v == 0)
		return explorer_error(x, "expected a count from 1 to %llu, got \"%s\"",
				      (unsigned long long)UINT64_MAX, s);
	*out = v;
	return 0;
}

/* ---- completion ---------------------------------------------------------- */

struct cands {
	struct xcompletion *c;
	const char *prefix;
	size_t plen;
	int cap;
};

static void offer(struct cands *k, const char *s)
{
	if (!s || strncmp(s, k->prefix, k->plen))
		return;
	for (int i = 0; i < k->c->n; i++)
		if (!strcmp(k->c->cands[i], s))
			return;
	if (k->c->n == k->cap) {
		int cap = k->cap ? k->cap * 2 : 32;
		char **v = realloc(k->c->cands, (size_t)cap * sizeof *v);
		if (!v)
			return;
		k->c->cands = v;
		k->cap = cap;
	}
	char *d = strdup(s);
	if (d)
		k->c->cands[k->c->n++] = d;
}

static void offer_symbols(struct cands *k, struct explorer *x, int funcs_only)
{
	const struct symtab *st = program_symbols(x->prog);
	for (size_t i = 0; i < symtab_count(st); i++) {
		const struct symbol *s = symtab_at(st, i);
		if (s->name[0] && (!funcs_only || s->is_func))
			offer(k, s->name);
	}
}

static void offer_files(struct cands *k)
{
	char dir[512];
	const char *slash = strrchr(k->prefix, '/');
	size_t dl = slash ? (size_t)(slash - k->prefix + 1) : 0;
	snprintf(dir, sizeof dir, "%.*s", (int)dl, k->prefix);
	DIR *d = opendir(dl ? dir : ".");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' && k->prefix[dl] != '.')
			continue;
		char full[1024];
		snprintf(full, sizeof full, "%s%s", dir, e->d_name);
		int is_dir = e->d_type == DT_DIR;
		struct stat st;   /* a symlink to a directory, or a file system without d_type */
		if ((e->d_type == DT_LNK || e->d_type == DT_UNKNOWN) && stat(full, &st) == 0)
			is_dir = S_ISDIR(st.st_mode);
		if (is_dir)
			snprintf(full, sizeof full, "%s%s/", dir, e->d_name);
		offer(k, full);
	}
	closedir(d);
}

/* Each word of a space-separated list. */
static void offer_words(struct cands *k, const char *words)
{
	while (words && *words) {
		size_t l = strcspn(words, " ");
		char w[128];
		snprintf(w, sizeof w, "%.*s", (int)l, words);
		if (l)
			offer(k, w);
		words += l + (words[l] == ' ');
	}
}

/* The entry of `then` for first argument `first`, or NULL; "*" entries
 * only when `any` is set. */
static const struct xcmd_then *then_for(const struct xcmd_then *then, const char *first, int any)
{
	for (; then && then->after; then++)
		if (!strcmp(then->after, first) || (any && !strcmp(then->after, "*")))
			return then;
	return NULL;
}

/* A word further on, after options: the value of the option just before it
 * (`sampling on --events <Tab>`; in a comma list, the item after the last
 * comma: `--events cycles,im<Tab>`), or another option of the list the first
 * argument named (`sampling on --period 4096 --s<Tab>`). 1 if it offered. */
static int offer_later_word(struct cands *k, const struct xcmd_then *then, int argc, char **argv)
{
	const struct xcmd_then *t = argv[argc - 1][0] == '-' ? then_for(then, argv[argc - 1], 0) : NULL;
	if (t) {
		const char *comma = strrchr(k->prefix, ',');
		char item[256];
		const char *w;
		for (int i = 0; t->word_at && (w = t->word_at(argv[argc - 1], i)); i++) {
			snprintf(item, sizeof item, "%.*s%s", comma ? (int)(comma - k->prefix + 1) : 0, k->prefix, w);
			offer(k, item);
		}
		if (t->words && !comma)
			offer_words(k, t->words);
		return 1;
	}
	t = then_for(then, argv[1], 0);
	if (t && t->words && t->words[0] == '-') {
		offer_words(k, t->words);
		return 1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void xcmd_complete(struct explorer *x, const char *line, size_t cursor, struct xcompletion *out)
{
	memset(out, 0, sizeof *out);
	size_t ws = cursor;
	while (ws > 0 && !isspace((unsigned char)line[ws - 1]) && line[ws - 1] != '"' && line[ws - 1] != '(')
		ws--;
	out->word_start = ws;
	char prefix[256];
	snprintf(prefix, sizeof prefix, "%.*s", (int)(cursor - ws), line + ws);
	struct cands k = { .c = out, .prefix = prefix, .plen = strlen(prefix) };
	/* Which argument: the words before the cursor. */
	char head[512];
	snprintf(head, sizeof head, "%.*s", (int)ws, line);
	char *argv[sizeof head / 2 + 2];   /* split_room() of any head */
	int argc = split(head, argv);
	if (argc == 0) {
		build_table();
		for (int i = 0; i < n_sorted; i++)
			offer(&k, sorted[i]->name);
		goto done;
	}
	char err[200];
	const struct xcmd *c = xcmd_lookup(argv[0], err, sizeof err);
	if (!c)
		goto done;
	int kind = c->complete;
	if (c->words && argc == 1) {   /* a subcommand first */
		offer_words(&k, c->words);
		goto done;
	}
	if (argc >= 3 && offer_later_word(&k, c->then, argc, argv))
		goto done;
	const struct xcmd_then *then = argc == 2 ? then_for(c->then, argv[1], 1) : NULL;
	const char *eq = strchr(prefix, '=');
	if (then && then->value_at && eq) {   /* KEY=VALUE past its '=': the key's values */
		char key[128], word[256];
		snprintf(key, sizeof key, "%.*s", (int)(eq - prefix), prefix);
		const char *v;
		for (int i = 0; (v = then->value_at(key, i)); i++) {
			snprintf(word, sizeof word, "%s=%s", key, v);
			offer(&k, word);
		}
		goto done;
	}
	if (then) {   /* the second argument, by the first: its words, then the command's own */
		offer_words(&k, then->words);
		const char *w;
		for (int i = 0; then->word_at && (w = then->word_at(argv[1], i)); i++)
			offer(&k, w);
		if (then->complete != XC_NONE) {
			kind = then->complete;
			goto by_kind;
		}
	}
	if (kind == XC_EVENT || kind == XC_LOCATION) {
		/* The location or event first, then "if", then the condition. */
		if (argc >= 2) {
			int after_if = 0;
			for (int i = 1; i < argc; i++)
				after_if |= !strcmp(argv[i], "if");
			if (!after_if && !(argc == 2 && !strcmp(argv[1], "cycle")))
				offer(&k, "if");
			if (!after_if && kind == XC_EVENT)   /* catch EVENT [begin|end] [if COND] */
				offer(&k, "begin"), offer(&k, "end");
			kind = after_if ? XC_EXPR : XC_NONE;
		}
	} else if (kind == XC_BREAKNUM) {
		kind = argc >= 2 ? XC_EXPR : XC_NONE;   /* condition N COND */
	} else if (kind != XC_EXPR && argc >= 2) {
		kind = XC_NONE;
	}
by_kind:
	switch (kind) {
	case XC_COMMAND:
		build_table();
		for (int i = 0; i < n_sorted; i++)
			offer(&k, sorted[i]->name);
		break;
	case XC_SYMBOL:
		offer_symbols(&k, x, 1);
		break;
	case XC_LOCATION:
		offer_symbols(&k, x, 1);
		offer(&k, "cycle");
		break;
	case XC_EVENT:
		for (int e = 0; e < XEV_COUNT; e++)
			if (strcmp(xev_name(e), "?"))
				offer(&k, xev_name(e));
		break;
	case XC_EXPR:
		for (size_t i = 0; xexpr_var_name(i); i++)
			offer(&k, xexpr_var_name(i));
		offer_symbols(&k, x, 0);
		break;
	case XC_INFO:
		for (int i = 0; xcmd_info_topic_name(i); i++)
			offer(&k, xcmd_info_topic_name(i));
		break;
	case XC_SET:
		for (int i = 0; xcmd_setting_name(i); i++)
			offer(&k, xcmd_setting_name(i));
		for (size_t i = 0; config_key_name(i); i++)
			offer(&k, config_key_name(i));
		break;
	case XC_SHOW:
		for (int i = 0; i < pane_class_count(); i++)
			offer(&k, pane_class_at(i)->name);
		offer(&k, "screen");
		offer(&k, "sfmt");
		for (int i = 0; xcmd_setting_name(i); i++)
			offer(&k, xcmd_setting_name(i));
		break;
	case XC_LAYOUT:
		for (int i = 0; i < layout_count(); i++)
			offer(&k, layout_at(i)->name);
		for (int i = 0; i < pane_class_count(); i++)
			offer(&k, pane_class_at(i)->name);
		break;
	case XC_PANE:
		for (int i = 0; i < pane_class_count(); i++)
			offer(&k, pane_class_at(i)->name);
		offer(&k, "next");
		break;
	case XC_FILE:
		offer_files(&k);
		break;
	default:
		break;
	}
done:
	if (out->n > 1)
		qsort(out->cands, (size_t)out->n, sizeof *out->cands, cmp_str);
}

void xcmd_completion_free(struct xcompletion *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->cands[i]);
	free(c->cands);
	memset(c, 0, sizeof *c);
}

int xcmd_count_arg(struct explorer *x, int argc, char **argv, unsigned long long *n)
{
	*n = 1;
	if (argc > 2)
		return explorer_error(x, "%s takes at most one argument", argv[0]);
	return argc == 2 ? xcmd_parse_count(x, argv[1], n) : 0;
}
