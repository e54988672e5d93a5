/*
 * rt_selftest.c — checks the guest runtime itself: printf formatting,
 * string functions, number parsing, malloc/realloc/free on both the brk and
 * the mmap paths, and the initial stack (argc/argv/envp).
 *
 * Every check compares against a literal expectation and counts failures;
 * the program prints one line per failure, a summary line, and exits 1 if
 * anything failed. Run under qemu it tests the runtime; run under ivx it
 * also tests the emulator's system calls (brk, mmap, munmap, write).
 */
#include "rt.h"

static int failures, checks;
static const char *volatile null_str;  /* volatile: GCC warns about a literal NULL */

static void expect_str(const char *got, const char *want, int line)
{
	checks++;
	if (strcmp(got, want)) {
		failures++;
		printf("FAIL line %d: got \"%s\", want \"%s\"\n", line, got, want);
	}
}

static void expect_int(long got, long want, int line)
{
	checks++;
	if (got != want) {
		failures++;
		printf("FAIL line %d: got %ld, want %ld\n", line, got, want);
	}
}

#define FMT(want, ...) do { \
		char b_[128]; \
		snprintf(b_, sizeof b_, __VA_ARGS__); \
		expect_str(b_, want, __LINE__); \
	} while (0)
#define EQ(got, want) expect_int((long)(got), (long)(want), __LINE__)

static void test_printf(void)
{
	FMT("42", "%d", 42);
	FMT("-42", "%d", -42);
	FMT("-2147483648", "%d", (int)0x80000000);
	FMT("4294967295", "%u", 0xffffffffu);
	FMT("-9223372036854775808", "%ld", (long)(1ull << 63));
	FMT("18446744073709551615", "%lu", ~0ul);
	FMT("-1", "%lld", -1ll);
	FMT("18446744073709551615", "%llu", ~0ull);
	FMT("ff", "%x", 255);
	FMT("FF", "%X", 255);
	FMT("deadbeefcafef00d", "%lx", 0xdeadbeefcafef00dul);
	FMT("0x1f", "%#x", 31);
	FMT("17", "%o", 15);
	FMT("   42", "%5d", 42);
	FMT("42   |", "%-5d|", 42);
	FMT("00042", "%05d", 42);
	FMT("-0042", "%05d", -42);
	FMT("+42", "%+d", 42);
	FMT(" 42", "% d", 42);
	FMT("00000000000000ff", "%016lx", 255ul);
	FMT("  007", "%5.3d", 7);
	FMT("", "%.0d", 0);
	FMT("    7", "%*d", 5, 7);
	FMT("7    |", "%*d|", -5, 7);
	FMT("hello", "%s", "hello");
	FMT("  abc", "%5s", "abc");
	FMT("abc  |", "%-5s|", "abc");
	FMT("ab", "%.2s", "abcdef");
	FMT("(null)", "%s", null_str);
	FMT("x", "%c", 'x');
	FMT("  x", "%3c", 'x');
	FMT("100%", "%d%%", 100);
	FMT("-128 255 -1 65535", "%hhd %hhu %hd %hu", (signed char)-128,
	    (unsigned char)255, (short)-1, (unsigned short)65535);
	FMT("123 456", "%zu %td", (size_t)123, (ptrdiff_t)456);
	FMT("a1b2c", "a%db%dc", 1, 2);

	/* truncation: returns the untruncated length, always terminates */
	char small[6];
	EQ(snprintf(small, sizeof small, "%s", "abcdefgh"), 8);
	expect_str(small, "abcde", __LINE__);
	EQ(snprintf(NULL, 0, "%d", 12345), 5);
}

static void test_strings(void)
{
	char buf[64];

	EQ(strlen(""), 0);
	EQ(strlen("hello"), 5);
	EQ(strnlen("hello", 3), 3);
	EQ(strcmp("abc", "abc"), 0);
	EQ(strcmp("abc", "abd") < 0, 1);
	EQ(strcmp("b", "a") > 0, 1);
	EQ(strcmp("ab", "abc") < 0, 1);
	EQ(strcmp("\xff", "a") > 0, 1);        /* compares as unsigned char */
	EQ(strncmp("abcx", "abcy", 3), 0);
	EQ(strncmp("abcx", "abcy", 4) < 0, 1);
	strcpy(buf, "foo");
	strcat(buf, "bar");
	expect_str(buf, "foobar", __LINE__);
	EQ(strchr(buf, 'b') - buf, 3);
	EQ(strchr(buf, 0) - buf, 6);
	EQ(strchr(buf, 'z') == NULL, 1);
	expect_str(strrchr("abcabc", 'b'), "bc", __LINE__);
	expect_str(strstr("hello world", "o w"), "o world", __LINE__);
	EQ(strstr("hello", "xyz") == NULL, 1);
	memset(buf, 0, sizeof buf);
	strncpy(buf, "ab", 5);
	EQ(buf[0] == 'a' && buf[1] == 'b' && buf[2] == 0 && buf[4] == 0, 1);

	/* memcpy/memmove/memset at every alignment and overlap */
	unsigned char a[80], b[80];
	int ok = 1;
	for (int off = 0; off < 8; off++)
		for (int len = 0; len < 40; len++) {
			for (int i = 0; i < 80; i++)
				a[i] = (unsigned char)i, b[i] = 0xee;
			memcpy(b + off, a + 3, (size_t)len);
			for (int i = 0; i < 80; i++) {
				int want = i >= off && i < off + len ? i - off + 3 : 0xee;
				ok &= b[i] == want;
			}
			for (int i = 0; i < 80; i++)
				a[i] = (unsigned char)i;
			memmove(a + off + 1, a + 1, (size_t)len);   /* overlap, dst above */
			for (int i = 0; i < len; i++)
				ok &= a[off + 1 + i] == i + 1;
			for (int i = 0; i < 80; i++)
				a[i] = (unsigned char)i;
			memmove(a + 1, a + 1 + off, (size_t)len);   /* overlap, dst below */
			for (int i = 0; i < len; i++)
				ok &= a[1 + i] == 1 + off + i;
			memset(b + off, 0x5a, (size_t)len);
			for (int i = off; i < off + len; i++)
				ok &= b[i] == 0x5a;
			ok &= b[off + len] != 0x5a || len == 0;
		}
	EQ(ok, 1);
	EQ(memcmp("abc", "abd", 3) < 0, 1);
	EQ(memcmp("abc", "abd", 2), 0);
	EQ((const char *)memchr("abcdef", 'd', 6) - "abcdef" >= 0, 1);
}

