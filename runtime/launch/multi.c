/* SPDX-License-Identifier: MIT */
/*
 * multi.c - one launch over several devices (SKMD, Lee et al. PACT 2013;
 * docs/multi.md).
 *
 *   refuse what no merge makes exact -> build the program on each device
 *   (devices.c) -> shares (partition.c: on a kernel's first launch from
 *   the devices' models, devmodel.c, and its bytes per work-group,
 *   traffic.c; later from what its launches measured; no profiling
 *   window) -> the windows, one per device, on resident shares where
 *   they can (resident.c: copies kept on the devices, nothing written
 *   home, pages several windows write merged on a device: devmerge.c)
 *   -> else one thread per share, each a paged launch of its window of
 *   work-groups on its own device, frames and budget (paged.c) -> merge
 *   into the host copies.
 *
 * What follows is the second way, only where resident shares cannot run
 * at all (no descriptors, an indirect kernel, a window that does not fit
 * its device: the log line says which): the host copies are the source
 * of truth (every device copy and replica of the context is written home
 * first, legacy_start). Each share reads them
 * (read-only slots, shared by every share). A write-only slot whose
 * shares' windows write disjoint pages (footprint descriptors, after
 * moving the windows' boundaries to clean page cuts: align, disjoint)
 * is written by every share in place. Every other written slot gets a
 * private copy per share, made from the host copy before any share
 * runs. The merge then compares, block by block, each private copy
 * with the host copy, which no share touched and so still holds the
 * bytes before the launch: a block one share changed is copied whole, a
 * block several changed is merged byte by byte (a byte a share changed
 * wins: SKMD's merge). Work-items of one launch that write the same byte
 * race in OpenCL too (OpenCL 1.2 §3.3.1: no order between work-groups),
 * so no result the program could rely on is lost. Bytes no share wrote
 * keep their values, whatever pages the shares' frames covered.
 *
 * Refused (the launch runs on its own device, with one warning per
 * kernel): kernels with global atomics (a byte merge cannot add two
 * shares' increments), launches of one work-group. A share whose
 * inspector reads buffer data reads host views of them on its own device
 * (inspect.c).
 *
 * Threads: the caller holds the runtime lock and waits; the share
 * threads use only vrt_real.*, their own copies of the launch, kernel
 * and buffers, and what paged/ guards for them (its queue list, one
 * staging area per set and device).
 */
#include <stdio.h>
#include <string.h>

#include "launch/launch.h"

/* What a kernel's shares measured on each device (partition.c's model),
 * by kernel name; guarded by the runtime lock. */
typedef struct measure {
	char *kernel;
	cl_device_id dev[VRT_MAX_DEVICES];
	double rate[VRT_MAX_DEVICES];    /* work-groups per second of kernel time */
	double xfer[VRT_MAX_DEVICES];    /* seconds of transfers per work-group */
	double overhead[VRT_MAX_DEVICES]; /* seconds of planning per share */
	double merge_bps;                /* bytes per second of private copy and merge */
	int warned;                      /* a refusal was logged */
	/* The work-groups each device ran in the last launch, when all of
	 * it ran on resident shares: the next keeps them while the model's
	 * are near (keep_split). */
	size_t last[VRT_MAX_DEVICES];
	size_t last_groups;
	unsigned last_n;
	/* Bytes a work-group moves one way (traffic.c) for bytes_groups
	 * groups split bytes_n ways. */
	double bytes;
	size_t bytes_groups;
	unsigned bytes_n;
	struct measure *next;
} measure;
static measure *all_measures;

static measure *measure_for(const char *kernel)
{
	measure *m;
	for (m = all_measures; m; m = m->next)
		if (!strcmp(m->kernel, kernel))
			return m;
	if (!(m = vrt_calloc(1, sizeof *m)) || !(m->kernel = vrt_strdup(kernel))) {
		vrt_free(m);
		return NULL;
	}
	m->next = all_measures;
	all_measures = m;
	return m;
}

