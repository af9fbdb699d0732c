// ksw-probe-kernel: a small, real attention extension that proves a toolchain can build
// PyTorch C++/CUDA code. This file holds the input checks, the CPU forward/backward and the
// Python bindings; csrc/probe_attention_cuda.cu holds the CUDA kernels (compiled only when the
// extension is built with -DKSW_WITH_CUDA).
//
// Math (per batch b, head h, query row i, key row j):
//   s_ij  = scale * <q_i, k_j>            (masked to -inf when causal and j > i)
//   lse_i = log(sum_j exp(s_ij))          (computed stably: m_i + log(sum_j exp(s_ij - m_i)))
//   P_ij  = exp(s_ij - lse_i)
//   o_i   = sum_j P_ij v_j
// Backward, with delta_i = <do_i, o_i>:
//   dP_ij = <do_i, v_j>,  dS_ij = P_ij (dP_ij - delta_i)
//   dq_i  = scale * sum_j dS_ij k_j,  dk_j = scale * sum_i dS_ij q_i,  dv_j = sum_i P_ij do_i
// The causal mask is aligned top-left (key j is visible to query i when j <= i), as in
// torch.nn.functional.scaled_dot_product_attention(is_causal=True); every query row sees at
// least key 0, so no row is ever fully masked.

#include <torch/extension.h>

#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <torch/version.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ksw_probe {

#ifdef KSW_WITH_CUDA
// Implemented in probe_attention_cuda.cu. Inputs are already checked and contiguous.
std::tuple<at::Tensor, at::Tensor> forward_cuda(const at::Tensor& q, const at::Tensor& k,
                                                const at::Tensor& v, bool causal,
                                                double scale);
std::tuple<at::Tensor, at::Tensor, at::Tensor> backward_cuda(
    const at::Tensor& dout, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
    const at::Tensor& out, const at::Tensor& lse, bool causal, double scale);
std::string cuda_runtime_version();
#endif

