/*
 * layout.c — the named layouts and the placement algorithm (see layout.h).
 */
#include <string.h>
#include "layout.h"
#include "pane.h"

static const struct layout layouts[] = {
	{ "default", "ROB and code, timeline, CPI stack, FMT and events", {
		{ 3, { { "rob", 5, 1 }, { "code", 4, 4 } } },
		{ 3, { { "timeline", 1, 2 } } },
		{ 3, { { "cpistack", 4, 5 }, { "fmt", 5, 6 }, { "events", 4, 3 } } },
		{ 1, { { "console", 1, 0 } } },
	} },
	{ "rob", "the ROB large, code and the timeline", {
		{ 4, { { "rob", 3, 1 }, { "code", 2, 3 } } },
		{ 2, { { "timeline", 1, 2 } } },
		{ 1, { { "console", 1, 0 } } },
	} },
	{ "timeline", "the interval timeline large, events and the ROB", {
		{ 4, { { "timeline", 1, 1 } } },
		{ 2, { { "events", 1, 2 }, { "rob", 1, 3 } } },
		{ 1, { { "console", 1, 0 } } },
	} },
	{ "fmt", "the FMT, the CPI stacks and the code", {
		{ 3, { { "fmt", 3, 1 }, { "code", 2, 3 } } },
		{ 2, { { "cpistack", 1, 2 } } },
		{ 1, { { "console", 1, 0 } } },
	} },
	{ "cpi", "the CPI stacks, events and the timeline", {
		{ 3, { { "cpistack", 3, 1 }, { "events", 2, 2 } } },
		{ 2, { { "timeline", 1, 3 } } },
		{ 1, { { "console", 1, 0 } } },
	} },
	{ "code", "the code and the ROB", {
		{ 3, { { "code", 1, 1 }, { "rob", 1, 2 } } },
		{ 1, { { "console", 1, 0 } } },
	} },
};
#define N_LAYOUTS ((int)(sizeof layouts / sizeof layouts[0]))

int layout_count(void)
{
	return N_LAYOUTS;
}

const struct layout *layout_at(int i)
{
	return i >= 0 && i < N_LAYOUTS ? &layouts[i] : NULL;
}

const struct layout *layout_find(const char *name)
{
	for (int i = 0; i < N_LAYOUTS; i++)
		if (!strcmp(layouts[i].name, name))
			return &layouts[i];
	return NULL;
}

void layout_single(struct layout *out, const char *pane)
{
	memset(out, 0, sizeof *out);
	out->name = pane;
	out->summary = "one pane";
	out->rows[0].weight = 5;
	out->rows[0].cells[0] = (struct layout_cell){ pane, 1, 1 };
	if (strcmp(pane, "console")) {
		out->rows[1].weight = 1;
		out->rows[1].cells[0] = (struct layout_cell){ "console", 1, 0 };
	}
}

struct cell_state {
	const struct layout_cell *c;
	int min_w, min_h;       /* with the title row */
	int active;
};

int layout_place(const struct layout *l, int w, int h, struct layout_box *boxes)
{
	struct cell_state cs[LAYOUT_MAX_ROWS][LAYOUT_MAX_CELLS];
	int nrows = 0, ncells[LAYOUT_MAX_ROWS] = { 0 };
	memset(cs, 0, sizeof cs);
	for (int r = 0; r < LAYOUT_MAX_ROWS && l->rows[r].weight; r++, nrows++)
		for (int k = 0; k < LAYOUT_MAX_CELLS && l->rows[r].cells[k].pane; k++) {
			const struct pane_class *pc = pane_class_find(l->rows[r].cells[k].pane);
			if (!pc)
				continue;
			struct cell_state *s = &cs[r][ncells[r]++];
			s->c = &l->rows[r].cells[k];
			s->min_w = pc->min_w;
			s->min_h = pc->min_h + 1;
			s->active = 1;
		}

	int row_h[LAYOUT_MAX_ROWS];
	for (;;) {
		/* Drop from a row that is too wide, else from the whole layout if
		 * too tall: always the least important active cell. */
		int total = 0, drop_r = -1, drop_k = -1, worst = -1;
		for (int r = 0; r < nrows; r++) {
			int need_w = -1, mh = 0;
			for (int k = 0; k < ncells[r]; k++)
				if (cs[r][k].active) {
					need_w += cs[r][k].min_w + 1;
					if (cs[r][k].min_h > mh)
						mh = cs[r][k].min_h;
				}
			row_h[r] = mh;
			total += mh;
			if (need_w > w)
				for (int k = 0; k < ncells[r]; k++)
					if (cs[r][k].active && cs[r][k].c->prio > worst)
						worst = cs[r][k].c->prio, drop_r = r, drop_k = k;
		}
		if (drop_r < 0 && total > h)
			for (int r = 0; r < nrows; r++)
				for (int k = 0; k < ncells[r]; k++)
					if (cs[r][k].active && cs[r][k].c->prio > worst)
						worst = cs[r][k].c->prio, drop_r = r, drop_k = k;
		if (drop_r < 0)
			break;
		cs[drop_r][drop_k].active = 0;
	}

	/* Share the spare height by row weight. */
	int used = 0, wsum = 0;
	for (int r = 0; r < nrows; r++)
		if (row_h[r]) {
			used += row_h[r];
			wsum += l->rows[r].weight;
		}
	int spare = h - used, given = 0, last = -1;
	for (int r = 0; r < nrows; r++)
		if (row_h[r] && wsum) {
			int add = spare * l->rows[r].weight / wsum;
			row_h[r] += add;
			given += add;
			last = r;
		}
	if (last >= 0)
		row_h[last] += spare - given;

	int n = 0, y = 0;
	for (int r = 0; r < nrows; r++) {
		if (!row_h[r])
			continue;
		int act = 0, ww = 0, minsum = 0;
		for (int k = 0; k < ncells[r]; k++)
			if (cs[r][k].active) {
				act++;
				ww += cs[r][k].c->weight;
				minsum += cs[r][k].min_w;
			}
		int avail = w - (act - 1), extra = avail - minsum, x = 0, seen = 0, gave = 0;
		for (int k = 0; k < ncells[r]; k++) {
			if (!cs[r][k].active)
				continue;
			int add = ww ? extra * cs[r][k].c->weight / ww : 0;
			gave += add;
			if (++seen == act)
				add += extra - gave;
			int cw = cs[r][k].min_w + add;
			boxes[n++] = (struct layout_box){ cs[r][k].c->pane, x, y, cw, row_h[r] };
			x += cw + 1;
		}
		y += row_h[r];
	}
	return n;
}
