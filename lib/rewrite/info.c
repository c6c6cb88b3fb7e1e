/* SPDX-License-Identifier: MIT */
/*
 * info.c - rw_info_create: the vast_program_info (runtime/include/vast/
 * stub.h) that describes an analysed program, built in memory. It is the
 * one walk over the kernel model that both serialisations print: stub.c
 * writes it as C (the stub `vastcc -c` compiles), json.c as JSON (what
 * `vastcc --emit-json` writes and the runtime reads back), so the two can
 * never disagree on a table.
 *
 * Per kernel the footprints' own term, loop, guard and check tables are
 * concatenated into one table each and the indices moved; an empty range
 * is { 0, 0 } and an empty table NULL, as the ABI reads them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rewrite.h"

static const char too_deep_reason[] =
	"its code nests more than 256 parentheses, brackets or braces deep "
	"once accesses are translated, more than device compilers accept";

/* The tables are small (a few per access); running out of memory here is
 * an internal error, not worth a NULL check at every table. */
static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p) {
		RW_INTERNAL("out of memory");
		abort();
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xcalloc(n, 1), s, n);
}

static vast_fp_form moved(vast_fp_form f, unsigned base)
{
	return (vast_fp_form){ f.n ? f.first + base : 0, f.n };
}

/* Kernel k's footprint tables into *out. */
static unsigned footprints(const an_program *p, const an_func *k,
                           vast_kernel_footprints *out)
{
	unsigned nterms = 0, nloops = 0, nguards = 0, nchecks = 0;
	for (unsigned i = 0; i < k->nfps; i++) {
		nterms += k->fps[i].nterms;
		nloops += k->fps[i].nloops;
		nguards += k->fps[i].nguards;
		nchecks += k->fps[i].nchecks;
	}
	vast_footprint *fps = k->nfps ? xcalloc(k->nfps, sizeof *fps) : NULL;
	vast_fp_term *terms = nterms ? xcalloc(nterms, sizeof *terms) : NULL;
	vast_fp_loop *loops = nloops ? xcalloc(nloops, sizeof *loops) : NULL;
	vast_fp_form *guards = nguards ? xcalloc(nguards, sizeof *guards) : NULL;
	vast_fp_check *checks = nchecks ? xcalloc(nchecks, sizeof *checks) : NULL;
	unsigned base = 0, loop = 0, guard = 0, check = 0;
	for (unsigned i = 0; i < k->nfps; i++) {
		const an_footprint *fp = &k->fps[i];
		const an_access *a = &p->accesses[fp->access];
		if (fp->nterms)
			memcpy(terms + base, fp->terms, fp->nterms * sizeof *terms);
		for (unsigned j = 0; j < fp->nloops; j++)
			loops[loop + j] = (vast_fp_loop){ moved(fp->loops[j].lo, base),
			                                  moved(fp->loops[j].hi, base),
			                                  fp->loops[j].step };
		for (unsigned j = 0; j < fp->nguards; j++)
			guards[guard + j] = moved(fp->guards[j], base);
		for (unsigned j = 0; j < fp->nchecks; j++)
			checks[check + j] = (vast_fp_check){ moved(fp->checks[j].form, base),
			                                     fp->checks[j].bits };
		fps[i] = (vast_footprint){
			.params = fp->params, .mode = a->mode, .size = a->size,
			.affine = fp->affine ? 1u : 0u,
			.reason = fp->affine ? NULL : fp->reason,
			.offset = moved(fp->offset, base),
			.first_loop = fp->nloops ? loop : 0, .nloops = fp->nloops,
			.first_guard = fp->nguards ? guard : 0, .nguards = fp->nguards,
			.first_check = fp->nchecks ? check : 0, .nchecks = fp->nchecks,
			.noffset_checks = fp->noffset_checks,
			.exact = fp->exact ? 1u : 0u, .must_write = fp->must_write ? 1u : 0u,
		};
		base += fp->nterms;
		loop += fp->nloops;
		guard += fp->nguards;
		check += fp->nchecks;
	}
	*out = (vast_kernel_footprints){ k->nfps, fps, terms, loops, guards, checks };
	return nterms;
}

/* "file:line:col" of a reason */
static char *location(an_loc at, const char *path)
{
	const char *file = at.file ? at.file : path;
	size_t n = strlen(file) + 32;
	char *s = xcalloc(n, 1);
	snprintf(s, n, "%s:%u:%u", file, at.line, at.col);
	return s;
}

rw_info *rw_info_create(const an_program *p, const char *program_text)
{
	return rw_info_create_depth(p, program_text, NULL);
}