static int measured(const measure *m, cl_device_id d, unsigned *at)
{
	for (unsigned i = 0; i < VRT_MAX_DEVICES && m->dev[i]; i++)
		if (m->dev[i] == d) {
			*at = i;
			return m->rate[i] > 0;
		}
	return 0;
}

/* Why L cannot be split exactly, or NULL. */
static const char *refusal(const vrt_launch *L)
{
	if (!L->can_page)
		return "no paged variant can run it";
	if (!L->k->info->merge_exact)
		return "it uses global atomics, whose partial results no byte merge combines";
	for (unsigned s = 1; s <= L->nslots; s++) {
		if (L->slot_mode[s] & VAST_MODE_ATOMIC)
			return "it uses global atomics, whose partial results no byte merge combines";
	}
	if (L->groups < 2)
		return "it has one work-group";
	return NULL;
}

/* One device's part of the launch: every window it runs writes into the
 * same private copies. */
typedef struct share {
	vrt_launch L;   /* the launch's copy: its device, window, stats, buffers */
	vrt_kernel k;   /* the kernel's copy on the device's own program */
	vrt_kstats st;  /* of its current window */
	vrt_mem mem[VAST_MAX_SLOTS + 1];
	unsigned char *priv[VAST_MAX_SLOTS + 1]; /* written slots' private copies */
	unsigned char home[VAST_MAX_SLOTS + 1];  /* written straight home (disjoint) */
	unsigned dev;   /* index among the launch's devices */
	int made;       /* set up (make_share) */
	cl_int err;
	double ms;      /* wall time of the current window */
	pthread_t tid;
	int threaded;
} share;

static void *run_share(void *p)
{
	share *sh = p;
	double t0 = vrt_now_ms();
	sh->err = vrt_paged_run(&sh->L);
	sh->ms = vrt_now_ms() - t0;
	return NULL;
}

/* The copy of L for device devs[j]: its context, kernel and buffers. */
static cl_int make_share(vrt_launch *L, share *sh, unsigned j, cl_device_id dev)
{
	sh->made = 1;
	sh->L = *L;
	sh->dev = j;
	sh->L.stage_base = j * VRT_MAX_SETS;
	sh->L.st = &sh->st;
	sh->L.partial = 0;
	sh->L.share = 1;
	sh->L.dev = dev;
	sh->L.budget = vrt_budget(dev, L->footprint);
	if (j > 0) {
		cl_program prog;
		cl_int err = vrt_device_program(L->k->prog, dev, &sh->L.ctx, &prog, &sh->L.q);
		if (err != CL_SUCCESS)
			return err;
		/* Its variants are made from the device's program (kernel.c). */
		sh->k = *L->k;
		sh->k.real_prog = prog;
		sh->k.inspect = sh->k.paged = sh->k.straight = NULL;
		sh->L.k = &sh->k;
	}
	for (unsigned s = 1; s <= L->nslots; s++) {
		vrt_mem *m = &sh->mem[s];
		*m = *L->slot_mem[s];
		/* Moved through the share's own context: no pinned buffer or
		 * device copy of the program's. */
		memset(&m->pin, 0, sizeof m->pin);
		m->dev = NULL;
		m->dev_queue = NULL;
		/* Its host bytes are current for the share: no directory. */
		m->dir = NULL;
		m->dev_loc = -1;
		m->replicas = NULL;
		if ((L->slot_mode[s] & VAST_MODE_W) && !sh->home[s]) {
			if (!(sh->priv[s] = vrt_malloc(m->size ? m->size : 1)))
				return CL_OUT_OF_HOST_MEMORY;
			vrt_copy(sh->priv[s], m->host, m->size);
			m->host = sh->priv[s];
		}
		sh->L.slot_mem[s] = m;
	}
	return CL_SUCCESS;
}

static void drop_share(share *sh)
{
	if (sh->dev > 0) {
		if (sh->k.inspect)
			vrt_real.clReleaseKernel(sh->k.inspect);
		if (sh->k.paged)
			vrt_real.clReleaseKernel(sh->k.paged);
		if (sh->k.straight)
			vrt_real.clReleaseKernel(sh->k.straight);
	}
	for (unsigned s = 0; s <= VAST_MAX_SLOTS; s++)
		vrt_free(sh->priv[s]);
}

