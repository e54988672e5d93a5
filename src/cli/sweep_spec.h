/*
 * sweep_spec.h — the sweep specification of `ivx sweep` (docs/sweep.md):
 * programs, machine configurations, option axes, `-o` value lists and
 * commands, read from an ini-like file and expanded into one job per point
 * of their cartesian product.
 *
 * A spec is a list of dimensions, each a list of values; a value is a label
 * (what the results and tables call it) and the ivx arguments it adds to a
 * job. Job i is the mixed-radix number i over the dimensions, the first
 * dimension varying slowest: programs, then configs, then the axes and -o
 * lists in the order of the file, then commands.
 */
#ifndef IVX_SWEEP_SPEC_H
#define IVX_SWEEP_SPEC_H

#include <stddef.h>
#include <stdint.h>

enum sweep_dim_kind { SWEEP_PROGRAM, SWEEP_CONFIG, SWEEP_AXIS, SWEEP_COMMAND };

struct sweep_value {
	char *label;                  /* the point's value in results and tables */
	int line;                     /* where the spec defines it */
	int n_opt;                    /* ivx options this value adds */
	char **opt;
	/* programs only */
	char *path;                   /* the program (as written in the spec) */
	int n_arg;                    /* its arguments */
	char **arg;
	char *cwd;                    /* directory the job runs in (NULL: the sweep's) */
};

struct sweep_dim {
	enum sweep_dim_kind kind;
	char *name;                   /* "program", "config", "command", an axis or -o key */
	int line;
	int n;
	struct sweep_value *v;
};

struct sweep_spec {
	char *path;                   /* the spec file, as named */
	int n_common;                 /* [sweep] options: every job */
	char **common;
	int n_dims;
	struct sweep_dim *dims;       /* in expansion order (see above) */
	uint64_t n_jobs;              /* product of the dimensions' sizes */
	uint64_t text_hash;           /* of the spec's bytes (sweep_text_hash): each
					 result line carries it, so lines of two
					 versions of a spec are told apart */
};

/* FNV-1a over len bytes: the spec fingerprint of result lines. */
uint64_t sweep_text_hash(const char *text, size_t len);

/* Most jobs a spec may expand to: beyond it a typo is likelier than a plan. */
#define SWEEP_MAX_JOBS 10000000ULL

/* Read and check the spec at path. NULL with "file:line: message" (or
 * "file: message") in err when it cannot be read or is wrong. */
struct sweep_spec *sweep_spec_load(const char *path, char *err, size_t err_len);
/* The same from text in memory, `path` naming it in messages. */
struct sweep_spec *sweep_spec_parse(const char *path, const char *text, size_t len, char *err, size_t err_len);
void sweep_spec_free(struct sweep_spec *s);   /* NULL is a no-op */

/* Job i's value index in each dimension: idx[d] for d < s->n_dims. */
void sweep_spec_point(const struct sweep_spec *s, uint64_t i, int *idx);

/* The command line of job i, without the program name: a NULL-terminated
 * malloc'd vector of strings pointing into the spec (free only the vector):
 *   COMMAND --quiet [--jobs 1] [--json JSON] common config axes... program-opts
 *   PATH [-- ARGS...]
 * json_path NULL leaves --json out (for --list). NULL when out of memory. */
const char **sweep_spec_argv(const struct sweep_spec *s, uint64_t i, const char *json_path, int *argc);

/* The program's dimension value of job i (its path, arguments, cwd). */
const struct sweep_value *sweep_spec_program(const struct sweep_spec *s, uint64_t i);

/* Split a spec value into words, as a shell would without expanding
 * anything: blanks separate words; '...' keeps everything inside as is;
 * "..." too, except that \" and \\ stand for " and \; a backslash outside
 * quotes keeps the next character; an unquoted word starting with # starts
 * a comment that runs to the end. A malloc'd vector (and strings) in
 * *words, their count returned; -1 with a message in err on an unclosed
 * quote or no memory. */
int sweep_split_words(const char *text, char ***words, char *err, size_t err_len);

#endif
