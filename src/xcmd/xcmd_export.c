/*
 * xcmd_export.c — `export svg|png FILE [PANE|screen]`: pictures for slides.
 *
 *   timeline (default)  the timeline pane's window drawn as a figure
 *                       (ui/svg_timeline.c: the paper's Figures 2-8 from
 *                       this run), the cycles the pane shows now (its
 *                       scroll and zoom, at the screen's width)
 *   cpistack            the CPI stack of each method as bars (since
 *                       `reset stats`, like the pane)
 *   screen              every pane as on the screen: its text, in the
 *                       colours and weights the terminal uses
 *   any other pane      that pane's text, as `show PANE` prints it
 *
 * FILE may start with ~/ (the home directory). Files are written as ivx
 * writes every output (cli/outfile.h): complete or
 * not at all, replacing an existing file. PNG runs the SVG through the
 * first converter found on PATH: rsvg-convert (Debian: librsvg2-bin), then
 * ImageMagick's magick or convert; without one the command fails and
 * names them.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/outfile.h"
#include "core/core.h"
#include "explorer/explorer.h"
#include "explorer/explorer_trace.h"
#include "explorer/inst_reset.h"
#include "guest/program.h"
#include "svg.h"
#include "textbuf.h"
#include "ui_state.h"
#include "xcmd.h"

extern char **environ;

#define TIMELINE_MARGIN 7   /* the timeline pane's label column (pane_timeline.c) */

/* "k3_long_dmiss miss 100": the program and its arguments, for titles. */
static void run_title(const struct explorer *x, char *buf, size_t n)
{
	size_t used = (size_t)snprintf(buf, n, "%s", program_name(x->prog));
	for (int i = 1; i < x->opts.guest_argc && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, " %s", x->opts.guest_argv[i]);
}

static int max_width(const struct machine_config *c)
{
	uint32_t w = c->fetch_width;
	if (c->decode_width > w) w = c->decode_width;
	if (c->issue_width > w) w = c->issue_width;
	if (c->commit_width > w) w = c->commit_width;
	return (int)w;
}

/* The screen the picture shows: the terminal's; in batch mode the one
 * `show screen` prints (`set width` columns, `set height` or 40 rows). */
static void screen_size(const struct explorer *x, int *w, int *h)
{
	*w = x->batch || x->screen_w <= 0 ? x->set.width : x->screen_w;
	*h = x->batch || x->screen_h <= 0 ? (x->set.height ? x->set.height : 40) : x->screen_h;
}

static int draw_timeline(struct explorer *x, FILE *f)
{
	struct pane *p = ui_pane_find(x->ui, "timeline");
	int k = x->set.timeline_scale > 0 ? x->set.timeline_scale : 1;
	/* the pane's width in the current layout; the screen's when the
	 * layout does not show it (as `layout timeline` would) */
	int sw, sh;
	screen_size(x, &sw, &sh);
	int pw = p ? ui_pane_columns(x->ui, p, sw, sh) : 0;
	int cols = (pw > 0 ? pw : sw) - TIMELINE_MARGIN;
	struct xtl_cycle newest;
	if (xtrace_cycle_at(x->trace, p ? p->scroll : 0, &newest) < 0)
		return explorer_error(x, "export: no cycles simulated yet: try `step` first");
	uint64_t hi = newest.cycle + 1, span = (uint64_t)(cols > 1 ? cols : 1) * (uint64_t)k;
	uint64_t lo = hi > span ? hi - span : 0;
	struct svg_timeline tl;
	if (svg_timeline_from_trace(x->trace, lo, hi, core_rob_size(x->core), max_width(&x->cfg_live), &tl) < 0)
		return explorer_error(x, "export: out of memory");
	char run[200];
	run_title(x, run, sizeof run);
	snprintf(tl.title, sizeof tl.title, "%s: cycles %llu-%llu", run, (unsigned long long)xcycle(tl.lo),
		 (unsigned long long)xcycle(tl.hi - 1));
	svg_timeline_doc(f, &tl, 1);
	svg_timeline_release(&tl);
	return 0;
}

static int draw_cpistack(struct explorer *x, FILE *f)
{
	struct svg_stacks st;
	memset(&st, 0, sizeof st);
	int any = 0;
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)
		if (xreset_stack(x, m, &st.s[m]) == 0 && st.s[m].insns)
			st.have[m] = any = 1;
	if (!any)
		return explorer_error(x, "export: no instruction has committed yet: try `step` first");
	char run[200], title[320];
	run_title(x, run, sizeof run);
	const struct acct_stack *s = &st.s[ACCT_FMT];
	for (int m = 0; !st.have[ACCT_FMT] && m < ACCT_METHOD_COUNT; m++)
		if (st.have[m])
			s = &st.s[m];
	if (xreset_since(x))
		snprintf(title, sizeof title, "CPI stacks: %s, cycles %llu-%llu (%llu instructions)", run,
			 (unsigned long long)xreset_since(x), (unsigned long long)explorer_cycle(x),
			 (unsigned long long)s->insns);
	else
		snprintf(title, sizeof title, "CPI stacks: %s, %llu cycles, %llu instructions", run,
			 (unsigned long long)s->cycles, (unsigned long long)s->insns);
	snprintf(st.label, sizeof st.label, "%.120s", run);
	svg_cpistack_doc(f, title, &st, 1);
	return 0;
}

