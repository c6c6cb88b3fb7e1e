/* SPDX-License-Identifier: MIT */
/*
 * test_rt_partition.c - the partitioner (partition.c, docs/multi.md) on
 * modelled devices: one fast and one slow share a launch so both finish
 * together; a device behind a slow link gets nothing; devices sharing a
 * link pay for it; a fixed cost or a merge that does not pay keeps a
 * small launch on one device; no rate known leaves it on device 0.
 * Then the first launch's partition from device models alone
 * (vrt_model_pdevs): equal devices, 2, 4 or 8 of them, split evenly;
 * unequal ones by their speed; one behind a slow link gets less, or
 * nothing where a merge is to pay; a CPU beside GPUs gets nothing for a
 * launch bound by transfers and a share of one bound by compute.
 * Finish times are recomputed here from the model's equation, not
 * copied from the implementation.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

/* T_j = o_j + n_j / t_j + (bytes on j's link) / b_j for a used device. */
static double finish(const vrt_pdev *d, unsigned n, const vrt_pwork *w, const size_t *s,
                     unsigned j)
{
	double link = 0;
	for (unsigned k = 0; d[j].link_bw > 0 && k < n; k++)
		if (s[k] && d[k].link_bw > 0 && d[k].link == d[j].link)
			link += (double)s[k] * w->bytes_per_group;
	return d[j].overhead_s + (double)s[j] / d[j].rate + (d[j].link_bw > 0 ? link / d[j].link_bw : 0);
}

static size_t sum(const size_t *s, unsigned n)
{
	size_t t = 0;
	for (unsigned j = 0; j < n; j++)
		t += s[j];
	return t;
}

/* Used devices finish within `slack` seconds of each other. */
static int together(const vrt_pdev *d, unsigned n, const vrt_pwork *w, const size_t *s,
                    double slack)
{
	double lo = INFINITY, hi = 0;
	for (unsigned j = 0; j < n; j++)
		if (s[j]) {
			double t = finish(d, n, w, s, j);
			lo = t < lo ? t : lo;
			hi = t > hi ? t : hi;
		}
	return hi - lo <= slack;
}

static void test_fast_and_slow(void)
{
	vrt_pdev d[2] = {{1000, 0, 0, 0}, {100, 0, 1, 0}};
	vrt_pwork w = {11000, 0, 0, 0};
	size_t s[2];
	double T = vrt_partition(d, 2, &w, s);
	CHECK(sum(s, 2) == w.groups);
	CHECK(s[0] > 0 && s[1] > 0);
	CHECK(s[0] > s[1]);
	/* Within one work-group of the slow device. */
	CHECK(together(d, 2, &w, s, 1.0 / 100));
	/* Faster than the fast device alone. */
	CHECK(T < w.groups / d[0].rate);
}

static void test_slow_link_gets_nothing(void)
{
	/* Device 1 computes as fast as device 0 but each group's 1 MB crosses
	 * a 100 MB/s link: a group costs it 10 ms, device 0 1 ms. */
	vrt_pdev d[2] = {{1000, 0, 0, 0}, {1000, 100e6, 1, 0}};
	vrt_pwork w = {1000, 1e6, 0.5, 0};
	size_t s[2];
	vrt_partition(d, 2, &w, s);
	CHECK(s[0] == w.groups && s[1] == 0);
	/* Behind a fast link, and with no merge to pay, it takes a share. */
	d[1].link_bw = 100e9;
	w.merge_s = 0;
	vrt_partition(d, 2, &w, s);
	CHECK(s[1] > 0 && sum(s, 2) == w.groups);
	CHECK(together(d, 2, &w, s, 1.0 / 1000));
}