/* The merge of one written slot, block by block (see the top). */
#define MERGE_BLOCK 4096
typedef struct merge_job {
	unsigned char *host;
	size_t size;
	share *sh;
	unsigned nsh;
	unsigned slot;
} merge_job;

static void merge_blocks(void *ctx, size_t begin, size_t end)
{
	merge_job *j = ctx;
	for (size_t b = begin; b < end; b++) {
		size_t off = b * MERGE_BLOCK;
		size_t len = j->size - off < MERGE_BLOCK ? j->size - off : MERGE_BLOCK;
		unsigned char *h = j->host + off;
		int who = -1, many = 0;
		for (unsigned d = 0; d < j->nsh && !many; d++)
			if (j->sh[d].made && memcmp(j->sh[d].priv[j->slot] + off, h, len)) {
				many = who >= 0;
				who = (int)d;
			}
		if (who < 0)
			continue;
		if (!many) {
			memcpy(h, j->sh[who].priv[j->slot] + off, len);
			continue;
		}
		for (size_t i = 0; i < len; i++) {
			unsigned char v = h[i];
			for (unsigned d = 0; d < j->nsh; d++)
				if (j->sh[d].made && j->sh[d].priv[j->slot][off + i] != h[i])
					v = j->sh[d].priv[j->slot][off + i];
			h[i] = v;
		}
	}
}

/* What a window of `groups` work-groups measured on device d (kernel_ms
 * of kernel time, inspect_ms of planning, ms in all), into the model (a
 * running mean: half old, half new, so the model follows a device whose
 * speed changes). */
static void learn_window(measure *m, cl_device_id d, size_t groups, double kernel_ms,
                         double inspect_ms, double ms)
{
	unsigned at = 0;
	while (at < VRT_MAX_DEVICES - 1 && m->dev[at] && m->dev[at] != d)
		at++;
	m->dev[at] = d;
	double ks = kernel_ms / 1e3, is = inspect_ms / 1e3;
	double xs = ms / 1e3 - ks - is;
	double rate = ks > 0 ? groups / ks : 0;
	double xfer = xs > 0 ? xs / groups : 0;
	if (rate <= 0)
		return;
	int first = !(m->rate[at] > 0);
	m->rate[at] = first ? rate : (m->rate[at] + rate) / 2;
	m->xfer[at] = first ? xfer : (m->xfer[at] + xfer) / 2;
	m->overhead[at] = first ? is : (m->overhead[at] + is) / 2;
}

static void learn(measure *m, cl_device_id d, const share *sh)
{
	learn_window(m, d, sh->L.groups, sh->st.kernel_ms, sh->st.inspect_ms, sh->ms);
}

/* The most bytes a work-group of L moves one way, split n ways
 * (traffic.c), kept for the kernel's next launch of as many groups. */
static double group_bytes(const vrt_launch *L, measure *m, unsigned n)
{
	if (m->bytes_groups != L->groups || m->bytes_n != n) {
		m->bytes = vrt_group_bytes(L, n);
		m->bytes_groups = L->groups;
		m->bytes_n = n;
	}
	return m->bytes;
}

/* Work-groups per device for `groups` of L's, from the partitioner
 * (partition.c) and no profiling: a device measured by an earlier launch
 * of the kernel as it measured, one not yet from its model (devmodel.c,
 * ctxs[j] its context) and the kernel's work per group. That work is the
 * multiply-adds the measured devices' rates imply; on the first launch
 * one per 4 bytes a group moves (kernels vastcc pages move more than they
 * compute) and at least one per work-item. */
