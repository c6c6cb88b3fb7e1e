/* SPDX-License-Identifier: MIT */
/*
 * test_rt_moves.c - the move list planner (plan/moves.c): by hand, one
 * range, a page every range writes, a read-only page every range reads,
 * pages written whole, pages kept or in the hold before the launch, the
 * moves as runs, out of memory; and on launches the executor ran
 * (fixtures/NAME.plan, made by fixtures/record.sh: fdtd2d's three kernels,
 * a fused pair, the shares of a split launch): the planner must agree
 * with what each range did, page by page, and move as many bytes as the
 * runtime's VAST_STATS said it did, or fewer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

#define BIT(s) ((uint64_t)1 << (s))

/* Slots of 4096-byte pages, sizes in bytes. */
static void layout(vrt_layout *l, unsigned n, const size_t *size)
{
	memset(l, 0, sizeof *l);
	l->nslots = n;
	l->page_shift = 12;
	for (unsigned s = 1; s <= n; s++)
		l->slot_size[s] = size[s - 1];
	vrt_layout_init(l);
}

/* Marks pages [a, b] of slot s in row r. */
static void mark(const vrt_layout *l, unsigned char *r, unsigned s, size_t a, size_t b)
{
	for (size_t p = a; p <= b; p++)
		r[l->slot_off[s] + p] = 1;
}

static unsigned char in_of(const vrt_layout *l, const vrt_moves *M, size_t i, unsigned s,
                           size_t p)
{
	return M->in[i * l->row_bytes + l->slot_off[s] + p];
}

static unsigned char out_of(const vrt_layout *l, const vrt_moves *M, size_t i, unsigned s,
                            size_t p)
{
	return M->out[i * l->row_bytes + l->slot_off[s] + p];
}

/* One range: everything from the host; the written slot's pages left
 * dirty (one range has a set of its own) or home; the last partial page
 * counts its valid bytes. */
static void test_one_range(void)
{
	vrt_layout l;
	size_t sizes[] = {3 * 4096 + 100, 2 * 4096};
	layout(&l, 2, sizes);
	unsigned char *u = calloc(1, l.row_bytes);
	mark(&l, u, 1, 0, 3);
	mark(&l, u, 2, 0, 1);
	vrt_move_input in = {&l, 1, u, NULL, {0, VAST_MODE_R, VAST_MODE_RW}, 3,
	                     BIT(1) | BIT(2), BIT(2), 0, NULL};
	vrt_moves *M;
	CHECK(vrt_moves_plan(&in, &M) == 0);
	CHECK(M->total.in_host == 3 * 4096 + 100 + 2 * 4096);
	CHECK(M->total.dirty == 2 * 4096 && M->total.home == 0);
	CHECK(out_of(&l, M, 0, 2, 1) == VRT_OUT_DIRTY);
	CHECK(out_of(&l, M, 0, 1, 0) == VRT_OUT_NONE);
	CHECK(M->after[l.slot_off[2]] == VRT_AT_DIRTY);
	CHECK(M->after[l.slot_off[1] + 3] == VRT_AT_KEPT);
	/* ins then outs, a run a slot */
	CHECK(M->first[0] == 0 && M->first[1] == 3);
	CHECK(M->moves[0].slot == 1 && M->moves[0].npages == 4 && M->moves[0].kind == VRT_IN_HOST &&
	      M->moves[0].bytes == 3 * 4096 + 100);
	CHECK(M->moves[2].out && M->moves[2].kind == VRT_OUT_DIRTY && M->moves[2].npages == 2);
	vrt_moves_free(M);

	/* Not lazy, and not residing: home, and nothing kept after. */
	in.lazy = 0;
	in.resides = 0;
	CHECK(vrt_moves_plan(&in, &M) == 0);
	CHECK(M->total.home == 2 * 4096 && M->total.dirty == 0);
	CHECK(M->after[l.slot_off[2]] == VRT_AT_HOST && M->after[l.slot_off[1]] == VRT_AT_HOST);
	vrt_moves_free(M);
	free(u);
}

/* Page 0 of a written slot in every range (each also its own page
 * i + 1): forwarded from the range before while it is in flight; with
 * one set it went home, so the host sends it again. */
