/*
 * sweep_spec.c — reading a sweep spec (sweep_spec.h, docs/sweep.md) and
 * expanding it into jobs.
 *
 * The file is read line by line by hand rather than with inih, so every
 * complaint can name its line and repeated keys (`o`, `options`) keep their
 * order. Sections: [sweep] (commands, options for every job, -o value
 * lists), [program LABEL], [config LABEL], [axis NAME]. Everything the
 * spec says is checked here, before any job runs; what only ivx itself can
 * check (an option's value) fails that job, with ivx's message in its
 * result line.
 */
#include "sweep_spec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/file.h"
#include "sweep_clash.h"

static const char *const known_commands[] = { "cpistack", "run", "refstack" };

/* Options the sweep sets itself or that would change what a job writes. */
static const char *const reserved_options[] = {
	"--json", "--svg", "--kanata", "--summary", "--bench", "--help", "-h", "--",
};

struct reader {
	const char *path;
	char *err;
	size_t err_len;
	int failed;
	struct sweep_spec *s;
	/* the section being read */
	enum { SEC_NONE, SEC_SWEEP, SEC_PROGRAM, SEC_CONFIG, SEC_AXIS } sec;
	struct sweep_value *cur;      /* [program] / [config] value being filled */
	struct sweep_dim *axis;       /* [axis] being filled */
	char *config_file;            /* [config]: file = */
	int n_cfg_o;                  /* [config]: o = lines, as "-o" "K=V" pairs */
	char **cfg_o;
	int jobs_line;                /* the first option line with --jobs, 0 if none */
	int commands_line;            /* where `command =` was, 0 if not given */
	char **commands;
	int n_commands;
	sweep_clash *clash;           /* the keys each option source sets */
};