static void choose_shares(const vrt_launch *L, measure *m, const cl_device_id *devs,
                          const cl_context *ctxs, unsigned n, size_t groups, size_t *out)
{
	vrt_pdev pd[VRT_MAX_DEVICES], modelled[VRT_MAX_DEVICES];
	vrt_devmodel dm[VRT_MAX_DEVICES];
	int known[VRT_MAX_DEVICES];
	double w = group_bytes(L, m, n), implied = 0;
	unsigned nimplied = 0;
	for (unsigned j = 0; j < n; j++) {
		const vrt_devmodel *x = vrt_devmodel_of(devs[j], ctxs[j]);
		memset(&dm[j], 0, sizeof dm[j]);
		if (x)
			dm[j] = *x;
		unsigned at;
		if ((known[j] = measured(m, devs[j], &at))) {
			/* A work-group's bytes cross the link; the link's speed is
			 * what makes the measured transfer time per group. */
			pd[j].rate = m->rate[at];
			pd[j].link_bw = m->xfer[at] > 0 ? w / m->xfer[at] : 0;
			pd[j].overhead_s = m->overhead[at];
			/* Which devices share a link OpenCL 1.2 does not say: each
			 * has its own (docs/multi.md). */
			pd[j].link = j;
			if (dm[j].fma_per_s > 0) {
				implied += dm[j].fma_per_s / m->rate[at];
				nimplied++;
			}
		}
	}
	size_t written = 0;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->slot_mode[s] & VAST_MODE_W)
			written += L->slot_mem[s]->size;
	vrt_pwork work = {groups, w, m->merge_bps > 0 ? (double)written / m->merge_bps : 0,
	                  vrt_host_bw()};
	double items = (double)L->lsize[0] * (L->dim > 1 ? L->lsize[1] : 1) *
	               (L->dim > 2 ? L->lsize[2] : 1);
	double per_group = nimplied ? implied / nimplied : w / 4;
	if (per_group < items)
		per_group = items;
	vrt_model_pdevs(dm, n, &work, per_group, modelled);
	for (unsigned j = 0; j < n; j++)
		if (!known[j])
			pd[j] = modelled[j];
	vrt_partition(pd, n, &work, out);
}

/* Runs the windows [start[j], start[j] + counts[j]) on device j, all at
 * once, with private copies where needed; their statistics go to L's and
 * the model. */
static cl_int run_windows(vrt_launch *L, measure *m, const cl_device_id *devs, share *sh,
                          unsigned n, const size_t *start, const size_t *counts)
{
	cl_int err = CL_SUCCESS;
	for (unsigned j = 0; j < n && err == CL_SUCCESS; j++) {
		if (!counts[j])
			continue;
		if (!sh[j].made)
			err = make_share(L, &sh[j], j, devs[j]);
		memset(&sh[j].st, 0, sizeof sh[j].st);
		sh[j].st.name = L->k->name;
		sh[j].L.group_base = start[j];
		sh[j].L.groups = counts[j];
	}
	for (unsigned j = 0; j < n && err == CL_SUCCESS; j++)
		if (counts[j])
			sh[j].threaded = pthread_create(&sh[j].tid, NULL, run_share, &sh[j]) == 0;
	for (unsigned j = 0; j < n && err == CL_SUCCESS; j++) {
		if (!counts[j])
			continue;
		if (sh[j].threaded)
			pthread_join(sh[j].tid, NULL);
		else
			run_share(&sh[j]);
	}
	for (unsigned j = 0; j < n && err == CL_SUCCESS; j++) {
		if (!counts[j])
			continue;
		if ((err = sh[j].err) != CL_SUCCESS) {
			vrt_log(VRT_LOG_WARN, "kernel '%s': its share on device '%s' failed: %s",
			        L->k->name, vrt_device_name(devs[j]), vrt_cl_error_name(err));
			break;
		}
		const vrt_kstats *st = &sh[j].st;
		L->st->ranges += st->ranges;
		L->st->h2d += st->h2d;
		L->st->d2h += st->d2h;
		L->st->inspect_ms += st->inspect_ms;
		L->st->kernel_ms += st->kernel_ms;
		L->st->fp_plans += st->fp_plans;
		L->st->straight += st->straight;
		L->st->dev_groups[j] += counts[j];
		learn(m, devs[j], &sh[j]);
	}
	return err;
}

