// Scalars (including vectors and structs by value), images and samplers are
// not buffers: reported with their kinds, passed unchanged to every variant
// at the same index.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c param-scalar-image-sampler.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=GEN %s < %t/param-scalar-image-sampler.vast.cl
// RUN: FileCheck --check-prefix=STUB %s < %t/param-scalar-image-sampler.vast.c

typedef struct { float gain; int bias; } params;

// CHECK-LABEL: kernel shade:
// CHECK: param shade.img: index=0 kind=image type="__read_only image2d_t" elem_type="" elem_size=0 mode=none atomic=false pattern=none
// CHECK: param shade.smp: index=1 kind=sampler type=sampler_t {{.*}} mode=none
// CHECK: param shade.p: index=2 kind=scalar type=params {{.*}} mode=none
// CHECK: param shade.v: index=3 kind=scalar type=float4 {{.*}} mode=none
// CHECK: param shade.n: index=4 kind=scalar type=uint {{.*}} mode=none
// CHECK: param shade.out: index=5 kind=global {{.*}} mode=W
__kernel void shade(read_only image2d_t img, sampler_t smp, params p, float4 v,
                    uint n, __global float4 *out)
{
	int x = get_global_id(0);
	float4 c = read_imagef(img, smp, (int2)(x, 0));
	if (x < n)
		out[x] = c * p.gain + v + (float)p.bias;
}

// GEN: {{^}}__kernel void vast_inspect_shade(read_only image2d_t img, sampler_t smp, params p, float4 v, uint n, ulong vast_va_out, __global uchar *vast_pas,
// GEN: {{^}}__kernel void vast_paged_shade(read_only image2d_t img, sampler_t smp, params p, float4 v, uint n, ulong vast_va_out, __global uchar *vast_frames0,
// GEN: float4 c = read_imagef(img, smp, (int2)(x, 0));

// STUB: { .name = "img", .kind = VAST_PARAM_IMAGE, .mode = VAST_MODE_NONE, .pattern = VAST_PAT_NONE, .elem_size = 0, .inspect_reads = 0 },
// STUB-NEXT: { .name = "smp", .kind = VAST_PARAM_SAMPLER,
// STUB-NEXT: { .name = "p", .kind = VAST_PARAM_SCALAR,
// STUB-NEXT: { .name = "v", .kind = VAST_PARAM_SCALAR,
// STUB-NEXT: { .name = "n", .kind = VAST_PARAM_SCALAR,
// STUB-NEXT: { .name = "out", .kind = VAST_PARAM_GLOBAL, .mode = VAST_MODE_W, .pattern = VAST_PAT_AFFINE, .elem_size = 16, .inspect_reads = 0 },
