/* SPDX-License-Identifier: MIT */
/*
 * stats.c - per-kernel counters, printed at exit when VAST_STATS is set.
 *
 * VAST_STATS=1 prints a table, as nsys prints its summaries: a line
 * naming the process (pid, program, launches, the run's time), then one
 * row per kernel, the longest first: its time and share of the run,
 * launches, how many ran native, paged and split, paged ranges, bytes
 * each way and the compulsory bytes to compare them with, and planning
 * time. VAST_STATS=kv prints the same as key=value lines, for scripts:
 *   vast: process pid=P program=NAME run_ms=W
 *   vast: kernel NAME launches=L native=N ranges=R h2d=BYTES d2h=BYTES inspect_ms=X total_ms=Y fp_plans=F plan_hits=P h2d_saved=S straight=T inspect_paged=I inspect_cpu=C overlapped=O compulsory=M fused=U paged=G split=D
 * (total_ms: the time the kernel's launches ran, each from the moment
 * the executor took it up, never the time it waited in the queue, so
 * the sum stays within the run (one queue) or its multiple (several
 * queues' executors run at once); run_ms: from the start of the process
 * (the runtime's load); inspect_ms: planning, by inspector or
 * descriptors; fp_plans: paged launches planned from footprint
 * descriptors, with no inspector; plan_hits: paged launches that reused
 * an earlier launch's plan; h2d_saved: bytes a paged launch did not send,
 * still on the device from the launch before in the kept frames,
 * residency.c; straight: paged ranges run by the straight variant, every
 * slot's pages one run; inspect_paged: inspector chunks run by the paged
 * inspector on the launch's device, the data it reads paged into frames,
 * pinspect.c; inspect_cpu: inspections run on the CPU device over the
 * host copies; overlapped: launches whose last kernel still ran when the
 * next command ran; compulsory: the bytes the paged launches had to move
 * at least, each on its own: its buffers' bytes the budget cannot hold,
 * in, and as many of those back as it writes, paged.c; fused: launches
 * run range by range together with the paged launch before them, their
 * ranges counted in R, their transfers in that launch's, launch.c;
 * paged, split: launches that took the paged path, and that were split
 * over the devices of VAST_DEVICES)
 * Kernels are counted by name across programs. Transfers outside a launch
 * (a read that brings a buffer back) go to the kernel that last ran.
 * A 2 (VAST_STATS=2, kv2) adds the kernels' own time, from event
 * profiling: a Device(ms) column, kernel_ms=Z. With VAST_DEVICES, the
 * work-groups each device ran in split launches (multi.c), the launch's
 * own first: a Groups column, dev_groups=N0,N1,... at the line's end.
 * When clBuildProgram compiled programs (jit.c), one more line:
 *   vast: programs jit=N cache_hits=H
 * N programs compiled at build, H of them found in the on-disk cache.
 *
 * The report comes once: at exit, after the executors of released queues
 * ended, or from the thread that handles SIGINT and SIGTERM (signals.c),
 * which does not wait for them and names the signal.
 */
#define _GNU_SOURCE /* program_invocation_name */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

static vrt_kstats *all_stats;
static vrt_kstats *last_used;
static int registered, reported;
static unsigned long long jit_programs, jit_cache_hits;
static double start_ms; /* the process's start, near enough: the runtime's load */

double vrt_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((constructor)) static void note_start(void)
{
	start_ms = vrt_now_ms();
}

const char *vrt_program_name(void)
{
	return program_invocation_name && *program_invocation_name ? program_invocation_name
	                                                           : "?";
}

static void print_kv(double run_ms, const char *signame)
{
	fprintf(stderr, "vast: process pid=%ld program=%s run_ms=%.3f%s%s\n", (long)getpid(),
	        vrt_program_name(), run_ms, signame ? " signal=" : "", signame ? signame : "");
	for (vrt_kstats *s = all_stats; s; s = s->next) {
		fprintf(stderr, "vast: kernel %s launches=%llu native=%llu ranges=%llu "
		        "h2d=%llu d2h=%llu inspect_ms=%.3f total_ms=%.3f fp_plans=%llu plan_hits=%llu h2d_saved=%llu straight=%llu "
		        "inspect_paged=%llu inspect_cpu=%llu overlapped=%llu compulsory=%llu fused=%llu "
		        "paged=%llu split=%llu",
		        s->name, s->launches, s->native, s->ranges, s->h2d, s->d2h,
		        s->inspect_ms, s->total_ms, s->fp_plans, s->plan_hits, s->h2d_saved,
		        s->straight, s->inspect_paged, s->inspect_cpu, s->overlapped, s->compulsory,
		        s->fused, s->paged, s->split);
		if (vrt_cfg.stats > 1)
			fprintf(stderr, " kernel_ms=%.3f", s->kernel_ms);
		if (vrt_cfg.devices) {
			/* Work-groups per device of VAST_DEVICES, the launch's own first. */
			fputs(" dev_groups=", stderr);
			for (int d = 0; d < VRT_MAX_DEVICES; d++)
				fprintf(stderr, "%s%llu", d ? "," : "", s->dev_groups[d]);
		}
		fputc('\n', stderr);
	}
	if (jit_programs)
		fprintf(stderr, "vast: programs jit=%llu cache_hits=%llu\n", jit_programs,
		        jit_cache_hits);
}

/* "512 B", "4.00 MiB": three significant digits or so. */
const char *vrt_human_bytes(char *buf, size_t n, unsigned long long b)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double v = (double)b;
	unsigned u = 0;
	while (v >= 1024 && u + 1 < sizeof unit / sizeof *unit) {
		v /= 1024;
		u++;
	}
	if (!u)
		snprintf(buf, n, "%llu B", b);
	else
		snprintf(buf, n, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, unit[u]);
	return buf;
}

