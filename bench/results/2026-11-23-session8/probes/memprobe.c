#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
static double now(void){struct timeval t; gettimeofday(&t,0); return t.tv_sec*1e3+t.tv_usec/1e3;}
/* mode: none | alloc | use ; GiB of host buffers (in pieces of piece GiB) */
int main(int argc, char **argv){
  const char *mode = argv[1]; size_t gib = atol(argv[2]); size_t piece = argc>3?atol(argv[3]):8;
  cl_platform_id pl[4]; cl_uint np; clGetPlatformIDs(4,pl,&np);
  cl_device_id dev=0; for (cl_uint i=0;i<np;i++) if (clGetDeviceIDs(pl[i],CL_DEVICE_TYPE_GPU,1,&dev,NULL)==CL_SUCCESS) break;
  cl_int err; cl_context ctx = clCreateContext(NULL,1,&dev,NULL,NULL,&err);
  cl_command_queue q = clCreateCommandQueue(ctx,dev,0,&err);
  size_t G = 1ull<<30;
  unsigned char *host = NULL;
  if (!strcmp(mode,"use")) { host = aligned_alloc(4096, gib*G); memset(host, 1, gib*G); }
  double t0=now();
  for (size_t off=0; off<gib; off+=piece) {
    size_t n = (gib-off<piece?gib-off:piece)*G;
    if (!strcmp(mode,"none")) break;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (!strcmp(mode,"alloc")?CL_MEM_ALLOC_HOST_PTR:CL_MEM_USE_HOST_PTR), n, host?host+off*G:NULL, &err);
    if (!m) { printf("create %s %zu GiB failed %d\n", mode, n/G, err); continue; }
    void *p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ|CL_MAP_WRITE, 0, n, 0, NULL, NULL, &err);
    printf("%s piece %zu GiB at %zu: map %p (%s) err %d\n", mode, n/G, off, p, host && p==host+off*G?"same":"other", err);
  }
  printf("pin time %.1f ms\n", now()-t0);
  /* pinned-ness of use: a 1 GiB write from host into a device buffer */
  if (host) { cl_mem d = clCreateBuffer(ctx, CL_MEM_READ_WRITE, G, NULL, &err);
    clEnqueueWriteBuffer(q,d,CL_TRUE,0,G,host,0,0,0); double t=now(); clEnqueueWriteBuffer(q,d,CL_TRUE,0,G,host+G/2,0,0,0); printf("write 1 GiB from host copy: %.1f GB/s\n", G/1e6/(now()-t));
    if (gib > piece) { t=now(); clEnqueueWriteBuffer(q,d,CL_TRUE,0,G,host+piece*G-G/2,0,0,0); printf("write 1 GiB across pieces: %.1f GB/s\n", G/1e6/(now()-t)); }
    clReleaseMemObject(d); }
  /* how much device memory is left: 1 GiB buffers, backed, until failure */
  size_t got=0; unsigned char z=0;
  for (int i=0;i<100;i++){ cl_mem d=clCreateBuffer(ctx,CL_MEM_READ_WRITE,G,NULL,&err); if(!d)break; err=clEnqueueWriteBuffer(q,d,CL_TRUE,G-1,1,&z,0,0,0); if(err){printf("backing failed %d\n",err);break;} got++; }
  printf("%s %zu GiB: device buffers backed %zu GiB\n", mode, gib, got);
  return 0;
}
