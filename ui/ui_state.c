/*
 * ui_state.c — panes, layout, focus, zoom, console and composition (see
 * ui_state.h). Nothing here touches the terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "explorer/explorer.h"
#include "layout.h"
#include "textbuf.h"
#include "ui_state.h"

/* ---- the pane class table (filled by PANE_REGISTER) ---------------------- */

extern const struct pane_class *const __start_ivx_panes[];
extern const struct pane_class *const __stop_ivx_panes[];

int pane_class_count(void)
{
	return (int)(__stop_ivx_panes - __start_ivx_panes);
}

const struct pane_class *pane_class_at(int i)
{
	return i >= 0 && i < pane_class_count() ? __start_ivx_panes[i] : NULL;
}

const struct pane_class *pane_class_find(const char *name)
{
	for (int i = 0; i < pane_class_count(); i++)
		if (!strcmp(__start_ivx_panes[i]->name, name))
			return __start_ivx_panes[i];
	return NULL;
}

/* ---- state -------------------------------------------------------------- */

#define CONSOLE_LINES 1000

struct con_line {
	char *text;
	int attr;
};

struct ui_state {
	struct pane *panes;
	int n_panes;
	struct layout single;      /* when the layout is a pane name */
	const struct layout *layout;
	int focus;                 /* pane index */
	int zoom;
	int dirty;
	struct con_line con[CONSOLE_LINES];
	int con_n, con_head;       /* count, index of the next slot */
	unsigned long con_total;   /* lines ever added (the pager counts a command's output) */
	int con_open;              /* the newest line has no newline yet: append to it */
	char guest_line[1024];     /* the guest's unfinished output line */
	size_t guest_len;
	int console_tall;          /* F4: the console takes half the screen */
	int x_console_lines;       /* the session's `set console-lines`, as of the last composition */
	int page_lines;            /* a command's output, in lines, to show from its top
	                            * at the next composition (0: none) */
};

struct ui_state *ui_state_new(void)
{
	struct ui_state *u = calloc(1, sizeof *u);
	if (!u)
		return NULL;
	u->n_panes = pane_class_count();
	u->panes = calloc((size_t)u->n_panes + 1, sizeof *u->panes);
	if (!u->panes) {
		free(u);
		return NULL;
	}
	for (int i = 0; i < u->n_panes; i++) {
		u->panes[i].cls = pane_class_at(i);
		if (u->panes[i].cls->priv_size &&
		    !(u->panes[i].priv = calloc(1, u->panes[i].cls->priv_size))) {
			ui_state_free(u);
			return NULL;
		}
	}
	u->layout = layout_at(0);
	ui_set_focus(u, "rob");
	u->dirty = 1;
	return u;
}

void ui_state_free(struct ui_state *u)
{
	if (!u)
		return;
	for (int i = 0; i < u->n_panes; i++)
		free(u->panes[i].priv);
	for (int i = 0; i < CONSOLE_LINES; i++)
		free(u->con[i].text);
	free(u->panes);
	free(u);
}

void ui_state_dirty(struct ui_state *u)
{
	u->dirty = 1;
}

static void state_changed(void *ctx)
{
	ui_state_dirty(ctx);
}

int ui_state_attach(struct explorer *x)
{
	x->ui = ui_state_new();
	if (!x->ui)
		return -1;
	x->changed = state_changed;
	x->changed_ctx = x->ui;
	return 0;
}

void ui_state_detach(struct explorer *x)
{
	if (!x)
		return;
	ui_state_free(x->ui);
	x->ui = NULL;
	x->changed = NULL;
	x->changed_ctx = NULL;
}

/* Whether pane p reads the run: after a restart that failed there is none
 * (x->core is NULL), and only the console has something to show. */
static int shows_run(const struct explorer *x, const struct pane *p)
{
	return x->core || !strcmp(p->cls->name, "console");
}

void ui_state_update(struct ui_state *u, struct explorer *x)
{
	if (!u->dirty)
		return;
	for (int i = 0; i < u->n_panes; i++)
		if (u->panes[i].cls->update && shows_run(x, &u->panes[i]))
			u->panes[i].cls->update(&u->panes[i], x);
	u->dirty = 0;
}

struct pane *ui_pane_find(struct ui_state *u, const char *name)
{
	for (int i = 0; i < u->n_panes; i++)
		if (!strcmp(u->panes[i].cls->name, name))
			return &u->panes[i];
	return NULL;
}