static void failf(struct reader *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void failf(struct reader *r, int line, const char *fmt, ...)
{
	if (r->failed)
		return;
	r->failed = 1;
	int n = line > 0 ? snprintf(r->err, r->err_len, "%s:%d: ", r->path, line)
			 : snprintf(r->err, r->err_len, "%s: ", r->path);
	if (n < 0 || (size_t)n >= r->err_len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->err_len - (size_t)n, fmt, ap);
	va_end(ap);
}

static void free_words(char **w, int n)
{
	if (!w)
		return;
	for (int i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

int sweep_split_words(const char *text, char ***words, char *err, size_t err_len)
{
	size_t len = strlen(text);
	char **w = NULL;
	int n = 0;
	char *buf = malloc(len + 1);
	if (!buf)
		goto nomem;
	const char *p = text;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')   /* a word starting with # starts a comment, as in a shell */
			break;
		size_t k = 0;
		while (*p && *p != ' ' && *p != '\t') {
			if (*p == '\'') {
				const char *q = strchr(p + 1, '\'');
				if (!q) {
					snprintf(err, err_len, "unclosed ' quote");
					goto fail;
				}
				memcpy(buf + k, p + 1, (size_t)(q - p - 1));
				k += (size_t)(q - p - 1);
				p = q + 1;
			} else if (*p == '"') {
				p++;
				while (*p && *p != '"') {
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					buf[k++] = *p++;
				}
				if (!*p) {
					snprintf(err, err_len, "unclosed \" quote");
					goto fail;
				}
				p++;
			} else if (*p == '\\' && p[1]) {
				buf[k++] = p[1];
				p += 2;
			} else {
				buf[k++] = *p++;
			}
		}
		char **nw = realloc(w, (size_t)(n + 1) * sizeof *nw);
		if (!nw)
			goto nomem;
		w = nw;
		if (!(w[n] = malloc(k + 1)))
			goto nomem;
		memcpy(w[n], buf, k);
		w[n++][k] = '\0';
	}
	free(buf);
	*words = w;
	return n;
nomem:
	snprintf(err, err_len, "out of memory");
fail:
	free(buf);
	free_words(w, n);
	return -1;
}

static char *xstrdup(struct reader *r, const char *s)
{
	char *d = strdup(s);
	if (!d)
		failf(r, 0, "out of memory");
	return d;
}

/* Append words to a vector. 0, or -1 (out of memory; the words are freed). */
static int append_words(struct reader *r, char ***vec, int *n, char **w, int nw)
{
	if (!nw) {
		free(w);
		return 0;
	}
	char **nv = realloc(*vec, (size_t)(*n + nw) * sizeof *nv);
	if (!nv) {
		free_words(w, nw);
		failf(r, 0, "out of memory");
		return -1;
	}
	memcpy(nv + *n, w, (size_t)nw * sizeof *w);
	*vec = nv;
	*n += nw;
	free(w);
	return 0;
}

/* Note the keys words set for sweep_clash_find; -1 after the error. */
static int note(struct reader *r, char *const *w, int n, int line, enum sweep_source from, const char *dim,
		int value)
{
	if (sweep_clash_note(r->clash, w, n, line, from, dim, value) < 0) {
		failf(r, 0, "out of memory");
		return -1;
	}
	return 0;
}

/* Words of a value at `line`; -1 after the error. */
static int words_at(struct reader *r, int line, const char *value, char ***w)
{
	char msg[128];
	int n = sweep_split_words(value, w, msg, sizeof msg);
	if (n < 0)
		failf(r, line, "%s", msg);
	return n;
}

/* ivx options of a spec value: no option the sweep sets itself. */
static int options_at(struct reader *r, int line, const char *value, char ***w)
{
	int n = words_at(r, line, value, w);
	for (int i = 0; i < n; i++) {
		if (!r->jobs_line && (!strcmp((*w)[i], "--jobs") || !strncmp((*w)[i], "--jobs=", 7)))
			r->jobs_line = line;
		for (size_t k = 0; k < sizeof reserved_options / sizeof reserved_options[0]; k++) {
			/* (and its --json=FILE form, which each job would refuse) */
			size_t len = strlen(reserved_options[k]);
			if (!strncmp((*w)[i], reserved_options[k], len) && ((*w)[i][len] == 0 || (*w)[i][len] == '=')) {
				failf(r, line, "'%s' cannot be a sweep option (%s)", (*w)[i],
				      !strcmp((*w)[i], "--") ? "program arguments go in `args =`"
							     : "the sweep writes each job's JSON itself");
				free_words(*w, n);
				return -1;
			}
		}
	}
	return n;
}

static struct sweep_dim *add_dim(struct reader *r, enum sweep_dim_kind kind, const char *name, int line)
{
	struct sweep_spec *s = r->s;
	struct sweep_dim *nd = realloc(s->dims, (size_t)(s->n_dims + 1) * sizeof *nd);
	if (!nd) {
		failf(r, 0, "out of memory");
		return NULL;
	}
	s->dims = nd;
	struct sweep_dim *d = &nd[s->n_dims++];
	memset(d, 0, sizeof *d);
	d->kind = kind;
	d->line = line;
	d->name = xstrdup(r, name);
	return d->name ? d : NULL;
}

static struct sweep_dim *find_dim(struct sweep_spec *s, enum sweep_dim_kind kind, const char *name)
{
	for (int i = 0; i < s->n_dims; i++)
		if (s->dims[i].kind == kind && (!name || !strcmp(s->dims[i].name, name)))
			return &s->dims[i];
	return NULL;
}

static struct sweep_value *add_value(struct reader *r, struct sweep_dim *d, int line)
{
	struct sweep_value *nv = realloc(d->v, (size_t)(d->n + 1) * sizeof *nv);
	if (!nv) {
		failf(r, 0, "out of memory");
		return NULL;
	}
	d->v = nv;
	struct sweep_value *v = &nv[d->n++];
	memset(v, 0, sizeof *v);
	v->line = line;
	return v;
}

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '.' || c == '-';
}

static int valid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!is_name_char(*s))
			return 0;
	return 1;
}

/* A dimension name must not collide with another's: it is a key of the
 * point in every result line. */
/* The merged table's own columns (sweep_merge.c): an axis of that name
 * would make two columns of one name. */
