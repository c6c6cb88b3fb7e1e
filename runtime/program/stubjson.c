/* SPDX-License-Identifier: MIT */
/*
 * stubjson.c - vrt_stub_from_json: what `vastcc --emit-json` wrote
 * (lib/rewrite/json.c; docs/json.md) read back into a vast_program_info
 * that the registry can hold like a stub's.
 *
 * The text may come from a cache file another process wrote, cut short or
 * damaged, so it is trusted in nothing. Its seal (vast/stub.h) must hold:
 * a checksum of every byte before it, which any cut or flipped bit
 * breaks. Then every member is checked for its
 * type and range before it is stored (counts are the arrays' lengths,
 * enums within their enum, each form's terms inside the kernel's term
 * table, each footprint's loops, guards and checks inside theirs), and
 * the first violation ends the parse with an error naming the member.
 * The runtime then compiles again or runs natively; it never uses a
 * table it has not checked.
 *
 * Memory: the result and all it points to come from vrt_calloc and are
 * freed by vrt_stub_json_free, which also frees a half-built result on
 * error (every count is set only once its table exists).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "program/program.h"

typedef struct jctx {
	char **error;
	int kernel; /* the kernel being read, -1 outside kernels */
	int failed;
} jctx;

/* Records the first error: "kernel 2: 'terms'[4].'var': ..." */
__attribute__((format(printf, 2, 3)))
static void fail(jctx *c, const char *fmt, ...)
{
	if (c->failed)
		return;
	c->failed = 1;
	char msg[256], full[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (c->kernel >= 0)
		snprintf(full, sizeof full, "kernel %d: %s", c->kernel, msg);
	else
		snprintf(full, sizeof full, "%s", msg);
	if (c->error)
		*c->error = strdup(full); /* malloc'd, as the API says */
}

static const cJSON *member(jctx *c, const cJSON *obj, const char *key)
{
	const cJSON *m = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key)
	                                     : NULL;
	if (!m)
		fail(c, "'%s' is missing", key);
	return m;
}

/* An unsigned in [0, max]. */
static unsigned get_uint(jctx *c, const cJSON *obj, const char *key, unsigned max)
{
	const cJSON *m = member(c, obj, key);
	if (!m)
		return 0;
	double d = m->valuedouble;
	if (!cJSON_IsNumber(m) || !(d >= 0 && d <= max) || d != (double)(unsigned)d) {
		fail(c, "'%s' is not an integer in 0..%u", key, max);
		return 0;
	}
	return (unsigned)d;
}

/* A 0/1 flag. */
static unsigned get_bool(jctx *c, const cJSON *obj, const char *key)
{
	return get_uint(c, obj, key, 1);
}

/* A string, copied; NULL for JSON null when nullable. */
static const char *get_str(jctx *c, const cJSON *obj, const char *key, int nullable)
{
	const cJSON *m = member(c, obj, key);
	if (!m)
		return NULL;
	if (nullable && cJSON_IsNull(m))
		return NULL;
	if (!cJSON_IsString(m) || !m->valuestring) {
		fail(c, "'%s' is not a string%s", key, nullable ? " or null" : "");
		return NULL;
	}
	char *s = vrt_strdup(m->valuestring);
	if (!s)
		fail(c, "out of memory");
	return s;
}

/* A 64-bit integer written as a string (JSON numbers are doubles):
 * decimal, or hex after "0x" when hex. */
static unsigned long long get_u64(jctx *c, const cJSON *obj, const char *key, int hex,
                                  int sign)
{
	const cJSON *m = member(c, obj, key);
	if (!m)
		return 0;
	const char *s = cJSON_IsString(m) ? m->valuestring : NULL;
	int neg = s && sign && *s == '-';
	const char *d = s ? s + neg + (hex ? 2 : 0) : NULL;
	unsigned long long v = 0, limit = sign ? (unsigned long long)LLONG_MAX + neg
	                                       : ULLONG_MAX;
	unsigned base = hex ? 16 : 10;
	int ok = d && (!hex || !strncmp(s, "0x", 2)) && *d && strlen(d) <= (hex ? 16 : 20);
	for (; ok && *d; d++) {
		unsigned dig = *d >= '0' && *d <= '9' ? (unsigned)(*d - '0')
		             : hex && *d >= 'a' && *d <= 'f' ? (unsigned)(*d - 'a' + 10) : 99;
		ok = dig < base && v <= (limit - dig) / base;
		v = v * base + dig;
	}
	if (!ok) {
		fail(c, "'%s' is not a %s integer string", key,
		     hex ? "hexadecimal 64-bit" : sign ? "64-bit" : "unsigned 64-bit");
		return 0;
	}
	return neg ? 0 - v : v;
}

