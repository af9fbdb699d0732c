// ksw-probe-kernel: CUDA forward and backward for the probe attention (see probe_attention.cpp
// for the math). Deliberately simple, not fast: one thread block per (batch, head, row), the
// row's scores/probabilities kept in shared memory, accumulation in float (double for float64).
// The backward recomputes probabilities from the saved logsumexp and needs no atomics, so it is
// deterministic:
//   kernel 1, one block per query row i:  delta_i = <do_i, o_i>, dq_i
//   kernel 2, one block per key row j:    dk_j, dv_j   (reads delta from kernel 1)
//
// Only ATen/c10 core headers and the CUDA runtime are used -- no c10/cuda or ATen/cuda headers
// (a CPU wheel of torch lacks c10/cuda/impl/cuda_cmake_macros.h) -- so this file also compiles
// against a CPU torch's headers plus a CUDA toolkit, which lets a machine without a CUDA torch
// syntax-check it. The device guard and torch's current CUDA stream are reached through c10's
// backend-neutral DeviceGuard / DeviceGuardImplInterface, which CUDA torch builds register.

#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/Stream.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <string>
#include <tuple>

namespace ksw_probe {
namespace {

constexpr int kThreads = 128;  // a multiple of 32: the block reductions rely on whole warps
constexpr int64_t kMaxSharedBytes = 48 * 1024;  // what every GPU gives without an opt-in

template <typename T>
struct AccType {
  using type = float;
};
template <>
struct AccType<double> {
  using type = double;
};

__device__ __forceinline__ float ksw_exp(float x) { return expf(x); }
__device__ __forceinline__ double ksw_exp(double x) { return exp(x); }
__device__ __forceinline__ float ksw_log(float x) { return logf(x); }
__device__ __forceinline__ double ksw_log(double x) { return log(x); }

struct SumOp {
  template <typename T>
  __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};
struct MaxOp {
  template <typename T>
  __device__ __forceinline__ T operator()(T a, T b) const { return a > b ? a : b; }
};

// Reduce one value per thread over the whole block; every thread gets the result. All threads
// of the block must call it (no early return before it). `red` holds at least 32 values.
template <typename T, typename Op>
__device__ __forceinline__ T block_reduce(T val, T* red, Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    val = op(val, __shfl_xor_sync(0xffffffffu, val, offset));
  }
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int nwarps = blockDim.x >> 5;
  if (lane == 0) red[warp] = val;
  __syncthreads();
  T result = red[0];
  for (int w = 1; w < nwarps; ++w) result = op(result, red[w]);
  __syncthreads();  // `red` may be reused by the next reduction
  return result;
}

// One block per query row: row = (b * H + h) * Lq + i.
// Dynamic shared memory: q_s[D], p_s[Lk] (acc_t).
template <typename scalar_t, typename acc_t>
__global__ void __launch_bounds__(kThreads)
    probe_fwd_kernel(const scalar_t* __restrict__ q, const scalar_t* __restrict__ k,
                     const scalar_t* __restrict__ v, scalar_t* __restrict__ out,
                     acc_t* __restrict__ lse, int64_t Lq, int64_t Lk, int64_t D, int64_t Dv,
                     bool causal, acc_t scale) {
  extern __shared__ __align__(16) unsigned char ksw_smem[];
  __shared__ acc_t red[32];
  acc_t* q_s = reinterpret_cast<acc_t*>(ksw_smem);
  acc_t* p_s = q_s + D;

  const int64_t row = blockIdx.x;
  const int64_t bh = row / Lq;
  const int64_t i = row % Lq;
  const scalar_t* qi = q + row * D;
  const scalar_t* kb = k + bh * Lk * D;
  const scalar_t* vb = v + bh * Lk * Dv;
  const int64_t nk = causal ? (i + 1 < Lk ? i + 1 : Lk) : Lk;

  for (int64_t x = threadIdx.x; x < D; x += blockDim.x) q_s[x] = static_cast<acc_t>(qi[x]);
  __syncthreads();

  acc_t local_max = -INFINITY;
  for (int64_t j = threadIdx.x; j < nk; j += blockDim.x) {
    const scalar_t* kj = kb + j * D;
    acc_t s = 0;
    for (int64_t x = 0; x < D; ++x) s += q_s[x] * static_cast<acc_t>(kj[x]);
    s *= scale;
    p_s[j] = s;
    local_max = local_max > s ? local_max : s;
  }
  const acc_t m = block_reduce(local_max, red, MaxOp());

  acc_t local_sum = 0;
  for (int64_t j = threadIdx.x; j < nk; j += blockDim.x) {
    const acc_t e = ksw_exp(p_s[j] - m);
    p_s[j] = e;
    local_sum += e;
  }
  const acc_t sum = block_reduce(local_sum, red, SumOp());  // its barrier publishes p_s
  const acc_t inv = acc_t(1) / sum;

  for (int64_t x = threadIdx.x; x < Dv; x += blockDim.x) {
    acc_t acc = 0;
    for (int64_t j = 0; j < nk; ++j) acc += p_s[j] * static_cast<acc_t>(vb[j * Dv + x]);
    out[row * Dv + x] = static_cast<scalar_t>(acc * inv);
  }
  if (threadIdx.x == 0) lse[row] = m + ksw_log(sum);
}

// One block per query row. Writes delta[row] and dq[row, :].
// Dynamic shared memory: q_s[D], do_s[Dv], ds_s[Lk] (acc_t).
template <typename scalar_t, typename acc_t>
__global__ void __launch_bounds__(kThreads)
    probe_bwd_dq_kernel(const scalar_t* __restrict__ dout, const scalar_t* __restrict__ q,
                        const scalar_t* __restrict__ k, const scalar_t* __restrict__ v,
                        const scalar_t* __restrict__ out, const acc_t* __restrict__ lse,
                        acc_t* __restrict__ delta, scalar_t* __restrict__ dq, int64_t Lq,
                        int64_t Lk, int64_t D, int64_t Dv, bool causal, acc_t scale) {
  extern __shared__ __align__(16) unsigned char ksw_smem[];
  __shared__ acc_t red[32];
  acc_t* q_s = reinterpret_cast<acc_t*>(ksw_smem);
  acc_t* do_s = q_s + D;
  acc_t* ds_s = do_s + Dv;

  const int64_t row = blockIdx.x;
  const int64_t bh = row / Lq;
  const int64_t i = row % Lq;
  const scalar_t* kb = k + bh * Lk * D;
  const scalar_t* vb = v + bh * Lk * Dv;
  const int64_t nk = causal ? (i + 1 < Lk ? i + 1 : Lk) : Lk;

  for (int64_t x = threadIdx.x; x < D; x += blockDim.x) {
    q_s[x] = static_cast<acc_t>(q[row * D + x]);
  }
  acc_t local = 0;
  for (int64_t x = threadIdx.x; x < Dv; x += blockDim.x) {
    const acc_t g = static_cast<acc_t>(dout[row * Dv + x]);
    do_s[x] = g;
    local += g * static_cast<acc_t>(out[row * Dv + x]);
  }
  const acc_t delta_i = block_reduce(local, red, SumOp());  // its barrier publishes q_s, do_s
  if (threadIdx.x == 0) delta[row] = delta_i;
  const acc_t lse_i = lse[row];

  for (int64_t j = threadIdx.x; j < nk; j += blockDim.x) {
    const scalar_t* kj = kb + j * D;
    const scalar_t* vj = vb + j * Dv;
    acc_t s = 0;
    for (int64_t x = 0; x < D; ++x) s += q_s[x] * static_cast<acc_t>(kj[x]);
    const acc_t p = ksw_exp(s * scale - lse_i);
    acc_t dp = 0;
    for (int64_t x = 0; x < Dv; ++x) dp += do_s[x] * static_cast<acc_t>(vj[x]);
    ds_s[j] = p * (dp - delta_i);
  }
  __syncthreads();

  for (int64_t x = threadIdx.x; x < D; x += blockDim.x) {
    acc_t acc = 0;
    for (int64_t j = 0; j < nk; ++j) acc += ds_s[j] * static_cast<acc_t>(kb[j * D + x]);
    dq[row * D + x] = static_cast<scalar_t>(acc * scale);
  }
}

// One block per key row: krow = (b * H + h) * Lk + j. Writes dk[krow, :] and dv[krow, :].
// Dynamic shared memory: k_s[D], v_s[Dv], p_s[Lq], ds_s[Lq] (acc_t).
template <typename scalar_t, typename acc_t>
__global__ void __launch_bounds__(kThreads)
    probe_bwd_dkdv_kernel(const scalar_t* __restrict__ dout, const scalar_t* __restrict__ q,
                          const scalar_t* __restrict__ k, const scalar_t* __restrict__ v,
                          const acc_t* __restrict__ lse, const acc_t* __restrict__ delta,
                          scalar_t* __restrict__ dk, scalar_t* __restrict__ dv, int64_t Lq,
                          int64_t Lk, int64_t D, int64_t Dv, bool causal, acc_t scale) {
  extern __shared__ __align__(16) unsigned char ksw_smem[];
  acc_t* k_s = reinterpret_cast<acc_t*>(ksw_smem);
  acc_t* v_s = k_s + D;
  acc_t* p_s = v_s + Dv;
  acc_t* ds_s = p_s + Lq;

  const int64_t krow = blockIdx.x;
  const int64_t bh = krow / Lk;
  const int64_t j = krow % Lk;
  const scalar_t* qb = q + bh * Lq * D;
  const scalar_t* dob = dout + bh * Lq * Dv;
  const acc_t* lseb = lse + bh * Lq;
  const acc_t* deltab = delta + bh * Lq;
  const int64_t i0 = causal ? j : 0;  // queries that see key j (none when j >= Lq)

  for (int64_t x = threadIdx.x; x < D; x += blockDim.x) {
    k_s[x] = static_cast<acc_t>(k[krow * D + x]);
  }
  for (int64_t x = threadIdx.x; x < Dv; x += blockDim.x) {
    v_s[x] = static_cast<acc_t>(v[krow * Dv + x]);
  }
  __syncthreads();

  for (int64_t i = i0 + threadIdx.x; i < Lq; i += blockDim.x) {
    const scalar_t* qi = qb + i * D;
    const scalar_t* doi = dob + i * Dv;
    acc_t s = 0;
    for (int64_t x = 0; x < D; ++x) s += static_cast<acc_t>(qi[x]) * k_s[x];
    const acc_t p = ksw_exp(s * scale - lseb[i]);
    acc_t dp = 0;
    for (int64_t x = 0; x < Dv; ++x) dp += static_cast<acc_t>(doi[x]) * v_s[x];
    p_s[i] = p;
    ds_s[i] = p * (dp - deltab[i]);
  }
  __syncthreads();

  for (int64_t x = threadIdx.x; x < Dv; x += blockDim.x) {
    acc_t acc = 0;
    for (int64_t i = i0; i < Lq; ++i) acc += p_s[i] * static_cast<acc_t>(dob[i * Dv + x]);
    dv[krow * Dv + x] = static_cast<scalar_t>(acc);
  }
  for (int64_t x = threadIdx.x; x < D; x += blockDim.x) {
    acc_t acc = 0;
    for (int64_t i = i0; i < Lq; ++i) acc += ds_s[i] * static_cast<acc_t>(qb[i * D + x]);
    dk[krow * D + x] = static_cast<scalar_t>(acc * scale);
  }
}

int64_t acc_size(at::ScalarType t) { return t == at::kDouble ? 8 : 4; }

void check_shared(int64_t bytes, const char* what, const at::Tensor& q, const at::Tensor& k,
                  const at::Tensor& v) {
  TORCH_CHECK(bytes <= kMaxSharedBytes, "ksw_probe.attention (CUDA ", what,
              "): these shapes need ", bytes, " bytes of shared memory per block, more than ",
              kMaxSharedBytes, "; the probe kernel is meant for small shapes (q ", q.sizes(),
              ", k ", k.sizes(), ", v ", v.sizes(), ", ", q.scalar_type(), ")");
}

// torch's current stream on q's device (what c10::cuda::getCurrentCUDAStream() returns), so the
// kernels are ordered with the surrounding torch work.
cudaStream_t current_stream(const at::Device& device) {
  const c10::Stream stream =
      c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)->getStream(device);
  return static_cast<cudaStream_t>(stream.native_handle());
}

