/* SPDX-License-Identifier: MIT */
/*
 * partition.c - how many work-groups of one launch each device runs
 * (SKMD's partitioner, Lee et al. PACT 2013 §4; docs/multi.md).
 *
 * The model. Device j computes t_j work-groups per second and pays o_j
 * seconds per share (launch, inspection, frame set-up). Its pages cross
 * a link of b_L bytes per second per direction; devices on one link
 * share it, their transfers serialised; a device with no link (the
 * host's own memory) pays nothing. A work-group moves w bytes each way
 * at most (max of in and out: the directions overlap). Share n_j then
 * takes
 *     T_j = o_j + n_j / t_j + S_L / b_L,   S_L = w * sum_{k on L} n_k,
 * the link's serialised bytes before the device's last kernel. Every
 * device of the set S used finishes at the same T (no device idles
 * while another works): each n_j is linear in T, so sum n_j = G gives T
 * in closed form. A share that comes out negative (the device's fixed
 * cost alone passes T) drops the device and the set is solved again.
 * Using several devices costs a merge of the written bytes on the host
 * (each share's private copy compared with the original, multi.c), a
 * cost that grows with |S|. Every set of devices is tried (at most
 * VRT_MAX_DEVICES, 2^8 sets) and the fastest wins, so a device that
 * would not pay for its transfers and the merge gets nothing: the
 * dissertation's Algorithm 1 and its minimum offload, made exact by
 * exhaustion instead of greed. Of sets that end as soon, the fewest
 * devices win. A host device's kernel reads host memory, which the links'
 * transfers also cross: a set with both kinds ends no sooner than every
 * group's bytes through host memory (w * G / host_bw), so a CPU beside
 * GPUs takes part in a launch bound by compute, not in one bound by
 * transfers. Host devices alone, or linked ones alone, are bounded by
 * their own rates and links.
 *
 * vrt_model_pdevs makes the devices of the first launch of a kernel from
 * the device models (devmodel.c) and an estimate of its work per group.
 *
 * Pure: no OpenCL, no state; thread-safe.
 */
#include <string.h>

#include "launch/launch.h"

/* Shares of the devices in `set` (bit j: device j) finishing together at
 * the returned T; n[] real-valued. A negative n_j means that device
 * cannot take part. */
static double solve(const vrt_pdev *d, unsigned n, const vrt_pwork *w, unsigned set,
                    double *share)
{
	/* sum_j n_j(T) is linear in T: evaluate at T = 0 and T = 1. */
	double at[2];
	for (int t = 0; t < 2; t++) {
		double total = 0;
		for (unsigned j = 0; j < n; j++) {
			if (!(set >> j & 1))
				continue;
			/* The link's bytes S_L for this T: from the equations of
			 * every device of set on j's link. */
			double st = 0, sto = 0;
			int linked = d[j].link_bw > 0;
			for (unsigned k = 0; linked && k < n; k++)
				if ((set >> k & 1) && d[k].link_bw > 0 && d[k].link == d[j].link) {
					st += d[k].rate;
					sto += d[k].rate * d[k].overhead_s;
				}
			double sl = 0;
			if (linked)
				sl = w->bytes_per_group * (t * st - sto) /
				     (1 + w->bytes_per_group * st / d[j].link_bw);
			double nj = d[j].rate * (t - d[j].overhead_s - (linked ? sl / d[j].link_bw : 0));
			total += nj;
			if (t == 1)
				share[j] = nj; /* slope: n_j(T) = n_j(0) + T * (n_j(1) - n_j(0)) */
			else
				share[j + VRT_MAX_DEVICES] = nj;
		}
		at[t] = total;
	}
	double slope = at[1] - at[0];
	if (slope <= 0)
		return -1;
	double T = ((double)w->groups - at[0]) / slope;
	for (unsigned j = 0; j < n; j++)
		if (set >> j & 1) {
			double n0 = share[j + VRT_MAX_DEVICES];
			share[j] = n0 + T * (share[j] - n0);
		}
	return T;
}

double vrt_partition(const vrt_pdev *d, unsigned n, const vrt_pwork *w, size_t *out)
{
	double best = -1, share[2 * VRT_MAX_DEVICES];
	int best_used = 0;
	double pick[VRT_MAX_DEVICES] = {0};
	if (n > VRT_MAX_DEVICES)
		n = VRT_MAX_DEVICES;
	for (unsigned set = 1; set < 1u << n; set++) {
		int ok = 1, used = 0;
		for (unsigned j = 0; j < n; j++)
			if ((set >> j & 1) && !(d[j].rate > 0))
				ok = 0;
		if (!ok)
			continue;
		double T = solve(d, n, w, set, share);
		for (unsigned j = 0; j < n; j++)
			if (set >> j & 1) {
				used++;
				/* Less than one work-group does not pay for a share. */
				if (!(share[j] >= 1) && w->groups >= 1)
					ok = 0;
			}
		if (!ok || T < 0)
			continue;
		/* A host device beside linked ones: its kernel's traffic and the
		 * links' transfers share host memory, every group's bytes. */
		int host = 0, linked = 0;
		for (unsigned j = 0; j < n; j++)
			if (set >> j & 1) {
				host |= !(d[j].link_bw > 0);
				linked |= d[j].link_bw > 0;
			}
		if (host && linked && w->host_bw > 0) {
			double bound = w->bytes_per_group * (double)w->groups / w->host_bw;
			T = bound > T ? bound : T;
		}
		if (used > 1)
			T += used * w->merge_s;
		/* As soon with fewer devices: a device that saves nothing
		 * gets nothing. */
		if (best < 0 || T < best * (1 - 1e-9) || (T <= best * (1 + 1e-9) && used < best_used)) {
			best = T;
			best_used = used;
			for (unsigned j = 0; j < n; j++)
				pick[j] = set >> j & 1 ? share[j] : 0;
		}
	}
	/* Whole work-groups: rounded down, then one more to each of the
	 * devices with the largest fractions (fewer than n groups are
	 * left), so every share is within a group of its real value. */
	size_t given = 0;
	for (unsigned j = 0; j < n; j++) {
		out[j] = best < 0 ? 0 : (size_t)pick[j];
		given += out[j];
	}
	if (best < 0) {
		/* No rate known anywhere: all on device 0. */
		out[0] = w->groups;
		return best;
	}
	while (given < w->groups) {
		unsigned big = 0;
		double most = -1e300;
		for (unsigned j = 0; j < n; j++)
			if (pick[j] > 0 && pick[j] - (double)out[j] > most) {
				most = pick[j] - (double)out[j];
				big = j;
			}
		out[big]++;
		given++;
	}
	return best;
}

/* A host device's kernel reads and writes its bytes in host memory, at
 * most 2 w a group: its rate stays within what the host's bandwidth
 * passes. A linked device's device memory is taken not to bound it (an
 * H200's 4.8 TB/s against its link's 55 GB/s). */
void vrt_model_pdevs(const vrt_devmodel *m, unsigned n, const vrt_pwork *w, double work,
                     vrt_pdev *out)
{
	for (unsigned j = 0; j < n; j++) {
		double rate = work > 0 ? m[j].fma_per_s / work : 0;
		if (!(m[j].link_bw > 0) && w->host_bw > 0 && w->bytes_per_group > 0) {
			double mem = w->host_bw / (2 * w->bytes_per_group);
			rate = mem < rate ? mem : rate;
		}
		out[j].rate = rate;
		out[j].link_bw = m[j].link_bw;
		out[j].link = j; /* which devices share a link OpenCL does not say */
		out[j].overhead_s = 0;
	}
}
