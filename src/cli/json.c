/*
 * json.c — the JSON reader of json.h: a recursive-descent parser (RFC 8259:
 * objects, arrays, strings with every escape including surrogate pairs,
 * numbers, true/false/null) into a tree of values.
 *
 * Values live in one growable array while parsing; a container keeps the
 * indices of its children in its own array, turned into pointers once the
 * value array has stopped moving (json_parse's last step). Nesting deeper
 * than JSON_MAX_DEPTH is refused rather than risking the stack.
 */
#include "json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

struct json_val {
	enum json_type type;
	int boolean;
	double number;
	char *text;                      /* string value, or a number as written */
	size_t n;                        /* children of a container */
	size_t *child_idx;               /* while parsing: indices into doc->v */
	const struct json_val **child;   /* after: the children */
	char **keys;                     /* an object's keys, one per child */
};

struct json {
	struct json_val *v;
	size_t n, cap;
};

struct parser {
	const char *s, *end, *start;
	struct json *doc;
	char *err;
	size_t err_len;
	int failed;
};

static void fail(struct parser *p, const char *what)
{
	if (!p->failed && p->err && p->err_len)
		snprintf(p->err, p->err_len, "offset %zu: %s", (size_t)(p->s - p->start), what);
	p->failed = 1;
}

static void skip_blanks(struct parser *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

/* A new value; its index, or (size_t)-1 when out of memory. */
static size_t new_value(struct parser *p, enum json_type t)
{
	struct json *d = p->doc;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		struct json_val *nv = realloc(d->v, cap * sizeof *nv);
		if (!nv) {
			fail(p, "out of memory");
			return (size_t)-1;
		}
		d->v = nv;
		d->cap = cap;
	}
	memset(&d->v[d->n], 0, sizeof d->v[0]);
	d->v[d->n].type = t;
	return d->n++;
}

static int hex4(struct parser *p, unsigned *out)
{
	if (p->end - p->s < 4) {
		fail(p, "short \\u escape");
		return -1;
	}
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p->s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else {
			fail(p, "bad \\u escape");
			return -1;
		}
	}
	p->s += 4;
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string at p->s (on its opening quote): a malloc'd, decoded copy. The
 * decoded text is never longer than the escaped one. */
static char *parse_string(struct parser *p)
{
	p->s++;
	const char *q = p->s;
	while (q < p->end && *q != '"')
		q += (*q == '\\' && q + 1 < p->end) ? 2 : 1;
	if (q >= p->end) {
		fail(p, "unterminated string");
		return NULL;
	}
	char *out = malloc((size_t)(q - p->s) + 1), *o = out;
	if (!out) {
		fail(p, "out of memory");
		return NULL;
	}
	while (*p->s != '"') {
		unsigned char c = (unsigned char)*p->s++;
		if (c < 0x20) {
			p->s--;
			fail(p, "control character in string");
			free(out);
			return NULL;
		}
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		char e = *p->s++;
		unsigned cp;
		switch (e) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (hex4(p, &cp) < 0)
				goto bad;
			if (cp >= 0xd800 && cp < 0xdc00) {   /* high surrogate: a low one must follow */
				unsigned lo;
				if (p->end - p->s < 2 || p->s[0] != '\\' || p->s[1] != 'u') {
					fail(p, "lone surrogate in \\u escape");
					goto bad;
				}
				p->s += 2;
				if (hex4(p, &lo) < 0)
					goto bad;
				if (lo < 0xdc00 || lo > 0xdfff) {
					fail(p, "bad surrogate pair");
					goto bad;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				fail(p, "lone surrogate in \\u escape");
				goto bad;
			}
			o += put_utf8(o, cp);
			break;
		default:
			p->s--;
			fail(p, "bad escape in string");
			goto bad;
		}
	}
	p->s++;
	*o = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

static size_t parse_value(struct parser *p, int depth);

static int add_child(struct parser *p, size_t parent, size_t child, char *key)
{
	struct json_val *v = &p->doc->v[parent];
	size_t *ci = realloc(v->child_idx, (v->n + 1) * sizeof *ci);
	if (!ci) {
		fail(p, "out of memory");
		free(key);
		return -1;
	}
	v->child_idx = ci;
	if (v->type == JSON_OBJECT) {
		char **k = realloc(v->keys, (v->n + 1) * sizeof *k);
		if (!k) {
			fail(p, "out of memory");
			free(key);
			return -1;
		}
		v->keys = k;
		k[v->n] = key;
	}
	ci[v->n++] = child;
	return 0;
}

static size_t parse_container(struct parser *p, int depth, int object)
{
	size_t me = new_value(p, object ? JSON_OBJECT : JSON_ARRAY);
	if (p->failed)
		return me;
	char close = object ? '}' : ']';
	p->s++;
	skip_blanks(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		return me;
	}
	for (;;) {
		char *key = NULL;
		skip_blanks(p);
		if (object) {
			if (p->s >= p->end || *p->s != '"') {
				fail(p, "expected a string key");
				return me;
			}
			if (!(key = parse_string(p)))
				return me;
			skip_blanks(p);
			if (p->s >= p->end || *p->s != ':') {
				free(key);
				fail(p, "expected ':'");
				return me;
			}
			p->s++;
		}
		size_t child = parse_value(p, depth + 1);
		if (p->failed) {
			free(key);
			return me;
		}
		if (add_child(p, me, child, key) < 0)
			return me;
		skip_blanks(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			return me;
		}
		fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
		return me;
	}
}

static size_t parse_number(struct parser *p)
{
	const char *b = p->s;
	if (p->s < p->end && *p->s == '-')
		p->s++;
	const char *digits = p->s;
	while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
		p->s++;
	if (p->s == digits || (*digits == '0' && p->s - digits > 1)) {
		fail(p, "bad number");
		return (size_t)-1;
	}
	if (p->s < p->end && *p->s == '.') {
		const char *f = ++p->s;
		while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
			p->s++;
		if (p->s == f) {
			fail(p, "bad number");
			return (size_t)-1;
		}
	}
	if (p->s < p->end && (*p->s == 'e' || *p->s == 'E')) {
		p->s++;
		if (p->s < p->end && (*p->s == '+' || *p->s == '-'))
			p->s++;
		const char *x = p->s;
		while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
			p->s++;
		if (p->s == x) {
			fail(p, "bad number");
			return (size_t)-1;
		}
	}
	size_t me = new_value(p, JSON_NUMBER);
	if (p->failed)
		return me;
	char *t = malloc((size_t)(p->s - b) + 1);
	if (!t) {
		fail(p, "out of memory");
		return me;
	}
	memcpy(t, b, (size_t)(p->s - b));
	t[p->s - b] = '\0';
	p->doc->v[me].text = t;
	p->doc->v[me].number = strtod(t, NULL);
	return me;
}

static int word(struct parser *p, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(p->end - p->s) >= n && !memcmp(p->s, w, n)) {
		p->s += n;
		return 1;
	}
	return 0;
}

