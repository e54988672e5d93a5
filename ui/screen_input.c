/*
 * screen_input.c — keys, line editing and the command loop.
 *
 * libedit is used purely as a line-editing engine (see
 * /work/shared/notes/libedit-in-ncurses.md for why): it gets a private
 * pseudo-terminal that nothing else uses, so its terminal mode switches
 * and its own redraws land there and on /dev/null, while ncurses keeps the
 * real terminal. Keys reach libedit through our reader (EL_GETCFN), which
 * is also where the screen is redrawn and where ncurses key codes are
 * translated into the control keys libedit's emacs map knows. libedit
 * runs unbuffered: el_wgets returns after every key and a line is complete
 * when it ends in '\n'.
 *
 * Keys the explorer keeps for itself: PgUp/PgDn scroll the focused pane
 * (back in time; in a pane with scroll_down, down its list),
 * F2 its alternate view, F6 / Ctrl-X o the next pane, Ctrl-X z zoom,
 * Ctrl-X KEY goes to the focused pane, Ctrl-L redraws, Ctrl-C clears the
 * line (and interrupts a running command), Ctrl-Z suspends, Ctrl-D on an
 * empty line quits.
 */
#define _XOPEN_SOURCE 600
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "explorer/explorer.h"
#include "explorer/explorer_break.h"
#include "pane.h"
#include "screen_internal.h"
#include "textbuf.h"
#include "ui_state.h"
#include "xcmd/xcmd.h"

#define HISTORY_SIZE 1000

/* ---- the key queue ------------------------------------------------------ */

static void push_key(struct screen *s, wint_t k)
{
	if (s->q_len < SCREEN_QUEUE)
		s->queue[(s->q_head + s->q_len++) % SCREEN_QUEUE] = k;
	else if (s->q_dropped++ == 0)
		beep();
}

static void push_str(struct screen *s, const char *str)
{
	while (*str)
		push_key(s, (unsigned char)*str++);
}

/* ---- pane keys ------------------------------------------------------------ */

static void scroll_focused(struct screen *s, int dir)
{
	struct pane *p = ui_focused(s->x->ui);
	if (!p)
		return;
	int unit = p->page > 0 ? p->page : p->cls->scroll_unit;
	if (unit <= 0)
		unit = s->x->screen_h / 3 > 1 ? s->x->screen_h / 3 : 1;
	if (!strcmp(p->cls->name, "timeline"))
		unit = COLS / 2;
	if (p->cls->scroll_down)   /* (PgDn: down the list) */
		dir = -dir;
	p->scroll += dir * unit;
	if (p->scroll < 0)
		p->scroll = 0;
	s->dirty = 1;
}

/* Shift-PgUp / Shift-PgDn: the console, whatever has the focus. */
static void scroll_console(struct screen *s, int dir)
{
	struct pane *p = ui_pane_find(s->x->ui, "console");
	if (!p)
		return;
	int unit = s->x->screen_h / 6 > 1 ? s->x->screen_h / 6 : 1;
	p->scroll += dir * unit;
	if (p->scroll < 0)
		p->scroll = 0;
	s->dirty = 1;
}

static void pane_key(struct screen *s, int key)
{
	struct pane *p = ui_focused(s->x->ui);
	if (p && p->cls->key && p->cls->key(p, s->x, key))
		s->dirty = 1;
	else
		beep();
}

static void suspend(struct screen *s)
{
	def_prog_mode();
	endwin();
	/* The whole process group, as the terminal's own ^Z would (under
	 * `make run`, make must stop too for the shell to take over). */
	kill(0, SIGTSTP);
	reset_prog_mode();
	s->clear_all = 1;
	s->dirty = 1;
}

/* Handle one key from ncurses: either queue what libedit should see, or
 * act on it here. */