/* The largest page a share may use (paged/planner.c's choose_shift only lowers
 * it): shares write back whole pages. */
static unsigned largest_page_shift(void)
{
	return vrt_cfg.page_shift > 16 ? vrt_cfg.page_shift : 16;
}

static int write_only(const vrt_launch *L, unsigned s)
{
	return (L->slot_mode[s] & VAST_MODE_RW) == VAST_MODE_W;
}

/* Whether a window boundary before group g cuts no page (of 2^shift
 * bytes) of a write-only slot, or with all of a written one: every page
 * groups up to g - 1 may write lies before those group g may write
 * (their spans, fprows.c). */
static int clean_cut(const vrt_launch *L, vrt_fp_plan *P, size_t g, unsigned shift, int all)
{
	for (unsigned s = 1; s <= L->nslots; s++) {
		long long lo0, hi0, lo1, hi1;
		if (!(all ? (L->slot_mode[s] & VAST_MODE_W) != 0 : write_only(L, s)))
			continue;
		if (vrt_fp_write_span(P, s, g - 1, g, &lo0, &hi0) != 1 ||
		    vrt_fp_write_span(P, s, g, g + 1, &lo1, &hi1) != 1)
			return 0;
		if (hi0 > lo0 && hi1 > lo1 && (hi0 - 1) >> shift >= lo1 >> shift)
			return 0;
	}
	return 1;
}

/* Moves each boundary between neighbouring windows (counts[j] groups
 * from group 0) to the nearest clean cut within ALIGN_REACH groups, less
 * than half of either window: a page that a boundary cuts would be
 * written by both shares, and so need a merge (private copies, or on a
 * device for resident shares).
 * Writes that grow with the group (a row of tiles after another) cut
 * cleanly at the pages they cross; whether the whole windows are then
 * disjoint, disjoint() decides. Pages of 2^shift bytes, of write-only
 * slots (shares writing in place) or with all, of every written one
 * (resident shares: resident.c records writes at 4 KiB pages). */
#define ALIGN_REACH 4096
static int align(const vrt_launch *L, unsigned n, size_t base, size_t *counts, unsigned shift,
                 int all)
{
	int oom = 0;
	vrt_fp_plan *P = vrt_fp_plan_new(L, &oom);
	size_t g = base;
	for (unsigned j = 0; P && j + 1 < n; j++) {
		g += counts[j];
		size_t a = counts[j] < counts[j + 1] ? counts[j] : counts[j + 1];
		if (!a)
			continue;
		size_t reach = a / 2 < ALIGN_REACH ? a / 2 : ALIGN_REACH;
		for (size_t d = 0; d <= reach; d++) {
			if (clean_cut(L, P, g + d, shift, all)) {
				counts[j] += d;
				counts[j + 1] -= d;
				g += d;
				break;
			}
			if (d && clean_cut(L, P, g - d, shift, all)) {
				counts[j] -= d;
				counts[j + 1] += d;
				g -= d;
				break;
			}
		}
	}
	vrt_fp_plan_free(P);
	return oom ? -1 : 0;
}

/* Whether the windows of counts[j] work-groups from base, one per device,
 * may write no page of slot s in common (descriptors, fprows.c): then no
 * share's write-back of a whole page holds another's stale bytes, and
 * every share writes the host copy in place. -1: out of memory. */
static int disjoint(const vrt_launch *L, unsigned s, unsigned n, size_t base, const size_t *counts)
{
	unsigned shift = largest_page_shift();
	size_t size = L->slot_mem[s]->size, nb = ((size - 1) >> shift) + 1;
	unsigned char *seen = vrt_calloc(nb ? nb : 1, 1), *mine = vrt_malloc(nb ? nb : 1);
	int ok = seen && mine ? 1 : -1;
	size_t g0 = base;
	for (unsigned j = 0; j < n && ok == 1; g0 += counts[j], j++) {
		if (!counts[j])
			continue;
		vrt_launch W = *L;
		W.group_base = g0;
		W.groups = counts[j];
		int oom = 0;
		vrt_fp_plan *P = vrt_fp_plan_new(&W, &oom);
		int r = P ? vrt_fp_may_write(P, s, shift, nb, mine) : oom ? -1 : 0;
		vrt_fp_plan_free(P);
		if (r != 1) {
			ok = r;
			break;
		}
		for (size_t b = 0; b < nb && ok == 1; b++) {
			ok = !(mine[b] && seen[b]);
			seen[b] |= mine[b];
		}
	}
	vrt_free(seen);
	vrt_free(mine);
	return ok;
}