struct pane *ui_pane_find_view(struct ui_state *u, const char *name, int *view)
{
	static const struct { const char *name, *pane; int view; } alts[] = {
		{ "sfmt", "fmt", 1 }, { "charges", "events", 1 },
		{ "code-misses", "code", 1 }, { "code-stalls", "code", 2 },
	};
	*view = 0;
	for (size_t i = 0; i < sizeof alts / sizeof alts[0]; i++)
		if (!strcmp(name, alts[i].name)) {
			*view = alts[i].view;
			return ui_pane_find(u, alts[i].pane);
		}
	return ui_pane_find(u, name);
}

int ui_set_layout(struct ui_state *u, const char *name)
{
	const struct layout *l = layout_find(name);
	if (!l) {
		struct pane *p = ui_pane_find(u, name);
		if (!p)
			return -1;
		layout_single(&u->single, p->cls->name);
		l = &u->single;
		u->focus = (int)(p - u->panes);
	} else {
		/* The focus follows to the layout's main pane (its most important
		 * one after the console), so PgUp and F2 go to a pane on screen:
		 * `layout timeline` then PgUp scrolls the timeline. */
		const struct layout_cell *main = NULL;
		for (int r = 0; r < LAYOUT_MAX_ROWS && l->rows[r].weight; r++)
			for (int k = 0; k < LAYOUT_MAX_CELLS && l->rows[r].cells[k].pane; k++) {
				const struct layout_cell *c = &l->rows[r].cells[k];
				if (c->prio > 0 && (!main || c->prio < main->prio))
					main = c;
			}
		if (main)
			ui_set_focus(u, main->pane);
	}
	u->layout = l;
	u->zoom = 0;
	return 0;
}

const char *ui_layout_name(const struct ui_state *u)
{
	return u->layout->name;
}

int ui_set_focus(struct ui_state *u, const char *name)
{
	struct pane *p = ui_pane_find(u, name);
	if (!p)
		return -1;
	u->focus = (int)(p - u->panes);
	return 0;
}

struct pane *ui_focused(struct ui_state *u)
{
	return u->n_panes ? &u->panes[u->focus] : NULL;
}

void ui_toggle_zoom(struct ui_state *u)
{
	u->zoom = !u->zoom;
}

int ui_zoomed(const struct ui_state *u)
{
	return u->zoom;
}

/* The layout in force: the zoomed pane alone, or the chosen layout. */
static const struct layout *current(struct ui_state *u, struct layout *tmp)
{
	if (u->zoom && u->n_panes) {
		layout_single(tmp, u->panes[u->focus].cls->name);
		return tmp;
	}
	return u->layout;
}

/* The console's rows: the setting, or half the screen after F4, or 0 for
 * the layout's share. */
static int console_rows(struct ui_state *u, int h)
{
	if (u->x_console_lines > 0)
		return u->x_console_lines;
	return u->console_tall ? h / 2 : 0;
}

int ui_pane_visible(struct ui_state *u, struct pane *p, int w, int h)
{
	struct layout tmp;
	struct layout_box boxes[LAYOUT_MAX_BOXES];
	int n = layout_place(current(u, &tmp), w, h, console_rows(u, h), boxes);
	for (int i = 0; i < n; i++)
		if (!strcmp(boxes[i].pane, p->cls->name))
			return 1;
	return 0;
}

int ui_pane_columns(struct ui_state *u, struct pane *p, int w, int h)
{
	struct layout tmp;
	struct layout_box boxes[LAYOUT_MAX_BOXES];
	int n = layout_place(current(u, &tmp), w, h, console_rows(u, h), boxes);
	for (int i = 0; i < n; i++)
		if (!strcmp(boxes[i].pane, p->cls->name))
			return boxes[i].w;
	return 0;
}

void ui_focus_next(struct ui_state *u, int w, int h)
{
	for (int k = 1; k <= u->n_panes; k++) {
		int i = (u->focus + k) % u->n_panes;
		if (ui_pane_visible(u, &u->panes[i], w, h)) {
			u->focus = i;
			return;
		}
	}
}

/* ---- console ------------------------------------------------------------ */

