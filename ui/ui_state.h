/*
 * ui_state.h — the curses-free half of the explorer's screen: the pane
 * instances, the current layout, focus and zoom, the console (command
 * output), and composing all of it into one text buffer.
 *
 * screen.c copies the composed buffer to the terminal; `show NAME` and
 * `show screen` print the same buffers in batch mode.
 */
#ifndef IVX_UI_STATE_H
#define IVX_UI_STATE_H

#include <stddef.h>
#include "pane.h"

struct explorer;
struct textbuf;
struct ui_state;

struct ui_state *ui_state_new(void);
void ui_state_free(struct ui_state *u);

/* Give session x a new UI state (x->ui) that follows its state changes
 * (x->changed), and take it away again. The front end owns it; the
 * session never looks inside. 0, or -1 when out of memory. */
int ui_state_attach(struct explorer *x);
void ui_state_detach(struct explorer *x);

/* The engine state changed: every pane needs update() before drawing. */
void ui_state_dirty(struct ui_state *u);
/* Call update() on the panes if dirty. */
void ui_state_update(struct ui_state *u, struct explorer *x);

struct pane *ui_pane_find(struct ui_state *u, const char *name);
/* A pane by name or by the name of one of its views (F2): `sfmt` is the
 * fmt pane's view 1, `charges` the events pane's, `code-misses` and
 * `code-stalls` the code pane's 1 and 2; *view is that view, 0 for a
 * pane named as such (its first view, whatever F2 shows). NULL if none. */
struct pane *ui_pane_find_view(struct ui_state *u, const char *name, int *view);

/* Layout: by name (a named layout or a pane name, which shows that pane
 * alone). 0, or -1 if unknown. */
int ui_set_layout(struct ui_state *u, const char *name);
const char *ui_layout_name(const struct ui_state *u);
/* Focus: the pane that scroll keys and pane keys go to. */
int ui_set_focus(struct ui_state *u, const char *name);   /* 0 or -1 */
struct pane *ui_focused(struct ui_state *u);
void ui_focus_next(struct ui_state *u, int w, int h);     /* among the visible panes */
void ui_toggle_zoom(struct ui_state *u);
int ui_zoomed(const struct ui_state *u);

/* Console: output shown in the console pane; attr is an enum tb_attr.
 * Text may hold several lines; text not ending in a newline is continued
 * by the next call. */
void ui_console_add(struct ui_state *u, int attr, const char *text);
/* One whole line of its own (no newline needed). */
void ui_console_addln(struct ui_state *u, int attr, const char *text);
/* What the explorer prints (an xout_fn, ctx the ui_state): a stop
 * report's separating blank line is left out, as the console has its own
 * layout. */
void ui_console_echo(void *ui, int kind, const char *text);
/* The guest's output bytes: each whole line a line of its own; a line
 * without its newline yet waits for the next call. */
void ui_console_echo_guest(void *ui, int fd, const void *buf, size_t len);
/* Scroll the console back to its newest line. */
void ui_console_show_newest(struct ui_state *u);
/* The newest `n_lines` lines are one command's output: if they do not fit
 * the console, the next composition shows them from the top (a pager). */
void ui_console_page(struct ui_state *u, int n_lines);
/* F4: the console takes half the screen, and back (unless `set
 * console-lines` chose its height). */
void ui_toggle_console_tall(struct ui_state *u);
int ui_console_count(const struct ui_state *u);
unsigned long ui_console_total(const struct ui_state *u);   /* lines ever added */
/* Line i back from the newest (0 = newest); its attribute in *attr. */
const char *ui_console_line(const struct ui_state *u, int i, int *attr);

/* Compose the whole screen (all visible panes with title bars and
 * separators) into tb, whose size is the screen's. */
void ui_compose(struct ui_state *u, struct explorer *x, struct textbuf *tb);
/* Render one pane with its title bar into tb (resized to w x (1 + rows)). */
void ui_render_pane(struct ui_state *u, struct explorer *x, struct pane *p, struct textbuf *tb,
		    int w, int rows);
/* ui_render_pane printed to text (allocated; NULL when out of memory). */
char *ui_pane_text(struct ui_state *u, struct explorer *x, struct pane *p, int w, int rows, int ascii);
/* ui_compose of a w x h screen printed to text (allocated). */
char *ui_screen_text(struct ui_state *u, struct explorer *x, int w, int h, int ascii);
/* Is pane p visible in the current layout at this screen size? */
int ui_pane_visible(struct ui_state *u, struct pane *p, int w, int h);
/* Its width in columns there, 0 when it is not visible. */
int ui_pane_columns(struct ui_state *u, struct pane *p, int w, int h);

#endif
