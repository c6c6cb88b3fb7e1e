/* Two contexts (two devices, or one device twice): 256 MiB read from
 * context 0's buffer into host memory and written from there to context
 * 1's, for pageable memory and memory pinned for one context, the other
 * or both (README.md). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define N (256ul<<20)
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
static cl_context c[2];static cl_command_queue q[2];static cl_mem d[2];
static void run(const char*name,unsigned char*h){double br=1e9,bw=1e9;
for(int i=0;i<4;i++){double t0=now();clEnqueueReadBuffer(q[0],d[0],1,0,N,h,0,0,0);double t1=now();
clEnqueueWriteBuffer(q[1],d[1],1,0,N,h,0,0,0);double t2=now();if(t1-t0<br)br=t1-t0;if(t2-t1<bw)bw=t2-t1;}
printf("%-28s read dev0 %6.1f GB/s  write dev1 %6.1f GB/s\n",name,N/br/1e6,N/bw/1e6);}
static unsigned char*alloc_map(int k){cl_int e;cl_mem b=clCreateBuffer(c[k],CL_MEM_ALLOC_HOST_PTR|CL_MEM_READ_WRITE,N,0,&e);
return clEnqueueMapBuffer(q[k],b,1,CL_MAP_READ|CL_MAP_WRITE,0,N,0,0,0,&e);}
static void wrap(int k,void*p){cl_int e;cl_mem b=clCreateBuffer(c[k],CL_MEM_USE_HOST_PTR|CL_MEM_READ_WRITE,N,p,&e);
void*m=clEnqueueMapBuffer(q[k],b,1,CL_MAP_READ,0,4096,0,0,0,&e);printf("wrap ctx%d: %d mapped %s\n",k,e,m==p?"in place":"elsewhere");
clEnqueueUnmapMemObject(q[k],b,m,0,0,0);clFinish(q[k]);}
static unsigned char*own(void){unsigned char*p=aligned_alloc(2<<20,N);memset(p,1,N);return p;}
int main(void){cl_platform_id pl;cl_device_id dv[2];cl_uint nd;cl_int e;clGetPlatformIDs(1,&pl,0);
clGetDeviceIDs(pl,CL_DEVICE_TYPE_ALL,2,dv,&nd);if(nd<2){puts("one device: two contexts on it");dv[1]=dv[0];}
for(int k=0;k<2;k++){c[k]=clCreateContext(0,1,&dv[k],0,0,&e);q[k]=clCreateCommandQueue(c[k],dv[k],0,&e);
d[k]=clCreateBuffer(c[k],CL_MEM_READ_WRITE,N,0,&e);unsigned char z=3;clEnqueueFillBuffer(q[k],d[k],&z,1,0,N,0,0,0);clFinish(q[k]);}
run("pageable",own());run("ALLOC_HOST_PTR ctx0",alloc_map(0));run("ALLOC_HOST_PTR ctx1",alloc_map(1));
unsigned char*p=own();wrap(0,p);run("USE_HOST_PTR ctx0",p);
p=own();wrap(1,p);run("USE_HOST_PTR ctx1",p);
p=own();wrap(0,p);wrap(1,p);run("USE_HOST_PTR ctx0+ctx1",p);
unsigned char*a=alloc_map(0);wrap(1,a);run("ALLOC ctx0 + USE ctx1",a);
return 0;}
