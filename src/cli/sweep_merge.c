/*
 * sweep_merge.c — tabulating a sweep's result lines (sweep_merge.h).
 *
 * All lines are read and parsed first (a sweep's results are small: one
 * line per job), sorted by job index, checked for completeness against the
 * "jobs" count each line carries, filtered by --select, and printed.
 * Columns: the point's dimensions (those with one value over the rows
 * shown are said once above a text or Markdown table instead), status,
 * instructions, cycles, CPI, then one column per accounting method found in
 * any row's result.methods, in the order first seen.
 */
#include "sweep_merge.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/file.h"

#include "cli.h"
#include "json.h"

struct row {
	char *line;                   /* the line as read (no newline) */
	struct json *doc;
	const struct json_val *v;     /* its root */
	uint64_t job, jobs;
	size_t order;                 /* reading order, for a stable sort */
};

struct table {
	struct row *r;
	size_t n, cap;
};

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->r[i].line);
		json_free(t->r[i].doc);
	}
	free(t->r);
}

static int read_file(struct table *t, const char *path)
{
	struct ivx_err err = { 0 };
	FILE *f = strcmp(path, "-") ? ivx_fopen_input(path, &err) : stdin;
	if (!f) {
		cli_error("sweep --merge: %s", err.msg);
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0)
			continue;
		char msg[128];
		struct json *doc = json_parse(line, (size_t)len, msg, sizeof msg);
		const struct json_val *v = json_root(doc);
		const struct json_val *job = json_get(v, "job"), *jobs = json_get(v, "jobs");
		if (!doc || json_type(job) != JSON_NUMBER || json_type(jobs) != JSON_NUMBER ||
		    json_type(json_get(v, "point")) != JSON_OBJECT || !json_string(json_get(v, "status"))) {
			cli_error("sweep --merge: %s:%d: not a sweep result line (%s)", path, lineno,
				  doc ? "no job, jobs, point or status" : msg);
			json_free(doc);
			rc = -1;
			break;
		}
		if (t->n == t->cap) {
			size_t nc = t->cap ? 2 * t->cap : 64;
			struct row *nr = realloc(t->r, nc * sizeof *nr);
			if (!nr) {
				json_free(doc);
				cli_error("sweep --merge: out of memory");
				rc = -1;
				break;
			}
			t->r = nr;
			t->cap = nc;
		}
		struct row *r = &t->r[t->n];
		if (!(r->line = strdup(line))) {
			json_free(doc);
			cli_error("sweep --merge: out of memory");
			rc = -1;
			break;
		}
		r->doc = doc;
		r->v = v;
		r->job = (uint64_t)json_number(job);
		r->jobs = (uint64_t)json_number(jobs);
		r->order = t->n++;
	}
	if (rc == 0 && ferror(f)) {
		cli_error("sweep --merge: %s: read error", path);
		rc = -1;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return rc;
}

