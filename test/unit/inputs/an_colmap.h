/* included by an_colmap.cl */
#define TWICE(x) ((x) + (x))
inline float hget(__global const float *p, int i) { return TWICE(0) + p[TWICE(i)] + p[i]; }
