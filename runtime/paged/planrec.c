/* SPDX-License-Identifier: MIT */
/*
 * planrec.c - a paged launch's ranges as the executor ran them, recorded
 * and held against the planner's move list (plan/moves.c).
 *
 * paged.c records, range by range, the pages each range touched, wrote
 * whole, sent from the host and where its written pages went. At the
 * end the record is appended to VAST_PLAN_DUMP's file as text (the .plan
 * files of test/unit/fixtures are such records) and, with
 * VAST_PLAN_CHECK, the planner runs on the same input and must agree
 * with what the executor did (vrt_moves_agree): every page it sends
 * from the host the range sent; every page the range sent it sends too,
 * or takes from a kept frame or an earlier range (the executor may lose
 * a kept copy to a reused frame, or send a forwarded page before copying
 * over it); and every written page goes where it says. So the planner
 * stays the executor's description while the executor still decides
 * for itself.
 *
 * Dump format, one launch:
 *   launch NAME ranges N sets S shift SH slots NS hold H HP
 *   slot S size BYTES mode M resides 0|1 lazy 0|1 shared 0|1 res B
 *   state S KIND RUNS          (KIND kept, dirty or hold; RUNS a-b,c,...)
 *   range I in BYTES out BYTES
 *   u|whole|sent|home|dirty|held S RUNS
 *   end
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paged/paged.h"

struct vrt_planrec {
	vrt_move_input in;
	vrt_layout lay;
	char kernel[128];
	unsigned char *state, *unions, *whole, *sent, *out; /* nranges rows each */
	unsigned long long *in_bytes, *out_bytes;
};

vrt_planrec *vrt_planrec_new(const vrt_move_input *in, const char *kernel)
{
	if (!vrt_cfg.plan_check && !vrt_cfg.plan_dump)
		return NULL;
	vrt_planrec *r = vrt_calloc(1, sizeof *r);
	size_t rb = in->lay->row_bytes, n = in->nranges ? in->nranges : 1;
	if (!r)
		return NULL;
	r->in = *in;
	r->lay = *in->lay;
	r->in.lay = &r->lay;
	snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
	r->state = vrt_calloc(1, rb);
	r->unions = vrt_calloc(n, rb);
	r->whole = vrt_calloc(n, rb);
	r->sent = vrt_calloc(n, rb);
	r->out = vrt_calloc(n, rb);
	r->in_bytes = vrt_calloc(n, sizeof *r->in_bytes);
	r->out_bytes = vrt_calloc(n, sizeof *r->out_bytes);
	if (!r->state || !r->unions || !r->whole || !r->sent || !r->out || !r->in_bytes ||
	    !r->out_bytes) {
		vrt_planrec_end(r, 0);
		return NULL;
	}
	if (in->state)
		memcpy(r->state, in->state, rb);
	r->in.state = r->state;
	r->in.unions = r->unions;
	r->in.whole = r->whole;
	return r;
}

void vrt_planrec_put(vrt_planrec *r, size_t i, const vrt_planrec_range *rr)
{
	if (!r || i >= r->in.nranges)
		return;
	size_t rb = r->lay.row_bytes;
	memcpy(r->unions + i * rb, rr->u, rb);
	memcpy(r->whole + i * rb, rr->whole, rb);
	memcpy(r->sent + i * rb, rr->sent, rb);
	memcpy(r->out + i * rb, rr->out, rb);
	r->in_bytes[i] = rr->in_bytes;
	r->out_bytes[i] = rr->out_bytes;
}

/* "KEY S RUNS" for the pages of slot s whose byte in row equals v (v 0:
 * any non-zero), when there are some. */
static void put_runs(FILE *f, const char *key, const vrt_layout *lay, unsigned s,
                     const unsigned char *row, unsigned v)
{
	const unsigned char *r = row + lay->slot_off[s];
	int any = 0;
	for (size_t p = 0; p < lay->slot_pages[s];) {
		if (v ? r[p] != v : !r[p]) {
			p++;
			continue;
		}
		size_t q = p;
		while (q + 1 < lay->slot_pages[s] && (v ? r[q + 1] == v : r[q + 1] != 0))
			q++;
		fprintf(f, any ? "," : "%s %u ", key, s);
		fprintf(f, q > p ? "%zu-%zu" : "%zu", p, q);
		any = 1;
		p = q + 1;
	}
	if (any)
		fputc('\n', f);
}

/* The record as text (the format above), appended to the dump file in
 * one write, so the shares of a split launch (threads) do not mix. */