static int names_a_column(const char *name)
{
	static const char *const columns[] = { "job", "jobs", "spec", "status", "exit", "instructions", "cycles",
					       "cpi", "error" };
	for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
		if (!strcmp(name, columns[i]))
			return 1;
	return 0;
}

static int name_taken(struct reader *r, const char *name)
{
	if (!strcmp(name, "program") || !strcmp(name, "config") || !strcmp(name, "command"))
		return 1;
	for (int i = 0; i < r->s->n_dims; i++)
		if (!strcmp(r->s->dims[i].name, name))
			return 1;
	return 0;
}

static const char *base_name(const char *p)
{
	const char *b = strrchr(p, '/');
	return b && b[1] ? b + 1 : p;
}

/* Close the [program] or [config] section being read: default label, a
 * path for a program, the config's arguments. */
static void end_section(struct reader *r)
{
	struct sweep_value *v = r->cur;
	if (r->sec == SEC_PROGRAM && v) {
		if (!v->path)
			failf(r, v->line, "[program%s%s] has no `path =`", v->label ? " " : "", v->label ? v->label : "");
		else if (!v->label) {   /* the program's name and its arguments */
			size_t len = strlen(base_name(v->path)) + 1;
			for (int i = 0; i < v->n_arg; i++)
				len += strlen(v->arg[i]) + 1;
			if ((v->label = malloc(len))) {
				strcpy(v->label, base_name(v->path));
				for (int i = 0; i < v->n_arg; i++)
					strcat(strcat(v->label, " "), v->arg[i]);
			} else
				failf(r, 0, "out of memory");
		}
	}
	if (r->sec == SEC_CONFIG && v) {
		char **w = NULL;
		int n = 0;
		if (r->config_file) {
			if (!(w = malloc(2 * sizeof *w)) || !(w[0] = strdup("--config"))) {
				free(w);
				failf(r, 0, "out of memory");
				return;
			}
			w[1] = r->config_file;
			r->config_file = NULL;
			n = 2;
		}
		if (append_words(r, &v->opt, &v->n_opt, w, n) < 0)
			return;
		append_words(r, &v->opt, &v->n_opt, r->cfg_o, r->n_cfg_o);
		r->cfg_o = NULL;
		r->n_cfg_o = 0;
		if (v->n_opt && !v->label && !r->failed) {
			/* the file's name without .ini, and the overrides */
			size_t len = 1;
			for (int i = 0; i < v->n_opt; i++)
				len += strlen(v->opt[i]) + 1;
			if (!(v->label = malloc(len))) {
				failf(r, 0, "out of memory");
				return;
			}
			v->label[0] = '\0';
			for (int i = 1; i < v->n_opt; i += 2) {   /* pairs: --config FILE, -o K=V */
				const char *o = v->opt[i];
				size_t b = strlen(base_name(o));
				if (!strcmp(v->opt[i - 1], "--config"))
					strncat(v->label, base_name(o), b > 4 && !strcmp(o + strlen(o) - 4, ".ini") ? b - 4 : b);
				else
					strcat(v->label, o);
				strcat(v->label, " ");
			}
			v->label[strlen(v->label) - 1] = '\0';
		}
		if (!v->label)
			v->label = xstrdup(r, "default");
	}
	if (r->sec == SEC_AXIS && r->axis && !r->axis->n)
		failf(r, r->axis->line, "[axis %s] has no values (one `LABEL = OPTIONS` line each)", r->axis->name);
	r->cur = NULL;
	r->axis = NULL;
}

static int label_taken(const struct sweep_dim *d, const struct sweep_value *self)
{
	for (int i = 0; i < d->n; i++)
		if (&d->v[i] != self && d->v[i].label && self->label && !strcmp(d->v[i].label, self->label))
			return 1;
	return 0;
}

/* Whether value i's label is also an earlier value's (so the complaint
 * names the second one's line). */
static int label_before(const struct sweep_dim *d, int i)
{
	for (int k = 0; k < i; k++)
		if (d->v[k].label && d->v[i].label && !strcmp(d->v[k].label, d->v[i].label))
			return 1;
	return 0;
}

