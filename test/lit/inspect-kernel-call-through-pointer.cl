// A kernel's call that passes a pointer to private memory may store into
// any of its variables whose address escaped, whether or not the call's
// arguments name them with `&`. The inspector keeps such a call when the
// addresses it computes read those variables: here `turn` negates the
// stride of a column walk at the image's bottom border (a 5/3 wavelet's
// mirroring), through pointer variables. Sliced away, the inspector's
// cursor walked on past the buffer where the kernel's turned back, and
// its load through it read outside the data it was given.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c inspect-kernel-call-through-pointer.cl -o %t.o
// RUN: FileCheck %s < %t/inspect-kernel-call-through-pointer.vast.cl

struct walk_io { int end, stride; };
struct cursor { int last; };

// No global memory: not cloned, called as written.
void turn(struct walk_io *io)
{
	io->stride = 0 - io->stride;
}

// The load's value is stored: the inspector reads it (vast_load).
void load_into(__local int *dst, struct cursor *c, __global const int *in, struct walk_io *io)
{
	c->last += io->stride;
	*dst = in[c->last];
}

// CHECK-LABEL: __kernel void vast_inspect_column{{[(]}}ulong
// CHECK: struct walk_io *pio = &io;
// CHECK: struct cursor *pc = &cur;
// CHECK: for (int r = 0; r < rows; r++) {
// CHECK-NEXT: vast_inspect_load_into(vast_c, &win[r * 64 + l], pc, in, pio);
// CHECK-NEXT: if (pc->last + pio->stride == pio->end)
// CHECK-NEXT: turn(pio);
// CHECK-NEXT: }
// CHECK-LABEL: __kernel void vast_paged_column{{[(]}}ulong
__kernel void column(__global const int *in, __global int *out, int sx, int sy, int rows)
{
	__local int win[64 * 32];
	int x = get_global_id(0), l = get_local_id(0);
	struct walk_io io;
	struct cursor cur;
	struct walk_io *pio = &io;
	struct cursor *pc = &cur;
	io.stride = sx;
	io.end = sx * sy + x;
	cur.last = x + (sy - rows / 2 - 1) * sx;
	for (int r = 0; r < rows; r++) {
		load_into(&win[r * 64 + l], pc, in, pio);
		if (pc->last + pio->stride == pio->end)
			turn(pio);
	}
	out[x] = win[(rows - 1) * 64 + l];
}
