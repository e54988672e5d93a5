/*
 * string.c — mem* and str* for the guest runtime.
 *
 * GCC emits calls to memcpy/memset/memmove/memcmp on its own (struct copies,
 * large initialisers), so these must exist even if no workload names them.
 * This file is compiled with -fno-tree-loop-distribute-patterns: otherwise
 * GCC would recognise the loops below as memset/memcpy and call itself.
 * The bulk functions move 8 bytes at a time when source and destination
 * share alignment, which is all the speed a simulator guest needs.
 */
#define RT_NO_BUILTINS
#include "rt.h"

typedef uint64_t __attribute__((may_alias)) word_t;

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((((uintptr_t)d ^ (uintptr_t)s) & 7) == 0) {
		while (n && ((uintptr_t)d & 7)) {
			*d++ = *s++;
			n--;
		}
		for (; n >= 8; n -= 8, d += 8, s += 8)
			*(word_t *)d = *(const word_t *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	/* overlapping with dst above src: copy backwards */
	d += n;
	s += n;
	while (n--)
		*--d = *--s;
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	uint64_t w = (unsigned char)c * 0x0101010101010101ull;

	while (n && ((uintptr_t)d & 7)) {
		*d++ = (unsigned char)c;
		n--;
	}
	for (; n >= 8; n -= 8, d += 8)
		*(word_t *)d = w;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

char *strcpy(char *dst, const char *src)
{
	char *d = dst;

	while ((*d++ = *src++))
		;
	return dst;
}

/* C semantics: pads with NULs up to n and does not terminate if src is
 * n bytes or longer. */
char *strncpy(char *dst, const char *src, size_t n)
{
	size_t i = 0;

	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = 0;
	return dst;
}

char *strcat(char *dst, const char *src)
{
	strcpy(dst + strlen(dst), src);
	return dst;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (!n)
		return (char *)hay;
	for (; *hay; hay++)
		if (*hay == *needle && !strncmp(hay, needle, n))
			return (char *)hay;
	return NULL;
}
