// Why the harness's tests across GPUs barely race, measured: message passing
// with relaxed .sys accesses, the writer on GPU 0 and the reader on GPU 1,
// launched the way the harness launches (a start flag in host memory, one
// relay thread counting each launch in at a word in GPU 0's memory, every
// warp waiting for both counts) and then varied one design choice at a time:
//
//   rounds  instances a thread plays one after the other in one launch
//   match   which instance the reader of thread t in round r reads:
//           same  (r·T + t, the writer's thread and round),
//           round (r·T + perm(t), another thread of the same round),
//           all   (perm(r·T + t), any instance of the launch, as sys_probe)
//   place   where x and y live: both in the reader's memory (rr), x in the
//           writer's and y in the reader's (wr), both in the writer's (ww)
//
// Besides the weak count it prints, from %globaltimer read by thread 0 of
// every CTA, when each GPU's CTAs leave the start barrier and end, relative
// to GPU 0's first (the two GPUs' timers are lined up first by a ping-pong
// through peer memory), so the start skew can be set against the time the
// roles take.
//
//   nvcc -O3 -arch=sm_90 cross_gpu_race.cu -o cross_gpu_race && ./cross_gpu_race
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__device__ __forceinline__ unsigned long long now() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ void st_sys(unsigned *p, unsigned v) { asm volatile("st.relaxed.sys.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
__device__ __forceinline__ unsigned ld_sys(const unsigned *p) { unsigned v; asm volatile("ld.relaxed.sys.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
__device__ __forceinline__ unsigned perm(unsigned i, unsigned mask) { return (i * 2654435761u + 12345u) & mask; }

// The harness's start: thread 0 of CTA 0 polls the host flag and counts its
// launch in at `relay` (GPU 0's memory); one lane a warp polls the count.
__device__ void start_barrier(volatile int *go, unsigned *relay, unsigned launches) {
  if (threadIdx.x % 32 == 0) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      for (long k = 0; k < (1L << 24) && *go == 0; k++) {}
      asm volatile("red.relaxed.sys.global.add.u32 [%0], 1;" :: "l"(relay) : "memory");
    }
    for (long k = 0; k < (1L << 24) && ld_sys(relay) < launches; k++) {}
  }
  __syncwarp();
}

struct Args { unsigned *x, *y, *out, *relay; volatile int *go; unsigned long long *times; unsigned n_mask, threads, rounds, match, stride, launches; };

__global__ void writer(Args a) {
  start_barrier(a.go, a.relay, a.launches);
  unsigned long long t0 = now();
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned r = 0; r < a.rounds; r++) {
    unsigned i = r * a.threads + t;
    st_sys(&a.x[i * a.stride], 1); st_sys(&a.y[i * a.stride], 1);
  }
  if (threadIdx.x == 0) { a.times[2 * blockIdx.x] = t0; a.times[2 * blockIdx.x + 1] = now(); }
}

__global__ void reader(Args a) {
  start_barrier(a.go, a.relay, a.launches);
  unsigned long long t0 = now();
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned r = 0; r < a.rounds; r++) {
    unsigned i = r * a.threads + t;
    unsigned j = a.match == 0 ? i : a.match == 1 ? r * a.threads + perm(t, a.threads - 1) : perm(i, a.n_mask);
    unsigned r0 = ld_sys(&a.y[j * a.stride]); unsigned r1 = ld_sys(&a.x[j * a.stride]);
    a.out[j] = r0 * 2 + r1;
  }
  if (threadIdx.x == 0) { a.times[2 * blockIdx.x] = t0; a.times[2 * blockIdx.x + 1] = now(); }
}

__global__ void count(const unsigned *out, unsigned n, unsigned long long *c) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&c[out[i] & 3], 1ull);
}