namespace {

template <typename T>
struct AccType {
  using type = float;
};
template <>
struct AccType<double> {
  using type = double;
};

at::ScalarType acc_scalar_type(at::ScalarType t) {
  return t == at::kDouble ? at::kDouble : at::kFloat;
}

struct Dims {
  int64_t B, H, Lq, Lk, D, Dv;
};

std::string shape_str(const at::Tensor& t) {
  std::string s = "(";
  for (int64_t i = 0; i < t.dim(); ++i) {
    if (i) s += ", ";
    s += std::to_string(t.size(i));
  }
  return s + ")";
}

bool supported_dtype(at::ScalarType t) {
  return t == at::kFloat || t == at::kDouble || t == at::kHalf || t == at::kBFloat16;
}

Dims check_qkv(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v) {
  TORCH_CHECK(q.defined() && k.defined() && v.defined(),
              "ksw_probe.attention: q, k and v must all be tensors");
  TORCH_CHECK(q.dim() == 4 && k.dim() == 4 && v.dim() == 4,
              "ksw_probe.attention: q, k and v must be 4-D (batch, heads, seqlen, head_dim); got "
              "q ", shape_str(q), ", k ", shape_str(k), ", v ", shape_str(v));
  TORCH_CHECK(q.scalar_type() == k.scalar_type() && q.scalar_type() == v.scalar_type(),
              "ksw_probe.attention: q, k and v must have the same dtype; got ", q.scalar_type(),
              ", ", k.scalar_type(), ", ", v.scalar_type());
  TORCH_CHECK(supported_dtype(q.scalar_type()),
              "ksw_probe.attention: unsupported dtype ", q.scalar_type(),
              "; supported: float32, float64, float16, bfloat16");
  TORCH_CHECK(q.device() == k.device() && q.device() == v.device(),
              "ksw_probe.attention: q, k and v must be on the same device; got ", q.device(),
              ", ", k.device(), ", ", v.device());
  TORCH_CHECK(q.device().is_cpu() || q.device().is_cuda(),
              "ksw_probe.attention: tensors must be on the CPU or a CUDA device; got ",
              q.device());
  const Dims d{q.size(0), q.size(1), q.size(2), k.size(2), q.size(3), v.size(3)};
  TORCH_CHECK(k.size(0) == d.B && v.size(0) == d.B,
              "ksw_probe.attention: batch sizes differ: q ", shape_str(q), ", k ", shape_str(k),
              ", v ", shape_str(v));
  TORCH_CHECK(k.size(1) == d.H && v.size(1) == d.H,
              "ksw_probe.attention: head counts differ: q ", shape_str(q), ", k ", shape_str(k),
              ", v ", shape_str(v));
  TORCH_CHECK(v.size(2) == d.Lk,
              "ksw_probe.attention: k and v must have the same seqlen; got k ", shape_str(k),
              ", v ", shape_str(v));
  TORCH_CHECK(k.size(3) == d.D,
              "ksw_probe.attention: q and k must have the same head_dim; got q ", shape_str(q),
              ", k ", shape_str(k));
  TORCH_CHECK(d.Lk > 0, "ksw_probe.attention: k and v need at least one key (seqlen_k > 0)");
  TORCH_CHECK(d.D > 0 && d.Dv > 0, "ksw_probe.attention: head_dim must be > 0");
  return d;
}

double resolve_scale(std::optional<double> scale, int64_t head_dim) {
  if (scale.has_value()) {
    TORCH_CHECK(std::isfinite(*scale), "ksw_probe.attention: scale must be finite, got ",
                *scale);
    return *scale;
  }
  return 1.0 / std::sqrt(static_cast<double>(head_dim));
}

// ---------------------------------------------------------------------------------------------
// CPU kernels: plain loops, parallel over (batch * heads), accumulation in float (double for
// float64 inputs).

template <typename scalar_t>
void forward_cpu_impl(const scalar_t* q, const scalar_t* k, const scalar_t* v, scalar_t* out,
                      typename AccType<scalar_t>::type* lse, const Dims& d, bool causal,
                      double scale_d) {
  using acc_t = typename AccType<scalar_t>::type;
  const acc_t scale = static_cast<acc_t>(scale_d);
  at::parallel_for(0, d.B * d.H, 1, [&](int64_t begin, int64_t end) {
    std::vector<acc_t> p(d.Lk);
    std::vector<acc_t> o(d.Dv);
    for (int64_t bh = begin; bh < end; ++bh) {
      const scalar_t* kb = k + bh * d.Lk * d.D;
      const scalar_t* vb = v + bh * d.Lk * d.Dv;
      for (int64_t i = 0; i < d.Lq; ++i) {
        const int64_t row = bh * d.Lq + i;
        const scalar_t* qi = q + row * d.D;
        const int64_t nk = causal ? std::min<int64_t>(i + 1, d.Lk) : d.Lk;
        acc_t m = -std::numeric_limits<acc_t>::infinity();
        for (int64_t j = 0; j < nk; ++j) {
          const scalar_t* kj = kb + j * d.D;
          acc_t s = 0;
          for (int64_t x = 0; x < d.D; ++x) {
            s += static_cast<acc_t>(qi[x]) * static_cast<acc_t>(kj[x]);
          }
          s *= scale;
          p[j] = s;
          m = std::max(m, s);
        }
        acc_t sum = 0;
        for (int64_t j = 0; j < nk; ++j) {
          p[j] = std::exp(p[j] - m);
          sum += p[j];
        }
        std::fill(o.begin(), o.end(), acc_t(0));
        for (int64_t j = 0; j < nk; ++j) {
          const scalar_t* vj = vb + j * d.Dv;
          for (int64_t x = 0; x < d.Dv; ++x) {
            o[x] += p[j] * static_cast<acc_t>(vj[x]);
          }
        }
        const acc_t inv = acc_t(1) / sum;
        scalar_t* oi = out + row * d.Dv;
        for (int64_t x = 0; x < d.Dv; ++x) {
          oi[x] = static_cast<scalar_t>(o[x] * inv);
        }
        lse[row] = m + std::log(sum);
      }
    }
  });
}

template <typename scalar_t>
void backward_cpu_impl(const scalar_t* dout, const scalar_t* q, const scalar_t* k,
                       const scalar_t* v, const scalar_t* out,
                       const typename AccType<scalar_t>::type* lse, scalar_t* dq, scalar_t* dk,
                       scalar_t* dv, const Dims& d, bool causal, double scale_d) {
  using acc_t = typename AccType<scalar_t>::type;
  const acc_t scale = static_cast<acc_t>(scale_d);
  at::parallel_for(0, d.B * d.H, 1, [&](int64_t begin, int64_t end) {
    std::vector<acc_t> dq_acc(d.D);
    std::vector<acc_t> dk_acc(d.Lk * d.D);
    std::vector<acc_t> dv_acc(d.Lk * d.Dv);
    for (int64_t bh = begin; bh < end; ++bh) {
      const scalar_t* kb = k + bh * d.Lk * d.D;
      const scalar_t* vb = v + bh * d.Lk * d.Dv;
      std::fill(dk_acc.begin(), dk_acc.end(), acc_t(0));
      std::fill(dv_acc.begin(), dv_acc.end(), acc_t(0));
      for (int64_t i = 0; i < d.Lq; ++i) {
        const int64_t row = bh * d.Lq + i;
        const scalar_t* qi = q + row * d.D;
        const scalar_t* doi = dout + row * d.Dv;
        const scalar_t* oi = out + row * d.Dv;
        acc_t delta = 0;
        for (int64_t x = 0; x < d.Dv; ++x) {
          delta += static_cast<acc_t>(doi[x]) * static_cast<acc_t>(oi[x]);
        }
        const acc_t lse_i = lse[row];
        const int64_t nk = causal ? std::min<int64_t>(i + 1, d.Lk) : d.Lk;
        std::fill(dq_acc.begin(), dq_acc.end(), acc_t(0));
        for (int64_t j = 0; j < nk; ++j) {
          const scalar_t* kj = kb + j * d.D;
          const scalar_t* vj = vb + j * d.Dv;
          acc_t s = 0;
          for (int64_t x = 0; x < d.D; ++x) {
            s += static_cast<acc_t>(qi[x]) * static_cast<acc_t>(kj[x]);
          }
          const acc_t p = std::exp(s * scale - lse_i);
          acc_t dp = 0;
          for (int64_t x = 0; x < d.Dv; ++x) {
            dp += static_cast<acc_t>(doi[x]) * static_cast<acc_t>(vj[x]);
          }
          const acc_t ds = p * (dp - delta);
          acc_t* dkj = dk_acc.data() + j * d.D;
          for (int64_t x = 0; x < d.D; ++x) {
            dq_acc[x] += ds * static_cast<acc_t>(kj[x]);
            dkj[x] += ds * static_cast<acc_t>(qi[x]);
          }
          acc_t* dvj = dv_acc.data() + j * d.Dv;
          for (int64_t x = 0; x < d.Dv; ++x) {
            dvj[x] += p * static_cast<acc_t>(doi[x]);
          }
        }
        scalar_t* dqi = dq + row * d.D;
        for (int64_t x = 0; x < d.D; ++x) {
          dqi[x] = static_cast<scalar_t>(scale * dq_acc[x]);
        }
      }
      scalar_t* dkb = dk + bh * d.Lk * d.D;
      for (int64_t n = 0; n < d.Lk * d.D; ++n) {
        dkb[n] = static_cast<scalar_t>(scale * dk_acc[n]);
      }
      scalar_t* dvb = dv + bh * d.Lk * d.Dv;
      for (int64_t n = 0; n < d.Lk * d.Dv; ++n) {
        dvb[n] = static_cast<scalar_t>(dv_acc[n]);
      }
    }
  });
}

std::tuple<at::Tensor, at::Tensor> forward_cpu(const at::Tensor& q, const at::Tensor& k,
                                               const at::Tensor& v, const Dims& d, bool causal,
                                               double scale) {
  at::Tensor out = at::empty({d.B, d.H, d.Lq, d.Dv}, q.options());
  at::Tensor lse = at::empty({d.B, d.H, d.Lq}, q.options().dtype(acc_scalar_type(q.scalar_type())));
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, q.scalar_type(),
                                  "ksw_probe_forward_cpu", [&] {
    using acc_t = typename AccType<scalar_t>::type;
    forward_cpu_impl<scalar_t>(q.data_ptr<scalar_t>(), k.data_ptr<scalar_t>(),
                               v.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(),
                               lse.data_ptr<acc_t>(), d, causal, scale);
  });
  return {out, lse};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> backward_cpu(
    const at::Tensor& dout, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
    const at::Tensor& out, const at::Tensor& lse, const Dims& d, bool causal, double scale) {
  at::Tensor dq = at::empty_like(q);
  at::Tensor dk = at::empty_like(k);
  at::Tensor dv = at::empty_like(v);
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, q.scalar_type(),
                                  "ksw_probe_backward_cpu", [&] {
    using acc_t = typename AccType<scalar_t>::type;
    backward_cpu_impl<scalar_t>(dout.data_ptr<scalar_t>(), q.data_ptr<scalar_t>(),
                                k.data_ptr<scalar_t>(), v.data_ptr<scalar_t>(),
                                out.data_ptr<scalar_t>(), lse.data_ptr<acc_t>(),
                                dq.data_ptr<scalar_t>(), dk.data_ptr<scalar_t>(),
                                dv.data_ptr<scalar_t>(), d, causal, scale);
  });
  return {dq, dk, dv};
}

