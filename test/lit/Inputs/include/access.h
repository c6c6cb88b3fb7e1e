/* Included by access-include-header.cl through -I from --cl-options. */
#define AT(p, i) ((p)[(i)])
inline void put(__global int *p, int i, int v) { p[i] = v; }