// GPU 1's timer minus GPU 0's, from round trips through GPU 1's memory.
__global__ void ping(volatile unsigned *flag, unsigned long long *t, int rounds) {
  for (int k = 0; k < rounds; k++) {
    while (flag[0] != 2u * k) {}
    t[3 * k] = now(); flag[0] = 2u * k + 1;
    while (flag[0] != 2u * k + 2) {}
    t[3 * k + 2] = now();
  }
}
__global__ void pong(volatile unsigned *flag, unsigned long long *t, int rounds) {
  for (int k = 0; k < rounds; k++) {
    while (flag[0] != 2u * k + 1) {}
    t[3 * k + 1] = now(); flag[0] = 2u * k + 2;
  }
}

static long long timer_offset() {
  const int rounds = 64;
  unsigned *flag; unsigned long long *t;
  CK(cudaSetDevice(1)); CK(cudaMalloc(&flag, 4)); CK(cudaMemset(flag, 0, 4));
  CK(cudaMallocManaged(&t, rounds * 3 * 8));
  CK(cudaDeviceSynchronize());
  CK(cudaSetDevice(0)); ping<<<1, 1>>>(flag, t, rounds);
  CK(cudaSetDevice(1)); pong<<<1, 1>>>(flag, t, rounds);
  CK(cudaDeviceSynchronize()); CK(cudaSetDevice(0)); CK(cudaDeviceSynchronize());
  std::vector<long long> off; long long rtt = 0;
  for (int k = 8; k < rounds; k++) { off.push_back((long long)t[3 * k + 1] - (long long)(t[3 * k] + t[3 * k + 2]) / 2); rtt += t[3 * k + 2] - t[3 * k]; }
  std::sort(off.begin(), off.end());
  printf("timers: GPU1 - GPU0 = %lld ns (median of %zu), round trip %lld ns\n", off[off.size() / 2], off.size(), rtt / (long long)off.size());
  CK(cudaFree(flag)); CK(cudaFree(t));
  return off[off.size() / 2];
}

struct Span { double first, median, last; };
static Span span(const std::vector<unsigned long long> &v, long long origin) {
  std::vector<double> d; for (auto x : v) d.push_back((double)((long long)x - origin) / 1e3);
  std::sort(d.begin(), d.end()); return {d.front(), d[d.size() / 2], d.back()};
}

