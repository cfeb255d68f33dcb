// Does a programmatic dependent launch shorten a pipeline of (test kernel,
// classifier that resets memory) at 2048x64 stride 4, as the harness runs
// one GPU, and does it keep the roles racing?
//   nvcc -O3 -arch=sm_90 dependent_launch.cu -o dependent_launch && ./dependent_launch [ITERS [CTAS THREADS STRIDE]]
// Modes: memsets (resets by memset, as litmus_probe_multi), chain (the
// classifier resets), and chain launched with programmatic stream
// serialization, the kernels waiting (griddepcontrol.wait) at their start:
// pdl-early (both trigger their dependents at once: the next test kernel's
// CTAs wait resident and leave together), pdl-end (the test kernel
// triggers at its end), pdl-none (no trigger). Two H200s, November 2026:
// chain 16.4 us a launch, pdl-none 14.3, pdl-early 12.7 but WRC's weak
// fraction 3e-3 -> 1.3e-7. The harness launches as pdl-none.
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cuda_runtime.h>
#define CK(x) do{cudaError_t e=(x); if(e!=cudaSuccess){printf("CUDA %s at %d\n",cudaGetErrorString(e),__LINE__); exit(1);}}while(0)
#define ST(p,v) asm volatile("st.relaxed.gpu.global.b32 [%0], %1;" :: "l"(p), "r"(v) : "memory")
#define LD(r,p) asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory")
enum { MP, WRC, SB };
static const char* NAMES[] = {"MP", "WRC", "SB"};
__device__ __forceinline__ unsigned perm(unsigned l, unsigned k, unsigned T){ return (l * (2*k+1) * 37u + k*11u) % T; }
__device__ __forceinline__ unsigned ploc(unsigned i, unsigned n, unsigned s){ return (i*2654435761u + s) & (n-1); }
__device__ __forceinline__ void dep_wait(){ asm volatile("griddepcontrol.wait;" ::: "memory"); }
__device__ __forceinline__ void dep_launch(){ asm volatile("griddepcontrol.launch_dependents;" :::); }
// ours-style: every role's accesses issued, results stored at the end
template<int TEST> __global__ void k(int* mem, int* res, unsigned n, int stride, unsigned seed, int pdl){
  const unsigned T = blockDim.x, B = gridDim.x, b = blockIdx.x, l = threadIdx.x;
  const int R = (TEST==WRC)?3:2;
  unsigned idx[3]; int* xs[3]; int* ys[3];
  for (int role = 0; role < R; role++) {
    unsigned i = ((b + role) % B) * T + perm(l, role, T); idx[role]=i;
    xs[role] = mem + (size_t)i*stride; ys[role] = mem + (size_t)(n + ploc(i,n,seed))*stride;
  }
  if (pdl) dep_wait();
  int v[4] = {0,0,0,0};
  for (int role = 0; role < R; role++) {
    int *x = xs[role], *y = ys[role]; int a=0,c=0;
    switch (TEST) {
      case MP:   if(role==0){ST(x,1);ST(y,1);} else {LD(a,y);LD(c,x);v[0]=a;v[1]=c;} break;
      case SB:   if(role==0){ST(x,1);LD(a,y);v[0]=a;} else {ST(y,1);LD(c,x);v[1]=c;} break;
      case WRC:  if(role==0){ST(x,1);} else if(role==1){LD(a,x);ST(y,1);v[0]=a;} else {LD(a,y);LD(c,x);v[1]=a;v[2]=c;} break;
    }
  }
  for (int role = 0; role < R; role++) {
    int* r = res + 4*(size_t)idx[role];
    switch (TEST) {
      case MP: if(role==1){r[0]=v[0];r[1]=v[1];} break;
      case SB: if(role==0) r[0]=v[0]; else r[1]=v[1]; break;
      case WRC: if(role==1) r[0]=v[0]; else if(role==2){r[1]=v[1];r[2]=v[2];} break;
    }
  }
  if (pdl == 1) dep_launch();
}
template<int TEST> __global__ void classify(int* mem, int* res, unsigned n, int stride, unsigned seed, unsigned long long* cnt, int reset, int pdl, int early){
  unsigned i = blockIdx.x*blockDim.x+threadIdx.x;
  int* xp = mem + (size_t)i*stride; int* yp = mem + (size_t)(n + ploc(i,n,seed))*stride;
  if (pdl) { dep_wait(); if (pdl == 1 && early) dep_launch(); }
  if(i>=n) return;
  int* r = res + 4*(size_t)i; bool w=false;
  int r0=r[0], r1=r[1], r2=r[2];
  switch(TEST){
    case MP: w = r0==1 && r1==0; break;
    case SB: w = r0==0 && r1==0; break;
    case WRC: w = r0==1 && r1==1 && r2==0; break;
  }
  if (reset) { *xp = 0; *yp = 0; }
  if (w) atomicAdd(cnt, 1ull);
}
template<int TEST> void runt(int mode, int iters, unsigned B, unsigned T, int stride, int* mem, int* res, unsigned long long* cnt, cudaStream_t s){
  unsigned n = B*T; CK(cudaMemset(cnt,0,8)); CK(cudaMemset(mem,0,(size_t)2*n*stride*4)); CK(cudaDeviceSynchronize());
  // 2: both kernels trigger their dependents early; 3: the test kernel at its end, the classifier at its exit; 4: neither triggers.
  int pdl = mode >= 2 ? (mode == 4 ? 2 : 1) : 0, reset = mode >= 1, early = mode == 2;
  cudaLaunchAttribute at[1]; at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization; at[0].val.programmaticStreamSerializationAllowed = 1;
  auto st = std::chrono::steady_clock::now();
  for (int it=0; it<iters; it++){
    unsigned seed = it*7919u+13u;
    if (mode == 0) { cudaMemsetAsync(mem,0,(size_t)2*n*stride*4,s); cudaMemsetAsync(res,0,(size_t)4*n*4,s); }
    if (pdl) {
      cudaLaunchConfig_t c1 = {}; c1.gridDim = B; c1.blockDim = T; c1.stream = s; c1.attrs = at; c1.numAttrs = 1;
      CK(cudaLaunchKernelEx(&c1, k<TEST>, mem, res, n, stride, seed, pdl));
      cudaLaunchConfig_t c2 = {}; c2.gridDim = (n+255)/256; c2.blockDim = 256; c2.stream = s; c2.attrs = at; c2.numAttrs = 1;
      CK(cudaLaunchKernelEx(&c2, classify<TEST>, mem, res, n, stride, seed, cnt, reset, pdl, early));
    } else {
      k<TEST><<<B,T,0,s>>>(mem,res,n,stride,seed,0);
      classify<TEST><<<(n+255)/256,256,0,s>>>(mem,res,n,stride,seed,cnt,reset,0,0);
    }
  }
  CK(cudaStreamSynchronize(s));
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now()-st).count();
  unsigned long long c; CK(cudaMemcpy(&c,cnt,8,cudaMemcpyDeviceToHost));
  double tot = (double)n*iters;
  static const char* M[] = {"memsets", "chain", "pdl-early", "pdl-end", "pdl-none"};
  printf("%-4s %-10s B=%u T=%u s=%d: weak %llu (%.2e)  %.2e inst/s  %.2f us/iter\n", NAMES[TEST], M[mode], B, T, stride, c, c/tot, tot/sec, sec/iters*1e6);
}
int main(int argc, char** argv){
  int iters = argc>1? atoi(argv[1]) : 20000;
  unsigned B = argc>2? atoi(argv[2]) : 2048, T = argc>3? atoi(argv[3]) : 64; int stride = argc>4? atoi(argv[4]) : 4;
  unsigned n = B*T; int *mem,*res; unsigned long long* cnt; cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CK(cudaMalloc(&mem,(size_t)2*n*stride*4)); CK(cudaMalloc(&res,(size_t)4*n*4)); CK(cudaMalloc(&cnt,8));
  for (int round = 0; round < 2; round++)
  for (int mode = 0; mode < 5; mode++) {
    runt<MP>(mode,iters,B,T,stride,mem,res,cnt,s); runt<SB>(mode,iters,B,T,stride,mem,res,cnt,s); runt<WRC>(mode,iters,B,T,stride,mem,res,cnt,s);
  }
  return 0;
}
