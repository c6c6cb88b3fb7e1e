/* SPDX-License-Identifier: MIT */
/*
 * rects - how a column strip should cross the link (issue 9 item 3): BYTES
 * of rows of W bytes, W..4W apart in a host array, moved host->device
 * and back in four ways, best of REPS after a warm-up:
 *   rect-pageable  one clEnqueueWriteBufferRect / ReadBufferRect from
 *                  malloc'd memory (runtime/plan/rects.c, a slot that moves
 *                  straight);
 *   rect-pinned    the same from a mapped CL_MEM_ALLOC_HOST_PTR array;
 *   gather         rows memcpy'd into a pinned staging area, then one
 *                  copy (the staged path of runtime/paged/move.c);
 *   spans          one clEnqueueWrite/ReadBuffer per row, pageable (the
 *                  straight path before rects.c).
 * usage: rects [-q] [BYTES [REPS]]
 * Prints per row width W (256 B .. 1 MiB) and way:
 *   rects: way=W dir=h2d|d2h row=W rows=R bytes=B seconds=S gbps=G
 */
#include "vast_example.h"

enum { RECT_PAGEABLE, RECT_PINNED, GATHER, SPANS, NWAYS };
static const char *const way_name[] = { "rect-pageable", "rect-pinned", "gather", "spans" };

static void move(vex_cl *cl, int way, int h2d, cl_mem dev, unsigned char *host,
                 unsigned char *stage, size_t w, size_t rows, size_t pitch)
{
	size_t dorg[3] = { 0, 0, 0 }, horg[3] = { 0, 0, 0 }, region[3] = { w, rows, 1 };
	switch (way) {
	case RECT_PAGEABLE:
	case RECT_PINNED:
		if (h2d)
			CHECK(clEnqueueWriteBufferRect(cl->queue, dev, CL_FALSE, dorg, horg, region, w, 0,
			                               pitch, 0, host, 0, NULL, NULL));
		else
			CHECK(clEnqueueReadBufferRect(cl->queue, dev, CL_FALSE, dorg, horg, region, w, 0,
			                              pitch, 0, host, 0, NULL, NULL));
		break;
	case GATHER:
		if (h2d) {
			for (size_t r = 0; r < rows; r++)
				memcpy(stage + r * w, host + r * pitch, w);
			CHECK(clEnqueueWriteBuffer(cl->queue, dev, CL_FALSE, 0, w * rows, stage, 0, NULL,
			                           NULL));
		} else {
			CHECK(clEnqueueReadBuffer(cl->queue, dev, CL_TRUE, 0, w * rows, stage, 0, NULL,
			                          NULL));
			for (size_t r = 0; r < rows; r++)
				memcpy(host + r * pitch, stage + r * w, w);
		}
		break;
	case SPANS:
		for (size_t r = 0; r < rows; r++)
			if (h2d)
				CHECK(clEnqueueWriteBuffer(cl->queue, dev, CL_FALSE, r * w, w,
				                           host + r * pitch, 0, NULL, NULL));
			else
				CHECK(clEnqueueReadBuffer(cl->queue, dev, CL_FALSE, r * w, w,
				                          host + r * pitch, 0, NULL, NULL));
		break;
	}
	CHECK(clFinish(cl->queue));
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 256u << 20, 3 } };
	vex_parse_args(&a, argc, argv, "[BYTES [REPS]]");
	size_t bytes = a.sizes[0];
	int reps = (int)a.sizes[1];
	cl_int err;
	vex_cl cl;
	vex_init(&cl, a.quiet);
	/* Host arrays of 4 * BYTES: the widest pitch. */
	size_t span = 4 * bytes;
	cl_mem dev = vex_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL);
	cl_mem pin = vex_buffer(&cl, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, span, NULL);
	cl_mem spin = vex_buffer(&cl, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes, NULL);
	unsigned char *pinned = clEnqueueMapBuffer(cl.queue, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
	                                           0, span, 0, NULL, NULL, &err);
	CHECK_ERR(err, "clEnqueueMapBuffer");
	unsigned char *stage = clEnqueueMapBuffer(cl.queue, spin, CL_TRUE,
	                                          CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
	                                          NULL, &err);
	CHECK_ERR(err, "clEnqueueMapBuffer");
	unsigned char *pageable = malloc(span);
	if (!pageable)
		return 1;
	memset(pageable, 1, span);
	memset(pinned, 1, span);
	for (size_t w = 256; w <= (1u << 20) && w <= bytes; w *= 4) {
		size_t rows = bytes / w;
		for (size_t pitch = 2 * w; pitch <= 4 * w; pitch *= 2)
			for (int way = 0; way < NWAYS; way++) {
				if (way == SPANS && rows > 65536)
					continue; /* a command per row: minutes, and nothing to learn */
				unsigned char *host = way == RECT_PINNED ? pinned : pageable;
				for (int h2d = 1; h2d >= 0; h2d--) {
					double best = 1e30;
					for (int r = -1; r < reps; r++) {
						double t = vex_now();
						move(&cl, way, h2d, dev, host, stage, w, rows, pitch);
						t = vex_now() - t;
						if (r >= 0 && t < best)
							best = t;
					}
					printf("rects: way=%s dir=%s row=%zu pitch=%zu rows=%zu bytes=%zu seconds=%.6f gbps=%.2f\n",
					       way_name[way], h2d ? "h2d" : "d2h", w, pitch, rows, w * rows, best,
					       (double)(w * rows) / best * 1e-9);
					fflush(stdout);
				}
			}
	}
	CHECK(clEnqueueUnmapMemObject(cl.queue, pin, pinned, 0, NULL, NULL));
	CHECK(clEnqueueUnmapMemObject(cl.queue, spin, stage, 0, NULL, NULL));
	CHECK(clFinish(cl.queue));
	clReleaseMemObject(dev);
	clReleaseMemObject(pin);
	clReleaseMemObject(spin);
	free(pageable);
	vex_release(&cl);
	return 0;
}