#ifndef KSW_WITH_CUDA
constexpr const char* kNoCudaMessage =
    "ksw_probe.attention: got CUDA tensors, but this ksw_probe was built without CUDA "
    "(CPU-only build: no CUDA toolkit, a CPU build of torch, or KSW_PROBE_CPU_ONLY=1). "
    "Rebuild it with a CUDA toolkit and a CUDA build of torch.";
#endif

}  // namespace

// ---------------------------------------------------------------------------------------------
// Entry points bound to Python.

std::tuple<at::Tensor, at::Tensor> forward(const at::Tensor& q_in, const at::Tensor& k_in,
                                           const at::Tensor& v_in, bool causal,
                                           std::optional<double> scale_opt) {
  const Dims d = check_qkv(q_in, k_in, v_in);
  const double scale = resolve_scale(scale_opt, d.D);
  const at::Tensor q = q_in.contiguous();
  const at::Tensor k = k_in.contiguous();
  const at::Tensor v = v_in.contiguous();
  if (q.is_cuda()) {
#ifdef KSW_WITH_CUDA
    return forward_cuda(q, k, v, causal, scale);
#else
    TORCH_CHECK(false, kNoCudaMessage);
#endif
  }
  return forward_cpu(q, k, v, d, causal, scale);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> backward(
    const at::Tensor& dout_in, const at::Tensor& q_in, const at::Tensor& k_in,
    const at::Tensor& v_in, const at::Tensor& out_in, const at::Tensor& lse_in, bool causal,
    std::optional<double> scale_opt) {
  const Dims d = check_qkv(q_in, k_in, v_in);
  const double scale = resolve_scale(scale_opt, d.D);
  TORCH_CHECK(dout_in.defined() && out_in.defined() && lse_in.defined(),
              "ksw_probe.attention backward: dout, out and lse must be tensors");
  TORCH_CHECK(dout_in.sizes() == out_in.sizes() &&
                  out_in.sizes() == at::IntArrayRef({d.B, d.H, d.Lq, d.Dv}),
              "ksw_probe.attention backward: dout and out must have shape (batch, heads, "
              "seqlen_q, head_dim_v) = (", d.B, ", ", d.H, ", ", d.Lq, ", ", d.Dv, "); got dout ",
              shape_str(dout_in), ", out ", shape_str(out_in));
  TORCH_CHECK(lse_in.sizes() == at::IntArrayRef({d.B, d.H, d.Lq}),
              "ksw_probe.attention backward: lse must have shape (batch, heads, seqlen_q); got ",
              shape_str(lse_in));
  TORCH_CHECK(dout_in.device() == q_in.device() && out_in.device() == q_in.device() &&
                  lse_in.device() == q_in.device(),
              "ksw_probe.attention backward: dout, out and lse must be on ", q_in.device());
  TORCH_CHECK(lse_in.scalar_type() == acc_scalar_type(q_in.scalar_type()),
              "ksw_probe.attention backward: lse must be ", acc_scalar_type(q_in.scalar_type()),
              " for ", q_in.scalar_type(), " inputs; got ", lse_in.scalar_type());
  const at::Tensor q = q_in.contiguous();
  const at::Tensor k = k_in.contiguous();
  const at::Tensor v = v_in.contiguous();
  const at::Tensor out = out_in.to(q.scalar_type()).contiguous();
  const at::Tensor dout = dout_in.to(q.scalar_type()).contiguous();
  const at::Tensor lse = lse_in.contiguous();
  if (q.is_cuda()) {
#ifdef KSW_WITH_CUDA
    return backward_cuda(dout, q, k, v, out, lse, causal, scale);
#else
    TORCH_CHECK(false, kNoCudaMessage);
#endif
  }
  return backward_cpu(dout, q, k, v, out, lse, d, causal, scale);
}

bool has_cuda() {
#ifdef KSW_WITH_CUDA
  return true;
#else
  return false;
#endif
}

// What the binary itself knows about how it was built. The Python package adds what setup.py
// recorded (the CUDA arch list, the full torch version string).
pybind11::dict native_build_info() {
  pybind11::dict info;
  info["cuda"] = has_cuda();
  info["torch_version"] = std::string(TORCH_VERSION);
#ifdef KSW_WITH_CUDA
  info["cuda_version"] = cuda_runtime_version();
#else
  info["cuda_version"] = pybind11::none();
#endif
#if defined(_GLIBCXX_USE_CXX11_ABI)
  info["cxx11_abi"] = static_cast<bool>(_GLIBCXX_USE_CXX11_ABI);
#else
  info["cxx11_abi"] = pybind11::none();
#endif
  return info;
}

}  // namespace ksw_probe

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.doc() = "ksw-probe-kernel: scaled-dot-product attention on small shapes (CPU and CUDA)";
  m.def("forward", &ksw_probe::forward, "attention forward -> (out, lse)", pybind11::arg("q"),
        pybind11::arg("k"), pybind11::arg("v"), pybind11::arg("causal") = false,
        pybind11::arg("scale") = pybind11::none());
  m.def("backward", &ksw_probe::backward, "attention backward -> (dq, dk, dv)",
        pybind11::arg("dout"), pybind11::arg("q"), pybind11::arg("k"), pybind11::arg("v"),
        pybind11::arg("out"), pybind11::arg("lse"), pybind11::arg("causal") = false,
        pybind11::arg("scale") = pybind11::none());
  m.def("has_cuda", &ksw_probe::has_cuda, "True if this build contains the CUDA kernels");
  m.def("build_info", &ksw_probe::native_build_info, "what the binary knows about its build");
}
