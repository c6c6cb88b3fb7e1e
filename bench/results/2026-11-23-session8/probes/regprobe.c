#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
static double now(void){struct timeval t; gettimeofday(&t,0); return t.tv_sec*1e3+t.tv_usec/1e3;}
typedef int (*init_t)(unsigned);
typedef int (*reg_t)(void *, size_t, unsigned);
int main(int argc, char **argv){
  size_t gib = atol(argv[1]); int doreg = atoi(argv[2]);
  size_t G = 1ull<<30;
  cl_platform_id pl[4]; cl_uint np; clGetPlatformIDs(4,pl,&np);
  cl_device_id dev=0; for (cl_uint i=0;i<np;i++) if (clGetDeviceIDs(pl[i],CL_DEVICE_TYPE_GPU,1,&dev,NULL)==CL_SUCCESS) break;
  cl_int err; cl_context ctx = clCreateContext(NULL,1,&dev,NULL,NULL,&err);
  cl_command_queue q = clCreateCommandQueue(ctx,dev,0,&err);
  unsigned char *host = aligned_alloc(4096, gib*G); memset(host, 1, gib*G);
  double t0 = now();
  if (doreg) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    init_t ci = h ? (init_t)dlsym(h,"cuInit") : 0; reg_t cr = h ? (reg_t)dlsym(h,"cuMemHostRegister_v2") : 0;
    if (!cr) { printf("no libcuda\n"); return 1; }
    int r = ci(0); printf("cuInit %d\n", r);
    int (*dg)(int *, int) = dlsym(h, "cuDeviceGet");
    int (*pr)(void **, int) = dlsym(h, "cuDevicePrimaryCtxRetain");
    int (*sc)(void *) = dlsym(h, "cuCtxSetCurrent");
    int cd; void *cc; r = dg(&cd, 0); printf("dev %d\n", r); r = pr(&cc, cd); printf("retain %d\n", r); r = sc(cc); printf("set %d\n", r);
    r = cr(host, gib*G, doreg == 2 ? 0 : 1 /* PORTABLE */); printf("cuMemHostRegister %d\n", r);
  }
  printf("register %.1f ms\n", now()-t0);
  cl_mem d = clCreateBuffer(ctx, CL_MEM_READ_WRITE, G, NULL, &err);
  for (int rep=0; rep<2; rep++) {
    double t=now(); clEnqueueWriteBuffer(q,d,CL_TRUE,0,G,host+G/2,0,0,0); printf("write 1 GiB: %.1f GB/s\n", G/1e6/(now()-t));
    t=now(); clEnqueueReadBuffer(q,d,CL_TRUE,0,G,host+gib*G-G-4096,0,0,0); printf("read 1 GiB: %.1f GB/s\n", G/1e6/(now()-t));
    t=now(); clEnqueueWriteBuffer(q,d,CL_TRUE,0,G/16,host+12345,0,0,0); printf("write 64 MiB unaligned: %.1f GB/s\n", G/16/1e6/(now()-t));
  }
  clReleaseMemObject(d);
  size_t got=0; unsigned char z=0;
  for (int i=0;i<100;i++){ cl_mem b=clCreateBuffer(ctx,CL_MEM_READ_WRITE,G,NULL,&err); if(!b)break; err=clEnqueueWriteBuffer(q,b,CL_TRUE,G-1,1,&z,0,0,0); if(err)break; got++; }
  printf("reg=%d %zu GiB: device buffers backed %zu GiB\n", doreg, gib, got);
  return 0;
}
