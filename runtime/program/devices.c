/* SPDX-License-Identifier: MIT */
/*
 * devices.c - VAST_DEVICES: the devices the virtual device spans, and
 * the runtime's own context, queue and build of a program on each.
 *
 * Names are by device type and index over all platforms, in platform
 * order (the order clGetPlatformIDs and clGetDeviceIDs give, OpenCL 1.2
 * §4.1, §4.2): gpu0 is the first GPU of any platform, cpu1 the second
 * CPU device. "gpu", "cpu" and "acc" name every device of the type,
 * "all" every device. The launch's own device (its queue's) always takes
 * part; it keeps the program's context. For every other device the
 * runtime makes a context of its own and builds the generated program
 * there with the program's build options, once, kept until exit (like
 * the staging areas: a program's later builds find it again by source
 * and options), when the program is built (clBuildProgram), so that no
 * launch waits for a compiler. A device whose compiler predefines the stub's
 * device-dependent macros otherwise than vastcc assumed is left out,
 * with one warning (devmacros.c). State guarded by the runtime lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program/program.h"

static const struct {
	const char *name;
	cl_device_type type;
} kinds[] = {
	{"gpu", CL_DEVICE_TYPE_GPU},
	{"cpu", CL_DEVICE_TYPE_CPU},
	{"acc", CL_DEVICE_TYPE_ACCELERATOR},
};

static int kind_of(cl_device_type t)
{
	for (int i = 0; i < 3; i++)
		if (t & kinds[i].type)
			return i;
	return -1;
}

static void add(unsigned *sel, unsigned *nsel, unsigned i)
{
	for (unsigned j = 0; j < *nsel; j++)
		if (sel[j] == i)
			return;
	if (*nsel < VRT_MAX_DEVICES)
		sel[(*nsel)++] = i;
}

int vrt_devices_select(const char *spec, const cl_device_type *types, unsigned n,
                       unsigned *sel, unsigned *nsel, char *why, size_t wn)
{
	*nsel = 0;
	const char *p = spec;
	for (;;) {
		size_t len = strcspn(p, ",");
		char name[32];
		if (len == 0 || len >= sizeof name) {
			snprintf(why, wn, "an empty or overlong name in VAST_DEVICES='%s'", spec);
			return -1;
		}
		memcpy(name, p, len);
		name[len] = 0;
		int kind = -1, all = !strcmp(name, "all");
		for (int i = 0; i < 3 && !all; i++) {
			size_t kl = strlen(kinds[i].name);
			if (!strncmp(name, kinds[i].name, kl))
				kind = i;
		}
		const char *digits = kind >= 0 ? name + strlen(kinds[kind].name) : "";
		char *end = NULL;
		long index = *digits ? strtol(digits, &end, 10) : -1;
		if (!all && (kind < 0 || (end && *end) || (*digits && (*digits < '0' || *digits > '9')))) {
			snprintf(why, wn, "unknown device '%s' in VAST_DEVICES (want all, gpu, cpu, acc, or one of them with an index like gpu0)",
			         name);
			return -1;
		}
		long seen = 0;
		for (unsigned i = 0; i < n; i++) {
			if (!all && kind_of(types[i]) != kind)
				continue;
			if (all || index < 0 || seen == index)
				add(sel, nsel, i);
			seen++;
		}
		if (!all && index >= seen) {
			snprintf(why, wn, "unknown device '%s' in VAST_DEVICES: this machine has %ld %s device%s",
			         name, seen, kinds[kind].name, seen == 1 ? "" : "s");
			return -1;
		}
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* Every device of every platform, resolved once. */
#define MAX_ALL 64
static cl_device_id all_devs[MAX_ALL];
static char all_names[MAX_ALL][16];
static unsigned nall;
static cl_device_id chosen[VRT_MAX_DEVICES];
static unsigned nchosen;
static int resolved;

static void resolve(void)
{
	resolved = 1;
	cl_platform_id plats[16];
	cl_uint np = 0;
	if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
		np = 0;
	if (np > 16)
		np = 16;
	cl_device_type types[MAX_ALL];
	unsigned count[3] = {0};
	for (cl_uint i = 0; i < np; i++) {
		cl_uint nd = 0;
		if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, MAX_ALL - nall, all_devs + nall,
		                   &nd) != CL_SUCCESS)
			continue;
		if (nd > MAX_ALL - nall)
			nd = MAX_ALL - nall;
		for (cl_uint j = 0; j < nd; j++, nall++) {
			types[nall] = 0;
			vrt_real.clGetDeviceInfo(all_devs[nall], CL_DEVICE_TYPE, sizeof types[nall],
			                         &types[nall], NULL);
			int k = kind_of(types[nall]);
			if (k >= 0)
				snprintf(all_names[nall], sizeof all_names[nall], "%s%u", kinds[k].name,
				         count[k]++);
			else
				snprintf(all_names[nall], sizeof all_names[nall], "device%u", nall);
		}
	}
	unsigned sel[VRT_MAX_DEVICES];
	char why[256];
	if (vrt_devices_select(vrt_cfg.devices, types, nall, sel, &nchosen, why, sizeof why)) {
		vrt_log(VRT_LOG_WARN, "ignoring VAST_DEVICES: %s", why);
		nchosen = 0;
	}
	for (unsigned i = 0; i < nchosen; i++)
		chosen[i] = all_devs[sel[i]];
}

