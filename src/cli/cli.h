/*
 * cli.h — the headless command table of `ivx CMD ...`.
 *
 * Each command lives in its own src/cmd_*.c and exports one
 * `const struct cli_command cmd_NAME_entry`; src/main.c lists them in its
 * table and generates `ivx --help` from it. A command returns the process
 * exit status; only main() exits.
 */
#ifndef IVX_CLI_H
#define IVX_CLI_H

#include <stddef.h>
#include <stdint.h>

struct program;
struct ivx_err;

struct cli_command {
	const char *name;
	const char *summary;   /* one line for `ivx --help` */
	const char *help;      /* full text for `ivx CMD --help` */
	int (*main)(int argc, char **argv);
};

/* Exit statuses shared by all commands. */
enum { EXIT_USAGE = 2, EXIT_INPUT = 2, EXIT_GUEST = 2, EXIT_OUTPUT = 2 };

/* Print "ivx: message" on stderr, as one line: control characters in the
 * message (from the user's arguments) are shown as \xNN. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "the program exited with status N (`ivx run` shows its output)": a
 * command that times or profiles a run refuses one that failed, whose
 * numbers would be those of a usage message. */
void cli_error_guest_status(int status);
/* A guest_output_fn that drops the guest's output (repeated or
 * reference runs). */
void cli_drop_output(void *ctx, int fd, const void *buf, size_t len);

/* Load PROG (a path), or the embedded default program when path is NULL.
 * Prints the error and returns NULL on failure. */
struct program *cli_load_program(const char *path);

/* Read the number at s: decimal, or hex after 0x or 0X (a leading 0 is
 * not octal). *end gets the first character after it. 0, or -1 when s
 * does not start with a digit or the value does not fit in 64 bits. The
 * command line and the explorer's commands and expressions all read
 * numbers with it. */
int cli_scan_u64(const char *s, uint64_t *out, const char **end);

/* Parse a whole argument as an unsigned number (cli_scan_u64, then an
 * optional k/M/G suffix: 10^3, 10^6, 10^9). */
int cli_parse_u64(const char *s, uint64_t *out);

/* Read a whole host file the user named (for --stdin), of at most
 * CLI_MAX_FILE bytes, into a malloc'd *data the caller frees; "-" is ivx's
 * own standard input, read to its end once and the same bytes handed to
 * every later call (a FIFO given by name is still refused: opening one
 * could wait forever for a writer). 0, or err
 * filled and its negative status; it prints nothing (the explorer's screen
 * owns stderr; run_options_read_stdin says which option named the file). */
#define CLI_MAX_FILE (256 << 20)
int cli_read_file_quiet(const char *path, void **data, size_t *len, struct ivx_err *err);
/* Whether ivx's standard input has been read and kept (a "-" above). */
int cli_stdin_kept(void);

/* A guest_output_fn writing the guest's fd 1 / 2 bytes to the host's fd
 * 1 / 2. The guest's write always succeeds in full (it must not see host
 * state); a failed host write is remembered for cli_close_stdout. */
void cli_guest_output(void *ctx, int fd, const void *buf, size_t len);

/* Install handler for sig (sigaction with `flags`) unless sig was ignored
 * when ivx started (nohup, `cmd &` in a shell script): it stays ignored
 * then, as for any program. */
void cli_catch_signal(int sig, void (*handler)(int), int flags);

/* The process's CPU time in seconds, for --bench: other jobs on a shared
 * machine slow the wall clock, not this. */
double cli_cpu_seconds(void);

/* A --bench's timed sections. cli_bench_start returns the CPU time to
 * pass to cli_bench_stop, which returns the seconds in between. Under
 * callgrind (valgrind --tool=callgrind) each section is also one dump of
 * its own, named `what`, holding the host instructions executed between
 * the two calls: the deterministic measure the bench scripts' mode
 * BENCH_TOOL=callgrind reads. cli_bench_reps(n) is n, or 1 under valgrind
 * (instruction counts do not vary from run to run). */
int cli_bench_reps(int reps);
double cli_bench_start(void);
double cli_bench_stop(double t0, const char *what);

/* fflush(stdout), remembering why it failed for cli_close_stdout: 0 or -1. */
int cli_flush_stdout(void);

/* At exit, as coreutils' close_stdout: flush and close stdout; if that or
 * any earlier write to fd 1 or 2 failed, print "error writing standard
 * output" (for stdout) and return `status`, or EXIT_OUTPUT if it was 0.
 * Otherwise return `status`. */
int cli_close_stdout(int status);

/* The default program embedded in the binary. */
extern const unsigned char ivx_default_program[];
extern const unsigned char ivx_default_program_end[];
extern const char ivx_default_program_name[];

#endif
