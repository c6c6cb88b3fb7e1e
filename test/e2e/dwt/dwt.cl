/* SPDX-License-Identifier: MIT */
/*
 * dwt.cl - the vertical pass of a forward 5/3 integer wavelet transform,
 * shaped like Rodinia's dwt2d (its OpenCL port, fdwt53Kernel): a group of
 * WIN_X work-items, one image column each, slides a window of WIN_Y rows
 * down the image, `steps` windows a group. A column is read by a cursor
 * in a private struct that helpers advance through pointer parameters,
 * its stride held in a second struct; at the image's borders the walk is
 * mirrored (the row after the last is the one before it), at the bottom
 * by negating that stride, which the kernel does through pointer
 * variables (turn). The window and the three rows each window carries
 * over to the next are __local (a __local struct array of columns).
 * Output: the low band's rows, then the high band's, as in dwt2d.
 */
#define WIN_X 32
#define WIN_Y 8

struct walk_io {
	int end;    /* the element one row past the image's last, or -1 */
	int stride; /* elements to the next row read: a row down or up */
};

struct cursor {
	int last;   /* the element last read */
};

struct column {
	int p0, p1, p2; /* the window's first three rows, carried over */
};

/* A coordinate mirrored into [0, n). */
static int mirror(int d, int n)
{
	if (d >= n)
		return 2 * n - 2 - d;
	return d < 0 ? -d : d;
}

/* The cursor one row above row y of column x. */
static void init_cursor(struct cursor *c, struct walk_io *io, int x, int y, int sx, int sy)
{
	io->end = sy * sx + x;
	io->stride = sx;
	c->last = x + (y - 1) * sx;
}

/* At the bottom border the walk turns back up. */
static void turn(struct walk_io *io)
{
	io->stride = 0 - io->stride;
}

int load_from(struct cursor *c, __global const int *in, struct walk_io *io)
{
	c->last += io->stride;
	return in[c->last];
}

/* The column's first three rows: those above the window, mirrored at the
 * top (rows -2, -1 are rows 2, 1). */
void init_column(__local struct column *col, struct cursor *c, struct walk_io *io,
                 __global const int *in, int x, int y0, int sx, int sy)
{
	if (y0 == 0) {
		init_cursor(c, io, x, 0, sx, sy);
		col->p2 = load_from(c, in, io);
		col->p1 = load_from(c, in, io);
		col->p0 = load_from(c, in, io);
		init_cursor(c, io, x, 1, sx, sy);
	} else {
		init_cursor(c, io, x, y0 - 2, sx, sy);
		col->p0 = load_from(c, in, io);
		col->p1 = load_from(c, in, io);
		col->p2 = load_from(c, in, io);
	}
}

__kernel void fdwt53(__global const int *in, __global int *out, int sx, int sy, int steps)
{
	__local struct column cols[WIN_X];
	__local int win[(WIN_Y + 3) * WIN_X];
	int l = get_local_id(0);
	int x = get_group_id(0) * WIN_X + l;
	int xl = mirror(x, sx);
	int y0 = get_group_id(1) * WIN_Y * steps;
	struct walk_io io;
	struct cursor cur;
	struct walk_io *pio = &io;
	struct cursor *pc = &cur;
	init_column(&cols[l], pc, pio, in, xl, y0, sx, sy);
	for (int w = 0; w < steps; w++, y0 += WIN_Y) {
		/* window row k is image row y0 - 2 + k */
		win[0 * WIN_X + l] = cols[l].p0;
		win[1 * WIN_X + l] = cols[l].p1;
		win[2 * WIN_X + l] = cols[l].p2;
		for (int k = 3; k < WIN_Y + 3; k++) {
			if (pc->last + pio->stride == pio->end)
				turn(pio);
			win[k * WIN_X + l] = load_from(pc, in, pio);
		}
		cols[l].p0 = win[WIN_Y * WIN_X + l];
		cols[l].p1 = win[(WIN_Y + 1) * WIN_X + l];
		cols[l].p2 = win[(WIN_Y + 2) * WIN_X + l];
		/* predict the odd rows, then update the even ones */
		for (int k = 1; k < WIN_Y + 3; k += 2)
			win[k * WIN_X + l] -= (win[(k - 1) * WIN_X + l] + win[(k + 1) * WIN_X + l]) / 2;
		for (int k = 2; k < WIN_Y + 2; k += 2)
			win[k * WIN_X + l] += (win[(k - 1) * WIN_X + l] + win[(k + 1) * WIN_X + l] + 2) / 4;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k = 2; k < WIN_Y + 2; k++) {
			int y = y0 - 2 + k;
			if (x < sx && y < sy)
				out[((y & 1) ? (sy + 1) / 2 + y / 2 : y / 2) * sx + x] = win[k * WIN_X + l];
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
}
