#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static cl_context ctx; static cl_device_id dev; static cl_command_queue q;
typedef struct { unsigned char *p; size_t n; cl_mem m; } reg;
static void *do_reg(void *a){ reg *r=a; cl_int e; r->m=clCreateBuffer(ctx,CL_MEM_USE_HOST_PTR|CL_MEM_READ_WRITE,r->n,r->p,&e); if(e) printf("err %d\n",e); return NULL;}
static void *do_rel(void *a){ reg *r=a; clReleaseMemObject(r->m); return NULL;}
int main(void){
  cl_platform_id pl[4]; cl_uint np; clGetPlatformIDs(4,pl,&np);
  for(cl_uint i=0;i<np;i++) if(clGetDeviceIDs(pl[i],CL_DEVICE_TYPE_GPU,1,&dev,NULL)==0) break;
  cl_int e; ctx=clCreateContext(NULL,1,&dev,NULL,NULL,&e); q=clCreateCommandQueue(ctx,dev,0,&e);
  size_t N=(size_t)4<<30; unsigned char *p=aligned_alloc(1<<21,N); memset(p,1,N);
  cl_mem d=clCreateBuffer(ctx,CL_MEM_READ_WRITE,N,NULL,&e);
  clEnqueueWriteBuffer(q,d,CL_TRUE,0,1<<20,p,0,NULL,NULL);
  for (int threads=1; threads<=16; threads*=2) for (size_t chunk=(size_t)256<<20; chunk<=(size_t)1<<30; chunk*=4) {
    size_t k=N/chunk; reg r[64]; pthread_t t[64];
    for(size_t i=0;i<k;i++){r[i].p=p+i*chunk;r[i].n=chunk;}
    double t0=now();
    for(size_t i=0;i<k;i+=threads){ size_t j; for(j=i;j<i+threads&&j<k;j++) pthread_create(&t[j],NULL,do_reg,&r[j]); for(j=i;j<i+threads&&j<k;j++) pthread_join(t[j],NULL);}
    double t1=now();
    /* H2D from the registered memory */
    clEnqueueWriteBuffer(q,d,CL_TRUE,0,N,p,0,NULL,NULL);
    double t2=now();
    for(size_t i=0;i<k;i+=threads){ size_t j; for(j=i;j<i+threads&&j<k;j++) pthread_create(&t[j],NULL,do_rel,&r[j]); for(j=i;j<i+threads&&j<k;j++) pthread_join(t[j],NULL);}
    double t3=now();
    printf("threads=%d chunk=%zuM register %.1f GB/s  h2d %.1f GB/s  release %.1f GB/s\n",threads,chunk>>20,N/(t1-t0)/1e9,N/(t2-t1)/1e9,N/(t3-t2)/1e9);
  }
  double t0=now(); clEnqueueWriteBuffer(q,d,CL_TRUE,0,N,p,0,NULL,NULL); printf("pageable h2d %.1f GB/s\n",N/(now()-t0)/1e9);
  return 0;
}