static int draw_text(struct explorer *x, FILE *f, const char *what)
{
	struct textbuf *tb;
	char title[300], run[200];
	run_title(x, run, sizeof run);
	if (!strcmp(what, "screen")) {
		int w, h;
		screen_size(x, &w, &h);
		tb = tb_new(w, h, x->set.ascii);
		if (!tb)
			return explorer_error(x, "export: out of memory");
		ui_compose(x->ui, x, tb);
		snprintf(title, sizeof title, "ivx %s, cycle %llu", run, (unsigned long long)explorer_cycle(x));
	} else {
		int view;   /* (as `show`: a view by its name, or the pane's first) */
		struct pane *p = ui_pane_find_view(x->ui, what, &view);
		if (!p)
			return explorer_error(x, "export: no pane \"%s\" (timeline, cpistack, screen or a pane name: "
					      "type `layout` for the panes)", what);
		tb = tb_new(1, 1, x->set.ascii);
		if (!tb)
			return explorer_error(x, "export: out of memory");
		int saved = p->view;
		p->view = view;
		ui_render_pane(x->ui, x, p, tb, x->set.width, x->set.height ? x->set.height : p->cls->batch_h);
		p->view = saved;
		snprintf(title, sizeof title, "ivx %s, cycle %llu: %s", run, (unsigned long long)explorer_cycle(x),
			 p->cls->title);
	}
	svg_textbuf_doc(f, tb, title);
	tb_free(tb);
	return 0;
}

/* The first converter on PATH, or NULL. */
static const char *find_converter(char *path, size_t n)
{
	static const char *const names[] = { "rsvg-convert", "magick", "convert" };
	const char *env = getenv("PATH");
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
		for (const char *d = env; d && *d;) {
			const char *colon = strchr(d, ':');
			size_t len = colon ? (size_t)(colon - d) : strlen(d);
			if (len && (size_t)snprintf(path, n, "%.*s/%s", (int)len, d, names[i]) < n && access(path, X_OK) == 0)
				return names[i];
			d = colon ? colon + 1 : NULL;
		}
	}
	return NULL;
}

/* Convert the SVG file `svg` to PNG on the stream `out`. 0, or -1 with
 * x->err. */
