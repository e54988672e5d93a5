/*
 * inst_display.h — gdb's `display EXPR`: expressions printed after every
 * stop, numbered, until `undisplay`. They are the user's settings (like
 * breakpoints): they survive `run`, `restart` and reverse motion.
 */
#ifndef IVX_INST_DISPLAY_H
#define IVX_INST_DISPLAY_H

struct explorer;

/* Add a display of `text` (an expression, parsed now; `fmt` 0 or a
 * print/FMT letter) and print it once. 0, or -1 with explorer_error. */
int xdisplay_add(struct explorer *x, const char *text, char fmt);
/* Delete display `num`, or all with num < 0. 0, or -1 with explorer_error. */
int xdisplay_delete(struct explorer *x, int num);
/* Print every display ("1: insns * 1.0 / cycle = 1.796"): after each stop. */
void xdisplay_show(struct explorer *x);
/* How many there are. */
int xdisplay_count(const struct explorer *x);

#endif
