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
		err->code = code;
	}
	return code;
}
