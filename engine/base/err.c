/* err.c — filling in error messages (see err.h). */
#include <stdarg.h>
#include <stdio.h>
#include "err.h"

int ivx_error(struct ivx_err *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
		/* One line, whatever the user's input put in it: a control
		 * byte from a file or an argument would break the line or
		 * drive the terminal. */
		for (char *c = err->msg; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = *c == '\t' ? ' ' : '?';
		err->code = code;
	}
	return code;
}