void check_launch(const char* what) {
  const cudaError_t err = cudaGetLastError();
  TORCH_CHECK(err == cudaSuccess, "ksw_probe.attention: launching the CUDA ", what,
              " kernel failed: ", cudaGetErrorName(err), ": ", cudaGetErrorString(err));
}

void check_grid(int64_t blocks, const char* what) {
  TORCH_CHECK(blocks <= INT_MAX, "ksw_probe.attention (CUDA ", what, "): too many rows (",
              blocks, "); the probe kernel is meant for small shapes");
}

}  // namespace

std::string cuda_runtime_version() {
  return std::to_string(CUDART_VERSION / 1000) + "." + std::to_string((CUDART_VERSION % 1000) / 10);
}

std::tuple<at::Tensor, at::Tensor> forward_cuda(const at::Tensor& q, const at::Tensor& k,
                                                const at::Tensor& v, bool causal,
                                                double scale) {
  const c10::DeviceGuard device_guard(q.device());
  const int64_t B = q.size(0), H = q.size(1), Lq = q.size(2), D = q.size(3);
  const int64_t Lk = k.size(2), Dv = v.size(3);
  const at::ScalarType acc_type = q.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  at::Tensor out = at::empty({B, H, Lq, Dv}, q.options());
  at::Tensor lse = at::empty({B, H, Lq}, q.options().dtype(acc_type));
  const int64_t rows = B * H * Lq;
  if (rows == 0) return {out, lse};

  const int64_t smem = (D + Lk) * acc_size(q.scalar_type());
  check_shared(smem, "forward", q, k, v);
  check_grid(rows, "forward");
  const cudaStream_t stream = current_stream(q.device());

  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, q.scalar_type(),
                                  "ksw_probe_forward_cuda", [&] {
    using acc_t = typename AccType<scalar_t>::type;
    probe_fwd_kernel<scalar_t, acc_t>
        <<<static_cast<unsigned int>(rows), kThreads, static_cast<size_t>(smem), stream>>>(
            q.data_ptr<scalar_t>(), k.data_ptr<scalar_t>(), v.data_ptr<scalar_t>(),
            out.data_ptr<scalar_t>(), lse.data_ptr<acc_t>(), Lq, Lk, D, Dv, causal,
            static_cast<acc_t>(scale));
    check_launch("forward");
  });
  return {out, lse};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> backward_cuda(
    const at::Tensor& dout, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
    const at::Tensor& out, const at::Tensor& lse, bool causal, double scale) {
  const c10::DeviceGuard device_guard(q.device());
  const int64_t B = q.size(0), H = q.size(1), Lq = q.size(2), D = q.size(3);
  const int64_t Lk = k.size(2), Dv = v.size(3);
  at::Tensor dq = at::empty_like(q);
  at::Tensor dk = at::empty_like(k);
  at::Tensor dv = at::empty_like(v);
  at::Tensor delta = at::empty({B, H, Lq}, lse.options());
  const int64_t qrows = B * H * Lq;
  const int64_t krows = B * H * Lk;
  if (qrows == 0) {  // no queries: nothing flows back to k and v either
    dk.zero_();
    dv.zero_();
    return {dq, dk, dv};
  }
  if (krows == 0) return {dq, dk, dv};

  const int64_t esize = acc_size(q.scalar_type());
  const int64_t smem_dq = (D + Dv + Lk) * esize;
  const int64_t smem_dkdv = (D + Dv + 2 * Lq) * esize;
  check_shared(smem_dq, "backward dq", q, k, v);
  check_shared(smem_dkdv, "backward dk/dv", q, k, v);
  check_grid(qrows, "backward dq");
  check_grid(krows, "backward dk/dv");
  const cudaStream_t stream = current_stream(q.device());

  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, q.scalar_type(),
                                  "ksw_probe_backward_cuda", [&] {
    using acc_t = typename AccType<scalar_t>::type;
    probe_bwd_dq_kernel<scalar_t, acc_t>
        <<<static_cast<unsigned int>(qrows), kThreads, static_cast<size_t>(smem_dq), stream>>>(
            dout.data_ptr<scalar_t>(), q.data_ptr<scalar_t>(), k.data_ptr<scalar_t>(),
            v.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), lse.data_ptr<acc_t>(),
            delta.data_ptr<acc_t>(), dq.data_ptr<scalar_t>(), Lq, Lk, D, Dv, causal,
            static_cast<acc_t>(scale));
    check_launch("backward dq");
    probe_bwd_dkdv_kernel<scalar_t, acc_t>
        <<<static_cast<unsigned int>(krows), kThreads, static_cast<size_t>(smem_dkdv),
           stream>>>(dout.data_ptr<scalar_t>(), q.data_ptr<scalar_t>(), k.data_ptr<scalar_t>(),
                     v.data_ptr<scalar_t>(), lse.data_ptr<acc_t>(), delta.data_ptr<acc_t>(),
                     dk.data_ptr<scalar_t>(), dv.data_ptr<scalar_t>(), Lq, Lk, D, Dv, causal,
                     static_cast<acc_t>(scale));
    check_launch("backward dk/dv");
  });
  return {dq, dk, dv};
}

}  // namespace ksw_probe
