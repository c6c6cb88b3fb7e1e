__kernimage2d_tlain(__global float *out)
{
	out[get_global_id(0)] = 3.0f;
}