static void section(struct reader *r, int line, char *head)
{
	end_section(r);
	if (r->failed)
		return;
	char *sp = head + strcspn(head, " \t");
	char *label = sp + strspn(sp, " \t");
	*sp = '\0';
	if (!strcmp(head, "sweep")) {
		if (*label)
			failf(r, line, "[sweep] takes no name");
		r->sec = SEC_SWEEP;
	} else if (!strcmp(head, "program") || !strcmp(head, "config")) {
		int prog = head[0] == 'p';
		enum sweep_dim_kind k = prog ? SWEEP_PROGRAM : SWEEP_CONFIG;
		struct sweep_dim *d = find_dim(r->s, k, NULL);
		if (!d && !(d = add_dim(r, k, head, line)))
			return;
		if (!(r->cur = add_value(r, d, line)))
			return;
		if (*label && !(r->cur->label = xstrdup(r, label)))
			return;
		r->sec = prog ? SEC_PROGRAM : SEC_CONFIG;
	} else if (!strcmp(head, "axis")) {
		if (!valid_name(label))
			failf(r, line, "[axis NAME]: NAME is letters, digits, '_', '.', '-' (got '%s')", label);
		else if (name_taken(r, label))
			failf(r, line, "a dimension named '%s' already exists", label);
		else if (names_a_column(label))
			failf(r, line, "[axis %s]: '%s' is a column of the merged table; give the axis another name",
			      label, label);
		else if ((r->axis = add_dim(r, SWEEP_AXIS, label, line)))
			r->sec = SEC_AXIS;
	} else {
		failf(r, line, "unknown section [%s] (sections: sweep, program, config, axis)", head);
	}
}

/* Cut a comment (# after a blank) off a value that is not split into
 * words (the -o lists). */
static void cut_comment(char *value)
{
	for (char *c = value; *c; c++)
		if (*c == '#' && (c == value || c[-1] == ' ' || c[-1] == '\t')) {
			*c = '\0';
			break;
		}
	for (char *e = value + strlen(value); e > value && (e[-1] == ' ' || e[-1] == '\t');)
		*--e = '\0';
}