/* Writes the shares' private copies into the host copies (see the top). */
static void merge(vrt_launch *L, measure *m, share *sh, unsigned n)
{
	double t0 = vrt_now_ms();
	size_t bytes = 0;
	for (unsigned s = 1; s <= L->nslots; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || sh[0].home[s])
			continue;
		vrt_mem *mem = L->slot_mem[s];
		merge_job job = {mem->host, mem->size, sh, n, s};
		size_t blocks = (mem->size + MERGE_BLOCK - 1) / MERGE_BLOCK;
		unsigned made = 0;
		for (unsigned j = 0; j < n; j++)
			made += sh[j].made;
		vrt_parallel(blocks, mem->size * made, merge_blocks, &job);
		bytes += mem->size * made;
	}
	double t1 = vrt_now_ms();
	vrt_trace_host("merge", L->k->name, t0, t1, -1, bytes);
	if (t1 > t0 && bytes)
		m->merge_bps = bytes / ((t1 - t0) / 1e3);
}

/* The launch's split of the model, or the last launch's where each
 * device's part is within half of it: moving a boundary moves the data
 * resident shares keep (resident.c), which the model does not price,
 * and two devices alike measure apart by noise (two PoCL devices on one
 * busy CPU by a quarter and more). */
static void keep_split(const vrt_launch *L, const measure *m, unsigned n, size_t *counts)
{
	if (m->last_groups != L->groups || m->last_n != n || !L->groups)
		return;
	for (unsigned j = 0; j < n; j++) {
		size_t d = counts[j] > m->last[j] ? counts[j] - m->last[j] : m->last[j] - counts[j];
		if (d > m->last[j] / 2)
			return;
	}
	memcpy(counts, m->last, n * sizeof *counts);
}

/* Aggregate memory: a device's window of the launch's data must fit its
 * budget for its share to stay resident (resident.c), which the
 * partitioner's speeds do not know. Where the data fits the devices'
 * budgets together, a device given more groups than its budget holds at
 * the launch's bytes per group (all its buffers over all its groups: a
 * window needs no less) gives the rest to devices with room, in order.
 * Where it does not fit, the shares stay as they are (and page). */
static void fit_memory(const vrt_launch *L, const cl_device_id *devs, unsigned n,
                       size_t *counts)
{
	if (!L->groups || !L->footprint)
		return;
	double per_group = (double)L->footprint / (double)L->groups;
	size_t cap[VRT_MAX_DEVICES], room = 0, excess = 0;
	for (unsigned j = 0; j < n; j++) {
		/* A window's replicas have room past it (resident.c): a margin. */
		double c = (double)vrt_budget(devs[j], L->footprint) * 0.95 / per_group;
		cap[j] = c >= (double)L->groups ? L->groups : (size_t)c;
		room += cap[j];
	}
	if (room < L->groups)
		return;
	size_t used_room = 0;
	for (unsigned j = 0; j < n; j++)
		used_room += counts[j] ? cap[j] : 0;
	if (used_room < L->groups)
		return; /* only with a device the partitioner left out: as it is */
	for (unsigned j = 0; j < n; j++)
		if (counts[j] > cap[j]) {
			excess += counts[j] - cap[j];
			counts[j] = cap[j];
		}
	/* Only to devices the partitioner uses (a CPU beside GPUs may have
	 * none: it would not pay for its transfers). */
	for (unsigned j = 0; j < n && excess; j++) {
		if (!counts[j])
			continue;
		size_t give = cap[j] - counts[j] < excess ? cap[j] - counts[j] : excess;
		counts[j] += give;
		excess -= give;
	}
}

