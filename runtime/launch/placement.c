/* SPDX-License-Identifier: MIT */
/*
 * placement.c - where a whole write puts a buffer's bytes when
 * VAST_DEVICES names several devices (docs/multi.md, "Whole transfers").
 *
 * A launch split over the devices runs each window of work-groups where
 * its bytes are (resident.c); written to the launch's own device alone, a
 * buffer's other windows would cross to the others at the launch, device
 * to host to device. So a whole write of a large buffer is cut into one
 * contiguous window per device in proportion to the devices' speeds (the
 * split the partitioner makes of a launch whose work-groups read the
 * buffer in order), and each window goes straight to its device, all
 * links at once. A launch whose windows differ brings only the
 * difference; one that runs on one device brings the rest there.
 */
#include "launch/launch.h"

/* Below this a buffer goes to the launch's device alone: what the
 * others would save does not pay for a transfer each. */
#define SPREAD_MIN (16u << 20)
/* Windows end on these: the pages resident shares record. */
#define SPREAD_ALIGN (64u << 10)
/* A window's replica reaches past it by this fraction of it each way. */
#define SPREAD_ROOM 32

/* Whether dev has room for a window of `bytes` of m beside the replicas
 * of other buffers there (and, on the launch's own device, the device
 * copies and kept frames). */
static int fits(vrt_mem *m, cl_device_id dev, int own, size_t bytes)
{
	unsigned long long max = vrt_max_alloc(dev);
	if (max && bytes > max)
		return 0;
	unsigned long long used = vrt_mem_replica_bytes(NULL, dev, &m, 1);
	if (own)
		used += vrt_mem_resident_bytes() + vrt_framepool_bytes();
	return used + bytes <= vrt_budget(dev, m->size);
}

int vrt_place_whole_write(vrt_mem *m, cl_command_queue q, const void *src)
{
	/* A budget in percent is of a launch's footprint, unknown here. */
	if (!vrt_cfg.devices || vrt_cfg.mem_percent || vrt_cfg.mode == VRT_RUN_PAGED ||
	    m->size < SPREAD_MIN || m->parent || m->nsubs || m->host || m->dev || !m->dir)
		return 0;
	cl_device_id devs[VRT_MAX_DEVICES];
	if (clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof devs[0], devs, NULL))
		return 0;
	unsigned n = 1 + vrt_devices_others(devs[0], devs + 1);
	vrt_spread_part part[VRT_MAX_DEVICES];
	double speed[VRT_MAX_DEVICES], total = 0;
	unsigned k = 0;
	int linked = 0;
	for (unsigned j = 0; j < n; j++) {
		vrt_spread_part *p = &part[k];
		p->dev = devs[j];
		if (j == 0) {
			p->ctx = m->ctx;
			p->q = q;
		} else if (vrt_device_context(devs[j], &p->ctx, &p->q) != CL_SUCCESS) {
			continue;
		}
		const vrt_devmodel *d = vrt_devmodel_of(devs[j], p->ctx);
		if (!d || d->fma_per_s <= 0) {
			if (j == 0)
				return 0;
			continue;
		}
		/* A device in host memory (a CPU) keeps nothing for a GPU, nor
		 * a GPU for a CPU: the partitioner gives such a device groups
		 * only where compute binds. */
		if (j == 0)
			linked = d->link_bw > 0;
		else if ((d->link_bw > 0) != linked)
			continue;
		speed[k++] = d->fma_per_s;
		total += d->fma_per_s;
	}
	if (k < 2)
		return 0;
	double before = 0;
	for (unsigned j = 0; j < k; j++) {
		vrt_spread_part *p = &part[j];
		p->lo = j ? part[j - 1].hi : 0;
		before += speed[j];
		size_t cut = (size_t)((double)m->size * (before / total)) / SPREAD_ALIGN * SPREAD_ALIGN;
		p->hi = j + 1 == k || cut > m->size ? m->size : cut;
		if (p->hi <= p->lo)
			return 0;
		/* The partitioner's windows, rounded to whole work-groups and
		 * clean cuts, and a stencil's halos reach a little past these:
		 * the replica has room for them. */
		size_t margin = ((p->hi - p->lo) / SPREAD_ROOM + SPREAD_ALIGN - 1) / SPREAD_ALIGN *
		                SPREAD_ALIGN;
		p->room_lo = p->lo > margin ? p->lo - margin : 0;
		p->room_hi = m->size - p->hi > margin ? p->hi + margin : m->size;
		if (!fits(m, p->dev, j == 0, p->room_hi - p->room_lo))
			return 0;
	}
	cl_int err = vrt_mem_write_spread(m, part, k, src);
	if (err != CL_SUCCESS) {
		/* The caller's ordinary whole write replaces every window. */
		vrt_log(VRT_LOG_DEBUG, "placing a whole write over %u devices failed: %s", k,
		        vrt_cl_error_name(err));
		return 0;
	}
	vrt_log(VRT_LOG_DEBUG, "a whole write of %zu bytes placed over %u devices", m->size, k);
	return 1;
}
