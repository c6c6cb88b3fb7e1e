/* SPDX-License-Identifier: MIT */
/*
 * blackscholes - prices N European options (default 4M; 20 bytes each:
 * three inputs, two outputs). usage: blackscholes [-o OUT] [-q] [-m] [N]
 *
 * Prints `blackscholes: bytes=B seconds=S`, S being transfers in, the
 * kernel and transfers out. The result is checked against a double
 * precision CPU reference on up to 1M evenly spread options. OUT receives
 * the call prices then the put prices.
 */
#include "vast_example.h"

#define RISKFREE   0.02
#define VOLATILITY 0.30
#define MAX_SAMPLES (1u << 20)

static double cnd_ref(double d)
{
	const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937;
	const double A4 = -1.821255978, A5 = 1.330274429;
	double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
	double c = 0.39894228040143267794 * exp(-0.5 * d * d) *
	           (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
	return d > 0 ? 1.0 - c : c;
}

static void price_ref(double s, double x, double t, double *call, double *put)
{
	double sqrt_t = sqrt(t);
	double d1 = (log(s / x) + (RISKFREE + 0.5 * VOLATILITY * VOLATILITY) * t) /
	            (VOLATILITY * sqrt_t);
	double d2 = d1 - VOLATILITY * sqrt_t;
	double e = exp(-RISKFREE * t);
	*call = s * cnd_ref(d1) - x * e * cnd_ref(d2);
	*put = x * e * (1.0 - cnd_ref(d2)) - s * (1.0 - cnd_ref(d1));
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 1, .sizes = { 4u << 20 } };
	vex_parse_args(&a, argc, argv, "[N options]");
	cl_ulong n = a.sizes[0];
	size_t bytes = (size_t)n * sizeof(float);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "blackscholes.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "blackscholes");
	vex_array acall = vex_array_create(&cl, a.mapped, CL_MEM_WRITE_ONLY, bytes, 0);
	vex_array aput = vex_array_create(&cl, a.mapped, CL_MEM_WRITE_ONLY, bytes, 0);
	vex_array aprice = vex_array_create(&cl, a.mapped, CL_MEM_READ_ONLY, bytes, 1);
	vex_array astrike = vex_array_create(&cl, a.mapped, CL_MEM_READ_ONLY, bytes, 1);
	vex_array ayears = vex_array_create(&cl, a.mapped, CL_MEM_READ_ONLY, bytes, 1);
	cl_mem dcall = acall.mem, dput = aput.mem;
	cl_mem dprice = aprice.mem, dstrike = astrike.mem, dyears = ayears.mem;
	float *price = aprice.host, *strike = astrike.host, *years = ayears.host;
	vex_rng r = vex_rng_seed(42);
	for (size_t i = 0; i < n; i++) {
		price[i] = vex_randf(&r, 5.0f, 30.0f);
		strike[i] = vex_randf(&r, 1.0f, 100.0f);
		years[i] = vex_randf(&r, 0.25f, 10.0f);
	}
	VEX_ARG(k, 0, dcall);
	VEX_ARG(k, 1, dput);
	VEX_ARG(k, 2, dprice);
	VEX_ARG(k, 3, dstrike);
	VEX_ARG(k, 4, dyears);
	VEX_ARG(k, 5, n);

	size_t local = 128, global = (n + local - 1) / local * local;
	double t = vex_now();
	vex_array_send(&cl, &aprice);
	vex_array_send(&cl, &astrike);
	vex_array_send(&cl, &ayears);
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	vex_array_fetch(&cl, &acall);
	vex_array_fetch(&cl, &aput);
	CHECK(clFinish(cl.queue));
	t = vex_now() - t;
	/* The inputs again, for the check (mapped arrays were given up). */
	vex_array_regain(&cl, &aprice);
	vex_array_regain(&cl, &astrike);
	vex_array_regain(&cl, &ayears);
	CHECK(clFinish(cl.queue));
	price = aprice.host;
	strike = astrike.host;
	years = ayears.host;
	const float *call = acall.host, *put = aput.host;

	/* Prices are at most ~100; float evaluation of the same formula stays
	 * within a few 1e-5 of the double one. */
	size_t step = n > MAX_SAMPLES ? n / MAX_SAMPLES : 1, bad = 0, checked = 0;
	for (size_t i = 0; i < n; i += step, checked++) {
		double c, p;
		price_ref(price[i], strike[i], years[i], &c, &p);
		if (!(fabs(call[i] - c) <= 1e-3 + 1e-4 * fabs(c)) ||
		    !(fabs(put[i] - p) <= 1e-3 + 1e-4 * fabs(p))) {
			if (bad < 5)
				fprintf(stderr, "option %zu: call %.7g put %.7g, expected %.7g %.7g\n",
				        i, (double)call[i], (double)put[i], c, p);
			bad++;
		}
	}
	if (a.out) {
		vex_out o;
		vex_out_open(&o, a.out);
		vex_out_write(&o, call, bytes);
		vex_out_write(&o, put, bytes);
		vex_out_close(&o);
	}
	printf("blackscholes: n=%llu bytes=%zu seconds=%.6f checked=%zu\n",
	       (unsigned long long)n, 5 * bytes, t, checked);

	vex_array_release(&cl, &acall);
	vex_array_release(&cl, &aput);
	vex_array_release(&cl, &aprice);
	vex_array_release(&cl, &astrike);
	vex_array_release(&cl, &ayears);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	if (bad) {
		fprintf(stderr, "blackscholes: FAILED (%zu of %zu sampled options differ)\n",
		        bad, checked);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "blackscholes: ok\n");
	return 0;
}