static void test_numbers(void)
{
	char *end;

	EQ(atoi("123"), 123);
	EQ(atoi("  -45x"), -45);
	EQ(atol("9000000000"), 9000000000l);
	EQ(strtoul("ff", NULL, 16), 255);
	EQ(strtoul("0x1F", NULL, 0), 31);
	EQ(strtoul("017", NULL, 0), 15);
	EQ(strtoul("99999999999999999999", NULL, 10), -1);   /* saturates */
	EQ(strtol("-9223372036854775809", NULL, 10), (long)(1ull << 63));
	EQ(strtoul("12abc", &end, 10), 12);
	expect_str(end, "abc", __LINE__);
	strtoul("xyz", &end, 10);
	expect_str(end, "xyz", __LINE__);
}

static void test_malloc(void)
{
	/* many small blocks, freed in a different order, then reused */
	enum { N = 500 };
	static unsigned char *p[N];
	int ok = 1;

	for (int i = 0; i < N; i++) {
		size_t n = 1 + (size_t)(i * 37 % 700);
		p[i] = malloc(n);
		ok &= p[i] != NULL && ((uintptr_t)p[i] & 15) == 0;
		memset(p[i], i & 0xff, n);
	}
	for (int i = 0; i < N; i++) {
		size_t n = 1 + (size_t)(i * 37 % 700);
		for (size_t k = 0; k < n; k++)
			ok &= p[i][k] == (i & 0xff);
	}
	for (int i = 0; i < N; i += 2)
		free(p[i]);
	for (int i = 0; i < N; i += 2) {
		p[i] = calloc(1, 64);
		ok &= p[i] != NULL && p[i][0] == 0 && p[i][63] == 0;
	}
	for (int i = 0; i < N; i++)
		free(p[i]);
	EQ(ok, 1);

	/* realloc keeps contents while growing through classes and into mmap */
	unsigned char *r = malloc(10);
	for (int i = 0; i < 10; i++)
		r[i] = (unsigned char)(i + 1);
	ok = r != NULL;
	for (size_t n = 20; n <= (size_t)1 << 18; n *= 3) {
		r = realloc(r, n);
		ok &= r != NULL;
		for (int i = 0; i < 10; i++)
			ok &= r[i] == i + 1;
		r[n - 1] = 0x77;
	}
	free(r);
	EQ(ok, 1);

	/* big blocks come from mmap: write all of one, free, again */
	for (int round = 0; round < 3; round++) {
		size_t n = ((size_t)256 << 10) + (size_t)round * 12345;
		unsigned char *big = malloc(n);
		ok = big != NULL;
		if (big) {
			memset(big, round + 1, n);
			ok &= big[0] == round + 1 && big[n - 1] == round + 1;
		}
		free(big);
		EQ(ok, 1);
	}
	EQ(malloc((size_t)1 << 50) == NULL, 1);
	EQ(calloc((size_t)1 << 40, (size_t)1 << 40) == NULL, 1);
	free(NULL);
}

int main(int argc, char **argv, char **envp)
{
	/* the initial stack: argv[argc] is NULL and envp follows it */
	EQ(argc >= 1, 1);
	EQ(argv[argc] == NULL, 1);
	EQ(envp == argv + argc + 1, 1);
	EQ(argv[0] != NULL && strlen(argv[0]) > 0, 1);

	test_printf();
	test_strings();
	test_numbers();
	test_malloc();

	/* printf's return value and output through the stdout buffer */
	/* "rt_selftest: " + digits + " checks" */
	EQ(printf("rt_selftest: %d checks", checks),
	   20 + 1 + (checks >= 10) + (checks >= 100) + (checks >= 1000));
	printf(", %d failed\n", failures);
	return failures ? 1 : 0;
}
