/*
 * pane.h — the explorer's panes as a small class.
 *
 * A pane is a const struct of function pointers in its own file,
 * ui/pane_NAME.c, registered with PANE_REGISTER: the linker collects the
 * registrations into one table (section "ivx_panes"), so adding a pane is a
 * one-file change. `show NAME`, `focus NAME` and `layout NAME` find it by
 * name; named layouts (layout.c) place the usual ones.
 *
 * update() copies what the pane needs from the session (engine getters);
 * render() draws into a plain text buffer of the size it is given — never
 * curses — so batch mode prints exactly what the screen shows; key() gets
 * the keys sent to the focused pane (after Ctrl-X, and F2 as KEY_VIEW).
 */
#ifndef IVX_PANE_H
#define IVX_PANE_H

#include <stddef.h>

struct explorer;
struct textbuf;
struct pane;

/* Keys a pane may receive besides plain characters. */
enum { PANE_KEY_VIEW = 0x1000 };

struct pane_class {
	const char *name;      /* "rob" */
	const char *title;     /* "ROB" */
	const char *summary;   /* one line for `help layout` / `show` */
	int min_w, min_h;      /* smallest useful content size (without the title row) */
	int pref_w;            /* width that shows its columns uncut (0: min_w); a layout row
	                        * wider than its panes' pref_w wraps (layout.c) */
	int batch_h;           /* content rows for `show NAME` */
	int scroll_unit;       /* rows (or cycles) one PgUp/PgDn step scrolls, 0 = a page */
	int scroll_down;       /* a list read from its top, with no history (the instruments'
	                        * panes): PgDn moves down it, p->scroll rows; otherwise PgUp
	                        * goes back in time from the live view */
	size_t priv_size;      /* bytes of per-instance state */
	void (*update)(struct pane *p, struct explorer *x);                       /* may be NULL */
	void (*render)(struct pane *p, struct explorer *x, struct textbuf *tb);
	int (*key)(struct pane *p, struct explorer *x, int key);                  /* may be NULL */
	/* A short summary for the title bar ("37/128"), may be NULL. */
	void (*status)(struct pane *p, struct explorer *x, char *buf, size_t n);
};

struct pane {
	const struct pane_class *cls;
	void *priv;            /* priv_size zeroed bytes */
	int scroll;            /* how far back from the live view (>= 0) */
	int page;              /* rows one PgUp/PgDn moves, as the last render
				  showed them (0: the class's scroll_unit) */
	int view;              /* alternate view toggled by the pane's key */
};

#define PANE_REGISTER(cls) \
	static const struct pane_class *const cls##_registration \
	__attribute__((used, section("ivx_panes"), aligned(sizeof(void *)))) = &cls

/* For a pane whose content is a few rows that a short pane cuts (set
 * scroll_down): draw() renders it all into a buffer at least `rows` tall
 * and returns the rows it used; tb shows tb->h of them from p->scroll on,
 * which is clamped so that the last row goes no higher than the bottom. */
void pane_render_scrolled(struct pane *p, struct explorer *x, struct textbuf *tb, int rows,
			  int (*draw)(struct pane *p, struct explorer *x, struct textbuf *all));

int pane_class_count(void);
const struct pane_class *pane_class_at(int i);
const struct pane_class *pane_class_find(const char *name);

#endif