static void con_push(struct ui_state *u, int attr, const char *s, size_t n)
{
	struct con_line *l = &u->con[u->con_head];
	free(l->text);
	l->text = strndup(s, n);
	l->attr = attr;
	u->con_head = (u->con_head + 1) % CONSOLE_LINES;
	u->con_total++;
	if (u->con_n < CONSOLE_LINES)
		u->con_n++;
}

/* Append to the open newest line. */
static void con_append(struct ui_state *u, const char *s, size_t n)
{
	struct con_line *l = &u->con[(u->con_head - 1 + CONSOLE_LINES) % CONSOLE_LINES];
	size_t old = l->text ? strlen(l->text) : 0;
	char *t = realloc(l->text, old + n + 1);
	if (!t)
		return;
	memcpy(t + old, s, n);
	t[old + n] = 0;
	l->text = t;
}

void ui_console_add(struct ui_state *u, int attr, const char *text)
{
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (u->con_open && u->con_n)
			con_append(u, p, n);
		else
			con_push(u, attr, p, n);
		u->con_open = !nl;
		if (!nl)
			break;
		p = nl + 1;
	}
}

void ui_console_addln(struct ui_state *u, int attr, const char *text)
{
	u->con_open = 0;
	ui_console_add(u, attr, text);
	u->con_open = 0;
}

void ui_console_echo_guest(void *ui, int fd, const void *buf, size_t len)
{
	struct ui_state *u = ui;
	const char *p = buf;
	for (size_t i = 0; i < len; i++) {
		if (p[i] == '\n' || u->guest_len + 1 >= sizeof u->guest_line) {
			u->guest_line[u->guest_len] = 0;
			ui_console_addln(u, TB_GOOD, u->guest_line[0] ? u->guest_line : " ");
			u->guest_len = 0;
			if (p[i] == '\n')
				continue;
		}
		u->guest_line[u->guest_len++] = p[i];
	}
}

void ui_console_echo(void *ui, int kind, const char *text)
{
	int attr = kind == XOUT_ERROR ? TB_MISS : kind == XOUT_STOP ? TB_BOLD : TB_NORMAL;
	if (kind == XOUT_STOP && text[0] == '\n')
		text++;
	ui_console_add(ui, attr, text);
}

void ui_console_show_newest(struct ui_state *u)
{
	struct pane *p = ui_pane_find(u, "console");
	if (p)
		p->scroll = 0;
}

unsigned long ui_console_total(const struct ui_state *u)
{
	return u->con_total;
}

int ui_console_count(const struct ui_state *u)
{
	return u->con_n;
}

const char *ui_console_line(const struct ui_state *u, int i, int *attr)
{
	if (i < 0 || i >= u->con_n)
		return NULL;
	const struct con_line *l = &u->con[(u->con_head - 1 - i + 2 * CONSOLE_LINES) % CONSOLE_LINES];
	if (attr)
		*attr = l->attr;
	return l->text ? l->text : "";
}

void ui_console_page(struct ui_state *u, int lines)
{
	u->page_lines = lines;
}

void ui_toggle_console_tall(struct ui_state *u)
{
	u->console_tall = !u->console_tall;
}

/* Rows line i (back from the newest) takes in a console w wide. */
static int wrapped_rows(const struct ui_state *u, int i, int w)
{
	const char *s = ui_console_line(u, i, NULL);
	int n = 0;
	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n ? (n + w - 1) / w : 1;
}

/* The pager: when a command's output (page_lines lines, its echo
 * included) does not fit the console's rows, scroll back so that it shows
 * from its first line; Shift-PgDn (or PgDn on the focused console) then
 * reads on, and the title says there is more. */
static void page_console(struct ui_state *u, struct pane *p, int w, int rows)
{
	int lines = u->page_lines < u->con_n ? u->page_lines : u->con_n, need = 0;
	u->page_lines = 0;
	if (w < 1 || rows < 1)
		return;
	for (int i = 0; i < lines; i++)
		need += wrapped_rows(u, i, w);
	if (need <= rows)
		return;
	/* newest line shown at the bottom: the first `scroll` lines are below */
	int scroll = 0, below = need;
	while (scroll < lines - 1 && below > rows)
		below -= wrapped_rows(u, scroll++, w);
	p->scroll = scroll;
}

/* ---- composition -------------------------------------------------------- */