static int by_job(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Lines of one spec: 0, or 1 after saying how many specs the lines come
 * from (a spec edited while its sweep ran, or two sweeps merged into one
 * table). Lines written before lines carried "spec" are not counted. */
static int check_one_spec(const struct table *t)
{
	const char *first = NULL;
	size_t others = 0;
	for (size_t i = 0; i < t->n; i++) {
		const char *h = json_string(json_get(t->r[i].v, "spec"));
		if (h && !first)
			first = h;
		else if (h && strcmp(h, first))
			others++;
	}
	if (!others)
		return 0;
	cli_error("sweep --merge: %zu of %zu lines come from another version of the spec than the first "
		  "(\"spec\" differs: edited while the sweep ran, or two sweeps in one table)", others, t->n);
	return 1;
}

/* Every job 0..jobs-1 of each sweep once: 0, or 1 after saying what is not. */
static int check_complete(const struct table *t)
{
	int rc = check_one_spec(t);
	for (size_t i = 0; i < t->n; i++) {
		uint64_t jobs = t->r[i].jobs;
		int seen_before = 0;
		for (size_t k = 0; k < i && !seen_before; k++)
			seen_before = t->r[k].jobs == jobs;
		if (seen_before)
			continue;
		uint64_t missing = 0, repeated = 0, first_missing = 0, next = 0;
		for (size_t k = 0; k < t->n; k++) {   /* rows are sorted by job */
			if (t->r[k].jobs != jobs)
				continue;
			if (t->r[k].job < next) {
				repeated++;
				continue;
			}
			if (t->r[k].job > next && !missing)
				first_missing = next;
			if (t->r[k].job > next)
				missing += t->r[k].job - next;
			next = t->r[k].job + 1;
		}
		if (next < jobs) {
			if (!missing)
				first_missing = next;
			missing += jobs - next;
		}
		if (missing) {
			cli_error("sweep --merge: %llu of %llu job%s no result line (the first: job %llu)",
				  (unsigned long long)missing, (unsigned long long)jobs,
				  jobs == 1 ? " has" : missing == 1 ? "s has" : "s have", (unsigned long long)first_missing);
			rc = 1;
		}
		if (repeated) {
			cli_error("sweep --merge: %llu result lines repeat a job of a %llu-job sweep",
				  (unsigned long long)repeated, (unsigned long long)jobs);
			rc = 1;
		}
	}
	return rc;
}

static const char *point_value(const struct row *r, const char *key)
{
	return json_string(json_get(json_get(r->v, "point"), key));
}

/* The KEY of a --select KEY=VALUE into key; its VALUE, or NULL when the
 * KEY does not fit (no dimension is that long). */
static const char *select_split(const char *sel, char *key, size_t len)
{
	const char *eq = strchr(sel, '=');
	size_t kl = (size_t)(eq - sel);
	if (kl >= len)
		return NULL;
	memcpy(key, sel, kl);
	key[kl] = '\0';
	return eq + 1;
}

static int selected(const struct row *r, const struct sweep_merge_opts *o)
{
	for (int i = 0; i < o->n_select; i++) {
		char key[256];
		const char *want = select_split(o->select[i], key, sizeof key);
		const char *v = want ? point_value(r, key) : NULL;
		if (!v || strcmp(v, want))
			return 0;
	}
	return 1;
}

/* A list of distinct strings (column names), in first-seen order. */
struct names {
	char **s;
	size_t n;
};

static int names_add(struct names *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->s[i], s))
			return 0;
	char **ns = realloc(l->s, (l->n + 1) * sizeof *ns);
	if (!ns || !(ns[l->n] = strdup(s))) {
		if (ns)
			l->s = ns;
		return -1;
	}
	l->s = ns;
	l->n++;
	return 0;
}

static void names_free(struct names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
}

/* "a, b, c" (malloc'd; NULL when out of memory), for an error line. */
static char *names_join(const struct names *l)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	if (!f)
		return NULL;
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "%s%s", i ? ", " : "", l->s[i]);
	if (fclose(f) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

/* A dotted path ("components.l2d") inside v. */
static const struct json_val *get_path(const struct json_val *v, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf, *dot; v; p = dot + 1) {
		dot = strchr(p, '.');
		if (dot)
			*dot = '\0';
		v = json_get(v, p);
		if (!dot)
			return v;
	}
	return NULL;
}

/* Every number under v, as dotted paths, for the CSV. */
static int add_leaves(struct names *l, const struct json_val *v, const char *prefix)
{
	for (size_t i = 0; i < json_count(v); i++) {
		char path[256];
		snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", json_key_at(v, i));
		const struct json_val *c = json_at(v, i);
		if (json_type(c) == JSON_NUMBER && names_add(l, path) < 0)
			return -1;
		if (json_type(c) == JSON_OBJECT && add_leaves(l, c, path) < 0)
			return -1;
	}
	return 0;
}

static const struct json_val *methods_of(const struct row *r)
{
	return json_get(json_get(r->v, "result"), "methods");
}

/* ---- checking the options against the lines -------------------------------- */

