/*
 * screen.h — the full-screen explorer: ncurses owns the terminal, libedit
 * edits the command line, the interpreter (src/xcmd.c) runs the commands,
 * and the panes are drawn from ui_compose's text buffer.
 */
#ifndef IVX_SCREEN_H
#define IVX_SCREEN_H

struct explorer;

/* Run the explorer on the terminal until `quit`. Returns the process exit
 * status: 0; 2 when there is no terminal, or TERM names one curses
 * cannot draw on (no terminfo entry, no cursor addressing); 1 when it
 * cannot be set up. The terminal is restored on every way out, signals
 * and crashes included. */
int ui_run(struct explorer *x);

#endif