static void test_page_every_range_writes(void)
{
	vrt_layout l;
	size_t sizes[] = {5 * 4096};
	layout(&l, 1, sizes);
	unsigned char *u = calloc(4, l.row_bytes);
	for (size_t i = 0; i < 4; i++) {
		mark(&l, u + i * l.row_bytes, 1, 0, 0);
		mark(&l, u + i * l.row_bytes, 1, i + 1, i + 1);
	}
	vrt_move_input in = {&l, 4, u, NULL, {0, VAST_MODE_RW}, 2, BIT(1), BIT(1), 0, NULL};
	vrt_moves *M;
	CHECK(vrt_moves_plan(&in, &M) == 0);
	CHECK(in_of(&l, M, 0, 1, 0) == VRT_IN_HOST);
	for (size_t i = 1; i < 4; i++) {
		CHECK(in_of(&l, M, i, 1, 0) == VRT_IN_FORWARD);
		CHECK(in_of(&l, M, i, 1, i + 1) == VRT_IN_HOST);
		CHECK(out_of(&l, M, i, 1, 0) == VRT_OUT_HOME); /* 4 ranges, 2 sets: not lazy */
		/* the forwarded run names its source */
		const vrt_move *mv = &M->moves[M->first[i]];
		CHECK(mv->kind == VRT_IN_FORWARD && mv->from == i - 1 && mv->page == 0);
	}
	CHECK(M->total.forwarded == 3 * 4096 && M->total.in_host == 5 * 4096);
	CHECK(M->total.home == 8 * 4096);
	/* the last two ranges' pages stay in their frames, clean */
	CHECK(M->after[l.slot_off[1] + 0] == VRT_AT_KEPT);
	CHECK(M->after[l.slot_off[1] + 4] == VRT_AT_KEPT);
	CHECK(M->after[l.slot_off[1] + 1] == VRT_AT_HOST);
	vrt_moves_free(M);

	in.nsets = 1;
	CHECK(vrt_moves_plan(&in, &M) == 0);
	for (size_t i = 0; i < 4; i++)
		CHECK(in_of(&l, M, i, 1, 0) == VRT_IN_HOST);
	CHECK(M->total.forwarded == 0 && M->total.in_host == 8 * 4096);
	vrt_moves_free(M);
	free(u);
}

/* Page 0 of a read-only slot in every range: sent once where the ranges
 * leave their pages to the next ones (share_reads), else every time; a
 * range whose pages of the slot are the set's previous range's keeps
 * them in place. */
static void test_page_every_range_reads(void)
{
	vrt_layout l;
	size_t sizes[] = {5 * 4096};
	layout(&l, 1, sizes);
	unsigned char *u = calloc(4, l.row_bytes);
	for (size_t i = 0; i < 4; i++) {
		mark(&l, u + i * l.row_bytes, 1, 0, 0);
		mark(&l, u + i * l.row_bytes, 1, i + 1, i + 1);
	}
	vrt_move_input in = {&l, 4, u, NULL, {0, VAST_MODE_R}, 2, BIT(1), 0, BIT(1), NULL};
	vrt_moves *M;
	CHECK(vrt_moves_plan(&in, &M) == 0);
	CHECK(in_of(&l, M, 0, 1, 0) == VRT_IN_HOST);
	for (size_t i = 1; i < 4; i++)
		CHECK(in_of(&l, M, i, 1, 0) == VRT_IN_KEPT);
	CHECK(M->total.in_host == 5 * 4096 && M->total.in_kept == 3 * 4096);
	CHECK(M->total.home == 0 && M->total.dirty == 0);
	vrt_moves_free(M);

	in.shared = 0;
	CHECK(vrt_moves_plan(&in, &M) == 0);
	CHECK(M->total.in_host == 8 * 4096 && M->total.in_kept == 0);
	vrt_moves_free(M);

	/* ranges 0 and 2 (one set) touch the same pages: 2 keeps them */
	memcpy(u + 2 * l.row_bytes, u, l.row_bytes);
	CHECK(vrt_moves_plan(&in, &M) == 0);
	CHECK(in_of(&l, M, 2, 1, 0) == VRT_IN_KEPT && in_of(&l, M, 2, 1, 1) == VRT_IN_KEPT);
	CHECK(in_of(&l, M, 3, 1, 0) == VRT_IN_HOST);
	vrt_moves_free(M);
	free(u);
}

