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
	{ "annotate", "dcpicalc's annotation (large), the code and the sampler", {
		{ 4, { { "annotate", 1, 1 } } },
		{ 2, { { "code", 1, 2 }, { "sampler", 1, 3 } } },
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
	int pref_w;             /* width that shows the pane's columns uncut */
	int active;
};

/* Placement works on "lines": a layout row, or the continuation of one whose
 * panes do not fit side by side at their preferred widths. */
#define MAX_LINES (LAYOUT_MAX_ROWS * LAYOUT_MAX_CELLS)

struct line {
	int weight;             /* the layout row's */
	int origin;             /* index of the layout row */
	int n;
	struct cell_state cs[LAYOUT_MAX_CELLS];
};

static int line_pref(const struct line *ln)
{
	int need = -1;
	for (int k = 0; k < ln->n; k++)
		need += ln->cs[k].pref_w + 1;
	return need;
}

/* Move the least important panes of a row that is too narrow for its
 * panes' preferred widths to a line of their own under it, so 120x40 shows
 * the CPI stacks and events above the FMT instead of three cut panes. The
 * height check later drops what still does not fit. */
static int wrap_lines(struct line *lines, int nl, int w)
{
	for (int i = 0; i < nl; i++) {
		while (lines[i].n > 1 && line_pref(&lines[i]) > w && nl < MAX_LINES) {
			if (i + 1 >= nl || lines[i + 1].weight != -lines[i].weight) {
				memmove(&lines[i + 2], &lines[i + 1], (size_t)(nl - i - 1) * sizeof *lines);
				nl++;
				memset(&lines[i + 1], 0, sizeof *lines);
				lines[i + 1].origin = lines[i].origin;
				lines[i + 1].weight = -lines[i].weight;   /* marks a continuation while wrapping */
			}
			int worst = 0;
			for (int k = 1; k < lines[i].n; k++)
				if (lines[i].cs[k].c->prio > lines[i].cs[worst].c->prio)
					worst = k;
			struct line *nx = &lines[i + 1];
			/* keep the row's left-to-right order in the continuation */
			int at = 0;
			while (at < nx->n && nx->cs[at].c < lines[i].cs[worst].c)
				at++;
			memmove(&nx->cs[at + 1], &nx->cs[at], (size_t)(nx->n - at) * sizeof nx->cs[0]);
			nx->cs[at] = lines[i].cs[worst];
			nx->n++;
			memmove(&lines[i].cs[worst], &lines[i].cs[worst + 1],
				(size_t)(lines[i].n - worst - 1) * sizeof lines[i].cs[0]);
			lines[i].n--;
		}
		if (i + 1 < nl && lines[i + 1].weight < 0)
			lines[i + 1].weight = -lines[i + 1].weight;
	}
	return nl;
}

static int line_min(const struct line *ln)
{
	int need = -1;
	for (int k = 0; k < ln->n; k++)
		if (ln->cs[k].active)
			need += ln->cs[k].min_w + 1;
	return need;
}

/* When the screen is too short for the wrapped lines, put a continuation's
 * panes back beside the line above at their minimum widths, if they fit,
 * before dropping any pane. 1 if a line was merged. */
static int unwrap_one(struct line *lines, int nl, int w)
{
	for (int r = nl - 1; r > 0; r--) {
		struct line *a = &lines[r - 1], *b = &lines[r];
		if (b->origin != a->origin || line_min(b) < 0)
			continue;
		int need = line_min(a) < 0 ? line_min(b) : line_min(a) + 1 + line_min(b);
		if (need > w)
			continue;
		for (int k = 0; k < b->n; k++) {
			if (!b->cs[k].active)
				continue;
			int at = 0;
			while (at < a->n && a->cs[at].c < b->cs[k].c)
				at++;
			memmove(&a->cs[at + 1], &a->cs[at], (size_t)(a->n - at) * sizeof a->cs[0]);
			a->cs[at] = b->cs[k];
			a->n++;
			b->cs[k].active = 0;
		}
		return 1;
	}
	return 0;
}

int layout_place(const struct layout *l, int w, int h, int console_rows, struct layout_box *boxes)
{
	struct line lines[MAX_LINES];
	int nrows = 0;
	memset(lines, 0, sizeof lines);
	for (int r = 0; r < LAYOUT_MAX_ROWS && l->rows[r].weight; r++, nrows++) {
		lines[nrows].weight = l->rows[r].weight;
		lines[nrows].origin = r;
		for (int k = 0; k < LAYOUT_MAX_CELLS && l->rows[r].cells[k].pane; k++) {
			const struct pane_class *pc = pane_class_find(l->rows[r].cells[k].pane);
			if (!pc)
				continue;
			struct cell_state *s = &lines[nrows].cs[lines[nrows].n++];
			s->c = &l->rows[r].cells[k];
			s->min_w = pc->min_w;
			s->min_h = pc->min_h + 1;
			/* a console of a chosen height: other panes give way to it */
			if (console_rows > 0 && !strcmp(pc->name, "console"))
				s->min_h = console_rows + 1 < h ? console_rows + 1 : h;
			s->pref_w = pc->pref_w > pc->min_w ? pc->pref_w : pc->min_w;
			s->active = 1;
		}
	}
	nrows = wrap_lines(lines, nrows, w);

	int row_h[MAX_LINES];
	for (;;) {
		/* Drop from a row that is too wide, else from the whole layout if
		 * too tall: always the least important active cell. */
		int total = 0, drop_r = -1, drop_k = -1, worst = -1;
		for (int r = 0; r < nrows; r++) {
			int need_w = -1, mh = 0;
			for (int k = 0; k < lines[r].n; k++)
				if (lines[r].cs[k].active) {
					need_w += lines[r].cs[k].min_w + 1;
					if (lines[r].cs[k].min_h > mh)
						mh = lines[r].cs[k].min_h;
				}
			row_h[r] = mh;
			total += mh;
			if (need_w > w)
				for (int k = 0; k < lines[r].n; k++)
					if (lines[r].cs[k].active && lines[r].cs[k].c->prio > worst)
						worst = lines[r].cs[k].c->prio, drop_r = r, drop_k = k;
		}
		if (drop_r < 0 && total > h && unwrap_one(lines, nrows, w))
			continue;
		/* too tall: the least important pane whose going can make the
		 * screen shorter (not one beside a taller pane) */
		if (drop_r < 0 && total > h)
			for (int r = 0; r < nrows; r++)
				for (int k = 0; k < lines[r].n; k++) {
					const struct cell_state *c = &lines[r].cs[k];
					int others = 0, wrapped = 0;
					for (int q = 0; q < nrows; q++)   /* its going may let a wrap undo */
						if (q != r && lines[q].origin == lines[r].origin && line_min(&lines[q]) >= 0)
							wrapped = 1;
					for (int j = 0; j < lines[r].n; j++)
						if (j != k && lines[r].cs[j].active && lines[r].cs[j].min_h > others)
							others = lines[r].cs[j].min_h;
					if (c->active && (c->min_h >= others || wrapped) && c->c->prio > worst)
						worst = c->c->prio, drop_r = r, drop_k = k;
				}
		if (drop_r < 0 && total > h)   /* every row's height is shared: any */
			for (int r = 0; r < nrows; r++)
				for (int k = 0; k < lines[r].n; k++)
					if (lines[r].cs[k].active && lines[r].cs[k].c->prio > worst)
						worst = lines[r].cs[k].c->prio, drop_r = r, drop_k = k;
		if (drop_r < 0)
			break;
		lines[drop_r].cs[drop_k].active = 0;
	}

	/* A console of a chosen height (`set console-lines`, F4) takes its rows
	 * first, as far as the other panes' minimum heights leave room. */
	int used = 0, wsum = 0, fixed = -1;
	for (int r = 0; r < nrows; r++)
		used += row_h[r];
	if (console_rows > 0)
		for (int r = 0; r < nrows && fixed < 0; r++)
			for (int k = 0; k < lines[r].n; k++)
				if (row_h[r] && lines[r].cs[k].active && !strcmp(lines[r].cs[k].c->pane, "console"))
					fixed = r;
	/* Share the spare height by row weight. */
	for (int r = 0; r < nrows; r++)
		if (row_h[r] && r != fixed)
			wsum += lines[r].weight;
	int spare = h - used, given = 0, last = -1;
	for (int r = 0; r < nrows; r++)
		if (row_h[r] && wsum && r != fixed) {
			int add = spare * lines[r].weight / wsum;
			row_h[r] += add;
			given += add;
			last = r;
		}
	if (last >= 0)
		row_h[last] += spare - given;
	else if (fixed >= 0)
		row_h[fixed] += spare;   /* the console alone */

	int n = 0, y = 0;
	for (int r = 0; r < nrows; r++) {
		if (!row_h[r])
			continue;
		const struct cell_state *cs = lines[r].cs;
		int act = 0, ww = 0, minsum = 0, prefsum = 0;
		for (int k = 0; k < lines[r].n; k++)
			if (cs[k].active) {
				act++;
				ww += cs[k].c->weight;
				minsum += cs[k].min_w;
				prefsum += cs[k].pref_w;
			}
		/* Each pane its preferred width when they all have it, else its
		 * minimum; the rest by weight. */
		int avail = w - (act - 1), use_pref = prefsum <= avail;
		int extra = avail - (use_pref ? prefsum : minsum), x = 0, seen = 0, gave = 0;
		for (int k = 0; k < lines[r].n; k++) {
			if (!cs[k].active)
				continue;
			int add = ww ? extra * cs[k].c->weight / ww : 0;
			gave += add;
			if (++seen == act)
				add += extra - gave;
			int cw = (use_pref ? cs[k].pref_w : cs[k].min_w) + add;
			boxes[n++] = (struct layout_box){ cs[k].c->pane, x, y, cw, row_h[r] };
			x += cw + 1;
		}
		y += row_h[r];
	}
	return n;
}