static void draw_title(struct explorer *x, struct pane *p, struct textbuf *tb, int y, int w, int focused)
{
	int attr = focused ? TB_TITLE_FOCUS : TB_TITLE;
	tb_fill(tb, 0, y, w, tb_glyph(tb, G_HLINE), attr);
	char st[96] = "";
	if (p->cls->status && shows_run(x, p))
		p->cls->status(p, x, st, sizeof st);
	char t[160];
	snprintf(t, sizeof t, " %s%s%s%s ", p->cls->title, st[0] ? " " : "", st,
		 p->scroll ? " [scrolled]" : "");
	tb_putsn(tb, 1, y, attr, t, w - 2);
}

static void render_body(struct pane *p, struct explorer *x, struct textbuf *body)
{
	if (shows_run(x, p))
		p->cls->render(p, x, body);
	else
		tb_puts(body, 0, 0, TB_WARN, "no run: the last restart failed (see the console)");
}

void ui_render_pane(struct ui_state *u, struct explorer *x, struct pane *p, struct textbuf *tb,
		    int w, int rows)
{
	tb_resize(tb, w, rows + 1);
	struct textbuf *body = tb_new(w, rows, tb->ascii);
	if (!body)
		return;
	render_body(p, x, body);
	tb_blit(tb, 0, 1, body);
	tb_free(body);
	draw_title(x, p, tb, 0, w, 0);   /* after the body: rendering may clamp its scroll */
}

void ui_compose(struct ui_state *u, struct explorer *x, struct textbuf *tb)
{
	struct layout tmp;
	struct layout_box boxes[LAYOUT_MAX_BOXES];
	tb_clear(tb);
	ui_state_update(u, x);
	u->x_console_lines = x->set.console_lines;
	int n = layout_place(current(u, &tmp), tb->w, tb->h, console_rows(u, tb->h), boxes);
	/* A screen too small for the focused pane: the focus moves to the
	 * first pane shown (the layout's top left), never to one off screen. */
	int seen = 0;
	for (int i = 0; i < n; i++)
		seen |= u->n_panes && !strcmp(boxes[i].pane, u->panes[u->focus].cls->name);
	if (!seen && n)
		ui_set_focus(u, boxes[0].pane);
	struct textbuf *body = tb_new(1, 1, tb->ascii);
	if (!body)
		return;
	for (int i = 0; i < n; i++) {
		const struct layout_box *b = &boxes[i];
		struct pane *p = ui_pane_find(u, b->pane);
		if (!p)
			continue;
		if (b->x > 0)   /* separator from the pane on the left */
			for (int r = 0; r < b->h; r++)
				tb_putc(tb, b->x - 1, b->y + r, r == 0 ? TB_TITLE : TB_DIM,
					tb_glyph(tb, r == 0 ? G_TEE_DOWN : G_VLINE));
		if (tb_resize(body, b->w, b->h - 1) < 0)
			continue;
		if (u->page_lines && !strcmp(p->cls->name, "console"))
			page_console(u, p, b->w, b->h - 1);
		render_body(p, x, body);
		tb_blit(tb, b->x, b->y + 1, body);
		/* (the title after the body: rendering may clamp its scroll) */
		struct textbuf sub = { .w = b->w, .h = 1, .ascii = tb->ascii };
		struct tb_cell row[b->w > 0 ? b->w : 1];
		sub.cells = row;
		tb_clear(&sub);
		draw_title(x, p, &sub, 0, b->w, p == ui_focused(u));
		tb_blit(tb, b->x, b->y, &sub);
	}
	tb_free(body);
}

static char *to_text(const struct textbuf *tb, int trim)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	tb_print(tb, f, trim);
	fclose(f);
	return text;
}

char *ui_pane_text(struct ui_state *u, struct explorer *x, struct pane *p, int w, int rows, int ascii)
{
	struct textbuf *tb = tb_new(w, rows + 1, ascii);
	if (!tb)
		return NULL;
	ui_state_update(u, x);
	ui_render_pane(u, x, p, tb, w, rows);
	char *text = to_text(tb, 1);
	tb_free(tb);
	return text;
}

char *ui_screen_text(struct ui_state *u, struct explorer *x, int w, int h, int ascii)
{
	struct textbuf *tb = tb_new(w, h, ascii);
	if (!tb)
		return NULL;
	ui_compose(u, x, tb);
	char *text = to_text(tb, 0);
	tb_free(tb);
	return text;
}
