/* SPDX-License-Identifier: MIT */
/*
 * icd.c - finds the real OpenCL entry points.
 *
 * libvastrt defines the functions of entrypoints.def, so the program's
 * calls land here; to forward them it needs the loader's own definitions,
 * which dlopen("libOpenCL.so.1") + dlsym() give (dlsym on a handle
 * searches that library before the executable). Loaded once, under
 * pthread_once; the configuration is read at the same time. This is the
 * OS-specific corner of the runtime, together with the lock below (not
 * recursive: nothing inside the runtime takes it twice).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"

vrt_icd vrt_real;
static void *loader;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static cl_int init_status = CL_OUT_OF_RESOURCES;
/* The big lock, handed over in the order it was asked for (a ticket
 * lock): the executor takes it again right after it let it go (a
 * launch's run, then the previous launch's end), and a plain mutex let
 * it, so a program enqueueing from its own thread waited through several
 * launches (measured on the H100: 55 us an enqueue, 9 without waiting).
 * The program's thread and the executor hand it to each other a few
 * times a launch; a waiter that slept on the condition variable took
 * ~7 us to wake each time (H100 host: 52 us a cached native launch
 * against 6 with the plain driver), so a waiter first spins for up to
 * VRT_LOCK_SPIN_US, then sleeps. `sleepers` tells vrt_unlock whether
 * anyone needs waking: a sleeper counts itself before it looks at
 * `serving` for the last time, vrt_unlock moves `serving` before it
 * looks at `sleepers` (sequentially consistent both), so one of them
 * sees the other. */
#define VRT_LOCK_SPIN_US 50
static pthread_mutex_t ticket_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ticket_cv = PTHREAD_COND_INITIALIZER;
static unsigned long next_ticket, serving;
static int sleepers;

static int interposed; /* vrt_entries_interposed */

/* Whether the global lookup of the entry points finds the runtime's own
 * (the object holding vrt_init): one of entrypoints.def, one of
 * foreign.def. */
static int find_interposed(void)
{
	static const char *const names[] = {"clEnqueueNDRangeKernel", "clEnqueueReadImage"};
	Dl_info self, got;
	if (!dladdr((void *)vrt_init, &self))
		return 0;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		void *f = dlsym(RTLD_DEFAULT, names[i]);
		if (!f || !dladdr(f, &got) || got.dli_fbase != self.dli_fbase)
			return 0;
	}
	return 1;
}

int vrt_entries_interposed(void)
{
	return interposed;
}

/* The entry points of entrypoints.def newer than OpenCL 1.2, which a
 * 1.2 loader lacks: the runtime starts without them, and its side of
 * each copes with a NULL vrt_real member (queue.c, vrt_queue_create). Any other one
 * missing leaves the runtime unable to start (CL_OUT_OF_RESOURCES from
 * every call). */
static int optional(const char *name)
{
	return !strcmp(name, "clCreateCommandQueueWithProperties");
}

static void load(void)
{
	vrt_config_load();
	void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_GLOBAL);
	if (!h)
		h = dlopen("libOpenCL.so", RTLD_NOW | RTLD_GLOBAL);
	if (!h) {
		vrt_log(VRT_LOG_WARN, "cannot load libOpenCL.so.1: %s", dlerror());
		return;
	}
	/* The handle stays open for the life of the process: the table
	 * points into it. */
	loader = h;
