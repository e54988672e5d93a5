/*
 * test_svg.c — the pictures for slides (ui/svg*.c, ui/palette.c): a text
 * buffer drawn as SVG keeps every character (escaped where XML needs it,
 * UTF-8 for box drawing) in its attribute's colours; every CPI-stack
 * component has its own colours on the terminal and so on the slide; a
 * timeline shows the cycles it is given, 1-based as the explorer counts,
 * the ROB red where it was full and each miss in its component's colour;
 * CPI stacks of two runs share one scale and write a negative base out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "acct/acct.h"
#include "explorer/explorer.h"
#include "explorer/explorer_trace.h"
#include "palette.h"
#include "svg.h"
#include "textbuf.h"

/* What a writer printed, as one string (free it). */
struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static void capture_start(struct capture *c)
{
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

static char *capture_end(struct capture *c)
{
	fclose(c->f);
	return c->buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_textbuf_text_escaped_in_colour(void **state)
{
	struct textbuf *tb = tb_new(20, 2, 0);
	assert_non_null(tb);
	tb_puts(tb, 0, 0, TB_MISS, "a<b & c>");
	tb_fill(tb, 0, 1, 20, L' ', TB_HEAD);
	tb_putc(tb, 0, 1, TB_HEAD, (wchar_t)0x2500);     /* box drawing, then x */
	tb_putc(tb, 1, 1, TB_HEAD, L'x');
	struct capture c;
	capture_start(&c);
	svg_textbuf_doc(c.f, tb, "t\"<itle>");
	char *s = capture_end(&c);
	assert_non_null(strstr(s, ">a&lt;b &amp; c&gt;</text>"));
	assert_non_null(strstr(s, "fill=\"#cd0000\" font-weight=\"bold\">a&lt;b"));   /* TB_MISS: bold red */
	assert_non_null(strstr(s, ">\xe2\x94\x80x</text>"));
	/* the ROB head's yellow background spans its whole run (20 cells) */
	assert_non_null(strstr(s, "width=\"168.0\" height=\"17.0\" fill=\"#cdcd00\""));
	assert_non_null(strstr(s, "t&quot;&lt;itle&gt;"));
	assert_int_equal(count(s, "<svg "), 1);
	assert_int_equal(count(s, "</svg>"), 1);
	free(s);
	tb_free(tb);
}

static void test_components_distinct_colours(void **state)
{
	for (int a = 0; a <= ACCT_COMP_COUNT; a++)
		for (int b = a + 1; b <= ACCT_COMP_COUNT; b++) {
			const struct pal_entry *x = palette_of(TB_BAR0 + a), *y = palette_of(TB_BAR0 + b);
			assert_false(x->fg == y->fg && x->bg == y->bg);
		}
	for (int k = 0; k <= ACCT_COMP_COUNT; k++)
		assert_int_not_equal(palette_of(TB_BAR0 + k)->bg, PAL_DEFAULT);
	assert_string_equal(palette_bar_rgb(1 + ACCT_L2D), "#cd0000");
	assert_string_equal(palette_rgb(PAL_DEFAULT, 1), "#ffffff");
}

static void test_timeline_cycles_and_events(void **state)
{
	struct svg_timeline tl = { .lo = 100, .hi = 110, .rob_size = 8, .width = 4 };
	struct xtl_cycle cyc[10];
	struct xevent ev[2];
	memset(cyc, 0, sizeof cyc);
	memset(ev, 0, sizeof ev);
	for (int i = 0; i < 10; i++) {
		cyc[i].cycle = 100 + (uint64_t)i;
		cyc[i].rob_occupancy = i < 5 ? i : 8;
		cyc[i].rob_full = i >= 5;
		cyc[i].dispatched = i < 5 ? 4 : 0;
	}
	ev[0] = (struct xevent){ .kind = MISS_L2D, .start = 103, .end = 120, .ended = 1, .correct_path = 1, .pc = 0x40 };
	ev[1] = (struct xevent){ .kind = MISS_L1I, .start = 90, .end = 101, .ended = 1, .correct_path = 1, .pc = 0x80 };
	tl.cyc = cyc;
	tl.ev = ev;
	tl.n_ev = 2;
	snprintf(tl.title, sizeof tl.title, "k & t");
	struct capture c;
	capture_start(&c);
	svg_timeline_doc(c.f, &tl, 1);
	char *s = capture_end(&c);
	assert_non_null(strstr(s, ">k &amp; t</text>"));
	/* 1-based cycles; the miss still outstanding at the window's end is
	 * drawn to it, the one begun before the window from its start */
	assert_non_null(strstr(s, "<title>L2D, cycles 104-121 (18 cycles), pc 0x40</title>"));
	assert_non_null(strstr(s, "<title>L1I, cycles 91-102 (12 cycles), pc 0x80</title>"));
	/* the full ROB: one merged red run of five cycles, the full height */
	assert_non_null(strstr(s, "height=\"100.00\" fill=\"#cd0000\""));
	assert_int_equal(count(s, "fill=\"#cd0000\"/>"), 1);
	/* the L2D bar in its component's red, the L1I bar cyan */
	assert_non_null(strstr(s, "fill=\"#cd0000\" stroke=\"#333333\" stroke-width=\"0.4\"><title>L2D"));
	assert_non_null(strstr(s, "fill=\"#00cdcd\" stroke=\"#333333\" stroke-width=\"0.4\"><title>L1I"));
	free(s);
}

static void test_cpistacks_two_runs_one_scale(void **state)
{
	struct svg_stacks st[2];
	memset(st, 0, sizeof st);
	for (int r = 0; r < 2; r++) {
		snprintf(st[r].label, sizeof st[r].label, "%c: run", 'A' + r);
		st[r].have[ACCT_FMT] = st[r].have[ACCT_NAIVE] = 1;
		st[r].s[ACCT_FMT] = (struct acct_stack){ .insns = 100, .cycles = r ? 200 : 400, .base = 100 };
		st[r].s[ACCT_FMT].comp[ACCT_L2D] = r ? 100 : 300;
		st[r].s[ACCT_NAIVE] = st[r].s[ACCT_FMT];
	}
	st[0].s[ACCT_NAIVE].base = -50;      /* charged more than there were */
	st[0].s[ACCT_NAIVE].comp[ACCT_L2D] = 450;
	struct capture c;
	capture_start(&c);
	svg_cpistack_doc(c.f, "T", st, 2);
	char *s = capture_end(&c);
	assert_int_equal(count(s, ">naive</text>"), 1);
	assert_int_equal(count(s, ">FMT</text>"), 1);
	assert_int_equal(count(s, ">IBM POWER5</text>"), 0);
	assert_non_null(strstr(s, "<title>A L2D: 3.0000 CPI</title>"));
	assert_non_null(strstr(s, "<title>B L2D: 1.0000 CPI</title>"));
	/* one run: no side letter in the tooltips either */
	struct capture one;
	capture_start(&one);
	svg_cpistack_doc(one.f, "T", st, 1);
	char *s1 = capture_end(&one);
	assert_non_null(strstr(s1, "<title>L2D: 3.0000 CPI</title>"));
	assert_null(strstr(s1, "<title>A "));
	free(s1);
	/* the scale is the longest bar, naive A's 4.5 CPI of components */
	assert_non_null(strstr(s, ">4.50</text>"));
	assert_non_null(strstr(s, ">base -0.500</text>"));
	assert_int_equal(count(s, ">4.000</text>"), 2);   /* A's CPI, twice */
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_textbuf_text_escaped_in_colour),
		cmocka_unit_test(test_components_distinct_colours),
		cmocka_unit_test(test_timeline_cycles_and_events),
		cmocka_unit_test(test_cpistacks_two_runs_one_scale),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