static void translate(struct screen *s, int r, wint_t k)
{
	if (s->ctrl_x) {
		s->ctrl_x = 0;
		if (r == OK && (k == 'o' || k == 'O'))
			ui_focus_next(s->x->ui, s->x->screen_w, s->x->screen_h);
		else if (r == OK && (k == 'z' || k == 'Z' || k == '1'))
			ui_toggle_zoom(s->x->ui);
		else if (r == OK && k == 'v')
			pane_key(s, PANE_KEY_VIEW);
		else if (r == KEY_CODE_YES && (k == KEY_PPAGE || k == KEY_NPAGE))   /* the console */
			scroll_console(s, k == KEY_PPAGE ? 1 : -1);
		else if (r == OK)
			pane_key(s, (int)k);
		s->dirty = 1;
		return;
	}
	if (r == KEY_CODE_YES) {
		switch (k) {
		case KEY_RESIZE:
			screen_relayout(s);
			return;
		case KEY_UP: push_key(s, 0x10); return;          /* ^P */
		case KEY_DOWN: push_key(s, 0x0e); return;        /* ^N */
		case KEY_LEFT: push_key(s, 0x02); return;        /* ^B */
		case KEY_RIGHT: push_key(s, 0x06); return;       /* ^F */
		case KEY_HOME: push_key(s, 0x01); return;        /* ^A */
		case KEY_END: push_key(s, 0x05); return;         /* ^E */
		case KEY_BACKSPACE: push_key(s, 0x08); return;   /* ^H */
		case KEY_DC: push_str(s, "\033[3~"); return;
		case KEY_ENTER: push_key(s, '\n'); return;
		case KEY_PPAGE: scroll_focused(s, 1); return;
		case KEY_NPAGE: scroll_focused(s, -1); return;
		case KEY_SPREVIOUS: scroll_console(s, 1); return;
		case KEY_SNEXT: scroll_console(s, -1); return;
		case KEY_F(4): ui_toggle_console_tall(s->x->ui); s->dirty = 1; return;
		case KEY_F(2): pane_key(s, PANE_KEY_VIEW); return;
		case KEY_F(6): ui_focus_next(s->x->ui, s->x->screen_w, s->x->screen_h); s->dirty = 1; return;
		default: return;
		}
	}
	switch (k) {
	case '\r': push_key(s, '\n'); return;
	case 0x03: push_key(s, 0x15); return;                /* Ctrl-C: kill the line */
	case 0x0c: s->clear_all = s->dirty = 1; return;      /* Ctrl-L */
	case 0x18: s->ctrl_x = 1; return;                    /* Ctrl-X prefix */
	case 0x1a: suspend(s); return;                       /* Ctrl-Z */
	case 0x7f: push_key(s, 0x08); return;
	default: push_key(s, k); return;
	}
}

/* libedit's key reader: draw, then wait for a key. */
static int read_key(EditLine *el, wchar_t *wc)
{
	struct screen *s;
	el_get(el, EL_CLIENTDATA, &s);
	for (;;) {
		if (s->q_len) {
			*wc = (wchar_t)s->queue[s->q_head];
			s->q_head = (s->q_head + 1) % SCREEN_QUEUE;
			s->q_len--;
			const LineInfoW *li = el_wline(el);
			if (*wc >= 0x20 && *wc != 0x7f && li->lastchar - li->buffer >= XCMD_LINE_MAX) {
				beep();   /* the line is full: a character more is refused, not cut later */
				continue;
			}
			if (*wc == 0x04 && li->lastchar == li->buffer) {
				s->eof = 1;   /* typed ahead during a run: still Ctrl-D on an empty line */
				return 0;
			}
			return 1;
		}
		if (s->q_dropped) {
			explorer_printf(s->x, "%lu keys typed while a command ran were dropped (at most %d are kept)\n",
					s->q_dropped, SCREEN_QUEUE);
			s->q_dropped = 0;
		}
		if (screen_take_continued()) {
			reset_prog_mode();
			s->clear_all = s->dirty = 1;
		}
		screen_draw(s);
		wint_t k;
		int r = wget_wch(s->cmdwin, &k);
		if (r == ERR) {
			if (errno == EINTR)
				continue;
			s->eof = 1;   /* input gone */
			return 0;
		}
		if (r == OK && k == 0x04) {   /* Ctrl-D on an empty line quits, like gdb */
			const LineInfoW *li = el_wline(el);
			if (li->lastchar == li->buffer) {
				s->eof = 1;
				return 0;
			}
		}
		translate(s, r, k);
	}
}