static long long get_i64(jctx *c, const cJSON *obj, const char *key)
{
	return (long long)get_u64(c, obj, key, 0, 1);
}

/* An array member and its length, at most max. */
static const cJSON *get_array(jctx *c, const cJSON *obj, const char *key, unsigned max,
                              unsigned *n)
{
	const cJSON *m = member(c, obj, key);
	*n = 0;
	if (!m)
		return NULL;
	int len = cJSON_GetArraySize(m);
	if (!cJSON_IsArray(m) || len < 0 || (unsigned)len > max) {
		fail(c, "'%s' is not an array of at most %u entries", key, max);
		return NULL;
	}
	*n = (unsigned)len;
	return m;
}

static void *table(jctx *c, unsigned n, size_t size)
{
	if (!n || c->failed)
		return NULL;
	void *t = vrt_calloc(n, size);
	if (!t)
		fail(c, "out of memory");
	return t;
}

/* Tables are far smaller than this; a larger count is damage. */
#define MAX_ENTRIES (1u << 24)

/* [first, n], inside a table of `len` terms; an empty form is [0, 0]. */
static vast_fp_form form_of(jctx *c, const cJSON *a, const char *what, unsigned i,
                            unsigned len)
{
	vast_fp_form r = { 0, 0 };
	const cJSON *first = cJSON_GetArrayItem(a, 0), *cnt = cJSON_GetArrayItem(a, 1);
	double d0 = first ? first->valuedouble : -1, d1 = cnt ? cnt->valuedouble : -1;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 2 || !cJSON_IsNumber(first) ||
	    !cJSON_IsNumber(cnt) || !(d0 >= 0) || !(d1 >= 0) || d0 > len || d1 > len - d0 ||
	    d0 != (double)(unsigned)d0 || d1 != (double)(unsigned)d1 || (d1 == 0 && d0 != 0)) {
		fail(c, "'%s'[%u] is not a [first, n] range inside the %u terms", what, i, len);
		return r;
	}
	r.first = (unsigned)d0;
	r.n = (unsigned)d1;
	return r;
}

static vast_fp_form get_form(jctx *c, const cJSON *obj, const char *key, unsigned i,
                             unsigned len)
{
	const cJSON *a = member(c, obj, key);
	return a ? form_of(c, a, key, i, len) : (vast_fp_form){ 0, 0 };
}

static int valid_name(unsigned name)
{
	return name == VAST_FP_ONE ||
	       (name < 1u << 16 && VAST_FP_KIND(name) <= VAST_FP_GLOBAL_OFFSET &&
	        VAST_FP_KIND(name) != VAST_FP_ONE);
}

static void get_term(jctx *c, const cJSON *o, vast_fp_term *t)
{
	t->coef = get_i64(c, o, "coef");
	t->var = get_uint(c, o, "var", UINT_MAX);
	unsigned n;
	const cJSON *sym = get_array(c, o, "sym", VAST_FP_MAX_SYMS, &n);
	if (sym && n != VAST_FP_MAX_SYMS)
		fail(c, "'sym' has %u entries, not %d", n, VAST_FP_MAX_SYMS);
	for (unsigned m = 0; sym && m < n && !c->failed; m++) {
		const cJSON *s = cJSON_GetArrayItem(sym, (int)m);
		double d = s->valuedouble;
		if (!cJSON_IsNumber(s) || !(d >= 0 && d <= UINT_MAX) ||
		    d != (double)(unsigned)d || !valid_name((unsigned)d))
			fail(c, "'sym'[%u] is not a footprint name", m);
		else
			t->sym[m] = (unsigned)d;
	}
	if (!c->failed && !valid_name(t->var))
		fail(c, "'var' is not a footprint name");
}

/* A footprint's [first, first + n) of a table of len entries. */
static void check_range(jctx *c, unsigned first, unsigned n, unsigned len,
                        const char *what)
{
	if (first > len || n > len - first || (n == 0 && first != 0))
		fail(c, "its %s [%u, +%u) lie outside the %u of the kernel", what, first, n,
		     len);
}

