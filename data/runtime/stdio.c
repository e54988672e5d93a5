/*
 * stdio.c — printf and friends for the guest runtime.
 *
 * One formatter (fmt_vout) writes characters into a `struct out` sink. A
 * sink is either a string of fixed capacity (snprintf: characters past the
 * end are counted but dropped, as C requires) or a buffer drained to a file
 * descriptor when full. stdout is one such buffer, 4 KB, drained when full
 * and at exit, so a workload costs one write system call per 4 KB of output
 * rather than one per printf. dprintf uses a small stack buffer and drains
 * before returning, so stderr is effectively unbuffered.
 */
#include "rt.h"

struct out {
	char *buf;     /* destination */
	size_t cap;    /* bytes available in buf */
	size_t len;    /* bytes used (string sinks: would-be length) */
	int fd;        /* >= 0: drain buf to this fd when full; -1: string */
	size_t total;  /* characters produced, the printf return value */
};

static char stdout_buf[4096];
static struct out stdout_sink = { stdout_buf, sizeof stdout_buf, 0, 1, 0 };

static void out_drain(struct out *o)
{
	size_t off = 0;

	while (off < o->len) {
		long n = write(o->fd, o->buf + off, o->len - off);
		if (n <= 0)
			break;  /* nowhere to report it: drop the rest */
		off += (size_t)n;
	}
	o->len = 0;
}

static void out_putc(struct out *o, char c)
{
	o->total++;
	if (o->fd >= 0) {
		if (o->len == o->cap)
			out_drain(o);
		o->buf[o->len++] = c;
	} else {
		if (o->len + 1 < o->cap)
			o->buf[o->len] = c;
		o->len++;
	}
}

static void out_pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		out_putc(o, c);
}

enum {
	F_LEFT = 1,   /* '-' */
	F_ZERO = 2,   /* '0' */
	F_PLUS = 4,   /* '+' */
	F_SPACE = 8,  /* ' ' */
	F_ALT = 16,   /* '#' */
};

/* One integer conversion: sign or prefix, precision zeros, width padding. */
static void fmt_int(struct out *o, uint64_t v, int neg, unsigned base, int upper,
		    int flags, int width, int prec)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0;
	char prefix[3];
	int np = 0;

	if (!(v == 0 && prec == 0)) {
		do {
			tmp[n++] = digits[v % base];
			v /= base;
		} while (v);
	}
	if (neg)
		prefix[np++] = '-';
	else if (flags & F_PLUS)
		prefix[np++] = '+';
	else if (flags & F_SPACE)
		prefix[np++] = ' ';
	if ((flags & F_ALT) && base == 16 && n) {
		prefix[np++] = '0';
		prefix[np++] = upper ? 'X' : 'x';
	}
	if ((flags & F_ALT) && base == 8 && (n == 0 || tmp[n - 1] != '0') && prec <= n)
		prec = n + 1;

	int zeros = prec > n ? prec - n : 0;
	int pad = width - np - zeros - n;
	if ((flags & F_ZERO) && !(flags & F_LEFT) && prec < 0 && pad > 0) {
		zeros += pad;
		pad = 0;
	}
	if (!(flags & F_LEFT))
		out_pad(o, ' ', pad);
	for (int i = 0; i < np; i++)
		out_putc(o, prefix[i]);
	out_pad(o, '0', zeros);
	while (n)
		out_putc(o, tmp[--n]);
	if (flags & F_LEFT)
		out_pad(o, ' ', pad);
}

static void fmt_str(struct out *o, const char *s, int flags, int width, int prec)
{
	if (!s)
		s = "(null)";
	int n = (int)(prec >= 0 ? strnlen(s, (size_t)prec) : strlen(s));
	if (!(flags & F_LEFT))
		out_pad(o, ' ', width - n);
	for (int i = 0; i < n; i++)
		out_putc(o, s[i]);
	if (flags & F_LEFT)
		out_pad(o, ' ', width - n);
}

enum { L_INT, L_CHAR, L_SHORT, L_LONG, L_LLONG, L_SIZE };