/* During a run: a Ctrl-C ends it; other keys are kept for later. */
int screen_poll_interrupt(void *ctx)
{
	struct screen *s = ctx;
	int hit = 0;
	wint_t k;
	int r;
	nodelay(s->cmdwin, TRUE);
	while ((r = wget_wch(s->cmdwin, &k)) != ERR) {
		if (r == OK && k == 0x03) {
			hit = 1;
			break;
		}
		if (r == KEY_CODE_YES && k == KEY_RESIZE) {
			/* redrawn now, not at the stop: the old layout would stay
			 * garbled until then (a resize is rare: no cost to a run) */
			screen_relayout(s);
			screen_draw(s);
			continue;
		}
		translate(s, r, k);
	}
	nodelay(s->cmdwin, FALSE);
	return hit;
}

static void progress(void *ctx, struct explorer *x)
{
	struct screen *s = ctx;
	char msg[320], seen[160];
	/* with a conditional catchpoint, what it has tested so far: a condition
	 * that never holds shows as a count growing with no stop */
	xbreaks_run_summary(x->breaks, 1, seen, sizeof seen);
	snprintf(msg, sizeof msg, "running... cycle %llu, %llu committed%s%s  (Ctrl-C interrupts)",
		 (unsigned long long)explorer_cycle(x), (unsigned long long)explorer_committed(x),
		 seen[0] ? "; " : "", seen);
	screen_draw_status(s, msg);
}

/* ---- completion ------------------------------------------------------------ */

static unsigned char complete(EditLine *el, int ch)
{
	struct screen *s;
	el_get(el, EL_CLIENTDATA, &s);
	const LineInfo *li = el_line(el);
	size_t len = (size_t)(li->lastchar - li->buffer), cur = (size_t)(li->cursor - li->buffer);
	char *line = strndup(li->buffer, len);
	if (!line)
		return CC_ERROR;
	struct xcompletion c;
	xcmd_complete(s->x, line, cur, &c);
	free(line);
	if (c.n == 0) {
		xcmd_completion_free(&c);
		return CC_REFRESH_BEEP;
	}
	size_t typed = cur - c.word_start, common = strlen(c.cands[0]);
	for (int i = 1; i < c.n; i++) {
		size_t k = 0;
		while (k < common && c.cands[i][k] == c.cands[0][k])
			k++;
		common = k;
	}
	if (common > typed) {
		char *ins = strndup(c.cands[0] + typed, common - typed);
		if (ins) {
			el_insertstr(el, ins);
			free(ins);
		}
	}
	if (c.n == 1) {
		size_t l = strlen(c.cands[0]);
		if (c.word_start > 0 && li->buffer[c.word_start - 1] == '"')
			el_insertstr(el, "\" ");   /* close the string too */
		else if (l && c.cands[0][l - 1] != '/' && c.cands[0][l - 1] != '=')   /* (a directory, KEY=) */
			el_insertstr(el, " ");
	} else if (common <= typed) {
		/* Nothing more to insert: list the candidates in the console. */
		char buf[2048];
		size_t used = 0;
		int shown = 0;
		for (int i = 0; i < c.n && used + 64 < sizeof buf; i++, shown++)
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s  ", c.cands[i]);
		if (shown < c.n)
			snprintf(buf + used, sizeof buf - used, "(%d more)", c.n - shown);
		ui_console_addln(s->x->ui, TB_INFO, buf);
		s->dirty = 1;
	}
	xcmd_completion_free(&c);
	return CC_REFRESH;
}

/* ---- editor setup ----------------------------------------------------------- */

