/* The relay's pipeline (runtime/host/ring.c, vrt_ring_relay) between two
 * contexts: 430 MiB in pieces through K chunks of C bytes pinned for
 * context 0, for several C and K, against a fresh temporary (README.md). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define N (430ul<<20)
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
static cl_command_queue q[2];static cl_mem d[2];static unsigned char*ch[8];static size_t C;static unsigned K;
static void w8(cl_event*e){if(*e){clWaitForEvents(1,e);clReleaseEvent(*e);*e=0;}}
static size_t pl(size_t i){return (i+1)*C<N?C:N-i*C;}
static void rd(size_t i,cl_event*r){clEnqueueReadBuffer(q[0],d[0],0,i*C,pl(i),ch[i%K],0,0,&r[i%K]);clFlush(q[0]);}
static double relay(void){double t0=now();size_t P=(N+C-1)/C,nx=0;cl_event r[8]={0},w[8]={0};
for(;nx<P&&nx<K;nx++)rd(nx,r);
for(size_t i=0;i<P;i++){unsigned k=i%K;w8(&r[k]);clEnqueueWriteBuffer(q[1],d[1],0,i*C,pl(i),ch[k],0,0,&w[k]);clFlush(q[1]);
if(i>0&&nx<P){w8(&w[(i-1)%K]);rd(nx++,r);}}
for(unsigned k=0;k<K;k++){w8(&r[k]);w8(&w[k]);}return now()-t0;}
int main(void){cl_platform_id pl_;cl_device_id dv[2];cl_uint nd;cl_int e;cl_context c[2];clGetPlatformIDs(1,&pl_,0);
clGetDeviceIDs(pl_,CL_DEVICE_TYPE_ALL,2,dv,&nd);if(nd<2)dv[1]=dv[0];
for(int k=0;k<2;k++){c[k]=clCreateContext(0,1,&dv[k],0,0,&e);q[k]=clCreateCommandQueue(c[k],dv[k],0,&e);
d[k]=clCreateBuffer(c[k],CL_MEM_READ_WRITE,N,0,&e);unsigned char z=3;clEnqueueFillBuffer(q[k],d[k],&z,1,0,N,0,0,0);clFinish(q[k]);}
size_t cs[]={2,4,8,16,32};unsigned ks[]={2,3,4,6};
for(int a=0;a<5;a++)for(int b=0;b<4;b++){C=cs[a]<<20;K=ks[b];
for(unsigned k=0;k<K;k++){cl_mem m=clCreateBuffer(c[0],CL_MEM_ALLOC_HOST_PTR,C,0,&e);ch[k]=clEnqueueMapBuffer(q[0],m,1,3,0,C,0,0,0,&e);}
double best=1e9;for(int t=0;t<5;t++){double x=relay();if(x<best)best=x;}
printf("chunk %2zu MiB x %u: %6.2f ms %5.1f GB/s\n",cs[a],K,best,N/best/1e6);}
double t0=now();unsigned char*p=malloc(N);clEnqueueReadBuffer(q[0],d[0],1,0,N,p,0,0,0);clEnqueueWriteBuffer(q[1],d[1],1,0,N,p,0,0,0);free(p);
printf("old (fresh malloc): %.2f ms\n",now()-t0);return 0;}
