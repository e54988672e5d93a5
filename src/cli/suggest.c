/*
 * suggest.c — edit distance for "did you mean" (see suggest.h).
 */
#include <string.h>
#include "suggest.h"

#define MAXLEN 64
#define CAP 9

int suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la >= MAXLEN || lb >= MAXLEN)
		return CAP;
	/* d[i][j]: distance between a's first i bytes and b's first j */
	int d[MAXLEN + 1][MAXLEN + 1];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb] < CAP ? d[la][lb] : CAP;
}

const char *suggest_closest(const char *typed, const char *const *cands, size_t n)
{
	int limit = strlen(typed) <= 5 ? 1 : 2, best = limit + 1;
	const char *pick = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!cands[i])
			continue;
		int dist = suggest_distance(typed, cands[i]);
		if (dist < best)
			best = dist, pick = cands[i];
	}
	return pick;
}