/* One value at p->s; its index. On failure p->failed is set (the index
 * may still name a value that the document frees). */
static size_t parse_value(struct parser *p, int depth)
{
	skip_blanks(p);
	if (depth > JSON_MAX_DEPTH) {
		fail(p, "nested too deeply");
		return (size_t)-1;
	}
	if (p->s >= p->end) {
		fail(p, "expected a value");
		return (size_t)-1;
	}
	size_t me;
	switch (*p->s) {
	case '{':
		return parse_container(p, depth, 1);
	case '[':
		return parse_container(p, depth, 0);
	case '"': {
		char *s = parse_string(p);
		if (!s)
			return (size_t)-1;
		me = new_value(p, JSON_STRING);
		if (p->failed) {
			free(s);
			return me;
		}
		p->doc->v[me].text = s;
		return me;
	}
	case 't':
	case 'f':
	case 'n':
		if (word(p, "true") || word(p, "false")) {
			me = new_value(p, JSON_BOOL);
			if (!p->failed)
				p->doc->v[me].boolean = p->s[-1] == 'e' && p->s[-2] == 'u';
			return me;
		}
		if (word(p, "null"))
			return new_value(p, JSON_NULL);
		break;
	default:
		if (*p->s == '-' || (*p->s >= '0' && *p->s <= '9'))
			return parse_number(p);
	}
	fail(p, "expected a value");
	return (size_t)-1;
}

void json_free(struct json *doc)
{
	if (!doc)
		return;
	for (size_t i = 0; i < doc->n; i++) {
		struct json_val *v = &doc->v[i];
		free(v->text);
		if (v->keys)
			for (size_t k = 0; k < v->n; k++)
				free(v->keys[k]);
		free(v->keys);
		free(v->child_idx);
		free(v->child);
	}
	free(doc->v);
	free(doc);
}

struct json *json_parse(const char *text, size_t len, char *err, size_t err_len)
{
	struct json *doc = calloc(1, sizeof *doc);
	if (!doc) {
		if (err && err_len)
			snprintf(err, err_len, "out of memory");
		return NULL;
	}
	struct parser p = { text, text + len, text, doc, err, err_len, 0 };
	parse_value(&p, 0);
	skip_blanks(&p);
	if (!p.failed && p.s != p.end)
		fail(&p, "text after the value");
	/* children as pointers, now that doc->v no longer moves */
	for (size_t i = 0; i < doc->n && !p.failed; i++) {
		struct json_val *v = &doc->v[i];
		if (!v->n)
			continue;
		v->child = malloc(v->n * sizeof *v->child);
		if (!v->child) {
			fail(&p, "out of memory");
			break;
		}
		for (size_t k = 0; k < v->n; k++)
			v->child[k] = &doc->v[v->child_idx[k]];
	}
	if (p.failed) {
		json_free(doc);
		return NULL;
	}
	return doc;
}

const struct json_val *json_root(const struct json *doc)
{
	return doc && doc->n ? &doc->v[0] : NULL;
}

enum json_type json_type(const struct json_val *v)
{
	return v ? v->type : JSON_NULL;
}

size_t json_count(const struct json_val *v)
{
	return v && (v->type == JSON_ARRAY || v->type == JSON_OBJECT) ? v->n : 0;
}

const struct json_val *json_at(const struct json_val *v, size_t i)
{
	return i < json_count(v) ? v->child[i] : NULL;
}

const char *json_key_at(const struct json_val *v, size_t i)
{
	return v && v->type == JSON_OBJECT && i < v->n ? v->keys[i] : NULL;
}

const struct json_val *json_get(const struct json_val *v, const char *key)
{
	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return v->child[i];
	return NULL;
}

double json_number(const struct json_val *v)
{
	return v && v->type == JSON_NUMBER ? v->number : 0.0;
}

const char *json_string(const struct json_val *v)
{
	return v && v->type == JSON_STRING ? v->text : NULL;
}

int json_bool(const struct json_val *v)
{
	return v && v->type == JSON_BOOL ? v->boolean : 0;
}

const char *json_raw(const struct json_val *v)
{
	return v && v->type == JSON_NUMBER ? v->text : NULL;
}
