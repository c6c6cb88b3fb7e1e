// Footprints of a 2-D stencil: each neighbour is the centre's form plus a
// constant (the halo: -4*w, +4*w, -4, +4 bytes), all under the four
// affine guards of the interior test, which make the store a must-write.
// RUN: cd %S && %vastcc --report=- -c footprint-stencil-halo.cl -o %t.o | %flatjson | FileCheck %s

__kernel void stencil(__global const float *in, __global float *out, int w, int h)
{
	int x = get_global_id(0), y = get_global_id(1);
	if (x > 0 && x < w - 1 && y > 0 && y < h - 1)
// CHECK: footprint stencil [[@LINE+5]]:3: affine=true offset="4*lsz1*w*grp1 + 4*w*lid1 + 4*goff1*w + 4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards="lsz0*grp0 + lid0 + goff0 - 1","w - 2 - lsz0*grp0 - lid0 - goff0","lsz1*grp1 + lid1 + goff1 - 1","h - 2 - lsz1*grp1 - lid1 - goff1" checks={{.*}} exact=true must_write=true
// CHECK: footprint stencil [[@LINE+4]]:20: affine=true offset="4*lsz1*w*grp1 + 4*w*lid1 + 4*goff1*w - 4*w + 4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards={{.*}} exact=true must_write=false
// CHECK: footprint stencil [[@LINE+3]]:42: affine=true offset="4*lsz1*w*grp1 + 4*w*lid1 + 4*goff1*w + 4*w + 4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards={{.*}} exact=true must_write=false
// CHECK: footprint stencil [[@LINE+3]]:20: affine=true offset="4*lsz1*w*grp1 + 4*w*lid1 + 4*goff1*w + 4*lsz0*grp0 + 4*lid0 + 4*goff0 - 4" loops= guards={{.*}} exact=true must_write=false
// CHECK: footprint stencil [[@LINE+2]]:40: affine=true offset="4*lsz1*w*grp1 + 4*w*lid1 + 4*goff1*w + 4*lsz0*grp0 + 4*lid0 + 4*goff0 + 4" loops= guards={{.*}} exact=true must_write=false
		out[y * w + x] = in[(y - 1) * w + x] + in[(y + 1) * w + x] +
		                 in[y * w + x - 1] + in[y * w + x + 1] - 4 * in[y * w + x];
}
