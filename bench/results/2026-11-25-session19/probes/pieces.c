#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(void){
  cl_platform_id pl[4]; cl_uint np; cl_device_id dev; clGetPlatformIDs(4,pl,&np);
  for(cl_uint i=0;i<np;i++) if(clGetDeviceIDs(pl[i],CL_DEVICE_TYPE_GPU,1,&dev,NULL)==0) break;
  cl_int e; cl_context ctx=clCreateContext(NULL,1,&dev,NULL,NULL,&e); cl_command_queue q=clCreateCommandQueue(ctx,dev,0,&e);
  size_t P=(size_t)16<<30, N=2*P, T=(size_t)1<<30;
  double t=now(); unsigned char *a=aligned_alloc(2<<20,N); madvise(a,N,MADV_HUGEPAGE); memset(a,0,N); printf("alloc+zero 32 GiB (1 thread) %.2f s\n",now()-t);
  t=now(); cl_mem r0=clCreateBuffer(ctx,CL_MEM_USE_HOST_PTR|CL_MEM_READ_WRITE,P,a,&e); if(e) printf("reg0 err %d\n",e);
  cl_mem r1=clCreateBuffer(ctx,CL_MEM_USE_HOST_PTR|CL_MEM_READ_WRITE,P,a+P,&e); if(e) printf("reg1 err %d\n",e);
  /* map a few bytes of each, as vrt_pinned maps a probe */
  void *m0=clEnqueueMapBuffer(q,r0,CL_TRUE,CL_MAP_READ,0,4096,0,NULL,NULL,&e); void *m1=clEnqueueMapBuffer(q,r1,CL_TRUE,CL_MAP_READ,0,4096,0,NULL,NULL,&e);
  printf("map at %d %d\n", m0==a, m1==a+P); clEnqueueUnmapMemObject(q,r0,m0,0,NULL,NULL); clEnqueueUnmapMemObject(q,r1,m1,0,NULL,NULL); clFinish(q);
  printf("register 2 x 16 GiB: %.2f s\n",now()-t);
  cl_mem d=clCreateBuffer(ctx,CL_MEM_READ_WRITE,T,NULL,&e);
  clEnqueueWriteBuffer(q,d,CL_TRUE,0,T,a,0,NULL,NULL);
  size_t offs[3]={0,P-T/2,P+T}; const char *nm[3]={"within piece 0","across the pieces","within piece 1"};
  for(int rep=0;rep<2;rep++) for(int i=0;i<3;i++){
    t=now(); clEnqueueWriteBuffer(q,d,CL_TRUE,0,T,a+offs[i],0,NULL,NULL); double h=now()-t;
    t=now(); clEnqueueReadBuffer(q,d,CL_TRUE,0,T,a+offs[i],0,NULL,NULL); double r=now()-t;
    printf("%s: h2d %.1f GB/s d2h %.1f GB/s\n",nm[i],T/h/1e9,T/r/1e9);
  }
  t=now(); cl_mem al=clCreateBuffer(ctx,CL_MEM_ALLOC_HOST_PTR|CL_MEM_READ_WRITE,P,NULL,&e); void *mp=clEnqueueMapBuffer(q,al,CL_TRUE,CL_MAP_READ|CL_MAP_WRITE,0,P,0,NULL,NULL,&e); printf("ALLOC_HOST_PTR 16 GiB + map: %.2f s (err %d)\n",now()-t,e);
  return 0;
}
