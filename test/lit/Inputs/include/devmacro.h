/* Included by device-macros-recorded.cl: a device macro tested in a
 * header counts too. */
#ifdef cl_khr_int64_base_atomics
#define HAVE_ATOM64 1
#else
#define HAVE_ATOM64 0
#endif