static void key_value(struct reader *r, int line, char *key, char *value)
{
	char **w = NULL;
	int n;
	struct sweep_value *v = r->cur;
	switch (r->sec) {
	case SEC_NONE:
		failf(r, line, "'%s =' before any [section]", key);
		return;
	case SEC_SWEEP:
		if (!strcmp(key, "command")) {
			if (r->commands_line) {
				failf(r, line, "`command =` given twice (list every command on one line)");
				return;
			}
			if ((n = words_at(r, line, value, &w)) < 0)
				return;
			if (!n) {
				failf(r, line, "`command =` names no command (run, cpistack, refstack)");
				free(w);
				return;
			}
			for (int i = 0; i < n; i++) {
				size_t k = 0;
				while (k < 3 && strcmp(w[i], known_commands[k]))
					k++;
				if (k == 3) {
					failf(r, line, "unknown command '%s' (run, cpistack, refstack)", w[i]);
					free_words(w, n);
					return;
				}
			}
			r->commands = w;
			r->n_commands = n;
			r->commands_line = line;
		} else if (!strcmp(key, "options")) {
			if ((n = options_at(r, line, value, &w)) >= 0) {
				note(r, w, n, line, SWEEP_FROM_OPTIONS, NULL, -1);
				append_words(r, &r->s->common, &r->s->n_common, w, n);
			}
		} else if (!strcmp(key, "o")) {
			cut_comment(value);
			char *eq = strchr(value, '=');
			if (!eq || eq == value) {
				failf(r, line, "`o = SECTION.KEY=V1,V2,...` expected");
				return;
			}
			*eq = '\0';
			char *name = value, *e = eq;
			while (e > name && (e[-1] == ' ' || e[-1] == '\t'))
				*--e = '\0';
			if (!valid_name(name) || !strchr(name, '.')) {
				failf(r, line, "`o =`: '%s' is not a SECTION.KEY", name);
				return;
			}
			if (name_taken(r, name)) {
				failf(r, line, "a dimension named '%s' already exists", name);
				return;
			}
			struct sweep_dim *d = add_dim(r, SWEEP_AXIS, name, line);
			for (char *tok = eq + 1; d && !r->failed;) {
				size_t len = strcspn(tok, ",");
				char *end = tok + len, save = *end;
				*end = '\0';
				char *t = tok + strspn(tok, " \t");
				char *te = t + strlen(t);
				while (te > t && (te[-1] == ' ' || te[-1] == '\t'))
					*--te = '\0';
				if (!*t) {
					failf(r, line, "`o = %s=...`: an empty value in the list", name);
					break;
				}
				if (strpbrk(t, " \t")) {   /* (no config value holds a blank: a missing comma) */
					failf(r, line, "`o = %s=...`: '%s' holds a blank; values are separated by commas",
					      name, t);
					break;
				}
				struct sweep_value *sv = add_value(r, d, line);
				if (!sv)
					break;
				size_t kv = strlen(name) + strlen(t) + 2;
				sv->label = xstrdup(r, t);
				char **ow = malloc(2 * sizeof *ow);
				if (ow) {
					ow[0] = strdup("-o");
					ow[1] = malloc(kv);
				}
				if (!ow || !ow[0] || !ow[1]) {
					if (ow) {
						free(ow[0]);
						free(ow[1]);
					}
					free(ow);
					failf(r, 0, "out of memory");
					break;
				}
				snprintf(ow[1], kv, "%s=%s", name, t);
				note(r, ow, 2, line, SWEEP_FROM_OLIST, d->name, (int)(sv - d->v));
				append_words(r, &sv->opt, &sv->n_opt, ow, 2);
				if (label_taken(d, sv))
					failf(r, line, "`o = %s=...`: '%s' is listed twice", name, t);
				if (!save)
					break;
				tok = end + 1;
			}
		} else {
			failf(r, line, "unknown key '%s' in [sweep] (command, options, o)", key);
		}
		return;
	case SEC_PROGRAM:
		if (!strcmp(key, "path") || !strcmp(key, "cwd")) {
			char **dst = key[0] == 'p' ? &v->path : &v->cwd;
			if ((n = words_at(r, line, value, &w)) < 0)
				return;
			if (n != 1)
				failf(r, line, "`%s =` takes one path (quote one with blanks)", key);
			else if (*dst)
				failf(r, line, "`%s =` given twice", key);
			else {
				*dst = w[0];
				free(w);
				return;
			}
			free_words(w, n);
		} else if (!strcmp(key, "args")) {
			if ((n = words_at(r, line, value, &w)) >= 0)
				append_words(r, &v->arg, &v->n_arg, w, n);
		} else if (!strcmp(key, "options")) {
			if ((n = options_at(r, line, value, &w)) >= 0) {
				struct sweep_dim *d = find_dim(r->s, SWEEP_PROGRAM, NULL);
				note(r, w, n, line, SWEEP_FROM_PROGRAM, d->name, (int)(v - d->v));
				append_words(r, &v->opt, &v->n_opt, w, n);
			}
		} else {
			failf(r, line, "unknown key '%s' in [program] (path, args, options, cwd)", key);
		}
		return;
	case SEC_CONFIG:
		if (!strcmp(key, "file")) {
			if ((n = words_at(r, line, value, &w)) < 0)
				return;
			if (n != 1 || r->config_file)
				failf(r, line, n != 1 ? "`file =` takes one path" : "`file =` given twice");
			else {
				struct sweep_dim *d = find_dim(r->s, SWEEP_CONFIG, NULL);
				char *const config_word[] = { "--config" };
				note(r, config_word, 1, line, SWEEP_FROM_CONFIG, d->name, (int)(v - d->v));
				r->config_file = w[0];
				free(w);
				return;
			}
			free_words(w, n);
		} else if (!strcmp(key, "o")) {
			/* SECTION.KEY=VALUE, blanks around '=' allowed */
			cut_comment(value);
			char *eq = strchr(value, '=');
			char *k = value, *ke = eq, *val = eq ? eq + 1 : NULL;
			while (ke && ke > k && (ke[-1] == ' ' || ke[-1] == '\t'))
				ke--;
			if (val)
				val += strspn(val, " \t");
			if (!eq || ke == k || !*val) {
				failf(r, line, "`o = SECTION.KEY=VALUE` expected (one per line)");
				return;
			}
			*ke = '\0';
			if (!valid_name(k) || !strchr(k, '.')) {
				failf(r, line, "`o =`: '%s' is not a SECTION.KEY", k);
				return;
			}
			char **ow = malloc(2 * sizeof *ow);
			size_t kvl = strlen(k) + strlen(val) + 2;
			if (!ow || !(ow[0] = strdup("-o")) || !(ow[1] = malloc(kvl))) {
				if (ow)
					free(ow[0]);
				free(ow);
				failf(r, 0, "out of memory");
				return;
			}
			snprintf(ow[1], kvl, "%s=%s", k, val);
			struct sweep_dim *d = find_dim(r->s, SWEEP_CONFIG, NULL);
			note(r, ow, 2, line, SWEEP_FROM_CONFIG, d->name, (int)(v - d->v));
			append_words(r, &r->cfg_o, &r->n_cfg_o, ow, 2);
		} else {
			failf(r, line, "unknown key '%s' in [config] (file, o)", key);
		}
		return;
	case SEC_AXIS: {
		if (!*key) {
			failf(r, line, "an axis value needs a label: `LABEL = OPTIONS`");
			return;
		}
		if ((n = options_at(r, line, value, &w)) < 0)
			return;
		struct sweep_value *av = add_value(r, r->axis, line);
		if (!av || !(av->label = xstrdup(r, key))) {
			free_words(w, n);
			return;
		}
		note(r, w, n, line, SWEEP_FROM_AXIS, r->axis->name, (int)(av - r->axis->v));
		append_words(r, &av->opt, &av->n_opt, w, n);
		if (label_taken(r->axis, av))
			failf(r, line, "[axis %s]: '%s' is listed twice", r->axis->name, key);
		return;
	}
	}
}