static void history_file(struct screen *s)
{
	const char *home = getenv("HOME");
	if (!home || !*home) {
		struct passwd *pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (home)
		snprintf(s->history_path, sizeof s->history_path, "%s/.ivx_history", home);
}

/* Append one line to the history file, in libedit's format (a cookie
 * line first, then one line each with white space and backslashes as
 * octal escapes, which its loader decodes). Appending instead of saving
 * the whole list keeps the lines of two explorers running at once: each
 * adds its own, neither overwrites the other's. */
static void history_append(struct screen *s, const char *line)
{
	FILE *f = fopen(s->history_path, "a");
	if (!f)
		return;
	if (ftell(f) == 0)
		fputs("_HiStOrY_V2_\n", f);
	char buf[4 * SCREEN_LINE_BYTES + 2];
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)line; *p && n + 5 < sizeof buf; p++) {
		if (*p <= ' ' || *p == '\\' || *p == 0x7f)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "\\%03o", *p);
		else
			buf[n++] = (char)*p;
	}
	buf[n++] = '\n';
	fwrite(buf, 1, n, f);   /* one write: appends of two sessions do not interleave */
	fclose(f);
}

/* The file only grows; when it holds many times the lines kept, rewrite it
 * with the newest (its own lines and any other session's). */
static void history_trim(struct screen *s)
{
	FILE *f = fopen(s->history_path, "r");
	if (!f)
		return;
	int lines = 0, c;
	while ((c = getc(f)) != EOF)
		lines += c == '\n';
	fclose(f);
	if (lines <= 4 * HISTORY_SIZE)
		return;
	HistEvent ev;
	History *h = history_init();
	if (!h)
		return;
	history(h, &ev, H_SETSIZE, HISTORY_SIZE);
	char tmp[sizeof s->history_path + 8];
	snprintf(tmp, sizeof tmp, "%s.%d", s->history_path, (int)getpid());
	if (history(h, &ev, H_LOAD, s->history_path) >= 0 && history(h, &ev, H_SAVE, tmp) >= 0)
		rename(tmp, s->history_path);
	else
		unlink(tmp);
	history_end(h);
}

int screen_editor_open(struct screen *s)
{
	s->pty_master = posix_openpt(O_RDWR | O_NOCTTY);
	if (s->pty_master < 0 || grantpt(s->pty_master) < 0 || unlockpt(s->pty_master) < 0)
		return -1;
	const char *name = ptsname(s->pty_master);
	if (!name || (s->pty_slave = open(name, O_RDWR | O_NOCTTY)) < 0)
		return -1;
	fcntl(s->pty_master, F_SETFD, FD_CLOEXEC);
	fcntl(s->pty_slave, F_SETFD, FD_CLOEXEC);
	s->devnull = fopen("/dev/null", "w");
	if (!s->devnull)
		return -1;
	/* A fixed size, not the screen's: libedit lays the line out for this
	 * terminal nobody sees, and with the real one (10x3, say) a long line
	 * ran past its display rows and crashed it (found by fuzzing). Lines
	 * are held to XCMD_LINE_MAX characters, which fit many times over. */
	struct winsize ws = { .ws_row = 64, .ws_col = 512 };
	ioctl(s->pty_slave, TIOCSWINSZ, &ws);
	s->el = el_init_fd("ivx", stdin, s->devnull, s->devnull, s->pty_slave, s->pty_slave, fileno(s->devnull));
	if (!s->el)
		return -1;
	s->hist = history_init();
	if (!s->hist)
		return -1;
	history(s->hist, &s->hev, H_SETSIZE, HISTORY_SIZE);
	history(s->hist, &s->hev, H_SETUNIQUE, 1);
	history_file(s);
	if (s->history_path[0])
		history(s->hist, &s->hev, H_LOAD, s->history_path);
	el_set(s->el, EL_CLIENTDATA, s);
	el_set(s->el, EL_EDITOR, "emacs");
	el_set(s->el, EL_SIGNAL, 0);
	el_set(s->el, EL_GETCFN, read_key);
	el_set(s->el, EL_HIST, history, s->hist);
	el_set(s->el, EL_ADDFN, "ivx-complete", "complete a command, event, symbol or key", complete);
	el_set(s->el, EL_BIND, "^I", "ivx-complete", NULL);
	el_set(s->el, EL_BIND, "\033[3~", "ed-delete-next-char", NULL);
	el_set(s->el, EL_UNBUFFERED, 1);
	return 0;
}

