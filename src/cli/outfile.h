/*
 * outfile.h — the files a user names for ivx to write (--json, --svg,
 * --kanata).
 *
 * An output is written beside its target under a temporary name and
 * renamed over it only when complete: a run that fails, is interrupted or
 * fills the disk leaves the user's previous file as it was, never half of
 * a new one. Devices and pipes (/dev/null) are written in place, and
 * ivx's own descriptors (-, /dev/stdout, /dev/fd/N) through themselves. Before a run, outfile_check refuses outputs that would overwrite
 * one of the run's inputs or each other.
 */
#ifndef IVX_OUTFILE_H
#define IVX_OUTFILE_H

#include <stdio.h>
#include "base/err.h"

/* A file named on the command line, with the option that named it. */
struct named_file {
	const char *option;     /* "--json", "the program", ... */
	const char *path;       /* NULL: not given */
};

/* 0 if no output is an existing input or another output; else -1 after
 * one line on stderr. */
int outfile_check(const struct named_file *outputs, int n_out, const struct named_file *inputs, int n_in);

/* The descriptor of ivx's own that path names (-, /dev/stdout,
 * /dev/fd/N, ...), which an output is written through; -1 for a file. */
int outfile_descriptor(const char *path);

/* 1 if path (once created, its links followed) lies inside the existing
 * directory dir, at any depth; else 0. */
int outfile_within(const char *path, const char *dir);
/* 0 if no output is or lies inside the directory dir (a database the
 * command reads or writes, or makes: `what` names it in the message, "the
 * database"); else -1 after one line on stderr. A dir that does not exist
 * holds nothing, but an output may still name it. */
int outfile_check_within(const struct named_file *outputs, int n_out, const char *dir, const char *what);

struct outfile;

/* Start writing path; NULL with err set if it cannot be created. */
struct outfile *outfile_open(const char *path, struct ivx_err *err);
FILE *outfile_stream(struct outfile *o);
/* Finish: flush, check, rename into place. IVX_OK, or IVX_ESYS with err
 * saying why (the target is then untouched). Frees o either way. */
int outfile_commit(struct outfile *o, struct ivx_err *err);
/* Abandon: the target is untouched. Frees o; NULL is fine. */
void outfile_discard(struct outfile *o);

/* The same for commands: the error, if any, goes to stderr as one line. */
struct outfile *outfile_open_cli(const char *path);
int outfile_commit_cli(struct outfile *o);

/* Text from the user (a program's path) inside a JSON string or SVG text:
 * escaped so the file stays well-formed. */
void outfile_json_string(FILE *f, const char *s);
void outfile_xml_text(FILE *f, const char *s);

#endif
