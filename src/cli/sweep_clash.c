/*
 * sweep_clash.c — the machine keys each option source of a sweep spec sets,
 * and the first key two of them would set for one job (sweep_clash.h).
 *
 * A spec has few sources and few keys, so the settings are a flat list in
 * the order the spec gives them, and the search compares every pair.
 */
#include "sweep_clash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct setting {
	char *key;                /* "core.rob_size", or "--config" */
	int line;                 /* where the spec sets it */
	enum sweep_source from;
	const char *dim;          /* the dimension's name in the spec; NULL: [sweep] options */
	int value;                /* index in that dimension */
};

struct sweep_clash {
	int n, cap;
	struct setting *set;
};

sweep_clash *sweep_clash_new(void)
{
	return calloc(1, sizeof(sweep_clash));
}

void sweep_clash_free(sweep_clash *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n; i++)
		free(c->set[i].key);
	free(c->set);
	free(c);
}

/* Note one key (the first len bytes of key, blanks around it cut, as
 * config_set cuts them). */
static int add(sweep_clash *c, const char *key, size_t len, int line, enum sweep_source from, const char *dim,
	       int value)
{
	while (len && (*key == ' ' || *key == '\t'))
		key++, len--;
	while (len && (key[len - 1] == ' ' || key[len - 1] == '\t'))
		len--;
	if (!len)
		return 0;   /* (no key: every job fails on it, with ivx's message) */
	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 16;
		struct setting *ns = realloc(c->set, (size_t)cap * sizeof *ns);
		if (!ns)
			return -1;
		c->set = ns;
		c->cap = cap;
	}
	char *k = strndup(key, len);
	if (!k)
		return -1;
	c->set[c->n++] = (struct setting){ k, line, from, dim, value };
	return 0;
}

int sweep_clash_note(sweep_clash *c, char *const *w, int n, int line, enum sweep_source from, const char *dim,
		     int value)
{
	for (int i = 0; i < n; i++) {
		int rc = 0;
		if (!strcmp(w[i], "--config"))
			rc = add(c, w[i], strlen(w[i]), line, from, dim, value);
		else if (!strcmp(w[i], "-o") && i + 1 < n && strchr(w[i + 1], '='))
			rc = add(c, w[i + 1], (size_t)(strchr(w[i + 1], '=') - w[i + 1]), line, from, dim, value);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Two settings of a key reach one job unless they are different values
 * of one dimension. */
static int meet(const struct setting *a, const struct setting *b)
{
	if (strcasecmp(a->key, b->key))
		return 0;
	if (!a->dim || !b->dim)
		return 1;
	return strcmp(a->dim, b->dim) || a->value == b->value;
}

static const char *label_of(const struct sweep_spec *s, const struct setting *t)
{
	for (int d = 0; d < s->n_dims; d++)
		if (s->dims[d].name == t->dim && t->value >= 0 && t->value < s->dims[d].n)
			return s->dims[d].v[t->value].label;
	return "?";
}

static void describe(const struct sweep_spec *s, const struct setting *t, char *buf, size_t len)
{
	switch (t->from) {
	case SWEEP_FROM_OPTIONS:
		snprintf(buf, len, "[sweep] options");
		break;
	case SWEEP_FROM_PROGRAM:
		snprintf(buf, len, "the options of [program %s]", label_of(s, t));
		break;
	case SWEEP_FROM_CONFIG:
		snprintf(buf, len, "[config %s]", label_of(s, t));
		break;
	case SWEEP_FROM_OLIST:
		snprintf(buf, len, "`o = %s=...`", t->dim);
		break;
	case SWEEP_FROM_AXIS:
		snprintf(buf, len, "[axis %s] value '%s'", t->dim, label_of(s, t));
		break;
	}
}

int sweep_clash_find(const sweep_clash *c, const struct sweep_spec *s, int *line, char *msg, size_t len)
{
	for (int j = 0; c && j < c->n; j++)
		for (int i = 0; i < j; i++) {
			const struct setting *a = &c->set[i], *b = &c->set[j];
			if (!meet(a, b))
				continue;
			char wa[160], wb[160];
			describe(s, a, wa, sizeof wa);
			describe(s, b, wb, sizeof wb);
			*line = b->line > a->line ? b->line : a->line;
			if (a->line == b->line && !strcmp(wa, wb))
				snprintf(msg, len, "'%s' is set twice in %s: a job would run with only one of them; "
					 "set it once", b->key, wb);
			else
				snprintf(msg, len, "'%s' is set by both %s (line %d) and %s (line %d): a job would "
					 "run with only one of them; set it in one place", b->key, wa, a->line, wb,
					 b->line);
			return 1;
		}
	return 0;
}