static void get_footprint(jctx *c, const cJSON *o, vast_footprint *fp,
                          unsigned nparams, const unsigned len[4])
{
	fp->params = get_uint(c, o, "params", UINT_MAX);
	fp->mode = get_uint(c, o, "mode", VAST_MODE_RW | VAST_MODE_ATOMIC);
	fp->size = get_uint(c, o, "size", UINT_MAX);
	fp->affine = get_bool(c, o, "affine");
	fp->reason = get_str(c, o, "reason", 1);
	fp->offset = get_form(c, o, "offset", 0, len[0]);
	fp->first_loop = get_uint(c, o, "first_loop", UINT_MAX);
	fp->nloops = get_uint(c, o, "nloops", UINT_MAX);
	fp->first_guard = get_uint(c, o, "first_guard", UINT_MAX);
	fp->nguards = get_uint(c, o, "nguards", UINT_MAX);
	fp->first_check = get_uint(c, o, "first_check", UINT_MAX);
	fp->nchecks = get_uint(c, o, "nchecks", UINT_MAX);
	fp->noffset_checks = get_uint(c, o, "noffset_checks", UINT_MAX);
	fp->exact = get_bool(c, o, "exact");
	fp->must_write = get_bool(c, o, "must_write");
	if (c->failed)
		return;
	check_range(c, fp->first_loop, fp->nloops, len[1], "loops");
	check_range(c, fp->first_guard, fp->nguards, len[2], "guards");
	check_range(c, fp->first_check, fp->nchecks, len[3], "checks");
	if (fp->noffset_checks > fp->nchecks)
		fail(c, "'noffset_checks' %u exceeds 'nchecks' %u", fp->noffset_checks,
		     fp->nchecks);
	if (!fp->affine != !!fp->reason)
		fail(c, "'reason' must be null exactly when 'affine' is 1");
	if (nparams < 32 && fp->params >> nparams)
		fail(c, "'params' names a parameter past the kernel's %u", nparams);
}

static void get_footprints(jctx *c, const cJSON *o, vast_kernel_footprints *k,
                           unsigned nparams)
{
	unsigned nfp, nterms, nloops, nguards, nchecks;
	const cJSON *fps = get_array(c, o, "footprints", MAX_ENTRIES, &nfp);
	const cJSON *terms = get_array(c, o, "terms", MAX_ENTRIES, &nterms);
	const cJSON *loops = get_array(c, o, "loops", MAX_ENTRIES, &nloops);
	const cJSON *guards = get_array(c, o, "guards", MAX_ENTRIES, &nguards);
	const cJSON *checks = get_array(c, o, "checks", MAX_ENTRIES, &nchecks);
	vast_fp_term *t = table(c, nterms, sizeof *t);
	k->terms = t;
	vast_fp_loop *l = table(c, nloops, sizeof *l);
	k->loops = l;
	vast_fp_form *g = table(c, nguards, sizeof *g);
	k->guards = g;
	vast_fp_check *ch = table(c, nchecks, sizeof *ch);
	k->checks = ch;
	vast_footprint *f = table(c, nfp, sizeof *f);
	k->footprints = f;
	if (c->failed)
		return;
	k->nfootprints = nfp; /* its reasons are freed from here on */
	unsigned i = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, terms) {
		if (!cJSON_IsObject(e))
			fail(c, "'terms'[%u] is not an object", i);
		get_term(c, e, &t[i++]);
	}
	i = 0;
	cJSON_ArrayForEach(e, loops) {
		l[i].lo = get_form(c, e, "lo", i, nterms);
		l[i].hi = get_form(c, e, "hi", i, nterms);
		l[i].step = get_i64(c, e, "step");
		if (!c->failed && l[i].step <= 0)
			fail(c, "'loops'[%u].'step' is not positive", i);
		i++;
	}
	i = 0;
	cJSON_ArrayForEach(e, guards) {
		g[i] = form_of(c, e, "guards", i, nterms);
		i++;
	}
	i = 0;
	cJSON_ArrayForEach(e, checks) {
		ch[i].form = get_form(c, e, "form", i, nterms);
		const cJSON *b = member(c, e, "bits");
		double d = b ? b->valuedouble : 0;
		/* [0, 2^bits) or a signed range of -bits bits (vast/stub.h) */
		if (b && (!cJSON_IsNumber(b) || !(d >= -64 && d <= 64) || d == 0 ||
		          d != (double)(int)d))
			fail(c, "'checks'[%u].'bits' is not in -64..64 and nonzero", i);
		ch[i].bits = (int)d;
		i++;
	}
	const unsigned len[4] = { nterms, nloops, nguards, nchecks };
	i = 0;
	cJSON_ArrayForEach(e, fps) {
		if (!cJSON_IsObject(e))
			fail(c, "'footprints'[%u] is not an object", i);
		get_footprint(c, e, &f[i++], nparams, len);
	}
}