static int by_time(const void *a, const void *b)
{
	const vrt_kstats *x = *(vrt_kstats *const *)a, *y = *(vrt_kstats *const *)b;
	return x->total_ms < y->total_ms ? 1 : x->total_ms > y->total_ms ? -1 : 0;
}

static void print_table(double run_ms, const char *signame)
{
	size_t nk = 0;
	unsigned long long launches = 0;
	for (vrt_kstats *s = all_stats; s; s = s->next) {
		nk++;
		launches += s->launches;
	}
	fprintf(stderr, "vast: pid %ld %s: %llu launch%s of %zu kernel%s in %.3f s%s%s\n",
	        (long)getpid(), vrt_program_name(), launches, launches == 1 ? "" : "es", nk,
	        nk == 1 ? "" : "s", run_ms / 1e3, signame ? ", interrupted by " : "",
	        signame ? signame : "");
	vrt_kstats **rows = nk ? vrt_malloc(nk * sizeof *rows) : NULL;
	if (nk && !rows)
		return;
	size_t i = 0;
	for (vrt_kstats *s = all_stats; s; s = s->next)
		rows[i++] = s;
	qsort(rows, nk, sizeof *rows, by_time);
	if (nk) {
		fprintf(stderr, "vast: %8s %11s %9s %7s %7s %6s %8s %10s %10s %11s %9s", "Time(%)",
		        "Time(ms)", "Launches", "Native", "Paged", "Split", "Ranges", "H2D", "D2H",
		        "Compulsory", "Plan(ms)");
		if (vrt_cfg.stats > 1)
			fprintf(stderr, " %11s", "Device(ms)");
		if (vrt_cfg.devices)
			fprintf(stderr, " %-16s", "Groups");
		fputs("  Kernel\n", stderr);
	}
	for (i = 0; i < nk; i++) {
		const vrt_kstats *s = rows[i];
		char h2d[24], d2h[24], comp[24];
		fprintf(stderr, "vast: %8.1f %11.3f %9llu %7llu %7llu %6llu %8llu %10s %10s %11s %9.3f",
		        run_ms > 0 ? 100 * s->total_ms / run_ms : 0.0, s->total_ms, s->launches,
		        s->native, s->paged, s->split, s->ranges, vrt_human_bytes(h2d, sizeof h2d, s->h2d),
		        vrt_human_bytes(d2h, sizeof d2h, s->d2h),
		        vrt_human_bytes(comp, sizeof comp, s->compulsory), s->inspect_ms);
		if (vrt_cfg.stats > 1)
			fprintf(stderr, " %11.3f", s->kernel_ms);
		if (vrt_cfg.devices) {
			char g[VRT_MAX_DEVICES * 21 + 1];
			size_t at = 0;
			for (int d = 0; d < VRT_MAX_DEVICES && at < sizeof g; d++)
				at += (size_t)snprintf(g + at, sizeof g - at, "%s%llu", d ? "," : "",
				                       s->dev_groups[d]);
			fprintf(stderr, " %-16s", g);
		}
		fprintf(stderr, "  %s\n", s->name);
	}
	vrt_free(rows);
	if (jit_programs)
		fprintf(stderr, "vast: programs compiled at clBuildProgram: %llu, %llu of them from the cache\n",
		        jit_programs, jit_cache_hits);
}

/* The report, once per process; signame: the signal that ends it, NULL
 * at exit. 0 when it was printed before. */
static int report(const char *signame)
{
	if (__atomic_exchange_n(&reported, 1, __ATOMIC_SEQ_CST))
		return 0;
	double run_ms = vrt_now_ms() - start_ms;
	int saved = errno;
	if (vrt_cfg.stats_kv)
		print_kv(run_ms, signame);
	else
		print_table(run_ms, signame);
	fflush(stderr);
	errno = saved;
	return 1;
}

static void print_stats(void)
{
	/* The executors of released queues update the stats until they end. */
	vrt_retired_wait();
	if (!report(NULL))
		return;
	while (all_stats) {
		vrt_kstats *s = all_stats;
		all_stats = s->next;
		vrt_free(s->name);
		vrt_free(s);
	}
	last_used = NULL;
}

void vrt_stats_rearm(void)
{
	__atomic_store_n(&reported, 0, __ATOMIC_SEQ_CST);
}

void vrt_stats_signal(const char *signame)
{
	/* The executors may still be counting: what they counted so far. The
	 * records are kept: a program that goes on reports them all at exit. */
	if (vrt_cfg.stats)
		report(signame);
}

static void register_report(void)
{
	if (!registered) {
		registered = 1;
		if (vrt_cfg.stats)
			atexit(print_stats);
	}
}

void vrt_stats_running(vrt_kstats *st)
{
	last_used = st;
}

vrt_kstats *vrt_stats_for(const char *name)
{
	if (!name)
		return last_used;
	vrt_kstats *s;
	for (s = all_stats; s; s = s->next)
		if (!strcmp(s->name, name))
			break;
	if (!s) {
		s = vrt_calloc(1, sizeof *s);
		if (!s)
			return NULL;
		s->name = vrt_strdup(name);
		if (!s->name) {
			vrt_free(s);
			return NULL;
		}
		/* Appended: the exit report lists kernels in order of first use. */
		vrt_kstats **tail = &all_stats;
		while (*tail)
			tail = &(*tail)->next;
		*tail = s;
		register_report();
	}
	last_used = s;
	return s;
}

void vrt_stats_jit(int cache_hit)
{
	jit_programs++;
	jit_cache_hits += cache_hit != 0;
	register_report();
}