int main(int argc, char **argv) {
  double budget = argc > 1 ? atof(argv[1]) : 0.5;  // seconds a configuration
  int ndev; CK(cudaGetDeviceCount(&ndev));
  if (ndev < 2) { printf("needs two GPUs, found %d\n", ndev); return 0; }
  CK(cudaSetDevice(0)); CK(cudaDeviceEnablePeerAccess(1, 0)); CK(cudaSetDevice(1)); CK(cudaDeviceEnablePeerAccess(0, 0));
  long long offset = timer_offset();
  int *go_h; CK(cudaHostAlloc(&go_h, 4, cudaHostAllocMapped | cudaHostAllocPortable));
  const unsigned stride = 4, max_n = 1u << 23;
  unsigned *mem[2], *out, *relay; unsigned long long *c, *times[2];
  for (int g = 0; g < 2; g++) { CK(cudaSetDevice(g)); CK(cudaMalloc(&mem[g], 2ull * max_n * stride * 4)); CK(cudaMalloc(&times[g], 2 * 65536 * 8)); }
  CK(cudaSetDevice(0)); CK(cudaMalloc(&relay, 4));
  CK(cudaSetDevice(1)); CK(cudaMalloc(&out, max_n * 4)); CK(cudaMalloc(&c, 32));
  struct Cfg { const char *name; unsigned ctas, block, rounds, match; };
  const Cfg cfgs[] = {
      {"harness 2048x64", 2048, 64, 1, 0}, {"harness +round perm", 2048, 64, 1, 1},
      {"rounds 16 same", 2048, 64, 16, 0}, {"rounds 16 round", 2048, 64, 16, 1}, {"rounds 16 all", 2048, 64, 16, 2},
      {"rounds 64 same", 2048, 64, 64, 0}, {"rounds 64 round", 2048, 64, 64, 1}, {"rounds 64 all", 2048, 64, 64, 2},
      {"rounds 4 1024x256 all", 1024, 256, 4, 2}, {"rounds 16 1024x256 round", 1024, 256, 16, 1},
      {"rounds 256 256x64 round", 256, 64, 256, 1}, {"rounds 256 256x64 all", 256, 64, 256, 2},
  };
  const char *places[] = {"rr", "wr", "ww"};
  printf("%-26s %-3s %10s %10s %10s %10s %10s   %s\n", "config", "at", "instances", "weak", "frac", "inst/s", "weak/s",
         "us from GPU0's first start: W start first/med/last, R start first/med/last, W end med, R end med");
  for (int p = 0; p < 3; p++) {
    for (const Cfg &cf : cfgs) {
      unsigned threads = cf.ctas * cf.block, n = threads * cf.rounds;
      if (n > max_n) continue;
      // x and y: rr both in GPU 1's, wr x in GPU 0's and y in GPU 1's, ww both in GPU 0's.
      unsigned *x = mem[p == 0 ? 1 : 0], *y = mem[p == 2 ? 0 : 1] + (size_t)max_n * stride;
      Args a{x, y, out, relay, go_h, nullptr, n - 1, threads, cf.rounds, cf.match, stride, 2};
      unsigned long long h[4] = {0, 0, 0, 0}; int launches = 0; double spent = 0;
      std::vector<unsigned long long> tw(2 * cf.ctas), tr(2 * cf.ctas);
      Span ws{}, rs{}, we{}, re{};
      CK(cudaSetDevice(1)); CK(cudaMemset(c, 0, 32));
      auto begin = std::chrono::steady_clock::now();
      while (spent < budget) {
        CK(cudaSetDevice(0)); CK(cudaMemset(relay, 0, 4));
        for (int g = 0; g < 2; g++) {  // the instances' slots of x and y only
          CK(cudaSetDevice(g)); CK(cudaMemset(mem[g], 0, 4ull * n * stride)); CK(cudaMemset(mem[g] + (size_t)max_n * stride, 0, 4ull * n * stride));
        }
        CK(cudaDeviceSynchronize()); CK(cudaSetDevice(0)); CK(cudaDeviceSynchronize());
        *(volatile int *)go_h = 0;
        a.times = times[0]; writer<<<cf.ctas, cf.block>>>(a);
        CK(cudaSetDevice(1)); a.times = times[1]; reader<<<cf.ctas, cf.block>>>(a);
        *(volatile int *)go_h = 1;
        count<<<1024, 256>>>(out, n, c);
        CK(cudaDeviceSynchronize()); CK(cudaSetDevice(0)); CK(cudaDeviceSynchronize());
        launches++;
        if (launches == 3) {  // a warm launch's timeline
          CK(cudaMemcpy(tw.data(), times[0], 16 * cf.ctas, cudaMemcpyDeviceToHost));
          CK(cudaMemcpy(tr.data(), times[1], 16 * cf.ctas, cudaMemcpyDeviceToHost));
          std::vector<unsigned long long> s0, e0, s1, e1;
          for (unsigned b = 0; b < cf.ctas; b++) { s0.push_back(tw[2 * b]); e0.push_back(tw[2 * b + 1]); s1.push_back(tr[2 * b] - offset); e1.push_back(tr[2 * b + 1] - offset); }
          long long origin = (long long)*std::min_element(s0.begin(), s0.end());
          ws = span(s0, origin); rs = span(s1, origin); we = span(e0, origin); re = span(e1, origin);
        }
        spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      }
      CK(cudaSetDevice(1)); CK(cudaMemcpy(h, c, 32, cudaMemcpyDeviceToHost));
      unsigned long long total = h[0] + h[1] + h[2] + h[3];
      printf("%-26s %-3s %10llu %10llu %10.3e %10.3e %10.3e   W %.1f/%.1f/%.1f R %.1f/%.1f/%.1f end W %.1f R %.1f\n", cf.name, places[p], total, h[2],
             (double)h[2] / total, total / spent, h[2] / spent, ws.first, ws.median, ws.last, rs.first, rs.median, rs.last, we.median, re.median);
      fflush(stdout);
    }
  }
  return 0;
}
