/*
 * stdlib.c — number parsing, process exit and the workload argument helper.
 */
#include "rt.h"

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/* Shared by strtoul and strtol: optional space and sign, 0x/0 prefixes
 * with base 0 or 16, saturates at ULONG_MAX. */
static unsigned long parse_ul(const char *s, char **end, int base, int *neg)
{
	const char *p = s;
	unsigned long v = 0;
	int any = 0, over = 0;

	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	*neg = 0;
	if (*p == '+' || *p == '-')
		*neg = *p++ == '-';
	if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')
	    && digit_value(p[2]) < 16) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = p[0] == '0' ? 8 : 10;
	}
	for (int d; (d = digit_value(*p)) < base; p++) {
		any = 1;
		if (v > ((unsigned long)-1 - (unsigned)d) / (unsigned)base)
			over = 1;
		else
			v = v * (unsigned)base + (unsigned)d;
	}
	if (end)
		*end = (char *)(any ? p : s);
	return over ? (unsigned long)-1 : v;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	int neg;
	unsigned long v = parse_ul(s, end, base, &neg);
	return neg ? 0 - v : v;
}

long strtol(const char *s, char **end, int base)
{
	int neg;
	unsigned long v = parse_ul(s, end, base, &neg);
	unsigned long lim = neg ? (unsigned long)1 << 63 : ((unsigned long)1 << 63) - 1;
	if (v > lim)
		v = lim;
	return neg ? (long)(0 - v) : (long)v;
}

long atol(const char *s)
{
	return strtol(s, NULL, 10);
}

int atoi(const char *s)
{
	return (int)strtol(s, NULL, 10);
}

void exit(int code)
{
	rt_flush();
	exit_group(code);
}

void abort(void)
{
	rt_flush();
	dprintf(2, "abort\n");
	exit_group(134);
}

void rt_check_failed(const char *what, int line)
{
	rt_flush();
	dprintf(2, "check failed at line %d: %s\n", line, what);
	exit_group(3);
}

unsigned long rt_arg_scale(int argc, char **argv, unsigned long dflt)
{
	if (argc < 2)
		return dflt;
	char *end;
	unsigned long v = strtoul(argv[1], &end, 10);
	if (argc > 2 || argv[1][0] < '1' || argv[1][0] > '9' || *end || v > 1000000) {
		dprintf(2, "usage: %s [scale]   (scale: integer 1..1000000, default %lu)\n",
			argv[0], dflt);
		exit(2);
	}
	return v;
}