/* A slot only written, its pages written whole: nothing goes in, all
 * comes back; a page written in part is filled from the host. */
static void test_written_whole(void)
{
	vrt_layout l;
	size_t sizes[] = {4 * 4096, 4 * 4096};
	layout(&l, 2, sizes);
	unsigned char *u = calloc(2, l.row_bytes), *whole = calloc(2, l.row_bytes);
	for (size_t i = 0; i < 2; i++) {
		mark(&l, u + i * l.row_bytes, 1, 2 * i, 2 * i + 1);
		mark(&l, u + i * l.row_bytes, 2, 2 * i, 2 * i + 1);
	}
	mark(&l, whole, 2, 0, 1);
	mark(&l, whole + l.row_bytes, 2, 2, 2); /* page 3 only in part */
	vrt_move_input in = {&l, 2, u, whole, {0, VAST_MODE_R, VAST_MODE_W}, 3, 0, 0, 0, NULL};
	vrt_moves *M;
	CHECK(vrt_moves_plan(&in, &M) == 0);
	CHECK(in_of(&l, M, 0, 2, 0) == VRT_IN_WRITTEN && in_of(&l, M, 0, 2, 1) == VRT_IN_WRITTEN);
	CHECK(in_of(&l, M, 1, 2, 2) == VRT_IN_WRITTEN && in_of(&l, M, 1, 2, 3) == VRT_IN_HOST);
	CHECK(M->total.in_host == 4 * 4096 + 4096); /* the read slot, and page 3 */
	CHECK(M->total.written == 3 * 4096);
	CHECK(M->total.home == 4 * 4096);
	vrt_moves_free(M);
	free(u);
	free(whole);
}

/* Where pages lie before the launch: a kept frame's copy and the hold's
 * are taken from there; a range bound to the hold records what it
 * writes there; a written slot's untouched clean copies go stale. */
static void test_state_and_hold(void)
{
	vrt_layout l;
	size_t sizes[] = {8 * 4096, 4 * 4096};
	layout(&l, 2, sizes);
	l.hold_slot = 1;
	l.hold_pages = 4;
	unsigned char *u = calloc(2, l.row_bytes), *st = calloc(1, l.row_bytes);
	mark(&l, u, 1, 0, 3); /* range 0: in the hold */
	mark(&l, u, 2, 0, 1);
	mark(&l, u + l.row_bytes, 1, 3, 6); /* range 1: passes it */
	st[l.slot_off[1] + 1] = VRT_AT_HOLD;
	st[l.slot_off[1] + 5] = VRT_AT_KEPT;
	st[l.slot_off[1] + 7] = VRT_AT_KEPT; /* untouched, and slot 1 is written */
	st[l.slot_off[2] + 0] = VRT_AT_KEPT;
	st[l.slot_off[2] + 3] = VRT_AT_DIRTY; /* untouched: stays dirty */
	vrt_move_input in = {&l, 2, u, NULL, {0, VAST_MODE_RW, VAST_MODE_R}, 1,
	                     BIT(1) | BIT(2), 0, 0, st};
	vrt_moves *M;
	CHECK(vrt_moves_plan(&in, &M) == 0);
	CHECK(in_of(&l, M, 0, 1, 0) == VRT_IN_HOST && in_of(&l, M, 0, 1, 1) == VRT_IN_HOLD);
	CHECK(in_of(&l, M, 0, 2, 0) == VRT_IN_KEPT && in_of(&l, M, 0, 2, 1) == VRT_IN_HOST);
	CHECK(out_of(&l, M, 0, 1, 2) == VRT_OUT_HELD);
	/* range 1 (one set: range 0 finished) takes page 3 from the hold,
	 * 5 from a kept frame; its writes go home */
	CHECK(in_of(&l, M, 1, 1, 3) == VRT_IN_HOLD && in_of(&l, M, 1, 1, 5) == VRT_IN_KEPT);
	CHECK(in_of(&l, M, 1, 1, 4) == VRT_IN_HOST);
	CHECK(out_of(&l, M, 1, 1, 3) == VRT_OUT_HOME);
	CHECK(M->total.held == 4 * 4096 && M->total.home == 4 * 4096);
	CHECK(M->after[l.slot_off[1] + 0] == VRT_AT_HOLD);
	CHECK(M->after[l.slot_off[1] + 3] == VRT_AT_KEPT); /* range 1 went home, kept clean */
	CHECK(M->after[l.slot_off[1] + 7] == VRT_AT_HOST);
	CHECK(M->after[l.slot_off[2] + 3] == VRT_AT_DIRTY);
	vrt_moves_free(M);

	/* two sets: range 1's page 3 comes from range 0, still in flight */
	in.nsets = 2;
	CHECK(vrt_moves_plan(&in, &M) == 0);
	CHECK(in_of(&l, M, 1, 1, 3) == VRT_IN_FORWARD);
	vrt_moves_free(M);
	free(u);
	free(st);
}