unsigned vrt_devices_others(cl_device_id own, cl_device_id *out)
{
	if (!vrt_cfg.devices)
		return 0;
	if (!resolved)
		resolve();
	unsigned n = 0;
	for (unsigned i = 0; i < nchosen; i++)
		if (chosen[i] != own && n < VRT_MAX_DEVICES - 1)
			out[n++] = chosen[i];
	return n;
}

const char *vrt_device_name(cl_device_id d)
{
	for (unsigned i = 0; i < nall; i++)
		if (all_devs[i] == d)
			return all_names[i];
	return "device";
}

/* The runtime's context on each device of VAST_DEVICES, with an
 * in-order queue there: one per device, shared by every program built
 * there, so that a buffer's copy on a device (replica.c) serves the
 * launches of every program, and whole writes can be placed on a device
 * before any program runs there (mem.c). Kept until exit. */
typedef struct devctx {
	cl_device_id dev;
	cl_context ctx;
	cl_command_queue q;
	cl_int err;
} devctx;
static devctx ctxs[MAX_ALL];
static unsigned nctxs;

cl_int vrt_device_context(cl_device_id d, cl_context *ctx, cl_command_queue *q)
{
	devctx *c = NULL;
	for (unsigned i = 0; i < nctxs && !c; i++)
		if (ctxs[i].dev == d)
			c = &ctxs[i];
	if (!c) {
		if (nctxs == MAX_ALL)
			return CL_INVALID_DEVICE;
		c = &ctxs[nctxs++];
		c->dev = d;
		cl_platform_id plat = NULL;
		c->err = vrt_real.clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL);
		cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
		if (c->err == CL_SUCCESS)
			c->ctx = clCreateContext(props, 1, &d, NULL, NULL, &c->err);
		/* Profiling on: paged.c reads its kernels' times. */
		if (c->err == CL_SUCCESS)
			c->q = vrt_queue_create(c->ctx, d, CL_QUEUE_PROFILING_ENABLE, &c->err);
	}
	*ctx = c->ctx;
	*q = c->q;
	return c->err;
}

/* A program's build on one device of the runtime's. */
typedef struct devprog {
	const vast_program_info *info;
	char *options;
	cl_device_id dev;
	cl_context ctx;
	cl_command_queue q;
	cl_program prog;
	cl_int err; /* the build's result, kept: a failed device stays out */
	struct devprog *next;
} devprog;
static devprog *all_progs;

static cl_int build(devprog *b, vrt_program *p)
{
	cl_int err;
	if ((err = vrt_device_context(b->dev, &b->ctx, &b->q)) != CL_SUCCESS)
		return err;
	char why[512];
	if (!vrt_device_macros_match(p->info, b->ctx, 1, &b->dev, b->options, why, sizeof why)) {
		vrt_log(VRT_LOG_WARN, "device '%s' left out of VAST_DEVICES for '%s': %s",
		        vrt_device_name(b->dev), p->info->file, why);
		return CL_INVALID_DEVICE;
	}
	const char *gen = p->info->generated_source;
	if (!(b->prog = vrt_real.clCreateProgramWithSource(b->ctx, 1, &gen, NULL, &err)))
		return err;
	err = vrt_real.clBuildProgram(b->prog, 1, &b->dev, b->options, NULL, NULL);
	if (err != CL_SUCCESS)
		vrt_log(VRT_LOG_WARN, "building '%s' for device '%s' (VAST_DEVICES) failed: %s; it is left out",
		        p->info->file, vrt_device_name(b->dev), vrt_cl_error_name(err));
	return err;
}

cl_int vrt_device_program(vrt_program *p, cl_device_id d, cl_context *ctx, cl_program *prog,
                          cl_command_queue *q)
{
	const char *opts = p->options ? p->options : "";
	devprog *b;
	for (b = all_progs; b; b = b->next)
		if (b->info == p->info && b->dev == d && !strcmp(b->options, opts))
			break;
	if (!b) {
		if (!(b = vrt_calloc(1, sizeof *b)) || !(b->options = vrt_strdup(opts))) {
			vrt_free(b);
			return CL_OUT_OF_HOST_MEMORY;
		}
		b->info = p->info;
		b->dev = d;
		b->err = build(b, p);
		b->next = all_progs;
		all_progs = b;
	}
	*ctx = b->ctx;
	*prog = b->prog;
	*q = b->q;
	return b->err;
}

void vrt_devices_prebuild(vrt_program *p, const cl_device_id *others, unsigned n)
{
	for (unsigned j = 0; j < n; j++) {
		cl_context c;
		cl_program prog;
		cl_command_queue q;
		vrt_device_program(p, others[j], &c, &prog, &q); /* a failure is logged */
	}
}
