/* SPDX-License-Identifier: MIT */
/*
 * test_rt_tailargs.c - the runtime sets every generated variant's tail
 * where lib/rewrite declared it. Both sides expand vast/stub.h's table
 * (VAST_TAIL_ARGS): the rewriter into the parameter lists, the runtime
 * into vrt_tailargs_set (runtime/args.c). Here the five variants of the
 * sample kernel k (test_rw_model.h) are written by lib/rewrite and their
 * parameter lists parsed back; then each row of the table is set alone
 * through vrt_tailargs_set with the driver's clSetKernelArg a recorder,
 * and every argument it sets must be the parameter of that name (frames3
 * for the fourth frame buffer, sbuf_in for parameter in's run) with a
 * value of that parameter's OpenCL type's size, every tail parameter
 * set by exactly one row; a row the variant lacks is refused, and a NULL
 * buffer goes as a NULL value.
 */
#include "vrt.h"

#include "test_rw_model.h"

/* The recorder standing in for the driver's clSetKernelArg. */
typedef struct call {
	cl_uint index;
	size_t size;
	const void *value;
} call;
static call calls[256];
static unsigned ncalls;

static cl_int CL_API_CALL record_arg(cl_kernel k, cl_uint i, size_t size, const void *value)
{
	(void)k;
	if (ncalls < sizeof calls / sizeof *calls)
		calls[ncalls++] = (call){ i, size, value };
	return CL_SUCCESS;
}

/* A generated kernel's parameters, parsed from its declaration. */
typedef struct param {
	char type[64], name[64];
} param;

/* The parameters of `__kernel void NAME(` in text, up to 64. */
static unsigned parse_params(const char *text, const char *name, param *out)
{
	char head[128];
	snprintf(head, sizeof head, "__kernel void %s(", name);
	const char *s = text ? strstr(text, head) : NULL;
	if (!s)
		return 0;
	s += strlen(head);
	const char *end = strstr(s, ")\n{");
	unsigned n = 0;
	while (s && end && s < end && n < 64) {
		const char *comma = strstr(s, ", ");
		const char *e = comma && comma < end ? comma : end;
		const char *nm = e;
		while (nm > s && (isalnum((unsigned char)nm[-1]) || nm[-1] == '_'))
			nm--;
		const char *te = nm;
		while (te > s && te[-1] == ' ')
			te--;
		snprintf(out[n].type, sizeof out[n].type, "%.*s", (int)(te - s), s);
		snprintf(out[n].name, sizeof out[n].name, "%.*s", (int)(e - nm), nm);
		n++;
		s = e == end ? NULL : e + 2;
	}
	return n;
}

/* The size of a value of an OpenCL C parameter type of the tail. */
static size_t type_size(const char *t)
{
	if (strchr(t, '*'))
		return sizeof(cl_mem);
	return !strcmp(t, "uint") ? 4 : !strcmp(t, "ulong") ? 8 : !strcmp(t, "ulong4") ? 32 : 0;
}

typedef struct variant {
	const char *name;
	unsigned kind;
	param p[64];
	unsigned np;
	unsigned set[64]; /* how many rows set parameter i */
} variant;

/* After vrt_tailargs_set of row `row` alone on variant v of a kernel of
 * nargs own parameters: returned err; the calls recorded. */
static void check_row(variant *v, unsigned nargs, const char *row, unsigned count, int each,
                      int at, cl_int err)
{
	if (at == VAST_TAIL_NO) {
		CHECK(err == CL_INVALID_ARG_INDEX);
		CHECK(ncalls == 0);
		return;
	}
	CHECK(err == CL_SUCCESS);
	/* the parameters of that name, in order: name, nameN, name_P */
	char want[64][80];
	unsigned nwant = 0;
	for (unsigned i = nargs; i < v->np && nwant < 64; i++) {
		char base[80];
		snprintf(base, sizeof base, "vast_%s", row);
		size_t bl = strlen(base);
		const char *nm = v->p[i].name;
		int match = !strncmp(nm, base, bl) &&
		            (each ? nm[bl] == '_'
		                  : count > 1 ? isdigit((unsigned char)nm[bl]) : nm[bl] == 0);
		if (match)
			snprintf(want[nwant++], sizeof want[0], "%s", nm);
	}
	CHECK(nwant > 0);
	CHECK(ncalls == nwant);
	for (unsigned j = 0; j < ncalls && j < nwant; j++) {
		cl_uint i = calls[j].index;
		CHECK(i >= nargs && i < v->np);
		if (i >= v->np)
			continue;
		if (strcmp(v->p[i].name, want[j]) || calls[j].size != type_size(v->p[i].type)) {
			fprintf(stderr, "%s: row '%s' set argument %u (%zu bytes), which is '%s %s'; "
			        "want '%s'\n", v->name, row, i, calls[j].size, v->p[i].type,
			        v->p[i].name, want[j]);
			tm_failures++;
		}
		v->set[i]++;
	}
}