static void get_kernel(jctx *c, const cJSON *o, vast_kernel_info *k,
                       vast_kernel_footprints *fp)
{
	if (!cJSON_IsObject(o)) {
		fail(c, "not an object");
		return;
	}
	k->name = get_str(c, o, "name", 0);
	unsigned n;
	const cJSON *params = get_array(c, o, "params", MAX_ENTRIES, &n);
	vast_param_info *p = table(c, n, sizeof *p);
	k->params = p;
	if (c->failed)
		return;
	k->nparams = n;
	unsigned i = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, params) {
		if (!cJSON_IsObject(e))
			fail(c, "'params'[%u] is not an object", i);
		p[i].name = get_str(c, e, "name", 0);
		p[i].kind = get_uint(c, e, "kind", VAST_PARAM_OTHER);
		p[i].mode = get_uint(c, e, "mode", VAST_MODE_RW | VAST_MODE_ATOMIC);
		p[i].pattern = get_uint(c, e, "pattern", VAST_PAT_INDIRECT);
		p[i].elem_size = get_uint(c, e, "elem_size", UINT_MAX);
		p[i].inspect_reads = get_bool(c, e, "inspect_reads");
		i++;
	}
	/* 4, the merge kernel's bit, which an older vastcc set: taken, and
	 * dropped (vast/stub.h) */
	k->variants = get_uint(c, o, "variants",
	                       VAST_HAS_INSPECT | VAST_HAS_PAGED | 4u |
	                       VAST_HAS_STRAIGHT | VAST_HAS_PINSPECT) & ~4u;
	k->virtualizable = get_bool(c, o, "virtualizable");
	k->reason = get_str(c, o, "reason", 1);
	k->location = get_str(c, o, "location", 1);
	k->merge_exact = get_bool(c, o, "merge_exact");
	k->items_independent = get_bool(c, o, "items_independent");
	if (!c->failed && !k->virtualizable != !!k->reason)
		fail(c, "'reason' must be null exactly when 'virtualizable' is 1");
	const cJSON *f = member(c, o, "footprints");
	if (f && !cJSON_IsObject(f))
		fail(c, "'footprints' is not an object");
	if (!c->failed)
		get_footprints(c, f, fp, k->nparams);
}

static void get_program(jctx *c, const cJSON *root, vast_program_info *p)
{
	if (!cJSON_IsObject(root)) {
		fail(c, "not a JSON object");
		return;
	}
	unsigned version = get_uint(c, root, "vastcc_json", UINT_MAX);
	if (!c->failed && version != VAST_JSON_VERSION)
		fail(c, "format version %u, not %d", version, VAST_JSON_VERSION);
	p->abi_version = get_uint(c, root, "abi_version", UINT_MAX);
	if (!c->failed && p->abi_version != VAST_STUB_ABI_VERSION)
		fail(c, "stub ABI %u, not %d", p->abi_version, VAST_STUB_ABI_VERSION);
	if (c->failed)
		return;
	p->file = get_str(c, root, "file", 0);
	p->source_hash = get_u64(c, root, "source_hash", 1, 0);
	p->source_size = get_u64(c, root, "source_size", 0, 0);
	p->cl_options = get_str(c, root, "cl_options", 0);
	p->prefix = get_str(c, root, "prefix", 0);
	p->generated_source = get_str(c, root, "generated_source", 0);
	unsigned n;
	const cJSON *macros = get_array(c, root, "device_macros", MAX_ENTRIES, &n);
	vast_device_macro *m = table(c, n, sizeof *m);
	p->device_macros = m;
	if (c->failed)
		return;
	p->ndevice_macros = n;
	unsigned i = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, macros) {
		if (!cJSON_IsObject(e))
			fail(c, "'device_macros'[%u] is not an object", i);
		m[i].name = get_str(c, e, "name", 0);
		m[i].value = get_str(c, e, "value", 1);
		i++;
	}
	const cJSON *kernels = get_array(c, root, "kernels", MAX_ENTRIES, &n);
	vast_kernel_info *k = table(c, n, sizeof *k);
	p->kernels = k;
	vast_kernel_footprints *fp = table(c, n, sizeof *fp);
	p->footprints = fp;
	if (c->failed)
		return;
	p->nkernels = n;
	i = 0;
	cJSON_ArrayForEach(e, kernels) {
		c->kernel = (int)i;
		get_kernel(c, e, &k[i], &fp[i]);
		i++;
	}
	c->kernel = -1;
}

