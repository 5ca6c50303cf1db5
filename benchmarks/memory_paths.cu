// Hand-written memory paths for a row softmax and a matvec of 8192 f32 per row on sm_90,
// timed by benchmarks/memory_paths.py beside torch's copy_, Triton and schedir's schedules:
// which way of moving the row (16-byte loads into registers with one row per block,
// persistent blocks with the next row's loads issued before this row's reductions, or TMA
// bulk copies of whole rows into shared memory, double- or triple-buffered) gets closest
// to the copy bandwidth. Compile-time knobs: N (row length), NT (threads per block), STAGES
// (shared row buffers of the TMA path), CH (bulk copies per row), BULKST (store the TMA
// path's results through shared memory with one bulk store per row).
#include <math.h>

#ifndef N
#define N 8192
#endif
#ifndef NT
#define NT 512
#endif
#ifndef STAGES
#define STAGES 2
#endif
#ifndef CH
#define CH 1
#endif
#ifndef BULKST
#define BULKST 0
#endif
#define K (N / (4 * NT))  // float4 per thread and row
#define W (NT / 32)       // warps per block

__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ float fast_exp(float x) { return exp2f(x * 1.4426950408889634f); }

// The row's max, across the block: the warps' maxima through red[] (one barrier).
__device__ __forceinline__ float block_max(float m, float* red, int lane, int w) {
  m = warp_max(m);
  if (lane == 0) red[w] = m;
  __syncthreads();
  return warp_max(lane < W ? red[lane] : -INFINITY);
}
__device__ __forceinline__ float block_sum(float s, float* red, int lane, int w) {
  s = warp_sum(s);
  if (lane == 0) red[w] = s;
  __syncthreads();
  return warp_sum(lane < W ? red[lane] : 0.f);
}

// exp(v - m) in place; returns the thread's sum of them.
__device__ __forceinline__ float exp_and_sum(float4* v, float m) {
  float s = 0.f;
#pragma unroll
  for (int c = 0; c < K; c++) {
    v[c].x = fast_exp(v[c].x - m);
    v[c].y = fast_exp(v[c].y - m);
    v[c].z = fast_exp(v[c].z - m);
    v[c].w = fast_exp(v[c].w - m);
    s += (v[c].x + v[c].y) + (v[c].z + v[c].w);
  }
  return s;
}
__device__ __forceinline__ float max_of(const float4* v) {
  float m = -INFINITY;
#pragma unroll
  for (int c = 0; c < K; c++) m = fmaxf(m, fmaxf(fmaxf(v[c].x, v[c].y), fmaxf(v[c].z, v[c].w)));
  return m;
}

// A flat copy: n4 float4, grid-stride.
extern "C" __global__ void copy4(const float4* __restrict__ a, float4* __restrict__ b, long n4) {
  long stride = (long)gridDim.x * blockDim.x;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += stride) b[i] = a[i];
}

// A copy with softmax's layout: a row per block (grid-stride over rows), K float4 per thread.
extern "C" __global__ void __launch_bounds__(NT) copy_rows(const float* __restrict__ x, float* __restrict__ y, int rows) {
  int tid = threadIdx.x;
  for (int row = blockIdx.x; row < rows; row += gridDim.x) {
    const float4* xr = reinterpret_cast<const float4*>(x + (long)row * N);
    float4* yr = reinterpret_cast<float4*>(y + (long)row * N);
    float4 v[K];
#pragma unroll
    for (int c = 0; c < K; c++) v[c] = xr[c * NT + tid];
#pragma unroll
    for (int c = 0; c < K; c++) yr[c * NT + tid] = v[c];
  }
}

// Softmax, rows in registers: thread t loads float4 t of each chunk of 4 NT (all K in
// flight), a row per block (grid = rows) or persistent (grid-stride over rows).
extern "C" __global__ void __launch_bounds__(NT) smx_reg(const float* __restrict__ x, float* __restrict__ y, int rows) {
  __shared__ float red[2][2][W];  // [row parity][max, sum]: no barrier between rows
  int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  int p = 0;
  for (int row = blockIdx.x; row < rows; row += gridDim.x, p ^= 1) {
    const float4* xr = reinterpret_cast<const float4*>(x + (long)row * N);
    float4 v[K];
#pragma unroll
    for (int c = 0; c < K; c++) v[c] = xr[c * NT + tid];
    float m = block_max(max_of(v), red[p][0], lane, w);
    float s = block_sum(exp_and_sum(v, m), red[p][1], lane, w);
    float4* yr = reinterpret_cast<float4*>(y + (long)row * N);
#pragma unroll
    for (int c = 0; c < K; c++) yr[c * NT + tid] = make_float4(v[c].x / s, v[c].y / s, v[c].z / s, v[c].w / s);
  }
}

