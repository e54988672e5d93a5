/*
 * screen_internal.h — shared between screen.c (terminal, drawing, signals)
 * and screen_input.c (keys, libedit, the command loop). Not for panes.
 */
#ifndef IVX_SCREEN_INTERNAL_H
#define IVX_SCREEN_INTERNAL_H

#include <limits.h>
#include <histedit.h>
#include <ncurses.h>
#include <wchar.h>
#include "xcmd/xcmd.h"

struct explorer;
struct textbuf;
struct xcmd;

/* Keys typed (or pasted) while a command runs, kept for the prompt: room
 * for a pasted page of lab commands. Past it keys are dropped and counted. */
#define SCREEN_QUEUE 16384
/* The longest command line (XCMD_LINE_MAX characters) in bytes once
 * converted from wide characters: UTF-8 takes at most 4 a character. */
#define SCREEN_LINE_BYTES (XCMD_LINE_MAX * 4 + MB_LEN_MAX + 1)

struct screen {
	struct explorer *x;
	/* terminal */
	WINDOW *cmdwin;           /* the command line (bottom row) */
	struct textbuf *tb;       /* the composed panes (all rows but the last) */
	int color;                /* colour pairs in use */
	int ascii;                /* ASCII line drawing */
	int dirty;                /* panes need recomposing */
	int clear_all;            /* repaint the terminal from scratch */
	/* libedit */
	EditLine *el;
	History *hist;
	HistEvent hev;
	int pty_master, pty_slave;
	FILE *devnull;
	char history_path[PATH_MAX];
	/* input */
	wint_t queue[SCREEN_QUEUE];   /* keys for libedit, already translated */
	int q_head, q_len;
	unsigned long q_dropped;  /* keys the full queue refused, not yet said */
	int ctrl_x;               /* Ctrl-X prefix pending */
	int eof;
	char repeat_line[512];    /* last stepping command, for Enter on an empty line */
	/* output */
	int running;              /* a command is running: the prompt shows progress */
};

/* screen.c */
int screen_open(struct screen *s);
void screen_close(struct screen *s);
void screen_relayout(struct screen *s);
void screen_draw(struct screen *s);              /* panes if dirty, then the command line */
void screen_draw_status(struct screen *s, const char *text);
void screen_output(void *ctx, int kind, const char *text);
void screen_guest_output(void *ctx, int fd, const void *buf, size_t len);

/* screen_input.c */
int screen_editor_open(struct screen *s);
void screen_editor_close(struct screen *s);
/* screen.c: 1 once after a SIGCONT (the terminal mode must be restored) */
int screen_take_continued(void);
void screen_loop(struct screen *s);
int screen_poll_interrupt(void *ctx);

#endif