/* A round on resident shares (resident.c); its devices' times into the
 * model: all kernel time, nothing crossed a link in the window. Its
 * merged pages and bytes add to *sum; why it could not run, if so. */
static int run_resident(vrt_launch *L, measure *m, const cl_device_id *devs, unsigned n,
                        const size_t *start, const size_t *counts, vrt_resident_note *sum,
                        cl_int *err)
{
	double ms[VRT_MAX_DEVICES] = {0};
	vrt_resident_note note;
	int ran = vrt_resident_run(L, devs, n, start, counts, ms, &note, err);
	sum->merged_pages += note.merged_pages;
	sum->merged_bytes += note.merged_bytes;
	sum->why_not = note.why_not;
	if (!ran)
		return 0;
	for (unsigned j = 0; j < n && *err == CL_SUCCESS; j++) {
		if (!counts[j])
			continue;
		L->st->dev_groups[j] += counts[j];
		learn_window(m, devs[j], counts[j], ms[j], 0, ms[j]);
	}
	return 1;
}

/* Every share of the rounds from here works from the host copies: the
 * device copies and replicas of the program's context are written home. */
static cl_int legacy_start(vrt_launch *L)
{
	cl_int err = vrt_mem_evict_all(L->ctx);
	for (unsigned s = 1; s <= L->nslots && err == CL_SUCCESS; s++)
		err = vrt_mem_to_host(L->slot_mem[s]); /* pages kept dirty come home */
	return err;
}

