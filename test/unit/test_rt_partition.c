/* SPDX-License-Identifier: MIT */
/*
 * test_rt_partition.c - the partitioner (partition.c, docs/multi.md) on
 * modelled devices: one fast and one slow share a launch so both finish
 * together; a device behind a slow link gets nothing; devices sharing a
 * link pay for it; a fixed cost or a merge that does not pay keeps a
 * small launch on one device; no rate known leaves it on device 0.
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
	vrt_pwork w = {11000, 0, 0};
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
	vrt_pwork w = {1000, 1e6, 0.5};
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
	vrt_pwork w = {100000, 1e6, 0};
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
	vrt_pwork w = {200000, 1e5, 0.01};
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
	vrt_pwork w = {10, 0, 0.01};
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
	vrt_pwork w = {64, 0, 0};
	size_t s[2];
	CHECK(vrt_partition(d, 2, &w, s) < 0);
	CHECK(s[0] == 64 && s[1] == 0);
}

int main(void)
{
	test_fast_and_slow();
	test_slow_link_gets_nothing();
	test_shared_link();
	test_three_devices();
	test_small_launch_stays();
	test_no_rate();
	if (failures) {
		fprintf(stderr, "test_rt_partition: %d failures\n", failures);
		return 1;
	}
	printf("test_rt_partition: ok\n");
	return 0;
}
