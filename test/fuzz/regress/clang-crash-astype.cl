__kernel void k(__global uint *out) {
	uint4 mag = 0;
	out[0] = as_uint(convert_uchar4(mag));
}