// Softmax, persistent and software-pipelined: the next row's K float4 are issued before
// this row's reductions (2 K float4 in flight per thread).
extern "C" __global__ void __launch_bounds__(NT) smx_pipe(const float* __restrict__ x, float* __restrict__ y, int rows) {
  __shared__ float red[2][2][W];
  int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  float4 v[K], nv[K];
  int row = blockIdx.x;
  if (row < rows) {
    const float4* xr = reinterpret_cast<const float4*>(x + (long)row * N);
#pragma unroll
    for (int c = 0; c < K; c++) v[c] = xr[c * NT + tid];
  }
  for (int p = 0; row < rows; row += gridDim.x, p ^= 1) {
    int next = row + gridDim.x;
    if (next < rows) {
      const float4* xn = reinterpret_cast<const float4*>(x + (long)next * N);
#pragma unroll
      for (int c = 0; c < K; c++) nv[c] = xn[c * NT + tid];
    }
    float m = block_max(max_of(v), red[p][0], lane, w);
    float s = block_sum(exp_and_sum(v, m), red[p][1], lane, w);
    float4* yr = reinterpret_cast<float4*>(y + (long)row * N);
#pragma unroll
    for (int c = 0; c < K; c++) {
      yr[c * NT + tid] = make_float4(v[c].x / s, v[c].y / s, v[c].z / s, v[c].w / s);
      v[c] = nv[c];
    }
  }
}

__device__ __forceinline__ unsigned smem_addr(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

// One row (N floats) into shared memory with CH bulk copies completing on mbarrier `bar`.
__device__ __forceinline__ void bulk_load_row(float* dst, const float* src, unsigned long long* bar) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(N * 4) : "memory");
  for (int c = 0; c < CH; c++)
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(smem_addr(dst + c * (N / CH))), "l"(src + c * (N / CH)), "r"(N * 4 / CH), "r"(smem_addr(bar))
                 : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned long long* bar, unsigned phase) {
  asm volatile(
      "{\n .reg .pred p;\n WAIT: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra WAIT;\n}"
      ::"r"(smem_addr(bar)), "r"(phase) : "memory");
}

// Softmax, TMA rows: persistent blocks, each row fetched by thread 0 with cp.async.bulk
// into one of STAGES shared buffers, STAGES rows ahead (the buffer refilled once every
// thread has read it, after the max's barrier); results stored with st.global.v4, or
// (BULKST) written back into the buffer and bulk-stored (cp.async.bulk.global.shared::cta).
extern "C" __global__ void __launch_bounds__(NT) smx_tma(const float* __restrict__ x, float* __restrict__ y, int rows) {
  extern __shared__ __align__(128) float buf[];
  __shared__ __align__(8) unsigned long long bar[STAGES];
  __shared__ float red[2][2][W];
  int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  if (tid == 0) {
    for (int s = 0; s < STAGES; s++)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(&bar[s])), "r"(1));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (tid == 0)
    for (int s = 0; s < STAGES; s++) {
      int row = blockIdx.x + s * gridDim.x;
      if (row < rows) bulk_load_row(buf + s * N, x + (long)row * N, &bar[s]);
    }
  int it = 0;
  for (int row = blockIdx.x; row < rows; row += gridDim.x, it++) {
    int s = it % STAGES, p = it & 1;
    mbar_wait(&bar[s], (it / STAGES) & 1);
    float* b = buf + s * N;
    float4 v[K];
#pragma unroll
    for (int c = 0; c < K; c++) v[c] = reinterpret_cast<const float4*>(b)[c * NT + tid];
    float m = block_max(max_of(v), red[p][0], lane, w);
    int next = row + STAGES * gridDim.x;
#if !BULKST
    if (tid == 0 && next < rows) {
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      bulk_load_row(b, x + (long)next * N, &bar[s]);
    }
#endif
    float sum = block_sum(exp_and_sum(v, m), red[p][1], lane, w);
#if !BULKST
    float4* yr = reinterpret_cast<float4*>(y + (long)row * N);
#pragma unroll
    for (int c = 0; c < K; c++) yr[c * NT + tid] = make_float4(v[c].x / sum, v[c].y / sum, v[c].z / sum, v[c].w / sum);
#else
#pragma unroll
    for (int c = 0; c < K; c++)
      reinterpret_cast<float4*>(b)[c * NT + tid] = make_float4(v[c].x / sum, v[c].y / sum, v[c].z / sum, v[c].w / sum);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (tid == 0) {
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(y + (long)row * N), "r"(smem_addr(b)), "r"(N * 4)
                   : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
      if (next < rows) bulk_load_row(b, x + (long)next * N, &bar[s]);
    }
#endif
  }
#if BULKST
  if (tid == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
}

// matvec y = A x: a row per block (or persistent), K float4 of the row and of x per
// thread, all in flight before the thread's dot product.
extern "C" __global__ void __launch_bounds__(NT) mv_reg(const float* __restrict__ a, const float* __restrict__ xv, float* __restrict__ y, int rows) {
  __shared__ float red[2][W];
  int tid = threadIdx.x, lane = tid & 31, w = tid >> 5, p = 0;
  const float4* x4 = reinterpret_cast<const float4*>(xv);
  for (int row = blockIdx.x; row < rows; row += gridDim.x, p ^= 1) {
    const float4* ar = reinterpret_cast<const float4*>(a + (long)row * N);
    float4 v[K], u[K];
#pragma unroll
    for (int c = 0; c < K; c++) v[c] = ar[c * NT + tid];
#pragma unroll
    for (int c = 0; c < K; c++) u[c] = x4[c * NT + tid];
    float s = 0.f;
#pragma unroll
    for (int c = 0; c < K; c++) s += (v[c].x * u[c].x + v[c].y * u[c].y) + (v[c].z * u[c].z + v[c].w * u[c].w);
    s = block_sum(s, red[p], lane, w);
    if (tid == 0) y[row] = s;
  }
}