static char *trim(char *s)
{
	s += strspn(s, " \t");
	char *e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* Put the dimensions in expansion order: programs, configs, the axes and
 * -o lists as written, commands. The command and config dimensions are
 * always there (cpistack; the default machine) so every point names both. */
static void finish(struct reader *r, int last_line)
{
	struct sweep_spec *s = r->s;
	struct sweep_dim *d;
	if (!find_dim(s, SWEEP_PROGRAM, NULL)) {
		failf(r, 0, "no [program] section: nothing to run");
		return;
	}
	if (!find_dim(s, SWEEP_CONFIG, NULL)) {
		if (!(d = add_dim(r, SWEEP_CONFIG, "config", 0)))
			return;
		struct sweep_value *v = add_value(r, d, 0);
		if (!v || !(v->label = xstrdup(r, "default")))
			return;
	}
	if (!(d = add_dim(r, SWEEP_COMMAND, "command", r->commands_line)))
		return;
	if (!r->commands) {
		if (!(r->commands = malloc(sizeof *r->commands)) || !(r->commands[0] = strdup("cpistack"))) {
			failf(r, 0, "out of memory");
			return;
		}
		r->n_commands = 1;
	}
	for (int i = 0; i < r->n_commands; i++) {
		struct sweep_value *v = add_value(r, d, r->commands_line);
		if (!v)
			return;
		v->label = r->commands[i];
		r->commands[i] = NULL;
		for (int k = 0; k < i; k++)
			if (!strcmp(d->v[k].label, v->label))
				failf(r, r->commands_line, "command '%s' is listed twice", v->label);
		/* (every run job would fail on it; the sweep gives the others --jobs 1) */
		if (r->jobs_line && !strcmp(v->label, "run"))
			failf(r, r->jobs_line, "'--jobs' is an option of cpistack and refstack, not of 'run', which this "
					       "sweep also runs (leave it out, or sweep 'run' in a spec of its own)");
	}
	for (int k = 0; k < s->n_dims; k++)   /* unique labels among programs and configs */
		if (s->dims[k].kind == SWEEP_PROGRAM || s->dims[k].kind == SWEEP_CONFIG)
			for (int i = 0; i < s->dims[k].n; i++)
				if (label_before(&s->dims[k], i)) {
					failf(r, s->dims[k].v[i].line, "two %ss are labelled '%s' (give each [%s LABEL] its own)",
					      s->dims[k].name, s->dims[k].v[i].label, s->dims[k].name);
					return;
				}
	/* stable sort into program, config, axes, command */
	struct sweep_dim *sorted = malloc((size_t)s->n_dims * sizeof *sorted);
	if (!sorted) {
		failf(r, 0, "out of memory");
		return;
	}
	int n = 0;
	static const enum sweep_dim_kind order[] = { SWEEP_PROGRAM, SWEEP_CONFIG, SWEEP_AXIS, SWEEP_COMMAND };
	for (int o = 0; o < 4; o++)
		for (int k = 0; k < s->n_dims; k++)
			if (s->dims[k].kind == order[o])
				sorted[n++] = s->dims[k];
	free(s->dims);
	s->dims = sorted;
	s->n_jobs = 1;
	for (int k = 0; k < s->n_dims; k++) {
		s->n_jobs *= (uint64_t)s->dims[k].n;
		if (s->n_jobs > SWEEP_MAX_JOBS) {
			failf(r, last_line, "the spec expands to more than %llu jobs", (unsigned long long)SWEEP_MAX_JOBS);
			return;
		}
	}
}

void sweep_spec_free(struct sweep_spec *s)
{
	if (!s)
		return;
	for (int d = 0; d < s->n_dims; d++) {
		for (int i = 0; i < s->dims[d].n; i++) {
			struct sweep_value *v = &s->dims[d].v[i];
			free(v->label);
			free_words(v->opt, v->n_opt);
			free(v->path);
			free_words(v->arg, v->n_arg);
			free(v->cwd);
		}
		free(s->dims[d].v);
		free(s->dims[d].name);
	}
	free(s->dims);
	free_words(s->common, s->n_common);
	free(s->path);
	free(s);
}

uint64_t sweep_text_hash(const char *text, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 0x100000001b3ull;
	return h;
}

struct sweep_spec *sweep_spec_parse(const char *path, const char *text, size_t len, char *err, size_t err_len)
{
	struct reader r = { .path = path, .err = err, .err_len = err_len };
	if (!(r.s = calloc(1, sizeof *r.s)) || !(r.s->path = strdup(path)) || !(r.clash = sweep_clash_new())) {
		snprintf(err, err_len, "%s: out of memory", path);
		if (r.s)
			free(r.s->path);
		free(r.s);
		return NULL;
	}
	r.s->text_hash = sweep_text_hash(text, len);
	int line = 0;
	if (memchr(text, '\0', len))
		failf(&r, 0, "a NUL byte in the file: not a text spec");
	/* (an editor's UTF-8 byte-order mark, skipped as a machine config's is) */
	size_t start = len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0;
	for (size_t pos = start; pos < len && !r.failed;) {
		size_t eol = pos;
		while (eol < len && text[eol] != '\n')
			eol++;
		line++;
		char *l = malloc(eol - pos + 1);
		if (!l) {
			failf(&r, 0, "out of memory");
			break;
		}
		memcpy(l, text + pos, eol - pos);
		l[eol - pos] = '\0';
		pos = eol + 1;
		char *t = trim(l);
		if (!*t || *t == '#' || *t == ';') {
			free(l);
			continue;
		}
		if (*t == '[') {
			char *close = strchr(t, ']');
			char *after = close ? close + 1 + strspn(close + 1, " \t") : NULL;
			if (!close || (*after && *after != '#'))
				failf(&r, line, "a section header is [NAME] or [NAME LABEL] alone on its line (a # comment may follow)");
			else {
				*close = '\0';
				section(&r, line, trim(t + 1));
			}
		} else {
			char *eq = strchr(t, '=');
			if (!eq)
				failf(&r, line, "expected `key = value` or a [section]");
			else {
				*eq = '\0';
				key_value(&r, line, trim(t), trim(eq + 1));
			}
		}
		free(l);
	}
	if (!r.failed)
		end_section(&r);
	if (!r.failed)
		finish(&r, line);
	int clash_line;
	char clash[400];
	if (!r.failed && sweep_clash_find(r.clash, r.s, &clash_line, clash, sizeof clash))
		failf(&r, clash_line, "%s", clash);
	sweep_clash_free(r.clash);
	free_words(r.commands, r.n_commands);
	free(r.config_file);
	free_words(r.cfg_o, r.n_cfg_o);
	if (r.failed) {
		sweep_spec_free(r.s);
		return NULL;
	}
	return r.s;
}

struct sweep_spec *sweep_spec_load(const char *path, char *err, size_t err_len)
{
	struct ivx_err e = { 0 };
	FILE *f = ivx_fopen_input(path, &e);
	if (!f) {
		if (errno == ENXIO)
			snprintf(err, err_len, "%s", e.msg);        /* a FIFO */
		else
			snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (len < cap)
			break;
		if (cap >= (64u << 20)) {   /* no spec is this large: refuse, do not exhaust memory */
			free(buf);
			fclose(f);
			snprintf(err, err_len, "%s: larger than 64 MiB, not a sweep spec", path);
			return NULL;
		}
		char *nb = realloc(buf, cap *= 2);
		if (!nb) {
			free(buf);
			buf = NULL;
		} else
			buf = nb;
	}
	int bad = ferror(f);
	fclose(f);
	if (!buf || bad) {
		free(buf);
		snprintf(err, err_len, "%s: %s", path, bad ? "read error" : "out of memory");
		return NULL;
	}
	struct sweep_spec *s = sweep_spec_parse(path, buf, len, err, err_len);
	free(buf);
	return s;
}

void sweep_spec_point(const struct sweep_spec *s, uint64_t i, int *idx)
{
	for (int d = s->n_dims - 1; d >= 0; d--) {
		idx[d] = (int)(i % (uint64_t)s->dims[d].n);
		i /= (uint64_t)s->dims[d].n;
	}
}

const struct sweep_value *sweep_spec_program(const struct sweep_spec *s, uint64_t i)
{
	int idx[s->n_dims];
	sweep_spec_point(s, i, idx);
	return &s->dims[0].v[idx[0]];   /* programs are the first dimension */
}

const char **sweep_spec_argv(const struct sweep_spec *s, uint64_t i, const char *json_path, int *argc)
{
	int idx[s->n_dims];
	sweep_spec_point(s, i, idx);
	const char *cmd = s->dims[s->n_dims - 1].v[idx[s->n_dims - 1]].label;
	const struct sweep_value *prog = &s->dims[0].v[idx[0]];
	size_t n = 10 + (size_t)s->n_common + (size_t)prog->n_arg;   /* fixed words, NULL */
	for (int d = 0; d < s->n_dims; d++)
		n += (size_t)s->dims[d].v[idx[d]].n_opt;
	const char **av = malloc(n * sizeof *av);
	if (!av)
		return NULL;
	int k = 0;
	av[k++] = cmd;
	av[k++] = "--quiet";
	/* the sweep runs jobs side by side: one simulation at a time in each */
	if (strcmp(cmd, "run"))
		av[k++] = "--jobs", av[k++] = "1";
	if (json_path)
		av[k++] = "--json", av[k++] = json_path;
	for (int c = 0; c < s->n_common; c++)
		av[k++] = s->common[c];
	for (int d = 1; d < s->n_dims; d++)   /* configs, axes (the command has none) */
		for (int o = 0; o < s->dims[d].v[idx[d]].n_opt; o++)
			av[k++] = s->dims[d].v[idx[d]].opt[o];
	for (int o = 0; o < prog->n_opt; o++)
		av[k++] = prog->opt[o];
	av[k++] = prog->path;
	if (prog->n_arg) {
		av[k++] = "--";
		for (int a = 0; a < prog->n_arg; a++)
			av[k++] = prog->arg[a];
	}
	av[k] = NULL;
	if (argc)
		*argc = k;
	return av;
}
