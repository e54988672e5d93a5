/*
 * layout.h — named screen layouts and how they shrink to fit.
 *
 * A layout is rows of panes; rows share the height by weight, panes in a
 * row share the width by weight, and every pane has a priority. When the
 * terminal is too small for the panes' minimum sizes, the least important
 * panes are dropped until the rest fit, so 80x24 still shows the ROB, the
 * timeline and the console. Each placed box includes the pane's title row;
 * panes side by side are separated by one column.
 */
#ifndef IVX_LAYOUT_H
#define IVX_LAYOUT_H

#define LAYOUT_MAX_ROWS 5
#define LAYOUT_MAX_CELLS 4
#define LAYOUT_MAX_BOXES (LAYOUT_MAX_ROWS * LAYOUT_MAX_CELLS)

struct layout_cell {
	const char *pane;      /* pane class name; NULL ends the row */
	int weight;            /* share of the row's width */
	int prio;              /* 0 = kept longest */
};

struct layout_row {
	int weight;            /* share of the height; 0 ends the layout */
	struct layout_cell cells[LAYOUT_MAX_CELLS];
};

struct layout {
	const char *name;
	const char *summary;
	struct layout_row rows[LAYOUT_MAX_ROWS];
};

struct layout_box {
	const char *pane;      /* pane class name */
	int x, y, w, h;        /* h includes the title row */
};

int layout_count(void);
const struct layout *layout_at(int i);
const struct layout *layout_find(const char *name);
/* The layout that shows one pane (with the console under it). */
void layout_single(struct layout *out, const char *pane);

/* Place the layout on a w x h area; returns the number of boxes.
 * console_rows > 0 gives the console that many rows (as far as the other
 * panes leave room) instead of its share by weight. */
int layout_place(const struct layout *l, int w, int h, int console_rows, struct layout_box *boxes);

#endif
