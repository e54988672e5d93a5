/*
 * strproc.c — string processing over generated text.
 *
 * A pseudo-random text of words built from syllables is, in order:
 * tokenised in place (strchr over a separator set), counted into a chained
 * hash table of distinct words (strcmp on every chain step), searched for a
 * few patterns (strstr), transformed word by word (upper-case copy, in-place
 * reversal) and turned into numbers and back (snprintf, strtoul).
 *
 * Personality: byte loads and short, data-dependent loops whose trip counts
 * are word lengths, so branch mispredictions at loop exits; calls into the
 * runtime's string functions; a working set that fits in the L2.
 *
 * Scale s: s * 4 KB of text. Default 64.
 */
#include "rt.h"

#define DEFAULT_SCALE 64
#define TEST_SCALE 1
#define NBUCKETS 1024

static const char *const syllables[] = {
	"ka", "lo", "mi", "ne", "tor", "sha", "vel", "qu", "ri", "ston",
	"a", "e", "ing", "ex", "pro", "ba", "dul", "zer", "im", "on",
};
static const char separators[] = " ,.;\n";

struct word {
	struct word *next;   /* hash chain */
	char *text;          /* points into the tokenised buffer */
	unsigned count;
};

static unsigned str_hash(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static char *make_text(struct rt_rng *rng, size_t size)
{
	char *t = malloc(size + 16);
	size_t n = 0;

	rt_check(t, "out of memory");
	while (n < size) {
		int syl = 1 + (int)rt_rng_below(rng, 4);
		for (int i = 0; i < syl; i++) {
			const char *s = syllables[rt_rng_below(rng, sizeof syllables / sizeof *syllables)];
			size_t l = strlen(s);
			if (n + l >= size)
				break;
			memcpy(t + n, s, l);
			n += l;
		}
		t[n++] = separators[rt_rng_below(rng, 8) < 5 ? 0 : rt_rng_below(rng, sizeof separators - 1)];
	}
	t[size] = 0;
	return t;
}

static size_t count_pattern(const char *text, const char *pat)
{
	size_t n = 0;

	for (const char *p = strstr(text, pat); p; p = strstr(p + 1, pat))
		n++;
	return n;
}

int main(int argc, char **argv)
{
	size_t size = rt_arg_scale(argc, argv, DEFAULT_SCALE) * 4096;
	struct rt_rng rng;
	uint64_t h = RT_CHECKSUM_INIT;

	rt_rng_seed(&rng, 17);
	char *text = make_text(&rng, size);

	/* pattern search on the untouched text */
	static const char *const patterns[] = { "kalo", "ing ", "tor.", "zerzer", "qua" };
	for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++)
		h = rt_mix(h, count_pattern(text, patterns[i]));

	/* tokenise in place and count distinct words */
	struct word **bucket = calloc(NBUCKETS, sizeof *bucket);
	size_t words = 0, distinct = 0, longest = 0;
	rt_check(bucket, "out of memory");
	for (char *p = text; *p;) {
		if (strchr(separators, *p)) {
			*p++ = 0;
			continue;
		}
		char *start = p;
		while (*p && !strchr(separators, *p))
			p++;
		if (*p)
			*p++ = 0;
		words++;
		size_t len = strlen(start);
		if (len > longest)
			longest = len;
		struct word **b = &bucket[str_hash(start) % NBUCKETS], *w;
		for (w = *b; w && strcmp(w->text, start); w = w->next)
			;
		if (!w) {
			w = malloc(sizeof *w);
			rt_check(w, "out of memory");
			w->text = start;
			w->count = 0;
			w->next = *b;
			*b = w;
			distinct++;
		}
		w->count++;
	}

	/* per distinct word: upper-case copy, reversal, numbers through text */
	char up[64], num[32];
	unsigned top = 0;
	for (int i = 0; i < NBUCKETS; i++)
		for (struct word *w = bucket[i]; w; w = w->next) {
			size_t len = strlen(w->text);
			rt_check(len < sizeof up, "word fits");
			for (size_t k = 0; k <= len; k++) {
				char c = w->text[k];
				up[k] = c >= 'a' && c <= 'z' ? (char)(c - 32) : c;
			}
			for (size_t a = 0, z = len - 1; a < z; a++, z--) {
				char t = up[a];
				up[a] = up[z];
				up[z] = t;
			}
			snprintf(num, sizeof num, "%u:%s", w->count * 37 + (unsigned)len, up);
			h = rt_mix(h, strtoul(num, NULL, 10) + str_hash(num));
			if (w->count > top)
				top = w->count;
		}
	printf("strproc bytes=%lu words=%lu distinct=%lu longest=%lu top=%u checksum=%016lx\n",
	       (unsigned long)size, (unsigned long)words, (unsigned long)distinct,
	       (unsigned long)longest, top, h);
	return 0;
}