/* Out of memory at any allocation: -1, nothing leaked (LeakSanitizer). */
static void test_oom(void)
{
	vrt_layout l;
	size_t sizes[] = {5 * 4096};
	layout(&l, 1, sizes);
	unsigned char *u = calloc(4, l.row_bytes);
	for (size_t i = 0; i < 4; i++)
		mark(&l, u + i * l.row_bytes, 1, i, i + 1);
	vrt_move_input in = {&l, 4, u, NULL, {0, VAST_MODE_RW}, 2, 0, 0, 0, NULL};
	int failed = 0;
	for (unsigned long n = 1; n < 16; n++) {
		vrt_moves *M = NULL;
		vrt_alloc_fail_after(n);
		int r = vrt_moves_plan(&in, &M);
		vrt_alloc_fail_after(0);
		failed += r != 0;
		CHECK(r == 0 ? M != NULL : M == NULL);
		vrt_moves_free(M);
	}
	CHECK(failed >= 6);
	free(u);
}

/* --- recorded launches (fixtures/NAME.plan) ------------------------------ */
#define MAXR 256
typedef struct rec {
	char kernel[64];
	vrt_layout lay;
	vrt_move_input in;
	unsigned char *state, *u, *whole, *sent, *out;
	unsigned long long in_bytes, out_bytes; /* over the ranges */
} rec;

typedef struct stat_line {
	char kernel[64];
	unsigned long long h2d, d2h, ranges, fused;
} stat_line;

/* "a-b,c,..." marks those pages of slot s in row r with v. */
static int runs(const vrt_layout *l, unsigned char *r, unsigned s, const char *t, unsigned v)
{
	while (*t) {
		char *e;
		size_t a = strtoull(t, &e, 10), b = a;
		if (*e == '-')
			b = strtoull(e + 1, &e, 10);
		if (s < 1 || s > l->nslots || b >= l->slot_pages[s] || a > b)
			return -1;
		for (size_t p = a; p <= b; p++)
			r[l->slot_off[s] + p] = (unsigned char)v;
		t = *e == ',' ? e + 1 : e;
		if (*t == '\n' || *t == ' ')
			break;
	}
	return 0;
}