void screen_editor_close(struct screen *s)
{
	if (s->hist) {
		if (s->history_path[0])
			history_trim(s);
		history_end(s->hist);
		s->hist = NULL;
	}
	if (s->el) {
		el_end(s->el);
		s->el = NULL;
	}
	if (s->devnull) {
		fclose(s->devnull);
		s->devnull = NULL;
	}
	if (s->pty_slave >= 0)
		close(s->pty_slave);
	if (s->pty_master >= 0)
		close(s->pty_master);
	s->pty_slave = s->pty_master = -1;
}

/* ---- the loop ----------------------------------------------------------------- */

static void run_line(struct screen *s, const char *line)
{
	struct explorer *x = s->x;
	const struct xcmd *cmd = NULL;
	char echo[SCREEN_LINE_BYTES + 8];
	snprintf(echo, sizeof echo, "(ivx) %s", line);
	ui_console_addln(x->ui, TB_DIM, echo);
	ui_console_show_newest(x->ui);   /* a command's output is what one wants to see */
	s->running = 1;
	x->progress = progress;
	x->progress_ctx = s;
	screen_draw_status(s, "running...");
	unsigned long before = ui_console_total(x->ui);
	uint64_t at = explorer_cycle(x);
	if (xcmd_execute(x, line, &cmd) < 0)
		ui_console_addln(x->ui, TB_MISS, x->err);
	/* Long output of a command that did not move the run (help, info):
	 * show it from its top, with the echo. A run's output ends with
	 * where it stopped, which is what one wants to see. */
	unsigned long added = ui_console_total(x->ui) - before + 1;
	if (explorer_cycle(x) == at)
		ui_console_page(x->ui, added > 1000000 ? 1000000 : (int)added);
	x->progress = NULL;
	s->running = 0;
	/* (line may be repeat_line itself: no copy onto itself; one that does
	 * not fit is not repeated, rather than repeated cut short) */
	if (cmd && (cmd->flags & XCMD_REPEAT) && line != s->repeat_line) {
		if (strlen(line) < sizeof s->repeat_line)
			memcpy(s->repeat_line, line, strlen(line) + 1);
		else
			s->repeat_line[0] = 0;
	} else if (cmd && !(cmd->flags & XCMD_REPEAT)) {
		s->repeat_line[0] = 0;
	}
	s->dirty = 1;
}

void screen_loop(struct screen *s)
{
	struct explorer *x = s->x;
	char intro[256];
	snprintf(intro, sizeof intro, "ivx explorer: cycle 0. `step` a cycle, `continue`, `catch l2d`, "
		 "`help`; Tab completes; `quit` leaves.");
	ui_console_addln(x->ui, TB_BOLD, intro);
	while (!x->quit) {
		int count = 0;
		const wchar_t *wl = el_wgets(s->el, &count);
		/* Unbuffered, el_wgets also returns NULL whenever the line is
		 * empty (after ^U, say): only our own flag means end of input. */
		if (s->eof)
			break;
		if (!wl || count <= 0)
			continue;
		if (wl[count - 1] != L'\n')
			continue;    /* unbuffered: one key at a time */
		char line[SCREEN_LINE_BYTES];
		size_t n = 0;
		if (count - 1 > XCMD_LINE_MAX) {   /* (a completion can overshoot the limit) */
			char msg[64];
			snprintf(msg, sizeof msg, "line too long: at most %d characters", XCMD_LINE_MAX);
			el_reset(s->el);
			ui_console_addln(x->ui, TB_MISS, msg);
			s->dirty = 1;
			continue;
		}
		for (int i = 0; i < count - 1 && n + MB_LEN_MAX < sizeof line; i++) {
			char mb[MB_LEN_MAX];
			int k = wctomb(mb, wl[i]);
			if (k < 0) {
				mb[0] = '?';
				k = 1;
			}
			memcpy(line + n, mb, (size_t)k);
			n += (size_t)k;
		}
		line[n] = 0;
		el_reset(s->el);
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p) {
			if (s->repeat_line[0])
				run_line(s, s->repeat_line);
			continue;
		}
		history(s->hist, &s->hev, H_ENTER, line);
		if (s->history_path[0])
			history_append(s, line);
		run_line(s, line);
	}
}
