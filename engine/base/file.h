/*
 * file.h — opening the files a user names as inputs (programs, --stdin,
 * --config, scripts, co-processor programs, profile databases).
 *
 * A plain open() of a FIFO waits for a writer, possibly forever, and ivx
 * would hang before saying anything. These open without waiting
 * (O_NONBLOCK, then fstat) and refuse FIFOs and sockets with one line;
 * everything else (regular files, and devices such as /dev/zero, whose
 * reads the callers bound) is the caller's to judge, as before.
 */
#ifndef IVX_FILE_H
#define IVX_FILE_H

#include <stdio.h>
#include "err.h"

/* A read-only descriptor for path (close-on-exec, blocking reads), or a
 * negative status with "PATH: cannot open: REASON" or "PATH: a FIFO, not a
 * regular file" in err. errno is the open's on failure, ENXIO for a FIFO
 * or socket. */
int ivx_open_input(const char *path, struct ivx_err *err);

/* The same as a stdio stream ("rb"); NULL on failure. */
FILE *ivx_fopen_input(const char *path, struct ivx_err *err);

#endif
