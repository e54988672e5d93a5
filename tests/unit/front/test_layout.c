/*
 * test_layout.c — placing the named layouts (ui/layout.h) on screens of
 * many sizes, tiny to huge: every placed pane lies inside the screen, no
 * two overlap, each gets at least its minimum size, and nothing is placed
 * twice or that the layout does not name. Where everything fits, every
 * pane is there and the panes fill the screen; where it does not, the
 * least important go first, so 80x24 keeps the ROB, the timeline and the
 * console (the promise in layout.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "layout.h"
#include "pane.h"

static const int widths[] = { 1, 5, 9, 10, 20, 36, 40, 44, 60, 79, 80, 81, 100, 120, 133, 160, 200, 300, 1000 };
static const int heights[] = { 1, 2, 3, 4, 5, 8, 10, 12, 15, 20, 23, 24, 25, 30, 40, 50, 60, 100, 400 };
#define N_W (sizeof widths / sizeof widths[0])
#define N_H (sizeof heights / sizeof heights[0])

/* How many cells of the layout name `pane`. */
static int cells_named(const struct layout *l, const char *pane)
{
	int n = 0;
	for (int r = 0; r < LAYOUT_MAX_ROWS && l->rows[r].weight; r++)
		for (int k = 0; k < LAYOUT_MAX_CELLS && l->rows[r].cells[k].pane; k++)
			n += !strcmp(l->rows[r].cells[k].pane, pane);
	return n;
}

static int cell_count(const struct layout *l)
{
	int n = 0;
	for (int r = 0; r < LAYOUT_MAX_ROWS && l->rows[r].weight; r++)
		for (int k = 0; k < LAYOUT_MAX_CELLS && l->rows[r].cells[k].pane; k++)
			n++;
	return n;
}

static int overlap(const struct layout_box *a, const struct layout_box *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

/* The invariants of one placement; returns the number of boxes. */
static int check_place(const struct layout *l, int w, int h, struct layout_box *boxes)
{
	for (int i = 0; i < LAYOUT_MAX_BOXES; i++)
		boxes[i] = (struct layout_box){ 0 };
	int n = layout_place(l, w, h, 0, boxes);
	if (n < 0 || n > cell_count(l))
		fail_msg("layout %s at %dx%d: %d boxes", l->name, w, h, n);
	for (int i = 0; i < n; i++) {
		const struct layout_box *b = &boxes[i];
		const struct pane_class *pc = b->pane ? pane_class_find(b->pane) : NULL;
		if (!pc)
			fail_msg("layout %s at %dx%d: box %d names no pane", l->name, w, h, i);
		if (b->x < 0 || b->y < 0 || b->x + b->w > w || b->y + b->h > h)
			fail_msg("layout %s at %dx%d: %s at %d,%d size %dx%d is off the screen", l->name, w, h,
				 b->pane, b->x, b->y, b->w, b->h);
		if (b->w < pc->min_w || b->h < pc->min_h + 1)
			fail_msg("layout %s at %dx%d: %s gets %dx%d, below its minimum %dx%d (+1 title row)",
				 l->name, w, h, b->pane, b->w, b->h, pc->min_w, pc->min_h);
		for (int j = 0; j < i; j++) {
			if (overlap(b, &boxes[j]))
				fail_msg("layout %s at %dx%d: %s and %s overlap", l->name, w, h, b->pane,
					 boxes[j].pane);
			if (!strcmp(b->pane, boxes[j].pane) && cells_named(l, b->pane) < 2)
				fail_msg("layout %s at %dx%d: %s placed twice", l->name, w, h, b->pane);
		}
		if (!cells_named(l, b->pane))
			fail_msg("layout %s at %dx%d: %s is not in the layout", l->name, w, h, b->pane);
	}
	return n;
}

static int placed(const struct layout_box *boxes, int n, const char *pane)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(boxes[i].pane, pane))
			return 1;
	return 0;
}

/* Every layout to test: the named ones and one single-pane layout per pane. */
static int all_layouts(struct layout *out, int max)
{
	int n = 0;
	for (int i = 0; i < layout_count() && n < max; i++)
		out[n++] = *layout_at(i);
	for (int i = 0; i < pane_class_count() && n < max; i++)
		layout_single(&out[n++], pane_class_at(i)->name);
	return n;
}