static void test_shared_link(void)
{
	/* Two equal GPUs, each group moving 1 MB over 10 GB/s. */
	vrt_pdev d[2] = {{10000, 10e9, 0, 0}, {10000, 10e9, 1, 0}};
	vrt_pwork w = {100000, 1e6, 0, 0};
	size_t s[2];
	double apart = vrt_partition(d, 2, &w, s);
	CHECK(s[0] > 0 && s[1] > 0 && sum(s, 2) == w.groups);
	CHECK(together(d, 2, &w, s, 1.0 / 10000 + 1e6 / 10e9));
	d[1].link = 0; /* both behind one link: its transfers serialise */
	double shared = vrt_partition(d, 2, &w, s);
	CHECK(shared > apart);
	CHECK(sum(s, 2) == w.groups);
	if (s[0] && s[1])
		CHECK(together(d, 2, &w, s, 1.0 / 10000 + 2e6 / 10e9));
}

static void test_three_devices(void)
{
	/* A fast GPU, a slow CPU (host memory, no link), a GPU behind a slow
	 * link that still pays a little. */
	vrt_pdev d[3] = {{5000, 50e9, 0, 0.001}, {500, 0, 1, 0.001}, {5000, 1e9, 2, 0.001}};
	vrt_pwork w = {200000, 1e5, 0.01, 0};
	size_t s[3];
	double T = vrt_partition(d, 3, &w, s);
	CHECK(sum(s, 3) == w.groups);
	CHECK(s[0] > s[2] && s[2] > 0 && s[1] > 0);
	CHECK(together(d, 3, &w, s, 1.0 / 500 + 1e5 / 1e9));
	/* No better with any device left out (the model's own times). */
	for (unsigned drop = 0; drop < 3; drop++) {
		vrt_pdev e[3];
		memcpy(e, d, sizeof e);
		e[drop].rate = 0;
		size_t t[3];
		CHECK(vrt_partition(e, 3, &w, t) >= T);
	}
}

static void test_small_launch_stays(void)
{
	/* Ten groups: the second device's fixed cost and the merge exceed
	 * what it could save. */
	vrt_pdev d[2] = {{1000, 0, 0, 0.002}, {1000, 0, 1, 0.002}};
	vrt_pwork w = {10, 0, 0.01, 0};
	size_t s[2];
	vrt_partition(d, 2, &w, s);
	CHECK(s[0] + s[1] == 10 && (s[0] == 0 || s[1] == 0));
	/* A device slower by its fixed cost alone than the whole launch
	 * elsewhere gets nothing, merge or not. */
	d[1].overhead_s = 1;
	w.merge_s = 0;
	w.groups = 1000;
	vrt_partition(d, 2, &w, s);
	CHECK(s[0] == 1000 && s[1] == 0);
}

static void test_no_rate(void)
{
	vrt_pdev d[2] = {{0, 0, 0, 0}, {0, 0, 1, 0}};
	vrt_pwork w = {64, 0, 0, 0};
	size_t s[2];
	CHECK(vrt_partition(d, 2, &w, s) < 0);
	CHECK(s[0] == 64 && s[1] == 0);
}

/* An H200-like GPU: 30 T FMA/s behind a 50 GB/s link of its own. */
static const vrt_devmodel gpu = {30e12, 50e9, 1};

/* Shares of n devices modelled by m for a launch of `groups` groups
 * moving `bytes` each way and doing `work` FMAs per group. */
static double model_split(const vrt_devmodel *m, unsigned n, vrt_pwork *w, double work,
                          size_t *s)
{
	vrt_pdev d[VRT_MAX_DEVICES];
	vrt_model_pdevs(m, n, w, work, d);
	double T = vrt_partition(d, n, w, s);
	CHECK(sum(s, n) == w->groups);
	return T;
}

static void test_model_equal(void)
{
	/* 2, 4 and 8 equal GPUs, bound by transfers or by compute: even
	 * shares (within the one group rounding leaves), none measured. */
	static const unsigned counts[] = {2, 4, 8};
	for (unsigned c = 0; c < 3; c++) {
		unsigned n = counts[c];
		vrt_devmodel m[VRT_MAX_DEVICES];
		for (unsigned j = 0; j < n; j++)
			m[j] = gpu;
		for (int bound = 0; bound < 2; bound++) {
			vrt_pwork w = {100003, bound ? 1e6 : 4096, 0, 20e9};
			size_t s[VRT_MAX_DEVICES];
			model_split(m, n, &w, bound ? 1e3 : 1e8, s);
			for (unsigned j = 0; j < n; j++)
				CHECK(s[j] >= w.groups / n && s[j] <= w.groups / n + 1);
		}
	}
}