static void dump(const vrt_planrec *r)
{
	const vrt_layout *lay = &r->lay;
	size_t rb = lay->row_bytes;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	fprintf(f, "launch %s ranges %zu sets %u shift %u slots %u hold %u %zu\n", r->kernel,
	        r->in.nranges, r->in.nsets, lay->page_shift, lay->nslots, lay->hold_slot,
	        lay->hold_pages);
	for (unsigned s = 1; s <= lay->nslots; s++)
		fprintf(f, "slot %u size %zu mode %u resides %d lazy %d shared %d res %u\n", s,
		        lay->slot_size[s], r->in.mode[s], (int)(r->in.resides >> s & 1),
		        (int)(r->in.lazy >> s & 1), (int)(r->in.shared >> s & 1), lay->res_buf[s]);
	for (unsigned s = 1; s <= lay->nslots; s++) {
		put_runs(f, "state kept", lay, s, r->state, VRT_AT_KEPT);
		put_runs(f, "state dirty", lay, s, r->state, VRT_AT_DIRTY);
		put_runs(f, "state hold", lay, s, r->state, VRT_AT_HOLD);
	}
	for (size_t i = 0; i < r->in.nranges; i++) {
		fprintf(f, "range %zu in %llu out %llu\n", i, r->in_bytes[i], r->out_bytes[i]);
		for (unsigned s = 1; s <= lay->nslots; s++) {
			put_runs(f, "u", lay, s, r->unions + i * rb, 0);
			put_runs(f, "whole", lay, s, r->whole + i * rb, 0);
			put_runs(f, "sent", lay, s, r->sent + i * rb, 0);
			put_runs(f, "home", lay, s, r->out + i * rb, VRT_OUT_HOME);
			put_runs(f, "dirty", lay, s, r->out + i * rb, VRT_OUT_DIRTY);
			put_runs(f, "held", lay, s, r->out + i * rb, VRT_OUT_HELD);
		}
	}
	fputs("end\n", f);
	if (fclose(f) == 0) {
		int fd = open(vrt_cfg.plan_dump, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, text, len) != (ssize_t)len)
			vrt_log(VRT_LOG_WARN, "cannot write the plan of kernel '%s' to '%s'", r->kernel,
			        vrt_cfg.plan_dump);
		if (fd >= 0)
			close(fd);
	}
	free(text);
}

static const char *in_name(unsigned k)
{
	static const char *const names[] = {"nowhere", "the host", "a kept frame", "the hold",
	                                    "an earlier range", "nowhere (written whole)"};
	return k < sizeof names / sizeof *names ? names[k] : "?";
}

static const char *out_name(unsigned k)
{
	static const char *const names[] = {"none", "home", "dirty in its frames",
	                                    "in the hold"};
	return k < sizeof names / sizeof *names ? names[k] : "?";
}

/* The planner against the record: the number of mismatched pages (the
 * first few logged). */
static size_t check(const vrt_planrec *r, const vrt_moves *M)
{
	const vrt_layout *lay = &r->lay;
	size_t rb = lay->row_bytes, bad = 0;
	for (size_t i = 0; i < r->in.nranges; i++)
		for (unsigned s = 1; s <= lay->nslots; s++)
			for (size_t p = 0; p < lay->slot_pages[s]; p++) {
				size_t k = i * rb + lay->slot_off[s] + p;
				if (vrt_moves_agree(M, k, r->sent[k], r->out[k]))
					continue;
				if (bad++ < 8)
					vrt_log(VRT_LOG_WARN, "kernel '%s' range %zu: page %zu of slot %u: planned in from %s, out %s; done: %s the host, out %s",
					        r->kernel, i, p, s, in_name(M->in[k]), out_name(M->out[k]),
					        r->sent[k] ? "sent from" : "not sent from", out_name(r->out[k]));
			}
	return bad;
}

static unsigned long long sum(const unsigned long long *v, size_t n)
{
	unsigned long long t = 0;
	for (size_t i = 0; i < n; i++)
		t += v[i];
	return t;
}

/* The bytes of the pages the ranges sent from the host, all of them or
 * those M plans in as `kind` (VRT_IN_NONE: all). */
static unsigned long long sent_bytes(const vrt_planrec *r, const vrt_moves *M, unsigned kind)
{
	const vrt_layout *lay = &r->lay;
	unsigned long long n = 0;
	for (size_t i = 0; i < r->in.nranges; i++)
		for (unsigned s = 1; s <= lay->nslots; s++) {
			size_t k = i * lay->row_bytes + lay->slot_off[s];
			for (size_t p = 0; p < lay->slot_pages[s]; p++)
				if (r->sent[k + p] && (!kind || M->in[k + p] == kind))
					n += vrt_page_valid(lay, s, p);
		}
	return n;
}

cl_int vrt_planrec_end(vrt_planrec *r, int ran)
{
	cl_int err = CL_SUCCESS;
	if (!r)
		return CL_SUCCESS;
	if (ran && r->in.nranges && vrt_cfg.plan_dump)
		dump(r);
	vrt_moves *M = NULL;
	if (ran && r->in.nranges && vrt_cfg.plan_check) {
		if (vrt_moves_plan(&r->in, &M))
			err = CL_OUT_OF_HOST_MEMORY;
		else {
			/* What the ranges sent that the plan does not: pages an
			 * earlier range forwards over, kept copies lost. */
			vrt_log(VRT_LOG_INFO, "kernel '%s': the plan moves %llu bytes of pages in from the host and %llu home; the ranges sent %llu (%llu of them forwarded after, %llu kept), %llu in all with their LPTs, and %llu out",
			        r->kernel, M->total.in_host, M->total.home, sent_bytes(r, M, VRT_IN_NONE),
			        sent_bytes(r, M, VRT_IN_FORWARD), sent_bytes(r, M, VRT_IN_KEPT),
			        sum(r->in_bytes, r->in.nranges), sum(r->out_bytes, r->in.nranges));
			size_t bad = check(r, M);
			if (bad) {
				vrt_log(VRT_LOG_WARN, "kernel '%s': %zu of its pages moved otherwise than its plan says (VAST_PLAN_CHECK)",
				        r->kernel, bad);
				err = CL_INVALID_OPERATION;
			}
		}
	}
	vrt_moves_free(M);
	vrt_free(r->state);
	vrt_free(r->unions);
	vrt_free(r->whole);
	vrt_free(r->sent);
	vrt_free(r->out);
	vrt_free(r->in_bytes);
	vrt_free(r->out_bytes);
	vrt_free(r);
	return err;
}