static void test_named_layouts_exist(void **state)
{
	static const char *const names[] = { "default", "rob", "timeline", "fmt", "cpi", "code", NULL };
	for (int i = 0; names[i]; i++) {
		const struct layout *l = layout_find(names[i]);
		assert_non_null(l);
		assert_string_equal(l->name, names[i]);
		/* Every cell names a registered pane. */
		for (int r = 0; r < LAYOUT_MAX_ROWS && l->rows[r].weight; r++)
			for (int k = 0; k < LAYOUT_MAX_CELLS && l->rows[r].cells[k].pane; k++)
				assert_non_null(pane_class_find(l->rows[r].cells[k].pane));
	}
	assert_null(layout_find("nosuch"));
	assert_null(layout_at(layout_count()));
	assert_true(pane_class_count() >= 7);
}

static void test_placement_invariants(void **state)
{
	struct layout ls[64];
	int nl = all_layouts(ls, 64);
	struct layout_box boxes[LAYOUT_MAX_BOXES];
	const struct pane_class *console = pane_class_find("console");
	assert_non_null(console);
	for (int i = 0; i < nl; i++)
		for (size_t a = 0; a < N_W; a++)
			for (size_t b = 0; b < N_H; b++) {
				int w = widths[a], h = heights[b];
				int n = check_place(&ls[i], w, h, boxes);
				/* The console (priority 0) stays while it fits at all. */
				if (cells_named(&ls[i], "console") && w >= console->min_w &&
				    h >= console->min_h + 1 && !placed(boxes, n, "console"))
					fail_msg("layout %s at %dx%d drops the console", ls[i].name, w, h);
			}
}

/* On a large screen every pane is placed, the rows fill the height and
 * each row reaches the right edge. */
static void test_large_screens_are_filled(void **state)
{
	struct layout ls[64];
	int nl = all_layouts(ls, 64);
	struct layout_box boxes[LAYOUT_MAX_BOXES];
	static const int sizes[][2] = { { 200, 60 }, { 300, 100 }, { 1000, 400 }, { 201, 61 } };
	for (int i = 0; i < nl; i++)
		for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
			int w = sizes[s][0], h = sizes[s][1];
			int n = check_place(&ls[i], w, h, boxes);
			assert_int_equal(n, cell_count(&ls[i]));
			int bottom = 0;
			for (int k = 0; k < n; k++) {
				if (boxes[k].y + boxes[k].h > bottom)
					bottom = boxes[k].y + boxes[k].h;
				/* The rightmost box of each row ends at the edge. */
				int rightmost = 1;
				for (int j = 0; j < n; j++)
					if (boxes[j].y == boxes[k].y && boxes[j].x > boxes[k].x)
						rightmost = 0;
				if (rightmost && boxes[k].x + boxes[k].w != w)
					fail_msg("layout %s at %dx%d: row at y=%d ends at column %d", ls[i].name, w, h,
						 boxes[k].y, boxes[k].x + boxes[k].w);
			}
			assert_int_equal(bottom, h);
		}
}

static void test_small_screens_keep_the_important_panes(void **state)
{
	struct layout_box boxes[LAYOUT_MAX_BOXES];
	const struct layout *l = layout_find("default");
	int n = check_place(l, 80, 24, boxes);
	assert_true(placed(boxes, n, "rob"));
	assert_true(placed(boxes, n, "timeline"));
	assert_true(placed(boxes, n, "console"));
	/* Narrower than two panes side by side: one per row at most. */
	n = check_place(l, 60, 60, boxes);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			assert_true(boxes[i].y != boxes[j].y);
	/* Too small for anything. */
	assert_int_equal(check_place(l, 5, 40, boxes), 0);
	assert_int_equal(check_place(l, 100, 2, boxes), 0);
	/* Growing the screen never loses a pane (for the default layout). */
	int prev_rob = 0;
	for (int h = 3; h <= 80; h++) {
		n = check_place(l, 100, h, boxes);
		int rob = placed(boxes, n, "rob");
		assert_true(rob >= prev_rob);
		prev_rob = rob;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named_layouts_exist),
		cmocka_unit_test(test_placement_invariants),
		cmocka_unit_test(test_large_screens_are_filled),
		cmocka_unit_test(test_small_screens_keep_the_important_panes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