static unsigned long long kv(const char *line, const char *key)
{
	const char *p = strstr(line, key);
	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

static void unload(rec *R, int n)
{
	for (int i = 0; i < n; i++) {
		free(R[i].state);
		free(R[i].u);
		free(R[i].whole);
		free(R[i].sent);
		free(R[i].out);
	}
}

/* Reads launches and stats lines; returns how many launches, -1 when the
 * file is malformed (nothing is kept). */
static int load(const char *path, rec *R, int max, stat_line *S, int *ns)
{
	FILE *f = fopen(path, "r");
	char line[1 << 16];
	int n = 0, bad = 0;
	rec *r = NULL;
	size_t range = 0;
	*ns = 0;
	if (!f)
		return -1;
	while (!bad && fgets(line, sizeof line, f)) {
		unsigned s, a, b, c, d;
		char name[64], key[16];
		size_t z;
		unsigned long long x, y;
		if (sscanf(line, "launch %63s ranges %zu sets %u shift %u slots %u hold %u %zu", name, &z,
		           &a, &b, &c, &d, &range) == 7) {
			if (n == max || z > MAXR)
				break;
			r = &R[n++];
			memset(r, 0, sizeof *r);
			snprintf(r->kernel, sizeof r->kernel, "%s", name);
			r->lay.nslots = c;
			r->lay.page_shift = b;
			r->lay.hold_slot = d;
			r->lay.hold_pages = range;
			r->in.nranges = z;
			r->in.nsets = a;
			continue;
		}
		if (!r) {
			if (sscanf(line, "stats %63s", name) == 1 && *ns < 16) {
				stat_line *t = &S[(*ns)++];
				snprintf(t->kernel, sizeof t->kernel, "%s", name);
				t->h2d = kv(line, " h2d=");
				t->d2h = kv(line, " d2h=");
				t->ranges = kv(line, " ranges=");
				t->fused = kv(line, " fused=");
			}
			continue;
		}
		int res, lazy, shared;
		if (sscanf(line, "slot %u size %zu mode %u resides %d lazy %d shared %d res %u", &s, &z,
		           &a, &res, &lazy, &shared, &b) == 7) {
			bad |= s < 1 || s > r->lay.nslots;
			if (bad)
				break;
			r->lay.slot_size[s] = z;
			r->lay.res_buf[s] = (unsigned char)b;
			r->in.mode[s] = a;
			r->in.resides |= res ? BIT(s) : 0;
			r->in.lazy |= lazy ? BIT(s) : 0;
			r->in.shared |= shared ? BIT(s) : 0;
			if (s == r->lay.nslots) { /* the layout is complete: rows */
				size_t hold = r->lay.hold_pages;
				vrt_layout_init(&r->lay);
				r->lay.hold_pages = hold;
				size_t rb = r->lay.row_bytes, nr = r->in.nranges;
				r->state = calloc(1, rb);
				r->u = calloc(nr, rb);
				r->whole = calloc(nr, rb);
				r->sent = calloc(nr, rb);
				r->out = calloc(nr, rb);
				r->in.lay = &r->lay;
				r->in.state = r->state;
				r->in.unions = r->u;
				r->in.whole = r->whole;
			}
			continue;
		}
		char text[sizeof line];
		if (sscanf(line, "state %15s %u %65535s", key, &s, text) == 3) {
			unsigned v = !strcmp(key, "kept") ? VRT_AT_KEPT
			             : !strcmp(key, "dirty") ? VRT_AT_DIRTY : VRT_AT_HOLD;
			bad |= !r->state || runs(&r->lay, r->state, s, text, v);
			continue;
		}
		if (sscanf(line, "range %zu in %llu out %llu", &range, &x, &y) == 3) {
			bad |= range >= r->in.nranges || !r->u;
			r->in_bytes += x;
			r->out_bytes += y;
			continue;
		}
		if (sscanf(line, "%15s %u %65535s", key, &s, text) == 3 && r->u) {
			size_t o = range * r->lay.row_bytes;
			if (!strcmp(key, "u"))
				bad |= runs(&r->lay, r->u + o, s, text, 1);
			else if (!strcmp(key, "whole"))
				bad |= runs(&r->lay, r->whole + o, s, text, 1);
			else if (!strcmp(key, "sent"))
				bad |= runs(&r->lay, r->sent + o, s, text, 1);
			else if (!strcmp(key, "home"))
				bad |= runs(&r->lay, r->out + o, s, text, VRT_OUT_HOME);
			else if (!strcmp(key, "dirty"))
				bad |= runs(&r->lay, r->out + o, s, text, VRT_OUT_DIRTY);
			else if (!strcmp(key, "held"))
				bad |= runs(&r->lay, r->out + o, s, text, VRT_OUT_HELD);
			else
				bad = 1;
			continue;
		}
		if (!strcmp(line, "end\n")) {
			bad |= !r->u;
			r = NULL;
			continue;
		}
		bad = 1;
	}
	fclose(f);
	if (bad)
		unload(R, n);
	return bad ? -1 : n;
}


/* Pages the planner moves otherwise than the range did (as
 * runtime/paged/planrec.c checks them). */
static size_t mismatches(const rec *r, const vrt_moves *M)
{
	size_t bad = 0, rb = r->lay.row_bytes;
	for (size_t k = 0; k < r->in.nranges * rb; k++)
		bad += !vrt_moves_agree(M, k, r->sent[k], r->out[k]);
	return bad;
}

/* A fixture: each launch planned again agrees with its ranges, moves no
 * more than they did, and over the run no more than VAST_STATS counted;
 * ranges as many as it counted. want: launches, kernels with stats. */
static void test_fixture(const char *name, int want, int want_stats)
{
	static rec R[8];
	stat_line S[16];
	int ns, n = load(name, R, 8, S, &ns);
	CHECK(n == want);
	CHECK(ns == want_stats);
	if (n != want) {
		fprintf(stderr, "%s: %d launches read, want %d\n", name, n, want);
		if (n > 0)
			unload(R, n);
		return;
	}
	unsigned long long host[16] = {0}, out[16] = {0}, ranges[16] = {0};
	int moved_something = 0;
	for (int i = 0; i < n; i++) {
		vrt_moves *M;
		CHECK(vrt_moves_plan(&R[i].in, &M) == 0);
		size_t bad = mismatches(&R[i], M);
		if (bad)
			fprintf(stderr, "%s: launch %d (%s): %zu pages moved otherwise\n", name, i,
			        R[i].kernel, bad);
		CHECK(bad == 0);
		/* A range that had not sent a page the plan sends, or had sent
		 * one the plan needs nothing of, or put a page elsewhere than
		 * the plan does, would not agree. */
		for (size_t k = 0; k < R[i].in.nranges * R[i].lay.row_bytes; k++) {
			if (M->in[k] == VRT_IN_HOST)
				CHECK(!vrt_moves_agree(M, k, 0, M->out[k]));
			if (M->in[k] == VRT_IN_NONE || M->in[k] == VRT_IN_WRITTEN ||
			    M->in[k] == VRT_IN_HOLD)
				CHECK(!vrt_moves_agree(M, k, 1, M->out[k]));
			unsigned other = M->out[k] == VRT_OUT_HOME ? VRT_OUT_DIRTY : VRT_OUT_HOME;
			CHECK(!vrt_moves_agree(M, k, R[i].sent[k], other));
		}
		/* the ranges' in_bytes also count LPTs and fault words */
		CHECK(M->total.in_host <= R[i].in_bytes);
		CHECK(M->total.home <= R[i].out_bytes);
		moved_something |= M->total.in_host || M->total.home || M->total.dirty;
		for (int k = 0; k < ns; k++)
			if (!strcmp(S[k].kernel, R[i].kernel)) {
				host[k] += M->total.in_host;
				out[k] += M->total.home + M->total.dirty;
				ranges[k] += R[i].in.nranges;
			}
		vrt_moves_free(M);
	}
	CHECK(moved_something);
	for (int k = 0; k < ns; k++) {
		if (S[k].fused) /* its ranges and bytes are the launch before's */
			continue;
		if (host[k] > S[k].h2d || out[k] > S[k].d2h || ranges[k] != S[k].ranges)
			fprintf(stderr, "%s: kernel %s: the plan %llu in, %llu out, %llu ranges; the run %llu, %llu, %llu\n",
			        name, S[k].kernel, host[k], out[k], ranges[k], S[k].h2d, S[k].d2h,
			        S[k].ranges);
		CHECK(host[k] <= S[k].h2d);
		CHECK(out[k] <= S[k].d2h);
		CHECK(ranges[k] == S[k].ranges);
	}
	unload(R, n);
}

int main(void)
{
	test_one_range();
	test_page_every_range_writes();
	test_page_every_range_reads();
	test_written_whole();
	test_state_and_hold();
	test_oom();
	test_fixture("fixtures/fdtd2d.plan", 3, 3);
	test_fixture("fixtures/fused.plan", 1, 2);
	test_fixture("fixtures/split.plan", 4, 1);
	if (failures)
		fprintf(stderr, "test_rt_moves: %d failures\n", failures);
	return failures != 0;
}