static void test_model_unequal(void)
{
	/* A GPU of half the compute: a third of a compute-bound launch,
	 * both finishing together. */
	vrt_devmodel m[2] = {gpu, gpu};
	m[1].fma_per_s /= 2;
	vrt_pwork w = {30000, 0, 0, 0};
	size_t s[2];
	vrt_pdev d[2];
	model_split(m, 2, &w, 1e8, s);
	CHECK(s[1] >= 9999 && s[1] <= 10001);
	vrt_model_pdevs(m, 2, &w, 1e8, d);
	CHECK(together(d, 2, &w, s, 1e8 / m[1].fma_per_s));
}

static void test_model_slow_link(void)
{
	/* A transfer-bound launch; the second GPU behind a 2 GB/s link: a
	 * share 25 times smaller, finishing with the other, and none where
	 * each device used adds a merge more than it saves. */
	vrt_devmodel m[2] = {gpu, gpu};
	m[1].link_bw = 2e9;
	vrt_pwork w = {26000, 1e6, 0, 0};
	size_t s[2];
	vrt_pdev d[2];
	model_split(m, 2, &w, 1e3, s);
	CHECK(s[1] >= 999 && s[1] <= 1001);
	vrt_model_pdevs(m, 2, &w, 1e3, d);
	CHECK(together(d, 2, &w, s, 1e6 / 2e9));
	w.merge_s = 0.05;
	model_split(m, 2, &w, 1e3, s);
	CHECK(s[0] == w.groups && s[1] == 0);
	/* Two GPUs behind fast links share such a launch, merge or not. */
	m[1].link_bw = gpu.link_bw;
	model_split(m, 2, &w, 1e3, s);
	CHECK(s[0] == w.groups / 2 && s[1] == w.groups / 2);
}

static void test_model_cpu_beside_gpus(void)
{
	/* Two GPUs and a CPU of 1 T FMA/s whose memory is the host's (no
	 * link), the host's 40 GB/s: a transfer-bound launch (4 MB a group
	 * each way, 1 M FMA) runs on the GPUs alone, 100 GB/s through their
	 * links, which the CPU's traffic would cut to the host's 40. */
	vrt_devmodel m[3] = {gpu, gpu, {1e12, 0, 1}};
	vrt_pwork w = {10000, 4e6, 0, 40e9};
	size_t s[3];
	double T = model_split(m, 3, &w, 1e6, s);
	CHECK(s[2] == 0);
	CHECK(s[0] == 5000 && s[1] == 5000);
	CHECK(fabs(T - 10000 * 4e6 / 100e9) < 1e-3);
	/* Compute-bound (4 KB a group, 1 G FMA): the CPU takes its part,
	 * about 1 of 61, and all three finish together. */
	w = (vrt_pwork){61000, 4096, 0, 40e9};
	model_split(m, 3, &w, 1e9, s);
	CHECK(s[2] >= 950 && s[2] <= 1050);
	vrt_pdev d[3];
	vrt_model_pdevs(m, 3, &w, 1e9, d);
	CHECK(together(d, 3, &w, s, 1e9 / 1e12));
	/* Two CPUs alone split even a transfer-bound launch: host memory
	 * bounds only a CPU beside a link. */
	vrt_devmodel c[2] = {m[2], m[2]};
	w = (vrt_pwork){10000, 4e6, 0, 40e9};
	model_split(c, 2, &w, 1e6, s);
	CHECK(s[0] == 5000 && s[1] == 5000);
}

int main(void)
{
	test_fast_and_slow();
	test_slow_link_gets_nothing();
	test_shared_link();
	test_three_devices();
	test_small_launch_stays();
	test_no_rate();
	test_model_equal();
	test_model_unequal();
	test_model_slow_link();
	test_model_cpu_beside_gpus();
	if (failures) {
		fprintf(stderr, "test_rt_partition: %d failures\n", failures);
		return 1;
	}
	printf("test_rt_partition: ok\n");
	return 0;
}