/* Each --select names a dimension of the lines and a label one of them has:
 * a typo would otherwise print an empty table. 0, or -1 after an error
 * line naming the dimensions (or the dimension's labels) there are. */
static int check_select(const struct table *t, const struct sweep_merge_opts *o)
{
	int rc = 0;
	for (int i = 0; i < o->n_select && rc == 0; i++) {
		char key[256];
		const char *want = select_split(o->select[i], key, sizeof key);
		struct names dims = { 0 }, labels = { 0 };
		int known = 0, matched = 0;
		for (size_t r = 0; r < t->n; r++) {
			const struct json_val *p = json_get(t->r[r].v, "point");
			for (size_t k = 0; k < json_count(p); k++)
				names_add(&dims, json_key_at(p, k));
			const char *v = want ? point_value(&t->r[r], key) : NULL;
			if (v) {
				known = 1;
				matched |= !strcmp(v, want);
				names_add(&labels, v);
			}
		}
		if (!known || !matched) {
			char *list = names_join(known ? &labels : &dims);
			if (!known)
				cli_error("sweep --merge: --select %s: the lines have no dimension '%s' (they have: %s)",
					  o->select[i], want ? key : o->select[i], list ? list : "?");
			else
				cli_error("sweep --merge: --select %s: no line has %s=%s (its labels: %s)", o->select[i],
					  key, want, list ? list : "?");
			free(list);
			rc = -1;
		}
		names_free(&dims);
		names_free(&labels);
	}
	return rc;
}

/* --value names a number of some method's object: otherwise every method
 * column would silently go. 0, or -1 after an error line naming the
 * numbers the methods have. */
static int check_value(const struct table *t, const char *value)
{
	struct names leaves = { 0 };
	for (size_t r = 0; r < t->n; r++) {
		const struct json_val *m = methods_of(&t->r[r]);
		for (size_t k = 0; k < json_count(m); k++) {
			if (json_type(get_path(json_at(m, k), value)) == JSON_NUMBER) {
				names_free(&leaves);
				return 0;
			}
			add_leaves(&leaves, json_at(m, k), "");
		}
	}
	char *list = names_join(&leaves);
	if (!leaves.n)
		cli_error("sweep --merge: --value %s: no line has per-method results (result.methods, as "
			  "`ivx cpistack` writes)", value);
	else
		cli_error("sweep --merge: --value %s: no method has this number (they have: %s)", value,
			  list ? list : "?");
	free(list);
	names_free(&leaves);
	return -1;
}

/* ---- cells ---------------------------------------------------------------- */

/* Cell text of a row: a count as the simulator wrote it, a CPI, or "-". */
static void cell_number(char *buf, size_t len, const struct json_val *v, const char *fmt, double scale)
{
	if (json_type(v) != JSON_NUMBER)
		snprintf(buf, len, "-");
	else if (!fmt)
		snprintf(buf, len, "%s", json_raw(v));
	else
		snprintf(buf, len, fmt, json_number(v) * scale);
}

