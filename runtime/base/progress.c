/* SPDX-License-Identifier: MIT */
/*
 * progress.c - one updating line for a long paged launch, on a terminal.
 *
 * A paged launch that has run VAST_PROGRESS seconds (2 by default) with
 * ranges still to go shows, on stderr when it is a terminal, one line
 * rewritten in place ('\r') at most five times a second: the ranges
 * finished of all, the bytes moved over the link and their rate. The
 * line is erased when the launch ends, so that the program's own output
 * and the report after it start on a clean line. Never when stderr is
 * not a terminal: in a log file or a pipe the line would be a stream of
 * carriage returns. VAST_PROGRESS=0 turns it off.
 *
 * The state of a launch's line is its own (vrt_progress, on the stack of
 * the executor running it); the process's one stderr is shared, so a
 * flag says whether a line is showing, for a report written meanwhile
 * (signals.c) to erase first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"

#define SHOW_EVERY_MS 200.0

static pthread_once_t once = PTHREAD_ONCE_INIT;
static double after_ms; /* < 0: never */
static int showing;     /* a line is on the terminal */

static void read_setting(void)
{
	after_ms = isatty(2) ? 2000 : -1;
	const char *s = vrt_getenv("VAST_PROGRESS");
	if (after_ms < 0 || !s || !*s)
		return;
	char *end;
	double v = strtod(s, &end);
	if (*end || v < 0)
		vrt_log(VRT_LOG_WARN, "ignoring VAST_PROGRESS='%s' (want seconds, or 0 for none)", s);
	else
		after_ms = v > 0 ? v * 1e3 : -1;
}

void vrt_progress_begin(vrt_progress *p, const char *kernel, size_t nranges, vrt_kstats *st)
{
	pthread_once(&once, read_setting);
	memset(p, 0, sizeof *p);
	if (after_ms < 0 || nranges < 2 || !st)
		return;
	p->kernel = kernel;
	p->nranges = nranges;
	p->st = st;
	p->t0 = vrt_now_ms();
	p->bytes0 = st->h2d + st->d2h;
}

void vrt_progress_step(vrt_progress *p, size_t done)
{
	if (!p->st || done >= p->nranges)
		return;
	double now = vrt_now_ms();
	if (now - p->t0 < after_ms || (p->shown && now - p->shown < SHOW_EVERY_MS))
		return;
	p->shown = now;
	unsigned long long moved = p->st->h2d + p->st->d2h - p->bytes0;
	double secs = (now - p->t0) / 1e3;
	char b[24], r[24], line[256];
	int n = snprintf(line, sizeof line, "\rvast: kernel '%s': range %zu/%zu, %s moved, %s/s\033[K",
	                 p->kernel, done, p->nranges, vrt_human_bytes(b, sizeof b, moved),
	                 vrt_human_bytes(r, sizeof r, secs > 0 ? (unsigned long long)(moved / secs) : 0));
	if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) > 0)
		__atomic_store_n(&showing, 1, __ATOMIC_RELAXED);
}

void vrt_progress_end(vrt_progress *p)
{
	if (p->shown)
		vrt_progress_clear();
	p->st = NULL;
}

void vrt_progress_clear(void)
{
	if (__atomic_exchange_n(&showing, 0, __ATOMIC_RELAXED) && write(2, "\r\033[K", 4) < 0)
		return; /* nothing to do about it */
}
