/*
 * inst_dcpi.h — the explorer's DCPI sampler instrument (inst_dcpi.c): the
 * sampling settings of the session, and the engine sampler of the current
 * run when sampling is on (`sampling on` restarts the run with it).
 */
#ifndef IVX_INST_DCPI_H
#define IVX_INST_DCPI_H

#include "dcpi/dcpi.h"
#include "dcpi/dcpi_wait.h"

struct xdcpi;
struct explorer;

/* The current run's sampler, NULL when sampling is off. */
const struct dcpi *xdcpi_sampler(const struct xdcpi *xd);
/* The current run's wait truth (per pc the issue-head cycles by reason
 * and the culprits blamed), NULL when sampling is off or out of order. */
const struct dcpi_wait *xdcpi_wait(const struct xdcpi *xd);
/* The session's settings (each restart applies them; `sampling` restarts
 * when they change what the run sees). */
struct dcpi_config *xdcpi_settings(struct xdcpi *xd);
int xdcpi_enabled(const struct xdcpi *xd);
void xdcpi_enable(struct xdcpi *xd, int on);
/* The last sample delivered in this run (0 if none yet). */
int xdcpi_last_sample(const struct xdcpi *xd, struct dcpi_sample *out);

#endif
