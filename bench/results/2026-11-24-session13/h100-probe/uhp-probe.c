#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
	size_t n=(size_t)512<<20; cl_int err;
	cl_platform_id p[4]; cl_uint np; clGetPlatformIDs(4,p,&np);
	cl_device_id d; clGetDeviceIDs(p[0],CL_DEVICE_TYPE_GPU,1,&d,NULL);
	cl_context c=clCreateContext(NULL,1,&d,NULL,NULL,&err);
	cl_command_queue q=clCreateCommandQueue(c,d,0,&err);
	for(int rep=0;rep<3;rep++){
	char *x=malloc(n),*y=malloc(n); memset(x,1,n); memset(y,2,n);
	double t0=now();
	cl_mem a=clCreateBuffer(c,CL_MEM_READ_ONLY|CL_MEM_USE_HOST_PTR,n,x,&err);
	double t1=now();
	cl_command_queue q2=clCreateCommandQueue(c,d,0,&err);
	double t2=now();
	void *m=clEnqueueMapBuffer(q2,a,CL_TRUE,CL_MAP_READ|CL_MAP_WRITE,0,n,0,NULL,NULL,&err);
	double t3=now();
	cl_mem b=clCreateBuffer(c,CL_MEM_READ_WRITE|CL_MEM_USE_HOST_PTR,n,y,&err);
	double t4=now();
	void *m2=clEnqueueMapBuffer(q,b,CL_TRUE,CL_MAP_WRITE_INVALIDATE_REGION,0,n,0,NULL,NULL,&err);
	double t5=now();
	cl_event e; clEnqueueUnmapMemObject(q2,a,m,0,NULL,&e); clWaitForEvents(1,&e);
	double t6=now();
	clEnqueueUnmapMemObject(q,b,m2,0,NULL,&e); clWaitForEvents(1,&e);
	double t7=now();
	printf("create %.4f queue %.4f map(rw) %.4f create2 %.4f map(inval) %.4f unmap(rw) %.4f unmap(inval) %.4f  ptr-same %d %d\n",t1-t0,t2-t1,t3-t2,t4-t3,t5-t4,t6-t5,t7-t6,m==x,m2==y);
	clReleaseMemObject(a);clReleaseMemObject(b);clReleaseCommandQueue(q2);free(x);free(y);
	}
	return 0;
}