static void fmt_vout(struct out *o, const char *f, va_list ap)
{
	for (; *f; f++) {
		if (*f != '%') {
			out_putc(o, *f);
			continue;
		}
		f++;
		int flags = 0;
		for (;; f++) {
			if (*f == '-') flags |= F_LEFT;
			else if (*f == '0') flags |= F_ZERO;
			else if (*f == '+') flags |= F_PLUS;
			else if (*f == ' ') flags |= F_SPACE;
			else if (*f == '#') flags |= F_ALT;
			else break;
		}
		int width = 0;
		if (*f == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				flags |= F_LEFT;
				width = -width;
			}
			f++;
		} else {
			while (*f >= '0' && *f <= '9')
				width = width * 10 + (*f++ - '0');
		}
		int prec = -1;
		if (*f == '.') {
			f++;
			prec = 0;
			if (*f == '*') {
				prec = va_arg(ap, int);
				f++;
			} else {
				while (*f >= '0' && *f <= '9')
					prec = prec * 10 + (*f++ - '0');
			}
		}
		int len = L_INT;
		if (*f == 'h') {
			len = L_SHORT;
			if (*++f == 'h') {
				len = L_CHAR;
				f++;
			}
		} else if (*f == 'l') {
			len = L_LONG;
			if (*++f == 'l') {
				len = L_LLONG;
				f++;
			}
		} else if (*f == 'z' || *f == 'j' || *f == 't') {
			len = L_SIZE;  /* all 64-bit on AArch64 */
			f++;
		}

		char c = *f;
		if (c == 'd' || c == 'i') {
			int64_t v;
			if (len == L_INT) v = va_arg(ap, int);
			else if (len == L_CHAR) v = (signed char)va_arg(ap, int);
			else if (len == L_SHORT) v = (short)va_arg(ap, int);
			else v = va_arg(ap, long long);
			uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
			fmt_int(o, u, v < 0, 10, 0, flags, width, prec);
		} else if (c == 'u' || c == 'x' || c == 'X' || c == 'o') {
			uint64_t v;
			if (len == L_INT) v = va_arg(ap, unsigned);
			else if (len == L_CHAR) v = (unsigned char)va_arg(ap, unsigned);
			else if (len == L_SHORT) v = (unsigned short)va_arg(ap, unsigned);
			else v = va_arg(ap, unsigned long long);
			unsigned base = c == 'u' ? 10 : c == 'o' ? 8 : 16;
			fmt_int(o, v, 0, base, c == 'X', flags & ~(F_PLUS | F_SPACE), width, prec);
		} else if (c == 'p') {
			uint64_t v = (uintptr_t)va_arg(ap, void *);
			fmt_int(o, v, 0, 16, 0, flags | F_ALT, width, prec);
		} else if (c == 's') {
			fmt_str(o, va_arg(ap, const char *), flags, width, prec);
		} else if (c == 'c') {
			char ch = (char)va_arg(ap, int);
			if (!(flags & F_LEFT))
				out_pad(o, ' ', width - 1);
			out_putc(o, ch);
			if (flags & F_LEFT)
				out_pad(o, ' ', width - 1);
		} else if (c == '%') {
			out_putc(o, '%');
		} else {
			/* unknown conversion: show it verbatim, stop if string ended */
			out_putc(o, '%');
			if (!c)
				return;
			out_putc(o, c);
		}
	}
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0, -1, 0 };

	fmt_vout(&o, fmt, ap);
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.total;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int vprintf(const char *fmt, va_list ap)
{
	stdout_sink.total = 0;
	fmt_vout(&stdout_sink, fmt, ap);
	return (int)stdout_sink.total;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}

int dprintf(int fd, const char *fmt, ...)
{
	char buf[256];
	struct out o = { buf, sizeof buf, 0, fd, 0 };
	va_list ap;

	if (fd == 1)
		rt_flush();  /* keep the order of what reaches the terminal */
	va_start(ap, fmt);
	fmt_vout(&o, fmt, ap);
	va_end(ap);
	out_drain(&o);
	return (int)o.total;
}

int putchar(int c)
{
	out_putc(&stdout_sink, (char)c);
	return (unsigned char)c;
}

int puts(const char *s)
{
	while (*s)
		out_putc(&stdout_sink, *s++);
	out_putc(&stdout_sink, '\n');
	return 1;
}

void rt_flush(void)
{
	out_drain(&stdout_sink);
}
