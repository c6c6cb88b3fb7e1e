/* SPDX-License-Identifier: MIT */
/*
 * stats.c - per-kernel counters, printed at exit when VAST_STATS=1:
 *   vast: kernel NAME launches=L native=N ranges=R h2d=BYTES d2h=BYTES inspect_ms=X total_ms=Y fp_plans=F plan_hits=P h2d_saved=S straight=T inspect_paged=I inspect_cpu=C overlapped=O compulsory=M fused=U
 * (inspect_ms: planning, by inspector or descriptors; fp_plans: paged
 * launches planned from footprint descriptors, with no inspector;
 * plan_hits: paged launches that reused an earlier launch's plan;
 * h2d_saved: bytes a paged launch did not send, still on the device
 * from the launch before in the kept frames, residency.c; straight: paged
 * ranges run by the straight variant, every slot's pages one run;
 * inspect_paged: inspector chunks run by the paged inspector on the
 * launch's device, the data it reads paged into frames, pinspect.c;
 * inspect_cpu: inspections run on the CPU device over the host copies;
 * overlapped: launches whose last kernel still ran when the next
 * command ran; compulsory: the bytes the paged launches had to move at
 * least, each on its own: its buffers' bytes the budget cannot hold, in,
 * and as many of those back as it writes, paged.c; fused: launches run
 * range by range together with the paged launch before them, their
 * ranges counted in R, their transfers in that launch's, launch.c)
 * Kernels are counted by name across programs. Transfers outside a launch
 * (a read that brings a buffer back) go to the kernel that last ran.
 * With VAST_DEVICES, dev_groups=N0,N1,... ends the line: the work-groups
 * each device ran in split launches (multi.c), the launch's own first.
 * When clBuildProgram compiled programs (jit.c), one more line:
 *   vast: programs jit=N cache_hits=H
 * N programs compiled at build, H of them found in the on-disk cache.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/base.h"

static vrt_kstats *all_stats;
static vrt_kstats *last_used;
static int registered;
static unsigned long long jit_programs, jit_cache_hits;

double vrt_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void print_stats(void)
{
	/* The executors of released queues update the stats until they end. */
	vrt_retired_wait();
	/* VAST_STATS=1: the documented line; =2 adds the kernels' own time. */
	for (vrt_kstats *s = all_stats; s; s = s->next) {
		fprintf(stderr, "vast: kernel %s launches=%llu native=%llu ranges=%llu "
		        "h2d=%llu d2h=%llu inspect_ms=%.3f total_ms=%.3f fp_plans=%llu plan_hits=%llu h2d_saved=%llu straight=%llu "
		        "inspect_paged=%llu inspect_cpu=%llu overlapped=%llu compulsory=%llu fused=%llu",
		        s->name, s->launches, s->native, s->ranges, s->h2d, s->d2h,
		        s->inspect_ms, s->total_ms, s->fp_plans, s->plan_hits, s->h2d_saved,
		        s->straight, s->inspect_paged, s->inspect_cpu, s->overlapped, s->compulsory,
		        s->fused);
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
	while (all_stats) {
		vrt_kstats *s = all_stats;
		all_stats = s->next;
		vrt_free(s->name);
		vrt_free(s);
	}
	last_used = NULL;
}

static void register_report(void)
{
	if (!registered) {
		registered = 1;
		if (vrt_cfg.stats)
			atexit(print_stats);
	}
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
