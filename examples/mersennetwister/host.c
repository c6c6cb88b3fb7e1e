/* SPDX-License-Identifier: MIT */
/*
 * mersennetwister - N normally distributed floats (default 16M) from
 * N/NPER Mersenne Twisters (NPER default 4096 numbers each, even),
 * generated then Box-Muller transformed: a two-kernel pipeline on one
 * buffer. usage: mersennetwister [-o OUT] [-q] [-m] [N [NPER]]
 *
 * The generator parameters are drawn from a fixed-seed RNG rather than
 * from dcmt's tables: the workload's compute and memory traffic are the
 * SDK's, its statistical quality is not the point. 64 generators spread
 * over the range are replayed on the CPU and all their numbers compared.
 * Prints `mersennetwister: bytes=B seconds=S`. OUT receives the numbers.
 */
#include "vast_example.h"

#define LOCAL 64
#define MT_MM 9
#define MT_NN 19
#define CHECKED_RNGS 64

typedef struct mt_params {
	cl_uint matrix_a, mask_b, mask_c, seed;
} mt_params;

/* The CPU twin of both kernels for one generator: its nper numbers. */
static void replay(const mt_params *p, cl_uint nper, float *o)
{
	cl_uint mt[MT_NN];
	mt[0] = p->seed;
	for (int i = 1; i < MT_NN; i++)
		mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (cl_uint)i;
	int state = 0;
	cl_uint mti1 = mt[0];
	for (cl_uint k = 0; k < nper; k++) {
		int state1 = state + 1, statem = state + MT_MM;
		if (state1 >= MT_NN)
			state1 -= MT_NN;
		if (statem >= MT_NN)
			statem -= MT_NN;
		cl_uint mti = mti1;
		mti1 = mt[state1];
		cl_uint x = (mti & 0xFFFFFFFEU) | (mti1 & 1U);
		x = mt[statem] ^ (x >> 1) ^ ((x & 1) ? p->matrix_a : 0);
		mt[state] = x;
		state = state1;
		x ^= x >> 12;
		x ^= (x << 7) & p->mask_b;
		x ^= (x << 15) & p->mask_c;
		x ^= x >> 18;
		o[k] = ((float)x + 1.0f) / 4294967296.0f;
	}
	for (cl_uint k = 0; k < nper; k += 2) {
		float r = sqrtf(-2.0f * logf(o[k]));
		float phi = 2.0f * 3.14159265358979f * o[k + 1];
		o[k] = r * cosf(phi);
		o[k + 1] = r * sinf(phi);
	}
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 16u << 20, 4096 } };
	vex_parse_args(&a, argc, argv, "[N [NPER]]");
	size_t nper = a.sizes[1];
	if (nper % 2 || nper > 0xffffffffu)
		vex_die("NPER must be even and below 2^32");
	size_t nrng = (a.sizes[0] + nper - 1) / nper;
	nrng = (nrng + LOCAL - 1) / LOCAL * LOCAL;
	size_t n = nrng * nper, bytes = n * sizeof(float);
	size_t pbytes = nrng * sizeof(mt_params);

	float *ref = vex_malloc(nper * sizeof(float));
	mt_params *params = vex_malloc(pbytes);
	vex_rng r = vex_rng_seed(2014);
	for (size_t i = 0; i < nrng; i++) {
		params[i].matrix_a = vex_rand32(&r) | 0x80000000u;
		params[i].mask_b = vex_rand32(&r);
		params[i].mask_c = vex_rand32(&r) & 0xffff8000u;
		params[i].seed = vex_rand32(&r);
	}

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "mersennetwister.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel kmt = vex_kernel(prog, "mersenne_twister");
	cl_kernel kbm = vex_kernel(prog, "box_muller");
	vex_array aout = vex_array_create(&cl, a.mapped, CL_MEM_READ_WRITE, bytes, 0);
	cl_mem dout = aout.mem;
	cl_mem dpar = vex_buffer(&cl, CL_MEM_READ_ONLY, pbytes, NULL);
	cl_uint unper = (cl_uint)nper;
	VEX_ARG(kmt, 0, dout);
	VEX_ARG(kmt, 1, dpar);
	VEX_ARG(kmt, 2, unper);
	VEX_ARG(kbm, 0, dout);
	VEX_ARG(kbm, 1, unper);

	size_t local = LOCAL, global = nrng;
	double t = vex_now();
	CHECK(clEnqueueWriteBuffer(cl.queue, dpar, CL_FALSE, 0, pbytes, params, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(cl.queue, kmt, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(cl.queue, kbm, 1, NULL, &global, &local, 0, NULL, NULL));
	vex_array_fetch(&cl, &aout);
	CHECK(clFinish(cl.queue));
	t = vex_now() - t;
	const float *out = aout.host;

	/* Same integer stream; log/sin/cos within a few ulp of the CPU's. */
	size_t bad = 0, checked = 0;
	size_t step = nrng > CHECKED_RNGS ? nrng / CHECKED_RNGS : 1;
	for (size_t g = 0; g < nrng; g += step) {
		replay(&params[g], (cl_uint)nper, ref);
		const float *chunk = out + g / LOCAL * LOCAL * nper;
		for (size_t k = 0; k < nper; k++, checked++) {
			float got = chunk[k * LOCAL + g % LOCAL];
			if (!(fabsf(got - ref[k]) <= 2e-5f + 2e-5f * fabsf(ref[k]))) {
				if (bad < 5)
					fprintf(stderr, "generator %zu number %zu = %.9g, expected %.9g\n",
					        g, k, (double)got, (double)ref[k]);
				bad++;
			}
		}
	}
	vex_write_output(a.out, out, bytes);
	printf("mersennetwister: n=%zu rngs=%zu bytes=%zu seconds=%.6f checked=%zu\n", n,
	       nrng, bytes + pbytes, t, checked);

	vex_array_release(&cl, &aout);
	clReleaseMemObject(dpar);
	clReleaseKernel(kmt);
	clReleaseKernel(kbm);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(ref);
	free(params);
	if (bad) {
		fprintf(stderr, "mersennetwister: FAILED (%zu of %zu numbers differ)\n", bad, checked);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "mersennetwister: ok\n");
	return 0;
}