static int convert_png(struct explorer *x, const char *svg, FILE *out)
{
	char path[4096];
	const char *name = find_converter(path, sizeof path);
	if (!name)
		return explorer_error(x, "export png: no SVG converter found: install rsvg-convert (Debian: apt-get "
				      "install librsvg2-bin) or ImageMagick, or use `export svg`");
	char in[4200];
	snprintf(in, sizeof in, "svg:%s", svg);
	char *rsvg_argv[] = { (char *)name, "-f", "png", (char *)svg, NULL };
	char *im_argv[] = { (char *)name, in, "png:-", NULL };
	char **argv = !strcmp(name, "rsvg-convert") ? rsvg_argv : im_argv;
	fflush(out);
	/* its complaints are kept for the error line (not on the screen) */
	FILE *complaints = tmpfile();
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fileno(out), STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	if (complaints)
		posix_spawn_file_actions_adddup2(&fa, fileno(complaints), STDERR_FILENO);
	else
		posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int rc = posix_spawn(&pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	int status = 0, wait_errno = 0;
	if (rc == 0)
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR) {
				wait_errno = errno;
				break;
			}
	char said[200] = "";
	if (complaints) {
		rewind(complaints);
		if (fgets(said, sizeof said, complaints))
			said[strcspn(said, "\n")] = 0;
		fclose(complaints);
	}
	if (rc != 0)
		return explorer_error(x, "export png: cannot run %s: %s", path, strerror(rc));
	if (wait_errno)
		return explorer_error(x, "export png: waiting for %s: %s", name, strerror(wait_errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return explorer_error(x, "export png: %s could not convert the SVG (%s %d)%s%s", path,
				      WIFEXITED(status) ? "exit status" : "signal",
				      WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
				      said[0] ? ": " : "", said);
	/* the converter wrote through its own descriptor: move the stream to the end */
	fseek(out, 0, SEEK_END);
	return 0;
}

/* FILE must not be the program (a slip of the hand would destroy it). */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int draw(struct explorer *x, FILE *f, const char *what)
{
	if (!strcmp(what, "timeline"))
		return draw_timeline(x, f);
	if (!strcmp(what, "cpistack") || !strcmp(what, "cpi"))
		return draw_cpistack(x, f);
	return draw_text(x, f, what);
}

static int export_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc < 3 || argc > 4 || (strcmp(argv[1], "svg") && strcmp(argv[1], "png")))
		return explorer_error(x, "usage: export svg|png FILE [timeline|cpistack|screen|PANE]");
	int png = !strcmp(argv[1], "png");
	const char *file = argv[2], *what = argc == 4 ? argv[3] : "timeline";
	/* ~/ is the home directory, as in gdb's file names */
	char home_path[4096];
	const char *home = getenv("HOME");
	if (!strncmp(file, "~/", 2) && home && *home) {
		if ((size_t)snprintf(home_path, sizeof home_path, "%s/%s", home, file + 2) >= sizeof home_path)
			return explorer_error(x, "export: file name too long");
		file = home_path;
	}
	if (!x->ui)
		return explorer_error(x, "export: no screen to draw");
	int fd = outfile_descriptor(file);
	if (!x->batch && fd >= 0 && isatty(fd))   /* (the picture would be drawn over the screen, and lost) */
		return explorer_error(x, "export: %s is the explorer's terminal: name a file (ivx -x writes it to "
				      "standard output)", file);
	if (same_file(file, x->opts.prog_path) || same_file(file, x->opts.config_path))
		return explorer_error(x, "export: %s is the program or its configuration: give another file", file);
	if (same_file(file, x->opts.stdin_path))
		return explorer_error(x, "export: %s is the program's --stdin file: give another file", file);
	for (int i = 0; i < x->n_scripts_open; i++)
		if (same_file(file, x->scripts_open[i]))
			return explorer_error(x, "export: %s is a script being run: give another file", file);
	for (int d = 0; d < x->opts.n_dirs; d++)   /* (as run_options_check_grants) */
		if (x->opts.dirs[d].rw && outfile_within(file, x->opts.dirs[d].host))
			return explorer_error(x, "export: %s is inside the read-write --dir %s: the program could have "
					      "put a link to another file there; write it elsewhere", file, x->opts.dirs[d].host);
	struct ivx_err err = { 0 };
	ui_state_update(x->ui, x);
	struct outfile *o = outfile_open(file, &err);
	if (!o)
		return explorer_error(x, "export: %s", err.msg);
	int rc;
	if (!png) {
		rc = draw(x, outfile_stream(o), what);
	} else {
		/* the SVG goes to a temporary file the converter reads */
		char tmp[] = "/tmp/ivx-export-XXXXXX.svg";
		int fd = mkstemps(tmp, 4);
		FILE *svg = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!svg) {
			if (fd >= 0)
				close(fd), unlink(tmp);
			outfile_discard(o);
			return explorer_error(x, "export png: cannot create a temporary file: %s", strerror(errno));
		}
		rc = draw(x, svg, what);
		if (fclose(svg) != 0 && rc == 0)
			rc = explorer_error(x, "export png: writing %s: %s", tmp, strerror(errno));
		if (rc == 0)
			rc = convert_png(x, tmp, outfile_stream(o));
		unlink(tmp);
	}
	if (rc < 0) {
		outfile_discard(o);
		return -1;
	}
	if (outfile_commit(o, &err) < 0)
		return explorer_error(x, "export: %s", err.msg);
	explorer_printf(x, "Wrote %s (%s).\n", argv[2], what);   /* as typed: ~/ stays */
	return 0;
}

static const struct xcmd_then export_then[] = {
	{ .after = "*", .complete = XC_FILE },
	{ 0 },
};

static const struct xcmd export_cmd = {
	.name = "export", .usage = "export svg|png FILE [timeline|cpistack|screen|PANE]",
	.summary = "draw the timeline, the CPI stacks or the screen as a picture for slides",
	.help =
	"timeline (the default): the cycles the timeline pane shows (scroll it with\n"
	"PgUp, zoom out with F2 or `set timeline-scale` first), drawn as a figure: ROB\n"
	"occupancy, dispatch/issue/commit per cycle, each miss event as a bar in its\n"
	"legend colour and letter. cpistack: each method's CPI stack as bars (since\n"
	"`reset stats`). screen: every pane's text in the screen's colours; another\n"
	"pane name: that pane as `show` prints it. FILE is replaced when complete.\n"
	"png needs rsvg-convert (librsvg2-bin) or ImageMagick on PATH.",
	.words = "svg png", .then = export_then, .exec = export_exec,
};
XCMD_REGISTER(export_cmd);