static void csv_field(FILE *out, const char *s, int first)
{
	if (!first)
		fputc(',', out);
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void print_csv(FILE *out, struct row **rows, size_t n, const struct names *dims)
{
	struct names leaves = { 0 }, methods = { 0 };
	for (size_t i = 0; i < n; i++) {
		const struct json_val *m = methods_of(rows[i]);
		for (size_t k = 0; k < json_count(m); k++)
			names_add(&methods, json_key_at(m, k));
	}
	/* per method, in method order, the union of its numbers */
	struct names cols = { 0 };
	for (size_t k = 0; k < methods.n; k++) {
		struct names one = { 0 };
		for (size_t i = 0; i < n; i++)
			add_leaves(&one, json_get(methods_of(rows[i]), methods.s[k]), methods.s[k]);
		for (size_t c = 0; c < one.n; c++)
			names_add(&cols, one.s[c]);
		names_free(&one);
	}
	csv_field(out, "job", 1);
	for (size_t d = 0; d < dims->n; d++)
		csv_field(out, dims->s[d], 0);
	fputs(",status,instructions,cycles,cpi", out);
	for (size_t c = 0; c < cols.n; c++)
		csv_field(out, cols.s[c], 0);
	fputs(",error\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = rows[i];
		char b[64];
		fprintf(out, "%llu", (unsigned long long)r->job);
		for (size_t d = 0; d < dims->n; d++) {
			const char *pv = point_value(r, dims->s[d]);
			csv_field(out, pv ? pv : "", 0);
		}
		csv_field(out, json_string(json_get(r->v, "status")), 0);
		const char *keys[] = { "instructions", "cycles" };
		for (int k = 0; k < 2; k++) {
			cell_number(b, sizeof b, json_get(r->v, keys[k]), NULL, 1);
			fprintf(out, ",%s", strcmp(b, "-") ? b : "");
		}
		cell_number(b, sizeof b, json_get(r->v, "cpi"), "%.6f", 1);
		fprintf(out, ",%s", strcmp(b, "-") ? b : "");
		const struct json_val *m = methods_of(r);
		for (size_t c = 0; c < cols.n; c++) {
			const struct json_val *x = get_path(m, cols.s[c]);
			if (json_raw(x))
				fprintf(out, ",%s", json_raw(x));
			else
				fputc(',', out);
		}
		const char *e = json_string(json_get(r->v, "error"));
		csv_field(out, e ? e : "", 0);
		fputc('\n', out);
	}
	names_free(&leaves);
	names_free(&methods);
	names_free(&cols);
}

/* Text and Markdown: a grid of cells, then aligned. */
struct grid {
	size_t rows, cols;
	char **cell;                  /* rows x cols, malloc'd strings */
	int *numeric;                 /* per column: right-aligned */
};

static void print_grid(FILE *out, const struct grid *g, int md, size_t footer)
{
	size_t w[g->cols];
	for (size_t c = 0; c < g->cols; c++) {
		w[c] = 0;
		for (size_t r = 0; r < g->rows; r++) {
			size_t l = strlen(g->cell[r * g->cols + c]);
			if (l > w[c])
				w[c] = l;
		}
	}
	for (size_t r = 0; r < g->rows; r++) {
		if (!md && r == g->rows - footer && footer)
			fputc('\n', out);
		for (size_t c = 0; c < g->cols; c++) {
			const char *s = g->cell[r * g->cols + c];
			if (md)
				fprintf(out, "| %s ", s);
			else if (g->numeric[c] && r > 0)
				fprintf(out, "%s%*s", c ? "  " : "", (int)w[c], s);
			else
				fprintf(out, "%s%-*s", c ? "  " : "", c + 1 < g->cols ? (int)w[c] : 0, s);
		}
		fputs(md ? "|\n" : "\n", out);
		if (md && r == 0) {
			for (size_t c = 0; c < g->cols; c++)
				fputs(g->numeric[c] ? "|---:" : "|---", out);
			fputs("|\n", out);
		}
	}
}

static int print_table(FILE *out, struct row **rows, size_t n, const struct names *dims,
		       const struct sweep_merge_opts *o)
{
	int md = o->format == SWEEP_MD;
	const char *value = o->value ? o->value : "max_error";
	int percent = !strncmp(value, "max_error", 9);
	/* dimensions with one value over the rows shown: said once, above */
	int shown[dims->n ? dims->n : 1];
	size_t n_shown = 0;
	int fixed_said = 0;
	for (size_t d = 0; d < dims->n; d++) {
		const char *first = n ? point_value(rows[0], dims->s[d]) : NULL;
		shown[d] = 0;
		for (size_t i = 1; i < n && !shown[d]; i++) {
			const char *pv = point_value(rows[i], dims->s[d]);
			shown[d] = !first || !pv || strcmp(first, pv);
		}
		if (!shown[d] && n > 1 && d == 0)
			shown[d] = 1;   /* the rows still need a name */
		if (shown[d])
			n_shown++;
		else if (first) {
			fprintf(out, "%s%s=%s", fixed_said ? ", " : md ? "All rows: " : "# all rows: ", dims->s[d], first);
			fixed_said = 1;
		}
	}
	if (fixed_said)
		fputs(md ? "\n\n" : "\n", out);
	struct names methods = { 0 };
	for (size_t i = 0; i < n; i++) {
		const struct json_val *m = methods_of(rows[i]);
		for (size_t k = 0; k < json_count(m); k++)
			if (json_type(get_path(json_at(m, k), value)) == JSON_NUMBER)
				names_add(&methods, json_key_at(m, k));
	}
	size_t footer = percent && methods.n && n > 1 ? 2 : 0;
	struct grid g = { .rows = 1 + n + footer, .cols = n_shown + 4 + methods.n };
	g.cell = calloc(g.rows * g.cols, sizeof *g.cell);
	g.numeric = calloc(g.cols, sizeof *g.numeric);
	int rc = 0;
	if (!g.cell || !g.numeric) {
		cli_error("sweep --merge: out of memory");
		rc = 2;
		goto out;
	}
	size_t c = 0;
	for (size_t d = 0; d < dims->n; d++)
		if (shown[d])
			g.cell[c++] = strdup(dims->s[d]);
	const char *fixed_cols[] = { "status", "insns", "cycles", "CPI" };
	for (int k = 0; k < 4; k++) {
		g.numeric[c] = k > 0;
		g.cell[c++] = strdup(fixed_cols[k]);
	}
	for (size_t k = 0; k < methods.n; k++) {
		char h[300];
		snprintf(h, sizeof h, "%s%s", methods.s[k], percent ? " %" : "");
		if (strcmp(value, "max_error") && !percent)
			snprintf(h, sizeof h, "%s.%s", methods.s[k], value);
		g.numeric[c] = 1;
		g.cell[c++] = strdup(h);
	}
	for (size_t i = 0; i < n; i++) {
		const struct row *r = rows[i];
		char b[64];
		c = 0;
		for (size_t d = 0; d < dims->n; d++)
			if (shown[d]) {
				const char *pv = point_value(r, dims->s[d]);
				g.cell[(i + 1) * g.cols + c++] = strdup(pv ? pv : "-");
			}
		g.cell[(i + 1) * g.cols + c++] = strdup(json_string(json_get(r->v, "status")));
		cell_number(b, sizeof b, json_get(r->v, "instructions"), NULL, 1);
		g.cell[(i + 1) * g.cols + c++] = strdup(b);
		cell_number(b, sizeof b, json_get(r->v, "cycles"), NULL, 1);
		g.cell[(i + 1) * g.cols + c++] = strdup(b);
		cell_number(b, sizeof b, json_get(r->v, "cpi"), "%.4f", 1);
		g.cell[(i + 1) * g.cols + c++] = strdup(b);
		for (size_t k = 0; k < methods.n; k++) {
			cell_number(b, sizeof b, get_path(json_get(methods_of(r), methods.s[k]), value),
				    percent ? "%.2f" : "%.4f", percent ? 100.0 : 1.0);
			g.cell[(i + 1) * g.cols + c++] = strdup(b);
		}
	}
	if (footer) {   /* mean and max of each method's error over the rows that have one */
		size_t fr = 1 + n;
		for (size_t k = 0; k < n_shown + 4; k++) {
			g.cell[fr * g.cols + k] = strdup(k == 0 ? "mean" : "");
			g.cell[(fr + 1) * g.cols + k] = strdup(k == 0 ? "max" : "");
		}
		for (size_t k = 0; k < methods.n; k++) {
			double sum = 0, max = 0;
			size_t cnt = 0;
			for (size_t i = 0; i < n; i++) {
				const struct json_val *x = get_path(json_get(methods_of(rows[i]), methods.s[k]), value);
				if (json_type(x) != JSON_NUMBER)
					continue;
				double e = 100.0 * json_number(x);
				sum += e;
				cnt++;
				if (e > max)
					max = e;
			}
			char b[64];
			snprintf(b, sizeof b, "%.2f", cnt ? sum / (double)cnt : 0.0);
			g.cell[fr * g.cols + n_shown + 4 + k] = strdup(b);
			snprintf(b, sizeof b, "%.2f", max);
			g.cell[(fr + 1) * g.cols + n_shown + 4 + k] = strdup(b);
		}
	}
	for (size_t k = 0; k < g.rows * g.cols; k++)
		if (!g.cell[k]) {
			cli_error("sweep --merge: out of memory");
			rc = 2;
			goto out;
		}
	print_grid(out, &g, md, footer);
	/* why the failed jobs failed, under the table */
	for (size_t i = 0, said = 0; i < n; i++) {
		const char *e = json_string(json_get(rows[i]->v, "error"));
		if (!e)
			continue;
		fprintf(out, "%s%sjob %llu (", md && !said++ ? "\n" : "", md ? "- " : "failed: ",
			(unsigned long long)rows[i]->job);
		const struct json_val *p = json_get(rows[i]->v, "point");
		for (size_t k = 0; k < json_count(p); k++)
			fprintf(out, "%s%s", k ? ", " : "", json_string(json_at(p, k)) ? json_string(json_at(p, k)) : "?");
		fprintf(out, "): %s\n", e);
	}
out:
	if (g.cell)
		for (size_t k = 0; k < g.rows * g.cols; k++)
			free(g.cell[k]);
	free(g.cell);
	free(g.numeric);
	names_free(&methods);
	return rc;
}

int sweep_merge(const struct sweep_merge_opts *o, char *const *files, int n, FILE *out)
{
	for (int i = 0; i < o->n_select; i++) {
		const char *eq = strchr(o->select[i], '=');
		if (!eq || eq == o->select[i]) {
			cli_error("sweep --merge: --select takes KEY=VALUE (a dimension and one of its labels)");
			return 2;
		}
	}
	struct table t = { 0 };
	int rc = 0;
	for (int i = 0; i < n && rc == 0; i++)
		if (read_file(&t, files[i]) < 0)
			rc = 2;
	if (rc == 0 && !t.n) {
		/* all jobs missing (tasks that never ran leave empty files): the
		 * status of missing jobs, but no table, since it would be a header */
		cli_error("sweep --merge: no result lines in %s", n == 1 ? (strcmp(files[0], "-") ? files[0] : "stdin") :
								 "any of the files");
		rc = 1;
	}
	if (rc == 0 && (check_select(&t, o) < 0 ||
			((o->format == SWEEP_TEXT || o->format == SWEEP_MD) && o->value && check_value(&t, o->value) < 0)))
		rc = 2;
	if (rc) {
		table_free(&t);
		return rc;
	}
	qsort(t.r, t.n, sizeof *t.r, by_job);
	int incomplete = check_complete(&t);
	struct row **rows = malloc((t.n ? t.n : 1) * sizeof *rows);
	struct names dims = { 0 };
	size_t shown = 0;
	if (!rows) {
		cli_error("sweep --merge: out of memory");
		table_free(&t);
		return 2;
	}
	for (size_t i = 0; i < t.n; i++)
		if (selected(&t.r[i], o)) {
			rows[shown++] = &t.r[i];
			const struct json_val *p = json_get(t.r[i].v, "point");
			for (size_t k = 0; k < json_count(p); k++)
				names_add(&dims, json_key_at(p, k));
		}
	if (o->n_select && !shown && t.n)
		cli_error("sweep --merge: no result line matches the --select");
	switch (o->format) {
	case SWEEP_JSONL:
		for (size_t i = 0; i < shown; i++)
			fprintf(out, "%s\n", rows[i]->line);
		break;
	case SWEEP_CSV:
		print_csv(out, rows, shown, &dims);
		break;
	default:
		rc = print_table(out, rows, shown, &dims, o);
	}
	names_free(&dims);
	free(rows);
	table_free(&t);
	return rc ? rc : incomplete;
}
