/* SPDX-License-Identifier: MIT */
/*
 * object.c - the objects the runtime hands to the program: their ICD
 * dispatch table and the record of which handles are the runtime's.
 *
 * A cl_mem, cl_program or cl_kernel the runtime creates is a vrt_mem,
 * vrt_program or vrt_kernel, not the driver's object. The program may
 * pass it to any OpenCL function, also one libvastrt does not define:
 * that call lands in the ICD loader, which follows the object's first
 * word as a cl_icd_dispatch table (OpenCL ICD extension, cl_khr_icd).
 * So every object starts with a vrt_object whose dispatch points to one
 * table: the runtime's own entry points (entrypoints.def), and for the
 * other functions that can be dispatched through our objects
 * (dispatch.def) a forwarder to the driver's twin or a refusal with
 * CL_INVALID_OPERATION, warned once, as the Khronos loader's stubs for
 * unsupported entries do. Entries for functions dispatched through
 * other objects (queues, contexts, ...) are never read from our table.
 *
 * Every object is recorded in a sorted array, so an entry point tells
 * its own handles from the driver's without dereferencing them. A
 * released object's memory is never given back to malloc: it stays
 * recorded as a husk, dead, and is reused by the next object of its
 * kind. A handle used after its release is therefore recognised and
 * answered with CL_INVALID_* (OpenCL 1.2 §5.4.1, §5.6.1, §5.7.1) rather
 * than read from freed memory, and a driver object can never sit at the
 * address of one of ours. The husks are bounded by the most objects of a
 * kind alive at once. Thread-safe: the record has its own mutex.
 */
#define _GNU_SOURCE
#include "base/base.h"

#include <CL/cl_icd.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static vrt_object **objs; /* sorted by address */
static size_t nobjs, capobjs;
static vrt_object *husks[VRT_OBJ_KINDS];
static size_t kind_size[VRT_OBJ_KINDS];

/* Index of the first entry >= p. */
static size_t find(const void *p)
{
	size_t lo = 0, hi = nobjs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((const void *)objs[mid] < p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int record(vrt_object *o)
{
	if (VRT_GROW(&objs, &capobjs, nobjs + 1))
		return -1;
	size_t i = find(o);
	memmove(objs + i + 1, objs + i, (nobjs - i) * sizeof *objs);
	objs[i] = o;
	nobjs++;
	return 0;
}

static vrt_object *recorded(const void *p)
{
	size_t i = find(p);
	return i < nobjs && (const void *)objs[i] == p ? objs[i] : NULL;
}

static const struct _cl_icd_dispatch table;

void *vrt_object_new(int kind, size_t size)
{
	pthread_mutex_lock(&lock);
	vrt_object *o = husks[kind];
	if (o) {
		husks[kind] = o->next_husk;
	} else {
		o = vrt_malloc(size);
		if (o && record(o)) {
			vrt_free(o);
			o = NULL;
		}
		kind_size[kind] = size;
	}
	if (o) {
		/* Under the lock: a lookup of a reused husk sees it whole. */
		memset(o, 0, size);
		o->dispatch = &table;
		o->kind = kind;
		o->live = 1;
	}
	pthread_mutex_unlock(&lock);
	return o;
}

void vrt_object_retire(void *p)
{
	vrt_object *o = p;
	pthread_mutex_lock(&lock);
	/* Only the header stays meaningful: the rest may name freed data. */
	memset(o + 1, 0, kind_size[o->kind] - sizeof *o);
	o->live = 0;
	o->next_husk = husks[o->kind];
	husks[o->kind] = o;
	pthread_mutex_unlock(&lock);
}

void *vrt_object_of(const void *p, int kind)
{
	pthread_mutex_lock(&lock);
	vrt_object *o = recorded(p);
	if (o && (!o->live || o->kind != kind))
		o = NULL;
	pthread_mutex_unlock(&lock);
	return o;
}

int vrt_object_ours(const void *p)
{
	pthread_mutex_lock(&lock);
	int ours = recorded(p) != NULL;
	pthread_mutex_unlock(&lock);
	return ours;
}

/* The driver's object a forwarded query may see, or NULL. */
static void *real_of(const void *p, int kind)
{
	vrt_object *o = vrt_object_of(p, kind);
	if (!o)
		return NULL;
	if (kind == VRT_OBJ_KERNEL)
		return ((vrt_kernel *)o)->real;
	if (kind == VRT_OBJ_PROGRAM)
		return ((vrt_program *)o)->real;
	return NULL; /* a buffer's data is the runtime's, it has no twin */
}

static cl_int invalid(int kind)
{
	return kind == VRT_OBJ_KERNEL ? CL_INVALID_KERNEL
	       : kind == VRT_OBJ_PROGRAM ? CL_INVALID_PROGRAM : CL_INVALID_MEM_OBJECT;
}

static void refused(const char *name, int *warned, cl_int *errcode_ret)
{
	pthread_mutex_lock(&lock);
	int first = !*warned;
	*warned = 1;
	pthread_mutex_unlock(&lock);
	if (first)
		vrt_log(VRT_LOG_WARN, "'%s' is not supported on objects of the vastcc runtime; it returns CL_INVALID_OPERATION",
		        name);
	if (errcode_ret)
		*errcode_ret = CL_INVALID_OPERATION;
}

/* Generated: a refusal ignores its parameters. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define VRT_FORWARD(ret, name, kind, params, args)                              \
	static ret CL_API_CALL fwd_##name params                                \
	{                                                                       \
		static ret (CL_API_CALL *real) params;                          \
		if (vrt_init() != CL_SUCCESS)                                   \
			return CL_OUT_OF_RESOURCES;                             \
		if (!real)                                                      \
			*(void **)&real = vrt_loader_symbol(#name);             \
		void *twin = real_of(o, kind);                                  \
		if (!twin)                                                      \
			return invalid(kind);                                   \
		if (!real)                                                      \
			return CL_INVALID_OPERATION;                            \
		o = twin;                                                       \
		return real args;                                               \
	}
#define VRT_REFUSE(ret, name, params, errp, value)                              \
	static ret CL_API_CALL refuse_##name params                             \
	{                                                                       \
		static int warned;                                              \
		(void)o;                                                        \
		refused(#name, &warned, errp);                                  \
		return value;                                                   \
	}
#include "dispatch.def"
#undef VRT_FORWARD
#undef VRT_REFUSE
#pragma GCC diagnostic pop

static const struct _cl_icd_dispatch table = {
#define VRT_ENTRY(ret, name, params, args) .name = name,
#include "entrypoints.def"
#undef VRT_ENTRY
#define VRT_FORWARD(ret, name, kind, params, args) .name = fwd_##name,
#define VRT_REFUSE(ret, name, params, errp, value) .name = refuse_##name,
#include "dispatch.def"
#undef VRT_FORWARD
#undef VRT_REFUSE
};
