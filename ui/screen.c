/*
 * screen.c — the terminal side of the explorer: curses setup and teardown,
 * colours (with a monochrome fallback and NO_COLOR), copying the composed
 * pane buffer to the terminal, the console output, and making sure the
 * terminal is restored however the program ends.
 *
 * Restoring the terminal. Normal paths call screen_close (endwin). For
 * SIGTERM, SIGHUP, SIGINT and SIGQUIT sent from outside (with raw() the
 * keyboard sends none) and for crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT), a handler restores the saved termios with tcsetattr and writes
 * the terminal's own "leave full-screen" strings — both async-signal-safe —
 * then re-raises the signal with its default action, so the exit status
 * still says what happened. The strings and termios are the only
 * file-scope state, because a signal handler has no other way to reach
 * them.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>
#include "explorer/explorer.h"
#include "palette.h"
#include "screen.h"
#include "screen_internal.h"
#include "textbuf.h"
#include "ui_state.h"

/* ---- restoring the terminal from a signal handler ----------------------- */

static struct termios saved_tio;
static int saved_tio_ok;
static char leave_seq[256];      /* rmcup, cnorm, sgr0, rmkx */
static size_t leave_len;
static volatile sig_atomic_t curses_active;
static SCREEN *term_screen;      /* newterm's, for delscreen */

static void add_cap(const char *name)
{
	char *s = tigetstr((char *)name);
	if (s && s != (char *)-1) {
		size_t n = strlen(s);
		if (leave_len + n < sizeof leave_seq) {
			memcpy(leave_seq + leave_len, s, n);
			leave_len += n;
		}
	}
}