int main(void)
{
	tm_sample_ids id;
	an_program *p = tm_sample(&id);
	char *text = rw_emit_program(p);
	CHECK(text != NULL);
	unsigned nargs = p->funcs[id.k].nparams;
	CHECK(nargs == 5);
	static variant v[] = {
		{ .name = "vast_inspect_k", .kind = VAST_HAS_INSPECT },
		{ .name = "vast_paged_k", .kind = VAST_HAS_PAGED },
		{ .name = "vast_straight_k", .kind = VAST_HAS_STRAIGHT },
		{ .name = "vast_pinspect_k", .kind = VAST_HAS_PINSPECT },
	};
	vrt_real.clSetKernelArg = record_arg;
	cl_kernel kv = (cl_kernel)(uintptr_t)0x4b; /* never dereferenced */
	for (unsigned j = 0; j < sizeof v / sizeof *v; j++) {
		v[j].np = parse_params(text, v[j].name, v[j].p);
		CHECK(v[j].np > nargs);
		for (unsigned i = 0; i < nargs && i < v[j].np; i++)
			CHECK(strcmp(v[j].p[i].name, p->funcs[id.k].params[i].name) == 0 ||
			      !strncmp(v[j].p[i].name, "vast_va_", 8));
		/* Each row alone, its values all bytes 0x5a (no NULL buffer);
		 * a repeated row for every parameter of its name. */
#define ROW(nm, count, each, cltype, host, i, pg, s, pi)                             \
	{                                                                              \
		host vals[64];                                                         \
		vrt_tailargs t = { 0 };                                                \
		memset(vals, 0x5a, sizeof vals);                                       \
		t.nm = vals;                                                         \
		t.neach = 0;                                                           \
		for (unsigned q = nargs; (each) && q < v[j].np; q++)                  \
			t.neach += !strncmp(v[j].p[q].name, "vast_" #nm "_",         \
			                    strlen("vast_" #nm "_"));                \
		ncalls = 0;                                                            \
		cl_int err = vrt_tailargs_set(kv, nargs, v[j].kind, &t);               \
		check_row(&v[j], nargs, #nm, count, each,                            \
		          VAST_TAIL_AT(v[j].kind, i, pg, s, pi), err);                 \
	}
		VAST_TAIL_ARGS(ROW)
#undef ROW
		for (unsigned i = nargs; i < v[j].np; i++)
			if (v[j].set[i] != 1) {
				fprintf(stderr, "%s: argument %u '%s' set by %u rows, want 1\n",
				        v[j].name, i, v[j].p[i].name, v[j].set[i]);
				tm_failures++;
			}
	}
	/* A NULL buffer goes as a NULL value: OpenCL 1.2 §5.7.2. */
	cl_mem frames[VAST_FRAME_BUFS];
	memset(frames, 0x5a, sizeof frames);
	frames[3] = NULL;
	vrt_tailargs t = { .frames = frames };
	ncalls = 0;
	CHECK(vrt_tailargs_set(kv, nargs, VAST_HAS_PAGED, &t) == CL_SUCCESS);
	CHECK(ncalls == VAST_FRAME_BUFS);
	for (unsigned j = 0; j < ncalls; j++)
		CHECK((calls[j].value == NULL) == (j == 3));
	free(text);
	tm_destroy(p);
	return tm_report("test_rt_tailargs");
}