rw_info *rw_info_create_depth(const an_program *p, const char *program_text,
                              const unsigned char *given)
{
	char pfx[RW_PREFIX_MAX];
	rw_prefix(p, pfx);
	unsigned char *own = given ? NULL : rw_too_deep(p, pfx);
	const unsigned char *too_deep = given ? given : own;
	if (!too_deep)
		return NULL;
	const char *path = p->path ? p->path : "";
	unsigned nkernels = 0;
	for (unsigned f = 0; f < p->nfuncs; f++)
		nkernels += p->funcs[f].is_kernel ? 1u : 0u;

	rw_info *info = xcalloc(1, sizeof *info);
	info->nterms = xcalloc(nkernels, sizeof *info->nterms);
	vast_kernel_info *kernels = nkernels ? xcalloc(nkernels, sizeof *kernels) : NULL;
	vast_kernel_footprints *fps = nkernels ? xcalloc(nkernels, sizeof *fps) : NULL;
	vast_device_macro *macros = p->ndevmacros ? xcalloc(p->ndevmacros, sizeof *macros)
	                                          : NULL;
	for (unsigned f = 0, n = 0; f < p->nfuncs; f++) {
		const an_func *k = &p->funcs[f];
		if (!k->is_kernel)
			continue;
		vast_param_info *params = k->nparams ? xcalloc(k->nparams, sizeof *params)
		                                     : NULL;
		for (unsigned i = 0; i < k->nparams; i++) {
			const an_param *pa = &k->params[i];
			params[i] = (vast_param_info){ pa->name, pa->kind, pa->mode, pa->pattern,
			                               pa->elem_size, pa->inspect_reads ? 1u : 0u };
		}
		/* No variants at all: their code would nest too deep (depth.c),
		 * the first reason the runtime must know. */
		int virt = k->virtualizable && !too_deep[f];
		kernels[n] = (vast_kernel_info){
			.name = k->name, .nparams = k->nparams, .params = params,
			.variants = too_deep[f] ? 0u : VAST_HAS_INSPECT | VAST_HAS_PAGED |
			                               (rw_no_straight(k) ? 0u : VAST_HAS_STRAIGHT) |
			                               (rw_has_pinspect(k) ? VAST_HAS_PINSPECT : 0u),
			.virtualizable = virt ? 1u : 0u,
			.reason = virt ? NULL : too_deep[f] ? too_deep_reason : k->reason,
			.location = virt ? NULL
			                 : location(too_deep[f] ? k->loc : k->reason_loc, path),
			.merge_exact = k->merge_exact ? 1u : 0u,
			.items_independent = k->items_independent ? 1u : 0u,
		};
		info->nterms[n] = footprints(p, k, &fps[n]);
		n++;
	}
	for (unsigned i = 0; i < p->ndevmacros; i++)
		macros[i] = (vast_device_macro){ p->devmacros[i].name, p->devmacros[i].value };
	info->prog = (vast_program_info){
		.abi_version = VAST_STUB_ABI_VERSION,
		.file = path,
		.source_hash = p->source_hash,
		.source_size = p->source_size,
		.cl_options = p->cl_options ? p->cl_options : "",
		.generated_source = program_text,
		.nkernels = nkernels, .kernels = kernels,
		.prefix = xstrdup(pfx),
		.ndevice_macros = p->ndevmacros, .device_macros = macros,
		.footprints = fps,
	};
	free(own);
	return info;
}

void rw_info_sizes(const rw_info *info, unsigned k, unsigned n[RW_FP_NTAB])
{
	const vast_kernel_footprints *f = &info->prog.footprints[k];
	n[RW_FP_FPS] = f->nfootprints;
	n[RW_FP_TERMS] = info->nterms[k];
	n[RW_FP_LOOPS] = n[RW_FP_GUARDS] = n[RW_FP_CHECKS] = 0;
	for (unsigned i = 0; i < f->nfootprints; i++) {
		n[RW_FP_LOOPS] += f->footprints[i].nloops;
		n[RW_FP_GUARDS] += f->footprints[i].nguards;
		n[RW_FP_CHECKS] += f->footprints[i].nchecks;
	}
}

void rw_info_destroy(rw_info *info)
{
	if (!info)
		return;
	const vast_program_info *p = &info->prog;
	for (unsigned k = 0; k < p->nkernels; k++) {
		free((void *)p->kernels[k].params);
		free((void *)p->kernels[k].location);
		const vast_kernel_footprints *f = &p->footprints[k];
		free((void *)f->footprints);
		free((void *)f->terms);
		free((void *)f->loops);
		free((void *)f->guards);
		free((void *)f->checks);
	}
	free((void *)p->kernels);
	free((void *)p->footprints);
	free((void *)p->device_macros);
	free((void *)p->prefix);
	free(info->nterms);
	free(info);
}