/* Whether text ends with the seal of the bytes before it. FNV-1a maps
 * texts that differ in one byte to different hashes (each step is a
 * bijection of the state), so every single damaged byte is caught. */
static int sealed(const char *text, size_t len)
{
	size_t h = strlen(VAST_JSON_SEAL_HEAD), t = strlen(VAST_JSON_SEAL_TAIL);
	if (!text || len < h + 16 + t)
		return 0;
	const char *s = text + len - t - 16 - h;
	if (memcmp(s, VAST_JSON_SEAL_HEAD, h) || memcmp(s + h + 16, VAST_JSON_SEAL_TAIL, t))
		return 0;
	unsigned long long v = 0;
	for (const char *d = s + h; d < s + h + 16; d++) {
		int dig = *d >= '0' && *d <= '9' ? *d - '0' : *d >= 'a' && *d <= 'f' ? *d - 'a' + 10
		                                                                   : -1;
		if (dig < 0)
			return 0;
		v = v << 4 | (unsigned)dig;
	}
	return v == vast_hash_bytes(VAST_HASH_SEED, text, (unsigned long long)(s - text));
}

int vrt_json_sealed(const char *text, size_t len)
{
	return sealed(text, len);
}

void vrt_json_seal(char *text, size_t len)
{
	size_t h = strlen(VAST_JSON_SEAL_HEAD), t = strlen(VAST_JSON_SEAL_TAIL);
	if (len < h + 16 + t)
		return;
	char *digits = text + len - t - 16;
	char hex[17];
	snprintf(hex, sizeof hex, "%016llx",
	         vast_hash_bytes(VAST_HASH_SEED, text, (unsigned long long)(digits - h - text)));
	memcpy(digits, hex, 16);
}

vast_program_info *vrt_stub_from_json(const char *text, size_t len, char **error)
{
	jctx c = { error, -1, 0 };
	if (error)
		*error = NULL;
	int seal = sealed(text, len);
	vast_program_info *p = seal ? vrt_calloc(1, sizeof *p) : NULL;
	cJSON *root = p ? cJSON_ParseWithLength(text, len) : NULL;
	if (!seal)
		fail(&c, "its checksum does not hold (cut short or damaged)");
	else if (!p)
		fail(&c, "out of memory");
	else if (!root)
		fail(&c, "not JSON");
	else
		get_program(&c, root, p);
	cJSON_Delete(root);
	if (c.failed) {
		vrt_stub_json_free(p);
		return NULL;
	}
	return p;
}

void vrt_stub_json_free(vast_program_info *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->nkernels; i++) {
		const vast_kernel_info *k = &p->kernels[i];
		for (unsigned j = 0; j < k->nparams; j++)
			vrt_free((void *)k->params[j].name);
		vrt_free((void *)k->params);
		vrt_free((void *)k->name);
		vrt_free((void *)k->reason);
		vrt_free((void *)k->location);
		const vast_kernel_footprints *f = &p->footprints[i];
		for (unsigned j = 0; j < f->nfootprints; j++)
			vrt_free((void *)f->footprints[j].reason);
		vrt_free((void *)f->footprints);
		vrt_free((void *)f->terms);
		vrt_free((void *)f->loops);
		vrt_free((void *)f->guards);
		vrt_free((void *)f->checks);
	}
	for (unsigned i = 0; i < p->ndevice_macros; i++) {
		vrt_free((void *)p->device_macros[i].name);
		vrt_free((void *)p->device_macros[i].value);
	}
	vrt_free((void *)p->kernels);
	vrt_free((void *)p->footprints);
	vrt_free((void *)p->device_macros);
	vrt_free((void *)p->file);
	vrt_free((void *)p->cl_options);
	vrt_free((void *)p->prefix);
	vrt_free((void *)p->generated_source);
	vrt_free(p);
}