#define VRT_ENTRY(ret, name, params, args)                                 \
	*(void **)&vrt_real.name = dlsym(h, #name);                        \
	if (!vrt_real.name && !optional(#name)) {                          \
		vrt_log(VRT_LOG_WARN, "libOpenCL.so.1 lacks %s", #name);   \
		return;                                                    \
	}
#include "entrypoints.def"
#undef VRT_ENTRY
#define VRT_FOREIGN(ret, name, params, args, absent) *(void **)&vrt_real.name = dlsym(h, #name);
#include "foreign.def"
#undef VRT_FOREIGN
	interposed = find_interposed();
	vrt_log(VRT_LOG_INFO, interposed
	        ? "every enqueue of the process reaches the runtime: a command waits for the program's own on its queue only where there are any"
	        : "the OpenCL entry points of the process are not the runtime's (linked without vastrt.dynlist): each command waits for all before it on its queue");
	init_status = CL_SUCCESS;
}

cl_int vrt_init(void)
{
	pthread_once(&once, load);
	return init_status;
}

void *vrt_loader_symbol(const char *name)
{
	return loader ? dlsym(loader, name) : NULL;
}

/* "OpenCL 2.1 ..." (CL_PLATFORM_VERSION, CL_DEVICE_VERSION) as 21; 0 if
 * unreadable. */
static unsigned api_version(const char *s)
{
	unsigned major, minor;
	if (strncmp(s, "OpenCL ", 7) || sscanf(s + 7, "%u.%u", &major, &minor) != 2)
		return 0;
	return major * 10 + minor;
}

cl_command_queue vrt_queue_create(cl_context ctx, cl_device_id dev,
                                  cl_command_queue_properties props, cl_int *err)
{
	/* clCreateCommandQueueWithProperties is OpenCL 2.0: the ICD loader
	 * finds it in the platform's dispatch table, which a 1.x platform's
	 * ends before (ocl-icd spun for ever on Oclgrind, OpenCL 1.2).
	 * clCreateCommandQueue, deprecated by 2.0, serves every version,
	 * and an OpenCL 1.2 loader has nothing else (icd.c). */
	char pv[256] = "", dv[256] = "";
	cl_platform_id p = NULL;
	if (vrt_real.clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof p, &p, NULL) != CL_SUCCESS ||
	    clGetPlatformInfo(p, CL_PLATFORM_VERSION, sizeof pv - 1, pv, NULL) != CL_SUCCESS ||
	    vrt_real.clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof dv - 1, dv, NULL) !=
	    CL_SUCCESS || api_version(pv) < 20 || api_version(dv) < 20 ||
	    !vrt_real.clCreateCommandQueueWithProperties)
		return vrt_real.clCreateCommandQueue(ctx, dev, props, err);
	cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
	return vrt_real.clCreateCommandQueueWithProperties(ctx, dev, props ? list : NULL, err);
}

static int my_turn(unsigned long mine)
{
	return __atomic_load_n(&serving, __ATOMIC_SEQ_CST) == mine;
}

/* Up to VRT_LOCK_SPIN_US for `mine` to be served; whether it was. */
static int spin_for(unsigned long mine)
{
	double until = 0;
	for (unsigned i = 1;; i++) {
		if (my_turn(mine))
			return 1;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
		if (i % 64 == 0) {
			double t = vrt_now_ms();
			if (!until)
				until = t + VRT_LOCK_SPIN_US / 1000.0;
			else if (t > until)
				return 0;
		}
	}
}

void vrt_lock(void)
{
	/* pthread_cond_wait is a cancellation point: a thread cancelled in
	 * it would leave its ticket unserved, and every other thread waiting
	 * for ever. */
	int cancel;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
	unsigned long mine = __atomic_fetch_add(&next_ticket, 1, __ATOMIC_SEQ_CST);
	if (!spin_for(mine)) {
		pthread_mutex_lock(&ticket_mu);
		__atomic_add_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
		while (!my_turn(mine))
			pthread_cond_wait(&ticket_cv, &ticket_mu);
		__atomic_sub_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
		pthread_mutex_unlock(&ticket_mu);
	}
	pthread_setcancelstate(cancel, NULL);
}

static vrt_later *later; /* guarded by the big lock */

void vrt_run_after_unlock(vrt_later *first, vrt_later *last)
{
	last->next = later;
	later = first;
}

void vrt_unlock(void)
{
	vrt_later *l = later;
	later = NULL;
	__atomic_add_fetch(&serving, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sleepers, __ATOMIC_SEQ_CST)) {
		pthread_mutex_lock(&ticket_mu);
		pthread_cond_broadcast(&ticket_cv);
		pthread_mutex_unlock(&ticket_mu);
	}
	while (l) {
		vrt_later *next = l->next;
		l->run(l);
		l = next;
	}
}