int vrt_multi_run(vrt_launch *L, cl_int *err)
{
	cl_device_id devs[VRT_MAX_DEVICES];
	unsigned n = 1 + vrt_devices_others(L->dev, devs + 1);
	if (n < 2)
		return 0;
	devs[0] = L->dev;
	vrt_kernel *k = L->k;
	measure *m = measure_for(k->name);
	if (!m) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return 1;
	}
	const char *why = refusal(L);
	if (why) {
		if (!m->warned)
			vrt_log(VRT_LOG_WARN, "kernel '%s' runs on one device of VAST_DEVICES: %s",
			        k->name, why);
		m->warned = 1;
		L->st->dev_groups[0] += L->groups;
		return 0;
	}
	/* Devices that cannot build the program stay out (logged). */
	cl_context ctxs[VRT_MAX_DEVICES] = {L->ctx};
	unsigned usable = 1;
	for (unsigned j = 1; j < n; j++) {
		cl_context c;
		cl_program p;
		cl_command_queue q;
		if (vrt_device_program(k->prog, devs[j], &c, &p, &q) == CL_SUCCESS) {
			ctxs[usable] = c;
			devs[usable++] = devs[j];
		}
	}
	n = usable;
	size_t rest[VRT_MAX_DEVICES] = {0};
	if (n > 1)
		choose_shares(L, m, devs, ctxs, n, L->groups, rest);
	if (n < 2 || rest[0] == L->groups) {
		vrt_log(VRT_LOG_INFO, "kernel '%s': one device pays best; not split", k->name);
		L->st->dev_groups[0] += L->groups;
		return 0;
	}

	share *sh = vrt_calloc(n, sizeof *sh);
	if (!sh) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return 1;
	}
	vrt_kstats before = *L->st;
	double t0 = vrt_now_ms();
	size_t start[VRT_MAX_DEVICES];
	/* The windows, one per device, run on resident shares where they
	 * can; else the shares work from the host copies (legacy_start) with
	 * private copies and the merge. */
	int resident, legacy = 0, moved = 0;
	vrt_resident_note note = {0};
	*err = CL_SUCCESS;
	keep_split(L, m, n, rest);
	fit_memory(L, devs, n, rest);
	if (align(L, n, 0, rest, largest_page_shift(), 0) < 0 ||
	    align(L, n, 0, rest, VRT_RESIDENT_SHIFT, 1) < 0)
		*err = CL_OUT_OF_HOST_MEMORY;
	for (unsigned j = 0; j < n; j++)
		start[j] = j ? start[j - 1] + rest[j - 1] : 0;
	if (*err == CL_SUCCESS)
		moved = resident = run_resident(L, m, devs, n, start, rest, &note, err);
	else
		resident = 0;
	/* The windows write their write-only buffers in place where their
	 * write sets are disjoint; a write-only one, so that a launch run
	 * again on one device (below) computes the same bytes. */
	size_t priv = 0;
	int homed = 0; /* legacy_start brought every written buffer home */
	if (*err == CL_SUCCESS && !resident) {
		legacy = 1;
		homed = (*err = legacy_start(L)) == CL_SUCCESS;
	}
	for (unsigned s = 1; s <= L->nslots && *err == CL_SUCCESS && !resident; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W))
			continue;
		int r = write_only(L, s) ? disjoint(L, s, n, 0, rest) : 0;
		if (r < 0)
			*err = CL_OUT_OF_HOST_MEMORY;
		for (unsigned j = 0; j < n; j++) {
			sh[j].home[s] = r == 1;
			priv += r == 1 || !rest[j] ? 0 : L->slot_mem[s]->size;
		}
	}
	if (*err == CL_SUCCESS && !resident)
		*err = run_windows(L, m, devs, sh, n, start, rest);
	/* Shares wrote host copies in place, the merge writes them: the host
	 * alone holds their bytes now (a failed share's too: launch.c then
	 * refuses them), not the pages frame pools kept (poolloc.c). Not
	 * where the bytes never all came home (legacy_start failed: no
	 * share ran). */
	for (unsigned s = 1; homed && s <= L->nslots; s++)
		if (L->slot_mode[s] & VAST_MODE_W)
			vrt_mem_host_changed(L->slot_mem[s]);
	double t1 = vrt_now_ms();
	if (*err == CL_SUCCESS) {
		/* The host copies change from here; merging cannot fail. */
		if (legacy)
			merge(L, m, sh, n);
		char line[512];
		size_t at = 0;
		for (unsigned j = 0; j < n; j++)
			if (at < sizeof line)
				at += (size_t)snprintf(line + at, sizeof line - at, " %s:%zu",
				                       vrt_device_name(devs[j]), rest[j]);
		char how[256] = "", merged[96] = "";
		if (note.merged_pages)
			snprintf(merged, sizeof merged, ", merged on the devices %zu pages (%zu bytes brought)",
			         note.merged_pages, note.merged_bytes);
		if (!legacy)
			snprintf(how, sizeof how, ", resident (h2d %llu bytes, d2h %llu)%s",
			         L->st->h2d - before.h2d, L->st->d2h - before.d2h, merged);
		else
			snprintf(how, sizeof how, ", merged on the host: %s",
			         note.why_not ? note.why_not : "resident shares cannot run it");
		vrt_log(VRT_LOG_INFO, "kernel '%s': split over %u devices (work-groups%s), %.3f ms, merge %.3f ms, private copies %zu bytes%s",
		        k->name, n, line, t1 - t0, vrt_now_ms() - t1, priv, how);
		/* What the next launch keeps where its data is (keep_split). */
		m->last_groups = legacy ? 0 : L->groups;
		m->last_n = n;
		for (unsigned j = 0; j < n; j++)
			m->last[j] = rest[j];
	}
	for (unsigned j = 0; j < n; j++)
		drop_share(&sh[j]);
	vrt_free(sh);
	if (*err == CL_MEM_OBJECT_ALLOCATION_FAILURE && !moved) {
		/* A share's work-group did not fit its device; the host copies
		 * are untouched, and the launch's own path may still choose
		 * smaller work-groups (launch.c). */
		vrt_log(VRT_LOG_INFO, "kernel '%s': a share did not fit its device; not split", k->name);
		*L->st = before;
		L->st->dev_groups[0] += L->groups;
		*err = CL_SUCCESS;
		return 0;
	}
	return 1;
}
