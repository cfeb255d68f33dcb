// Which of sys_probe.cu's choices make MP's weak outcome show with the data
// in the writer's memory and the flag in the reader's (issue 32)? One
// variable at a time, same machine, same call.
//   nvcc -O3 -arch=sm_90 split_start.cu -o split_start
//   ./split_start ROUNDS CTAS THREADS PARTNER START SPACING [WAIT]
// Writer on GPU 0: x[i]=1; y[i]=1 (relaxed .sys). Reader on GPU 1:
// r0=y[j]; r1=x[j]. x lives on GPU 0, y on GPU 1. N = 2^20 instances a
// round, so CTAS*THREADS below N makes each thread play N/(CTAS*THREADS)
// instances in a row.
//   PARTNER 0: j = i; 1: j = i*2654435761 mod N (another thread's instance)
//   START   0: no start flag (the reader's launch follows the writer's);
//           1: every thread polls a flag in host memory;
//           2: one thread a CTA polls it, then the CTA's barrier;
//           3: a tight start: thread 0 of CTA 0 polls it and raises a
//              flag in its GPU's memory, which one thread a CTA polls;
//           4: as 3, then CTA c waits c*WAIT ns (the same on both GPUs);
//           5: as 3, then each CTA waits a random 0..WAIT ns of its own
//   SPACING words between two instances' slots (sys_probe.cu uses 4)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__device__ __forceinline__ void store_sys(unsigned *p, unsigned v) { asm volatile("st.relaxed.sys.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
__device__ __forceinline__ unsigned load_sys(unsigned *p) { unsigned v; asm volatile("ld.relaxed.sys.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }

__device__ unsigned long long now() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }

__device__ void start(volatile int *flag, volatile int *local, int mode, unsigned wait, unsigned salt) {
  if (mode >= 3) {
    if (threadIdx.x == 0) {
      if (blockIdx.x == 0) {
        for (long k = 0; k < (1L << 26) && *flag == 0; k++) {}
        *local = 1;
      }
      for (long k = 0; k < (1L << 26) && *local == 0; k++) {}
      unsigned long long d = 0;
      if (mode == 4) d = (unsigned long long)blockIdx.x * wait;
      if (mode == 5 && wait) d = ((blockIdx.x + 1) * 2654435761u ^ salt) * 2246822519u % wait;
      for (unsigned long long t0 = now(); now() - t0 < d;) {}
    }
    __syncthreads();
  } else if (mode == 1) {
    for (long k = 0; k < (1L << 26) && *flag == 0; k++) {}
  } else if (mode == 2) {
    if (threadIdx.x == 0) for (long k = 0; k < (1L << 26) && *flag == 0; k++) {}
    __syncthreads();
  }
}

__global__ void write_side(unsigned *x, unsigned *y, int n, int spacing, volatile int *flag, volatile int *local, int mode, unsigned wait) {
  start(flag, local, mode, wait, 0x9e3779b9u);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    store_sys(&x[(size_t)i * spacing], 1);
    store_sys(&y[(size_t)i * spacing], 1);
  }
}

__global__ void read_side(unsigned *x, unsigned *y, unsigned *seen, int n, int spacing, int partner, volatile int *flag, volatile int *local, int mode, unsigned wait) {
  start(flag, local, mode, wait, 0x85ebca6bu);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int j = partner ? (int)(((unsigned long long)i * 2654435761ull) % n) : i;
    unsigned r0 = load_sys(&y[(size_t)j * spacing]);
    unsigned r1 = load_sys(&x[(size_t)j * spacing]);
    seen[j] = r0 * 2 + r1;
  }
}

__global__ void tally(unsigned *seen, int n, unsigned long long *c) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&c[seen[i]], 1ull);
}

int main(int argc, char **argv) {
  if (argc < 7) { printf("usage: split_start ROUNDS CTAS THREADS PARTNER START SPACING [WAIT]\n"); return 2; }
  unsigned wait = argc > 7 ? (unsigned)atoi(argv[7]) : 0;
  int rounds = atoi(argv[1]), ctas = atoi(argv[2]), threads = atoi(argv[3]);
  int partner = atoi(argv[4]), mode = atoi(argv[5]), spacing = atoi(argv[6]), n = 1 << 20;
  int ndev; CK(cudaGetDeviceCount(&ndev));
  if (ndev < 2) { printf("split-probe: needs two GPUs, found %d\n", ndev); return 1; }
  CK(cudaSetDevice(0)); CK(cudaDeviceEnablePeerAccess(1, 0)); CK(cudaSetDevice(1)); CK(cudaDeviceEnablePeerAccess(0, 0));
  int *flag; CK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  unsigned *x, *y, *seen; unsigned long long *c, h[4] = {0, 0, 0, 0};
  size_t bytes = (size_t)n * spacing * 4;
  CK(cudaSetDevice(0)); CK(cudaMalloc(&x, bytes));
  int *local0, *local1; CK(cudaMalloc(&local0, 4));
  CK(cudaSetDevice(1)); CK(cudaMalloc(&local1, 4)); CK(cudaMalloc(&y, bytes)); CK(cudaMalloc(&seen, n * 4)); CK(cudaMalloc(&c, 32)); CK(cudaMemset(c, 0, 32));
  cudaEvent_t t0, t1; CK(cudaEventCreate(&t0)); CK(cudaEventCreate(&t1)); CK(cudaEventRecord(t0));
  for (int r = 0; r < rounds; r++) {
    CK(cudaSetDevice(0)); CK(cudaMemset(x, 0, bytes)); CK(cudaDeviceSynchronize());
    CK(cudaSetDevice(1)); CK(cudaMemset(y, 0, bytes)); CK(cudaDeviceSynchronize());
    *flag = 0; CK(cudaMemset(local1, 0, 4)); CK(cudaSetDevice(0)); CK(cudaMemset(local0, 0, 4)); CK(cudaDeviceSynchronize());
    CK(cudaSetDevice(0)); write_side<<<ctas, threads>>>(x, y, n, spacing, flag, local0, mode, wait);
    CK(cudaSetDevice(1)); read_side<<<ctas, threads>>>(x, y, seen, n, spacing, partner, flag, local1, mode, wait);
    *flag = 1;
    CK(cudaSetDevice(0)); CK(cudaDeviceSynchronize());
    CK(cudaSetDevice(1)); tally<<<1024, 256>>>(seen, n, c); CK(cudaDeviceSynchronize());
  }
  CK(cudaEventRecord(t1)); CK(cudaEventSynchronize(t1)); float ms; CK(cudaEventElapsedTime(&ms, t0, t1));
  CK(cudaMemcpy(h, c, 32, cudaMemcpyDeviceToHost));
  unsigned long long all = h[0] + h[1] + h[2] + h[3];
  printf("split ctas %d threads %d (%d a thread) partner %d start %d spacing %d wait %u: %llu instances, weak %llu = %.3g, %.3g inst/s, %.3g weak/s\n",
         ctas, threads, n / (ctas * threads), partner, mode, spacing, wait, all, h[2], (double)h[2] / all, all / (ms / 1e3), h[2] / (ms / 1e3));
  return 0;
}
