/*
 * test_ui_layout.c — how the explorer's layouts fit a screen (ui/layout.c)
 * and "did you mean" (src/cli/suggest.c), with the panes' real minimum and
 * preferred widths copied here: a row too narrow for its panes at their
 * preferred widths wraps its least important pane onto a line of its own;
 * a wrap is undone before any pane is dropped for height; a chosen console
 * height makes the least important panes give way; a typo gets a
 * suggestion, another word does not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "layout.c"
#include "cli/suggest.c"

/* The default layout's panes, sizes as in ui/pane_*.c. */
static const struct pane_class classes[] = {
	{ .name = "rob", .min_w = 44, .min_h = 5, .pref_w = 72 },
	{ .name = "code", .min_w = 36, .min_h = 4, .pref_w = 40 },
	{ .name = "timeline", .min_w = 40, .min_h = 10 },
	{ .name = "cpistack", .min_w = 44, .min_h = 6, .pref_w = 56 },
	{ .name = "fmt", .min_w = 50, .min_h = 4, .pref_w = 72 },
	{ .name = "events", .min_w = 40, .min_h = 3, .pref_w = 60 },
	{ .name = "console", .min_w = 10, .min_h = 2 },
};

const struct pane_class *pane_class_find(const char *name)
{
	for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
		if (!strcmp(classes[i].name, name))
			return &classes[i];
	return NULL;
}

static const struct layout_box *box(const struct layout_box *b, int n, const char *pane)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(b[i].pane, pane))
			return &b[i];
	return NULL;
}

static void test_wide_screen_one_row(void **state)
{
	struct layout_box b[LAYOUT_MAX_BOXES];
	int n = layout_place(layout_find("default"), 200, 60, 0, b);
	assert_int_equal(n, 7);
	/* CPI stacks, FMT and events side by side, each at least its preferred width */
	const struct layout_box *c = box(b, n, "cpistack"), *f = box(b, n, "fmt"), *e = box(b, n, "events");
	assert_int_equal(c->y, f->y);
	assert_int_equal(f->y, e->y);
	assert_true(f->w >= 72 && e->w >= 60 && c->w >= 56);
}

static void test_narrow_row_wraps(void **state)
{
	struct layout_box b[LAYOUT_MAX_BOXES];
	int n = layout_place(layout_find("default"), 120, 40, 0, b);
	assert_int_equal(n, 7);   /* every pane, the FMT included */
	const struct layout_box *c = box(b, n, "cpistack"), *f = box(b, n, "fmt"), *e = box(b, n, "events");
	assert_int_equal(c->y, e->y);
	assert_true(f->y > c->y);           /* on a line of its own under them */
	assert_int_equal(f->w, 120);
	assert_true(box(b, n, "rob")->w >= 72);   /* "executing 221 L2D miss" uncut */
	assert_true(e->w >= 60);
}

static void test_short_screen_unwraps_before_dropping(void **state)
{
	struct layout_box b[LAYOUT_MAX_BOXES];
	int n = layout_place(layout_find("default"), 100, 30, 0, b);
	/* no room for a line of its own: CPI stacks and events share a row
	 * at their minimum widths; the FMT (least important) is dropped */
	assert_non_null(box(b, n, "cpistack"));
	assert_non_null(box(b, n, "events"));
	assert_null(box(b, n, "fmt"));
	assert_int_equal(box(b, n, "cpistack")->y, box(b, n, "events")->y);
}

static void test_console_rows(void **state)
{
	struct layout_box b[LAYOUT_MAX_BOXES];
	int n = layout_place(layout_find("default"), 120, 40, 20, b);
	const struct layout_box *con = box(b, n, "console");
	assert_int_equal(con->h, 21);        /* 20 rows and its title */
	assert_int_equal(con->y + con->h, 40);
	assert_non_null(box(b, n, "rob"));
	assert_non_null(box(b, n, "timeline"));
	assert_null(box(b, n, "fmt"));       /* gave way */
	n = layout_place(layout_find("default"), 120, 40, 0, b);
	assert_true(box(b, n, "console")->h < 10);
}

static void test_every_box_fits(void **state)
{
	static const int sizes[][2] = { { 80, 24 }, { 100, 30 }, { 120, 40 }, { 160, 50 }, { 200, 60 }, { 90, 70 } };
	struct layout_box b[LAYOUT_MAX_BOXES];
	for (int l = 0; l < layout_count(); l++)
		for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
			for (int con = 0; con <= 30; con += 15) {
				int w = sizes[s][0], h = sizes[s][1];
				int n = layout_place(layout_at(l), w, h, con, b);
				assert_true(n >= 1);
				for (int i = 0; i < n; i++) {
					assert_true(b[i].x >= 0 && b[i].x + b[i].w <= w);
					assert_true(b[i].y >= 0 && b[i].y + b[i].h <= h);
					assert_true(b[i].w >= pane_class_find(b[i].pane)->min_w);
				}
			}
}

static void test_did_you_mean(void **state)
{
	static const char *const names[] = { "continue", "catch", "run", "focus", "step" };
	assert_string_equal(suggest_closest("contineu", names, 5), "continue");  /* two swapped */
	assert_string_equal(suggest_closest("rnu", names, 5), "run");
	assert_string_equal(suggest_closest("stpe", names, 5), "step");
	assert_null(suggest_closest("bogus", names, 5));    /* two letters from focus: another word */
	assert_null(suggest_closest("zzzzzzzz", names, 5));
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wide_screen_one_row),
		cmocka_unit_test(test_narrow_row_wraps),
		cmocka_unit_test(test_short_screen_unwraps_before_dropping),
		cmocka_unit_test(test_console_rows),
		cmocka_unit_test(test_every_box_fits),
		cmocka_unit_test(test_did_you_mean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
