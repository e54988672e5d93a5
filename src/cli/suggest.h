/*
 * suggest.h — "did you mean" for mistyped names: the edit distance between
 * what was typed and each known name, and the closest one when it is close
 * enough to be a typo rather than another word.
 */
#ifndef IVX_SUGGEST_H
#define IVX_SUGGEST_H

#include <stddef.h>

/* Levenshtein distance (insert, delete, substitute, and swapping two
 * neighbours counts one), capped at 9; names longer than 63 bytes give 9. */
int suggest_distance(const char *a, const char *b);

/* The candidate closest to `typed` if within a typo's distance (1 for
 * names of up to 5 letters, else 2), else NULL. Ties: the first. */
const char *suggest_closest(const char *typed, const char *const *cands, size_t n);

#endif
