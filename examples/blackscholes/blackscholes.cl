/* SPDX-License-Identifier: MIT */
/*
 * BlackScholes: European call and put prices of N options, one option per
 * work-item (the GPU SDK sample's kernel, with the grid-stride loop
 * replaced by one item per option so that a range of work-groups touches
 * one contiguous slice of every array). Indices are size_t: the arrays may
 * hold more than 2^32 options' bytes.
 */
#define RISKFREE   0.02f
#define VOLATILITY 0.30f

/* Cumulative normal distribution, the polynomial approximation of
 * Abramowitz and Stegun 26.2.17 used by the SDK sample. */
static float cnd(float d)
{
	const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f;
	const float A4 = -1.821255978f, A5 = 1.330274429f;
	const float RSQRT2PI = 0.39894228040143267793994605993438f;
	float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
	float c = RSQRT2PI * exp(-0.5f * d * d) *
	          (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
	return d > 0 ? 1.0f - c : c;
}

__kernel void blackscholes(__global float *call, __global float *put,
                           __global const float *price,
                           __global const float *strike,
                           __global const float *years, ulong n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	float s = price[i], x = strike[i], t = years[i];
	float sqrt_t = sqrt(t);
	float d1 = (log(s / x) + (RISKFREE + 0.5f * VOLATILITY * VOLATILITY) * t) /
	           (VOLATILITY * sqrt_t);
	float d2 = d1 - VOLATILITY * sqrt_t;
	float cnd1 = cnd(d1), cnd2 = cnd(d2);
	float e = exp(-RISKFREE * t);
	call[i] = s * cnd1 - x * e * cnd2;
	put[i] = x * e * (1.0f - cnd2) - s * (1.0f - cnd1);
}