static void restore_from_signal(int sig)
{
	if (curses_active) {
		if (leave_len)
			(void)!write(STDOUT_FILENO, leave_seq, leave_len);
		(void)!write(STDOUT_FILENO, "\r\n", 2);
		if (saved_tio_ok)
			tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
		curses_active = 0;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Stopped from outside (kill -STOP, not our Ctrl-Z) and continued, the
 * terminal is back in the shell's mode: the loop restores ours. */
static volatile sig_atomic_t continued;

static void note_continued(int sig)
{
	(void)sig;
	continued = 1;
}

int screen_take_continued(void)
{
	if (!continued)
		return 0;
	continued = 0;
	return 1;
}

static void install_handlers(void)
{
	static const int sigs[] = { SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = restore_from_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
	sa.sa_handler = note_continued;
	sa.sa_flags = 0;   /* (no SA_RESTART: a waiting read returns to notice it) */
	sigaction(SIGCONT, &sa, NULL);
}

static void remove_handlers(void)
{
	static const int sigs[] = { SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		signal(sigs[i], SIG_DFL);
	signal(SIGCONT, SIG_DFL);
}

/* ---- colours ------------------------------------------------------------- */

_Static_assert(PAL_BLACK == COLOR_BLACK && PAL_RED == COLOR_RED && PAL_BLUE == COLOR_BLUE &&
	       PAL_WHITE == COLOR_WHITE, "palette.h numbers colours as curses does");

static attr_t attr_of[TB_ATTR_COUNT];
static short pair_of[TB_ATTR_COUNT];

static void setup_attrs(struct screen *s)
{
	/* Monochrome: only attributes. */
	for (int i = 0; i < TB_ATTR_COUNT; i++) {
		attr_of[i] = A_NORMAL;
		pair_of[i] = 0;
	}
	attr_of[TB_DIM] = A_DIM;
	attr_of[TB_BOLD] = A_BOLD;
	attr_of[TB_TITLE] = A_BOLD;
	attr_of[TB_TITLE_FOCUS] = A_REVERSE | A_BOLD;
	attr_of[TB_HEAD] = A_REVERSE;
	attr_of[TB_HILITE] = A_REVERSE | A_BOLD | A_UNDERLINE;
	attr_of[TB_MISS] = A_BOLD;
	attr_of[TB_WARN] = A_UNDERLINE;
	for (int k = 0; k < TB_NBARS; k++)
		attr_of[TB_BAR0 + k] = k % 2 ? A_NORMAL : A_REVERSE;
	if (!s->color)
		return;
	/* palette.c: the same colours the SVG pictures use */
	short n = 0;
	for (int a = 0; a < TB_ATTR_COUNT; a++) {
		const struct pal_entry *e = palette_of(a);
		if (e->fg == PAL_DEFAULT && e->bg == PAL_DEFAULT)
			continue;   /* TB_NORMAL, TB_DIM, TB_BOLD keep their attributes */
		init_pair(++n, (short)e->fg, (short)e->bg);
		pair_of[a] = n;
		attr_of[a] = e->bold ? A_BOLD : A_NORMAL;
	}
}

/* ---- open / close -------------------------------------------------------- */

int screen_open(struct screen *s)
{
	if (tcgetattr(STDIN_FILENO, &saved_tio) == 0)
		saved_tio_ok = 1;
	/* newterm, not initscr: initscr prints ncurses' own message and exits
	 * when the terminal cannot be set up (ui_run has checked it first). */
	term_screen = newterm(NULL, stdout, stdin);
	if (!term_screen)
		return -1;
	def_prog_mode();
	curses_active = 1;
	leave_len = 0;
	add_cap("rmkx");
	add_cap("sgr0");
	add_cap("cnorm");
	add_cap("rmcup");
	install_handlers();
	raw();
	noecho();
	nonl();
	const char *nc = getenv("NO_COLOR");
	s->color = s->x->set.color && has_colors() && !(nc && *nc);
	if (s->color) {
		start_color();
		use_default_colors();
		if (COLORS < 8)
			s->color = 0;
	}
	setup_attrs(s);
	s->cmdwin = newwin(1, COLS, LINES - 1, 0);
	if (!s->cmdwin) {
		screen_close(s);
		return -1;
	}
	keypad(s->cmdwin, TRUE);
	s->tb = tb_new(COLS, LINES - 1, s->ascii);
	if (!s->tb) {
		screen_close(s);
		return -1;
	}
	s->x->screen_w = COLS;
	s->x->screen_h = LINES - 1;
	s->dirty = 1;
	s->clear_all = 1;
	return 0;
}

void screen_close(struct screen *s)
{
	if (s->cmdwin) {
		delwin(s->cmdwin);
		s->cmdwin = NULL;
	}
	if (curses_active) {
		endwin();
		curses_active = 0;
	}
	if (term_screen) {
		delscreen(term_screen);
		term_screen = NULL;
	}
	remove_handlers();
	tb_free(s->tb);
	s->tb = NULL;
}

void screen_relayout(struct screen *s)
{
	int h = LINES - 1 > 1 ? LINES - 1 : 1;
	wresize(s->cmdwin, 1, COLS);
	mvwin(s->cmdwin, LINES - 1, 0);
	tb_resize(s->tb, COLS, h);
	s->x->screen_w = COLS;
	s->x->screen_h = h;
	s->dirty = 1;
	s->clear_all = 1;
}

/* ---- drawing --------------------------------------------------------------- */

static void copy_to_curses(struct screen *s)
{
	const struct textbuf *tb = s->tb;
	for (int y = 0; y < tb->h && y < LINES - 1; y++) {
		for (int x = 0; x < tb->w && x < COLS; x++) {
			const struct tb_cell *c = &tb->cells[(size_t)y * tb->w + x];
			wchar_t wc[2] = { tb_shown(tb, x, y), 0 };
			if (wc[0] == TB_WIDE_TAIL)
				continue;   /* curses filled it with the character before */
			cchar_t cc;
			setcchar(&cc, wc, attr_of[c->attr], pair_of[c->attr], NULL);
			mvwadd_wch(stdscr, y, x, &cc);
		}
	}
}

static void draw_panes(struct screen *s)
{
	if (s->clear_all || s->x->redraw_all) {
		clearok(curscr, TRUE);
		s->clear_all = 0;
		s->x->redraw_all = 0;
	}
	s->tb->ascii = s->x->set.ascii;
	ui_compose(s->x->ui, s->x, s->tb);
	copy_to_curses(s);
	wnoutrefresh(stdscr);
	s->dirty = 0;
}

/* Columns wc takes on the command line (tb_drawn_as). */
static int cell_width(wchar_t wc)
{
	return tb_drawn_as(&wc);
}

/* The prompt and the line being edited, scrolled so the cursor shows. */
static void draw_cmdline(struct screen *s)
{
	const LineInfoW *li = el_wline(s->el);
	const wchar_t *buf = li->buffer;
	size_t len = (size_t)(li->lastchar - li->buffer), cur = (size_t)(li->cursor - li->buffer);
	/* ^R search: libedit appends "\nbck:PATTERN" (or "fwd:"); show it ourselves. */
	const wchar_t *nl = wmemchr(buf, L'\n', len);
	char prompt[128] = "(ivx) ";
	size_t line_len = len;
	if (nl) {
		line_len = (size_t)(nl - buf);
		char pat[96];
		size_t k = 0;
		for (const wchar_t *p = nl + 1; p < li->lastchar && k + 1 < sizeof pat; p++)
			pat[k++] = *p < 128 ? (char)*p : '?';
		pat[k] = 0;
		snprintf(prompt, sizeof prompt, "(search %s) ", pat);
		if (cur > line_len)
			cur = line_len;
	}
	werase(s->cmdwin);
	wattrset(s->cmdwin, A_BOLD);
	mvwaddstr(s->cmdwin, 0, 0, prompt);
	wattrset(s->cmdwin, A_NORMAL);
	int pw = (int)strlen(prompt), avail = COLS - pw - 1;
	if (avail < 1)
		avail = 1;
	/* In screen columns (a CJK character or an emoji takes two): scroll
	 * so the cursor's cell stays in view, at the right edge if need be. */
	size_t start = cur;
	int used = 1;
	while (start > 0 && used + cell_width(buf[start - 1]) <= avail)
		used += cell_width(buf[--start]);
	int col = 0, cursor_col = 0;
	for (size_t i = start; i < line_len; i++) {
		wchar_t wc[2] = { buf[i], 0 };
		int w = tb_drawn_as(&wc[0]);
		if (col + w > avail)
			break;
		if (i == cur)
			cursor_col = col;
		cchar_t cc;
		setcchar(&cc, wc, A_NORMAL, 0, NULL);
		mvwadd_wch(s->cmdwin, 0, pw + col, &cc);
		col += w;
	}
	if (cur >= line_len)
		cursor_col = col;
	wmove(s->cmdwin, 0, pw + cursor_col);
	wnoutrefresh(s->cmdwin);
}

void screen_draw(struct screen *s)
{
	if (s->dirty)
		draw_panes(s);
	/* while a command runs (a redraw by `time -n`, a resize) the bottom
	 * line says so, not an idle prompt */
	if (s->running && s->x->progress)
		s->x->progress(s->x->progress_ctx, s->x);
	else
		draw_cmdline(s);
	doupdate();
}

void screen_draw_status(struct screen *s, const char *text)
{
	werase(s->cmdwin);
	wattrset(s->cmdwin, A_BOLD);
	mvwaddnstr(s->cmdwin, 0, 0, text, COLS - 1);
	wattrset(s->cmdwin, A_NORMAL);
	wnoutrefresh(s->cmdwin);
	doupdate();
}

/* ---- output ------------------------------------------------------------ */

void screen_output(void *ctx, int kind, const char *text)
{
	struct screen *s = ctx;
	ui_console_echo(s->x->ui, kind, text);
	s->dirty = 1;
}

void screen_guest_output(void *ctx, int fd, const void *buf, size_t len)
{
	struct screen *s = ctx;
	ui_console_echo_guest(s->x->ui, fd, buf, len);
	s->dirty = 1;
}

/* x->redraw: compose every pane and bring the terminal up to date. */
static void full_redraw(void *ctx)
{
	struct screen *s = ctx;
	s->dirty = 1;
	screen_draw(s);
}

/* ---- entry --------------------------------------------------------------- */

/* Whether TERM names a terminal the explorer can draw on: one with a
 * terminfo entry that can move the cursor. Without `cup` (TERM=dumb, a
 * hard-copy or generic type) curses writes the whole screen as one long
 * row. Returns 0, or -1 with a one-line reason (no "ivx: ") in why. */
static int terminal_usable(char *why, size_t n)
{
	const char *name = getenv("TERM");
	if (!name || !*name) {
		snprintf(why, n, "TERM is not set; the explorer needs a terminal type");
		return -1;
	}
	char shown[128];
	explorer_escape(shown, sizeof shown, name);
	int err = 0;
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		if (err == 1)
			snprintf(why, n, "terminal '%s' is hard-copy; the explorer needs one that can move the cursor", shown);
		else if (err == 0)
			snprintf(why, n, "cannot use terminal '%s' (no terminfo entry)", shown);
		else
			snprintf(why, n, "cannot use terminal '%s' (no terminfo database)", shown);
		return -1;
	}
	char *cup = tigetstr("cup");
	int ok = cup && cup != (char *)-1 && tigetflag("hc") <= 0 && tigetflag("gn") <= 0;
	del_curterm(cur_term);   /* newterm reads the entry again for itself */
	if (!ok) {
		snprintf(why, n, "terminal '%s' cannot move the cursor; the explorer needs one that can", shown);
		return -1;
	}
	return 0;
}

int ui_run(struct explorer *x)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "ivx: the explorer needs a terminal; use `ivx -x SCRIPT` for batch mode\n");
		return 2;   /* (a usage mistake, as bad options are) */
	}
	char why[256];
	if (terminal_usable(why, sizeof why) < 0) {
		fprintf(stderr, "ivx: %s; use `ivx -x SCRIPT` for batch mode\n", why);
		return 2;
	}
	struct screen s;
	memset(&s, 0, sizeof s);
	s.x = x;
	s.ascii = x->set.ascii;
	s.pty_master = s.pty_slave = -1;
	/* libedit first: it must not see the real terminal (see screen_input.c). */
	if (screen_editor_open(&s) < 0) {
		fprintf(stderr, "ivx: cannot set up line editing\n");
		return 1;
	}
	if (screen_open(&s) < 0) {
		screen_editor_close(&s);
		fprintf(stderr, "ivx: cannot initialise the terminal\n");
		return 1;
	}
	x->out = screen_output;
	x->out_ctx = &s;
	x->guest_out = screen_guest_output;
	x->poll_interrupt = screen_poll_interrupt;
	x->poll_ctx = &s;
	x->redraw = full_redraw;
	x->redraw_ctx = &s;
	screen_loop(&s);
	x->redraw = NULL;
	x->out = NULL;
	x->guest_out = NULL;
	x->poll_interrupt = NULL;
	x->progress = NULL;
	screen_close(&s);
	screen_editor_close(&s);
	return 0;
}
