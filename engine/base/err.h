/*
 * err.h — how the engine reports failure.
 *
 * Engine functions never print and never exit. A function that can fail
 * takes a `struct ivx_err *` and returns a negative status after filling in
 * a one-line message; only src/main.c turns that into output and an exit
 * status. A NULL `err` is allowed: the message is then dropped.
 */
#ifndef IVX_ERR_H
#define IVX_ERR_H

enum ivx_status {
	IVX_OK = 0,
	IVX_EUSAGE = -1,    /* bad command, option, key or value */
	IVX_EINPUT = -2,    /* malformed input file: ELF, config, database */
	IVX_EGUEST = -3,    /* the guest did something we stop on: fault, bad syscall */
	IVX_EUNSUP = -4,    /* unsupported instruction or syscall */
	IVX_ESYS = -5,      /* host failure: out of memory, I/O error */
	IVX_EDEADLOCK = -6, /* the core model stopped committing */
};

struct ivx_err {
	int code;           /* one of enum ivx_status */
	char msg[512];      /* one line, no trailing newline */
};

/* Fill `err` (if non-NULL) and return `code`. */
int ivx_error(struct ivx_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
