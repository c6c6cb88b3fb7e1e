/* SPDX-License-Identifier: MIT */
/*
 * registry.c - the programs vastcc compiled, registered by their stubs'
 * constructors before main() runs.
 *
 * A fixed array: a program links a handful of .cl files. Lookup is by the
 * original source's hash and size (vast_hash_bytes), then by kernel name.
 * The vast_program_info tables are the stubs' static data, never freed.
 *
 * Programs compiled at clBuildProgram (jit.c) are kept apart, in a list
 * under the runtime's lock, with the exact options and device flags they
 * were compiled for: a later build of the same source and options reuses
 * one. They live until exit (a cl_program may point at one until then).
 */
#include <string.h>

#include "program/program.h"

#define MAX_PROGRAMS 256
static const vast_program_info *programs[MAX_PROGRAMS];
static unsigned nprograms;

__attribute__((visibility("default")))
void vast_register_program(const vast_program_info *program)
{
	/* Constructors run before main, single-threaded: no lock needed. */
	if (!program || nprograms == MAX_PROGRAMS)
		return;
	if (program->abi_version != VAST_STUB_ABI_VERSION) {
		/* Configuration may not be loaded yet: say it unconditionally,
		 * it is a build mistake the user must see. */
		vrt_log(VRT_LOG_WARN, "'%s' was compiled by a vastcc with stub ABI %u, this runtime has %u; its kernels run natively",
		        program->file ? program->file : "?", program->abi_version,
		        VAST_STUB_ABI_VERSION);
		return;
	}
	programs[nprograms++] = program;
}

const vast_program_info *vrt_registry_find(unsigned long long hash,
                                           unsigned long long size)
{
	for (unsigned i = 0; i < nprograms; i++)
		if (programs[i]->source_hash == hash && programs[i]->source_size == size)
			return programs[i];
	return NULL;
}

const vast_kernel_info *vrt_program_kernel(const vast_program_info *p,
                                           const char *name)
{
	if (!p)
		return NULL;
	for (unsigned i = 0; i < p->nkernels; i++)
		if (!strcmp(p->kernels[i].name, name))
			return &p->kernels[i];
	return NULL;
}

typedef struct compiled {
	vast_program_info *program;
	char *options, *device;
	struct compiled *next;
} compiled;
static compiled *all_compiled;

const vast_program_info *vrt_registry_find_compiled(const char *options, const char *device,
                                                    unsigned long long hash,
                                                    unsigned long long size)
{
	for (compiled *c = all_compiled; c; c = c->next)
		if (c->program->source_hash == hash && c->program->source_size == size &&
		    !strcmp(c->options, options) && !strcmp(c->device, device))
			return c->program;
	return NULL;
}

int vrt_registry_add_compiled(vast_program_info *p, const char *options, const char *device)
{
	compiled *c = vrt_malloc(sizeof *c);
	char *o = vrt_strdup(options), *d = vrt_strdup(device);
	if (!c || !o || !d) {
		vrt_free(c), vrt_free(o), vrt_free(d);
		return -1;
	}
	c->program = p;
	c->options = o;
	c->device = d;
	c->next = all_compiled;
	all_compiled = c;
	return 0;
}
